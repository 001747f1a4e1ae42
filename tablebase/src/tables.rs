//! One set of tables (the plain game's, or the no-capture rule's) as a tablebase reads it ([`Tables`]):
//! key by key from the best form on disk. The raw table first, else the packed distances,
//! else, where values alone can answer, the packed values.
//!
//! Every read returns its own `Result`. A damaged packed block is the error of the read that
//! met it, never a value made up in its place and an error parked for someone else: a server
//! shares one tablebase between requests, and a shared error slot handed one request's error
//! to another while the first returned a wrong value.

use crate::packed::PackedSet;
use crate::store::Store;
use crate::{key_of, key_slot, lost_already, Lookup, KEY_SLOTS};
use morris_db::format::{Checks, DbError, Metric};
use morris_db::{Key, Outcome, Value};
use morris_engine::{Position, Rules};
use morris_packed::Kind;
use std::path::PathBuf;
use std::sync::OnceLock;

/// What the tables hold of a position: its outcome (value and distance), or from a
/// values-only packed set its value alone.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    Outcome(Outcome),
    Value(Value),
}

impl Found {
    pub const fn value(self) -> Value {
        match self {
            Found::Outcome(o) => o.value(),
            Found::Value(v) => v,
        }
    }

    /// The outcome with its distance, where the tables hold it.
    pub const fn outcome(self) -> Option<Outcome> {
        match self {
            Found::Outcome(o) => Some(o),
            Found::Value(_) => None,
        }
    }

    /// Plies to the end; `None` for a draw and where only the value is known.
    pub const fn plies(self) -> Option<u32> {
        match self {
            Found::Outcome(o) => o.plies(),
            Found::Value(_) => None,
        }
    }

    /// The same position seen by the player who moved into it.
    pub fn after_move(self) -> Found {
        match self {
            Found::Outcome(o) => Found::Outcome(o.after_move()),
            Found::Value(v) => Found::Value(-v),
        }
    }

    /// The order of moves, best first: by value, then among moves of one value those of
    /// known outcome first (a win known to be in one ply before a win of unknown distance),
    /// by outcome.
    pub fn rank(self) -> (Value, bool, Option<Outcome>) {
        (self.value(), self.outcome().is_none(), self.outcome())
    }
}

impl core::fmt::Display for Found {
    /// `win in 25`, `draw`, `loss in 26`; from values alone `win`, `loss`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Found::Outcome(o) => o.fmt(f),
            Found::Value(v) => v.fmt(f),
        }
    }
}

/// The form a key is read from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Form {
    Raw,
    Packed(Kind),
}

pub(crate) struct Tables {
    store: Store,
    /// Made on first need: a reader of raw tables never allocates the packed sets' key
    /// tables (a third of a query's time when it did).
    outcomes: OnceLock<PackedSet<Outcome>>,
    /// `None` where values alone cannot answer (the no-capture rule needs distances).
    values: Option<OnceLock<PackedSet<Value>>>,
    /// By [`key_slot`]: the form each key opened is read from.
    forms: Vec<OnceLock<Form>>,
}

/// Why a key cannot be read: no form of it on disk, or a form that cannot be opened.
pub(crate) enum OpenError {
    /// Nothing on disk: the raw table's path and the packed files looked for.
    Missing {
        raw: PathBuf,
        packed: Vec<PathBuf>,
    },
    Bad(DbError),
}

impl From<DbError> for OpenError {
    fn from(e: DbError) -> OpenError {
        OpenError::Bad(e)
    }
}

impl Tables {
    /// The tables of `metric` in `store`'s directory, read from values-only sets too when
    /// `values` is set.
    pub(crate) fn new(store: Store, values: bool) -> Tables {
        Tables {
            outcomes: OnceLock::new(),
            values: values.then(OnceLock::new),
            forms: (0..KEY_SLOTS).map(|_| OnceLock::new()).collect(),
            store,
        }
    }

    fn outcomes(&self) -> &PackedSet<Outcome> {
        self.outcomes.get_or_init(|| self.packed_set())
    }

    fn values(&self) -> Option<&PackedSet<Value>> {
        self.values
            .as_ref()
            .map(|v| v.get_or_init(|| self.packed_set()))
    }

    fn packed_set<T: crate::packed::Symbol>(&self) -> PackedSet<T> {
        PackedSet::new(self.store.dir(), *self.store.rules(), self.store.metric())
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn rules(&self) -> &Rules {
        self.store.rules()
    }

    pub(crate) fn metric(&self) -> Metric {
        self.store.metric()
    }

    /// True when some form of `key` is on disk (it is still opened, and checked, on first
    /// use).
    pub(crate) fn has(&self, key: Key) -> bool {
        if self.store.has(key) {
            return true;
        }
        let packed =
            |exists: bool, searched: Result<bool, DbError>| exists || searched.unwrap_or(false);
        let outcomes = self.outcomes();
        packed(outcomes.path(key).exists(), outcomes.searched(key))
            || self
                .values()
                .is_some_and(|v| packed(v.path(key).exists(), v.searched(key)))
    }

    /// Opens `key` in the best form on disk, unless it is open already: the raw table
    /// (header, size and key checked, not the checksum), else a packed set (nothing to open
    /// for a key the set answers by search).
    pub(crate) fn open(&self, key: Key) -> Result<(), OpenError> {
        let cell = &self.forms[key_slot(key)];
        if cell.get().is_some() {
            return Ok(());
        }
        let form = self.find(key)?;
        let _ = cell.set(form);
        Ok(())
    }

    /// Opens every key of `keys` that is on disk in some form and reads the packed files among
    /// them into memory (raw tables are opened, not read: they are the game's size, not a
    /// download's). A key with no form on disk is skipped: a directory may hold part of a
    /// game. The bytes read.
    pub(crate) fn preload(&self, keys: &[Key]) -> Result<u64, DbError> {
        let mut bytes = 0;
        for &key in keys {
            match self.open(key) {
                Ok(()) => {}
                Err(OpenError::Missing { .. }) => continue,
                Err(OpenError::Bad(e)) => return Err(e),
            }
            bytes += match self.forms[key_slot(key)].get() {
                Some(Form::Packed(Kind::Distance)) => self.outcomes().preload(key)?,
                Some(Form::Packed(Kind::Wdl)) => match self.values() {
                    Some(values) => values.preload(key)?,
                    None => 0,
                },
                Some(Form::Raw) | None => 0,
            };
        }
        Ok(bytes)
    }

    fn find(&self, key: Key) -> Result<Form, OpenError> {
        if self.store.has(key) {
            self.store.open(key, Checks { checksum: false })?;
            return Ok(Form::Raw);
        }
        let outcomes = self.outcomes();
        if outcomes.path(key).exists() {
            outcomes.open(key)?;
            return Ok(Form::Packed(Kind::Distance));
        }
        if outcomes.searched(key)? {
            return Ok(Form::Packed(Kind::Distance));
        }
        if let Some(values) = self.values() {
            if values.path(key).exists() {
                values.open(key)?;
                return Ok(Form::Packed(Kind::Wdl));
            }
            if values.searched(key)? {
                return Ok(Form::Packed(Kind::Wdl));
            }
        }
        let mut packed = vec![outcomes.path(key)];
        packed.extend(self.values().map(|v| v.path(key)));
        Err(OpenError::Missing {
            raw: self.store.path(key),
            packed,
        })
    }

    /// What the tables hold of `pos`, whose key was opened ([`Tables::open`]).
    pub(crate) fn get(&self, pos: &Position) -> Result<Found, DbError> {
        if lost_already(pos, self.store.rules()) {
            return Ok(Found::Outcome(Outcome::Loss(0)));
        }
        let key = key_of(pos);
        let form = self.forms[key_slot(key)]
            .get()
            .unwrap_or_else(|| panic!("the caller opened every key it reads ({key})"));
        match form {
            Form::Raw => Ok(Found::Outcome(self.store.outcome(pos))),
            Form::Packed(Kind::Distance) => self.outcomes().get(pos).map(Found::Outcome),
            Form::Packed(Kind::Wdl) => self
                .values()
                .expect("a values form only where values are read")
                .get(pos)
                .map(Found::Value),
        }
    }

    /// The outcome of `pos`, from a source that does not read values-only sets.
    pub(crate) fn get_outcome(&self, pos: &Position) -> Result<Outcome, DbError> {
        debug_assert!(self.values.is_none());
        Ok(self
            .get(pos)?
            .outcome()
            .expect("a source without values-only sets reads outcomes"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Moves rank by value first, then a known outcome before an unknown one of the same
    /// value, then by outcome: a values-only move never outranks a better value.
    #[test]
    fn found_ranks_by_value_then_known_distance() {
        let mut moves = [
            Found::Value(Value::Loss),
            Found::Outcome(Outcome::Win(7)),
            Found::Value(Value::Draw),
            Found::Value(Value::Win),
            Found::Outcome(Outcome::Win(1)),
            Found::Outcome(Outcome::Loss(4)),
        ];
        moves.sort_by_key(|f| f.rank());
        assert_eq!(
            moves,
            [
                Found::Outcome(Outcome::Win(1)),
                Found::Outcome(Outcome::Win(7)),
                Found::Value(Value::Win),
                Found::Value(Value::Draw),
                Found::Outcome(Outcome::Loss(4)),
                Found::Value(Value::Loss),
            ]
        );
        assert_eq!(
            Found::Value(Value::Win).after_move(),
            Found::Value(Value::Loss)
        );
        assert_eq!(Found::Value(Value::Win).to_string(), "win");
        assert_eq!(Found::Outcome(Outcome::Loss(26)).to_string(), "loss in 26");
    }
}
