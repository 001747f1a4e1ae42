use crate::commands::query::{failure, tablebase};
use crate::options::{position, rule_error, RuleFlags};
use crate::Failure;
use morris_tablebase::analysis::{self, describe_end, Analysis, AnalysisError, Ply};
use morris_tablebase::answer::Valued;
use std::io::Read;
use std::path::PathBuf;

/// Judge every move of a played game by the tables: best, or what value it gave away
#[derive(clap::Args)]
#[command(
    after_help = "The game is moves in notation (d6, d6-d5, a1xd7, b6-c5xg4) separated by spaces or\n\
newlines, read from GAME_FILE or stdin; `#` starts a comment to the end of the line, and move\n\
numbers like `1.` are skipped. Each ply is printed with the mover's value before and after it:\n\
`best` when it is as good as the best move, BLUNDER with the best move when it dropped a win to\n\
a draw or a loss, or a draw to a loss. The game ends, as in `play`, when the position is over,\n\
on the third time a position comes up, or when the no-capture rule's limit is reached.\n\n\
Examples:\n  morris analyze --db dbs/nine game.txt\n  echo 'd6 d2 f4' | morris analyze --db dbs/s4 --stones 4 --json\n  morris analyze --db dbs/nine --rules no-capture-50 --svg game.svg game.txt"
)]
pub struct Args {
    /// The game: moves in notation; `-` or nothing for stdin
    #[arg(value_name = "GAME_FILE")]
    game: Option<PathBuf>,
    /// The database directory
    #[arg(long, value_name = "DIR")]
    db: PathBuf,
    /// The position the game starts from
    #[arg(long, default_value = "startpos")]
    position: String,
    /// Under the no-capture rule: plies played since the last capture or placement in the
    /// starting position [default: 0]
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    counter: Option<String>,
    /// Print the analysis as one JSON document (docs/analyze.md), every field present
    #[arg(long, conflicts_with = "svg")]
    json: bool,
    /// Also write a chart of the game's value for White, ply by ply, as SVG to FILE
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    #[command(flatten)]
    rules: RuleFlags,
}

/// The game's text, from its file or stdin.
fn read_game(game: Option<&PathBuf>) -> Result<String, Failure> {
    match game.filter(|p| p.as_os_str() != "-") {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display()))),
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| Failure::input(format!("cannot read the game from stdin: {e}")))?;
            Ok(text)
        }
    }
}

/// An analysis error as the command line reports it: a bad move is bad input, a table error
/// is what `query` makes of it.
fn analysis_failure(e: AnalysisError) -> Failure {
    match e {
        AnalysisError::Probe(e) => failure(e),
        e => Failure::input(e),
    }
}

/// `draw`, `win in 25`, `loss`: the distance where the tables give one and it is the value's
/// own (under the no-capture rule the plain distance is not).
fn value_text(v: &Valued, rule: bool) -> String {
    match v.plies {
        Some(d) if !rule => format!("{} in {d}", v.value),
        _ => v.value.to_string(),
    }
}

/// One ply as a line: number, mover, the no-capture counter under the rule, move, values
/// before and after, verdict.
fn ply_line(p: &Ply, rule: bool) -> String {
    let counter = p.counter.map_or(String::new(), |c| format!(" c={c:<3}"));
    let verdict = match &p.missed {
        Some(m) => format!("BLUNDER (best: {}, {})", m.mv, value_text(&m.valued, rule)),
        None if p.best => "best".to_string(),
        None => String::new(),
    };
    format!(
        "{:>3}. {:<5}{counter}  {:<10} {:>11} → {:<11}  {verdict}",
        p.ply,
        p.side,
        p.mv,
        value_text(&p.before, rule),
        value_text(&p.after, rule)
    )
    .trim_end()
    .to_string()
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn print_text(a: &Analysis) {
    let rule = a.rules.moves_without_capture.is_some();
    for p in &a.plies {
        println!("{}", ply_line(p, rule));
    }
    match &a.end {
        Some(end) => println!("game over after ply {}: {}", end.ply, describe_end(end)),
        None => println!("game unfinished after ply {}", a.plies.len()),
    }
    for (side, s) in [("white", &a.summary.white), ("black", &a.summary.black)] {
        println!(
            "{side}: {} move{}, {} best, {} blunder{} ({} win→draw, {} win→loss, {} draw→loss)",
            s.moves,
            plural(s.moves),
            s.best,
            s.blunders(),
            plural(s.blunders()),
            s.win_to_draw,
            s.win_to_loss,
            s.draw_to_loss
        );
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = args.rules.rule_set()?;
    let counter = set
        .counter_text(args.counter.as_deref())
        .map_err(rule_error)?;
    let rules = set.rules();
    let start = position(&args.position, &rules)?;
    let text = read_game(args.game.as_ref())?;
    let moves = analysis::moves_of(&text);
    let tb = tablebase(&args.db, &set)?;
    let a = analysis::analyze(&tb, &start, counter, &moves).map_err(analysis_failure)?;
    if args.json {
        println!("{}", serde_json::to_string(&a).expect("serialisable"));
        return Ok(());
    }
    if let Some(path) = &args.svg {
        std::fs::write(path, analysis::svg(&a))
            .map_err(|e| Failure::failed(format!("cannot write {}: {e}", path.display())))?;
    }
    print_text(&a);
    Ok(())
}
