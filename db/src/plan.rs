//! The solving plan: which sub-databases, in which order, how large.
//!
//! In the moving phase a quiet move turns key M-O into O-M, so the two are solved together as
//! a pair; a capture leads into a pair with one stone fewer on one side, which must be solved
//! (and on disk) before. Placement keys come after, one step each, fewest stones in hand first.
//! Which units there are and what each reads is the [`KeyGraph`]'s; the rows are its figures.
//! Every figure is computed from counts alone (Burnside's lemma and binomials), so the
//! plan costs nothing to print, even for keys nobody has solved yet.

mod graph;

use core::fmt::Write as _;

use morris_engine::Rules;

use crate::format::{file_name, Metric, HEADER_LEN};
use crate::index::slots;
use crate::key::Key;
use crate::symmetry::classes;

pub use graph::{children, label, placement_keys, Edge, KeyGraph, Unit, UnitKind, Via};

/// Bytes of solver memory per slot of the pair being solved: a 4-byte working cell (value and
/// counter), and 2 bytes of output per slot while one key is converted for writing.
pub const SOLVE_BYTES_PER_SLOT: u64 = 5;

/// Bytes of solver memory per slot of a placement key: its 2-byte codes, twice while the
/// chunks are joined. The keys it reads are copied into memory as well (counted apart).
pub const PLACEMENT_BYTES_PER_SLOT: u64 = 4;

/// Fewer stones than this and the side has lost; no database needed.
pub const MIN_STONES: u8 = 3;

/// One pair of colour-swapped keys (one key when both sides have as many stones).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRow {
    /// 1-based position in the solving order.
    pub step: usize,
    /// M-O first with M >= O, then O-M when it differs.
    pub keys: Vec<Key>,
    pub slots: u64,
    /// Exact number of position classes (non-hole slots).
    pub classes: u64,
    /// The files of the pair: header plus one byte per slot (overflow entries not counted).
    pub disk_bytes: u64,
    /// Solver memory of the pair plus the files of the pairs its captures lead into, which are
    /// memory-mapped while it is solved.
    pub memory_bytes: u64,
    /// What the row reads, as `morris plan` prints it: for a moving-phase pair the pairs its
    /// captures lead into, each named by its first key; for a placement key the keys its moves
    /// lead into. (The typed graph is [`KeyGraph`]; this is its printed view.)
    pub depends_on: Vec<Key>,
    /// File names of the keys, in the order of `keys`.
    pub files: Vec<String>,
}

impl PlanRow {
    /// How many more slots than classes, in percent of the classes.
    pub fn overhead_percent(&self) -> f64 {
        overhead(self.slots, self.classes)
    }

    /// `M-O + O-M`, or `M-M`.
    pub fn name(&self) -> String {
        let names: Vec<String> = self.keys.iter().map(|k| label(*k)).collect();
        names.join(" + ")
    }
}

fn overhead(slots: u64, classes: u64) -> f64 {
    if classes == 0 {
        0.0
    } else {
        (slots as f64 / classes as f64 - 1.0) * 100.0
    }
}

/// Sums over a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanTotals {
    pub pairs: usize,
    pub keys: usize,
    pub slots: u64,
    pub classes: u64,
    pub disk_bytes: u64,
    /// The largest memory need of any single step.
    pub peak_memory_bytes: u64,
}

impl PlanTotals {
    pub fn overhead_percent(&self) -> f64 {
        overhead(self.slots, self.classes)
    }
}

/// The size of the plain table of `key`: header plus one byte per slot (overflow aside).
pub fn file_bytes(rules: &Rules, key: Key) -> u64 {
    HEADER_LEN as u64 + slots(rules.board(), key)
}

/// The moving-phase pairs of the solve up to `max_stones` a side as plan rows, in the order of
/// the [`KeyGraph`].
pub fn plan(rules: &Rules, max_stones: u8) -> Vec<PlanRow> {
    KeyGraph::new(rules, max_stones).moving_rows()
}

impl KeyGraph {
    /// The moving-phase units as plan rows: each pair is one step, reading the pairs its
    /// captures lead into.
    pub fn moving_rows(&self) -> Vec<PlanRow> {
        let rules = self.rules();
        self.moving()
            .iter()
            .enumerate()
            .map(|(n, unit)| {
                let read = unit.reads.iter().map(|&r| &self.units()[r]);
                let mapped: u64 = read
                    .clone()
                    .flat_map(|u| u.keys())
                    .map(|k| file_bytes(rules, k))
                    .sum();
                let mut row = row(rules, n + 1, &unit.keys(), SOLVE_BYTES_PER_SLOT, mapped);
                row.depends_on = read.map(Unit::first_key).collect();
                row
            })
            .collect()
    }

    /// The placement keys as plan rows, numbered after `first_step - 1` moving-phase steps:
    /// one per key (also where a key is solved with its colour swap), reading the keys its
    /// moves lead into.
    pub fn placement_rows(&self, first_step: usize) -> Vec<PlanRow> {
        let rules = self.rules();
        self.placement()
            .iter()
            .flat_map(|unit| {
                unit.keys().into_iter().map(move |key| {
                    let depends_on: Vec<Key> = unit
                        .edges
                        .iter()
                        .filter(|e| e.from == key)
                        .map(|e| e.to)
                        .collect();
                    let read: u64 = depends_on.iter().map(|&k| file_bytes(rules, k)).sum();
                    (key, depends_on, read)
                })
            })
            .enumerate()
            .map(|(n, (key, depends_on, read))| {
                let mut row = row(
                    rules,
                    first_step + n,
                    &[key],
                    PLACEMENT_BYTES_PER_SLOT,
                    read,
                );
                row.depends_on = depends_on;
                row
            })
            .collect()
    }
}

/// The row of `keys` without its dependencies: sizes, and the solver's memory at
/// `bytes_per_slot` plus the `read` bytes of the tables it reads.
fn row(rules: &Rules, step: usize, keys: &[Key], bytes_per_slot: u64, read: u64) -> PlanRow {
    let board = rules.board();
    let slots: u64 = keys.iter().map(|&k| slots(board, k)).sum();
    PlanRow {
        step,
        keys: keys.to_vec(),
        slots,
        classes: keys.iter().map(|&k| classes(board, k)).sum(),
        disk_bytes: keys.iter().map(|&k| file_bytes(rules, k)).sum(),
        memory_bytes: bytes_per_slot * slots + read,
        depends_on: Vec::new(),
        files: keys
            .iter()
            .map(|&k| file_name(rules, Metric::Plain, k))
            .collect(),
    }
}

pub fn totals(rows: &[PlanRow]) -> PlanTotals {
    PlanTotals {
        pairs: rows.len(),
        keys: rows.iter().map(|r| r.keys.len()).sum(),
        slots: rows.iter().map(|r| r.slots).sum(),
        classes: rows.iter().map(|r| r.classes).sum(),
        disk_bytes: rows.iter().map(|r| r.disk_bytes).sum(),
        peak_memory_bytes: rows.iter().map(|r| r.memory_bytes).max().unwrap_or(0),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let first = match digits.len() % 3 {
        0 => 3,
        r => r,
    };
    let mut out = digits[..first].to_string();
    let mut rest = &digits[first..];
    while !rest.is_empty() {
        out.push(',');
        out.push_str(&rest[..3]);
        rest = &rest[3..];
    }
    out
}

/// Bytes in binary units with three significant figures or so: `512 B`, `4.00 MiB`, `8.61 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// The plan as a text table with a totals line.
pub fn render(rows: &[PlanRow]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>4}  {:<9}  {:>15}  {:>15}  {:>8}  {:>11}  {:>11}  depends on",
        "step", "pair", "slots", "classes", "overhead", "disk", "memory"
    );
    for r in rows {
        let deps: Vec<String> = r.depends_on.iter().map(|k| label(*k)).collect();
        let _ = writeln!(
            out,
            "{:>4}  {:<9}  {:>15}  {:>15}  {:>7.2}%  {:>11}  {:>11}  {}",
            r.step,
            r.name(),
            thousands(r.slots),
            thousands(r.classes),
            r.overhead_percent(),
            bytes(r.disk_bytes),
            bytes(r.memory_bytes),
            if deps.is_empty() {
                "-".to_string()
            } else {
                deps.join(", ")
            }
        );
    }
    let t = totals(rows);
    let _ = writeln!(
        out,
        "{:>4}  {:<9}  {:>15}  {:>15}  {:>7.2}%  {:>11}  {:>11}  (peak memory of one step)",
        "",
        format!("{} keys", t.keys),
        thousands(t.slots),
        thousands(t.classes),
        t.overhead_percent(),
        bytes(t.disk_bytes),
        bytes(t.peak_memory_bytes),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(8_904_593_601), "8,904,593,601");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(4 << 20), "4.00 MiB");
    }

    #[test]
    fn dependency_order() {
        let rows = plan(&Rules::nine(), 9);
        assert_eq!(rows.len(), 28);
        assert_eq!(rows[0].name(), "3-3");
        assert!(rows[0].depends_on.is_empty());
        assert_eq!(rows[1].name(), "4-3 + 3-4");
        let done: Vec<Key> = rows.iter().map(|r| r.keys[0]).collect();
        for (i, r) in rows.iter().enumerate() {
            for d in &r.depends_on {
                let at = done
                    .iter()
                    .position(|k| k == d)
                    .expect("dependency in plan");
                assert!(at < i, "{} before its dependency {d}", r.name());
            }
        }
        let last = rows.last().unwrap();
        assert_eq!(last.name(), "9-9");
        assert_eq!(last.depends_on, vec![Key::moving(9, 8)]);
        assert_eq!(last.files, vec!["nine-9-9-0-0.mdb".to_string()]);
    }

    /// Dara's placements never capture: from the start there is one placement key per number of
    /// stones placed, every stone still on the board or in hand, each leading into the next.
    #[test]
    fn dara_placement_keys_follow_one_line() {
        let rules = Rules::standard(morris_engine::Game::Dara);
        let keys = placement_keys(&rules, 12);
        assert_eq!(keys.len(), 24);
        for k in &keys {
            assert_eq!((k.us + k.us_hand, k.them + k.them_hand), (12, 12), "{k}");
            assert_eq!(children(&rules, *k).len(), 1, "{k}");
        }
        assert_eq!(keys[0], Key::new(11, 12, 1, 0));
        assert_eq!(keys[23], Key::new(0, 0, 12, 12));
        let to: Vec<(Via, Key)> = children(&rules, keys[0])
            .iter()
            .map(|e| (e.via, e.to))
            .collect();
        assert_eq!(to, [(Via::Place, Key::moving(12, 12))]);
        // Endgames with fewer stones arise only by captures in the moving phase.
        assert!(placement_keys(&rules, 11).is_empty());
        let names: Vec<String> = plan(&rules, 4).iter().map(|r| r.name()).collect();
        assert_eq!(names, ["3-3", "4-3 + 3-4", "4-4"]);
    }
}
