//! A played game replayed against the tables: for every ply, what the position was worth to
//! the mover, what the move played kept of it, and the best move where it lost value. One
//! function for `morris analyze` and the server's `/api/analyze`, so that both flag the same
//! plies; with the feature `serde` the result is one JSON document with every field present
//! (`null` where it does not apply), as [`crate::answer::Answer`] is.
//!
//! Values are the mover's. Under the no-capture rule they are its values at the counter the
//! game has reached, as a player under the rule has to judge them; without it, the plain
//! values. A values-only packed set gives values without distances (`plies` `null`).

use crate::answer::{color_name, AnswerMove, AnswerRules, Over, Valued};
use crate::choice::kept;
use crate::in_play::{End, GameInPlay};
use crate::tablebase::{ProbeError, RankedMove, Tablebase};
use core::fmt;
use morris_db::Value;
use morris_engine::{MoveError, Position};
use std::fmt::Write as _;

/// A game, ply by ply, with how it ended and what each side lost.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Analysis {
    /// The position the game starts from, in notation.
    pub position: String,
    pub rules: AnswerRules,
    /// Under the no-capture rule: the counter of the starting position.
    pub counter: Option<u32>,
    pub plies: Vec<Ply>,
    /// How the game ended; `null` when the moves stop before the end.
    pub end: Option<Ending>,
    pub summary: Summary,
}

/// One move of the game, judged by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ply {
    /// 1 for the first move given.
    pub ply: u32,
    /// `"white"` or `"black"`: the mover, whose values these are.
    pub side: &'static str,
    /// As the program writes it (`d6-d5`, `a1xd7`).
    #[cfg_attr(feature = "serde", serde(rename = "move"))]
    pub mv: String,
    /// The position before the move.
    pub position: String,
    /// Under the no-capture rule: plies since the last capture or placement, before the move.
    pub counter: Option<u32>,
    /// The position's value for the mover.
    pub before: Valued,
    /// The mover's value after the move, its distance counting the move.
    pub after: Valued,
    /// As good as the best move: of its value and distance, or under the no-capture rule of
    /// its value and distance to zeroing at the counter.
    pub best: bool,
    /// What the move gave away of the position's value.
    pub drop: ValueDrop,
    /// The best move, when the move dropped value.
    pub missed: Option<AnswerMove>,
}

/// How much of the value a move gave away. Distance lost within one value is no drop: a
/// slower win is still a win.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum ValueDrop {
    #[cfg_attr(feature = "serde", serde(rename = "none"))]
    None,
    #[cfg_attr(feature = "serde", serde(rename = "win→draw"))]
    WinToDraw,
    #[cfg_attr(feature = "serde", serde(rename = "win→loss"))]
    WinToLoss,
    #[cfg_attr(feature = "serde", serde(rename = "draw→loss"))]
    DrawToLoss,
}

impl ValueDrop {
    /// The drop from the value of the best move to the value of the move played.
    pub fn of(best: Value, played: Value) -> ValueDrop {
        match (best, played) {
            (Value::Win, Value::Draw) => ValueDrop::WinToDraw,
            (Value::Win, Value::Loss) => ValueDrop::WinToLoss,
            (Value::Draw, Value::Loss) => ValueDrop::DrawToLoss,
            _ => ValueDrop::None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            ValueDrop::None => "none",
            ValueDrop::WinToDraw => "win→draw",
            ValueDrop::WinToLoss => "win→loss",
            ValueDrop::DrawToLoss => "draw→loss",
        }
    }

    pub const fn is_blunder(self) -> bool {
        !matches!(self, ValueDrop::None)
    }
}

impl fmt::Display for ValueDrop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of the game: the position's own end, or a draw by repetition or by the no-capture
/// rule, which the position alone does not show.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Ending {
    /// Plies played when it ended.
    pub ply: u32,
    /// The final position.
    pub position: String,
    /// `"white"` or `"black"`; `null` for a draw.
    pub winner: Option<&'static str>,
    /// As [`Over`] gives it, or `"threefold repetition"`, or `"no-capture rule"`.
    pub reason: &'static str,
}

/// What each side played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Summary {
    pub white: SideSummary,
    pub black: SideSummary,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SideSummary {
    pub moves: u32,
    pub best: u32,
    pub win_to_draw: u32,
    pub win_to_loss: u32,
    pub draw_to_loss: u32,
}

impl SideSummary {
    fn count(&mut self, ply: &Ply) {
        self.moves += 1;
        self.best += u32::from(ply.best);
        match ply.drop {
            ValueDrop::None => {}
            ValueDrop::WinToDraw => self.win_to_draw += 1,
            ValueDrop::WinToLoss => self.win_to_loss += 1,
            ValueDrop::DrawToLoss => self.draw_to_loss += 1,
        }
    }

    pub fn blunders(&self) -> u32 {
        self.win_to_draw + self.win_to_loss + self.draw_to_loss
    }
}

/// Why a game could not be analysed.
#[derive(Debug)]
pub enum AnalysisError {
    /// A move malformed, or not legal where it was played.
    Move {
        ply: u32,
        text: String,
        position: String,
        error: MoveError,
    },
    /// A move given after the game ended.
    AfterEnd { ply: u32, text: String, end: Ending },
    /// The tables could not answer.
    Probe(ProbeError),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Move {
                ply,
                text,
                position,
                error,
            } => write!(f, "ply {ply}, `{text}` in {position}: {error}"),
            AnalysisError::AfterEnd { ply, text, end } => write!(
                f,
                "ply {ply}: `{text}` comes after the end of the game: {} after ply {}, in {}",
                describe_end(end),
                end.ply,
                end.position
            ),
            AnalysisError::Probe(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AnalysisError {}

impl From<ProbeError> for AnalysisError {
    fn from(e: ProbeError) -> AnalysisError {
        AnalysisError::Probe(e)
    }
}

/// `white wins (too few stones)`, `draw (threefold repetition)`.
pub fn describe_end(end: &Ending) -> String {
    match end.winner {
        Some(w) => format!("{w} wins ({})", end.reason),
        None => format!("draw ({})", end.reason),
    }
}

/// The moves of a game as people write it down: whitespace-separated, `#` comments and move
/// numbers (`12.`, `12...`, also glued to the move as in `12.d6`) dropped. Every front end
/// reads a game with it, so a game pasted into one reads the same in another.
pub fn moves_of(text: &str) -> Vec<&str> {
    text.lines()
        .map(|line| line.split_once('#').map_or(line, |(before, _)| before))
        .flat_map(str::split_whitespace)
        .map(|word| {
            let unnumbered = word.trim_start_matches(|c: char| c.is_ascii_digit());
            match unnumbered.strip_prefix('.') {
                Some(rest) if unnumbered.len() < word.len() => rest.trim_start_matches('.'),
                _ => word,
            }
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// Replays `moves` (in notation) from `start`, whose no-capture counter is `counter` (ignored
/// without the rule), and judges every ply by the tables of `tb`. The game ends as `morris
/// play` ends it: when the position is over, when a position comes up a third time with the
/// same side to move, or when the no-capture rule's limit is reached; a move after that is an
/// error, as the game it belongs to is not the one given.
pub fn analyze(
    tb: &Tablebase,
    start: &Position,
    counter: u32,
    moves: &[&str],
) -> Result<Analysis, AnalysisError> {
    let rules = *tb.rules();
    let limit = tb.no_capture_limit();
    if let Some(limit) = limit {
        if counter >= u32::from(limit) {
            return Err(ProbeError::CounterTooLarge { counter, limit }.into());
        }
    }
    let mut game = GameInPlay::of_tablebase(tb, *start, counter);
    let mut plies = Vec::with_capacity(moves.len());
    let mut texts = moves.iter().map(|t| t.trim());
    let end = loop {
        let pos = *game.position();
        let count = game.counter();
        let played = plies.len() as u32;
        if let Some(end) = game.end() {
            let end = ending(&pos, played, end, &rules);
            if let Some(text) = texts.next() {
                return Err(AnalysisError::AfterEnd {
                    ply: played + 1,
                    text: text.to_string(),
                    end,
                });
            }
            break Some(end);
        }
        let Some(text) = texts.next() else {
            break None;
        };
        let mv = pos
            .parse_move(text, &rules)
            .map_err(|error| AnalysisError::Move {
                ply: played + 1,
                text: text.to_string(),
                position: pos.notation(&rules).to_string(),
                error,
            })?;
        let probe = tb.probe_at(&pos, count)?;
        let ranked = tb.best_moves_at(&pos, count)?;
        let top = ranked.first().expect("a game that is not over has a move");
        let this = ranked
            .iter()
            .find(|m| m.mv == mv)
            .expect("every legal move is ranked");
        let drop = ValueDrop::of(kept(top), kept(this));
        plies.push(Ply {
            ply: played + 1,
            side: color_name(pos.side_to_move()),
            mv: mv.notation(rules.board()).to_string(),
            position: pos.notation(&rules).to_string(),
            counter: limit.map(|_| count),
            before: Valued::of(probe.plain, probe.rule),
            after: Valued::of(this.plain, this.rule),
            best: equally_good(this, top),
            drop,
            missed: drop
                .is_blunder()
                .then(|| AnswerMove::ranked(&pos, &rules, top)),
        });
        game.play(mv);
    };
    let mut summary = Summary::default();
    for p in &plies {
        match p.side {
            "white" => summary.white.count(p),
            _ => summary.black.count(p),
        }
    }
    let position = start.notation(&rules).to_string();
    Ok(Analysis {
        position,
        rules: AnswerRules::of(&rules, limit),
        counter: limit.map(|_| counter),
        plies,
        end,
        summary,
    })
}

/// How the game ended at `pos` after `played` plies, in words.
fn ending(pos: &Position, played: u32, end: End, rules: &morris_engine::Rules) -> Ending {
    let (winner, reason) = match end {
        End::Board(_) => {
            let over = Over::of(pos, rules).expect("the position is over");
            (over.winner, over.reason)
        }
        End::Repetition => (None, "threefold repetition"),
        End::NoCapture(_) => (None, "no-capture rule"),
        End::TurnLimit(_) => (None, "turn limit"),
    };
    Ending {
        ply: played,
        position: pos.notation(rules).to_string(),
        winner,
        reason,
    }
}

/// Two moves equally good: under the rule of one outcome at the counter (a slower win of the
/// plain game is no worse there), else of one plain value and distance.
fn equally_good(a: &RankedMove, b: &RankedMove) -> bool {
    match (a.rule, b.rule) {
        (Some(x), Some(y)) => x.outcome == y.outcome,
        _ => a.plain.rank() == b.plain.rank(),
    }
}

/// White's value of a value for `side`: +1 a win, 0 a draw, -1 a loss.
fn for_white(value: &str, side: &str) -> i32 {
    let v = match value {
        "win" => 1,
        "loss" => -1,
        _ => 0,
    };
    if side == "white" {
        v
    } else {
        -v
    }
}

/// White's value of the end of a game.
fn end_for_white(end: &Ending) -> i32 {
    match end.winner {
        Some("white") => 1,
        Some(_) => -1,
        None => 0,
    }
}

/// Text for XML: the five characters with a meaning there escaped.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

/// A chart of the game's value from White's side (win at the top, loss at the bottom) over
/// the plies, as a step line: the value changes only where a move dropped it, so the steps
/// are the blunders, each with a dot whose `<title>` names it. Self-contained (no script, no
/// stylesheet), so it can be written to a file or put into a page as it is.
pub fn svg(analysis: &Analysis) -> String {
    const WIDTH: f64 = 760.0;
    const HEIGHT: f64 = 200.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 20.0;
    const TOP: f64 = 20.0;
    const BOTTOM: f64 = 40.0;
    let n = analysis.plies.len();
    // White's value after each ply, and before the first.
    let mut values: Vec<i32> = Vec::with_capacity(n + 1);
    if let Some(first) = analysis.plies.first() {
        values.push(for_white(first.before.value, first.side));
    }
    values.extend(
        analysis
            .plies
            .iter()
            .map(|p| for_white(p.after.value, p.side)),
    );
    if let (Some(end), Some(last)) = (&analysis.end, values.last_mut()) {
        *last = end_for_white(end);
    }
    let plot = WIDTH - LEFT - RIGHT;
    let x = |ply: usize| LEFT + plot * ply as f64 / n.max(1) as f64;
    let y = |v: i32| TOP + (HEIGHT - TOP - BOTTOM) * f64::from(1 - v) / 2.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\" \
         role=\"img\" aria-label=\"value of the game for White, ply by ply\">"
    );
    for (v, label) in [(1, "White wins"), (0, "draw"), (-1, "Black wins")] {
        let _ = writeln!(
            s,
            "<line x1=\"{LEFT}\" y1=\"{y0}\" x2=\"{x1}\" y2=\"{y0}\" stroke=\"#ccc\"/>\
             <text x=\"{tx}\" y=\"{ty}\" text-anchor=\"end\">{label}</text>",
            y0 = y(v),
            x1 = WIDTH - RIGHT,
            tx = LEFT - 6.0,
            ty = y(v) + 4.0,
        );
    }
    let step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]
        .into_iter()
        .find(|&t| n / t <= 10)
        .unwrap_or(n.max(1));
    for ply in (0..=n).step_by(step) {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{ply}</text>",
            x(ply),
            HEIGHT - BOTTOM + 16.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">ply</text>",
        LEFT + plot / 2.0,
        HEIGHT - 4.0
    );
    if let Some(&v0) = values.first() {
        let mut d = format!("M{:.1},{:.1}", x(0), y(v0));
        for (ply, pair) in values.windows(2).enumerate() {
            if pair[0] != pair[1] {
                let _ = write!(d, " H{:.1} V{:.1}", x(ply + 1), y(pair[1]));
            }
        }
        let _ = write!(d, " H{:.1}", x(n));
        let _ = writeln!(
            s,
            "<path d=\"{d}\" fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2\"/>"
        );
    }
    for p in analysis.plies.iter().filter(|p| p.drop.is_blunder()) {
        let best = p.missed.as_ref().map_or(String::new(), |m| {
            format!("; best: {}, {}", m.mv, m.valued.value)
        });
        let title = format!("ply {}: {} {}, {}{best}", p.ply, p.side, p.mv, p.drop);
        let _ = writeln!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"5\" fill=\"#c62828\"><title>{}</title></circle>",
            x(p.ply as usize),
            y(values[p.ply as usize]),
            escape(&title)
        );
    }
    if n == 0 {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">no moves</text>",
            LEFT + plot / 2.0,
            y(0) - 8.0
        );
    }
    s.push_str("</svg>\n");
    s
}
