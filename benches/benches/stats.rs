//! The counts a solve takes of every key it writes (`key_stats`: wins, draws and losses, by
//! distance, and the longest of each), over a key's slots from codes in memory, as the solve
//! holds them before writing.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use morris_db::{Index, Key, Outcome};
use morris_engine::board::NINE;
use morris_tablebase::stats::key_stats;

fn stats(c: &mut Criterion) {
    let key: Key = "6-6-1-1".parse().unwrap();
    let index = Index::new(&NINE, key);
    // Draws, wins and losses in the shares of the placement phase, at distances up to 60.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let codes: Vec<u16> = (0..index.size())
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            let r = x.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32;
            match r % 10 {
                0..=5 => 0,
                6..=7 => Outcome::Win((r >> 8) as u32 % 60).code(),
                _ => Outcome::Loss((r >> 8) as u32 % 60).code(),
            }
        })
        .collect();
    let mut g = c.benchmark_group("stats");
    g.sample_size(10);
    g.throughput(Throughput::Elements(index.size()));
    g.bench_function(format!("key_stats {key}"), |b| {
        b.iter(|| key_stats(&index, |i| codes[i as usize]))
    });
    g.finish();
}

criterion_group!(benches, stats);
criterion_main!(benches);
