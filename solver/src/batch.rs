//! Forward evaluation in batches: the values of many positions from their children's stored
//! values, for the placement pass and for verification.
//!
//! Both are bound by memory latency: every child is a load at a random place of a
//! sub-database of up to a GiB. Positions are therefore taken in batches: every child of the
//! batch is probed (located, its load started) before any is read, so that the loads overlap.

use crate::entries::AfterTable;
use crate::value::{evaluate, Outcome};
use crate::{key_of, key_slot, lost_already, prefetch, Entries, Located, Lookup};
use core::marker::PhantomData;
use core::ops::Range;
use morris_db::plan::{children, Via};
use morris_db::{Fixed, Index, Key};
use morris_engine::movegen::{for_each_group, Sink};
use morris_engine::{Bitboard, Color, Move, Point, Position, Rules};

/// The keys a placement key's placements lead into, as the key graph names them ([`children`]),
/// with their indexes where the lookup has them: the placement pass's shortcut, which saves
/// taking each group of children's key from a child. Empty for verification, which must not
/// share the shortcuts of the pass it checks: its [`Locator`] takes every key from a child.
#[derive(Default)]
pub(crate) struct Targets<'a> {
    quiet: Option<Target<'a>>,
    capture: Option<Target<'a>>,
}

/// A key that children lie in (named by the key graph in [`Targets`], met in [`Met`]): its
/// index and, where the lookup lends them ([`Lookup::entries_of`]), its entries, read
/// straight from the table instead of through the lookup's calls.
#[derive(Copy, Clone)]
struct Target<'a> {
    key: Key,
    index: &'a Index,
    /// The key's [`key_slot`]: a child's byte that holds the overflow mark is read through the
    /// lookup at this key ([`Met::located`]).
    slot: usize,
    entries: Option<Entries<'a>>,
    /// Its first [`View`] in [`Met::views`] (set when met).
    view: u64,
}

/// How a child's byte is read ([`Probes::order_after`]): the table of its key's entries and the
/// shift to its slot's bits. A key of the two-bit encoding has a view per slot of a byte.
#[derive(Copy, Clone)]
struct View<'a> {
    after: &'a AfterTable,
    shift: u32,
    /// Its key's number in [`Met::targets`].
    target: usize,
}

impl<'a> Target<'a> {
    /// Key `key` as `lookup` has it; `None` where it has no index of it.
    fn of(lookup: &'a dyn Lookup, key: Key) -> Option<Target<'a>> {
        Some(Target {
            key,
            index: lookup.index_of(key)?,
            slot: key_slot(key),
            entries: lookup.entries_of(key),
            view: 0,
        })
    }

    /// Locates slot `slot` of the key and starts its load.
    #[inline]
    fn probe(&self, children: &dyn Lookup, slot: u64, probes: &mut Probes<'a>) {
        match self.entries {
            Some(entries) => {
                let (byte, shift) = entries.byte_of(slot);
                probes.byte(byte, self.view + (shift / 2) as u64);
            }
            None => probes.located(children.probe_slot(self.key, slot)),
        }
    }
}

impl<'a> Targets<'a> {
    pub(crate) fn new(rules: &Rules, key: Key, lookup: &'a dyn Lookup) -> Targets<'a> {
        let edges = children(rules, key);
        let target = |via: Via| Target::of(lookup, edges.iter().find(|e| e.via == via)?.to);
        Targets {
            quiet: target(Via::Place),
            capture: target(Via::PlaceCapture),
        }
    }
}

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
    let key = index.key();
    let mut locator = Locator::new(rules, children, targets);
    let mut batch = Batch::new(index, targets.capture.is_some());
    index.for_each_class_in(range, |i, us, them| {
        let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
        batch.push(i, pos, &mut locator);
        if batch.is_full() {
            batch.evaluate(rules, children, &locator.met, &mut f);
        }
    });
    batch.evaluate(rules, children, &locator.met, &mut f);
}

/// The child keys a [`Locator`] met or was given, with their indexes and the entries the
/// lookup lends of them ([`Lookup::entries_of`]): children lie in one to three keys, so a
/// short list searched in order (the targets apart from the memos, so that a search reads one
/// line).
#[derive(Default)]
struct Met<'a> {
    targets: Vec<Target<'a>>,
    memos: Vec<Memos<'a>>,
    views: Vec<View<'a>>,
}

/// The fixed indexes of a key that its children reuse.
#[derive(Default)]
struct Memos<'a> {
    /// Where the key classifies the side to move: the last stones fixed (every quiet child of
    /// a position leaves the side that did not move as it was).
    us: LastFixed<'a>,
    /// Where it classifies the other side: the mover's stones before a placement plus each
    /// point (over a pattern class of the walk the mover's stones stay).
    placed: PointMemo<'a>,
    /// Where it classifies the side to move and the children are captures: the captured
    /// side's stones less each stone (over a pattern class of the walk they stay).
    removed: PointMemo<'a>,
}

impl<'a> Met<'a> {
    /// Adds `target`; its number in the list.
    fn add(&mut self, mut target: Target<'a>) -> usize {
        target.view = self.views.len() as u64;
        if let Some(entries) = target.entries {
            for k in 0..entries.per_byte() as u32 {
                self.views.push(View {
                    after: entries.after,
                    shift: 2 * k,
                    target: self.targets.len(),
                });
            }
        }
        assert!(self.views.len() <= Probes::VIEWS, "too many keys met");
        self.targets.push(target);
        self.memos.push(Memos::default());
        self.targets.len() - 1
    }

    /// The number of `key` in the list, met now if not before; `None` where `lookup` has no
    /// index of it.
    #[inline(always)]
    fn site(&mut self, lookup: &'a dyn Lookup, key: Key) -> Option<usize> {
        match self.targets.iter().position(|t| t.key == key) {
            Some(at) => Some(at),
            None => Some(self.add(Target::of(lookup, key)?)),
        }
    }

    /// Where the byte at `byte` read through view `view` lies: its key and slot.
    #[cold]
    #[inline(never)]
    fn located(&self, byte: *const u8, view: usize) -> Located {
        let view = &self.views[view];
        let t = &self.targets[view.target];
        let entries = t.entries.expect("a view's key lends its entries");
        let offset = (byte as usize - entries.bytes.as_ptr() as usize) as u64;
        Located::at(
            t.slot,
            offset * entries.per_byte() + (view.shift / 2) as u64,
        )
    }
}

/// The children a batch located, in order. A child whose key lends its entries is the address
/// of its byte with its [`View`], read by one load: decoding a [`Located`] and finding its
/// key's bytes took most of the batch's reading. Any other child is what the lookup located,
/// kept aside.
#[derive(Default)]
pub(crate) struct Probes<'a> {
    /// Per child: the address of its byte and its view above [`Probes::VIEW_SHIFT`], or
    /// [`Probes::LOOKUP`] and its number in `located`.
    children: Vec<u64>,
    located: Vec<Located>,
    /// The bytes addressed are borrowed for `'a`, as the [`Target`]s that lend them.
    bytes: PhantomData<&'a [u8]>,
}

impl<'a> Probes<'a> {
    /// Above every address (user space leaves the top bit clear).
    const LOOKUP: u64 = 1 << 63;
    /// Where a byte child's view starts: above every user-space address (48 bits).
    const VIEW_SHIFT: u32 = 48;
    const ADDRESS: u64 = (1 << Self::VIEW_SHIFT) - 1;
    /// Views that fit between the address and [`Probes::LOOKUP`].
    const VIEWS: usize = 1 << (63 - Self::VIEW_SHIFT);

    /// A child whose value is in `byte`, read through view `view`; starts its load.
    #[inline(always)]
    fn byte(&mut self, byte: &'a u8, view: u64) {
        prefetch(byte);
        let address = byte as *const u8 as u64;
        debug_assert!(address <= Self::ADDRESS && view < Self::VIEWS as u64);
        self.children.push(address | view << Self::VIEW_SHIFT);
    }

    /// A child that the lookup located.
    #[inline]
    pub(crate) fn located(&mut self, located: Located) {
        debug_assert!((self.located.len() as u64) < Self::LOOKUP);
        self.children.push(Self::LOOKUP | self.located.len() as u64);
        self.located.push(located);
    }

    pub(crate) fn len(&self) -> usize {
        self.children.len()
    }

    pub(crate) fn clear(&mut self) {
        self.children.clear();
        self.located.clear();
    }

    /// The [`Outcome::order`] of the mover's outcome after the move into `child` (one of
    /// `children`): from its byte through its view where its key lends its entries, else
    /// through the lookup (and the overflow mark of a byte through the lookup too).
    #[inline(always)]
    fn order_after(&self, child: u64, met: &Met, children: &dyn Lookup) -> u64 {
        if child & Self::LOOKUP == 0 {
            let view = &met.views[(child >> Self::VIEW_SHIFT) as usize];
            let order = view.after[(Self::byte_of(child) >> view.shift) as usize];
            if order != Entries::OVERFLOW {
                return order;
            }
        }
        children
            .read(self.located_at(child, met))
            .after_move()
            .order()
    }

    /// The value of `child` (one of `children`) as the lookup reads it.
    #[inline(always)]
    fn outcome(&self, child: u64, met: &Met, children: &dyn Lookup) -> Outcome {
        Outcome::from_order(self.order_after(child, met, children)).before_move()
    }

    /// The byte of a child located by its byte's address.
    #[inline(always)]
    fn byte_of(child: u64) -> u8 {
        // SAFETY: the address was made from a `&'a u8` into a table that a `Target` borrows
        // for `'a`, which outlives these probes (`bytes`).
        unsafe { *((child & Self::ADDRESS) as usize as *const u8) }
    }

    /// Where a child lies for the lookup: an overflow mark's slot, or what it located.
    #[inline]
    fn located_at(&self, child: u64, met: &Met) -> Located {
        if child & Self::LOOKUP == 0 {
            let view = (child >> Self::VIEW_SHIFT) as usize;
            met.located((child & Self::ADDRESS) as usize as *const u8, view)
        } else {
            self.located[(child & !Self::LOOKUP) as usize]
        }
    }
}

/// Finds children's slots through their key's index with the child's pattern side fixed
/// ([`Index::with_us`], [`Index::with_them`]), a group of moves at a time (the generator's
/// groups: the plain moves of one stone or from the hand, the captures of one mill). It keeps
/// the fixed indexes it built: children mostly share those stones with other children, so
/// the pattern side's work (its symmetry and class, half of a full index) is done once for
/// many children instead of once for each. Every quiet child of a position has the stones of
/// the side that did not move (and where they are the pattern side, the mover's stones are
/// mapped once for the whole group: [`Fixed::for_each_added`]); the captures of one mill share
/// the mover's stones; over the positions of one pattern class of the walk, the quiet
/// placements add one of a few points to the same stones and the captures take one of a few
/// stones from the same ones. Those are kept by stones and point in the child key's
/// [`Memos`], other stones by a hash.
///
/// The children of one kind of move (a placement or a move of a stone, with a capture or
/// without) have the same stones in number and in hand from every position of a key, hence
/// one key. The placement pass gives the placements' child keys as the key graph names them
/// ([`Targets`]); otherwise a kind's key is taken from the first child of that kind met,
/// built by the engine's `play`. Verification gives none, so that the key graph is checked by
/// it, not shared.
pub(crate) struct Locator<'a> {
    rules: &'a Rules,
    lookup: &'a dyn Lookup,
    /// The keys met or given.
    met: Met<'a>,
    /// By kind of move ([`Locator::kind`]): the number in `met` of its children's key once
    /// known (`Some(None)`: not in the lookup, or lost already).
    kinds: [Option<Option<usize>>; 4],
    /// Fixed indexes by a hash of their stones.
    memo: HashedFixed<'a>,
}

/// The slot of a set of stones in a table of `entries` (a power of two) hashed by them: the
/// top bits of a multiplicative hash.
#[inline(always)]
fn hash_slot(stones: u32, entries: usize) -> usize {
    (stones.wrapping_mul(0x9e37_79b1) >> (32 - entries.trailing_zeros())) as usize
}

/// Fixed indexes by a hash of their stones: the key, the stones, the index.
struct HashedFixed<'a>(Box<[Option<(Key, u32, Fixed<'a>)>; HashedFixed::ENTRIES]>);

impl<'a> HashedFixed<'a> {
    /// Enough entries for the mover's stone sets that the moves of one pattern class of the
    /// walk lead to (a power of two: the hash keeps its top bits).
    const ENTRIES: usize = 64;

    /// The index of `index` with `stones` fixed for the side not to move.
    #[inline]
    fn with_them(&mut self, index: &'a Index, stones: Bitboard) -> Fixed<'a> {
        let (key, bits) = (index.key(), stones.bits());
        let at = hash_slot(bits, Self::ENTRIES);
        match self.0[at] {
            Some((k, b, fixed)) if k == key && b == bits => fixed,
            _ => {
                let fixed = index.with_them(stones);
                self.0[at] = Some((key, bits, fixed));
                fixed
            }
        }
    }
}

impl<'a> Locator<'a> {
    pub(crate) fn new(
        rules: &'a Rules,
        lookup: &'a dyn Lookup,
        targets: &Targets<'a>,
    ) -> Locator<'a> {
        let mut met = Met::default();
        let mut kinds = [None; 4];
        kinds[Self::kind(None, false)] = targets.quiet.map(|t| Some(met.add(t)));
        kinds[Self::kind(None, true)] = targets.capture.map(|t| Some(met.add(t)));
        Locator {
            rules,
            lookup,
            met,
            kinds,
            memo: HashedFixed(Box::new([None; HashedFixed::ENTRIES])),
        }
    }

    /// The kind of a move: from the hand or from a point, with a capture or without.
    #[inline(always)]
    fn kind(from: Option<Point>, capture: bool) -> usize {
        from.is_some() as usize * 2 + capture as usize
    }

    /// The number in `met` of the key of the children of `kind`, taken from `first()` (one of
    /// them, built only then) the first time; `None` where the lookup has no index of it or
    /// they are lost already.
    #[inline(always)]
    fn site(&mut self, kind: usize, first: impl FnOnce() -> Position) -> Option<usize> {
        match self.kinds[kind] {
            Some(at) => at,
            None => self.first_of_kind(kind, &first()),
        }
    }

    /// [`Locator::site`] the first time a kind is met.
    #[cold]
    #[inline(never)]
    fn first_of_kind(&mut self, kind: usize, first: &Position) -> Option<usize> {
        let at = match lost_already(first, self.rules) {
            true => None,
            false => self.met.site(self.lookup, key_of(first)),
        };
        self.kinds[kind] = Some(at);
        at
    }

    /// Locates children through the lookup alone: where their key has no index, or they are
    /// lost already.
    #[cold]
    #[inline(never)]
    fn probe_each(&self, children: impl Iterator<Item = Position>, probes: &mut Probes<'a>) {
        for child in children {
            probes.located(self.lookup.probe(&child));
        }
    }

    /// Locates the children of the plain moves from `from` (`None`: the hand) to each of
    /// `tos` and starts their loads, in the order of `tos`.
    #[inline(always)]
    fn probe_plains(
        &mut self,
        pos: &Position,
        from: Option<Point>,
        tos: Bitboard,
        probes: &mut Probes<'a>,
    ) {
        let Some(first) = tos.first() else { return };
        let lookup = self.lookup;
        let child = |to| pos.play(Move::new(from, to, None));
        let Some(at) = self.site(Self::kind(from, false), || child(first)) else {
            return self.probe_each(tos.into_iter().map(child), probes);
        };
        let (t, memos) = (self.met.targets[at], &mut self.met.memos[at]);
        // The child's side to move is `them`; the mover's stones are `rest` and the point.
        let (them, rest) = (pos.them(), from.map_or(pos.us(), |f| pos.us().without(f)));
        if t.index.classifies_us() {
            let fixed = memos.us.get(t.index, them);
            fixed.for_each_added(rest, tos, |slot| t.probe(lookup, slot, probes));
        } else if from.is_none() {
            for to in tos {
                let fixed = memos.placed.placed(t.index, rest, to);
                t.probe(lookup, fixed.index(them), probes);
            }
        } else {
            for to in tos {
                let fixed = self.memo.with_them(t.index, rest.with(to));
                t.probe(lookup, fixed.index(them), probes);
            }
        }
    }

    /// Locates the children of the move from `from` to `to` with each capture of `removable`
    /// and starts their loads, in the order of `removable`.
    #[inline(always)]
    pub(crate) fn probe_captures(
        &mut self,
        pos: &Position,
        from: Option<Point>,
        to: Point,
        removable: Bitboard,
        probes: &mut Probes<'a>,
    ) {
        let Some(first) = removable.first() else {
            return;
        };
        let lookup = self.lookup;
        let child = |c| pos.play(Move::new(from, to, Some(c)));
        let Some(at) = self.site(Self::kind(from, true), || child(first)) else {
            return self.probe_each(removable.into_iter().map(child), probes);
        };
        let (t, memos) = (self.met.targets[at], &mut self.met.memos[at]);
        let them = pos.them();
        let rest = from.map_or(pos.us(), |f| pos.us().without(f));
        let mover = rest.with(to);
        if t.index.classifies_us() {
            // The child's pattern side is the captured side, less one stone.
            for c in removable {
                let fixed = memos.removed.removed(t.index, them, c);
                t.probe(lookup, fixed.index(mover), probes);
            }
        } else {
            let fixed = match from {
                None => memos.placed.placed(t.index, rest, to),
                Some(_) => self.memo.with_them(t.index, mover),
            };
            for c in removable {
                t.probe(lookup, fixed.index(them.without(c)), probes);
            }
        }
    }

    /// The stored value of the `k`th child of `probes`, which this locator located.
    #[inline]
    pub(crate) fn outcome(&self, probes: &Probes<'a>, k: usize) -> Outcome {
        probes.outcome(probes.children[k], &self.met, self.lookup)
    }
}

/// Positions whose children have been probed but not yet read.
struct Batch<'a> {
    /// Per position: its slot, the position, the [`Outcome::order`] of its best move known
    /// without a probe (`u64::MAX`: none), and where its probes end.
    positions: Vec<(u64, Position, u64, usize)>,
    probes: Probes<'a>,
    /// Where the key classifies the other side (its stones stay over a pattern class of the
    /// walk) and the key graph names the capture children's key: the mills' best captures.
    mills: Option<MillMemo>,
}

/// The fixed index of the side to move's stones in one key, kept while they stay the same.
#[derive(Default)]
struct LastFixed<'a>(Option<(u32, Fixed<'a>)>);

impl<'a> LastFixed<'a> {
    #[inline]
    fn get(&mut self, index: &'a Index, us: Bitboard) -> Fixed<'a> {
        match self.0 {
            Some((stones, fixed)) if stones == us.bits() => fixed,
            _ => {
                let fixed = index.with_us(us);
                self.0 = Some((us.bits(), fixed));
                fixed
            }
        }
    }
}

/// The fixed indexes of one set of stones changed by one point each (see [`Memos`]):
/// the stones plus each point placed, or minus each stone captured.
struct PointMemo<'a> {
    stones: u32,
    /// Bit `p` set when `fixed[p]` holds the index of the stones changed at point `p`.
    known: u32,
    fixed: [Option<Fixed<'a>>; 32],
}

impl Default for PointMemo<'_> {
    fn default() -> Self {
        PointMemo {
            stones: u32::MAX,
            known: 0,
            fixed: [None; 32],
        }
    }
}

impl<'a> PointMemo<'a> {
    /// The fixed index of `stones` with `point` added, in `index`, for the side not to move.
    #[inline]
    fn placed(&mut self, index: &'a Index, stones: Bitboard, point: Point) -> Fixed<'a> {
        self.get(stones, point, || index.with_them(stones.with(point)))
    }

    /// The fixed index of `stones` without `point`, in `index`, for the side to move.
    #[inline]
    fn removed(&mut self, index: &'a Index, stones: Bitboard, point: Point) -> Fixed<'a> {
        self.get(stones, point, || index.with_us(stones.without(point)))
    }

    #[inline(always)]
    fn get(
        &mut self,
        stones: Bitboard,
        point: Point,
        make: impl FnOnce() -> Fixed<'a>,
    ) -> Fixed<'a> {
        if self.stones != stones.bits() {
            self.stones = stones.bits();
            self.known = 0;
        }
        let p = point as usize;
        if self.known & 1 << p == 0 {
            self.known |= 1 << p;
            self.fixed[p] = Some(make());
        }
        self.fixed[p].expect("known")
    }
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
/// there is one.
struct Children<'b, 'l> {
    pos: &'b Position,
    /// Where the other side's stones stay over many positions: the mills' best captures.
    mills: Option<&'b mut MillMemo>,
    /// The best of the position's moves known without a probe (from `mills`).
    known: &'b mut u64,
    locator: &'b mut Locator<'l>,
    probes: &'b mut Probes<'l>,
}

impl Sink for Children<'_, '_> {
    const BULK: bool = true;

    #[inline(always)]
    fn plains(&mut self, from: Option<Point>, tos: Bitboard) {
        self.locator.probe_plains(self.pos, from, tos, self.probes);
    }

    #[inline(always)]
    fn plain(&mut self, from: Option<Point>, to: Point) {
        let tos = Bitboard::from_point(to);
        self.locator.probe_plains(self.pos, from, tos, self.probes);
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

impl<'a> Batch<'a> {
    /// A batch for the positions of `index`; `capture_given` where the key graph named the
    /// placements' capture children's key (the pass, not verification).
    fn new(index: &Index, capture_given: bool) -> Batch<'a> {
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
        let mut children = Children {
            pos: &pos,
            mills: self.mills.as_mut(),
            known: &mut known,
            locator,
            probes: &mut self.probes,
        };
        for_each_group(&pos, rules, &mut children);
        self.positions.push((slot, pos, known, self.probes.len()));
    }

    /// Reads the probes and calls `f(slot, position, outcome)` for every position, by the
    /// minimax rule; empties the batch.
    fn evaluate(
        &mut self,
        rules: &Rules,
        children: &dyn Lookup,
        met: &Met,
        mut f: impl FnMut(u64, &Position, Outcome),
    ) {
        let probes = &self.probes;
        let order = |child: u64| probes.order_after(child, met, children);
        if let Some(mills) = &mut self.mills {
            mills.resolve(&probes.children, order);
        }
        let mut begin = 0;
        for &(slot, pos, known, end) in &self.positions {
            let probes = &probes.children[begin..end];
            let known = (known != u64::MAX).then_some(known);
            let best = probes.iter().map(|&p| order(p)).chain(known).min();
            let outcome = match best {
                Some(best) => Outcome::from_order(best),
                // No move: the game's own rule for a blocked player.
                None => evaluate(rules, &pos, &[]),
            };
            f(slot, &pos, outcome);
            begin = end;
        }
        self.positions.clear();
        self.probes.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_db::format::{Encoding, Entry};

    /// Reads slot `s` of any key as a win in `300 + s` plies: a value no distance byte holds.
    struct Overflows;

    impl Lookup for Overflows {
        fn probe(&self, _: &Position) -> Located {
            unreachable!("the batch locates by slot here")
        }

        fn read(&self, probe: Located) -> Outcome {
            let (_, slot) = probe.located().expect("a slot");
            Outcome::Win(300 + slot as u32)
        }
    }

    /// A child's byte that holds the overflow mark, and a child the lookup located, are read
    /// through the lookup at their own slots; a plain byte from the table; a slot of a
    /// two-bit key through the view of its bits.
    #[test]
    fn probes_read_overflowed_and_located_children_through_the_lookup() {
        let rules = Rules::nine();
        let key = Key::new(3, 3, 0, 0);
        let index = Index::new(rules.board(), key);
        let bytes = [Entry::OVERFLOW.0, 7, Entry::OVERFLOW.0];
        let mut met = Met::default();
        let target = |key, encoding, bytes| Target {
            key,
            index: &index,
            slot: key_slot(key),
            entries: Some(Entries::stored(bytes, encoding)),
            view: 0,
        };
        let first = met.add(target(key, Encoding::DistanceByte, &bytes));
        // Slots 4..8: a loss, a win, a draw, a loss.
        let two_bits = [0, 0b10_00_01_10];
        let other = Key::new(4, 3, 0, 0);
        let second = met.add(target(other, Encoding::Wdl2, &two_bits));
        let (first, second) = (met.targets[first], met.targets[second]);
        let lookup = Overflows;
        let mut probes = Probes::default();
        first.probe(&lookup, 2, &mut probes);
        probes.located(Located::at(key_slot(key), 5));
        first.probe(&lookup, 1, &mut probes);
        first.probe(&lookup, 0, &mut probes);
        for slot in 4..8 {
            second.probe(&lookup, slot, &mut probes);
        }
        let orders: Vec<u64> = (probes.children.iter())
            .map(|&c| probes.order_after(c, &met, &lookup))
            .collect();
        let after = |outcome: Outcome| outcome.after_move().order();
        let seven = Entry(7).decode(Encoding::DistanceByte).expect("inline");
        let (win, loss) = (Outcome::Win(1), Outcome::Loss(1));
        let expected = [
            after(Outcome::Win(302)),
            after(Outcome::Win(305)),
            after(seven),
            after(Outcome::Win(300)),
            after(loss),
            after(win),
            after(Outcome::Draw),
            after(loss),
        ];
        assert_eq!(orders, expected);
    }
}
