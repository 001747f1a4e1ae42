//! Solved sub-databases on disk, opened through memory maps and read by position.

use crate::{key_of, key_slot, lost_already, prefetch, Lookup, Probe, KEY_SLOTS};
use morris_db::format::{file_name, Checks, DbError, Table};
use morris_db::{Index, Key};
use morris_engine::{Position, Rules};
use std::path::{Path, PathBuf};

/// The database directory of one set of rules, with the tables opened so far.
pub struct Store {
    dir: PathBuf,
    rules: Rules,
    /// By [`key_slot`].
    tables: Vec<Option<(Index, Table)>>,
}

impl Store {
    pub fn new(dir: impl AsRef<Path>, rules: Rules) -> Store {
        Store {
            dir: dir.as_ref().to_path_buf(),
            rules,
            tables: (0..KEY_SLOTS).map(|_| None).collect(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the file of `key` lives.
    pub fn path(&self, key: Key) -> PathBuf {
        self.dir.join(file_name(&self.rules, key))
    }

    /// Opens the table of `key` unless it is open already; every header field
    /// and, with `checks.checksum`, the payload are checked.
    pub fn open(&mut self, key: Key, checks: Checks) -> Result<(), DbError> {
        self.open_as(key, checks, false)
    }

    /// Opens the table of `key` as [`open`](Store::open) does, and copies it into memory
    /// (huge pages): for solving, which reads the tables it depends on at random.
    pub fn open_resident(&mut self, key: Key, checks: Checks) -> Result<(), DbError> {
        self.open_as(key, checks, true)
    }

    fn open_as(&mut self, key: Key, checks: Checks, resident: bool) -> Result<(), DbError> {
        let slot = key_slot(key);
        if self.tables[slot].is_none() {
            let mut table = Table::open_with(self.path(key), self.rules, key, checks)?;
            if resident {
                table = table.into_resident()?;
            }
            self.tables[slot] = Some((Index::new(self.rules.board(), key), table));
        }
        Ok(())
    }

    /// The table of an open key.
    pub fn table(&self, key: Key) -> Option<(&Index, &Table)> {
        self.tables[key_slot(key)].as_ref().map(|(i, t)| (i, t))
    }

    /// Closes every table (unmaps the files).
    pub fn close_all(&mut self) {
        self.tables.iter_mut().for_each(|t| *t = None);
    }
}

impl Lookup for Store {
    #[inline]
    fn probe(&self, pos: &Position) -> Probe {
        if lost_already(pos, &self.rules) {
            return Probe::known(Some(0));
        }
        let key = key_of(pos);
        let (index, _) = self.tables[key_slot(key)]
            .as_ref()
            .expect("the caller opened every key it reads");
        self.probe_slot(key, index.index(pos.us(), pos.them()))
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.tables[key_slot(key)].as_ref().map(|(index, _)| index)
    }

    #[inline]
    fn probe_slot(&self, key: Key, slot: u64) -> Probe {
        let key = key_slot(key);
        let (_, table) = self.tables[key].as_ref().expect("probed keys are open");
        prefetch(table.entries()[slot as usize..].as_ptr());
        Probe::at(key, slot)
    }

    #[inline]
    fn read(&self, probe: Probe) -> Option<u32> {
        match probe.located() {
            Err(known) => known,
            Ok((key, slot)) => {
                let (_, table) = self.tables[key].as_ref().expect("probed keys are open");
                table.outcome(slot).plies()
            }
        }
    }
}
