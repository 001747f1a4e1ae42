use crate::commands::query::{failure, tablebase};
use crate::options::{position, rule_error, threads, RuleFlags};
use crate::Failure;
use morris_engine::Color;
use morris_tablebase::arena::play_game;
use morris_tablebase::choice::Player;
use morris_tablebase::in_play::{End, GameInPlay};
use morris_tablebase::rng::Rng;
use rayon::prelude::*;

/// Play two players against each other over the tables and count the results
#[derive(clap::Args)]
#[command(
    after_help = "A player is CHOICE or CHOICE@SKILL. CHOICE picks among the moves of the \
best value: fastest (the first, the fastest win), random (any, uniformly), ultra (the one whose \
replies are worth least to the opponent). With SKILL below 1 the player plays a uniformly random \
legal move with probability 1 - SKILL (random@0.9 is the epsilon-perfect player, epsilon 0.1).\n\
The players change colours every game; results are from the first player's side. Games are \
seeded (--seed), so a match replays exactly.\n\n\
Examples:\n  morris arena --db dbs/nine ultra random@0.9 --games 400\n  morris arena --db dbs/s5 --stones 5 ultra random --games 1000"
)]
pub struct Args {
    /// The database directory both players read
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// The first player
    a: Player,
    /// The second player
    b: Player,
    /// Games to play (the first player is White in the even ones)
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    games: u32,
    /// Seed of the match: game i is seeded with SEED + i
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A game still running after this many plies counts as unfinished (a draw)
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Start every game from this position
    #[arg(long, default_value = "startpos")]
    position: String,
    /// The game is drawn after this many plies (a win on the last one counts); the players
    /// play for the limit
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    turns_left: Option<String>,
    /// Write every game's moves here, a game a line (`# game I, white PLAYER, black PLAYER:
    /// RESULT` before it), for `morris analyze`
    #[arg(long, value_name = "FILE")]
    record: Option<std::path::PathBuf>,
    /// Print the result as one JSON object
    #[arg(long)]
    json: bool,
    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    #[command(flatten)]
    rules: RuleFlags,
}

/// The games of a match, from the first player's side.
#[derive(Default, serde::Serialize)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Draws by repetition, by the no-capture rule, by the turn limit, on the board, and games
    /// cut at --max-plies.
    repetitions: u32,
    no_capture: u32,
    turn_limit: u32,
    board_draws: u32,
    unfinished: u32,
    plies: u64,
}

impl Tally {
    fn add(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.repetitions += o.repetitions;
        self.no_capture += o.no_capture;
        self.turn_limit += o.turn_limit;
        self.board_draws += o.board_draws;
        self.unfinished += o.unfinished;
        self.plies += o.plies;
        self
    }

    /// The first player's score, a win 1 and a draw 1/2, and the half-width of its 95%
    /// confidence interval.
    fn score(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let mean = (self.wins as f64 + self.draws as f64 / 2.0) / n;
        let square = (self.wins as f64 + self.draws as f64 / 4.0) / n;
        let var = (square - mean * mean).max(0.0);
        (mean, 1.96 * (var / n).sqrt())
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    threads(args.threads)?;
    let set = args
        .rules
        .rule_set_with_turn_limit(args.turns_left.as_deref(), rule_error)?;
    let rules = set.rules();
    let start = position(&args.position, &rules)?;
    let tb = tablebase(&args.db, &set)?;
    // The tables of the start are read once here, so that a missing one is one clear error.
    tb.probe(&start).map_err(failure)?;
    let board = rules.board();
    let games: Vec<(Tally, String)> = (0..args.games)
        .into_par_iter()
        .map(|i| {
            let a_white = i % 2 == 0;
            let players = if a_white {
                [args.a, args.b]
            } else {
                [args.b, args.a]
            };
            let mut rng = Rng::new(args.seed.wrapping_add(u64::from(i)));
            let game = GameInPlay::new(&set, start, 0);
            let played = play_game(&tb, game, players, args.max_plies, &mut rng)?;
            let a = if a_white { Color::White } else { Color::Black };
            let mut t = Tally {
                games: 1,
                ..Tally::default()
            };
            t.plies = played.moves.len() as u64;
            match played.end {
                None => {
                    t.unfinished = 1;
                    t.draws = 1;
                }
                Some(end) => match end.winner() {
                    Some(w) if w == a => t.wins = 1,
                    Some(_) => t.losses = 1,
                    None => {
                        t.draws = 1;
                        match end {
                            End::Repetition => t.repetitions = 1,
                            End::NoCapture(_) => t.no_capture = 1,
                            End::TurnLimit(_) => t.turn_limit = 1,
                            End::Board(_) => t.board_draws = 1,
                        }
                    }
                },
            }
            let result = match played.end {
                None => "unfinished".to_string(),
                Some(end) => format!("{end:?}"),
            };
            let moves: Vec<String> = played
                .moves
                .iter()
                .map(|m| m.notation(board).to_string())
                .collect();
            let line = format!(
                "# game {i}, white {}, black {}: {result}\n{}\n",
                players[0].name(),
                players[1].name(),
                moves.join(" ")
            );
            Ok((t, line))
        })
        .collect::<Result<_, _>>()
        .map_err(failure)?;
    if let Some(path) = &args.record {
        let text: String = games.iter().map(|(_, line)| line.as_str()).collect();
        std::fs::write(path, text)
            .map_err(|e| Failure::failed(format!("{}: cannot write: {e}", path.display())))?;
    }
    let tally = games
        .into_iter()
        .fold(Tally::default(), |a, (t, _)| a.add(t));
    let (score, margin) = tally.score();
    if args.json {
        let v = serde_json::json!({
            "a": args.a.name(),
            "b": args.b.name(),
            "seed": args.seed,
            "score": score,
            "margin95": margin,
            "tally": tally,
        });
        println!("{v}");
        return Ok(());
    }
    println!(
        "{} against {}: {} games, {} wins, {} draws, {} losses; score {:.1}% ± {:.1}",
        args.a.name(),
        args.b.name(),
        tally.games,
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * score,
        100.0 * margin
    );
    println!(
        "draws: {} by repetition, {} by the no-capture rule, {} by the turn limit, {} on the board, {} unfinished after {} plies; {:.1} plies a game",
        tally.repetitions,
        tally.no_capture,
        tally.turn_limit,
        tally.board_draws,
        tally.unfinished,
        args.max_plies,
        tally.plies as f64 / tally.games.max(1) as f64
    );
    Ok(())
}
