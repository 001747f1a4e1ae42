//! Options shared by the commands: the game and its rule options.

use crate::Failure;
use clap::Args;
use morris_engine::rule_set::RuleError;
use morris_engine::{Position, RuleSet, Rules};

/// The rule options of a command (`--rules`, `--game`, `--no-flying`, `--flying`, `--stones`,
/// `--moves-without-capture`): read and checked by the engine's [`RuleSet`], as the server's
/// parameters and Python's arguments are.
#[derive(Args, Clone, Debug)]
pub struct RuleFlags {
    #[command(flatten)]
    pub options: morris_engine::rule_set::RuleArgs,
}

impl RuleFlags {
    /// The rule set these options name, checked: a stone count the engine cannot hold is a
    /// one-line input error here rather than an assertion deep in a solve, or hours of work on
    /// a game whose plan cannot fit anywhere.
    pub fn rule_set(&self) -> Result<RuleSet, Failure> {
        self.options.rule_set().map_err(rule_error)
    }

    /// The rule set these options name with a turn limit given as text (the flag's own), its
    /// errors reported by `error` (which names the command's flag for the limit).
    pub fn rule_set_with_turn_limit(
        &self,
        turn_limit: Option<&str>,
        error: impl Fn(RuleError) -> Failure,
    ) -> Result<RuleSet, Failure> {
        self.options
            .builder()
            .text(morris_engine::rule_set::RuleOption::TurnLimit, turn_limit)
            .build()
            .map_err(error)
    }

    /// The rules of the move generator these options name, checked.
    pub fn rules(&self) -> Result<Rules, Failure> {
        Ok(self.rule_set()?.rules())
    }

    /// The tables these options name: the plain game, or the no-capture rule.
    pub fn metric(&self) -> Result<morris_db::Metric, Failure> {
        Ok(metric(&self.rule_set()?))
    }

    /// The rules these options name and the position `text` under them, both checked.
    pub fn read_position(&self, text: &str) -> Result<(Rules, Position), Failure> {
        let rules = self.rules()?;
        let pos = position(text, &rules)?;
        Ok((rules, pos))
    }
}

/// A position given as a command's argument, and the rule options it is read under.
#[derive(Args, Clone, Debug)]
pub struct PositionArgs {
    /// The position (notation of docs/rules.md, or `startpos`)
    pub position: String,
    #[command(flatten)]
    pub rules: RuleFlags,
}

impl PositionArgs {
    /// The rules and the position, both checked.
    pub fn read(&self) -> Result<(Rules, Position), Failure> {
        self.rules.read_position(&self.position)
    }
}

/// The tables of a rule set: the plain game, or the no-capture rule.
pub fn metric(set: &RuleSet) -> morris_db::Metric {
    set.moves_without_capture()
        .map_or(morris_db::Metric::Plain, morris_db::Metric::NoCapture)
}

/// A rule option refused: bad input, in the words the server and Python use, with the
/// command line's flags.
pub fn rule_error(e: RuleError) -> Failure {
    Failure::input(e.cli())
}

/// Parses a position for the command line: a bad one is an input error naming the problem.
pub fn position(text: &str, rules: &Rules) -> Result<Position, Failure> {
    Position::parse(text, rules).map_err(Failure::input)
}

/// Options naming a database directory and the part of it to work on.
#[derive(Args, Clone, Debug)]
pub struct DbArgs {
    /// The database directory (created by `solve`)
    #[arg(long, value_name = "DIR")]
    pub db: std::path::PathBuf,
    /// Most stones a side on the board (3..=stones of the game)
    #[arg(long, value_name = "N")]
    pub max_stones: Option<u8>,
    /// Only the pair M-O (with O-M), e.g. `4-3`
    #[arg(long, value_name = "M-O", value_parser = parse_pair)]
    pub only: Option<(u8, u8)>,
    /// The moving phase only (no keys with stones in hand)
    #[arg(long)]
    pub moving_only: bool,
    /// Only the keys with T stones in hand, both sides together (0: the moving phase): one
    /// layer of a solve that keeps two layers of tables on disk (scripts/solve-layers.sh)
    #[arg(long, value_name = "T", conflicts_with_all = ["only", "moving_only"])]
    pub in_hand: Option<u32>,
}

fn parse_pair(s: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{s}` is not a pair of stone counts like `4-3`");
    let (m, o) = s.split_once('-').ok_or_else(bad)?;
    Ok((m.parse().map_err(|_| bad())?, o.parse().map_err(|_| bad())?))
}

impl DbArgs {
    /// Every key of the solve these options describe (moving phase, then placement keys; only
    /// the pair with `--only`), in dependency order.
    pub fn keys(&self, rules: &Rules) -> Result<Vec<morris_db::Key>, Failure> {
        let job = morris_solver::solve::Job {
            max_stones: self.max_stones(rules)?,
            only: self.only,
            placement: !self.moving_only,
            stop_after_files: None,
            in_hand: self.in_hand,
        };
        let steps = morris_solver::solve::steps(rules, &job).map_err(Failure::input)?;
        Ok(steps.iter().flat_map(|s| s.keys()).collect())
    }

    /// The largest number of stones a side, checked against the game.
    pub fn max_stones(&self, rules: &Rules) -> Result<u8, Failure> {
        let n = self.max_stones.unwrap_or(rules.stones);
        if n < Rules::MIN_STONES || n > rules.stones {
            return Err(Failure::input(format!(
                "--max-stones must be from 3 to {} for {}",
                rules.stones, rules.game
            )));
        }
        Ok(n)
    }
}

/// The most worker threads `--threads` accepts: far above any machine this runs on, low
/// enough that a typo (`--threads 20000`) is an error rather than thousands of threads.
pub const MAX_THREADS: usize = 1024;

/// Sets the number of worker threads (default: one per core). Zero is refused: rayon would
/// read it as "the default", which is not what someone who typed it meant.
pub fn threads(n: Option<usize>) -> Result<(), Failure> {
    if let Some(n) = n {
        if !(1..=MAX_THREADS).contains(&n) {
            return Err(Failure::input(format!(
                "--threads must be from 1 to {MAX_THREADS} (got {n})"
            )));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| Failure::failed(format!("cannot start {n} threads: {e}")))?;
    }
    Ok(())
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    morris_db::plan::thousands(n)
}
