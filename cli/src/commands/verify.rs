use crate::options::{thousands, threads, DbArgs, RuleFlags};
use crate::progress::Bars;
use crate::Failure;
use morris_db::format::Checks;
use morris_db::Key;
use morris_engine::{Color, Position};
use morris_solver::journal::{stamp, Journal};
use morris_solver::solve::unit::find;
use morris_solver::verify::verify_key;
use morris_tablebase::reads;
use morris_tablebase::store::Store;
use morris_tablebase::tablebase::build_command_for;

/// Recompute every stored value from its successors and report mismatches
#[derive(clap::Args)]
#[command(
    after_help = "Exit code 1 when any stored value disagrees with its successors.\n\n\
With --journal FILE every key that passes is recorded in FILE with the checksums of the \
tables it was checked against, and a rerun with the same FILE skips the keys recorded with \
unchanged tables: an interrupted verification goes on where it stopped.\n\n\
Examples:\n  morris verify --db dbs/nine\n  morris verify --db dbs/nine --only 4-3\n  \
morris verify --db dbs/nine --journal dbs/nine/verify.journal\n  \
morris verify --db dbs/nine --key 7-5-2-1"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Mismatches printed per key at most
    #[arg(long, default_value_t = 20)]
    limit: usize,
    /// Record the keys that pass here, and skip those recorded with unchanged tables
    #[arg(long, value_name = "FILE")]
    journal: Option<std::path::PathBuf>,
    /// Verify one unit of the solve: the moving-phase pair or placement key holding key K
    /// (M-O-MH-OH, e.g. 5-4-0-0 or 2-3-2-2), as `solve --key` builds it
    #[arg(long, value_name = "K", conflicts_with_all = ["only", "moving_only", "in_hand"])]
    key: Option<Key>,
    #[command(flatten)]
    rules: RuleFlags,
}

/// Opens keys for reading (with `resident`, copied into memory), or says which file is
/// missing and how to build it.
pub fn open_all(
    store: &Store,
    keys: &[Key],
    max_stones: u8,
    resident: bool,
) -> Result<(), Failure> {
    for &k in keys {
        store.load(k, Checks::default(), resident).map_err(|e| {
            let build = build_command_for(store.rules(), store.dir(), store.metric(), max_stones);
            Failure::failed(format!("{e}\n(build it with: {build})"))
        })?;
    }
    Ok(())
}

/// The line `verify --journal` records for `key` once it passes: the check (the table's file
/// name) and the stamp (the checksums of `read`, the tables the check reads, open in `store`).
/// `pack --verify --verified-by` looks a key up by the same line.
pub fn journal_line(store: &Store, key: Key, read: &[Key]) -> (String, String) {
    let file = store.path(key);
    let check = format!(
        "verify {}",
        file.file_name().unwrap_or_default().to_string_lossy()
    );
    let stamp = stamp(
        read.iter()
            .filter_map(|&k| store.table(k))
            .map(|(_, t)| t.header().checksum),
    );
    (check, stamp)
}

/// The journal of `--journal`, if given (a missing file is an empty journal).
pub fn open_journal(path: Option<&std::path::Path>) -> Result<Option<Journal>, Failure> {
    path.map(Journal::open).transpose().map_err(Failure::failed)
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    threads(args.threads)?;
    let max = args.db.max_stones(&rules)?;
    let keys = match args.key {
        Some(k) => find(&rules, max, k).map_err(Failure::input)?.keys(),
        None => args.db.keys(&rules)?,
    };
    let mut store = Store::with_metric(&args.db.db, rules, args.rules.metric()?);
    let mut journal = open_journal(args.journal.as_deref())?;
    let bars = Bars::new(keys.len() as u64, "keys");
    let mut bad_total = 0;
    for key in keys {
        let read = reads(&rules, key);
        // Resident, as the solve reads them: every child is a random read. Tables the next
        // key reads too stay open, and none is hashed twice (the store remembers).
        store.close_except(&read);
        open_all(&store, &read, max, true)?;
        let (check, stamp) = journal_line(&store, key, &read);
        if journal.as_ref().is_some_and(|j| j.passed(&check, &stamp)) {
            bars.println(&format!("{key}: verified before (journal), skipped"));
            bars.done(1);
            continue;
        }
        bars.begin(&key.to_string());
        let start = std::time::Instant::now();
        let r = verify_key(&rules, store.metric(), key, &store, args.limit, &bars);
        let seconds = start.elapsed().as_secs_f64();
        bars.done(1);
        bars.println(&format!(
            "{key}: {} classes checked, {} mismatches ({seconds:.1} s, {:.2} M classes/s)",
            thousands(r.checked),
            r.mismatch_count,
            r.checked as f64 / seconds.max(1e-9) / 1e6
        ));
        for m in &r.mismatches {
            let hands = [key.us_hand, key.them_hand];
            let pos = Position::from_sides(m.us, m.them, hands, Color::White);
            bars.println(&format!(
                "  slot {} {}: stored {}, recomputed {}",
                m.slot,
                pos.notation(&rules),
                m.stored,
                m.recomputed
            ));
        }
        bad_total += r.mismatch_count;
        if r.mismatch_count == 0 {
            if let Some(j) = journal.as_mut() {
                j.record(&check, &stamp).map_err(Failure::failed)?;
            }
        }
    }
    bars.finish();
    if bad_total > 0 {
        return Err(Failure::failed(format!(
            "verification failed: {bad_total} mismatches"
        )));
    }
    println!("verification passed");
    Ok(())
}
