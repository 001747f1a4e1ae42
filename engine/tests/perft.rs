//! Perft against the counts in `tests/data/perft.txt` (its format is described at its top).
//!
//! Both the engine and the independent reference implementation must reproduce every count,
//! so a wrong line in the file, or a fault in either generator, fails a test. When the engine
//! is wrong the failure walks down to the first position whose move lists differ from the
//! reference's and prints both.

mod common;

use common::{explain_difference, nine, perft_counts, variant};
use morris_engine::{perft, Game, Position, Rules};
use morris_reference as reference;

struct Case {
    line: usize,
    rules: Rules,
    position: String,
    counts: Vec<u64>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(
            fields.len(),
            3,
            "line {}: three `|`-separated fields",
            i + 1
        );
        let rule_words: Vec<&str> = fields[0].split_whitespace().collect();
        assert_eq!(
            rule_words.len(),
            3,
            "line {}: `<game> <stones> <flying|noflying>`",
            i + 1
        );
        let game: Game = rule_words[0]
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let stones: u8 = rule_words[1].parse().expect("stone count");
        let flying = match rule_words[2] {
            "flying" => true,
            "noflying" => false,
            other => panic!("line {}: `{other}` is not flying/noflying", i + 1),
        };
        cases.push(Case {
            line: i + 1,
            rules: Rules {
                game,
                stones,
                flying,
            },
            position: fields[1].to_string(),
            counts: perft_counts(fields[2], i + 1),
        });
    }
    cases
}

#[test]
fn data_file_has_the_required_cases() {
    let cases = cases();
    assert!(cases.len() >= 6);
    let start = cases
        .iter()
        .find(|c| c.position == "startpos" && c.rules == nine(9, true))
        .expect("startpos line");
    assert_eq!(start.counts.len(), 6, "startpos to depth 6");
    assert_eq!(start.counts[..4], [24, 552, 12144, 255024]);
    assert!(cases
        .iter()
        .any(|c| c.position == "W:d7,g1,g7 B:a4,d5,g4 b 0 0"));
    // Each kind of position is present: flying, placement with stones on the board, moving.
    let parsed: Vec<(Position, Rules)> = cases
        .iter()
        .map(|c| (Position::parse(&c.position, &c.rules).unwrap(), c.rules))
        .collect();
    assert!(parsed
        .iter()
        .any(|(p, r)| r.flying && p.our_hand() == 0 && p.us().count() == 3));
    assert!(parsed
        .iter()
        .any(|(p, _)| p.our_hand() > 0 && !p.us().is_empty()));
    assert!(parsed
        .iter()
        .any(|(p, _)| p.our_hand() == 0 && p.us().count() > 3));
    // Every game but the grid game (perft-dara.txt) from its start and from elsewhere.
    for game in Game::ALL.into_iter().filter(|&g| g != Game::Dara) {
        let of_game = |c: &&Case| c.rules.game == game;
        assert!(
            cases
                .iter()
                .filter(of_game)
                .any(|c| c.position == "startpos" && c.rules == Rules::standard(game)),
            "{game}: a startpos line with the standard rules"
        );
        assert!(
            cases
                .iter()
                .filter(of_game)
                .any(|c| c.position != "startpos"),
            "{game}: a position of play"
        );
    }
}

#[test]
fn engine_perft_matches_data_file() {
    for case in cases() {
        let pos = Position::parse(&case.position, &case.rules)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let got = perft(&pos, &case.rules, depth);
            if got != expected {
                panic!(
                    "line {}: engine perft({}, depth {depth}) = {got}, file says {expected}\n{}",
                    case.line,
                    case.position,
                    explain_difference(&pos, &case.rules, depth)
                );
            }
        }
    }
}

#[test]
fn reference_perft_matches_data_file() {
    for case in cases() {
        let v = variant(&case.rules);
        let pos = reference::Position::parse(&case.position, &v)
            .unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        for (i, &expected) in case.counts.iter().enumerate() {
            let depth = i as u32 + 1;
            let got = reference::perft(&pos, &v, depth);
            assert_eq!(
                got, expected,
                "line {}: reference perft({}, depth {depth})",
                case.line, case.position
            );
        }
    }
}

/// Perft split by first move agrees move by move with the reference (one level below the
/// root, on every line, to a shallow depth).
#[test]
fn divide_agrees_with_reference() {
    for case in cases() {
        let pos = Position::parse(&case.position, &case.rules).unwrap();
        let board = case.rules.board();
        let depth = case.counts.len().min(3) as u32;
        let mut ours: Vec<(String, u64)> = morris_engine::legal_moves(&pos, &case.rules)
            .into_iter()
            .map(|m| {
                (
                    m.notation(board).to_string(),
                    perft(&pos.play(m), &case.rules, depth - 1),
                )
            })
            .collect();
        ours.sort();
        let theirs = reference::perft::divide(
            &common::to_reference(&pos, &case.rules),
            &variant(&case.rules),
            depth,
        );
        assert_eq!(ours, theirs, "line {}: {}", case.line, case.position);
    }
}
