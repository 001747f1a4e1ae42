//! The rule options a user gives, read and checked in one place: the command line, the HTTP
//! API and Python all build their [`RuleSet`] here, so a value is accepted or refused alike
//! everywhere, with the same message.
//!
//! A [`RuleSet`] is a game with its rule options: the stones a side, flying, the no-capture
//! rule's limit N and the turn limit. Its fields are private and its only constructors check
//! them, so a rule set in hand is always one the tables can answer. It hands out the
//! [`Rules`] of the move generator and N, from which the caller picks its tables.
//!
//! A [`Preset`] names the rule set of a family of sites (`--rules no-capture-50`,
//! `rules=no-capture-50`, `rules="no-capture-50"`). Beside a preset, the stones a side may be
//! given (a reduced game under the same rules, e.g. for a quick try); every other option must
//! agree with the preset or is refused: a preset says what the site plays, and a flag that
//! contradicts it is more likely a mistake than a wish.
//!
//! The bounds:
//! - `stones` from 3 to the game's own number or half its board, at most 12
//!   ([`Game::max_stones`]);
//! - `moves_without_capture` (N) from 1 to 1000, or 0 for none;
//! - the turn limit (`turns_left`, `--turn-limit`) from 0 to 100000 plies, not combined with
//!   the no-capture rule;
//! - the no-capture counter below N, and only under the rule.

use crate::rules::{Game, Rules, UnknownGame};
use core::fmt;
use core::str::FromStr;

#[cfg(feature = "clap")]
mod args;
#[cfg(feature = "clap")]
pub use args::RuleArgs;

/// An option of a rule set, as the front ends name it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleOption {
    /// A preset's name.
    Rules,
    Game,
    Stones,
    Flying,
    /// The no-capture rule's limit N.
    MovesWithoutCapture,
    /// The turn limit: plies left before the game is drawn.
    TurnLimit,
    /// The no-capture counter: plies since the last capture or placement.
    Counter,
}

impl RuleOption {
    /// The name of the HTTP API's parameter and of Python's argument; messages use it.
    pub const fn name(self) -> &'static str {
        match self {
            RuleOption::Rules => "rules",
            RuleOption::Game => "game",
            RuleOption::Stones => "stones",
            RuleOption::Flying => "flying",
            RuleOption::MovesWithoutCapture => "moves_without_capture",
            RuleOption::TurnLimit => "turns_left",
            RuleOption::Counter => "counter",
        }
    }

    /// The command line's flag (`play` calls the turn limit `--turn-limit`).
    pub const fn flag(self) -> &'static str {
        match self {
            RuleOption::Rules => "--rules",
            RuleOption::Game => "--game",
            RuleOption::Stones => "--stones",
            RuleOption::Flying => "--flying",
            RuleOption::MovesWithoutCapture => "--moves-without-capture",
            RuleOption::TurnLimit => "--turns-left",
            RuleOption::Counter => "--counter",
        }
    }
}

/// What a preset or a rule option asks for, in a contradiction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    Game(Game),
    Flying(bool),
    NoCapture(Option<u16>),
}

impl fmt::Display for Asked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Asked::Game(g) => write!(f, "the game {g}"),
            Asked::Flying(true) => f.write_str("flying"),
            Asked::Flying(false) => f.write_str("no flying"),
            Asked::NoCapture(Some(n)) => write!(f, "the no-capture rule with N = {n}"),
            Asked::NoCapture(None) => f.write_str("no no-capture rule"),
        }
    }
}

/// A rule option that cannot be used, and why. [`Display`](fmt::Display) names options as
/// the HTTP API and Python do; [`RuleError::message`] as another front end does (the command
/// line: [`RuleError::cli`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    UnknownGame(UnknownGame),
    /// A preset name that is not one of [`Preset::ALL`].
    UnknownPreset(String),
    /// Text that is not a number (an option that takes one).
    NotANumber {
        option: RuleOption,
        text: String,
    },
    /// Text that is not a yes or no (`flying`).
    NotAFlag {
        option: RuleOption,
        text: String,
    },
    /// A stone count the game cannot be played with.
    Stones {
        game: Game,
        got: String,
    },
    /// A no-capture limit out of 1..=1000 (0 is none).
    NoCapture {
        got: String,
    },
    /// A turn limit out of 0..=100000.
    TurnLimit {
        got: String,
    },
    /// The turn limit beside the no-capture rule.
    NotCombined,
    /// A counter without the no-capture rule.
    CounterWithoutRule,
    /// A counter at or past the limit (the game is drawn already), or negative.
    Counter {
        got: String,
        limit: u16,
    },
    /// An option that says otherwise than the preset beside it.
    Contradicts {
        preset: Preset,
        asked: Asked,
    },
}

impl RuleError {
    /// The message, naming each option as `name` spells it.
    pub fn message(&self, name: &dyn Fn(RuleOption) -> &'static str) -> String {
        let n = |o: RuleOption| name(o);
        match self {
            RuleError::UnknownGame(e) => e.to_string(),
            RuleError::UnknownPreset(s) => {
                let names: Vec<_> = Preset::ALL.iter().map(|p| p.name).collect();
                format!("unknown rule set `{s}` (known: {})", names.join(", "))
            }
            RuleError::NotANumber { option, text } => {
                format!("{}: `{text}` is not a number", n(*option))
            }
            RuleError::NotAFlag { option, text } => {
                format!("{}: `{text}` is not 1 or 0", n(*option))
            }
            RuleError::Stones { game, got } => format!(
                "{} must be from {} to {} for {game} (got {got})",
                n(RuleOption::Stones),
                Rules::MIN_STONES,
                game.max_stones()
            ),
            RuleError::NoCapture { got } => format!(
                "{} must be from 1 to {}, or 0 for none (got {got})",
                n(RuleOption::MovesWithoutCapture),
                RuleSet::MAX_NO_CAPTURE
            ),
            RuleError::TurnLimit { got } => format!(
                "{} must be from 0 to {} (got {got})",
                n(RuleOption::TurnLimit),
                RuleSet::MAX_TURN_LIMIT
            ),
            RuleError::NotCombined => format!(
                "{} and {} are not combined (a position under both would need the distance to \
                 zeroing for every number of turns left)",
                n(RuleOption::TurnLimit),
                n(RuleOption::MovesWithoutCapture)
            ),
            RuleError::CounterWithoutRule => format!(
                "{} needs the no-capture rule ({} or a rule set with it)",
                n(RuleOption::Counter),
                n(RuleOption::MovesWithoutCapture)
            ),
            RuleError::Counter { got, limit } => format!(
                "{} {got}: with {limit} plies without a capture the game is drawn already (the \
                 counter must be from 0 to {})",
                n(RuleOption::Counter),
                limit - 1
            ),
            RuleError::Contradicts { preset, asked } => format!(
                "the rule set `{}` ({}) has {}, but the options ask for {asked}: leave that \
                 option out, or name another rule set",
                preset.name,
                preset.about,
                preset.asked_like(asked)
            ),
        }
    }

    /// The message with the command line's flags.
    pub fn cli(&self) -> String {
        self.message(&RuleOption::flag)
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(&RuleOption::name))
    }
}

impl std::error::Error for RuleError {}

/// A named rule set: the rules of a family of sites, in one word.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Preset {
    name: &'static str,
    game: Game,
    flying: bool,
    no_capture: Option<u16>,
    about: &'static str,
}

impl Preset {
    /// Every preset. The rule pages of the sites they come from, in the project's words:
    /// docs/rules.md.
    pub const ALL: [Preset; 6] = [
        Preset {
            name: "standard",
            game: Game::Nine,
            flying: true,
            no_capture: None,
            about: "Nine Men's Morris, flying at three stones, no draw by a counter",
        },
        Preset {
            name: "no-flying",
            game: Game::Nine,
            flying: false,
            no_capture: None,
            about: "Nine Men's Morris without flying, no draw by a counter",
        },
        Preset {
            name: "no-capture-50",
            game: Game::Nine,
            flying: true,
            no_capture: Some(50),
            about: "Nine Men's Morris, flying, drawn after 50 plies without a capture or placement",
        },
        Preset {
            name: "no-capture-100",
            game: Game::Nine,
            flying: true,
            no_capture: Some(100),
            about: "Nine Men's Morris, flying, drawn after 100 plies without a capture or placement",
        },
        Preset {
            name: "no-flying-50",
            game: Game::Nine,
            flying: false,
            no_capture: Some(50),
            about: "Nine Men's Morris without flying, drawn after 50 plies without a capture or placement",
        },
        Preset {
            name: "three-120",
            game: Game::Three,
            flying: false,
            no_capture: Some(120),
            about: "Three Men's Morris, drawn after 120 plies without a placement",
        },
    ];

    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// What the preset plays, in a line.
    pub const fn about(&self) -> &'static str {
        self.about
    }

    pub const fn game(&self) -> Game {
        self.game
    }

    /// The rule set it names, with the game's own number of stones.
    pub const fn rule_set(&self) -> RuleSet {
        let standard = Rules::standard(self.game);
        RuleSet {
            rules: Rules {
                game: self.game,
                stones: standard.stones,
                flying: self.flying,
            },
            no_capture: self.no_capture,
            turn_limit: None,
        }
    }

    /// The preset's own value of what `asked` is about.
    fn asked_like(&self, asked: &Asked) -> Asked {
        match asked {
            Asked::Game(_) => Asked::Game(self.game),
            Asked::Flying(_) => Asked::Flying(self.flying),
            Asked::NoCapture(_) => Asked::NoCapture(self.no_capture),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl FromStr for Preset {
    type Err = RuleError;
    fn from_str(s: &str) -> Result<Preset, RuleError> {
        let s = s.trim();
        Preset::ALL
            .into_iter()
            .find(|p| p.name == s)
            .ok_or_else(|| RuleError::UnknownPreset(s.to_string()))
    }
}

/// A game with its rule options, checked: built only by [`RuleSet::builder`],
/// [`RuleSet::standard`] and [`Preset::rule_set`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    rules: Rules,
    no_capture: Option<u16>,
    turn_limit: Option<u32>,
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::standard(Game::Nine)
    }
}

impl RuleSet {
    /// The largest no-capture limit N (0 is no rule).
    pub const MAX_NO_CAPTURE: u16 = 1000;
    /// The largest turn limit, in plies: far beyond the longest win of any game of the family,
    /// so any larger limit is no limit.
    pub const MAX_TURN_LIMIT: u32 = 100_000;

    /// A game's standard rules, without counter or turn limit.
    pub const fn standard(game: Game) -> RuleSet {
        RuleSet {
            rules: Rules::standard(game),
            no_capture: None,
            turn_limit: None,
        }
    }

    /// The preset named `name`.
    pub fn preset(name: &str) -> Result<RuleSet, RuleError> {
        Ok(name.parse::<Preset>()?.rule_set())
    }

    /// A rule set built from options, checked by [`RuleSetBuilder::build`].
    pub fn builder() -> RuleSetBuilder {
        RuleSetBuilder::default()
    }

    /// The rules of the move generator: game, stones, flying.
    pub const fn rules(&self) -> Rules {
        self.rules
    }

    pub const fn game(&self) -> Game {
        self.rules.game
    }

    pub const fn stones(&self) -> u8 {
        self.rules.stones
    }

    pub const fn flying(&self) -> bool {
        self.rules.flying
    }

    /// The no-capture rule's limit N, the tables' metric: `None` for the plain game.
    pub const fn moves_without_capture(&self) -> Option<u16> {
        self.no_capture
    }

    /// Plies left before the game is drawn (a win on the last one counts), counted from the
    /// position a front end starts from: `play`'s starting position, the queried position.
    pub const fn turn_limit(&self) -> Option<u32> {
        self.turn_limit
    }

    /// The same rules without a turn limit: what picks the tables, which the limit does not
    /// change.
    pub const fn without_turn_limit(self) -> RuleSet {
        RuleSet {
            turn_limit: None,
            ..self
        }
    }

    /// The no-capture counter of a position, checked against the rule: `None` is counter 0.
    pub fn counter(&self, given: Option<i64>) -> Result<u32, RuleError> {
        let Some(c) = given else {
            return Ok(0);
        };
        let Some(limit) = self.no_capture else {
            return Err(RuleError::CounterWithoutRule);
        };
        if (0..limit as i64).contains(&c) {
            Ok(c as u32)
        } else {
            Err(RuleError::Counter {
                got: c.to_string(),
                limit,
            })
        }
    }

    /// The counter given as text (empty is none), checked as [`RuleSet::counter`].
    pub fn counter_text(&self, text: Option<&str>) -> Result<u32, RuleError> {
        match number(RuleOption::Counter, text)? {
            None => self.counter(None),
            Some(Number::Int(c)) => self.counter(Some(c)),
            Some(Number::Huge(got)) => match self.no_capture {
                None => Err(RuleError::CounterWithoutRule),
                Some(limit) => Err(RuleError::Counter { got, limit }),
            },
        }
    }

    /// The rule set with its standard name, when a preset names it.
    pub fn preset_name(&self) -> Option<&'static str> {
        Preset::ALL
            .into_iter()
            .find(|p| p.rule_set() == self.without_turn_limit())
            .map(|p| p.name)
    }
}

impl fmt::Display for RuleSet {
    /// `nine, 9 stones, flying, no-capture rule N = 50`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} stones, {}",
            self.rules.game,
            self.rules.stones,
            if self.rules.flying {
                "flying"
            } else {
                "no flying"
            }
        )?;
        if let Some(n) = self.no_capture {
            write!(f, ", no-capture rule N = {n}")?;
        }
        if let Some(t) = self.turn_limit {
            write!(f, ", {t} plies left")?;
        }
        Ok(())
    }
}

/// A number as given: one that fits, or the text of a larger one (refused by its bound, with
/// the text in the message).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Number {
    Int(i64),
    Huge(String),
}

impl Number {
    fn text(&self) -> String {
        match self {
            Number::Int(n) => n.to_string(),
            Number::Huge(s) => s.clone(),
        }
    }

    fn within(&self, lo: i64, hi: i64) -> Option<i64> {
        match *self {
            Number::Int(n) if (lo..=hi).contains(&n) => Some(n),
            _ => None,
        }
    }
}

/// Text as a number of `option`: empty (or only spaces) is absent.
fn number(option: RuleOption, text: Option<&str>) -> Result<Option<Number>, RuleError> {
    let Some(s) = text.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RuleError::NotANumber {
            option,
            text: s.to_string(),
        });
    }
    Ok(Some(match s.parse::<i64>() {
        Ok(n) => Number::Int(n),
        Err(_) => Number::Huge(s.to_string()),
    }))
}

/// The no-capture rule's N as given: 0 is none.
fn check_no_capture(n: &Number) -> Result<Option<u16>, RuleError> {
    let n = n
        .within(0, RuleSet::MAX_NO_CAPTURE as i64)
        .ok_or_else(|| RuleError::NoCapture { got: n.text() })?;
    Ok((n > 0).then_some(n as u16))
}

/// The options a rule set is built from, each as a value or as text; [`build`] checks them
/// all, and the first bad one is the error.
///
/// [`build`]: RuleSetBuilder::build
#[derive(Clone, Debug, Default)]
pub struct RuleSetBuilder {
    preset: Option<Preset>,
    defaults: Option<RuleSet>,
    game: Option<Game>,
    stones: Option<Number>,
    flying: Option<bool>,
    no_capture: Option<Number>,
    turn_limit: Option<Number>,
    error: Option<RuleError>,
}

impl RuleSetBuilder {
    /// Starts from a preset: the other options must agree with it, except the stones.
    pub fn preset(mut self, preset: Preset) -> Self {
        self.preset = Some(preset);
        self
    }

    /// Options left out take these values when the game is theirs (a server's defaults);
    /// unlike a preset, the options given may change any of them. A preset overrides them.
    pub fn defaults(mut self, set: RuleSet) -> Self {
        self.defaults = Some(set);
        self
    }

    pub fn game(mut self, game: Game) -> Self {
        self.game = Some(game);
        self
    }

    pub fn stones(mut self, n: i64) -> Self {
        self.stones = Some(Number::Int(n));
        self
    }

    pub fn flying(mut self, flying: bool) -> Self {
        self.flying = Some(flying);
        self
    }

    /// The no-capture rule's limit N; 0 is no rule.
    pub fn moves_without_capture(mut self, n: i64) -> Self {
        self.no_capture = Some(Number::Int(n));
        self
    }

    /// Plies left before the game is drawn.
    pub fn turn_limit(mut self, plies: i64) -> Self {
        self.turn_limit = Some(Number::Int(plies));
        self
    }

    /// An option given as text, as in a query string: empty (or `None`) is left out. Numbers
    /// are decimal; `flying` is `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`;
    /// `moves_without_capture` may be `none` (as 0). The counter is not an option of the set
    /// and is ignored here: [`RuleSet::counter_text`] checks it against the set built.
    pub fn text(mut self, option: RuleOption, text: Option<&str>) -> Self {
        if self.error.is_some() {
            return self;
        }
        if let Err(e) = self.set_text(option, text) {
            self.error = Some(e);
        }
        self
    }

    fn set_text(&mut self, option: RuleOption, text: Option<&str>) -> Result<(), RuleError> {
        let Some(s) = text.map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(());
        };
        match option {
            RuleOption::Rules => self.preset = Some(s.parse()?),
            RuleOption::Game => {
                self.game = Some(s.parse().map_err(RuleError::UnknownGame)?);
            }
            RuleOption::Flying => {
                self.flying = Some(match s {
                    "1" | "true" | "yes" | "on" => true,
                    "0" | "false" | "no" | "off" => false,
                    _ => {
                        return Err(RuleError::NotAFlag {
                            option,
                            text: s.to_string(),
                        })
                    }
                });
            }
            RuleOption::Stones => self.stones = number(option, Some(s))?,
            RuleOption::MovesWithoutCapture if s == "none" => {
                self.no_capture = Some(Number::Int(0));
            }
            RuleOption::MovesWithoutCapture => self.no_capture = number(option, Some(s))?,
            RuleOption::TurnLimit => self.turn_limit = number(option, Some(s))?,
            // Not an option of the set: a position's state, checked by the set built.
            RuleOption::Counter => {}
        }
        Ok(())
    }

    /// The rule set, every option checked.
    pub fn build(self) -> Result<RuleSet, RuleError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        let preset = self.preset;
        let contradicts = |asked: Asked| -> Result<(), RuleError> {
            match preset {
                Some(p) if p.asked_like(&asked) != asked => {
                    Err(RuleError::Contradicts { preset: p, asked })
                }
                _ => Ok(()),
            }
        };
        if let Some(g) = self.game {
            contradicts(Asked::Game(g))?;
        }
        let game = match (preset, self.game, self.defaults) {
            (Some(p), _, _) => p.game,
            (None, Some(g), _) => g,
            (None, None, Some(d)) => d.rules.game,
            (None, None, None) => Game::Nine,
        };
        let mut set = match (preset, self.defaults) {
            (Some(p), _) => p.rule_set(),
            (None, Some(d)) if d.rules.game == game => d,
            _ => RuleSet::standard(game),
        };
        if let Some(f) = self.flying {
            contradicts(Asked::Flying(f))?;
            set.rules.flying = f;
        }
        if let Some(n) = self.stones {
            let stones = n
                .within(Rules::MIN_STONES as i64, game.max_stones() as i64)
                .ok_or_else(|| RuleError::Stones {
                    game,
                    got: n.text(),
                })?;
            set.rules.stones = stones as u8;
        }
        if let Some(n) = self.no_capture {
            let n = check_no_capture(&n)?;
            contradicts(Asked::NoCapture(n))?;
            set.no_capture = n;
        }
        if let Some(t) = self.turn_limit {
            let t = t
                .within(0, RuleSet::MAX_TURN_LIMIT as i64)
                .ok_or_else(|| RuleError::TurnLimit { got: t.text() })?;
            set.turn_limit = Some(t as u32);
        }
        if set.turn_limit.is_some() && set.no_capture.is_some() {
            return Err(RuleError::NotCombined);
        }
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(pairs: &[(RuleOption, &str)]) -> Result<RuleSet, RuleError> {
        pairs
            .iter()
            .fold(RuleSet::builder(), |b, &(o, t)| b.text(o, Some(t)))
            .build()
    }

    #[test]
    fn standard_and_defaults() {
        let s = RuleSet::builder().build().unwrap();
        assert_eq!(s, RuleSet::standard(Game::Nine));
        assert_eq!(s.rules(), Rules::nine());
        assert_eq!(s.moves_without_capture(), None);
        assert_eq!(s.preset_name(), Some("standard"));
        let six = RuleSet::builder().game(Game::Six).build().unwrap();
        assert_eq!(six.rules(), Rules::standard(Game::Six));
        assert_eq!(six.to_string(), "six, 6 stones, no flying");
    }

    #[test]
    fn bounds_of_every_option() {
        for game in Game::ALL {
            for n in 0..=20i64 {
                let r = RuleSet::builder().game(game).stones(n).build();
                let ok = Rules::standard(game).with_stones(n as u8).is_ok();
                assert_eq!(r.is_ok(), ok, "{game} {n}");
                if let Err(e) = r {
                    assert_eq!(
                        e.to_string(),
                        format!(
                            "stones must be from 3 to {} for {game} (got {n})",
                            game.max_stones()
                        )
                    );
                    assert!(e.cli().starts_with("--stones must be from 3"));
                }
            }
        }
        let nc = |n| RuleSet::builder().moves_without_capture(n).build();
        assert_eq!(nc(0).unwrap().moves_without_capture(), None);
        assert_eq!(nc(1).unwrap().moves_without_capture(), Some(1));
        assert_eq!(nc(1000).unwrap().moves_without_capture(), Some(1000));
        for bad in [-1, 1001, 65536, i64::MAX] {
            let e = nc(bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("moves_without_capture must be from 1 to 1000, or 0 for none (got {bad})")
            );
        }
        let t = |n| RuleSet::builder().turn_limit(n).build();
        assert_eq!(t(0).unwrap().turn_limit(), Some(0));
        assert_eq!(t(100_000).unwrap().turn_limit(), Some(100_000));
        assert!(t(-1).unwrap_err().to_string().contains("turns_left"));
        assert!(t(100_001).is_err());
        let both = RuleSet::builder()
            .moves_without_capture(50)
            .turn_limit(10)
            .build();
        assert_eq!(both, Err(RuleError::NotCombined));
    }

    #[test]
    fn text_options() {
        let s = text(&[
            (RuleOption::Game, "six"),
            (RuleOption::Flying, "1"),
            (RuleOption::Stones, " 4 "),
            (RuleOption::MovesWithoutCapture, "20"),
        ])
        .unwrap();
        assert_eq!(
            (s.game(), s.flying(), s.stones(), s.moves_without_capture()),
            (Game::Six, true, 4, Some(20))
        );
        let bad = |pairs: &[(RuleOption, &str)]| text(pairs).unwrap_err().to_string();
        assert_eq!(
            bad(&[(RuleOption::Stones, "x")]),
            "stones: `x` is not a number"
        );
        assert_eq!(
            bad(&[(RuleOption::Stones, "99999999999999999999999")]),
            "stones must be from 3 to 12 for nine (got 99999999999999999999999)"
        );
        assert_eq!(
            bad(&[(RuleOption::Flying, "maybe")]),
            "flying: `maybe` is not 1 or 0"
        );
        assert!(bad(&[(RuleOption::Game, "chess")]).starts_with("unknown game `chess`"));
        assert!(bad(&[(RuleOption::Rules, "blitz")])
            .starts_with("unknown rule set `blitz` (known: standard, no-flying"));
        assert!(bad(&[(RuleOption::TurnLimit, "-1")]).starts_with("turns_left must be"));
        // Empty text is an option left out; `none` and 0 are no no-capture rule.
        assert_eq!(
            text(&[
                (RuleOption::Stones, ""),
                (RuleOption::MovesWithoutCapture, "none")
            ]),
            Ok(RuleSet::standard(Game::Nine))
        );
    }

    #[test]
    fn presets_refined_or_refused() {
        for p in Preset::ALL {
            let s = RuleSet::preset(p.name()).unwrap();
            assert_eq!(s.preset_name(), Some(p.name()));
            assert_eq!(s.game(), p.game());
            // Every preset is a valid rule set of its own.
            let again = RuleSet::builder()
                .game(s.game())
                .flying(s.flying())
                .moves_without_capture(s.moves_without_capture().map_or(0, i64::from))
                .build()
                .unwrap();
            assert_eq!(again, s);
        }
        let p: Preset = "no-capture-50".parse().unwrap();
        let s = RuleSet::builder().preset(p).stones(4).build().unwrap();
        assert_eq!((s.stones(), s.moves_without_capture()), (4, Some(50)));
        assert!(s.flying());
        // Options that agree are accepted; those that do not are refused, whatever the order.
        let agree = RuleSet::builder()
            .game(Game::Nine)
            .flying(true)
            .moves_without_capture(50)
            .preset(p)
            .build();
        assert_eq!(agree, Ok(p.rule_set()));
        let e = RuleSet::builder()
            .preset(p)
            .moves_without_capture(100)
            .build()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the rule set `no-capture-50` (Nine Men's Morris, flying, drawn after 50 plies \
             without a capture or placement) has the no-capture rule with N = 50, but the \
             options ask for the no-capture rule with N = 100: leave that option out, or name \
             another rule set"
        );
        let refused = |b: RuleSetBuilder| b.build().unwrap_err();
        assert!(matches!(
            refused(RuleSet::builder().preset(p).flying(false)),
            RuleError::Contradicts { .. }
        ));
        assert!(matches!(
            refused(RuleSet::builder().preset(p).game(Game::Six)),
            RuleError::Contradicts { .. }
        ));
        let standard: Preset = "standard".parse().unwrap();
        assert!(matches!(
            refused(
                RuleSet::builder()
                    .preset(standard)
                    .moves_without_capture(50)
            ),
            RuleError::Contradicts { .. }
        ));
        assert!(matches!(
            refused(RuleSet::builder().preset(p).moves_without_capture(0)),
            RuleError::Contradicts { .. }
        ));
        // A stone count checked against the preset's game.
        let three: Preset = "three-120".parse().unwrap();
        assert!(RuleSet::builder().preset(three).stones(5).build().is_err());
        // A turn limit beside a preset without the counter.
        let s = RuleSet::builder()
            .preset(standard)
            .turn_limit(100)
            .build()
            .unwrap();
        assert_eq!(s.turn_limit(), Some(100));
        assert_eq!(s.preset_name(), Some("standard"));
    }

    #[test]
    fn defaults_apply_to_their_game_only() {
        let server = RuleSet::builder()
            .stones(3)
            .moves_without_capture(8)
            .build()
            .unwrap();
        let same = RuleSet::builder().defaults(server).build().unwrap();
        assert_eq!(same, server);
        let other = RuleSet::builder()
            .defaults(server)
            .game(Game::Three)
            .build()
            .unwrap();
        assert_eq!(other, RuleSet::standard(Game::Three));
        // Unlike a preset's, the defaults may be changed.
        let changed = RuleSet::builder()
            .defaults(server)
            .moves_without_capture(0)
            .flying(false)
            .build()
            .unwrap();
        assert_eq!(
            (
                changed.stones(),
                changed.flying(),
                changed.moves_without_capture()
            ),
            (3, false, None)
        );
        let preset = RuleSet::builder()
            .defaults(server)
            .text(RuleOption::Rules, Some("no-flying"))
            .build()
            .unwrap();
        assert_eq!(preset, RuleSet::preset("no-flying").unwrap());
    }

    #[test]
    fn counters() {
        let rule = RuleSet::preset("no-capture-50").unwrap();
        assert_eq!(rule.counter(None), Ok(0));
        assert_eq!(rule.counter(Some(49)), Ok(49));
        for bad in [50, -1] {
            let e = rule.counter(Some(bad)).unwrap_err().to_string();
            assert!(e.contains("drawn already"), "{e}");
        }
        assert_eq!(rule.counter_text(Some("")), Ok(0));
        assert!(rule.counter_text(Some("x")).is_err());
        let plain = RuleSet::standard(Game::Nine);
        assert_eq!(plain.counter(None), Ok(0));
        assert_eq!(plain.counter(Some(0)), Err(RuleError::CounterWithoutRule));
        assert_eq!(
            RuleError::CounterWithoutRule.cli(),
            "--counter needs the no-capture rule (--moves-without-capture or a rule set with it)"
        );
    }
}
