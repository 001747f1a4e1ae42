//! `morris uci` in scripted sessions, as a GUI that drives Sanmill's engine would: the
//! handshake, positions from `startpos` with moves and from Sanmill's FEN, `go` giving a legal
//! `bestmove` worth what `morris query` says is best, `topn` with exact scores, the removal of
//! a stone as a move of its own, the rule options, and malformed lines answered without a
//! crash or a hang.

mod common;

use common::{json, morris, solve, solved, stderr};
use serde_json::Value;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a session printed, and how it ended.
struct Session {
    lines: Vec<String>,
    stderr: String,
    success: bool,
}

/// Runs `morris uci` with `args`, types `input` and closes stdin. An engine still running a
/// minute later has hung: it is killed and the test fails.
fn uci(args: &[&str], input: &[u8]) -> Session {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
        .arg("uci")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).unwrap();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).unwrap();
        s
    });
    child.stdin.take().unwrap().write_all(input).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("morris uci did not end within a minute of the end of its input");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Session {
        lines: reader.join().unwrap().lines().map(str::to_string).collect(),
        stderr: err_reader.join().unwrap(),
        success: status.success(),
    }
}

/// `morris query --json` of a position.
fn query(db: &str, rules: &[&str], position: &str) -> Value {
    let mut args = vec!["query", "--db", db, "--json"];
    args.extend_from_slice(rules);
    args.push(position);
    let o = morris(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    json(&o)
}

/// The score `go` must print for a value of the answer JSON (for the side to move).
fn expected_score(v: &Value) -> String {
    let plies = v["plies"].as_u64();
    match (v["value"].as_str().unwrap(), plies) {
        ("win", Some(d)) => format!("mate {}", d.div_ceil(2)),
        ("loss", Some(d)) => format!("mate -{}", d / 2),
        ("draw", None) => "cp 0".to_string(),
        other => panic!("unexpected value {other:?}"),
    }
}

/// The Sanmill token a move of ours begins with: `d6`, `d6-d5` (its removal comes next).
fn first_token(mv: &str) -> &str {
    mv.split('x').next().unwrap()
}

/// The moves of an answer grouped by first token, in rank order, each with its best entry.
fn by_first_token(answer: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = Vec::new();
    for m in answer["moves"].as_array().unwrap() {
        let t = first_token(m["move"].as_str().unwrap()).to_string();
        if !out.iter().any(|(o, _)| *o == t) {
            out.push((t, m.clone()));
        }
    }
    out
}

/// The answer to one `go`: its `topn` lines, its score, its principal variation, its move.
#[derive(Debug)]
struct Answer {
    topn: Vec<(usize, String, String)>,
    score: String,
    pv: Vec<String>,
    bestmove: String,
}

fn answer(lines: &[String]) -> Answer {
    let topn = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info topn rank "))
        .map(|rest| {
            let w: Vec<&str> = rest.split(' ').collect();
            assert_eq!((w[1], w[3]), ("move", "score"), "{rest}");
            (
                w[0].parse().unwrap(),
                w[2].to_string(),
                format!("{} {}", w[4], w[5]),
            )
        })
        .collect();
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth "))
        .unwrap_or_else(|| panic!("no info depth line in {lines:#?}"));
    let w: Vec<&str> = info.split(' ').collect();
    let at = |key: &str| w.iter().position(|&x| x == key).unwrap();
    let score = format!("{} {}", w[at("score") + 1], w[at("score") + 2]);
    let pv = w[at("pv") + 1..].iter().map(|s| s.to_string()).collect();
    let bestmove = lines
        .iter()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove in {lines:#?}"))
        .to_string();
    Answer {
        topn,
        score,
        pv,
        bestmove,
    }
}

/// Sets up a position and asks `go topn 100` (every move), checking the answer against
/// `morris query` of the same position: the best move is legal and of the best value, the
/// score is exact, and `topn` lists every first token in query's order with its exact score.
fn check_go(db: &str, rules: &[&str], setup: &str, ours: &str) -> Answer {
    let mut args = vec!["--db", db];
    args.extend_from_slice(rules);
    let s = uci(
        &args,
        format!("{setup}\ngo topn 100 depth 3\nquit\n").as_bytes(),
    );
    assert!(s.success && s.stderr.is_empty(), "{}", s.stderr);
    let a = answer(&s.lines);
    let q = query(db, rules, ours);
    let groups = by_first_token(&q);
    assert_eq!(a.score, expected_score(&q), "{setup}: {:#?}", s.lines);
    let chosen = groups
        .iter()
        .find(|(t, _)| *t == a.bestmove)
        .unwrap_or_else(|| panic!("{setup}: bestmove {} is not legal", a.bestmove));
    // Of the best value; for a win, of the best distance too (the engine's choice among
    // the best moves may take a quicker loss, never a slower win).
    assert_eq!(
        &chosen.1["value"], &q["value"],
        "{setup}: bestmove {} is not of the best value",
        a.bestmove
    );
    if q["value"] == "win" {
        assert_eq!(&chosen.1["plies"], &q["plies"], "{setup}: {}", a.bestmove);
    }
    assert_eq!(a.pv[0], a.bestmove);
    assert_eq!(a.topn.len(), groups.len(), "{setup}: {:#?}", a.topn);
    for ((rank, mv, score), (i, (t, best))) in a.topn.iter().zip(groups.iter().enumerate()) {
        assert_eq!((*rank, mv), (i + 1, t), "{setup}");
        assert_eq!(*score, expected_score(best), "{setup}: {mv}");
    }
    assert!(
        a.topn.iter().any(|(_, mv, _)| *mv == a.bestmove),
        "{setup}: {}",
        a.bestmove
    );
    a
}

fn fen_of(lines: &[String]) -> &str {
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:#?}"))
}

#[test]
fn a_session_plays_exact_moves() {
    let dir = solved("uci-session", &["--stones", "4"]);
    let d = dir.to_str().unwrap();
    let rules = ["--stones", "4"];

    // The handshake.
    let s = uci(
        &["--db", d, "--stones", "4"],
        b"uci\nisready\nucinewgame\nisready\nquit\n",
    );
    assert!(s.success && s.stderr.is_empty(), "{}", s.stderr);
    assert!(s.lines[0].starts_with("id name morris"), "{:#?}", s.lines);
    assert!(s.lines[1].starts_with("id author "), "{:#?}", s.lines);
    let uciok = s.lines.iter().position(|l| l == "uciok").unwrap();
    assert!(s.lines[2..uciok]
        .iter()
        .all(|l| l.starts_with("option name ")));
    for option in [
        "PiecesCount type spin default 4 min 3 max 12",
        "MayFly type check default true",
        "NMoveRule type spin default 0 min 0 max 1000",
        "flyPieceCount type spin default 3 min 3 max 3",
    ] {
        assert!(
            s.lines.contains(&format!("option name {option}")),
            "{option}"
        );
    }
    assert_eq!(s.lines[uciok + 1..], ["readyok", "readyok"]);

    // A position from the start with moves; a moving-phase position from Sanmill's FEN (Gasser's,
    // lost in 26 plies); one from our notation with a win, draws and losses.
    check_go(
        d,
        &rules,
        "ucinewgame\nposition startpos moves d6 f4",
        "W:d6 B:f4 w 3 3",
    );
    let gasser = "@*******/********/OO@O**@* b m s 3 0 3 0 0 0 0 0 0 0 0 0 1";
    let a = check_go(
        d,
        &rules,
        &format!("position fen {gasser}"),
        "W:d7,g1,g7 B:a4,d5,g4 b 0 0",
    );
    assert_eq!(a.score, "mate -13");
    assert_eq!(a.pv.len(), 3);
    let a = check_go(
        d,
        &rules,
        "position fen W:a1,d1,g4,b2 B:a7,d7,b6 w 0 0",
        "W:a1,d1,g4,b2 B:a7,d7,b6 w 0 0",
    );
    // The win closes a mill: the move is its slide, and its removal comes next in the line
    // (any of Black's three stones: each leaves two).
    assert_eq!(a.score, "mate 1");
    assert_eq!(a.pv[0], "g4-g1");
    assert!(
        ["xa7", "xd7", "xb6"].contains(&a.pv[1].as_str()),
        "{:?}",
        a.pv
    );
    assert_eq!(a.pv.len(), 2);

    // A placement that closes a mill: the removal is a position and a move of its own, worth
    // what the whole move is worth in query.
    let s = uci(
        &["--db", d, "--stones", "4"],
        b"position startpos moves a1 b2 d1 b4 g1\nd\ngo topn 9\neval\n",
    );
    assert!(s.success, "{}", s.stderr);
    let a = answer(&s.lines);
    assert!(
        fen_of(&s.lines).contains(" w p r 3 1 2 2 1 0 "),
        "{:#?}",
        s.lines
    );
    let q = query(d, &rules, "W:a1,d1 B:b2,b4 w 2 2");
    let removals: Vec<(String, Value)> = q["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| {
            let mv = m["move"].as_str().unwrap();
            mv.strip_prefix("g1x").map(|r| (format!("x{r}"), m.clone()))
        })
        .collect();
    assert_eq!(a.topn.len(), removals.len());
    for ((_, mv, score), (t, m)) in a.topn.iter().zip(&removals) {
        assert_eq!((mv, score), (t, &expected_score(m)));
    }
    assert_eq!(a.bestmove, removals[0].0);
    assert!(s.lines.contains(&format!("info eval score {}", a.score)));

    // The FEN `d` prints reads back to the same position.
    let s = uci(
        &["--db", d, "--stones", "4"],
        format!("position fen {gasser} moves d5-a7 g7-a1\nd\n").as_bytes(),
    );
    let fen = fen_of(&s.lines).to_string();
    assert!(fen.ends_with(" b m s 3 0 3 0 0 0 0 0 0 0 0 2 2"), "{fen}");
    let s2 = uci(
        &["--db", d, "--stones", "4"],
        format!("position fen {fen}\nd\n").as_bytes(),
    );
    assert_eq!(fen_of(&s2.lines), fen);

    // Scores from White's side on request; `eval` gives the same score as `go`.
    let s = uci(
        &["--db", d, "--stones", "4"],
        format!("setoption name ScoreFromWhite value true\nposition fen {gasser}\neval\n")
            .as_bytes(),
    );
    assert_eq!(s.lines, ["info eval score mate 13"]);

    // `go infinite` holds its bestmove until `stop`.
    let s = uci(
        &["--db", d, "--stones", "4"],
        b"position startpos\ngo infinite\nisready\nstop\nquit\n",
    );
    let ready = s.lines.iter().position(|l| l == "readyok").unwrap();
    let best = s
        .lines
        .iter()
        .position(|l| l.starts_with("bestmove "))
        .unwrap();
    assert!(ready < best, "{:#?}", s.lines);

    // A finished game has no move.
    let s = uci(
        &["--db", d, "--stones", "4"],
        b"position fen W:a1,d1,g1 B:a7,d7 b 0 0\ngo\n",
    );
    assert_eq!(s.lines[0], "info depth 0 score mate 0 nodes 0 time 0");
    assert!(
        s.lines[1].starts_with("info string game over: White won"),
        "{:#?}",
        s.lines
    );
    assert_eq!(s.lines[2], "bestmove none");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Malformed lines, bad positions, illegal moves and unknown options are answered with an
/// `info string` and the session goes on; the end of input ends it with exit code 0.
#[test]
fn malformed_lines_are_answered() {
    let dir = solved("uci-malformed", &["--stones", "4"]);
    let d = dir.to_str().unwrap();
    let bad: &[&[u8]] = &[
        b"position fen garbage",
        b"position fen ********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1",
        b"position fen X*******/********/******** w p p 0 4 0 4 0 0 0 0 0 0 0 0 1",
        b"position fen W:a1,a1 B: b 3 4",
        b"position startpos moves d6 zz9",
        b"position startpos moves d6 d6",
        b"position startpos moves d6 xd6",
        b"position",
        b"position sideways",
        b"go depth x frobnicate",
        b"go searchmoves zz",
        b"setoption name Foo value 1",
        b"setoption name MayFly value maybe",
        b"setoption name PiecesCount value many",
        b"setoption name flyPieceCount value 4",
        b"setoption",
        b"frobnicate",
        b"\xff\xfe\x00 bytes",
        &[b'x'; 100_000],
    ];
    let mut input = b"uci\n".to_vec();
    for line in bad {
        input.extend_from_slice(line);
        input.extend_from_slice(b"\r\nisready\n");
    }
    // The last good position: White's d6; then a `go`, and the end of input without `quit`.
    input.extend_from_slice(b"position startpos moves d6\nd\ngo\n");
    let s = uci(&["--db", d, "--stones", "4"], &input);
    assert!(s.success, "{}", s.stderr);
    assert!(s.stderr.is_empty(), "{}", s.stderr);
    let uciok = s.lines.iter().position(|l| l == "uciok").unwrap();
    // Each bad line is answered before its `readyok`, with an explanation.
    let mut answered = 0;
    let mut said = false;
    for l in &s.lines[uciok + 1..] {
        if l == "readyok" {
            assert!(
                said,
                "a bad line without an answer before readyok {answered}"
            );
            answered += 1;
            said = false;
        } else if l.starts_with("info string") {
            said = true;
        }
    }
    assert!(answered >= bad.len(), "{:#?}", s.lines);
    assert_eq!(
        s.lines.iter().filter(|l| *l == "readyok").count(),
        bad.len()
    );
    let text = s.lines.join("\n");
    for expected in [
        "invalid fen ignored",
        "not played",
        "unknown word `x`",
        "No such option: Foo",
        "`maybe` is not true or false",
        "flyPieceCount 4",
        "unknown command: frobnicate",
        "malformed setoption",
        "malformed position command",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    assert!(text.contains("W:d6 B: b 3 4"), "{text}");
    let a = answer(&s.lines);
    assert!(!a.bestmove.is_empty() && a.bestmove != "none");

    // Positions the tables do not cover (the 5-stone game, not solved here): the error names
    // the table and how to build it, and `go` still ends with a `bestmove`.
    let s = uci(
        &["--db", d, "--stones", "5"],
        b"go
eval
quit
",
    );
    assert!(s.success, "{}", s.stderr);
    assert_eq!(s.lines.len(), 3, "{:#?}", s.lines);
    assert!(s.lines[0].starts_with("info string error: ") && s.lines[0].contains("morris solve"));
    assert_eq!(s.lines[1], "bestmove none");
    assert!(s.lines[2].starts_with("info string error: "));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The rule options of Sanmill: taken when our tables have the rules asked for (then answered
/// under them, exactly), refused with the reason otherwise.
#[test]
fn rule_options_choose_the_tables() {
    let dir = solved("uci-rules", &["--stones", "3"]);
    let d = dir.to_str().unwrap();
    solve(&dir, &["--stones", "3", "--moves-without-capture", "12"]);
    let won = "W:a1,d1,g4 B:a7,d7,g7 w 0 0";
    // Sanmill's FEN of the position at counter 11.
    let s = uci(
        &["--db", d, "--stones", "3"],
        format!("position fen {won}\nd\n").as_bytes(),
    );
    let fen = fen_of(&s.lines).replacen(" 0 0 1", " 0 11 1", 1);
    assert!(fen.ends_with(" 0 0 0 0 0 11 1"), "{fen}");

    let s = uci(
        &["--db", d, "--stones", "3"],
        format!(
            "setoption name NMoveRule value 12\n\
             isready\nposition fen {fen}\ngo topn 1\n\
             setoption name NMoveRule value 50\nisready\n\
             setoption name PiecesCount value 9\nisready\n\
             setoption name EndgameNMoveRule value 5\nisready\nd\n\
             setoption name nmoverule value 0\nisready\nuci\n"
        )
        .as_bytes(),
    );
    assert!(s.success, "{}", s.stderr);
    let text = s.lines.join("\n");
    assert!(
        text.contains("info string rules: nine, 3 stones, flying, no-capture rule N = 12"),
        "{text}"
    );
    // Won at counter 11 by a capture: 1 ply to the zeroing ply.
    let q = query(
        d,
        &[
            "--stones",
            "3",
            "--moves-without-capture",
            "12",
            "--counter",
            "11",
        ],
        won,
    );
    assert_eq!(q["value"], "win");
    let dtz = q["dtz"].as_i64().unwrap();
    let a = answer(&s.lines);
    assert_eq!(a.score, format!("cp {}", 10_000 - dtz), "{text}");
    assert_eq!(a.topn[0].2, a.score);
    assert_eq!(
        a.bestmove,
        first_token(q["moves"][0]["move"].as_str().unwrap())
    );
    // No tables for N = 50 nor for 9 stones here; an endgame limit is no rule of ours.
    assert_eq!(text.matches("rule options refused").count(), 3, "{text}");
    assert!(text.contains("--moves-without-capture 50"), "{text}");
    assert!(text.contains("EndgameNMoveRule 5"), "{text}");
    assert!(
        text.contains("Rules: nine, 3 stones, flying, no-capture rule N = 12"),
        "{text}"
    );
    // Back to the plain tables (option names are matched without regard to case); the
    // endgame limit followed N all along.
    assert!(
        text.contains("info string rules: nine, 3 stones, flying\n"),
        "{text}"
    );
    assert!(
        text.contains("option name EndgameNMoveRule type spin default 0 "),
        "{text}"
    );

    // A game of another board has no Sanmill FEN: refused at the start, exit code 2.
    let o = morris(&["uci", "--db", d, "--game", "six"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("24-point board"), "{}", stderr(&o));
    // A missing directory is a failure of the environment, at the start.
    let missing = Path::new(d).join("nothing-here");
    let o = morris(&["uci", "--db", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `Choice` and `SkillLevel` pick among the best moves and set the strength; a bad value
/// leaves the option as it was, with a message.
#[test]
fn choice_and_skill_level_options() {
    let dir = solved("uci-choice", &["--stones", "4"]);
    let d = dir.to_str().unwrap();
    let s = uci(
        &["--db", d, "--stones", "4"],
        b"uci\nsetoption name Choice value random\nsetoption name SkillLevel value 3\n\
          setoption name Choice value best\nsetoption name SkillLevel value 9\n\
          position startpos\ngo\nquit\n",
    );
    assert!(s.success && s.stderr.is_empty(), "{}", s.stderr);
    for option in [
        "option name Choice type combo default ultra var fastest var random var ultra",
        "option name SkillLevel type spin default 5 min 1 max 5",
    ] {
        assert!(
            s.lines.iter().any(|l| l == option),
            "{option}: {:#?}",
            s.lines
        );
    }
    let errors: Vec<&String> = s
        .lines
        .iter()
        .filter(|l| l.contains("option unchanged"))
        .collect();
    assert_eq!(errors.len(), 2, "{:#?}", s.lines);
    assert!(
        errors[0].contains("best") && errors[1].contains('9'),
        "{errors:?}"
    );
    assert!(
        s.lines.iter().any(|l| l.starts_with("bestmove ")),
        "{:#?}",
        s.lines
    );
    let _ = std::fs::remove_dir_all(&dir);
}
