//! The blocks a thread decoded last: a probe that lands in a block decoded moments ago (the
//! next slot of a scan, a child in the same block) costs no decompression.

use std::cell::RefCell;
use std::rc::Rc;

use crate::block::Block;

/// Blocks kept per thread: a few tens of KiB each.
const WAYS: usize = 8;

#[derive(Default)]
struct Cache {
    /// (table id, block number, block), most recent first.
    entries: Vec<(u64, u64, Rc<Block>)>,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

/// The block `block` of table `table`, from this thread's cache or from `decode`.
pub(crate) fn with_block<T, E>(
    table: u64,
    block: u64,
    decode: impl FnOnce() -> Result<Block, E>,
    f: impl FnOnce(&Block) -> T,
) -> Result<T, E> {
    let hit = CACHE.with_borrow_mut(|c| {
        let i = c
            .entries
            .iter()
            .position(|&(t, b, _)| t == table && b == block)?;
        let entry = c.entries.remove(i);
        let found = entry.2.clone();
        c.entries.insert(0, entry);
        Some(found)
    });
    let found = match hit {
        Some(b) => b,
        None => {
            let b = Rc::new(decode()?);
            CACHE.with_borrow_mut(|c| {
                c.entries.truncate(WAYS - 1);
                c.entries.insert(0, (table, block, b.clone()));
            });
            b
        }
    };
    Ok(f(&found))
}
