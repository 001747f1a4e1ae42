//! The Nine Men's Morris board, written out by hand from RULES.md section 1.
//!
//! Nothing here is derived or computed from coordinates: the 24 point names, the 32 lines
//! between neighbours and the 16 mills are listed literally, so that a mistake in the engine's
//! derived tables cannot be repeated here.

use std::sync::OnceLock;

/// Number of points on the board.
pub const POINTS: usize = 24;

/// The point names, in the order used for point numbers and bit masks: a1 is point 0 (bit 0),
/// g7 is point 23. Rows from the bottom, left to right inside a row. This is also the engine's
/// numbering, so masks of the two crates can be compared directly.
pub const NAMES: [&str; POINTS] = [
    "a1", "d1", "g1", //
    "b2", "d2", "f2", //
    "c3", "d3", "e3", //
    "a4", "b4", "c4", "e4", "f4", "g4", //
    "c5", "d5", "e5", //
    "b6", "d6", "f6", //
    "a7", "d7", "g7",
];

/// Every pair of neighbouring points (a stone may slide between them), once each.
pub const EDGES: [(&str, &str); 32] = [
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
pub const MILLS: [[&str; 3]; 16] = [
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

/// The number of a point from its name (`a1` .. `g7`), if the board has it.
pub fn point(name: &str) -> Option<usize> {
    NAMES.iter().position(|&n| n == name)
}

/// The name of point number `p`.
pub fn name(p: usize) -> &'static str {
    NAMES[p]
}

/// The tables above with names turned into point numbers, built once.
pub struct Geometry {
    /// `neighbours[p]`: the points one step from `p`.
    pub neighbours: [Vec<usize>; POINTS],
    /// `mills_through[p]`: the mills that contain `p`, each as its three points.
    pub mills_through: [Vec<[usize; 3]>; POINTS],
    /// All mills as point numbers.
    pub mills: Vec<[usize; 3]>,
    /// `neighbour_mask[p]`: bit `q` set when `q` is a neighbour of `p`.
    pub neighbour_mask: [u32; POINTS],
    /// All mills as bit masks.
    pub mill_masks: Vec<u32>,
    /// `mill_masks_through[p]`: the mills that contain `p`, as bit masks.
    pub mill_masks_through: [Vec<u32>; POINTS],
}

fn number(name: &str) -> usize {
    point(name).unwrap_or_else(|| panic!("table names an unknown point {name}"))
}

/// The board tables by point number.
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut neighbours: [Vec<usize>; POINTS] = Default::default();
        for (a, b) in EDGES {
            let (a, b) = (number(a), number(b));
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
        for list in neighbours.iter_mut() {
            list.sort_unstable();
        }
        let mills: Vec<[usize; 3]> = MILLS
            .iter()
            .map(|m| [number(m[0]), number(m[1]), number(m[2])])
            .collect();
        let mut mills_through: [Vec<[usize; 3]>; POINTS] = Default::default();
        for m in &mills {
            for &p in m {
                mills_through[p].push(*m);
            }
        }
        let neighbour_mask =
            core::array::from_fn(|p| neighbours[p].iter().fold(0u32, |acc, &q| acc | (1 << q)));
        let mask = |m: &[usize; 3]| m.iter().fold(0u32, |acc, &q| acc | (1 << q));
        let mill_masks = mills.iter().map(mask).collect();
        let mill_masks_through =
            core::array::from_fn(|p| mills_through[p].iter().map(mask).collect());
        Geometry {
            neighbours,
            mills_through,
            mills,
            neighbour_mask,
            mill_masks,
            mill_masks_through,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_the_shape_of_rules_md() {
        let g = geometry();
        let mut names = NAMES.to_vec();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 24, "point names are distinct");
        let degrees: usize = g.neighbours.iter().map(Vec::len).sum();
        assert_eq!(degrees, 64, "32 adjacencies");
        assert_eq!(g.mills.len(), 16);
        for (p, list) in g.neighbours.iter().enumerate() {
            let mut l = list.clone();
            l.dedup();
            assert_eq!(&l, list, "no edge listed twice at {}", name(p));
            assert!(!list.contains(&p));
        }
        let degree = |n: &str| g.neighbours[point(n).unwrap()].len();
        for corner in [
            "a1", "g1", "a7", "g7", "b2", "f2", "b6", "f6", "c3", "e3", "c5", "e5",
        ] {
            assert_eq!(degree(corner), 2, "{corner}");
        }
        for outer_or_inner in ["d1", "a4", "g4", "d7", "d3", "c4", "e4", "d5"] {
            assert_eq!(degree(outer_or_inner), 3, "{outer_or_inner}");
        }
        for middle in ["d2", "b4", "f4", "d6"] {
            assert_eq!(degree(middle), 4, "{middle}");
        }
        for p in 0..POINTS {
            assert_eq!(g.mills_through[p].len(), 2, "every point is on two mills");
        }
        // The middle point of each mill neighbours both ends; the ends are not neighbours.
        for m in &g.mills {
            assert!(g.neighbours[m[1]].contains(&m[0]));
            assert!(g.neighbours[m[1]].contains(&m[2]));
            assert!(!g.neighbours[m[0]].contains(&m[2]));
        }
        assert_eq!(point("d4"), None);
        assert_eq!(point("a2"), None);
    }
}
