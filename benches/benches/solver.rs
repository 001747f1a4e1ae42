//! Solver throughput in slots per second: the moving phase up to four stones a side in memory
//! (every pair, with its captures into the smaller ones), and the largest placement key of the
//! five-stone game (one forward pass over its solved children).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use morris_db::plan::{placement_keys, plan};
use morris_db::slots;
use morris_engine::Rules;
use morris_solver::placement::solve_key;
use morris_solver::progress::Silent;
use morris_solver::solution::Solution;

fn solve_moving(c: &mut Criterion) {
    let rules = Rules::nine();
    let slots: u64 = plan(&rules, 4).iter().map(|r| r.slots).sum();
    // Build the index tables once, outside the timed runs.
    let _ = Solution::solve_moving(&rules, 3, &Silent);
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    g.throughput(Throughput::Elements(slots));
    g.bench_function("moving up to 4-4", |b| {
        b.iter(|| Solution::solve_moving(&rules, 4, &Silent))
    });
    g.finish();
}

fn solve_placement(c: &mut Criterion) {
    let rules = Rules {
        stones: 5,
        ..Rules::nine()
    };
    let sol = Solution::solve_game(&rules, &Silent);
    let key = placement_keys(&rules, rules.stones)
        .into_iter()
        .max_by_key(|&k| slots(rules.board(), k))
        .expect("the game has placement keys");
    let mut g = c.benchmark_group("solve");
    g.sample_size(10);
    g.throughput(Throughput::Elements(slots(rules.board(), key)));
    g.bench_function(format!("placement key {key} (5 stones)"), |b| {
        b.iter(|| solve_key(&rules, key, &sol, &Silent))
    });
    g.finish();
}

criterion_group!(benches, solve_moving, solve_placement);
criterion_main!(benches);
