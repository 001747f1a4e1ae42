//! Games between two players ([`Player`]) over the tables, from a position to the end: how
//! the strength levels and the choices among best moves are measured (`morris arena`).

use crate::choice::{Player, Spot};
use crate::in_play::{End, GameInPlay};
use crate::rng::Rng;
use crate::tablebase::{ProbeError, Tablebase};
use morris_engine::{Color, Move, Position};

/// How a game between two players ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// `None` for a game cut at the ply limit.
    pub end: Option<End>,
    pub moves: Vec<Move>,
}

/// Plays `game` to its end, White by `players[0]` and Black by `players[1]`; a game still
/// running after `max_plies` is cut (neither side forces an end there: the tables say draw,
/// or a weak player wanders).
pub fn play_game(
    tb: &Tablebase,
    mut game: GameInPlay,
    players: [Player; 2],
    max_plies: u32,
    rng: &mut Rng,
) -> Result<PlayedGame, ProbeError> {
    let mut moves = Vec::new();
    loop {
        let end = game.end();
        if end.is_some() || game.played() >= max_plies {
            return Ok(PlayedGame { end, moves });
        }
        let pos = *game.position();
        let left = game.turns_left();
        let ranked = crate::answer::moves_within_turns(tb, &pos, game.counter(), left)?;
        let seen = |p: &Position| game.seen(p);
        let spot = Spot {
            pos: &pos,
            counter: game.counter(),
            turns_left: left,
            moves: &ranked,
            seen: Some(&seen),
        };
        let player = match pos.side_to_move() {
            Color::White => players[0],
            Color::Black => players[1],
        };
        let i = player
            .pick(tb, spot, rng)?
            .expect("a game that is not over has a legal move");
        moves.push(ranked[i].mv);
        game.play(ranked[i].mv);
    }
}
