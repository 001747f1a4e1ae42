//! The solver against the naive reference solver of `morris-reference` (no symmetry, no
//! shared index or move code), on whole games: Nine and Twelve Men's Morris with 3 and 4 stones
//! a side, with and without flying, and the games of the family solved whole (tic-tac-toe, Three and
//! Six Men's Morris). Every moving-phase position with 3..=N stones a side, and every
//! placement position reachable from the start, must have the same value and distance.

// The engine's tests' bridge to the reference (`variant`: the reference's name for rules).
#[path = "../../engine/tests/common/mod.rs"]
mod common;

use common::variant;
use morris_db::Key;
use morris_engine::{Bitboard, Color, Game, Position, Rules};
use morris_reference::{GameSolution, Value};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_tablebase::{key_of, lost_already, Lookup};
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
    /// Moving-phase positions (every one with 3..=N stones a side, but those where a line
    /// wins and the side to move has one: see [`compare`]).
    moving: u64,
    /// Placement positions reachable from the start.
    placement: u64,
    /// The start position's distance.
    start: Option<u32>,
}

/// Nine Men's Morris with `stones` a side.
fn nine(stones: u8, flying: bool) -> Rules {
    Rules {
        stones,
        flying,
        ..Rules::nine()
    }
}

/// Solves the game of `rules` with both solvers and compares every position the reference
/// knows. The reference's placement positions are those it reached from the start, so the
/// solver must solve every placement key they fall in; any other key it solves (work for
/// nothing) must be listed in `extra_keys`.
///
/// Where a line wins, moving-phase positions in which the side to move has a line are left
/// out: no game reaches one (a line ends the game on the move that makes it), and the two
/// solvers value them by different conventions (the reference a win in 0, the solver, which
/// stores a finished game as lost for the side to move, a loss in 0).
fn compare(rules: Rules, extra_keys: &[&str]) -> Compared {
    let (stones, flying) = (rules.stones, rules.flying);
    let game = rules.game;
    let t = std::time::Instant::now();
    let ours = Solution::solve_game(&rules, &Silent);
    let solved = t.elapsed();
    let theirs = GameSolution::solve(variant(&rules));
    let solved_reference = t.elapsed() - solved;

    let mut moving = 0u64;
    let board = rules.board();
    let unreachable = |us: Bitboard| rules.line_wins() && !board.in_lines(us).is_empty();
    let moving_positions = theirs.moving().into_iter().flat_map(|m| m.iter());
    for (us, them, value, dist) in moving_positions {
        if unreachable(Bitboard(us)) {
            continue;
        }
        let pos = Position::from_sides(Bitboard(us), Bitboard(them), [0, 0], Color::White);
        assert_eq!(
            ours.outcome(&pos).plies(),
            plies(value, dist),
            "{} ({game} {stones} stones, flying {flying}): reference {value:?} in {dist}",
            pos.notation(&rules)
        );
        moving += 1;
    }

    let mut placement = 0u64;
    let mut keys = BTreeSet::new();
    let solver_keys: BTreeSet<Key> = ours.keys().filter(|k| !k.is_moving_phase()).collect();
    for (reference, value, dist) in theirs.placement() {
        let pos = Position::new(
            Bitboard(reference.mask_of(morris_reference::Color::White)),
            Bitboard(reference.mask_of(morris_reference::Color::Black)),
            reference.hand,
            color(reference.to_move),
        );
        // In Lasker Morris the reference solves every position with stones in hand, reachable
        // or not: compare those of the keys the solver found reachable.
        if rules.place_or_move() && !solver_keys.contains(&key_of(&pos)) {
            continue;
        }
        // The masks share the point numbering; the notation of a sample confirms it.
        if placement.is_multiple_of(1024) {
            assert_eq!(pos.notation(&rules).to_string(), reference.to_string());
        }
        assert_eq!(
            ours.outcome(&pos).plies(),
            plies(value, dist),
            "{} ({game} {stones} stones, flying {flying}): reference {value:?} in {dist}",
            pos.notation(&rules)
        );
        if !lost_already(&pos, &rules) {
            keys.insert(key_of(&pos));
        }
        placement += 1;
    }
    let unreached: Vec<String> = solver_keys.difference(&keys).map(Key::to_string).collect();
    assert!(keys.is_subset(&solver_keys));
    assert_eq!(
        unreached, extra_keys,
        "solver keys the start does not reach"
    );

    let start = ours.outcome(&Position::start(&rules)).plies();
    let (value, dist) = theirs
        .get(&morris_reference::Position::start(&theirs.variant()))
        .expect("the start is a placement position");
    assert_eq!(start, plies(value, dist));
    eprintln!(
        "{game} {stones} stones, flying {flying}: solver {solved:?}, reference {solved_reference:?}, \
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

#[test]
fn agrees_with_reference_flying() {
    let c = compare(nine(4, true), &[]);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, PLACEMENT_FOUR));
    // Four stones a side is a draw.
    assert_eq!(c.start, None);
}

#[test]
fn agrees_with_reference_without_flying() {
    let c = compare(nine(4, false), &[]);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, PLACEMENT_FOUR));
    // Not a published fact: both solvers find that without flying Black, who places last,
    // wins in 22 plies.
    assert_eq!(c.start, Some(22));
}

#[test]
fn whole_game_of_three_stones_agrees_with_reference() {
    let c = compare(nine(3, true), &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, PLACEMENT_THREE));
    // Three stones a side is a win for White in 23 plies.
    assert_eq!(c.start, Some(23));
    let c = compare(nine(3, false), &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, PLACEMENT_THREE));
    // Not a published fact: both solvers find a draw without flying.
    assert_eq!(c.start, None);
}

#[test]
fn tictactoe_agrees_with_reference() {
    let c = compare(Rules::standard(Game::TicTacToe), &[]);
    // The 5,478 legal positions of tic-tac-toe, the known count: every board play reaches,
    // the empty one and the finished ones included.
    assert_eq!((c.moving, c.placement), (0, 5_478));
    assert_eq!(c.start, None, "tic-tac-toe is a draw");
}

#[test]
fn three_mens_morris_agrees_with_reference() {
    let c = compare(Rules::standard(Game::Three), &[]);
    // 3 against 3 on 9 points, C(9,3) * C(6,3) = 1,680, less the 160 with a line of the side
    // to move; and every placement position of play.
    assert_eq!((c.moving, c.placement), (1_520, 2_350));
    assert_eq!(c.start, Some(9), "the first player wins in 9");
}

/// Six Men's Morris keys the solver solves and no game reaches. The solver's key search
/// counts stones only; the board forbids these. In 2-6-1-0, say, the side with six stones on
/// the board would have captured three times in six placements, but six stones on this board
/// hold two lines at most, and the count search cannot know that.
const SIX_EXTRA: &[&str] = &[
    "1-4-3-2", "1-5-2-1", "2-4-1-0", "2-4-1-1", "2-4-2-1", "2-4-2-2", "2-5-1-1", "2-6-1-0",
    "4-2-2-2", "4-3-1-0", "4-3-2-1", "5-2-1-1", "5-3-1-0",
];

#[test]
fn six_mens_morris_agrees_with_reference() {
    for flying in [false, true] {
        let rules = Rules {
            flying,
            ..Rules::standard(Game::Six)
        };
        let c = compare(rules, SIX_EXTRA);
        assert_eq!((c.moving, c.placement), (19_207_188, 6_859_157));
        assert_eq!(c.start, None, "a draw, flying {flying}");
    }
}

/// Lasker Morris, where a player may slide instead of placing: the positions with stones in
/// hand are cyclic, solved by both solvers by retrograde analysis, each its own. The reference
/// solves every position with stones in hand; the counts are those of the keys the solver
/// finds reachable.
#[test]
fn lasker_agrees_with_reference() {
    let lasker = |stones| Rules {
        stones,
        ..Rules::standard(Game::Lasker)
    };
    let c = compare(lasker(3), &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, 1_011_565));
    assert_eq!(c.start, Some(23), "3 stones: the first player wins in 23");
    let c = compare(lasker(4), &[]);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, 44_038_263));
    assert_eq!(c.start, None, "4 stones: a draw");
}

/// Twelve Men's Morris (the Nine board with its four diagonals: 20 mills, corners with up to
/// four neighbours), both phases, with 3 and 4 stones a side: the reduced games of the game
/// `scripts/solve-layers.sh` solves whole.
#[test]
fn twelve_agrees_with_reference() {
    let twelve = |stones, flying| Rules {
        stones,
        flying,
        ..Rules::standard(Game::Twelve)
    };
    let c = compare(twelve(3, false), &[]);
    assert_eq!((c.moving, c.placement), (2_691_920, 491_665));
    assert_eq!(c.start, None, "3 stones without flying: a draw");
    // The points of Nine's board, so the moving positions are Nine's; the placement
    // positions reached from the start differ (Nine's: PLACEMENT_FOUR).
    let c = compare(twelve(4, true), &[]);
    assert_eq!((c.moving, c.placement), (MOVING_UP_TO_FOUR, 14_766_289));
    assert_eq!(c.start, None, "4 stones: a draw");
}
