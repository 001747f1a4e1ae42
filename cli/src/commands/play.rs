use crate::commands::moves::describe_outcome;
use crate::commands::query::describe;
use crate::commands::verify::open_all;
use crate::options::{position, RuleArgs};
use crate::Failure;
use morris_engine::{render, Color, Position};
use morris_solver::query::answer;
use morris_solver::solve::reads;
use morris_solver::store::Store;
use morris_solver::{key_of, lost_already};
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// Play a game in the terminal against the perfect player
#[derive(clap::Args)]
#[command(
    after_help = "Type moves in notation (d6, d6-d5, a1xd7, b6-c5xg4); `quit` ends the game.\n\
The same position with the same side to move a third time is a draw.\n\n\
Examples:\n  morris play --db dbs/nine --as black\n  morris play --db dbs/nine --hint --position 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'"
)]
pub struct Args {
    /// The database directory (the perfect player reads it)
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    /// The colour you play
    #[arg(long = "as", value_name = "white|black", default_value = "white", value_parser = parse_color)]
    color: Color,
    /// Start from this position instead of the start of the game
    #[arg(long, default_value = "startpos")]
    position: String,
    /// Show the value of every legal move before you choose
    #[arg(long)]
    hint: bool,
    /// The game is drawn after this many plies from the starting position (a win on the last
    /// one counts); the perfect player and the hints play for the limit
    #[arg(long, value_name = "N")]
    turn_limit: Option<u32>,
    /// The game is drawn after this many plies in a row without a capture. The databases do
    /// not know this rule (it would need the distance to the next capture beside the distance
    /// to the end), so the perfect player and the hints play as without it
    #[arg(long, value_name = "N")]
    moves_without_capture: Option<u32>,
    #[command(flatten)]
    rules: RuleArgs,
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("`{s}` is not a colour: white or black")),
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules();
    let board = rules.board();
    let mut pos = position(&args.position, &rules)?;
    let mut store = Store::new(&args.db, rules);
    let mut seen: HashMap<Position, u32> = HashMap::new();
    let mut played = 0u32;
    let mut quiet = 0u32;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        println!("{}\n", render::draw(&pos, &rules));
        if let Some(o) = pos.outcome(&rules) {
            println!("{}", describe_outcome(o));
            return Ok(());
        }
        let count = seen.entry(pos).or_insert(0);
        *count += 1;
        if *count >= 3 {
            println!("game over: draw by threefold repetition");
            return Ok(());
        }
        if args.turn_limit.is_some_and(|n| played >= n) {
            println!("game over: draw, the turn limit is reached");
            return Ok(());
        }
        if args.moves_without_capture.is_some_and(|n| quiet >= n) {
            println!("game over: draw, {quiet} plies without a capture");
            return Ok(());
        }
        if !lost_already(&pos, &rules) {
            let key = key_of(&pos);
            let most = (key.us + key.us_hand).max(key.them + key.them_hand);
            open_all(&mut store, &reads(&rules, key), most)?;
        }
        let a = answer(&rules, &pos, &store, args.turn_limit.map(|n| n - played));
        if pos.side_to_move() == args.color {
            if args.hint {
                println!(
                    "{} to move: {}",
                    pos.side_to_move().name(),
                    describe(a.plies)
                );
                for m in &a.moves {
                    println!(
                        "  {:<10} {}",
                        m.mv.notation(board).to_string(),
                        describe(m.plies)
                    );
                }
            }
            let mv = loop {
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
            };
            quiet = if mv.capture().is_some() { 0 } else { quiet + 1 };
            played += 1;
            pos = pos.play(mv);
        } else {
            let best = a
                .moves
                .first()
                .expect("a game that is not over has a legal move");
            println!(
                "{} plays {} ({} for {})",
                pos.side_to_move().name(),
                best.mv.notation(board),
                describe(best.plies),
                pos.side_to_move().name()
            );
            quiet = if best.mv.capture().is_some() {
                0
            } else {
                quiet + 1
            };
            played += 1;
            pos = pos.play(best.mv);
        }
    }
}
