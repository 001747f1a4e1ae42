//! Whole solves held in memory: small games and tests, without files.

use crate::placement::solve_key;
use crate::progress::Progress;
use crate::retro::{plies, solve_pair};
use crate::solve::{placement_steps, Step};
use crate::{key_of, key_slot, lost_already, Lookup, Probe, KEY_SLOTS};
use morris_db::plan::{plan, PlanRow};
use morris_db::{Index, Key};
use morris_engine::{Position, Rules};

/// Every key of a solve, with its codes (0 = draw or hole, else plies + 1).
pub struct Solution {
    rules: Rules,
    /// By [`key_slot`].
    keys: Vec<Option<(Index, Vec<u16>)>>,
}

impl Solution {
    /// Solves every moving-phase pair with 3..=`max` stones a side.
    pub fn solve_moving(rules: &Rules, max: u8, progress: &dyn Progress) -> Solution {
        // Where stones never move (tic-tac-toe) a board without stones in hand has no moves:
        // there is no moving phase to solve.
        let rows = if rules.stones_move() {
            plan(rules, max)
        } else {
            Vec::new()
        };
        Solution::solve_pairs(rules, &rows, progress)
    }

    /// Solves the moving-phase pairs of some rows of a plan, in their order, which must keep
    /// every pair after the pairs its captures lead into: for endgames whose plan goes on to
    /// pairs too large for a test (Dara's 4-4 after its 4-3).
    pub fn solve_pairs(rules: &Rules, rows: &[PlanRow], progress: &dyn Progress) -> Solution {
        let mut sol = Solution {
            rules: *rules,
            keys: (0..KEY_SLOTS).map(|_| None).collect(),
        };
        for row in rows {
            let solved = solve_pair(rules, &row.keys, &sol, progress);
            for (k, codes) in solved.keys {
                sol.insert(k, codes);
            }
        }
        sol
    }

    /// Solves the whole game: the moving phase, then every placement key, so that every
    /// position reachable from the start can be looked up.
    pub fn solve_game(rules: &Rules, progress: &dyn Progress) -> Solution {
        let mut sol = Solution::solve_moving(rules, rules.stones, progress);
        for step in placement_steps(rules, rules.stones) {
            match step {
                Step::Pair(keys) => {
                    for (k, codes) in solve_pair(rules, &keys, &sol, progress).keys {
                        sol.insert(k, codes);
                    }
                }
                Step::Placement(key) => {
                    let codes = solve_key(rules, key, &sol, progress);
                    sol.insert(key, codes);
                }
            }
        }
        sol
    }

    fn insert(&mut self, key: Key, codes: Vec<u16>) {
        self.keys[key_slot(key)] = Some((Index::new(self.rules.board(), key), codes));
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The codes of one key, with its index.
    pub fn key(&self, key: Key) -> Option<(&Index, &[u16])> {
        self.keys[key_slot(key)]
            .as_ref()
            .map(|(i, c)| (i, c.as_slice()))
    }

    /// Every key solved, in no particular order.
    pub fn keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.keys.iter().flatten().map(|(i, _)| i.key())
    }
}

impl Lookup for Solution {
    fn probe(&self, pos: &Position) -> Probe {
        if lost_already(pos, &self.rules) {
            return Probe::known(Some(0));
        }
        let key = key_slot(key_of(pos));
        let (index, _) = self.keys[key]
            .as_ref()
            .expect("positions are looked up in solved keys only");
        Probe::at(key, index.index(pos.us(), pos.them()))
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.keys[key_slot(key)].as_ref().map(|(index, _)| index)
    }

    fn read(&self, probe: Probe) -> Option<u32> {
        match probe.located() {
            Err(known) => known,
            Ok((key, slot)) => {
                let (_, codes) = self.keys[key].as_ref().expect("probed keys are solved");
                plies(codes[slot as usize])
            }
        }
    }
}
