//! One answer to "what is this position worth, and what should I play?": the position's value
//! and every legal move ranked, as `morris query --json`, the server's `/api/query` and
//! Python's `Tablebase.query` give it. With the feature `serde` it serialises to the JSON shape
//! of docs/answer.md: every field always present, `null` where it does not apply.
//!
//! Values are from the side to move; a move's value is the mover's after it. Without the
//! no-capture rule `category`, `dtz` and `counter` are `null`; without a turn limit,
//! `turns_left` is; from a values-only packed set, `plies` is.

use crate::tablebase::{Probe, ProbeError, Proved, RankedMove, RuleProbe, Tablebase};
use crate::tables::Found;
use morris_db::Value;
use morris_engine::{Color, GameEnd, Move, Position, Reason, Rules};

/// A position's value and every legal move, best first.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Answer {
    /// The value, the distance and, under the no-capture rule, the category and dtz.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub valued: Valued,
    /// Under the no-capture rule: plies since the last capture or placement.
    pub counter: Option<u32>,
    /// Under a turn limit: plies left before the game is drawn.
    pub turns_left: Option<u32>,
    /// Where the value comes from: the tables, or a search over the moving phase's tables.
    pub source: Source,
    /// The position in notation, as the program writes it.
    pub position: String,
    /// `"white"` or `"black"`: the side to move, whose value this is.
    pub side: &'static str,
    pub rules: AnswerRules,
    /// How the game ended, when it has.
    pub over: Option<Over>,
    /// Every legal move, best first for the side to move (empty when the game is over).
    pub moves: Vec<AnswerMove>,
}

/// A value as an answer gives it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Valued {
    /// `"win"`, `"draw"` or `"loss"`: under the no-capture rule, the value at the counter;
    /// under a turn limit, within the plies left.
    pub value: &'static str,
    /// Plies to the end of the game under perfect play without the no-capture rule (within
    /// the turn limit); `null` for a draw, for a value proved by search, and for a value read
    /// from a values-only packed set.
    pub plies: Option<u32>,
    /// Under the no-capture rule, the value at counter 0: `win`, `cursed-win`, `draw`,
    /// `blessed-loss` or `loss`.
    pub category: Option<&'static str>,
    /// Under the no-capture rule: plies to the zeroing ply that settles the value; `null` for
    /// a draw.
    pub dtz: Option<u32>,
}

impl Valued {
    /// The value of an outcome without the rule (`plain`) and with it (`rule`).
    pub fn of(plain: Found, rule: Option<RuleProbe>) -> Valued {
        Valued {
            value: rule.map_or(plain.value(), |r| r.outcome.value()).name(),
            plies: plain.plies(),
            category: rule.map(|r| r.category.name()),
            dtz: rule.and_then(|r| r.dtz),
        }
    }

    /// A value proved by search: no distance.
    pub fn proved(value: Value) -> Valued {
        Valued {
            value: value.name(),
            plies: None,
            category: None,
            dtz: None,
        }
    }
}

/// Where an answer's values come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Source {
    /// The solved tables: values and distances.
    Tables,
    /// An alpha-beta search over the moving phase's tables ([`Tablebase::prove`]): values
    /// only.
    Search,
    /// A values-only packed set (`morris pack --what wdl`) for some of the answer: values,
    /// and the distances of only what other tables hold.
    Values,
}

impl Source {
    pub const fn name(self) -> &'static str {
        match self {
            Source::Tables => "tables",
            Source::Search => "search",
            Source::Values => "values",
        }
    }
}

/// The rules an answer is under.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnswerRules {
    pub game: &'static str,
    pub flying: bool,
    pub stones: u8,
    /// The no-capture rule's limit N; `null` without the rule.
    pub moves_without_capture: Option<u16>,
}

impl AnswerRules {
    pub fn of(rules: &Rules, moves_without_capture: Option<u16>) -> AnswerRules {
        AnswerRules {
            game: rules.game.name(),
            flying: rules.flying,
            stones: rules.stones,
            moves_without_capture,
        }
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Over {
    /// `"white"` or `"black"`; `null` for a draw.
    pub winner: Option<&'static str>,
    /// `"too few stones"`, `"no legal move"`, `"a line of three"` or, for a draw,
    /// `"no move left"`.
    pub reason: &'static str,
}

impl Over {
    /// How the game of `pos` ended, if it has.
    pub fn of(pos: &Position, rules: &Rules) -> Option<Over> {
        pos.outcome(rules).map(|o| match o {
            GameEnd::Draw => Over {
                winner: None,
                reason: "no move left",
            },
            GameEnd::Win { winner, reason } => Over {
                winner: Some(color_name(winner)),
                reason: match reason {
                    Reason::TooFewStones => "too few stones",
                    Reason::NoMoves => "no legal move",
                    Reason::Line => "a line of three",
                },
            },
        })
    }
}

/// A legal move, its value for the mover, and where it leads.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AnswerMove {
    /// In notation: `d6`, `d6-d5`, `a1xd7`, `b6-c5xg4`.
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// The mover's value after the move, its distance counting this move.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub valued: Valued,
    /// A capture or a placement: the no-capture counter starts again.
    pub zeroing: bool,
    /// The point the stone leaves; `null` for a placement.
    pub from: Option<String>,
    pub to: String,
    /// The stone removed; `null` without a capture.
    pub capture: Option<String>,
    /// The position after the move.
    pub position: String,
}

impl AnswerMove {
    /// A move of `pos` with its value.
    pub fn new(pos: &Position, rules: &Rules, mv: Move, valued: Valued) -> AnswerMove {
        let board = rules.board();
        AnswerMove {
            mv: mv.notation(board).to_string(),
            valued,
            zeroing: is_zeroing(mv),
            from: mv.from().map(|p| board.point_name(p).to_string()),
            to: board.point_name(mv.to()).to_string(),
            capture: mv.capture().map(|p| board.point_name(p).to_string()),
            position: pos.play(mv).notation(rules).to_string(),
        }
    }

    /// A move ranked by the tables.
    pub fn ranked(pos: &Position, rules: &Rules, m: &RankedMove) -> AnswerMove {
        AnswerMove::new(pos, rules, m.mv, Valued::of(m.plain, m.rule))
    }
}

/// A capture or a placement: the moves that start the no-capture counter again.
pub fn is_zeroing(mv: Move) -> bool {
    mv.capture().is_some() || mv.from().is_none()
}

/// `"white"` or `"black"`.
pub const fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The value of a position and of its moves with `left` more plies before a draw (a win on
/// the last one counts), the moves ranked again; unchanged without a limit. A limit needs the
/// distances: values alone are an error.
pub fn within_turns(
    pos: &Position,
    rules: &Rules,
    plain: Found,
    moves: &mut [RankedMove],
    left: Option<u32>,
) -> Result<Found, ProbeError> {
    rank_within_turns(pos, rules, moves, left)?;
    match left {
        None => Ok(plain),
        Some(left) => found_within(pos, rules, plain, left),
    }
}

/// Every legal move of `pos` at the no-capture counter `counter`, best first with `left`
/// more plies before a turn limit draws the game.
pub fn moves_within_turns(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    left: Option<u32>,
) -> Result<Vec<RankedMove>, ProbeError> {
    let mut moves = tb.best_moves_at(pos, counter)?;
    rank_within_turns(pos, tb.rules(), &mut moves, left)?;
    Ok(moves)
}

/// The moves of `pos` valued and ranked again with `left` more plies before a draw.
pub fn rank_within_turns(
    pos: &Position,
    rules: &Rules,
    moves: &mut [RankedMove],
    left: Option<u32>,
) -> Result<(), ProbeError> {
    let Some(left) = left else {
        return Ok(());
    };
    for m in moves.iter_mut() {
        m.plain = found_within(pos, rules, m.plain, left)?;
    }
    moves.sort_by_key(|m| m.plain.rank());
    Ok(())
}

fn found_within(
    pos: &Position,
    rules: &Rules,
    found: Found,
    left: u32,
) -> Result<Found, ProbeError> {
    match found {
        Found::Outcome(o) => Ok(Found::Outcome(o.within(left))),
        Found::Value(_) => Err(ProbeError::NoDistances {
            position: pos.notation(rules).to_string(),
        }),
    }
}

/// Where the values of a probe and its moves come from.
fn source_of(probe: &Probe, moves: &[RankedMove]) -> Source {
    let values = std::iter::once(probe.plain)
        .chain(moves.iter().map(|m| m.plain))
        .any(|f| f.outcome().is_none());
    if values {
        Source::Values
    } else {
        Source::Tables
    }
}

impl Answer {
    /// What the tables of `tb` say of `pos` at the no-capture counter `counter` (0 without
    /// the rule), with `turns_left` plies left before a draw if given. A finished game is
    /// answered without a table.
    pub fn query(
        tb: &Tablebase,
        pos: &Position,
        counter: u32,
        turns_left: Option<u32>,
    ) -> Result<Answer, ProbeError> {
        let rules = *tb.rules();
        let limit = tb.no_capture_limit();
        if let Some(limit) = limit {
            if counter >= limit as u32 {
                return Err(ProbeError::CounterTooLarge { counter, limit });
            }
        }
        if let Some(over) = Over::of(pos, &rules) {
            let (value, plies) = match over.winner {
                None => (Value::Draw, None),
                Some(w) if w == color_name(pos.side_to_move()) => (Value::Win, Some(0)),
                Some(_) => (Value::Loss, Some(0)),
            };
            let valued = Valued {
                value: value.name(),
                plies,
                category: limit.map(|_| value.name()),
                dtz: limit.and(plies),
            };
            let mut a = Answer::new(&rules, limit, pos, valued, Source::Tables, Vec::new());
            a.counter = limit.map(|_| counter);
            a.turns_left = turns_left;
            return Ok(a);
        }
        let probe = tb.probe_at(pos, counter)?;
        let mut moves = tb.best_moves_at(pos, counter)?;
        Answer::from_probe(&rules, limit, pos, &probe, &mut moves, turns_left)
    }

    /// The answer of a probe and its ranked moves (ranked again within `turns_left`).
    pub fn from_probe(
        rules: &Rules,
        limit: Option<u16>,
        pos: &Position,
        probe: &Probe,
        moves: &mut [RankedMove],
        turns_left: Option<u32>,
    ) -> Result<Answer, ProbeError> {
        let plain = within_turns(pos, rules, probe.plain, moves, turns_left)?;
        let items = moves
            .iter()
            .map(|m| AnswerMove::ranked(pos, rules, m))
            .collect();
        let source = source_of(probe, moves);
        let mut a = Answer::new(
            rules,
            limit,
            pos,
            Valued::of(plain, probe.rule),
            source,
            items,
        );
        a.counter = probe.rule.map(|r| r.counter);
        a.turns_left = turns_left;
        Ok(a)
    }

    /// A placement position valued by search ([`Tablebase::prove`]): values, no distances.
    pub fn proved(rules: &Rules, pos: &Position, proved: &Proved) -> Answer {
        let moves = proved
            .moves
            .iter()
            .map(|&(mv, v)| AnswerMove::new(pos, rules, mv, Valued::proved(v)))
            .collect();
        Answer::new(
            rules,
            None,
            pos,
            Valued::proved(proved.value),
            Source::Search,
            moves,
        )
    }

    fn new(
        rules: &Rules,
        limit: Option<u16>,
        pos: &Position,
        valued: Valued,
        source: Source,
        moves: Vec<AnswerMove>,
    ) -> Answer {
        Answer {
            valued,
            counter: None,
            turns_left: None,
            source,
            position: pos.notation(rules).to_string(),
            side: color_name(pos.side_to_move()),
            rules: AnswerRules::of(rules, limit),
            over: Over::of(pos, rules),
            moves,
        }
    }
}
