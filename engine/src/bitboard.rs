//! A set of board points packed in one machine word.
//!
//! Every board of the family has at most 32 points, so one `u32` holds a side's stones and set
//! operations are single instructions. The methods are `const fn` so that the board tables in
//! [`crate::board`] can be computed at compile time.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub};

/// Index of a point on its board (0 .. board.len()).
pub type Point = u8;

/// A set of points: bit `p` is set when point `p` is in the set.
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u32);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding the single point `p`.
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1 << p)
    }

    /// The set of the first `n` points (`n` <= 32).
    #[inline]
    pub const fn first_n(n: u32) -> Bitboard {
        if n >= 32 {
            Bitboard(u32::MAX)
        } else {
            Bitboard((1u32 << n) - 1)
        }
    }

    #[inline]
    pub const fn bits(self) -> u32 {
        self.0
    }

    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 & (1 << p) != 0
    }

    #[inline]
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | (1 << p))
    }

    #[inline]
    pub const fn without(self, p: Point) -> Bitboard {
        Bitboard(self.0 & !(1 << p))
    }

    #[inline]
    pub const fn toggled(self, p: Point) -> Bitboard {
        Bitboard(self.0 ^ (1 << p))
    }

    #[inline]
    pub const fn union(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 | other.0)
    }

    #[inline]
    pub const fn intersect(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & other.0)
    }

    #[inline]
    pub const fn minus(self, other: Bitboard) -> Bitboard {
        Bitboard(self.0 & !other.0)
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn is_subset_of(self, other: Bitboard) -> bool {
        self.0 & !other.0 == 0
    }

    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest point of the set, if any.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as Point)
        }
    }
}

/// Iterates over the points of the set, lowest first.
impl Iterator for Bitboard {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let p = self.0.trailing_zeros() as Point;
        self.0 &= self.0 - 1;
        Some(p)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#010x})", self.0)
    }
}

macro_rules! binop {
    ($tr:ident, $m:ident, $atr:ident, $am:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $m(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $am(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        self.minus(rhs)
    }
}

/// Complement within 32 bits; intersect with the board's point set where it matters.
impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_points_in_order() {
        let b: Bitboard = [3u8, 0, 17].into_iter().collect();
        assert_eq!(b.count(), 3);
        assert_eq!(b.collect::<Vec<_>>(), vec![0, 3, 17]);
        assert_eq!(b.first(), Some(0));
        assert_eq!(Bitboard::EMPTY.first(), None);
    }

    #[test]
    fn set_operations() {
        let a = Bitboard(0b1100);
        let b = Bitboard(0b1010);
        assert_eq!(a & b, Bitboard(0b1000));
        assert_eq!(a | b, Bitboard(0b1110));
        assert_eq!(a - b, Bitboard(0b0100));
        assert!(Bitboard(0b1000).is_subset_of(a));
        assert!(!b.is_subset_of(a));
        assert_eq!(Bitboard::first_n(24).count(), 24);
        assert_eq!(Bitboard::first_n(32).count(), 32);
    }
}
