//! Every position of small keys, every slot: the index is a perfect hash of the classes.

use morris_db::{classes, slots, Index, Key};
use morris_engine::board::{DARA, NINE, SIX, THREE};
use morris_engine::{Bitboard, Board};

/// Calls `f` for every position of `key` on `board`.
fn for_each_position(board: &Board, key: Key, mut f: impl FnMut(Bitboard, Bitboard)) {
    let all = board.all().bits();
    for_each_subset(all, key.us as u32, &mut |us: u32| {
        for_each_subset(all & !us, key.them as u32, &mut |them: u32| {
            f(Bitboard(us), Bitboard(them))
        });
    });
}

/// Every `k`-subset of `set`, in no particular order.
fn for_each_subset(set: u32, k: u32, f: &mut dyn FnMut(u32)) {
    fn go(rest: u32, k: u32, acc: u32, f: &mut dyn FnMut(u32)) {
        if k == 0 {
            return f(acc);
        }
        if rest.count_ones() < k {
            return;
        }
        let low = rest & rest.wrapping_neg();
        go(rest & !low, k - 1, acc | low, f);
        go(rest & !low, k, acc, f);
    }
    go(set, k, 0, f)
}

/// The smallest (us, them) image of a position: equal for two positions exactly when they are
/// in the same orbit.
fn orbit_id(ix: &Index, us: Bitboard, them: Bitboard) -> (u32, u32) {
    (0..ix.symmetry_count())
        .map(|s| (ix.transform(s, us).bits(), ix.transform(s, them).bits()))
        .min()
        .unwrap()
}

fn check_key(board: &'static Board, key: Key) {
    let ix = Index::new(board, key);
    assert_eq!(ix.size(), slots(board, key), "{key}");
    let exact = classes(board, key);
    let mut hit = vec![false; ix.size() as usize];
    let mut positions = 0u64;
    for_each_position(board, key, |us, them| {
        positions += 1;
        let i = ix.index(us, them);
        assert!(i < ix.size(), "{key}: slot {i} of {}", ix.size());
        assert_eq!(ix.with_us(us).index(them), i, "{key}: with_us");
        assert_eq!(ix.with_them(them).index(us), i, "{key}: with_them");
        for s in 0..ix.symmetry_count() {
            let (su, st) = (ix.transform(s, us), ix.transform(s, them));
            assert_eq!(
                ix.index(su, st),
                i,
                "{key}: symmetry {s} of {us:?} {them:?} changes the slot"
            );
        }
        // Implied by the counts below (constant on orbits, as many slots hit as there are
        // orbits); checked directly on a sample as well.
        if positions % 61 == 1 {
            let (bu, bt) = ix.unindex(i);
            assert_eq!(
                orbit_id(&ix, bu, bt),
                orbit_id(&ix, us, them),
                "{key}: slot {i} unindexes outside the orbit of {us:?} {them:?}"
            );
        }
        hit[i as usize] = true;
        // A fixed side with each empty point added to the other side in turn.
        if positions.is_multiple_of(7) {
            for (fixed, other, swap) in [
                (ix.with_us(us), them, false),
                (ix.with_them(them), us, true),
            ] {
                let Some(low) = other.into_iter().next() else {
                    continue;
                };
                let other = other.without(low);
                let added = board.all() - us - them;
                let added = added.with(low);
                let mut slots = Vec::new();
                fixed.for_each_added(other, added, |s| slots.push(s));
                let expected: Vec<u64> = added
                    .into_iter()
                    .map(|p| match swap {
                        false => ix.index(us, other.with(p)),
                        true => ix.index(other.with(p), them),
                    })
                    .collect();
                assert_eq!(slots, expected, "{key}: for_each_added of {us:?} {them:?}");
            }
        }
    });
    assert_eq!(positions, morris_db::symmetry::positions(board, key));
    let slots_hit = hit.iter().filter(|&&h| h).count() as u64;
    assert_eq!(slots_hit, exact, "{key}: slots hit vs Burnside classes");

    let mut non_holes = 0u64;
    let mut covered = 0u64;
    for i in 0..ix.size() {
        let (us, them) = ix.unindex(i);
        assert_eq!(us.count(), key.us as u32);
        assert_eq!(them.count(), key.them as u32);
        assert!((us & them).is_empty() && (us | them).is_subset_of(board.all()));
        let round_trip = ix.index(us, them) == i;
        assert_eq!(ix.is_hole(i), !round_trip, "{key}: is_hole({i})");
        assert_eq!(hit[i as usize], round_trip, "{key}: slot {i}");
        non_holes += round_trip as u64;
        if round_trip {
            covered += ix.orbit_size(us, them) as u64;
        }
    }
    assert_eq!(non_holes, exact, "{key}: non-hole slots vs Burnside");
    assert_eq!(
        covered, positions,
        "{key}: orbit sizes of the classes vs positions"
    );

    // The ordered walks see exactly what unindex and is_hole say, from any starting point.
    let size = ix.size();
    for range in [
        0..size,
        size / 3..size / 3 * 2 + 1,
        size - 1..size + 5,
        7..7,
    ] {
        let mut next = range.start;
        ix.for_each_in(range.clone(), |i, us, them| {
            assert_eq!(i, next, "{key}: walk order");
            assert_eq!((us, them), ix.unindex(i), "{key}: walk at {i}");
            next += 1;
        });
        assert_eq!(
            next,
            range.end.min(size).max(range.start),
            "{key}: walk length"
        );
        let mut last = None;
        let mut count = 0;
        ix.for_each_class_in(range.clone(), |i, us, them| {
            assert!(last.is_none_or(|l| l < i));
            assert!(!ix.is_hole(i), "{key}: class walk visits hole {i}");
            assert_eq!((us, them), ix.unindex(i));
            last = Some(i);
            count += 1;
        });
        let expected = (range.start..range.end.min(size))
            .filter(|&i| !ix.is_hole(i))
            .count();
        assert_eq!(count, expected, "{key}: class walk over {range:?}");
        // The same slots as runs: in order, each run non-empty and apart from the next.
        let mut runs = Vec::new();
        ix.for_each_class_run(range.clone(), |run| {
            assert!(run.start < run.end, "{key}: empty run {run:?}");
            assert!(
                runs.last().is_none_or(|&l| l < run.start),
                "{key}: runs overlap"
            );
            runs.extend(run);
        });
        let classes: Vec<u64> = (range.start..range.end.min(size))
            .filter(|&i| !ix.is_hole(i))
            .collect();
        assert_eq!(runs, classes, "{key}: class runs over {range:?}");
    }
}

#[test]
fn nine_3_3() {
    check_key(&NINE, Key::moving(3, 3));
}

#[test]
fn nine_4_3() {
    check_key(&NINE, Key::moving(4, 3));
}

/// The side not to move has more stones, so it is the pattern side.
#[test]
fn nine_3_4() {
    check_key(&NINE, Key::moving(3, 4));
}

#[test]
fn nine_placement_keys() {
    check_key(&NINE, Key::new(2, 1, 7, 8));
    check_key(&NINE, Key::new(3, 2, 6, 7));
    check_key(&NINE, Key::new(1, 2, 7, 7));
}

/// Early placement: one side or both without stones on the board.
#[test]
fn nine_empty_sides() {
    check_key(&NINE, Key::new(0, 0, 9, 9));
    check_key(&NINE, Key::new(0, 1, 9, 8));
    check_key(&NINE, Key::new(1, 0, 8, 9));
    check_key(&NINE, Key::new(2, 0, 7, 9));
    check_key(&NINE, Key::new(0, 3, 9, 6));
}

/// Other boards and groups: the 3x3 board has 8 symmetries and a centre fixed by all of them.
#[test]
fn other_boards() {
    for (m, o) in [
        (0, 0),
        (1, 0),
        (1, 1),
        (2, 1),
        (3, 3),
        (4, 4),
        (4, 5),
        (2, 2),
    ] {
        check_key(&THREE, Key::moving(m, o));
    }
    for (m, o) in [(3, 3), (4, 3), (5, 2), (2, 6)] {
        check_key(&SIX, Key::moving(m, o));
    }
}

/// Dara's 30 points go past the byte tables specialised for 24: the generic code, with the
/// four symmetries of the 6x5 grid (the middle row is fixed by the top-bottom flip).
#[test]
fn dara_board() {
    for (m, o) in [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (2, 3)] {
        check_key(&DARA, Key::moving(m, o));
    }
}

/// A full board: no free point for the other side, and one with every point taken.
#[test]
fn crowded_keys() {
    check_key(&THREE, Key::moving(5, 4));
    check_key(&THREE, Key::moving(9, 0));
    check_key(&SIX, Key::moving(9, 7));
}

#[test]
#[should_panic(expected = "do not fit")]
fn too_many_stones_for_the_board() {
    Index::new(&THREE, Key::moving(5, 5));
}

#[test]
#[should_panic(expected = "out of range")]
fn slot_out_of_range() {
    let ix = Index::new(&NINE, Key::moving(3, 3));
    ix.unindex(ix.size());
}

/// `Fixed::fixed_symmetric` against the symmetries applied one by one, for every set of up to
/// five stones, fixed as the pattern side (the side with more stones) and as the ranked side.
#[test]
fn fixed_sides_know_their_symmetry() {
    for board in [&NINE, &SIX, &DARA] {
        for k in 0..=5u8 {
            let ranked = Index::new(board, Key::moving(k, k + 2));
            let pattern = (k >= 2).then(|| Index::new(board, Key::moving(k, 2)));
            let mut symmetric_sets = 0;
            for_each_subset(board.all().bits(), k as u32, &mut |set| {
                let set = Bitboard(set);
                let truth = (1..ranked.symmetry_count()).any(|g| ranked.transform(g, set) == set);
                symmetric_sets += truth as u32;
                assert_eq!(
                    ranked.with_us(set).fixed_symmetric(),
                    truth,
                    "{set:?} ranked"
                );
                if let Some(ix) = &pattern {
                    assert_eq!(ix.with_us(set).fixed_symmetric(), truth, "{set:?} pattern");
                }
            });
            // Both answers occur (no symmetric set only where none exists: never here).
            assert!(symmetric_sets > 0, "{}: {k} stones", board.name());
        }
    }
}
