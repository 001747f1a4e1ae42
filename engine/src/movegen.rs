//! Legal move generation for every phase and every game of the family.
//!
//! One generator walks the moves; what happens to each is up to a [`Sink`]. The callback sink
//! hands out every move (query, play, solver); the counting sink adds the number of capture
//! choices of a mill-forming move with one popcount, which makes bulk counting for perft cheap
//! without a second generator. A caller with a sink of its own ([`for_each_group`]) takes the
//! moves in the generator's groups: the retrograde solver's initial pass counts the moves
//! that form no mill without building them, and locates every capture of one mill from the
//! mover's stones after it, which are the same whichever stone is taken.
//!
//! Dara's rules are options of the same walk: placements skip the points that would complete a
//! line, a line-forming move is dropped when it makes an overline, and a line may take any
//! enemy stone.

use crate::bitboard::{Bitboard, Point};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::Rules;

/// Receives the moves of a position as the generator finds them.
pub trait Sink {
    /// True for a sink that takes the moves of one stone (or from the hand) that surely form
    /// no mill all at once ([`Sink::plains`]), before that stone's other moves: a sink for
    /// which the order of moves does not matter, and which only counts the plain ones. The
    /// generator then tells them apart with one set operation per stone instead of a line
    /// test per move (the retrograde solver's initial pass spent a fifth of its time there).
    const BULK: bool = false;
    /// A move that forms no mill (or a placement/slide in a game without captures).
    fn plain(&mut self, from: Option<Point>, to: Point);
    /// A move that forms a mill; one move per point of `removable` (never empty).
    fn mill(&mut self, from: Option<Point>, to: Point, removable: Bitboard);
    /// The plain moves from `from` to each point of `tos` (only called when [`Sink::BULK`]).
    #[inline(always)]
    fn plains(&mut self, from: Option<Point>, tos: Bitboard) {
        for to in tos {
            self.plain(from, to);
        }
    }
}

struct Each<F: FnMut(Move)>(F);

impl<F: FnMut(Move)> Sink for Each<F> {
    #[inline(always)]
    fn plain(&mut self, from: Option<Point>, to: Point) {
        (self.0)(Move::new(from, to, None));
    }
    #[inline(always)]
    fn mill(&mut self, from: Option<Point>, to: Point, removable: Bitboard) {
        for c in removable {
            (self.0)(Move::new(from, to, Some(c)));
        }
    }
}

struct Count(u32);

impl Sink for Count {
    const BULK: bool = true;
    #[inline(always)]
    fn plain(&mut self, _: Option<Point>, _: Point) {
        self.0 += 1;
    }
    #[inline(always)]
    fn plains(&mut self, _: Option<Point>, tos: Bitboard) {
        self.0 += tos.count();
    }
    #[inline(always)]
    fn mill(&mut self, _: Option<Point>, _: Point, removable: Bitboard) {
        self.0 += removable.count();
    }
}

/// The enemy stones a mill may remove: those outside mills, or any of them when all stand in
/// mills (or whenever lines do not protect).
#[inline]
pub fn removable(rules: &Rules, them: Bitboard) -> Bitboard {
    if !rules.lines_protect() {
        return them;
    }
    let free = them - rules.board().in_lines(them);
    if free.is_empty() {
        them
    } else {
        free
    }
}

/// True when the side to move may fly (exactly three stones on the board, none in hand).
#[inline]
pub fn can_fly(rules: &Rules, stones: Bitboard, hand: u8) -> bool {
    rules.flying && hand == 0 && stones.count() == 3
}

/// Hands every legal move of the position to `sink`, a mill with all its captures at once
/// (nothing when the game is over).
#[inline(always)]
pub fn for_each_group<S: Sink>(pos: &Position, rules: &Rules, sink: &mut S) {
    if pos.decided(rules).is_some() {
        return;
    }
    let board = rules.board();
    let us = pos.us();
    let them = pos.them();
    let empty = board.all() - us - them;
    let hand = pos.our_hand();
    let captures = rules.line_captures();
    // Computed once per position, used by every mill-forming move.
    let removable = if captures && !them.is_empty() {
        removable(rules, them)
    } else {
        Bitboard::EMPTY
    };
    let overlines_refused = rules.overlines_refused();
    let emit = |sink: &mut S, from: Option<Point>, to: Point, after: Bitboard| {
        if !removable.is_empty() && board.forms_line(after, to) {
            // Only a move that forms a line can form an overline; in Dara's moving phase the
            // enemy always has stones on the board, so no line-forming move bypasses this.
            if overlines_refused && board.forms_overline(after, to) {
                return;
            }
            sink.mill(from, to, removable);
        } else {
            sink.plain(from, to);
        }
    };
    // For a bulk sink, the points where a move of ours may form a line: a move to a point
    // outside it forms none. (A slide along a line leaves that line, so the points a slide
    // completes are among those that the stones before the move complete.)
    let may_form = match S::BULK {
        true if !removable.is_empty() => board.completions(us),
        true => Bitboard::EMPTY,
        false => board.all(),
    };
    if hand > 0 {
        let targets = if rules.placement_lines_refused() {
            empty - board.completions(us)
        } else {
            empty
        };
        if S::BULK {
            sink.plains(None, targets - may_form);
        }
        for to in targets & may_form {
            emit(sink, None, to, us.with(to));
        }
    }
    if rules.stones_move() && (hand == 0 || rules.place_or_move()) {
        let fly = can_fly(rules, us, hand);
        for from in us {
            let targets = if fly {
                empty
            } else {
                board.adjacent(from) & empty
            };
            if S::BULK {
                sink.plains(Some(from), targets - may_form);
            }
            let rest = us.without(from);
            for to in targets & may_form {
                emit(sink, Some(from), to, rest.with(to));
            }
        }
    }
}

/// Calls `f` with every legal move of the position (none when the game is over).
#[inline]
pub fn for_each_move(pos: &Position, rules: &Rules, f: impl FnMut(Move)) {
    for_each_group(pos, rules, &mut Each(f));
}

/// The number of legal moves, without building them.
#[inline]
pub fn count_moves(pos: &Position, rules: &Rules) -> u32 {
    let mut c = Count(0);
    for_each_group(pos, rules, &mut c);
    c.0
}

/// Every legal move, in generation order.
pub fn legal_moves(pos: &Position, rules: &Rules) -> Vec<Move> {
    let mut v = Vec::with_capacity(64);
    for_each_move(pos, rules, |m| v.push(m));
    v
}

/// True when `mv` is legal in `pos`.
pub fn is_legal(pos: &Position, rules: &Rules, mv: Move) -> bool {
    let mut found = false;
    for_each_move(pos, rules, |m| found |= m == mv);
    found
}
