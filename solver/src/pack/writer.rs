//! Packing the tables of a key, and checking a packed set slot by slot against the tables it
//! was packed from.

use std::path::{Path, PathBuf};

use morris_db::format::{DbError, Decoder, Metric};
use morris_db::{Index, Key, Outcome, Value};
use morris_engine::Rules;
use morris_packed::{compress, packed_file_name, Block, Kind, Layout, PackWriter, PackedTable};
use rayon::prelude::*;

use super::fill::fill;
use crate::forward::evaluate_range;
use crate::forward::locate::Targets;
use morris_tablebase::packed::is_searched;
use morris_tablebase::packed::PackedSet;
use morris_tablebase::packed::Symbol;
use morris_tablebase::store::Store;
use morris_tablebase::Lookup;

/// How to pack.
#[derive(Clone, Debug)]
pub struct PackOptions {
    /// The kinds of sets to write (each key gets a file of each).
    pub kinds: Vec<Kind>,
    /// Slots per block of the value set. A probe decodes one block: five values a byte
    /// decode at about half the speed of a byte an outcome (fewer long matches for zstd to
    /// copy), so value blocks of 20,480 slots (4 KiB) cost about what outcome blocks of 8,192
    /// do.
    pub value_block_slots: u32,
    /// Slots per block of the outcome set.
    pub outcome_block_slots: u32,
    /// The zstd level (1 ..= 22).
    pub level: i32,
    /// Leave out the keys whose side to move has fewer stones ([`is_searched`]; the plain
    /// game only): [`pack_key`] refuses them, and every table written says so.
    pub weaker_searched: bool,
}

/// One file written.
#[derive(Clone, Debug)]
pub struct Packed {
    pub kind: Kind,
    pub path: PathBuf,
    pub bytes: u64,
}

/// Blocks compressed at once between writes: enough to keep every thread busy, few enough
/// that the frames waiting to be written stay small.
const GROUP: u64 = 256;

/// Packs the table of `key`, read from `src` (where it must be open), into `out` as one
/// file per kind, each finished before the next is begun (a failure keeps the kinds done; a
/// rerun packs the rest). Each kind reads the table in its own blocks: the two kinds' blocks
/// need not line up, and the outcomes' compression dominates (the 6-stone game: 15 s for
/// the values alone, read included; 45 s for both kinds).
pub fn pack_key(
    rules: &Rules,
    metric: Metric,
    key: Key,
    src: &Store,
    out: &Path,
    options: &PackOptions,
) -> Result<Vec<Packed>, DbError> {
    let (index, table) = src.table(key).ok_or_else(|| DbError::InvalidData {
        path: src.path(key),
        detail: format!("key {key} is not open for packing"),
    })?;
    let searched = options.weaker_searched;
    if searched && (metric != Metric::Plain || is_searched(key)) {
        return Err(DbError::InvalidData {
            path: out.to_path_buf(),
            detail: format!(
                "key {key} is not packed in a set that leaves out the weaker side \
                 (that set is for the plain game, without the keys whose side to move has \
                 fewer stones)"
            ),
        });
    }
    let level = options.level.clamp(1, 22);
    let n = index.size();
    let decoder = table.decoder();
    let mut written = Vec::new();
    for &kind in &options.kinds {
        let path = out.join(packed_file_name(rules, metric, key, kind));
        let per = match kind {
            Kind::Wdl => options.value_block_slots,
            Kind::Distance => options.outcome_block_slots,
        };
        let layout = Layout {
            block_slots: per,
            level: level as u8,
            weaker_searched: searched,
        };
        let mut writer = PackWriter::create(path, *rules, metric, key, kind, layout)?;
        let per = per as u64;
        let blocks = n.div_ceil(per);
        for group in (0..blocks).step_by(GROUP as usize) {
            let frames: Vec<Vec<u8>> = (group..(group + GROUP).min(blocks))
                .into_par_iter()
                .map(|b| {
                    let slots = read_block(&decoder, index, b * per..((b + 1) * per).min(n));
                    match kind {
                        Kind::Wdl => frame::<Value>(&slots, level),
                        Kind::Distance => frame::<Outcome>(&slots, level),
                    }
                })
                .collect();
            for frame in frames {
                writer.append(&frame)?;
            }
        }
        let path = writer.finish()?;
        let bytes = std::fs::metadata(&path)
            .map_err(|e| DbError::io(&path, "read the size of", e))?
            .len();
        written.push(Packed { kind, path, bytes });
    }
    Ok(written)
}

/// The outcomes of the slots of `range` (`None` for a hole), read from a table a run of
/// slots at a time: neither a position nor a lookup's call a slot.
fn read_block(
    decoder: &Decoder,
    index: &Index,
    range: core::ops::Range<u64>,
) -> Vec<Option<Outcome>> {
    let mut slots = vec![None; (range.end - range.start) as usize];
    index.for_each_class_run(range.clone(), |run| {
        let at = (run.start - range.start) as usize..(run.end - range.start) as usize;
        decoder.outcomes(run, &mut slots[at]);
    });
    slots
}

/// One block of one kind, its holes filled, compressed.
fn frame<T: Symbol>(slots: &[Option<Outcome>], level: i32) -> Vec<u8> {
    let symbols = fill(slots.iter().map(|s| s.map(T::of)), T::of(Outcome::Draw));
    compress(&T::encode(&symbols), level)
}

/// The result of checking a packed key of one kind.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    /// Positions (non-hole slots) compared.
    pub checked: u64,
    pub mismatches: u64,
    /// The first mismatch: slot, the unpacked table's value, the packed set's.
    pub first: Option<(u64, String, String)>,
}

impl Verified {
    fn count<T: PartialEq + std::fmt::Display>(&mut self, slot: u64, expected: T, got: T) {
        self.checked += 1;
        if got != expected {
            self.mismatches += 1;
            self.first
                .get_or_insert((slot, expected.to_string(), got.to_string()));
        }
    }

    fn join(self, other: Verified) -> Verified {
        Verified {
            checked: self.checked + other.checked,
            mismatches: self.mismatches + other.mismatches,
            first: self.first.or(other.first),
        }
    }
}

/// The packed sets to check: values, outcomes, or both.
#[derive(Copy, Clone)]
pub struct Sets<'a> {
    pub values: Option<&'a PackedSet<Value>>,
    pub outcomes: Option<&'a PackedSet<Outcome>>,
}

/// Every how many positions the check also goes through the packed reader in full (children
/// read from the packed set).
const FULL_READ_EVERY: u64 = 997;

/// Positions checked by one task.
const CHUNK: u64 = 1 << 16;

/// A packed table read in slot order, each block decoded once: the reader's cache serves
/// probes at random, and its look-up per slot took most of a scan's time.
struct Scan<'t> {
    table: &'t PackedTable,
    /// The block decoded last and its slots: a slot inside needs no division to find its
    /// block (a 64-bit division a slot was the scan's largest cost after the reads).
    block: Option<(core::ops::Range<u64>, Block)>,
}

impl<'t> Scan<'t> {
    fn new(table: &'t PackedTable) -> Scan<'t> {
        Scan { table, block: None }
    }

    #[inline]
    fn get<T: Symbol>(&mut self, slot: u64) -> Result<T, DbError> {
        if let Some((slots, block)) = &self.block {
            if slots.contains(&slot) {
                return Ok(T::in_block(block, (slot - slots.start) as usize));
            }
        }
        let (b, i) = self.table.block_of(slot);
        let block = self.table.decode_block(b)?;
        let (_, block) = self.block.insert((self.table.block_slots(b), block));
        Ok(T::in_block(block, i))
    }
}

/// How the positions of a key the sets leave out (answered by the reader's search) are
/// checked.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Searched {
    /// Every position, by the minimax of its children read from the unpacked tables (a batched
    /// forward evaluation, about the cost of `morris verify` on the key), and one position in
    /// [`FULL_READ_EVERY`] through the packed reader in full, its search included.
    Every,
    /// The positions through the packed reader in full alone. Sound only where `morris verify`
    /// has passed on the key's unpacked tables: it found every stored value equal to the
    /// minimax of the children's, and the children's keys are checked slot by slot, so the
    /// forward evaluation of [`Searched::Every`] would recompute what verify established.
    Sample,
}

/// Compares every position of `key` in the packed sets with the table they were packed from
/// (read through `src`): values for the value set, outcomes with distances for the other;
/// the reports in that order. A key the sets leave out is checked as `searched` says: with
/// [`Searched::Every`] through the reader's rule, the minimax of the children, computed once
/// for both kinds with its children read from `src` (where they must be open): the packed
/// reader reads them from the packed sets instead, which is the same once the keys they lie
/// in are checked (every key of a run is), and a sample of positions goes through the packed
/// readers in full, search included. So the check costs one batched forward evaluation, not
/// a block decode per child. A damaged block is an error, not a mismatch.
pub fn verify_key(
    rules: &Rules,
    key: Key,
    src: &dyn Lookup,
    sets: Sets,
    searched: Searched,
) -> Result<[Verified; 2], DbError> {
    fn table<T: Symbol>(
        set: Option<&PackedSet<T>>,
        key: Key,
    ) -> Result<Option<&PackedTable>, DbError> {
        match set {
            Some(set) if !set.searched(key)? => Ok(Some(set.open(key)?.1)),
            _ => Ok(None),
        }
    }
    /// What a set answers for a slot: its table's symbol, or without a table the search's;
    /// in full through the packed reader on the sample. `None` off the sample for a key
    /// without a table and without the forward evaluation's answer ([`Searched::Sample`]).
    fn read<T: Symbol>(
        set: &PackedSet<T>,
        table: &mut Option<Scan>,
        key: Key,
        slot: u64,
        searched: Option<Outcome>,
    ) -> Result<Option<T>, DbError> {
        let got = match (table, searched) {
            (Some(t), _) => Some(t.get(slot)?),
            (None, Some(o)) => Some(T::of(o)),
            (None, None) => None,
        };
        if slot.is_multiple_of(FULL_READ_EVERY) {
            let full = set.get_slot(key, slot)?;
            if got.is_none_or(|g| g != full) {
                return Ok(Some(full));
            }
        }
        Ok(got)
    }
    let tables = (table(sets.values, key)?, table(sets.outcomes, key)?);
    let left_out = (sets.values.is_some() && tables.0.is_none())
        || (sets.outcomes.is_some() && tables.1.is_none());
    let search_needed = left_out && searched == Searched::Every;
    // Every set asked leaves the key out and verify vouches for the minimax: only the sample
    // is read, and only its slots are walked.
    let sample_only = searched == Searched::Sample && tables.0.is_none() && tables.1.is_none();
    let index = Index::new(rules.board(), key);
    // The search's answers come from the batched forward evaluation of the placement pass
    // (children probed and their loads started a batch at a time, so that the loads overlap):
    // the same minimax rule as the reader's search. The reader's own search runs on the
    // sample.
    let targets = if search_needed {
        Targets::new(rules, key, src)
    } else {
        Targets::default()
    };
    // The table's values, decoded from the entries where the lookup lends them, as it reads
    // them: a call of the lookup to locate a slot and one to read it were a third of the
    // check's instructions. An overflow mark, and a lookup that lends nothing, go through the
    // lookup.
    let entries = src.entries_of(key);
    let expected = |slot: u64| {
        entries
            .and_then(|e| e.outcome(slot))
            .unwrap_or_else(|| src.read(src.probe_slot(key, slot)))
    };
    let parts: Vec<[Verified; 2]> = (0..index.size().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut v: [Verified; 2] = Default::default();
            let range = c * CHUNK..((c + 1) * CHUNK).min(index.size());
            let mut searched: Vec<Option<Outcome>> = Vec::new();
            if search_needed {
                searched.resize((range.end - range.start) as usize, None);
                evaluate_range(rules, &index, range.clone(), src, &targets, |slot, _, o| {
                    searched[(slot - range.start) as usize] = Some(o);
                });
            }
            let mut scans = (tables.0.map(Scan::new), tables.1.map(Scan::new));
            let mut check = |slot: u64| -> Result<(), DbError> {
                let expected = expected(slot);
                let searched = searched
                    .get((slot - range.start) as usize)
                    .copied()
                    .flatten();
                if let Some(set) = sets.values {
                    if let Some(got) = read::<Value>(set, &mut scans.0, key, slot, searched)? {
                        v[0].count(slot, expected.value(), got);
                    }
                }
                if let Some(set) = sets.outcomes {
                    if let Some(got) = read::<Outcome>(set, &mut scans.1, key, slot, searched)? {
                        v[1].count(slot, expected, got);
                    }
                }
                Ok(())
            };
            if sample_only {
                let first = range.start.next_multiple_of(FULL_READ_EVERY);
                for slot in (first..range.end).step_by(FULL_READ_EVERY as usize) {
                    if !index.is_hole(slot) {
                        check(slot)?;
                    }
                }
                return Ok(v);
            }
            let mut error = None;
            index.for_each_class_in(range.clone(), |slot, _, _| {
                if error.is_none() {
                    error = check(slot).err();
                }
            });
            error.map_or(Ok(v), Err)
        })
        .collect::<Result<_, DbError>>()?;
    Ok(parts
        .into_iter()
        .fold(Default::default(), |[a0, a1], [b0, b1]| {
            [a0.join(b0), a1.join(b1)]
        }))
}
