//! The one-ply search over captures that resolves a don't-care slot, shared by the packer
//! (which decides what is a don't-care) and the reader (which resolves it).

use morris_db::{Key, Outcome, Value};
use morris_engine::{for_each_move, Move, Position, Rules};
use morris_packed::{encode_outcome, encode_value, Kind, PackedTable};

use morris_db::format::DbError;

/// What a packed set stores: outcomes with distances, or values alone. Both are ordered best
/// first for the side to move, so the better of two is the minimum.
pub trait Symbol: Copy + Ord + Send + Sync + 'static {
    const KIND: Kind;
    /// A position whose side to move has lost already.
    const LOST: Self;
    /// Nothing is better: no capture can improve a slot that stores it.
    const BEST: Self;
    /// The mover's symbol after a move into a child worth `child` to its side to move.
    fn after_move(child: Self) -> Self;
    /// The symbol of an outcome.
    fn of(outcome: Outcome) -> Self;
    /// The stored symbol of a slot of a packed table of [`Symbol::KIND`].
    fn read(table: &PackedTable, slot: u64) -> Result<Self, DbError>;
    /// Appends the symbol to a block's bytes (and its tail).
    fn encode(self, bytes: &mut Vec<u8>, tail: &mut Vec<u8>);
}

impl Symbol for Outcome {
    const KIND: Kind = Kind::Distance;
    const LOST: Outcome = Outcome::Loss(0);
    const BEST: Outcome = Outcome::Win(1);

    fn after_move(child: Outcome) -> Outcome {
        child.after_move()
    }

    fn of(outcome: Outcome) -> Outcome {
        outcome
    }

    fn read(table: &PackedTable, slot: u64) -> Result<Outcome, DbError> {
        Ok(table.outcome(slot)?.expect("opened as an outcome table"))
    }

    fn encode(self, bytes: &mut Vec<u8>, tail: &mut Vec<u8>) {
        encode_outcome(self, bytes, tail);
    }
}

impl Symbol for Value {
    const KIND: Kind = Kind::Wdl;
    const LOST: Value = Value::Loss;
    const BEST: Value = Value::Win;

    fn after_move(child: Value) -> Value {
        -child
    }

    fn of(outcome: Outcome) -> Value {
        outcome.value()
    }

    fn read(table: &PackedTable, slot: u64) -> Result<Value, DbError> {
        table.value(slot)
    }

    fn encode(self, bytes: &mut Vec<u8>, _tail: &mut Vec<u8>) {
        encode_value(self, bytes);
    }
}

/// The best symbol the mover reaches by a capture, each child valued by `child`; `None` when
/// the position has no capture. Stops at the first capture worth [`Symbol::BEST`].
pub fn best_capture<T: Symbol, E>(
    pos: &Position,
    rules: &Rules,
    mut child: impl FnMut(&Position) -> Result<T, E>,
) -> Result<Option<T>, E> {
    let mut captures: Vec<Move> = Vec::new();
    for_each_move(pos, rules, |mv| {
        if mv.capture().is_some() {
            captures.push(mv);
        }
    });
    let mut best: Option<T> = None;
    for mv in captures {
        let mine = T::after_move(child(&pos.play(mv))?);
        best = Some(best.map_or(mine, |b| b.min(mine)));
        if mine == T::BEST {
            // Nothing beats it: the other captures need not be read.
            break;
        }
    }
    Ok(best)
}

/// The keys a capture from `key` can lead into, seen from the child's side to move, among
/// those with a table (the child's side keeps enough stones).
pub fn capture_keys(rules: &Rules, key: Key) -> Vec<Key> {
    if key.them == 0 || key.them - 1 + key.them_hand < rules.min_stones() as u8 {
        return Vec::new();
    }
    let mut keys = Vec::new();
    if key.us_hand > 0 {
        keys.push(Key::new(
            key.them - 1,
            key.us + 1,
            key.them_hand,
            key.us_hand - 1,
        ));
    }
    if key.us_hand == 0 || rules.place_or_move() {
        keys.push(Key::new(key.them - 1, key.us, key.them_hand, key.us_hand));
    }
    keys
}
