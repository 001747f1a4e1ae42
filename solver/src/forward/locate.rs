//! Where a position's children lie in the tables, for the forward passes and for the captures
//! of the retrograde initial pass.
//!
//! Besides the loads themselves, indexing the children is most of a forward pass's work, and
//! children mostly share their stones with other children: the fixed indexes of those stones
//! are kept and reused ([`Locator`]). A child whose key lends its entries is kept as the address
//! of its byte and read by one load ([`Probes`]), as decoding a [`Located`] and finding its
//! key's bytes took most of a batch's reading.

use core::marker::PhantomData;
use morris_db::format::Entry;
use morris_db::plan::{children, Via};
use morris_db::{Fixed, Index, Key};
use morris_engine::{Bitboard, Move, Point, Position, Rules};
use morris_tablebase::entries::AfterTable;
use morris_tablebase::{key_of, key_slot, lost_already, prefetch, Entries, Located, Lookup};

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
    /// The entries' bytes, where the lookup lends them, and how it reads them (until met).
    bytes: Option<&'a [u8]>,
    after: Option<&'a AfterTable>,
    /// Four slots a byte (the two-bit encoding), not one.
    two_bit: bool,
    /// Its table's number in [`Met::afters`] above [`Probes::TABLE_SHIFT`] (set when met):
    /// the tag of every child of the key.
    tag: u64,
}

impl<'a> Target<'a> {
    /// Key `key` as `lookup` has it; `None` where it has no index of it.
    fn of(lookup: &'a dyn Lookup, key: Key) -> Option<Target<'a>> {
        Some(Target::new(
            key,
            lookup.index_of(key)?,
            lookup.entries_of(key),
        ))
    }

    fn new(key: Key, index: &'a Index, entries: Option<Entries<'a>>) -> Target<'a> {
        Target {
            key,
            index,
            slot: key_slot(key),
            bytes: entries.map(|e| e.bytes),
            after: entries.map(|e| e.after),
            two_bit: entries.is_some_and(|e| e.per_byte() == 4),
            tag: 0,
        }
    }

    /// The entries' bytes where they hold a byte a slot (the plain game's keys).
    #[inline(always)]
    fn byte_a_slot(&self) -> Option<&'a [u8]> {
        self.bytes.filter(|_| !self.two_bit)
    }

    /// Locates slot `slot` of the key and starts its load.
    #[inline(always)]
    fn probe(&self, children: &dyn Lookup, slot: u64, probes: &mut Probes<'a>) {
        match self.bytes {
            Some(bytes) if !self.two_bit => probes.byte(&bytes[slot as usize], self.tag),
            Some(bytes) => {
                let shift = 2 * (slot % 4);
                probes.byte(
                    &bytes[(slot / 4) as usize],
                    self.tag | shift << Probes::SHIFT_SHIFT,
                );
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

    /// Whether the key graph named the placements' capture children's key (the pass, not
    /// verification).
    pub(super) fn name_captures(&self) -> bool {
        self.capture.is_some()
    }
}

/// The child keys a [`Locator`] met or was given, with their indexes and the entries the
/// lookup lends of them ([`Lookup::entries_of`]): children lie in one to three keys, so a
/// short list searched in order (the targets apart from the memos, so that a search reads one
/// line).
pub(super) struct Met<'a> {
    targets: Vec<Target<'a>>,
    memos: Vec<Memos<'a>>,
    /// By table number (a child's tag): how its bytes are read ([`Entries::after`]); a fixed
    /// array, so that a read takes neither a bounds check nor a length load.
    afters: [&'a AfterTable; Probes::TABLES],
    /// By table number: its key's number in `targets`.
    table_targets: [usize; Probes::TABLES],
    tables: usize,
    /// The one table of every key met so far, where they share it and hold a byte a slot (the
    /// plain game's keys always do): a batch then reads every child through it, without
    /// looking up each child's table, which cost the plain passes a tenth of their time.
    single: Option<&'a AfterTable>,
    /// Two tables met, or a table of the two-bit encoding: no `single`.
    mixed: bool,
}

impl Default for Met<'_> {
    fn default() -> Self {
        Met {
            targets: Vec::new(),
            memos: Vec::new(),
            afters: [&UNUSED; Probes::TABLES],
            table_targets: [usize::MAX; Probes::TABLES],
            tables: 0,
            single: None,
            mixed: false,
        }
    }
}

/// The [`AfterTable`] of a table number no key has: never read.
static UNUSED: AfterTable = [Entries::OVERFLOW; 256];

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
        if let Some(after) = target.after {
            assert!(self.tables < Probes::TABLES, "too many keys met");
            target.tag = (self.tables as u64) << Probes::TABLE_SHIFT;
            self.afters[self.tables] = after;
            self.table_targets[self.tables] = self.targets.len();
            self.tables += 1;
            let same = self.single.is_none_or(|t| core::ptr::eq(t, after));
            self.mixed |= !same || target.two_bit;
            self.single = (!self.mixed).then_some(after);
        }
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

    /// The table every byte child met so far is read through, where there is one.
    #[inline(always)]
    pub(super) fn single(&self) -> Option<&'a AfterTable> {
        self.single
    }

    /// Where the byte child `child` ([`Probes::children`]) lies: its key and slot.
    #[cold]
    #[inline(never)]
    fn located(&self, child: u64) -> Located {
        let t = &self.targets[self.table_targets[Probes::table_of(child)]];
        let bytes = t.bytes.expect("a tagged key lends its entries");
        let byte = (child & Probes::ADDRESS) as usize;
        let offset = (byte - bytes.as_ptr() as usize) as u64;
        Located::at(
            t.slot,
            offset * if t.two_bit { 4 } else { 1 } + Probes::shift_of(child) as u64 / 2,
        )
    }
}

/// The children a batch located, in order. A child whose key lends its entries is the address
/// of its byte with its table and the shift to its bits, read by one load: decoding a
/// [`Located`] and finding its key's bytes took most of the batch's reading. Any other child is
/// what the lookup located, kept aside.
#[derive(Default)]
pub(crate) struct Probes<'a> {
    /// Per child: the address of its byte, the shift to its bits above [`Probes::SHIFT_SHIFT`]
    /// and its table above [`Probes::TABLE_SHIFT`]; or [`Probes::LOOKUP`] and its number in
    /// `located`.
    pub(super) children: Vec<u64>,
    located: Vec<Located>,
    /// The bytes addressed are borrowed for `'a`, as the [`Target`]s that lend them.
    bytes: PhantomData<&'a [u8]>,
}

impl<'a> Probes<'a> {
    /// Above every address (user space leaves the top bit clear).
    const LOOKUP: u64 = 1 << 63;
    /// Where a byte child's shift starts: above every user-space address (48 bits).
    const SHIFT_SHIFT: u32 = 48;
    const ADDRESS: u64 = (1 << Self::SHIFT_SHIFT) - 1;
    /// Where a byte child's table starts, above its shift (0 to 6).
    const TABLE_SHIFT: u32 = 52;
    /// Tables a locator can tell apart (each key met that lends its entries is one).
    const TABLES: usize = 16;

    /// A child whose value is in `byte`, read as `tag` says (table and shift); starts its load.
    #[inline(always)]
    fn byte(&mut self, byte: &'a u8, tag: u64) {
        prefetch(byte);
        let address = byte as *const u8 as u64;
        debug_assert!(address <= Self::ADDRESS);
        self.children.push(address | tag);
    }

    #[inline(always)]
    fn table_of(child: u64) -> usize {
        (child >> Self::TABLE_SHIFT) as usize & (Self::TABLES - 1)
    }

    #[inline(always)]
    fn shift_of(child: u64) -> u32 {
        (child >> Self::SHIFT_SHIFT) as u32 & 7
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
    /// `children`): from its byte through its table where its key lends its entries, else
    /// through the lookup (and the overflow mark of a byte through the lookup too).
    #[inline(always)]
    pub(super) fn order_after(&self, child: u64, met: &Met, children: &dyn Lookup) -> u64 {
        if child & Self::LOOKUP == 0 {
            let after = met.afters[Self::table_of(child)];
            let order = after[(Self::byte_of(child) >> Self::shift_of(child)) as usize];
            if order != Entries::OVERFLOW {
                return order;
            }
        }
        children
            .read(self.located_at(child, met))
            .after_move()
            .order()
    }

    /// [`Probes::order_after`] where every byte child is read through `after`
    /// ([`Met::single`]).
    #[inline(always)]
    pub(super) fn order_after_in(
        &self,
        child: u64,
        after: &AfterTable,
        met: &Met,
        children: &dyn Lookup,
    ) -> u64 {
        if child & Self::LOOKUP == 0 {
            // One table of a byte a slot, whose overflow mark is the byte 255 (read through the
            // lookup): tested on the byte, so that the branch does not wait for the table's load.
            let byte = Self::byte_of(child);
            if byte != Entry::OVERFLOW.0 {
                return after[byte as usize];
            }
        }
        children
            .read(self.located_at(child, met))
            .after_move()
            .order()
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
            met.located(child)
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
    pub(super) rules: &'a Rules,
    lookup: &'a dyn Lookup,
    /// The keys met or given.
    pub(super) met: Met<'a>,
    /// By kind of move ([`Locator::kind`]): the number in `met` of its children's key once
    /// known (`Some(None)`: not in the lookup, or lost already).
    kinds: [Option<Option<usize>>; 4],
    /// Fixed indexes by a hash of their stones.
    memo: HashedFixed<'a>,
}

/// The slot of a set of stones in a table of `entries` (a power of two) hashed by them: the
/// top bits of a multiplicative hash.
#[inline(always)]
pub(super) fn hash_slot(stones: u32, entries: usize) -> usize {
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

    /// Locates one child through the lookup alone.
    pub(crate) fn probe_position(&self, child: &Position, probes: &mut Probes<'a>) {
        probes.located(self.lookup.probe(child));
    }

    /// Locates the children of the plain moves from `from` (`None`: the hand) to each of
    /// `tos` and starts their loads, in the order of `tos`.
    #[inline(always)]
    pub(crate) fn probe_plains(
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
            match t.byte_a_slot() {
                // Kept to one load and one push, so that the compiler inlines it into the
                // index's loop over the points: with the other encodings' branches the closure
                // became a call per child, 13.5% of the plain placement pass's instructions.
                Some(bytes) => fixed
                    .for_each_added(rest, tos, |slot| probes.byte(&bytes[slot as usize], t.tag)),
                None => fixed.for_each_added(rest, tos, |slot| t.probe(lookup, slot, probes)),
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use morris_db::format::{Encoding, Entry};
    use morris_db::Outcome;

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
    /// two-bit key through its table and the shift to its bits.
    #[test]
    fn probes_read_overflowed_and_located_children_through_the_lookup() {
        let rules = Rules::nine();
        let key = Key::new(3, 3, 0, 0);
        let index = Index::new(rules.board(), key);
        let bytes = [Entry::OVERFLOW.0, 7, Entry::OVERFLOW.0];
        let mut met = Met::default();
        let target =
            |key, encoding, bytes| Target::new(key, &index, Some(Entries::stored(bytes, encoding)));
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
