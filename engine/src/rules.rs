//! The games of the family and their rule options, as values.
//!
//! A [`Rules`] value is everything the move generator needs besides the position: which board,
//! how many stones, and the flags that distinguish the games (flying, captures on a mill or a
//! line that wins at once, placing or moving at will, Dara's refused placements and overlines
//! and unprotected lines). Games differ only in these values; there is one move generator for
//! all of them.

use crate::board::{Board, DARA, NINE, SIX, THREE, TICTACTOE, TWELVE};
use core::fmt;
use core::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Nine,
    Twelve,
    Six,
    Lasker,
    Three,
    TicTacToe,
    Dara,
}

impl Game {
    /// The most stones a side a game on this board may be played with (`--stones`): the
    /// game's own number, or half the board's points, and never above 12, the most the
    /// solver's key tables hold.
    pub const fn max_stones(self) -> u8 {
        let half_board = self.board().len() / 2;
        let half_board = if half_board < 12 {
            half_board as u8
        } else {
            12
        };
        let own = Rules::standard(self).stones;
        if own > half_board {
            own
        } else {
            half_board
        }
    }

    pub const ALL: [Game; 7] = [
        Game::Nine,
        Game::Twelve,
        Game::Six,
        Game::Lasker,
        Game::Three,
        Game::TicTacToe,
        Game::Dara,
    ];

    /// The name used on the command line and in database headers.
    pub const fn name(self) -> &'static str {
        match self {
            Game::Nine => "nine",
            Game::Twelve => "twelve",
            Game::Six => "six",
            Game::Lasker => "lasker",
            Game::Three => "three",
            Game::TicTacToe => "tictactoe",
            Game::Dara => "dara",
        }
    }

    /// A stable number for file headers; never reuse one.
    pub const fn id(self) -> u8 {
        match self {
            Game::Nine => 1,
            Game::Twelve => 2,
            Game::Six => 3,
            Game::Lasker => 4,
            Game::Three => 5,
            Game::TicTacToe => 6,
            Game::Dara => 7,
        }
    }

    pub fn from_id(id: u8) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.id() == id)
    }

    pub const fn board(self) -> &'static Board {
        match self {
            Game::Nine | Game::Lasker => &NINE,
            Game::Twelve => &TWELVE,
            Game::Six => &SIX,
            Game::Three => &THREE,
            Game::TicTacToe => &TICTACTOE,
            Game::Dara => &DARA,
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A number of stones a side that a game cannot be played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StonesOutOfRange {
    pub game: Game,
    pub stones: u8,
}

impl fmt::Display for StonesOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "stones must be from {} to {} for {} (got {})",
            Rules::MIN_STONES,
            self.game.max_stones(),
            self.game,
            self.stones
        )
    }
}

impl std::error::Error for StonesOutOfRange {}

/// The name given is not a game this program knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = Game::ALL.iter().map(|g| g.name()).collect();
        write!(f, "unknown game `{}` (known: {})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for Game {
    type Err = UnknownGame;
    fn from_str(s: &str) -> Result<Game, UnknownGame> {
        Game::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// A game with its rule options.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub game: Game,
    /// Stones each player has at the start (all in hand).
    pub stones: u8,
    /// A player with exactly three stones on the board and none in hand may move to any
    /// empty point.
    pub flying: bool,
}

impl Rules {
    /// The fewest stones a side a game can be played with.
    pub const MIN_STONES: u8 = 3;

    /// These rules with `stones` a side (a reduced or enlarged game), checked against the
    /// board ([`Game::max_stones`]).
    pub fn with_stones(self, stones: u8) -> Result<Rules, StonesOutOfRange> {
        if (Rules::MIN_STONES..=self.game.max_stones()).contains(&stones) {
            Ok(Rules { stones, ..self })
        } else {
            Err(StonesOutOfRange {
                game: self.game,
                stones,
            })
        }
    }

    /// The standard rules of a game (docs/rules.md).
    pub const fn standard(game: Game) -> Rules {
        let (stones, flying) = match game {
            Game::Nine => (9, true),
            Game::Twelve => (12, true),
            Game::Six => (6, false),
            Game::Lasker => (10, true),
            Game::Three => (3, false),
            Game::TicTacToe => (5, false),
            Game::Dara => (12, false),
        };
        Rules {
            game,
            stones,
            flying,
        }
    }

    pub const fn nine() -> Rules {
        Rules::standard(Game::Nine)
    }

    #[inline]
    pub const fn board(&self) -> &'static Board {
        self.game.board()
    }

    /// Forming a mill removes an enemy stone (mill games); otherwise a line wins at once.
    #[inline]
    pub const fn line_captures(&self) -> bool {
        !self.line_wins()
    }

    /// Completing a line ends the game (Three Men's Morris, tic-tac-toe).
    #[inline]
    pub const fn line_wins(&self) -> bool {
        matches!(self.game, Game::Three | Game::TicTacToe)
    }

    /// Stones move once placed (every game but tic-tac-toe).
    #[inline]
    pub const fn stones_move(&self) -> bool {
        !matches!(self.game, Game::TicTacToe)
    }

    /// A player may move a stone even while stones remain in hand (Lasker Morris).
    #[inline]
    pub const fn place_or_move(&self) -> bool {
        matches!(self.game, Game::Lasker)
    }

    /// A placement may not complete a line (Dara): lines are made by moving, so placements
    /// never capture.
    #[inline]
    pub const fn placement_lines_refused(&self) -> bool {
        matches!(self.game, Game::Dara)
    }

    /// A placement that completes a line removes an enemy stone (the mill games).
    #[inline]
    pub const fn placement_captures(&self) -> bool {
        self.line_captures() && !self.placement_lines_refused()
    }

    /// A move making a row longer than a line (four in a row) is refused (Dara), so that a
    /// capture needs a line of exactly three.
    #[inline]
    pub const fn overlines_refused(&self) -> bool {
        matches!(self.game, Game::Dara)
    }

    /// A stone standing in a line may not be removed while its owner has stones outside
    /// lines (the mill games); in Dara any enemy stone may be taken.
    #[inline]
    pub const fn lines_protect(&self) -> bool {
        !matches!(self.game, Game::Dara)
    }

    /// A player with fewer stones than this on board and in hand together has lost.
    #[inline]
    pub const fn min_stones(&self) -> u32 {
        if self.line_captures() {
            3
        } else {
            0
        }
    }

    /// Having no legal move is a draw (a full tic-tac-toe board) rather than a loss.
    #[inline]
    pub const fn blocked_is_draw(&self) -> bool {
        matches!(self.game, Game::TicTacToe)
    }

    /// Hand counts must follow strict alternation of placements (not in Lasker, where a
    /// player may move instead of placing).
    #[inline]
    pub const fn alternate_placement(&self) -> bool {
        !self.place_or_move()
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::nine()
    }
}
