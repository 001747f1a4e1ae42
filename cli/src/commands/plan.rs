use crate::options::RuleArgs;
use crate::Failure;

/// List the sub-databases of a solve in dependency order, with sizes and memory
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  morris plan\n  morris plan --max-stones 5\n  morris plan --game tictactoe"
)]
pub struct Args {
    /// Most stones a side on the board
    #[arg(long, value_name = "N")]
    max_stones: Option<u8>,
    /// The moving phase only (no keys with stones in hand)
    #[arg(long)]
    moving_only: bool,
    #[command(flatten)]
    rules: RuleArgs,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let max = args.max_stones.unwrap_or(rules.stones);
    if max < 3 || max > rules.stones {
        return Err(Failure::input(format!(
            "--max-stones must be from 3 to {}",
            rules.stones
        )));
    }
    use morris_db::plan::{placement_plan, plan, render};
    let moving = if rules.stones_move() {
        plan(&rules, max)
    } else {
        Vec::new()
    };
    if !moving.is_empty() {
        println!("Moving phase (no stones in hand):");
        print!("{}", render(&moving));
    }
    if !args.moving_only {
        let placement = placement_plan(&rules, max, moving.len() + 1);
        if !moving.is_empty() {
            println!();
        }
        if placement.is_empty() {
            // Where placements never capture (Dara), every placement key holds all the stones.
            println!(
                "Placement phase: no key with at most {max} stones a side on board and in hand"
            );
        } else {
            println!(
                "Placement phase (stones in hand, each key read from the keys it leads into):"
            );
            if rules.place_or_move() {
                println!("(a player may slide instead of placing: a key and its colour swap are solved together, by retrograde analysis)");
            }
            print!("{}", render(&placement));
        }
    }
    Ok(())
}
