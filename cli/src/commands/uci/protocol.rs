//! The engine protocol of Sanmill ("UCI Protocol for Mill Games"), answered exactly from the
//! tables: one line in, its answer out. docs/uci.md is the user's side of it.
//!
//! The state is Sanmill's: a position between actions ([`State`]), with the no-capture counter
//! and the full-move number of its FEN. Moves are ranked by the tablebase and the engine plays
//! what [`choose`] picks. Nothing here waits: every answer is a table read, so `go` answers at
//! once, and `go infinite` (or `ponder`) only holds its `bestmove` until `stop`.

use crate::commands::query::{describe, tablebase};
use crate::Failure;
use morris_db::{Outcome, Value};
use morris_engine::rule_set::RuleOption;
use morris_engine::sanmill::{Action, Fen, Played, State};
use morris_engine::{render, Color, Game, GameEnd, Position, Reason, RuleSet, Rules};
use morris_tablebase::choice::{Choice, Player, Spot};
use morris_tablebase::rng::Rng;
use morris_tablebase::tablebase::RankedMove;
use morris_tablebase::tablebase::Tablebase;
use morris_tablebase::Found;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Whether the session goes on after a line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The score given to a win under the no-capture rule, less the plies to the zeroing ply that
/// settles it: the rule's tables know that distance, not the distance to the end.
const RULE_WIN: i64 = 10_000;

/// The longest principal variation `go depth D` prints.
const MAX_PV: u32 = 1000;

/// The rule options as Sanmill names them, as last set; applied together before the next
/// command that needs them ([`Engine::sync_rules`]), so that options sent one by one (the
/// diagonal lines, then the stones) are judged as a whole.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Wanted {
    /// `PiecesCount`.
    stones: i64,
    /// `MayFly`.
    flying: bool,
    /// `HasDiagonalLines`: Twelve Men's Morris.
    diagonals: bool,
    /// `MayMoveInPlacingPhase`: Lasker Morris.
    move_in_placing: bool,
    /// `NMoveRule`: the no-capture rule's N, 0 for none.
    n_move_rule: i64,
    /// `EndgameNMoveRule`: changes nothing at or above `NMoveRule`.
    endgame_n_move_rule: i64,
}

impl Wanted {
    fn of(set: &RuleSet) -> Wanted {
        let n = set.moves_without_capture().map_or(0, i64::from);
        Wanted {
            stones: set.stones().into(),
            flying: set.flying(),
            diagonals: set.game() == Game::Twelve,
            move_in_placing: set.game() == Game::Lasker,
            n_move_rule: n,
            endgame_n_move_rule: n,
        }
    }

    /// The rule set these options name, or why our tables have none.
    fn rule_set(&self) -> Result<RuleSet, String> {
        let game = match (self.diagonals, self.move_in_placing) {
            (false, false) => Game::Nine,
            (true, false) => Game::Twelve,
            (false, true) => Game::Lasker,
            (true, true) => {
                return Err(
                    "HasDiagonalLines with MayMoveInPlacingPhase is no game we have \
                            (twelve has the diagonals, lasker the moves while placing)"
                        .to_string(),
                );
            }
        };
        let n = self.n_move_rule;
        let endgame = self.endgame_n_move_rule;
        if endgame != 0 && !(n > 0 && endgame >= n) {
            return Err(format!(
                "EndgameNMoveRule {endgame}: a no-capture limit of its own for the endgame is \
                 no rule of our tables (it changes nothing at NMoveRule or above)"
            ));
        }
        RuleSet::builder()
            .game(game)
            .stones(self.stones)
            .flying(self.flying)
            .moves_without_capture(n)
            .build()
            .map_err(|e| {
                e.message(&|o| match o {
                    RuleOption::Stones => "PiecesCount",
                    RuleOption::Flying => "MayFly",
                    RuleOption::MovesWithoutCapture => "NMoveRule",
                    RuleOption::Game => "HasDiagonalLines",
                    o => o.name(),
                })
            })
    }
}

/// One choice of the side to move, with what the tables say of it: a whole move of ours as its
/// Sanmill tokens (the removal that finishes it, if any, as `rest`), or the removal due.
#[derive(Copy, Clone, Debug)]
struct Candidate {
    first: Action,
    rest: Option<Action>,
    /// The mover's outcome after it, without the no-capture rule.
    plain: Found,
    /// The mover's outcome after it under the rule, at the counter it is played at.
    rule: Option<Outcome>,
    /// The state after the whole move.
    next: State,
    /// A capture or a placement: the counter starts again.
    zeroing: bool,
}

impl Candidate {
    /// Best first for the mover, as the tablebase ranks moves: under the rule its outcome at
    /// the counter, then the plain outcome.
    fn rank(&self) -> (Option<Outcome>, (Value, bool, Option<Outcome>)) {
        (self.rule, self.plain.rank())
    }
}

/// The level of a player's skill (the highest level at or below it).
fn level_of(p: &Player) -> usize {
    Player::LEVELS
        .iter()
        .filter(|&&s| s <= p.skill)
        .count()
        .max(1)
}

/// The best choice by the tables (the first of equals): what the position is worth.
fn best(ranked: &[Candidate]) -> Option<&Candidate> {
    ranked.iter().min_by_key(|c| c.rank())
}

/// What the tables say of a state.
enum Reading {
    /// The game is over (or drawn by the no-capture rule): no move.
    Over { plain: Found, why: String },
    /// Every legal choice, best first; with the tables' ranked moves they come from, in the
    /// same order (none when a removal is due: each removal is a choice of its own).
    Ranked(Vec<Candidate>, Vec<RankedMove>),
}

/// The options of a `go`.
#[derive(Default)]
struct Go {
    searchmoves: Vec<Action>,
    depth: Option<u32>,
    topn: Option<usize>,
    /// `infinite` or `ponder`: the `bestmove` waits for `stop` or `ponderhit`.
    wait: bool,
}

pub struct Engine {
    db: PathBuf,
    set: RuleSet,
    tb: Tablebase,
    wanted: Wanted,
    /// The `EndgameNMoveRule` taken last (one that changes nothing).
    endgame_n_move_rule: i64,
    /// `ScoreFromWhite`: scores from White's side instead of the side to move's.
    white_scores: bool,
    /// The game in progress: Sanmill's state and the two counters of its FEN.
    fen: Fen,
    /// The `bestmove` line of a `go infinite`, until `stop`.
    held: Option<String>,
    /// How the engine picks among the best moves, and how strong it plays (`Choice`,
    /// `SkillLevel`).
    player: Player,
    rng: Rng,
}

impl Engine {
    /// An engine reading the tables of `set` in `db`. Only the games of the 24-point board.
    pub fn new(db: PathBuf, set: RuleSet) -> Result<Engine, Failure> {
        let rules = set.rules();
        if !matches!(set.game(), Game::Nine | Game::Twelve | Game::Lasker) {
            return Err(Failure::input(format!(
                "morris uci speaks Sanmill's protocol, whose positions and moves are those of \
                 the 24-point board: --game nine, twelve or lasker, not {}",
                set.game()
            )));
        }
        let tb = tablebase(&db, &set)?;
        Ok(Engine {
            db,
            set,
            tb,
            wanted: Wanted::of(&set),
            endgame_n_move_rule: Wanted::of(&set).endgame_n_move_rule,
            white_scores: false,
            fen: Fen::start(&rules),
            held: None,
            player: Player::perfect(Choice::Ultra),
            rng: Rng::new(1),
        })
    }

    fn rules(&self) -> Rules {
        self.set.rules()
    }

    /// The rule options in force.
    fn applied(&self) -> Wanted {
        Wanted {
            endgame_n_move_rule: self.endgame_n_move_rule,
            ..Wanted::of(&self.set)
        }
    }

    /// Answers one line.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        let line = line.trim();
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = words.first() else {
            return Ok(Flow::Continue);
        };
        // A held `bestmove` is given before anything else is done, as if `stop` had come.
        if !matches!(command, "isready" | "d" | "eval" | "setoption") {
            self.release(out)?;
        }
        if command != "setoption" {
            self.sync_rules(out)?;
        }
        match command {
            "uci" => self.uci(out)?,
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => self.fen = Fen::start(&self.rules()),
            "setoption" => self.setoption(&words[1..], out)?,
            "position" => self.position(&words[1..], out)?,
            "go" => self.go(&words[1..], out)?,
            "eval" => self.eval(out)?,
            "d" => self.display(out)?,
            "stop" | "ponderhit" => {}
            "quit" => return Ok(Flow::Quit),
            _ => writeln!(out, "info string unknown command: {line}")?,
        }
        Ok(Flow::Continue)
    }

    /// The end of input: a held `bestmove` is given.
    pub fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.release(out)
    }

    fn release(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(line) = self.held.take() {
            writeln!(out, "{line}")?;
        }
        Ok(())
    }

    fn uci(&self, out: &mut impl Write) -> io::Result<()> {
        let w = self.applied();
        let max = self.set.game().max_stones();
        writeln!(out, "id name morris {}", env!("CARGO_PKG_VERSION"))?;
        writeln!(out, "id author the morris developers")?;
        let options = [
            format!(
                "PiecesCount type spin default {} min {} max {max}",
                w.stones,
                Rules::MIN_STONES
            ),
            format!("MayFly type check default {}", w.flying),
            format!("HasDiagonalLines type check default {}", w.diagonals),
            format!(
                "MayMoveInPlacingPhase type check default {}",
                w.move_in_placing
            ),
            format!(
                "NMoveRule type spin default {} min 0 max {}",
                w.n_move_rule,
                RuleSet::MAX_NO_CAPTURE
            ),
            format!(
                "EndgameNMoveRule type spin default {} min 0 max {}",
                w.endgame_n_move_rule,
                RuleSet::MAX_NO_CAPTURE
            ),
            "ThreefoldRepetitionRule type check default true".to_string(),
            format!("ScoreFromWhite type check default {}", self.white_scores),
            format!(
                "Choice type combo default {} var fastest var random var ultra",
                self.player.choice.name()
            ),
            format!(
                "SkillLevel type spin default {} min 1 max {}",
                level_of(&self.player),
                Player::LEVELS.len()
            ),
        ];
        for o in options {
            writeln!(out, "option name {o}")?;
        }
        for (name, value) in FIXED {
            match value {
                FixedOption::Spin(v) => writeln!(
                    out,
                    "option name {name} type spin default {v} min {v} max {v}"
                )?,
                FixedOption::Check(v) => {
                    writeln!(out, "option name {name} type check default {v}")?
                }
            }
        }
        writeln!(out, "uciok")
    }

    /// `setoption name <name> [value <value>]`. Rule options are applied before the next
    /// command; the others at once.
    fn setoption(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        if words.first() != Some(&"name") {
            return writeln!(
                out,
                "info string malformed setoption: expected `setoption name <name> [value <value>]`"
            );
        }
        let split = words.iter().position(|&w| w == "value");
        let name = words[1..split.unwrap_or(words.len())].join(" ");
        let value = split.map_or(String::new(), |i| words[i + 1..].join(" "));
        let key = name.to_ascii_lowercase();
        let check = |v: &str| match v.to_ascii_lowercase().as_str() {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!(
                "{name}: `{v}` is not true or false; option unchanged"
            )),
        };
        let spin = |v: &str| {
            v.parse::<i64>()
                .map_err(|_| format!("{name}: `{v}` is not a number; option unchanged"))
        };
        let result: Result<(), String> = match key.as_str() {
            "piecescount" => spin(&value).map(|n| self.wanted.stones = n),
            "mayfly" => check(&value).map(|b| self.wanted.flying = b),
            "hasdiagonallines" => check(&value).map(|b| self.wanted.diagonals = b),
            "maymoveinplacingphase" => check(&value).map(|b| self.wanted.move_in_placing = b),
            // The endgame limit follows N while the two are equal (set apart, it stays).
            "nmoverule" => spin(&value).map(|n| {
                let w = &mut self.wanted;
                if w.endgame_n_move_rule == w.n_move_rule {
                    w.endgame_n_move_rule = n;
                }
                w.n_move_rule = n;
            }),
            "endgamenmoverule" => spin(&value).map(|n| self.wanted.endgame_n_move_rule = n),
            // Repetition never changes a value: a forced win never needs to repeat.
            "threefoldrepetitionrule" => check(&value).map(|_| ()),
            "scorefromwhite" => check(&value).map(|b| self.white_scores = b),
            "choice" => value
                .to_ascii_lowercase()
                .parse::<Choice>()
                .map(|c| self.player.choice = c)
                .map_err(|e| format!("Choice: {e}; option unchanged")),
            "skilllevel" => spin(&value).and_then(|n| {
                let level = u8::try_from(n)
                    .ok()
                    .and_then(Player::level)
                    .ok_or_else(|| {
                        format!("SkillLevel: {n} is not from 1 to 5; option unchanged")
                    })?;
                self.player.skill = level.skill;
                Ok(())
            }),
            _ => match FIXED.iter().find(|(n, _)| n.eq_ignore_ascii_case(&name)) {
                Some((n, FixedOption::Spin(v))) => {
                    spin(&value).and_then(|got| fixed(n, got == *v, &value, &v.to_string()))
                }
                Some((n, FixedOption::Check(v))) => {
                    check(&value).and_then(|got| fixed(n, got == *v, &value, &v.to_string()))
                }
                None => Err(format!("No such option: {name}")),
            },
        };
        match result {
            Ok(()) => Ok(()),
            Err(message) => writeln!(out, "info string {message}"),
        }
    }

    /// Applies the rule options set since the last command: taken when the tables of the new
    /// rules cover the current position (the start, when the game or its stones change);
    /// refused otherwise, with the reason, keeping the rules in force.
    fn sync_rules(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.wanted == self.applied() {
            return Ok(());
        }
        let old = self.set;
        match self.try_rules() {
            Ok(true) => writeln!(
                out,
                "info string rules: {} (the position is the start of the game)",
                self.set
            ),
            Ok(false) if self.set != old => writeln!(out, "info string rules: {}", self.set),
            Ok(false) => Ok(()),
            Err(why) => {
                self.wanted = self.applied();
                writeln!(
                    out,
                    "info string rule options refused: {why}; keeping {old}"
                )
            }
        }
    }

    /// Switches to the wanted rules: `Ok(true)` when the position went back to the start.
    fn try_rules(&mut self) -> Result<bool, String> {
        let set = self.wanted.rule_set()?;
        if set == self.set {
            // Only an EndgameNMoveRule that changes nothing.
            self.endgame_n_move_rule = self.wanted.endgame_n_move_rule;
            return Ok(false);
        }
        let reset = set.game() != self.set.game() || set.stones() != self.set.stones();
        let fen = if reset {
            Fen::start(&set.rules())
        } else {
            self.fen
        };
        let tb = tablebase(&self.db, &set).map_err(|f| f.message)?;
        tb.prepare(&table_position(&fen.state, &set.rules()))
            .map_err(|e| format!("no tables of {set} for the position: {e}"))?;
        self.set = set;
        self.tb = tb;
        self.fen = fen;
        self.endgame_n_move_rule = self.wanted.endgame_n_move_rule;
        Ok(reset)
    }

    /// `position startpos|fen <fen> [moves <tokens>]`: a bad FEN leaves the position as it
    /// was; the moves are played up to the first that is not legal, which is reported.
    fn position(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let rules = self.rules();
        let moves_at = words.iter().position(|&w| w == "moves");
        let head = &words[..moves_at.unwrap_or(words.len())];
        let fen = match head.first() {
            Some(&"startpos") if head.len() == 1 => Fen::start(&rules),
            Some(&"fen") if head.len() > 1 => {
                let text = head[1..].join(" ");
                let parsed = if text.starts_with("W:") {
                    Position::parse(&text, &rules)
                        .map(|p| Fen {
                            state: State::new(p),
                            counter: 0,
                            fullmove: 1,
                        })
                        .map_err(|e| e.to_string())
                } else {
                    Fen::parse(&text, &rules).map_err(|e| e.to_string())
                };
                match parsed {
                    Ok(f) => f,
                    Err(e) => {
                        return writeln!(
                            out,
                            "info string invalid fen ignored, position unchanged: {e}"
                        )
                    }
                }
            }
            _ => {
                return writeln!(
                    out,
                    "info string malformed position command, position unchanged: expected \
                     `position startpos [moves ...]` or `position fen <fen> [moves ...]`"
                )
            }
        };
        let mut fen = fen;
        for (i, token) in words[moves_at.map_or(words.len(), |i| i + 1)..]
            .iter()
            .enumerate()
        {
            match fen.state.play_text(&rules, token) {
                Ok((next, played)) => fen = advance(fen, next, played),
                Err(e) => {
                    writeln!(
                        out,
                        "info string move {} `{token}` not played, the position is the one \
                         before it: {e}",
                        i + 1
                    )?;
                    break;
                }
            }
        }
        self.fen = fen;
        Ok(())
    }

    /// What the tables say of a state at a counter.
    fn analyse(&self, state: &State, counter: u32) -> Result<Reading, String> {
        let rules = self.rules();
        let pos = state.position();
        if !state.is_removing() {
            if let Some(end) = pos.outcome(&rules) {
                let side = pos.side_to_move();
                let (plain, why) = match end {
                    GameEnd::Win { winner, reason } => (
                        Found::Outcome(if winner == side {
                            Outcome::Win(0)
                        } else {
                            Outcome::Loss(0)
                        }),
                        format!(
                            "game over: {} won, {}",
                            winner.name(),
                            match reason {
                                Reason::TooFewStones => "the other side has too few stones",
                                Reason::NoMoves => "the other side has no legal move",
                                Reason::Line => "a line of three",
                            }
                        ),
                    ),
                    GameEnd::Draw => (Found::Outcome(Outcome::Draw), "game over: draw".to_string()),
                };
                return Ok(Reading::Over { plain, why });
            }
            if let Some(n) = self.tb.no_capture_limit() {
                if counter >= u32::from(n) {
                    return Ok(Reading::Over {
                        plain: Found::Outcome(Outcome::Draw),
                        why: format!(
                            "game over: draw, {counter} plies without a capture or placement \
                             (the no-capture rule's N is {n})"
                        ),
                    });
                }
            }
            let moves = self
                .tb
                .best_moves_at(&pos, counter)
                .map_err(|e| e.to_string())?;
            let candidates = moves
                .iter()
                .map(|m| {
                    let (first, rest) = Action::of_move(m.mv);
                    Candidate {
                        first,
                        rest,
                        plain: m.plain,
                        rule: m.rule.map(|r| r.outcome),
                        next: state.after_move(m.mv),
                        zeroing: m.zeroing,
                    }
                })
                .collect();
            return Ok(Reading::Ranked(candidates, moves));
        }
        // A removal is due: each removal finishes the move, a zeroing one, so its position is
        // read at counter 0.
        let mut choices = Vec::new();
        for p in state.removable(&rules) {
            let child = state.after_removal(p);
            let probe = self.tb.probe_at(&child, 0).map_err(|e| e.to_string())?;
            choices.push(Candidate {
                first: Action::Remove(p),
                rest: None,
                plain: probe.plain.after_move(),
                rule: probe.rule.map(|r| r.outcome.at_zero().after_move()),
                next: State::new(child),
                zeroing: true,
            });
        }
        choices.sort_by_key(Candidate::rank);
        Ok(Reading::Ranked(choices, Vec::new()))
    }

    fn score(&self, plain: Found, rule: Option<Outcome>, side: Color) -> String {
        score(plain, rule, side, self.white_scores)
    }

    /// The value in words: `White to move: win in 25 plies`.
    fn words(&self, state: &State, plain: Found, rule: Option<Outcome>, counter: u32) -> String {
        let side = state.side_to_move().name();
        let who = if state.is_removing() {
            format!("{side} to remove a stone")
        } else {
            format!("{side} to move")
        };
        match (rule, self.tb.no_capture_limit()) {
            (Some(r), Some(n)) => {
                let mut s = format!("{who}: {}", r.value());
                if let Some(z) = r.plies() {
                    s.push_str(&format!(", {z} plies to the zeroing ply"));
                }
                s.push_str(&format!(
                    " under the no-capture rule N = {n} at counter {counter} ({} without the rule)",
                    describe(plain)
                ));
                s
            }
            _ => format!("{who}: {}", describe(plain)),
        }
    }

    /// `go`: the best move and its exact score at once; with `topn N` the N best moves first.
    fn go(&mut self, words: &[&str], out: &mut impl Write) -> io::Result<()> {
        let started = Instant::now();
        let rules = self.rules();
        let board = rules.board();
        let go = parse_go(words, board, out)?;
        let fen = self.fen;
        let state = fen.state;
        let side = state.side_to_move();
        let analysis = match self.analyse(&state, fen.counter) {
            Ok(a) => a,
            Err(e) => {
                writeln!(out, "info string error: {e}")?;
                return self.bestmove("bestmove none".to_string(), go.wait, out);
            }
        };
        let (mut choices, ranked) = match analysis {
            Reading::Over { plain, why } => {
                writeln!(
                    out,
                    "info depth 0 score {} nodes 0 time 0",
                    self.score(plain, None, side)
                )?;
                writeln!(out, "info string {why}")?;
                return self.bestmove("bestmove none".to_string(), go.wait, out);
            }
            Reading::Ranked(c, ranked) => (c, ranked),
        };
        let mut nodes = choices.len() as u64;
        if !go.searchmoves.is_empty() {
            let kept: Vec<Candidate> = choices
                .iter()
                .filter(|c| go.searchmoves.contains(&c.first))
                .copied()
                .collect();
            if kept.is_empty() {
                writeln!(
                    out,
                    "info string searchmoves: none of them is legal here; every move is searched"
                )?;
            } else {
                choices = kept;
            }
        }
        if let Some(n) = go.topn {
            for (rank, c) in first_per_action(&choices).iter().take(n).enumerate() {
                writeln!(
                    out,
                    "info topn rank {} move {} score {}",
                    rank + 1,
                    c.first.notation(board),
                    self.score(c.plain, c.rule, side)
                )?;
            }
        }
        // The player's choice among the best moves where the tables ranked whole moves and
        // none was left out by `searchmoves`; else the first of the best.
        let picked = if go.searchmoves.is_empty() && ranked.len() == choices.len() {
            let pos = state.position();
            let spot = Spot {
                pos: &pos,
                counter: fen.counter,
                turns_left: None,
                moves: &ranked,
                seen: None,
            };
            match self.player.pick(&self.tb, spot, &mut self.rng) {
                Ok(i) => i.map(|i| choices[i]),
                Err(e) => {
                    writeln!(out, "info string error: {e}")?;
                    return self.bestmove("bestmove none".to_string(), go.wait, out);
                }
            }
        } else {
            best(&choices).copied()
        };
        let Some(chosen) = picked else {
            writeln!(out, "info string no legal move")?;
            return self.bestmove("bestmove none".to_string(), go.wait, out);
        };
        // The score is the position's (its best move's): in a lost position the player may
        // choose a quicker loss that sets more traps.
        let top = *best(&choices).expect("a choice was made");
        // The principal variation: the chosen move, then what the engine would play after it.
        let mut pv = tokens_of(&chosen, board);
        let mut plies = 1;
        let (mut s, mut counter) = (chosen.next, next_counter(fen.counter, chosen.zeroing));
        while plies < go.depth.unwrap_or(1).min(MAX_PV) {
            let Ok(Reading::Ranked(next, _)) = self.analyse(&s, counter) else {
                break;
            };
            nodes += next.len() as u64;
            let Some(c) = best(&next) else { break };
            pv.push(' ');
            pv.push_str(&tokens_of(c, board));
            (s, counter) = (c.next, next_counter(counter, c.zeroing));
            plies += 1;
        }
        writeln!(
            out,
            "info depth {plies} score {} nodes {nodes} time {} pv {pv}",
            self.score(top.plain, top.rule, side),
            started.elapsed().as_millis()
        )?;
        writeln!(
            out,
            "info string {}",
            self.words(&state, top.plain, top.rule, fen.counter)
        )?;
        let line = format!("bestmove {}", chosen.first.notation(board));
        self.bestmove(line, go.wait, out)
    }

    fn bestmove(&mut self, line: String, wait: bool, out: &mut impl Write) -> io::Result<()> {
        if wait {
            self.held = Some(line);
            Ok(())
        } else {
            writeln!(out, "{line}")
        }
    }

    /// `eval`: the exact score of the position, `info eval score ...`.
    fn eval(&self, out: &mut impl Write) -> io::Result<()> {
        let fen = self.fen;
        let side = fen.state.side_to_move();
        match self.analyse(&fen.state, fen.counter) {
            Ok(Reading::Over { plain, .. }) => {
                writeln!(out, "info eval score {}", self.score(plain, None, side))
            }
            Ok(Reading::Ranked(choices, _)) => match best(&choices) {
                Some(c) => writeln!(out, "info eval score {}", self.score(c.plain, c.rule, side)),
                None => writeln!(out, "info string no legal move"),
            },
            Err(e) => writeln!(out, "info string error: {e}"),
        }
    }

    /// `d`: the board with our notation of the position, the FEN and the rules.
    fn display(&self, out: &mut impl Write) -> io::Result<()> {
        let rules = self.rules();
        let fen = &self.fen;
        let state = fen.state;
        writeln!(out, "{}", render::draw(&state.position(), &rules))?;
        writeln!(out, "Fen: {}", fen.notation(&rules))?;
        if state.is_removing() {
            let board = rules.board();
            let removals: Vec<String> = state
                .actions(&rules)
                .iter()
                .map(|a| a.notation(board).to_string())
                .collect();
            writeln!(
                out,
                "Removal due: {} to remove one of {}",
                state.side_to_move().name(),
                removals.join(" ")
            )?;
        }
        writeln!(out, "Rules: {}", self.set)
    }
}

/// `score mate N` or `score cp N` for the mover of `side` (from White's side with
/// `white_scores`). Without the no-capture rule a win in `d` plies is mate in `(d + 1) / 2`
/// moves and a loss in `d` plies mate in `-d / 2`, exact both ways since a win ends on the
/// winner's ply; a draw is `cp 0`. Under the rule, whose tables hold the plies to the zeroing
/// ply rather than to the end, a win `z` plies from its zeroing ply is `cp 10000 - z`, a loss
/// `cp -(10000 - z)`. From values-only tables a win is `cp 10000` and a loss `cp -10000`.
fn score(plain: Found, rule: Option<Outcome>, side: Color, white_scores: bool) -> String {
    let (kind, n): (&str, i64) = match rule {
        None => match plain {
            Found::Outcome(Outcome::Win(d)) => ("mate", i64::from(d.div_ceil(2))),
            Found::Outcome(Outcome::Loss(d)) => ("mate", -(i64::from(d) / 2)),
            Found::Outcome(Outcome::Draw) | Found::Value(Value::Draw) => ("cp", 0),
            Found::Value(Value::Win) => ("cp", RULE_WIN),
            Found::Value(Value::Loss) => ("cp", -RULE_WIN),
        },
        Some(Outcome::Win(z)) => ("cp", RULE_WIN - i64::from(z)),
        Some(Outcome::Loss(z)) => ("cp", -(RULE_WIN - i64::from(z))),
        Some(Outcome::Draw) => ("cp", 0),
    };
    let n = if white_scores && side == Color::Black {
        -n
    } else {
        n
    };
    format!("{kind} {n}")
}

/// The rule options of Sanmill that our tables have one value of: refused at any other.
enum FixedOption {
    Spin(i64),
    Check(bool),
}

const FIXED: [(&str, FixedOption); 11] = [
    ("flyPieceCount", FixedOption::Spin(3)),
    ("PiecesAtLeastCount", FixedOption::Spin(3)),
    ("MillFormationActionInPlacingPhase", FixedOption::Spin(0)),
    ("IsDefenderMoveFirst", FixedOption::Check(false)),
    ("MayRemoveMultiple", FixedOption::Check(false)),
    ("MayRemoveFromMillsAlways", FixedOption::Check(false)),
    ("RestrictRepeatedMillsFormation", FixedOption::Check(false)),
    ("OneTimeUseMill", FixedOption::Check(false)),
    ("BoardFullAction", FixedOption::Spin(0)),
    ("StalemateAction", FixedOption::Spin(0)),
    ("StopPlacingWhenTwoEmptySquares", FixedOption::Check(false)),
];

/// A fixed option set to a value: fine when it is ours.
fn fixed(name: &str, ours: bool, got: &str, value: &str) -> Result<(), String> {
    if ours {
        Ok(())
    } else {
        Err(format!(
            "{name} {got}: not a rule of our tables, which have {name} {value} only; option unchanged"
        ))
    }
}

/// The FEN after an action: the counter and the full-move number move on when it finishes a
/// move.
fn advance(fen: Fen, next: State, played: Played) -> Fen {
    if !played.completes_move() {
        return Fen { state: next, ..fen };
    }
    Fen {
        state: next,
        counter: next_counter(fen.counter, played.zeroing()),
        fullmove: fen.fullmove + u32::from(fen.state.side_to_move() == Color::Black),
    }
}

fn next_counter(counter: u32, zeroing: bool) -> u32 {
    if zeroing {
        0
    } else {
        counter + 1
    }
}

/// A position the tables must hold for a state to be answered: the state's own, or after a
/// removal when one is due.
fn table_position(state: &State, rules: &Rules) -> Position {
    match state.removable(rules).first() {
        Some(p) => state.after_removal(p),
        None => state.position(),
    }
}

/// The best choice for each first token, in rank order (`topn` ranks tokens, and a placement
/// that closes a mill is one token whatever it removes).
fn first_per_action(ranked: &[Candidate]) -> Vec<Candidate> {
    let mut sorted: Vec<Candidate> = ranked.to_vec();
    sorted.sort_by_key(Candidate::rank);
    let mut out: Vec<Candidate> = Vec::new();
    for c in sorted {
        if !out.iter().any(|o| o.first == c.first) {
            out.push(c);
        }
    }
    out
}

fn tokens_of(c: &Candidate, board: &'static morris_engine::Board) -> String {
    match c.rest {
        None => c.first.notation(board).to_string(),
        Some(r) => format!("{} {}", c.first.notation(board), r.notation(board)),
    }
}

/// The options of `go`. Limits are read and have nothing to limit (every answer is a table
/// read); a word that is not one, or a limit without its number, is reported and skipped.
fn parse_go(
    words: &[&str],
    board: &'static morris_engine::Board,
    out: &mut impl Write,
) -> io::Result<Go> {
    const NUMBERED: [&str; 10] = [
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "depth",
        "nodes",
        "mate",
        "movetime",
        "topn",
    ];
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        match w {
            "infinite" | "ponder" => go.wait = true,
            "searchmoves" => {
                while i < words.len()
                    && !NUMBERED.contains(&words[i])
                    && !matches!(words[i], "infinite" | "ponder" | "searchmoves")
                {
                    match Action::parse(words[i], board) {
                        Ok(a) => go.searchmoves.push(a),
                        Err(e) => writeln!(out, "info string searchmoves: {e}; skipped")?,
                    }
                    i += 1;
                }
            }
            w if NUMBERED.contains(&w) => {
                let n = words.get(i).and_then(|s| s.parse::<u64>().ok());
                match n {
                    Some(n) => {
                        i += 1;
                        match w {
                            "depth" => go.depth = Some(n.clamp(1, u64::from(MAX_PV)) as u32),
                            "topn" => go.topn = Some(n.min(1000) as usize),
                            _ => {}
                        }
                    }
                    None => writeln!(out, "info string go: `{w}` needs a number from 0; skipped")?,
                }
            }
            w => writeln!(out, "info string go: unknown word `{w}` skipped")?,
        }
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_engine::Rules;

    #[test]
    fn scores() {
        let w = Color::White;
        assert_eq!(
            score(Found::Outcome(Outcome::Win(1)), None, w, false),
            "mate 1"
        );
        assert_eq!(
            score(Found::Outcome(Outcome::Win(25)), None, w, false),
            "mate 13"
        );
        assert_eq!(
            score(Found::Outcome(Outcome::Loss(26)), None, w, false),
            "mate -13"
        );
        assert_eq!(
            score(Found::Outcome(Outcome::Loss(0)), None, w, false),
            "mate 0"
        );
        assert_eq!(score(Found::Outcome(Outcome::Draw), None, w, false), "cp 0");
        assert_eq!(score(Found::Value(Value::Win), None, w, false), "cp 10000");
        assert_eq!(score(Found::Value(Value::Loss), None, w, true), "cp -10000");
        assert_eq!(
            score(Found::Outcome(Outcome::Loss(26)), None, Color::Black, true),
            "mate 13"
        );
        assert_eq!(
            score(Found::Outcome(Outcome::Loss(26)), None, w, true),
            "mate -13"
        );
        let rule = Some(Outcome::Win(12));
        assert_eq!(
            score(Found::Outcome(Outcome::Win(31)), rule, w, false),
            "cp 9988"
        );
        let rule = Some(Outcome::Loss(4));
        assert_eq!(
            score(Found::Outcome(Outcome::Loss(8)), rule, w, false),
            "cp -9996"
        );
        assert_eq!(
            score(
                Found::Outcome(Outcome::Win(31)),
                Some(Outcome::Draw),
                w,
                false
            ),
            "cp 0"
        );
    }

    #[test]
    fn go_words() {
        let board = Rules::nine().board();
        let mut out = Vec::new();
        let go = parse_go(
            &"wtime 100 btime 100 searchmoves d6 a1-a4 xb4 depth 7 topn 3 infinite"
                .split(' ')
                .collect::<Vec<_>>(),
            board,
            &mut out,
        )
        .unwrap();
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
        assert_eq!(go.searchmoves.len(), 3);
        assert_eq!((go.depth, go.topn, go.wait), (Some(7), Some(3), true));
        let go = parse_go(
            &["depth", "x", "movetime", "topn", "2", "zz"],
            board,
            &mut out,
        )
        .unwrap();
        let said = String::from_utf8_lossy(&out);
        assert!(
            said.contains("`depth` needs a number") && said.contains("`movetime` needs a number"),
            "{said}"
        );
        assert!(
            said.contains("unknown word `x`") && said.contains("unknown word `zz`"),
            "{said}"
        );
        assert_eq!((go.depth, go.topn, go.wait), (None, Some(2), false));
    }

    #[test]
    fn rule_options() {
        let set = RuleSet::standard(Game::Nine);
        let w = Wanted::of(&set);
        assert_eq!(w.rule_set(), Ok(set));
        let twelve = Wanted {
            diagonals: true,
            stones: 12,
            ..w
        };
        assert_eq!(twelve.rule_set(), Ok(RuleSet::standard(Game::Twelve)));
        let lasker = Wanted {
            move_in_placing: true,
            stones: 10,
            ..w
        };
        assert_eq!(lasker.rule_set(), Ok(RuleSet::standard(Game::Lasker)));
        assert!(Wanted {
            diagonals: true,
            move_in_placing: true,
            ..w
        }
        .rule_set()
        .is_err());
        let n = Wanted {
            n_move_rule: 100,
            endgame_n_move_rule: 100,
            ..w
        }
        .rule_set()
        .unwrap();
        assert_eq!(n.moves_without_capture(), Some(100));
        let e = Wanted {
            n_move_rule: 100,
            endgame_n_move_rule: 50,
            ..w
        }
        .rule_set();
        assert!(e.unwrap_err().contains("EndgameNMoveRule 50"));
        let e = Wanted { stones: 13, ..w }.rule_set();
        assert!(e.unwrap_err().contains("PiecesCount"));
        let e = Wanted {
            n_move_rule: 5000,
            ..w
        }
        .rule_set();
        assert!(e.unwrap_err().contains("NMoveRule"));
    }
}
