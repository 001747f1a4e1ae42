//! The board drawn as text, in the layout of docs/rules.md: points at their grid places, joined by
//! `-`, `|`, `/` and `\`. Empty points show their names so that moves can be read off the
//! drawing; stones show `W` or `B`.

use crate::position::{Color, Position};
use crate::rules::Rules;

const COL: usize = 5;
const ROW: usize = 2;

/// The board and the position as lines of text (no trailing newline).
pub fn draw(pos: &Position, rules: &Rules) -> String {
    let board = rules.board();
    let (w, h) = (board.width() as usize, board.height() as usize);
    let rows = (h - 1) * ROW + 1;
    let cols = (w - 1) * COL + 2;
    let mut canvas = vec![vec![b' '; cols]; rows];
    let place = |p: u8| {
        let (x, y) = board.coord(p);
        (x as usize * COL, (h - 1 - y as usize) * ROW)
    };
    for p in 0..board.len() as u8 {
        for q in board.adjacent(p) {
            if q < p {
                continue;
            }
            let ((x1, y1), (x2, y2)) = (place(p), place(q));
            if y1 == y2 {
                let (a, b) = (x1.min(x2), x1.max(x2));
                for c in canvas[y1].iter_mut().take(b - 1).skip(a + 3) {
                    *c = b'-';
                }
            } else if x1 == x2 {
                let (a, b) = (y1.min(y2), y1.max(y2));
                for row in canvas.iter_mut().take(b).skip(a + 1) {
                    row[x1] = b'|';
                }
            } else {
                let (top, bottom) = if y1 < y2 {
                    ((x1, y1), (x2, y2))
                } else {
                    ((x2, y2), (x1, y1))
                };
                let mark = if bottom.0 > top.0 { b'\\' } else { b'/' };
                for (r, row) in canvas.iter_mut().enumerate().take(bottom.1).skip(top.1 + 1) {
                    let t = (r - top.1) as f64 / (bottom.1 - top.1) as f64;
                    let c = top.0 as f64 + t * (bottom.0 as f64 - top.0 as f64) + 1.0;
                    row[c.round() as usize] = mark;
                }
            }
        }
    }
    for p in 0..board.len() as u8 {
        let (x, y) = place(p);
        let text = match pos.color_at(p) {
            Some(Color::White) => "W ".to_string(),
            Some(Color::Black) => "B ".to_string(),
            None => board.point_name(p).to_string(),
        };
        for (i, b) in text.bytes().take(2).enumerate() {
            canvas[y][x + i] = b;
        }
    }
    let mut out: Vec<String> = canvas
        .into_iter()
        .map(|r| String::from_utf8(r).expect("ASCII").trim_end().to_string())
        .collect();
    out.push(String::new());
    out.push(format!(
        "{} to move; in hand: White {}, Black {}; on board: White {}, Black {}",
        pos.side_to_move().name(),
        pos.in_hand(Color::White),
        pos.in_hand(Color::Black),
        pos.stones(Color::White).count(),
        pos.stones(Color::Black).count(),
    ));
    out.push(pos.notation(rules).to_string());
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_nine_board_matches_rules_md() {
        let rules = Rules::nine();
        let art = draw(&Position::start(&rules), &rules);
        let expected = "\
a7 ----------- d7 ----------- g7
|              |              |
|    b6 ------ d6 ------ f6   |
|    |         |         |    |
|    |    c5 - d5 - e5   |    |
|    |    |         |    |    |
a4 - b4 - c4        e4 - f4 - g4
|    |    |         |    |    |
|    |    c3 - d3 - e3   |    |
|    |         |         |    |
|    b2 ------ d2 ------ f2   |
|              |              |
a1 ----------- d1 ----------- g1";
        assert!(art.starts_with(expected), "{art}");
    }
}
