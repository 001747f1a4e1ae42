//! The embeddable reader: answers equal to the solution it reads, errors as values (a missing
//! file, a damaged one, a position outside the game, a counter past the limit), never panics.

mod common;

use common::{job, nine_with};
use morris_db::format::Metric;
use morris_db::{Outcome, Value};
use morris_engine::{legal_moves, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::solve::solve;
use morris_tablebase::store::Store;
use morris_tablebase::tablebase::{ProbeError, Tablebase};
use morris_tablebase::{Found, Lookup};
use morris_testdirs::scratch;
use proptest::prelude::*;

/// Builds the whole 3-stone game on disk, plain and under the rule with N = 8.
fn build(dir: &std::path::Path) {
    for metric in [Metric::Plain, Metric::NoCapture(8)] {
        let mut store = Store::with_metric(dir, nine_with(3), metric);
        solve(&mut store, &job(3, true), &Silent).unwrap();
    }
}

#[test]
fn answers_as_the_solution_and_fails_cleanly() {
    let dir = scratch("answers");
    let rules = nine_with(3);
    // Nothing built yet: every probe is a MissingTable naming the command that builds it.
    let tb = Tablebase::open(&dir, rules).unwrap();
    match tb.probe(&Position::start(&rules)) {
        Err(ProbeError::MissingTable { path, build, .. }) => {
            assert!(path.to_str().unwrap().contains("nine-s3-"), "{path:?}");
            assert!(
                build.contains("morris solve") && build.contains("--stones 3"),
                "{build}"
            );
        }
        other => panic!("{other:?}"),
    }
    build(&dir);
    let plain = Solution::solve_game(&rules, &Silent);
    let rule = Solution::solve_game_with(&rules, Metric::NoCapture(8), &Silent);
    let tb = Tablebase::open(&dir, rules)
        .unwrap()
        .with_no_capture_rule(8);
    // Every position two plies from the start, and their moves.
    let start = Position::start(&rules);
    for a in legal_moves(&start, &rules) {
        let p = start.play(a);
        for b in legal_moves(&p, &rules) {
            let q = p.play(b);
            let probe = tb.probe(&q).unwrap();
            assert_eq!(probe.plain, Found::Outcome(plain.outcome(&q)));
            let r = probe.rule.unwrap();
            assert_eq!(r.outcome, rule.outcome(&q).within(8));
            let moves = tb.best_moves(&q).unwrap();
            assert_eq!(moves.len(), legal_moves(&q, &rules).len());
            // Best first: the first move's outcome is the position's.
            assert_eq!(moves[0].rule.unwrap().outcome.value(), r.outcome.value());
            assert!(moves
                .windows(2)
                .all(|w| w[0].rule.unwrap().outcome <= w[1].rule.unwrap().outcome));
        }
    }
    // A position with more stones than the game has, and a counter at the limit.
    let ten = Position::parse("W:a1,d1,g1,a4 B:a7,d7,g7 w 0 0", &Rules::nine()).unwrap();
    assert!(matches!(tb.probe(&ten), Err(ProbeError::NotInGame { .. })));
    assert!(matches!(
        tb.probe_at(&start, 8),
        Err(ProbeError::CounterTooLarge {
            counter: 8,
            limit: 8
        })
    ));
    // A truncated table: an error naming it, not a panic (a fresh reader: tables stay open).
    let victim = dir.join("nine-s3-3-3-0-0.mdb");
    let bytes = std::fs::read(&victim).unwrap();
    std::fs::write(&victim, &bytes[..bytes.len() / 2]).unwrap();
    let tb = Tablebase::open(&dir, rules).unwrap();
    let pos = Position::parse("W:d7,g1,g7 B:a4,d5,g4 b 0 0", &rules).unwrap();
    match tb.probe(&pos) {
        Err(e @ ProbeError::BadTable { .. }) => {
            assert!(e.to_string().contains("nine-s3-3-3-0-0.mdb"))
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        Tablebase::open(dir.join("nowhere"), rules),
        Err(ProbeError::NoDirectory { .. })
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The ranking the value type gives, against the rule the solver used before it: a distance
/// whose parity is the value, wins fastest first, then draws, then losses slowest first.
fn old_preference(plies: Option<u32>) -> (u8, i64) {
    match plies {
        Some(p) if p % 2 == 1 => (0, p as i64),
        None => (1, 0),
        Some(p) => (2, -(p as i64)),
    }
}

fn outcome() -> impl Strategy<Value = Option<u32>> {
    prop_oneof![Just(None), (0u32..600).prop_map(Some)]
}

proptest! {
    #[test]
    fn negation_and_order(a in outcome(), b in outcome()) {
        let of = |p: Option<u32>| p.map_or(Outcome::Draw, Outcome::in_plies);
        let (x, y) = (of(a), of(b));
        prop_assert_eq!(-(-x), x);
        prop_assert_eq!((-x).value(), -x.value());
        prop_assert_eq!(x.cmp(&y), old_preference(a).cmp(&old_preference(b)));
        // The better of two moves for the mover is the worse child for the opponent.
        prop_assert_eq!(x.after_move().cmp(&y.after_move()), y.cmp(&x));
        prop_assert_eq!(x.value() == Value::Win, matches!(x, Outcome::Win(_)));
    }
}
