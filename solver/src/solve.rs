//! A whole solve over a database directory: moving-phase pairs, then placement keys, in
//! dependency order, each solved in memory and written atomically, so that an interrupted run
//! resumes at the first step without complete files.

use crate::exits::Exits;
use crate::lock::{DirLock, LockError};
use crate::placement::solve_key;
use crate::progress::Progress;
use crate::retro::solve_pair;
use crate::stats::{key_stats, KeyStats};
use crate::store::Store;
use crate::Lookup;
use morris_db::format::{Checks, DbError, Metric, Table, Writer};
use morris_db::plan::plan;
use morris_db::plan::{child_keys, placement_keys};
use morris_db::Outcome;
use morris_db::{slots, Index, Key};
use morris_engine::Rules;
use std::fmt;
use std::time::Instant;

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
                "{step} needs {missing}, which is missing or damaged: solve without --only first"
            ),
            SolveError::NotInPlan { pair } => {
                write!(
                    f,
                    "pair {pair} is not part of the moving phase of this game"
                )
            }
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
    /// Stop (as if killed) after writing this many files: the resume tests' hook.
    pub stop_after_files: Option<usize>,
}

/// One unit of work, solved in memory and written as a whole.
#[derive(Clone, Debug)]
pub enum Step {
    /// A key and its colour swap (one key when they are the same), solved together by
    /// retrograde analysis as quiet moves lead from one to the other: a moving-phase pair, or
    /// in Lasker Morris, where a player may move instead of placing, a pair with stones in hand.
    Pair(Vec<Key>),
    /// A placement key, solved by one forward pass.
    Placement(Key),
}

impl Step {
    /// True for a step solved by retrograde analysis, whose positions can follow one another
    /// without a zeroing ply: its tables under the no-capture rule hold distances to zeroing.
    pub fn is_cyclic(&self) -> bool {
        matches!(self, Step::Pair(_))
    }

    pub fn keys(&self) -> Vec<Key> {
        match self {
            Step::Pair(k) => k.clone(),
            Step::Placement(k) => vec![*k],
        }
    }

    /// `5-4 + 4-5`, `5-5`, a placement key `4-3-5-5`, or a pair with stones in hand
    /// `2-1-3-4 + 1-2-4-3`.
    pub fn name(&self) -> String {
        match self {
            Step::Pair(keys) if keys[0].is_moving_phase() => keys
                .iter()
                .map(|k| format!("{}-{}", k.us, k.them))
                .collect::<Vec<_>>()
                .join(" + "),
            Step::Pair(keys) => keys
                .iter()
                .map(Key::to_string)
                .collect::<Vec<_>>()
                .join(" + "),
            Step::Placement(k) => k.to_string(),
        }
    }

    /// The keys this step reads (solved by earlier steps).
    pub fn dependencies(&self, rules: &Rules) -> Vec<Key> {
        match self {
            Step::Pair(keys) if keys[0].is_moving_phase() => keys
                .iter()
                .filter(|k| rules.line_captures() && k.them as u32 > rules.min_stones())
                .map(|k| Key::moving(k.them - 1, k.us))
                .collect(),
            Step::Pair(keys) => {
                let mut v: Vec<Key> = keys
                    .iter()
                    .flat_map(|&k| child_keys(rules, k))
                    .filter(|k| !keys.contains(k))
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            Step::Placement(k) => child_keys(rules, *k),
        }
    }
}

/// The steps of the placement phase, children before parents: one per key, or where a player
/// may move instead of placing (Lasker Morris), one per key and its colour swap.
pub fn placement_steps(rules: &Rules, max_stones: u8) -> Vec<Step> {
    let keys = placement_keys(rules, max_stones);
    if !rules.place_or_move() {
        return keys.into_iter().map(Step::Placement).collect();
    }
    // `placement_keys` puts a key beside its colour swap.
    let mut steps: Vec<Step> = Vec::new();
    for key in keys {
        match steps.last_mut() {
            Some(Step::Pair(pair)) if pair[0].swapped() == key => pair.push(key),
            _ => steps.push(Step::Pair(vec![key])),
        }
    }
    steps
}

/// True for a key whose positions can follow one another without a zeroing ply (the moving
/// phase; where a player may slide instead of placing, every key): solved by retrograde
/// analysis, its tables under the no-capture rule hold distances to zeroing.
pub fn is_cyclic(rules: &Rules, key: Key) -> bool {
    key.is_moving_phase() || rules.place_or_move()
}

/// The keys whose values a position of `key` and its moves read: the key itself, and where
/// its moves lead (for verify and query).
pub fn reads(rules: &Rules, key: Key) -> Vec<Key> {
    let mut v = vec![key];
    if key.is_moving_phase() {
        v.push(key.swapped());
        v.extend(Step::Pair(vec![key]).dependencies(rules));
    } else {
        v.extend(child_keys(rules, key));
    }
    // A side below the minimum of stones has lost: no key to read.
    v.retain(|k| (k.them + k.them_hand) as u32 >= rules.min_stones());
    v.dedup();
    v
}

/// Every step of a job, in dependency order.
pub fn steps(rules: &Rules, job: &Job) -> Result<Vec<Step>, SolveError> {
    let mut steps: Vec<Step> = if rules.stones_move() {
        plan(rules, job.max_stones)
            .into_iter()
            .map(|r| Step::Pair(r.keys))
            .collect()
    } else {
        Vec::new()
    };
    if let Some((m, o)) = job.only {
        steps.retain(|s| s.keys().iter().any(|k| (k.us, k.them) == (m, o)));
        if steps.is_empty() {
            return Err(SolveError::NotInPlan {
                pair: format!("{m}-{o}"),
            });
        }
    } else if job.placement {
        steps.extend(placement_steps(rules, job.max_stones));
    }
    Ok(steps)
}

/// Solves one step in memory from the values of the steps before it (`lookup`), under
/// `metric`; returns each key with its codes ([`Outcome::code`]).
///
/// Under the no-capture rule the children reached by a zeroing ply are read at distance 0
/// ([`Exits`]): the retrograde pass then counts plies to the next zeroing ply, and a placement
/// key, every move of which zeroes, gets each position's value at counter 0.
pub fn solve_step(
    rules: &Rules,
    metric: Metric,
    step: &Step,
    lookup: &dyn Lookup,
    progress: &dyn Progress,
) -> Vec<(Key, Vec<u16>)> {
    let keys = step.keys();
    let pair: &[Key] = if step.is_cyclic() { &keys } else { &[] };
    let exits = Exits::new(lookup, pair, metric.limit());
    let lower: &dyn Lookup = match metric {
        Metric::Plain => lookup,
        Metric::NoCapture(_) => &exits,
    };
    match step {
        Step::Pair(keys) => solve_pair(rules, keys, lower, progress).keys,
        Step::Placement(key) => vec![(*key, solve_key(rules, *key, lower, progress))],
    }
}

/// Receives the course of a solve.
pub trait Observer: Progress {
    fn step_started(&self, step: &Step, slots: u64);
    fn step_finished(&self, report: &StepReport);
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
        let keys = step.keys();
        let slots: u64 = keys.iter().map(|&k| slots(rules.board(), k)).sum();
        observer.step_started(&step, slots);
        if keys.iter().all(|&k| is_complete(store, k, lock)) {
            let report = StepReport {
                keys,
                slots,
                solved: false,
                seconds: 0.0,
                peak_bytes: None,
                stats: Vec::new(),
            };
            observer.step_finished(&report);
            reports.push(report);
            continue;
        }
        store.close_all();
        for dep in step.dependencies(&rules) {
            store.open_resident(dep, Checks::default()).map_err(|_| {
                SolveError::MissingDependency {
                    step: step.name(),
                    missing: store.path(dep).display().to_string(),
                }
            })?;
        }
        reset_peak_memory();
        let start = Instant::now();
        let metric = store.metric();
        let solved = solve_step(&rules, metric, &step, store, observer);
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        let mut stats = Vec::new();
        for (key, codes) in &solved {
            let index = Index::new(rules.board(), *key);
            stats.push((
                *key,
                key_stats(&index, |i| Outcome::from_code(codes[i as usize])),
            ));
            let encoding = metric.encoding(step.is_cyclic());
            let mut w = Writer::create_with(store.path(*key), rules, metric, encoding, *key)?;
            for &c in codes {
                w.push(Outcome::from_code(c))?;
            }
            w.finish()?;
            written += 1;
            if job.stop_after_files == Some(written) {
                return Err(SolveError::Stopped);
            }
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
        reports.push(report);
    }
    store.close_all();
    Ok(reports)
}

/// True when the file of `key` is complete: header right and checksum matching. A file that
/// fails is removed so that it is rebuilt; a leftover temporary file is removed too.
///
/// Removing files is only safe for the directory's one writer: the `_lock` parameter makes
/// holding the lock a precondition the compiler checks. (Without it, a second solve took the
/// first one's half-written `.tmp` file for a crash's leftover and deleted it.)
fn is_complete(store: &Store, key: Key, _lock: &DirLock) -> bool {
    let path = store.path(key);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    let _ = std::fs::remove_file(tmp);
    if !path.exists() {
        return false;
    }
    match Table::open_with(
        &path,
        *store.rules(),
        store.metric(),
        key,
        Checks::default(),
    ) {
        Ok(_) => true,
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
