//! The blocks a thread decoded last: a probe that lands in a block decoded moments ago (the
//! next slot of a scan, a child in the same block) costs no decompression.
//!
//! A searched position of a set that leaves out the weaker side reads the blocks of its
//! children, and through chains of captures those of positions several plies on: up to a
//! couple of hundred blocks in a probe of the whole game, many of them more than once
//! (positions that differ by the stone captured share their children's pattern classes). So
//! the cache keeps the blocks of two generations: those used since the last turn-over, and
//! those of the generation before, dropped all at once when the young one is full (128
//! blocks, or 2 Mi slots: 1 MiB of outcomes, 0.4 MiB of values). That keeps the last 128 to
//! 256 blocks of the default sizes (at most 2 MiB), and never fewer than the last 8 whatever
//! their size, with no scan of the blocks kept on a miss.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::block::Block;

/// Blocks a generation holds at most.
const GENERATION: usize = 128;
/// Slots a generation holds at most (a slot is a byte of an outcome block, a fifth of one of
/// a value block), unless it holds fewer than [`MIN_WAYS`] blocks.
const GENERATION_SLOTS: usize = 1 << 21;
/// Blocks a generation holds whatever their size.
const MIN_WAYS: usize = 8;

/// A block's name: the table's id and the block's number in it.
type Id = (u64, u64);

#[derive(Default)]
struct Cache {
    /// The block used last (a scan reads one block slot after slot).
    last: Option<(Id, Rc<Block>)>,
    /// The blocks used since the last turn-over.
    young: HashMap<Id, Rc<Block>>,
    /// The slots of `young`'s blocks.
    young_slots: usize,
    /// The blocks of the generation before, not used since.
    old: HashMap<Id, Rc<Block>>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

impl Cache {
    fn get(&mut self, id: Id) -> Option<Rc<Block>> {
        if let Some((last, block)) = &self.last {
            if *last == id {
                return Some(block.clone());
            }
        }
        let block = match self.young.get(&id) {
            Some(b) => b.clone(),
            None => {
                let b = self.old.remove(&id)?;
                self.keep(id, b.clone());
                b
            }
        };
        self.last = Some((id, block.clone()));
        Some(block)
    }

    /// Keeps `block` in the young generation, which first becomes the old one if it is full.
    fn keep(&mut self, id: Id, block: Rc<Block>) {
        let n = block.len();
        if self.young.len() >= GENERATION
            || (self.young.len() >= MIN_WAYS && self.young_slots + n > GENERATION_SLOTS)
        {
            self.old = std::mem::take(&mut self.young);
            self.young_slots = 0;
        }
        self.young_slots += n;
        self.young.insert(id, block.clone());
        self.last = Some((id, block));
    }
}

/// The block `block` of table `table`, from this thread's cache or from `decode`.
pub(crate) fn with_block<T, E>(
    table: u64,
    block: u64,
    decode: impl FnOnce() -> Result<Block, E>,
    f: impl FnOnce(&Block) -> T,
) -> Result<T, E> {
    let id = (table, block);
    let found = match CACHE.with_borrow_mut(|c| c.get(id)) {
        Some(b) => b,
        None => {
            let b = Rc::new(decode()?);
            CACHE.with_borrow_mut(|c| c.keep(id, b.clone()));
            b
        }
    };
    Ok(f(&found))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kind::Kind;

    fn block(slots: usize) -> Block {
        Block::new(vec![0; slots], slots, Kind::Distance).unwrap()
    }

    /// Reads blocks `blocks` of table `table`, each of `slots` slots.
    fn read(table: u64, slots: usize, blocks: impl IntoIterator<Item = u64>) {
        for b in blocks {
            with_block(table, b, || Ok::<_, ()>(block(slots)), |_| ()).unwrap();
        }
    }

    /// Whether block `b` of `table` is kept (looked at, not used).
    fn holds(table: u64, b: u64) -> bool {
        CACHE.with_borrow(|c| c.young.contains_key(&(table, b)) || c.old.contains_key(&(table, b)))
    }

    /// The last 128 blocks are always kept, up to 256 of them; of large blocks, as many as
    /// 2 Mi slots hold a generation, but the last 8 whatever their size; a block used again
    /// is young again.
    #[test]
    fn keeps_the_last_blocks_within_a_budget() {
        read(1, 8192, 0..300);
        // Turned over at 128 and 256: 256 .. 300 young, 128 .. 256 old.
        assert!((128..300).all(|b| holds(1, b)) && !holds(1, 127));
        // A hit decodes nothing.
        assert!(with_block(1, 130, || Err(()), |_| ()).is_ok());
        // 130 was used again: it outlives the others of its generation.
        read(1, 8192, 300..384);
        assert!(holds(1, 130) && !holds(1, 131) && (256..384).all(|b| holds(1, b)));
        // Blocks of an eighth of a generation's budget: 8 to 16 of them kept, and none of the
        // others.
        read(2, GENERATION_SLOTS / 8, 0..100);
        let n = (0..100).filter(|&b| holds(2, b)).count();
        assert!(
            (92..100).all(|b| holds(2, b)) && n <= 16 && !holds(1, 383),
            "{n}"
        );
        // Larger than the budget: the last 8 at least, 16 at most.
        read(3, 4 * GENERATION_SLOTS, 0..20);
        let n = (0..20).filter(|&b| holds(3, b)).count();
        assert!((12..20).all(|b| holds(3, b)) && n <= 16, "{n}");
        CACHE.with_borrow(|c| {
            let total: usize = c.young.values().map(|b| b.len()).sum();
            assert_eq!(c.young_slots, total);
        });
    }
}
