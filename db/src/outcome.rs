//! The one value type of the project: what a position is worth to the side to move, with the
//! distance that goes with it.
//!
//! Two metrics share it. In the plain tables the distance is to the end of the game (a win is
//! always an odd number of plies away, a loss an even number, as the winner makes the last
//! move). Under the no-capture rule the distance is to the next zeroing ply (a capture or a
//! placement, or the move that ends the game) and has no parity: a forced losing capture is a
//! loss at distance 1. So the value is carried explicitly, never read from parity.

use core::cmp::Ordering;
use core::fmt;
use core::ops::Neg;

/// The game-theoretic value for the side to move, ordered best first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl Value {
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

impl Neg for Value {
    type Output = Value;

    /// The same position seen from the other side.
    fn neg(self) -> Value {
        match self {
            Value::Win => Value::Loss,
            Value::Draw => Value::Draw,
            Value::Loss => Value::Win,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value with its distance in plies under perfect play: the winner hurries, the loser
/// delays.
///
/// Ordered best first for the side to move (`a < b`: `a` is better): the fastest win, then
/// longer wins, draws, the slowest loss, and last the fastest loss. So the best of a set of
/// choices is its minimum, and sorting a list of moves ranks them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(u32),
    Draw,
    Loss(u32),
}

impl Outcome {
    /// A plain-table distance: the game ends in `plies` plies, a win for the side to move
    /// when odd, a loss when even.
    pub const fn in_plies(plies: u32) -> Outcome {
        if plies % 2 == 1 {
            Outcome::Win(plies)
        } else {
            Outcome::Loss(plies)
        }
    }

    pub const fn value(self) -> Value {
        match self {
            Outcome::Win(_) => Value::Win,
            Outcome::Draw => Value::Draw,
            Outcome::Loss(_) => Value::Loss,
        }
    }

    /// The distance; `None` for a draw.
    pub const fn plies(self) -> Option<u32> {
        match self {
            Outcome::Win(d) | Outcome::Loss(d) => Some(d),
            Outcome::Draw => None,
        }
    }

    /// The mover's outcome after a move into a position worth `self` to the opponent.
    #[inline]
    pub const fn after_move(self) -> Outcome {
        match self {
            Outcome::Win(d) => Outcome::Loss(d + 1),
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss(d) => Outcome::Win(d + 1),
        }
    }

    /// The child's outcome that [`after_move`](Outcome::after_move) turned into `self`: its
    /// inverse, for a caller that keeps the mover's side and must give the child's back.
    #[inline]
    pub const fn before_move(self) -> Outcome {
        match self {
            Outcome::Win(d) => Outcome::Loss(d.saturating_sub(1)),
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss(d) => Outcome::Win(d.saturating_sub(1)),
        }
    }

    /// The same value at distance 0: a child reached by a zeroing ply, seen from the table
    /// of distances to zeroing (the count starts again there).
    #[inline]
    pub const fn at_zero(self) -> Outcome {
        match self {
            Outcome::Win(_) => Outcome::Win(0),
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss(_) => Outcome::Loss(0),
        }
    }

    /// Under a limit of `left` more plies (a turn limit, or the budget of the no-capture
    /// rule): kept when its distance fits, else a draw. Exact because the distances are
    /// minimax distances: the winner can force the end in that many plies and the loser can
    /// delay it that long.
    #[inline]
    pub const fn within(self, left: u32) -> Outcome {
        match self.plies() {
            Some(d) if d > left => Outcome::Draw,
            _ => self,
        }
    }

    /// The minimax rule: the best of the moves' outcomes for the mover, each given as its
    /// child's outcome for the child's side to move; no move at all is a loss in 0.
    #[inline]
    pub fn best_move(children: impl IntoIterator<Item = Outcome>) -> Outcome {
        children
            .into_iter()
            .map(Outcome::after_move)
            .min()
            .unwrap_or(Outcome::Loss(0))
    }

    /// A dense 16-bit code: 0 a draw, else `1 + 2 * distance + win`. The solvers' working
    /// arrays hold it.
    #[inline]
    pub const fn code(self) -> u16 {
        match self {
            Outcome::Draw => 0,
            Outcome::Loss(d) => {
                assert!(d < Self::MAX_CODED, "distance beyond a 16-bit code");
                1 + 2 * d as u16
            }
            Outcome::Win(d) => {
                assert!(d < Self::MAX_CODED, "distance beyond a 16-bit code");
                2 + 2 * d as u16
            }
        }
    }

    /// Distances below this have a [`code`](Outcome::code).
    pub const MAX_CODED: u32 = (u16::MAX as u32 - 1) / 2;

    #[inline]
    pub const fn from_code(code: u16) -> Outcome {
        match code {
            0 => Outcome::Draw,
            c if c % 2 == 1 => Outcome::Loss((c as u32 - 1) / 2),
            c => Outcome::Win((c as u32 - 2) / 2),
        }
    }

    /// The ordering as one integer, smaller better for the side to move, so that the
    /// minimax over many children is a minimum of integers ([`Outcome::from_order`] maps it
    /// back): the quickest win first, then a draw, then the slowest loss.
    #[inline]
    pub const fn order(self) -> u64 {
        match self {
            Outcome::Win(d) => d as u64,
            Outcome::Draw => 1 << 32,
            Outcome::Loss(d) => (2 << 32) + (u32::MAX - d) as u64,
        }
    }

    /// The outcome of an [`order`](Outcome::order) key.
    #[inline]
    pub const fn from_order(key: u64) -> Outcome {
        match key >> 32 {
            0 => Outcome::Win(key as u32),
            1 => Outcome::Draw,
            _ => Outcome::Loss(u32::MAX - key as u32),
        }
    }
}

impl Neg for Outcome {
    type Output = Outcome;

    /// The same position seen from the other side: the winner's win is the loser's loss, at
    /// the same distance.
    fn neg(self) -> Outcome {
        match self {
            Outcome::Win(d) => Outcome::Loss(d),
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss(d) => Outcome::Win(d),
        }
    }
}

impl Ord for Outcome {
    fn cmp(&self, other: &Outcome) -> Ordering {
        self.order().cmp(&other.order())
    }
}

impl PartialOrd for Outcome {
    fn partial_cmp(&self, other: &Outcome) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Outcome {
    /// `win in 25`, `draw`, `loss in 26`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            None => f.write_str("draw"),
            Some(p) => write!(f, "{} in {p}", self.value()),
        }
    }
}

/// A value under the no-capture rule at counter 0, in the words chess tablebases use for
/// their own 50-move rule: a cursed win is won without the rule and drawn with it, a blessed
/// loss lost without it and drawn with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    Win,
    CursedWin,
    Draw,
    BlessedLoss,
    Loss,
}

impl Category {
    /// The category of a position worth `plain` without the rule and `rule` with it, at
    /// counter 0. The rule only ever turns wins and losses into draws: a win under the rule
    /// is a win without it.
    pub const fn of(plain: Value, rule: Value) -> Category {
        match (rule, plain) {
            (Value::Win, _) => Category::Win,
            (Value::Loss, _) => Category::Loss,
            (Value::Draw, Value::Win) => Category::CursedWin,
            (Value::Draw, Value::Loss) => Category::BlessedLoss,
            (Value::Draw, Value::Draw) => Category::Draw,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Category::Win => "win",
            Category::CursedWin => "cursed-win",
            Category::Draw => "draw",
            Category::BlessedLoss => "blessed-loss",
            Category::Loss => "loss",
        }
    }
}

impl Neg for Category {
    type Output = Category;

    fn neg(self) -> Category {
        match self {
            Category::Win => Category::Loss,
            Category::CursedWin => Category::BlessedLoss,
            Category::Draw => Category::Draw,
            Category::BlessedLoss => Category::CursedWin,
            Category::Loss => Category::Win,
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimax_rule() {
        use Outcome::*;
        assert_eq!(Outcome::best_move([]), Loss(0));
        assert_eq!(Outcome::best_move([Win(1), Win(3)]), Loss(4));
        assert_eq!(Outcome::best_move([Win(1), Draw]), Draw);
        assert_eq!(Outcome::best_move([Win(1), Draw, Loss(4), Loss(2)]), Win(3));
        assert_eq!(Outcome::in_plies(26), Loss(26));
        assert_eq!(Outcome::in_plies(1), Win(1));
        assert_eq!(Win(9).within(9), Win(9));
        assert_eq!(Win(9).within(8), Draw);
        assert_eq!(Draw.within(0), Draw);
        let mut v = [Loss(2), Draw, Win(5), Win(1), Loss(6)];
        v.sort();
        assert_eq!(v, [Win(1), Win(5), Draw, Loss(6), Loss(2)]);
        assert_eq!(Loss(26).to_string(), "loss in 26");
        assert_eq!(Draw.to_string(), "draw");
    }

    #[test]
    fn before_move_undoes_after_move() {
        for o in [
            Outcome::Win(0),
            Outcome::Win(7),
            Outcome::Draw,
            Outcome::Loss(0),
            Outcome::Loss(12),
        ] {
            assert_eq!(o.after_move().before_move(), o);
        }
    }

    #[test]
    fn codes_round_trip() {
        for c in 0..u16::MAX {
            assert_eq!(Outcome::from_code(c).code(), c);
        }
        assert_eq!(Outcome::Loss(0).code(), 1);
        assert_eq!(Outcome::Win(0).code(), 2);
    }

    #[test]
    fn order_keys_round_trip_and_sort_as_outcomes() {
        let outcomes = [
            Outcome::Win(0),
            Outcome::Win(1),
            Outcome::Win(u32::MAX),
            Outcome::Draw,
            Outcome::Loss(u32::MAX),
            Outcome::Loss(7),
            Outcome::Loss(0),
        ];
        for (i, &a) in outcomes.iter().enumerate() {
            assert_eq!(Outcome::from_order(a.order()), a);
            for &b in &outcomes[i + 1..] {
                assert!(a.order() < b.order(), "{a} before {b}");
            }
        }
    }

    #[test]
    fn negation() {
        for o in [Outcome::Win(3), Outcome::Draw, Outcome::Loss(0)] {
            assert_eq!(-(-o), o);
            assert_eq!((-o).value(), -o.value());
        }
    }
}
