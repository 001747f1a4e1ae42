use crate::commands::verify::open_all;
use crate::options::{metric, thousands, DbArgs, RuleFlags};
use crate::Failure;
use morris_db::Category;
use morris_tablebase::stats::{key_stats, rule_key_stats, KeyStats, RuleStats};
use morris_tablebase::store::Store;

/// Wins, draws and losses per sub-database (one per symmetry class), longest wins and losses
#[derive(clap::Args)]
#[command(
    after_help = "With --moves-without-capture N: per key the values at counter 0 under that rule (wins,\n\
cursed wins, draws, blessed losses, losses) and the longest distance to zeroing (dtz) of a win\n\
or loss the rule keeps.\n\n\
Examples:\n  morris stats --db dbs/nine\n  morris stats --db dbs/nine --json\n  morris stats --db dbs/nine --max-stones 5 --moves-without-capture 50"
)]
pub struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Print a JSON array of {key, wins, losses, draws, max_win_plies, max_loss_plies} (under
    /// the rule also cursed_wins, blessed_losses, max_dtz; wins, losses and draws are then the
    /// rule's)
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = args.rules.rule_set()?;
    let rules = set.rules();
    let max = args.db.max_stones(&rules)?;
    let keys = args.db.keys(&rules)?;
    let mut plain = Store::new(&args.db.db, rules);
    let mut rule = set
        .moves_without_capture()
        .map(|n| (n, Store::with_metric(&args.db.db, rules, metric(&set))));
    let mut rows: Vec<(String, KeyStats)> = Vec::new();
    for key in keys {
        open_all(&plain, &[key], max, false)?;
        let (index, table) = plain.table(key).expect("opened");
        let table = table.decoder();
        let s = match &mut rule {
            None => key_stats(index, |i| table.outcome(i).code()),
            Some((n, store)) => {
                open_all(store, &[key], max, false)?;
                let rt = store.table(key).expect("opened").1.decoder();
                rule_key_stats(index, *n, |i| table.outcome(i), |i| rt.outcome(i))
            }
        };
        rows.push((key.to_string(), s));
        plain.close_all();
        if let Some((_, store)) = &mut rule {
            store.close_all();
        }
    }
    let total = rows
        .iter()
        .fold(KeyStats::default(), |a, (_, s)| a.merge(s.clone()));
    if args.json {
        let items: Vec<crate::json::KeyStatsRow> = rows
            .iter()
            .map(|(k, s)| (k, s, &s.rule))
            .map(|(k, s, r)| crate::json::KeyStatsRow {
                key: k.clone(),
                wins: r.as_ref().map_or(s.wins, |r| r.count(Category::Win)),
                losses: r.as_ref().map_or(s.losses, |r| r.count(Category::Loss)),
                draws: r.as_ref().map_or(s.draws, |r| r.count(Category::Draw)),
                max_win_plies: s.max_win_plies(),
                max_loss_plies: s.max_loss_plies(),
                cursed_wins: r.as_ref().map(|r| r.count(Category::CursedWin)),
                blessed_losses: r.as_ref().map(|r| r.count(Category::BlessedLoss)),
                max_dtz: r.as_ref().and_then(RuleStats::max_dtz),
            })
            .collect();
        // One key a line, so that a reader can grep for a key.
        let lines: Vec<String> = items
            .iter()
            .map(|i| serde_json::to_string(i).expect("serialisable"))
            .collect();
        println!("[\n  {}\n]", lines.join(",\n  "));
        return Ok(());
    }
    let opt = |v: Option<u32>| v.map_or("-".to_string(), |p| p.to_string());
    if rule.is_some() {
        println!(
            "{:>10} {:>15} {:>15} {:>13} {:>15} {:>13} {:>15} {:>7}",
            "key", "classes", "wins", "cursed wins", "draws", "blessed losses", "losses", "max dtz"
        );
    } else {
        println!(
            "{:>10} {:>15} {:>15} {:>15} {:>15} {:>7} {:>8} {:>9}",
            "key", "classes", "wins", "draws", "losses", "win %", "max win", "max loss"
        );
    }
    let line = |name: &str, s: &KeyStats| match &s.rule {
        Some(r) => println!(
            "{:>10} {:>15} {:>15} {:>13} {:>15} {:>13} {:>15} {:>7}",
            name,
            thousands(s.classes()),
            thousands(r.count(Category::Win)),
            thousands(r.count(Category::CursedWin)),
            thousands(r.count(Category::Draw)),
            thousands(r.count(Category::BlessedLoss)),
            thousands(r.count(Category::Loss)),
            opt(r.max_dtz())
        ),
        None => println!(
            "{:>10} {:>15} {:>15} {:>15} {:>15} {:>7.2} {:>8} {:>9}",
            name,
            thousands(s.classes()),
            thousands(s.wins),
            thousands(s.draws),
            thousands(s.losses),
            100.0 * s.wins as f64 / s.classes().max(1) as f64,
            opt(s.max_win_plies()),
            opt(s.max_loss_plies())
        ),
    };
    for (k, s) in &rows {
        line(k, s);
    }
    line("total", &total);
    Ok(())
}
