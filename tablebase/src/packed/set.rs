//! A directory's packed set of one kind, opened lazily, answering every position: from its
//! key's table, or for a key the set leaves out, by a search of its moves (one ply, or more
//! through captures into keys left out too).

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use morris_db::format::{DbError, Metric};
use morris_db::plan::{children, Via};
use morris_db::{Index, Key};
use morris_engine::{Color, Position, Rules};
use morris_packed::{packed_file_name, PackedTable};

use super::search::{is_searched, search_pruned};
use super::symbol::Symbol;
use crate::{key_of, key_slot, lost_already, KEY_SLOTS};

/// The packed tables of kind `T::KIND` in a directory: `PackedSet<Outcome>` for the
/// distances, `PackedSet<Value>` for the values alone.
pub struct PackedSet<T> {
    dir: PathBuf,
    rules: Rules,
    metric: Metric,
    /// By [`key_slot`].
    tables: Vec<OnceLock<(Index, PackedTable)>>,
    /// By [`key_slot`]: whether the key is left out and searched (decided once per key, as
    /// it asks the file system).
    searched: Vec<OnceLock<bool>>,
    symbol: PhantomData<T>,
}

impl<T: Symbol> PackedSet<T> {
    pub fn new(dir: impl AsRef<Path>, rules: Rules, metric: Metric) -> PackedSet<T> {
        PackedSet {
            dir: dir.as_ref().to_path_buf(),
            rules,
            metric,
            tables: (0..KEY_SLOTS).map(|_| OnceLock::new()).collect(),
            searched: (0..KEY_SLOTS).map(|_| OnceLock::new()).collect(),
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

    /// Reads the table of `key` into memory ([`PackedTable::preload`]), opening it first; a
    /// key without a file (left out and searched, or not in the set) reads nothing. The bytes
    /// read.
    pub fn preload(&self, key: Key) -> Result<u64, DbError> {
        if !self.path(key).exists() {
            return Ok(0);
        }
        Ok(self.open(key)?.1.preload())
    }

    /// True when the set leaves `key` out and answers it by search: the key has no file, its
    /// side to move has fewer stones, and the table its quiet moves lead into says that the
    /// set was packed so. A key missing otherwise is a missing file, not a searched key. A key
    /// whose positions have no move at all (a full board) reads no table when searched, so
    /// its answer is exact whatever the set.
    pub fn searched(&self, key: Key) -> Result<bool, DbError> {
        let cell = &self.searched[key_slot(key)];
        if let Some(&s) = cell.get() {
            return Ok(s);
        }
        let quiet = children(&self.rules, key)
            .into_iter()
            .find(|e| matches!(e.via, Via::Place | Via::Slide));
        let s = is_searched(key)
            && !self.path(key).exists()
            && match quiet {
                None => true,
                Some(e) => self.path(e.to).exists() && self.open(e.to)?.1.header().weaker_searched,
            };
        let _ = cell.set(s);
        Ok(s)
    }

    /// The value of a position, the tables it reads opened as needed.
    pub fn get(&self, pos: &Position) -> Result<T, DbError> {
        match self.known(pos)? {
            Some(t) => Ok(t),
            None => search_pruned(pos, &self.rules, |child| self.known(child)),
        }
    }

    /// The value of a position when the set has it without a search (from its key's table, or
    /// a side that has lost already); `None` for a position of a searched key.
    fn known(&self, pos: &Position) -> Result<Option<T>, DbError> {
        if lost_already(pos, &self.rules) {
            return Ok(Some(T::LOST));
        }
        let key = key_of(pos);
        if self.searched(key)? {
            return Ok(None);
        }
        let (index, table) = self.open(key)?;
        T::read(table, index.index(pos.us(), pos.them())).map(Some)
    }

    /// The value of slot `slot` of `key` (a position of a searched key is searched).
    pub fn get_slot(&self, key: Key, slot: u64) -> Result<T, DbError> {
        if self.searched(key)? {
            let (us, them) = Index::new(self.rules.board(), key).unindex(slot);
            let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], Color::White);
            return self.get(&pos);
        }
        let (_, table) = self.open(key)?;
        T::read(table, slot)
    }
}
