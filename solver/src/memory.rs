//! Whole solves held in memory: small games and tests, without files.

use crate::progress::Progress;
use crate::retro::{plies, solve_pair};
use crate::Lookup;
use morris_db::{Index, Key};
use morris_engine::{Bitboard, Rules};

/// Every moving-phase key of a solve, with its codes (0 = draw or hole, else plies + 1).
pub struct Solution {
    rules: Rules,
    /// By `slot(us, them)`: a flat table rather than a map, as it is read in the hot loop.
    keys: Vec<Option<(Index, Vec<u16>)>>,
}

/// Stones per side are below 32 on every board.
#[inline]
fn slot(us: u32, them: u32) -> usize {
    (us * 32 + them) as usize
}

/// The moving-phase pairs with 3..=`max` stones a side, in an order where every pair comes
/// after the pairs its captures lead into; each pair is named by its key with `us >= them`.
pub fn moving_pairs(min: u8, max: u8) -> Vec<Key> {
    let mut pairs = Vec::new();
    for total in 2 * min..=2 * max {
        for us in (min..=max).rev() {
            let them = total as i32 - us as i32;
            if them >= min as i32 && them <= us as i32 {
                pairs.push(Key::moving(us, them as u8));
            }
        }
    }
    pairs
}

impl Solution {
    /// Solves every moving-phase pair with 3..=`max` stones a side.
    pub fn solve_moving(rules: &Rules, max: u8, progress: &dyn Progress) -> Solution {
        let mut sol = Solution {
            rules: *rules,
            keys: (0..32 * 32).map(|_| None).collect(),
        };
        for key in moving_pairs(3, max) {
            let solved = solve_pair(rules, key, &sol, progress);
            for (k, codes) in solved.keys {
                sol.keys[slot(k.us as u32, k.them as u32)] =
                    Some((Index::new(rules.board(), k), codes));
            }
        }
        sol
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The codes of one key, with its index.
    pub fn key(&self, key: Key) -> Option<(&Index, &[u16])> {
        self.keys[slot(key.us as u32, key.them as u32)]
            .as_ref()
            .map(|(i, c)| (i, c.as_slice()))
    }
}

impl Lookup for Solution {
    fn plies(&self, us: Bitboard, them: Bitboard) -> Option<u32> {
        if us.count() < self.rules.min_stones() {
            return Some(0);
        }
        let (index, codes) = self.keys[slot(us.count(), them.count())]
            .as_ref()
            .expect("captures lead into solved keys");
        plies(codes[index.index(us, them) as usize])
    }
}
