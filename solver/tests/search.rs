//! The alpha-beta fall-back proves the same values as the placement databases.

use morris_engine::{legal_moves, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_tablebase::prove::Search;
use morris_tablebase::Lookup;

#[test]
fn search_agrees_with_placement_databases() {
    for stones in [3u8, 4, 5] {
        let rules = Rules {
            stones,
            ..Rules::nine()
        };
        let full = Solution::solve_game(&rules, &Silent);
        let start = Position::start(&rules);
        let mut search = Search::new(&rules, |p| Ok(full.outcome(p).value()));
        assert_eq!(
            search.value(&start).unwrap(),
            full.outcome(&start).value(),
            "{stones} stones"
        );
        // Every position two plies in.
        for a in legal_moves(&start, &rules) {
            let p = start.play(a);
            for b in legal_moves(&p, &rules) {
                let q = p.play(b);
                assert_eq!(
                    search.value(&q).unwrap(),
                    full.outcome(&q).value(),
                    "{}",
                    q.notation(&rules)
                );
            }
        }
        eprintln!("{stones} stones: {} nodes", search.nodes);
    }
}
