//! The no-capture rule's tables against the naive reference solver of `morris-reference`
//! (`CounterSolution`: the counter is part of its state, every (position, counter) solved by
//! plain sweeps, no distances, no symmetry, no shared code). For every position it covers and
//! every counter C below the limit N, the value the tables give at C (the stored value when its
//! distance to zeroing is at most N - C, else a draw; what `query` and the `Tablebase` derive)
//! must be the reference's.

#[path = "../../engine/tests/common/mod.rs"]
mod common;

use common::variant;
use morris_db::format::Metric;
use morris_db::{Key, Value};
use morris_engine::{Bitboard, Color, Game, Position, Rules};
use morris_reference::CounterSolution;
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_tablebase::{key_of, Lookup};
use std::collections::BTreeSet;

fn value(v: morris_reference::Value) -> Value {
    match v {
        morris_reference::Value::Win => Value::Win,
        morris_reference::Value::Draw => Value::Draw,
        morris_reference::Value::Loss => Value::Loss,
    }
}

fn color(c: morris_reference::Color) -> Color {
    match c {
        morris_reference::Color::White => Color::White,
        morris_reference::Color::Black => Color::Black,
    }
}

/// Solves the game of `rules` under the rule with limit `n` both ways and compares every
/// position and counter the reference covers; returns the positions and the (position,
/// counter) states compared, and how many states the rule draws that are won or lost at
/// counter 0 (so that a test sees the limit bite).
fn compare(rules: Rules, n: u16) -> (u64, u64, u64) {
    let ours = Solution::solve_game_with(&rules, Metric::NoCapture(n), &Silent);
    let theirs = CounterSolution::solve(variant(&rules), n as u32);
    let solved: BTreeSet<Key> = ours.keys().collect();
    let board = rules.board();
    let (mut positions, mut states, mut bitten) = (0u64, 0u64, 0u64);
    for (reference, values) in theirs.iter() {
        let pos = Position::new(
            Bitboard(reference.mask_of(morris_reference::Color::White)),
            Bitboard(reference.mask_of(morris_reference::Color::Black)),
            reference.hand,
            color(reference.to_move),
        );
        // Where a line wins, a moving-phase position in which the side to move has a line
        // is never reached (and the two solvers value it by different conventions); in Lasker
        // Morris the reference covers keys the start does not reach.
        let moving = pos.our_hand() + pos.their_hand() == 0;
        if moving && rules.line_wins() && !board.in_lines(pos.us()).is_empty() {
            continue;
        }
        if !morris_tablebase::lost_already(&pos, &rules) && !solved.contains(&key_of(&pos)) {
            assert!(rules.place_or_move(), "{} not solved", pos.notation(&rules));
            continue;
        }
        let stored = ours.outcome(&pos);
        for (c, &v) in values.iter().enumerate() {
            let at_counter = stored.within(n as u32 - c as u32).value();
            assert_eq!(
                at_counter,
                value(v),
                "{} at counter {c} of {n} ({} {} stones, flying {}): stored {stored}",
                pos.notation(&rules),
                rules.game,
                rules.stones,
                rules.flying
            );
            if at_counter == Value::Draw && stored.value() != Value::Draw {
                bitten += 1;
            }
            states += 1;
        }
        positions += 1;
    }
    eprintln!(
        "{} {} stones, flying {}, N = {n}: {positions} positions, {states} states, {bitten} drawn by the limit",
        rules.game, rules.stones, rules.flying
    );
    (positions, states, bitten)
}

fn nine(stones: u8, flying: bool) -> Rules {
    Rules {
        stones,
        flying,
        ..Rules::nine()
    }
}

/// 3 stones a side, moving and placement phases, with and without flying, N = 6 and 12.
#[test]
fn three_stones_agree() {
    for flying in [true, false] {
        for n in [6, 12] {
            let (positions, _, bitten) = compare(nine(3, flying), n);
            assert!(positions > 2_691_920, "{positions}");
            assert!(bitten > 0);
        }
    }
}

/// 4 stones a side at N = 6 (78.4 M moving-phase positions and the placement positions of
/// play, each at 6 counters).
#[test]
fn four_stones_with_flying_agree() {
    let (positions, states, bitten) = compare(nine(4, true), 6);
    assert!(positions > 78_000_000 && states == 6 * positions && bitten > 0);
}

#[test]
fn four_stones_without_flying_agree() {
    let (positions, _, bitten) = compare(nine(4, false), 6);
    assert!(positions > 78_000_000 && bitten > 0);
}

/// N = 12 on 4 stones: about 2.5 and 5.5 minutes of the reference here; run with
/// `cargo test --release -p morris-solver --test reference_nocapture -- --ignored`.
#[test]
#[ignore]
fn four_stones_at_twelve_agree() {
    for flying in [false, true] {
        compare(nine(4, flying), 12);
    }
}

/// Three Men's Morris (zeroing plies: its placements; a line wins at once) and Lasker Morris
/// (a player may slide instead of placing: those slides do not zero the counter).
#[test]
fn three_and_lasker_agree() {
    for n in [1, 2, 6, 12] {
        compare(Rules::standard(Game::Three), n);
    }
    let lasker = Rules {
        stones: 3,
        flying: false,
        ..Rules::standard(Game::Lasker)
    };
    let (_, _, bitten) = compare(lasker, 6);
    assert!(bitten > 0);
}
