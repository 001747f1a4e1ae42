//! Dara's endgames solved in memory (the 3-3 and 4-3 + 3-4 moving pairs; 4-4 alone takes
//! minutes): every key verified by forward recomputation, and values the rules decide at once.

use morris_db::format::Metric;
use morris_db::plan::KeyGraph;
use morris_db::Key;
use morris_engine::{Color, Game, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_solver::verify::verify_key;
use morris_tablebase::stats::key_stats;
use morris_tablebase::Lookup;

#[test]
fn dara_endgames_solve_and_verify() {
    let rules = Rules::standard(Game::Dara);
    let steps: Vec<_> = KeyGraph::new(&rules, 4)
        .moving()
        .iter()
        .filter(|s| s.keys()[0] != Key::moving(4, 4))
        .cloned()
        .collect();
    let sol = Solution::solve_pairs(&rules, &steps, &Silent);
    let keys = [Key::moving(3, 3), Key::moving(4, 3), Key::moving(3, 4)];
    for key in keys {
        let r = verify_key(&rules, Metric::Plain, key, &sol, 5, &Silent);
        assert_eq!(r.mismatch_count, 0, "{key}: {:?}", r.mismatches);
        assert_eq!(r.checked, morris_db::classes(rules.board(), key), "{key}");
    }

    let plies = |text: &str| sol.outcome(&Position::parse(text, &rules).unwrap()).plies();
    // c2-c1 makes a1-b1-c1 and takes one of Black's three stones: a win in 1.
    assert_eq!(plies("W:a1,b1,c2 B:d4,e5,f4 w 0 0"), Some(1));
    // Black is walled into the corner: lost before moving.
    assert_eq!(plies("W:c1,b2,a3 B:a1,b1,a2 b 0 0"), Some(0));

    // The figures of this solve (one per symmetry class), recorded so that a change shows.
    let (index, codes) = sol.key(Key::moving(3, 3)).unwrap();
    let s = key_stats(index, |i| codes[i as usize]);
    assert_eq!((s.wins, s.draws, s.losses), (1_483_441, 562_549, 924_240));
    assert_eq!(
        (s.max_win_plies(), s.max_loss_plies()),
        (Some(37), Some(36))
    );
    let mut longest = None;
    index.for_each_class_in(0..index.size(), |i, us, them| {
        if longest.is_none()
            && morris_db::Outcome::from_code(codes[i as usize]) == morris_db::Outcome::Loss(36)
        {
            longest = Some(Position::from_sides(us, them, [0, 0], Color::White));
        }
    });
    let longest = longest.expect("a loss in 36");
    eprintln!(
        "3-3: a longest loss (36 plies): {}",
        longest.notation(&rules)
    );
    assert_eq!(sol.outcome(&longest).plies(), Some(36));
}
