//! The key graph of a solve: which units of work there are, which keys each holds, and which
//! other units its moves read, in an order where every unit comes after the units it reads.
//!
//! One structure answers every "what comes before what" question: the plan's rows and
//! figures, the solver's steps and the tables it loads for each, the placement pass's fixed-side
//! look-ups (by the kind of move that leads into a child), and the jobs of a cluster workflow.
//! Before it, each of those rebuilt the graph in its own way, with vectors whose items meant
//! something by their position (the first child was the placement, the second the capture).

use std::collections::{BTreeMap, BTreeSet};

use morris_engine::Rules;

use crate::key::Key;

/// How a move leads from a key into another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Via {
    /// A stone placed from the hand, no capture.
    Place,
    /// A placement that completes a mill and takes a stone.
    PlaceCapture,
    /// A stone slid (or flown) without capture: into the colour swap of the key.
    Slide,
    /// A slide that completes a mill and takes a stone.
    SlideCapture,
}

/// A move from one key into another, by its kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Edge {
    pub from: Key,
    pub via: Via,
    pub to: Key,
}

/// How a unit is solved.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// A moving-phase key and its colour swap, solved together by retrograde analysis as
    /// quiet moves lead from one to the other.
    Moving,
    /// A placement key, solved by one forward pass over its children; its slots are
    /// independent of one another, so the pass can be split into slot ranges.
    Placement,
    /// Where a player may slide instead of placing (Lasker Morris), a key with stones in hand
    /// and its colour swap, solved together by retrograde analysis like a moving-phase pair.
    HandPair,
}

impl UnitKind {
    /// The kind of unit `key` belongs to under `rules`.
    pub fn of(rules: &Rules, key: Key) -> UnitKind {
        if key.is_moving_phase() {
            UnitKind::Moving
        } else if rules.place_or_move() {
            UnitKind::HandPair
        } else {
            UnitKind::Placement
        }
    }

    /// True for a unit solved by retrograde analysis, whose positions can follow one another
    /// without a zeroing ply: its tables under the no-capture rule hold distances to zeroing.
    pub fn is_cyclic(self) -> bool {
        self != UnitKind::Placement
    }
}

/// One unit of work: solved in memory as a whole (or, a placement key, range by range) from
/// the units it reads, and written as one file per key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub kind: UnitKind,
    /// The unit's keys: one, or a key and its colour swap (M-O first with M >= O in the
    /// moving phase; in the order of the placement keys otherwise).
    keys: Vec<Key>,
    /// The moves that leave the unit, key by key in the order of `keys`, each key's in the
    /// order of [`children`].
    pub edges: Vec<Edge>,
    /// The units those moves lead into, by their place in [`KeyGraph::units`], ascending.
    pub reads: Vec<usize>,
}

impl Unit {
    /// The unit's keys (a copy: callers iterate them by value).
    pub fn keys(&self) -> Vec<Key> {
        self.keys.clone()
    }

    /// The first key, which names the unit on the command line (`morris solve --key`).
    pub fn first_key(&self) -> Key {
        self.keys[0]
    }

    /// True when the unit is solved by retrograde analysis ([`UnitKind::is_cyclic`]).
    pub fn is_cyclic(&self) -> bool {
        self.kind.is_cyclic()
    }

    /// The keys whose tables the unit reads while it is solved, sorted, each once.
    pub fn read_keys(&self) -> Vec<Key> {
        let keys: BTreeSet<Key> = self.edges.iter().map(|e| e.to).collect();
        keys.into_iter().collect()
    }

    /// `5-4 + 4-5`, `5-5`, a placement key `4-3-5-5`, or a pair with stones in hand
    /// `2-1-3-4 + 1-2-4-3`.
    pub fn name(&self) -> String {
        let names: Vec<String> = self.keys.iter().map(|&k| label(k)).collect();
        names.join(" + ")
    }
}

/// `M-O` for a moving-phase key (the pair is named by it), the whole key otherwise.
pub fn label(k: Key) -> String {
    if k.is_moving_phase() {
        format!("{}-{}", k.us, k.them)
    } else {
        k.to_string()
    }
}

/// Every unit of a solve up to `max_stones` a side, in an order where each unit comes after
/// the units it reads: the moving-phase pairs (where stones move), fewest stones first, then
/// the placement keys, fewest stones in hand first.
#[derive(Clone, Debug)]
pub struct KeyGraph {
    rules: Rules,
    units: Vec<Unit>,
    /// `units[..moving]` are the moving phase.
    moving: usize,
    /// The unit holding each key.
    unit_of: BTreeMap<Key, usize>,
}

impl KeyGraph {
    pub fn new(rules: &Rules, max_stones: u8) -> KeyGraph {
        let mut groups: Vec<(UnitKind, Vec<Key>)> = Vec::new();
        if rules.stones_move() {
            for (m, o) in moving_pairs(rules, max_stones) {
                let keys = if m == o {
                    vec![Key::moving(m, o)]
                } else {
                    vec![Key::moving(m, o), Key::moving(o, m)]
                };
                groups.push((UnitKind::Moving, keys));
            }
        }
        let moving = groups.len();
        // `placement_keys` puts a key beside its colour swap.
        for key in placement_keys(rules, max_stones) {
            let kind = UnitKind::of(rules, key);
            match groups.last_mut() {
                Some((UnitKind::HandPair, pair))
                    if kind == UnitKind::HandPair && pair[0].swapped() == key =>
                {
                    pair.push(key)
                }
                _ => groups.push((kind, vec![key])),
            }
        }
        let unit_of: BTreeMap<Key, usize> = groups
            .iter()
            .enumerate()
            .flat_map(|(n, (_, keys))| keys.iter().map(move |&k| (k, n)))
            .collect();
        let units = groups
            .into_iter()
            .map(|(kind, keys)| {
                let edges: Vec<Edge> = keys
                    .iter()
                    .flat_map(|&k| children(rules, k))
                    .filter(|e| !keys.contains(&e.to))
                    .collect();
                let reads: BTreeSet<usize> = edges
                    .iter()
                    .filter_map(|e| unit_of.get(&e.to))
                    .copied()
                    .collect();
                Unit {
                    kind,
                    keys,
                    edges,
                    reads: reads.into_iter().collect(),
                }
            })
            .collect();
        KeyGraph {
            rules: *rules,
            units,
            moving,
            unit_of,
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Every unit, each after the units it reads.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Every key of the graph, each after the keys it reads: the moving phase, then the
    /// placement keys.
    pub fn keys(&self) -> Vec<Key> {
        self.units.iter().flat_map(Unit::keys).collect()
    }

    /// The moving-phase units (a prefix of [`units`](KeyGraph::units)).
    pub fn moving(&self) -> &[Unit] {
        &self.units[..self.moving]
    }

    /// The placement-phase units (the rest).
    pub fn placement(&self) -> &[Unit] {
        &self.units[self.moving..]
    }

    /// The place in [`units`](KeyGraph::units) of the unit holding `key`, if it is in the
    /// graph.
    pub fn unit_of(&self, key: Key) -> Option<usize> {
        self.unit_of.get(&key).copied()
    }
}

/// The moving-phase pairs `(M, O)`, M >= O, with 3 ..= `max_stones` stones a side that fit on
/// the board, fewer stones in total first (the pairs a capture leads into).
fn moving_pairs(rules: &Rules, max_stones: u8) -> Vec<(u8, u8)> {
    let mut pairs: Vec<(u8, u8)> = Vec::new();
    for m in super::MIN_STONES..=max_stones {
        for o in super::MIN_STONES..=m {
            if (m + o) as usize <= rules.board().len() {
                pairs.push((m, o));
            }
        }
    }
    pairs.sort_by_key(|&(m, o)| (m + o, m));
    pairs
}

/// The placement-phase keys that can arise from the start under strict alternation (White
/// first), children before parents, restricted to keys whose stones (on board and in hand)
/// stay within `max_stones` a side: the consistent subset that the moving-phase keys up to
/// `max_stones` a side can support.
///
/// The keys are those [`children`] reaches from the start: a search over stone counts alone,
/// so it keeps every key a game can reach (the board only forbids more), and drops keys that
/// a bound on each side's captures alone would keep. In Nine Men's Morris that bound kept 36
/// keys no game reaches, such as 2-2-1-1: both sides would have placed three stones and
/// captured once, but a capture needs a third stone on the board, and the first side to make
/// one leaves the other with too few to reply in kind.
pub fn placement_keys(rules: &Rules, max_stones: u8) -> Vec<Key> {
    let s = rules.stones;
    let mut reached = BTreeSet::new();
    let mut todo = vec![Key::new(0, 0, s, s)];
    while let Some(key) = todo.pop() {
        if key.is_moving_phase() || !reached.insert(key) {
            continue;
        }
        todo.extend(children(rules, key).into_iter().map(|e| e.to));
    }
    let mut keys: Vec<Key> = reached
        .into_iter()
        .filter(|k| k.us + k.us_hand <= max_stones && k.them + k.them_hand <= max_stones)
        .collect();
    // Fewest stones in hand first: those keys are the children of the others. Where a player
    // may move instead of placing, a capture by a slide keeps the hands: then fewest stones on
    // the board first, and a key beside its colour swap (the two are solved together).
    keys.sort_by_key(|k| {
        let pair = (*k).min(k.swapped());
        (k.in_hand(), k.on_board(), pair, *k)
    });
    keys
}

/// The moves of `key` into other keys (or into itself, for a moving-phase key whose sides have
/// as many stones), one edge per kind of move.
///
/// Placement keys: the placement, and with a capture when placements capture, the placed
/// stone can complete a mill (three stones of the mover on the board) and the capture does not
/// end the game; none when the board is full. Where a player may move instead of placing
/// (Lasker Morris), then the slide, which keeps the hands and so leads into the colour swap of
/// the key, and the slide that captures. Moving-phase keys: the slide and its capture, whatever
/// the board (a full board has no moves, but its pair is still one unit read by the pairs
/// above it).
pub fn children(rules: &Rules, key: Key) -> Vec<Edge> {
    let full = key.on_board() as usize >= rules.board().len();
    let mut v = Vec::new();
    let mut edge = |via, to| v.push(Edge { from: key, via, to });
    // Taking a stone needs three of the mover's on the board after the move and an enemy
    // stone on it, and must leave the enemy enough stones to play on.
    let captures = |mover_after: u8| {
        rules.line_captures()
            && mover_after >= 3
            && key.them > 0
            && (key.them - 1 + key.them_hand) as u32 >= rules.min_stones()
    };
    if key.us_hand > 0 && !full {
        let placed = Key::new(key.them, key.us + 1, key.them_hand, key.us_hand - 1);
        edge(Via::Place, placed);
        if rules.placement_captures() && captures(key.us + 1) {
            edge(
                Via::PlaceCapture,
                Key {
                    us: key.them - 1,
                    ..placed
                },
            );
        }
    }
    let slides = key.is_moving_phase() || rules.place_or_move() && key.us > 0 && !full;
    if slides {
        edge(Via::Slide, key.swapped());
        if captures(key.us) {
            edge(
                Via::SlideCapture,
                Key::new(key.them - 1, key.us, key.them_hand, key.us_hand),
            );
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_engine::Game;

    /// Every unit reads only units before it, and only through keys of other units.
    #[test]
    fn units_come_after_what_they_read() {
        for game in [
            Game::Nine,
            Game::Twelve,
            Game::Six,
            Game::Lasker,
            Game::Three,
            Game::Dara,
        ] {
            let rules = Rules::standard(game);
            let g = KeyGraph::new(&rules, rules.stones);
            for (n, u) in g.units().iter().enumerate() {
                assert!(u.reads.iter().all(|&r| r < n), "{game:?} {}", u.name());
                for e in &u.edges {
                    assert!(u.keys().contains(&e.from) && !u.keys().contains(&e.to));
                }
                for k in u.keys() {
                    assert_eq!(g.unit_of(k), Some(n));
                    assert_eq!(UnitKind::of(&rules, k), u.kind);
                }
            }
        }
    }

    #[test]
    fn nine_edges_by_kind() {
        let rules = Rules::nine();
        let g = KeyGraph::new(&rules, 9);
        let unit = &g.units()[g.unit_of(Key::moving(9, 8)).unwrap()];
        assert_eq!(unit.kind, UnitKind::Moving);
        assert_eq!(unit.keys(), [Key::moving(9, 8), Key::moving(8, 9)]);
        assert_eq!(unit.read_keys(), vec![Key::moving(7, 9), Key::moving(8, 8)]);
        let first = Key::new(8, 9, 1, 0);
        let unit = &g.units()[g.unit_of(first).unwrap()];
        let vias: Vec<(Via, Key)> = unit.edges.iter().map(|e| (e.via, e.to)).collect();
        assert_eq!(
            vias,
            [
                (Via::Place, Key::moving(9, 9)),
                (Via::PlaceCapture, Key::moving(8, 9))
            ]
        );
        assert_eq!(g.placement().len(), 269);
    }

    /// In Lasker Morris a key with stones in hand is a unit with its colour swap.
    #[test]
    fn lasker_hand_pairs() {
        let rules = Rules::standard(Game::Lasker);
        let g = KeyGraph::new(&rules, 4);
        assert!(g.placement().iter().all(|u| u.kind == UnitKind::HandPair));
        assert!(g
            .placement()
            .iter()
            .any(|u| u.keys().len() == 2 && u.first_key().swapped() == u.keys()[1]));
    }
}
