use crate::commands::moves::describe_outcome;
use crate::commands::query::{describe, describe_move, failure, tablebase, within_turns};
use crate::options::{position, RuleFlags};
use crate::Failure;
use morris_engine::rule_set::RuleOption;
use morris_engine::{render, Color, Position};
use morris_tablebase::choice::{Player, Spot};
use morris_tablebase::in_play::{End, GameInPlay};
use morris_tablebase::rng::Rng;
use std::io::{BufRead, Write};

/// Play a game in the terminal against the perfect player
#[derive(clap::Args)]
#[command(
    after_help = "Type moves in notation (d6, d6-d5, a1xd7, b6-c5xg4); `quit` ends the game.\n\
The same position with the same side to move a third time is a draw. With\n\
--moves-without-capture N the game is drawn after N plies without a capture or placement, and\n\
the perfect player plays that rule exactly (it reads the rule's tables).\n\n\
Examples:\n  morris play --db dbs/nine --as black\n  morris play --db dbs/nine --hint --position 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'\n  morris play --db dbs/nine --rules no-capture-50 --as black"
)]
pub struct Args {
    /// The database directory (the perfect player reads it)
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// The colour you play (w and b for short)
    #[arg(long = "as", value_enum, default_value_t = SideArg::White)]
    color: SideArg,
    /// Start from this position instead of the start of the game
    #[arg(long, default_value = "startpos")]
    position: String,
    /// Show the value of every legal move before you choose
    #[arg(long)]
    hint: bool,
    /// How the computer plays: a choice among the best moves (fastest, random, ultra), with a
    /// skill below 1 (ultra@0.9), or a strength level (level1 a beginner to level5 perfect);
    /// see `morris arena --help`
    #[arg(long, value_name = "PLAYER", default_value = "ultra")]
    opponent: Player,
    /// Seed of the computer's choices (a game replays exactly with the same moves)
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The game is drawn after this many plies from the starting position (a win on the last
    /// one counts), 0 to 100000; the perfect player and the hints play for the limit. Not
    /// combined with the no-capture rule
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    turn_limit: Option<String>,
    /// Under the no-capture rule: plies already played since the last capture or placement in
    /// the starting position [default: 0]
    #[arg(long, value_name = "C", allow_negative_numbers = true)]
    counter: Option<String>,
    #[command(flatten)]
    rules: RuleFlags,
}

/// The colour a player takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SideArg {
    #[value(alias = "w")]
    White,
    #[value(alias = "b")]
    Black,
}

impl From<SideArg> for Color {
    fn from(s: SideArg) -> Color {
        match s {
            SideArg::White => Color::White,
            SideArg::Black => Color::Black,
        }
    }
}

/// A rule option refused, with this command's flags (the turn limit is `--turn-limit` here).
fn rule_error(e: morris_engine::RuleError) -> Failure {
    Failure::input(e.message(&|o| match o {
        RuleOption::TurnLimit => "--turn-limit",
        o => o.flag(),
    }))
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = args
        .rules
        .rule_set_with_turn_limit(args.turn_limit.as_deref(), rule_error)?;
    let rules = set.rules();
    let board = rules.board();
    let start = position(&args.position, &rules)?;
    let tb = tablebase(&args.db, &set)?;
    let you = Color::from(args.color);
    let counter = set
        .counter_text(args.counter.as_deref())
        .map_err(rule_error)?;
    let mut game = GameInPlay::new(&set, start, counter);
    let mut rng = Rng::new(args.seed);
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        let pos = *game.position();
        let counter = game.counter();
        println!("{}\n", render::draw(&pos, &rules));
        match game.end() {
            Some(End::Board(o)) => {
                println!("{}", describe_outcome(o));
                return Ok(());
            }
            Some(End::Repetition) => {
                println!("game over: draw by threefold repetition");
                return Ok(());
            }
            Some(End::TurnLimit(_)) => {
                println!("game over: draw, the turn limit is reached");
                return Ok(());
            }
            Some(End::NoCapture(_)) => {
                println!("game over: draw, {counter} plies without a capture");
                return Ok(());
            }
            None => {}
        }
        let probe = tb.probe_at(&pos, counter).map_err(failure)?;
        let mut moves = tb.best_moves_at(&pos, counter).map_err(failure)?;
        let left = game.turns_left();
        let outcome = within_turns(&pos, &rules, probe.plain, &mut moves, left).map_err(failure)?;
        let mv = if pos.side_to_move() == you {
            if args.hint {
                let value = match &probe.rule {
                    Some(r) => crate::commands::query::describe_rule(r, outcome),
                    None => describe(outcome),
                };
                println!("{} to move: {value}", pos.side_to_move().name());
                for m in &moves {
                    println!(
                        "  {:<10} {}",
                        m.mv.notation(board).to_string(),
                        describe_move(m)
                    );
                }
            }
            loop {
                print!("your move: ");
                let _ = std::io::stdout().flush();
                let Some(Ok(line)) = lines.next() else {
                    println!("\ngame left unfinished");
                    return Ok(());
                };
                let line = line.trim();
                if line == "quit" {
                    println!("game left unfinished");
                    return Ok(());
                }
                match pos.parse_move(line, &rules) {
                    Ok(m) => break m,
                    Err(e) => println!("{e}"),
                }
            }
        } else {
            let seen = |p: &Position| game.seen(p);
            let spot = Spot {
                pos: &pos,
                counter,
                turns_left: left,
                moves: &moves,
                seen: Some(&seen),
            };
            let i = args
                .opponent
                .pick(&tb, spot, &mut rng)
                .map_err(failure)?
                .expect("a game that is not over has a legal move");
            let chosen = &moves[i];
            println!(
                "{} plays {} ({} for {})",
                pos.side_to_move().name(),
                chosen.mv.notation(board),
                describe_move(chosen),
                pos.side_to_move().name()
            );
            chosen.mv
        };
        game.play(mv);
    }
}
