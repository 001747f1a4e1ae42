//! The embeddable reader of solved tables: what a position is worth and which moves keep it,
//! for the command line, a server or a binding in another language.
//!
//! Files are opened lazily, on the first position that needs them, and kept open. An open
//! checks the header, the size and the key, not the checksum: hashing a large table costs
//! seconds, and `verify` and `db info` are there for that. A missing or damaged file is an
//! error that names it and the command that builds it, never a panic, and never a value made
//! up in place of the one a damaged block held.
//!
//! A key is read from its raw table, else from a packed set of distances, else from a packed
//! set of values alone (`morris pack --what wdl`): then the answer has values and no
//! distances ([`Found::Value`]). The no-capture rule's tables are read with their distances
//! only, as its value at a counter depends on them.

use crate::prove::Search;
use crate::store::Store;
use crate::tables::{Found, OpenError, Tables};
use crate::{key_of, lost_already, reads};
use core::fmt;
use morris_db::format::{DbError, Metric};
use morris_db::plan::KeyGraph;
use morris_db::{Category, Key, Outcome, Value};
use morris_engine::{for_each_move, Move, Position, Rules};
use std::path::{Path, PathBuf};

/// The solved tables of one game under one set of rules, and optionally the tables of the
/// no-capture rule beside them.
pub struct Tablebase {
    rules: Rules,
    plain: Tables,
    /// The tables of the no-capture rule and its limit N.
    rule: Option<(u16, Tables)>,
}

/// Why a position could not be answered.
#[derive(Debug)]
pub enum ProbeError {
    /// A table the answer needs is not there, raw (`path`) or packed (`packed`, the files
    /// looked for).
    MissingTable {
        path: PathBuf,
        packed: Vec<PathBuf>,
        build: String,
    },
    /// A table is there but cannot be used: damaged, of other rules, unreadable.
    BadTable { error: DbError, build: String },
    /// The position cannot occur in this game (more stones than the game has).
    NotInGame { position: String },
    /// A counter of the no-capture rule at or past its limit (the game is drawn already).
    CounterTooLarge { counter: u32, limit: u16 },
    /// The directory itself is not there.
    NoDirectory { path: PathBuf },
    /// A turn limit needs distances, and the tables of this position hold values only.
    NoDistances { position: String },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::MissingTable {
                path,
                packed,
                build,
            } => {
                write!(f, "{}: missing", path.display())?;
                if !packed.is_empty() {
                    let names: Vec<String> = packed
                        .iter()
                        .filter_map(|p| p.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .collect();
                    write!(f, ", and no packed set has it ({})", names.join(", "))?;
                }
                write!(f, " (build it with: {build})")
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
            ProbeError::NoDistances { position } => write!(
                f,
                "{position}: a turn limit needs distances, and its tables hold values only \
                 (a packed set of values: pack the distances too with `morris pack --what dtw`)"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// What the tables say of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Value and distance to the end of the game, without the no-capture rule (the value
    /// alone from a values-only packed set).
    pub plain: Found,
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
    pub plain: Found,
    /// Under the rule, for the mover, with the counter of the position the move is made from.
    pub rule: Option<RuleProbe>,
    /// A capture or a placement: the counter starts again.
    pub zeroing: bool,
}

impl RankedMove {
    /// The order of moves, best first for the mover: under the rule its outcome at the
    /// counter, then the plain outcome (the quickest of the wins that keep the rule's win).
    fn rank(&self) -> (Option<Outcome>, (Value, bool, Option<Outcome>)) {
        (self.rule.map(|r| r.outcome), self.plain.rank())
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
            plain: Tables::new(Store::new(dir, rules), true),
            rule: None,
        })
    }

    /// Also answers under the no-capture rule with limit `n`, from its tables in the same
    /// directory (`morris solve --moves-without-capture N`).
    pub fn with_no_capture_rule(mut self, n: u16) -> Tablebase {
        let store = Store::with_metric(self.plain.store().dir(), self.rules, Metric::NoCapture(n));
        self.rule = Some((n, Tables::new(store, false)));
        self
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn no_capture_limit(&self) -> Option<u16> {
        self.rule.as_ref().map(|(n, _)| *n)
    }

    /// The raw plain tables, for callers that read many slots of keys they open themselves.
    pub fn plain(&self) -> &Store {
        self.plain.store()
    }

    /// The value of a position; under the rule at counter 0.
    pub fn probe(&self, pos: &Position) -> Result<Probe, ProbeError> {
        self.probe_at(pos, 0)
    }

    /// The value of a position with the no-capture counter at `counter`.
    pub fn probe_at(&self, pos: &Position, counter: u32) -> Result<Probe, ProbeError> {
        self.check_counter(counter)?;
        self.prepare(pos)?;
        let plain = self.read(&self.plain, pos)?;
        let rule = match &self.rule {
            Some((n, tables)) => Some(rule_probe(
                *n,
                counter,
                plain.value(),
                self.read_outcome(tables, pos)?,
            )),
            None => None,
        };
        Ok(Probe { plain, rule })
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
        let mut legal = Vec::new();
        for_each_move(pos, &self.rules, |mv| legal.push(mv));
        let mut moves = Vec::with_capacity(legal.len());
        for mv in legal {
            let next = pos.play(mv);
            let zeroing = crate::answer::is_zeroing(mv);
            let plain = self.read(&self.plain, &next)?.after_move();
            let rule = match &self.rule {
                Some((n, tables)) => {
                    let child = self.read_outcome(tables, &next)?;
                    // A zeroing ply enters the child at counter 0, where its value is its
                    // value within the whole limit, and the count starts again.
                    let child = if zeroing {
                        child.within(*n as u32).at_zero()
                    } else {
                        child
                    };
                    Some(rule_probe(*n, counter, plain.value(), child.after_move()))
                }
                None => None,
            };
            moves.push(RankedMove {
                mv,
                plain,
                rule,
                zeroing,
            });
        }
        moves.sort_by_key(RankedMove::rank);
        Ok(moves)
    }

    /// True when the tables a position and its moves read are all on disk (they are still
    /// opened, and checked, on first use).
    pub fn has_tables_for(&self, pos: &Position) -> bool {
        if lost_already(pos, &self.rules) {
            return true;
        }
        reads(&self.rules, key_of(pos)).iter().all(|&k| {
            self.plain.has(k) && self.rule.as_ref().is_none_or(|(_, tables)| tables.has(k))
        })
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
                path: self.plain.store().path(key_of(pos)),
                packed: Vec::new(),
                build: build_command(&self.plain, rules.stones),
            });
        }
        let graph = KeyGraph::new(&rules, rules.stones);
        for k in graph.moving().iter().flat_map(|unit| unit.keys()) {
            self.load(&self.plain, k, rules.stones)?;
        }
        let bad = |error| ProbeError::BadTable {
            error,
            build: build_command(&self.plain, rules.stones),
        };
        let mut search = Search::new(&rules, |leaf| Ok(self.plain.get(leaf)?.value()));
        let value = search.value(pos).map_err(bad)?;
        let mut moves = Vec::new();
        for m in morris_engine::legal_moves(pos, &rules) {
            moves.push((m, -search.value(&pos.play(m)).map_err(bad)?));
        }
        moves.sort_by_key(|&(_, v)| v);
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

    /// Reads every packed table of the game into memory (under the no-capture rule too), so
    /// that no probe waits for the disk: `serve --preload`, for a server whose first answers
    /// should come as fast as its later ones. Raw tables are opened, not read; keys with no
    /// table on disk are skipped, as a directory may hold part of a game. The bytes read.
    pub fn preload(&self) -> Result<u64, ProbeError> {
        let keys = KeyGraph::new(&self.rules, self.rules.stones).keys();
        let mut bytes = 0;
        for tables in std::iter::once(&self.plain).chain(self.rule.as_ref().map(|(_, t)| t)) {
            bytes += tables
                .preload(&keys)
                .map_err(|error| ProbeError::BadTable {
                    error,
                    build: build_command(tables, self.rules.stones),
                })?;
        }
        Ok(bytes)
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
            if let Some((_, tables)) = &self.rule {
                self.load(tables, k, most)?;
            }
        }
        Ok(())
    }

    /// What `tables` holds of `pos` (its key opened): a read error is this read's own.
    fn read(&self, tables: &Tables, pos: &Position) -> Result<Found, ProbeError> {
        tables
            .get(pos)
            .map_err(|error| self.bad_read(tables, pos, error))
    }

    /// As [`Tablebase::read`], from a tables that reads distances only (the rule's).
    fn read_outcome(&self, tables: &Tables, pos: &Position) -> Result<Outcome, ProbeError> {
        tables
            .get_outcome(pos)
            .map_err(|error| self.bad_read(tables, pos, error))
    }

    fn bad_read(&self, tables: &Tables, pos: &Position, error: DbError) -> ProbeError {
        let key = key_of(pos);
        ProbeError::BadTable {
            error,
            build: build_command(tables, key.us.max(key.them)),
        }
    }

    fn load(&self, tables: &Tables, key: Key, most: u8) -> Result<(), ProbeError> {
        let build = build_command(tables, most);
        match tables.open(key) {
            Ok(()) => Ok(()),
            Err(OpenError::Missing { raw, packed }) => Err(ProbeError::MissingTable {
                path: raw,
                packed,
                build,
            }),
            Err(OpenError::Bad(error)) => Err(ProbeError::BadTable { error, build }),
        }
    }
}

/// The rule's view of a position worth `plain` without the rule and `stored` (value and
/// distance to zeroing, unbounded) with it.
fn rule_probe(limit: u16, counter: u32, plain: Value, stored: Outcome) -> RuleProbe {
    let left = (limit as u32).saturating_sub(counter);
    RuleProbe {
        limit,
        counter,
        outcome: stored.within(left),
        dtz: stored.plies(),
        category: Category::of(plain, stored.within(limit as u32).value()),
    }
}

/// The command that builds the tables of `tables` with up to `most` stones a side.
fn build_command(tables: &Tables, most: u8) -> String {
    build_command_for(tables.rules(), tables.store().dir(), tables.metric(), most)
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
