use crate::options::RuleArgs;
use crate::Failure;

/// List the sub-databases of a solve in dependency order, with sizes and memory
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  morris plan\n  morris plan --max-stones 5")]
pub struct Args {
    /// Most stones a side on the board
    #[arg(long, value_name = "N")]
    max_stones: Option<u8>,
    #[command(flatten)]
    rules: RuleArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules();
    let max = args.max_stones.unwrap_or(rules.stones);
    if max < 3 || max > rules.stones {
        return Err(Failure::input(format!(
            "--max-stones must be from 3 to {}",
            rules.stones
        )));
    }
    print!(
        "{}",
        morris_db::plan::render(&morris_db::plan::plan(&rules, max))
    );
    Ok(())
}
