use std::path::PathBuf;
use std::time::Instant;

use crate::commands::verify::{journal_line, open_all, open_journal};
use crate::options::{thousands, threads, DbArgs, RuleFlags};
use crate::progress::Bars;
use crate::Failure;
use morris_db::format::Checks;
use morris_db::plan::bytes;
use morris_db::{Key, Outcome, Value};
use morris_packed::{Kind, PackedTable};
use morris_solver::journal::{stamp, Journal};
use morris_solver::lock::DirLock;
use morris_solver::pack::{pack_key, verify_key, PackOptions, Searched, Sets};
use morris_tablebase::packed::{is_searched, PackedSet};
use morris_tablebase::store::Store;

/// Write the solved tables as packed sets: compressed blocks, one probe = one block
#[derive(clap::Args)]
#[command(
    after_help = "Reads the unpacked tables of --db and writes, per key, a value set \
(`*.wdl.mpk`: win/draw/loss) and an outcome set (`*.dtw.mpk`: with distances) into --out. \
`query`, `play` and `serve` read a directory of outcome sets as they read unpacked tables. \
Keys already packed are skipped (rerun after an interruption). With --verify nothing is \
written: every position of every packed key is compared with the unpacked tables (exit 1 on \
any difference or damaged block).\n\n\
In the plain game the keys whose side to move has fewer stones on the board get no file \
(--sides stronger, the default): a reader answers their positions by a one-ply search into \
the other keys, which halves the set. --sides both packs every key (one block read a \
probe); under --moves-without-capture every key is packed.\n\n\
Examples:\n  morris pack --db dbs/nine --out dbs/nine-packed\n  \
morris pack --db dbs/nine --out dbs/nine-packed --verify\n  \
morris pack --db dbs/s4 --stones 4 --out dbs/s4p --what wdl --wdl-block-slots 65536 --level 19"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Where the packed sets go (created if missing; may be the --db directory itself)
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Which sets: wdl (values), dtw (outcomes with distances) or both
    #[arg(long, value_enum, default_value_t = What::Both)]
    what: What,
    /// Slots per compressed block of the value set (five values a byte): larger packs
    /// smaller, smaller probes faster
    #[arg(long, default_value_t = 20_480, value_parser = clap::value_parser!(u32).range(256..=16_777_216))]
    wdl_block_slots: u32,
    /// Slots per compressed block of the outcome set (a byte a slot)
    #[arg(long, default_value_t = 8192, value_parser = clap::value_parser!(u32).range(256..=16_777_216))]
    dtw_block_slots: u32,
    /// zstd level, 1 (fast) to 22 (small): 7 packs a third faster than 9 for 0.3% more bytes
    /// and probes as fast; above 9 packing is several times slower
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(i32).range(1..=22))]
    level: i32,
    /// Which keys get a file: `stronger` leaves out the keys whose side to move has fewer
    /// stones (searched by the reader), `both` packs every key [default: stronger in the plain
    /// game, both under --moves-without-capture]
    #[arg(long, value_enum)]
    sides: Option<Sides>,
    /// Compare the packed sets in --out with --db instead of packing
    #[arg(long)]
    verify: bool,
    /// With --verify: record the keys that pass here, and skip those recorded with unchanged
    /// tables (an interrupted check goes on where it stopped)
    #[arg(long, value_name = "FILE", requires = "verify")]
    journal: Option<PathBuf>,
    /// With --verify: the journal of a `morris verify --journal FILE` run over --db. A key the
    /// sets leave out whose unpacked tables FILE records as verified, unchanged since, is
    /// checked on a sample through the packed reader (one position in 997, search included)
    /// instead of by a forward evaluation of every position, which would recompute what
    /// verify established: its check then costs minutes instead of about a verify of the key
    #[arg(long, value_name = "FILE", requires = "verify")]
    verified_by: Option<PathBuf>,
    /// Measure probe latency instead of packing: N random positions of every packed key,
    /// probed once cold (first touch) and once warm, median and 99th percentile
    #[arg(long, value_name = "N", conflicts_with = "verify")]
    latency: Option<u32>,
    /// With --latency: read every packed file into memory first, as `serve --preload` does
    /// (the cold pass then measures the reader, not the disk)
    #[arg(long, requires = "latency")]
    preload: bool,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Start even when the free disk is less than the tables still to pack can take at most
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

/// The sets `--what` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum What {
    /// Values only (`*.wdl.mpk`)
    Wdl,
    /// Outcomes with distances (`*.dtw.mpk`)
    Dtw,
    Both,
}

impl What {
    fn kinds(self) -> Vec<Kind> {
        match self {
            What::Wdl => vec![Kind::Wdl],
            What::Dtw => vec![Kind::Distance],
            What::Both => vec![Kind::Wdl, Kind::Distance],
        }
    }
}

/// The keys `--sides` gives a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Sides {
    /// Only the keys whose side to move has at least as many stones as the other
    Stronger,
    /// Every key
    Both,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    threads(args.threads)?;
    let metric = args.rules.metric()?;
    let max = args.db.max_stones(&rules)?;
    let keys = args.db.keys(&rules)?;
    let kinds = args.what.kinds();
    if !args.db.db.is_dir() {
        return Err(Failure::failed(format!(
            "{}: no such database directory",
            args.db.db.display()
        )));
    }
    let weaker_searched = match args.sides {
        Some(Sides::Both) => false,
        Some(Sides::Stronger) if metric != morris_db::Metric::Plain => {
            return Err(Failure::input(
                "--sides stronger is for the plain game: under --moves-without-capture a \
                 position's distance to zeroing is not found by a one-ply search, so every key \
                 is packed (--sides both)",
            ))
        }
        _ => metric == morris_db::Metric::Plain,
    };
    // A searched key is checked through its children: they are keys of the game (those
    // reachable from the start), within the subset's stones.
    let game = DbArgs {
        max_stones: None,
        only: None,
        moving_only: false,
        in_hand: None,
        ..args.db.clone()
    }
    .keys(&rules)?;
    let reads = |key: Key, searched: bool| -> Vec<Key> {
        if !searched {
            return vec![key];
        }
        let mut v = morris_tablebase::reads(&rules, key);
        v.retain(|k| *k == key || game.contains(k));
        v
    };
    if let Some(n) = args.latency {
        return latency(&args, rules, metric, &keys, &kinds, n);
    }
    let mut src = Store::with_metric(&args.db.db, rules, metric);
    if args.verify {
        return verify(&args, &mut src, &keys, &kinds, max, reads);
    }
    let block_slots = |kind| match kind {
        Kind::Wdl => args.wdl_block_slots,
        Kind::Distance => args.dtw_block_slots,
    };
    // The sets of `key` still to write.
    let todo = |src: &Store, key: Key| -> Vec<Kind> {
        if weaker_searched && is_searched(key) {
            return Vec::new();
        }
        let todo = kinds.iter().copied();
        todo.filter(|&k| !complete(&args, src, key, k)).collect()
    };
    if !args.force {
        let (mut tables, mut need) = (0, 0);
        for &key in &keys {
            for kind in todo(&src, key) {
                let slots = morris_db::slots(rules.board(), key);
                tables += 1;
                need += morris_packed::max_table_len(slots, kind, block_slots(kind));
            }
        }
        let what = format!("the {tables} table(s) still to pack, at most");
        crate::disk::check(&args.out, need, &what)?;
    }
    std::fs::create_dir_all(&args.out)
        .map_err(|e| Failure::failed(format!("{}: cannot create: {e}", args.out.display())))?;
    let _lock = DirLock::acquire(&args.out, "morris pack").map_err(Failure::failed)?;
    let options = PackOptions {
        kinds: kinds.clone(),
        value_block_slots: args.wdl_block_slots,
        outcome_block_slots: args.dtw_block_slots,
        level: args.level,
        weaker_searched,
    };
    let bars = Bars::new(keys.len() as u64, "keys");
    let start = Instant::now();
    let (mut raw, mut packed) = (0u64, [0u64; 2]);
    for &key in &keys {
        bars.begin(&key.to_string());
        let slots = morris_db::slots(rules.board(), key);
        if weaker_searched && is_searched(key) {
            raw += slots;
            bars.println(&format!(
                "{key}: {} slots, no file: searched from the keys its moves lead into",
                thousands(slots)
            ));
            bars.done(1);
            continue;
        }
        let todo = todo(&src, key);
        if todo.is_empty() {
            bars.println(&format!("{key}: packed already, skipped"));
            bars.done(1);
            continue;
        }
        open_all(&src, &[key], max, false)?;
        let t = Instant::now();
        let options = PackOptions {
            kinds: todo,
            ..options.clone()
        };
        let written =
            pack_key(&rules, metric, key, &src, &args.out, &options).map_err(Failure::failed)?;
        raw += slots;
        let sizes: Vec<String> = written
            .iter()
            .map(|p| {
                packed[(p.kind == Kind::Distance) as usize] += p.bytes;
                format!(
                    "{} {} ({:.3} bits/slot)",
                    p.kind.tag(),
                    bytes(p.bytes),
                    p.bytes as f64 * 8.0 / slots.max(1) as f64
                )
            })
            .collect();
        bars.println(&format!(
            "{key}: {} slots, {} ({:.1} s)",
            thousands(slots),
            sizes.join(", "),
            t.elapsed().as_secs_f64()
        ));
        bars.done(1);
        // Unmaps the tables read so far: a whole game does not fit in the page cache.
        src.close_all();
    }
    bars.finish();
    println!(
        "packed {} slots in {:.1} s: wdl {}, dtw {} (unpacked: {})",
        thousands(raw),
        start.elapsed().as_secs_f64(),
        bytes(packed[0]),
        bytes(packed[1]),
        bytes(raw)
    );
    Ok(())
}

/// True when the packed file of `key` is there and opens (header, size, block index).
fn complete(args: &Args, src: &Store, key: Key, kind: Kind) -> bool {
    let path = args.out.join(morris_packed::packed_file_name(
        src.rules(),
        src.metric(),
        key,
        kind,
    ));
    PackedTable::open(&path, *src.rules(), src.metric(), key, kind).is_ok()
}

fn verify(
    args: &Args,
    src: &mut Store,
    keys: &[Key],
    kinds: &[Kind],
    max: u8,
    reads: impl Fn(Key, bool) -> Vec<Key>,
) -> Result<(), Failure> {
    let rules = *src.rules();
    let values: PackedSet<Value> = PackedSet::new(&args.out, rules, src.metric());
    let outcomes: PackedSet<Outcome> = PackedSet::new(&args.out, rules, src.metric());
    let mut journal = open_journal(args.journal.as_deref())?;
    let verified = match &args.verified_by {
        Some(path) if !path.is_file() => {
            return Err(Failure::input(format!(
                "{}: no such journal (--verified-by names the file of a `morris verify \
                 --journal FILE` run over {})",
                path.display(),
                args.db.db.display()
            )))
        }
        path => open_journal(path.as_deref())?,
    };
    // The keys with a file first: their check is a decode and a compare a slot, while a
    // searched key's is a forward evaluation of every position (the cost of `morris verify`),
    // so an interrupted run has checked every stored slot before it spends hours on searches.
    let mut order = Vec::with_capacity(keys.len());
    for &key in keys {
        let searched = outcomes.searched(key).map_err(Failure::failed)?
            || values.searched(key).map_err(Failure::failed)?;
        order.push((searched, key));
    }
    order.sort_by_key(|&(searched, _)| searched);
    let bars = Bars::new(keys.len() as u64, "keys");
    let mut bad = 0u64;
    let tags: Vec<&str> = kinds.iter().map(|k| k.tag()).collect();
    // A key checked on the sample is not one checked in full: the mode is in the line.
    let check_line = |src: &Store, key: Key, mode: Searched| {
        format!(
            "pack --verify {} {} {}{}",
            args.out.display(),
            tags.join("+"),
            src.path(key)
                .file_name()
                .unwrap_or_default()
                .to_string_lossy(),
            match mode {
                Searched::Every => "",
                Searched::Sample => " sampled",
            }
        )
    };
    for (searched, key) in order {
        let mode = match &verified {
            Some(v) if searched => {
                let checked = |k: Key, sum: &str| {
                    journal.as_ref().is_some_and(|j| {
                        [Searched::Every, Searched::Sample].into_iter().any(|mode| {
                            let stamp = j.stamp_of(&check_line(src, k, mode));
                            stamp.and_then(|s| s.split(',').next()) == Some(sum)
                        })
                    })
                };
                match verified_before(src, key, v, checked) {
                    true => Searched::Sample,
                    false => Searched::Every,
                }
            }
            _ => Searched::Every,
        };
        // On the sample the children are read from the packed sets, by the reader.
        let read = match mode {
            Searched::Every => reads(key, searched),
            Searched::Sample => vec![key],
        };
        open_all(src, &read, max, false)?;
        // The check is of these kinds, against these unpacked tables and these packed files.
        let mut sums: Vec<u64> = read
            .iter()
            .filter_map(|&k| src.table(k))
            .map(|(_, t)| t.header().checksum)
            .collect();
        if !searched {
            for &kind in kinds {
                sums.push(
                    match kind {
                        Kind::Wdl => values.open(key).map(|(_, t)| t.header().checksum),
                        Kind::Distance => outcomes.open(key).map(|(_, t)| t.header().checksum),
                    }
                    .map_err(Failure::failed)?,
                );
            }
        }
        let check = check_line(src, key, mode);
        let stamp = stamp(sums);
        if journal.as_ref().is_some_and(|j| j.passed(&check, &stamp)) {
            bars.println(&format!("{key}: verified before (journal), skipped"));
            bars.done(1);
            continue;
        }
        bars.begin(&key.to_string());
        let mismatches_before = bad;
        let t = Instant::now();
        let sets = Sets {
            values: kinds.contains(&Kind::Wdl).then_some(&values),
            outcomes: kinds.contains(&Kind::Distance).then_some(&outcomes),
        };
        let reports = verify_key(&rules, key, src, sets, mode).map_err(Failure::failed)?;
        let seconds = t.elapsed().as_secs_f64();
        let how = match mode {
            Searched::Every => "both kinds",
            Searched::Sample => "both kinds; searched: a sample through the reader, verified",
        };
        for (kind, report) in [Kind::Wdl, Kind::Distance].into_iter().zip(reports) {
            if !kinds.contains(&kind) {
                continue;
            }
            bars.println(&format!(
                "{key} {}: {} positions checked, {} differ ({seconds:.1} s, {how})",
                kind.tag(),
                thousands(report.checked),
                report.mismatches,
            ));
            if let Some((slot, expected, got)) = &report.first {
                bars.println(&format!(
                    "  first at slot {slot}: unpacked {expected}, packed {got}"
                ));
            }
            bad += report.mismatches;
        }
        if bad == mismatches_before {
            if let Some(j) = journal.as_mut() {
                j.record(&check, &stamp).map_err(Failure::failed)?;
            }
        }
        bars.done(1);
        src.close_all();
    }
    bars.finish();
    if bad > 0 {
        return Err(Failure::failed(format!(
            "packed verification failed: {bad} positions differ"
        )));
    }
    match &args.verified_by {
        None => println!("packed sets verified: every position answers as the unpacked tables"),
        Some(path) => println!(
            "packed sets verified: every position answers as the unpacked tables (the keys \
             left out that {} records as verified: on a sample through the reader)",
            path.display()
        ),
    }
    Ok(())
}

/// Whether a `morris verify` run (its journal, `verify`) passed on `key`'s table as it is now,
/// so that its positions need only a sample through the packed reader. Verify read the key's
/// children too: each must be unchanged since, or, where its table is gone (a layered solve
/// deletes a layer once the layer above is verified), have passed the packed check from the
/// table verify read (`checked(child, its checksum then)`), so that the packed sets the
/// reader searches hold what verify read.
fn verified_before(
    src: &Store,
    key: Key,
    verify: &Journal,
    checked: impl Fn(Key, &str) -> bool,
) -> bool {
    let read = morris_tablebase::reads(src.rules(), key);
    let (check, _) = journal_line(src, key, &[]);
    let Some(sums) = verify.stamp_of(&check) else {
        return false;
    };
    let sums: Vec<&str> = sums.split(',').collect();
    sums.len() == read.len()
        && read
            .iter()
            .zip(sums)
            .all(|(&k, sum)| match src.load(k, Checks::default(), false) {
                Ok(_) => src
                    .table(k)
                    .is_some_and(|(_, t)| stamp([t.header().checksum]) == sum),
                Err(_) => k != key && checked(k, sum),
            })
}

/// Probe latency of the packed sets (`morris_tablebase::packed::latency`), printed a pass
/// a line.
fn latency(
    args: &Args,
    rules: morris_engine::Rules,
    metric: morris_db::Metric,
    keys: &[Key],
    kinds: &[Kind],
    n: u32,
) -> Result<(), Failure> {
    let passes = morris_tablebase::packed::latency::measure(
        &args.out,
        rules,
        metric,
        keys,
        kinds,
        n,
        args.preload,
    )
    .map_err(Failure::failed)?;
    if args.preload {
        println!("every packed file read into memory before the passes (--preload)");
    }
    for p in passes {
        let tag = p.kind.tag();
        let reads = match p.disk_reads {
            Some(n) => format!(", {n} pages read from disk"),
            None => String::new(),
        };
        println!(
            "{tag} {}: {} probes over {} keys, {}{reads}",
            p.name,
            p.all.probes,
            keys.len(),
            p.all
        );
        for (name, spread) in [("stored", p.stored), ("searched", p.searched)] {
            if let Some(s) = spread {
                println!("{tag} {}, keys {name}: {} probes, {s}", p.name, s.probes);
            }
        }
    }
    Ok(())
}
