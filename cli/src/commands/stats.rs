use crate::commands::verify::open_all;
use crate::options::{thousands, DbArgs, RuleArgs};
use crate::Failure;
use morris_solver::stats::{json, key_stats, KeyStats};
use morris_solver::store::Store;

/// Wins, draws and losses per sub-database (one per symmetry class), longest wins and losses
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris stats --db dbs/nine\n  morris stats --db dbs/nine --json"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Print a JSON array of {key, wins, losses, draws, max_win_plies, max_loss_plies}
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules();
    let max = args.db.max_stones(&rules)?;
    let keys = args.db.keys(&rules)?;
    let mut store = Store::new(&args.db.db, rules);
    let mut rows = Vec::new();
    for key in keys {
        open_all(&mut store, &[key], max)?;
        let (index, table) = store.table(key).expect("opened");
        rows.push((key, key_stats(index, |i| table.outcome(i).plies())));
        store.close_all();
    }
    let total = rows
        .iter()
        .fold(KeyStats::default(), |a, (_, s)| a.merge(s.clone()));
    if args.json {
        let items: Vec<String> = rows
            .iter()
            .map(|(k, s)| format!("  {}", json(*k, s)))
            .collect();
        println!("[\n{}\n]", items.join(",\n"));
        return Ok(());
    }
    let opt = |v: Option<u32>| v.map_or("-".to_string(), |p| p.to_string());
    println!(
        "{:>10} {:>15} {:>15} {:>15} {:>15} {:>7} {:>8} {:>9}",
        "key", "classes", "wins", "draws", "losses", "win %", "max win", "max loss"
    );
    let line = |name: &str, s: &KeyStats| {
        println!(
            "{:>10} {:>15} {:>15} {:>15} {:>15} {:>7.2} {:>8} {:>9}",
            name,
            thousands(s.classes()),
            thousands(s.wins),
            thousands(s.draws),
            thousands(s.losses),
            100.0 * s.wins as f64 / s.classes().max(1) as f64,
            opt(s.max_win_plies),
            opt(s.max_loss_plies)
        )
    };
    for (k, s) in &rows {
        line(&k.to_string(), s);
    }
    line("total", &total);
    Ok(())
}
