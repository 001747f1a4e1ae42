//! The symmetry-reduced perfect index of the positions of one key (Gasser; Gévay and Danner).
//!
//! The side with more stones (the "pattern" side; the side to move on a tie) is looked up in
//! [`PatternClasses`]: its class number and a symmetry taking it to the class's canonical
//! pattern. The other side is mapped by that symmetry and ranked among the points the canonical
//! pattern leaves free. Index = class × C(free points, other stones) + rank.
//!
//! Why the side with more stones: wasted slots come from canonical patterns with symmetries of
//! their own, which are rarer among patterns of many stones. Over the moving phase this gives
//! 1.9% more slots than classes (9,074,932,579, Gasser's count) instead of 3.2% with the side
//! to move always the pattern side. It also lets both keys of a pair M-O / O-M share one
//! pattern table.
//!
//! A canonical pattern fixed by some symmetries can be reached by several symmetries, and they
//! place the other side differently; the index takes the smallest rank over all of them, or
//! two symmetric positions would get different slots. The other ranks of such a class are the
//! holes: slots no position maps to. They unindex to a valid position all the same (whose own
//! index is another slot).

use core::ops::Range;

use morris_engine::{Bitboard, Board};

use crate::bits::{next_combination, pdep, pext};
use crate::colex::{binom, rank_in, unrank_in};
use crate::key::Key;
use crate::patterns::PatternClasses;
use crate::symmetry;
use crate::tables::{self, BoardTables};

/// How many bytes of a point set the hot path reads: fewer table look-ups for smaller boards
/// and for patterns that leave fewer points free (dispatched once per call, on a field that
/// never changes, so the branch is always predicted).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Shape {
    Board2Free2,
    Board3Free2,
    Board3Free3,
    Any,
}

impl Shape {
    fn of(points: u32, free: u32) -> Shape {
        if points <= 16 {
            Shape::Board2Free2
        } else if points <= 24 && free <= 16 {
            Shape::Board3Free2
        } else if points <= 24 {
            Shape::Board3Free3
        } else {
            Shape::Any
        }
    }
}

/// The index of one key's positions. Cheap to create and copy: it borrows tables shared by
/// every index of the board.
#[derive(Copy, Clone)]
pub struct Index {
    key: Key,
    tables: &'static BoardTables,
    patterns: &'static PatternClasses,
    /// The side not to move is the pattern side.
    swap: bool,
    shape: Shape,
    all: u32,
    /// Stones of the ranked side.
    ranked: u32,
    per_class: u64,
    size: u64,
}

impl Index {
    /// The index of `key` on `board`. The first index of a board, and the first with a given
    /// number of pattern stones, build the shared tables (milliseconds to a fraction of a
    /// second); later calls only look them up.
    pub fn new(board: &'static Board, key: Key) -> Index {
        let n = board.len() as u32;
        let (m, o) = (key.us as u32, key.them as u32);
        assert!(
            m + o <= n,
            "key {key}: {} stones do not fit on the {} points of board `{}`",
            m + o,
            n,
            board.name()
        );
        let swap = o > m;
        let (p, q) = if swap { (o, m) } else { (m, o) };
        let tables = tables::for_board(board);
        let patterns = tables.patterns(p);
        let per_class = binom(n - p, q);
        Index {
            key,
            tables,
            patterns,
            swap,
            shape: Shape::of(n, n - p),
            all: board.all().bits(),
            ranked: q,
            per_class,
            size: patterns.len() as u64 * per_class,
        }
    }

    pub fn key(&self) -> Key {
        self.key
    }

    pub fn board(&self) -> &'static Board {
        self.tables.board
    }

    /// Number of slots: classes of the pattern side × placements of the other side.
    #[inline]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Slots per class of the pattern side; slot `i` belongs to pattern class
    /// `i / slots_per_class()`.
    #[inline]
    pub fn slots_per_class(&self) -> u64 {
        self.per_class
    }

    /// Number of symmetries of the board, the identity included.
    #[inline]
    pub fn symmetry_count(&self) -> usize {
        self.tables.syms.len()
    }

    /// The exact number of position classes of the key (the slots that are not holes).
    pub fn classes(&self) -> u64 {
        symmetry::classes(self.board(), self.key)
    }

    /// The image of a set of points under symmetry `s` (0 .. `symmetry_count()`; 0 is the
    /// identity).
    #[inline]
    pub fn transform(&self, s: usize, set: Bitboard) -> Bitboard {
        Bitboard(self.tables.syms.apply(s, set.bits()))
    }

    /// The slot of a position: `us` (the side to move, `key.us` stones) and `them` (`key.them`
    /// stones), disjoint. Every symmetric image of the position has the same slot.
    #[inline]
    pub fn index(&self, us: Bitboard, them: Bitboard) -> u64 {
        debug_assert_eq!(
            us.count(),
            self.key.us as u32,
            "{us:?} for key {}",
            self.key
        );
        debug_assert_eq!(
            them.count(),
            self.key.them as u32,
            "{them:?} for key {}",
            self.key
        );
        debug_assert!((us & them).is_empty() && (us | them).is_subset_of(Bitboard(self.all)));
        let (p, q) = if self.swap {
            (them.bits(), us.bits())
        } else {
            (us.bits(), them.bits())
        };
        match self.shape {
            Shape::Board2Free2 => self.locate::<2, 2>(p, q),
            Shape::Board3Free2 => self.locate::<3, 2>(p, q),
            Shape::Board3Free3 => self.locate::<3, 3>(p, q),
            Shape::Any => self.locate::<4, 4>(p, q),
        }
    }

    /// The slot of pattern `p` and other side `q`, for a board of at most `8 * BOARD` points
    /// and a pattern that leaves at most `8 * FREE` points free.
    #[inline(always)]
    fn locate<const BOARD: usize, const FREE: usize>(&self, p: u32, q: u32) -> u64 {
        let at = self.pattern_in::<BOARD>(p);
        self.place_in::<BOARD, FREE>(&at, q)
    }

    /// Everything the pattern side alone determines.
    #[inline(always)]
    fn pattern_in<const BOARD: usize>(&self, p: u32) -> PatternAt {
        let (sym, symmetric) = self.patterns.symmetry_in::<BOARD>(p);
        let canon = self.tables.syms.apply_in::<BOARD>(sym, p);
        PatternAt {
            sym,
            class: self.patterns.class_in::<BOARD>(canon),
            free: self.all & !canon,
            symmetric,
        }
    }

    /// The slot of the other side `q` with the pattern `at`.
    #[inline(always)]
    fn place_in<const BOARD: usize, const FREE: usize>(&self, at: &PatternAt, q: u32) -> u64 {
        self.place_mapped::<FREE>(at, self.tables.syms.apply_in::<BOARD>(at.sym, q))
    }

    /// The slot of the other side `q` with the pattern `at`, `q` already mapped by the
    /// pattern's symmetry.
    #[inline(always)]
    fn place_mapped<const FREE: usize>(&self, at: &PatternAt, q: u32) -> u64 {
        let mut x = pext(q, at.free);
        if at.symmetric {
            x = self.least_image(at.class, q, at.free, x);
        }
        at.class as u64 * self.per_class + rank_in::<FREE>(x) as u64
    }

    /// [`Fixed::for_each_added`] where the fixed side is the pattern side.
    #[inline(always)]
    fn each_added<const BOARD: usize, const FREE: usize>(
        &self,
        at: &PatternAt,
        q: u32,
        added: Bitboard,
        mut f: impl FnMut(u64),
    ) {
        let syms = &self.tables.syms;
        let mapped = syms.apply_in::<BOARD>(at.sym, q);
        for p in added {
            f(self.place_mapped::<FREE>(at, mapped | syms.apply_point(at.sym, p)));
        }
    }

    /// True when the side to move is the pattern side, the one whose fixed index
    /// ([`Index::with_us`]) is the cheap one; else [`Index::with_them`] is.
    #[inline]
    pub fn classifies_us(&self) -> bool {
        !self.swap
    }

    /// Prepares the indexing of many positions with the same stones for the side to move (for
    /// instance all the predecessors of a position, where the other side made the last move).
    #[inline]
    pub fn with_us(&self, us: Bitboard) -> Fixed<'_> {
        self.fixed(us, !self.swap)
    }

    /// Prepares the indexing of many positions with the same stones for the side not to move.
    #[inline]
    pub fn with_them(&self, them: Bitboard) -> Fixed<'_> {
        self.fixed(them, self.swap)
    }

    #[inline]
    fn fixed(&self, stones: Bitboard, is_pattern: bool) -> Fixed<'_> {
        let side = if is_pattern {
            FixedSide::Pattern(match self.shape {
                Shape::Board2Free2 => self.pattern_in::<2>(stones.bits()),
                Shape::Board3Free2 | Shape::Board3Free3 => self.pattern_in::<3>(stones.bits()),
                Shape::Any => self.pattern_in::<4>(stones.bits()),
            })
        } else {
            FixedSide::Ranked(stones.bits())
        };
        Fixed { index: self, side }
    }

    /// The same index computed by the code for any board, to test the specialised versions
    /// against.
    #[doc(hidden)]
    pub fn with_generic_code(mut self) -> Index {
        self.shape = Shape::Any;
        self
    }

    /// The smallest placement of the other side over the symmetries fixing the canonical
    /// pattern. Colex order is numeric order, so the smallest mask has the smallest rank.
    #[inline(never)]
    fn least_image(&self, class: u32, q: u32, free: u32, mut least: u32) -> u32 {
        let syms = &self.tables.syms;
        let mut stab = self.patterns.stabilizer(class);
        while stab != 0 {
            let s = stab.trailing_zeros() as usize;
            stab &= stab - 1;
            least = least.min(pext(syms.apply(s, q), free));
        }
        least
    }

    /// The position of a slot: the canonical pattern and the placement the slot names. For a
    /// hole this is a valid position whose index is another slot.
    #[inline]
    pub fn unindex(&self, i: u64) -> (Bitboard, Bitboard) {
        assert!(i < self.size, "slot {i} out of range for key {}", self.key);
        let class = (i / self.per_class) as u32;
        let x = self.placement(i % self.per_class);
        let canon = self.patterns.canonical(class);
        self.orient(canon, pdep(x, self.all & !canon))
    }

    /// The placement (a subset of the free points, packed) with rank `r`.
    #[inline(always)]
    fn placement(&self, r: u64) -> u32 {
        match self.shape {
            Shape::Board2Free2 | Shape::Board3Free2 => unrank_in::<2>(r, self.ranked),
            Shape::Board3Free3 => unrank_in::<3>(r, self.ranked),
            Shape::Any => unrank_in::<4>(r, self.ranked),
        }
    }

    /// Whether no position maps to slot `i`. Free for slots of asymmetric pattern classes
    /// (almost all of them).
    #[inline]
    pub fn is_hole(&self, i: u64) -> bool {
        assert!(i < self.size, "slot {i} out of range for key {}", self.key);
        let class = (i / self.per_class) as u32;
        if self.patterns.stabilizer(class) == 0 {
            return false;
        }
        let x = self.placement(i % self.per_class);
        let free = self.all & !self.patterns.canonical(class);
        self.least_image(class, pdep(x, free), free, x) != x
    }

    /// Visits the slots of `range` (clipped to the index) in order, holes included, with the
    /// position `unindex` gives; much faster than calling `unindex` per slot (one unrank per
    /// class, then a next-combination step and a `pdep` per slot).
    #[inline]
    pub fn for_each_in(&self, range: Range<u64>, f: impl FnMut(u64, Bitboard, Bitboard)) {
        self.walk::<false>(range, f)
    }

    /// As [`Index::for_each_in`], skipping the holes: every class of the key is visited exactly
    /// once over the whole index.
    #[inline]
    pub fn for_each_class_in(&self, range: Range<u64>, f: impl FnMut(u64, Bitboard, Bitboard)) {
        self.walk::<true>(range, f)
    }

    /// The slots [`Index::for_each_class_in`] visits, as runs of consecutive slots: a class of
    /// patterns without symmetry has no holes, so it is one run, given without the walk's
    /// work per slot (placing the stones). For a caller that reads values by slot and needs no
    /// position, such as the counts every solve takes of the keys it writes.
    #[inline]
    pub fn for_each_class_run(&self, range: Range<u64>, mut f: impl FnMut(Range<u64>)) {
        self.for_each_class_span(range, |class, r, slots| {
            if self.patterns.stabilizer(class) == 0 {
                return f(slots);
            }
            let free = self.all & !self.patterns.canonical(class);
            let mut x = self.placement(r);
            let mut run = slots.start;
            for i in slots.clone() {
                if i > slots.start {
                    x = next_combination(x);
                }
                if self.least_image(class, pdep(x, free), free, x) != x {
                    if run < i {
                        f(run..i);
                    }
                    run = i + 1;
                }
            }
            if run < slots.end {
                f(run..slots.end);
            }
        });
    }

    #[inline(always)]
    fn walk<const SKIP_HOLES: bool>(
        &self,
        range: Range<u64>,
        mut f: impl FnMut(u64, Bitboard, Bitboard),
    ) {
        self.for_each_class_span(range, |class, r, slots| {
            let canon = self.patterns.canonical(class);
            let free = self.all & !canon;
            let symmetric = SKIP_HOLES && self.patterns.stabilizer(class) != 0;
            let (mut i, stop) = (slots.start, slots.end);
            let mut x = self.placement(r);
            loop {
                let q = pdep(x, free);
                if !symmetric || self.least_image(class, q, free, x) == x {
                    let (us, them) = self.orient(canon, q);
                    f(i, us, them);
                }
                i += 1;
                if i == stop {
                    break;
                }
                x = next_combination(x);
            }
        });
    }

    /// Calls `f(class, rank, slots)` for each pattern class that `range` meets, in order:
    /// `slots` are its slots within the range (never empty), `rank` the first one's rank
    /// within the class.
    #[inline(always)]
    fn for_each_class_span(&self, range: Range<u64>, mut f: impl FnMut(u32, u64, Range<u64>)) {
        let end = range.end.min(self.size);
        let mut i = range.start;
        if i >= end {
            return;
        }
        let mut class = (i / self.per_class) as u32;
        let mut r = i % self.per_class;
        while i < end {
            let stop = i + (self.per_class - r).min(end - i);
            f(class, r, i..stop);
            i = stop;
            class += 1;
            r = 0;
        }
    }

    /// Unindexes slots met in increasing order, as propagation meets them in its sorted
    /// lists: [`Cursor::unindex`] gives what [`Index::unindex`] does for any slot, but a slot in
    /// the class of the last one needs no division and no pattern look-up, and one a few
    /// slots after the last is stepped to instead of unranked.
    #[inline]
    pub fn cursor(&self) -> Cursor<'_> {
        Cursor {
            index: self,
            start: 0,
            end: 0,
            canon: 0,
            free: 0,
            slot: u64::MAX,
            x: 0,
        }
    }

    /// Pattern side and ranked side back to (side to move, other side).
    #[inline(always)]
    fn orient(&self, pattern: u32, ranked: u32) -> (Bitboard, Bitboard) {
        if self.swap {
            (Bitboard(ranked), Bitboard(pattern))
        } else {
            (Bitboard(pattern), Bitboard(ranked))
        }
    }

    /// Number of distinct positions symmetric to this one (itself included): the group's size
    /// over the number of symmetries that fix the position.
    pub fn orbit_size(&self, us: Bitboard, them: Bitboard) -> u32 {
        let syms = &self.tables.syms;
        let fixing = (0..syms.len())
            .filter(|&s| syms.apply(s, us.bits()) == us.bits())
            .filter(|&s| syms.apply(s, them.bits()) == them.bits())
            .count();
        (syms.len() / fixing) as u32
    }
}

/// See [`Index::cursor`].
pub struct Cursor<'a> {
    index: &'a Index,
    /// The slots of the current class: `start .. end` (empty before the first slot).
    start: u64,
    end: u64,
    canon: u32,
    free: u32,
    /// The last slot unindexed, and its placement (`u64::MAX`: none in this class yet).
    slot: u64,
    x: u32,
}

impl Cursor<'_> {
    /// Slots ahead of the last one reached by stepping through the placements between:
    /// each step is a few instructions, an unrank two binary searches of dependent loads.
    const STEPS: u64 = 16;

    #[inline]
    pub fn unindex(&mut self, i: u64) -> (Bitboard, Bitboard) {
        let ix = self.index;
        if !(self.start..self.end).contains(&i) {
            assert!(i < ix.size, "slot {i} out of range for key {}", ix.key);
            let class = (i / ix.per_class) as u32;
            self.start = class as u64 * ix.per_class;
            self.end = self.start + ix.per_class;
            self.canon = ix.patterns.canonical(class);
            self.free = ix.all & !self.canon;
            self.slot = u64::MAX; // no placement of this class to step from
        }
        if i >= self.slot && i - self.slot <= Self::STEPS {
            for _ in self.slot..i {
                self.x = next_combination(self.x);
            }
        } else {
            self.x = ix.placement(i - self.start);
        }
        self.slot = i;
        ix.orient(self.canon, pdep(self.x, self.free))
    }
}

/// What the pattern side of a position determines: the symmetry to apply to the other side,
/// the class, and the points left free.
#[derive(Copy, Clone, Debug)]
struct PatternAt {
    sym: usize,
    class: u32,
    free: u32,
    symmetric: bool,
}

#[derive(Copy, Clone, Debug)]
enum FixedSide {
    /// The fixed side is the pattern side: only the other side's placement is left to rank.
    Pattern(PatternAt),
    /// The fixed side is the ranked side: nothing to share, each call is a full index.
    Ranked(u32),
}

/// An index with one side's stones fixed ([`Index::with_us`], [`Index::with_them`]). When the
/// fixed side is the one the index classifies (the side with more stones), each call only
/// maps and ranks the other side: several times faster than [`Index::index`].
#[derive(Copy, Clone, Debug)]
pub struct Fixed<'a> {
    index: &'a Index,
    side: FixedSide,
}

impl Fixed<'_> {
    /// Whether a symmetry other than the identity maps the fixed stones to themselves. Known
    /// from the class where they are the pattern side; else read from the pattern tables of
    /// their own number of stones (a set is fixed by a symmetry exactly when its canonical
    /// pattern is), which are built on first use.
    #[inline]
    pub fn fixed_symmetric(&self) -> bool {
        match self.side {
            FixedSide::Pattern(at) => at.symmetric,
            FixedSide::Ranked(q) => {
                let ix = self.index;
                let patterns = ix.tables.patterns(q.count_ones());
                match ix.shape {
                    Shape::Board2Free2 => patterns.symmetry_in::<2>(q).1,
                    Shape::Board3Free2 | Shape::Board3Free3 => patterns.symmetry_in::<3>(q).1,
                    Shape::Any => patterns.symmetry_in::<4>(q).1,
                }
            }
        }
    }

    /// The slot of the position made of the fixed stones and `other`.
    #[inline(always)]
    pub fn index(&self, other: Bitboard) -> u64 {
        let ix = self.index;
        match self.side {
            FixedSide::Pattern(at) => match ix.shape {
                Shape::Board2Free2 => ix.place_in::<2, 2>(&at, other.bits()),
                Shape::Board3Free2 => ix.place_in::<3, 2>(&at, other.bits()),
                Shape::Board3Free3 => ix.place_in::<3, 3>(&at, other.bits()),
                Shape::Any => ix.place_in::<4, 4>(&at, other.bits()),
            },
            // The fixed side is the ranked one: (p, q) = (other, fixed).
            FixedSide::Ranked(q) => match ix.shape {
                Shape::Board2Free2 => ix.locate::<2, 2>(other.bits(), q),
                Shape::Board3Free2 => ix.locate::<3, 2>(other.bits(), q),
                Shape::Board3Free3 => ix.locate::<3, 3>(other.bits(), q),
                Shape::Any => ix.locate::<4, 4>(other.bits(), q),
            },
        }
    }

    /// The slots of the positions made of the fixed stones and `other` with one point of
    /// `added` more, passed to `f` in the order of the points. Where the fixed side is the
    /// pattern side, `other` is mapped once and each point by one load, not the whole set
    /// once per point: the quiet placements of a position of the placement pass all add one
    /// point to the same stones.
    #[inline(always)]
    pub fn for_each_added(&self, other: Bitboard, added: Bitboard, mut f: impl FnMut(u64)) {
        let ix = self.index;
        let q = other.bits();
        match self.side {
            FixedSide::Pattern(at) => match ix.shape {
                Shape::Board2Free2 => ix.each_added::<2, 2>(&at, q, added, f),
                Shape::Board3Free2 => ix.each_added::<3, 2>(&at, q, added, f),
                Shape::Board3Free3 => ix.each_added::<3, 3>(&at, q, added, f),
                Shape::Any => ix.each_added::<4, 4>(&at, q, added, f),
            },
            FixedSide::Ranked(_) => {
                for p in added {
                    f(self.index(other.with(p)))
                }
            }
        }
    }
}

/// The number of slots of a key's index, computed without building tables.
pub fn slots(board: &Board, key: Key) -> u64 {
    let n = board.len() as u32;
    let (m, o) = (key.us as u32, key.them as u32);
    if m + o > n {
        return 0;
    }
    let (p, q) = (m.max(o), m.min(o));
    symmetry::classes(board, Key::moving(p as u8, 0)) * binom(n - p, q)
}

impl core::fmt::Debug for Index {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Index")
            .field("board", &self.board().name())
            .field("key", &self.key)
            .field("size", &self.size)
            .finish()
    }
}
