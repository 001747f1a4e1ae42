//! The keys a set may leave out, and the search that answers their positions.
//!
//! Leaving out the side with fewer stones halves a pair of moving-phase keys and every other
//! ply of the placement phase, and its positions are cheap to search: the mover's every move
//! leads into a key where the side to move (the other side, with more stones) is the pattern
//! side of the index, whose stones the move did not touch, so the children of one position
//! lie in one pattern class (a few neighbouring blocks). A capture that leaves the capturer
//! still behind leads into another left-out key, searched the same way; each such step takes
//! a stone off, so the search ends.
//!
//! Those captures chain (in the placement phase, a side one stone behind closes a mill and
//! captures, and the other side, now one behind, may do the same), and a full minimax over
//! the chain grows with the product of mills and capturable stones at every step: whole-game
//! probes of over a second. So [`search_pruned`], the reader's search, is an alpha-beta
//! search: the children read from tables come first, then the searched ones, each with a
//! window narrowed by the best move found so far. Its answers are exactly those of the full
//! minimax [`search`].

use morris_db::{Key, Outcome};
use morris_engine::{for_each_move, Move, Position, Rules};
use morris_packed::Kind;

use super::symbol::Symbol;
use crate::minimax::evaluate;

/// True when a set that leaves out the weaker side has no table for `key`: its side to move
/// has fewer stones on the board than the other.
pub const fn is_searched(key: Key) -> bool {
    key.us < key.them
}

/// The symbol of `pos` by the minimax rule over its children, each valued by `child`: the
/// full one-ply minimax, the reference [`search_pruned`] is checked against.
pub fn search<T: Symbol, E>(
    pos: &Position,
    rules: &Rules,
    mut child: impl FnMut(&Position) -> Result<T, E>,
) -> Result<T, E> {
    let mut moves: Vec<Move> = Vec::new();
    for_each_move(pos, rules, |mv| moves.push(mv));
    let mut children: Vec<Outcome> = Vec::with_capacity(moves.len());
    for mv in moves {
        children.push(child(&pos.play(mv))?.outcome());
    }
    Ok(T::of(evaluate(rules, pos, &children)))
}

/// The symbol of `pos`, a position the set searches, by the minimax rule over its children,
/// searched as deep as the set leaves positions out: `known` gives a child's symbol when the
/// set has it without a search (from a table, or a side that has lost already), `None` for a
/// position to search in turn.
///
/// An alpha-beta search with the same answer as the full minimax (values, or outcomes with
/// exact distances): a position's children with a symbol are read first, then the searched
/// ones, each only as far as it can still change the answer.
pub fn search_pruned<T: Symbol, E>(
    pos: &Position,
    rules: &Rules,
    known: impl FnMut(&Position) -> Result<Option<T>, E>,
) -> Result<T, E> {
    let scale = match T::KIND {
        Kind::Wdl => Scale::Values,
        Kind::Distance => Scale::Distances,
    };
    let mut s = Pruned {
        rules,
        scale,
        known,
    };
    let score = s.node(pos, Scale::BELOW_ALL, Scale::ABOVE_ALL)?;
    Ok(T::of(scale.outcome(score)))
}

/// How a search orders what it finds, as one integer a side (larger is better for the side
/// to move), with a bound below and above every outcome.
///
/// A move turns the child's score `c` into the mover's `after(c)`, which is strictly
/// decreasing in `c`: so the children that make the mover's score at least `h` are those of
/// score at most `at_most(h)`, and those that make it at most `a` are those of score at least
/// `at_least(a)` (the windows handed down).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Scale {
    /// Win, draw or loss (1, 0, -1): the set of values, where distances mean nothing.
    Values,
    /// Outcomes with distances: minus [`Outcome::order`].
    Distances,
}

impl Scale {
    /// Below every score.
    const BELOW_ALL: i64 = i64::MIN;
    /// Above every score.
    const ABOVE_ALL: i64 = i64::MAX;

    fn score(self, o: Outcome) -> i64 {
        match self {
            Scale::Values => match o {
                Outcome::Win(_) => 1,
                Outcome::Draw => 0,
                Outcome::Loss(_) => -1,
            },
            Scale::Distances => -(o.order() as i64),
        }
    }

    /// The outcome of a score (in values, one of that value).
    fn outcome(self, s: i64) -> Outcome {
        debug_assert!(s != Self::BELOW_ALL && s != Self::ABOVE_ALL);
        match self {
            Scale::Values => match s {
                1 => Outcome::Win(1),
                0 => Outcome::Draw,
                _ => Outcome::Loss(0),
            },
            Scale::Distances => Outcome::from_order((-s) as u64),
        }
    }

    /// The best score a move can give: a win in one.
    fn best(self) -> i64 {
        self.score(Outcome::Win(1))
    }

    /// The worst score of all: lost already.
    fn worst(self) -> i64 {
        self.score(Outcome::Loss(0))
    }

    /// The mover's score after a move into a child of score `c` (for the child's side).
    fn after(self, c: i64) -> i64 {
        match self {
            Scale::Values => -c,
            Scale::Distances => self.score(self.outcome(c).after_move()),
        }
    }

    /// The largest child score that gives the mover at least `h`: every child at or below
    /// it does, none above ([`Scale::BELOW_ALL`] when no child does).
    fn at_most(self, h: i64) -> i64 {
        if h == Self::ABOVE_ALL {
            return Self::BELOW_ALL;
        }
        match self {
            Scale::Values => -h.clamp(-1, 2),
            Scale::Distances => match self.outcome(h) {
                // No move wins in 0.
                Outcome::Win(0) => Self::BELOW_ALL,
                // Win(h) needs a loss in h - 1 at most; a draw needs a draw or a loss; a loss
                // in h or slower needs a child won in h - 1 or slower (every child for h = 0).
                o => self.score(o.before_move()),
            },
        }
    }

    /// The smallest child score that gives the mover at most `a`: every child at or above it
    /// does, none below ([`Scale::ABOVE_ALL`] when no child does).
    fn at_least(self, a: i64) -> i64 {
        if a == Self::BELOW_ALL {
            return Self::ABOVE_ALL;
        }
        match self {
            Scale::Values => -a.clamp(-2, 1),
            Scale::Distances => match self.outcome(a) {
                // No move loses in 0.
                Outcome::Loss(0) => Self::ABOVE_ALL,
                // At most Win(h) needs a child lost in h - 1 or slower, or not lost (every
                // child for h = 0); at most a draw, a child drawn or won; at most a loss in h,
                // a child won in h - 1 or faster.
                o => self.score(o.before_move()),
            },
        }
    }
}

struct Pruned<'r, K> {
    rules: &'r Rules,
    scale: Scale,
    known: K,
}

impl<K> Pruned<'_, K> {
    /// The score of the searched position `pos` within the window (`lo`, `hi`), `lo < hi`
    /// (fail-soft): exact when it lies strictly inside; when the score is `lo` or less, a
    /// bound of it between the score and `lo`; when `hi` or more, one between `hi` and the
    /// score.
    fn node<T: Symbol, E>(&mut self, pos: &Position, lo: i64, hi: i64) -> Result<i64, E>
    where
        K: FnMut(&Position) -> Result<Option<T>, E>,
    {
        debug_assert!(lo < hi);
        let scale = self.scale;
        // A window no move can meet: none scores above a win in one, nothing below a loss
        // in 0.
        if lo >= scale.best() {
            return Ok(scale.best());
        }
        if hi <= scale.worst() {
            return Ok(scale.worst());
        }
        let mut moves: Vec<Move> = Vec::with_capacity(64);
        for_each_move(pos, self.rules, |mv| moves.push(mv));
        if moves.is_empty() {
            return Ok(scale.score(evaluate(self.rules, pos, &[])));
        }
        // The children with a symbol first (a block or two read for most of them, and the
        // best of them narrows the window of the searched ones); the searched ones are kept
        // at the front of `moves`.
        let mut best = Scale::BELOW_ALL;
        let mut searched = 0;
        for i in 0..moves.len() {
            let mv = moves[i];
            match (self.known)(&pos.play(mv))? {
                Some(t) => {
                    best = best.max(scale.after(scale.score(t.outcome())));
                    if best >= hi || best >= scale.best() {
                        return Ok(best);
                    }
                }
                None => {
                    moves[searched] = mv;
                    searched += 1;
                }
            }
        }
        // Each searched child only as far as it could raise the best above `floor` or reach
        // `hi`.
        for &mv in &moves[..searched] {
            let floor = lo.max(best);
            let child = self.node(&pos.play(mv), scale.at_most(hi), scale.at_least(floor))?;
            best = best.max(scale.after(child));
            if best >= hi || best >= scale.best() {
                break;
            }
        }
        Ok(best)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{key_of, lost_already};
    use morris_db::{Index, Value};
    use morris_engine::Color;

    fn outcomes() -> Vec<Outcome> {
        let mut v = vec![Outcome::Draw];
        for d in 0..6 {
            v.push(Outcome::Win(d));
            v.push(Outcome::Loss(d));
        }
        v
    }

    /// The windows handed down are exactly the children that keep the mover at least `h`
    /// (at most `a`), for every threshold, sentinels included.
    #[test]
    fn windows_map_through_a_move() {
        for scale in [Scale::Values, Scale::Distances] {
            let children: Vec<i64> = outcomes().into_iter().map(|o| scale.score(o)).collect();
            let mut thresholds = children.clone();
            thresholds.extend([Scale::BELOW_ALL, Scale::ABOVE_ALL]);
            for &h in &thresholds {
                // A window's top is above its bottom: never below all, nor a bottom above all.
                for &c in &children {
                    if h != Scale::BELOW_ALL {
                        let m = scale.at_most(h);
                        assert_eq!(scale.after(c) >= h, c <= m, "{scale:?} h {h} c {c}");
                    }
                    if h != Scale::ABOVE_ALL {
                        let l = scale.at_least(h);
                        assert_eq!(scale.after(c) <= h, c >= l, "{scale:?} a {h} c {c}");
                    }
                }
            }
        }
    }

    /// The share of won and drawn positions (in percent) of a made-up set of tables.
    #[derive(Copy, Clone, Debug)]
    struct Mix {
        seed: u64,
        wins: u64,
        draws: u64,
    }

    /// A made-up value for every position of a key with a table (the same for both colours,
    /// as a table's), `None` for a searched one: outcomes of every kind and distance, so that
    /// the windows meet every edge the tables could give them and more.
    fn oracle(pos: &Position, rules: &Rules, mix: Mix) -> Option<Outcome> {
        if lost_already(pos, rules) {
            return Some(Outcome::Loss(0));
        }
        if is_searched(key_of(pos)) {
            return None;
        }
        let mut h = mix.seed
            ^ (pos.us().bits() as u64)
            ^ ((pos.them().bits() as u64) << 24)
            ^ ((pos.our_hand() as u64) << 48)
            ^ ((pos.their_hand() as u64) << 56);
        for _ in 0..3 {
            h ^= h >> 29;
            h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        }
        // Mostly few distinct distances (ties), sometimes any; now and then a loss at an odd
        // distance, which no table holds.
        let d = if h & 0x100 == 0 {
            (h >> 9) % 4
        } else {
            (h >> 9) % 40
        } as u32;
        let r = (h >> 32) % 100;
        Some(if r < mix.wins {
            Outcome::Win(1 + 2 * d)
        } else if r < mix.wins + mix.draws {
            Outcome::Draw
        } else if h & 0x200 == 0 {
            Outcome::Loss(2 * d)
        } else {
            Outcome::Loss(d)
        })
    }

    /// The full minimax over the same made-up tables; `searched` counts the positions it
    /// searched.
    fn full<T: Symbol>(pos: &Position, rules: &Rules, mix: Mix, searched: &mut u64) -> T {
        match oracle(pos, rules, mix) {
            Some(o) => T::of(o),
            None => {
                *searched += 1;
                search::<T, ()>(pos, rules, |c| Ok(full::<T>(c, rules, mix, searched))).unwrap()
            }
        }
    }

    /// The pruned search gives the full minimax's answer, values and outcomes with their
    /// distances, on positions whose captures chain up to nine plies deep, over tables of
    /// made-up outcomes: mostly won for the side to move (so that every side's moves lose
    /// but its captures, and the search goes deepest), mixed, and mostly drawn.
    #[test]
    fn pruned_equals_full_minimax_on_made_up_tables() {
        let rules = Rules {
            stones: 7,
            ..Rules::nine()
        };
        let (mut compared, mut largest) = (0, 0);
        for (k, key) in [
            Key::new(2, 3, 5, 4),
            Key::new(3, 4, 4, 3),
            Key::new(4, 5, 3, 2),
            Key::new(5, 6, 2, 1),
            Key::new(5, 6, 1, 1),
            Key::new(6, 7, 1, 0),
            Key::new(5, 6, 0, 0),
        ]
        .into_iter()
        .enumerate()
        {
            let index = Index::new(rules.board(), key);
            let step = (index.size() / 40).max(1);
            for slot in (0..index.size()).step_by(step as usize) {
                if index.is_hole(slot) {
                    continue;
                }
                let (us, them) = index.unindex(slot);
                let pos =
                    Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
                for (wins, draws) in [(90, 5), (40, 30), (10, 80)] {
                    let mix = Mix {
                        seed: (k as u64) << 40 ^ slot,
                        wins,
                        draws,
                    };
                    let known = |c: &Position| Ok::<_, ()>(oracle(c, &rules, mix));
                    let pruned: Outcome =
                        search_pruned(&pos, &rules, |c| known(c).map(|o| o.map(Outcome::of)))
                            .unwrap();
                    let mut searched = 0;
                    let expected = full::<Outcome>(&pos, &rules, mix, &mut searched);
                    assert_eq!(pruned, expected, "{key} slot {slot} {mix:?}");
                    largest = largest.max(searched);
                    let pruned: Value =
                        search_pruned(&pos, &rules, |c| known(c).map(|o| o.map(Value::of)))
                            .unwrap();
                    let expected = full::<Value>(&pos, &rules, mix, &mut 0);
                    assert_eq!(pruned, expected, "{key} slot {slot} {mix:?}");
                    compared += 1;
                }
            }
        }
        // Deep chains of captures were searched.
        assert!(compared > 500 && largest > 1000, "{compared} {largest}");
    }
}
