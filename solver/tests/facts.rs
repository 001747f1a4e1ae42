//! Published facts (Gasser 1996) reproduced by the moving-phase solver.

use morris_db::Key;
use morris_engine::{Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;
use morris_tablebase::Lookup;

#[test]
fn gasser_three_three() {
    let rules = Rules::nine();
    let t = std::time::Instant::now();
    let sol = Solution::solve_moving(&rules, 4, &Silent);
    eprintln!("3..4 solved in {:?}", t.elapsed());
    let (index, codes) = sol.key(Key::moving(3, 3)).unwrap();
    let (mut wins, mut classes) = (0u64, 0u64);
    for i in 0..index.size() {
        if !index.is_hole(i) {
            classes += 1;
            let c = codes[i as usize];
            wins += (c != 0 && c % 2 == 0) as u64;
        }
    }
    let share = wins as f64 / classes as f64;
    eprintln!(
        "3-3: {wins} wins of {classes} classes ({:.2}%)",
        100.0 * share
    );
    assert!((0.82..0.84).contains(&share), "{share}");
    let p = Position::parse("W:d7,g1,g7 B:a4,d5,g4 b 0 0", &rules).unwrap();
    assert_eq!(sol.outcome(&p).plies(), Some(26));
}
