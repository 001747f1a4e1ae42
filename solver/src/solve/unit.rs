//! One unit of a solve, run as a job of its own (a cluster workflow, `make -j`): a unit of the
//! key graph, or a slot range of a placement key, or the join of a key's ranges.
//!
//! A job finds its output complete and does nothing, so that a workflow resubmitted after a
//! failure redoes only what is missing; it writes under a lock of its own output
//! ([`UnitLock`]), so that jobs of one directory run side by side.

use core::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

use morris_db::format::{Checks, Table};
use morris_db::plan::{KeyGraph, UnitKind};
use morris_db::{slots, Index, Key};

use super::{
    is_complete, open_reads, peak_memory, reset_peak_memory, run_step, under_metric, Observer,
    SolveError, Step, StepReport,
};
use crate::lock::UnitLock;
use crate::placement::part;
use crate::placement::solve_slots;
use morris_tablebase::store::Store;

/// What a job does with its unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Solves the whole unit.
    Whole,
    /// Solves these slots of a placement key into a part file.
    Range(Range<u64>),
    /// Joins the part files of a placement key into its table.
    Join,
}

/// The unit of the solve up to `max_stones` a side that holds `key`.
pub fn find(rules: &morris_engine::Rules, max_stones: u8, key: Key) -> Result<Step, SolveError> {
    let graph = KeyGraph::new(rules, max_stones);
    let n = graph.unit_of(key).ok_or_else(|| {
        SolveError::NoSuchUnit(format!(
            "key {key} is not part of the solve up to {max_stones} stones a side (see morris plan)"
        ))
    })?;
    Ok(graph.units()[n].clone())
}

/// Refuses a part the unit does not have: ranges and joins are for placement keys, and a range
/// must be a non-empty part of the key's slots.
pub fn check(rules: &morris_engine::Rules, step: &Step, part: &Part) -> Result<(), SolveError> {
    if *part == Part::Whole {
        return Ok(());
    }
    if step.kind != UnitKind::Placement {
        return Err(SolveError::NoSuchUnit(format!(
            "{} is solved by retrograde analysis as a whole: it has no slot ranges",
            step.name()
        )));
    }
    let n = slots(rules.board(), step.first_key());
    match part {
        Part::Range(r) if r.start >= r.end || r.end > n => Err(SolveError::NoSuchUnit(format!(
            "range {}..{} is not a non-empty range of the {n} slots of {}",
            r.start,
            r.end,
            step.name()
        ))),
        _ => Ok(()),
    }
}

/// The file a job of `part` of `step` writes (the table of the unit's first key, or the part
/// file), which names its lock.
fn output(store: &Store, step: &Step, part: &Part) -> PathBuf {
    let table = store.path(step.first_key());
    match part {
        Part::Range(r) => part::part_path(&table, r),
        Part::Whole | Part::Join => table,
    }
}

/// True when the output of `part` of `step` is complete: every table of the unit (or, for a
/// range, the key's table or the range's part) is there with the right header and size; a
/// part is checked by its checksum too. Tables are not hashed (a workflow asks this of every
/// unit before submitting, and reading every table there would take long): a job that runs
/// checks them fully, and a table's final name is only ever given to a complete file.
pub fn is_done(store: &Store, step: &Step, part: &Part) -> bool {
    let table_done = |key: Key| {
        Table::open_with(
            store.path(key),
            *store.rules(),
            store.metric(),
            key,
            Checks { checksum: false },
        )
        .is_ok()
    };
    let tables = step.keys().into_iter().all(table_done);
    match part {
        Part::Range(r) => {
            let key = step.first_key();
            tables || part::is_complete(&store.path(key), key, r)
        }
        Part::Whole | Part::Join => tables,
    }
}

/// Runs `part` of `step` under its unit lock, unless its output is complete; `command` is
/// recorded in the lock for a job refused meanwhile. `part` must have passed [`check`].
pub fn solve_unit(
    store: &mut Store,
    step: &Step,
    part: &Part,
    observer: &dyn Observer,
    command: &str,
) -> Result<StepReport, SolveError> {
    std::fs::create_dir_all(store.dir()).map_err(|source| morris_db::DbError::Io {
        path: store.dir().to_path_buf(),
        action: "create the database directory",
        source,
    })?;
    let out = output(store, step, part);
    let name = out.file_name().expect("a file name").to_string_lossy();
    let lock = UnitLock::acquire(store.dir(), &name, command)?;
    let key = step.first_key();
    let table = store.path(key);
    let report = match part {
        Part::Whole => run_step(store, step, observer, &lock, &mut || Ok(()))?,
        Part::Join => {
            let slots = slots(store.rules().board(), key);
            observer.step_started(step, slots);
            let solved = !is_complete(store, key, &lock);
            if solved {
                part::join(&table, *store.rules(), store.metric(), key)?;
            }
            // Parts left by another split, or by a join interrupted after its rename.
            for r in part::parts(&table) {
                let _ = std::fs::remove_file(part::part_path(&table, &r));
            }
            let report = StepReport {
                solved,
                ..StepReport::skipped(vec![key], slots)
            };
            observer.step_finished(&report);
            report
        }
        Part::Range(r) => {
            observer.step_started(step, r.end - r.start);
            let mut tmp = out.clone().into_os_string();
            tmp.push(".tmp");
            let _ = std::fs::remove_file(tmp);
            if is_done(store, step, part) {
                let report = StepReport::skipped(vec![key], r.end - r.start);
                observer.step_finished(&report);
                return Ok(report);
            }
            open_reads(store, step)?;
            reset_peak_memory();
            let start = Instant::now();
            let rules = *store.rules();
            let index = Index::new(rules.board(), key);
            let codes = under_metric(&*store, &[], store.metric(), |lower| {
                solve_slots(&rules, &index, r.clone(), lower, observer)
            });
            let seconds = start.elapsed().as_secs_f64();
            delay_hook();
            part::write_part(&table, key, r, &codes)?;
            let report = StepReport {
                solved: true,
                seconds,
                peak_bytes: peak_memory(),
                ..StepReport::skipped(vec![key], r.end - r.start)
            };
            observer.step_finished(&report);
            report
        }
    };
    store.close_all();
    Ok(report)
}

/// The workflow test's hook (`scripts/slurm-test.sh`): with `MORRIS_TEST_PART_DELAY_SECONDS=S`
/// a range job waits S seconds before writing its part, so that the test can cancel one while
/// it runs, however small the game.
fn delay_hook() {
    let delay = std::env::var("MORRIS_TEST_PART_DELAY_SECONDS").ok();
    if let Some(s) = delay.and_then(|v| v.parse::<f64>().ok()) {
        std::thread::sleep(std::time::Duration::from_secs_f64(s));
    }
}
