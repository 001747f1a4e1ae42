//! The solver against the naive reference solver of `morris-reference` (no symmetry, no
//! shared index or move code): every position with 3..=4 stones a side, with and without
//! flying, must have the same value and distance.

use morris_engine::{Bitboard, Color, Position, Rules};
use morris_reference::{MovingSolution, Value};
use morris_solver::memory::Solution;
use morris_solver::progress::Silent;
use morris_solver::Lookup;

fn compare(flying: bool) {
    let rules = Rules {
        flying,
        ..Rules::nine()
    };
    let ours = Solution::solve_moving(&rules, 4, &Silent);
    let theirs = MovingSolution::solve(4, flying);
    let mut checked = 0u64;
    for (us, them, value, plies) in theirs.iter() {
        let pos = Position::from_sides(Bitboard(us), Bitboard(them), [0, 0], Color::White);
        let expected = match value {
            Value::Draw => None,
            _ => Some(plies),
        };
        let got = ours.plies(&pos);
        assert_eq!(
            got,
            expected,
            "{} (flying {flying}): reference {value:?} in {plies}",
            pos.notation(&rules)
        );
        checked += 1;
    }
    // 3-3, 3-4, 4-3 and 4-4, every position.
    assert_eq!(checked, 2_691_920 + 2 * 12_113_640 + 51_482_970);
}

#[test]
fn agrees_with_reference_flying() {
    compare(true);
}

#[test]
fn agrees_with_reference_without_flying() {
    compare(false);
}
