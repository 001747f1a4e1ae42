//! The whole game solved on reduced Nine Men's Morris (fewer stones a side).

use morris_db::format::Metric;
use morris_engine::{Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::verify::verify_key;
use morris_tablebase::Lookup;

#[test]
fn reduced_games_solve_and_verify() {
    for stones in [3u8, 4] {
        let rules = Rules {
            stones,
            ..Rules::nine()
        };
        let t = std::time::Instant::now();
        let sol = Solution::solve_game(&rules, &Silent);
        let start = Position::start(&rules);
        eprintln!(
            "{stones} stones: start {:?} in {:?}, {} keys",
            sol.outcome(&start).plies(),
            t.elapsed(),
            sol.keys().count()
        );
        for key in sol.keys() {
            let r = verify_key(&rules, Metric::Plain, key, &sol, 5, &Silent);
            assert_eq!(r.mismatch_count, 0, "{key}: {:?}", r.mismatches);
        }
    }
}
