//! The placement phase: sub-databases with stones in hand.
//!
//! Every move of the placement phase takes a stone from a hand, so the keys form an acyclic
//! graph above the moving phase: a key's children all have one stone fewer in hand. Each key
//! is solved in one forward pass, children first, by the minimax rule; no counters and no
//! levels are needed.

use crate::progress::Progress;
use crate::value::evaluate;
use crate::Lookup;
use morris_db::{Index, Key};
use morris_engine::{for_each_move, Color, Position, Rules};
use rayon::prelude::*;

/// The placement-phase keys that can arise from the start under strict alternation (White
/// first), children before parents, restricted to keys whose stones (on board and in hand)
/// stay within `max_stones` a side: the consistent subset that the moving-phase keys up to
/// `max_stones` a side can support.
///
/// A side that has placed `p` stones can have formed at most `p - 2` mills (a mill needs three
/// of its stones and each placement forms at most one capture), so it has captured at most that
/// many; sides below the minimum of stones have lost and need no key.
pub fn placement_keys(rules: &Rules, max_stones: u8) -> Vec<Key> {
    let s = rules.stones;
    let points = rules.board().len() as u32;
    let min = rules.min_stones();
    let mut keys = Vec::new();
    // Fewest stones in hand first: those keys are the children of the others.
    for in_hand_total in 1..=2 * s as u32 {
        for placed_w in 0..=s {
            for placed_b in [placed_w, placed_w.wrapping_sub(1)] {
                if placed_b > s || (2 * s - placed_w - placed_b) as u32 != in_hand_total {
                    continue;
                }
                let (hand_w, hand_b) = (s - placed_w, s - placed_b);
                let white_to_move = placed_w == placed_b;
                // Where a line wins there are no captures.
                let captures = |placed: u8| {
                    if rules.line_captures() {
                        placed.saturating_sub(2)
                    } else {
                        0
                    }
                };
                for lost_w in 0..=captures(placed_b).min(placed_w) {
                    for lost_b in 0..=captures(placed_w).min(placed_b) {
                        let (w, b) = (placed_w - lost_w, placed_b - lost_b);
                        if (w + hand_w) as u32 >= min.max(1)
                            && (b + hand_b) as u32 >= min.max(1)
                            && (w + b) as u32 <= points
                            && w + hand_w <= max_stones
                            && b + hand_b <= max_stones
                        {
                            keys.push(if white_to_move {
                                Key::new(w, b, hand_w, hand_b)
                            } else {
                                Key::new(b, w, hand_b, hand_w)
                            });
                        }
                    }
                }
            }
        }
    }
    keys
}

/// The keys a placement key's moves lead into: the placement without capture, and with one
/// when the placed stone can complete a mill (three stones of the mover on the board) and the
/// capture does not end the game. None when the board is full.
pub fn child_keys(rules: &Rules, key: Key) -> Vec<Key> {
    if key.on_board() as usize >= rules.board().len() {
        return Vec::new(); // a full board: no placement
    }
    let mut v = vec![Key::new(
        key.them,
        key.us + 1,
        key.them_hand,
        key.us_hand - 1,
    )];
    if rules.line_captures()
        && key.us + 1 >= 3
        && key.them > 0
        && (key.them - 1 + key.them_hand) as u32 >= rules.min_stones()
    {
        v.push(Key::new(
            key.them - 1,
            key.us + 1,
            key.them_hand,
            key.us_hand - 1,
        ));
    }
    v
}

/// Solves one placement key from its (solved) children; returns a code per slot (0 = draw or
/// hole, else plies + 1).
pub fn solve_key(
    rules: &Rules,
    key: Key,
    children: &dyn Lookup,
    progress: &dyn Progress,
) -> Vec<u16> {
    const CHUNK: u64 = 1 << 16;
    let index = Index::new(rules.board(), key);
    let n = index.size();
    progress.start("placement", n);
    let chunks: Vec<Vec<u16>> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(n);
            let mut out = vec![0u16; (range.end - range.start) as usize];
            let mut values = Vec::with_capacity(64);
            index.for_each_in(range.clone(), |i, us, them| {
                if index.is_hole(i) {
                    return;
                }
                let pos =
                    Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
                values.clear();
                for_each_move(&pos, rules, |m| values.push(children.plies(&pos.play(m))));
                if let Some(p) = evaluate(rules, &pos, &values) {
                    out[(i - range.start) as usize] = p as u16 + 1;
                }
            });
            progress.advance(range.end - range.start);
            out
        })
        .collect();
    chunks.concat()
}
