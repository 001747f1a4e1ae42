use crate::options::{position, rule_error, RuleFlags};
use crate::Failure;
use morris_db::{Outcome, Value};
use morris_engine::{render, Position, RuleSet};
use morris_tablebase::answer::Answer;
use morris_tablebase::tablebase::{ProbeError, RankedMove, RuleProbe, Tablebase};
use morris_tablebase::Found;

pub use morris_tablebase::answer::within_turns;

/// The value and distance of a position, and every legal move ranked
#[derive(clap::Args)]
#[command(
    after_help = "Values are for the side to move in the queried position; moves are ranked best first\n\
(fastest win, then draws, then slowest loss). Under --moves-without-capture N the value is the\n\
one at the given counter (win, draw, loss), with its category at counter 0 (win, cursed-win,\n\
draw, blessed-loss, loss) and dtz, the plies to the zeroing ply (capture, placement or blocking\n\
move) that settles it; plies stays the distance to the end without the rule.\n\n\
Examples:\n  morris query --db dbs/nine 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'\n  morris query --db dbs/nine --json 'W:a1,d1,g1,b4 B:a7,d7,g7 w'\n  morris query --db dbs/nine --moves-without-capture 50 --counter 10 'W:d7,g1,g7 B:a4,d5,g4 b'\n  morris query --db dbs/nine --rules no-capture-50 --counter 10 'W:d7,g1,g7 B:a4,d5,g4 b'"
)]
pub struct Args {
    /// The position (notation of docs/rules.md)
    position: String,
    /// The database directory
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// Print JSON, the shape of the server's /api/query and Python's Tablebase.query
    /// (docs/answer.md): {"value", "plies", "category", "dtz", "counter", "turns_left",
    /// "source", "position", "side", "rules", "over", "moves": [{"move", "value", "plies",
    /// "category", "dtz", "zeroing", "from", "to", "capture", "position"}]}, every field
    /// present, null where it does not apply
    #[arg(long)]
    json: bool,
    /// Answer under a turn limit: the game is drawn after this many more plies (a win on the
    /// last one counts), 0 to 100000. Not combined with the no-capture rule
    #[arg(long, value_name = "PLIES", allow_negative_numbers = true)]
    turns_left: Option<String>,
    /// Under the no-capture rule: plies played since the last capture or placement [default:
    /// 0]
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    counter: Option<String>,
    #[command(flatten)]
    rules: RuleFlags,
}

/// `draw`, `win in 25 plies`, `loss in 26 plies`; from a values-only set `win (no
/// distance: values-only tables)`.
pub fn describe(found: Found) -> String {
    match found {
        Found::Outcome(Outcome::Draw) | Found::Value(Value::Draw) => "draw".to_string(),
        Found::Outcome(o) => format!("{o} plies"),
        Found::Value(v) => format!("{v} (no distance: values-only tables)"),
    }
}

/// `win, 12 plies to zeroing (category win; win in 31 plies without the rule)`.
pub fn describe_rule(rule: &RuleProbe, plain: Found) -> String {
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
        ProbeError::NotInGame { .. }
        | ProbeError::CounterTooLarge { .. }
        | ProbeError::NoDistances { .. } => Failure::input(e),
        _ => Failure::failed(e),
    }
}

/// Opens the tablebase of a rule set: the plain tables, and the no-capture rule's with it.
pub fn tablebase(db: &std::path::Path, set: &RuleSet) -> Result<Tablebase, Failure> {
    let tb = Tablebase::open(db, set.rules()).map_err(failure)?;
    Ok(match set.moves_without_capture() {
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
        let answer = Answer::proved(&rules, pos, &proved);
        println!("{}", serde_json::to_string(&answer).expect("serialisable"));
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
    let set = args
        .rules
        .rule_set_with_turn_limit(args.turns_left.as_deref(), rule_error)?;
    let counter = set
        .counter_text(args.counter.as_deref())
        .map_err(rule_error)?;
    let rules = set.rules();
    let pos = position(&args.position, &rules)?;
    let tb = tablebase(&args.db, &set)?;
    let turns_left = set.turn_limit();
    // The search relies on placements never repeating a position; where a player may slide
    // instead of placing (Lasker) they can, so there the databases are required. A finished
    // game needs neither.
    let in_hand = pos.our_hand() + pos.their_hand() > 0;
    if in_hand
        && pos.outcome(&rules).is_none()
        && !tb.has_tables_for(&pos)
        && turns_left.is_none()
        && tb.no_capture_limit().is_none()
        && !rules.place_or_move()
    {
        return search_fallback(&args, &tb, &pos);
    }
    if args.json {
        let answer = Answer::query(&tb, &pos, counter, turns_left).map_err(failure)?;
        println!("{}", serde_json::to_string(&answer).expect("serialisable"));
        return Ok(());
    }
    let probe = tb.probe_at(&pos, counter).map_err(failure)?;
    let mut moves = tb.best_moves_at(&pos, counter).map_err(failure)?;
    let outcome =
        within_turns(&pos, &rules, probe.plain, &mut moves, turns_left).map_err(failure)?;
    let board = rules.board();
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
        None => describe(m.plain),
        Some(r) => describe_rule(r, m.plain),
    }
}
