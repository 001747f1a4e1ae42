//! The request parameters of the API, read as strings and checked by the engine's
//! [`RuleSet`], so that every bad value is a JSON error naming the parameter (the extractor's
//! own errors are plain text), in the words the command line and Python use.

use morris_engine::rule_set::{RuleOption, RuleSetBuilder};
use morris_engine::RuleSet;
use serde::Deserialize;

/// Every parameter any endpoint takes; each as text, empty meaning absent (a form leaves
/// empty fields in the URL: `turns_left=&counter=`).
#[derive(Deserialize, Default, Debug)]
pub struct Params {
    pub position: Option<String>,
    /// A preset's name (`standard`, `no-capture-50`, …): the other rule parameters must agree
    /// with it, except `stones`.
    pub rules: Option<String>,
    pub game: Option<String>,
    pub flying: Option<String>,
    pub stones: Option<String>,
    pub turns_left: Option<String>,
    pub moves_without_capture: Option<String>,
    pub counter: Option<String>,
    pub key: Option<String>,
}

impl Params {
    /// The rule options of the request. Parameters left out take the server's default when
    /// the request names the server's game (or none) and no preset, else the standard rules
    /// of the game or the preset's; `moves_without_capture=0` (or `none`) is no rule.
    fn builder(&self, default: &RuleSet) -> RuleSetBuilder {
        RuleSet::builder()
            .defaults(*default)
            .text(RuleOption::Rules, self.rules.as_deref())
            .text(RuleOption::Game, self.game.as_deref())
            .text(RuleOption::Flying, self.flying.as_deref())
            .text(RuleOption::Stones, self.stones.as_deref())
            .text(
                RuleOption::MovesWithoutCapture,
                self.moves_without_capture.as_deref(),
            )
    }

    /// The rule set of the request, without a turn limit (the tables' rules).
    pub fn rule_set(&self, default: &RuleSet) -> Result<RuleSet, String> {
        self.builder(default).build().map_err(|e| e.to_string())
    }

    /// The rule set of a query: with its turn limit (`turns_left`), and its counter checked
    /// against the rule.
    pub fn query_rule_set(&self, default: &RuleSet) -> Result<(RuleSet, u32), String> {
        let set = self
            .builder(default)
            .text(RuleOption::TurnLimit, self.turns_left.as_deref())
            .build()
            .map_err(|e| e.to_string())?;
        let counter = set
            .counter_text(self.counter.as_deref())
            .map_err(|e| e.to_string())?;
        Ok((set, counter))
    }

    pub fn position(&self) -> Result<&str, String> {
        self.position
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                "position: missing (a position like `W:d7,g1,g7 B:a4,d5,g4 b 0 0`, or `startpos`)"
                    .to_string()
            })
    }
}
