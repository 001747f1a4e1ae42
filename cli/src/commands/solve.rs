use crate::options::{thousands, threads, DbArgs, RuleFlags};
use crate::progress::Bars;
use crate::Failure;
use morris_db::format::HEADER_LEN;
use morris_db::plan::UnitKind;
use morris_db::plan::{bytes, PLACEMENT_BYTES_PER_SLOT, SOLVE_BYTES_PER_SLOT};
use morris_db::{Key, Metric};
use morris_engine::Rules;
use morris_solver::progress::Progress;
use morris_solver::solve::{
    lock_dir, solve_locked, steps, Job, Observer, SolveError, Step, StepReport,
};
use morris_tablebase::store::Store;
use std::path::Path;

mod unit;

/// Build the databases: moving-phase pairs, then placement keys, in dependency order; resumable
#[derive(clap::Args)]
#[command(
    after_help = "A killed or crashed solve restarts where it stopped: complete files are kept (checked by\n\
checksum), unfinished ones are discarded. Solving a complete directory again does nothing.\n\n\
With --moves-without-capture N the tables of that rule are built too, after the plain ones.\n\n\
One solve writes a directory at a time: a second one is refused, naming the process that\n\
holds it (queries may run meanwhile). Before starting, the disk space of the files still\n\
missing and the memory of the largest step still to solve (the figures of `morris plan`) are\n\
checked against the free disk and the available memory; --force starts anyway.\n\n\
With --key the solve runs one unit of its key graph, a job of a workflow (`morris plan --emit\n\
slurm` or `make`): the pair or placement key holding the key; with --range a slot range of a\n\
placement key into a part file, with --join the key's parts joined into its table. Unit jobs\n\
run side by side in one directory (each locks its own output; a whole solve excludes them);\n\
a job whose output is complete does nothing; --check only says whether it is (exit 0) or\n\
not (exit 1). The tables a unit reads must be complete.\n\n\
Examples:\n  morris solve --db dbs/nine --max-stones 4\n  morris solve --db dbs/nine --max-stones 5 --moves-without-capture 50\n  morris solve --db dbs/nine\n  morris solve --db dbs/nine --only 5-4 --threads 2\n  morris solve --db dbs/s5 --stones 5 --key 5-4-0-0\n  morris solve --db dbs/s5 --stones 5 --key 2-3-2-2 --range 0..4096\n  morris solve --db dbs/s5 --stones 5 --key 2-3-2-2 --join"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Start even when the files still missing need more disk space, or the largest step
    /// more memory, than the system has free
    #[arg(long)]
    force: bool,
    /// Run one unit of the solve: the moving-phase pair or placement key holding key K
    /// (M-O-MH-OH, e.g. 5-4-0-0 or 2-3-2-2)
    #[arg(long, value_name = "K", conflicts_with_all = ["only", "moving_only", "in_hand"])]
    key: Option<Key>,
    /// With --key: solve only the slots A..B (A included, B not) of a placement key, into a
    /// part file
    #[arg(long, value_name = "A..B", requires = "key", value_parser = unit::parse_range)]
    range: Option<std::ops::Range<u64>>,
    /// With --key: join the part files of a placement key into its table (then removed)
    #[arg(long, requires = "key", conflicts_with = "range")]
    join: bool,
    /// With --key: solve nothing; exit 0 when the unit's output is complete, 1 when not
    #[arg(long, requires = "key")]
    check: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

struct SolveReport<'a> {
    bars: &'a Bars,
    /// The step under way, for its summary line.
    name: std::sync::Mutex<String>,
}

impl Progress for SolveReport<'_> {
    fn start(&self, phase: &str, total: u64) {
        self.bars.start(phase, total);
    }
    fn advance(&self, n: u64) {
        self.bars.advance(n);
    }
}

impl Observer for SolveReport<'_> {
    fn step_started(&self, step: &Step, _slots: u64) {
        *self.name.lock().expect("not poisoned") = step.name();
        self.bars.begin(&step.name());
    }

    fn step_finished(&self, r: &StepReport) {
        self.bars.done(r.slots);
        let name = self.name.lock().expect("not poisoned").clone();
        if !r.solved {
            self.bars
                .println(&format!("{name}: complete on disk, skipped"));
            return;
        }
        let rate = r.slots as f64 / r.seconds.max(1e-9);
        let mut line = format!(
            "{name}: {} slots in {:.2} s ({:.2} M slots/s, {:.2} M/s per thread), peak memory {}",
            thousands(r.slots),
            r.seconds,
            rate / 1e6,
            rate / 1e6 / rayon::current_num_threads() as f64,
            r.peak_bytes
                .map_or("unknown".into(), morris_db::plan::bytes),
        );
        for (key, s) in &r.stats {
            line += &format!(
                "; {key}: {} wins, {} draws, {} losses",
                thousands(s.wins),
                thousands(s.draws),
                thousands(s.losses)
            );
        }
        self.bars.println(&line);
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    threads(args.threads)?;
    let max_stones = args.db.max_stones(&rules)?;
    if let Some(key) = args.key {
        return unit::run(&args, rules, max_stones, key);
    }
    let job = Job {
        max_stones,
        only: args.db.only,
        placement: !args.db.moving_only,
        in_hand: args.db.in_hand,
        stop_after_files: std::env::var("MORRIS_STOP_AFTER_FILES")
            .ok()
            .and_then(|v| v.parse().ok()),
    };
    let steps = steps(&rules, &job).map_err(Failure::input)?;
    let total: u64 = steps
        .iter()
        .flat_map(|step| step.keys())
        .map(|key| morris_db::slots(rules.board(), key))
        .sum();
    let metrics = metrics(&args.rules)?;
    let needs = Needs::of(&rules, &steps, &metrics, &args.db.db);
    if !args.force {
        needs.check(&args.db.db)?;
    }
    // One lock for the whole run (both metrics): no other writer slips in between.
    let lock = lock_dir(&args.db.db).map_err(Failure::failed)?;
    let start = std::time::Instant::now();
    let mut reports = Vec::new();
    for &metric in &metrics {
        let bars = Bars::new(total, "slots");
        let mut store = Store::with_metric(&args.db.db, rules, metric);
        let report = SolveReport {
            bars: &bars,
            name: Default::default(),
        };
        if metric != morris_db::Metric::Plain {
            bars.println(&format!(
                "the tables of {}",
                morris_db::format::describe_metric(metric)
            ));
        }
        let result = solve_locked(&mut store, &job, &report, &lock);
        bars.finish();
        reports.extend(result.map_err(|e| match e {
            SolveError::MissingDependency { .. } | SolveError::NotInPlan { .. } => {
                Failure::input(e)
            }
            e => Failure::failed(e),
        })?);
    }
    drop(lock);
    let solved = reports.iter().filter(|r| r.solved).count();
    if solved == 0 {
        println!(
            "nothing to do: all {} step(s) are complete in {}",
            reports.len(),
            args.db.db.display()
        );
    } else {
        println!(
            "solved {solved} step(s) of {} in {:.1} s; databases in {}",
            reports.len(),
            start.elapsed().as_secs_f64(),
            args.db.db.display()
        );
    }
    let start_pos = morris_engine::Position::start(&rules);
    let start_key = morris_tablebase::key_of(&start_pos);
    if reports.iter().any(|r| r.keys.contains(&start_key)) {
        let tb = crate::commands::query::tablebase(&args.db.db, &args.rules.rule_set()?)?;
        let probe = tb
            .probe(&start_pos)
            .map_err(crate::commands::query::failure)?;
        println!(
            "start position: {}",
            crate::commands::query::describe(probe.plain)
        );
        if let Some(r) = &probe.rule {
            println!(
                "start position with {} plies without a capture: {}",
                r.limit,
                crate::commands::query::describe_rule(r, probe.plain)
            );
        }
    }
    Ok(())
}

/// The tables a solve builds: under the no-capture rule the plain tables come first (queries
/// read both).
fn metrics(rules: &RuleFlags) -> Result<Vec<Metric>, Failure> {
    let mut metrics = vec![Metric::Plain];
    if let Some(n) = rules.rule_set()?.moves_without_capture() {
        metrics.push(Metric::NoCapture(n));
    }
    Ok(metrics)
}

/// What the files still missing will take: the figures of `morris plan` (`db/src/plan.rs`)
/// restricted to the steps with a file to write, so that resuming a nearly finished solve on
/// a nearly full disk is not refused for the files it already has.
struct Needs {
    /// Files still missing (a damaged file with its final name is rebuilt too, but is rare
    /// enough not to be counted: checking it would read every file before starting).
    files: usize,
    /// Their size on disk (header and entries; overflow records, empty in practice, aside).
    disk: u64,
    /// The largest memory need of a step with a missing file, and that step's name.
    memory: u64,
    step: String,
}

impl Needs {
    fn of(rules: &Rules, steps: &[Step], metrics: &[Metric], dir: &Path) -> Needs {
        let mut needs = Needs {
            files: 0,
            disk: 0,
            memory: 0,
            step: String::new(),
        };
        for &metric in metrics {
            let store = Store::with_metric(dir, *rules, metric);
            for step in steps {
                let keys = step.keys();
                let missing: Vec<Key> = keys
                    .iter()
                    .copied()
                    .filter(|&k| !store.path(k).exists())
                    .collect();
                if missing.is_empty() {
                    continue;
                }
                needs.files += missing.len();
                needs.disk += missing
                    .iter()
                    .map(|&k| file_len(rules, metric, k))
                    .sum::<u64>();
                // The solver's working memory for the step, and the resident copies of the
                // tables it reads.
                let per_slot = if step.is_cyclic() {
                    SOLVE_BYTES_PER_SLOT
                } else {
                    PLACEMENT_BYTES_PER_SLOT
                };
                let slots: u64 = keys
                    .iter()
                    .map(|&k| morris_db::slots(rules.board(), k))
                    .sum();
                let read: u64 = step
                    .read_keys()
                    .iter()
                    .map(|&k| file_len(rules, metric, k))
                    .sum();
                let memory = per_slot * slots + read;
                if memory > needs.memory {
                    needs.memory = memory;
                    needs.step = step.name();
                }
            }
        }
        needs
    }

    /// Refuses (exit 1, one line) when the files do not fit on the disk or the largest step
    /// in the available memory; a figure the system does not give is not checked.
    fn check(&self, dir: &Path) -> Result<(), Failure> {
        if self.files == 0 {
            return Ok(());
        }
        crate::disk::check(
            dir,
            self.disk,
            &format!("the {} missing file(s)", self.files),
        )?;
        if let Some(available) = available_memory() {
            if self.memory > available {
                return Err(Failure::failed(format!(
                    "not enough memory: step {} needs {}, {} is available (solve a smaller \
                     --max-stones, or pass --force to start anyway)",
                    self.step,
                    bytes(self.memory),
                    bytes(available)
                )));
            }
        }
        Ok(())
    }
}

/// The size of the file of `key` (without overflow records).
fn file_len(rules: &Rules, metric: Metric, key: Key) -> u64 {
    let encoding = metric.encoding(UnitKind::of(rules, key).is_cyclic());
    HEADER_LEN as u64 + encoding.entry_bytes(morris_db::slots(rules.board(), key))
}

/// A figure from a test hook (`MORRIS_TEST_FREE_DISK`, `MORRIS_TEST_AVAILABLE_MEMORY`, in
/// bytes), so that the tests can check a refusal without filling a disk or the memory.
fn test_hook(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.parse().ok()
}

/// The kernel's estimate of memory available to new work without swapping (`MemAvailable`
/// of /proc/meminfo, Linux): free memory plus the page cache it can drop.
fn available_memory() -> Option<u64> {
    if let Some(v) = test_hook("MORRIS_TEST_AVAILABLE_MEMORY") {
        return Some(v);
    }
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
