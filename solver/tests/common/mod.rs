//! Helpers shared by the solver's test files: reduced games and the jobs that solve them, and
//! a solution with stored outcomes replaced.

// Each test file uses its own subset.
#![allow(dead_code)]

use morris_db::{Key, Outcome};
use morris_engine::{Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::solve::{solve, steps, Job};
use morris_tablebase::store::Store;
use morris_tablebase::{Located, Lookup};

/// Nine Men's Morris with `stones` a side.
pub fn nine_with(stones: u8) -> Rules {
    Rules {
        stones,
        ..Rules::nine()
    }
}

/// The whole solve up to `stones` a side: the moving phase, and the placement keys too when
/// `placement`.
pub fn job(stones: u8, placement: bool) -> Job {
    Job {
        max_stones: stones,
        only: None,
        placement,
        stop_after_files: None,
        in_hand: None,
    }
}

/// Solves `job` into `store` and returns the keys of its steps, in order.
pub fn solve_keys(store: &mut Store, rules: &Rules, job: &Job) -> Vec<Key> {
    solve(store, job, &Silent).unwrap();
    steps(rules, job)
        .unwrap()
        .iter()
        .flat_map(|s| s.keys())
        .collect()
}

/// A solution with the stored outcome of every position `hit` accepts replaced by `value`.
pub struct Damaged<'a, F> {
    pub inner: &'a Solution,
    pub hit: F,
    pub value: Outcome,
}

impl<F: Fn(&Position) -> bool + Sync> Lookup for Damaged<'_, F> {
    fn probe(&self, pos: &Position) -> Located {
        if (self.hit)(pos) {
            Located::known(self.value)
        } else {
            self.inner.probe(pos)
        }
    }

    fn read(&self, probe: Located) -> Outcome {
        self.inner.read(probe)
    }
}
