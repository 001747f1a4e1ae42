use crate::options::{position, RuleArgs};
use crate::Failure;
use morris_engine::render;

/// Draw a position on the board
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris show startpos\n  morris show 'W:d7,g1,g7 B:a4,d5,g4 b 0 0'"
)]
pub struct Args {
    /// The position (notation of docs/rules.md, or `startpos`)
    position: String,
    #[command(flatten)]
    rules: RuleArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let pos = position(&args.position, &rules)?;
    println!("{}", render::draw(&pos, &rules));
    if let Some(o) = pos.outcome(&rules) {
        println!("{}", crate::commands::moves::describe_outcome(o));
    }
    Ok(())
}
