//! The embeddable reader of solved tables: what a position is worth and which moves keep it,
//! for the command line, a server or a binding in another language.
//!
//! Files are opened lazily, on the first position that needs them, and kept open. An open
//! checks the header, the size and the key, not the checksum: hashing a large table costs
//! seconds, and `verify` and `db info` are there for that. A missing or damaged file is an
//! error that names it and the command that builds it, never a panic.

use crate::search::Search;
use crate::solve::{reads, steps, Job};
use crate::store::Store;
use crate::{key_of, lost_already, Lookup};
use core::fmt;
use morris_db::format::{DbError, Metric};
use morris_db::{Category, Key, Outcome, Value};
use morris_engine::{for_each_move, Move, Position, Rules};
use std::path::{Path, PathBuf};

/// The solved tables of one game under one set of rules, and optionally the tables of the
/// no-capture rule beside them.
pub struct Tablebase {
    rules: Rules,
    plain: Store,
    /// The tables of the no-capture rule and its limit N.
    rule: Option<(u16, Store)>,
}

/// Why a position could not be answered.
#[derive(Debug)]
pub enum ProbeError {
    /// A table the answer needs is not there.
    MissingTable { path: PathBuf, build: String },
    /// A table is there but cannot be used: damaged, of other rules, unreadable.
    BadTable { error: DbError, build: String },
    /// The position cannot occur in this game (more stones than the game has).
    NotInGame { position: String },
    /// A counter of the no-capture rule at or past its limit (the game is drawn already).
    CounterTooLarge { counter: u32, limit: u16 },
    /// The directory itself is not there.
    NoDirectory { path: PathBuf },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::MissingTable { path, build } => {
                write!(f, "{}: missing (build it with: {build})", path.display())
            }
            ProbeError::BadTable { error, build } => {
                write!(f, "{error} (rebuild it with: {build})")
            }
            ProbeError::NotInGame { position } => {
                write!(f, "{position} cannot occur in this game")
            }
            ProbeError::CounterTooLarge { counter, limit } => write!(
                f,
                "counter {counter}: with {limit} plies without a capture the game is drawn \
                 already (the counter must be below {limit})"
            ),
            ProbeError::NoDirectory { path } => {
                write!(f, "{}: no such database directory", path.display())
            }
        }
    }
}

impl std::error::Error for ProbeError {}

/// What the tables say of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Value and distance to the end of the game, without the no-capture rule.
    pub outcome: Outcome,
    /// Under the no-capture rule, when the tablebase has its tables.
    pub rule: Option<RuleProbe>,
}

/// A position under the no-capture rule with limit N, at a counter C (plies since the last
/// capture or placement).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleProbe {
    pub limit: u16,
    pub counter: u32,
    /// The value at this counter, with the distance to the winning side's zeroing ply (the
    /// capture, placement or blocking move that settles it), within the plies left.
    pub outcome: Outcome,
    /// The distance to that zeroing ply under perfect play with the rule, whatever the
    /// counter (above the limit for a cursed win or a blessed loss); `None` for a draw.
    pub dtz: Option<u32>,
    /// The value at counter 0 in the five words of the rule.
    pub category: Category,
}

/// A placement position valued without its tables, by [`Tablebase::prove`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proved {
    pub value: Value,
    /// Every legal move with the mover's value after it, best first.
    pub moves: Vec<(Move, Value)>,
    /// Positions searched.
    pub nodes: u64,
}

/// A legal move and where it leads, for the player making it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove {
    pub mv: Move,
    /// The mover's outcome after this move, without the rule.
    pub outcome: Outcome,
    /// Under the rule, for the mover, with the counter of the position the move is made from.
    pub rule: Option<RuleProbe>,
    /// A capture or a placement: the counter starts again.
    pub zeroing: bool,
}

impl RankedMove {
    /// The order of moves, best first for the mover: under the rule its outcome at the
    /// counter, then the plain outcome (the quickest of the wins that keep the rule's win).
    fn rank(&self) -> (Option<Outcome>, Outcome) {
        (self.rule.map(|r| r.outcome), self.outcome)
    }
}

impl Tablebase {
    /// The tables of `dir` for `rules`. Nothing is opened yet.
    pub fn open(dir: impl AsRef<Path>, rules: Rules) -> Result<Tablebase, ProbeError> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(ProbeError::NoDirectory {
                path: dir.to_path_buf(),
            });
        }
        Ok(Tablebase {
            rules,
            plain: reader(Store::new(dir, rules)),
            rule: None,
        })
    }

    /// Also answers under the no-capture rule with limit `n`, from its tables in the same
    /// directory (`morris solve --moves-without-capture N`).
    pub fn with_no_capture_rule(mut self, n: u16) -> Tablebase {
        let store = Store::with_metric(self.plain.dir(), self.rules, Metric::NoCapture(n));
        self.rule = Some((n, reader(store)));
        self
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn no_capture_limit(&self) -> Option<u16> {
        self.rule.as_ref().map(|(n, _)| *n)
    }

    /// The plain tables, for callers that read many positions of keys they have opened
    /// ([`Tablebase::prepare`]).
    pub fn plain(&self) -> &Store {
        &self.plain
    }

    /// The value of a position; under the rule at counter 0.
    pub fn probe(&self, pos: &Position) -> Result<Probe, ProbeError> {
        self.probe_at(pos, 0)
    }

    /// The value of a position with the no-capture counter at `counter`.
    pub fn probe_at(&self, pos: &Position, counter: u32) -> Result<Probe, ProbeError> {
        self.check_counter(counter)?;
        self.prepare(pos)?;
        let outcome = self.plain.outcome(pos);
        let rule = self
            .rule
            .as_ref()
            .map(|(n, store)| rule_probe(*n, counter, outcome, store.outcome(pos)));
        self.check_reads(pos)?;
        Ok(Probe { outcome, rule })
    }

    /// Every legal move, best first; under the rule at counter 0.
    pub fn best_moves(&self, pos: &Position) -> Result<Vec<RankedMove>, ProbeError> {
        self.best_moves_at(pos, 0)
    }

    /// Every legal move, best first, with the no-capture counter at `counter`: under the rule
    /// a winner keeps the win within the plies left, fastest to zeroing first; a loser
    /// resists longest.
    pub fn best_moves_at(
        &self,
        pos: &Position,
        counter: u32,
    ) -> Result<Vec<RankedMove>, ProbeError> {
        self.check_counter(counter)?;
        self.prepare(pos)?;
        let mut moves = Vec::new();
        for_each_move(pos, &self.rules, |mv| {
            let next = pos.play(mv);
            let zeroing = mv.capture().is_some() || mv.from().is_none();
            let outcome = self.plain.outcome(&next).after_move();
            let rule = self.rule.as_ref().map(|(n, store)| {
                let child = store.outcome(&next);
                // A zeroing ply enters the child at counter 0, where its value is its value
                // within the whole limit, and the count starts again.
                let child = if zeroing {
                    child.within(*n as u32).at_zero()
                } else {
                    child
                };
                rule_probe(*n, counter, outcome, child.after_move())
            });
            moves.push(RankedMove {
                mv,
                outcome,
                rule,
                zeroing,
            });
        });
        self.check_reads(pos)?;
        moves.sort_by_key(RankedMove::rank);
        Ok(moves)
    }

    /// True when the tables a position and its moves read are all on disk (they are still
    /// opened, and checked, on first use).
    pub fn has_tables_for(&self, pos: &Position) -> bool {
        if lost_already(pos, &self.rules) {
            return true;
        }
        reads(&self.rules, key_of(pos))
            .iter()
            .all(|&k| self.plain.has(k) && self.rule.as_ref().is_none_or(|(_, store)| store.has(k)))
    }

    /// The value of a placement position and of each of its moves, without the placement
    /// tables: an exact alpha-beta search whose leaves (no stones in hand) are read from the
    /// moving-phase tables. Values only, without the no-capture rule. Refused where a player
    /// may slide instead of placing (Lasker Morris): there placements can repeat a position and
    /// the search would not end.
    pub fn prove(&self, pos: &Position) -> Result<Proved, ProbeError> {
        let rules = self.rules;
        if rules.place_or_move() {
            return Err(ProbeError::MissingTable {
                path: self.plain.path(key_of(pos)),
                build: build_command(&self.plain, rules.stones),
            });
        }
        let job = Job {
            max_stones: rules.stones,
            only: None,
            placement: false,
            stop_after_files: None,
        };
        let moving = steps(&rules, &job).expect("the whole moving phase is in the plan");
        for k in moving.iter().flat_map(|s| s.keys()) {
            self.load(&self.plain, k, rules.stones)?;
        }
        let mut search = Search::new(&rules, &self.plain);
        let value = search.value(pos);
        let mut moves: Vec<(Move, Value)> = morris_engine::legal_moves(pos, &rules)
            .into_iter()
            .map(|m| (m, -search.value(&pos.play(m))))
            .collect();
        moves.sort_by_key(|&(_, v)| v);
        self.check_reads(pos)?;
        Ok(Proved {
            value,
            moves,
            nodes: search.nodes,
        })
    }

    fn check_counter(&self, counter: u32) -> Result<(), ProbeError> {
        match self.rule {
            Some((limit, _)) if counter >= limit as u32 => {
                Err(ProbeError::CounterTooLarge { counter, limit })
            }
            _ => Ok(()),
        }
    }

    /// Opens the tables that a position and its moves read.
    pub fn prepare(&self, pos: &Position) -> Result<(), ProbeError> {
        let key = key_of(pos);
        if [key.us + key.us_hand, key.them + key.them_hand]
            .iter()
            .any(|&n| n > self.rules.stones)
        {
            return Err(ProbeError::NotInGame {
                position: pos.notation(&self.rules).to_string(),
            });
        }
        if lost_already(pos, &self.rules) {
            return Ok(());
        }
        let keys = reads(&self.rules, key);
        let most = (key.us + key.us_hand).max(key.them + key.them_hand);
        for &k in &keys {
            self.load(&self.plain, k, most)?;
            if let Some((_, store)) = &self.rule {
                self.load(store, k, most)?;
            }
        }
        Ok(())
    }

    /// An error met while reading packed blocks (a damaged block), which the reads
    /// themselves could not return.
    fn check_reads(&self, pos: &Position) -> Result<(), ProbeError> {
        let most = key_of(pos).us.max(key_of(pos).them);
        for store in std::iter::once(&self.plain).chain(self.rule.as_ref().map(|(_, s)| s)) {
            store.take_failure().map_err(|error| ProbeError::BadTable {
                error,
                build: build_command(store, most),
            })?;
        }
        Ok(())
    }

    fn load(&self, store: &Store, key: Key, most: u8) -> Result<(), ProbeError> {
        let build = build_command(store, most);
        match store.open_reader(key) {
            Ok(_) => Ok(()),
            Err(DbError::Io { path, source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                Err(ProbeError::MissingTable { path, build })
            }
            Err(error) => Err(ProbeError::BadTable { error, build }),
        }
    }
}

/// A store for answering positions: with the `packed` feature it also reads packed sets.
fn reader(store: Store) -> Store {
    #[cfg(feature = "packed")]
    let store = store.reading_packed();
    store
}

/// The rule's view of a position worth `plain` without the rule and `stored` (value and
/// distance to zeroing, unbounded) with it.
fn rule_probe(limit: u16, counter: u32, plain: Outcome, stored: Outcome) -> RuleProbe {
    let left = (limit as u32).saturating_sub(counter);
    RuleProbe {
        limit,
        counter,
        outcome: stored.within(left),
        dtz: stored.plies(),
        category: Category::of(plain, stored.within(limit as u32)),
    }
}

/// The command that builds the tables of `store` with up to `most` stones a side.
fn build_command(store: &Store, most: u8) -> String {
    build_command_for(store.rules(), store.dir(), store.metric(), most)
}

/// The `morris solve` command that builds the tables of `metric` for `rules` in `dir`, with up
/// to `most` stones a side: what an error about a missing table tells the user to run.
pub fn build_command_for(rules: &Rules, dir: &Path, metric: Metric, most: u8) -> String {
    let standard = Rules::standard(rules.game);
    let mut cmd = format!("morris solve --game {}", rules.game);
    if rules.flying != standard.flying {
        cmd.push_str(if rules.flying {
            " --flying"
        } else {
            " --no-flying"
        });
    }
    if rules.stones != standard.stones {
        cmd.push_str(&format!(" --stones {}", rules.stones));
    }
    cmd.push_str(&format!(" --db {} --max-stones {most}", dir.display()));
    if let Metric::NoCapture(n) = metric {
        cmd.push_str(&format!(" --moves-without-capture {n}"));
    }
    cmd
}
