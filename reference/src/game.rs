//! The whole game with few stones a side, placement phase included.
//!
//! Every position reachable from the start is found by following every legal move from it
//! (the same move generator as perft, [`crate::movegen`]), and valued by minimax on the way
//! back. Each move of the placement phase takes a stone from a hand, so the placement
//! positions form an acyclic graph and the recursion ends after at most one ply per stone;
//! each one is solved once and remembered, one entry per arrangement of the stones (no
//! symmetry). Once both hands are empty the moving phase begins, and its values are read from
//! a [`MovingSolution`] of the same rules. In tic-tac-toe stones never move, and the board
//! fills before the hands empty: every position is a placement position.
//!
//! Lasker Morris is the exception: a player may slide instead of placing, so the positions
//! with stones in hand have cycles and no recursion ends. There they are all solved by
//! retrograde analysis instead, group by group ([`crate::solve`]), reached from the start or
//! not.

use crate::board::MAX_POINTS;
use crate::movegen::{legal_moves, play, result, too_few_stones};
use crate::position::{Color, Position, Variant};
use crate::solve::{
    hand_positions, hand_value, solve_with_hands, HandLayers, LayerShape, MovingSolution, Value,
};
use std::collections::BTreeMap;

/// The value and distance of every position reachable from the start of a game with few
/// stones a side.
pub struct GameSolution {
    variant: Variant,
    /// None where stones never move.
    moving: Option<MovingSolution>,
    /// The placement positions (a stone in hand), reached or not, one table per [`Group`].
    tables: BTreeMap<Group, Table>,
    /// Lasker Morris: every position with stones in hand.
    hand_layers: HandLayers,
}

/// What the positions of one table share: the side to move, the hands (White's, Black's) and
/// the stones on the board of the side to move and of the other side.
type Group = (Color, [u8; 2], usize, usize);

/// One entry per position of a group, by the rank of its stones (the moving phase's ranking,
/// [`LayerShape`]), rather than a map of the positions reached: the map took ten times the
/// memory and, its look-ups missing the cache, half the time. The stones of the side to
/// move select the block, the other side's the entry in it (the reverse of the moving phase):
/// the children of a position that capture nothing then lie in one block, as the side to
/// move there is the side whose stones did not change.
struct Table {
    shape: LayerShape,
    /// 0 for a position not reached (yet), else its distance times 4 plus its value code.
    entries: Vec<u16>,
}

impl GameSolution {
    /// Solves the game of `variant` from its start. The moving phase is solved for every
    /// position up to `variant.stones` a side, so on the 24-point boards only 3 or 4 stones
    /// are practical.
    pub fn solve(variant: Variant) -> GameSolution {
        let moving = variant.stones_move().then(|| {
            let most = if variant.line_wins() {
                3
            } else {
                variant.stones
            };
            MovingSolution::solve_variant(variant, most)
        });
        let mut sol = GameSolution {
            variant,
            moving,
            tables: BTreeMap::new(),
            hand_layers: HandLayers::new(),
        };
        if variant.place_or_move() {
            let moving = sol.moving.as_ref().expect("stones move");
            sol.hand_layers = solve_with_hands(&variant, moving);
        } else {
            sol.solve_from(&Position::start(&variant));
        }
        sol
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The moving phase: every position with 3..=`variant.stones` stones a side (exactly 3
    /// where a line wins); `None` where stones never move.
    pub fn moving(&self) -> Option<&MovingSolution> {
        self.moving.as_ref()
    }

    /// The minimax value of the placement position `pos` and of everything reachable from it,
    /// remembered for the placement positions.
    fn solve_from(&mut self, pos: &Position) -> (Value, u32) {
        if let Some(known) = self.get(pos) {
            return known;
        }
        if let Some(value) = result(pos, &self.variant) {
            self.store(pos, (value, 0));
            return (value, 0);
        }
        let children: Vec<Position> = legal_moves(pos, &self.variant)
            .iter()
            .map(|mv| play(pos, mv))
            .collect();
        // After the last placement every child is in the moving phase, else none is. Those
        // are looked up together, their loads overlapping (see `MovingSolution::get_many`).
        let values: Vec<(Value, u32)> = if children.iter().all(|c| c.hand == [0, 0]) {
            let values = self.moving_values(&children).into_iter();
            values
                .map(|v| v.expect("captures keep the stone counts in range"))
                .collect()
        } else {
            children.iter().map(|c| self.solve_from(c)).collect()
        };
        let value = minimax(&values);
        self.store(pos, value);
        value
    }

    fn store(&mut self, pos: &Position, value: (Value, u32)) {
        let (group, us, them) = locate(pos);
        let points = self.variant.board().points();
        let table = self.tables.entry(group).or_insert_with(|| {
            let shape = LayerShape::new(points, group.3, group.2);
            let entries = vec![0; shape.len()];
            Table { shape, entries }
        });
        table.entries[table.shape.index(them, us)] = encode(value);
    }

    /// The values of moving-phase positions; a side left with fewer than 3 stones has lost.
    /// `None` for stone counts out of range.
    fn moving_values(&self, positions: &[Position]) -> Vec<Option<(Value, u32)>> {
        let sides: Vec<(u32, u32)> = positions
            .iter()
            .map(|p| (p.mask_of(p.to_move), p.mask_of(p.to_move.other())))
            .collect();
        let moving = self.moving.as_ref().expect("stones move");
        let values = moving.get_many(&sides);
        positions
            .iter()
            .zip(values)
            .map(|(p, v)| {
                if too_few_stones(p, &self.variant) {
                    Some((Value::Loss, 0))
                } else {
                    v
                }
            })
            .collect()
    }

    /// The value and distance in plies of a placement position reachable from the start, or
    /// of any moving-phase position (no stones in hand) with up to `variant.stones` a side.
    /// `None` for a placement position the start cannot reach, or stone counts out of range.
    pub fn get(&self, pos: &Position) -> Option<(Value, u32)> {
        if pos.hand == [0, 0] {
            return self.moving_values(std::slice::from_ref(pos))[0];
        }
        let (group, us, them) = locate(pos);
        if self.variant.place_or_move() {
            if too_few_stones(pos, &self.variant) {
                return Some((Value::Loss, 0));
            }
            let hands = [pos.in_hand(pos.to_move), pos.in_hand(pos.to_move.other())];
            return hand_value(&self.variant, &self.hand_layers, us, them, hands);
        }
        let table = self.tables.get(&group)?;
        decode(table.entries[table.shape.index(them, us)])
    }

    /// Every placement position (a stone in hand) reachable from the start, start included,
    /// with its value and distance, in a fixed order. In Lasker Morris every position with
    /// stones in hand and 3..=N stones a side, reachable or not.
    pub fn placement(&self) -> Box<dyn Iterator<Item = (Position, Value, u32)> + '_> {
        let board = self.variant.board();
        let build = move |us: u32, them: u32, hand: [u8; 2], to_move: Color| {
            let mut pos = Position {
                board,
                cells: [None; MAX_POINTS],
                hand,
                to_move,
            };
            for p in 0..board.points() {
                if us >> p & 1 != 0 {
                    pos.cells[p] = Some(to_move);
                } else if them >> p & 1 != 0 {
                    pos.cells[p] = Some(to_move.other());
                }
            }
            pos
        };
        if self.variant.place_or_move() {
            // As White to move (the colours do not matter to the value).
            let all = hand_positions(&self.variant, &self.hand_layers);
            return Box::new(
                all.map(move |(us, them, hands, v, d)| {
                    (build(us, them, hands, Color::White), v, d)
                }),
            );
        }
        let placed = self
            .tables
            .iter()
            .flat_map(move |(&(to_move, hand, ..), table)| {
                table
                    .entries
                    .iter()
                    .enumerate()
                    .filter_map(move |(i, &entry)| {
                        let (value, dist) = decode(entry)?;
                        let (them, us) = table.shape.position(i);
                        Some((build(us, them, hand, to_move), value, dist))
                    })
            });
        Box::new(placed)
    }

    /// The number of placement positions of [`Self::placement`].
    pub fn placement_count(&self) -> usize {
        self.placement().count()
    }
}

/// The table of a placement position, and its stones: the side to move's, the other side's.
fn locate(pos: &Position) -> (Group, u32, u32) {
    let us = pos.mask_of(pos.to_move);
    let them = pos.mask_of(pos.to_move.other());
    let counts = (us.count_ones() as usize, them.count_ones() as usize);
    ((pos.to_move, pos.hand, counts.0, counts.1), us, them)
}

fn encode((value, dist): (Value, u32)) -> u16 {
    let code = match value {
        Value::Win => 1,
        Value::Loss => 2,
        Value::Draw => 3,
    };
    assert!(dist < 1 << 14, "distance fits 14 bits");
    (dist as u16) << 2 | code
}

/// The value of a table entry; `None` for a position not reached.
fn decode(entry: u16) -> Option<(Value, u32)> {
    let value = match entry & 3 {
        0 => return None,
        1 => Value::Win,
        2 => Value::Loss,
        _ => Value::Draw,
    };
    Some((value, (entry >> 2) as u32))
}

/// The value of a position from those of its children (each from its own side to move): the
/// fastest win if a child is lost, else a draw if a child is drawn, else the slowest loss; no
/// move at all is a loss in 0.
fn minimax(children: &[(Value, u32)]) -> (Value, u32) {
    let fastest_win = children
        .iter()
        .filter(|(v, _)| *v == Value::Loss)
        .map(|(_, d)| d + 1)
        .min();
    if let Some(d) = fastest_win {
        return (Value::Win, d);
    }
    if children.iter().any(|(v, _)| *v == Value::Draw) {
        return (Value::Draw, 0);
    }
    let slowest_loss = children.iter().map(|(_, d)| d + 1).max().unwrap_or(0);
    (Value::Loss, slowest_loss)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        for value in [
            (Value::Win, 23),
            (Value::Loss, 0),
            (Value::Draw, 0),
            (Value::Loss, 300),
        ] {
            assert_eq!(decode(encode(value)), Some(value));
        }
        assert_eq!(decode(0), None);
    }

    #[test]
    fn minimax_rule() {
        use Value::*;
        assert_eq!(minimax(&[]), (Loss, 0));
        assert_eq!(minimax(&[(Win, 1), (Win, 3)]), (Loss, 4));
        assert_eq!(minimax(&[(Win, 1), (Draw, 0)]), (Draw, 0));
        assert_eq!(
            minimax(&[(Win, 1), (Draw, 0), (Loss, 4), (Loss, 2)]),
            (Win, 3)
        );
    }
}
