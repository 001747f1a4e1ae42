//! `morris analyze` against `morris query` on the 4-stone game, solved here once (plain and
//! under the no-capture rule with N = 6): a game of the first best move at every ply is best
//! throughout, a move that `query` ranks below the best is flagged at its ply with the move
//! `query` ranks first, and every way a game ends or is refused.

mod common;

use common::{assert_fails, json, morris, morris_input, solve, stderr, stdout};
use morris_testdirs::scratch;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Output;
use std::sync::OnceLock;

const N: &str = "6";

/// The tables of the 4-stone game, plain and under the rule, built once for the file.
fn db() -> &'static str {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| {
        let d = scratch("analyze");
        for rule in [&[][..], &["--moves-without-capture", N][..]] {
            solve(&d, &[&["--stones", "4"][..], rule].concat());
        }
        d
    })
    .to_str()
    .unwrap()
}

/// `morris analyze --db DB --stones 4 ARGS` with `game` on stdin.
fn analyze(args: &[&str], game: &str) -> Output {
    morris_input(
        &[&["analyze", "--db", db(), "--stones", "4"][..], args].concat(),
        game,
    )
}

fn analyze_json(args: &[&str], game: &str) -> Value {
    let mut all = vec!["--json"];
    all.extend(args);
    let o = analyze(&all, game);
    assert!(o.status.success(), "{}", stderr(&o));
    json(&o)
}

fn query(position: &str) -> Value {
    let o = morris(&["query", "--db", db(), "--stones", "4", "--json", position]);
    assert!(o.status.success(), "{}", stderr(&o));
    json(&o)
}

/// Win before draw before loss, for the mover.
fn rank(value: &Value) -> u8 {
    match value.as_str().unwrap() {
        "win" => 0,
        "draw" => 1,
        "loss" => 2,
        v => panic!("not a value: {v}"),
    }
}

/// Up to `plies` moves from the start, each the first of `query`'s ranking, stopping where the
/// game is over or a position comes up a third time.
fn perfect_game(plies: usize) -> Vec<String> {
    let mut position = "startpos".to_string();
    let mut seen = std::collections::HashMap::new();
    let mut game = Vec::new();
    while game.len() < plies {
        let answer = query(&position);
        let visits = seen
            .entry(answer["position"].as_str().unwrap().to_string())
            .or_insert(0);
        *visits += 1;
        if !answer["over"].is_null() || *visits == 3 {
            break;
        }
        let best = &answer["moves"][0];
        game.push(best["move"].as_str().unwrap().to_string());
        position = best["position"].as_str().unwrap().to_string();
    }
    game
}

/// A game that follows `query`'s first move until a position where some move is worth less
/// than it, plays that move, and then the best reply if the game goes on.
struct Blunder {
    game: Vec<String>,
    /// 1-based.
    ply: usize,
    side: String,
    played: String,
    best: String,
    best_value: String,
    played_value: String,
}

fn blunder_game() -> Blunder {
    let mut position = "startpos".to_string();
    let mut game = Vec::new();
    for _ in 0..60 {
        let answer = query(&position);
        assert!(answer["over"].is_null(), "no blunder before the end");
        let moves = answer["moves"].as_array().unwrap();
        let best = &moves[0];
        if let Some(worse) = moves
            .iter()
            .find(|m| rank(&m["value"]) > rank(&best["value"]))
        {
            game.push(worse["move"].as_str().unwrap().to_string());
            let after = query(worse["position"].as_str().unwrap());
            if let Some(reply) = after["moves"].get(0) {
                game.push(reply["move"].as_str().unwrap().to_string());
            }
            let s = |v: &Value| v.as_str().unwrap().to_string();
            return Blunder {
                ply: game.len() - usize::from(after["moves"].get(0).is_some()),
                side: s(&answer["side"]),
                played: s(&worse["move"]),
                best: s(&best["move"]),
                best_value: s(&best["value"]),
                played_value: s(&worse["value"]),
                game,
            };
        }
        game.push(best["move"].as_str().unwrap().to_string());
        position = best["position"].as_str().unwrap().to_string();
    }
    panic!("no move worse than the best in 60 plies of perfect play");
}

#[test]
fn perfect_game_is_best_at_every_ply() {
    let game = perfect_game(30);
    assert!(game.len() >= 20, "a game of {} plies", game.len());
    // As a file, with comments and move numbers in the forms games are written in.
    let mut text = String::from("# the first best move of `query` at every ply\n");
    for (i, pair) in game.chunks(2).enumerate() {
        let n = i + 1;
        match pair {
            [w, b] if n % 2 == 0 => text.push_str(&format!("{n}.{w} {n}... {b}\n")),
            _ => text.push_str(&format!("{n}. {}  # move {n}\n", pair.join(" "))),
        }
    }
    let file = scratch("analyze-perfect").join("game.txt");
    std::fs::write(&file, &text).unwrap();
    let o = morris(&[
        "analyze",
        "--db",
        db(),
        "--stones",
        "4",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    for (i, mv) in game.iter().enumerate() {
        let line = lines[i];
        assert!(
            line.starts_with(&format!("{:>3}. ", i + 1)) && line.contains(mv.as_str()),
            "ply {}: {line}",
            i + 1
        );
        assert!(line.ends_with("best"), "{line}");
    }
    assert!(!out.contains("BLUNDER"), "{out}");
    let white = game.len().div_ceil(2);
    assert!(
        out.contains(&format!("white: {white} moves, {white} best, 0 blunders")),
        "{out}"
    );
    let a = analyze_json(&[], &game.join(" "));
    for p in a["plies"].as_array().unwrap() {
        assert_eq!(p["best"], true, "{p}");
        assert_eq!(p["drop"], "none", "{p}");
        assert!(p["missed"].is_null(), "{p}");
        assert_eq!(p["before"]["value"], p["after"]["value"], "{p}");
    }
}

#[test]
fn blunder_is_flagged_at_its_ply_with_the_missed_best_move() {
    let b = blunder_game();
    let a = analyze_json(&[], &b.game.join("\n"));
    let plies = a["plies"].as_array().unwrap();
    assert_eq!(plies.len(), b.game.len());
    let drop = format!("{}→{}", b.best_value, b.played_value);
    for p in plies {
        if p["ply"] == b.ply {
            assert_eq!(p["move"], b.played.as_str());
            assert_eq!(p["side"], b.side.as_str());
            assert_eq!(p["best"], false);
            assert_eq!(p["drop"], drop.as_str());
            assert_eq!(p["before"]["value"], b.best_value.as_str());
            assert_eq!(p["after"]["value"], b.played_value.as_str());
            assert_eq!(p["missed"]["move"], b.best.as_str());
            assert_eq!(p["missed"]["value"], b.best_value.as_str());
        } else {
            assert_eq!(p["drop"], "none", "{p}");
            assert!(p["missed"].is_null(), "{p}");
        }
    }
    let kind = drop.replace('→', "_to_");
    assert_eq!(a["summary"][&b.side][&kind], 1, "{}", a["summary"]);
    let o = analyze(&[], &b.game.join(" "));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let flagged: Vec<&str> = out.lines().filter(|l| l.contains("BLUNDER")).collect();
    assert_eq!(flagged.len(), 1, "{out}");
    assert!(
        flagged[0].starts_with(&format!("{:>3}. {}", b.ply, b.side))
            && flagged[0].contains(&format!("BLUNDER (best: {}, {}", b.best, b.best_value)),
        "{out}"
    );
}

#[test]
fn illegal_or_malformed_move_is_exit_2_naming_the_ply() {
    for (game, ply, text) in [
        ("a1 d1 a1", "ply 3", "`a1`"),
        ("a1 d1 q9", "ply 3", "`q9`"),
        ("1. a1 d1 2. g1 d1-", "ply 4", "`d1-`"),
    ] {
        let o = analyze(&[], game);
        assert_eq!(o.status.code(), Some(2), "{game}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(ply) && err.contains(text), "{game}: {err}");
        assert!(stdout(&o).is_empty());
    }
    let o = analyze(&[], "a1 d1 a1");
    assert!(stderr(&o).contains("W:a1 B:d1 w 3 3"), "{}", stderr(&o));
}

#[test]
fn json_has_one_record_per_ply_with_every_field() {
    let game = perfect_game(12);
    let a = analyze_json(&["-"], &game.join(" "));
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let mut top = keys(&a);
    top.sort();
    assert_eq!(
        top,
        ["counter", "end", "plies", "position", "rules", "summary"]
    );
    assert_eq!(a["position"], "W: B: w 4 4");
    assert!(a["end"].is_null() && a["counter"].is_null());
    let plies = a["plies"].as_array().unwrap();
    assert_eq!(plies.len(), game.len());
    let mut position = query("startpos");
    for (i, p) in plies.iter().enumerate() {
        let mut k = keys(p);
        k.sort();
        assert_eq!(
            k,
            [
                "after", "before", "best", "counter", "drop", "missed", "move", "ply", "position",
                "side"
            ]
        );
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["move"], game[i].as_str());
        assert_eq!(p["side"], if i % 2 == 0 { "white" } else { "black" });
        assert_eq!(p["position"], position["position"]);
        assert_eq!(p["before"]["value"], position["value"]);
        assert!(p["counter"].is_null() && p["before"]["category"].is_null());
        let next = position["moves"][0]["position"]
            .as_str()
            .unwrap()
            .to_string();
        position = query(&next);
    }
    assert_eq!(a["summary"]["black"]["moves"], game.len() / 2);
}

#[test]
fn svg_marks_the_blunder() {
    let b = blunder_game();
    let file = scratch("analyze-svg").join("game.svg");
    let o = analyze(&["--svg", file.to_str().unwrap()], &b.game.join(" "));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("BLUNDER"));
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    assert!(svg.trim_end().ends_with("</svg>"));
    let title = format!(
        "<title>ply {}: {} {}, {}→{}; best: {}, {}</title>",
        b.ply, b.side, b.played, b.best_value, b.played_value, b.best, b.best_value
    );
    assert!(svg.contains(&title), "{title} not in {svg}");
    assert_eq!(svg.matches("<circle").count(), 1, "{svg}");
    let o = analyze(&["--svg", "/nonexistent/dir/game.svg"], &b.game.join(" "));
    assert_fails(&o, 1, &["/nonexistent/dir/game.svg"]);
}

/// The 4-stone game after every stone is placed: a1 d1 g1 b2 d2 f2 c3 d3, White to move.
const PLACED: &str = "a1 d1 g1 b2 d2 f2 c3 d3";

#[test]
fn game_ends_by_position_repetition_and_rule() {
    // The blunder game ends where `query` says its last position is over, as it says.
    let b = blunder_game();
    let a = analyze_json(&[], &b.game.join(" "));
    let last = a["plies"].as_array().unwrap().last().unwrap();
    let before = query(last["position"].as_str().unwrap());
    let played = before["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == last["move"])
        .unwrap();
    let over = &query(played["position"].as_str().unwrap())["over"];
    if over.is_null() {
        assert!(a["end"].is_null(), "{}", a["end"]);
    } else {
        assert_eq!(a["end"]["winner"], over["winner"]);
        assert_eq!(a["end"]["reason"], over["reason"]);
        assert_eq!(a["end"]["ply"], b.game.len());
    }
    // A position the third time, White to move: after plies 8, 12 and 16.
    let shuffle = "c3-c4 f2-f4 c4-c3 f4-f2";
    let game = format!("{PLACED} {shuffle} {shuffle}");
    let a = analyze_json(&[], &game);
    assert_eq!(a["end"]["ply"], 16);
    assert_eq!(a["end"]["reason"], "threefold repetition");
    assert!(a["end"]["winner"].is_null());
    assert_eq!(a["end"]["position"], "W:a1,g1,d2,c3 B:d1,b2,f2,d3 w 0 0");
    let o = analyze(&[], &format!("{game} c3-c4"));
    assert_fails(&o, 2, &["ply 17: `c3-c4` comes after the end of the game"]);
    // N = 6 plies without a capture or placement after the last placement.
    let moving = "a1-a4 d1-a1 g1-d1 b2-b4 d1-g1 a1-d1";
    let rule = ["--moves-without-capture", N];
    let a = analyze_json(&rule, &format!("{PLACED} {moving}"));
    assert_eq!(a["rules"]["moves_without_capture"], 6);
    assert_eq!(a["end"]["ply"], 14);
    assert_eq!(a["end"]["reason"], "no-capture rule");
    let counters: Vec<u64> = a["plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["counter"].as_u64().unwrap())
        .collect();
    assert_eq!(counters, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5]);
    assert!(a["plies"][0]["before"]["category"].is_string());
    let o = analyze(&rule, &format!("{PLACED} {moving} g4-g7"));
    assert_fails(&o, 2, &["ply 15"]);
    // Started at counter 3, the limit comes three plies sooner.
    let a = analyze_json(
        &[
            "--moves-without-capture",
            N,
            "--counter",
            "3",
            "--position",
            "W:a1,g1,d2,c3 B:d1,b2,f2,d3 w 0 0",
        ],
        "a1-a4 d1-a1 g1-d1",
    );
    assert_eq!(a["counter"], 3);
    assert_eq!(a["end"]["ply"], 3);
}

#[test]
fn missing_table_is_exit_1_naming_file_and_command() {
    let empty = scratch("analyze-empty");
    let game = empty.join("game.txt");
    std::fs::write(&game, "a1").unwrap();
    let o = morris(&[
        "analyze",
        "--db",
        empty.to_str().unwrap(),
        "--stones",
        "4",
        game.to_str().unwrap(),
    ]);
    assert_fails(&o, 1, &[".mdb", "morris solve --game nine --stones 4"]);
}
