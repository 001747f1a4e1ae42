use crate::options::RuleFlags;
use crate::Failure;
use morris_engine::perft;
use std::time::Instant;

/// Count move sequences (leaf nodes) to each depth, with nodes per second
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris perft 5\n  morris perft --position 'W:d7,g1,g7 B:a4,d5,g4 b 0 0' 4"
)]
pub struct Args {
    /// Maximum depth in plies; every depth from 1 up to it is reported
    depth: u32,
    /// Starting position (default: the start of the game)
    #[arg(long, default_value = "startpos")]
    position: String,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let (rules, pos) = args.rules.read_position(&args.position)?;
    println!(
        "{:>5} {:>16} {:>10} {:>14}",
        "depth", "leaves", "seconds", "leaves/s"
    );
    for d in 1..=args.depth {
        let start = Instant::now();
        let n = perft(&pos, &rules, d);
        let secs = start.elapsed().as_secs_f64();
        let rate = if secs > 0.0 {
            n as f64 / secs
        } else {
            f64::NAN
        };
        println!("{d:>5} {n:>16} {secs:>10.3} {rate:>14.0}");
    }
    Ok(())
}
