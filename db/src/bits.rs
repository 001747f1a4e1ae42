//! Bit-gather and bit-scatter (`pext`/`pdep`) and the next-combination step.
//!
//! Zen 3 and Intel since Haswell run `pext`/`pdep` in a few cycles, and the index needs one of
//! them per call. Older AMD parts microcode them (hundreds of cycles) and other architectures
//! lack them, so a portable version is always compiled and used unless the build targets BMI2.

/// Gathers the bits of `x` selected by `mask` into the low bits of the result.
#[inline(always)]
pub fn pext(x: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees that the target supports BMI2.
        unsafe { core::arch::x86_64::_pext_u32(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pext_portable(x, mask)
    }
}

/// Scatters the low bits of `x` to the positions of the set bits of `mask`.
#[inline(always)]
pub fn pdep(x: u32, mask: u32) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the cfg guarantees that the target supports BMI2.
        unsafe { core::arch::x86_64::_pdep_u32(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        pdep_portable(x, mask)
    }
}

#[inline]
pub fn pext_portable(x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    out
}

#[inline]
pub fn pdep_portable(mut x: u32, mut mask: u32) -> u32 {
    let mut out = 0;
    while mask != 0 && x != 0 {
        let low = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= low;
        }
        x >>= 1;
        mask &= mask - 1;
    }
    out
}

/// The next larger number with the same number of set bits (Gosper's hack): the successor of
/// `x` in colexicographic order of subsets. `x` must be non-zero and have a successor in 32 bits.
#[inline(always)]
pub fn next_combination(x: u32) -> u32 {
    let low = x & x.wrapping_neg();
    let ripple = x.wrapping_add(low);
    let ones = ((x ^ ripple) >> 2) >> low.trailing_zeros();
    ripple | ones
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_matches_the_native_instructions() {
        let mut s = 0x1234_5678_9abc_def0u64;
        for _ in 0..100_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let (x, m) = (s as u32, (s >> 32) as u32);
            assert_eq!(pext(x, m), pext_portable(x, m));
            assert_eq!(pdep(x, m), pdep_portable(x, m));
            assert_eq!(
                pext(pdep(x, m), m),
                x & ((1u64 << m.count_ones()) - 1) as u32
            );
        }
    }

    #[test]
    fn next_combination_walks_colex_order() {
        let mut x = 0b111u32;
        let mut seen = vec![x];
        while x < 0b111 << 5 {
            x = next_combination(x);
            seen.push(x);
        }
        let expected: Vec<u32> = (0u32..256).filter(|v| v.count_ones() == 3).collect();
        assert_eq!(seen, expected);
        assert_eq!(next_combination(1 << 30), 1 << 31);
        assert_eq!(next_combination(0b11 << 29), (1 << 31) | 1);
    }
}
