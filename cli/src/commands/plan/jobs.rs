//! The jobs of a workflow: the units of the key graph, with large placement keys split into
//! slot ranges and a join, each with the jobs it waits for and its estimated memory and time.
//! The Slurm script, the Makefile and the makespan estimate are views of this one list.

use morris_db::plan::{
    file_bytes, KeyGraph, UnitKind, PLACEMENT_BYTES_PER_SLOT, SOLVE_BYTES_PER_SLOT,
};
use morris_db::{slots, Key};
use morris_solver::placement::part::split;
use morris_solver::solve::unit::Part;

/// Slots per second and core of the moving phase (and of Lasker's pairs with stones in hand,
/// solved the same way): measured here, the whole moving phase of Nine Men's Morris
/// (9.07 G slots in 5351 s on 2 threads; `results/nine-moving-solve.log`).
pub const RETRO_SLOTS_PER_CORE: f64 = 0.85e6;
/// Slots per second and core of a placement pass: measured here, the whole placement phase of
/// Nine Men's Morris (17.2 G slots in 7973 s on 2 threads; `results/nine-placement-solve.log`).
pub const PLACEMENT_SLOTS_PER_CORE: f64 = 1.08e6;
/// Slots per second of a join (read the parts, write the table: disk-bound, one thread).
pub const JOIN_SLOTS_PER_SECOND: f64 = 100e6;

/// One job of the workflow.
pub struct UnitJob {
    /// The unit's first key (`morris solve --key`).
    pub key: Key,
    pub part: Part,
    /// The job's name: `morris-<key>`, `morris-<key>-r<start>` for a range, `morris-<key>-join`.
    pub name: String,
    /// Memory the job needs: the solver's working memory plus the tables it reads.
    pub memory: u64,
    /// Estimated seconds of work on one core.
    pub core_seconds: f64,
    /// Whether the work spreads over the job's cores (a join does not).
    pub parallel: bool,
    /// The jobs that must succeed first, by their place in the list.
    pub after: Vec<usize>,
}

impl UnitJob {
    /// The arguments of `morris solve` that run the job.
    pub fn args(&self) -> String {
        match &self.part {
            Part::Whole => format!("--key {}", self.key),
            Part::Range(r) => format!("--key {} --range {}..{}", self.key, r.start, r.end),
            Part::Join => format!("--key {} --join", self.key),
        }
    }

    /// Estimated wall seconds on `cpus` cores.
    pub fn seconds(&self, cpus: usize) -> f64 {
        if self.parallel {
            self.core_seconds / cpus as f64
        } else {
            self.core_seconds
        }
    }
}

/// The jobs of the graph's units in its order (each after the jobs it waits for); placement
/// keys of more than `range_slots` slots split into ranges of that many slots and a join.
pub fn jobs(graph: &KeyGraph, range_slots: Option<u64>) -> Vec<UnitJob> {
    let rules = graph.rules();
    let mut jobs: Vec<UnitJob> = Vec::new();
    // Per unit, the job whose success means its tables are complete.
    let mut last: Vec<usize> = Vec::with_capacity(graph.units().len());
    for unit in graph.units() {
        let key = unit.first_key();
        let after: Vec<usize> = unit.reads.iter().map(|&r| last[r]).collect();
        let read: u64 = unit.read_keys().iter().map(|&k| file_bytes(rules, k)).sum();
        let n: u64 = unit.keys().iter().map(|&k| slots(rules.board(), k)).sum();
        let (per_slot, rate) = match unit.kind {
            UnitKind::Placement => (PLACEMENT_BYTES_PER_SLOT, PLACEMENT_SLOTS_PER_CORE),
            UnitKind::Moving | UnitKind::HandPair => (SOLVE_BYTES_PER_SLOT, RETRO_SLOTS_PER_CORE),
        };
        let job = |part: Part, name: String, slots: u64, after: Vec<usize>| UnitJob {
            key,
            part,
            name,
            memory: per_slot * slots + read,
            core_seconds: slots as f64 / rate,
            parallel: true,
            after,
        };
        match range_slots {
            Some(s) if unit.kind == UnitKind::Placement && n > s => {
                let first = jobs.len();
                for r in split(n, s) {
                    let name = format!("morris-{key}-r{}", r.start);
                    jobs.push(job(
                        Part::Range(r.clone()),
                        name,
                        r.end - r.start,
                        after.clone(),
                    ));
                }
                jobs.push(UnitJob {
                    key,
                    part: Part::Join,
                    name: format!("morris-{key}-join"),
                    // One part's bytes and codes at a time, and the writer's buffer.
                    memory: PLACEMENT_BYTES_PER_SLOT * s + (1 << 20),
                    core_seconds: n as f64 / JOIN_SLOTS_PER_SECOND,
                    parallel: false,
                    after: (first..jobs.len()).collect(),
                });
            }
            _ => jobs.push(job(Part::Whole, format!("morris-{key}"), n, after)),
        }
        last.push(jobs.len() - 1);
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_engine::Rules;

    /// Every job waits only for jobs before it; a split key's ranges cover it, then its join.
    #[test]
    fn ranges_and_joins() {
        let rules = Rules::nine().with_stones(5).unwrap();
        let graph = KeyGraph::new(&rules, 5);
        let jobs = jobs(&graph, Some(1000));
        for (n, j) in jobs.iter().enumerate() {
            assert!(j.after.iter().all(|&a| a < n), "{}", j.name);
            if j.part == Part::Join {
                let ranges: Vec<_> = j.after.iter().map(|&a| jobs[a].part.clone()).collect();
                let n = slots(rules.board(), j.key);
                let split: Vec<Part> = split(n, 1000).into_iter().map(Part::Range).collect();
                assert_eq!(ranges, split, "{}", j.name);
            }
        }
        assert!(jobs.iter().any(|j| j.part == Part::Join));
        let whole = super::jobs(&graph, None);
        assert_eq!(whole.len(), graph.units().len());
    }
}
