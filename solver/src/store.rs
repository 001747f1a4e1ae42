//! Solved sub-databases on disk, opened through memory maps and read by position.

use crate::{key_of, key_slot, lost_already, prefetch, Located, Lookup, KEY_SLOTS};
use morris_db::format::{file_name, Checks, DbError, Metric, Table};
use morris_db::{Index, Key, Outcome};
use morris_engine::{Position, Rules};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The database directory of one set of rules and one metric, with the tables opened so far.
/// Tables are opened on demand, through a shared reference, so that a reader shared between
/// threads opens each file once, when it first needs it.
pub struct Store {
    dir: PathBuf,
    rules: Rules,
    metric: Metric,
    /// By [`key_slot`].
    tables: Vec<OnceLock<(Index, Table)>>,
}

impl Store {
    /// The plain tables of `dir`.
    pub fn new(dir: impl AsRef<Path>, rules: Rules) -> Store {
        Store::with_metric(dir, rules, Metric::Plain)
    }

    pub fn with_metric(dir: impl AsRef<Path>, rules: Rules, metric: Metric) -> Store {
        Store {
            dir: dir.as_ref().to_path_buf(),
            rules,
            metric,
            tables: (0..KEY_SLOTS).map(|_| OnceLock::new()).collect(),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn metric(&self) -> Metric {
        self.metric
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the file of `key` lives.
    pub fn path(&self, key: Key) -> PathBuf {
        self.dir.join(file_name(&self.rules, self.metric, key))
    }

    /// Opens the table of `key` unless it is open already; every header field
    /// and, with `checks.checksum`, the payload are checked.
    pub fn open(&self, key: Key, checks: Checks) -> Result<(), DbError> {
        self.load(key, checks, false).map(|_| ())
    }

    /// Opens the table of `key` as [`open`](Store::open) does, and copies it into memory
    /// (huge pages): for solving, which reads the tables it depends on at random.
    pub fn open_resident(&self, key: Key, checks: Checks) -> Result<(), DbError> {
        self.load(key, checks, true).map(|_| ())
    }

    /// The table of `key`, opened now if it is not open yet.
    pub fn load(
        &self,
        key: Key,
        checks: Checks,
        resident: bool,
    ) -> Result<(&Index, &Table), DbError> {
        let cell = &self.tables[key_slot(key)];
        if cell.get().is_none() {
            let mut table = Table::open_with(self.path(key), self.rules, self.metric, key, checks)?;
            if resident {
                table = table.into_resident()?;
            }
            // Another thread may have opened it meanwhile: either copy serves.
            let _ = cell.set((Index::new(self.rules.board(), key), table));
        }
        let (index, table) = cell.get().expect("set just now");
        Ok((index, table))
    }

    /// The table of an open key.
    pub fn table(&self, key: Key) -> Option<(&Index, &Table)> {
        self.tables[key_slot(key)].get().map(|(i, t)| (i, t))
    }

    /// Closes every table (unmaps the files).
    pub fn close_all(&mut self) {
        self.tables.iter_mut().for_each(|t| *t = OnceLock::new());
    }
}

impl Lookup for Store {
    #[inline]
    fn probe(&self, pos: &Position) -> Located {
        if lost_already(pos, &self.rules) {
            return Located::known(Outcome::Loss(0));
        }
        let key = key_of(pos);
        let (index, _) = self.tables[key_slot(key)]
            .get()
            .expect("the caller opened every key it reads");
        self.probe_slot(key, index.index(pos.us(), pos.them()))
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.tables[key_slot(key)].get().map(|(index, _)| index)
    }

    #[inline]
    fn probe_slot(&self, key: Key, slot: u64) -> Located {
        let key = key_slot(key);
        let (_, table) = self.tables[key].get().expect("probed keys are open");
        prefetch(table.entry_ptr(slot));
        Located::at(key, slot)
    }

    #[inline]
    fn read(&self, probe: Located) -> Outcome {
        match probe.located() {
            Err(known) => known,
            Ok((key, slot)) => {
                let (_, table) = self.tables[key].get().expect("probed keys are open");
                table.outcome(slot)
            }
        }
    }
}
