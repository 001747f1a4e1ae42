//! Solves the moving phase with up to N stones a side and prints per-layer statistics.
//! Usage: cargo run --release -p morris-reference --example solve_stats -- [N] [noflying] [verify]
use morris_reference::solve::MovingSolution;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u8 = args.get(1).map_or(3, |s| s.parse().expect("stone count"));
    let flying = !args.iter().any(|a| a == "noflying");
    let t = Instant::now();
    let sol = MovingSolution::solve(n, flying);
    println!(
        "solved 3..={n} stones, flying {flying}, in {:?}",
        t.elapsed()
    );
    for a in 3..=n {
        for b in 3..=n {
            let (w, d, l) = sol.counts(a, b);
            let total = (w + d + l) as f64;
            let longest = sol
                .positions(a, b)
                .map(|(us, them)| sol.get(us, them).unwrap().1)
                .max()
                .unwrap();
            println!(
                "{a}-{b}: {} positions, win {w} ({:.2}%), draw {d} ({:.2}%), loss {l} ({:.2}%), longest {longest}",
                w + d + l,
                100.0 * w as f64 / total,
                100.0 * d as f64 / total,
                100.0 * l as f64 / total
            );
        }
    }
    if let Ok(v) = sol.lookup("W:d7,g1,g7 B:a4,d5,g4 b 0 0") {
        println!("Gasser example: {v:?}");
    }
    if args.iter().any(|a| a == "verify") {
        let t = Instant::now();
        let result = sol.verify();
        println!("verify: {result:?} in {:?}", t.elapsed());
    }
}
