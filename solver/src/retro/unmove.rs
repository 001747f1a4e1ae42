//! Un-moves: the positions one quiet move before a given one.
//!
//! Inside a moving-phase pair only moves that form no mill stay in the pair (a mill captures,
//! and the capture leads into a smaller sub-database), so the un-move generator yields exactly
//! the parents whose move into the child formed no mill. It is the inverse of the engine's
//! forward generator restricted to quiet moves; the tests check the two against each other.
//!
//! Dara refuses moves that make an overline (four in a row); such a move completes a line
//! through its stone as well, so the test that leaves out line-forming moves leaves these out
//! too, and every quiet move is legal.
//!
//! In Lasker Morris a pair may hold stones in hand: its quiet moves are the slides, a
//! placement leaving the pair as a capture does. There a mill can also be closed against a
//! side with no stone on the board: nothing to take, so that slide is quiet.

use morris_engine::movegen::can_fly;
use morris_engine::{Bitboard, Rules};

/// Calls `f(rest, froms)` for every stone of `them` that can have arrived by a quiet move
/// (slide, or fly at three stones) of its owner (with `them_hand` stones in hand) into
/// `(us, them)`: `rest` is `them` without that stone, `froms` the points it can have come
/// from. Each parent, seen from its side to move, is `(rest` with one point of `froms`, `us)`;
/// grouped so that the parents' slots are ranked from one mapping of `rest`
/// ([`morris_db::Fixed::for_each_added`]).
#[inline]
pub fn for_each_parent_group(
    rules: &Rules,
    us: Bitboard,
    them: Bitboard,
    them_hand: u8,
    mut f: impl FnMut(Bitboard, Bitboard),
) {
    let board = rules.board();
    let empty = board.all() - us - them;
    let fly = can_fly(rules, them, them_hand);
    // Whether a line made by the mover took a stone, ended the game, or was refused.
    let lines_leave = rules.line_wins() || !us.is_empty() || rules.overlines_refused();
    for to in them {
        // A stone that arrived on `to` and completes a line there would have captured (or,
        // where a line wins, ended the game; or in Dara been refused as an overline).
        if lines_leave && board.forms_line(them, to) {
            continue;
        }
        let rest = them.without(to);
        let mut froms = if fly {
            empty
        } else {
            board.adjacent(to) & empty
        };
        if rules.line_wins() {
            // Where a line wins, a position with a line on the board is over: it has no moves.
            for from in froms {
                if !(board.in_lines(rest.with(from)) | board.in_lines(us)).is_empty() {
                    froms = froms.without(from);
                }
            }
        }
        if !froms.is_empty() {
            f(rest, froms);
        }
    }
}

/// Calls `f(parent_us, parent_them)` for every position, seen from its side to move, from which
/// the owner of `them` (with `them_hand` stones in hand) reached `(us, them)` by a quiet move:
/// [`for_each_parent_group`] one parent at a time.
#[cfg(test)]
fn for_each_parent(
    rules: &Rules,
    us: Bitboard,
    them: Bitboard,
    them_hand: u8,
    mut f: impl FnMut(Bitboard, Bitboard),
) {
    for_each_parent_group(rules, us, them, them_hand, |rest, froms| {
        for from in froms {
            f(rest.with(from), us)
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_engine::{for_each_move, Color, Game, Position};
    use proptest::prelude::*;

    /// Random disjoint stone sets of the given sizes on the board's points.
    fn sets(rules: &Rules, seed: u64, m: u32, o: u32) -> (Bitboard, Bitboard) {
        let points = rules.board().len() as u64;
        let mut x = seed | 1;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % points) as u8
        };
        let (mut us, mut them) = (Bitboard::EMPTY, Bitboard::EMPTY);
        while us.count() < m {
            us = us.with(next());
        }
        while them.count() < o {
            let p = next();
            if !us.contains(p) {
                them = them.with(p);
            }
        }
        (us, them)
    }

    /// The quiet moves of `(us, them)` with `hands` (ours, theirs): slides that take nothing.
    fn quiet_children(
        rules: &Rules,
        us: Bitboard,
        them: Bitboard,
        hands: [u8; 2],
    ) -> Vec<(Bitboard, Bitboard)> {
        let pos = Position::from_sides(us, them, hands, Color::White);
        let mut v = Vec::new();
        for_each_move(&pos, rules, |m| {
            if m.capture().is_none() && m.from().is_some() {
                let n = pos.play(m);
                v.push((n.us(), n.them()));
            }
        });
        v
    }

    /// Un-moves are exactly the inverse of the forward quiet moves, `hands` being the stones
    /// in hand of the side to move and of the other side.
    fn check_inverse(
        rules: &Rules,
        us: Bitboard,
        them: Bitboard,
        hands: [u8; 2],
    ) -> Result<(), TestCaseError> {
        let [ours, theirs] = hands;
        // Forward: every quiet child lists this position among its parents.
        for (cu, ct) in quiet_children(rules, us, them, hands) {
            let mut found = 0;
            for_each_parent(rules, cu, ct, ours, |pu, pt| {
                found += (pu == us && pt == them) as u32
            });
            prop_assert_eq!(found, 1);
        }
        // Backward: every parent has this position among its quiet children, once.
        let mut parents = Vec::new();
        for_each_parent(rules, us, them, theirs, |pu, pt| parents.push((pu, pt)));
        for (pu, pt) in parents {
            let n = quiet_children(rules, pu, pt, [theirs, ours])
                .iter()
                .filter(|&&c| c == (us, them))
                .count();
            prop_assert_eq!(n, 1, "parent {:?} {:?}", pu, pt);
        }
        Ok(())
    }

    proptest! {
        #[test]
        fn unmoves_invert_quiet_moves(seed in any::<u64>(), m in 3u32..=9, o in 3u32..=9, flying in any::<bool>()) {
            let rules = Rules { flying, ..Rules::nine() };
            let (us, them) = sets(&rules, seed, m, o);
            check_inverse(&rules, us, them, [0, 0])?;
        }

        /// Lasker Morris: stones in hand on either side, few stones on the board (a side may
        /// have none, and then a mill against it takes nothing), flying only without a hand.
        #[test]
        fn lasker_unmoves_invert_quiet_moves(
            seed in any::<u64>(),
            m in 0u32..=10,
            o in 0u32..=10,
            hands in (0u8..=4, 0u8..=4),
        ) {
            // Below three stones on board and in hand a side has lost: no key holds that.
            prop_assume!(m + hands.0 as u32 >= 3 && o + hands.1 as u32 >= 3);
            let rules = Rules::standard(Game::Lasker);
            let (us, them) = sets(&rules, seed, m, o);
            check_inverse(&rules, us, them, [hands.0, hands.1])?;
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Dara: up to 24 stones on 30 points, where lines, overlines and captures of stones in
        /// lines abound.
        #[test]
        fn dara_unmoves_invert_quiet_moves(seed in any::<u64>(), m in 3u32..=12, o in 3u32..=12) {
            let rules = Rules::standard(Game::Dara);
            let (us, them) = sets(&rules, seed, m, o);
            check_inverse(&rules, us, them, [0, 0])?;
        }
    }
}
