//! Moves: generation, notation and playing, done the plain way on the cell array.

use crate::board::Board;
use crate::position::{Color, Position, Variant};
use crate::solve::Value;
use std::fmt;

/// A placement (`from` is `None`) or a slide/fly, with the enemy stone it removes if it closes
/// a mill.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub board: Board,
    pub from: Option<usize>,
    pub to: usize,
    pub capture: Option<usize>,
}

/// `d6`, `d6-d5`, `a1xd7`, `b6-c5xg4`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from {
            write!(f, "{}-", self.board.name(from))?;
        }
        write!(f, "{}", self.board.name(self.to))?;
        if let Some(c) = self.capture {
            write!(f, "x{}", self.board.name(c))?;
        }
        Ok(())
    }
}

/// True when the stone of `color` on `p` is part of a complete line of `color`.
pub fn in_line(pos: &Position, p: usize, color: Color) -> bool {
    pos.cells[p] == Some(color)
        && pos.board.geometry().lines_through[p]
            .iter()
            .any(|m| m.iter().all(|&q| pos.cells[q] == Some(color)))
}

/// True when `color` has a complete line anywhere.
pub fn has_line(pos: &Position, color: Color) -> bool {
    (0..pos.board.points()).any(|p| in_line(pos, p, color))
}

/// True when the side to move has lost already in a mill game: fewer than 3 stones on board
/// and in hand.
pub fn too_few_stones(pos: &Position, variant: &Variant) -> bool {
    let me = pos.to_move;
    !variant.line_wins() && pos.on_board(me) + (pos.in_hand(me) as usize) < 3
}

/// The value for the side to move when the game is over before it plays, without looking at
/// its moves: too few stones; or, where a line wins, a line on the board. A line of the side
/// that just moved is what ended the game; the side to move can only have one alone in a
/// position no game reaches, and it is then counted a win for it, as if it had just made it.
pub fn decided(pos: &Position, variant: &Variant) -> Option<Value> {
    if too_few_stones(pos, variant) {
        return Some(Value::Loss);
    }
    if variant.line_wins() {
        if has_line(pos, pos.to_move.other()) {
            return Some(Value::Loss);
        }
        if has_line(pos, pos.to_move) {
            return Some(Value::Win);
        }
    }
    None
}

/// The value for the side to move when the game is over here, else `None`: [`decided`], or
/// no legal move, which loses except on a full tic-tac-toe board, a draw.
pub fn result(pos: &Position, variant: &Variant) -> Option<Value> {
    if let Some(v) = decided(pos, variant) {
        return Some(v);
    }
    if legal_moves(pos, variant).is_empty() {
        return Some(if variant.stones_move() {
            Value::Loss
        } else {
            Value::Draw
        });
    }
    None
}

/// True when the game is over: no legal move, a side below 3 stones, or a line where a line
/// wins.
pub fn game_over(pos: &Position, variant: &Variant) -> bool {
    legal_moves(pos, variant).is_empty()
}

/// The enemy stones a mill may remove: those not in a mill, or all when every one is in a mill.
fn removable(pos: &Position) -> Vec<usize> {
    let enemy = pos.to_move.other();
    let all = pos.points_of(enemy);
    let free: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&p| !in_line(pos, p, enemy))
        .collect();
    if free.is_empty() {
        all
    } else {
        free
    }
}

/// Every legal move of the side to move; empty when the game is over.
pub fn legal_moves(pos: &Position, variant: &Variant) -> Vec<Move> {
    let mut moves = Vec::new();
    if decided(pos, variant).is_some() {
        return moves;
    }
    let me = pos.to_move;
    let board = pos.board;
    let empty: Vec<usize> = (0..board.points())
        .filter(|&p| pos.cells[p].is_none())
        .collect();
    let removable = removable(pos);

    // Adds the move from `from` (None: from hand) to `to`, once per capture choice if it
    // closes a mill and there is an enemy stone on the board. Where a line wins, it captures
    // nothing: the game ends.
    let mut add = |from: Option<usize>, to: usize| {
        let mut after = pos.clone();
        if let Some(f) = from {
            after.cells[f] = None;
        }
        after.cells[to] = Some(me);
        if !variant.line_wins() && in_line(&after, to, me) && !removable.is_empty() {
            for &c in &removable {
                moves.push(Move {
                    board,
                    from,
                    to,
                    capture: Some(c),
                });
            }
        } else {
            moves.push(Move {
                board,
                from,
                to,
                capture: None,
            });
        }
    };

    let in_hand = pos.in_hand(me) > 0;
    if in_hand {
        for &to in &empty {
            add(None, to);
        }
    }
    if variant.stones_move() && (!in_hand || variant.place_or_move()) {
        let flying = variant.flying && !in_hand && pos.on_board(me) == 3;
        let neighbours = &board.geometry().neighbours;
        for from in pos.points_of(me) {
            for &to in &empty {
                if flying || neighbours[from].contains(&to) {
                    add(Some(from), to);
                }
            }
        }
    }
    moves
}

/// The position after `mv` (assumed legal).
pub fn play(pos: &Position, mv: &Move) -> Position {
    let me = pos.to_move;
    let mut next = pos.clone();
    match mv.from {
        Some(f) => next.cells[f] = None,
        None => next.hand[me.index()] -= 1,
    }
    next.cells[mv.to] = Some(me);
    if let Some(c) = mv.capture {
        next.cells[c] = None;
    }
    next.to_move = me.other();
    next
}

/// The legal moves in notation, sorted as strings.
pub fn legal_move_strings(pos: &Position, variant: &Variant) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(pos, variant)
        .iter()
        .map(Move::to_string)
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        let v = Variant::STANDARD;
        legal_move_strings(&Position::parse(text, &v).unwrap(), &v)
    }

    #[test]
    fn start_has_24_placements() {
        let v = Variant::STANDARD;
        assert_eq!(legal_moves(&Position::start(&v), &v).len(), 24);
    }

    #[test]
    fn slides_flies_and_captures() {
        // White slides a1 to d1 closing nothing: a1-d1 and a1-a4.
        assert_eq!(
            moves("W:a1,b2,c3,d6 B:g7,f6,e5,e4 w"),
            vec!["a1-a4", "a1-d1", "b2-b4", "b2-d2", "c3-c4", "c3-d3", "d6-b6", "d6-d5", "d6-d7"]
        );
        // Flying: White has three stones, none in hand: 3 x 17 flights, two of which close a
        // mill and become 4 moves each (below).
        assert_eq!(
            moves("W:a1,d1,a4 B:g7,f6,e5,e4 w").len(),
            3 * 17 - 2 + 2 * 4
        );
        // Two flights close a mill: a4-g1 (a1-d1-g1) and d1-a7 (a1-a4-a7); no black stone
        // is in a mill, so each takes any of the 4.
        let m = moves("W:a1,d1,a4 B:g7,f6,e5,e4 w");
        assert!(m.contains(&"a4-g1xe4".to_string()));
        assert!(m.contains(&"d1-a7xg7".to_string()));
        assert!(!m.contains(&"a4-g1".to_string()));
        assert_eq!(m.iter().filter(|s| s.contains('x')).count(), 8);
        // Every black stone stands in the mill a1-d1-g1, so any of them may be taken.
        let m = moves("W:b2,d2,c3,c4 B:a1,d1,g1 w 1 0");
        // Placing f2 closes b2-d2-f2; every black stone is in a mill so all three may go.
        for c in ["a1", "d1", "g1"] {
            assert!(m.contains(&format!("f2x{c}")));
        }
        assert!(!m.contains(&"f2".to_string()));
        // Placing c5 closes c3-c4-c5.
        assert!(m.contains(&"c5xa1".to_string()));
    }

    #[test]
    fn game_over_when_too_few_or_blocked() {
        let v = Variant::STANDARD;
        let blocked = Position::parse("W:a1,d1,g1,a4 B:a7,d2,g4,b2,d3 w", &v).unwrap();
        // a1: neighbours d1 (own) a4 (own); d1: a1,g1 own, d2 black; g1: d1 own, g4 black;
        // a4: a1 own, a7 black, b4 empty -> a4-b4 is legal.
        assert!(!game_over(&blocked, &v));
        let blocked = Position::parse("W:a1,d1,g1,a4 B:a7,d2,g4,b4 w", &v).unwrap();
        assert!(game_over(&blocked, &v));
        let two = Position::parse("W:a1,d1 B:a7,d2,g4 w", &v).unwrap();
        assert!(game_over(&two, &v));
    }
}
