//! Forward evaluation in batches: the values of many positions from their children's stored
//! values, for the placement pass and for verification.
//!
//! Both are bound by memory latency: every child is a load at a random place of a
//! sub-database of up to a GiB. Positions are therefore taken in batches: every child of the
//! batch is probed (located, its load started) before any is read, so that the loads overlap.

pub(crate) mod locate;

use core::ops::Range;
use locate::{hash_slot, Locator, Met, Probes, Targets};
use morris_db::{Index, Outcome};
use morris_engine::movegen::{for_each_group, Sink};
use morris_engine::{Bitboard, Color, Move, Point, Position, Rules};
use morris_tablebase::minimax::evaluate;
use morris_tablebase::Lookup;

/// Evaluates every position of `range` of `index` (holes skipped) by the minimax rule over its
/// children's stored values, in batches, and calls `f(slot, position, outcome)` for each.
pub(crate) fn evaluate_range(
    rules: &Rules,
    index: &Index,
    range: Range<u64>,
    children: &dyn Lookup,
    targets: &Targets,
    mut f: impl FnMut(u64, &Position, Outcome),
) {
    walk_range::<false>(rules, index, range, children, targets, |i, pos, best, _| {
        let outcome = match best {
            Some(best) => Outcome::from_order(best),
            // No move: the game's own rule for a blocked player.
            None => evaluate(rules, pos, &[]),
        };
        f(i, pos, outcome)
    });
}

/// The retrograde initial pass's view of every position of `range` of `index` (holes
/// skipped): `f(slot, position, exits, quiet)`, where `quiet` counts the moves that stay in
/// the pair being solved (slides and flights that form no line where a line wins), which are
/// neither built nor located, and `exits` is the [`Outcome::order`] of the best of the other
/// moves (captures, placements, a line that ends the game), read from `children` as the
/// forward passes read them; `None` where there is none.
pub(crate) fn exits_range(
    rules: &Rules,
    index: &Index,
    range: Range<u64>,
    children: &dyn Lookup,
    targets: &Targets,
    f: impl FnMut(u64, &Position, Option<u64>, u32),
) {
    walk_range::<true>(rules, index, range, children, targets, f);
}

/// [`evaluate_range`] and [`exits_range`]: the quiet moves counted where `QUIET`.
#[inline(always)]
fn walk_range<const QUIET: bool>(
    rules: &Rules,
    index: &Index,
    range: Range<u64>,
    children: &dyn Lookup,
    targets: &Targets,
    mut f: impl FnMut(u64, &Position, Option<u64>, u32),
) {
    let key = index.key();
    let mut locator = Locator::new(rules, children, targets);
    let mut batch = Batch::<QUIET>::new(index, targets.name_captures());
    index.for_each_class_in(range, |i, us, them| {
        let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
        batch.push(i, pos, &mut locator);
        if batch.is_full() {
            batch.evaluate(children, &locator.met, &mut f);
        }
    });
    batch.evaluate(children, &locator.met, &mut f);
}

/// Positions whose children have been probed but not yet read; their quiet moves counted, not
/// probed, where `QUIET` ([`exits_range`]).
struct Batch<'a, const QUIET: bool> {
    /// Per position: its slot, the position, the [`Outcome::order`] of its best move known
    /// without a probe (`u64::MAX`: none), where its probes end, and its quiet moves.
    positions: Vec<(u64, Position, u64, usize, u32)>,
    probes: Probes<'a>,
    /// Where the key classifies the other side (its stones stay over a pattern class of the
    /// walk) and the key graph names the capture children's key: the mills' best captures.
    mills: Option<MillMemo>,
}

/// The best capture of a placement that closes a mill, by the mover's stones after it, for
/// one set of stones of the other side. A capture's child is the mover's stones with the
/// point against the other side's stones less the stone taken: it does not depend on which
/// point completed the mill. Where the walk keeps the other side's stones over a pattern
/// class (they are the key's pattern side), each set of the mover's stones with a mill is
/// met from about three positions (one per point of the mill): its captures are located and
/// read once.
struct MillMemo {
    /// The other side's stones the entries hold for.
    them: u32,
    /// Entries whose generation is not this one are empty: a new set of the other side's
    /// stones empties the memo without a sweep.
    generation: u32,
    entries: Box<[MillEntry]>,
    /// The entries probed in the current batch, resolved to their best when it is read.
    pending: Vec<usize>,
}

#[derive(Clone, Default)]
struct MillEntry {
    mover: u32,
    generation: u32,
    /// `u64::MAX` while probed in the current batch, else the best capture's order.
    order: u64,
    probes: Range<usize>,
}

/// What a [`MillMemo`] holds of a set of the mover's stones.
enum Mill {
    /// The [`Outcome::order`] of the best capture.
    Known(u64),
    /// Located in the current batch: these probes.
    Probed(Range<usize>),
    New,
}

impl MillMemo {
    /// A power of two, enough for the sets of the mover's stones with a mill over a pattern
    /// class of the other side (a few thousand), small enough for L2.
    const ENTRIES: usize = 1 << 13;

    fn new() -> MillMemo {
        MillMemo {
            them: u32::MAX,
            generation: 0,
            entries: vec![MillEntry::default(); Self::ENTRIES].into_boxed_slice(),
            pending: Vec::new(),
        }
    }

    /// Starts a position whose other side has `them`.
    #[inline]
    fn enter(&mut self, them: Bitboard) {
        if self.them != them.bits() {
            self.them = them.bits();
            self.generation = self.generation.wrapping_add(1);
            self.pending.clear();
        }
    }

    #[inline]
    fn slot(mover: Bitboard) -> usize {
        hash_slot(mover.bits(), Self::ENTRIES)
    }

    #[inline]
    fn get(&self, mover: Bitboard) -> Mill {
        let e = &self.entries[Self::slot(mover)];
        if e.generation != self.generation || e.mover != mover.bits() {
            Mill::New
        } else if e.order == u64::MAX {
            Mill::Probed(e.probes.clone())
        } else {
            Mill::Known(e.order)
        }
    }

    /// Records that the captures of `mover` were located as `probes` of the current batch.
    #[inline]
    fn probed(&mut self, mover: Bitboard, probes: Range<usize>) {
        let at = Self::slot(mover);
        self.entries[at] = MillEntry {
            mover: mover.bits(),
            generation: self.generation,
            order: u64::MAX,
            probes,
        };
        self.pending.push(at);
    }

    /// Resolves the entries probed in the batch whose probes are `probes` (before they are
    /// cleared): each to the best of its captures, by `order`.
    fn resolve(&mut self, probes: &[u64], order: impl Fn(u64) -> u64) {
        for at in self.pending.drain(..) {
            let e = &mut self.entries[at];
            // Every entry of this generation still probed was probed in this batch (an
            // evicted one's successor is pending too; a second visit finds it resolved).
            if e.generation == self.generation && e.order == u64::MAX {
                e.order = probes[e.probes.clone()]
                    .iter()
                    .map(|&p| order(p))
                    .min()
                    .expect("a capture");
            }
        }
    }
}

/// The children of one position as the generator groups them ([`for_each_group`]), located
/// by the [`Locator`] group by group; the placements' captures through the [`MillMemo`] where
/// there is one. Where `QUIET`, the moves that stay in the pair are counted in `quiet`.
struct Children<'b, 'l, const QUIET: bool> {
    pos: &'b Position,
    /// Where the other side's stones stay over many positions: the mills' best captures.
    mills: Option<&'b mut MillMemo>,
    /// The best of the position's moves known without a probe (from `mills`).
    known: &'b mut u64,
    locator: &'b mut Locator<'l>,
    probes: &'b mut Probes<'l>,
    quiet: u32,
}

impl<const QUIET: bool> Children<'_, '_, QUIET> {
    /// A slide or flight of the retrograde pass, where a line wins: it leaves the pair when it
    /// makes a line, which ends the game.
    #[cold]
    #[inline(never)]
    fn slide_where_lines_win(&mut self, from: Point, to: Point) {
        let rules = self.locator.rules;
        let after = self.pos.us().without(from).with(to);
        if !rules.board().forms_line(after, to) {
            self.quiet += 1;
            return;
        }
        let next = self.pos.play(Move::new(Some(from), to, None));
        match next.decided(rules) {
            Some(_) => *self.known = (*self.known).min(Outcome::Win(1).order()),
            None => self.locator.probe_position(&next, self.probes),
        }
    }
}

impl<const QUIET: bool> Sink for Children<'_, '_, QUIET> {
    const BULK: bool = true;

    #[inline(always)]
    fn plains(&mut self, from: Option<Point>, tos: Bitboard) {
        if let (true, Some(f)) = (QUIET, from) {
            if !self.locator.rules.line_wins() {
                // Slides and flights that form no mill stay in the pair.
                self.quiet += tos.count();
            } else {
                for to in tos {
                    self.slide_where_lines_win(f, to);
                }
            }
            return;
        }
        self.locator.probe_plains(self.pos, from, tos, self.probes);
    }

    #[inline(always)]
    fn plain(&mut self, from: Option<Point>, to: Point) {
        self.plains(from, Bitboard::from_point(to));
    }

    #[inline(always)]
    fn mill(&mut self, from: Option<Point>, to: Point, removable: Bitboard) {
        let mills = match from {
            None => self.mills.as_deref_mut(),
            Some(_) => None,
        };
        let Some(mills) = mills else {
            let locator = &mut *self.locator;
            return locator.probe_captures(self.pos, from, to, removable, self.probes);
        };
        let mover = self.pos.us().with(to);
        match mills.get(mover) {
            Mill::Known(order) => *self.known = (*self.known).min(order),
            Mill::Probed(range) => self.probes.children.extend_from_within(range),
            Mill::New => {
                let begin = self.probes.len();
                let locator = &mut *self.locator;
                locator.probe_captures(self.pos, from, to, removable, self.probes);
                mills.probed(mover, begin..self.probes.len());
            }
        }
    }
}

impl<'a, const QUIET: bool> Batch<'a, QUIET> {
    /// A batch for the positions of `index`; `capture_given` where the key graph named the
    /// placements' capture children's key (the pass, not verification).
    fn new(index: &Index, capture_given: bool) -> Batch<'a, QUIET> {
        let mills = !index.classifies_us() && capture_given;
        Batch {
            positions: Vec::new(),
            probes: Probes::default(),
            mills: mills.then(MillMemo::new),
        }
    }

    /// Enough positions for a few hundred loads in flight, few enough that the first probed
    /// lines are still in the cache when read.
    const POSITIONS: usize = 16;

    fn is_full(&self) -> bool {
        self.positions.len() == Self::POSITIONS
    }

    /// Probes the children of a position.
    fn push(&mut self, slot: u64, pos: Position, locator: &mut Locator<'a>) {
        let rules = locator.rules;
        let mut known = u64::MAX;
        if let Some(mills) = &mut self.mills {
            mills.enter(pos.them());
        }
        let mut children = Children::<QUIET> {
            pos: &pos,
            mills: self.mills.as_mut(),
            known: &mut known,
            locator,
            probes: &mut self.probes,
            quiet: 0,
        };
        for_each_group(&pos, rules, &mut children);
        let quiet = children.quiet;
        self.positions
            .push((slot, pos, known, self.probes.len(), quiet));
    }

    /// Reads the probes and calls `f(slot, position, best, quiet)` for every position, `best`
    /// the order of its best move probed or known (`None`: none); empties the batch.
    fn evaluate(
        &mut self,
        children: &dyn Lookup,
        met: &Met,
        mut f: impl FnMut(u64, &Position, Option<u64>, u32),
    ) {
        let Batch {
            positions,
            probes,
            mills,
        } = self;
        let (positions, probes, mut mills) = (&positions[..], &*probes, mills.as_mut());
        match met.single() {
            Some(after) => read(positions, &mut mills, probes, &mut f, |child| {
                probes.order_after_in(child, after, met, children)
            }),
            None => read(positions, &mut mills, probes, &mut f, |child| {
                probes.order_after(child, met, children)
            }),
        }
        self.positions.clear();
        self.probes.clear();
    }
}

/// [`Batch::evaluate`] with each child's order after the move read by `order`.
#[inline(always)]
fn read(
    positions: &[(u64, Position, u64, usize, u32)],
    mills: &mut Option<&mut MillMemo>,
    probes: &Probes,
    f: &mut impl FnMut(u64, &Position, Option<u64>, u32),
    order: impl Fn(u64) -> u64,
) {
    if let Some(mills) = mills {
        mills.resolve(&probes.children, &order);
    }
    let mut begin = 0;
    for &(slot, pos, known, end, quiet) in positions {
        let probes = &probes.children[begin..end];
        let known = (known != u64::MAX).then_some(known);
        let best = probes.iter().map(|&p| order(p)).chain(known).min();
        f(slot, &pos, best, quiet);
        begin = end;
    }
}
