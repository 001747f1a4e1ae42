//! What a packed set stores per slot: outcomes with distances, or values alone.

use morris_db::format::DbError;
use morris_db::{Outcome, Value};
use morris_packed::{encode_outcomes, encode_values, Block, Kind, PackedTable};

/// A symbol of a packed set, read and written by the one code path that serves both kinds.
pub trait Symbol: Copy + Eq + Send + Sync + 'static {
    const KIND: Kind;
    /// A position whose side to move has lost already.
    const LOST: Self;
    /// The symbol of an outcome.
    fn of(outcome: Outcome) -> Self;
    /// An outcome with this symbol, for the minimax rule (a value stands for any outcome of
    /// that value: the rule's value does not depend on the distances).
    fn outcome(self) -> Outcome;
    /// The stored symbol of a slot of a packed table of [`Symbol::KIND`].
    fn read(table: &PackedTable, slot: u64) -> Result<Self, DbError>;
    /// The symbol of slot `i` of a decoded block of [`Symbol::KIND`], for scans that decode
    /// each block once.
    fn in_block(block: &Block, i: usize) -> Self;
    /// The decompressed bytes of a block of these symbols.
    fn encode(symbols: &[Self]) -> Vec<u8>;
}

impl Symbol for Outcome {
    const KIND: Kind = Kind::Distance;
    const LOST: Outcome = Outcome::Loss(0);

    fn of(outcome: Outcome) -> Outcome {
        outcome
    }

    fn outcome(self) -> Outcome {
        self
    }

    fn read(table: &PackedTable, slot: u64) -> Result<Outcome, DbError> {
        Ok(table.outcome(slot)?.expect("opened as an outcome table"))
    }

    fn in_block(block: &Block, i: usize) -> Outcome {
        block.outcome(i)
    }

    fn encode(symbols: &[Outcome]) -> Vec<u8> {
        encode_outcomes(symbols.iter().copied())
    }
}

impl Symbol for Value {
    const KIND: Kind = Kind::Wdl;
    const LOST: Value = Value::Loss;

    fn of(outcome: Outcome) -> Value {
        outcome.value()
    }

    fn outcome(self) -> Outcome {
        match self {
            Value::Win => Outcome::Win(1),
            Value::Draw => Outcome::Draw,
            Value::Loss => Outcome::Loss(0),
        }
    }

    fn read(table: &PackedTable, slot: u64) -> Result<Value, DbError> {
        table.value(slot)
    }

    fn in_block(block: &Block, i: usize) -> Value {
        block.value(i, Kind::Wdl)
    }

    fn encode(symbols: &[Value]) -> Vec<u8> {
        encode_values(symbols.iter().copied())
    }
}
