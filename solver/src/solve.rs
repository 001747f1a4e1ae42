//! The moving-phase solve over a database directory: pairs in dependency order, each solved
//! in memory and written atomically, so that an interrupted run resumes at the first pair
//! without both complete files.

use crate::progress::Progress;
use crate::retro::{plies, solve_pair};
use crate::stats::{key_stats, KeyStats};
use crate::store::Store;
use morris_db::format::{Checks, DbError, Outcome, Writer};
use morris_db::plan::plan;
use morris_db::{Index, Key};
use std::fmt;
use std::time::Instant;

/// What happened to one pair.
#[derive(Clone, Debug)]
pub struct PairReport {
    pub keys: Vec<Key>,
    pub slots: u64,
    /// False when both files were already there, complete and checksummed.
    pub solved: bool,
    pub seconds: f64,
    /// Peak resident memory of the process while the pair was solved, when the system says.
    pub peak_bytes: Option<u64>,
    /// Wins, draws and losses of each key just solved (empty when skipped).
    pub stats: Vec<(Key, KeyStats)>,
}

#[derive(Debug)]
pub enum SolveError {
    Db(DbError),
    /// `--only` names a pair whose captures lead into pairs not yet on disk.
    MissingDependency {
        pair: String,
        missing: String,
    },
    /// `--only` names a pair outside the plan.
    NotInPlan {
        pair: String,
    },
    /// The test hook stopped the run.
    Stopped,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Db(e) => write!(f, "{e}"),
            SolveError::MissingDependency { pair, missing } => write!(
                f,
                "pair {pair} needs {missing}, which is missing or damaged: solve without --only first"
            ),
            SolveError::NotInPlan { pair } => {
                write!(f, "pair {pair} is not part of the moving phase of this game")
            }
            SolveError::Stopped => write!(f, "stopped by MORRIS_STOP_AFTER_FILES"),
        }
    }
}

impl std::error::Error for SolveError {}

impl From<DbError> for SolveError {
    fn from(e: DbError) -> SolveError {
        SolveError::Db(e)
    }
}

/// What to solve.
pub struct Job {
    pub max_stones: u8,
    /// Solve only this pair (named by either key), its dependencies must be on disk.
    pub only: Option<(u8, u8)>,
    /// Stop (as if killed) after writing this many files: the resume tests' hook.
    pub stop_after_files: Option<usize>,
}

/// Receives the course of a solve.
pub trait Observer: Progress {
    /// A pair begins (its first key names it).
    fn pair_started(&self, keys: &[Key], slots: u64);
    fn pair_finished(&self, report: &PairReport);
}

/// Solves every pair of the job not yet complete on disk.
pub fn solve_moving(
    store: &mut Store,
    job: &Job,
    observer: &dyn Observer,
) -> Result<Vec<PairReport>, SolveError> {
    let rules = *store.rules();
    let rows = plan(&rules, job.max_stones);
    let mut selected: Vec<_> = rows.iter().collect();
    if let Some((m, o)) = job.only {
        selected.retain(|r| r.keys.iter().any(|k| (k.us, k.them) == (m, o)));
        if selected.is_empty() {
            return Err(SolveError::NotInPlan {
                pair: format!("{m}-{o}"),
            });
        }
    }
    std::fs::create_dir_all(store.dir()).map_err(|source| DbError::Io {
        path: store.dir().to_path_buf(),
        action: "create the database directory",
        source,
    })?;
    let mut written = 0usize;
    let mut reports = Vec::new();
    for row in selected {
        let slots = row.slots;
        observer.pair_started(&row.keys, slots);
        if row.keys.iter().all(|&k| is_complete(store, k)) {
            let report = PairReport {
                keys: row.keys.clone(),
                slots,
                solved: false,
                seconds: 0.0,
                peak_bytes: None,
                stats: Vec::new(),
            };
            observer.pair_finished(&report);
            reports.push(report);
            continue;
        }
        // The pairs that captures lead into, read through memory maps.
        store.close_all();
        for &k in &row.keys {
            if k.them > 3 {
                let lower = Key::moving(k.them - 1, k.us);
                store.open(lower, Checks::default()).map_err(|_| {
                    SolveError::MissingDependency {
                        pair: row.keys[0].to_string(),
                        missing: store.path(lower).display().to_string(),
                    }
                })?;
            }
        }
        reset_peak_memory();
        let start = Instant::now();
        let solved = solve_pair(&rules, row.keys[0], store, observer);
        let seconds = start.elapsed().as_secs_f64();
        let peak_bytes = peak_memory();
        let mut stats = Vec::new();
        for (key, codes) in &solved.keys {
            let index = Index::new(rules.board(), *key);
            stats.push((*key, key_stats(&index, |i| plies(codes[i as usize]))));
            let mut w = Writer::create(store.path(*key), rules, *key)?;
            for &c in codes {
                w.push(plies(c).map_or(Outcome::DRAW, Outcome::in_plies))?;
            }
            w.finish()?;
            written += 1;
            if job.stop_after_files == Some(written) {
                return Err(SolveError::Stopped);
            }
        }
        let report = PairReport {
            keys: row.keys.clone(),
            slots,
            solved: true,
            seconds,
            peak_bytes,
            stats,
        };
        observer.pair_finished(&report);
        reports.push(report);
    }
    store.close_all();
    Ok(reports)
}

/// True when the file of `key` is complete: header right and checksum matching. A file that
/// fails is removed so that it is rebuilt; a leftover temporary file is removed too.
fn is_complete(store: &Store, key: Key) -> bool {
    let path = store.path(key);
    let mut tmp = path.clone().into_os_string();
    tmp.push(".tmp");
    let _ = std::fs::remove_file(tmp);
    if !path.exists() {
        return false;
    }
    match morris_db::format::Table::open(&path, *store.rules(), key) {
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
