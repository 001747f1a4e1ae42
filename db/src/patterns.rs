//! The classes of one side's stone patterns under the symmetry group, in compact tables.
//!
//! Every pattern needs a symmetry that takes it to its class's canonical pattern (the
//! numerically smallest image), and the index needs the class number of that canonical pattern.
//! One table of (class, symmetry) per pattern, by colex rank, is 4 bytes × C(24, 9) = 5 MiB for
//! 9 stones. Measured on this machine's VM, whose L3 behaves like ~8 MiB shared with whatever
//! else runs: 70-78 M index/s on 9-9 when the machine was quiet, but 8-30 M/s while other
//! processes used the other core. So the tables are split by what each look-up needs:
//! - one byte per pattern (by colex rank): the symmetry, and in the top bit whether the
//!   canonical pattern is symmetric itself (the rare case where the other side must be
//!   canonicalised further): 1.25 MiB for 9 stones, backed by a huge page;
//! - the class of a canonical pattern, by rank/select over colex ranks: one bit per pattern
//!   and a running count per 64 of them, 16 bytes per 64 patterns (320 KiB for 9 stones).
//!
//! A second dependent look-up per call makes the quiet-machine rate lower (about 45-50 M/s on
//! 9-9), but it stays there under load, where the large table fell to a third of it.

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

const SYMMETRIC: u32 = 0x80;

pub struct PatternClasses {
    stones: u32,
    /// Per pattern (by colex rank), one byte: a symmetry taking it to its canonical pattern,
    /// and in the top bit whether that canonical pattern is symmetric itself. Four per word.
    sym_fields: HugeTable,
    ranks: Vec<RankWord>,
    /// Per class, the canonical pattern.
    canonical: Vec<u32>,
    /// Per class, the symmetries other than the identity that fix the canonical pattern.
    stabilizer: Vec<u32>,
}

impl PatternClasses {
    /// Enumerates every `stones`-subset of the board's points in colex order; the canonical
    /// ones, numbered in that order, are the classes.
    ///
    /// A pattern is canonical exactly when no smaller pattern's orbit reached it, so each
    /// canonical pattern marks its whole orbit (the symmetry back to it stored at each image)
    /// and the other patterns cost one bit test: about one symmetry applied per pattern
    /// instead of one per pattern and symmetry (90 ms of a query of a 9-9 position went
    /// into this table before).
    pub fn build(board: &Board, syms: &Symmetries, stones: u32) -> PatternClasses {
        let n = board.len() as u32;
        assert!(stones <= n);
        let total = binom(n, stones) as usize;
        let mut sym_fields = HugeTable::zeroed(total / 4 + 1);
        let mut ranks = vec![RankWord::default(); total / 64 + 1];
        let mut reached = vec![0u64; total / 64 + 1];
        let mut canonical = Vec::new();
        let mut stabilizer = Vec::new();
        let inverse: Vec<usize> = (0..syms.len())
            .map(|s| {
                (0..syms.len())
                    .find(|&t| (0..n).all(|p| syms.apply(t, syms.apply(s, 1 << p)) == 1 << p))
                    .expect("a symmetry group has inverses")
            })
            .collect();
        let mut x = (1u64 << stones).wrapping_sub(1) as u32;
        for r in 0..total {
            debug_assert_eq!(rank(x) as usize, r);
            if reached[r / 64] & (1 << (r % 64)) == 0 {
                let fixers = (0..syms.len())
                    .filter(|&s| syms.apply(s, x) == x)
                    .fold(0u32, |f, s| f | 1 << s);
                let symmetric = fixers & syms.non_identity() != 0;
                ranks[r / 64].canonical |= 1 << (r % 64);
                canonical.push(x);
                stabilizer.push(fixers & syms.non_identity());
                let flag = if symmetric { SYMMETRIC } else { 0 };
                let mut mark = |image: usize, sym: usize| {
                    if reached[image / 64] & (1 << (image % 64)) == 0 {
                        reached[image / 64] |= 1 << (image % 64);
                        sym_fields[image / 4] |= (sym as u32 | flag) << (8 * (image % 4));
                    }
                };
                // The canonical pattern itself keeps the identity.
                mark(r, syms.identity());
                for (s, &back) in inverse.iter().enumerate() {
                    mark(rank(syms.apply(s, x)) as usize, back);
                }
            }
            if r + 1 < total {
                x = next_combination(x);
            }
        }
        let mut before = 0;
        for w in ranks.iter_mut() {
            w.before = before;
            before += w.canonical.count_ones();
        }
        PatternClasses {
            stones,
            sym_fields,
            ranks,
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
    /// points) to its canonical pattern, and whether the canonical pattern is symmetric (fixed
    /// by a symmetry other than the identity).
    #[inline(always)]
    pub fn symmetry_in<const BYTES: usize>(&self, pattern: u32) -> (usize, bool) {
        let r = rank_in::<BYTES>(pattern) as usize;
        let field = self.sym_fields[r / 4] >> (8 * (r % 4));
        ((field & !SYMMETRIC & 0xff) as usize, field & SYMMETRIC != 0)
    }

    /// The class of a canonical pattern (among the first `8 * BYTES` points).
    #[inline(always)]
    pub fn class_in<const BYTES: usize>(&self, canonical: u32) -> u32 {
        let r = rank_in::<BYTES>(canonical) as usize;
        let w = self.ranks[r / 64];
        debug_assert!(
            w.canonical & (1 << (r % 64)) != 0,
            "{canonical:#x} not canonical"
        );
        w.before + (w.canonical & ((1u64 << (r % 64)) - 1)).count_ones()
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

    /// The tables as plain data, for the cache file ([`crate::pattern_cache`]): the symmetry
    /// fields, per 64 patterns the canonical bits and the classes before them, the canonical
    /// patterns and their stabilisers.
    #[allow(clippy::type_complexity)]
    pub fn parts(&self) -> (&[u32], Vec<(u64, u32)>, &[u32], &[u32]) {
        let ranks = self.ranks.iter().map(|w| (w.canonical, w.before)).collect();
        (&self.sym_fields, ranks, &self.canonical, &self.stabilizer)
    }

    /// The tables back from [`parts`](PatternClasses::parts); `None` when they do not fit
    /// together (the class counts disagree with the canonical bits).
    pub fn from_parts(
        stones: u32,
        fields: &[u32],
        ranks: Vec<(u64, u32)>,
        canonical: Vec<u32>,
        stabilizer: Vec<u32>,
    ) -> Option<PatternClasses> {
        let mut before = 0u32;
        for &(bits, b) in &ranks {
            if b != before {
                return None;
            }
            before += bits.count_ones();
        }
        if before as usize != canonical.len() || canonical.len() != stabilizer.len() {
            return None;
        }
        let mut sym_fields = HugeTable::zeroed(fields.len());
        sym_fields.copy_from_slice(fields);
        Some(PatternClasses {
            stones,
            sym_fields,
            ranks: ranks
                .into_iter()
                .map(|(canonical, before)| RankWord { canonical, before })
                .collect(),
            canonical,
            stabilizer,
        })
    }

    /// Bytes of memory the tables take.
    pub fn memory(&self) -> usize {
        4 * self.sym_fields.len()
            + core::mem::size_of::<RankWord>() * self.ranks.len()
            + 4 * (self.canonical.len() + self.stabilizer.len())
    }
}
