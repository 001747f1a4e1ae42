use crate::options::{thousands, threads, DbArgs, RuleArgs};
use crate::progress::Bars;
use crate::Failure;
use morris_solver::progress::Progress;
use morris_solver::solve::{solve, Job, Observer, SolveError, Step, StepReport};
use morris_solver::store::Store;

/// Build the databases: moving-phase pairs, then placement keys, in dependency order; resumable
#[derive(clap::Args)]
#[command(
    after_help = "A killed or crashed solve restarts where it stopped: complete files are kept (checked by\n\
checksum), unfinished ones are discarded. Solving a complete directory again does nothing.\n\n\
With --moves-without-capture N the tables of that rule are built too, after the plain ones.\n\n\
Examples:\n  morris solve --db dbs/nine --max-stones 4\n  morris solve --db dbs/nine --max-stones 5 --moves-without-capture 50\n  morris solve --db dbs/nine\n  morris solve --db dbs/nine --only 5-4 --threads 2"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    #[command(flatten)]
    rules: RuleArgs,
}

struct Report<'a> {
    bars: &'a Bars,
    /// The step under way, for its summary line.
    name: std::sync::Mutex<String>,
}

impl Progress for Report<'_> {
    fn start(&self, phase: &str, total: u64) {
        self.bars.start(phase, total);
    }
    fn advance(&self, n: u64) {
        self.bars.advance(n);
    }
}

impl Observer for Report<'_> {
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
    let rules = args.rules.rules();
    threads(args.threads)?;
    let max_stones = args.db.max_stones(&rules)?;
    let job = Job {
        max_stones,
        only: args.db.only,
        placement: !args.db.moving_only,
        stop_after_files: std::env::var("MORRIS_STOP_AFTER_FILES")
            .ok()
            .and_then(|v| v.parse().ok()),
    };
    // A job the solver refuses reports its error below; its bar has nothing to count.
    let total: u64 = morris_solver::solve::steps(&rules, &job)
        .unwrap_or_default()
        .iter()
        .flat_map(|step| step.keys())
        .map(|key| morris_db::slots(rules.board(), key))
        .sum();
    // Under the no-capture rule the plain tables come first (queries read both).
    let mut metrics = vec![morris_db::Metric::Plain];
    if let Some(n) = args.rules.moves_without_capture {
        metrics.push(morris_db::Metric::NoCapture(n));
    }
    let start = std::time::Instant::now();
    let mut reports = Vec::new();
    for &metric in &metrics {
        let bars = Bars::new(total, "slots");
        let mut store = Store::with_metric(&args.db.db, rules, metric);
        let report = Report {
            bars: &bars,
            name: Default::default(),
        };
        if metric != morris_db::Metric::Plain {
            bars.println(&format!(
                "the tables of {}",
                morris_db::format::describe_metric(metric)
            ));
        }
        let result = solve(&mut store, &job, &report);
        bars.finish();
        reports.extend(result.map_err(|e| match e {
            SolveError::MissingDependency { .. } | SolveError::NotInPlan { .. } => {
                Failure::input(e)
            }
            e => Failure::failed(e),
        })?);
    }
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
    let start_key = morris_solver::key_of(&start_pos);
    if reports.iter().any(|r| r.keys.contains(&start_key)) {
        let tb = crate::commands::query::tablebase(&args.db.db, &args.rules)?;
        let probe = tb
            .probe(&start_pos)
            .map_err(crate::commands::query::failure)?;
        println!(
            "start position: {}",
            crate::commands::query::describe(probe.outcome)
        );
        if let Some(r) = &probe.rule {
            println!(
                "start position with {} plies without a capture: {}",
                r.limit,
                crate::commands::query::describe_rule(r, probe.outcome)
            );
        }
    }
    Ok(())
}
