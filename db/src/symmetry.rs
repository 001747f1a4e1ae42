//! A board's symmetry group as byte-wise look-up tables, and exact class counts.
//!
//! Mapping a set of points through a permutation point by point costs a loop per stone; the
//! index does it several times per call. Splitting the set into bytes and looking up the image
//! of each byte (the images of disjoint bytes are disjoint, so they combine with `|`) makes it
//! four loads from a table of 4 KiB per symmetry, which stays in L1/L2.

use morris_engine::board::Permutation;
use morris_engine::Board;

use crate::colex::binom;
use crate::key::Key;

/// The symmetries of one board, ready to apply to bit masks.
pub struct Symmetries {
    /// `bytes[s][j][b]`: the image under symmetry `s` of byte value `b` at byte position `j`.
    bytes: Vec<[[u32; 256]; 4]>,
    /// `points[s][p]`: the image of point `p` alone, one load where a byte table takes one
    /// per byte of the board.
    points: Vec<[u32; 32]>,
    perms: Vec<Permutation>,
    /// Bit `s` set when symmetry `s` is not the identity; the index never needs to try those.
    non_identity: u32,
}

impl Symmetries {
    pub fn new(board: &Board) -> Symmetries {
        let perms: Vec<Permutation> = board.symmetries().to_vec();
        assert!(
            !perms.is_empty() && perms.len() <= 32,
            "board `{}`: the index packs a symmetry number into 5 bits and a set of them into \
             a u32, so it supports 1 to 32 symmetries, not {}",
            board.name(),
            perms.len()
        );
        let n = board.len();
        let mut bytes = vec![[[0u32; 256]; 4]; perms.len()];
        let mut non_identity = 0;
        for (s, perm) in perms.iter().enumerate() {
            if (0..n).any(|p| perm[p] as usize != p) {
                non_identity |= 1 << s;
            }
            for (j, table) in bytes[s].iter_mut().enumerate() {
                for (b, image) in table.iter_mut().enumerate() {
                    let set = ((b as u64) << (8 * j)) as u32 & board.all().bits();
                    *image = Board::map(perm, morris_engine::Bitboard(set)).bits();
                }
            }
        }
        let points = bytes
            .iter()
            .map(|t| core::array::from_fn(|p| t[p / 8][1 << (p % 8)]))
            .collect();
        Symmetries {
            bytes,
            points,
            perms,
            non_identity,
        }
    }

    /// Number of symmetries, the identity included.
    #[inline]
    pub fn len(&self) -> usize {
        self.perms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.perms.is_empty()
    }

    /// The image of the point set `x` under symmetry `s`.
    #[inline(always)]
    pub fn apply(&self, s: usize, x: u32) -> u32 {
        let t = &self.bytes[s];
        t[0][(x & 0xff) as usize]
            | t[1][((x >> 8) & 0xff) as usize]
            | t[2][((x >> 16) & 0xff) as usize]
            | t[3][(x >> 24) as usize]
    }

    /// [`Symmetries::apply`] to a subset of the first `8 * BYTES` points.
    #[inline(always)]
    pub fn apply_in<const BYTES: usize>(&self, s: usize, x: u32) -> u32 {
        let t = &self.bytes[s];
        let mut out = t[0][(x & 0xff) as usize];
        let mut j = 1;
        while j < BYTES {
            out |= t[j][((x >> (8 * j)) & 0xff) as usize];
            j += 1;
        }
        out
    }

    /// The image of point `p` (below 32) under symmetry `s`, as a set.
    #[inline(always)]
    pub fn apply_point(&self, s: usize, p: u8) -> u32 {
        self.points[s][p as usize]
    }

    /// The number of the identity (0 on the engine's boards, which list it first).
    pub fn identity(&self) -> usize {
        (!self.non_identity).trailing_zeros() as usize
    }

    /// The symmetries that are not the identity, as a bit set.
    #[inline]
    pub fn non_identity(&self) -> u32 {
        self.non_identity
    }

    pub fn permutations(&self) -> &[Permutation] {
        &self.perms
    }
}

/// The cycle lengths of a permutation of the first `n` points.
fn cycle_lengths(perm: &Permutation, n: usize) -> Vec<usize> {
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        let mut len = 0;
        let mut p = start;
        while !seen[p] {
            seen[p] = true;
            p = perm[p] as usize;
            len += 1;
        }
        if len > 0 {
            out.push(len);
        }
    }
    out
}

/// The exact number of classes of positions of `key` under the board's symmetry group
/// (positions with `key.us` and `key.them` stones, side to move fixed), by Burnside's lemma:
/// the average over the group of the number of positions each symmetry fixes.
///
/// A position is fixed by a permutation exactly when each side's stones are a union of its
/// cycles, so the fixed positions are counted by choosing cycles for each side.
pub fn classes(board: &Board, key: Key) -> u64 {
    let (m, o) = (key.us as usize, key.them as usize);
    let n = board.len();
    if m + o > n {
        return 0;
    }
    let group = board.symmetries();
    let fixed: u64 = group
        .iter()
        .map(|perm| {
            // ways[a][b]: unions of distinct cycles covering a points for us and b for them.
            let mut ways = vec![vec![0u64; o + 1]; m + 1];
            ways[0][0] = 1;
            for len in cycle_lengths(perm, n) {
                for a in (0..=m).rev() {
                    for b in (0..=o).rev() {
                        let mut add = 0;
                        if a >= len {
                            add += ways[a - len][b];
                        }
                        if b >= len {
                            add += ways[a][b - len];
                        }
                        ways[a][b] += add;
                    }
                }
            }
            ways[m][o]
        })
        .sum();
    debug_assert_eq!(fixed % group.len() as u64, 0);
    fixed / group.len() as u64
}

/// Number of positions of `key` (symmetric images counted separately).
pub fn positions(board: &Board, key: Key) -> u64 {
    let n = board.len() as u32;
    let (m, o) = (key.us as u32, key.them as u32);
    if m + o > n {
        return 0;
    }
    binom(n, m) * binom(n - m, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_engine::board::{DARA, NINE, THREE};
    use morris_engine::Bitboard;

    #[test]
    fn byte_tables_agree_with_the_permutations() {
        let syms = Symmetries::new(&NINE);
        assert_eq!(syms.len(), 16);
        assert_eq!(syms.non_identity(), 0xfffe);
        assert_eq!(syms.identity(), 0);
        let mut s = 0x9e37_79b9u32;
        for _ in 0..10_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let x = s & NINE.all().bits();
            for (i, perm) in syms.permutations().iter().enumerate() {
                assert_eq!(syms.apply(i, x), Board::map(perm, Bitboard(x)).bits());
            }
        }
    }

    #[test]
    fn burnside_on_small_cases() {
        // One stone: corners and side middles, each either on the outer or inner square (the
        // ring swap joins those) or on the middle square; on the 3x3 board corners, edges and
        // the centre.
        assert_eq!(classes(&NINE, Key::moving(1, 0)), 4);
        assert_eq!(classes(&THREE, Key::moving(1, 0)), 3);
        assert_eq!(classes(&NINE, Key::moving(0, 0)), 1);
        assert_eq!(classes(&NINE, Key::moving(20, 5)), 0);
        // Tic-tac-toe after one X and one O: the well-known 12 classes.
        assert_eq!(classes(&THREE, Key::moving(1, 1)), 12);
        // One stone on the 6x5 grid: (30 + 6 on the middle row fixed by the top-bottom flip) / 4.
        assert_eq!(classes(&DARA, Key::moving(1, 0)), 9);
    }
}
