//! Fuzzing of the places where `morris` reads untrusted input: the position parser, the move
//! parser (command line, `play`'s prompt, the Python bindings), the table loader (any file in
//! a database directory) and the packed-table reader (any file a user downloads).
//!
//! # Why a stable-toolchain fuzzer, and not cargo-fuzz
//!
//! cargo-fuzz (libFuzzer) needs a nightly toolchain and the `cargo fuzz` subcommand, neither of
//! which the project's set-up (stable Rust, `bash scripts/test.sh`) or its CI has; a fuzz
//! layout that only runs on one developer's machine finds nothing after the first week. So
//! the driver here is small, dependency-free and runs on stable: a mutation loop
//! ([`Mutator`]) over a corpus of seeds, with structure-aware mutations (the notation's
//! tokens, the header's fields and sizes, a recomputed checksum so that mutated tables get
//! past it) and feedback by *outcome class* instead of code coverage: an input whose result
//! (which error, or which shape of success) has not been seen yet joins the corpus. That is
//! weaker than coverage guidance, but the inputs are small and structured, and the same
//! targets take arbitrary bytes, so a libFuzzer harness could call them unchanged
//! (`fuzz_target!(|data| { morris_fuzz::run_one(Target::Table, data); })`).
//!
//! Every target must return for any input: a panic is a bug. `scripts/fuzz.sh` runs each for
//! a bounded time; the inputs kept in `fuzz/corpus/<target>/` (seeds, and every input that
//! ever found a bug) are replayed by `cargo test` (`fuzz/tests/corpus.rs`).
#![forbid(unsafe_code)]

use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use morris_db::format::{Checks, Encoding, Metric, Table, Writer, HEADER_LEN};
use morris_db::{Key, Outcome};
use morris_engine::{legal_moves, Game, Move, Position, Rules};
use morris_packed::{
    compress, encode_outcomes, encode_values, Kind, Layout, PackWriter, PackedTable,
    PACKED_HEADER_LEN,
};

/// What a fuzz input is fed to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// `Position::parse`, then printing, re-parsing and move generation on what it accepts.
    Position,
    /// `Move::parse` and `Position::parse_move`.
    Move,
    /// The table loader on arbitrary bytes as a file.
    Table,
    /// The packed-table reader on arbitrary bytes as a file, every slot read.
    Packed,
}

impl Target {
    pub const ALL: [Target; 4] = [
        Target::Position,
        Target::Move,
        Target::Table,
        Target::Packed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Position => "position",
            Target::Move => "move",
            Target::Table => "table",
            Target::Packed => "packed",
        }
    }

    pub fn from_name(s: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == s)
    }
}

/// The rules an input's first byte selects: any game, flying or not, and a stone count the
/// command line accepts (`--stones`: 3 up to the game's own number or half the board's
/// points, at most 12).
fn rules_of(b: u8) -> Rules {
    let game = Game::ALL[(b % 7) as usize];
    let mut r = Rules::standard(game);
    if b & 0x08 != 0 {
        r.flying = !r.flying;
    }
    if b & 0x80 != 0 {
        let max = r.stones.max((game.board().len() / 2).min(12) as u8);
        r.stones = 3 + (b >> 4 & 7) % (max - 2);
    }
    r
}

/// Feeds one input to a target and returns its outcome class (the error's variant, or a
/// coarse description of the success), for the fuzzer's feedback. Panics on a bug: a broken
/// invariant, or a panic inside the code under test.
pub fn run_one(target: Target, data: &[u8]) -> String {
    match target {
        Target::Position => position(data),
        Target::Move => moves(data),
        Target::Table => table(data),
        Target::Packed => packed(data),
    }
}

/// The variant name of an error's `Debug` form: `UnknownPoint { .. }` gives `UnknownPoint`.
fn variant(e: &impl std::fmt::Debug) -> String {
    let s = format!("{e:?}");
    let end = s.find([' ', '(', '{']).unwrap_or(s.len());
    s[..end].to_string()
}

fn position(data: &[u8]) -> String {
    let Some((&config, text)) = data.split_first() else {
        return "empty".into();
    };
    let rules = rules_of(config);
    let text = String::from_utf8_lossy(text);
    let pos = match Position::parse(&text, &rules) {
        Ok(p) => p,
        Err(e) => {
            // Errors are one line (the command line prints them as such).
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "multi-line error for {text:?}: {msg}");
            return format!("{}:{}", rules.game, variant(&e));
        }
    };
    let printed = pos.notation(&rules).to_string();
    let again = Position::parse(&printed, &rules)
        .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?}, which does not parse: {e}"));
    assert_eq!(again, pos, "{text:?} -> {printed:?} -> another position");
    let moves = legal_moves(&pos, &rules);
    for &mv in &moves {
        let name = mv.notation(rules.board()).to_string();
        assert_eq!(
            Move::parse(&name, rules.board()),
            Ok(mv),
            "{name} in {printed}"
        );
        assert_eq!(pos.parse_move(&name, &rules), Ok(mv), "{name} in {printed}");
        let child = pos.play(mv);
        let _ = child.outcome(&rules);
        let _ = child.notation(&rules).to_string();
    }
    let over = pos.outcome(&rules).is_some();
    format!(
        "{}:ok:{}:{}",
        rules.game,
        if over { "over" } else { "on" },
        moves.len().min(4)
    )
}

fn moves(data: &[u8]) -> String {
    let [config, plies, text @ ..] = data else {
        return "short".into();
    };
    let rules = rules_of(*config);
    let board = rules.board();
    let text = String::from_utf8_lossy(text);
    let parsed = Move::parse(&text, board);
    if let Ok(mv) = parsed {
        // What parses prints back to a text that parses to the same move.
        let name = mv.notation(board).to_string();
        assert_eq!(Move::parse(&name, board), Ok(mv), "{text:?} -> {name:?}");
    }
    // The same text against a position of play: a deterministic game of `plies` plies.
    let mut pos = Position::start(&rules);
    for i in 0..*plies as usize % 24 {
        let moves = legal_moves(&pos, &rules);
        if moves.is_empty() || pos.outcome(&rules).is_some() {
            break;
        }
        pos = pos.play(moves[(i * 7 + *plies as usize) % moves.len()]);
    }
    let legal = pos.parse_move(&text, &rules);
    if let Ok(mv) = legal {
        assert_eq!(parsed, Ok(mv));
        let _ = pos.play(mv).outcome(&rules);
    }
    match (parsed, legal) {
        (Err(e), _) => format!("{}:{}", rules.game, variant(&e)),
        (Ok(_), Err(e)) => format!("{}:parsed:{}", rules.game, variant(&e)),
        (Ok(_), Ok(_)) => format!("{}:legal", rules.game),
    }
}

/// The first byte of a table input: bit 0 recomputes the header's checksum over the rest
/// (so that mutations reach the checks behind it), bit 1 goes through a file and the memory
/// map instead of bytes in memory.
fn table(data: &[u8]) -> String {
    let Some((&flags, bytes)) = data.split_first() else {
        return "empty".into();
    };
    let mut bytes = bytes.to_vec();
    if flags & 1 != 0 && bytes.len() >= HEADER_LEN {
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[HEADER_LEN..]);
        bytes[40..48].copy_from_slice(&sum.to_le_bytes());
    }
    let name = Path::new("fuzz.mdb");
    let file = (flags & 2 != 0).then(|| {
        let path = scratch_file();
        std::fs::write(&path, &bytes).expect("write the fuzz input");
        path
    });
    let mut class = String::new();
    for checksum in [false, true] {
        let checks = Checks { checksum };
        let opened = match &file {
            Some(path) => Table::open_any(path, checks),
            None => Table::from_bytes(name, bytes.clone(), checks),
        };
        let t = match opened {
            Ok(t) => t,
            Err(e) => {
                let msg = e.to_string();
                assert!(!msg.contains('\n'), "multi-line error: {msg}");
                class += &format!("{}/", variant(&e));
                continue;
            }
        };
        // Every slot can be read, checked or not (a damaged slot reads as a draw).
        for slot in 0..t.len() {
            let _ = t.outcome(slot);
        }
        let _ = t.overflow_records().count();
        let verified = t.verify();
        if checksum {
            assert!(verified.is_ok(), "opened with checks, then fails them");
        }
        class += match verified {
            Ok(()) => "ok/",
            Err(_) => "unverified/",
        };
        // What opens also opens the other way, to the same header.
        let other = match &file {
            Some(path) => Table::read_any(path, checks),
            None => Table::from_bytes(name, bytes.clone(), checks),
        };
        assert_eq!(other.expect("opens both ways").header(), t.header());
    }
    class
}

/// The first byte of a packed input: bit 0 recomputes every block's hash in the index and the
/// header's checksum (so that mutated blocks reach the decompressor and the block checks).
fn packed(data: &[u8]) -> String {
    let Some((&flags, bytes)) = data.split_first() else {
        return "empty".into();
    };
    let mut bytes = bytes.to_vec();
    if flags & 1 != 0 {
        rehash_packed(&mut bytes);
    }
    let path = scratch_file().with_extension("mpk");
    std::fs::write(&path, &bytes).expect("write the fuzz input");
    let t = match PackedTable::open_any(&path) {
        Ok(t) => t,
        Err(e) => {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "multi-line error: {msg}");
            return format!("open:{}", variant(&e));
        }
    };
    let mut class = String::from("opened/");
    let mut failed = None;
    for slot in 0..t.len() {
        let read = match t.kind() {
            Kind::Wdl => t.value(slot).map(|_| ()),
            Kind::Distance => t.outcome(slot).map(|_| ()),
        };
        if let Err(e) = read {
            // The same slot fails the same way again: a damaged block is never read as data.
            assert!(t.value(slot).is_err(), "a failed block read once, then not");
            failed.get_or_insert(variant(&e));
        }
    }
    class += failed.as_deref().unwrap_or("read");
    class += if t.verify().is_ok() {
        "/ok"
    } else {
        "/unverified"
    };
    class
}

/// Makes a mutated packed file's hashes agree with its bytes, where its header and index can be
/// read at all.
fn rehash_packed(bytes: &mut [u8]) {
    let u64_at = |b: &[u8], o: usize| -> Option<u64> {
        Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
    };
    let (Some(blocks), Some(index)) = (u64_at(bytes, 40), u64_at(bytes, 48)) else {
        return;
    };
    let (Ok(blocks), Ok(index)) = (usize::try_from(blocks), usize::try_from(index)) else {
        return;
    };
    if blocks > 1 << 20 || index.saturating_add((2 * blocks + 1) * 8) > bytes.len() {
        return;
    }
    for b in 0..blocks {
        let (Some(start), Some(end)) = (
            u64_at(bytes, index + 8 * b),
            u64_at(bytes, index + 8 * b + 8),
        ) else {
            return;
        };
        let (start, end) = (start as usize, end as usize);
        if start <= end && end <= bytes.len() {
            let h = xxhash_rust::xxh3::xxh3_64(&bytes[start..end]);
            let at = index + 8 * (blocks + 1 + b);
            bytes[at..at + 8].copy_from_slice(&h.to_le_bytes());
        }
    }
    if bytes.len() >= PACKED_HEADER_LEN {
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes[PACKED_HEADER_LEN..]);
        bytes[56..64].copy_from_slice(&sum.to_le_bytes());
    }
}

/// A file for the loader's memory-map path, one per thread; in memory (`/dev/shm`) where the
/// system has it, as rewriting a file on a disk file system a thousand times a second makes
/// the disk, not the loader, the bottleneck.
fn scratch_file() -> PathBuf {
    let id = format!("{:?}", std::thread::current().id());
    let id: String = id.chars().filter(char::is_ascii_digit).collect();
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    dir.join(format!("morris-fuzz-{}-{id}.mdb", std::process::id()))
}

/// Seeds for a target: positions and moves of every game, and small valid tables of every
/// encoding (with an overflow table among them), so that mutation starts from inputs that get
/// past the first checks.
pub fn seeds(target: Target) -> Vec<Vec<u8>> {
    let with = |config: u8, text: &str| {
        let mut v = vec![config];
        v.extend_from_slice(text.as_bytes());
        v
    };
    match target {
        Target::Position => vec![
            with(0, "startpos"),
            with(0, "W:d7,g1,g7 B:a4,d5,g4 b 0 0"),
            with(0, "W:a1,d1,g1 B:a7,d7 w 4 5"),
            with(0, "W: B: w 9 9"),
            with(0x08, "W:a1,b2,c3 B:g7,f6,e5 b"),
            with(2, "W:a1,b2 B:c3 w 4 5"),
            with(4, "W:a1 B:b2 w 2 2"),
            with(5, "W:a1,b2 B:c3 b 3 2"),
            with(6, "W:a1,b2,c3 B:f5,e4 w 9 10"),
            with(0x90, "W:a1,a4,a7 B:g1,g4,g7 w 0 0"),
        ],
        Target::Move => vec![
            with(0, "\0d6"),
            with(0, "\x05d6-d5"),
            with(0, "\x07a1xd7"),
            with(0, "\x14b6-c5xg4"),
            with(4, "\x03e5"),
            with(6, "\x09a1-a2"),
        ]
        .into_iter()
        .collect(),
        Target::Table => table_seeds(),
        Target::Packed => packed_seeds(),
    }
}

/// Small valid packed tables of both kinds, one with outcome codes past a byte (a block tail),
/// in blocks of a few slots so that a table has several.
fn packed_seeds() -> Vec<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("morris-fuzz-pseeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let rules = Rules::standard(Game::Three);
    let key = Key::moving(3, 3);
    let slots = morris_db::slots(rules.board(), key);
    let mut out = Vec::new();
    for (n, kind) in [Kind::Wdl, Kind::Distance, Kind::Distance]
        .into_iter()
        .enumerate()
    {
        let path = dir.join(format!("seed{n}.mpk"));
        let layout = Layout {
            block_slots: 7 + 20 * n as u32,
            level: 3,
            weaker_searched: n == 1,
        };
        let mut w =
            PackWriter::create(&path, rules, Metric::Plain, key, kind, layout).expect("create");
        let per = layout.block_slots as u64;
        for b in 0..w.blocks() {
            let outcomes = (b * per..((b + 1) * per).min(slots)).map(|s| match s % 4 {
                0 => Outcome::Draw,
                1 if n == 2 => Outcome::Win(301 + 2 * s as u32),
                1 | 2 => Outcome::Win(1 + 2 * (s % 5) as u32),
                _ => Outcome::Loss(2 * (s % 5) as u32),
            });
            let block = match kind {
                Kind::Wdl => encode_values(outcomes.map(|o| o.value())),
                Kind::Distance => encode_outcomes(outcomes),
            };
            w.append(&compress(&block, 3)).expect("append");
        }
        w.finish().expect("finish");
        let mut seed = vec![0u8];
        seed.extend(std::fs::read(&path).expect("read back"));
        out.push(seed);
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Small valid tables: the plain and no-capture encodings of a few keys, one with overflow
/// records; written through the real writer into a scratch directory and read back.
fn table_seeds() -> Vec<Vec<u8>> {
    let dir = std::env::temp_dir().join(format!("morris-fuzz-seeds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let three = Rules::standard(Game::Three);
    let ttt = Rules::standard(Game::TicTacToe);
    let cases: [(Rules, Metric, Encoding, Key); 4] = [
        (
            three,
            Metric::Plain,
            Encoding::DistanceByte,
            Key::moving(3, 3),
        ),
        (
            three,
            Metric::NoCapture(20),
            Encoding::ZeroingByte,
            Key::moving(3, 3),
        ),
        (
            three,
            Metric::NoCapture(20),
            Encoding::Wdl2,
            Key::new(1, 1, 2, 2),
        ),
        (
            ttt,
            Metric::Plain,
            Encoding::DistanceByte,
            Key::new(2, 1, 2, 4),
        ),
    ];
    let mut out = Vec::new();
    for (n, (rules, metric, encoding, key)) in cases.into_iter().enumerate() {
        let path = dir.join(format!("seed{n}.mdb"));
        let mut w = Writer::create_with(&path, rules, metric, encoding, key).expect("create");
        let slots = morris_db::slots(rules.board(), key);
        for s in 0..slots {
            let o = match (encoding, s % 5) {
                (_, 0) => Outcome::Draw,
                // Distances past a byte go to the overflow table.
                (Encoding::DistanceByte, 1) if n == 0 => Outcome::Win(301 + 2 * s as u32),
                (Encoding::Wdl2, _) => Outcome::Win(1),
                (_, 1 | 3) => Outcome::Win(1 + 2 * (s % 7) as u32),
                _ => Outcome::Loss(2 * (s % 7) as u32),
            };
            w.push(o).expect("push");
        }
        w.finish().expect("finish");
        let mut seed = vec![0u8];
        seed.extend(std::fs::read(&path).expect("read back"));
        out.push(seed);
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// A small, fast, seedable generator (xorshift64*): the fuzzer must be reproducible from its
/// seed, and needs no statistical quality beyond spreading its choices.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Tokens the notation is made of, for the text targets' insertions.
const TEXT_TOKENS: &[&str] = &[
    "W:",
    "B:",
    " w",
    " b",
    " ",
    ",",
    "-",
    "x",
    "startpos",
    "a1",
    "d7",
    "g7",
    "b2",
    "e5",
    "f6",
    "c3",
    "a4",
    "d5",
    "0",
    "9",
    "12",
    "255",
    "256",
    "00",
    "1",
    "\t",
    "\n",
    "é",
    "W:a1,a1",
    "a99999999999999999999",
];

/// Byte values worth trying anywhere.
const INTERESTING: &[u8] = &[0, 1, 2, 3, 4, 7, 8, 9, 12, 13, 0x7f, 0x80, 0xfe, 0xff];

/// Mutations of a corpus entry: generic byte edits, plus the target's own (notation tokens;
/// header fields and file sizes).
pub struct Mutator {
    target: Target,
    rng: Rng,
}

impl Mutator {
    pub fn new(target: Target, seed: u64) -> Mutator {
        Mutator {
            target,
            rng: Rng::new(seed),
        }
    }

    /// A mutant of `input`, possibly spliced with `other`.
    pub fn mutate(&mut self, input: &[u8], other: &[u8]) -> Vec<u8> {
        let mut v = input.to_vec();
        let rounds = 1 + self.rng.below(4);
        for _ in 0..rounds {
            self.once(&mut v, other);
        }
        v.truncate(1 << 16);
        v
    }

    fn once(&mut self, v: &mut Vec<u8>, other: &[u8]) {
        let r = &mut self.rng;
        let pos = |r: &mut Rng, v: &Vec<u8>| r.below(v.len() + 1);
        let binary = matches!(self.target, Target::Table | Target::Packed);
        let choices = if binary { 10 } else { 8 };
        match r.below(choices) {
            0 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] ^= 1 << r.below(8);
            }
            1 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] = INTERESTING[r.below(INTERESTING.len())];
            }
            2 if !v.is_empty() => {
                let i = r.below(v.len());
                let n = 1 + r.below((v.len() - i).min(16));
                v.drain(i..i + n);
            }
            3 if !v.is_empty() => {
                let i = r.below(v.len());
                let n = 1 + r.below((v.len() - i).min(16));
                let copy = v[i..i + n].to_vec();
                let at = pos(r, v);
                v.splice(at..at, copy);
            }
            4 if !other.is_empty() => {
                // Splice: a prefix of this input, a suffix of another.
                let cut = pos(r, v);
                let from = r.below(other.len());
                v.truncate(cut);
                v.extend_from_slice(&other[from..]);
            }
            5 if !v.is_empty() => {
                // The configuration byte: another game, other rules, other loader path.
                v[0] = r.next_u64() as u8;
            }
            6 | 7 if !binary => {
                let t = TEXT_TOKENS[r.below(TEXT_TOKENS.len())].as_bytes();
                let at = pos(r, v).max(1.min(v.len()));
                v.splice(at..at, t.iter().copied());
            }
            6 | 7 => {
                // A header field (after the flags byte) set to an edge value.
                let fields: [(usize, usize); 9] = [
                    (8, 4),
                    (12, 1),
                    (13, 1),
                    (14, 1),
                    (15, 1),
                    (16, 4),
                    (20, 2),
                    (24, 8),
                    (32, 8),
                ];
                let (off, len) = fields[r.below(fields.len())];
                let value: u64 = match r.below(5) {
                    0 => 0,
                    1 => u64::MAX,
                    2 => r.below(16) as u64,
                    3 => 1 << r.below(64),
                    _ => r.next_u64(),
                };
                let at = 1 + off;
                if v.len() >= at + len {
                    v[at..at + len].copy_from_slice(&value.to_le_bytes()[..len]);
                }
            }
            8 => {
                // Truncate or extend the file, often by one overflow record.
                let delta = [1usize, 10, 64, r.below(100)][r.below(4)];
                if r.below(2) == 0 {
                    v.truncate(v.len().saturating_sub(delta));
                } else {
                    let fill = INTERESTING[r.below(INTERESTING.len())];
                    v.resize(v.len() + delta, fill);
                }
            }
            9 if !v.is_empty() => {
                // Recompute the checksum, or read through the file and its map.
                v[0] ^= 1 << r.below(2);
            }
            _ => {
                let at = pos(r, v);
                v.insert(at, r.next_u64() as u8);
            }
        }
    }
}

/// An input that made a target panic.
#[derive(Debug)]
pub struct Crash {
    pub input: Vec<u8>,
    pub message: String,
}

/// What a fuzzing run did.
#[derive(Debug, Default)]
pub struct Summary {
    pub executions: u64,
    pub corpus: usize,
    pub classes: usize,
    /// The inputs that showed an outcome class neither the seeds nor the corpus had, to keep.
    pub new_inputs: Vec<Vec<u8>>,
}

/// Fuzzes `target` from `corpus` (plus the built-in seeds) until `budget` runs out or
/// `max_runs` inputs were tried; stops at the first panic and returns the input.
pub fn fuzz(
    target: Target,
    corpus: &[Vec<u8>],
    seed: u64,
    budget: Duration,
    max_runs: u64,
) -> Result<Summary, Box<Crash>> {
    let mut pool: Vec<Vec<u8>> = seeds(target);
    pool.extend(corpus.iter().cloned());
    let mut classes = HashSet::new();
    for input in &pool {
        classes.insert(check(target, input)?);
    }
    let known = pool.len();
    let mut mutator = Mutator::new(target, seed);
    let start = Instant::now();
    let mut runs = 0u64;
    while runs < max_runs && start.elapsed() < budget {
        for _ in 0..64 {
            let a = &pool[mutator.rng.below(pool.len())];
            let b = &pool[mutator.rng.below(pool.len())];
            let input = mutator.mutate(a, b);
            let class = check(target, &input)?;
            runs += 1;
            if classes.insert(class) {
                pool.push(input);
            }
        }
    }
    Ok(Summary {
        executions: runs,
        corpus: pool.len(),
        classes: classes.len(),
        new_inputs: pool.split_off(known),
    })
}

/// Runs one input, turning a panic into a [`Crash`].
pub fn check(target: Target, input: &[u8]) -> Result<String, Box<Crash>> {
    catch_unwind(AssertUnwindSafe(|| run_one(target, input))).map_err(|e| {
        let message = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic".to_string());
        Box::new(Crash {
            input: input.to_vec(),
            message,
        })
    })
}

/// The inputs kept in a corpus directory (missing: none).
pub fn load_corpus(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<(PathBuf, Vec<u8>)> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .collect();
    v.sort();
    v
}
