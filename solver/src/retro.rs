//! Retrograde analysis of one moving-phase pair (M-O with O-M), level by level.
//!
//! Every slot holds a code: 0 while undecided, else the outcome's [`Outcome::code`] (value and
//! distance). The distance is to the end of the game for the plain tables, to the next zeroing
//! ply under the no-capture rule: the two differ only in what the moves that leave the pair
//! (captures, placements) are worth, which `lower` says ([`crate::no_capture::ZeroingView`]). Level `d`
//! takes the positions decided at exactly `d` plies and walks their un-moves:
//! - a child lost in `d` makes each parent a win in `d + 1` (or shortens a tentative win);
//! - a child won in `d` decrements each undecided parent's counter of child classes not yet
//!   known to be won; at zero the parent is lost in `1 + max(d, longest capture)`, which can
//!   lie beyond `d + 1` when a capture into a smaller sub-database lasts longer.
//!
//! Counters count distinct child *classes* and propagation decrements each distinct parent
//! class once per child class: "some position of class P moves to some position of class C" is
//! the same relation read from either end, so the counts match whatever the orbit sizes.
//!
//! The initial pass only generates moves and reads captures: it sets each counter to the number
//! of quiet moves, which is the number of child classes when no symmetry fixes the parent's
//! other side (two quiet moves can then never reach the same class). Where one does, the
//! classes are counted by the first decrement the position receives: most positions of the
//! larger pairs are draws or wins that no won child ever reaches, and for them the index
//! computations of their children are never needed. Captures are left out of the counter; the
//! initial pass keeps what they are worth beside it, so that a drawn capture leaves the
//! position a draw and a won one can make its loss longer.
//!
//! Decided children are gathered in batches and their parents' cells prefetched before the
//! updates, as propagation is bound by random memory accesses. Each level visits only the
//! slots decided at it, listed as they are decided ([`pending`]).
//!
//! Levels are processed in order, so every decision is final when made and the result does not
//! depend on thread timing.

mod cells;
mod pending;
mod radix;
mod unmove;

use crate::forward::exits_range;
use crate::forward::locate::Targets;
use crate::progress::Progress;
use cells::Cells;
use morris_db::{Index, Key, Outcome};
use morris_engine::{for_each_move, Bitboard, Color, Move, Position, Rules};
use morris_tablebase::Lookup;
use pending::{Decisions, Pending};
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};
use unmove::for_each_parent_group;

/// Slots handled by one task of the initial pass, and decided slots by one task of a level:
/// large enough to amortise scheduling, small enough to balance.
const CHUNK: u64 = 1 << 16;
const DECIDED_CHUNK: usize = 1 << 13;
/// Longest distance a pair can hold (within [`Outcome::MAX_CODED`]; real games stay far
/// below).
const MAX_LEVEL: usize = 1 << 14;

/// A slot's cell, one word per slot, so that the random accesses of propagation touch one
/// cache line per parent:
/// - bits 0..16: the code, 0 while undecided;
/// - bits 16..24: the counter of quiet child classes not yet known won, which the initial pass
///   sets to the number of quiet moves;
/// - bits 24..31: what the moves that leave the pair are worth ([`Pair::exit_code`]), so that the
///   last decrement need not generate the moves again;
/// - bit 31: the counter counts classes, set where a symmetry fixes the position's other side
///   and two quiet moves may reach the same class (counted at the first decrement).
const CODE: u32 = 0xffff;
const COUNT_ONE: u32 = 1 << 16;
const COUNT: u32 = 0xff << 16;
const EXIT_SHIFT: u32 = 24;
const EXIT: u32 = 0x7f << EXIT_SHIFT;
const CLASSES: u32 = 1 << 31;
/// Exit codes ([`Pair::exit_code`]): no move leaves the pair; a capture (or placement) draws,
/// so the position is never lost; the longest capture into a won position lasts too long for
/// the field and the moves are generated again ([`Pair::long_exit`]). Codes in between are
/// that longest capture's distance plus one.
const EXIT_NONE: u32 = 0;
const EXIT_LONG: u32 = 0x7e;
const EXIT_DRAW: u32 = 0x7f;

/// A code for a decided slot.
#[inline]
fn code(outcome: Outcome) -> u32 {
    assert!(
        outcome.plies().is_some_and(|d| (d as usize) < MAX_LEVEL),
        "distance beyond the solver's range"
    );
    outcome.code() as u32
}

/// Decided children gathered before their parents are updated, so that the parents' cells
/// can be fetched from memory while the next children are still being indexed.
const BATCH: usize = 32;

/// A decided child of a batch.
#[derive(Copy, Clone)]
struct Child {
    lost: bool,
    /// Whether no symmetry but the identity fixes its side to move, the stones every parent
    /// keeps: then its parents are distinct classes, and each parent's counter is its number
    /// of quiet moves as the initial pass set it.
    asymmetric: bool,
    /// Where its parents start in [`DecidedBatch::parents`].
    first: usize,
}

#[derive(Default)]
struct DecidedBatch {
    children: Vec<Child>,
    /// The distinct parent slots of every child, child after child.
    parents: Vec<u64>,
}

/// Asks the processor to bring a cell into the cache ahead of its use.
#[inline(always)]
fn prefetch(cell: &AtomicU32) {
    morris_tablebase::prefetch(cell as *const AtomicU32);
}

/// True for a move that does not stay in the pair: a capture (into a smaller pair), a line
/// that ends the game where a line wins, or a placement (Lasker Morris: into a key with a
/// stone fewer in hand). `after`: the mover's stones after the move, so that a quiet move
/// need not be played to be told apart.
#[inline]
fn leaves_pair(rules: &Rules, m: Move, after: Bitboard) -> bool {
    m.capture().is_some()
        || m.from().is_none()
        || (rules.line_wins() && rules.board().forms_line(after, m.to()))
}

/// Sorts the slot numbers of `v[first..]` and removes their duplicates in place.
#[inline]
fn distinct_from(v: &mut Vec<u64>, first: usize) {
    let tail = &mut v[first..];
    tail.sort_unstable();
    let mut n = 0;
    for k in 0..tail.len() {
        if k == 0 || tail[k] != tail[n - 1] {
            tail[n] = tail[k];
            n += 1;
        }
    }
    v.truncate(first + n);
}

/// One key of the pair being solved: its index and its working arrays.
struct Side {
    key: Key,
    index: Index,
    /// Per slot: the code, the counter and what leaving the pair is worth (see [`CODE`]).
    cells: Cells,
}

impl Side {
    fn new(rules: &Rules, key: Key) -> Side {
        let index = Index::new(rules.board(), key);
        let n = index.size();
        assert!(
            n <= 1 << 32,
            "key {key}: {n} slots, more than the solver's lists of decided slots hold"
        );
        Side {
            key,
            index,
            cells: Cells::zeroed(n as usize),
        }
    }

    /// The position of `(us, them)` in this key, with its stones in hand.
    #[inline]
    fn position(&self, us: Bitboard, them: Bitboard) -> Position {
        Position::from_sides(
            us,
            them,
            [self.key.us_hand, self.key.them_hand],
            Color::White,
        )
    }

    fn chunks(&self) -> Vec<Range<u64>> {
        let n = self.index.size();
        (0..n.div_ceil(CHUNK))
            .map(|c| c * CHUNK..((c + 1) * CHUNK).min(n))
            .collect()
    }
}

/// The solved pair: for each key, its code per slot ([`Outcome::code`]; holes are draws).
pub struct Solved {
    pub keys: Vec<(Key, Vec<u16>)>,
}

struct Pair<'a> {
    rules: Rules,
    sides: Vec<Side>,
    lower: &'a dyn Lookup,
    pending: Pending,
    /// The exit code that sends the last decrement back to the moves: [`EXIT_LONG`], lower
    /// in a test so that the rare path is taken.
    long_exit: u32,
}

/// Solves a key with its colour swap (`keys`: both, or one when the two are the same or no
/// quiet move joins them), reading the moves that leave the pair (captures, placements) from
/// `lower`.
pub fn solve_pair(
    rules: &Rules,
    keys: &[Key],
    lower: &dyn Lookup,
    progress: &dyn Progress,
) -> Solved {
    solve_pair_with(rules, keys, lower, progress, EXIT_LONG)
}

fn solve_pair_with(
    rules: &Rules,
    keys: &[Key],
    lower: &dyn Lookup,
    progress: &dyn Progress,
    long_exit: u32,
) -> Solved {
    assert!(
        keys.len() == 1 || (keys.len() == 2 && keys[1] == keys[0].swapped()),
        "a key, or a key and its colour swap: {keys:?}"
    );
    let pair = Pair {
        rules: *rules,
        sides: keys.iter().map(|&k| Side::new(rules, k)).collect(),
        lower,
        pending: Pending::default(),
        long_exit,
    };
    let total: u64 = pair.sides.iter().map(|s| s.index.size()).sum();
    progress.start("init", total);
    for s in 0..pair.sides.len() {
        let targets = Targets::new(rules, pair.sides[s].key, lower);
        pair.sides[s].chunks().into_par_iter().for_each(|range| {
            let n = range.end - range.start;
            pair.init(s, range, &targets);
            progress.advance(n);
        });
    }
    // A level's pass decides only later levels, so the lowest level waiting is complete.
    while let Some((d, decided)) = pair.pending.take_lowest() {
        progress.start(
            &format!("level {d}"),
            decided.iter().map(|v| v.len() as u64).sum(),
        );
        for (s, slots) in decided.iter().enumerate().take(pair.sides.len()) {
            slots.par_chunks(DECIDED_CHUNK).for_each(|slots| {
                pair.propagate(s, slots, d);
                progress.advance(slots.len() as u64);
            });
        }
    }
    Solved {
        keys: pair
            .sides
            .into_iter()
            .map(|s| {
                (
                    s.key,
                    s.cells
                        .as_slice()
                        .par_iter()
                        .map(|c| (c.load(Relaxed) & CODE) as u16)
                        .collect(),
                )
            })
            .collect(),
    }
}

/// What the moves that leave the pair (captures, placements, a line that ends the game) are
/// worth to a position, from the best of them ([`exits_range`]).
#[derive(Default)]
struct Exits {
    /// The fastest win by a move into a lost position.
    fastest_win: Option<u32>,
    /// Where none wins or draws: the longest of the moves into won positions.
    longest_capture: Option<u32>,
    capture_draw: bool,
}

impl Exits {
    /// From the [`Outcome::order`] of the best exit, `None` where there is none.
    #[inline]
    fn of(best: Option<u64>) -> Exits {
        match best.map(Outcome::from_order) {
            None => Exits::default(),
            Some(Outcome::Win(d)) => Exits {
                fastest_win: Some(d),
                ..Exits::default()
            },
            Some(Outcome::Draw) => Exits {
                capture_draw: true,
                ..Exits::default()
            },
            // The mover's loss in `d` is a child won in `d - 1`.
            Some(Outcome::Loss(d)) => Exits {
                longest_capture: Some(d - 1),
                ..Exits::default()
            },
        }
    }
}

impl Pair<'_> {
    /// The side that quiet moves from side `s` lead into. `None` for a key solved without
    /// its colour swap although they differ: a Lasker key whose side to move has no stone on
    /// the board, which has no quiet move and which no reachable position slides into.
    #[inline]
    fn other(&self, s: usize) -> Option<usize> {
        match self.sides.len() {
            2 => Some(1 - s),
            _ => (self.sides[0].key.swapped() == self.sides[0].key).then_some(0),
        }
    }

    /// The exit field of an undecided position's cell.
    #[inline]
    fn exit_code(&self, m: &Exits) -> u32 {
        if m.capture_draw {
            EXIT_DRAW
        } else {
            m.longest_capture
                .map_or(EXIT_NONE, |p| (p + 1).min(self.long_exit))
        }
    }

    /// Records a slot's first decision.
    #[inline]
    fn decide(&self, s: usize, i: u64, outcome: Outcome, decided: &mut Decisions) {
        self.sides[s].cells.as_slice()[i as usize].store(code(outcome), Relaxed);
        decided.push(s, i, outcome.plies().unwrap_or(0));
    }

    /// What the exits of parent slot `p` of side `s` are worth, read again: the rare path of a
    /// capture too long for the cell's field.
    fn exits_of(&self, s: usize, p: u64) -> Exits {
        let mut exits = Exits::default();
        let no_shortcuts = Targets::default();
        let index = &self.sides[s].index;
        exits_range(
            &self.rules,
            index,
            p..p + 1,
            self.lower,
            &no_shortcuts,
            |_, _, best, _| exits = Exits::of(best),
        );
        exits
    }

    /// The number of distinct classes the quiet moves of parent slot `p` (of the side other
    /// than `s`) lead to, in side `s`, each child indexed. Only needed where a symmetry fixes
    /// the parent's non-moving stones: otherwise two different moves can never lead to the
    /// same class (a symmetry taking one child to the other would have to fix those stones),
    /// and the number of quiet moves, counted by the initial pass, is the answer.
    fn child_classes(&self, s: usize, p: u64, children: &mut Vec<u64>) -> usize {
        let parents = &self.sides[self.other(s).expect("a pair with quiet moves")];
        let (pu, pt) = parents.index.unindex(p);
        let pos = parents.position(pu, pt);
        // Every child's side to move is the parent's other side.
        let child_index = self.sides[s].index.with_us(pt);
        children.clear();
        for_each_move(&pos, &self.rules, |m| {
            let next = pos.play(m);
            if !leaves_pair(&self.rules, m, next.them()) {
                children.push(child_index.index(next.them()));
            }
        });
        distinct_from(children, 0);
        children.len()
    }

    /// Decides what the moves alone decide: wins by capture (tentative: a quiet move into a
    /// faster loss may still shorten them) and positions without a quiet move. The exits are
    /// read as the forward passes read a placement key's children, in batches, `targets`
    /// naming the keys the key graph gives them.
    fn init(&self, s: usize, range: Range<u64>, targets: &Targets) {
        let mut decided = Decisions::new(&self.pending);
        let index = &self.sides[s].index;
        exits_range(
            &self.rules,
            index,
            range,
            self.lower,
            targets,
            |i, _, best, quiet| {
                let m = Exits::of(best);
                if let Some(w) = m.fastest_win {
                    self.decide(s, i, Outcome::Win(w), &mut decided);
                } else if quiet == 0 && !m.capture_draw {
                    let loss = Outcome::Loss(m.longest_capture.map_or(0, |p| p + 1));
                    self.decide(s, i, loss, &mut decided);
                } else {
                    assert!(
                        quiet * COUNT_ONE <= COUNT,
                        "more quiet moves than a counter holds"
                    );
                    let cell = (quiet * COUNT_ONE) | (self.exit_code(&m) << EXIT_SHIFT);
                    self.sides[s].cells.as_slice()[i as usize].store(cell, Relaxed);
                }
            },
        );
    }

    /// Propagates the slots `slots` of side `s`, listed as decided at exactly `d` plies (an
    /// entry whose cell holds another code is a tentative win shortened since: skipped).
    fn propagate(&self, s: usize, slots: &[u32], d: u32) {
        let side = &self.sides[s];
        let Some(o) = self.other(s) else {
            return; // no position slides into this key
        };
        let parents_side = &self.sides[o];
        let cells = parents_side.cells.as_slice();
        let (lost, won) = (code(Outcome::Loss(d)), code(Outcome::Win(d)));
        let mut batch = DecidedBatch::default();
        let mut children = Vec::with_capacity(64);
        let mut decided = Decisions::new(&self.pending);
        // The lists are sorted: neighbouring slots share a class, often a few placements apart.
        let mut cursor = side.index.cursor();
        let them_hand = side.key.them_hand;
        // Every parent's other side is its child's side to move, `us`, which neighbouring
        // children mostly share (a class's slots are contiguous): its fixed index is kept.
        let mut fixed = None;
        for &i in slots {
            let i = i as u64;
            let c = side.cells.as_slice()[i as usize].load(Relaxed) & CODE;
            if c != lost && c != won {
                continue;
            }
            let (us, them) = cursor.unindex(i);
            let (parent_index, asymmetric) = match fixed {
                Some((stones, index, asymmetric)) if stones == us => (index, asymmetric),
                _ => {
                    let index = parents_side.index.with_them(us);
                    let asymmetric = !index.fixed_symmetric();
                    fixed = Some((us, index, asymmetric));
                    (index, asymmetric)
                }
            };
            let first = batch.parents.len();
            for_each_parent_group(&self.rules, us, them, them_hand, |rest, froms| {
                parent_index.for_each_added(rest, froms, |p| batch.parents.push(p));
            });
            if !asymmetric {
                // Two un-moves reach the same parent class only through a symmetry fixing `us`.
                distinct_from(&mut batch.parents, first);
            }
            for &p in &batch.parents[first..] {
                prefetch(&cells[p as usize]);
            }
            batch.children.push(Child {
                lost: c == lost,
                asymmetric,
                first,
            });
            if batch.children.len() == BATCH {
                self.update_parents(s, d, &mut batch, &mut children, &mut decided);
            }
        }
        self.update_parents(s, d, &mut batch, &mut children, &mut decided);
    }

    /// Applies a batch of decided children to their parents (side other than `s`), whose
    /// cells were prefetched while the batch was gathered.
    fn update_parents(
        &self,
        s: usize,
        d: u32,
        batch: &mut DecidedBatch,
        children: &mut Vec<u64>,
        decided: &mut Decisions,
    ) {
        let o = self.other(s).expect("parents were found");
        let parents_side = &self.sides[o];
        for (k, child) in batch.children.iter().enumerate() {
            let Child {
                lost: child_lost,
                asymmetric,
                first,
            } = *child;
            let end = batch
                .children
                .get(k + 1)
                .map_or(batch.parents.len(), |c| c.first);
            for &p in &batch.parents[first..end] {
                let cell = &parents_side.cells.as_slice()[p as usize];
                if child_lost {
                    let win = code(Outcome::Win(d + 1));
                    let prev = cell.fetch_update(Relaxed, Relaxed, |w| {
                        // Undecided, or a tentative capture win that this one beats (win
                        // codes are even and grow with the distance).
                        let c = w & CODE;
                        (c == 0 || (c > win && c.is_multiple_of(2))).then_some(w & !CODE | win)
                    });
                    if prev.is_ok() {
                        // Undecided, or listed again at its shorter distance.
                        decided.push(o, p, d + 1);
                    }
                } else {
                    let last = loop {
                        let w = cell.load(Relaxed);
                        if w & CODE != 0 || w & EXIT == EXIT_DRAW << EXIT_SHIFT {
                            break None; // decided already, or never lost
                        }
                        if !asymmetric && w & CLASSES == 0 {
                            // First decrement: count the classes the quiet moves reach.
                            let n = self.child_classes(s, p, children) as u32;
                            debug_assert!(n >= 1 && n * COUNT_ONE <= w & COUNT);
                            let set = (w & !COUNT) | (n * COUNT_ONE) | CLASSES;
                            let _ = cell.compare_exchange(w, set, Relaxed, Relaxed);
                            continue;
                        }
                        debug_assert!(w & COUNT != 0, "a counter decremented past zero");
                        if cell
                            .compare_exchange_weak(w, w - COUNT_ONE, Relaxed, Relaxed)
                            .is_ok()
                        {
                            break (w & COUNT == COUNT_ONE).then_some(w);
                        }
                    };
                    if let Some(w) = last {
                        // Every quiet move loses, and no capture draws.
                        let longest = match (w & EXIT) >> EXIT_SHIFT {
                            EXIT_NONE => None,
                            e if e == self.long_exit => self.exits_of(o, p).longest_capture,
                            e => Some(e - 1),
                        };
                        let longest = longest.map_or(d, |c| c.max(d));
                        self.decide(o, p, Outcome::Loss(longest + 1), decided);
                    }
                }
            }
        }
        batch.children.clear();
        batch.parents.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::solution::Solution;
    use morris_engine::Game;

    /// Every capture's length read again from the moves, as for those too long for the cell,
    /// gives the same tables: the moving phase of Six Men's Morris, pair by pair on the
    /// tables of the smaller pairs.
    #[test]
    fn long_captures_read_again_give_the_same_tables() {
        let rules = Rules::standard(Game::Six);
        let sol = Solution::solve_moving(&rules, 6, &Silent);
        for step in morris_db::plan::KeyGraph::new(&rules, 6).moving() {
            let solved = solve_pair_with(&rules, &step.keys(), &sol, &Silent, 1);
            for (key, codes) in solved.keys {
                let (_, expected) = sol.key(key).unwrap();
                assert!(codes == expected, "{key}");
            }
        }
    }
}
