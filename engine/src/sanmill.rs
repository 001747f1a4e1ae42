//! Sanmill's text forms: its FEN and its move tokens, as its command-line engine reads and
//! writes them (the line protocol of `morris uci`, docs/uci.md).
//!
//! Sanmill names the points of the 24-point board as we do (`a1` bottom left to `g7`), so a
//! point is the same text in both. Two things differ:
//!
//! - **Moves are split.** A Sanmill token is one *action*: a placement `d6`, a slide or fly
//!   `d6-d5`, or a removal `xb4`. A move of ours that closes a mill and captures (`d6xb4`) is
//!   two tokens, `d6` then `xb4`, with the same side to move in between. A [`State`] is a
//!   position between actions: either the side to move places or moves, or it has just closed
//!   a mill and must remove a stone (Sanmill's action `r`).
//! - **The FEN** lists the 24 points ring by ring, in Sanmill's square order ([`FEN_ORDER`]):
//!   the inner ring, the middle ring, the outer ring, each from the middle of its top side
//!   clockwise, one character a point (`O` White, `@` Black, `*` empty), `/` between rings.
//!   Then 16 fields: side to move, phase, action, White's stones on board and in hand,
//!   Black's, the stones each side has to remove, four last-mill squares, a bitmask of formed
//!   mills, the plies since the last capture or placement, and the full-move number.
//!
//! Only the games of the 24-point board have a Sanmill FEN: Nine Men's Morris (any number of
//! stones), Twelve Men's Morris (Sanmill's diagonal lines) and Lasker Morris (Sanmill's "may
//! move in the placing phase").

use crate::bitboard::{Bitboard, Point};
use crate::board::Board;
use crate::error::PositionError;
use crate::movegen::{for_each_move, removable};
use crate::moves::Move;
use crate::position::{Color, Position};
use crate::rules::Rules;
use core::fmt;

/// The points in the order of Sanmill's FEN (its squares 8 to 31): the inner ring, then the
/// middle ring, then the outer ring, each starting at the middle of its top side, clockwise.
pub const FEN_ORDER: [&str; 24] = [
    "d5", "e5", "e4", "e3", "d3", "c3", "c4", "c5", //
    "d6", "f6", "f4", "f2", "d2", "b2", "b4", "b6", //
    "d7", "g7", "g4", "g1", "d1", "a1", "a4", "a7",
];

/// The number of fields of Sanmill's current FEN.
pub const FEN_FIELDS: usize = 17;

/// The number of fields of the FEN Sanmill wrote before it recorded the last mills (read too).
pub const FEN_FIELDS_OLD: usize = 12;

/// Why Sanmill text could not be read, or an action not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanmillError {
    /// The game's board is not the 24-point board Sanmill's FEN describes.
    Board { game: &'static str },
    /// A FEN that does not have Sanmill's shape; says what is wrong.
    Fen(String),
    /// A FEN whose position breaks the rules (too many stones, impossible hands...).
    Position(PositionError),
    /// A FEN of a state our rules do not have (marked points, several stones to remove).
    Unsupported(String),
    /// A token that is not a placement, a slide or a removal.
    Syntax(String),
    /// A well-formed token that is not legal here; `legal` lists the legal tokens.
    Illegal { action: String, legal: Vec<String> },
}

impl fmt::Display for SanmillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanmillError::Board { game } => write!(
                f,
                "Sanmill's FEN and moves describe the 24-point board; the {game} board is not it"
            ),
            SanmillError::Fen(what) => write!(
                f,
                "malformed Sanmill FEN: {what} (expected e.g. `********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1`)"
            ),
            SanmillError::Position(e) => write!(f, "impossible position: {e}"),
            SanmillError::Unsupported(what) => write!(f, "not a state of our rules: {what}"),
            SanmillError::Syntax(s) => write!(
                f,
                "malformed move `{s}` (expected a placement `d6`, a slide `d6-d5` or a removal `xb4`)"
            ),
            SanmillError::Illegal { action, legal } if legal.is_empty() => {
                write!(f, "illegal move `{action}`: the game is over, there is no legal move")
            }
            SanmillError::Illegal { action, legal } => {
                write!(f, "illegal move `{action}`; legal moves: {}", legal.join(" "))
            }
        }
    }
}

impl std::error::Error for SanmillError {}

/// The points of the board in [`FEN_ORDER`], or an error when the board is not the 24-point
/// board.
fn fen_points(board: &'static Board) -> Result<[Point; 24], SanmillError> {
    let mut points = [0; 24];
    if board.len() != 24 {
        return Err(SanmillError::Board { game: board.name() });
    }
    for (p, name) in points.iter_mut().zip(FEN_ORDER) {
        *p = board
            .parse_point(name)
            .ok_or(SanmillError::Board { game: board.name() })?;
    }
    Ok(points)
}

/// One of Sanmill's actions: a move of ours is one or two of them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A stone from hand: `d6`.
    Place(Point),
    /// A slide or a fly: `d6-d5`.
    Slide { from: Point, to: Point },
    /// The removal of an enemy stone after a mill: `xb4`.
    Remove(Point),
}

impl Action {
    /// Parses a token without checking that it is legal anywhere.
    pub fn parse(text: &str, board: &'static Board) -> Result<Action, SanmillError> {
        let text = text.trim();
        let syntax = || SanmillError::Syntax(text.to_string());
        let point = |name: &str| board.parse_point(name).ok_or_else(syntax);
        if let Some(rest) = text.strip_prefix('x') {
            return Ok(Action::Remove(point(rest)?));
        }
        match text.split_once('-') {
            Some((a, b)) => {
                let (from, to) = (point(a)?, point(b)?);
                if from == to {
                    return Err(syntax());
                }
                Ok(Action::Slide { from, to })
            }
            None => Ok(Action::Place(point(text)?)),
        }
    }

    /// The token: `d6`, `d6-d5`, `xb4`.
    pub fn notation(self, board: &'static Board) -> impl fmt::Display {
        ActionText {
            action: self,
            board,
        }
    }

    /// The tokens of a move of ours: its placement or slide, then its removal if it captures.
    pub fn of_move(mv: Move) -> (Action, Option<Action>) {
        let first = match mv.from() {
            Some(from) => Action::Slide { from, to: mv.to() },
            None => Action::Place(mv.to()),
        };
        (first, mv.capture().map(Action::Remove))
    }

    /// A move of ours as Sanmill's tokens, separated by a space: `d6`, `d6-d5 xb4`.
    pub fn tokens(mv: Move, board: &'static Board) -> String {
        match Action::of_move(mv) {
            (a, None) => a.notation(board).to_string(),
            (a, Some(r)) => format!("{} {}", a.notation(board), r.notation(board)),
        }
    }
}

struct ActionText {
    action: Action,
    board: &'static Board,
}

impl fmt::Display for ActionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |p| self.board.point_name(p);
        match self.action {
            Action::Place(p) => write!(f, "{}", name(p)),
            Action::Slide { from, to } => write!(f, "{}-{}", name(from), name(to)),
            Action::Remove(p) => write!(f, "x{}", name(p)),
        }
    }
}

/// A position between Sanmill's actions.
///
/// Usually the side to move places or moves ([`State::new`]). After a placement or slide that
/// closes a mill, the same side must remove an enemy stone before the turn passes
/// ([`State::is_removing`]); the position then holds the board after the placement or slide,
/// the hands after it, and the remover as its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    position: Position,
    removing: bool,
}

/// What an action did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// A whole move of ours (one that captures nothing).
    Move(Move),
    /// The first half of a move that closes a mill: a removal is due.
    Mill,
    /// The removal that completes a move begun by [`Played::Mill`].
    Removal(Point),
}

impl Played {
    /// The action finished a move: the turn passed.
    pub fn completes_move(self) -> bool {
        !matches!(self, Played::Mill)
    }

    /// The finished move was a capture or a placement (it resets the no-capture counter).
    pub fn zeroing(self) -> bool {
        match self {
            Played::Move(m) => m.capture().is_some() || m.is_placement(),
            Played::Mill => false,
            Played::Removal(_) => true,
        }
    }
}

impl State {
    /// A position where the side to move places or moves.
    pub const fn new(position: Position) -> State {
        State {
            position,
            removing: false,
        }
    }

    /// The start of the game.
    pub const fn start(rules: &Rules) -> State {
        State::new(Position::start(rules))
    }

    /// The position: before the move, or, while a removal is due, after its first half with
    /// the remover to move.
    pub const fn position(&self) -> Position {
        self.position
    }

    /// The side to move has closed a mill and must remove a stone.
    pub const fn is_removing(&self) -> bool {
        self.removing
    }

    /// The side whose action it is.
    pub const fn side_to_move(&self) -> Color {
        self.position.side_to_move()
    }

    /// The enemy stones the remover may take (empty unless a removal is due).
    pub fn removable(&self, rules: &Rules) -> Bitboard {
        if self.removing {
            removable(rules, self.position.them())
        } else {
            Bitboard::EMPTY
        }
    }

    /// The position after removing the enemy stone on `p`, the other side to move. Only for a
    /// point of [`State::removable`].
    pub fn after_removal(&self, p: Point) -> Position {
        let pos = &self.position;
        let side = pos.side_to_move();
        let mut stones = [pos.stones(Color::White), pos.stones(Color::Black)];
        stones[(!side).index()] = stones[(!side).index()].without(p);
        Position::new(
            stones[0],
            stones[1],
            [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
            !side,
        )
    }

    /// Every legal action, each once, in the move generator's order.
    pub fn actions(&self, rules: &Rules) -> Vec<Action> {
        if self.removing {
            return self.removable(rules).map(Action::Remove).collect();
        }
        let mut v: Vec<Action> = Vec::new();
        for_each_move(&self.position, rules, |m| {
            let a = Action::of_move(m).0;
            if v.last() != Some(&a) {
                v.push(a);
            }
        });
        v
    }

    /// Plays an action: the state after it, and what it did. An action that is not legal here
    /// is an error listing the legal ones.
    pub fn play(&self, rules: &Rules, action: Action) -> Result<(State, Played), SanmillError> {
        let board = rules.board();
        let illegal = || SanmillError::Illegal {
            action: action.notation(board).to_string(),
            legal: self
                .actions(rules)
                .iter()
                .map(|a| a.notation(board).to_string())
                .collect(),
        };
        if self.removing {
            return match action {
                Action::Remove(p) if self.removable(rules).contains(p) => {
                    Ok((State::new(self.after_removal(p)), Played::Removal(p)))
                }
                _ => Err(illegal()),
            };
        }
        let (from, to) = match action {
            Action::Place(to) => (None, to),
            Action::Slide { from, to } => (Some(from), to),
            Action::Remove(_) => return Err(illegal()),
        };
        let mut found: Option<Move> = None;
        for_each_move(&self.position, rules, |m| {
            if found.is_none() && m.from() == from && m.to() == to {
                found = Some(m);
            }
        });
        let m = found.ok_or_else(illegal)?;
        if m.capture().is_none() {
            return Ok((State::new(self.position.play(m)), Played::Move(m)));
        }
        // The first half of a capture: the board after it, the mover still to move.
        let after = self.position.play(Move::new(from, to, None));
        let position = Position::new(
            after.stones(Color::White),
            after.stones(Color::Black),
            [after.in_hand(Color::White), after.in_hand(Color::Black)],
            self.position.side_to_move(),
        );
        Ok((
            State {
                position,
                removing: true,
            },
            Played::Mill,
        ))
    }

    /// Parses a token and plays it.
    pub fn play_text(&self, rules: &Rules, text: &str) -> Result<(State, Played), SanmillError> {
        self.play(rules, Action::parse(text, rules.board())?)
    }

    /// The state after one of our moves, legal here (not checked): its actions played at once.
    pub fn after_move(&self, mv: Move) -> State {
        State::new(self.position.play(mv))
    }
}

/// A Sanmill FEN: the state, and the two counters it carries.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Fen {
    pub state: State,
    /// Plies since the last capture or placement (Sanmill's "rule 50" field): the counter of
    /// the no-capture rule.
    pub counter: u32,
    /// The full-move number, from 1, incremented after each of Black's moves.
    pub fullmove: u32,
}

impl Fen {
    /// The start of the game, as Sanmill writes it.
    pub const fn start(rules: &Rules) -> Fen {
        Fen {
            state: State::start(rules),
            counter: 0,
            fullmove: 1,
        }
    }

    /// Reads a Sanmill FEN and checks its position against the rules. The phase is read but
    /// not kept: it follows from the hands. The last-mill squares and the formed-mills bitmask
    /// serve rules we do not have and are read but not kept.
    pub fn parse(text: &str, rules: &Rules) -> Result<Fen, SanmillError> {
        let points = fen_points(rules.board())?;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != FEN_FIELDS && fields.len() != FEN_FIELDS_OLD {
            return Err(SanmillError::Fen(format!(
                "{} fields where {FEN_FIELDS} are expected",
                fields.len()
            )));
        }
        let bad = |what: String| SanmillError::Fen(what);
        // The board.
        let rings: Vec<&str> = fields[0].split('/').collect();
        if rings.len() != 3 || rings.iter().any(|r| r.len() != 8) {
            return Err(bad(format!(
                "the board `{}` is not three groups of 8 points separated by `/`",
                fields[0]
            )));
        }
        let mut stones = [Bitboard::EMPTY; 2];
        for (&p, c) in points.iter().zip(rings.concat().chars()) {
            match c {
                'O' => stones[0] = stones[0].with(p),
                '@' => stones[1] = stones[1].with(p),
                '*' => {}
                'X' => {
                    return Err(SanmillError::Unsupported(format!(
                        "a marked point on {} (rules that mark points in the placing phase)",
                        rules.board().point_name(p)
                    )))
                }
                c => {
                    return Err(bad(format!(
                        "`{c}` on the board (points are `O`, `@` or `*`)"
                    )))
                }
            }
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            s => return Err(bad(format!("side to move `{s}` (expected `w` or `b`)"))),
        };
        if !matches!(fields[2], "n" | "r" | "p" | "m" | "o") {
            return Err(bad(format!(
                "phase `{}` (expected `p`, `m`, `o`, `r` or `n`)",
                fields[2]
            )));
        }
        let removing = match fields[3] {
            "r" => true,
            "p" | "s" | "?" => false,
            s => return Err(bad(format!("action `{s}` (expected `p`, `s`, `r` or `?`)"))),
        };
        let number = |i: usize, what: &str| -> Result<u64, SanmillError> {
            fields[i]
                .parse::<u64>()
                .map_err(|_| bad(format!("{what} `{}` is not a number", fields[i])))
        };
        let count = |i: usize, what: &str| -> Result<u8, SanmillError> {
            let n = number(i, what)?;
            u8::try_from(n)
                .ok()
                .filter(|&n| n <= 32)
                .ok_or_else(|| bad(format!("{what} {n} is too large")))
        };
        let on_board = [
            count(4, "White's stones on board")?,
            count(6, "Black's stones on board")?,
        ];
        let hand = [
            count(5, "White's stones in hand")?,
            count(7, "Black's stones in hand")?,
        ];
        for c in [Color::White, Color::Black] {
            let n = stones[c.index()].count();
            if n != on_board[c.index()] as u32 {
                return Err(bad(format!(
                    "{} has {n} stones on the board but the count says {}",
                    c.name(),
                    on_board[c.index()]
                )));
            }
        }
        let to_remove = [
            number(8, "White's stones to remove")?,
            number(9, "Black's stones to remove")?,
        ];
        if to_remove[(!side).index()] != 0 || to_remove[side.index()] > 1 {
            return Err(SanmillError::Unsupported(format!(
                "stones to remove White {} Black {} with {} to move (only the side to move removes, one stone)",
                to_remove[0],
                to_remove[1],
                side.name()
            )));
        }
        if removing != (to_remove[side.index()] == 1) {
            return Err(bad(format!(
                "action `{}` with {} stone(s) to remove for the side to move",
                fields[3],
                to_remove[side.index()]
            )));
        }
        let tail = if fields.len() == FEN_FIELDS {
            for (i, what) in [
                (10, "White's last mill from"),
                (11, "White's last mill to"),
                (12, "Black's last mill from"),
                (13, "Black's last mill to"),
                (14, "the mills bitmask"),
            ] {
                number(i, what)?;
            }
            15
        } else {
            10
        };
        let counter = u32::try_from(number(tail, "the plies since the last capture")?)
            .map_err(|_| bad(format!("plies since the last capture `{}`", fields[tail])))?;
        let fullmove = u32::try_from(number(tail + 1, "the full-move number")?)
            .map_err(|_| bad(format!("full-move number `{}`", fields[tail + 1])))?
            .max(1);
        let position = Position::new(stones[0], stones[1], hand, side);
        let state = if removing {
            check_removal(&position, rules)?;
            State {
                position,
                removing: true,
            }
        } else {
            check(&position, rules)?;
            State::new(position)
        };
        Ok(Fen {
            state,
            counter,
            fullmove,
        })
    }

    /// The FEN as Sanmill writes it. The phase is `p` while stones are in hand, `m` after, `o`
    /// when the game is over; the action `p` (place), `s` (select a stone to move) or `r`
    /// (remove); the last-mill squares and the mills bitmask are written as 0.
    pub fn notation<'a>(&'a self, rules: &'a Rules) -> impl fmt::Display + 'a {
        FenText { fen: self, rules }
    }
}

/// Checks a position as the notation parser does (stone and hand counts, a finished game).
fn check(pos: &Position, rules: &Rules) -> Result<(), SanmillError> {
    Position::parse(&pos.notation(rules).to_string(), rules)
        .map(|_| ())
        .map_err(SanmillError::Position)
}

/// Checks a state where a removal is due: the remover has a mill, the other side a stone, and
/// the position is one the turn could pass in (the removal aside).
fn check_removal(pos: &Position, rules: &Rules) -> Result<(), SanmillError> {
    let board = rules.board();
    if !rules.line_captures() || board.in_lines(pos.us()).is_empty() {
        return Err(SanmillError::Unsupported(format!(
            "a removal is due but {} has no mill",
            pos.side_to_move().name()
        )));
    }
    if pos.them().is_empty() {
        return Err(SanmillError::Unsupported(format!(
            "a removal is due but {} has no stone on the board",
            (!pos.side_to_move()).name()
        )));
    }
    // The hands are those after the mover's placement: as if the turn had passed.
    check(&other_to_move(pos), rules)
}

/// The same stones and hands with the other side to move.
fn other_to_move(pos: &Position) -> Position {
    Position::new(
        pos.stones(Color::White),
        pos.stones(Color::Black),
        [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
        !pos.side_to_move(),
    )
}

struct FenText<'a> {
    fen: &'a Fen,
    rules: &'a Rules,
}

impl fmt::Display for FenText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let points = fen_points(self.rules.board()).map_err(|_| fmt::Error)?;
        let state = &self.fen.state;
        let pos = &state.position;
        for (i, &p) in points.iter().enumerate() {
            if i > 0 && i % 8 == 0 {
                f.write_str("/")?;
            }
            f.write_str(match pos.color_at(p) {
                Some(Color::White) => "O",
                Some(Color::Black) => "@",
                None => "*",
            })?;
        }
        let side = pos.side_to_move();
        let over = !state.removing && pos.outcome(self.rules).is_some();
        let placing = pos.in_hand(Color::White) + pos.in_hand(Color::Black) > 0;
        let phase = match (over, placing) {
            (true, _) => 'o',
            (false, true) => 'p',
            (false, false) => 'm',
        };
        let action = if state.removing {
            'r'
        } else if pos.our_hand() > 0 {
            'p'
        } else {
            's'
        };
        let remove = |c: Color| u8::from(state.removing && c == side);
        write!(
            f,
            " {} {phase} {action} {} {} {} {} {} {} 0 0 0 0 0 {} {}",
            if side == Color::White { 'w' } else { 'b' },
            pos.stones(Color::White).count(),
            pos.in_hand(Color::White),
            pos.stones(Color::Black).count(),
            pos.in_hand(Color::Black),
            remove(Color::White),
            remove(Color::Black),
            self.fen.counter,
            self.fen.fullmove.max(1),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Game;

    fn nine() -> Rules {
        Rules::nine()
    }

    fn text(fen: &Fen, rules: &Rules) -> String {
        fen.notation(rules).to_string()
    }

    #[test]
    fn start_is_sanmills_start() {
        let r = nine();
        assert_eq!(
            text(&Fen::start(&r), &r),
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
        );
        let r12 = Rules::standard(Game::Twelve);
        assert_eq!(
            text(&Fen::start(&r12), &r12),
            "********/********/******** w p p 0 12 0 12 0 0 0 0 0 0 0 0 1"
        );
        assert_eq!(
            Fen::parse(
                "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
                &r
            ),
            Ok(Fen::start(&r))
        );
        // Sanmill's older 12-field form, and a full-move number 0, are read too.
        assert_eq!(
            Fen::parse("********/********/******** w p p 0 9 0 9 0 0 0 0", &r),
            Ok(Fen::start(&r))
        );
    }

    /// The FEN lists the rings from the inside, each from the middle of its top side
    /// clockwise: Sanmill's squares 8 (d5) to 31 (a7).
    #[test]
    fn points_in_sanmills_order() {
        let r = nine();
        let b = r.board();
        let pos = Position::parse("W:d5,a1 B:c5,d6,a7 w 7 6", &r).unwrap();
        let fen = Fen {
            state: State::new(pos),
            counter: 0,
            fullmove: 3,
        };
        assert_eq!(
            text(&fen, &r),
            "O******@/@*******/*****O*@ w p p 2 7 3 6 0 0 0 0 0 0 0 0 3"
        );
        // Every point once, each a neighbour of the next on its ring.
        let mut seen = Bitboard::EMPTY;
        for ring in FEN_ORDER.chunks(8) {
            for (i, name) in ring.iter().enumerate() {
                let p = b.parse_point(name).unwrap();
                seen = seen.with(p);
                let next = b.parse_point(ring[(i + 1) % 8]).unwrap();
                assert!(b.adjacent(p).contains(next), "{name}");
            }
        }
        assert_eq!(seen, b.all());
        assert!(Fen::parse(
            "********/********/******** w p p 0 3 0 3 0 0 0 0 0 0 0 0 1",
            &Rules::standard(Game::Six)
        )
        .is_err());
    }

    #[test]
    fn tokens() {
        let r = nine();
        let b = r.board();
        for t in ["d6", "d6-d5", "xb4", "a1-g7"] {
            assert_eq!(Action::parse(t, b).unwrap().notation(b).to_string(), t);
        }
        for t in [
            "", "x", "d6-", "-d5", "d6-d6", "h1", "d6xb4", "xd6-d5", "(1,2)", "D6",
        ] {
            assert!(
                matches!(Action::parse(t, b), Err(SanmillError::Syntax(_))),
                "{t}"
            );
        }
        let m = Move::parse("b6-c5xg4", b).unwrap();
        assert_eq!(Action::tokens(m, b), "b6-c5 xg4");
        assert_eq!(Action::tokens(Move::parse("d6", b).unwrap(), b), "d6");
    }

    /// A mill closed by a placement: the removal is a token of its own, the same side to move.
    #[test]
    fn a_mill_splits_the_move() {
        let r = nine();
        let pos = Position::parse("W:a1,d1 B:b2,b4 w 7 7", &r).unwrap();
        let s = State::new(pos);
        let (s2, played) = s.play_text(&r, "g1").unwrap();
        assert_eq!(played, Played::Mill);
        assert!(s2.is_removing());
        assert_eq!(s2.side_to_move(), Color::White);
        let fen = Fen {
            state: s2,
            counter: 0,
            fullmove: 3,
        };
        let t = text(&fen, &r);
        assert!(t.ends_with(" w p r 3 6 2 7 1 0 0 0 0 0 0 0 3"), "{t}");
        assert_eq!(Fen::parse(&t, &r), Ok(fen));
        let names: Vec<String> = s2
            .actions(&r)
            .iter()
            .map(|a| a.notation(r.board()).to_string())
            .collect();
        assert_eq!(names, ["b2", "b4"].map(|n| format!("x{n}")));
        assert!(matches!(
            s2.play_text(&r, "d6"),
            Err(SanmillError::Illegal { .. })
        ));
        let (s3, played) = s2.play_text(&r, "xb4").unwrap();
        assert_eq!(
            played,
            Played::Removal(r.board().parse_point("b4").unwrap())
        );
        assert!(played.zeroing() && played.completes_move());
        let whole = pos.parse_move("g1xb4", &r).unwrap();
        assert_eq!(s3, s.after_move(whole));
    }

    #[test]
    fn malformed_fens_are_errors() {
        let r = nine();
        for bad in [
            "",
            "startpos",
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0",
            "********/********/******* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/********* w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** x p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w q p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p q 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 1 9 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 0 x 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 0 10 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 0 8 0 9 0 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 -1 1",
            "********/********/******** w p r 0 9 0 9 1 0 0 0 0 0 0 0 1",
            "********/********/******** w p p 0 9 0 9 0 1 0 0 0 0 0 0 1",
            "X*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "a*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "O*******/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
            "OOO*****/********/******** b m s 3 0 2 0 0 0 0 0 0 0 0 0 1",
        ] {
            let e = Fen::parse(bad, &r);
            assert!(e.is_err(), "{bad}");
            assert!(!e.unwrap_err().to_string().is_empty());
        }
    }

    /// A tiny deterministic generator for the samples.
    struct Lcg(u64);

    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) as usize) % n
        }
    }

    /// Every state of a sample round-trips through the FEN, and every legal move of ours,
    /// played as Sanmill's tokens, reaches the position the move reaches.
    fn round_trips(rules: &Rules, state: State, counter: u32, fullmove: u32) -> usize {
        let fen = Fen {
            state,
            counter,
            fullmove,
        };
        let t = text(&fen, rules);
        assert_eq!(Fen::parse(&t, rules), Ok(fen), "{t}");
        if state.is_removing() {
            for a in state.actions(rules) {
                let (next, played) = state.play(rules, a).unwrap();
                assert!(matches!(played, Played::Removal(_)));
                assert!(!next.is_removing());
            }
            return 1;
        }
        let board = rules.board();
        let mut moves = 0;
        for_each_move(&state.position(), rules, |m| {
            moves += 1;
            let mut s = state;
            let mut last = None;
            for token in Action::tokens(m, board).split(' ') {
                let (next, played) = s.play_text(rules, token).unwrap();
                s = next;
                last = Some(played);
            }
            assert_eq!(s, state.after_move(m), "{}", Action::tokens(m, board));
            assert!(last.unwrap().completes_move());
            assert_eq!(
                last.unwrap().zeroing(),
                m.capture().is_some() || m.is_placement()
            );
        });
        // The actions are the first tokens of the moves, each once.
        let mut firsts: Vec<Action> = Vec::new();
        for_each_move(&state.position(), rules, |m| {
            let a = Action::of_move(m).0;
            if !firsts.contains(&a) {
                firsts.push(a);
            }
        });
        assert_eq!(state.actions(rules), firsts);
        1 + moves
    }

    /// Random games (their states, and the removal state inside each capture) of every game
    /// of the 24-point board, reduced and whole, with and without flying.
    #[test]
    fn random_games_round_trip() {
        let mut rng = Lcg(7);
        let mut removals = 0;
        for game in [Game::Nine, Game::Twelve, Game::Lasker] {
            for stones in [3, 4, 5, 9, Rules::standard(game).stones] {
                for flying in [true, false] {
                    let rules = Rules {
                        flying,
                        ..Rules::standard(game).with_stones(stones).unwrap()
                    };
                    for _ in 0..6 {
                        let mut state = State::start(&rules);
                        let (mut counter, mut fullmove) = (0, 1);
                        for _ in 0..120 {
                            round_trips(&rules, state, counter, fullmove);
                            let actions = state.actions(&rules);
                            if actions.is_empty() {
                                break;
                            }
                            let a = actions[rng.below(actions.len())];
                            let side = state.side_to_move();
                            let (next, played) = state.play(&rules, a).unwrap();
                            removals += usize::from(next.is_removing());
                            if played.completes_move() {
                                counter = if played.zeroing() { 0 } else { counter + 1 };
                                fullmove += u32::from(side == Color::Black);
                            }
                            state = next;
                        }
                    }
                }
            }
        }
        assert!(removals > 100, "{removals}");
    }

    /// Every state within three plies of the start, perft-style.
    #[test]
    fn first_plies_round_trip() {
        fn walk(rules: &Rules, s: State, depth: u32) -> usize {
            let mut n = round_trips(rules, s, 0, 1);
            if depth > 0 {
                for a in s.actions(rules) {
                    n += walk(rules, s.play(rules, a).unwrap().0, depth - 1);
                }
            }
            n
        }
        let r = nine();
        assert!(walk(&r, State::start(&r), 3) > 10_000);
    }

    /// The sets of `k` points of `from`, in order.
    fn subsets(k: usize, from: Bitboard) -> Vec<Bitboard> {
        let pts: Vec<Point> = from.collect();
        let mut out = Vec::new();
        let mut idx: Vec<usize> = (0..k).collect();
        loop {
            out.push(idx.iter().map(|&i| pts[i]).collect());
            let mut i = k;
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                if idx[i] < pts.len() - k + i {
                    idx[i] += 1;
                    for j in i + 1..k {
                        idx[j] = idx[j - 1] + 1;
                    }
                    break;
                }
            }
        }
    }

    /// Every position of two placement keys, and every removal state among them: White with
    /// `w` stones on the board, Black with `b`, the hands of the game after them, Black to
    /// move (and White to remove, where White has a mill).
    #[test]
    fn every_position_of_small_keys_round_trips() {
        let r = nine();
        let all = r.board().all();
        for (w, b, expected) in [(2, 1, 276 * 22), (3, 2, 2024 * 210)] {
            let hands = [9 - w as u8, 9 - b as u8];
            let (mut n, mut removing) = (0, 0);
            for white in subsets(w, all) {
                for black in subsets(b, all - white) {
                    let pos = Position::new(white, black, hands, Color::Black);
                    let fen = Fen {
                        state: State::new(pos),
                        counter: 0,
                        fullmove: 1 + w as u32,
                    };
                    let t = text(&fen, &r);
                    assert_eq!(Fen::parse(&t, &r), Ok(fen), "{t}");
                    n += 1;
                    if !r.board().in_lines(white).is_empty() {
                        let state = State {
                            position: other_to_move(&pos),
                            removing: true,
                        };
                        let fen = Fen { state, ..fen };
                        let t = text(&fen, &r);
                        assert_eq!(Fen::parse(&t, &r), Ok(fen), "{t}");
                        removing += 1;
                    }
                }
            }
            assert_eq!(n, expected);
            assert_eq!(removing > 0, w == 3);
        }
    }
}
