//! What a key's table holds, counted once per symmetry class (holes skipped): wins, draws and
//! losses, how many at each distance, the longest of each, and under the no-capture rule the
//! five categories at counter 0. One count serves the solve's report, `morris stats` and the
//! server's statistics page.

use morris_db::{Category, Index, Outcome};
use rayon::prelude::*;

/// One key's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyStats {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Classes won in `d` plies at index `d`.
    pub win_plies: Vec<u64>,
    /// Classes lost in `d` plies at index `d`.
    pub loss_plies: Vec<u64>,
    /// The longest win and loss, at the lowest slot of that length: which slot does not
    /// depend on how the work was split.
    pub longest_win: Option<Longest>,
    pub longest_loss: Option<Longest>,
    /// Under the no-capture rule, at counter 0.
    pub rule: Option<RuleStats>,
}

/// The longest distance of a key's wins or losses, and the first slot at it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Longest {
    pub plies: u32,
    pub slot: u64,
}

/// A key under the no-capture rule with limit `limit`, at counter 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuleStats {
    pub limit: u16,
    /// By [`Category`], in its order: wins, cursed wins, draws, blessed losses, losses.
    pub categories: [u64; 5],
    /// The wins and losses the rule keeps, by distance to zeroing.
    pub dtz: Vec<u64>,
}

impl KeyStats {
    pub fn classes(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn max_win_plies(&self) -> Option<u32> {
        self.longest_win.map(|l| l.plies)
    }

    pub fn max_loss_plies(&self) -> Option<u32> {
        self.longest_loss.map(|l| l.plies)
    }

    /// The counts of two disjoint sets of slots together.
    pub fn merge(mut self, o: KeyStats) -> KeyStats {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
        add_counts(&mut self.win_plies, &o.win_plies);
        add_counts(&mut self.loss_plies, &o.loss_plies);
        self.longest_win = o.longest_win.into_iter().fold(self.longest_win, longer);
        self.longest_loss = o.longest_loss.into_iter().fold(self.longest_loss, longer);
        self.rule = match (self.rule, o.rule) {
            (Some(a), Some(b)) => Some(a.merge(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

impl RuleStats {
    fn add(&mut self, plain: Outcome, rule: Outcome) {
        let kept = rule.within(self.limit as u32);
        self.categories[Category::of(plain.value(), kept.value()) as usize] += 1;
        if let Some(d) = kept.plies() {
            bump(&mut self.dtz, d);
        }
    }

    fn merge(mut self, o: RuleStats) -> RuleStats {
        for (a, b) in self.categories.iter_mut().zip(o.categories) {
            *a += b;
        }
        add_counts(&mut self.dtz, &o.dtz);
        self
    }

    pub fn count(&self, c: Category) -> u64 {
        self.categories[c as usize]
    }

    /// The longest distance to zeroing of a win or loss the rule keeps.
    pub fn max_dtz(&self) -> Option<u32> {
        self.dtz.len().checked_sub(1).map(|d| d as u32)
    }
}

fn bump(counts: &mut Vec<u64>, d: u32) {
    let d = d as usize;
    if counts.len() <= d {
        counts.resize(d + 1, 0);
    }
    counts[d] += 1;
}

/// Adds counts by distance `b` into `a`.
pub fn add_counts(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

/// The longer of two, the lower slot of equals.
fn longer(a: Option<Longest>, b: Longest) -> Option<Longest> {
    Some(match a {
        Some(a) if (a.plies, std::cmp::Reverse(a.slot)) >= (b.plies, std::cmp::Reverse(b.slot)) => {
            a
        }
        _ => b,
    })
}

/// The counts of one key whose outcome per slot has the [`Outcome::code`] `code(slot)`: the
/// code, not the outcome, so that a solve's codes in memory are counted without a branch on
/// each value.
pub fn key_stats(index: &Index, code: impl Fn(u64) -> u16 + Sync) -> KeyStats {
    fold_classes(index, None, |t, i| t.add(i, code(i)))
}

/// The counts of one key under the no-capture rule with limit `limit`, from the plain and
/// the rule's outcome per slot.
pub fn rule_key_stats(
    index: &Index,
    limit: u16,
    plain: impl Fn(u64) -> Outcome + Sync,
    rule: impl Fn(u64) -> Outcome + Sync,
) -> KeyStats {
    fold_classes(index, Some(limit), |t, i| {
        let p = plain(i);
        t.add(i, p.code());
        if let Some(r) = &mut t.rule {
            r.add(p, rule(i));
        }
    })
}

/// Folds every class of a key (holes skipped), in parallel, a chunk of slots to a [`Tally`].
fn fold_classes(
    index: &Index,
    limit: Option<u16>,
    add: impl Fn(&mut Tally, u64) + Sync,
) -> KeyStats {
    const CHUNK: u64 = 1 << 16;
    let empty = || KeyStats {
        rule: limit.map(|limit| RuleStats {
            limit,
            ..RuleStats::default()
        }),
        ..KeyStats::default()
    };
    let n = index.size();
    (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut t = Tally::new(limit);
            index.for_each_class_run(c * CHUNK..(c + 1) * CHUNK, |run| {
                for i in run {
                    add(&mut t, i);
                }
            });
            t.into_stats()
        })
        .reduce(empty, KeyStats::merge)
}

/// One chunk's counts as they are taken. Every solve counts every key it writes, so a class
/// must cost little and take no branch on its value, which is as good as random from one class
/// to the next: it is one increment in an array by its outcome's code (below
/// [`Tally::NEAR`], which holds every distance a table of a byte a slot has), and a side's
/// longest, the highest code of its parity, is replaced only by a higher one, since a chunk's
/// slots come in increasing order. Counted straight into [`KeyStats`] (growable lists, a
/// branch on the value and a two-way comparison per class), a key took five times as long as
/// the walk over its classes alone.
struct Tally {
    /// Classes by [`Outcome::code`]: 0 a draw, odd a loss, even a win.
    near: [u64; Tally::NEAR],
    /// By code, from [`Tally::NEAR`] on.
    far: Vec<u64>,
    /// The highest even and odd code met (0: none), and its first slot.
    top: [(usize, u64); 2],
    rule: Option<RuleStats>,
}

impl Tally {
    const NEAR: usize = 512;

    fn new(limit: Option<u16>) -> Tally {
        Tally {
            near: [0; Tally::NEAR],
            far: Vec::new(),
            top: [(0, 0); 2],
            // The rule's distances to zeroing never exceed its limit.
            rule: limit.map(|limit| RuleStats {
                limit,
                dtz: vec![0; limit as usize + 1],
                ..RuleStats::default()
            }),
        }
    }

    #[inline(always)]
    fn add(&mut self, slot: u64, code: u16) {
        let code = code as usize;
        match self.near.get_mut(code) {
            Some(n) => *n += 1,
            None => bump(&mut self.far, code as u32),
        }
        let top = &mut self.top[code & 1];
        if code > top.0 {
            *top = (code, slot);
        }
    }

    fn into_stats(self) -> KeyStats {
        let mut codes = self.near.to_vec();
        add_counts(&mut codes, &self.far);
        // Code 2d + 2 is a win in d plies, 2d + 1 a loss.
        let win_plies = trimmed(codes.iter().skip(2).step_by(2).copied().collect());
        let loss_plies = trimmed(codes.iter().skip(1).step_by(2).copied().collect());
        let longest = |(code, slot): (usize, u64)| {
            (code > 0).then(|| Longest {
                plies: Outcome::from_code(code as u16)
                    .plies()
                    .expect("a win or a loss"),
                slot,
            })
        };
        KeyStats {
            wins: win_plies.iter().sum(),
            draws: codes[0],
            losses: loss_plies.iter().sum(),
            win_plies,
            loss_plies,
            longest_win: longest(self.top[0]),
            longest_loss: longest(self.top[1]),
            rule: self.rule.map(|r| RuleStats {
                dtz: trimmed(r.dtz),
                ..r
            }),
        }
    }
}

/// `counts` without the zeros at its end: its length is one more than the longest distance.
fn trimmed(mut counts: Vec<u64>) -> Vec<u64> {
    let len = counts.iter().rposition(|&n| n != 0).map_or(0, |d| d + 1);
    counts.truncate(len);
    counts
}
