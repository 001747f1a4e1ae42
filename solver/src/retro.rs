//! Retrograde analysis of one moving-phase pair (M-O with O-M), level by level.
//!
//! Every slot holds a code: 0 while undecided, else the distance to the end in plies plus one
//! (the value follows from parity: a loss is even, a win odd). Level `d` takes the positions
//! decided at exactly `d` plies and walks their un-moves:
//! - a child lost in `d` makes each parent a win in `d + 1` (or shortens a tentative win);
//! - a child won in `d` decrements each undecided parent's counter of child classes not yet
//!   known to be won; at zero the parent is lost in `1 + max(d, longest capture)`, which can
//!   lie beyond `d + 1` when a capture into a smaller sub-database lasts longer.
//!
//! Counters count distinct child *classes* and propagation decrements each distinct parent
//! class once per child class: "some position of class P moves to some position of class C" is
//! the same relation read from either end, so the counts match whatever the orbit sizes.
//! Levels are processed in order, so every decision is final when made and the result does not
//! depend on thread timing.

use crate::progress::Progress;
use crate::unmove::for_each_parent;
use crate::Lookup;
use morris_db::{Index, Key};
use morris_engine::{for_each_move, Bitboard, Color, Position, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

/// Slots handled by one task: large enough to amortise scheduling, small enough to balance.
const CHUNK: u64 = 1 << 16;
/// Longest distance a pair can hold (codes are u16; real games stay far below).
const MAX_LEVEL: usize = 1 << 14;

/// A code for a decided slot.
#[inline]
fn code(plies: u32) -> u16 {
    debug_assert!((plies as usize) < MAX_LEVEL);
    plies as u16 + 1
}

/// The distance a code stands for (`None`: draw, or a hole).
#[inline]
pub fn plies(code: u16) -> Option<u32> {
    (code != 0).then(|| code as u32 - 1)
}

/// Sorts a list of slot numbers and removes duplicates in place.
#[inline]
fn distinct(v: &mut Vec<u64>) -> &[u64] {
    v.sort_unstable();
    v.dedup();
    v
}

/// One key of the pair being solved: its index and its working arrays.
struct Side {
    key: Key,
    index: Index,
    state: Vec<AtomicU16>,
    count: Vec<AtomicU8>,
}

impl Side {
    fn new(rules: &Rules, key: Key) -> Side {
        let index = Index::new(rules.board(), key);
        let n = index.size() as usize;
        let mut state = Vec::with_capacity(n);
        state.resize_with(n, || AtomicU16::new(0));
        let mut count = Vec::with_capacity(n);
        count.resize_with(n, || AtomicU8::new(0));
        Side {
            key,
            index,
            state,
            count,
        }
    }

    fn chunks(&self) -> Vec<std::ops::Range<u64>> {
        let n = self.index.size();
        (0..n.div_ceil(CHUNK))
            .map(|c| c * CHUNK..((c + 1) * CHUNK).min(n))
            .collect()
    }
}

/// The solved pair: for each key, its code per slot (0 = draw or hole, else plies + 1).
pub struct Solved {
    pub keys: Vec<(Key, Vec<u16>)>,
}

struct Pair<'a> {
    rules: Rules,
    sides: Vec<Side>,
    lower: &'a dyn Lookup,
    /// Slots waiting at each level (decided, not yet propagated).
    pending: Vec<AtomicU64>,
}

/// Solves the moving-phase pair of `key` (and its colour swap), reading captures from `lower`.
pub fn solve_pair(rules: &Rules, key: Key, lower: &dyn Lookup, progress: &dyn Progress) -> Solved {
    let mut keys = vec![key];
    if key.swapped() != key {
        keys.push(key.swapped());
    }
    let pair = Pair {
        rules: *rules,
        sides: keys.iter().map(|&k| Side::new(rules, k)).collect(),
        lower,
        pending: (0..MAX_LEVEL).map(|_| AtomicU64::new(0)).collect(),
    };
    let total: u64 = pair.sides.iter().map(|s| s.index.size()).sum();
    progress.start("init", total);
    for s in 0..pair.sides.len() {
        pair.sides[s].chunks().into_par_iter().for_each(|range| {
            let n = range.end - range.start;
            pair.init(s, range);
            progress.advance(n);
        });
    }
    let mut level = 0;
    while let Some(d) = pair.next_level(level) {
        progress.start(&format!("level {d}"), total);
        for s in 0..pair.sides.len() {
            pair.sides[s].chunks().into_par_iter().for_each(|range| {
                let n = range.end - range.start;
                pair.propagate(s, range, d);
                progress.advance(n);
            });
        }
        level = d + 1;
    }
    Solved {
        keys: pair
            .sides
            .into_iter()
            .map(|s| {
                (
                    s.key,
                    s.state.into_iter().map(AtomicU16::into_inner).collect(),
                )
            })
            .collect(),
    }
}

impl Pair<'_> {
    /// The side that quiet moves from side `s` lead into.
    #[inline]
    fn other(&self, s: usize) -> usize {
        (s + 1) % self.sides.len()
    }

    fn next_level(&self, from: u32) -> Option<u32> {
        (from as usize..MAX_LEVEL)
            .find(|&d| self.pending[d].load(Relaxed) > 0)
            .map(|d| d as u32)
    }

    /// Sets a slot's first decision.
    #[inline]
    fn decide(&self, s: usize, i: u64, plies: u32) {
        self.sides[s].state[i as usize].store(code(plies), Relaxed);
        self.pending[plies as usize].fetch_add(1, Relaxed);
    }

    /// Counts child classes and reads captures for every slot of a chunk.
    fn init(&self, s: usize, range: std::ops::Range<u64>) {
        let side = &self.sides[s];
        let child_index = &self.sides[self.other(s)].index;
        let mut children = Vec::with_capacity(64);
        side.index.for_each_in(range, |i, us, them| {
            if side.index.is_hole(i) {
                return;
            }
            let pos = Position::from_sides(us, them, [0, 0], Color::White);
            let mut fastest_win = u32::MAX;
            let mut longest_capture: Option<u32> = None;
            let mut capture_draw = false;
            children.clear();
            for_each_move(&pos, &self.rules, |m| {
                let next = pos.play(m);
                if m.capture().is_some() {
                    match self.lower.plies(next.us(), next.them()) {
                        Some(p) if p % 2 == 0 => fastest_win = fastest_win.min(p + 1),
                        Some(p) => longest_capture = Some(longest_capture.map_or(p, |q| q.max(p))),
                        None => capture_draw = true,
                    }
                } else {
                    children.push(child_index.index(next.us(), next.them()));
                }
            });
            if fastest_win != u32::MAX {
                // Tentative: a quiet move into a faster loss may still shorten it.
                self.decide(s, i, fastest_win);
                return;
            }
            let n = distinct(&mut children).len() + capture_draw as usize;
            if n == 0 {
                self.decide(s, i, longest_capture.map_or(0, |p| p + 1));
            } else {
                side.count[i as usize].store(n as u8, Relaxed);
            }
        });
    }

    /// Propagates every slot of side `s` in `range` decided at exactly `d` plies.
    fn propagate(&self, s: usize, range: std::ops::Range<u64>, d: u32) {
        let side = &self.sides[s];
        let o = self.other(s);
        let parents_side = &self.sides[o];
        let target = code(d);
        let child_lost = d % 2 == 0;
        let mut parents = Vec::with_capacity(64);
        for i in range {
            if side.state[i as usize].load(Relaxed) != target {
                continue;
            }
            let (us, them) = side.index.unindex(i);
            parents.clear();
            for_each_parent(&self.rules, us, them, |pu, pt| {
                parents.push(parents_side.index.index(pu, pt));
            });
            for &p in distinct(&mut parents) {
                let cell = &parents_side.state[p as usize];
                if child_lost {
                    let win = code(d + 1);
                    let prev = cell.fetch_update(Relaxed, Relaxed, |c| {
                        // Undecided, or a tentative capture win that this one beats.
                        (c == 0 || (c > win && c % 2 == 0)).then_some(win)
                    });
                    if let Ok(old) = prev {
                        if old != 0 {
                            self.pending[old as usize - 1].fetch_sub(1, Relaxed);
                        }
                        self.pending[d as usize + 1].fetch_add(1, Relaxed);
                    }
                } else if cell.load(Relaxed) == 0
                    && parents_side.count[p as usize].fetch_sub(1, Relaxed) == 1
                {
                    let (pu, pt) = parents_side.index.unindex(p);
                    let longest = self.longest_capture(pu, pt).map_or(d, |c| c.max(d));
                    self.decide(o, p, longest + 1);
                }
            }
        }
    }

    /// The longest of the capture moves' distances from a position all of whose children are
    /// won for the opponent.
    fn longest_capture(&self, us: Bitboard, them: Bitboard) -> Option<u32> {
        let pos = Position::from_sides(us, them, [0, 0], Color::White);
        let mut longest = None;
        for_each_move(&pos, &self.rules, |m| {
            if m.capture().is_some() {
                let next = pos.play(m);
                let p = self
                    .lower
                    .plies(next.us(), next.them())
                    .expect("a lost position has no drawn capture");
                longest = Some(longest.map_or(p, |q: u32| q.max(p)));
            }
        });
        longest
    }
}
