//! Counts of wins, draws and losses per key, one per symmetry class (holes skipped).

use morris_db::Category;
use morris_db::Index;
use morris_db::Outcome;
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
    pub fn add(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Win(d) => {
                self.wins += 1;
                self.max_win_plies = self.max_win_plies.max(Some(d));
            }
            Outcome::Draw => self.draws += 1,
            Outcome::Loss(d) => {
                self.losses += 1;
                self.max_loss_plies = self.max_loss_plies.max(Some(d));
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

/// A key under the no-capture rule at counter 0: its five categories and the longest
/// distance to zeroing of a win or loss that the rule keeps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    /// By [`Category`], in its order: wins, cursed wins, draws, blessed losses, losses.
    pub categories: [u64; 5],
    pub max_dtz: Option<u32>,
}

impl RuleStats {
    pub fn add(&mut self, plain: Outcome, rule: Outcome, limit: u16) {
        let kept = rule.within(limit as u32);
        self.categories[Category::of(plain, kept) as usize] += 1;
        self.max_dtz = self.max_dtz.max(kept.plies());
    }

    pub fn merge(mut self, o: RuleStats) -> RuleStats {
        for (a, b) in self.categories.iter_mut().zip(o.categories) {
            *a += b;
        }
        self.max_dtz = self.max_dtz.max(o.max_dtz);
        self
    }

    pub fn count(&self, c: Category) -> u64 {
        self.categories[c as usize]
    }
}

/// Folds every class of a key (holes skipped) into a statistic, in parallel.
fn fold_classes<S: Default + Send>(
    index: &Index,
    add: impl Fn(&mut S, u64) + Sync,
    merge: impl Fn(S, S) -> S + Sync + Send,
) -> S {
    const CHUNK: u64 = 1 << 16;
    let n = index.size();
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut s = S::default();
            // The ordered walk tells holes apart with no division per slot.
            index.for_each_class_in(c * CHUNK..(c + 1) * CHUNK, |i, _, _| add(&mut s, i));
            s
        })
        .reduce(S::default, merge)
}

/// Statistics of one key whose outcome per slot is given by `outcome`.
pub fn key_stats(index: &Index, outcome: impl Fn(u64) -> Outcome + Sync) -> KeyStats {
    fold_classes(
        index,
        |s: &mut KeyStats, i| s.add(outcome(i)),
        KeyStats::merge,
    )
}

/// Statistics of one key under the no-capture rule with limit `limit`, from the plain and
/// the rule's outcome per slot.
pub fn rule_key_stats(
    index: &Index,
    limit: u16,
    plain: impl Fn(u64) -> Outcome + Sync,
    rule: impl Fn(u64) -> Outcome + Sync,
) -> RuleStats {
    fold_classes(
        index,
        |s: &mut RuleStats, i| s.add(plain(i), rule(i), limit),
        RuleStats::merge,
    )
}
