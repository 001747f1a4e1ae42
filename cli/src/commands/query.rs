use crate::json::{Query, QueryMove};
use crate::options::{position, RuleArgs};
use crate::Failure;
use morris_engine::{render, Position, Rules};
use morris_solver::search::Search;
use morris_solver::tablebase::{ProbeError, RankedMove, RuleProbe, Tablebase};
use morris_solver::value::Outcome;
use morris_solver::{key_of, lost_already};

/// The value and distance of a position, and every legal move ranked
#[derive(clap::Args)]
#[command(
    after_help = "Values are for the side to move in the queried position; moves are ranked best first\n\
(fastest win, then draws, then slowest loss). Under --moves-without-capture N the value is the\n\
one at the given counter (win, draw, loss), with its category at counter 0 (win, cursed-win,\n\
draw, blessed-loss, loss) and dtz, the plies to the zeroing ply (capture, placement or blocking\n\
move) that settles it; plies stays the distance to the end without the rule.\n\n\
Examples:\n  morris query --db dbs/nine 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'\n  morris query --db dbs/nine --json 'W:a1,d1,g1,b4 B:a7,d7,g7 w'\n  morris query --db dbs/nine --moves-without-capture 50 --counter 10 'W:d7,g1,g7 B:a4,d5,g4 b'"
)]
pub struct Args {
    /// The position (notation of RULES.md)
    position: String,
    /// The database directory
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// Print JSON: {"value", "plies", "moves": [{"move", "value", "plies"}]}, under the
    /// no-capture rule also "category", "dtz", "counter" and per move "category", "dtz",
    /// "zeroing"
    #[arg(long)]
    json: bool,
    /// Answer under a turn limit: the game is drawn after this many more plies (a win on the
    /// last one counts). Not combined with --moves-without-capture
    #[arg(long, value_name = "PLIES", conflicts_with = "moves_without_capture")]
    turns_left: Option<u32>,
    /// With --moves-without-capture: plies played since the last capture or placement
    #[arg(
        long,
        value_name = "C",
        default_value_t = 0,
        requires = "moves_without_capture"
    )]
    counter: u32,
    #[command(flatten)]
    rules: RuleArgs,
}

/// `draw`, `win in 25 plies`, `loss in 26 plies`.
pub fn describe(o: Outcome) -> String {
    match o {
        Outcome::Draw => "draw".to_string(),
        o => format!("{o} plies"),
    }
}

/// `win, 12 plies to zeroing (category win; win in 31 plies without the rule)`.
pub fn describe_rule(rule: &RuleProbe, plain: Outcome) -> String {
    let mut s = rule.outcome.value().to_string();
    if let Some(d) = rule.outcome.plies() {
        s.push_str(&format!(", {d} plies to zeroing"));
    }
    s.push_str(&format!(" ({}", rule.category));
    if let (Some(d), None) = (rule.dtz, rule.outcome.plies()) {
        s.push_str(&format!(", {d} plies to zeroing"));
    }
    s.push_str(&format!("; {} without the rule)", describe(plain)));
    s
}

/// A tablebase error as the command line reports it: a missing or damaged table is a
/// failure (exit 1), a position or counter the tables cannot hold is bad input (exit 2).
pub fn failure(e: ProbeError) -> Failure {
    match e {
        ProbeError::NotInGame { .. } | ProbeError::CounterTooLarge { .. } => Failure::input(e),
        _ => Failure::failed(e),
    }
}

/// Opens the tablebase the rule options name.
pub fn tablebase(db: &std::path::Path, rules: &RuleArgs) -> Result<Tablebase, Failure> {
    let tb = Tablebase::open(db, rules.rules()).map_err(failure)?;
    Ok(match rules.moves_without_capture {
        Some(n) => tb.with_no_capture_rule(n),
        None => tb,
    })
}

/// Answers a placement position without the placement databases: an alpha-beta search whose
/// leaves are read from the moving-phase databases proves the value of every move (distances
/// need the placement databases).
fn search_fallback(args: &Args, tb: &Tablebase, pos: &Position) -> Result<(), Failure> {
    let rules = *tb.rules();
    let job = morris_solver::solve::Job {
        max_stones: rules.stones,
        only: None,
        placement: false,
        stop_after_files: None,
    };
    let store = tb.plain();
    for step in morris_solver::solve::steps(&rules, &job).map_err(Failure::input)? {
        for k in step.keys() {
            store
                .open(k, morris_db::format::Checks { checksum: false })
                .map_err(|e| {
                    Failure::failed(format!(
                        "{e}\n(build it with: morris solve --game {} --db {} --moving-only)",
                        rules.game,
                        store.dir().display()
                    ))
                })?;
        }
    }
    let mut search = Search::new(&rules, store);
    let value = search.value(pos);
    let board = rules.board();
    let mut moves: Vec<(String, morris_solver::value::Value)> =
        morris_engine::legal_moves(pos, &rules)
            .into_iter()
            .map(|m| (m.notation(board).to_string(), -search.value(&pos.play(m))))
            .collect();
    moves.sort_by_key(|&(_, v)| v);
    if args.json {
        let mut q = Query::new(
            Outcome::Draw,
            None,
            moves
                .iter()
                .map(|(m, v)| QueryMove::proved(m.clone(), *v))
                .collect(),
        );
        q.value = value.name();
        q.source = Some("search");
        println!("{}", serde_json::to_string(&q).expect("serialisable"));
        return Ok(());
    }
    println!("{}", render::draw(pos, &rules));
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

/// True when the placement tables a position reads are missing, so that the search can stand
/// in for them.
fn placement_missing(tb: &Tablebase, rules: &Rules, pos: &Position) -> bool {
    let key = key_of(pos);
    !lost_already(pos, rules)
        && !key.is_moving_phase()
        && morris_solver::solve::reads(rules, key)
            .iter()
            .any(|&k| !tb.plain().path(k).exists())
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules();
    let pos = position(&args.position, &rules)?;
    let tb = tablebase(&args.db, &args.rules)?;
    // The search relies on placements never repeating a position; where a player may slide
    // instead of placing (Lasker) they can, so there the databases are required.
    if placement_missing(&tb, &rules, &pos)
        && args.turns_left.is_none()
        && tb.no_capture_limit().is_none()
        && !rules.place_or_move()
    {
        return search_fallback(&args, &tb, &pos);
    }
    let probe = tb.probe_at(&pos, args.counter).map_err(failure)?;
    let mut moves = tb.best_moves_at(&pos, args.counter).map_err(failure)?;
    let mut outcome = probe.outcome;
    if let Some(left) = args.turns_left {
        outcome = outcome.within(left);
        for m in &mut moves {
            m.outcome = m.outcome.within(left);
        }
        moves.sort_by_key(|m| m.outcome);
    }
    let board = rules.board();
    if args.json {
        let items = moves
            .iter()
            .map(|m| QueryMove::new(m.mv.notation(board).to_string(), m))
            .collect();
        let q = Query::new(outcome, probe.rule, items);
        println!("{}", serde_json::to_string(&q).expect("serialisable"));
        return Ok(());
    }
    println!("{}", render::draw(&pos, &rules));
    println!();
    let side = pos.side_to_move().name();
    match &probe.rule {
        None => println!("{side} to move: {}", describe(outcome)),
        Some(r) => println!(
            "{side} to move, {} of {} plies without a capture played: {}",
            r.counter,
            r.limit,
            describe_rule(r, outcome)
        ),
    }
    if moves.is_empty() {
        println!("no legal move");
    }
    for m in &moves {
        println!(
            "  {:<10} {}",
            m.mv.notation(board).to_string(),
            describe_move(m)
        );
    }
    Ok(())
}

/// A ranked move for text output.
pub fn describe_move(m: &RankedMove) -> String {
    match &m.rule {
        None => describe(m.outcome),
        Some(r) => describe_rule(r, m.outcome),
    }
}
