use crate::options::PositionArgs;
use crate::Failure;
use morris_engine::render;

/// Draw a position on the board
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris show startpos\n  morris show 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'"
)]
pub struct Args {
    #[command(flatten)]
    at: PositionArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (rules, pos) = args.at.read()?;
    println!("{}", render::draw(&pos, &rules));
    if let Some(o) = pos.outcome(&rules) {
        println!("{}", crate::commands::moves::describe_outcome(o));
    }
    Ok(())
}
