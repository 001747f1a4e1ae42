//! Sizes of the whole moving phase against the published figures.

use morris_db::plan::{plan, render, thousands, totals};
use morris_db::symmetry::positions;
use morris_db::{classes, slots, Index, Key};
use morris_engine::board::NINE;
use morris_engine::Rules;

/// Gasser (1996) and Gévay and Danner (2015): 3..9 stones a side, side to move fixed.
const POSITIONS: u64 = 142_430_121_724;
const CLASSES: u64 = 8_904_593_601;

fn moving_keys() -> impl Iterator<Item = Key> {
    (3..=9).flat_map(|m| (3..=9).map(move |o| Key::moving(m, o)))
}

#[test]
fn moving_phase_totals() {
    let positions: u64 = moving_keys().map(|k| positions(&NINE, k)).sum();
    let classes: u64 = moving_keys().map(|k| classes(&NINE, k)).sum();
    let slots: u64 = moving_keys().map(|k| slots(&NINE, k)).sum();
    let overhead = (slots as f64 / classes as f64 - 1.0) * 100.0;
    println!(
        "moving phase 3..9: {} positions, {} classes, {} slots, overhead {overhead:.3}%",
        thousands(positions),
        thousands(classes),
        thousands(slots)
    );
    assert_eq!(positions, POSITIONS);
    assert_eq!(classes, CLASSES);
    assert!(
        slots <= CLASSES + CLASSES / 20,
        "more than 5% over the classes"
    );
    // Ranking the side with fewer stones is Gasser's layout: his slot count exactly.
    assert_eq!(slots, 9_074_932_579);
}

#[test]
fn largest_keys() {
    assert_eq!(classes(&NINE, Key::moving(8, 8)), 591_726_690);
    assert_eq!(classes(&NINE, Key::moving(9, 8)), 525_979_400);
    assert_eq!(classes(&NINE, Key::moving(8, 9)), 525_979_400);
    assert_eq!(classes(&NINE, Key::moving(9, 9)), 409_106_740);
}

/// The index built from its tables has the size the counting formula gives.
#[test]
fn index_sizes_match_the_formula() {
    for k in moving_keys().chain([Key::new(0, 0, 9, 9), Key::new(1, 0, 8, 9)]) {
        assert_eq!(Index::new(&NINE, k).size(), slots(&NINE, k), "{k}");
    }
}

#[test]
fn plan_of_the_moving_phase() {
    let rows = plan(&Rules::nine(), 9);
    let t = totals(&rows);
    println!("{}", render(&rows));
    assert_eq!(t.keys, 49);
    assert_eq!(t.classes, CLASSES);
    assert!(t.overhead_percent() < 5.0);
    let biggest = rows.iter().max_by_key(|r| r.classes).unwrap();
    assert_eq!(biggest.classes, 2 * 525_979_400);
    let pair = rows.iter().find(|r| r.name() == "9-8 + 8-9").unwrap();
    assert_eq!(pair.classes, 2 * 525_979_400);
    // A capture from 9-8 or 8-9 leaves 8-8 or 9-7 (7-9) stones.
    assert_eq!(pair.depends_on, vec![Key::moving(8, 8), Key::moving(9, 7)]);
}
