use morris_db::{Index, Key};
use morris_engine::board::NINE;
use morris_engine::Bitboard;
use std::hint::black_box;
fn main() {
    let key: Key = std::env::args()
        .nth(1)
        .unwrap_or("9-9-0-0".into())
        .parse()
        .unwrap();
    let ix = Index::new(&NINE, key);
    let mut s = 0x12345678u64;
    let mut rnd = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let sub = |free: u32, k: u8, rnd: &mut dyn FnMut() -> u64| {
        let mut f = free;
        let mut out = 0;
        for _ in 0..k {
            let n = f.count_ones();
            let mut pick = (rnd() % n as u64) as u32;
            let mut r = f;
            while pick > 0 {
                r &= r - 1;
                pick -= 1;
            }
            let p = r & r.wrapping_neg();
            out |= p;
            f &= !p;
        }
        out
    };
    let pos: Vec<(Bitboard, Bitboard)> = (0..1 << 18)
        .map(|_| {
            let u = sub(0xffffff, key.us, &mut rnd);
            let t = sub(0xffffff & !u, key.them, &mut rnd);
            (Bitboard(u), Bitboard(t))
        })
        .collect();
    let s = std::fs::read_to_string("/proc/self/smaps_rollup").unwrap();
    for l in s.lines().filter(|l| l.contains("AnonHuge")) {
        println!("{l}");
    }
    let mut best = 0f64;
    let mut acc = 0u64;
    for _ in 0..40 {
        let t = std::time::Instant::now();
        for &(u, th) in &pos {
            acc = acc.wrapping_add(ix.index(black_box(u), black_box(th)));
        }
        let r = pos.len() as f64 / t.elapsed().as_secs_f64() / 1e6;
        if r > best {
            best = r;
        }
    }
    println!("index: best {best:.1} M/s ({acc})");
    let mut best = 0f64; let mut acc2 = 0u64;
    for _ in 0..40 {
        let t = std::time::Instant::now();
        for &(u, th) in &pos { acc2 = acc2.wrapping_add(ix.index_computed(black_box(u), black_box(th))); }
        let r = pos.len() as f64 / t.elapsed().as_secs_f64() / 1e6;
        if r > best { best = r; }
    }
    println!("computed: best {best:.1} M/s ({acc2}) {}", if acc2 == acc { "same" } else { "DIFFERENT" });
    let slots: Vec<u64> = (0..1 << 18).map(|_| rnd() % ix.size()).collect();
    let mut best = 0f64;
    let mut acc = 0u32;
    for _ in 0..40 {
        let t = std::time::Instant::now();
        for &i in &slots {
            let (u, th) = ix.unindex(black_box(i));
            acc ^= u.0 ^ th.0.rotate_left(7);
        }
        let r = slots.len() as f64 / t.elapsed().as_secs_f64() / 1e6;
        if r > best {
            best = r;
        }
    }
    println!("unindex: best {best:.1} M/s ({acc})");
}
#[allow(dead_code)]
fn unused() {}
