//! Dense ranking of k-subsets of at most 32 points in colexicographic order.
//!
//! Colex order of subsets of equal size is the numeric order of their bit masks, so the rank
//! of a subset is monotone in its mask, Gosper's next-combination step walks ranks in order,
//! and comparing two ranks needs no ranking at all. The rank {c_1 < .. < c_k} = sum C(c_i, i)
//! is summed byte by byte from a table that depends on the byte's position and on how many
//! points lie below it: four look-ups and three popcounts for any board of up to 32 points.

/// `BINOM[n][k]` = C(n, k) for n, k <= 32.
pub static BINOM: [[u64; 33]; 33] = binomials();

const fn binomials() -> [[u64; 33]; 33] {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k), zero when k > n.
#[inline]
pub fn binom(n: u32, k: u32) -> u64 {
    if k > n {
        0
    } else {
        BINOM[n as usize][k as usize]
    }
}

/// Start of byte `j`'s block in [`RANK`]: byte `j` has `8j + 1` possible counts below it.
const BASE: [usize; 4] = [0, 256, 256 * 10, 256 * 27];
const RANK_LEN: usize = 256 * 52;

/// `RANK[BASE[j] + below * 256 + byte]`: the rank contribution of the points of byte `j` when
/// `below` points of the subset lie in the lower bytes. Every value is at most a full rank,
/// which is below C(32, 16) < 2^32.
static RANK: [u32; RANK_LEN] = rank_table();

const fn rank_table() -> [u32; RANK_LEN] {
    let c = binomials();
    let mut t = [0u32; RANK_LEN];
    let mut j = 0;
    while j < 4 {
        let mut below = 0;
        while below <= 8 * j {
            let mut byte = 0;
            while byte < 256 {
                let mut sum = 0u64;
                let mut seen = 0;
                let mut bit = 0;
                while bit < 8 {
                    if byte & (1 << bit) != 0 {
                        seen += 1;
                        sum += c[8 * j + bit][below + seen];
                    }
                    bit += 1;
                }
                t[BASE[j] + below * 256 + byte] = sum as u32;
                byte += 1;
            }
            below += 1;
        }
        j += 1;
    }
    t
}

/// The rank of the subset `x` among the subsets of its size, in colex order.
#[inline(always)]
pub fn rank(x: u32) -> u32 {
    let b0 = (x & 0xff) as usize;
    let b1 = ((x >> 8) & 0xff) as usize;
    let b2 = ((x >> 16) & 0xff) as usize;
    let b3 = (x >> 24) as usize;
    let k1 = (x & 0xff).count_ones() as usize;
    let k2 = (x & 0xffff).count_ones() as usize;
    let k3 = (x & 0xff_ffff).count_ones() as usize;
    // The indices are below RANK_LEN by construction (k_j <= 8j); the compiler cannot see it.
    RANK[b0]
        + RANK[BASE[1] + k1 * 256 + b1]
        + RANK[BASE[2] + k2 * 256 + b2]
        + RANK[BASE[3] + k3 * 256 + b3]
}

/// [`rank`] of a subset of the first `8 * BYTES` points.
#[inline(always)]
pub fn rank_in<const BYTES: usize>(x: u32) -> u32 {
    let mut sum = RANK[(x & 0xff) as usize];
    let mut j = 1;
    while j < BYTES {
        let below = (x & ((1u32 << (8 * j)) - 1)).count_ones() as usize;
        sum += RANK[BASE[j] + below * 256 + ((x >> (8 * j)) & 0xff) as usize];
        j += 1;
    }
    sum
}

/// Start of the block of top byte `j` (1..4) in [`BELOW`]: `8(j + 1) + 1` possible counts.
const UBASE: [usize; 4] = [0, 0, 256 * 17, 256 * 42];
const BELOW_LEN: usize = 256 * 75;

/// `BELOW[UBASE[j] + k * 256 + b]`: how many `k`-subsets of the first `8(j + 1)` points have
/// byte `j` below `b`. Monotone in `b`, so the top byte of the subset of rank `r` is the
/// largest `b` with `BELOW[.. b] <= r`, found by a branch-free binary search.
static BELOW: [u32; BELOW_LEN] = below_table();

const fn below_table() -> [u32; BELOW_LEN] {
    let c = binomials();
    let mut t = [0u32; BELOW_LEN];
    let mut j = 1;
    while j < 4 {
        let mut k = 0;
        while k <= 8 * (j + 1) {
            let mut sum = 0u64;
            let mut b = 0;
            while b < 256 {
                t[UBASE[j] + k * 256 + b] = sum as u32;
                let ones = (b as u32).count_ones() as usize;
                if ones <= k && k - ones <= 8 * j {
                    sum += c[8 * j][k - ones];
                }
                b += 1;
            }
            k += 1;
        }
        j += 1;
    }
    t
}

/// `LOW[k][r]`: the `k`-subset of 8 points with rank `r` (C(8, k) <= 70).
static LOW: [[u8; 70]; 9] = low_table();

const fn low_table() -> [[u8; 70]; 9] {
    let mut t = [[0u8; 70]; 9];
    let mut seen = [0usize; 9];
    let mut b = 0;
    while b < 256 {
        let k = (b as u32).count_ones() as usize;
        t[k][seen[k]] = b as u8;
        seen[k] += 1;
        b += 1;
    }
    t
}

/// The `k`-subset with rank `r` in colex order, among subsets of the first `8 * BYTES` points
/// (`r` < C(8 * BYTES, k)): a binary search of a 256-entry table per byte above the lowest,
/// then one look-up, instead of a search per element with a mispredicted exit each.
#[inline(always)]
pub fn unrank_in<const BYTES: usize>(r: u64, k: u32) -> u32 {
    debug_assert!(r < binom(8 * BYTES as u32, k));
    let mut r = r as u32;
    let mut k = k as usize;
    let mut x = 0u32;
    let mut j = BYTES - 1;
    while j > 0 {
        let t = &BELOW[UBASE[j] + k * 256..UBASE[j] + k * 256 + 256];
        let mut b = 0usize;
        let mut step = 128;
        while step > 0 {
            b += step * (t[b + step] <= r) as usize;
            step >>= 1;
        }
        r -= t[b];
        k -= (b as u32).count_ones() as usize;
        x |= (b as u32) << (8 * j);
        j -= 1;
    }
    x | LOW[k][r as usize] as u32
}

/// The `k`-subset of the first `n` points with rank `r` in colex order; `r` < C(n, k).
#[inline]
pub fn unrank(r: u64, k: u32, n: u32) -> u32 {
    debug_assert!(r < binom(n, k));
    unrank_in::<4>(r, k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::next_combination;

    #[test]
    fn ranks_walk_colex_order_densely() {
        for k in 0..=8u32 {
            let n = 14;
            let mut x = (1u32 << k) - 1;
            for r in 0..binom(n, k) {
                assert_eq!(rank(x) as u64, r, "k {k} x {x:b}");
                assert_eq!(unrank(r, k, n), x);
                assert_eq!(unrank_in::<2>(r, k), x);
                assert_eq!(unrank_in::<3>(r, k), x);
                if r + 1 < binom(n, k) {
                    x = next_combination(x);
                }
            }
        }
    }

    /// Every subset of the Nine Men's board's 24 points: the searches of [`unrank_in`] have
    /// an edge at every byte and every count to get wrong.
    #[test]
    fn unrank_inverts_rank_on_every_subset_of_24_points() {
        for x in 0..1u32 << 24 {
            let r = rank_in::<3>(x) as u64;
            assert_eq!(unrank_in::<3>(r, x.count_ones()), x, "{x:b}");
        }
    }

    #[test]
    fn ranks_high_bits() {
        for k in [1u32, 5, 12, 16, 20, 31, 32] {
            let top = if k == 32 {
                u32::MAX
            } else {
                ((1u32 << k) - 1) << (32 - k)
            };
            assert_eq!(rank(top) as u64, binom(32, k) - 1);
            assert_eq!(unrank(binom(32, k) - 1, k, 32), top);
        }
        for (k, r) in [(9u32, 4999u64), (12, 2_704_155), (3, 0), (24, 0), (1, 23)] {
            let x = unrank_in::<3>(r, k);
            assert_eq!((x.count_ones(), rank_in::<3>(x) as u64), (k, r));
            assert_eq!(unrank(r, k, 24), x);
        }
        assert_eq!(rank(0), 0);
        assert_eq!(unrank(0, 0, 0), 0);
        assert_eq!(unrank(0, 0, 24), 0);
    }
}
