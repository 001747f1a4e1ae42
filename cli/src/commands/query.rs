use crate::json::{Query, QueryMove};
use crate::options::{position, RuleArgs};
use crate::Failure;
use morris_engine::{render, Position};
use morris_solver::tablebase::{ProbeError, RankedMove, RuleProbe, Tablebase};
use morris_solver::value::Outcome;

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
    /// The position (notation of docs/rules.md)
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
    let tb = Tablebase::open(db, rules.rules()?).map_err(failure)?;
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
    let proved = tb.prove(pos).map_err(failure)?;
    let board = rules.board();
    if args.json {
        let moves = proved
            .moves
            .iter()
            .map(|&(m, v)| QueryMove::proved(m.notation(board).to_string(), v))
            .collect();
        let mut q = Query::new(Outcome::Draw, None, moves);
        q.value = proved.value.name();
        q.source = Some("search");
        println!("{}", serde_json::to_string(&q).expect("serialisable"));
        return Ok(());
    }
    println!("{}", render::draw(pos, &rules));
    println!();
    println!("{} to move: {}", pos.side_to_move().name(), proved.value);
    println!(
        "(proved by alpha-beta search over the moving-phase databases, {} positions searched; the placement databases give distances)",
        proved.nodes
    );
    for (m, v) in &proved.moves {
        println!("  {:<10} {v}", m.notation(board).to_string());
    }
    Ok(())
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let pos = position(&args.position, &rules)?;
    let tb = tablebase(&args.db, &args.rules)?;
    // The search relies on placements never repeating a position; where a player may slide
    // instead of placing (Lasker) they can, so there the databases are required.
    let in_hand = pos.our_hand() + pos.their_hand() > 0;
    if in_hand
        && !tb.has_tables_for(&pos)
        && args.turns_left.is_none()
        && tb.no_capture_limit().is_none()
        && !rules.place_or_move()
    {
        return search_fallback(&args, &tb, &pos);
    }
    let probe = tb.probe_at(&pos, args.counter).map_err(failure)?;
    let mut moves = tb.best_moves_at(&pos, args.counter).map_err(failure)?;
    let outcome = within_turns(probe.outcome, &mut moves, args.turns_left);
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

/// The position's outcome and its moves under a turn limit of `left` more plies (a win on
/// the last one counts), the moves ranked again; unchanged without a limit.
pub fn within_turns(outcome: Outcome, moves: &mut [RankedMove], left: Option<u32>) -> Outcome {
    let Some(left) = left else {
        return outcome;
    };
    for m in moves.iter_mut() {
        m.outcome = m.outcome.within(left);
    }
    moves.sort_by_key(|m| m.outcome);
    outcome.within(left)
}

/// A ranked move for text output.
pub fn describe_move(m: &RankedMove) -> String {
    match &m.rule {
        None => describe(m.outcome),
        Some(r) => describe_rule(r, m.outcome),
    }
}
