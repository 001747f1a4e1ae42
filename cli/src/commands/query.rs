use crate::commands::verify::open_all;
use crate::options::{position, RuleArgs};
use crate::Failure;
use morris_engine::render;
use morris_solver::query::answer;
use morris_solver::solve::reads;
use morris_solver::store::Store;
use morris_solver::value::{value_of, Value};
use morris_solver::{key_of, lost_already};

/// The value and distance of a position, and every legal move ranked
#[derive(clap::Args)]
#[command(
    after_help = "Values are for the side to move in the queried position; moves are ranked best first\n\
(fastest win, then draws, then slowest loss).\n\n\
Examples:\n  morris query --db dbs/nine 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'\n  morris query --db dbs/nine --json 'W:a1,d1,g1,b4 B:a7,d7,g7 w'"
)]
pub struct Args {
    /// The position (notation of RULES.md)
    position: String,
    /// The database directory
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// Print JSON: {"value", "plies", "moves": [{"move", "value", "plies"}]}
    #[arg(long)]
    json: bool,
    /// Answer under a turn limit: the game is drawn after this many more plies (a win on the
    /// last one counts)
    #[arg(long, value_name = "PLIES")]
    turns_left: Option<u32>,
    #[command(flatten)]
    rules: RuleArgs,
}

/// `draw`, `win in 25 plies`, `loss in 26 plies`.
pub fn describe(p: Option<u32>) -> String {
    match p {
        None => "draw".to_string(),
        Some(p) => format!("{} in {p} plies", value_of(Some(p))),
    }
}

/// Answers a placement position without the placement databases: an alpha-beta search whose
/// leaves are read from the moving-phase databases proves the value of every move (distances
/// need the placement databases).
fn search_fallback(
    args: &Args,
    rules: &morris_engine::Rules,
    pos: &morris_engine::Position,
    mut store: Store,
) -> Result<(), Failure> {
    let job = morris_solver::solve::Job {
        max_stones: rules.stones,
        only: None,
        placement: false,
        stop_after_files: None,
    };
    let keys: Vec<_> = morris_solver::solve::steps(rules, &job)
        .map_err(Failure::input)?
        .iter()
        .flat_map(|s| s.keys())
        .collect();
    open_all(&mut store, &keys, rules.stones)?;
    let mut search = morris_solver::search::Search::new(rules, &store);
    let value = search.value(pos);
    let board = rules.board();
    let mut moves: Vec<(String, Value)> = morris_engine::legal_moves(pos, rules)
        .into_iter()
        .map(|m| {
            let v = match search.value(&pos.play(m)) {
                Value::Win => Value::Loss,
                Value::Loss => Value::Win,
                Value::Draw => Value::Draw,
            };
            (m.notation(board).to_string(), v)
        })
        .collect();
    moves.sort_by_key(|(_, v)| match v {
        Value::Win => 0,
        Value::Draw => 1,
        Value::Loss => 2,
    });
    if args.json {
        let items: Vec<String> = moves
            .iter()
            .map(|(m, v)| format!("{{\"move\": \"{m}\", \"value\": \"{v}\", \"plies\": null}}"))
            .collect();
        println!(
            "{{\"value\": \"{value}\", \"plies\": null, \"source\": \"search\", \"moves\": [{}]}}",
            items.join(", ")
        );
        return Ok(());
    }
    println!("{}", render::draw(pos, rules));
    println!();
    println!("{} to move: {value}", pos.side_to_move().name());
    println!(
        "(proved by alpha-beta search over the moving-phase databases, {} positions searched; the placement databases give distances)",
        search.nodes
    );
    for (m, v) in &moves {
        println!("  {m:<10} {v}");
    }
    Ok(())
}

fn json_plies(p: Option<u32>) -> String {
    p.map_or("null".to_string(), |p| p.to_string())
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules();
    let pos = position(&args.position, &rules)?;
    let mut store = Store::new(&args.db, rules);
    if !lost_already(&pos, &rules) {
        let key = key_of(&pos);
        let keys = reads(&rules, key);
        let most = (key.us + key.us_hand).max(key.them + key.them_hand);
        let placement_missing =
            !key.is_moving_phase() && keys.iter().any(|&k| !store.path(k).exists());
        // The search relies on placements never repeating a position; where a player may
        // slide instead of placing (Lasker) they can, so there the databases are required.
        if placement_missing && args.turns_left.is_none() && !rules.place_or_move() {
            return search_fallback(&args, &rules, &pos, store);
        }
        open_all(&mut store, &keys, most)?;
    }
    let a = answer(&rules, &pos, &store, args.turns_left);
    let board = rules.board();
    if args.json {
        let moves: Vec<String> = a
            .moves
            .iter()
            .map(|m| {
                format!(
                    "{{\"move\": \"{}\", \"value\": \"{}\", \"plies\": {}}}",
                    m.mv.notation(board),
                    value_of(m.plies),
                    json_plies(m.plies)
                )
            })
            .collect();
        println!(
            "{{\"value\": \"{}\", \"plies\": {}, \"moves\": [{}]}}",
            value_of(a.plies),
            json_plies(a.plies),
            moves.join(", ")
        );
        return Ok(());
    }
    println!("{}", render::draw(&pos, &rules));
    println!();
    println!(
        "{} to move: {}",
        pos.side_to_move().name(),
        describe(a.plies)
    );
    if a.moves.is_empty() {
        println!("no legal move");
    }
    for m in &a.moves {
        println!(
            "  {:<10} {}",
            m.mv.notation(board).to_string(),
            describe(m.plies)
        );
    }
    Ok(())
}
