//! The boards of the family, written out by hand from docs/rules.md sections 1 and 2.
//!
//! Nothing here is derived or computed from coordinates: every board's point names, the pairs
//! of neighbouring points and the lines of three are listed literally, so that a mistake in the
//! engine's derived tables cannot be repeated here.

use std::sync::OnceLock;

/// The most points on a board the reference knows (Nine and Twelve Men's Morris).
pub const MAX_POINTS: usize = 24;

/// The boards. Lasker Morris plays on [`Board::Nine`]; tic-tac-toe on [`Board::Three`], whose
/// steps between points do not matter to it as its stones never move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Board {
    Nine,
    Twelve,
    Six,
    Three,
}

// Nine Men's Morris (docs/rules.md section 1). The point names are in the order used for point
// numbers and bit masks: a1 is point 0 (bit 0), g7 is point 23; rows from the bottom, left to
// right inside a row. This is also the engine's numbering on every board, so masks of the two
// crates can be compared directly.
#[rustfmt::skip]
const NINE_NAMES: [&str; 24] = [
    "a1", "d1", "g1", //
    "b2", "d2", "f2", //
    "c3", "d3", "e3", //
    "a4", "b4", "c4", "e4", "f4", "g4", //
    "c5", "d5", "e5", //
    "b6", "d6", "f6", //
    "a7", "d7", "g7",
];

/// Every pair of neighbouring points (a stone may slide between them), once each.
const NINE_EDGES: [(&str, &str); 32] = [
    // outer square
    ("a1", "d1"),
    ("d1", "g1"),
    ("g1", "g4"),
    ("g4", "g7"),
    ("g7", "d7"),
    ("d7", "a7"),
    ("a7", "a4"),
    ("a4", "a1"),
    // middle square
    ("b2", "d2"),
    ("d2", "f2"),
    ("f2", "f4"),
    ("f4", "f6"),
    ("f6", "d6"),
    ("d6", "b6"),
    ("b6", "b4"),
    ("b4", "b2"),
    // inner square
    ("c3", "d3"),
    ("d3", "e3"),
    ("e3", "e4"),
    ("e4", "e5"),
    ("e5", "d5"),
    ("d5", "c5"),
    ("c5", "c4"),
    ("c4", "c3"),
    // the four lines across the squares
    ("d1", "d2"),
    ("d2", "d3"),
    ("a4", "b4"),
    ("b4", "c4"),
    ("e4", "f4"),
    ("f4", "g4"),
    ("d5", "d6"),
    ("d6", "d7"),
];

/// The 16 mills (lines of three).
const NINE_LINES: [[&str; 3]; 16] = [
    // horizontal
    ["a1", "d1", "g1"],
    ["b2", "d2", "f2"],
    ["c3", "d3", "e3"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
    ["c5", "d5", "e5"],
    ["b6", "d6", "f6"],
    ["a7", "d7", "g7"],
    // vertical
    ["a1", "a4", "a7"],
    ["b2", "b4", "b6"],
    ["c3", "c4", "c5"],
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["e3", "e4", "e5"],
    ["f2", "f4", "f6"],
    ["g1", "g4", "g7"],
];

// Twelve Men's Morris: the Nine board plus the four diagonals joining the corners of the
// squares, each a line and two steps.
const TWELVE_DIAGONAL_EDGES: [(&str, &str); 8] = [
    ("a1", "b2"),
    ("b2", "c3"),
    ("g1", "f2"),
    ("f2", "e3"),
    ("a7", "b6"),
    ("b6", "c5"),
    ("g7", "f6"),
    ("f6", "e5"),
];

const TWELVE_DIAGONALS: [[&str; 3]; 4] = [
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
];

// Six Men's Morris: two squares, the outer with corners a1, e1, a5, e5 and the inner with
// corners b2, d2, b4, d4, joined at the middles of their sides; 8 lines, one per side.
#[rustfmt::skip]
const SIX_NAMES: [&str; 16] = [
    "a1", "c1", "e1",
    "b2", "c2", "d2",
    "a3", "b3", "d3", "e3",
    "b4", "c4", "d4",
    "a5", "c5", "e5",
];

const SIX_EDGES: [(&str, &str); 20] = [
    // outer square
    ("a1", "c1"),
    ("c1", "e1"),
    ("e1", "e3"),
    ("e3", "e5"),
    ("e5", "c5"),
    ("c5", "a5"),
    ("a5", "a3"),
    ("a3", "a1"),
    // inner square
    ("b2", "c2"),
    ("c2", "d2"),
    ("d2", "d3"),
    ("d3", "d4"),
    ("d4", "c4"),
    ("c4", "b4"),
    ("b4", "b3"),
    ("b3", "b2"),
    // across
    ("c1", "c2"),
    ("a3", "b3"),
    ("d3", "e3"),
    ("c4", "c5"),
];

const SIX_LINES: [[&str; 3]; 8] = [
    ["a1", "c1", "e1"],
    ["a5", "c5", "e5"],
    ["a1", "a3", "a5"],
    ["e1", "e3", "e5"],
    ["b2", "c2", "d2"],
    ["b4", "c4", "d4"],
    ["b2", "b3", "b4"],
    ["d2", "d3", "d4"],
];

// Three Men's Morris and tic-tac-toe: a 3x3 grid. Steps are orthogonal, plus the four
// diagonal steps between a corner and the centre (docs/rules.md section 2).
#[rustfmt::skip]
const THREE_NAMES: [&str; 9] = [
    "a1", "b1", "c1",
    "a2", "b2", "c2",
    "a3", "b3", "c3",
];

const THREE_EDGES: [(&str, &str); 16] = [
    ("a1", "b1"),
    ("b1", "c1"),
    ("a2", "b2"),
    ("b2", "c2"),
    ("a3", "b3"),
    ("b3", "c3"),
    ("a1", "a2"),
    ("a2", "a3"),
    ("b1", "b2"),
    ("b2", "b3"),
    ("c1", "c2"),
    ("c2", "c3"),
    ("a1", "b2"),
    ("c1", "b2"),
    ("a3", "b2"),
    ("c3", "b2"),
];

const THREE_LINES: [[&str; 3]; 8] = [
    ["a1", "b1", "c1"],
    ["a2", "b2", "c2"],
    ["a3", "b3", "c3"],
    ["a1", "a2", "a3"],
    ["b1", "b2", "b3"],
    ["c1", "c2", "c3"],
    ["a1", "b2", "c3"],
    ["c1", "b2", "a3"],
];

impl Board {
    pub const ALL: [Board; 4] = [Board::Nine, Board::Twelve, Board::Six, Board::Three];

    /// The point names, by point number.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Board::Nine | Board::Twelve => &NINE_NAMES,
            Board::Six => &SIX_NAMES,
            Board::Three => &THREE_NAMES,
        }
    }

    /// The number of points.
    pub fn points(self) -> usize {
        self.names().len()
    }

    /// The mask of every point of the board.
    pub fn all(self) -> u32 {
        (1 << self.points()) - 1
    }

    /// The number of a point from its name, if the board has it.
    pub fn point(self, name: &str) -> Option<usize> {
        self.names().iter().position(|&n| n == name)
    }

    /// The name of point number `p`.
    pub fn name(self, p: usize) -> &'static str {
        self.names()[p]
    }

    fn edges(self) -> Vec<(&'static str, &'static str)> {
        match self {
            Board::Nine => NINE_EDGES.to_vec(),
            Board::Twelve => [&NINE_EDGES[..], &TWELVE_DIAGONAL_EDGES[..]].concat(),
            Board::Six => SIX_EDGES.to_vec(),
            Board::Three => THREE_EDGES.to_vec(),
        }
    }

    fn lines(self) -> Vec<[&'static str; 3]> {
        match self {
            Board::Nine => NINE_LINES.to_vec(),
            Board::Twelve => [&NINE_LINES[..], &TWELVE_DIAGONALS[..]].concat(),
            Board::Six => SIX_LINES.to_vec(),
            Board::Three => THREE_LINES.to_vec(),
        }
    }

    /// The tables of the board by point number, built once.
    pub fn geometry(self) -> &'static Geometry {
        static GEOMETRY: [OnceLock<Geometry>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        GEOMETRY[self as usize].get_or_init(|| Geometry::new(self))
    }
}

/// A board's tables with names turned into point numbers.
pub struct Geometry {
    pub board: Board,
    /// The number of points.
    pub points: usize,
    /// `neighbours[p]`: the points one step from `p`.
    pub neighbours: Vec<Vec<usize>>,
    /// `lines_through[p]`: the lines that contain `p`, each as its three points.
    pub lines_through: Vec<Vec<[usize; 3]>>,
    /// All lines as point numbers.
    pub lines: Vec<[usize; 3]>,
    /// `neighbour_mask[p]`: bit `q` set when `q` is a neighbour of `p`.
    pub neighbour_mask: Vec<u32>,
    /// All lines as bit masks.
    pub line_masks: Vec<u32>,
    /// `line_masks_through[p]`: the lines that contain `p`, as bit masks.
    pub line_masks_through: Vec<Vec<u32>>,
}

impl Geometry {
    fn new(board: Board) -> Geometry {
        let points = board.points();
        let number = |name: &str| {
            board
                .point(name)
                .unwrap_or_else(|| panic!("a {board:?} table names an unknown point {name}"))
        };
        let mut neighbours = vec![Vec::new(); points];
        for (a, b) in board.edges() {
            let (a, b) = (number(a), number(b));
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
        for list in neighbours.iter_mut() {
            list.sort_unstable();
        }
        let lines: Vec<[usize; 3]> = board
            .lines()
            .iter()
            .map(|m| [number(m[0]), number(m[1]), number(m[2])])
            .collect();
        let mut lines_through = vec![Vec::new(); points];
        for m in &lines {
            for &p in m {
                lines_through[p].push(*m);
            }
        }
        let mask = |ps: &[usize]| ps.iter().fold(0u32, |acc, &q| acc | (1 << q));
        Geometry {
            board,
            points,
            neighbour_mask: neighbours.iter().map(|n| mask(n)).collect(),
            line_masks: lines.iter().map(|m| mask(m)).collect(),
            line_masks_through: lines_through
                .iter()
                .map(|ls| ls.iter().map(|m| mask(m)).collect())
                .collect(),
            neighbours,
            lines_through,
            lines,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct names, no edge listed twice or from a point to itself, and the middle point of
    /// every line neighbouring both ends while the ends are not neighbours (on every board
    /// whose stones move along lines).
    fn well_formed(board: Board) {
        let g = board.geometry();
        let mut names = board.names().to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(
            names.len(),
            board.points(),
            "{board:?}: point names are distinct"
        );
        for (p, list) in g.neighbours.iter().enumerate() {
            let mut l = list.clone();
            l.dedup();
            assert_eq!(
                &l,
                list,
                "{board:?}: no edge listed twice at {}",
                board.name(p)
            );
            assert!(!list.contains(&p));
        }
        for m in &g.lines {
            assert!(g.neighbours[m[1]].contains(&m[0]), "{board:?} {m:?}");
            assert!(g.neighbours[m[1]].contains(&m[2]), "{board:?} {m:?}");
            assert!(!g.neighbours[m[0]].contains(&m[2]), "{board:?} {m:?}");
        }
    }

    fn degree(board: Board, n: &str) -> usize {
        board.geometry().neighbours[board.point(n).unwrap()].len()
    }

    #[test]
    fn nine_has_the_shape_of_rules_md() {
        let board = Board::Nine;
        well_formed(board);
        let g = board.geometry();
        assert_eq!(board.points(), 24);
        let degrees: usize = g.neighbours.iter().map(Vec::len).sum();
        assert_eq!(degrees, 64, "32 adjacencies");
        assert_eq!(g.lines.len(), 16);
        for corner in [
            "a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6", "c3", "e3", "c5", "e5",
        ] {
            assert_eq!(degree(board, corner), 2, "{corner}");
        }
        for outer_or_inner in ["d1", "a4", "g4", "d7", "d3", "c4", "e4", "d5"] {
            assert_eq!(degree(board, outer_or_inner), 3, "{outer_or_inner}");
        }
        for middle in ["d2", "b4", "f4", "d6"] {
            assert_eq!(degree(board, middle), 4, "{middle}");
        }
        for p in 0..24 {
            assert_eq!(g.lines_through[p].len(), 2, "every point is on two mills");
        }
        assert_eq!(board.point("d4"), None);
        assert_eq!(board.point("a2"), None);
    }

    #[test]
    fn twelve_adds_the_diagonals() {
        let board = Board::Twelve;
        well_formed(board);
        let g = board.geometry();
        assert_eq!(g.lines.len(), 20);
        let degrees: usize = g.neighbours.iter().map(Vec::len).sum();
        assert_eq!(degrees, 80, "40 adjacencies");
        for outer_or_inner_corner in ["a1", "g7", "c3", "e5"] {
            assert_eq!(degree(board, outer_or_inner_corner), 3);
        }
        for middle_corner in ["b2", "f2", "b6", "f6"] {
            assert_eq!(degree(board, middle_corner), 4);
        }
        assert_eq!(degree(board, "d2"), 4);
    }

    #[test]
    fn six_and_three() {
        let six = Board::Six;
        well_formed(six);
        assert_eq!(six.points(), 16);
        let g = six.geometry();
        let degrees: usize = g.neighbours.iter().map(Vec::len).sum();
        assert_eq!(degrees, 40, "20 adjacencies");
        assert_eq!(g.lines.len(), 8);
        assert_eq!(degree(six, "a1"), 2);
        assert_eq!(degree(six, "c1"), 3);
        assert_eq!(degree(six, "c2"), 3);
        assert_eq!(six.point("c3"), None);

        let three = Board::Three;
        well_formed(three);
        assert_eq!(three.points(), 9);
        assert_eq!(degree(three, "b2"), 8);
        assert_eq!(degree(three, "a1"), 3);
        assert_eq!(degree(three, "b1"), 3);
        assert!(!three.geometry().neighbours[three.point("a2").unwrap()]
            .contains(&three.point("b1").unwrap()));
        assert_eq!(three.geometry().lines.len(), 8);
    }
}
