//! The solver against the naive reference solver of `morris-reference` (no symmetry, no
//! shared index or move code), on the whole game with 3 and 4 stones a side, with and without
//! flying: every moving-phase position with 3..=N stones a side, and every placement position
//! reachable from the start, must have the same value and distance.

use morris_db::Key;
use morris_engine::{Bitboard, Color, Position, Rules};
use morris_reference::{GameSolution, Value, Variant};
use morris_solver::memory::Solution;
use morris_solver::progress::Silent;
use morris_solver::{key_of, lost_already, Lookup};
use std::collections::BTreeSet;

/// The solver's form of a reference value: plies, `None` for a draw.
fn plies(value: Value, plies: u32) -> Option<u32> {
    match value {
        Value::Draw => None,
        _ => Some(plies),
    }
}

fn color(c: morris_reference::Color) -> Color {
    match c {
        morris_reference::Color::White => Color::White,
        morris_reference::Color::Black => Color::Black,
    }
}

/// What a comparison covered.
struct Compared {
    /// Moving-phase positions (every one with 3..=N stones a side).
    moving: u64,
    /// Placement positions reachable from the start.
    placement: u64,
    /// The start position's distance.
    start: Option<u32>,
}

/// Solves the game of `stones` a side with both solvers and compares every position the
/// reference knows. The reference's placement positions are those it reached from the start,
/// so the solver must solve every placement key they fall in, and any other key it solves
/// (work for nothing) must be listed in `extra_keys`.
fn compare(stones: u8, flying: bool, extra_keys: &[&str]) -> Compared {
    let rules = Rules {
        stones,
        flying,
        ..Rules::nine()
    };
    let t = std::time::Instant::now();
    let ours = Solution::solve_game(&rules, &Silent);
    let solved = t.elapsed();
    let theirs = GameSolution::solve(Variant::new(stones, flying));
    let solved_reference = t.elapsed() - solved;

    let mut moving = 0u64;
    for (us, them, value, dist) in theirs.moving().iter() {
        let pos = Position::from_sides(Bitboard(us), Bitboard(them), [0, 0], Color::White);
        assert_eq!(
            ours.plies(&pos),
            plies(value, dist),
            "{} ({stones} stones, flying {flying}): reference {value:?} in {dist}",
            pos.notation(&rules)
        );
        moving += 1;
    }

    let mut placement = 0u64;
    let mut keys = BTreeSet::new();
    for (reference, value, dist) in theirs.placement() {
        let pos = Position::new(
            Bitboard(reference.mask_of(morris_reference::Color::White)),
            Bitboard(reference.mask_of(morris_reference::Color::Black)),
            reference.hand,
            color(reference.to_move),
        );
        // The masks share the point numbering; the notation of a sample confirms it.
        if placement.is_multiple_of(1024) {
            assert_eq!(pos.notation(&rules).to_string(), reference.to_string());
        }
        assert_eq!(
            ours.plies(&pos),
            plies(value, dist),
            "{} ({stones} stones, flying {flying}): reference {value:?} in {dist}",
            pos.notation(&rules)
        );
        if !lost_already(&pos, &rules) {
            keys.insert(key_of(&pos));
        }
        placement += 1;
    }
    let solver_keys: BTreeSet<Key> = ours.keys().filter(|k| !k.is_moving_phase()).collect();
    let unreached: Vec<String> = solver_keys.difference(&keys).map(Key::to_string).collect();
    assert!(keys.is_subset(&solver_keys));
    assert_eq!(
        unreached, extra_keys,
        "solver keys the start does not reach"
    );

    let start = ours.plies(&Position::start(&rules));
    let (value, dist) = theirs
        .get(&morris_reference::Position::start(&theirs.variant()))
        .expect("the start is a placement position");
    assert_eq!(start, plies(value, dist));
    eprintln!(
        "{stones} stones, flying {flying}: solver {solved:?}, reference {solved_reference:?}, \
         compared in {:?}: {moving} moving, {placement} placement positions, start {start:?}",
        t.elapsed() - solved - solved_reference
    );
    Compared {
        moving,
        placement,
        start,
    }
}

/// 3-3, 3-4, 4-3 and 4-4: every position.
const MOVING_UP_TO_FOUR: u64 = 2_691_920 + 2 * 12_113_640 + 51_482_970;
/// Placement positions reachable from the start with four stones a side, as the reference
/// counts them (flying plays no part before the moving phase).
const PLACEMENT_FOUR: u64 = 14_872_493;
/// The same with three stones a side.
const PLACEMENT_THREE: u64 = 492_421;

/// The solver bounds each side's captures by its own placements only, so it also solves
/// 2-2-1-1, which the start cannot reach: both sides would have placed three stones and
/// captured once, but only a third stone can close a mill, and the first side to capture with
/// it leaves the other with two stones on the board when it places its third.
const EXTRA_FOUR: &[&str] = &["2-2-1-1"];

#[test]
fn agrees_with_reference_flying() {
    let c = compare(4, true, EXTRA_FOUR);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, PLACEMENT_FOUR));
    // Four stones a side is a draw.
    assert_eq!(c.start, None);
}

#[test]
fn agrees_with_reference_without_flying() {
    let c = compare(4, false, EXTRA_FOUR);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, PLACEMENT_FOUR));
    // Not a published fact: both solvers find that without flying Black, who places last,
    // wins in 22 plies.
    assert_eq!(c.start, Some(22));
}

#[test]
fn whole_game_of_three_stones_agrees_with_reference() {
    let c = compare(3, true, &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, PLACEMENT_THREE));
    // Three stones a side is a win for White in 23 plies.
    assert_eq!(c.start, Some(23));
    let c = compare(3, false, &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, PLACEMENT_THREE));
    // Not a published fact: both solvers find a draw without flying.
    assert_eq!(c.start, None);
}
