//! Helpers shared by the integration tests (the engine's, and the solver's comparison with the
//! reference, which includes this file): the bridge between the engine and the independent
//! reference implementation (`morris-reference`), which knows every game but the grid game.

#![allow(dead_code)]

use morris_engine::{legal_moves, perft, Game, Position, Rules};
use morris_reference as reference;

/// The counts field of a perft data-file line (`line`, 1-based, for messages): perft(1),
/// perft(2), ... separated by whitespace, at least one.
pub fn perft_counts(field: &str, line: usize) -> Vec<u64> {
    let counts: Vec<u64> = field
        .split_whitespace()
        .map(|c| c.parse().expect("a count"))
        .collect();
    assert!(!counts.is_empty(), "line {line}: no counts");
    counts
}

/// Nine Men's Morris rules with a given number of stones and flying on or off.
pub fn nine(stones: u8, flying: bool) -> Rules {
    Rules {
        game: Game::Nine,
        stones,
        flying,
    }
}

/// The reference's name for the same rules (every game but the grid game).
pub fn variant(rules: &Rules) -> reference::Variant {
    use reference::Game as G;
    let game = match rules.game {
        Game::Nine => G::Nine,
        Game::Twelve => G::Twelve,
        Game::Six => G::Six,
        Game::Lasker => G::Lasker,
        Game::Three => G::Three,
        Game::TicTacToe => G::TicTacToe,
        Game::Dara => panic!("the reference does not play the grid game"),
    };
    reference::Variant {
        game,
        stones: rules.stones,
        flying: rules.flying,
    }
}

/// The engine position in the reference's representation, through the notation.
pub fn to_reference(pos: &Position, rules: &Rules) -> reference::Position {
    let text = pos.notation(rules).to_string();
    reference::Position::parse(&text, &variant(rules))
        .unwrap_or_else(|e| panic!("reference rejects engine notation `{text}`: {e}"))
}

/// The engine's legal moves in notation, sorted.
pub fn engine_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    let board = rules.board();
    let mut v: Vec<String> = legal_moves(pos, rules)
        .into_iter()
        .map(|m| m.notation(board).to_string())
        .collect();
    v.sort();
    v
}

/// The reference's legal moves in notation, sorted.
pub fn reference_moves(pos: &Position, rules: &Rules) -> Vec<String> {
    reference::legal_move_strings(&to_reference(pos, rules), &variant(rules))
}

/// Walks down from a position where engine and reference perft differ at `depth` to the first
/// position whose move lists differ, and describes it (the path, both lists, the moves only
/// one side has).
pub fn explain_difference(pos: &Position, rules: &Rules, depth: u32) -> String {
    let board = rules.board();
    let mut pos = *pos;
    let mut path = Vec::new();
    let mut depth = depth;
    loop {
        let ours = engine_moves(&pos, rules);
        let theirs = reference_moves(&pos, rules);
        if ours != theirs {
            let only_engine: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
            let only_reference: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
            return format!(
                "after [{}] at `{}`:\n  engine    ({}): {}\n  reference ({}): {}\n  only engine: {:?}\n  only reference: {:?}",
                path.join(" "),
                pos.notation(rules),
                ours.len(),
                ours.join(" "),
                theirs.len(),
                theirs.join(" "),
                only_engine,
                only_reference
            );
        }
        if depth <= 1 {
            return format!(
                "no move list differs below `{}` (counting differs only)",
                pos.notation(rules)
            );
        }
        let next = legal_moves(&pos, rules).into_iter().find(|&m| {
            let child = pos.play(m);
            perft(&child, rules, depth - 1)
                != reference::perft(&to_reference(&child, rules), &variant(rules), depth - 1)
        });
        match next {
            Some(m) => {
                path.push(m.notation(board).to_string());
                pos = pos.play(m);
                depth -= 1;
            }
            None => {
                return format!(
                    "move lists and every child agree at `{}`; totals differ only",
                    pos.notation(rules)
                )
            }
        }
    }
}
