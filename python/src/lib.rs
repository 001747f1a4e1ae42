//! The `morris._morris` extension: positions, legal moves and solved tables for Python.
//!
//! A thin layer over the library crates: parsing and printing, move generation and table reads
//! are theirs, so that Python sees exactly what `morris query` sees. What lives here is only
//! what Python needs and the command line does not: argument conversion, exceptions, and
//! random sampling of stored positions for training.

use morris_db::format::{file_name, Checks, DbError, Metric};
use morris_db::plan::KeyGraph;
use morris_db::{Index, Key, Table, Value};
use morris_engine::rule_set::{RuleOption, RuleSetBuilder};
use morris_engine::{legal_moves, Color, Position, RuleError, RuleSet, Rules};
use morris_tablebase::answer::{is_zeroing, Answer, Valued};
use morris_tablebase::choice::{choose_move, Player};
use morris_tablebase::rng::Rng;
use morris_tablebase::tablebase::{
    build_command_for, Probe, ProbeError, Proved, RankedMove, Tablebase,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::{Path, PathBuf};

create_exception!(
    morris,
    TablebaseError,
    PyException,
    "A table is damaged, of other rules or unreadable."
);
create_exception!(
    morris,
    MissingTableError,
    TablebaseError,
    "A table the answer needs is not on disk; the message names the file and the command that builds it."
);

/// A rule option refused: a ValueError with the message the command line and the server give.
fn rule_error(e: RuleError) -> PyErr {
    value_error(e)
}

/// A refused argument: a ValueError with the library's message.
fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An integer argument of a rule option: one too large for 64 bits is given as its digits, so
/// that it is refused by its bound (ValueError) like any other, not by an OverflowError.
fn int_option(
    b: RuleSetBuilder,
    option: RuleOption,
    value: Option<&Bound<'_, PyAny>>,
    set: fn(RuleSetBuilder, i64) -> RuleSetBuilder,
) -> PyResult<RuleSetBuilder> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(b);
    };
    if let Ok(n) = v.extract::<i64>() {
        return Ok(set(b, n));
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        return Ok(b.text(option, Some(&v.str()?.to_cow()?)));
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "{} must be an int, not {}",
        option.name(),
        v.get_type().name()?
    )))
}

/// The rule set named by the Python arguments, checked by the engine's `RuleSet` as the
/// command line's flags and the server's parameters are: a preset (`rules`), refined by
/// `stones`; the game and its options.
fn rule_set_of(
    rules: Option<&str>,
    game: Option<&str>,
    flying: Option<bool>,
    stones: Option<&Bound<'_, PyAny>>,
    moves_without_capture: Option<&Bound<'_, PyAny>>,
) -> PyResult<RuleSet> {
    let mut b = RuleSet::builder();
    if let Some(name) = rules {
        b = b.preset(name.parse().map_err(rule_error)?);
    }
    if let Some(g) = game {
        b = b.game(
            g.parse()
                .map_err(|e| rule_error(RuleError::UnknownGame(e)))?,
        );
    }
    if let Some(f) = flying {
        b = b.flying(f);
    }
    b = int_option(b, RuleOption::Stones, stones, RuleSetBuilder::stones)?;
    b = int_option(
        b,
        RuleOption::MovesWithoutCapture,
        moves_without_capture,
        RuleSetBuilder::moves_without_capture,
    )?;
    b.build().map_err(rule_error)
}

/// The rules of a position named by the Python arguments (the no-capture rule, if a preset
/// has one, does not change positions).
fn rules_of(
    rules: Option<&str>,
    game: Option<&str>,
    flying: Option<bool>,
    stones: Option<&Bound<'_, PyAny>>,
) -> PyResult<Rules> {
    Ok(rule_set_of(rules, game, flying, stones, None)?.rules())
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A position of one game under one set of rules: stones of each colour, stones in hand, side
/// to move. Immutable and hashable; `play` returns a new position.
#[pyclass(frozen, eq, hash, module = "morris", name = "Position")]
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
struct PyPosition {
    pos: Position,
    rules: Rules,
}

#[pymethods]
impl PyPosition {
    /// Parses a position in the project's notation (`W:d7,g1,g7 B:a4,d5,g4 b 0 0`, or
    /// `startpos`); raises ValueError on malformed or impossible input. `game` is nine unless
    /// `rules` (a preset) names another.
    #[staticmethod]
    #[pyo3(signature = (text, game=None, flying=None, stones=None, rules=None))]
    fn parse(
        text: &str,
        game: Option<&str>,
        flying: Option<bool>,
        stones: Option<&Bound<'_, PyAny>>,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        let rules = rules_of(rules, game, flying, stones)?;
        let pos = Position::parse(text, &rules).map_err(value_error)?;
        Ok(PyPosition { pos, rules })
    }

    /// The start position of the game: empty board, every stone in hand, White to move.
    #[staticmethod]
    #[pyo3(signature = (game=None, flying=None, stones=None, rules=None))]
    fn start(
        game: Option<&str>,
        flying: Option<bool>,
        stones: Option<&Bound<'_, PyAny>>,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        let rules = rules_of(rules, game, flying, stones)?;
        Ok(PyPosition {
            pos: Position::start(&rules),
            rules,
        })
    }

    /// A position from bitboards (bit i = point i of `board_points(game)`), checked as `parse`
    /// checks text.
    #[staticmethod]
    #[pyo3(signature = (white, black, side, white_in_hand=0, black_in_hand=0, game=None, flying=None, stones=None, rules=None))]
    #[allow(clippy::too_many_arguments)]
    fn from_bitboards(
        white: u32,
        black: u32,
        side: &str,
        white_in_hand: u8,
        black_in_hand: u8,
        game: Option<&str>,
        flying: Option<bool>,
        stones: Option<&Bound<'_, PyAny>>,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        let rules = rules_of(rules, game, flying, stones)?;
        let all = rules.board().all().bits();
        if (white | black) & !all != 0 || white & black != 0 {
            return Err(PyValueError::new_err(
                "bitboards overlap or name points the board does not have",
            ));
        }
        let side = match side {
            "w" | "white" => Color::White,
            "b" | "black" => Color::Black,
            s => {
                return Err(PyValueError::new_err(format!(
                    "side must be 'w' or 'b', not {s:?}"
                )))
            }
        };
        let pos = Position::new(
            morris_engine::Bitboard(white),
            morris_engine::Bitboard(black),
            [white_in_hand, black_in_hand],
            side,
        );
        // One checker for both entry points: the notation parser's.
        let text = pos.notation(&rules).to_string();
        let pos = Position::parse(&text, &rules).map_err(value_error)?;
        Ok(PyPosition { pos, rules })
    }

    fn __str__(&self) -> String {
        self.pos.notation(&self.rules).to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}', game='{}')", self.__str__(), self.rules.game)
    }

    /// Every legal move in notation (`d6`, `d6-d5`, `a1xd7`, `b6-c5xg4`), a capture merged
    /// into the move that forms the mill; empty when the game is over.
    fn legal_moves(&self) -> Vec<String> {
        let board = self.rules.board();
        legal_moves(&self.pos, &self.rules)
            .into_iter()
            .map(|m| m.notation(board).to_string())
            .collect()
    }

    /// The position after a legal move given in notation; ValueError for a malformed or
    /// illegal move (the message lists the legal ones).
    fn play(&self, r#move: &str) -> PyResult<Self> {
        let mv = self
            .pos
            .parse_move(r#move, &self.rules)
            .map_err(value_error)?;
        Ok(PyPosition {
            pos: self.pos.play(mv),
            rules: self.rules,
        })
    }

    /// `"white"` or `"black"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        color_name(self.pos.side_to_move())
    }

    #[getter]
    fn white_in_hand(&self) -> u8 {
        self.pos.in_hand(Color::White)
    }

    #[getter]
    fn black_in_hand(&self) -> u8 {
        self.pos.in_hand(Color::Black)
    }

    /// Stones in hand as (white, black).
    #[getter]
    fn hands(&self) -> (u8, u8) {
        (self.white_in_hand(), self.black_in_hand())
    }

    /// White's points, in board order.
    #[getter]
    fn white(&self) -> Vec<String> {
        self.points(Color::White)
    }

    /// Black's points, in board order.
    #[getter]
    fn black(&self) -> Vec<String> {
        self.points(Color::Black)
    }

    /// White's stones as a bitboard (bit i = point i of `board_points(game)`).
    #[getter]
    fn white_bits(&self) -> u32 {
        self.pos.stones(Color::White).bits()
    }

    #[getter]
    fn black_bits(&self) -> u32 {
        self.pos.stones(Color::Black).bits()
    }

    /// The sub-database of the position, seen from the side to move (`M-O-MH-OH`).
    #[getter]
    fn key(&self) -> String {
        morris_tablebase::key_of(&self.pos).to_string()
    }

    /// None while the game goes on; else `"white"` or `"black"` (the winner) or `"draw"`.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.pos.outcome(&self.rules).map(|o| match o {
            morris_engine::GameEnd::Win { winner, .. } => color_name(winner),
            morris_engine::GameEnd::Draw => "draw",
        })
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.rules.game.name()
    }

    #[getter]
    fn flying(&self) -> bool {
        self.rules.flying
    }

    #[getter]
    fn stones(&self) -> u8 {
        self.rules.stones
    }
}

impl PyPosition {
    fn points(&self, c: Color) -> Vec<String> {
        let board = self.rules.board();
        self.pos
            .stones(c)
            .map(|p| board.point_name(p).to_string())
            .collect()
    }
}

/// The names of a board's points; bit i of a bitboard is point i of this list.
#[pyfunction]
#[pyo3(signature = (game="nine"))]
fn board_points(game: &str) -> PyResult<Vec<String>> {
    let board = rules_of(None, Some(game), None, None)?.board();
    Ok((0..board.len() as u8)
        .map(|p| board.point_name(p).to_string())
        .collect())
}

/// The neighbours of each point (one step along a line), by name.
#[pyfunction]
#[pyo3(signature = (game="nine"))]
fn board_adjacency(game: &str) -> PyResult<Vec<(String, Vec<String>)>> {
    let board = rules_of(None, Some(game), None, None)?.board();
    Ok((0..board.len() as u8)
        .map(|p| {
            let n = board
                .adjacent(p)
                .map(|q| board.point_name(q).to_string())
                .collect();
            (board.point_name(p).to_string(), n)
        })
        .collect())
}

/// The lines of the board (mills), each as its points in board order.
#[pyfunction]
#[pyo3(signature = (game="nine"))]
fn board_mills(game: &str) -> PyResult<Vec<Vec<String>>> {
    let board = rules_of(None, Some(game), None, None)?.board();
    Ok(board
        .lines()
        .iter()
        .map(|l| l.map(|p| board.point_name(p).to_string()).collect())
        .collect())
}

/// What the tables say of a position.
#[pyclass(frozen, get_all, module = "morris", name = "Probe")]
struct PyProbe {
    /// `"win"`, `"draw"` or `"loss"` for the side to move; under the no-capture rule, the
    /// value at the counter given.
    value: &'static str,
    /// Plies to the end of the game under perfect play (without the no-capture rule); None
    /// for a draw, and for a value proved by search.
    plies: Option<u32>,
    /// Under the no-capture rule: `win`, `cursed-win`, `draw`, `blessed-loss` or `loss`.
    category: Option<&'static str>,
    /// Under the no-capture rule: plies to the zeroing ply that settles the value.
    dtz: Option<u32>,
    /// `"tables"`, or `"search"` for a value proved by `Tablebase.prove`.
    source: &'static str,
}

#[pymethods]
impl PyProbe {
    fn __repr__(&self) -> String {
        format!(
            "Probe(value='{}', plies={}, category={}, dtz={}, source='{}')",
            self.value,
            py_opt(self.plies),
            py_opt(self.category.map(|c| format!("'{c}'"))),
            py_opt(self.dtz),
            self.source
        )
    }
}

impl PyProbe {
    /// The fields of the answer type every front end shares (`morris_tablebase::answer`).
    fn new(probe: &Probe) -> PyProbe {
        let v = Valued::of(probe.plain, probe.rule);
        PyProbe {
            value: v.value,
            plies: v.plies,
            category: v.category,
            dtz: v.dtz,
            source: if probe.plain.outcome().is_some() {
                "tables"
            } else {
                "values"
            },
        }
    }
}

/// An optional value as Python prints it.
fn py_opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "None".to_string(), |v| v.to_string())
}

/// A legal move and where it leads, for the player making it.
#[pyclass(frozen, get_all, module = "morris", name = "RankedMove")]
struct PyRankedMove {
    #[pyo3(name = "move")]
    mv: String,
    /// The mover's value after the move.
    value: &'static str,
    /// The mover's distance to the end after the move, this move included; None for a draw
    /// or a value proved by search.
    plies: Option<u32>,
    category: Option<&'static str>,
    dtz: Option<u32>,
    /// A capture or a placement (the no-capture counter starts again).
    zeroing: bool,
}

#[pymethods]
impl PyRankedMove {
    fn __repr__(&self) -> String {
        format!(
            "RankedMove(move='{}', value='{}', plies={})",
            self.mv,
            self.value,
            py_opt(self.plies)
        )
    }
}

impl PyRankedMove {
    fn new(m: &RankedMove, rules: &Rules) -> PyRankedMove {
        PyRankedMove::valued(m.mv, Valued::of(m.plain, m.rule), rules)
    }

    fn proved(mv: morris_engine::Move, value: Value, rules: &Rules) -> PyRankedMove {
        PyRankedMove::valued(mv, Valued::proved(value), rules)
    }

    /// The fields of the answer type every front end shares (`morris_tablebase::answer`).
    fn valued(mv: morris_engine::Move, v: Valued, rules: &Rules) -> PyRankedMove {
        PyRankedMove {
            mv: mv.notation(rules.board()).to_string(),
            value: v.value,
            plies: v.plies,
            category: v.category,
            dtz: v.dtz,
            zeroing: is_zeroing(mv),
        }
    }
}

/// A placement position valued by search, without its tables: values, no distances.
#[pyclass(frozen, get_all, module = "morris", name = "Proved")]
struct PyProved {
    value: &'static str,
    /// Every legal move, best first (values only).
    moves: Vec<Py<PyRankedMove>>,
    /// Positions searched.
    nodes: u64,
}

/// The solved tables of one game in a directory (`morris solve --db DIR`), opened lazily.
#[pyclass(frozen, subclass, module = "morris", name = "Tablebase")]
struct PyTablebase {
    tb: Tablebase,
    set: RuleSet,
    rules: Rules,
    dir: PathBuf,
}

/// The error a Python caller sees for a table read that failed.
fn probe_error(py: Python<'_>, e: ProbeError) -> PyErr {
    let message = e.to_string();
    match e {
        ProbeError::MissingTable { path, build, .. } => missing(py, message, &path, Some(&build)),
        ProbeError::NoDirectory { path } => missing(py, message, &path, None),
        ProbeError::BadTable { .. } => TablebaseError::new_err(message),
        ProbeError::NotInGame { .. }
        | ProbeError::CounterTooLarge { .. }
        | ProbeError::NoDistances { .. } => PyValueError::new_err(message),
    }
}

/// A MissingTableError carrying the file and the command as attributes, for callers that
/// build the missing tables themselves.
fn missing(py: Python<'_>, message: String, path: &Path, build: Option<&str>) -> PyErr {
    let err = MissingTableError::new_err(message);
    let value = err.value(py);
    let _ = value.setattr("path", path.display().to_string());
    let _ = value.setattr("command", build.map(str::to_string));
    err
}

/// The command that builds the plain tables of `rules` up to `most` stones a side in `dir`.
fn build_command(rules: &Rules, dir: &Path, most: u8) -> String {
    build_command_for(rules, dir, Metric::Plain, most)
}

/// A small seeded generator (SplitMix64): sampling must be reproducible from its seed
/// without another dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in 0..n (n > 0), by rejection so that no value is favoured.
    fn below(&mut self, n: u64) -> u64 {
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Columns of a sample, as raw little-endian bytes for numpy.
#[derive(Default)]
struct Columns {
    white: Vec<u8>,
    black: Vec<u8>,
    side: Vec<u8>,
    hands: Vec<u8>,
    value: Vec<u8>,
    plies: Vec<u8>,
}

#[pymethods]
impl PyTablebase {
    /// Opens the tables of `path` for a game and rule options (nothing is read until a
    /// position needs it). `moves_without_capture=N` also answers under the no-capture rule,
    /// from its tables (`morris solve --moves-without-capture N`); `rules` names a preset
    /// (`"no-capture-50"`), which `stones` may refine and the other options must agree with.
    #[new]
    #[pyo3(signature = (path, game=None, flying=None, stones=None, moves_without_capture=None, rules=None))]
    fn new(
        py: Python<'_>,
        path: PathBuf,
        game: Option<&str>,
        flying: Option<bool>,
        stones: Option<&Bound<'_, PyAny>>,
        moves_without_capture: Option<&Bound<'_, PyAny>>,
        rules: Option<&str>,
    ) -> PyResult<Self> {
        let set = rule_set_of(rules, game, flying, stones, moves_without_capture)?;
        let rules = set.rules();
        let mut tb = Tablebase::open(&path, rules).map_err(|e| probe_error(py, e))?;
        if let Some(n) = set.moves_without_capture() {
            tb = tb.with_no_capture_rule(n);
        }
        Ok(PyTablebase {
            tb,
            set,
            rules,
            dir: path,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Tablebase('{}', game='{}', flying={}, stones={})",
            self.dir.display(),
            self.rules.game,
            if self.rules.flying { "True" } else { "False" },
            self.rules.stones
        )
    }

    #[getter]
    fn path(&self) -> String {
        self.dir.display().to_string()
    }

    #[getter]
    fn game(&self) -> &'static str {
        self.rules.game.name()
    }

    #[getter]
    fn flying(&self) -> bool {
        self.rules.flying
    }

    #[getter]
    fn stones(&self) -> u8 {
        self.rules.stones
    }

    #[getter]
    fn moves_without_capture(&self) -> Option<u16> {
        self.tb.no_capture_limit()
    }

    /// The preset these rules are, if one is (`"standard"`, `"no-capture-50"`, …).
    #[getter]
    fn rules(&self) -> Option<&'static str> {
        self.set.preset_name()
    }

    /// Reads every packed table of the game into memory, so that no later probe waits for
    /// the disk (raw tables are opened, not read); the bytes read.
    fn preload(&self, py: Python<'_>) -> PyResult<u64> {
        self.read(py, |tb| tb.preload())
    }

    /// Parses a position under the tablebase's rules.
    fn position(&self, text: &str) -> PyResult<PyPosition> {
        let pos = Position::parse(text, &self.rules).map_err(value_error)?;
        Ok(PyPosition {
            pos,
            rules: self.rules,
        })
    }

    /// The value of a position (a Position or its notation); under the no-capture rule at
    /// `counter` plies since the last capture or placement.
    #[pyo3(signature = (pos, counter=0))]
    fn probe(&self, py: Python<'_>, pos: &Bound<'_, PyAny>, counter: i64) -> PyResult<PyProbe> {
        let counter = self.counter(counter)?;
        let pos = self.position_arg(pos)?;
        let probe = self.read(py, |tb| tb.probe_at(&pos, counter))?;
        Ok(PyProbe::new(&probe))
    }

    /// Every legal move, best first for the side to move: fastest win, draws, slowest loss.
    #[pyo3(signature = (pos, counter=0))]
    fn best_moves(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        counter: i64,
    ) -> PyResult<Vec<PyRankedMove>> {
        let counter = self.counter(counter)?;
        let pos = self.position_arg(pos)?;
        let moves = self.read(py, |tb| tb.best_moves_at(&pos, counter))?;
        Ok(moves
            .iter()
            .map(|m| PyRankedMove::new(m, &self.rules))
            .collect())
    }

    /// The answer `morris query --json` and the server's `/api/query` give (docs/answer.md),
    /// as JSON text: the Python wrapper's `query` parses it.
    #[pyo3(signature = (pos, counter=0, turns_left=None))]
    fn _query_json(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        counter: i64,
        turns_left: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let counter = self.counter(counter)?;
        let set = self.with_turn_limit(turns_left)?;
        let pos = self.position_arg(pos)?;
        let answer = self.read(py, |tb| Answer::query(tb, &pos, counter, set.turn_limit()))?;
        serde_json::to_string(&answer).map_err(|e| TablebaseError::new_err(e.to_string()))
    }

    /// The move a player plays (its notation): `player` is a choice among the best moves
    /// (`"fastest"`, `"random"`, `"ultra"`), with a skill below 1 (`"ultra@0.9"`), or a
    /// strength level (`"level1"` to `"level5"`), as `morris arena` takes it; `seed` makes the
    /// choice repeatable. None when the position has no legal move.
    #[pyo3(signature = (pos, player="ultra", counter=0, turns_left=None, seed=0))]
    fn choose(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        player: &str,
        counter: i64,
        turns_left: Option<&Bound<'_, PyAny>>,
        seed: u64,
    ) -> PyResult<Option<String>> {
        let player: Player = player.parse().map_err(PyValueError::new_err)?;
        let counter = self.counter(counter)?;
        let set = self.with_turn_limit(turns_left)?;
        let pos = self.position_arg(pos)?;
        let picked = self.read(py, |tb| {
            let mut rng = Rng::new(seed);
            choose_move(tb, &pos, counter, set.turn_limit(), player, &mut rng)
        })?;
        Ok(picked.map(|m| m.notation(self.rules.board()).to_string()))
    }

    /// True when every table the position and its moves read is on disk.
    fn has_tables_for(&self, pos: &Bound<'_, PyAny>) -> PyResult<bool> {
        let pos = self.position_arg(pos)?;
        Ok(self.tb.has_tables_for(&pos))
    }

    /// The value of a placement position and of each of its moves without the placement
    /// tables, by an exact alpha-beta search over the whole moving phase's tables. Values
    /// only: no distances, so no turn limit can be answered exactly from it.
    fn prove(&self, py: Python<'_>, pos: &Bound<'_, PyAny>) -> PyResult<PyProved> {
        let pos = self.position_arg(pos)?;
        let proved: Proved = self.read(py, |tb| tb.prove(&pos))?;
        let moves = proved
            .moves
            .iter()
            .map(|&(m, v)| Py::new(py, PyRankedMove::proved(m, v, &self.rules)))
            .collect::<PyResult<_>>()?;
        Ok(PyProved {
            value: proved.value.name(),
            moves,
            nodes: proved.nodes,
        })
    }

    /// The keys of a whole solve of this game whose files are in the directory.
    fn solved_keys(&self) -> Vec<String> {
        self.present_keys().iter().map(Key::to_string).collect()
    }

    /// Raw columns of `sample` (the Python wrapper turns them into numpy arrays).
    #[pyo3(signature = (n, key=None, seed=0))]
    fn _sample_raw<'py>(
        &self,
        py: Python<'py>,
        n: usize,
        key: Option<&str>,
        seed: u64,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let keys = match key {
            Some(text) => {
                let k: Key = text
                    .parse()
                    .map_err(|e: morris_db::KeyParseError| PyValueError::new_err(e.to_string()))?;
                if [k.us + k.us_hand, k.them + k.them_hand]
                    .iter()
                    .any(|&s| s > self.rules.stones)
                    || (k.us + k.them) as usize > self.rules.board().len()
                {
                    return Err(PyValueError::new_err(format!(
                        "key {k} cannot occur in {} with {} stones",
                        self.rules.game, self.rules.stones
                    )));
                }
                vec![k]
            }
            None => {
                let keys = self.present_keys();
                if keys.is_empty() {
                    return Err(missing(
                        py,
                        format!(
                            "{}: no tables of these rules (build them with: {})",
                            self.dir.display(),
                            build_command(&self.rules, &self.dir, self.rules.stones)
                        ),
                        &self.dir,
                        Some(&build_command(&self.rules, &self.dir, self.rules.stones)),
                    ));
                }
                keys
            }
        };
        let mut tables: Vec<(Key, &Index, &Table)> = Vec::new();
        for k in keys {
            let (index, table) = self.load(py, k)?;
            tables.push((k, index, table));
        }
        let columns = py.allow_threads(|| sample(&tables, n, seed));
        Ok([
            columns.white,
            columns.black,
            columns.side,
            columns.hands,
            columns.value,
            columns.plies,
        ]
        .iter()
        .map(|c| PyBytes::new(py, c))
        .collect())
    }
}

impl PyTablebase {
    /// Runs `read` on the tables without holding the GIL; a read that fails is raised as
    /// [`probe_error`] says.
    fn read<T: Send>(
        &self,
        py: Python<'_>,
        read: impl FnOnce(&Tablebase) -> Result<T, ProbeError> + Send,
    ) -> PyResult<T> {
        py.allow_threads(|| read(&self.tb))
            .map_err(|e| probe_error(py, e))
    }

    /// The tablebase's rule set with the turn limit `turns_left` (None: none), checked as
    /// everywhere.
    fn with_turn_limit(&self, turns_left: Option<&Bound<'_, PyAny>>) -> PyResult<RuleSet> {
        int_option(
            RuleSet::builder().defaults(self.set),
            RuleOption::TurnLimit,
            turns_left,
            RuleSetBuilder::turn_limit,
        )?
        .build()
        .map_err(rule_error)
    }

    /// The no-capture counter, checked against the rule as everywhere (0, the default, is
    /// accepted without the rule).
    fn counter(&self, counter: i64) -> PyResult<u32> {
        if counter == 0 {
            return Ok(0);
        }
        self.set.counter(Some(counter)).map_err(rule_error)
    }

    /// A position argument: a Position of the same rules, or notation parsed under them.
    fn position_arg(&self, obj: &Bound<'_, PyAny>) -> PyResult<Position> {
        if let Ok(p) = obj.downcast::<PyPosition>() {
            let p = p.get();
            if p.rules != self.rules {
                return Err(PyValueError::new_err(format!(
                    "position of {} ({} stones, flying {}) given to a tablebase of {} ({} stones, flying {})",
                    p.rules.game, p.rules.stones, p.rules.flying,
                    self.rules.game, self.rules.stones, self.rules.flying
                )));
            }
            return Ok(p.pos);
        }
        let text: String = obj
            .extract()
            .map_err(|_| PyValueError::new_err("expected a morris.Position or its notation"))?;
        Position::parse(&text, &self.rules).map_err(value_error)
    }

    fn present_keys(&self) -> Vec<Key> {
        KeyGraph::new(&self.rules, self.rules.stones)
            .keys()
            .into_iter()
            .filter(|&k| {
                self.dir
                    .join(file_name(&self.rules, Metric::Plain, k))
                    .exists()
            })
            .collect()
    }

    fn load(&self, py: Python<'_>, key: Key) -> PyResult<(&Index, &Table)> {
        let most = (key.us + key.us_hand).max(key.them + key.them_hand);
        let build = build_command(&self.rules, &self.dir, most);
        match self.tb.plain().load(key, Checks { checksum: false }, false) {
            Ok(x) => Ok(x),
            Err(DbError::Io { path, source, .. })
                if source.kind() == std::io::ErrorKind::NotFound =>
            {
                let message = format!("{}: missing (build it with: {build})", path.display());
                Err(missing(py, message, &path, Some(&build)))
            }
            Err(e) => Err(TablebaseError::new_err(format!(
                "{e} (rebuild it with: {build})"
            ))),
        }
    }
}

/// `n` positions drawn uniformly over the non-hole slots of `tables` (so each key in
/// proportion to its classes), with their stored values.
fn sample(tables: &[(Key, &Index, &Table)], n: usize, seed: u64) -> Columns {
    let mut starts = Vec::with_capacity(tables.len());
    let mut total = 0u64;
    for (_, index, _) in tables {
        starts.push(total);
        total += index.size();
    }
    let mut rng = SplitMix(seed ^ 0x6D6F_7272_6973);
    let mut out = Columns::default();
    if total == 0 {
        return out;
    }
    let mut drawn = 0;
    while drawn < n {
        let r = rng.below(total);
        let t = starts.partition_point(|&s| s <= r) - 1;
        let (key, index, table) = tables[t];
        let slot = r - starts[t];
        if index.is_hole(slot) {
            continue;
        }
        let (us, them) = index.unindex(slot);
        // In the placement phase the colour follows from the hands (White places first, so
        // White to move has as many stones in hand as Black); elsewhere it is free.
        let side = if key.is_moving_phase() {
            if rng.next() & 1 == 0 {
                Color::White
            } else {
                Color::Black
            }
        } else if key.us_hand == key.them_hand {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::from_sides(us, them, [key.us_hand, key.them_hand], side);
        let outcome = table.outcome(slot);
        out.white
            .extend_from_slice(&pos.stones(Color::White).bits().to_le_bytes());
        out.black
            .extend_from_slice(&pos.stones(Color::Black).bits().to_le_bytes());
        out.side.push(side as u8);
        out.hands.push(pos.in_hand(Color::White));
        out.hands.push(pos.in_hand(Color::Black));
        out.value.push(match outcome.value() {
            Value::Win => 1i8,
            Value::Draw => 0,
            Value::Loss => -1,
        } as u8);
        let plies = outcome
            .plies()
            .map_or(-1i16, |d| d.min(i16::MAX as u32) as i16);
        out.plies.extend_from_slice(&plies.to_le_bytes());
        drawn += 1;
    }
    out
}

#[pymodule]
fn _morris(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyPosition>()?;
    m.add_class::<PyTablebase>()?;
    m.add_class::<PyProbe>()?;
    m.add_class::<PyRankedMove>()?;
    m.add_class::<PyProved>()?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add("MissingTableError", py.get_type::<MissingTableError>())?;
    m.add_function(wrap_pyfunction!(board_points, m)?)?;
    m.add_function(wrap_pyfunction!(board_adjacency, m)?)?;
    m.add_function(wrap_pyfunction!(board_mills, m)?)?;
    Ok(())
}
