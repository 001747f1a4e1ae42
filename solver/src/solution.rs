//! Whole solves held in memory: small games and tests, without files.

use crate::progress::Progress;
use crate::solve::{solve_step, Step};
use morris_db::plan::KeyGraph;
use morris_db::{Index, Key, Metric, Outcome};
use morris_engine::{Position, Rules};
use morris_tablebase::{key_of, key_slot, lost_already, Located, Lookup, KEY_SLOTS};

/// Every key of a solve, with its codes ([`Outcome::code`]; holes read as draws).
pub struct Solution {
    rules: Rules,
    metric: Metric,
    /// By [`key_slot`].
    keys: Vec<Option<(Index, Vec<u16>)>>,
}

impl Solution {
    /// Solves every moving-phase pair with 3..=`max` stones a side.
    pub fn solve_moving(rules: &Rules, max: u8, progress: &dyn Progress) -> Solution {
        Solution::solve_moving_with(rules, Metric::Plain, max, progress)
    }

    /// [`solve_moving`](Solution::solve_moving) for a metric: the plain game or the game
    /// under the no-capture rule.
    pub fn solve_moving_with(
        rules: &Rules,
        metric: Metric,
        max: u8,
        progress: &dyn Progress,
    ) -> Solution {
        // Where stones never move (tic-tac-toe) the graph has no moving phase.
        let graph = KeyGraph::new(rules, max);
        Solution::solve_steps_with(rules, metric, graph.moving(), progress)
    }

    /// Solves some moving-phase steps of the key graph, in their order, which must keep every
    /// pair after the pairs its captures lead into: for endgames whose plan goes on to pairs
    /// too large for a test (Dara's 4-4 after its 4-3).
    pub fn solve_pairs(rules: &Rules, steps: &[Step], progress: &dyn Progress) -> Solution {
        Solution::solve_steps_with(rules, Metric::Plain, steps, progress)
    }

    fn solve_steps_with(
        rules: &Rules,
        metric: Metric,
        steps: &[Step],
        progress: &dyn Progress,
    ) -> Solution {
        let mut sol = Solution {
            rules: *rules,
            metric,
            keys: (0..KEY_SLOTS).map(|_| None).collect(),
        };
        for step in steps {
            sol.solve_step(step, progress);
        }
        sol
    }

    /// Solves the whole game: the moving phase, then every placement key, so that every
    /// position reachable from the start can be looked up.
    pub fn solve_game(rules: &Rules, progress: &dyn Progress) -> Solution {
        Solution::solve_game_with(rules, Metric::Plain, progress)
    }

    /// [`solve_game`](Solution::solve_game) for a metric.
    pub fn solve_game_with(rules: &Rules, metric: Metric, progress: &dyn Progress) -> Solution {
        let graph = KeyGraph::new(rules, rules.stones);
        Solution::solve_steps_with(rules, metric, graph.units(), progress)
    }

    fn solve_step(&mut self, step: &Step, progress: &dyn Progress) {
        let solved = solve_step(&self.rules, self.metric, step, &*self, progress);
        for (k, codes) in solved {
            self.insert(k, codes);
        }
    }

    fn insert(&mut self, key: Key, codes: Vec<u16>) {
        self.keys[key_slot(key)] = Some((Index::new(self.rules.board(), key), codes));
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn metric(&self) -> Metric {
        self.metric
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
    fn probe(&self, pos: &Position) -> Located {
        if lost_already(pos, &self.rules) {
            return Located::known(Outcome::Loss(0));
        }
        let key = key_slot(key_of(pos));
        let (index, _) = self.keys[key]
            .as_ref()
            .expect("positions are looked up in solved keys only");
        Located::at(key, index.index(pos.us(), pos.them()))
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.keys[key_slot(key)].as_ref().map(|(index, _)| index)
    }

    fn read(&self, probe: Located) -> Outcome {
        match probe.located() {
            Err(known) => known,
            Ok((key, slot)) => {
                let (_, codes) = self.keys[key].as_ref().expect("probed keys are solved");
                Outcome::from_code(codes[slot as usize])
            }
        }
    }
}
