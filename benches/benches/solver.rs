//! Solver throughput: the moving phase up to four stones a side in memory (every pair, with
//! its captures into the smaller ones), reported in slots per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use morris_db::plan::plan;
use morris_engine::Rules;
use morris_solver::memory::Solution;
use morris_solver::progress::Silent;

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

criterion_group!(benches, solve_moving);
criterion_main!(benches);
