//! Tests of the no-capture draw rule solved with the counter in the state
//! ([`CounterSolution`]), against the plain solutions ([`GameSolution`]) and on positions
//! checked by hand.
//!
//! What the plain values say under the rule, from the side to move at counter `c` (so `N - c`
//! plies are left before a quiet ply draws): the counter only adds a way to draw, so a plain
//! draw stays a draw (each side keeps its plain way of not losing), a plain win never becomes
//! a loss nor a plain loss a win; and a win or loss in `d` plies stays one when `d <= N - c`:
//! the game ends on the d-th ply, and the counter is at most `c + d - 1 < N` before it.

use morris_reference::{CounterSolution, Game, GameSolution, Position, Value, Variant};
use std::sync::OnceLock;

/// The limit of most tests: small, so that the counter decides many values, and cheap.
const N: u32 = 6;

fn nine3(flying: bool) -> &'static (GameSolution, CounterSolution) {
    static FLYING: OnceLock<(GameSolution, CounterSolution)> = OnceLock::new();
    static NOT: OnceLock<(GameSolution, CounterSolution)> = OnceLock::new();
    let cell = if flying { &FLYING } else { &NOT };
    cell.get_or_init(|| {
        let v = Variant::new(3, flying);
        (GameSolution::solve(v), CounterSolution::solve(v, N))
    })
}

/// Checks every value of `sol` against the plain values (see the top of the file) and for
/// monotonicity, and that it covers the plain solution's positions, no more, no fewer.
fn check_against_plain(sol: &CounterSolution, plain: &GameSolution) {
    let limit = sol.limit();
    let mut count = 0;
    for (pos, values) in sol.iter() {
        count += 1;
        assert_eq!(values.len(), limit as usize);
        let (plain_value, d) = plain.get(&pos).expect("covered by the plain solution");
        for (c, &v) in values.iter().enumerate() {
            let left = limit - c as u32;
            let ok = match plain_value {
                Value::Draw => v == Value::Draw,
                won_or_lost if d <= left => v == won_or_lost,
                Value::Win => v != Value::Loss,
                Value::Loss => v != Value::Win,
            };
            assert!(ok, "{pos} at counter {c}: {v}, plain {plain_value} in {d}");
            assert_eq!(sol.value(&pos, c as u32), Some(v), "{pos}");
            // More budget never hurts the side that wins or loses with less: a win (loss)
            // at c is one at every smaller counter.
            if v != Value::Draw {
                assert!(values[..c].iter().all(|&w| w == v), "{pos}: {values:?}");
            }
        }
    }
    let moving = plain.moving().expect("stones move").iter().count();
    assert_eq!(count, moving + plain.placement_count());
}

/// Where every zeroing ply ends the game (3 against 3 on the Nine board: a capture leaves 2
/// stones; Three Men's Morris' moving phase: there is no capture, and a completed line wins),
/// the counter is a plain turn limit: the game is drawn after `N - c` more plies unless it
/// ends on one of them, so a position is won (lost) exactly when its plain distance is at
/// most `N - c`.
fn check_turn_limit(sol: &CounterSolution, plain: &GameSolution) {
    let limit = sol.limit();
    let mut checked = 0;
    for (pos, values) in sol.iter().filter(|(p, _)| p.hand == [0, 0]) {
        let (plain_value, d) = plain.get(&pos).unwrap();
        let expected: Vec<Value> = (0..limit)
            .map(|c| {
                if plain_value != Value::Draw && d <= limit - c {
                    plain_value
                } else {
                    Value::Draw
                }
            })
            .collect();
        assert_eq!(values, expected, "{pos}: plain {plain_value} in {d}");
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn three_stones_with_flying() {
    let (plain, sol) = nine3(true);
    check_against_plain(sol, plain);
    check_turn_limit(sol, plain);
}

#[test]
fn three_stones_without_flying() {
    let (plain, sol) = nine3(false);
    check_against_plain(sol, plain);
    check_turn_limit(sol, plain);
}

#[test]
fn three_mens_morris() {
    let v = Variant::standard(Game::Three);
    let plain = GameSolution::solve(v);
    for limit in [1, 2, N] {
        let sol = CounterSolution::solve(v, limit);
        check_against_plain(&sol, &plain);
        check_turn_limit(&sol, &plain);
    }
}

#[test]
fn lasker_three_stones() {
    // A player with a stone in hand may slide instead (a quiet ply), so the counter matters
    // in the placement phase too. Without flying: a third of the time, and flying is tested
    // above.
    let v = Variant {
        stones: 3,
        flying: false,
        ..Variant::standard(Game::Lasker)
    };
    check_against_plain(&CounterSolution::solve(v, N), &GameSolution::solve(v));
}

/// The longest plain distance of a won or lost position, placement included.
fn longest(plain: &GameSolution) -> u32 {
    let moving = plain.moving().unwrap().iter().map(|(.., d)| d);
    let placement = plain.placement().map(|(_, _, d)| d);
    moving.chain(placement).max().unwrap()
}

/// With a limit no capture-free stretch of a won game reaches, the rule changes nothing: at
/// counter 0 every value is the plain one. The longest plain distance `D` is enough, as a win
/// in `d <= D` plies ends before a quiet ply can bring the counter to `D`.
#[test]
fn long_limit_changes_nothing() {
    for v in [Variant::new(3, false), Variant::standard(Game::Three)] {
        let plain = GameSolution::solve(v);
        let limit = longest(&plain);
        let sol = CounterSolution::solve(v, limit);
        let mut differ_below = 0;
        for (pos, values) in sol.iter() {
            let (plain_value, d) = plain.get(&pos).unwrap();
            assert_eq!(values[0], plain_value, "{v:?} {pos}");
            differ_below += usize::from(d == limit && values[1] == Value::Draw);
        }
        // And it is no larger than needed: a loss in `D` plies is a draw one ply later.
        assert!(differ_below > 0, "{v:?}: limit {limit}");
    }
}

fn values(sol: &CounterSolution, text: &str) -> Vec<Value> {
    let pos = Position::parse(text, &sol.variant()).unwrap();
    (0..sol.limit())
        .map(|c| sol.value(&pos, c).expect("covered"))
        .collect()
}

#[test]
fn positions_checked_by_hand() {
    use Value::{Draw, Loss, Win};
    let (plain, flying) = nine3(true);

    // Gasser's 3-3 example: Black to move loses in 26 plies, all quiet but the last (any
    // capture leaves 2 stones). The game cannot end within N = 6 plies: a draw at every
    // counter.
    let gasser = "W:d7,g1,g7 B:a4,d5,g4 b";
    assert_eq!(plain.moving().unwrap().lookup(gasser), Ok((Loss, 26)));
    assert_eq!(values(flying, gasser), vec![Draw; N as usize]);

    // White flies a7-g1, closing a1-d1-g1 and taking one of Black's 3 stones: won at once,
    // even at counter N - 1 (a capture is zeroing, and this one ends the game).
    assert_eq!(
        values(flying, "W:a1,d1,a7 B:b6,d6,f6 w"),
        vec![Win; N as usize]
    );

    // The plain solver gives White a win in 3 here. In 3 against 3 a capture ends the game,
    // so White has none now (it would win in 1), nor Black after White's best move (White's
    // win would not be in 3): the first two plies are quiet and the third ends the game,
    // which needs c + 2 < N. At c = N - 2 Black's quiet reply reaches N, and White cannot
    // win sooner; at c = N - 1 White's own first ply does: a draw at both.
    let win3 = "W:b2,d2,f2 B:a1,d1,g1 w";
    assert_eq!(plain.moving().unwrap().lookup(win3), Ok((Win, 3)));
    let mut expected = vec![Win; N as usize - 2];
    expected.extend([Draw, Draw]);
    assert_eq!(values(flying, win3), expected);

    // Without flying: Black a1, d1, g1 can only play g1-g4 (a4 and d2 are White's). White's
    // f4-g4 closes no mill (e4-f4-g4 loses f4, g1-g4-g7 has no White stone on g1) and leaves
    // Black without a move: a quiet ply that ends the game wins even as the N-th.
    let (plain, slow) = nine3(false);
    let block = "W:d2,a4,f4 B:a1,d1,g1 w";
    assert_eq!(plain.moving().unwrap().lookup(block), Ok((Win, 1)));
    assert_eq!(values(slow, block), vec![Win; N as usize]);
    // The same with Black to move: g1-g4 is Black's only move and closes nothing. Then no
    // White line holds two White stones (no mill in one move) and Black's stones reach g1
    // and g7, too many to block at once: White cannot end the game on the next ply, so from
    // counter N - 1 Black's forced ply draws.
    let after = values(slow, "W:d2,a4,f4 B:a1,d1,g1 b");
    assert_eq!(after[N as usize - 1], Draw);

    // A placement position: every move places (zeroing), so one value at every counter.
    let start = values(flying, "startpos");
    assert!(start.iter().all(|&v| v == start[0]));
}
