//! Dara (docs/rules.md section 2): its rules, and perft against the counts in
//! `tests/data/perft-dara.txt` (format at its top).
//!
//! The counts are checked twice: by the engine, and by a naive generator written here from the
//! rules alone, on a plain 5 x 6 array (runs of stones counted by walking the rows and columns,
//! no bitboards, no line tables, no engine code). A wrong line in the file, or a fault in
//! either generator, fails a test; the move-list comparison names the first position where
//! the two generators disagree.

mod common;

use common::perft_counts;
use morris_engine::movegen::is_legal;
use morris_engine::{
    legal_moves, perft, Color, Game, GameEnd, Move, MoveError, Position, Reason, Rules,
};

fn dara() -> Rules {
    Rules::standard(Game::Dara)
}

// ---------------------------------------------------------------------------------------------
// The naive generator

const ROWS: usize = 5;
const COLS: usize = 6;
const STONES: u8 = 12;

/// A Dara position on a plain array: `cells[row][col]` with row 0 the bottom row ("1") and
/// column 0 the left one ("a"); 0 empty, 1 White, 2 Black.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Naive {
    cells: [[u8; COLS]; ROWS],
    /// Stones in hand, White then Black.
    hand: [u8; 2],
    /// 1 White, 2 Black.
    to_move: u8,
}

type Cell = (usize, usize);

fn cell_name((row, col): Cell) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// A move of the naive generator: from (none for a placement), to, and the stone taken.
#[derive(Copy, Clone, Debug)]
struct NaiveMove {
    from: Option<Cell>,
    to: Cell,
    capture: Option<Cell>,
}

impl NaiveMove {
    fn name(&self) -> String {
        let mut s = String::new();
        if let Some(from) = self.from {
            s += &cell_name(from);
            s += "-";
        }
        s += &cell_name(self.to);
        if let Some(c) = self.capture {
            s += "x";
            s += &cell_name(c);
        }
        s
    }
}

fn parse_cell(name: &str) -> (usize, usize) {
    let b = name.as_bytes();
    let col = (b[0] - b'a') as usize;
    let row = name[1..].parse::<usize>().unwrap() - 1;
    assert!(row < ROWS && col < COLS, "{name}");
    (row, col)
}

impl Naive {
    /// Reads `W:<cells> B:<cells> <w|b> [<white hand> <black hand>]`, or `startpos`.
    fn parse(text: &str) -> Naive {
        let mut n = Naive {
            cells: [[0; COLS]; ROWS],
            hand: [STONES, STONES],
            to_move: 1,
        };
        if text == "startpos" {
            return n;
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        for (field, colour) in [(fields[0], 1), (fields[1], 2)] {
            let list = &field[2..];
            for name in list.split(',').filter(|s| !s.is_empty()) {
                let (r, c) = parse_cell(name);
                n.cells[r][c] = colour;
            }
        }
        n.to_move = if fields[2] == "w" { 1 } else { 2 };
        n.hand = if fields.len() == 5 {
            [fields[3].parse().unwrap(), fields[4].parse().unwrap()]
        } else {
            [0, 0]
        };
        n
    }

    fn count(&self, colour: u8) -> u32 {
        self.cells
            .iter()
            .flatten()
            .filter(|&&c| c == colour)
            .count() as u32
    }

    /// A side with fewer than three stones on the board and in hand has lost.
    fn over(&self) -> bool {
        (1..=2).any(|c| self.count(c) + (self.hand[c as usize - 1] as u32) < 3)
    }

    /// How many stones of the colour on (row, col) stand in an unbroken run through it, along
    /// the row and along the column.
    fn runs(&self, row: usize, col: usize) -> (usize, usize) {
        let colour = self.cells[row][col];
        let walk = |dr: isize, dc: isize| {
            let mut n = 0;
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while (0..ROWS as isize).contains(&r)
                && (0..COLS as isize).contains(&c)
                && self.cells[r as usize][c as usize] == colour
            {
                n += 1;
                r += dr;
                c += dc;
            }
            n
        };
        (1 + walk(0, -1) + walk(0, 1), 1 + walk(-1, 0) + walk(1, 0))
    }

    /// Every legal move, with the position it leads to.
    fn moves(&self) -> Vec<(NaiveMove, Naive)> {
        let mut out = Vec::new();
        if self.over() {
            return out;
        }
        let me = self.to_move;
        let enemy = 3 - me;
        let side = me as usize - 1;
        let mut next = self.clone();
        next.to_move = enemy;
        if self.hand[side] > 0 {
            for r in 0..ROWS {
                for c in 0..COLS {
                    if self.cells[r][c] != 0 {
                        continue;
                    }
                    let mut after = next.clone();
                    after.cells[r][c] = me;
                    after.hand[side] -= 1;
                    let (h, v) = after.runs(r, c);
                    if h < 3 && v < 3 {
                        let m = NaiveMove {
                            from: None,
                            to: (r, c),
                            capture: None,
                        };
                        out.push((m, after));
                    }
                }
            }
            return out;
        }
        for r in 0..ROWS {
            for c in 0..COLS {
                if self.cells[r][c] != me {
                    continue;
                }
                let steps = [(0isize, 1isize), (0, -1), (1, 0), (-1, 0)];
                for (dr, dc) in steps {
                    let (tr, tc) = (r as isize + dr, c as isize + dc);
                    if !(0..ROWS as isize).contains(&tr) || !(0..COLS as isize).contains(&tc) {
                        continue;
                    }
                    let (tr, tc) = (tr as usize, tc as usize);
                    if self.cells[tr][tc] != 0 {
                        continue;
                    }
                    let mut after = next.clone();
                    after.cells[r][c] = 0;
                    after.cells[tr][tc] = me;
                    let (h, v) = after.runs(tr, tc);
                    let m = NaiveMove {
                        from: Some((r, c)),
                        to: (tr, tc),
                        capture: None,
                    };
                    if h >= 4 || v >= 4 {
                        continue;
                    }
                    if h < 3 && v < 3 {
                        out.push((m, after));
                        continue;
                    }
                    // A line of exactly three: any enemy stone may go.
                    for er in 0..ROWS {
                        for ec in 0..COLS {
                            if after.cells[er][ec] == enemy {
                                let mut taken = after.clone();
                                taken.cells[er][ec] = 0;
                                let m = NaiveMove {
                                    capture: Some((er, ec)),
                                    ..m
                                };
                                out.push((m, taken));
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.moves().iter().map(|(_, n)| n.perft(depth - 1)).sum()
    }

    /// The position in the notation of docs/rules.md, points sorted, to compare with the engine's.
    fn notation(&self) -> String {
        let list = |colour: u8| {
            let mut v = Vec::new();
            for r in 0..ROWS {
                for c in 0..COLS {
                    if self.cells[r][c] == colour {
                        v.push(cell_name((r, c)));
                    }
                }
            }
            v.sort();
            v.join(",")
        };
        let side = if self.to_move == 1 { 'w' } else { 'b' };
        format!(
            "W:{} B:{} {side} {} {}",
            list(1),
            list(2),
            self.hand[0],
            self.hand[1]
        )
    }
}

/// The engine's moves of a position, each with the position it leads to, in the naive
/// generator's terms (points sorted).
fn engine_moves(pos: &Position, rules: &Rules) -> Vec<(String, String)> {
    let board = rules.board();
    let mut v: Vec<(String, String)> = legal_moves(pos, rules)
        .into_iter()
        .map(|m| {
            let next = Naive::parse(&pos.play(m).notation(rules).to_string());
            (m.notation(board).to_string(), next.notation())
        })
        .collect();
    v.sort();
    v
}

fn naive_moves(n: &Naive) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = n
        .moves()
        .into_iter()
        .map(|(m, next)| (m.name(), next.notation()))
        .collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// The data file

struct Case {
    line: usize,
    position: String,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (i, raw) in include_str!("data/perft-dara.txt").lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (position, counts) = line
            .split_once('|')
            .unwrap_or_else(|| panic!("line {}: `<position> | <counts>`", i + 1));
        cases.push(Case {
            line: i + 1,
            position: position.trim().to_string(),
            counts: perft_counts(counts, i + 1),
        });
    }
    cases
}

#[test]
fn data_file_has_the_required_cases() {
    let rules = dara();
    let cases = cases();
    let start = cases
        .iter()
        .find(|c| c.position == "startpos")
        .expect("startpos line");
    assert!(start.counts.len() >= 4);
    // Nothing can be refused before a side has two stones down: 30 x 29 x 28 x 27.
    assert_eq!(start.counts[..4], [30, 870, 24360, 657720]);
    let positions: Vec<Position> = cases
        .iter()
        .map(|c| Position::parse(&c.position, &rules).unwrap())
        .collect();
    // A moving position with a capture, and a placement with stones down, are present.
    assert!(
        positions
            .iter()
            .any(|p| p.our_hand() == 0
                && legal_moves(p, &rules).iter().any(|m| m.capture().is_some()))
    );
    assert!(positions
        .iter()
        .any(|p| p.our_hand() > 0 && p.us().count() >= 3));
}

#[test]
fn engine_perft_matches_data_file() {
    let rules = dara();
    for case in cases() {
        let pos = Position::parse(&case.position, &rules)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                perft(&pos, &rules, depth),
                expected,
                "line {}: engine perft({}, depth {depth})",
                case.line,
                case.position
            );
        }
    }
}

#[test]
fn naive_perft_matches_data_file() {
    for case in cases() {
        let pos = Naive::parse(&case.position);
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            assert_eq!(
                pos.perft(depth),
                expected,
                "line {}: naive perft({}, depth {depth})",
                case.line,
                case.position
            );
        }
    }
}

/// The move lists (and the positions they lead to) agree at every node two plies deep from
/// each position of the file, so a disagreement is shown where it happens.
#[test]
fn move_lists_equal_naive() {
    let rules = dara();
    fn walk(pos: &Position, rules: &Rules, depth: u32) {
        let naive = Naive::parse(&pos.notation(rules).to_string());
        let ours = engine_moves(pos, rules);
        assert_eq!(ours, naive_moves(&naive), "at {}", pos.notation(rules));
        if depth > 0 {
            for m in legal_moves(pos, rules) {
                walk(&pos.play(m), rules, depth - 1);
            }
        }
    }
    for case in cases() {
        walk(&Position::parse(&case.position, &rules).unwrap(), &rules, 2);
    }
}

// ---------------------------------------------------------------------------------------------
// Rules

fn position(text: &str) -> Position {
    Position::parse(text, &dara()).unwrap_or_else(|e| panic!("`{text}`: {e}"))
}

fn legal(pos: &Position, text: &str) -> bool {
    let rules = dara();
    is_legal(pos, &rules, Move::parse(text, rules.board()).unwrap())
}

#[test]
fn placement_making_three_in_a_row_or_column_is_refused() {
    let pos = position("W:a1,b1,c3,c4 B:f5,e5,f1,e1 w 8 8");
    for refused in ["c1", "c2", "c5"] {
        assert!(!legal(&pos, refused), "{refused}");
    }
    for allowed in ["d1", "a2", "d2", "b3"] {
        assert!(legal(&pos, allowed), "{allowed}");
    }
    // Placements never capture.
    assert!(legal_moves(&pos, &dara())
        .iter()
        .all(|m| m.capture().is_none()));
    match pos.parse_move("c1", &dara()) {
        Err(MoveError::Illegal { legal, .. }) => assert_eq!(legal.len(), 30 - 8 - 3),
        other => panic!("expected Illegal, got {other:?}"),
    }
}

#[test]
fn move_making_four_in_a_row_is_refused() {
    // c2-c1 would make a1-b1-c1-d1; c2-c3 would make c3-c4-c5 with c3 (a capture).
    let pos = position("W:a1,b1,d1,c2,c4,c5 B:f5,e5,f1,f3 w 0 0");
    assert!(!legal(&pos, "c2-c1"));
    assert!(!legal(&pos, "c2-c1xf5"));
    assert!(legal(&pos, "c2-c3xf5"));
    assert!(!legal(&pos, "c2-c3"));
    // Five in a column is refused the same way.
    let pos = position("W:b1,b2,a3,b4,b5 B:f5,e5,f1 w 0 0");
    assert!(!legal(&pos, "a3-b3"));
    assert!(!legal(&pos, "a3-b3xf5"));
}

#[test]
fn line_takes_any_enemy_stone_even_one_in_a_line() {
    // Black's a5-b5-c5 stands; White's c2-d2 makes d1-d2-d3, the only line White can make.
    let pos = position("W:d1,d3,c2,f2 B:a5,b5,c5,f4 w 0 0");
    let rules = dara();
    let mut captures: Vec<String> = legal_moves(&pos, &rules)
        .into_iter()
        .filter(|m| m.capture().is_some())
        .map(|m| m.notation(rules.board()).to_string())
        .collect();
    captures.sort();
    assert_eq!(captures, ["c2-d2xa5", "c2-d2xb5", "c2-d2xc5", "c2-d2xf4"]);
    assert!(!legal(&pos, "c2-d2"));
    let after = pos.play(pos.parse_move("c2-d2xb5", &rules).unwrap());
    assert_eq!(after.stones(Color::Black).count(), 3);
    assert_eq!(after.outcome(&rules), None);
}

#[test]
fn two_lines_at_once_take_one_stone() {
    // c2-c3 makes a3-b3-c3 and c3-c4-c5 at once: one move per enemy stone, each taking one.
    let pos = position("W:a3,b3,c2,c4,c5 B:f5,e5,f1 w 0 0");
    let rules = dara();
    let point = |name| rules.board().parse_point(name).unwrap();
    let moves: Vec<Move> = legal_moves(&pos, &rules)
        .into_iter()
        .filter(|m| m.from() == Some(point("c2")) && m.to() == point("c3"))
        .collect();
    assert_eq!(moves.len(), 3);
    for m in moves {
        let after = pos.play(m);
        assert_eq!(after.stones(Color::Black).count(), 2);
    }
}

#[test]
fn blocked_side_loses() {
    let rules = dara();
    let no_moves = Some(GameEnd::Win {
        winner: Color::White,
        reason: Reason::NoMoves,
    });
    // Black's three stones are walled in by White and the edges.
    let pos = position("W:b1,c2,b2,a3,d1 B:a1,a2,c1 b 0 0");
    assert!(legal_moves(&pos, &rules).is_empty());
    assert_eq!(pos.outcome(&rules), no_moves);
    // Black's last placement: each of the seven empty points would make three in a row or a
    // column.
    let pos =
        position("W:e1,a2,c2,d2,a3,b3,d3,f4,a5,b5,d5,f5 B:a1,c1,d1,f1,b2,e3,f3,a4,c4,e4,c5 b 0 1");
    assert!(legal_moves(&pos, &rules).is_empty());
    assert_eq!(pos.outcome(&rules), no_moves);
}

#[test]
fn fewer_than_three_stones_loses() {
    let rules = dara();
    // White's c2-d2 makes d1-d2-d3 and takes one of Black's three stones.
    let pos = position("W:d1,d3,c2 B:a5,b5,f4 w 0 0");
    let after = pos.play(pos.parse_move("c2-d2xf4", &rules).unwrap());
    assert_eq!(
        after.outcome(&rules),
        Some(GameEnd::Win {
            winner: Color::White,
            reason: Reason::TooFewStones
        })
    );
    assert!(legal_moves(&after, &rules).is_empty());
}
