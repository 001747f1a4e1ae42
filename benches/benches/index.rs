//! Index throughput: `index` and `unindex` on random positions and slots (precomputed, so the
//! generator is not measured), and the ordered walks the solver's scans use.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use morris_db::{Index, Key};
use morris_engine::board::NINE;
use morris_engine::Bitboard;

const SAMPLES: usize = 1 << 18;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// `k` random points of `free`.
    fn subset(&mut self, mut free: u32, k: u8) -> u32 {
        let mut out = 0;
        for _ in 0..k {
            let n = free.count_ones();
            let mut pick = (self.next() % n as u64) as u32;
            let mut rest = free;
            while pick > 0 {
                rest &= rest - 1;
                pick -= 1;
            }
            let p = rest & rest.wrapping_neg();
            out |= p;
            free &= !p;
        }
        out
    }
}

fn positions(key: Key, seed: u64) -> Vec<(Bitboard, Bitboard)> {
    let mut rng = Rng(seed);
    (0..SAMPLES)
        .map(|_| {
            let us = rng.subset(NINE.all().bits(), key.us);
            let them = rng.subset(NINE.all().bits() & !us, key.them);
            (Bitboard(us), Bitboard(them))
        })
        .collect()
}

const KEYS: [&str; 5] = ["9-9-0-0", "8-9-0-0", "3-3-0-0", "5-4-4-5", "3-2-6-7"];

fn index(c: &mut Criterion) {
    for name in KEYS {
        let key: Key = name.parse().unwrap();
        let ix = Index::new(&NINE, key);
        let sample = positions(key, 0x5eed ^ key.us as u64);
        let mut g = c.benchmark_group(format!("index/{name}"));
        g.throughput(Throughput::Elements(SAMPLES as u64));
        g.bench_function("index", |b| {
            b.iter(|| {
                let mut acc = 0u64;
                for &(us, them) in &sample {
                    acc = acc.wrapping_add(ix.index(black_box(us), black_box(them)));
                }
                acc
            })
        });
        let mut rng = Rng(7);
        let slots: Vec<u64> = (0..SAMPLES).map(|_| rng.next() % ix.size()).collect();
        g.bench_function("unindex", |b| {
            b.iter(|| {
                let mut acc = 0u32;
                for &i in &slots {
                    let (us, them) = ix.unindex(black_box(i));
                    acc ^= us.bits() ^ them.bits().rotate_left(7);
                }
                acc
            })
        });
        g.finish();
    }
}

/// Indexing the positions that share the pattern side (as all the predecessors of a position
/// share the stones of the side that did not move): 16 positions per fixed side.
fn fixed(c: &mut Criterion) {
    const OTHERS: usize = 16;
    let key: Key = "9-9-0-0".parse().unwrap();
    let ix = Index::new(&NINE, key);
    let mut rng = Rng(99);
    let groups: Vec<(Bitboard, Vec<Bitboard>)> = (0..SAMPLES / OTHERS)
        .map(|_| {
            let us = rng.subset(NINE.all().bits(), key.us);
            let free = NINE.all().bits() & !us;
            let others = (0..OTHERS)
                .map(|_| Bitboard(rng.subset(free, key.them)))
                .collect();
            (Bitboard(us), others)
        })
        .collect();
    let mut g = c.benchmark_group("fixed/9-9-0-0");
    g.throughput(Throughput::Elements(SAMPLES as u64));
    g.bench_function("index", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (us, others) in &groups {
                for &them in others {
                    acc = acc.wrapping_add(ix.index(black_box(*us), black_box(them)));
                }
            }
            acc
        })
    });
    g.bench_function("with_us", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            for (us, others) in &groups {
                let f = ix.with_us(black_box(*us));
                for &them in others {
                    acc = acc.wrapping_add(f.index(black_box(them)));
                }
            }
            acc
        })
    });
    g.finish();
}

fn walk(c: &mut Criterion) {
    const LEN: u64 = 1 << 20;
    for name in ["9-9-0-0", "5-4-4-5"] {
        let key: Key = name.parse().unwrap();
        let ix = Index::new(&NINE, key);
        let start = ix.size() / 3;
        let len = LEN.min(ix.size() - start);
        let mut g = c.benchmark_group(format!("walk/{name}"));
        g.throughput(Throughput::Elements(len));
        for (label, classes_only) in [("all slots", false), ("classes only", true)] {
            g.bench_function(label, |b| {
                b.iter(|| {
                    let mut acc = 0u64;
                    let visit = |i: u64, us: Bitboard, them: Bitboard| {
                        acc = acc.wrapping_add(i ^ (us.bits() ^ them.bits().rotate_left(9)) as u64);
                    };
                    if classes_only {
                        ix.for_each_class_in(start..start + len, visit);
                    } else {
                        ix.for_each_in(start..start + len, visit);
                    }
                    acc
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, index, fixed, walk);
criterion_main!(benches);
