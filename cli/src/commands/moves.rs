use crate::options::PositionArgs;
use crate::Failure;
use morris_engine::{legal_moves, GameEnd, Reason};

/// List every legal move of a position
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris moves startpos\n  morris moves 'W:a1,d1,a4 B:g7,g4,g1,d6 w 0 0'"
)]
pub struct Args {
    #[command(flatten)]
    at: PositionArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (rules, pos) = args.at.read()?;
    let board = rules.board();
    for m in legal_moves(&pos, &rules) {
        println!("{}", m.notation(board));
    }
    if let Some(o) = pos.outcome(&rules) {
        eprintln!("{}", describe_outcome(o));
    }
    Ok(())
}

/// One line saying how a finished game ended.
pub fn describe_outcome(o: GameEnd) -> String {
    match o {
        GameEnd::Draw => "game over: draw (no legal move)".to_string(),
        GameEnd::Win { winner, reason } => {
            let why = match reason {
                Reason::TooFewStones => "the loser has fewer than three stones",
                Reason::NoMoves => "the side to move has no legal move",
                Reason::Line => "a line was completed",
            };
            format!("game over: {} wins ({why})", winner.name())
        }
    }
}
