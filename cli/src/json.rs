//! The JSON shapes of `query --json` and `stats --json`, written by serde so that every string
//! is escaped and every field typed.

use morris_db::{Outcome, Value};
use morris_solver::tablebase::{RankedMove, RuleProbe};
use serde::Serialize;

/// A position: its value and every move. Without the no-capture rule the fields of the rule
/// (`category`, `dtz`, `counter`, `zeroing`) are left out.
#[derive(Serialize)]
pub struct Query {
    pub value: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<&'static str>,
    pub plies: Option<u32>,
    #[serde(skip_serializing_if = "Rule::absent")]
    pub dtz: Rule<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter: Option<u32>,
    /// `"search"` when the alpha-beta fall-back proved the value (no distances then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<&'static str>,
    pub moves: Vec<QueryMove>,
}

#[derive(Serialize)]
pub struct QueryMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub value: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<&'static str>,
    pub plies: Option<u32>,
    #[serde(skip_serializing_if = "Rule::absent")]
    pub dtz: Rule<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zeroing: Option<bool>,
}

/// A field that only the no-capture rule gives, and that is `null` under the rule for a
/// draw: absent without the rule, present (maybe `null`) with it.
#[derive(Serialize)]
#[serde(untagged)]
pub enum Rule<T> {
    Absent,
    Given(T),
}

impl<T> Rule<T> {
    fn absent(&self) -> bool {
        matches!(self, Rule::Absent)
    }
}

impl Query {
    /// A position's answer: `outcome` without the rule, `rule` with it.
    pub fn new(outcome: Outcome, rule: Option<RuleProbe>, moves: Vec<QueryMove>) -> Query {
        Query {
            value: rule.map_or(outcome, |r| r.outcome).value().name(),
            category: rule.map(|r| r.category.name()),
            plies: outcome.plies(),
            dtz: rule.map_or(Rule::Absent, |r| Rule::Given(r.dtz)),
            counter: rule.map(|r| r.counter),
            source: None,
            moves,
        }
    }
}

impl QueryMove {
    pub fn new(notation: String, m: &RankedMove) -> QueryMove {
        QueryMove {
            mv: notation,
            value: m.rule.map_or(m.outcome, |r| r.outcome).value().name(),
            category: m.rule.map(|r| r.category.name()),
            plies: m.outcome.plies(),
            dtz: m.rule.map_or(Rule::Absent, |r| Rule::Given(r.dtz)),
            zeroing: m.rule.map(|_| m.zeroing),
        }
    }

    /// A move valued by the alpha-beta fall-back: a value, no distance.
    pub fn proved(notation: String, value: Value) -> QueryMove {
        QueryMove {
            mv: notation,
            value: value.name(),
            category: None,
            plies: None,
            dtz: Rule::Absent,
            zeroing: None,
        }
    }
}

/// One key of `stats --json`.
#[derive(Serialize)]
pub struct KeyStats {
    pub key: String,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win_plies: Option<u32>,
    pub max_loss_plies: Option<u32>,
    /// Under the no-capture rule: the wins and losses it turns into draws, and the longest
    /// distance to zeroing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursed_wins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blessed_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_dtz: Option<u32>,
}
