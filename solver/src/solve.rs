//! A whole solve over a database directory: moving-phase pairs, then placement keys, in
//! dependency order, each solved in memory and written atomically, so that an interrupted run
//! resumes at the first step without complete files.

use crate::encode::write_codes;
use crate::lock::{DirLock, LockError, WriteLock};
use crate::no_capture::ZeroingView;
use crate::placement::solve_key;
use crate::progress::Progress;
use crate::retro::solve_pair;
use morris_db::format::{Checks, DbError, Metric, Writer};
use morris_db::plan::{KeyGraph, UnitKind};
use morris_db::{slots, Index, Key};
use morris_engine::Rules;
use morris_tablebase::stats::{key_stats, KeyStats};
use morris_tablebase::store::Store;
use morris_tablebase::Lookup;
use rayon::prelude::*;
use std::fmt;
use std::time::Instant;

pub mod unit;

/// What happened to one step: a moving-phase pair or a placement key.
#[derive(Clone, Debug)]
pub struct StepReport {
    pub keys: Vec<Key>,
    pub slots: u64,
    /// False when every file was already there, complete and checksummed.
    pub solved: bool,
    pub seconds: f64,
    /// Peak resident memory of the process while the step ran, when the system says.
    pub peak_bytes: Option<u64>,
    /// Wins, draws and losses of each key just solved (empty when skipped); under the
    /// no-capture rule, its values at counter 0.
    pub stats: Vec<(Key, KeyStats)>,
}

#[derive(Debug)]
pub enum SolveError {
    Db(DbError),
    /// A step's captures or placements lead into keys not on disk (only with `--only`).
    MissingDependency {
        step: String,
        missing: String,
    },
    /// `--only` names a pair outside the plan.
    NotInPlan {
        pair: String,
    },
    /// A unit job names a key outside the plan, or a part its unit does not have (a slot range
    /// of a unit solved by retrograde analysis, a range outside the key).
    NoSuchUnit(String),
    /// Another process is writing the directory (or it cannot be locked).
    Locked(LockError),
    /// The test hook stopped the run.
    Stopped,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Db(e) => write!(f, "{e}"),
            SolveError::MissingDependency { step, missing } => write!(
                f,
                "{step} needs {missing}, which is missing or damaged: solve the units it \
                 reads first (without --only or --key)"
            ),
            SolveError::NotInPlan { pair } => {
                write!(
                    f,
                    "pair {pair} is not part of the moving phase of this game"
                )
            }
            SolveError::NoSuchUnit(detail) => write!(f, "{detail}"),
            SolveError::Locked(e) => write!(f, "{e}"),
            SolveError::Stopped => write!(f, "stopped by MORRIS_STOP_AFTER_FILES"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<LockError> for SolveError {
    fn from(e: LockError) -> SolveError {
        SolveError::Locked(e)
    }
}

impl From<DbError> for SolveError {
    fn from(e: DbError) -> SolveError {
        SolveError::Db(e)
    }
}

/// What to solve.
pub struct Job {
    pub max_stones: u8,
    /// Solve only this moving-phase pair (named by either key); its dependencies must be on
    /// disk. No placement keys then.
    pub only: Option<(u8, u8)>,
    /// Build the placement keys after the moving phase.
    pub placement: bool,
    /// Solve only the keys with this many stones in hand, both sides together (0: the moving
    /// phase); the layer below must be on disk. A game too large for the disk is solved a
    /// layer at a time, each packed before the one below it is deleted.
    pub in_hand: Option<u32>,
    /// Stop (as if killed) after writing this many files: the resume tests' hook.
    pub stop_after_files: Option<usize>,
}

/// One unit of work, solved in memory and written as a whole: a unit of the key graph
/// ([`morris_db::plan::KeyGraph`]), with its kind, keys and what it reads.
pub use morris_db::plan::Unit as Step;

/// Every step of a job, in dependency order.
pub fn steps(rules: &Rules, job: &Job) -> Result<Vec<Step>, SolveError> {
    let graph = KeyGraph::new(rules, job.max_stones);
    let mut steps: Vec<Step> = graph.moving().to_vec();
    if let Some((m, o)) = job.only {
        steps.retain(|s| s.keys().iter().any(|k| (k.us, k.them) == (m, o)));
        if steps.is_empty() {
            return Err(SolveError::NotInPlan {
                pair: format!("{m}-{o}"),
            });
        }
    } else if job.placement {
        steps.extend_from_slice(graph.placement());
    }
    if let Some(layer) = job.in_hand {
        steps.retain(|s| s.keys().iter().all(|k| k.in_hand() == layer));
        if steps.is_empty() {
            return Err(SolveError::NoSuchUnit(format!(
                "no key of this game has {layer} stones in hand"
            )));
        }
    }
    Ok(steps)
}

/// Solves one step in memory from the values of the steps before it (`lookup`), under
/// `metric`; returns each key with its codes ([`Outcome::code`]).
///
/// Under the no-capture rule the children reached by a zeroing ply are read at distance 0
/// ([`ZeroingView`]): the retrograde pass then counts plies to the next zeroing ply, and a
/// placement key, every move of which zeroes, gets each position's value at counter 0.
pub fn solve_step(
    rules: &Rules,
    metric: Metric,
    step: &Step,
    lookup: &dyn Lookup,
    progress: &dyn Progress,
) -> Vec<(Key, Vec<u16>)> {
    let keys = step.keys();
    let pair: &[Key] = if step.is_cyclic() { &keys } else { &[] };
    under_metric(lookup, pair, metric, |lower| match step.kind {
        UnitKind::Moving | UnitKind::HandPair => solve_pair(rules, &keys, lower, progress).keys,
        UnitKind::Placement => vec![(keys[0], solve_key(rules, keys[0], lower, progress))],
    })
}

/// Calls `f` with the values a step reads under `metric`: `lookup` itself, or under the
/// no-capture rule its [`ZeroingView`] (the keys of `pair` are the step's own, read as they
/// are; the others at distance 0).
fn under_metric<R>(
    lookup: &dyn Lookup,
    pair: &[Key],
    metric: Metric,
    f: impl FnOnce(&dyn Lookup) -> R,
) -> R {
    match metric {
        Metric::Plain => f(lookup),
        Metric::NoCapture(_) => f(&ZeroingView::new(lookup, pair, metric.limit())),
    }
}

/// Receives the course of a solve.
pub trait Observer: Progress {
    fn step_started(&self, step: &Step, slots: u64);
    fn step_finished(&self, report: &StepReport);
}

/// For a caller that wants no account of the solve (an embedding, a test).
impl Observer for crate::progress::Silent {
    fn step_started(&self, _: &Step, _: u64) {}
    fn step_finished(&self, _: &StepReport) {}
}

/// Solves every step of the job not yet complete on disk, holding the directory's write lock
/// for the duration ([`DirLock`]): a second writer is refused rather than allowed to delete
/// this one's temporary files.
pub fn solve(
    store: &mut Store,
    job: &Job,
    observer: &dyn Observer,
) -> Result<Vec<StepReport>, SolveError> {
    let rules = *store.rules();
    // A job outside the plan is refused before anything is created.
    steps(&rules, job)?;
    let lock = lock_dir(store.dir())?;
    solve_locked(store, job, observer, &lock)
}

/// Creates the database directory if needed and takes its write lock, recording this
/// process's command line for a writer that is refused.
pub fn lock_dir(dir: &std::path::Path) -> Result<DirLock, SolveError> {
    std::fs::create_dir_all(dir).map_err(|source| DbError::Io {
        path: dir.to_path_buf(),
        action: "create the database directory",
        source,
    })?;
    let command: Vec<String> = std::env::args().collect();
    Ok(DirLock::acquire(dir, &command.join(" "))?)
}

/// [`solve`] under a lock the caller holds already (a caller that runs several solves over
/// one directory, the plain tables then those of the no-capture rule, keeps one lock for all).
///
/// # Panics
/// When `lock` is not the lock of the store's directory.
pub fn solve_locked(
    store: &mut Store,
    job: &Job,
    observer: &dyn Observer,
    lock: &DirLock,
) -> Result<Vec<StepReport>, SolveError> {
    assert!(
        lock.covers(store.dir()),
        "the lock of {} does not cover {}",
        lock.dir().display(),
        store.dir().display()
    );
    let rules = *store.rules();
    let steps = steps(&rules, job)?;
    let mut written = 0usize;
    let mut reports = Vec::new();
    for step in steps {
        let report = run_step(store, &step, observer, lock, &mut || {
            written += 1;
            match job.stop_after_files == Some(written) {
                true => Err(SolveError::Stopped),
                false => Ok(()),
            }
        })?;
        reports.push(report);
    }
    store.close_all();
    Ok(reports)
}

/// Solves one step and writes its files, unless they are complete on disk already; tells the
/// observer, and calls `after_file` after each file written (the resume tests' stop hook).
fn run_step(
    store: &mut Store,
    step: &Step,
    observer: &dyn Observer,
    lock: &dyn WriteLock,
    after_file: &mut dyn FnMut() -> Result<(), SolveError>,
) -> Result<StepReport, SolveError> {
    let rules = *store.rules();
    let keys = step.keys();
    let slots: u64 = keys.iter().map(|&k| slots(rules.board(), k)).sum();
    observer.step_started(step, slots);
    if keys.iter().all(|&k| is_complete(store, k, lock)) {
        let report = StepReport::skipped(keys, slots);
        observer.step_finished(&report);
        return Ok(report);
    }
    open_reads(store, step)?;
    reset_peak_memory();
    let start = Instant::now();
    let metric = store.metric();
    let solved = solve_step(&rules, metric, step, store, observer);
    let seconds = start.elapsed().as_secs_f64();
    let peak_bytes = peak_memory();
    let mut stats = Vec::new();
    for (key, codes) in &solved {
        let index = Index::new(rules.board(), *key);
        let encoding = metric.encoding(step.is_cyclic());
        // The statistics and the file side by side: the writer's hashing and writing are
        // serial, and would leave a core idle.
        let (counts, written) = rayon::join(
            || key_stats(&index, |i| codes[i as usize]),
            || -> Result<(), DbError> {
                let mut w = Writer::create_with(store.path(*key), rules, metric, encoding, *key)?;
                write_codes(&mut w, codes)?;
                w.finish()?;
                Ok(())
            },
        );
        written?;
        stats.push((*key, counts));
        // Written from the values in memory: as good as hashed.
        store.vouch(*key);
        after_file()?;
    }
    let report = StepReport {
        keys,
        slots,
        solved: true,
        seconds,
        peak_bytes,
        stats,
    };
    observer.step_finished(&report);
    Ok(report)
}

/// Opens the tables `step` reads, resident in memory, and closes the others. Tables open
/// already stay open (the steps of a solve share many); files the store hashed before are not
/// hashed again. Files are opened side by side: copying a table into memory is bound by one
/// core's copy speed, not by memory.
fn open_reads(store: &mut Store, step: &Step) -> Result<(), SolveError> {
    let reads = step.read_keys();
    store.close_except(&reads);
    let store: &Store = store;
    reads.par_iter().try_for_each(|&dep| {
        store
            .open_resident(dep, Checks::default())
            .map_err(|_| SolveError::MissingDependency {
                step: step.name(),
                missing: store.path(dep).display().to_string(),
            })
    })
}

impl StepReport {
    /// The report of a step whose files were complete already.
    fn skipped(keys: Vec<Key>, slots: u64) -> StepReport {
        StepReport {
            keys,
            slots,
            solved: false,
            seconds: 0.0,
            peak_bytes: None,
            stats: Vec::new(),
        }
    }
}

/// True when the file of `key` is complete: header right and checksum matching (unless the
/// store hashed it before, [`Store::check`]). A file that fails is removed so that it is
/// rebuilt; a leftover temporary file is removed too.
///
/// Removing files is only safe for the file's one writer: the `_lock` parameter makes holding
/// a lock that covers it (the directory's, or the unit's that writes it) a precondition the
/// compiler checks. (Without it, a second solve took the first one's half-written `.tmp` file
/// for a crash's leftover and deleted it.)
fn is_complete(store: &Store, key: Key, _lock: &dyn WriteLock) -> bool {
    let path = store.path(key);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    let _ = std::fs::remove_file(tmp);
    if !path.exists() {
        return false;
    }
    match store.check(key) {
        Ok(()) => true,
        Err(_) => {
            let _ = std::fs::remove_file(&path);
            false
        }
    }
}

/// Resets the kernel's record of the peak resident memory (Linux), so that each pair reports
/// its own peak.
fn reset_peak_memory() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// Peak resident memory since the last reset (Linux `VmHWM`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
