//! Counts of wins, draws and losses per key, one per symmetry class (holes skipped).

use crate::value::{value_of, Value};
use morris_db::{Index, Key};
use rayon::prelude::*;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyStats {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub max_win_plies: Option<u32>,
    pub max_loss_plies: Option<u32>,
}

impl KeyStats {
    pub fn add(&mut self, plies: Option<u32>) {
        match value_of(plies) {
            Value::Win => {
                self.wins += 1;
                self.max_win_plies = self.max_win_plies.max(plies);
            }
            Value::Draw => self.draws += 1,
            Value::Loss => {
                self.losses += 1;
                self.max_loss_plies = self.max_loss_plies.max(plies);
            }
        }
    }

    pub fn merge(mut self, o: KeyStats) -> KeyStats {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        self.max_win_plies = self.max_win_plies.max(o.max_win_plies);
        self.max_loss_plies = self.max_loss_plies.max(o.max_loss_plies);
        self
    }

    pub fn classes(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// Statistics of one key whose distance per slot is given by `plies`.
pub fn key_stats(index: &Index, plies: impl Fn(u64) -> Option<u32> + Sync) -> KeyStats {
    const CHUNK: u64 = 1 << 16;
    let n = index.size();
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut s = KeyStats::default();
            for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                if !index.is_hole(i) {
                    s.add(plies(i));
                }
            }
            s
        })
        .reduce(KeyStats::default, KeyStats::merge)
}

/// The key name and its statistics in the JSON form of `morris stats --json`.
pub fn json(key: Key, s: &KeyStats) -> String {
    let opt = |v: Option<u32>| v.map_or("null".to_string(), |p| p.to_string());
    format!(
        "{{\"key\": \"{key}\", \"wins\": {}, \"losses\": {}, \"draws\": {}, \"max_win_plies\": {}, \"max_loss_plies\": {}}}",
        s.wins,
        s.losses,
        s.draws,
        opt(s.max_win_plies),
        opt(s.max_loss_plies)
    )
}
