//! Choosing what a block stores: each position's own symbol, and in a hole whatever
//! compresses best.

use morris_tablebase::packed::Symbol;

/// The symbols to store, `None` for a hole: a hole repeats the previous slot's symbol (a run
/// goes on). `first` stands before the first slot.
pub fn fill<T: Symbol>(slots: impl Iterator<Item = Option<T>>, first: T) -> Vec<T> {
    let mut previous = first;
    slots
        .map(|s| {
            previous = s.unwrap_or(previous);
            previous
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_db::Value::{self, *};

    #[test]
    fn holes_continue_the_run() {
        let slots: Vec<Option<Value>> = vec![None, Some(Win), None, None, Some(Loss), None];
        assert_eq!(
            fill(slots.into_iter(), Draw),
            vec![Draw, Win, Win, Win, Loss, Loss]
        );
    }
}
