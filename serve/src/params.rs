//! The request parameters of the API, read as strings and checked here, so that every bad
//! value is a JSON error naming the parameter (the extractor's own errors are plain text).

use morris_engine::{Game, Rules};
use serde::Deserialize;

/// Every parameter any endpoint takes; each as text, empty meaning absent (a form leaves
/// empty fields in the URL: `turns_left=&counter=`).
#[derive(Deserialize, Default, Debug)]
pub struct Params {
    pub position: Option<String>,
    pub game: Option<String>,
    pub flying: Option<String>,
    pub stones: Option<String>,
    pub turns_left: Option<String>,
    pub moves_without_capture: Option<String>,
    pub counter: Option<String>,
    pub key: Option<String>,
}

/// The game and rule options of a request, resolved against the server's defaults.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    pub rules: Rules,
    /// The no-capture rule's limit N, when asked for.
    pub limit: Option<u16>,
}

/// The stone count a request names, checked as the command line checks it.
pub fn check_stones(game: Game, n: u8) -> Result<(), String> {
    Rules::standard(game)
        .with_stones(n)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn number<T: std::str::FromStr>(name: &str, v: &Option<String>) -> Result<Option<T>, String> {
    match given(v) {
        None => Ok(None),
        Some(s) if s.bytes().all(|b| b.is_ascii_digit()) => s
            .parse()
            .map(Some)
            .map_err(|_| format!("{name}: `{s}` is out of range")),
        Some(s) => Err(format!("{name}: `{s}` is not a number")),
    }
}

impl Params {
    /// The rule set of the request. Parameters left out take the server's default when the
    /// request names the server's game (or none), else that game's standard rules.
    pub fn rule_set(&self, default: &RuleSet) -> Result<RuleSet, String> {
        let game = match given(&self.game) {
            None => default.rules.game,
            Some(s) => s
                .parse::<Game>()
                .map_err(|e: morris_engine::rules::UnknownGame| e.to_string())?,
        };
        let same = game == default.rules.game;
        let mut rules = if same {
            default.rules
        } else {
            Rules::standard(game)
        };
        if let Some(f) = given(&self.flying) {
            rules.flying = match f {
                "1" | "true" | "yes" | "on" => true,
                "0" | "false" | "no" | "off" => false,
                _ => return Err(format!("flying: `{f}` is not 1 or 0")),
            };
        }
        if let Some(n) = number::<u8>("stones", &self.stones)? {
            check_stones(game, n)?;
            rules.stones = n;
        }
        let limit = match given(&self.moves_without_capture) {
            None => default.limit.filter(|_| same),
            Some("0") | Some("none") => None,
            Some(_) => {
                let n = number::<u16>("moves_without_capture", &self.moves_without_capture)?
                    .expect("given");
                if !(1..=1000).contains(&n) {
                    return Err(format!(
                        "moves_without_capture must be from 1 to 1000 (got {n})"
                    ));
                }
                Some(n)
            }
        };
        Ok(RuleSet { rules, limit })
    }

    pub fn turns_left(&self) -> Result<Option<u32>, String> {
        let t = number::<u32>("turns_left", &self.turns_left)?;
        if let Some(t) = t {
            if t > 100_000 {
                return Err(format!("turns_left must be at most 100000 (got {t})"));
            }
        }
        Ok(t)
    }

    pub fn counter(&self) -> Result<Option<u32>, String> {
        number::<u32>("counter", &self.counter)
    }

    pub fn position(&self) -> Result<&str, String> {
        given(&self.position).ok_or_else(|| {
            "position: missing (a position like `W:d7,g1,g7 B:a4,d5,g4 b 0 0`, or `startpos`)"
                .to_string()
        })
    }
}
