//! Options shared by the commands: the game and its rule options.

use crate::Failure;
use clap::Args;
use morris_engine::{Game, Position, Rules};

#[derive(Args, Clone, Debug)]
pub struct RuleArgs {
    /// The game: nine, twelve, six, lasker, three, tictactoe
    #[arg(long, default_value = "nine", value_parser = parse_game)]
    pub game: Game,
    /// Forbid flying at three stones (its own databases: values differ)
    #[arg(long)]
    pub no_flying: bool,
}

fn parse_game(s: &str) -> Result<Game, String> {
    s.parse()
        .map_err(|e: morris_engine::rules::UnknownGame| e.to_string())
}

impl RuleArgs {
    pub fn rules(&self) -> Rules {
        let mut r = Rules::standard(self.game);
        if self.no_flying {
            r.flying = false;
        }
        r
    }
}

/// Parses a position for the command line: a bad one is an input error naming the problem.
pub fn position(text: &str, rules: &Rules) -> Result<Position, Failure> {
    Position::parse(text, rules).map_err(Failure::input)
}
