//! How long a probe of a packed set takes, measured as a user's probes meet it: random
//! positions of every key, in a random order across keys, each probed once with nothing of
//! it decoded yet (the block from the file, or from the page cache if the file is there), then
//! all again in another order (page cache hot; the per-thread block cache keeps the last few
//! hundred blocks, far fewer than a set has, so nearly every probe of a stored key still
//! decompresses one). `morris pack --latency` prints it; the figures in results/ come from it.
//!
//! With `preload`, every file is read into memory first, as `serve --preload` does: the cold
//! pass then meets no disk read.
//!
//! A probe's wall time is what a user waits, but on a shared virtual machine its slowest
//! probes can be the host's: a core taken away for milliseconds (steal), or a page read from
//! disk. So each pass also counts the pages read from disk while it ran (major page faults),
//! and each probe's CPU time, which leaves both waits out (where the kernel subtracts steal
//! from a task's time, as Linux guests of KVM do; interrupts handled meanwhile stay in): the
//! slowest probe's CPU time bounds the reader's own worst case.

use std::path::Path;
use std::time::Instant;

use morris_db::format::{DbError, Metric};
use morris_db::{Index, Key, Outcome, Value};
use morris_engine::Rules;
use morris_packed::Kind;

use super::set::PackedSet;
use crate::rng::Rng;

/// One pass over the samples of one kind of set.
#[derive(Clone, Debug)]
pub struct Pass {
    /// `"cold"` (first touch) or `"warm"`.
    pub name: &'static str,
    pub kind: Kind,
    pub all: Spread,
    /// The probes of keys with a file, and of keys the set leaves out (searched), when the
    /// set has both.
    pub stored: Option<Spread>,
    pub searched: Option<Spread>,
    /// Pages read from disk during the pass (the process's major page faults), where the
    /// system counts them.
    pub disk_reads: Option<u64>,
}

/// The spread of a pass's probe times, in microseconds.
#[derive(Copy, Clone, Debug)]
pub struct Spread {
    pub probes: usize,
    pub median: f64,
    pub p99: f64,
    pub max: f64,
    /// The most CPU time one probe took (its thread's user and system time), where the
    /// system measures it.
    pub cpu_max: Option<f64>,
}

/// One probe: wall and CPU nanoseconds.
#[derive(Copy, Clone)]
struct Time {
    wall: u64,
    cpu: Option<u64>,
}

impl Spread {
    fn of(times: &mut [Time]) -> Spread {
        times.sort_unstable_by_key(|t| t.wall);
        let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize].wall as f64 / 1000.0;
        Spread {
            probes: times.len(),
            median: at(0.5),
            p99: at(0.99),
            max: at(1.0),
            // Unknown if any probe's is.
            cpu_max: times
                .iter()
                .try_fold(0, |most: u64, t| t.cpu.map(|c| most.max(c)))
                .map(|ns| ns as f64 / 1000.0),
        }
    }
}

impl core::fmt::Display for Spread {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "median {:.1} µs, p99 {:.1} µs, max {:.1} µs",
            self.median, self.p99, self.max
        )?;
        match self.cpu_max {
            Some(cpu) => write!(f, " (CPU at most {cpu:.1} µs)"),
            None => Ok(()),
        }
    }
}

/// `n` random positions (holes skipped) of every key of `keys`, probed from the packed sets
/// of each kind of `kinds` in `dir`: a cold and a warm pass per kind, each set's files read
/// into memory first where `preload` says so.
pub fn measure(
    dir: &Path,
    rules: Rules,
    metric: Metric,
    keys: &[Key],
    kinds: &[Kind],
    n: u32,
    preload: bool,
) -> Result<Vec<Pass>, DbError> {
    // A fixed seed: the same samples on every run, so that runs compare.
    let mut rng = Rng::new(0);
    // By the key's place in `keys`.
    let mut samples: Vec<(usize, u64)> = Vec::new();
    for (k, &key) in keys.iter().enumerate() {
        let index = Index::new(rules.board(), key);
        for _ in 0..n {
            let slot = loop {
                let s = rng.next_u64() % index.size();
                if !index.is_hole(s) {
                    break s;
                }
            };
            samples.push((k, slot));
        }
    }
    let mut passes = Vec::new();
    for &kind in kinds {
        let set = match kind {
            Kind::Wdl => Either::Values(PackedSet::new(dir, rules, metric)),
            Kind::Distance => Either::Outcomes(PackedSet::new(dir, rules, metric)),
        };
        let mut searched = Vec::with_capacity(keys.len());
        for &key in keys {
            let s = set.searched(key)?;
            if !s {
                set.open(key)?;
                if preload {
                    set.preload(key)?;
                }
            }
            searched.push(s);
        }
        let mut order: Vec<usize> = (0..samples.len()).collect();
        for name in ["cold", "warm"] {
            for i in (1..order.len()).rev() {
                order.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
            }
            let mut times = Vec::with_capacity(order.len());
            let mut by_kind: [Vec<Time>; 2] = [Vec::new(), Vec::new()];
            let faults = major_faults();
            for &i in &order {
                let (k, slot) = samples[i];
                let cpu = thread_cpu_ns();
                let t = Instant::now();
                set.get_slot(keys[k], slot)?;
                let wall = t.elapsed().as_nanos() as u64;
                let cpu = cpu.zip(thread_cpu_ns()).map(|(a, b)| b.saturating_sub(a));
                let time = Time { wall, cpu };
                times.push(time);
                by_kind[searched[k] as usize].push(time);
            }
            let disk_reads = faults.zip(major_faults()).map(|(a, b)| b.saturating_sub(a));
            let split = by_kind.iter().all(|t| !t.is_empty());
            let [mut stored, mut left_out] = by_kind;
            passes.push(Pass {
                name,
                kind,
                all: Spread::of(&mut times),
                stored: split.then(|| Spread::of(&mut stored)),
                searched: split.then(|| Spread::of(&mut left_out)),
                disk_reads,
            });
        }
    }
    Ok(passes)
}

/// A set of either kind, probed for time only.
enum Either {
    Values(PackedSet<Value>),
    Outcomes(PackedSet<Outcome>),
}

impl Either {
    fn searched(&self, key: Key) -> Result<bool, DbError> {
        match self {
            Either::Values(s) => s.searched(key),
            Either::Outcomes(s) => s.searched(key),
        }
    }

    fn open(&self, key: Key) -> Result<(), DbError> {
        match self {
            Either::Values(s) => s.open(key).map(|_| ()),
            Either::Outcomes(s) => s.open(key).map(|_| ()),
        }
    }

    fn preload(&self, key: Key) -> Result<u64, DbError> {
        match self {
            Either::Values(s) => s.preload(key),
            Either::Outcomes(s) => s.preload(key),
        }
    }

    fn get_slot(&self, key: Key, slot: u64) -> Result<(), DbError> {
        match self {
            Either::Values(s) => s.get_slot(key, slot).map(|_| ()),
            Either::Outcomes(s) => s.get_slot(key, slot).map(|_| ()),
        }
    }
}

/// The calling thread's CPU time, user and system, in nanoseconds. It leaves out the time the
/// thread waited: for a page from disk, or for a core the host took away (steal, where the
/// kernel accounts it).
#[cfg(unix)]
fn thread_cpu_ns() -> Option<u64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the duration of the call.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(not(unix))]
fn thread_cpu_ns() -> Option<u64> {
    None
}

/// The process's major page faults so far: pages the kernel read from disk for it.
#[cfg(unix)]
fn major_faults() -> Option<u64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: `usage` is valid for writes of a `rusage`, which the call fills on success.
    let r = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    // SAFETY: the call returned 0, so it wrote the whole struct.
    (r == 0).then(|| unsafe { usage.assume_init() }.ru_majflt as u64)
}

#[cfg(not(unix))]
fn major_faults() -> Option<u64> {
    None
}
