//! The other games of the family solved whole, from their start: values, verification, and the
//! rule options that change values.

use morris_db::format::Metric;
use morris_engine::{Game, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::verify::verify_key;
use morris_tablebase::Lookup;

/// Solves a game whole, checks every key by forward verification, and returns the start's
/// distance.
fn solve_and_verify(rules: &Rules) -> (Solution, Option<u32>) {
    let sol = Solution::solve_game(rules, &Silent);
    let keys: Vec<_> = sol.keys().collect();
    assert!(!keys.is_empty());
    for key in keys {
        let r = verify_key(rules, Metric::Plain, key, &sol, 5, &Silent);
        assert_eq!(r.mismatch_count, 0, "{key}: {:?}", r.mismatches);
    }
    let start = sol.outcome(&Position::start(rules)).plies();
    (sol, start)
}

#[test]
fn tictactoe_is_a_draw() {
    let (_, start) = solve_and_verify(&Rules::standard(Game::TicTacToe));
    assert_eq!(start, None);
}

#[test]
fn three_mens_morris_is_a_first_player_win_in_9() {
    let rules = Rules::standard(Game::Three);
    let (sol, start) = solve_and_verify(&rules);
    assert_eq!(start, Some(9));
    // Only the centre wins: every other first stone draws or loses.
    let pos = Position::start(&rules);
    for m in morris_engine::legal_moves(&pos, &rules) {
        let child = sol.outcome(&pos.play(m)).plies();
        let wins = child.is_some_and(|p| p % 2 == 0);
        assert_eq!(
            wins,
            m.notation(rules.board()).to_string() == "b2",
            "{child:?}"
        );
    }
}

#[test]
fn six_mens_morris_is_a_draw_with_and_without_flying() {
    for flying in [false, true] {
        let rules = Rules {
            flying,
            ..Rules::standard(Game::Six)
        };
        let (_, start) = solve_and_verify(&rules);
        assert_eq!(start, None, "flying {flying}");
    }
}

/// Flying is a rule option with its own databases because it changes values: millions of
/// positions with three stones change value, e.g. a loss in 2 that flying turns into a win.
#[test]
fn no_flying_changes_values() {
    let flying = Rules::nine();
    let grounded = Rules {
        flying: false,
        ..Rules::nine()
    };
    let with = Solution::solve_moving(&flying, 4, &Silent);
    let without = Solution::solve_moving(&grounded, 4, &Silent);
    let mut differ = 0u64;
    let mut example = None;
    for key in with.keys() {
        let (index, _) = with.key(key).unwrap();
        index.for_each_class_in(0..index.size(), |_, us, them| {
            let pos = Position::from_sides(us, them, [0, 0], morris_engine::Color::White);
            let (a, b) = (with.outcome(&pos).plies(), without.outcome(&pos).plies());
            if a.map(|p| p % 2) != b.map(|p| p % 2) {
                differ += 1;
                example.get_or_insert((pos.notation(&flying).to_string(), a, b));
            }
        });
    }
    assert!(differ > 0, "flying never changes a value");
    eprintln!("{differ} classes change value without flying, e.g. {example:?}");
    // White's three stones on the bottom row can only step up; flying, they win.
    let pos = Position::parse("W:a1,d1,g1 B:d2,c3,e3 w 0 0", &flying).unwrap();
    assert_eq!(with.outcome(&pos).plies(), Some(15));
    assert_eq!(without.outcome(&pos).plies(), Some(2));
}
