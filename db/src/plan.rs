//! The solving plan: which sub-databases, in which order, how large.
//!
//! In the moving phase a quiet move turns key M-O into O-M, so the two are solved together as
//! a pair; a capture leads into a pair with one stone fewer on one side, which must be solved
//! (and on disk) before. Placement keys come after, one step each, fewest stones in hand first. Every figure is computed from counts alone (Burnside's lemma and binomials), so the
//! plan costs nothing to print, even for keys nobody has solved yet.

use core::fmt::Write as _;
use std::collections::BTreeSet;

use morris_engine::Rules;

use crate::format::{file_name, Metric, HEADER_LEN};
use crate::index::slots;
use crate::key::Key;
use crate::symmetry::classes;

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
    /// The pairs that must be solved before, by their first key.
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
        let names: Vec<String> = self.keys.iter().map(|k| pair_label(*k)).collect();
        names.join(" + ")
    }
}

/// `M-O` for a moving-phase key (the pair is named by it), the whole key otherwise.
fn pair_label(k: Key) -> String {
    if k.is_moving_phase() {
        format!("{}-{}", k.us, k.them)
    } else {
        k.to_string()
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

fn file_bytes(rules: &Rules, key: Key) -> u64 {
    HEADER_LEN as u64 + slots(rules.board(), key)
}

/// Every moving-phase pair with 3 ..= `max_stones` stones a side, in an order where each pair
/// comes after the pairs it depends on (fewer stones in total first).
pub fn plan(rules: &Rules, max_stones: u8) -> Vec<PlanRow> {
    let board = rules.board();
    let mut pairs: Vec<(u8, u8)> = Vec::new();
    for m in MIN_STONES..=max_stones {
        for o in MIN_STONES..=m {
            if (m + o) as usize <= board.len() {
                pairs.push((m, o));
            }
        }
    }
    pairs.sort_by_key(|&(m, o)| (m + o, m));
    let pair_keys = |m: u8, o: u8| -> Vec<Key> {
        if m == o {
            vec![Key::moving(m, o)]
        } else {
            vec![Key::moving(m, o), Key::moving(o, m)]
        }
    };
    pairs
        .iter()
        .enumerate()
        .map(|(n, &(m, o))| {
            let keys = pair_keys(m, o);
            let slots: u64 = keys.iter().map(|&k| slots(board, k)).sum();
            let classes: u64 = keys.iter().map(|&k| classes(board, k)).sum();
            let disk_bytes: u64 = keys.iter().map(|&k| file_bytes(rules, k)).sum();
            let mut depends_on = Vec::new();
            for (dm, dn) in [(m - 1, o), (m, o - 1)] {
                let (a, b) = (dm.max(dn), dm.min(dn));
                if b >= MIN_STONES && !depends_on.contains(&Key::moving(a, b)) {
                    depends_on.push(Key::moving(a, b));
                }
            }
            let mapped: u64 = depends_on
                .iter()
                .flat_map(|d| pair_keys(d.us, d.them))
                .map(|k| file_bytes(rules, k))
                .sum();
            PlanRow {
                step: n + 1,
                files: keys
                    .iter()
                    .map(|&k| file_name(rules, Metric::Plain, k))
                    .collect(),
                keys,
                slots,
                classes,
                disk_bytes,
                memory_bytes: SOLVE_BYTES_PER_SLOT * slots + mapped,
                depends_on,
            }
        })
        .collect()
}

/// The placement-phase keys that can arise from the start under strict alternation (White
/// first), children before parents, restricted to keys whose stones (on board and in hand)
/// stay within `max_stones` a side: the consistent subset that the moving-phase keys up to
/// `max_stones` a side can support.
///
/// The keys are those [`child_keys`] reaches from the start: a search over stone counts alone,
/// so it keeps every key a game can reach (the board only forbids more), and drops keys that
/// a bound on each side's captures alone would keep. In Nine Men's Morris that bound kept 36
/// keys no game reaches, such as 2-2-1-1: both sides would have placed three stones and
/// captured once, but a capture needs a third stone on the board, and the first side to make
/// one leaves the other with too few to reply in kind.
pub fn placement_keys(rules: &Rules, max_stones: u8) -> Vec<Key> {
    let s = rules.stones;
    let mut reached = BTreeSet::new();
    let mut todo = vec![Key::new(0, 0, s, s)];
    while let Some(key) = todo.pop() {
        if key.is_moving_phase() || !reached.insert(key) {
            continue;
        }
        todo.extend(child_keys(rules, key));
    }
    let mut keys: Vec<Key> = reached
        .into_iter()
        .filter(|k| k.us + k.us_hand <= max_stones && k.them + k.them_hand <= max_stones)
        .collect();
    // Fewest stones in hand first: those keys are the children of the others. Where a player
    // may move instead of placing, a capture by a slide keeps the hands: then fewest stones on
    // the board first, and a key beside its colour swap (the two are solved together).
    keys.sort_by_key(|k| {
        let pair = (*k).min(k.swapped());
        (k.us_hand + k.them_hand, k.on_board(), pair, *k)
    });
    keys
}

/// The keys a placement key's moves lead into: the placement without capture, and with one
/// when placements capture, the placed stone can complete a mill (three stones of the mover on
/// the board) and the capture does not end the game. None when the board is full. Where a
/// player may move instead of placing (Lasker Morris), then the slide, which keeps the hands
/// and so leads into the colour swap of the key, and the slide that captures.
pub fn child_keys(rules: &Rules, key: Key) -> Vec<Key> {
    let full = key.on_board() as usize >= rules.board().len();
    let mut v = Vec::new();
    // Taking a stone needs three of the mover's on the board after the move and an enemy
    // stone on it, and must leave the enemy enough stones to play on.
    let captures = |mover_after: u8| {
        rules.line_captures()
            && mover_after >= 3
            && key.them > 0
            && (key.them - 1 + key.them_hand) as u32 >= rules.min_stones()
    };
    if key.us_hand > 0 && !full {
        v.push(Key::new(
            key.them,
            key.us + 1,
            key.them_hand,
            key.us_hand - 1,
        ));
        if rules.placement_captures() && captures(key.us + 1) {
            v.push(Key::new(
                key.them - 1,
                key.us + 1,
                key.them_hand,
                key.us_hand - 1,
            ));
        }
    }
    if rules.place_or_move() && key.us > 0 && !full {
        v.push(key.swapped());
        if captures(key.us) {
            v.push(Key::new(key.them - 1, key.us, key.them_hand, key.us_hand));
        }
    }
    v
}

/// The placement keys of [`placement_keys`] as plan rows, numbered after `first_step - 1`
/// moving-phase steps: each key is one step, reading the keys of [`child_keys`].
pub fn placement_plan(rules: &Rules, max_stones: u8, first_step: usize) -> Vec<PlanRow> {
    let board = rules.board();
    placement_keys(rules, max_stones)
        .into_iter()
        .enumerate()
        .map(|(n, key)| {
            // A key is solved with its colour swap where quiet moves join them (Lasker).
            let depends_on: Vec<Key> = child_keys(rules, key)
                .into_iter()
                .filter(|&k| k != key && k != key.swapped())
                .collect();
            let slots = slots(board, key);
            let read: u64 = depends_on.iter().map(|&k| file_bytes(rules, k)).sum();
            PlanRow {
                step: first_step + n,
                files: vec![file_name(rules, Metric::Plain, key)],
                keys: vec![key],
                slots,
                classes: classes(board, key),
                disk_bytes: file_bytes(rules, key),
                memory_bytes: PLACEMENT_BYTES_PER_SLOT * slots + read,
                depends_on,
            }
        })
        .collect()
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
        let deps: Vec<String> = r.depends_on.iter().map(|k| pair_label(*k)).collect();
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
            assert_eq!(child_keys(&rules, *k).len(), 1, "{k}");
        }
        assert_eq!(keys[0], Key::new(11, 12, 1, 0));
        assert_eq!(keys[23], Key::new(0, 0, 12, 12));
        assert_eq!(child_keys(&rules, keys[0]), vec![Key::moving(12, 12)]);
        // Endgames with fewer stones arise only by captures in the moving phase.
        assert!(placement_keys(&rules, 11).is_empty());
        let names: Vec<String> = plan(&rules, 4).iter().map(|r| r.name()).collect();
        assert_eq!(names, ["3-3", "4-3 + 3-4", "4-4"]);
    }
}
