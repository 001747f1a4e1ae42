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

/// What says whether a key without a file is searched ([`PackedSet::searched`]).
enum Witness {
    /// A table, by its `weaker_searched` flag.
    Table(Key),
    /// Nothing to read: the key's positions have no move, so a search reads no table.
    NoMove,
    /// No table: the key's file is missing.
    None,
}

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
    /// side to move has fewer stones, and a table of its layer says that the layer was packed
    /// so. A key missing otherwise is a missing file, not a searched key. A key whose
    /// positions have no move at all (a full board) reads no table when searched, so its
    /// answer is exact whatever the set.
    pub fn searched(&self, key: Key) -> Result<bool, DbError> {
        let cell = &self.searched[key_slot(key)];
        if let Some(&s) = cell.get() {
            return Ok(s);
        }
        let s = is_searched(key)
            && !self.path(key).exists()
            && match self.layer_witness(key) {
                Witness::NoMove => true,
                Witness::Table(w) => self.open(w)?.1.header().weaker_searched,
                Witness::None => false,
            };
        let _ = cell.set(s);
        Ok(s)
    }

    /// The table whose flag says how `key`'s layer was packed. A layered build packs each
    /// layer (its stones in hand) either way, so the witness is a key with the same stones in
    /// hand whose side to move has at least as many on the board: it has a file either way.
    /// Failing one (a layer whose side to move cannot be ahead, as in the first placements),
    /// the table its quiet moves lead into, which a search of it would read: of the same
    /// layout, unless the layer below was packed the other way.
    fn layer_witness(&self, key: Key) -> Witness {
        let max = self.rules.stones;
        for us in (0..=max.saturating_sub(key.us_hand)).rev() {
            for them in (0..=us.min(max.saturating_sub(key.them_hand))).rev() {
                let w = Key { us, them, ..key };
                if self.path(w).exists() {
                    return Witness::Table(w);
                }
            }
        }
        match children(&self.rules, key)
            .into_iter()
            .find(|e| matches!(e.via, Via::Place | Via::Slide))
        {
            None => Witness::NoMove,
            Some(e) if self.path(e.to).exists() => Witness::Table(e.to),
            Some(_) => Witness::None,
        }
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
