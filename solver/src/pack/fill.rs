//! Choosing what a block stores: each slot's own value, or for a don't-care the symbol that
//! compresses best.

use super::captures::Symbol;

/// What a slot may hold.
#[derive(Copy, Clone, Debug)]
pub enum Freedom<T> {
    /// A hole of the index: anything.
    Any,
    /// Exactly this.
    Exact(T),
    /// Anything no better than this (the slot's best move is a capture worth it).
    NoBetterThan(T),
}

impl<T: Symbol> Freedom<T> {
    /// The freedom of a slot worth `value` whose best capture is worth `capture`; `hole` for
    /// a slot no position maps to.
    pub fn of(hole: bool, value: T, capture: Option<T>) -> Freedom<T> {
        match capture {
            _ if hole => Freedom::Any,
            Some(c) if c == value => Freedom::NoBetterThan(value),
            _ => Freedom::Exact(value),
        }
    }

    fn allows(self, s: T) -> bool {
        match self {
            Freedom::Any => true,
            Freedom::Exact(v) => s == v,
            Freedom::NoBetterThan(v) => s >= v,
        }
    }

    fn own(self, previous: T) -> T {
        match self {
            Freedom::Any => previous,
            Freedom::Exact(v) | Freedom::NoBetterThan(v) => v,
        }
    }
}

/// The symbols to store: the previous slot's symbol wherever the slot allows it (a run goes
/// on), else the slot's own value. `first` stands before the first slot.
pub fn fill<T: Symbol>(slots: impl Iterator<Item = Freedom<T>>, first: T) -> Vec<T> {
    let mut previous = first;
    slots
        .map(|f| {
            let s = if f.allows(previous) {
                previous
            } else {
                f.own(previous)
            };
            previous = s;
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_db::Value::{self, *};

    #[test]
    fn runs_go_on_where_allowed() {
        let slots: Vec<Freedom<Value>> = vec![
            Freedom::Exact(Win),
            Freedom::Any,
            Freedom::NoBetterThan(Draw),
            Freedom::NoBetterThan(Win),
            Freedom::Exact(Loss),
            Freedom::NoBetterThan(Draw),
            Freedom::NoBetterThan(Win),
        ];
        assert_eq!(
            fill(slots.into_iter(), Draw),
            vec![Win, Win, Draw, Draw, Loss, Loss, Loss]
        );
    }
}
