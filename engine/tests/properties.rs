//! Property tests of the engine: notation round trips, legality of generated moves, the
//! symmetry group, perft under symmetry, agreement with the independent reference move
//! generator, and the error of every kind of bad input.
//!
//! Random positions come from random playouts from the start (every game of the family, and
//! Nine Men's Morris with other stone counts and without flying) and from random stone sets
//! in every phase (placement, moving, flying, positions where every enemy stone stands in a
//! mill).

mod common;

use common::{engine_moves, nine, reference_moves, to_reference, variant};
use morris_engine::board::Permutation;
use morris_engine::movegen::is_legal;
use morris_engine::{
    legal_moves, perft, Bitboard, Board, Color, Game, Move, MoveError, Position, PositionError,
    Rules,
};
use morris_reference as reference;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

// ---------------------------------------------------------------------------------------------
// Generators

/// Nine Men's Morris rules: mostly standard, sometimes without flying or with fewer stones.
fn nine_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        5 => Just(nine(9, true)),
        2 => Just(nine(9, false)),
        3 => (3u8..=8, any::<bool>()).prop_map(|(s, f)| nine(s, f)),
    ]
}

/// Any game of the family with its standard rules, or a Nine Men's Morris variant.
fn any_rules() -> impl Strategy<Value = Rules> {
    prop_oneof![
        3 => nine_rules(),
        2 => proptest::sample::select(Game::ALL.to_vec()).prop_map(Rules::standard),
    ]
}

/// Plays the moves chosen by `choices` (each taken modulo the number of legal moves) from the
/// start, stopping early when the game ends.
fn play_out(rules: &Rules, choices: &[u16]) -> Position {
    let mut pos = Position::start(rules);
    for &c in choices {
        let moves = legal_moves(&pos, rules);
        if moves.is_empty() {
            break;
        }
        pos = pos.play(moves[c as usize % moves.len()]);
    }
    pos
}

fn playout(rules: impl Strategy<Value = Rules>) -> impl Strategy<Value = (Rules, Position)> {
    (rules, proptest::collection::vec(any::<u16>(), 0..80))
        .prop_map(|(r, choices)| (r, play_out(&r, &choices)))
}

/// The names of a set of points, comma-separated (for building position text).
fn names(board: &Board, set: Bitboard) -> String {
    set.map(|p| board.point_name(p).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// What kind of stone set to build.
#[derive(Copy, Clone, Debug)]
enum Kind {
    /// No stones in hand.
    Moving,
    /// The side to move has exactly 3 stones and none in hand.
    Flying,
    /// Stones in hand.
    Placement,
    /// Moving phase; the enemy stones are a union of mills.
    EnemyInMills,
    /// Placement; the enemy stones are a union of mills.
    PlacementEnemyInMills,
}

/// A random valid Nine-board position with stones on random points, built from its text.
fn stone_set() -> impl Strategy<Value = (Rules, Position)> {
    let points: Vec<u8> = (0..24).collect();
    let mills: Vec<usize> = (0..16).collect();
    (
        nine_rules(),
        proptest::sample::select(vec![
            Kind::Moving,
            Kind::Flying,
            Kind::Placement,
            Kind::EnemyInMills,
            Kind::PlacementEnemyInMills,
        ]),
        Just(points).prop_shuffle(),
        Just(mills).prop_shuffle(),
        any::<[u8; 4]>(),
        any::<bool>(),
    )
        .prop_map(|(rules, kind, order, mill_order, r, white_to_move)| {
            let s = rules.stones as usize;
            let board = rules.board();
            // Stones in hand for the side to move and the other side.
            let (hand_us, hand_them) = match kind {
                Kind::Placement | Kind::PlacementEnemyInMills => {
                    let h = 1 + r[0] as usize % s;
                    (h, h - (r[1] as usize % 2))
                }
                _ => (0, 0),
            };
            let room_us = s - hand_us;
            let room_them = s - hand_them;
            // The enemy's stones: random points, or whole mills.
            let mut them = Bitboard::EMPTY;
            let min_them = 3usize.saturating_sub(hand_them);
            let want_them = min_them + r[2] as usize % (room_them - min_them + 1);
            if matches!(kind, Kind::EnemyInMills | Kind::PlacementEnemyInMills) {
                for &m in &mill_order {
                    let line = board.lines()[m];
                    if (them | line).count() as usize <= room_them {
                        them |= line;
                    }
                    if them.count() as usize >= want_them.max(min_them) {
                        break;
                    }
                }
            } else {
                them = order[..want_them].iter().copied().collect();
            }
            // Too few for a legal position (no whole mill fitted): top up with random points.
            for &p in &order {
                if them.count() as usize >= min_them {
                    break;
                }
                them = them.with(p);
            }
            // Our stones on points the enemy does not hold.
            let free: Vec<u8> = order
                .iter()
                .copied()
                .filter(|&p| !them.contains(p))
                .collect();
            let want_us = match kind {
                Kind::Flying => 3,
                Kind::Moving | Kind::EnemyInMills => 3 + r[3] as usize % (s - 2),
                _ => r[3] as usize % (room_us + 1),
            };
            let us: Bitboard = free[..want_us].iter().copied().collect();
            let (white, black, hw, hb, side) = if white_to_move {
                (us, them, hand_us, hand_them, 'w')
            } else {
                (them, us, hand_them, hand_us, 'b')
            };
            let text = format!(
                "W:{} B:{} {side} {hw} {hb}",
                names(board, white),
                names(board, black)
            );
            let pos = Position::parse(&text, &rules)
                .unwrap_or_else(|e| panic!("valid by construction `{text}`: {e}"));
            (rules, pos)
        })
}

/// Nine-board positions in all phases: playouts and stone sets.
fn nine_position() -> impl Strategy<Value = (Rules, Position)> {
    prop_oneof![playout(nine_rules()), stone_set()]
}

/// The games the reference plays (all but the grid game, which has its own naive generator
/// in tests/dara.rs), standard or with flying switched.
fn reference_rules() -> impl Strategy<Value = Rules> {
    let games: Vec<Game> = Game::ALL.into_iter().filter(|&g| g != Game::Dara).collect();
    (proptest::sample::select(games), any::<bool>()).prop_map(|(game, switch)| {
        let rules = Rules::standard(game);
        // Flying matters only where a side can be left with three stones.
        match game {
            Game::Nine | Game::Twelve | Game::Six | Game::Lasker if switch => Rules {
                flying: !rules.flying,
                ..rules
            },
            _ => rules,
        }
    })
}

/// Positions of every game: playouts of all games and Nine-board stone sets.
fn any_position() -> impl Strategy<Value = (Rules, Position)> {
    prop_oneof![playout(any_rules()), stone_set()]
}

// ---------------------------------------------------------------------------------------------
// Symmetry helpers

fn map_position(perm: &Permutation, pos: &Position) -> Position {
    Position::new(
        Board::map(perm, pos.stones(Color::White)),
        Board::map(perm, pos.stones(Color::Black)),
        [pos.in_hand(Color::White), pos.in_hand(Color::Black)],
        pos.side_to_move(),
    )
}

fn map_move(perm: &Permutation, mv: Move) -> Move {
    Move::new(
        mv.from().map(|p| perm[p as usize]),
        perm[mv.to() as usize],
        mv.capture().map(|p| perm[p as usize]),
    )
}

// ---------------------------------------------------------------------------------------------
// Round trips and legality

proptest! {
    #![proptest_config(Config { cases: 1000, ..Config::default() })]

    #[test]
    fn position_notation_round_trips((rules, pos) in any_position()) {
        let text = pos.notation(&rules).to_string();
        prop_assert_eq!(Position::parse(&text, &rules), Ok(pos), "{}", text);
    }

    #[test]
    fn generated_moves_round_trip_and_are_legal((rules, pos) in any_position()) {
        let board = rules.board();
        for mv in legal_moves(&pos, &rules) {
            let text = mv.notation(board).to_string();
            prop_assert_eq!(Move::parse(&text, board), Ok(mv), "{}", text);
            prop_assert!(is_legal(&pos, &rules, mv), "{} not legal", text);
            prop_assert_eq!(pos.parse_move(&text, &rules), Ok(mv));
            let next = pos.play(mv);
            let next_text = next.notation(&rules).to_string();
            prop_assert_eq!(Position::parse(&next_text, &rules), Ok(next), "{} after {}", next_text, text);
        }
    }

    /// The reference reads the engine's position text and prints it back identically.
    #[test]
    fn reference_prints_engine_notation((rules, pos) in nine_position()) {
        let text = pos.notation(&rules).to_string();
        prop_assert_eq!(to_reference(&pos, &rules).to_string(), text);
    }
}

/// Moves that are well-formed but not generated are refused by `is_legal`.
#[test]
fn moves_not_generated_are_not_legal() {
    let rules = Rules::nine();
    let board = rules.board();
    let pos = Position::parse("W:b2,b6,c4,f4,d6 B:a1,d1,g1,c3,d3,e3 w 0 0", &rules).unwrap();
    for text in ["c4-b4", "c4-a4", "b2", "d6-d7xa1", "f4-f2xd3", "a1-a4"] {
        let mv = Move::parse(text, board).unwrap();
        assert!(!is_legal(&pos, &rules, mv), "{text}");
    }
    for text in ["c4-b4xa1", "c4-b4xe3", "d6-d7", "f4-g4"] {
        let mv = Move::parse(text, board).unwrap();
        assert!(is_legal(&pos, &rules, mv), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Agreement with the reference move generator

/// The engine's moves, and the positions they lead to, equal the reference's: compared as
/// sorted `move -> resulting position` strings.
fn compare_with_reference(rules: &Rules, pos: &Position) -> Result<(), TestCaseError> {
    let board = rules.board();
    let rpos = to_reference(pos, rules);
    let v = variant(rules);
    let mut ours: Vec<String> = legal_moves(pos, rules)
        .into_iter()
        .map(|m| format!("{} -> {}", m.notation(board), pos.play(m).notation(rules)))
        .collect();
    let mut theirs: Vec<String> = reference::legal_moves(&rpos, &v)
        .iter()
        .map(|m| format!("{} -> {}", m, reference::play(&rpos, m)))
        .collect();
    ours.sort();
    theirs.sort();
    prop_assert_eq!(
        ours,
        theirs,
        "position `{}` with {:?}",
        pos.notation(rules),
        rules
    );
    // The game is over for both or for neither.
    prop_assert_eq!(
        pos.outcome(rules).is_some(),
        reference::movegen::game_over(&rpos, &v)
    );
    Ok(())
}

proptest! {
    #![proptest_config(Config { cases: 4000, ..Config::default() })]

    #[test]
    fn legal_moves_equal_reference((rules, pos) in nine_position()) {
        compare_with_reference(&rules, &pos)?;
    }

    /// Playouts of every game the reference plays, whole games included: Twelve's diagonals,
    /// Six's board, Lasker's place-or-move, the games where a line wins.
    #[test]
    fn legal_moves_equal_reference_in_every_game((rules, pos) in playout(reference_rules())) {
        compare_with_reference(&rules, &pos)?;
    }
}

/// Samples the generators with a fixed seed and checks that every phase the comparison is
/// meant to cover turns up often, so the reference comparison cannot silently lose coverage.
#[test]
fn generators_cover_every_phase() {
    let mut runner = TestRunner::deterministic();
    let strategy = nine_position();
    let (mut placement, mut moving, mut flying, mut captures) = (0, 0, 0, 0);
    let (mut all_in_mills_capture, mut over, mut no_flying_three) = (0, 0, 0);
    let samples = 4000;
    for _ in 0..samples {
        let (rules, pos) = strategy.new_tree(&mut runner).unwrap().current();
        let moves = legal_moves(&pos, &rules);
        let capture = moves.iter().any(|m| m.capture().is_some());
        let them = pos.them();
        if pos.our_hand() > 0 {
            placement += 1;
        } else {
            moving += 1;
        }
        if pos.our_hand() == 0 && pos.us().count() == 3 {
            if rules.flying {
                flying += 1;
            } else {
                no_flying_three += 1;
            }
        }
        if capture {
            captures += 1;
            if rules.board().in_lines(them) == them {
                all_in_mills_capture += 1;
            }
        }
        if moves.is_empty() {
            over += 1;
        }
        // The comparison itself, on the same sample.
        compare_with_reference(&rules, &pos).unwrap();
    }
    let summary = format!(
        "placement {placement}, moving {moving}, flying {flying}, three without flying \
         {no_flying_three}, with captures {captures}, capture with every enemy stone in a mill \
         {all_in_mills_capture}, game over {over}"
    );
    println!("{summary}");
    assert!(placement > samples / 5, "{summary}");
    assert!(moving > samples / 5, "{summary}");
    assert!(flying > samples / 20, "{summary}");
    assert!(no_flying_three > samples / 100, "{summary}");
    assert!(captures > samples / 5, "{summary}");
    assert!(all_in_mills_capture > samples / 50, "{summary}");
    assert!(over > 0, "{summary}");
}

// ---------------------------------------------------------------------------------------------
// Symmetries

/// The engine's derived boards equal the reference's hand-written ones (the same neighbours
/// and lines, by point number), and every engine symmetry maps the hand-written lines and
/// neighbours onto themselves.
#[test]
fn boards_and_symmetries_agree_with_the_hand_written_boards() {
    use reference::Board as Hand;
    for (game, hand) in [
        (Game::Nine, Hand::Nine),
        (Game::Twelve, Hand::Twelve),
        (Game::Six, Hand::Six),
        (Game::Three, Hand::Three),
        (Game::TicTacToe, Hand::Three),
    ] {
        let board = game.board();
        let geometry = hand.geometry();
        assert_eq!(board.len(), hand.points(), "{game}");
        let mut ours: Vec<u32> = board.lines().iter().map(|l| l.bits()).collect();
        let mut theirs = geometry.line_masks.clone();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs, "{game}: lines");
        for p in 0..board.len() as u8 {
            assert_eq!(
                board.point_name(p).to_string(),
                hand.name(p as usize),
                "{game}: point {p}"
            );
            if game != Game::TicTacToe {
                assert_eq!(
                    board.adjacent(p).bits(),
                    geometry.neighbour_mask[p as usize],
                    "{game}: neighbours of {}",
                    hand.name(p as usize)
                );
            }
        }
        for perm in board.symmetries() {
            for &m in &geometry.line_masks {
                let mapped = Board::map(perm, Bitboard(m)).bits();
                assert!(
                    geometry.line_masks.contains(&mapped),
                    "{game}: line {m:#x} maps to {mapped:#x}"
                );
            }
            for p in 0..board.len() as u8 {
                let mapped = Board::map(perm, Bitboard(geometry.neighbour_mask[p as usize]));
                assert_eq!(
                    mapped.bits(),
                    geometry.neighbour_mask[perm[p as usize] as usize],
                    "{game}: neighbours of {}",
                    hand.name(p as usize)
                );
            }
        }
    }
}

#[test]
fn nine_symmetries_form_a_group_of_16() {
    let board = Rules::nine().board();
    let syms = board.symmetries();
    assert_eq!(syms.len(), 16);
    // Distinct, the identity first, closed under composition.
    for (i, a) in syms.iter().enumerate() {
        for b in &syms[i + 1..] {
            assert_ne!(a[..24], b[..24]);
        }
    }
    assert!((0..24u8).all(|p| syms[0][p as usize] == p));
    for a in syms {
        for b in syms {
            let composed: Vec<u8> = (0..24).map(|p| a[b[p] as usize]).collect();
            assert!(syms.iter().any(|s| s[..24] == composed[..]));
        }
    }
}

#[test]
fn every_board_symmetry_maps_lines_and_neighbours() {
    for game in Game::ALL {
        let board = game.board();
        for perm in board.symmetries() {
            let n = board.len();
            let image: Bitboard = perm[..n].iter().copied().collect();
            assert_eq!(image, board.all(), "{game}: a permutation");
            for &line in board.lines() {
                assert!(board.lines().contains(&Board::map(perm, line)), "{game}");
            }
            for p in 0..n as u8 {
                assert_eq!(
                    Board::map(perm, board.adjacent(p)),
                    board.adjacent(perm[p as usize]),
                    "{game}"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    /// Mapping a position maps its move set, and perft to depth 2 is unchanged.
    #[test]
    fn moves_and_perft_commute_with_symmetries((rules, pos) in any_position()) {
        let board = rules.board();
        let mut base: Vec<Move> = legal_moves(&pos, &rules);
        base.sort();
        let depth2 = perft(&pos, &rules, 2);
        for perm in board.symmetries() {
            let image = map_position(perm, &pos);
            let mut mapped: Vec<Move> = base.iter().map(|&m| map_move(perm, m)).collect();
            mapped.sort();
            let mut direct = legal_moves(&image, &rules);
            direct.sort();
            prop_assert_eq!(&mapped, &direct);
            prop_assert_eq!(perft(&image, &rules, 2), depth2);
        }
    }
}

proptest! {
    #![proptest_config(Config { cases: 24, ..Config::default() })]

    #[test]
    fn perft_3_is_invariant_under_symmetries((rules, pos) in nine_position()) {
        let expected = perft(&pos, &rules, 3);
        for perm in rules.board().symmetries() {
            prop_assert_eq!(perft(&map_position(perm, &pos), &rules, 3), expected);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

fn parse_error(text: &str) -> PositionError {
    Position::parse(text, &Rules::nine()).expect_err(text)
}

#[test]
fn unknown_point_is_refused() {
    assert!(matches!(
        parse_error("W:d4 B: b 8 9"),
        PositionError::UnknownPoint { name, .. } if name == "d4"
    ));
    assert!(matches!(
        parse_error("W:a1 B:h8 w 8 8"),
        PositionError::UnknownPoint { name, .. } if name == "h8"
    ));
}

#[test]
fn duplicate_point_is_refused() {
    assert!(matches!(
        parse_error("W:a1,d1,a1 B:a7,d7,g7 b"),
        PositionError::Duplicate { point } if point == "a1"
    ));
}

#[test]
fn point_of_both_colours_is_refused() {
    assert!(matches!(
        parse_error("W:a1,d1,g1 B:a7,d1,g7 b"),
        PositionError::BothColors { point } if point == "d1"
    ));
}

#[test]
fn too_many_stones_are_refused() {
    assert!(matches!(
        parse_error("W:a1,d1,g1,b2,d2,f2,c3,d3,e3,a4 B:a7,d7,g7 b 0 0"),
        PositionError::TooManyStones {
            color: Color::White,
            on_board: 10,
            in_hand: 0,
            max: 9
        }
    ));
    assert!(matches!(
        parse_error("W: B:a7 w 9 9"),
        PositionError::TooManyStones {
            color: Color::Black,
            on_board: 1,
            in_hand: 9,
            ..
        }
    ));
    // Fewer stones in the rules: 4 on the board is too many for a 3-stone game.
    assert!(matches!(
        Position::parse("W:a1,d1,g1,a4 B:a7,d7,g7 b", &nine(3, true)),
        Err(PositionError::TooManyStones { max: 3, .. })
    ));
}

#[test]
fn impossible_hand_counts_are_refused() {
    // The side to move has as many stones in hand as the other, or one more.
    for text in [
        "W: B: w 9 7",
        "W: B: w 8 9",
        "W:a1 B: w 8 9",
        "W:a1,d1 B: b 7 9",
    ] {
        assert!(
            matches!(parse_error(text), PositionError::ImpossibleHands { .. }),
            "{text}"
        );
    }
    assert!(Position::parse("W:a1 B: b 8 9", &Rules::nine()).is_ok());
    assert!(Position::parse("W:a1 B:a7 w 8 8", &Rules::nine()).is_ok());
}

#[test]
fn bad_side_letter_is_refused() {
    assert!(matches!(
        parse_error("W:a1,d1,g1 B:a7,d7,g7 x"),
        PositionError::BadSide(s) if s == "x"
    ));
    assert!(matches!(
        parse_error("W:a1,d1,g1 B:a7,d7,g7 W 0 0"),
        PositionError::BadSide(s) if s == "W"
    ));
}

#[test]
fn other_malformed_positions_are_refused() {
    assert!(matches!(parse_error("W:a1 B:a7"), PositionError::Syntax(_)));
    assert!(matches!(
        parse_error("B:a1 W:a7 w"),
        PositionError::Syntax(_)
    ));
    assert!(matches!(
        parse_error("W: B: w x 9"),
        PositionError::BadHand(_)
    ));
    assert!(matches!(
        parse_error("W:a1,d1 B:a7,d7,g7 b 0 0"),
        PositionError::AlreadyOver {
            color: Color::White,
            total: 2
        }
    ));
}

#[test]
fn illegal_move_lists_the_legal_moves() {
    let rules = Rules::nine();
    let start = Position::start(&rules);
    match start.parse_move("a1-d1", &rules) {
        Err(MoveError::Illegal { mv, legal }) => {
            assert_eq!(mv, "a1-d1");
            let mut legal = legal;
            legal.sort();
            assert_eq!(legal, engine_moves(&start, &rules));
            assert_eq!(legal.len(), 24);
        }
        other => panic!("expected Illegal, got {other:?}"),
    }
    // A mill must capture: the bare slide is illegal, the capturing moves are listed.
    let pos = Position::parse("W:b2,b6,c4,f4,d6 B:a1,d1,g1,c3,d3,e3 w 0 0", &rules).unwrap();
    match pos.parse_move("c4-b4", &rules) {
        Err(MoveError::Illegal { legal, .. }) => {
            assert!(legal.contains(&"c4-b4xa1".to_string()));
            assert!(!legal.contains(&"c4-b4".to_string()));
            let mut sorted = legal.clone();
            sorted.sort();
            assert_eq!(sorted, reference_moves(&pos, &rules));
        }
        other => panic!("expected Illegal, got {other:?}"),
    }
    // The game is over: nothing is legal.
    let blocked = Position::parse("W:a1,d1,g1,a4 B:a7,d2,g4,b4 w", &rules).unwrap();
    assert!(matches!(
        blocked.parse_move("a4-b4", &rules),
        Err(MoveError::Illegal { legal, .. }) if legal.is_empty()
    ));
}

#[test]
fn malformed_moves_are_refused() {
    let board = Rules::nine().board();
    assert!(
        matches!(Move::parse("d4", board), Err(MoveError::UnknownPoint { name, .. }) if name == "d4")
    );
    assert!(matches!(
        Move::parse("a1-a1", board),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        Move::parse("a1xa1", board),
        Err(MoveError::Syntax(_))
    ));
    assert!(matches!(
        Move::parse("a1-", board),
        Err(MoveError::Syntax(_))
    ));
    assert_eq!(
        Move::parse("b6-c5xg4", board)
            .unwrap()
            .notation(board)
            .to_string(),
        "b6-c5xg4"
    );
}
