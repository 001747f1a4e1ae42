//! Sorting of slot numbers by their digits (least significant digit first), on every thread.
//!
//! A moving-phase level lists up to hundreds of millions of slots, sorted so that its pass
//! reads the cells in address order; a comparison sort of those lists took about a tenth of
//! a large pair's cycles (`perf`). A few passes over the digits of the slot numbers actually
//! used cost a fraction of that.

use rayon::prelude::*;

/// Lists shorter than this are sorted by comparison: the passes' histograms would dominate.
const SHORT: usize = 1 << 15;
/// Elements a task counts and scatters in each pass.
const TASK: usize = 1 << 18;
/// The widest digit: its counters (`1 << MAX_BITS` of them per task) stay in the L1 cache
/// and its write streams within the TLB's reach.
const MAX_BITS: u32 = 11;

/// A pointer handed to the tasks of a scatter, each of which writes its own elements.
struct Out(*mut u32);
// SAFETY: the tasks of a scatter write disjoint indices of one live buffer (their offsets
// partition it), and nothing reads it until every task has ended.
unsafe impl Sync for Out {}

impl Out {
    /// # Safety
    /// `at` is inside the buffer and no other task writes it.
    unsafe fn write(&self, at: usize, x: u32) {
        // SAFETY: the caller's contract.
        unsafe { self.0.add(at).write(x) }
    }
}

/// Sorts `v` ascending.
pub fn sort_slots(v: &mut Vec<u32>) {
    if v.len() < SHORT {
        v.sort_unstable();
        return;
    }
    let max = v.par_iter().copied().max().unwrap_or(0);
    let bits = u32::BITS - max.leading_zeros();
    let passes = bits.div_ceil(MAX_BITS).max(1);
    let width = bits.div_ceil(passes);
    let mut from = std::mem::take(v);
    let mut to = vec![0u32; from.len()];
    for pass in 0..passes {
        scatter(&from, &mut to, pass * width, width);
        std::mem::swap(&mut from, &mut to);
    }
    *v = from;
}

/// Writes `from` into `to` ordered by the digit of `width` bits at `shift`, keeping the order
/// of equal digits (so that the passes compose into a sort).
fn scatter(from: &[u32], to: &mut [u32], shift: u32, width: u32) {
    let buckets = 1usize << width;
    let mask = (buckets - 1) as u32;
    let digit = move |x: u32| ((x >> shift) & mask) as usize;
    let mut counts: Vec<Vec<usize>> = from
        .par_chunks(TASK)
        .map(|chunk| {
            let mut count = vec![0usize; buckets];
            for &x in chunk {
                count[digit(x)] += 1;
            }
            count
        })
        .collect();
    // Each task's first index per digit: digit-major, then in task order.
    let mut next = 0;
    for b in 0..buckets {
        for count in &mut counts {
            let n = count[b];
            count[b] = next;
            next += n;
        }
    }
    assert_eq!(next, to.len(), "a scatter fills its output");
    let out = Out(to.as_mut_ptr());
    from.par_chunks(TASK)
        .zip(counts.par_iter_mut())
        .for_each(|(chunk, offsets)| {
            for &x in chunk {
                let at = &mut offsets[digit(x)];
                // SAFETY: `*at` is below `to.len()` (the offsets partition it, asserted
                // above) and no other task is given this index.
                unsafe { out.write(*at, x) };
                *at += 1;
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(mut v: Vec<u32>) {
        let mut expected = v.clone();
        expected.sort_unstable();
        sort_slots(&mut v);
        assert_eq!(v, expected);
    }

    #[test]
    fn sorts_long_lists_of_every_width() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for bits in [1, 7, 11, 12, 23, 29, 32] {
            let v = (0..SHORT * 3 + 17)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x >> 32) as u32 >> (32 - bits)
                })
                .collect();
            check(v);
        }
    }

    #[test]
    fn sorts_short_sorted_and_reversed_lists() {
        check(vec![]);
        check(vec![5, 3, 3, 0, u32::MAX]);
        check((0..SHORT as u32 * 2).collect());
        check((0..SHORT as u32 * 2).rev().collect());
        check(vec![0; SHORT * 2]);
    }
}
