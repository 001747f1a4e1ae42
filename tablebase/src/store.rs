//! Solved sub-databases on disk, opened through memory maps and read by position: what the
//! solver reads while it builds and verifies, and what [`Tablebase`](crate::Tablebase) reads
//! first (before any packed set).

mod known_files;

use crate::{key_of, key_slot, lost_already, prefetch, Entries, Located, Lookup, KEY_SLOTS};
use known_files::{KnownFiles, Stamp};
use morris_db::format::{file_name, Checks, DbError, Metric, Table};
use morris_db::{Index, Key, Outcome};
use morris_engine::{Position, Rules};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

/// The database directory of one set of rules and one metric, with the tables opened so far.
/// Tables are opened on demand, through a shared reference, so that a reader shared between
/// threads opens each file once, when it first needs it.
pub struct Store {
    dir: PathBuf,
    rules: Rules,
    metric: Metric,
    /// By [`key_slot`].
    tables: Vec<OnceLock<(Index, Table)>>,
    /// The files this store hashed, or was told are sound ([`Store::vouch`]): opened again
    /// unchanged, they are not hashed again.
    checked: Mutex<KnownFiles>,
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
            checked: Mutex::new(KnownFiles::default()),
        }
    }

    /// True when `key` has a table file.
    pub fn has(&self, key: Key) -> bool {
        self.path(key).exists()
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
    /// and, with `checks.checksum`, the payload are checked (unless this store checked the
    /// same file before: [`Store::check`]).
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
            let (checks, stamp) = self.checks_for(key, checks);
            let mut table = Table::open_with(self.path(key), self.rules, self.metric, key, checks)?;
            if checks.checksum {
                self.record(key, stamp);
            }
            if resident {
                table = table.into_resident()?;
            }
            // Another thread may have opened it meanwhile: either copy serves.
            let _ = cell.set((Index::new(self.rules.board(), key), table));
        }
        let (index, table) = cell.get().expect("set just now");
        Ok((index, table))
    }

    /// Checks the file of `key` in full (header, size, checksum), without opening it for
    /// reading; a file this store checked before and that is unchanged since (same inode,
    /// size and modification time) passes without being hashed again.
    pub fn check(&self, key: Key) -> Result<(), DbError> {
        let (checks, stamp) = self.checks_for(key, Checks::default());
        Table::open_with(self.path(key), self.rules, self.metric, key, checks)?;
        self.record(key, stamp);
        Ok(())
    }

    /// Records the file of `key`, as it is now, as sound without hashing it: for a file that
    /// this process has just written from the values it holds.
    pub fn vouch(&self, key: Key) {
        self.record(key, Stamp::of(&self.path(key)));
    }

    /// `checks`, without the checksum when the file of `key` is one this store checked; with
    /// the file's stamp, taken before it is read (a file replaced meanwhile has another inode,
    /// so that what is recorded after the check is never the newer file).
    fn checks_for(&self, key: Key, checks: Checks) -> (Checks, Option<Stamp>) {
        let stamp = Stamp::of(&self.path(key));
        let known = self.checked.lock().is_ok_and(|c| c.knows(key, stamp));
        let checks = Checks {
            checksum: checks.checksum && !known,
        };
        (checks, stamp)
    }

    fn record(&self, key: Key, stamp: Option<Stamp>) {
        if let Ok(mut c) = self.checked.lock() {
            c.record(key, stamp);
        }
    }

    /// The table of an open key.
    pub fn table(&self, key: Key) -> Option<(&Index, &Table)> {
        self.tables[key_slot(key)].get().map(|(i, t)| (i, t))
    }

    /// Closes every table (unmaps the files).
    pub fn close_all(&mut self) {
        self.close_except(&[]);
    }

    /// Closes every table but those of `keep`.
    pub fn close_except(&mut self, keep: &[Key]) {
        let kept: Vec<usize> = keep.iter().map(|&k| key_slot(k)).collect();
        for (slot, t) in self.tables.iter_mut().enumerate() {
            if !kept.contains(&slot) {
                *t = OnceLock::new();
            }
        }
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
            .unwrap_or_else(|| panic!("the caller opened every key it reads ({key})"));
        self.probe_slot(key, index.index(pos.us(), pos.them()))
    }

    fn index_of(&self, key: Key) -> Option<&Index> {
        self.tables[key_slot(key)].get().map(|(index, _)| index)
    }

    fn entries_of(&self, key: Key) -> Option<Entries<'_>> {
        let (_, table) = self.tables[key_slot(key)].get()?;
        Some(Entries::stored(table.entries(), table.encoding()))
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
