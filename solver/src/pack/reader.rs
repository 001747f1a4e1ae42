//! A directory's packed set of one kind, opened lazily, answering positions with their
//! don't-care slots resolved.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use morris_db::format::{DbError, Metric};
use morris_db::{Index, Key};
use morris_engine::{Color, Position, Rules};
use morris_packed::{packed_file_name, PackedTable};

use super::captures::{best_capture, Symbol};
use crate::{key_of, key_slot, lost_already, KEY_SLOTS};

/// The packed tables of kind `T::KIND` in a directory: `PackedSet<Outcome>` for the
/// distances, `PackedSet<Value>` for the values alone.
pub struct PackedSet<T> {
    dir: PathBuf,
    rules: Rules,
    metric: Metric,
    /// By [`key_slot`].
    tables: Vec<OnceLock<(Index, PackedTable)>>,
    symbol: PhantomData<T>,
}

impl<T: Symbol> PackedSet<T> {
    pub fn new(dir: impl AsRef<Path>, rules: Rules, metric: Metric) -> PackedSet<T> {
        PackedSet {
            dir: dir.as_ref().to_path_buf(),
            rules,
            metric,
            tables: (0..KEY_SLOTS).map(|_| OnceLock::new()).collect(),
            symbol: PhantomData,
        }
    }

    pub fn path(&self, key: Key) -> PathBuf {
        self.dir
            .join(packed_file_name(&self.rules, self.metric, key, T::KIND))
    }

    /// The table of `key`, opened now if it is not open yet (header, size and block index
    /// checked; each block is checked when decoded).
    pub fn open(&self, key: Key) -> Result<(&Index, &PackedTable), DbError> {
        let cell = &self.tables[key_slot(key)];
        if cell.get().is_none() {
            let table = PackedTable::open(self.path(key), self.rules, self.metric, key, T::KIND)?;
            let _ = cell.set((Index::new(self.rules.board(), key), table));
        }
        let (index, table) = cell.get().expect("set just now");
        Ok((index, table))
    }

    /// The value of a position, its tables (and those its captures lead into, for a
    /// don't-care slot) opened as needed.
    pub fn get(&self, pos: &Position) -> Result<T, DbError> {
        if lost_already(pos, &self.rules) {
            return Ok(T::LOST);
        }
        let key = key_of(pos);
        let (index, _) = self.open(key)?;
        self.get_slot(key, index.index(pos.us(), pos.them()))
    }

    /// The value of slot `slot` of `key`, resolved.
    pub fn get_slot(&self, key: Key, slot: u64) -> Result<T, DbError> {
        let (index, table) = self.open(key)?;
        let stored = T::read(table, slot)?;
        if !table.header().captures_resolved || stored == T::BEST {
            return Ok(stored);
        }
        let (us, them) = index.unindex(slot);
        let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
        let capture = best_capture(&pos, &self.rules, |child| self.get(child))?;
        Ok(capture.map_or(stored, |c| c.min(stored)))
    }
}
