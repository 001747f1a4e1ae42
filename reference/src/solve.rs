//! A naive solver of the moving phase (no stones in hand) with few stones a side, for every
//! board of [`crate::board`]: the mill games, and Three Men's Morris, where a line wins.
//!
//! Every position with 3..=N stones a side and the side to move known is stored: no symmetry
//! reduction, no colour reduction, one slot per position. The value and the exact distance
//! are computed by plain retrograde analysis:
//!
//! * Material only decreases, so the positions are solved in groups by stone counts, fewest
//!   stones first. A quiet move from "a against b stones" leads to "b against a" (the other
//!   side moves next), so the layers (a, b) and (b, a) form one group, solved together. A
//!   capture leads to a group already solved (or ends the game when the loser is left with 2).
//! * Initialisation looks at every move of every position of the group: quiet moves are
//!   counted (the counter of successors not yet known to be won for the opponent); captures
//!   look up the solved value of the smaller position.
//! * Then positions are resolved in order of distance with a bucket queue: a position whose
//!   value becomes known at distance d passes it to its quiet predecessors (found by un-moving
//!   the stone of the side that just moved): a loss makes each predecessor a win at d + 1; a
//!   win decrements the predecessor's counter, and a counter reaching 0 (with no capture to a
//!   draw or a loss) makes a loss at one more than the largest successor distance.
//! * What is never resolved is a draw.
//!
//! Where a line wins (Three Men's Morris) there is no capture and one group, 3 against 3: a
//! move that completes a line is treated as a capture is, looked at directly (it wins in 1)
//! rather than passed on backwards, and a position with a line on the board has no moves.
//!
//! Distances: a position with no legal move is lost in 0; a capture that leaves the opponent
//! with 2 stones wins in 1; the winner takes the shortest win, the loser the longest loss, and
//! distances run on through captures into smaller positions.
//!
//! Positions are stored as two bit masks seen from the side to move: `us` (to move) and `them`,
//! bit i for the i-th point of [`crate::board::Board::names`] (on the Nine board a1, d1, g1,
//! b2, ... g7), the same numbering as the engine's.
//!
//! Index of a position in its layer: `rank(them) * C(n - |them|, |us|) + rank(us')` on a
//! board of n points, where
//! rank is the colex rank of a set among the subsets of its size and `us'` is `us` with its
//! points renumbered among the points `them` leaves free. The side not to move comes first so
//! that the predecessors of a position (which all keep its `us` as their `them`) lie in one
//! small block of memory.

use crate::board::{Board, Geometry, MAX_POINTS};
use crate::position::{Color, Position, Variant};
use std::collections::BTreeMap;
use std::fmt;

/// The game-theoretic value of a position for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        })
    }
}

// Stored value codes.
const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const DRAW: u8 = 3;

/// Pascal's triangle up to 24: `BINOM[n][k]` = C(n, k).
const BINOM: [[usize; MAX_POINTS + 1]; MAX_POINTS + 1] = {
    let mut t = [[0usize; MAX_POINTS + 1]; MAX_POINTS + 1];
    let mut n = 0;
    while n <= MAX_POINTS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k) for n, k <= 24 (0 when k > n).
#[inline]
fn binom(n: usize, k: usize) -> usize {
    BINOM[n][k]
}

/// The points of a mask, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            Some(p)
        }
    })
}

/// Colex rank of a set among the sets of its size: sum of C(p_i, i) over its points
/// p_1 < p_2 < ... (i from 1). Equals the place of the mask among same-size masks sorted as
/// numbers.
#[inline]
pub fn rank(mask: u32) -> usize {
    bits(mask).enumerate().map(|(i, p)| binom(p, i + 1)).sum()
}

/// All subsets of size `k` of `n` points as masks, in increasing numeric (= colex) order.
pub fn subsets(n: usize, k: usize) -> Vec<u32> {
    (0u32..(1u32 << n))
        .filter(|m| m.count_ones() as usize == k)
        .collect()
}

/// `us` renumbered among the points not in `them` (the i-th free point becomes point i).
#[inline]
pub(crate) fn squeeze(us: u32, them: u32) -> u32 {
    let mut out = 0;
    for p in bits(us) {
        let below = (them & ((1u32 << p) - 1)).count_ones() as usize;
        out |= 1 << (p - below);
    }
    out
}

/// The inverse of [`squeeze`].
fn unsqueeze(squeezed: u32, them: u32) -> u32 {
    let mut out = 0;
    let mut i = 0;
    for p in 0..MAX_POINTS {
        if them & (1 << p) != 0 {
            continue;
        }
        if squeezed & (1 << i) != 0 {
            out |= 1 << p;
        }
        i += 1;
    }
    out
}

/// True when `stones` holds a complete line through point `p`.
fn closes_line(g: &Geometry, stones: u32, p: usize) -> bool {
    g.line_masks_through[p].iter().any(|&m| m & !stones == 0) // no point of the line is missing from `stones`
}

/// The stones of `stones` that stand in a complete line of `stones`.
fn in_lines(g: &Geometry, stones: u32) -> u32 {
    g.line_masks
        .iter()
        .filter(|&&m| stones & m == m)
        .fold(0, |acc, &m| acc | m)
}

/// Where a line wins, the value of (`us` to move, `them`) when a line stands on the board:
/// lost when `them` made it, won in the position no game reaches where only `us` has one
/// (the convention of [`crate::movegen::decided`]).
pub(crate) fn line_decided(variant: &Variant, us: u32, them: u32) -> Option<Value> {
    if !variant.line_wins() {
        return None;
    }
    let g = variant.board().geometry();
    if in_lines(g, them) != 0 {
        Some(Value::Loss)
    } else if in_lines(g, us) != 0 {
        Some(Value::Win)
    } else {
        None
    }
}

/// Every move of the side to move (`us`, no stones in hand): calls `f(next_us, next_them,
/// decisive)` with the next position seen from the next side to move (the old `them`).
/// `decisive`: the move closes a line, so it captures, or where a line wins it ends the game.
/// A position where a line has won already has no moves.
pub fn successors(variant: &Variant, us: u32, them: u32, mut f: impl FnMut(u32, u32, bool)) {
    successors_with_hands(variant, us, them, [0, 0], |nu, nt, _, decisive| {
        f(nu, nt, decisive)
    });
}

/// [`successors`] with stones in hand (`hands`: the side to move's, the other side's), for
/// Lasker Morris, where a player may place or slide: calls `f(next_us, next_them,
/// next_hands, decisive)`. A placement is decisive too (it leaves the hands of the group).
pub fn successors_with_hands(
    variant: &Variant,
    us: u32,
    them: u32,
    hands: [u8; 2],
    mut f: impl FnMut(u32, u32, [u8; 2], bool),
) {
    if line_decided(variant, us, them).is_some() {
        return;
    }
    let g = variant.board().geometry();
    let empty = variant.board().all() & !us & !them;
    let free = them & !in_lines(g, them);
    let removable = if free == 0 { them } else { free };
    let [hand, their_hand] = hands;
    // Adds the move that leaves `moved` (the mover's stones after it), `placed` telling a
    // placement from a slide.
    let mut add = |moved: u32, to: usize, placed: bool| {
        let next_hands = [their_hand, hand - placed as u8];
        if variant.line_wins() && closes_line(g, moved, to) {
            f(them, moved, next_hands, true);
        } else if !variant.line_wins() && closes_line(g, moved, to) && removable != 0 {
            for c in bits(removable) {
                f(them & !(1 << c), moved, next_hands, true);
            }
        } else {
            f(them, moved, next_hands, placed);
        }
    };
    if hand > 0 {
        for to in bits(empty) {
            add(us | (1 << to), to, true);
        }
    }
    if hand > 0 && !variant.place_or_move() {
        return;
    }
    let fly = variant.flying && hand == 0 && us.count_ones() == 3;
    for from in bits(us) {
        let targets = if fly {
            empty
        } else {
            g.neighbour_mask[from] & empty
        };
        for to in bits(targets) {
            add((us & !(1 << from)) | (1 << to), to, false);
        }
    }
}

/// The positions from which a quiet move (one that closes no mill) leads to (`us` to move,
/// `them`): calls `f(prev_us, prev_them)`, seen from the side to move there (the owner of
/// `them`, which just moved). Where a line wins, a position with a line on the board has
/// none: the move that made the line was decisive, and a line made earlier ended the game
/// before.
pub fn quiet_predecessors(variant: &Variant, us: u32, them: u32, f: impl FnMut(u32, u32)) {
    quiet_predecessors_with_hands(variant, us, them, 0, f);
}

/// [`quiet_predecessors`] where the side that just moved has `them_hand` stones in hand
/// (Lasker Morris: it slid although it could have placed). With no stone of `us` on the board
/// a mill takes nothing, so a slide that closed one was quiet.
pub fn quiet_predecessors_with_hands(
    variant: &Variant,
    us: u32,
    them: u32,
    them_hand: u8,
    mut f: impl FnMut(u32, u32),
) {
    if line_decided(variant, us, them).is_some() {
        return;
    }
    let g = variant.board().geometry();
    let empty = variant.board().all() & !us & !them;
    let fly = variant.flying && them_hand == 0 && them.count_ones() == 3;
    for to in bits(them) {
        if closes_line(g, them, to) && (us != 0 || variant.line_wins()) {
            continue; // a move arriving here closed a mill, so it captured
        }
        let sources = if fly {
            empty
        } else {
            g.neighbour_mask[to] & empty
        };
        for from in bits(sources) {
            let before = (them & !(1 << to)) | (1 << from);
            if variant.line_wins() && in_lines(g, before) != 0 {
                continue; // the game was over there, with no move to make
            }
            f(before, us);
        }
    }
}

/// One layer: every position with `movers` stones for the side to move and `others` for the
/// other side on the board, and `hands` in hand (0 but in Lasker Morris).
pub(crate) struct Layer {
    movers: usize,
    others: usize,
    hands: [u8; 2],
    /// Per index: the distance in plies times 4 plus the value code (one look-up per
    /// position).
    entries: Vec<u16>,
}

impl Layer {
    fn code(&self, i: usize) -> u8 {
        (self.entries[i] & 3) as u8
    }

    fn dist(&self, i: usize) -> u16 {
        self.entries[i] >> 2
    }

    fn entry(&self, i: usize) -> (Value, u32) {
        let value = match self.code(i) {
            WIN => Value::Win,
            LOSS => Value::Loss,
            DRAW => Value::Draw,
            code => unreachable!("unsolved value code {code}"),
        };
        (value, self.dist(i) as u32)
    }
}

/// Every (us, them) of the layer `movers` against `others`, in index order: `them` by rank,
/// then `us` by the rank of its renumbering among the points `them` leaves free.
fn layer_positions(
    points: usize,
    movers: usize,
    others: usize,
) -> impl Iterator<Item = (u32, u32)> {
    let movers_sets = std::rc::Rc::new(subsets(points - others, movers));
    subsets(points, others).into_iter().flat_map(move |them| {
        let free: Vec<usize> = (0..points).filter(|&p| them & (1 << p) == 0).collect();
        let sets = movers_sets.clone();
        (0..sets.len()).map(move |i| {
            let us = bits(sets[i]).fold(0u32, |acc, q| acc | (1 << free[q]));
            (us, them)
        })
    })
}

/// Subset tables for ranking and unranking one layer's positions (also the placement
/// tables of [`crate::game`]).
pub(crate) struct LayerShape {
    movers: usize,
    others: usize,
    /// Subsets of the n points of size `others`, by rank.
    others_sets: Vec<u32>,
    /// Subsets of the n - `others` free points of size `movers`, by rank.
    movers_sets: Vec<u32>,
    /// C(n - others, movers): the block size per `others` set.
    block: usize,
}

impl LayerShape {
    /// The layer of `movers` against `others` stones on a board of `points` points.
    pub(crate) fn new(points: usize, movers: usize, others: usize) -> LayerShape {
        LayerShape {
            movers,
            others,
            others_sets: subsets(points, others),
            movers_sets: subsets(points - others, movers),
            block: binom(points - others, movers),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.others_sets.len() * self.block
    }

    pub(crate) fn index(&self, us: u32, them: u32) -> usize {
        rank(them) * self.block + rank(squeeze(us, them))
    }

    pub(crate) fn position(&self, index: usize) -> (u32, u32) {
        let them = self.others_sets[index / self.block];
        let us = unsqueeze(self.movers_sets[index % self.block], them);
        (us, them)
    }
}

/// The value and distance of every moving-phase position with 3..=`max_stones` stones a side.
pub struct MovingSolution {
    variant: Variant,
    max_stones: u8,
    /// `layers[(movers - 3) * k + (others - 3)]` with k = max_stones - 2.
    layers: Vec<Layer>,
}

impl MovingSolution {
    /// Solves every Nine Men's Morris position with 3..=`max_stones` stones a side
    /// (3 <= max_stones <= 9, but more than 4 takes long and much memory), with or without
    /// flying.
    pub fn solve(max_stones: u8, flying: bool) -> MovingSolution {
        MovingSolution::solve_variant(Variant::new(9, flying), max_stones)
    }

    /// Solves every position of `variant`'s moving phase with 3..=`max_stones` stones a side
    /// (exactly 3 where a line wins: no stone is ever taken).
    pub fn solve_variant(variant: Variant, max_stones: u8) -> MovingSolution {
        assert!(
            variant.stones_move(),
            "{:?}: stones never move",
            variant.game
        );
        assert!(
            (3..=variant.stones).contains(&max_stones),
            "3 ..= {} stones a side",
            variant.stones
        );
        assert!(
            !variant.line_wins() || max_stones == 3,
            "where a line wins, the moving phase has 3 stones a side"
        );
        let n = max_stones as usize;
        let mut layers: Vec<Option<Layer>> = (0..(n - 2) * (n - 2)).map(|_| None).collect();
        let slot = |a: usize, b: usize| (a - 3) * (n - 2) + (b - 3);
        let mut solution = MovingSolution {
            variant,
            max_stones,
            layers: Vec::new(),
        };
        for total in 6..=2 * n {
            for a in 3..=n {
                let b = total - a;
                if b < a || b > n {
                    continue;
                }
                let solved = solve_group(&variant, a, b, [0, 0], |us, them, _| {
                    let layer = layers[slot(us.count_ones() as usize, them.count_ones() as usize)]
                        .as_ref()
                        .expect("smaller layers are solved first");
                    let shape_index =
                        index_in(variant.board(), layer.movers, layer.others, us, them);
                    (layer.code(shape_index), layer.dist(shape_index))
                });
                for layer in solved {
                    let s = slot(layer.movers, layer.others);
                    layers[s] = Some(layer);
                }
            }
        }
        solution.layers = layers.into_iter().map(|l| l.expect("all solved")).collect();
        solution
    }

    pub fn max_stones(&self) -> u8 {
        self.max_stones
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub(crate) fn layer(&self, movers: usize, others: usize) -> Option<&Layer> {
        let n = self.max_stones as usize;
        if !(3..=n).contains(&movers) || !(3..=n).contains(&others) {
            return None;
        }
        Some(&self.layers[(movers - 3) * (n - 2) + (others - 3)])
    }

    /// The value and distance in plies of (`us` to move, `them`), masks by point number (a
    /// draw has distance 0); `None` when the stone counts are outside 3..=max_stones or the
    /// sets overlap.
    pub fn get(&self, us: u32, them: u32) -> Option<(Value, u32)> {
        let (layer, i) = self.locate(us, them)?;
        Some(layer.entry(i))
    }

    /// [`Self::get`] of many positions: all are located before any is read, so that the
    /// reads, each likely a cache miss, overlap instead of waiting for one another (the
    /// placement phase of [`crate::game`] spends much of its time on them otherwise).
    pub fn get_many(&self, positions: &[(u32, u32)]) -> Vec<Option<(Value, u32)>> {
        let located: Vec<_> = positions
            .iter()
            .map(|&(us, them)| self.locate(us, them))
            .collect();
        located
            .into_iter()
            .map(|l| l.map(|(layer, i)| layer.entry(i)))
            .collect()
    }

    /// The layer of (`us` to move, `them`) and the position's index in it.
    fn locate(&self, us: u32, them: u32) -> Option<(&Layer, usize)> {
        let board = self.variant.board();
        if us & them != 0 || (us | them) & !board.all() != 0 {
            return None;
        }
        let layer = self.layer(us.count_ones() as usize, them.count_ones() as usize)?;
        Some((layer, index_in(board, layer.movers, layer.others, us, them)))
    }

    /// The value of a position in notation (`W:d7,g1,g7 B:a4,d5,g4 b 0 0`); it must have no
    /// stones in hand and 3..=max_stones stones a side.
    pub fn lookup(&self, text: &str) -> Result<(Value, u32), String> {
        let pos = Position::parse(text, &self.variant)?;
        if pos.hand != [0, 0] {
            return Err("stones in hand: not a moving-phase position".to_string());
        }
        let us = pos.mask_of(pos.to_move);
        let them = pos.mask_of(pos.to_move.other());
        self.get(us, them)
            .ok_or_else(|| format!("stone counts outside 3..={}", self.max_stones))
    }

    /// Every position of the layer with `movers` stones to move against `others`, as
    /// (us, them) masks, in index order.
    pub fn positions(&self, movers: u8, others: u8) -> impl Iterator<Item = (u32, u32)> {
        layer_positions(
            self.variant.board().points(),
            movers as usize,
            others as usize,
        )
    }

    /// Every stored position with its value: (us, them, value, distance).
    pub fn iter(&self) -> impl Iterator<Item = (u32, u32, Value, u32)> + '_ {
        let n = self.max_stones;
        (3..=n)
            .flat_map(move |a| (3..=n).map(move |b| (a, b)))
            .flat_map(move |(a, b)| {
                let layer = self.layer(a as usize, b as usize).expect("in range");
                self.positions(a, b)
                    .enumerate()
                    .map(move |(i, (us, them))| {
                        let (v, d) = layer.entry(i);
                        (us, them, v, d)
                    })
            })
    }

    /// (wins, draws, losses) for the side to move in the layer `movers` against `others`.
    pub fn counts(&self, movers: u8, others: u8) -> (u64, u64, u64) {
        let layer = self
            .layer(movers as usize, others as usize)
            .expect("layer in range");
        let mut c = (0, 0, 0);
        for i in 0..layer.entries.len() {
            match layer.code(i) {
                WIN => c.0 += 1,
                DRAW => c.1 += 1,
                LOSS => c.2 += 1,
                _ => unreachable!(),
            }
        }
        c
    }

    /// Checks every stored value against its successors (see [`Self::verify_position`]).
    /// Passing this check proves every value and distance right, given a right move
    /// generator: by induction on the distance, a stored win or loss is a true one, and a true
    /// win or loss stored as a draw would contradict the check at the shortest such distance.
    /// Returns the first inconsistency.
    pub fn verify(&self) -> Result<(), String> {
        for (us, them, _, _) in self.iter() {
            self.verify_position(us, them)?;
        }
        Ok(())
    }

    /// Checks one stored value against its successors, forward: a win in d has a successor
    /// lost in d - 1 and none lost in less; a loss in d has only won successors, the longest in
    /// d - 1 (a position without moves: loss in 0); a draw has no lost successor and a drawn
    /// one. A capture leaving 2 stones counts as a successor lost in 0.
    pub fn verify_position(&self, us: u32, them: u32) -> Result<(), String> {
        let (value, dist) = self
            .get(us, them)
            .ok_or_else(|| "position not stored".to_string())?;
        let mut min_loss: Option<u32> = None;
        let mut max_win: Option<u32> = None;
        let mut draws = 0;
        if let Some(expected) = line_decided(&self.variant, us, them) {
            return if (value, dist) == (expected, 0) {
                Ok(())
            } else {
                Err(format!(
                    "{}: stored {value} {dist}, a line on the board makes it {expected} 0",
                    notation(self.variant.board(), us, them, Color::White)
                ))
            };
        }
        successors(&self.variant, us, them, |nu, nt, decisive| {
            let (v, d) = if nu.count_ones() < 3 || (decisive && self.variant.line_wins()) {
                (Value::Loss, 0)
            } else {
                self.get(nu, nt).expect("successor stored")
            };
            match v {
                Value::Loss => min_loss = Some(min_loss.map_or(d, |m| m.min(d))),
                Value::Win => max_win = Some(max_win.map_or(d, |m| m.max(d))),
                Value::Draw => draws += 1,
            }
        });
        let expected = match (min_loss, draws, max_win) {
            (Some(d), _, _) => (Value::Win, d + 1),
            (None, 0, Some(d)) => (Value::Loss, d + 1),
            (None, 0, None) => (Value::Loss, 0),
            (None, _, _) => (Value::Draw, 0),
        };
        let found = (value, if value == Value::Draw { 0 } else { dist });
        if found == expected {
            Ok(())
        } else {
            Err(format!(
                "{}: stored {} {}, successors say {} {}",
                notation(self.variant.board(), us, them, Color::White),
                value,
                dist,
                expected.0,
                expected.1
            ))
        }
    }
}

/// The layers of the positions with stones in hand of Lasker Morris, by (stones on the board
/// of the side to move, of the other side, hands of the side to move and of the other).
pub(crate) type HandLayers = BTreeMap<(usize, usize, u8, u8), Layer>;

/// Lasker Morris, where a player may slide instead of placing, so that positions with stones
/// in hand form cycles too: every position with stones in hand is solved by the retrograde
/// analysis of the moving phase, in groups of a layer and its colour swap. A placement, like a
/// capture, leads into a group solved before: fewer stones in hand, or as many and fewer on
/// the board. Every group with 3..=N stones a side on board and in hand is solved, reachable
/// or not. `moving` holds the positions without stones in hand.
pub(crate) fn solve_with_hands(variant: &Variant, moving: &MovingSolution) -> HandLayers {
    let n = variant.stones as usize;
    let points = variant.board().points();
    let mut sides = Vec::new(); // (on board, in hand) of one side
    for on_board in 0..=n {
        for hand in 0..=(n - on_board) {
            if on_board + hand >= 3 {
                sides.push((on_board, hand as u8));
            }
        }
    }
    let mut groups = Vec::new();
    for &(a, ha) in &sides {
        for &(b, hb) in &sides {
            if (a, ha) <= (b, hb) && ha + hb > 0 && a + b <= points {
                groups.push((a, b, ha, hb));
            }
        }
    }
    groups.sort_by_key(|&(a, b, ha, hb)| (ha + hb, a + b, a, b, ha, hb));
    let mut layers = HandLayers::new();
    for (a, b, ha, hb) in groups {
        let solved = solve_group(variant, a, b, [ha, hb], |us, them, hands| {
            let (movers, others) = (us.count_ones() as usize, them.count_ones() as usize);
            let layer = if hands == [0, 0] {
                moving.layer(movers, others)
            } else {
                layers.get(&(movers, others, hands[0], hands[1]))
            };
            let layer = layer.expect("smaller groups are solved first");
            let i = index_in(variant.board(), movers, others, us, them);
            (layer.code(i), layer.dist(i))
        });
        for layer in solved {
            layers.insert(
                (layer.movers, layer.others, layer.hands[0], layer.hands[1]),
                layer,
            );
        }
    }
    layers
}

/// The value of (`us` to move, `them`) in a layer with stones in hand.
pub(crate) fn hand_value(
    variant: &Variant,
    layers: &HandLayers,
    us: u32,
    them: u32,
    hands: [u8; 2],
) -> Option<(Value, u32)> {
    let (movers, others) = (us.count_ones() as usize, them.count_ones() as usize);
    let layer = layers.get(&(movers, others, hands[0], hands[1]))?;
    Some(layer.entry(index_in(variant.board(), movers, others, us, them)))
}

/// Every position of the layers with stones in hand: (us, them, hands, value, distance).
pub(crate) fn hand_positions<'a>(
    variant: &'a Variant,
    layers: &'a HandLayers,
) -> impl Iterator<Item = (u32, u32, [u8; 2], Value, u32)> + 'a {
    layers.values().flat_map(move |layer| {
        layer_positions(variant.board().points(), layer.movers, layer.others)
            .enumerate()
            .map(move |(i, (us, them))| {
                let (v, d) = layer.entry(i);
                (us, them, layer.hands, v, d)
            })
    })
}

/// The index of (us, them) in the layer `movers` against `others`.
fn index_in(board: Board, movers: usize, others: usize, us: u32, them: u32) -> usize {
    debug_assert_eq!(us.count_ones() as usize, movers);
    debug_assert_eq!(them.count_ones() as usize, others);
    rank(them) * binom(board.points() - others, movers) + rank(squeeze(us, them))
}

/// A position in notation, `side` being the colour of `us` (the side to move).
pub fn notation(board: Board, us: u32, them: u32, side: Color) -> String {
    let list = |m: u32| bits(m).map(|p| board.name(p)).collect::<Vec<_>>().join(",");
    let (white, black) = match side {
        Color::White => (us, them),
        Color::Black => (them, us),
    };
    let s = match side {
        Color::White => 'w',
        Color::Black => 'b',
    };
    format!("W:{} B:{} {s} 0 0", list(white), list(black))
}

/// The mask of a comma-separated point list (`d7,g1,g7`); panics on an unknown point.
pub fn mask(board: Board, points: &str) -> u32 {
    points
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            board
                .point(s)
                .unwrap_or_else(|| panic!("unknown point {s}"))
        })
        .fold(0, |acc, p| acc | (1 << p))
}

/// Solves the group of layers (a, b) and (b, a) (one layer when a == b), with `hands` the
/// stones in hand of the side with `a` and of the side with `b` (0 in the moving phase).
/// `solved(us, them, hands)` gives the value code and distance of a position of a smaller,
/// already solved layer.
pub(crate) fn solve_group(
    variant: &Variant,
    a: usize,
    b: usize,
    hands: [u8; 2],
    solved: impl Fn(u32, u32, [u8; 2]) -> (u8, u16) + Sync,
) -> Vec<Layer> {
    let n = variant.board().points();
    let [ha, hb] = hands;
    // Each layer's shape with its hands (the side to move's, the other's).
    let shapes: Vec<(LayerShape, [u8; 2])> = if (a, ha) == (b, hb) {
        vec![(LayerShape::new(n, a, a), [ha, ha])]
    } else {
        vec![
            (LayerShape::new(n, a, b), [ha, hb]),
            (LayerShape::new(n, b, a), [hb, ha]),
        ]
    };
    // Quiet moves from one layer lead into the other (or the same, when there is one).
    let other = |l: usize| shapes.len() - 1 - l;
    // Group id = offset of the layer + index in the layer.
    let offsets: Vec<usize> = shapes
        .iter()
        .scan(0, |acc, (s, _)| {
            let o = *acc;
            *acc += s.len();
            Some(o)
        })
        .collect();
    let total: usize = shapes.iter().map(|(s, _)| s.len()).sum();
    let layer_of = |id: usize| {
        if id >= offsets[shapes.len() - 1] {
            shapes.len() - 1
        } else {
            0
        }
    };
    let group_position = |id: usize| {
        let l = layer_of(id);
        shapes[l].0.position(id - offsets[l])
    };

    let mut slots = vec![Slot::default(); total];

    // Initialisation: count quiet moves, read captures from the smaller layers. Positions are
    // independent here, so the work is split between threads; each returns the positions it
    // wants queued, with their distance.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = total.div_ceil(threads).max(1);
    let queued: Vec<Vec<(u16, u32)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = slots
            .chunks_mut(chunk)
            .enumerate()
            .map(|(c, part)| {
                let solved = &solved;
                let group_position = &group_position;
                let (shapes, layer_of) = (&shapes, &layer_of);
                scope.spawn(move || {
                    let mut queue = Vec::new();
                    for (k, slot) in part.iter_mut().enumerate() {
                        let id = c * chunk + k;
                        let (us, them) = group_position(id);
                        let hands = shapes[layer_of(id)].1;
                        if let Some(d) = init_slot(slot, variant, us, them, hands, solved) {
                            queue.push((d, id as u32));
                        }
                    }
                    queue
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let push = |buckets: &mut Vec<Vec<u32>>, d: usize, id: usize| {
        if buckets.len() <= d {
            buckets.resize_with(d + 1, Vec::new);
        }
        buckets[d].push(id as u32);
    };
    for (d, id) in queued.into_iter().flatten() {
        push(&mut buckets, d as usize, id as usize);
    }

    // Resolution in order of distance.
    let mut d = 0;
    while d < buckets.len() {
        let mut bucket = std::mem::take(&mut buckets[d]);
        // In index order (a position may be queued twice: once is enough).
        bucket.sort_unstable();
        bucket.dedup();
        // First settle everything of this distance, so that a capture win at d is not
        // overtaken by a quiet win at d + 1 found while passing on this bucket. Collect what
        // is still to be passed on, with the block of the index its predecessors lie in.
        let mut to_pass: Vec<(usize, u32, u32, bool, u8)> = Vec::with_capacity(bucket.len());
        for &id in &bucket {
            let slot = &mut slots[id as usize];
            if slot.value == UNKNOWN {
                slot.value = WIN;
                slot.dist = d as u16;
            }
            if slot.done {
                continue; // resolved at a smaller distance and already passed on
            }
            slot.done = true;
            debug_assert_eq!(slot.dist as usize, d);
            let won = slot.value == WIN;
            let (us, them) = group_position(id as usize);
            // Every predecessor has `them` to move against `us`: one block of the other layer.
            let here = layer_of(id as usize);
            let l = other(here);
            let block = offsets[l] + rank(us) * shapes[l].0.block;
            to_pass.push((block, us, them, won, shapes[here].1[1]));
        }
        // The order of passing on does not matter for the result; block by block keeps each
        // block in cache.
        to_pass.sort_unstable_by_key(|&(block, ..)| block);
        for (block, us, them, won, them_hand) in to_pass {
            quiet_predecessors_with_hands(variant, us, them, them_hand, |pu, pt| {
                debug_assert_eq!(pt, us);
                let p = block + rank(squeeze(pu, us));
                debug_assert_eq!(group_position(p), (pu, pt));
                let slot = &mut slots[p];
                if slot.value != UNKNOWN {
                    return;
                }
                if !won {
                    // A move into a lost position: the predecessor wins at d + 1.
                    slot.value = WIN;
                    slot.dist = (d + 1) as u16;
                    push(&mut buckets, d + 1, p);
                } else {
                    slot.counter = slot
                        .counter
                        .checked_sub(1)
                        .expect("no more decrements than quiet successors");
                    slot.loss_dist = slot.loss_dist.max((d + 1) as u16);
                    if slot.counter == 0 && !slot.cannot_lose {
                        slot.value = LOSS;
                        slot.dist = slot.loss_dist;
                        push(&mut buckets, slot.loss_dist as usize, p);
                    }
                }
            });
        }
        d += 1;
    }

    // What was never resolved is a draw. Split the group into its layers.
    let mut layers = Vec::new();
    for (l, (shape, hands)) in shapes.iter().enumerate() {
        let part = &slots[offsets[l]..offsets[l] + shape.len()];
        layers.push(Layer {
            movers: shape.movers,
            others: shape.others,
            hands: *hands,
            entries: part
                .iter()
                .map(|s| {
                    let code = if s.value == UNKNOWN { DRAW } else { s.value };
                    assert!(s.dist < 1 << 14, "distance fits 14 bits");
                    (s.dist << 2) | code as u16
                })
                .collect(),
        });
    }
    layers
}

/// The working state of one position while its group is solved.
#[derive(Copy, Clone, Default)]
struct Slot {
    /// UNKNOWN, WIN or LOSS (what stays UNKNOWN is a draw).
    value: u8,
    /// Quiet successors not yet known to be wins for the opponent.
    counter: u8,
    /// A capture reaches a draw or a loss: the position cannot be lost.
    cannot_lose: bool,
    /// Already passed on to its predecessors.
    done: bool,
    /// The distance, once the value is known.
    dist: u16,
    /// One more than the largest distance of a successor known to be a win for the opponent.
    loss_dist: u16,
}

/// Initialises the slot of (us, them) from its moves: counts the quiet ones, looks up the
/// captures. Returns the distance at which to queue it: a capture win (resolved when its
/// bucket comes up, unless a quiet move wins sooner), or a loss known already (no quiet move
/// and every capture, if any, into a won position).
fn init_slot(
    slot: &mut Slot,
    variant: &Variant,
    us: u32,
    them: u32,
    hands: [u8; 2],
    solved: &impl Fn(u32, u32, [u8; 2]) -> (u8, u16),
) -> Option<u16> {
    if line_decided(variant, us, them) == Some(Value::Win) {
        slot.value = WIN;
        return Some(0);
    }
    let mut quiet = 0u32;
    let mut best_win: Option<u16> = None;
    let mut longest = 0u16;
    let mut draw = false;
    successors_with_hands(variant, us, them, hands, |nu, nt, next_hands, decisive| {
        if !decisive {
            quiet += 1;
            return;
        }
        let too_few = nu.count_ones() + next_hands[0] as u32 <= 2;
        let (v, d) = if too_few || variant.line_wins() {
            (LOSS, 0) // the opponent is left with two stones, or a line won: the game is over
        } else {
            solved(nu, nt, next_hands)
        };
        match v {
            LOSS => best_win = Some(best_win.map_or(d + 1, |w| w.min(d + 1))),
            WIN => longest = longest.max(d + 1),
            DRAW => draw = true,
            _ => unreachable!("smaller layers are fully solved"),
        }
    });
    slot.counter = u8::try_from(quiet).expect("fewer than 256 moves");
    slot.loss_dist = longest;
    slot.cannot_lose = draw || best_win.is_some();
    if best_win.is_some() {
        best_win
    } else if quiet == 0 && !draw {
        slot.value = LOSS;
        slot.dist = longest;
        Some(longest)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_positions_in_sorted_order() {
        for k in 0..=4 {
            for (i, &m) in subsets(24, k).iter().enumerate() {
                assert_eq!(rank(m), i);
            }
            assert_eq!(subsets(24, k).len(), binom(24, k));
        }
        assert_eq!(binom(24, 3), 2024);
        assert_eq!(binom(21, 3), 1330);
    }

    #[test]
    fn layer_index_is_a_bijection() {
        let shape = LayerShape::new(24, 3, 4);
        assert_eq!(shape.len(), 10626 * 1140);
        for i in (0..shape.len()).step_by(997) {
            let (us, them) = shape.position(i);
            assert_eq!(us & them, 0);
            assert_eq!(us.count_ones(), 3);
            assert_eq!(them.count_ones(), 4);
            assert_eq!(shape.index(us, them), i);
            assert_eq!(index_in(Board::Nine, 3, 4, us, them), i);
        }
    }
}
