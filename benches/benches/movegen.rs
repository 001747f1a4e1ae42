//! Move generation throughput: every move built and handed to a callback, and bulk counting,
//! on one position of each phase, and perft from the start.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris_engine::{count_moves, for_each_move, perft, Position, Rules};

const POSITIONS: [(&str, &str); 4] = [
    ("placement", "W:a7,d6,f4,c3 B:g7,b4,d2,e5 w 5 5"),
    (
        "moving",
        "W:a7,d7,b6,c4,e3,g1,f4 B:g7,f6,d5,b4,d2,a1,c3 w 0 0",
    ),
    ("flying", "W:a1,d5,g7 B:a7,d7,b6,c4,e4,f2,g4,d2 w 0 0"),
    (
        "captures",
        "W:a1,a4,g1,g4,d2,d3,b6 B:d7,f6,e5,c5,b4,e3,f2 w 0 0",
    ),
];

fn movegen(c: &mut Criterion) {
    let rules = Rules::nine();
    for (name, text) in POSITIONS {
        let pos = Position::parse(text, &rules).expect("benchmark position");
        let n = count_moves(&pos, &rules) as u64;
        let mut g = c.benchmark_group(format!("movegen/{name}"));
        g.throughput(Throughput::Elements(n));
        g.bench_function("callback", |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for_each_move(black_box(&pos), &rules, |m| acc ^= m.to() as u32);
                acc
            })
        });
        g.bench_function("count", |b| b.iter(|| count_moves(black_box(&pos), &rules)));
        g.finish();
    }
}

fn perft_start(c: &mut Criterion) {
    let rules = Rules::nine();
    let pos = Position::start(&rules);
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.throughput(Throughput::Elements(5_140_800));
    g.bench_function("startpos/5", |b| {
        b.iter(|| perft(black_box(&pos), &rules, 5))
    });
    g.finish();
}

criterion_group!(benches, movegen, perft_start);
criterion_main!(benches);
