//! The no-capture rule's tables: equal to the plain values when the limit is out of reach,
//! monotone in the limit, verified forward, and a damaged entry caught.

mod common;

use common::Damaged;
use morris_db::format::Metric;
use morris_db::plan::UnitKind;
use morris_db::{Key, Outcome, Value};
use morris_engine::{Color, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::verify::verify_key;
use morris_tablebase::Lookup;

fn nine(stones: u8, flying: bool) -> Rules {
    Rules {
        stones,
        flying,
        ..Rules::nine()
    }
}

/// Every key of a whole game, moving phase first.
fn keys(sol: &Solution) -> Vec<Key> {
    let mut k: Vec<Key> = sol.keys().collect();
    k.sort_unstable();
    k
}

/// Calls `f` with every position (holes skipped) of every key of `sol`.
fn for_each_position(sol: &Solution, mut f: impl FnMut(Key, &Position)) {
    for key in keys(sol) {
        let (index, _) = sol.key(key).unwrap();
        index.for_each_class_in(0..index.size(), |i, us, them| {
            if !index.is_hole(i) {
                let pos =
                    Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
                f(key, &pos);
            }
        });
    }
}

/// With a limit no capture-free stretch reaches, the rule changes no value.
#[test]
fn a_limit_out_of_reach_changes_nothing() {
    for flying in [true, false] {
        let rules = nine(4, flying);
        let plain = Solution::solve_game(&rules, &Silent);
        let rule = Solution::solve_game_with(&rules, Metric::NoCapture(1000), &Silent);
        let mut n = 0u64;
        let mut longest = 0;
        for_each_position(&plain, |key, pos| {
            let (p, r) = (plain.outcome(pos), rule.outcome(pos));
            assert_eq!(p.value(), r.value(), "{key} {}", pos.notation(&rules));
            if UnitKind::of(&rules, key).is_cyclic() {
                // A distance to zeroing never exceeds the distance to the end.
                assert!(r.plies() <= p.plies(), "{}", pos.notation(&rules));
                longest = longest.max(r.plies().unwrap_or(0));
            }
            n += 1;
        });
        assert!(n > 6_000_000, "{n} classes");
        assert!(longest < 1000);
    }
}

/// A win or a loss under a limit stays one under every larger limit (and under a larger
/// budget at the same limit), and a small limit does turn wins and losses into draws.
#[test]
fn monotone_in_the_limit() {
    let rules = nine(4, true);
    let tables: Vec<(u32, Solution)> = [4u16, 8, 16]
        .iter()
        .map(|&n| {
            let sol = Solution::solve_game_with(&rules, Metric::NoCapture(n), &Silent);
            (n as u32, sol)
        })
        .collect();
    let plain = Solution::solve_game(&rules, &Silent);
    let mut cursed = [0u64; 3];
    for_each_position(&plain, |key, pos| {
        let mut previous: Option<Value> = None;
        for (k, (n, sol)) in tables.iter().enumerate() {
            // The value at counter 0; for keys solved by the forward pass it is stored as is.
            let v = sol.outcome(pos).within(*n).value();
            if let Some(p) = previous {
                assert!(p == Value::Draw || p == v, "{key} {}", pos.notation(&rules));
            }
            if v == Value::Draw && plain.outcome(pos).value() != Value::Draw {
                cursed[k] += 1;
            }
            previous = Some(v);
            if UnitKind::of(&rules, key).is_cyclic() {
                // At one limit, more plies left never lose a decision.
                let o = sol.outcome(pos);
                for left in 1..*n {
                    if o.within(left) != Outcome::Draw {
                        assert_eq!(o.within(left + 1), o);
                    }
                }
            }
        }
    });
    assert!(cursed[0] > cursed[1] && cursed[1] > cursed[2], "{cursed:?}");
    assert!(cursed[2] > 0, "{cursed:?}");
}

#[test]
fn verify_passes_and_catches_damage() {
    for (rules, n) in [
        (nine(4, true), 6u16),
        (nine(3, false), 12),
        (Rules::standard(morris_engine::Game::Three), 8),
    ] {
        let metric = Metric::NoCapture(n);
        let sol = Solution::solve_game_with(&rules, metric, &Silent);
        for key in keys(&sol) {
            let r = verify_key(&rules, metric, key, &sol, 5, &Silent);
            assert_eq!(r.mismatch_count, 0, "{key}: {:?}", r.mismatches);
        }
        // Damage one decided position of the moving phase: a distance to zeroing one too long.
        let key = keys(&sol)
            .into_iter()
            .find(|k| k.is_moving_phase())
            .unwrap();
        let (index, codes) = sol.key(key).unwrap();
        let slot = (0..index.size())
            .find(|&i| !index.is_hole(i) && Outcome::from_code(codes[i as usize]) != Outcome::Draw)
            .unwrap();
        let (us, them) = index.unindex(slot);
        let target = Position::from_sides(us, them, [0, 0], Color::White);
        let stored = sol.outcome(&target);
        let value = match stored {
            Outcome::Win(d) => Outcome::Win(d + 2),
            Outcome::Loss(d) => Outcome::Loss(d + 1),
            Outcome::Draw => unreachable!(),
        };
        let damaged = Damaged {
            inner: &sol,
            hit: |pos: &Position| *pos == target,
            value,
        };
        let r = verify_key(&rules, metric, key, &damaged, 100, &Silent);
        assert!(
            r.mismatches
                .iter()
                .any(|m| m.slot == slot && m.stored == value),
            "{:?}",
            r.mismatches
        );
    }
}

/// The rule's counts split the plain game's, key by key: its wins and cursed wins are the
/// plain wins, its losses and blessed losses the plain losses, its draws the plain draws (the
/// check `scripts/seeds-report.py` makes on the whole game's JSON files). The limit is small
/// enough that the rule bites (some wins and losses become draws) in both flying rules.
#[test]
fn the_rule_splits_the_plain_counts_key_by_key() {
    use morris_db::Category;
    use morris_tablebase::stats::{key_stats, rule_key_stats};
    for flying in [true, false] {
        let rules = nine(4, flying);
        let limit = 8;
        let plain = Solution::solve_game(&rules, &Silent);
        let rule = Solution::solve_game_with(&rules, Metric::NoCapture(limit), &Silent);
        let (mut cursed, mut blessed) = (0, 0);
        for key in keys(&plain) {
            let (index, plain_codes) = plain.key(key).unwrap();
            let (_, rule_codes) = rule.key(key).unwrap();
            let p = key_stats(index, |i| plain_codes[i as usize]);
            let r = rule_key_stats(
                index,
                limit,
                |i| Outcome::from_code(plain_codes[i as usize]),
                |i| Outcome::from_code(rule_codes[i as usize]),
            );
            let r = r.rule.expect("counted under the rule");
            let n = |c| r.count(c);
            assert_eq!(n(Category::Win) + n(Category::CursedWin), p.wins, "{key}");
            assert_eq!(
                n(Category::Loss) + n(Category::BlessedLoss),
                p.losses,
                "{key}"
            );
            assert_eq!(n(Category::Draw), p.draws, "{key}");
            cursed += n(Category::CursedWin);
            blessed += n(Category::BlessedLoss);
        }
        assert!(
            cursed > 0 && blessed > 0,
            "flying {flying}: {cursed} {blessed}"
        );
    }
}
