//! Solves the moving phase up to N stones a side in memory and prints each phase's time:
//! `cargo run --release -p morris-solver --example profile_pairs -- 5`.

use morris_engine::Rules;
use morris_solver::memory::Solution;
use morris_solver::progress::Progress;
use std::sync::Mutex;
use std::time::Instant;

struct Log(Mutex<Option<(String, u64, Instant)>>);

impl Log {
    fn flush(&self) {
        if let Some((phase, total, t)) = self.0.lock().unwrap().take() {
            let s = t.elapsed().as_secs_f64();
            if s > 0.05 {
                eprintln!(
                    "{phase:>12} {total:>12} slots {s:>8.3} s {:>8.2} M/s",
                    total as f64 / s / 1e6
                );
            }
        }
    }
}

impl Progress for Log {
    fn start(&self, phase: &str, total: u64) {
        self.flush();
        *self.0.lock().unwrap() = Some((phase.to_string(), total, Instant::now()));
    }
    fn advance(&self, _: u64) {}
}

fn main() {
    let max: u8 = std::env::args()
        .nth(1)
        .map_or(5, |s| s.parse().expect("a number"));
    let log = Log(Mutex::new(None));
    let t = Instant::now();
    let _ = Solution::solve_moving(&Rules::nine(), max, &log);
    log.flush();
    eprintln!("total {:.2} s", t.elapsed().as_secs_f64());
}
