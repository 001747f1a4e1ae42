//! The no-capture draw rule (docs/rules.md section 3, `--moves-without-capture N`) solved the plain
//! way, with the counter as part of the state, to check solvers that answer the rule from
//! distances instead.
//!
//! A state is a position with a counter `c`, the plies since the last zeroing ply (a capture
//! or a placement), `0 <= c < N`. A zeroing move leads to the child with counter 0, a quiet
//! move to the child with counter `c + 1`, where the game is drawn at `c + 1 == N` unless the
//! move ended it. That is written as a level `N` of every group, kept while the group is
//! solved: at it a position is drawn, or lost or won when the game is over there.
//!
//! The states form no cycle: a quiet move keeps the group of stone counts and raises the
//! counter, a zeroing move leads into a group solved before (fewer stones on the board, or
//! fewer in hand). So the groups are solved in that order ([`groups`]) and inside a group the
//! counter from `N` down to 0, each state's value taken from its children by the minimax rule
//! once, with no distances and no counting of successors.
//!
//! Placement positions: outside Lasker Morris every move there is a placement, so their value
//! does not depend on the counter, and they are solved once, by minimax over every position
//! reachable from the start (as in [`crate::game`]), the moving phase read at counter 0. In
//! Lasker Morris a player may slide instead of placing, so the positions with stones in hand
//! are solved by groups like the moving phase, every one of them, reached or not.

use crate::board::MAX_POINTS;
use crate::position::{Color, Position, Variant};
use crate::solve::{line_decided, rank, squeeze, subsets, successors_with_hands, Value};

// Value codes, two bits per state.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

fn code(value: Value) -> u8 {
    match value {
        Value::Win => WIN,
        Value::Loss => LOSS,
        Value::Draw => DRAW,
    }
}

fn value(code: u8) -> Option<Value> {
    match code {
        WIN => Some(Value::Win),
        LOSS => Some(Value::Loss),
        DRAW => Some(Value::Draw),
        _ => None,
    }
}

/// Win if a child is lost, else draw if a child is drawn, else loss (also with no child).
fn minimax(children: impl IntoIterator<Item = u8>) -> u8 {
    let mut draw = false;
    for child in children {
        match child {
            LOSS => return WIN,
            DRAW => draw = true,
            WIN => {}
            _ => unreachable!("children are solved first"),
        }
    }
    if draw {
        DRAW
    } else {
        LOSS
    }
}

/// Two-bit value codes, four to a byte: the 4-stone game's 78 M moving-phase positions at 12
/// counters then take 235 MB, a byte each would take 940 MB.
struct Codes(Vec<u8>);

impl Codes {
    fn new(len: usize) -> Codes {
        Codes(vec![0; len.div_ceil(4)])
    }

    fn get(&self, i: usize) -> u8 {
        self.0[i / 4] >> (2 * (i % 4)) & 3
    }

    fn set(&mut self, i: usize, code: u8) {
        self.0[i / 4] |= code << (2 * (i % 4));
    }

    /// The codes of `len` entries from `start`, a multiple of 4.
    fn slice(&self, start: usize, len: usize) -> Codes {
        debug_assert_eq!(start % 4, 0);
        Codes(self.0[start / 4..(start + len).div_ceil(4)].to_vec())
    }

    /// Sets the code of every entry `i` for which `code_of(i)` gives one, on every core: the
    /// entries of one level depend only on other levels and on groups solved before. Bytes are
    /// dealt out in small chunks in turn, as positions of one layer cost alike and those of
    /// two layers do not (a side with 3 stones flies).
    fn fill(&mut self, code_of: impl Fn(usize) -> Option<u8> + Sync) {
        const CHUNK: usize = 4096;
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut shares: Vec<Vec<(usize, &mut [u8])>> = (0..threads).map(|_| Vec::new()).collect();
        for (k, bytes) in self.0.chunks_mut(CHUNK).enumerate() {
            shares[k % threads].push((k * CHUNK, bytes));
        }
        std::thread::scope(|scope| {
            for share in shares {
                let code_of = &code_of;
                scope.spawn(move || {
                    for (first, bytes) in share {
                        for (j, byte) in bytes.iter_mut().enumerate() {
                            for q in 0..4 {
                                if let Some(code) = code_of(4 * (first + j) + q) {
                                    *byte |= code << (2 * q);
                                }
                            }
                        }
                    }
                });
            }
        });
    }
}

/// The order of a layer's positions: by the stones of the side to move, then by the other
/// side's among the free points (the ranking of [`crate::solve`] with the sides' roles
/// swapped). Every quiet move from a position leads into one block, that of its `them` to
/// move (1330 positions, 333 bytes of codes a level, with 3 stones a side): its quiet
/// children then cost about one cache miss instead of one each.
struct Layout {
    /// The side to move's stones, by rank: one block each.
    us_sets: Vec<u32>,
    /// The other side's stones renumbered among the free points, by rank: the entries of a
    /// block.
    them_sets: Vec<u32>,
}

impl Layout {
    fn new(points: usize, movers: usize, others: usize) -> Layout {
        Layout {
            us_sets: subsets(points, movers),
            them_sets: subsets(points - movers, others),
        }
    }

    fn len(&self) -> usize {
        self.us_sets.len() * self.them_sets.len()
    }

    /// The first index of the block of `us`: computed once for all quiet children.
    fn block(&self, us: u32) -> usize {
        rank(us) * self.them_sets.len()
    }

    fn entry(&self, us: u32, them: u32) -> usize {
        rank(squeeze(them, us))
    }

    fn index(&self, us: u32, them: u32) -> usize {
        self.block(us) + self.entry(us, them)
    }

    fn position(&self, i: usize) -> (u32, u32) {
        let block = self.them_sets.len();
        let us = self.us_sets[i / block];
        (us, spread(self.them_sets[i % block], us))
    }
}

/// The inverse of `squeeze(them, us)`: `squeezed` with an empty point put back at each point
/// of `us`, lowest first (the bits from there up move one place).
fn spread(mut squeezed: u32, us: u32) -> u32 {
    let mut rest = us;
    while rest != 0 {
        let low = (1u32 << rest.trailing_zeros()) - 1;
        squeezed = (squeezed & low) | ((squeezed & !low) << 1);
        rest &= rest - 1;
    }
    squeezed
}

/// The states of one layer: positions with the same stones on the board and in hand for the
/// side to move and for the other side.
struct Table {
    shape: Layout,
    /// Stones in hand: the side to move's, the other side's.
    hands: [u8; 2],
    /// The colour given to the side to move when the positions are listed: White, but Black
    /// for the placement positions Black reaches.
    side: Color,
    /// `levels[c]` holds the codes at counter `c`; a single level where every move zeroes the
    /// counter (placement outside Lasker Morris), and there `UNKNOWN` marks a position the
    /// start does not reach.
    levels: Vec<Codes>,
}

impl Table {
    fn code(&self, i: usize, counter: usize) -> u8 {
        self.levels[counter.min(self.levels.len() - 1)].get(i)
    }
}

/// Win, draw or loss of every state (position, counter) under the no-capture draw rule.
pub struct CounterSolution {
    variant: Variant,
    limit: u32,
    /// By [`Self::key`]: stones on the board and in hand of each side.
    tables: Vec<Option<Table>>,
}

impl CounterSolution {
    /// Solves, with the draw declared after `limit` plies without a zeroing ply, every
    /// moving-phase position with 3..=`variant.stones` stones a side (exactly 3 where a line
    /// wins), and every placement position reachable from the start (in Lasker Morris every
    /// position with stones in hand). The cost is `limit + 1` passes of move generation over
    /// the moving phase.
    pub fn solve(variant: Variant, limit: u32) -> CounterSolution {
        assert!(limit >= 1, "the limit counts at least one ply");
        assert!(
            variant.stones_move(),
            "{:?}: stones never move",
            variant.game
        );
        let sides = variant.stones as usize + 1;
        let mut sol = CounterSolution {
            variant,
            limit,
            tables: (0..sides.pow(4)).map(|_| None).collect(),
        };
        for (a, b, hands) in groups(&variant) {
            sol.solve_group(a, b, hands);
        }
        if !variant.place_or_move() {
            let start = [variant.stones, variant.stones];
            sol.solve_placement(0, 0, start, Color::White);
        }
        sol
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The value for the side to move of `pos` with `counter` plies since the last zeroing
    /// ply; `None` when `counter >= limit` or the position is not covered. The colours do not
    /// matter: a placement position is answered if the one with the colours swapped is
    /// reached.
    pub fn value(&self, pos: &Position, counter: u32) -> Option<Value> {
        if counter >= self.limit {
            return None;
        }
        let (us, them, hands) = sides(pos);
        let table = self.table(us, them, hands)?;
        value(table.code(table.shape.index(us, them), counter as usize))
    }

    /// Every covered position with its values at the counters 0..limit (index = counter).
    pub fn iter(&self) -> impl Iterator<Item = (Position, Vec<Value>)> + '_ {
        let board = self.variant.board();
        let limit = self.limit as usize;
        self.tables.iter().flatten().flat_map(move |table| {
            (0..table.shape.len()).filter_map(move |i| {
                let values: Option<Vec<Value>> =
                    (0..limit).map(|c| value(table.code(i, c))).collect();
                let (us, them) = table.shape.position(i);
                let side = table.side;
                let mut pos = Position {
                    board,
                    cells: [None; MAX_POINTS],
                    hand: [0, 0],
                    to_move: side,
                };
                pos.hand[side.index()] = table.hands[0];
                pos.hand[side.other().index()] = table.hands[1];
                for p in 0..board.points() {
                    if us >> p & 1 != 0 {
                        pos.cells[p] = Some(side);
                    } else if them >> p & 1 != 0 {
                        pos.cells[p] = Some(side.other());
                    }
                }
                Some((pos, values?))
            })
        })
    }

    /// The place in `tables` of the layer with these stones on the board and in hand (the
    /// side to move's first); `None` beyond the game's stones.
    fn key(&self, movers: usize, others: usize, hands: [u8; 2]) -> Option<usize> {
        let sides = self.variant.stones as usize + 1;
        let counts = [movers, others, hands[0] as usize, hands[1] as usize];
        if counts.iter().any(|&k| k >= sides) {
            return None;
        }
        Some(counts.iter().fold(0, |acc, &k| acc * sides + k))
    }

    fn table(&self, us: u32, them: u32, hands: [u8; 2]) -> Option<&Table> {
        let key = self.key(us.count_ones() as usize, them.count_ones() as usize, hands)?;
        self.tables[key].as_ref()
    }

    /// Solves the layers `a` against `b` stones on the board and the colour swap, `hands`
    /// being the stones in hand of the side with `a` and of the side with `b`: quiet moves
    /// lead from one layer into the other.
    fn solve_group(&mut self, a: usize, b: usize, hands: [u8; 2]) {
        let points = self.variant.board().points();
        let limit = self.limit as usize;
        let [ha, hb] = hands;
        let layers = if (a, ha) == (b, hb) {
            vec![(a, b, hands)]
        } else {
            vec![(a, b, hands), (b, a, [hb, ha])]
        };
        let shapes: Vec<Layout> = layers
            .iter()
            .map(|&(movers, others, _)| Layout::new(points, movers, others))
            .collect();
        // Group id = offset of the layer + index in it; the second layer starts on a whole
        // byte of codes, so that each layer's codes can be cut out at the end.
        let offsets = [0, shapes[0].len().next_multiple_of(4)];
        let total = offsets[layers.len() - 1] + shapes[layers.len() - 1].len();
        let locate = |id: usize| {
            if layers.len() == 2 && id >= offsets[1] {
                (id < total).then(|| (1, id - offsets[1]))
            } else {
                (id < shapes[0].len()).then_some((0, id))
            }
        };
        let mut levels: Vec<Codes> = (0..=limit).map(|_| Codes::new(total)).collect();
        for counter in (0..=limit).rev() {
            let (below, above) = levels.split_at_mut(counter + 1);
            let next = above.first();
            let this = &*self;
            below[counter].fill(|id| {
                let (l, i) = locate(id)?;
                let (us, them) = shapes[l].position(i);
                let Some(next) = next else {
                    return Some(this.at_limit(us, them, layers[l].2));
                };
                // A quiet move leads into the other layer (the same one when there is one), into
                // the block of `them` to move.
                let o = layers.len() - 1 - l;
                let block = offsets[o] + shapes[o].block(them);
                Some(this.evaluate(us, them, layers[l].2, |nu, nt| {
                    next.get(block + shapes[o].entry(nu, nt))
                }))
            });
        }
        levels.truncate(limit);
        for (l, (&(movers, others, hands), shape)) in layers.iter().zip(shapes).enumerate() {
            let key = self
                .key(movers, others, hands)
                .expect("within the game's stones");
            let levels = levels
                .iter()
                .map(|codes| codes.slice(offsets[l], shape.len()))
                .collect();
            self.tables[key] = Some(Table {
                shape,
                hands,
                side: Color::White,
                levels,
            });
        }
    }

    /// The code of (`us` to move, `them`) when the counter has reached the limit: the ply that
    /// brought it there drew the game, unless the game is over here.
    fn at_limit(&self, us: u32, them: u32, hands: [u8; 2]) -> u8 {
        let mut moves = false;
        successors_with_hands(&self.variant, us, them, hands, |_, _, _, _| moves = true);
        if moves {
            DRAW
        } else {
            self.game_over(us, them)
        }
    }

    /// The code of a position with no legal move: a line on the board decides it where a line
    /// wins ([`line_decided`]); otherwise the side to move is blocked and loses.
    fn game_over(&self, us: u32, them: u32) -> u8 {
        line_decided(&self.variant, us, them).map_or(LOSS, code)
    }

    /// The code of (`us` to move, `them`) below the limit, from its children: a zeroing
    /// child's at counter 0 from a group solved before, a quiet child's from `quiet(next_us,
    /// next_them)`, the code at the next counter.
    fn evaluate(&self, us: u32, them: u32, hands: [u8; 2], quiet: impl Fn(u32, u32) -> u8) -> u8 {
        let mut moves = false;
        let mut win = false;
        let mut draw = false;
        successors_with_hands(&self.variant, us, them, hands, |nu, nt, nh, zeroing| {
            moves = true;
            let child = if zeroing {
                self.after_zeroing(nu, nt, nh)
            } else {
                quiet(nu, nt)
            };
            // Without branches: which code comes is hard to predict.
            debug_assert_ne!(child, UNKNOWN, "children are solved first");
            win |= child == LOSS;
            draw |= child == DRAW;
        });
        if !moves {
            self.game_over(us, them)
        } else if win {
            WIN
        } else if draw {
            DRAW
        } else {
            LOSS
        }
    }

    /// The code of the position after a zeroing move (`next_us` to move): lost when the move
    /// ended the game (a line completed where a line wins, the opponent left with 2 stones),
    /// else read at counter 0.
    fn after_zeroing(&self, next_us: u32, next_them: u32, next_hands: [u8; 2]) -> u8 {
        if self.variant.line_wins() || next_us.count_ones() + u32::from(next_hands[0]) < 3 {
            return LOSS;
        }
        let table = self
            .table(next_us, next_them, next_hands)
            .expect("zeroing moves lead into groups solved before");
        table.code(table.shape.index(next_us, next_them), 0)
    }

    /// The code of the placement position (`us` to move, `them`, `hands`), `side` being the
    /// colour to move, and of every placement position reachable from it. Outside Lasker
    /// Morris every move there places a stone, so the counter does not matter. On the masks
    /// with the generator of the moving phase: the array-based one ([`crate::movegen`])
    /// allocates per move and made this half the solve with 4 stones a side.
    fn solve_placement(&mut self, us: u32, them: u32, hands: [u8; 2], side: Color) -> u8 {
        if let Some(table) = self.table(us, them, hands) {
            let known = table.code(table.shape.index(us, them), 0);
            if known != UNKNOWN {
                return known;
            }
        }
        let mut children = Vec::new();
        successors_with_hands(&self.variant, us, them, hands, |nu, nt, nh, _| {
            children.push((nu, nt, nh));
        });
        let found = if us.count_ones() + u32::from(hands[0]) < 3 {
            LOSS
        } else if children.is_empty() {
            self.game_over(us, them)
        } else {
            assert!(
                hands[0] > 0,
                "the side to move in the placement phase has a stone in hand"
            );
            let mut codes = Vec::new();
            for (nu, nt, nh) in children {
                codes.push(if nh != [0, 0] {
                    self.solve_placement(nu, nt, nh, side.other())
                } else if nu.count_ones() < 3 {
                    LOSS
                } else {
                    // The moving phase starts at counter 0: the last ply placed a stone.
                    let table = self.table(nu, nt, nh).expect("moving phase solved");
                    table.code(table.shape.index(nu, nt), 0)
                });
            }
            minimax(codes)
        };
        let key = self
            .key(us.count_ones() as usize, them.count_ones() as usize, hands)
            .expect("within the game's stones");
        let points = self.variant.board().points();
        let table = self.tables[key].get_or_insert_with(|| {
            let shape = Layout::new(points, us.count_ones() as usize, them.count_ones() as usize);
            Table {
                levels: vec![Codes::new(shape.len())],
                shape,
                hands,
                side,
            }
        });
        debug_assert_eq!(table.side, side, "one colour to move per layer");
        let i = table.shape.index(us, them);
        table.levels[0].set(i, found);
        found
    }
}

/// The stones of the side to move and of the other side, and their hands in that order.
fn sides(pos: &Position) -> (u32, u32, [u8; 2]) {
    let me = pos.to_move;
    (
        pos.mask_of(me),
        pos.mask_of(me.other()),
        [pos.in_hand(me), pos.in_hand(me.other())],
    )
}

/// The groups solved by counter sweeps, as (a, b, hands of the side with a, of the side with
/// b), in an order where every zeroing move leads into an earlier group: fewer stones in hand
/// first (a placement takes one from a hand), then fewer on the board (a capture takes one).
/// The moving phase, and in Lasker Morris every group with stones in hand too.
fn groups(variant: &Variant) -> Vec<(usize, usize, [u8; 2])> {
    let stones = variant.stones as usize;
    // (on the board, in hand) of one side.
    let sides: Vec<(usize, u8)> = if variant.place_or_move() {
        (0..=stones)
            .flat_map(|on| (0..=stones - on).map(move |hand| (on, hand as u8)))
            .filter(|&(on, hand)| on + hand as usize >= 3)
            .collect()
    } else if variant.line_wins() {
        vec![(3, 0)]
    } else {
        (3..=stones).map(|on| (on, 0)).collect()
    };
    let points = variant.board().points();
    let mut groups = Vec::new();
    for &(a, ha) in &sides {
        for &(b, hb) in &sides {
            if (a, ha) <= (b, hb) && a + b <= points {
                groups.push((a, b, [ha, hb]));
            }
        }
    }
    groups.sort_by_key(|&(a, b, [ha, hb])| (ha + hb, a + b, a, b, ha, hb));
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_index_is_a_bijection() {
        let layout = Layout::new(24, 4, 3);
        for i in (0..layout.len()).step_by(991) {
            let (us, them) = layout.position(i);
            assert_eq!((us.count_ones(), them.count_ones()), (4, 3));
            assert_eq!(us & them, 0);
            assert_eq!(layout.index(us, them), i);
        }
    }

    #[test]
    fn groups_come_after_what_zeroing_moves_reach() {
        let lasker = Variant {
            stones: 4,
            ..Variant::standard(crate::Game::Lasker)
        };
        let order = groups(&lasker);
        let place = |g: (usize, usize, [u8; 2])| {
            let (a, b, [ha, hb]) = g;
            let swapped = (b, a, [hb, ha]);
            order.iter().position(|&x| x == g || x == swapped)
        };
        for (k, &(a, b, [ha, hb])) in order.iter().enumerate() {
            // A placement by the side with `a`, and a capture by it.
            if ha > 0 {
                assert!(place((a + 1, b, [ha - 1, hb])).is_none_or(|p| p < k));
            }
            if b + usize::from(hb) > 3 && b > 0 {
                assert!(place((a, b - 1, [ha, hb])).is_none_or(|p| p < k));
            }
        }
        assert_eq!(groups(&Variant::new(4, true)).len(), 3);
    }
}
