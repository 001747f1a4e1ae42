//! A solved unit's codes written to its table. Encoding a slot is a few instructions, but a
//! billion of them on one core took seconds after every large step while the other core
//! idled: blocks are encoded in parallel and handed to the writer in slot order.

use morris_db::format::{DbError, EncodedBlock, Encoding, Writer};
use morris_db::Outcome;
use rayon::prelude::*;

/// Slots per block, a multiple of four (two-bit tables pack four slots a byte).
const BLOCK: usize = 1 << 20;
/// Blocks encoded before they are written: bounds the encoded bytes held at once (64 MiB).
const WAVE: usize = 64;

/// Appends the outcomes of `codes` ([`Outcome::code`]) to `writer`, from its next slot on.
pub fn write_codes(writer: &mut Writer, codes: &[u16]) -> Result<(), DbError> {
    let encoding = writer.encoding();
    let mut codes = codes;
    if encoding == Encoding::Wdl2 {
        // Blocks start on a byte of four slots: the slots before one go one by one.
        let head = ((4 - writer.next_slot() % 4) % 4).min(codes.len() as u64) as usize;
        for &c in &codes[..head] {
            writer.push(Outcome::from_code(c))?;
        }
        codes = &codes[head..];
    }
    let first = writer.next_slot();
    for (w, wave) in codes.chunks(BLOCK * WAVE).enumerate() {
        let start = first + (w * BLOCK * WAVE) as u64;
        let blocks: Vec<EncodedBlock> = wave
            .par_chunks(BLOCK)
            .enumerate()
            .map(|(b, chunk)| {
                let outcomes = chunk.iter().map(|&c| Outcome::from_code(c));
                EncodedBlock::encode(encoding, start + (b * BLOCK) as u64, outcomes)
            })
            .collect();
        for block in &blocks {
            writer.push_block(block)?;
        }
    }
    Ok(())
}
