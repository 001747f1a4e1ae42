//! The rule options as command-line flags (feature `clap`), shared by every command that takes
//! them and by `morris serve`. Each flag is read by the rule set's own parsers and the whole is
//! checked by [`RuleSetBuilder::build`], so the command line refuses what the API and Python
//! refuse, with the same message.

use super::{number, Number, Preset, RuleError, RuleOption, RuleSet, RuleSetBuilder};
use crate::rules::Game;

/// The rule options of a command: a preset, the game and its options.
#[derive(clap::Args, Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleArgs {
    /// A named rule set: standard, no-flying, no-capture-50, no-capture-100, no-flying-50,
    /// three-120 (docs/rules.md). Beside it, --stones plays a reduced game; the other rule
    /// options must agree with it
    #[arg(long = "rules", value_name = "NAME", value_parser = preset)]
    pub preset: Option<Preset>,
    /// The game: nine, twelve, six, lasker, three, tictactoe, dara [default: nine, or the
    /// rule set's]
    #[arg(long, value_name = "GAME", value_parser = game)]
    pub game: Option<Game>,
    /// Forbid flying at three stones (its own databases: values differ)
    #[arg(long, conflicts_with = "flying")]
    pub no_flying: bool,
    /// Allow flying at three stones where the game's standard rules do not (Six Men's Morris)
    #[arg(long)]
    pub flying: bool,
    /// Stones per player, for reduced games (default: the game's own number)
    #[arg(long, value_name = "N", value_parser = stones, allow_negative_numbers = true)]
    pub stones: Option<i64>,
    /// The no-capture draw rule: the game is drawn after N plies in a row without a capture
    /// or a placement (a winning ply still wins); its own tables, beside the plain ones.
    /// 1 to 1000; 0 is no rule
    #[arg(long, value_name = "N", value_parser = no_capture, allow_negative_numbers = true)]
    pub moves_without_capture: Option<u16>,
}

impl RuleArgs {
    /// The options of a game's standard rules.
    pub fn standard(game: Game) -> RuleArgs {
        RuleArgs {
            game: Some(game),
            ..RuleArgs::default()
        }
    }

    /// A builder with these options, for a command that adds its own (a turn limit).
    pub fn builder(&self) -> RuleSetBuilder {
        let mut b = RuleSet::builder();
        if let Some(p) = self.preset {
            b = b.preset(p);
        }
        if let Some(g) = self.game {
            b = b.game(g);
        }
        if self.no_flying {
            b = b.flying(false);
        }
        if self.flying {
            b = b.flying(true);
        }
        if let Some(n) = self.stones {
            b = b.stones(n);
        }
        if let Some(n) = self.moves_without_capture {
            b = b.moves_without_capture(n.into());
        }
        b
    }

    /// The rule set these options name, checked.
    pub fn rule_set(&self) -> Result<RuleSet, RuleError> {
        self.builder().build()
    }
}

fn preset(s: &str) -> Result<Preset, String> {
    s.parse().map_err(|e: RuleError| e.cli())
}

fn game(s: &str) -> Result<Game, String> {
    s.parse().map_err(|e| RuleError::UnknownGame(e).cli())
}

/// A number; its bound, which depends on the game, is checked by the builder.
fn stones(s: &str) -> Result<i64, String> {
    match number(RuleOption::Stones, Some(s)).map_err(|e| e.cli())? {
        Some(Number::Int(n)) => Ok(n),
        Some(Number::Huge(_)) => Ok(i64::MAX),
        None => Err(RuleError::NotANumber {
            option: RuleOption::Stones,
            text: s.to_string(),
        }
        .cli()),
    }
}

/// N, checked here already (its bound is the same in every game).
fn no_capture(s: &str) -> Result<u16, String> {
    let n = match number(RuleOption::MovesWithoutCapture, Some(s)).map_err(|e| e.cli())? {
        Some(n) => n,
        None => {
            return Err(RuleError::NotANumber {
                option: RuleOption::MovesWithoutCapture,
                text: s.to_string(),
            }
            .cli())
        }
    };
    super::check_no_capture(&n)
        .map(|n| n.unwrap_or(0))
        .map_err(|e| e.cli())
}
