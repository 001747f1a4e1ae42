//! Random positions and slots of the large keys, too many to enumerate.

use morris_db::{Index, Key};
use morris_engine::board::{DARA, NINE};
use morris_engine::{Bitboard, Board};
use proptest::prelude::*;

/// A position of `key` drawn from `seed` (a shuffle of the points, split in two).
fn position(board: &Board, key: Key, mut seed: u64) -> (Bitboard, Bitboard) {
    let mut points: Vec<u8> = (0..board.len() as u8).collect();
    for i in (1..points.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        points.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    let (m, o) = (key.us as usize, key.them as usize);
    let us = points[..m].iter().copied().collect();
    let them = points[m..m + o].iter().copied().collect();
    (us, them)
}

fn orbit_id(ix: &Index, us: Bitboard, them: Bitboard) -> (u32, u32) {
    (0..ix.symmetry_count())
        .map(|s| (ix.transform(s, us).bits(), ix.transform(s, them).bits()))
        .min()
        .unwrap()
}

fn check_position(
    board: &'static Board,
    key: Key,
    seed: u64,
    sym: usize,
) -> Result<(), TestCaseError> {
    let ix = Index::new(board, key);
    let (us, them) = position(board, key, seed | 1);
    let i = ix.index(us, them);
    prop_assert!(i < ix.size());
    prop_assert!(!ix.is_hole(i));
    let s = sym % ix.symmetry_count();
    prop_assert_eq!(ix.index(ix.transform(s, us), ix.transform(s, them)), i);
    prop_assert_eq!(ix.with_generic_code().index(us, them), i);
    prop_assert_eq!(ix.with_us(us).index(them), i);
    prop_assert_eq!(ix.with_them(them).index(us), i);
    let (bu, bt) = ix.unindex(i);
    prop_assert_eq!(orbit_id(&ix, bu, bt), orbit_id(&ix, us, them));
    prop_assert_eq!(ix.index(bu, bt), i);
    Ok(())
}

fn check_slot(board: &'static Board, key: Key, raw: u64) -> Result<(), TestCaseError> {
    let ix = Index::new(board, key);
    let i = raw % ix.size();
    let (us, them) = ix.unindex(i);
    prop_assert_eq!((us.count(), them.count()), (key.us as u32, key.them as u32));
    prop_assert!((us & them).is_empty());
    let j = ix.index(us, them);
    prop_assert_eq!(ix.is_hole(i), j != i);
    prop_assert!(!ix.is_hole(j));
    let (ju, jt) = ix.unindex(j);
    prop_assert_eq!(orbit_id(&ix, ju, jt), orbit_id(&ix, us, them));
    Ok(())
}

/// Large keys of the 30-point Dara board (the generic code, four symmetries).
const DARA_KEYS: [Key; 3] = [Key::moving(8, 8), Key::moving(6, 7), Key::new(3, 2, 9, 10)];

const KEYS: [Key; 7] = [
    Key::moving(9, 9),
    Key::moving(9, 8),
    Key::moving(8, 9),
    Key::moving(8, 8),
    Key::new(4, 5, 5, 4),
    Key::new(6, 2, 3, 5),
    Key::new(0, 2, 9, 7),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn symmetric_positions_share_a_slot(k in 0..KEYS.len(), seed: u64, sym in 0..16usize) {
        check_position(&NINE, KEYS[k], seed, sym)?;
    }

    #[test]
    fn every_slot_unindexes_to_a_position(k in 0..KEYS.len(), raw: u64) {
        check_slot(&NINE, KEYS[k], raw)?;
    }

    #[test]
    fn dara_symmetric_positions_share_a_slot(k in 0..DARA_KEYS.len(), seed: u64, sym in 0..4usize) {
        check_position(&DARA, DARA_KEYS[k], seed, sym)?;
    }

    #[test]
    fn dara_every_slot_unindexes_to_a_position(k in 0..DARA_KEYS.len(), raw: u64) {
        check_slot(&DARA, DARA_KEYS[k], raw)?;
    }
}

/// Slots of symmetric classes are rare among random ones; visit the start of the index, where
/// the canonical patterns are the smallest masks and symmetric ones are common.
#[test]
fn first_slots_of_large_keys() {
    for key in KEYS {
        let ix = Index::new(&NINE, key);
        let mut holes = 0;
        ix.for_each_in(0..200_000, |i, us, them| {
            let j = ix.index(us, them);
            assert_eq!(ix.is_hole(i), j != i, "{key} slot {i}");
            assert_eq!(ix.with_generic_code().index(us, them), j);
            for s in 0..ix.symmetry_count() {
                assert_eq!(ix.index(ix.transform(s, us), ix.transform(s, them)), j);
            }
            holes += (j != i) as u32;
        });
        assert!(
            holes > 0 || key.us == 0,
            "{key}: no symmetric class at the start?"
        );
    }
}

/// The cursor gives `unindex` for slots in increasing order (dense runs, class changes, gaps
/// past its stepping range) and for slots out of order.
#[test]
fn cursor_unindexes_as_unindex() {
    for (board, key) in [
        (&NINE, Key::moving(9, 9)),
        (&NINE, Key::moving(7, 5)),
        (&NINE, Key::moving(3, 8)),
        (&NINE, Key::new(2, 0, 7, 9)),
        (&DARA, Key::moving(6, 5)),
    ] {
        let ix = Index::new(board, key);
        let n = ix.size();
        let mut cursor = ix.cursor();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ n;
        let mut i = 0;
        let mut checked = 0;
        while i < n && checked < 200_000 {
            assert_eq!(cursor.unindex(i), ix.unindex(i), "{key} slot {i}");
            checked += 1;
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            i += match seed % 8 {
                0..=3 => seed % 5,
                4 | 5 => seed % 64,
                6 => ix.slots_per_class() - 1,
                _ => seed % (n / 1000 + 1),
            };
        }
        for k in 0..1000u64 {
            let i = k.wrapping_mul(0x2545_f491_4f6c_dd1d) % n;
            assert_eq!(cursor.unindex(i), ix.unindex(i), "{key} slot {i}");
        }
    }
}
