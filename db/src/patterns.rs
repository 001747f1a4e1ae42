//! The classes of one side's stone patterns under the symmetry group, in compact tables.
//!
//! Every pattern needs a symmetry that takes it to its class's canonical pattern (the
//! numerically smallest image), and the index needs the class number of that canonical pattern.
//! A table of (class, symmetry) per pattern costs 4 bytes × C(24, 9) = 5 MiB for 9 stones; it
//! stays in L3 only while nothing else needs the cache, and measured here its look-ups went
//! from 70 M/s on a quiet machine to 17-23 M/s while another process used the other core.
//! So the tables are split by what each look-up needs:
//! - a symmetry per pattern, 4 bits (with at most 16 symmetries), indexed by the pattern's
//!   colex rank: 640 KiB for 9 stones;
//! - the class of a canonical pattern by rank/select over colex ranks: one bit per pattern and
//!   a running count per 64 of them, 16 bytes per 64 patterns (320 KiB for 9 stones);
//! - one bit per class: the canonical pattern is fixed by a symmetry other than the identity,
//!   the rare case where the other side must be canonicalised further.
//!
//! About 1 MiB in all, so look-ups hit L2/L3 even under pressure, for a second dependent
//! look-up per call (measured: 50 M/s steady for 9-9 where the big table gave 23-70).

use morris_engine::Board;

use crate::bits::next_combination;
use crate::colex::{binom, rank, rank_in};
use crate::huge::HugeTable;
use crate::symmetry::Symmetries;

/// 64 patterns (by colex rank): which are canonical, and how many canonical ones come before.
#[derive(Copy, Clone, Default)]
#[repr(C, align(16))]
struct RankWord {
    canonical: u64,
    before: u32,
}

pub struct PatternClasses {
    stones: u32,
    /// Bits per symmetry field: 4, or 8 for groups of more than 16 symmetries.
    field_bits: u32,
    /// log2 of the fields per u32 word.
    fields_log2: u32,
    /// Per pattern (by colex rank), a symmetry taking it to its canonical pattern.
    sym_fields: HugeTable,
    ranks: Vec<RankWord>,
    /// Per class: the canonical pattern has a nontrivial stabilizer.
    symmetric: Vec<u64>,
    /// Per class, the canonical pattern.
    canonical: Vec<u32>,
    /// Per class, the symmetries other than the identity that fix the canonical pattern.
    stabilizer: Vec<u32>,
}

impl PatternClasses {
    /// Enumerates every `stones`-subset of the board's points in colex order; the canonical
    /// ones, numbered in that order, are the classes.
    pub fn build(board: &Board, syms: &Symmetries, stones: u32) -> PatternClasses {
        let n = board.len() as u32;
        assert!(stones <= n);
        let (field_bits, fields_log2) = if syms.len() <= 16 { (4, 3) } else { (8, 2) };
        let total = binom(n, stones) as usize;
        let mut sym_fields = HugeTable::zeroed((total >> fields_log2) + 1);
        let mut ranks = vec![RankWord::default(); total / 64 + 1];
        let mut canonical = Vec::new();
        let mut stabilizer = Vec::new();
        let mut x = (1u64 << stones).wrapping_sub(1) as u32;
        for r in 0..total {
            debug_assert_eq!(rank(x) as usize, r);
            let mut best = x;
            let mut best_sym = syms.identity();
            for s in 0..syms.len() {
                let image = syms.apply(s, x);
                if image < best {
                    best = image;
                    best_sym = s;
                }
            }
            if best == x {
                let mut fixers = 0u32;
                for s in 0..syms.len() {
                    if syms.apply(s, x) == x {
                        fixers |= 1 << s;
                    }
                }
                ranks[r / 64].canonical |= 1 << (r % 64);
                canonical.push(x);
                stabilizer.push(fixers & syms.non_identity());
            }
            sym_fields[r >> fields_log2] |=
                (best_sym as u32) << ((r & ((1 << fields_log2) - 1)) as u32 * field_bits);
            if r + 1 < total {
                x = next_combination(x);
            }
        }
        let mut before = 0;
        for w in ranks.iter_mut() {
            w.before = before;
            before += w.canonical.count_ones();
        }
        let mut symmetric = vec![0u64; canonical.len() / 64 + 1];
        for (class, &stab) in stabilizer.iter().enumerate() {
            if stab != 0 {
                symmetric[class / 64] |= 1 << (class % 64);
            }
        }
        PatternClasses {
            stones,
            field_bits,
            fields_log2,
            sym_fields,
            ranks,
            symmetric,
            canonical,
            stabilizer,
        }
    }

    pub fn stones(&self) -> u32 {
        self.stones
    }

    /// Number of classes.
    #[inline]
    pub fn len(&self) -> usize {
        self.canonical.len()
    }

    pub fn is_empty(&self) -> bool {
        self.canonical.is_empty()
    }

    /// A symmetry taking `pattern` (exactly `stones()` stones among the first `8 * BYTES`
    /// points) to its canonical pattern.
    #[inline(always)]
    pub fn symmetry_in<const BYTES: usize>(&self, pattern: u32) -> usize {
        let r = rank_in::<BYTES>(pattern) as usize;
        let word = self.sym_fields[r >> self.fields_log2];
        let shift = (r & ((1 << self.fields_log2) - 1)) as u32 * self.field_bits;
        ((word >> shift) & ((1 << self.field_bits) - 1)) as usize
    }

    /// The class of a canonical pattern (among the first `8 * BYTES` points).
    #[inline(always)]
    pub fn class_in<const BYTES: usize>(&self, canonical: u32) -> u32 {
        let r = rank_in::<BYTES>(canonical) as usize;
        let w = self.ranks[r / 64];
        debug_assert!(w.canonical & (1 << (r % 64)) != 0, "{canonical:#x} not canonical");
        w.before + (w.canonical & ((1u64 << (r % 64)) - 1)).count_ones()
    }

    /// Whether the class's canonical pattern is fixed by a symmetry other than the identity.
    #[inline(always)]
    pub fn is_symmetric(&self, class: u32) -> bool {
        (self.symmetric[class as usize / 64] >> (class % 64)) & 1 != 0
    }

    #[inline]
    pub fn canonical(&self, class: u32) -> u32 {
        self.canonical[class as usize]
    }

    /// The symmetries other than the identity that fix the class's canonical pattern.
    #[inline]
    pub fn stabilizer(&self, class: u32) -> u32 {
        self.stabilizer[class as usize]
    }

    /// Bytes of memory the tables take.
    pub fn memory(&self) -> usize {
        4 * self.sym_fields.len()
            + 16 * self.ranks.len()
            + 8 * self.symmetric.len()
            + 4 * (self.canonical.len() + self.stabilizer.len())
    }
}
