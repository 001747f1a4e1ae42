//! Which move a player plays among those the tables rank, and how strong it plays: one
//! choice for `play`, `uci`, `arena`, the server and Python.
//!
//! Nine Men's Morris is a draw, so from most positions a perfect player sees many moves of
//! the same value. Which of them it plays decides how good an opponent and a teacher it is.
//! - [`Choice::Fastest`]: the first of the best by value and distance (the fastest win, the
//!   slowest loss): always the same game.
//! - [`Choice::Random`]: any move of the best value, uniformly (the fastest for a win, so that
//!   a won game is won and never wanders into a repetition).
//! - [`Choice::Ultra`]: the move of the best value that asks most of a fallible opponent: the
//!   one after which the opponent's replies, taken uniformly, are worth least to the opponent
//!   (win 2, draw 1, loss 0, read from the tables). That is the expected result against an
//!   opponent who errs with any probability, one ply ahead, with the tables as exact leaves;
//!   ties go to the better rank, then to chance, so that openings vary. Where the game's
//!   history is known, a move back to a position seen before comes last: a drawn game that
//!   repeats itself ends in a draw by repetition and gives the opponent no more chances.
//!
//! Exact play first, always: every choice keeps the position's value, so no trap is ever set
//! at the price of a value. A [`Player`] adds strength levels: with probability `1 - skill` it
//! plays a uniformly random legal move instead.

use crate::answer::moves_within_turns;
use crate::rng::Rng;
use crate::tablebase::{ProbeError, RankedMove, Tablebase};
use morris_db::Value;
use morris_engine::{Move, Position};

/// How a player picks among moves of the best value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Fastest,
    Random,
    Ultra,
}

impl Choice {
    pub const ALL: [Choice; 3] = [Choice::Fastest, Choice::Random, Choice::Ultra];

    pub const fn name(self) -> &'static str {
        match self {
            Choice::Fastest => "fastest",
            Choice::Random => "random",
            Choice::Ultra => "ultra",
        }
    }
}

impl core::str::FromStr for Choice {
    type Err = String;

    fn from_str(s: &str) -> Result<Choice, String> {
        Choice::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| format!("{s}: not a choice (fastest, random or ultra)"))
    }
}

/// Where a choice is made: the position, the no-capture counter and the plies left before a
/// turn limit draws the game, with the moves the tables ranked there (best first, ranked
/// within the plies left).
#[derive(Copy, Clone)]
pub struct Spot<'a> {
    pub pos: &'a Position,
    pub counter: u32,
    pub turns_left: Option<u32>,
    pub moves: &'a [RankedMove],
    /// How often the game has been in a position (with the same side to move), where the
    /// game's history is known: a drawn game that returns to a position is a step towards a
    /// draw by repetition, so the ultra choice goes there last.
    pub seen: Option<&'a dyn Fn(&Position) -> u32>,
}

/// The value a ranked move keeps for the mover, under whatever limits the spot has: under the
/// no-capture rule its value at the counter, under a turn limit within the plies left.
pub fn kept(m: &RankedMove) -> Value {
    m.rule.map_or(m.plain.value(), |r| r.outcome.value())
}

/// The moves of the best value, best first: for a win, only those of the best rank (the
/// fastest), so that a won game makes progress.
fn best_set(moves: &[RankedMove]) -> &[RankedMove] {
    let Some(first) = moves.first() else {
        return moves;
    };
    let v = kept(first);
    let n = if v == Value::Win {
        moves
            .iter()
            .take_while(|m| m.rule == first.rule && m.plain == first.plain)
            .count()
    } else {
        moves.iter().take_while(|m| kept(m) == v).count()
    };
    &moves[..n]
}

/// The index in `spot.moves` of the move `choice` plays; `None` without a legal move.
pub fn choose(
    tb: &Tablebase,
    spot: Spot<'_>,
    choice: Choice,
    rng: &mut Rng,
) -> Result<Option<usize>, ProbeError> {
    let best = best_set(spot.moves);
    if best.is_empty() {
        return Ok(None);
    }
    Ok(Some(match choice {
        Choice::Fastest => 0,
        Choice::Random => rng.below(best.len()),
        Choice::Ultra => {
            let mut scores = Vec::with_capacity(best.len());
            for m in best {
                let seen = spot.seen.map_or(0, |seen| seen(&spot.pos.play(m.mv)));
                let (worth, repeats) = reply_worth(tb, &spot, m)?;
                scores.push((repeats, seen, worth));
            }
            let least = *scores.iter().min().expect("not empty");
            // Ties: the better rank, then chance among moves of the same rank.
            let first = scores.iter().position(|&s| s == least).expect("a least");
            let same: Vec<usize> = (first..best.len())
                .filter(|&i| scores[i] == least && same_rank(&best[i], &best[first]))
                .collect();
            same[rng.below(same.len())]
        }
    }))
}

fn same_rank(a: &RankedMove, b: &RankedMove) -> bool {
    a.rule == b.rule && a.plain == b.plain
}

/// What the opponent's replies after `m` are worth to the opponent, summed with win 2, draw
/// 1, loss 0, over their number (as a fraction with a common denominator, so that it compares
/// exactly): 0 when every reply loses. A move that ends the game scores as its end.
///
/// With it, whether a reply returns to a position the game has been in twice: the opponent
/// can then end the game by repetition.
fn reply_worth(
    tb: &Tablebase,
    spot: &Spot<'_>,
    m: &RankedMove,
) -> Result<(Ratio, bool), ProbeError> {
    let rules = *tb.rules();
    let next = spot.pos.play(m.mv);
    if next.outcome(&rules).is_some() {
        return Ok((Ratio::whole(worth(-kept(m))), false));
    }
    let counter = if m.zeroing { 0 } else { spot.counter + 1 };
    let left = spot.turns_left.map(|l| l.saturating_sub(1));
    if left == Some(0)
        || tb
            .no_capture_limit()
            .is_some_and(|n| counter >= u32::from(n))
    {
        return Ok((Ratio::whole(worth(Value::Draw)), false));
    }
    let replies = moves_within_turns(tb, &next, counter, left)?;
    let sum: u32 = replies.iter().map(|r| worth(kept(r))).sum();
    let repeats = spot
        .seen
        .is_some_and(|seen| replies.iter().any(|r| seen(&next.play(r.mv)) >= 2));
    let ratio = Ratio {
        num: sum,
        den: replies.len().max(1) as u32,
    };
    Ok((ratio, repeats))
}

const fn worth(v: Value) -> u32 {
    match v {
        Value::Win => 2,
        Value::Draw => 1,
        Value::Loss => 0,
    }
}

/// A fraction compared exactly.
#[derive(Copy, Clone, Debug)]
struct Ratio {
    num: u32,
    den: u32,
}

impl Ratio {
    const fn whole(n: u32) -> Ratio {
        Ratio { num: n, den: 1 }
    }
}

impl PartialEq for Ratio {
    fn eq(&self, o: &Ratio) -> bool {
        self.num as u64 * o.den as u64 == o.num as u64 * self.den as u64
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, o: &Ratio) -> Option<core::cmp::Ordering> {
        Some(self.cmp(o))
    }
}

impl Ord for Ratio {
    fn cmp(&self, o: &Ratio) -> core::cmp::Ordering {
        (self.num as u64 * o.den as u64).cmp(&(o.num as u64 * self.den as u64))
    }
}

impl core::str::FromStr for Player {
    type Err = String;

    /// `CHOICE` or `CHOICE@SKILL`, SKILL from 0 to 1 (`ultra`, `random@0.9`), or `levelN`
    /// (`level1` to `level5`).
    fn from_str(s: &str) -> Result<Player, String> {
        if let Some(n) = s.strip_prefix("level") {
            return n
                .parse()
                .ok()
                .and_then(Player::level)
                .ok_or_else(|| format!("{s}: the levels are level1 to level5"));
        }
        let (choice, skill) = match s.split_once('@') {
            None => (s, 1.0),
            Some((c, k)) => {
                let skill: f64 = k
                    .parse()
                    .map_err(|_| format!("{s}: the skill after @ must be a number from 0 to 1"))?;
                if !(0.0..=1.0).contains(&skill) {
                    return Err(format!("{s}: the skill after @ must be from 0 to 1"));
                }
                (c, skill)
            }
        };
        let choice = choice
            .parse()
            .map_err(|e| if choice == s { e } else { format!("{s}: {e}") })?;
        Ok(Player { choice, skill })
    }
}

/// A player: a choice among the best moves, played with probability `skill`; otherwise a
/// uniformly random legal move (which may be a best one too). `skill` 1 is perfect play.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Player {
    pub choice: Choice,
    pub skill: f64,
}

impl Player {
    pub const fn perfect(choice: Choice) -> Player {
        Player { choice, skill: 1.0 }
    }

    /// The strength levels of `play`, `serve`, Python and `uci`, from 1 (a beginner) to 5
    /// (perfect): the ultra choice, played with the skill of the level (measured in
    /// results/ultra-strong.md).
    pub const LEVELS: [f64; 5] = [0.5, 0.8, 0.95, 0.99, 1.0];

    /// Level `n` of [`Player::LEVELS`], 1 to 5.
    pub fn level(n: u8) -> Option<Player> {
        let skill = *Player::LEVELS.get(usize::from(n).checked_sub(1)?)?;
        Some(Player {
            choice: Choice::Ultra,
            skill,
        })
    }

    /// `ultra`, `random@0.9`: a choice, and the skill when below 1.
    pub fn name(&self) -> String {
        if self.skill < 1.0 {
            format!("{}@{}", self.choice.name(), self.skill)
        } else {
            self.choice.name().to_string()
        }
    }

    /// The index in `spot.moves` of the move this player plays; `None` without a legal move.
    pub fn pick(
        &self,
        tb: &Tablebase,
        spot: Spot<'_>,
        rng: &mut Rng,
    ) -> Result<Option<usize>, ProbeError> {
        if spot.moves.is_empty() {
            return Ok(None);
        }
        if self.skill < 1.0 && !rng.chance(self.skill) {
            return Ok(Some(rng.below(spot.moves.len())));
        }
        choose(tb, spot, self.choice, rng)
    }
}

/// The move `player` plays from `pos` at the no-capture counter `counter`, with `turns_left`
/// plies before a turn limit draws the game, where the game's history is not known (a server
/// or a binding asked for one move); `None` without a legal move.
pub fn choose_move(
    tb: &Tablebase,
    pos: &Position,
    counter: u32,
    turns_left: Option<u32>,
    player: Player,
    rng: &mut Rng,
) -> Result<Option<Move>, ProbeError> {
    let moves = moves_within_turns(tb, pos, counter, turns_left)?;
    let spot = Spot {
        pos,
        counter,
        turns_left,
        moves: &moves,
        seen: None,
    };
    Ok(player.pick(tb, spot, rng)?.map(|i| moves[i].mv))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_parse_and_name_themselves() {
        for (text, choice, skill) in [
            ("ultra", Choice::Ultra, 1.0),
            ("random@0.9", Choice::Random, 0.9),
            ("fastest@0", Choice::Fastest, 0.0),
            ("level1", Choice::Ultra, 0.5),
            ("level5", Choice::Ultra, 1.0),
        ] {
            let p: Player = text.parse().unwrap();
            assert_eq!((p.choice, p.skill), (choice, skill), "{text}");
            assert_eq!(p.name().parse::<Player>().unwrap(), p, "{text}");
        }
        for bad in [
            "",
            "best",
            "ultra@",
            "ultra@1.5",
            "ultra@-0.1",
            "level0",
            "level6",
            "x@0.5",
        ] {
            let e = bad.parse::<Player>().unwrap_err();
            assert!(e.contains(bad), "{bad}: {e}");
        }
    }

    #[test]
    fn ratios_compare_exactly() {
        let r = |num, den| Ratio { num, den };
        assert_eq!(r(1, 3), r(2, 6));
        assert!(r(1, 3) < r(1, 2) && r(2, 3) > r(3, 5));
        assert!(Ratio::whole(0) < r(1, 1000) && r(999, 1000) < Ratio::whole(1));
    }

    #[test]
    fn skill_is_a_probability() {
        let mut rng = Rng::new(7);
        let hits = (0..100_000).filter(|_| rng.chance(0.3)).count();
        assert!((29_000..31_000).contains(&hits), "{hits}");
        assert!((0..1000).all(|_| !rng.chance(0.0) && rng.chance(1.0)));
    }
}
