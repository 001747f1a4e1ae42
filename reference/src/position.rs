//! A position as a plain array of cells, with its text form (docs/rules.md section 4), and the
//! games and rule options the reference knows.

use crate::board::{Board, MAX_POINTS};
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black: the index into [`Position::hand`].
    pub fn index(self) -> usize {
        match self {
            Color::White => 0,
            Color::Black => 1,
        }
    }
}

/// The games of docs/rules.md the reference plays (all but the grid game, which has its own naive
/// generator in the engine's tests).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Game {
    Nine,
    Twelve,
    Six,
    Lasker,
    Three,
    TicTacToe,
}

impl Game {
    pub const ALL: [Game; 6] = [
        Game::Nine,
        Game::Twelve,
        Game::Six,
        Game::Lasker,
        Game::Three,
        Game::TicTacToe,
    ];

    pub fn board(self) -> Board {
        match self {
            Game::Nine | Game::Lasker => Board::Nine,
            Game::Twelve => Board::Twelve,
            Game::Six => Board::Six,
            Game::Three | Game::TicTacToe => Board::Three,
        }
    }

    /// The name on the command line (and in the perft data files).
    pub fn name(self) -> &'static str {
        match self {
            Game::Nine => "nine",
            Game::Twelve => "twelve",
            Game::Six => "six",
            Game::Lasker => "lasker",
            Game::Three => "three",
            Game::TicTacToe => "tictactoe",
        }
    }

    pub fn from_name(name: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.name() == name)
    }
}

/// A game with its rule options: stones per player and flying.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub game: Game,
    /// Stones each player has at the start (9 in Nine Men's Morris).
    pub stones: u8,
    /// A player with exactly 3 stones on the board and none in hand may move anywhere.
    pub flying: bool,
}

impl Variant {
    /// Nine Men's Morris with flying.
    pub const STANDARD: Variant = Variant {
        game: Game::Nine,
        stones: 9,
        flying: true,
    };

    /// Nine Men's Morris with `stones` a side.
    pub fn new(stones: u8, flying: bool) -> Variant {
        Variant {
            game: Game::Nine,
            stones,
            flying,
        }
    }

    /// The rules of docs/rules.md for `game`: Nine 9 stones, Twelve 12, Lasker 10, all three with
    /// flying; Six 6 stones without flying; Three 3; tic-tac-toe 5 for the first player (the
    /// second places 4 before the board is full).
    pub fn standard(game: Game) -> Variant {
        let (stones, flying) = match game {
            Game::Nine => (9, true),
            Game::Twelve => (12, true),
            Game::Six => (6, false),
            Game::Lasker => (10, true),
            Game::Three => (3, false),
            Game::TicTacToe => (5, false),
        };
        Variant {
            game,
            stones,
            flying,
        }
    }

    pub fn board(&self) -> Board {
        self.game.board()
    }

    /// Completing a line wins at once instead of removing a stone (Three, tic-tac-toe).
    pub fn line_wins(&self) -> bool {
        matches!(self.game, Game::Three | Game::TicTacToe)
    }

    /// Stones move once placed (not in tic-tac-toe).
    pub fn stones_move(&self) -> bool {
        self.game != Game::TicTacToe
    }

    /// A player with stones in hand may move a stone instead of placing one (Lasker).
    pub fn place_or_move(&self) -> bool {
        self.game == Game::Lasker
    }
}

impl Default for Variant {
    fn default() -> Variant {
        Variant::STANDARD
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board, so that the position can print itself.
    pub board: Board,
    /// The stone on each point, by point number (see [`Board::names`]); points past the
    /// board's last are always empty.
    pub cells: [Option<Color>; MAX_POINTS],
    /// Stones in hand: `hand[0]` White's, `hand[1]` Black's.
    pub hand: [u8; 2],
    pub to_move: Color,
}

impl Position {
    /// The empty board with every stone in hand, White to move.
    pub fn start(variant: &Variant) -> Position {
        Position {
            board: variant.board(),
            cells: [None; MAX_POINTS],
            hand: [variant.stones, variant.stones],
            to_move: Color::White,
        }
    }

    /// The number of stones of `color` on the board.
    pub fn on_board(&self, color: Color) -> usize {
        self.cells.iter().filter(|&&c| c == Some(color)).count()
    }

    pub fn in_hand(&self, color: Color) -> u8 {
        self.hand[color.index()]
    }

    /// The points holding a stone of `color`, in point order.
    pub fn points_of(&self, color: Color) -> Vec<usize> {
        (0..self.board.points())
            .filter(|&p| self.cells[p] == Some(color))
            .collect()
    }

    /// The stones of `color` as a bit mask (bit p = point p).
    pub fn mask_of(&self, color: Color) -> u32 {
        // Without the list of points: the whole-game solver takes the masks of every position
        // it reaches and of all their children.
        (0..self.board.points())
            .filter(|&p| self.cells[p] == Some(color))
            .fold(0, |acc, p| acc | (1 << p))
    }

    /// Reads `startpos` or `W:<points> B:<points> <w|b> [<white hand> <black hand>]`.
    pub fn parse(text: &str, variant: &Variant) -> Result<Position, String> {
        let text = text.trim();
        if text == "startpos" {
            return Ok(Position::start(variant));
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 && fields.len() != 5 {
            return Err(format!("expected 3 or 5 fields, found {}", fields.len()));
        }
        let board = variant.board();
        let mut pos = Position {
            board,
            cells: [None; MAX_POINTS],
            hand: [0, 0],
            to_move: Color::White,
        };
        for (field, prefix, color) in [
            (fields[0], "W:", Color::White),
            (fields[1], "B:", Color::Black),
        ] {
            let list = field
                .strip_prefix(prefix)
                .ok_or_else(|| format!("`{field}` does not start with `{prefix}`"))?;
            if list.is_empty() {
                continue;
            }
            for name in list.split(',') {
                let p = board
                    .point(name)
                    .ok_or_else(|| format!("unknown point `{name}`"))?;
                match pos.cells[p] {
                    None => pos.cells[p] = Some(color),
                    Some(c) if c == color => return Err(format!("point {name} listed twice")),
                    Some(_) => return Err(format!("point {name} listed for both colours")),
                }
            }
        }
        pos.to_move = match fields[2] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(format!("bad side to move `{other}`")),
        };
        if fields.len() == 5 {
            for i in 0..2 {
                pos.hand[i] = fields[3 + i]
                    .parse()
                    .map_err(|_| format!("bad hand count `{}`", fields[3 + i]))?;
            }
        }
        for color in [Color::White, Color::Black] {
            if pos.on_board(color) + pos.in_hand(color) as usize > variant.stones as usize {
                return Err(format!("{color:?} has more than {} stones", variant.stones));
            }
        }
        Ok(pos)
    }
}

/// Prints `W:<points> B:<points> <w|b> <white hand> <black hand>`, points in point order.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |color| {
            self.points_of(color)
                .into_iter()
                .map(|p| self.board.name(p))
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = match self.to_move {
            Color::White => "w",
            Color::Black => "b",
        };
        write!(
            f,
            "W:{} B:{} {} {} {}",
            list(Color::White),
            list(Color::Black),
            side,
            self.hand[0],
            self.hand[1]
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        let v = Variant::STANDARD;
        let p = Position::parse("W:g7,d7,g1 B:a4,d5,g4 b", &v).unwrap();
        assert_eq!(p.to_string(), "W:g1,d7,g7 B:a4,g4,d5 b 0 0");
        assert_eq!(p.on_board(Color::White), 3);
        assert_eq!(
            Position::parse("startpos", &v).unwrap().to_string(),
            "W: B: w 9 9"
        );
        assert_eq!(
            Position::parse("W: B: w 9 9", &v).unwrap(),
            Position::start(&v)
        );
        assert!(Position::parse("W:d4 B: w 9 9", &v).is_err());
        assert!(Position::parse("W:a1,a1 B: w 8 9", &v).is_err());
        assert!(Position::parse("W:a1 B:a1 w 8 8", &v).is_err());
        assert!(Position::parse("W:a1 B: x 8 9", &v).is_err());
        assert!(Position::parse("W:a1 B: w 9 9", &v).is_err());
        assert!(Position::parse("W:a1 B: w 8", &v).is_err());
    }
}
