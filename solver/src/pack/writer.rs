//! Packing the tables of a key, and checking a packed set slot by slot against the tables it
//! was packed from.

use std::convert::Infallible;
use std::path::{Path, PathBuf};

use morris_db::format::{DbError, Metric};
use morris_db::{Index, Key, Outcome, Value};
use morris_engine::{Color, Position, Rules};
use morris_packed::{compress, packed_file_name, Kind, Layout, PackWriter};
use rayon::prelude::*;

use super::captures::{best_capture, Symbol};
use super::fill::{fill, Freedom};
use super::reader::PackedSet;
use crate::Lookup;

/// How to pack.
#[derive(Clone, Debug)]
pub struct PackOptions {
    /// The kinds of sets to write (each key gets a file of each).
    pub kinds: Vec<Kind>,
    pub block_slots: u32,
    /// The zstd level (1 ..= 22).
    pub level: i32,
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

/// Packs the table of `key`, read through `src` (the key and the keys its captures lead
/// into must be open there), into `out` as one file per kind. Don't-care slots are decided
/// here: holes everywhere, captures in the plain game (under the no-capture rule a capture's
/// value depends on the counter, so slots keep their own values there).
pub fn pack_key(
    rules: &Rules,
    metric: Metric,
    key: Key,
    src: &dyn Lookup,
    out: &Path,
    options: &PackOptions,
) -> Result<Vec<Packed>, DbError> {
    let index = Index::new(rules.board(), key);
    let resolve = metric == Metric::Plain;
    let level = options.level.clamp(1, 22);
    let mut writers = options
        .kinds
        .iter()
        .map(|&kind| {
            let path = out.join(packed_file_name(rules, metric, key, kind));
            let layout = Layout {
                block_slots: options.block_slots,
                level: level as u8,
                captures_resolved: resolve,
            };
            PackWriter::create(path, *rules, metric, key, kind, layout).map(|w| (kind, w))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let n = index.size();
    let per = options.block_slots as u64;
    let blocks = n.div_ceil(per);
    for group in (0..blocks).step_by(GROUP as usize) {
        let frames: Vec<Vec<Vec<u8>>> = (group..(group + GROUP).min(blocks))
            .into_par_iter()
            .map(|b| {
                let slots = read_block(
                    rules,
                    key,
                    &index,
                    src,
                    b * per..((b + 1) * per).min(n),
                    resolve,
                );
                options
                    .kinds
                    .iter()
                    .map(|kind| match kind {
                        Kind::Wdl => frame::<Value>(&slots, level),
                        Kind::Distance => frame::<Outcome>(&slots, level),
                    })
                    .collect()
            })
            .collect();
        for block in frames {
            for ((_, w), frame) in writers.iter_mut().zip(block) {
                w.append(&frame)?;
            }
        }
    }
    writers
        .into_iter()
        .map(|(kind, w)| {
            let path = w.finish()?;
            let bytes = std::fs::metadata(&path)
                .map_err(|e| DbError::io(&path, "read the size of", e))?
                .len();
            Ok(Packed { kind, path, bytes })
        })
        .collect()
}

/// What the packer knows of a slot.
struct Slot {
    hole: bool,
    value: Outcome,
    /// The mover's best capture, where captures resolve don't-cares.
    capture: Option<Outcome>,
}

impl Slot {
    const HOLE: Slot = Slot {
        hole: true,
        value: Outcome::Draw,
        capture: None,
    };
}

/// What the packer knows of the slots of `range`, positions visited in index order (one
/// unrank per pattern class, not one per slot).
fn read_block(
    rules: &Rules,
    key: Key,
    index: &Index,
    src: &dyn Lookup,
    range: core::ops::Range<u64>,
    resolve: bool,
) -> Vec<Slot> {
    let mut slots: Vec<Slot> = range.clone().map(|_| Slot::HOLE).collect();
    let hands = [key.us_hand, key.them_hand];
    index.for_each_class_in(range.clone(), |slot, us, them| {
        let value = src.read(src.probe_slot(key, slot));
        let capture = if resolve {
            let pos = Position::from_sides(us, them, hands, Color::White);
            let best = best_capture::<Outcome, Infallible>(&pos, rules, |c| Ok(src.outcome(c)));
            best.unwrap_or_else(|never| match never {})
        } else {
            None
        };
        slots[(slot - range.start) as usize] = Slot {
            hole: false,
            value,
            capture,
        };
    });
    slots
}

/// One block of one kind, its don't-cares filled, compressed.
fn frame<T: Symbol>(slots: &[Slot], level: i32) -> Vec<u8> {
    let freedoms = slots
        .iter()
        .map(|s| Freedom::of(s.hole, T::of(s.value), s.capture.map(T::of)));
    let symbols = fill(freedoms, T::of(Outcome::Draw));
    let (mut bytes, mut tail) = (Vec::with_capacity(symbols.len()), Vec::new());
    for s in symbols {
        s.encode(&mut bytes, &mut tail);
    }
    bytes.extend_from_slice(&tail);
    compress(&bytes, level)
}

/// The result of checking a packed key.
#[derive(Clone, Debug, Default)]
pub struct Verified {
    /// Positions (non-hole slots) compared.
    pub checked: u64,
    pub mismatches: u64,
    /// The first mismatch: slot, the unpacked table's value, the packed set's.
    pub first: Option<(u64, String, String)>,
}

/// Every how many positions the check also goes through the packed reader's own resolution
/// (children read from the packed set).
const FULL_READ_EVERY: u64 = 997;

/// Compares every position of `key` in the packed set with the table it was packed from
/// (read through `src`): values for the value kind, outcomes with distances for the other.
/// A don't-care is resolved with its captures read from `src`: the packed reader reads them
/// from the packed set instead, which is the same once the keys they lie in are checked (every
/// key of a run is), and a sample of positions goes through the packed reader in full. So the
/// check costs what packing costs, not a block decode per capture. A damaged block is an
/// error, not a mismatch.
pub fn verify_key<T: Symbol + std::fmt::Display>(
    rules: &Rules,
    key: Key,
    src: &dyn Lookup,
    packed: &PackedSet<T>,
) -> Result<Verified, DbError> {
    let (_, table) = packed.open(key)?;
    let resolved = table.header().captures_resolved;
    let index = Index::new(rules.board(), key);
    let hands = [key.us_hand, key.them_hand];
    let parts: Vec<Verified> = (0..table.blocks())
        .into_par_iter()
        .map(|b| {
            let mut v = Verified::default();
            let mut error = None;
            index.for_each_class_in(table.block_slots(b), |slot, us, them| {
                if error.is_some() {
                    return;
                }
                v.checked += 1;
                let expected = T::of(src.read(src.probe_slot(key, slot)));
                let read = T::read(table, slot).and_then(|stored| {
                    let got = if resolved && stored != T::BEST {
                        let pos = Position::from_sides(us, them, hands, Color::White);
                        let c = best_capture::<T, Infallible>(&pos, rules, |c| {
                            Ok(T::of(src.outcome(c)))
                        })
                        .unwrap_or_else(|never| match never {});
                        c.map_or(stored, |c| c.min(stored))
                    } else {
                        stored
                    };
                    if slot % FULL_READ_EVERY == 0 {
                        let full = packed.get_slot(key, slot)?;
                        if full != got {
                            return Ok(full);
                        }
                    }
                    Ok(got)
                });
                match read {
                    Ok(got) if got == expected => {}
                    Ok(got) => {
                        v.mismatches += 1;
                        v.first
                            .get_or_insert((slot, expected.to_string(), got.to_string()));
                    }
                    Err(e) => error = Some(e),
                }
            });
            error.map_or(Ok(v), Err)
        })
        .collect::<Result<_, DbError>>()?;
    Ok(parts
        .into_iter()
        .fold(Verified::default(), |a, b| Verified {
            checked: a.checked + b.checked,
            mismatches: a.mismatches + b.mismatches,
            first: a.first.or(b.first),
        }))
}
