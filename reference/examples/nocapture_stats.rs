//! Solves the no-capture draw rule and prints the time taken and the wins, draws and losses
//! for the side to move at each counter.
//! Usage: cargo run --release -p morris-reference --example nocapture_stats --
//!   [game] [stones] [flying|noflying] [limit]   (defaults: nine 3 flying 6)
use morris_reference::{CounterSolution, Game, Value, Variant};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args
        .first()
        .map_or(Game::Nine, |s| Game::from_name(s).expect("game name"));
    let mut variant = Variant::standard(game);
    if let Some(stones) = args.get(1) {
        variant.stones = stones.parse().expect("stone count");
    }
    if args.iter().any(|a| a == "noflying") {
        variant.flying = false;
    }
    let limit: u32 = args.get(3).map_or(6, |s| s.parse().expect("limit"));
    let t = Instant::now();
    let sol = CounterSolution::solve(variant, limit);
    println!("{variant:?}, limit {limit}: solved in {:?}", t.elapsed());
    let mut counts = vec![[0u64; 3]; limit as usize];
    for (_, values) in sol.iter() {
        for (c, v) in values.iter().enumerate() {
            counts[c][match v {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            }] += 1;
        }
    }
    for (c, [w, d, l]) in counts.iter().enumerate() {
        println!("counter {c}: win {w}, draw {d}, loss {l}");
    }
}
