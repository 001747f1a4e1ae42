//! Forward verification of solved keys: clean on a correct solve, loud on a damaged entry;
//! and solving is deterministic.

mod common;

use common::Damaged;
use morris_db::format::Metric;
use morris_db::{Key, Outcome};
use morris_engine::{Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::verify::verify_key;

#[test]
fn verify_passes_and_catches_damage() {
    let rules = Rules::nine();
    let sol = Solution::solve_moving(&rules, 4, &Silent);
    for row in morris_db::plan::plan(&rules, 4) {
        for key in row.keys {
            let r = verify_key(&rules, Metric::Plain, key, &sol, 10, &Silent);
            assert_eq!(r.mismatch_count, 0, "{key}: {:?}", r.mismatches);
            assert!(r.checked > 0);
        }
    }
    // Damage the Gasser position (a loss in 26) into a loss in 24.
    let key = Key::moving(3, 3);
    let (index, _) = sol.key(key).unwrap();
    let pos = Position::parse("W:d7,g1,g7 B:a4,d5,g4 b 0 0", &rules).unwrap();
    let slot = index.index(pos.us(), pos.them());
    let damaged = Damaged {
        inner: &sol,
        hit: |pos: &Position| {
            morris_tablebase::key_of(pos) == index.key()
                && index.index(pos.us(), pos.them()) == slot
        },
        value: Outcome::Loss(24),
    };
    let r = verify_key(&rules, Metric::Plain, key, &damaged, 1000, &Silent);
    assert!(r.mismatch_count >= 1);
    let own = r
        .mismatches
        .iter()
        .find(|m| m.slot == slot)
        .expect("the damaged entry is reported");
    assert_eq!(own.stored, Outcome::Loss(24));
    assert_eq!(own.recomputed, Outcome::Loss(26));
}

#[test]
fn solving_is_deterministic() {
    let rules = Rules::nine();
    let a = Solution::solve_moving(&rules, 4, &Silent);
    let b = Solution::solve_moving(&rules, 4, &Silent);
    for row in morris_db::plan::plan(&rules, 4) {
        for key in row.keys {
            assert_eq!(a.key(key).unwrap().1, b.key(key).unwrap().1, "{key}");
        }
    }
}
