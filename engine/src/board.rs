//! Board geometry as data: points, adjacency, lines (mills) and the symmetry group.
//!
//! Every game of the family is described by one [`Board`] value computed at compile time from
//! a short list of point coordinates and lines. The move generator, the index and the renderer
//! read these tables only, so a new board needs no new code. Overlines (rows longer than a line,
//! which Dara forbids) are not listed either: they are the unions of two lines that overlap in
//! two points. Symmetries are not listed by hand:
//! every candidate map of the grid (the square's rotations and reflections, and the swap of the
//! inner and outer squares on concentric boards) is tested, and the ones that map points to
//! points, lines to lines and neighbours to neighbours form the group.

use crate::bitboard::{Bitboard, Point};

pub const MAX_POINTS: usize = 32;
pub const MAX_LINES: usize = 48;
pub const MAX_LINES_THROUGH: usize = 6;
pub const MAX_OVERLINES_THROUGH: usize = 6;
pub const MAX_SYMMETRIES: usize = 16;

/// A point's place on the drawing grid: column from the left, row from the bottom, both from 0.
pub type Coord = (u8, u8);

/// A permutation of the board's points; `perm[p]` is the image of point `p`.
pub type Permutation = [Point; MAX_POINTS];

pub struct Board {
    name: &'static str,
    width: u8,
    height: u8,
    len: u8,
    coords: [Coord; MAX_POINTS],
    adjacent: [Bitboard; MAX_POINTS],
    lines: [Bitboard; MAX_LINES],
    line_count: u8,
    lines_through: [[Bitboard; MAX_LINES_THROUGH]; MAX_POINTS],
    through_count: [u8; MAX_POINTS],
    overlines_through: [[Bitboard; MAX_OVERLINES_THROUGH]; MAX_POINTS],
    overline_count: [u8; MAX_POINTS],
    symmetries: [Permutation; MAX_SYMMETRIES],
    symmetry_count: u8,
}

impl Board {
    /// Builds a board from its points, its lines and any links that are not steps along a line.
    ///
    /// `lines_are_paths`: consecutive points of each line are neighbours (true on every mill
    /// board; false for tic-tac-toe, where stones never move).
    pub const fn build(
        name: &'static str,
        width: u8,
        height: u8,
        points: &[Coord],
        lines: &[[Coord; 3]],
        lines_are_paths: bool,
        extra_links: &[[Coord; 2]],
    ) -> Board {
        assert!(points.len() <= MAX_POINTS);
        assert!(lines.len() <= MAX_LINES);
        let mut b = Board {
            name,
            width,
            height,
            len: points.len() as u8,
            coords: [(0, 0); MAX_POINTS],
            adjacent: [Bitboard::EMPTY; MAX_POINTS],
            lines: [Bitboard::EMPTY; MAX_LINES],
            line_count: lines.len() as u8,
            lines_through: [[Bitboard::EMPTY; MAX_LINES_THROUGH]; MAX_POINTS],
            through_count: [0; MAX_POINTS],
            overlines_through: [[Bitboard::EMPTY; MAX_OVERLINES_THROUGH]; MAX_POINTS],
            overline_count: [0; MAX_POINTS],
            symmetries: [[0; MAX_POINTS]; MAX_SYMMETRIES],
            symmetry_count: 0,
        };
        let mut i = 0;
        while i < points.len() {
            b.coords[i] = points[i];
            i += 1;
        }
        let mut l = 0;
        while l < lines.len() {
            let mut mask = Bitboard::EMPTY;
            let mut k = 0;
            while k < 3 {
                mask = mask.with(b.point_at(lines[l][k]));
                k += 1;
            }
            b.lines[l] = mask;
            let mut k = 0;
            while k < 3 {
                let p = b.point_at(lines[l][k]) as usize;
                assert!((b.through_count[p] as usize) < MAX_LINES_THROUGH);
                b.lines_through[p][b.through_count[p] as usize] = mask;
                b.through_count[p] += 1;
                if lines_are_paths && k < 2 {
                    let q = b.point_at(lines[l][k + 1]);
                    b = b.link(p as Point, q);
                }
                k += 1;
            }
            l += 1;
        }
        let mut e = 0;
        while e < extra_links.len() {
            let p = b.point_at(extra_links[e][0]);
            let q = b.point_at(extra_links[e][1]);
            b = b.link(p, q);
            e += 1;
        }
        b.find_overlines().find_symmetries()
    }

    /// Two lines that share two points make a row of four (lines of the mill boards share a
    /// point at most, so only grids have overlines); each is recorded at each of its points.
    const fn find_overlines(mut self) -> Board {
        let n = self.line_count as usize;
        let mut a = 0;
        while a < n {
            let mut b = a + 1;
            while b < n {
                if self.lines[a].intersect(self.lines[b]).count() == 2 {
                    let run = self.lines[a].union(self.lines[b]);
                    let mut bits = run.0;
                    while bits != 0 {
                        let p = bits.trailing_zeros() as usize;
                        let k = self.overline_count[p] as usize;
                        assert!(k < MAX_OVERLINES_THROUGH);
                        self.overlines_through[p][k] = run;
                        self.overline_count[p] += 1;
                        bits &= bits - 1;
                    }
                }
                b += 1;
            }
            a += 1;
        }
        self
    }

    const fn link(mut self, p: Point, q: Point) -> Board {
        self.adjacent[p as usize] = self.adjacent[p as usize].with(q);
        self.adjacent[q as usize] = self.adjacent[q as usize].with(p);
        self
    }

    /// The point at a grid coordinate; panics (at compile time) when there is none.
    const fn point_at(&self, c: Coord) -> Point {
        match self.find(c) {
            Some(p) => p,
            None => panic!("line or link names a coordinate that is not a point"),
        }
    }

    const fn find(&self, c: Coord) -> Option<Point> {
        let mut p = 0;
        while p < self.len as usize {
            if self.coords[p].0 == c.0 && self.coords[p].1 == c.1 {
                return Some(p as Point);
            }
            p += 1;
        }
        None
    }

    /// Candidate grid maps: the 8 maps of the square (4 of the rectangle when the grid is not
    /// square), each with and without the swap of the innermost and outermost squares.
    const fn find_symmetries(mut self) -> Board {
        let square = self.width == self.height;
        let mut swap = 0;
        while swap < 2 {
            let mut t = 0;
            while t < 8 {
                if square || t < 4 {
                    if let Some(perm) = self.candidate(t, swap == 1) {
                        self.symmetries[self.symmetry_count as usize] = perm;
                        self.symmetry_count += 1;
                    }
                }
                t += 1;
            }
            swap += 1;
        }
        assert!(self.symmetry_count >= 1);
        self
    }

    /// Applies grid map `t` (bit 0: mirror columns, bit 1: mirror rows, bit 2: transpose),
    /// optionally after the ring swap, and returns it as a permutation if it is an automorphism.
    const fn candidate(&self, t: u8, ring_swap: bool) -> Option<Permutation> {
        let mut perm = [0; MAX_POINTS];
        let mut image = Bitboard::EMPTY;
        let mut p = 0;
        while p < self.len as usize {
            let (mut x, mut y) = self.coords[p];
            if ring_swap {
                match self.swap_ring((x, y)) {
                    Some(c) => {
                        x = c.0;
                        y = c.1;
                    }
                    None => return None,
                }
            }
            if t & 1 != 0 {
                x = self.width - 1 - x;
            }
            if t & 2 != 0 {
                y = self.height - 1 - y;
            }
            if t & 4 != 0 {
                let tmp = x;
                x = y;
                y = tmp;
            }
            match self.find((x, y)) {
                Some(q) => {
                    perm[p] = q;
                    image = image.with(q);
                }
                None => return None,
            }
            p += 1;
        }
        if image.count() != self.len as u32 {
            return None;
        }
        let mut l = 0;
        while l < self.line_count as usize {
            if !self.is_line(Self::map_const(&perm, self.lines[l])) {
                return None;
            }
            l += 1;
        }
        let mut p = 0;
        while p < self.len as usize {
            let mapped = Self::map_const(&perm, self.adjacent[p]);
            if mapped.0 != self.adjacent[perm[p] as usize].0 {
                return None;
            }
            p += 1;
        }
        Some(perm)
    }

    /// Maps a point of the k-th smallest square ring to the k-th largest (concentric boards).
    const fn swap_ring(&self, c: Coord) -> Option<Coord> {
        if self.width != self.height || self.width.is_multiple_of(2) {
            return None;
        }
        let centre = (self.width / 2) as i32;
        // The rings present, as a bit set.
        let mut rings = 0u32;
        let mut p = 0;
        while p < self.len as usize {
            rings |= 1 << ring_of(self.coords[p], centre);
            p += 1;
        }
        if rings & 1 != 0 {
            return None; // a centre point: no ring swap
        }
        let r = ring_of(c, centre);
        // Position of r among the rings, from the inside; the image is the same position from the outside.
        let below = (rings & ((1u32 << r) - 1)).count_ones();
        let mut target = 0;
        let mut seen = 0;
        let mut k = 31;
        while k > 0 {
            if rings & (1 << k) != 0 {
                if seen == below {
                    target = k;
                    break;
                }
                seen += 1;
            }
            k -= 1;
        }
        let dx = c.0 as i32 - centre;
        let dy = c.1 as i32 - centre;
        if (dx * target) % r != 0 || (dy * target) % r != 0 {
            return None;
        }
        Some((
            (centre + dx * target / r) as u8,
            (centre + dy * target / r) as u8,
        ))
    }

    const fn is_line(&self, mask: Bitboard) -> bool {
        let mut l = 0;
        while l < self.line_count as usize {
            if self.lines[l].0 == mask.0 {
                return true;
            }
            l += 1;
        }
        false
    }

    const fn map_const(perm: &Permutation, set: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let mut bits = set.0;
        while bits != 0 {
            let p = bits.trailing_zeros() as usize;
            out = out.with(perm[p]);
            bits &= bits - 1;
        }
        out
    }

    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// Number of points.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All points of the board.
    #[inline]
    pub const fn all(&self) -> Bitboard {
        Bitboard::first_n(self.len as u32)
    }

    pub const fn width(&self) -> u8 {
        self.width
    }

    pub const fn height(&self) -> u8 {
        self.height
    }

    #[inline]
    pub const fn coord(&self, p: Point) -> Coord {
        self.coords[p as usize]
    }

    /// The points one step from `p`.
    #[inline]
    pub const fn adjacent(&self, p: Point) -> Bitboard {
        self.adjacent[p as usize]
    }

    pub fn lines(&self) -> &[Bitboard] {
        &self.lines[..self.line_count as usize]
    }

    /// The lines that pass through `p`.
    #[inline]
    pub fn lines_through(&self, p: Point) -> &[Bitboard] {
        &self.lines_through[p as usize][..self.through_count[p as usize] as usize]
    }

    /// True when `stones` holds a complete line through `p`.
    #[inline]
    pub fn forms_line(&self, stones: Bitboard, p: Point) -> bool {
        self.lines_through(p)
            .iter()
            .any(|&l| l.is_subset_of(stones))
    }

    /// True when `stones` holds a row longer than a line (four in a row) through `p`.
    #[inline]
    pub fn forms_overline(&self, stones: Bitboard, p: Point) -> bool {
        self.overlines_through[p as usize][..self.overline_count[p as usize] as usize]
            .iter()
            .any(|&r| r.is_subset_of(stones))
    }

    /// The points that would complete a line of `stones` (occupied ones included).
    #[inline]
    pub fn completions(&self, stones: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &l in self.lines() {
            let rest = l - stones;
            if rest.count() == 1 {
                out |= rest;
            }
        }
        out
    }

    /// The points of `stones` that belong to a complete line of `stones`.
    #[inline]
    pub fn in_lines(&self, stones: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for &l in self.lines() {
            if l.is_subset_of(stones) {
                out |= l;
            }
        }
        out
    }

    /// The symmetry group as point permutations; the identity comes first.
    pub fn symmetries(&self) -> &[Permutation] {
        &self.symmetries[..self.symmetry_count as usize]
    }

    /// The image of a set of points under a permutation (the slow, obvious way; the index
    /// builds byte-wise tables from it).
    pub fn map(perm: &Permutation, set: Bitboard) -> Bitboard {
        Self::map_const(perm, set)
    }

    /// The point with a given name (`a1` .. `g7`), if the board has it.
    pub fn parse_point(&self, name: &str) -> Option<Point> {
        let b = name.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_lowercase() {
            return None;
        }
        let col = b[0] - b'a';
        let digits = core::str::from_utf8(&b[1..]).ok()?;
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let row: u8 = digits.parse::<u8>().ok()?.checked_sub(1)?;
        self.find((col, row))
    }

    /// The name of a point: column letter, then row number from 1.
    pub fn point_name(&self, p: Point) -> PointName {
        let (x, y) = self.coords[p as usize];
        PointName { col: x, row: y }
    }
}

/// Which square a grid point lies on, counted from the centre (0 for the centre itself).
const fn ring_of(c: Coord, centre: i32) -> i32 {
    let dx = (c.0 as i32 - centre).abs();
    let dy = (c.1 as i32 - centre).abs();
    if dx > dy {
        dx
    } else {
        dy
    }
}

/// The printable name of a point (`d6`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PointName {
    col: u8,
    row: u8,
}

impl core::fmt::Display for PointName {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

const fn concat_lines<const A: usize, const B: usize, const N: usize>(
    a: [[Coord; 3]; A],
    b: [[Coord; 3]; B],
) -> [[Coord; 3]; N] {
    assert!(A + B == N);
    let mut out = [[(0, 0); 3]; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

// Column letters a..g are x = 0..6, rows 1..7 are y = 0..6.
#[rustfmt::skip]
const NINE_POINTS: [Coord; 24] = [
    (0, 0), (3, 0), (6, 0),
    (1, 1), (3, 1), (5, 1),
    (2, 2), (3, 2), (4, 2),
    (0, 3), (1, 3), (2, 3), (4, 3), (5, 3), (6, 3),
    (2, 4), (3, 4), (4, 4),
    (1, 5), (3, 5), (5, 5),
    (0, 6), (3, 6), (6, 6),
];

const NINE_LINES: [[Coord; 3]; 16] = [
    // rows
    [(0, 0), (3, 0), (6, 0)],
    [(1, 1), (3, 1), (5, 1)],
    [(2, 2), (3, 2), (4, 2)],
    [(0, 3), (1, 3), (2, 3)],
    [(4, 3), (5, 3), (6, 3)],
    [(2, 4), (3, 4), (4, 4)],
    [(1, 5), (3, 5), (5, 5)],
    [(0, 6), (3, 6), (6, 6)],
    // columns
    [(0, 0), (0, 3), (0, 6)],
    [(1, 1), (1, 3), (1, 5)],
    [(2, 2), (2, 3), (2, 4)],
    [(3, 0), (3, 1), (3, 2)],
    [(3, 4), (3, 5), (3, 6)],
    [(4, 2), (4, 3), (4, 4)],
    [(5, 1), (5, 3), (5, 5)],
    [(6, 0), (6, 3), (6, 6)],
];

const DIAGONALS: [[Coord; 3]; 4] = [
    [(0, 0), (1, 1), (2, 2)],
    [(6, 0), (5, 1), (4, 2)],
    [(0, 6), (1, 5), (2, 4)],
    [(6, 6), (5, 5), (4, 4)],
];

/// Nine Men's Morris: three concentric squares joined at the middles of their sides.
pub static NINE: Board = Board::build("nine", 7, 7, &NINE_POINTS, &NINE_LINES, true, &[]);

/// Twelve Men's Morris / Morabaraba: the Nine Men's board plus the four corner diagonals.
pub static TWELVE: Board = Board::build(
    "twelve",
    7,
    7,
    &NINE_POINTS,
    &concat_lines::<16, 4, 20>(NINE_LINES, DIAGONALS),
    true,
    &[],
);

/// Six Men's Morris: two concentric squares; the side middles are joined but form no line.
#[rustfmt::skip]
pub static SIX: Board = Board::build(
    "six",
    5,
    5,
    &[
        (0, 0), (2, 0), (4, 0),
        (1, 1), (2, 1), (3, 1),
        (0, 2), (1, 2), (3, 2), (4, 2),
        (1, 3), (2, 3), (3, 3),
        (0, 4), (2, 4), (4, 4),
    ],
    &[
        [(0, 0), (2, 0), (4, 0)],
        [(0, 4), (2, 4), (4, 4)],
        [(0, 0), (0, 2), (0, 4)],
        [(4, 0), (4, 2), (4, 4)],
        [(1, 1), (2, 1), (3, 1)],
        [(1, 3), (2, 3), (3, 3)],
        [(1, 1), (1, 2), (1, 3)],
        [(3, 1), (3, 2), (3, 3)],
    ],
    true,
    &[
        [(2, 0), (2, 1)],
        [(2, 4), (2, 3)],
        [(0, 2), (1, 2)],
        [(4, 2), (3, 2)],
    ],
);

#[rustfmt::skip]
const GRID3_POINTS: [Coord; 9] = [
    (0, 0), (1, 0), (2, 0),
    (0, 1), (1, 1), (2, 1),
    (0, 2), (1, 2), (2, 2),
];

const GRID3_LINES: [[Coord; 3]; 8] = [
    [(0, 0), (1, 0), (2, 0)],
    [(0, 1), (1, 1), (2, 1)],
    [(0, 2), (1, 2), (2, 2)],
    [(0, 0), (0, 1), (0, 2)],
    [(1, 0), (1, 1), (1, 2)],
    [(2, 0), (2, 1), (2, 2)],
    [(0, 0), (1, 1), (2, 2)],
    [(2, 0), (1, 1), (0, 2)],
];

/// Three Men's Morris: 3x3 points; steps are orthogonal plus corner-centre diagonals.
pub static THREE: Board = Board::build("three", 3, 3, &GRID3_POINTS, &GRID3_LINES, true, &[]);

/// Tic-tac-toe: the 3x3 grid, placement only.
pub static TICTACTOE: Board =
    Board::build("tictactoe", 3, 3, &GRID3_POINTS, &GRID3_LINES, false, &[]);

/// Every point of a `width` x `height` grid, row by row from the bottom.
const fn grid_points<const N: usize>(width: u8, height: u8) -> [Coord; N] {
    assert!(N == width as usize * height as usize);
    let mut out = [(0, 0); N];
    let mut i = 0;
    while i < N {
        out[i] = ((i % width as usize) as u8, (i / width as usize) as u8);
        i += 1;
    }
    out
}

/// Every run of three consecutive points in a row (first) or a column of the grid.
const fn grid_runs<const N: usize>(width: u8, height: u8) -> [[Coord; 3]; N] {
    let (w, h) = (width as usize, height as usize);
    assert!(N == h * (w - 2) + w * (h - 2));
    let mut out = [[(0, 0); 3]; N];
    let mut i = 0;
    let mut y = 0;
    while y < h {
        let mut x = 0;
        while x + 2 < w {
            let (a, b) = (x as u8, y as u8);
            out[i] = [(a, b), (a + 1, b), (a + 2, b)];
            i += 1;
            x += 1;
        }
        y += 1;
    }
    let mut x = 0;
    while x < w {
        let mut y = 0;
        while y + 2 < h {
            let (a, b) = (x as u8, y as u8);
            out[i] = [(a, b), (a, b + 1), (a, b + 2)];
            i += 1;
            y += 1;
        }
        x += 1;
    }
    out
}

const DARA_WIDTH: u8 = 6;
const DARA_HEIGHT: u8 = 5;

/// Dara: 5 rows of 6 points, steps between orthogonal neighbours; every three consecutive
/// points of a row or a column are a line (diagonals never count).
pub static DARA: Board = Board::build(
    "dara",
    DARA_WIDTH,
    DARA_HEIGHT,
    &grid_points::<30>(DARA_WIDTH, DARA_HEIGHT),
    &grid_runs::<38>(DARA_WIDTH, DARA_HEIGHT),
    true,
    &[],
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nine_has_the_published_shape() {
        assert_eq!(NINE.len(), 24);
        let adjacencies: u32 = (0..24).map(|p| NINE.adjacent(p).count()).sum();
        assert_eq!(adjacencies / 2, 32);
        assert_eq!(NINE.lines().len(), 16);
        assert_eq!(NINE.symmetries().len(), 16);
        let degree = |n: &str| NINE.adjacent(NINE.parse_point(n).unwrap()).count();
        assert_eq!(degree("a1"), 2);
        assert_eq!(degree("d7"), 3);
        assert_eq!(degree("d5"), 3);
        assert_eq!(degree("d6"), 4);
        for p in 0..24 {
            assert_eq!(NINE.lines_through(p).len(), 2);
        }
    }

    #[test]
    fn family_symmetry_groups() {
        assert_eq!(TWELVE.symmetries().len(), 16);
        assert_eq!(TWELVE.lines().len(), 20);
        assert_eq!(SIX.symmetries().len(), 16);
        assert_eq!(SIX.len(), 16);
        assert_eq!(THREE.symmetries().len(), 8);
        assert_eq!(TICTACTOE.symmetries().len(), 8);
        // a2-b1 is not a step on the Three Men's board; a1-b2 is.
        let p = |n| THREE.parse_point(n).unwrap();
        assert!(!THREE.adjacent(p("a2")).contains(p("b1")));
        assert!(THREE.adjacent(p("a1")).contains(p("b2")));
    }

    #[test]
    fn dara_is_a_grid_of_runs_of_three() {
        assert_eq!(DARA.len(), 30);
        let adjacencies: u32 = (0..30).map(|p| DARA.adjacent(p).count()).sum();
        assert_eq!(adjacencies / 2, 5 * 5 + 6 * 4);
        assert_eq!(DARA.lines().len(), 5 * 4 + 6 * 3);
        // Identity, the two mirror flips and the half turn; no quarter turn on a 6x5 grid.
        assert_eq!(DARA.symmetries().len(), 4);
        let p = |n: &str| DARA.parse_point(n).unwrap();
        let set = |names: &[&str]| names.iter().map(|&n| p(n)).collect::<Bitboard>();
        assert_eq!(DARA.adjacent(p("a1")), set(&["b1", "a2"]));
        assert_eq!(DARA.adjacent(p("c3")), set(&["b3", "d3", "c2", "c4"]));
        assert_eq!(DARA.parse_point("g1"), None);
        assert_eq!(DARA.parse_point("a6"), None);
        assert!(DARA.forms_line(set(&["c3", "d3", "e3"]), p("d3")));
        assert!(!DARA.forms_line(set(&["a1", "b2", "c3"]), p("b2")));
        // Placing on c1 or d2 would make three; b1 completes two lines at once.
        assert_eq!(
            DARA.completions(set(&["a1", "c1", "d1", "d3"])),
            set(&["b1", "e1", "d2"])
        );
        // Four in a row or in a column is an overline through each of its points; three is not.
        for four in [["a1", "b1", "c1", "d1"], ["f2", "f3", "f4", "f5"]] {
            for q in four {
                assert!(DARA.forms_overline(set(&four), p(q)));
            }
            assert!(!DARA.forms_overline(set(&four[..3]), p(four[0])));
        }
        assert!(!DARA.forms_overline(set(&["a1", "b1", "c1", "d2"]), p("a1")));
        assert!(!DARA.forms_overline(set(&["a1", "b1", "c1", "e1", "f1"]), p("c1")));
        for board in [&NINE, &TWELVE, &SIX, &THREE, &TICTACTOE] {
            assert!((0..board.len() as u8).all(|q| !board.forms_overline(board.all(), q)));
        }
    }

    #[test]
    fn point_names_round_trip() {
        for p in 0..24u8 {
            let name = NINE.point_name(p).to_string();
            assert_eq!(NINE.parse_point(&name), Some(p));
        }
        assert_eq!(NINE.parse_point("d4"), None);
        assert_eq!(NINE.parse_point("h1"), None);
        assert_eq!(NINE.parse_point("a01"), None);
        assert_eq!(NINE.parse_point("A1"), None);
        assert_eq!(
            NINE.symmetries()[0][..24],
            core::array::from_fn::<u8, 24, _>(|i| i as u8)
        );
    }
}
