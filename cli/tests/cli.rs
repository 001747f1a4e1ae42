//! The `morris` binary end to end: exit codes, error messages, solve/resume, query output.

mod common;

use common::{
    assert_best, assert_fails, assert_value, files, json, morris, morris_env, morris_input, solve,
    solved, stderr, stdout,
};
use morris_testdirs::scratch;
use std::process::{Command, Output};

#[test]
fn malformed_input_is_one_line_and_exit_2() {
    for (args, needle) in [
        (vec!["show", "W:a1,z9 B: w 8 9"], "unknown point `z9`"),
        (vec!["moves", "W:a1,a1 B:g7 w 0 0"], "listed twice"),
        (
            vec!["moves", "W:a1,b2,c3 B:a1,g7,g1 w 0 0"],
            "both White and Black",
        ),
        (
            vec!["perft", "--position", "W:a1 B:g7 x 8 8", "2"],
            "`w` or `b`",
        ),
        (vec!["show", "W:a1 B:g7 w 9 9"], "more than the 9"),
        (vec!["show", "W: B: w 9 7"], "impossible hand counts"),
        (vec!["show", "hello"], "malformed position"),
    ] {
        let o = morris(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn moves_and_perft() {
    let o = morris(&["moves", "startpos"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().count(), 24);
    let o = morris(&["perft", "4"]);
    let out = stdout(&o);
    assert!(out.contains("255024"), "{out}");
}

#[test]
fn solve_query_verify_and_resume() {
    let full = solved("full", &["--max-stones", "4"]);
    let d = full.to_str().unwrap();
    let o = solve(&full, &["--max-stones", "4"]);
    assert!(stdout(&o).contains("nothing to do"), "{}", stdout(&o));

    // Query: the Gasser position is lost in 26 plies, JSON shape as documented.
    let o = morris(&["query", "--db", d, "--json", "W:d7,g1,g7 B:a4,d5,g4 b 0 0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_best(&v, "loss", 26, "d5-a7");
    // Every field of docs/answer.md is there, null where it does not apply.
    for field in [
        "category",
        "dtz",
        "counter",
        "turns_left",
        "source",
        "position",
        "side",
        "rules",
        "over",
    ] {
        assert!(v.get(field).is_some(), "{field} missing: {v}");
    }
    assert!(v["category"].is_null() && v["over"].is_null() && v["source"] == "tables");

    let o = morris(&["verify", "--db", d, "--max-stones", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // One unit: the pair holding a key, or one placement key.
    let o = morris(&["verify", "--db", d, "--max-stones", "4", "--key", "3-4-0-0"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("4-3-0-0: ") && out.contains("3-4-0-0: "),
        "{out}"
    );
    assert!(!out.contains("3-3-0-0"), "{out}");
    let o = morris(&["verify", "--db", d, "--max-stones", "4", "--key", "2-3-1-1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(" classes checked").count(), 1);
    let o = morris(&["verify", "--db", d, "--max-stones", "4", "--key", "4-4-1-0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = morris(&["stats", "--db", d, "--max-stones", "4", "--json"]);
    assert!(stdout(&o).contains("{\"key\":\"3-3-0-0\",\"wins\":140621,\"losses\":28736,\"draws\":269,\"max_win_plies\":25,\"max_loss_plies\":26}"), "{}", stdout(&o));

    // Interrupted after the first file of the 4-3 pair: restart and get identical files.
    let part = scratch("part");
    let p = part.to_str().unwrap();
    let o = morris_env(
        &["solve", "--db", p, "--max-stones", "4"],
        ("MORRIS_STOP_AFTER_FILES", "2"),
    );
    assert!(!o.status.success());
    assert_eq!(files(&part).len(), 2);
    // A leftover temporary file from a crash is discarded.
    std::fs::write(part.join("nine-4-4-0-0.mdb.tmp"), b"half written").unwrap();
    let o = morris(&["solve", "--db", p, "--max-stones", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("3-3: complete on disk, skipped"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        files(&part),
        files(&full),
        "resumed solve differs from a clean one"
    );

    // A damaged file: db info flags it (by its checksum), solve rebuilds it; query, which
    // checks header and size but leaves the checksum to verify and db info, refuses a
    // truncated one naming the file.
    let victim = part.join("nine-3-3-0-0.mdb");
    let mut bytes = std::fs::read(&victim).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&victim, &bytes).unwrap();
    let o = morris(&["db", "info", p]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("DAMAGED"), "{}", stdout(&o));
    let o = morris(&["verify", "--db", p, "--max-stones", "4"]);
    assert_eq!(o.status.code(), Some(1));
    std::fs::write(&victim, &bytes[..bytes.len() - 1]).unwrap();
    let o = morris(&["query", "--db", p, "W:d7,g1,g7 B:a4,d5,g4 b 0 0"]);
    assert_fails(&o, 1, &["nine-3-3-0-0.mdb"]);
    let o = morris(&["solve", "--db", p, "--max-stones", "4"]);
    assert!(o.status.success());
    assert_eq!(files(&part), files(&full));

    let _ = std::fs::remove_dir_all(&full);
    let _ = std::fs::remove_dir_all(&part);
}

#[test]
fn missing_database_names_file_and_command() {
    let empty = scratch("empty");
    let o = morris(&[
        "query",
        "--db",
        empty.to_str().unwrap(),
        "W:d7,g1,g7 B:a4,d5,g4 b 0 0",
    ]);
    assert_fails(&o, 1, &["nine-3-3-0-0.mdb", "morris solve"]);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn reduced_game_is_solved_from_the_start() {
    let dir = scratch("reduced");
    let d = dir.to_str().unwrap();
    let o = solve(&dir, &["--stones", "3"]);
    assert!(
        stdout(&o).contains("start position: win in 23 plies"),
        "{}",
        stdout(&o)
    );
    let o = morris(&["query", "--db", d, "--stones", "3", "--json", "startpos"]);
    let v = json(&o);
    assert_value(&v, "win", 23);
    assert!(v["moves"].is_array(), "{v}");
    // Databases of other rules are refused with a clear message.
    let o = morris(&[
        "query",
        "--db",
        d,
        "--stones",
        "3",
        "--no-flying",
        "W:d7,g1,g7 B:a4,d5,g4 b 0 0",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let o = morris(&["verify", "--db", d, "--stones", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Lasker Morris with 3 stones a side, whole: a player may slide instead of placing, so the
/// keys with stones in hand are solved in pairs by retrograde analysis.
#[test]
fn lasker_is_solved_from_the_start() {
    let dir = scratch("lasker");
    let d = dir.to_str().unwrap();
    let lasker = |cmd: &[&str]| {
        let mut args = cmd.to_vec();
        args.extend(["--db", d, "--game", "lasker", "--stones", "3"]);
        morris(&args)
    };
    let o = lasker(&["solve"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("start position: win in 23 plies"),
        "{}",
        stdout(&o)
    );
    // White has placed two stones and Black one; White may slide a1-d1 as well as place.
    let o = lasker(&["query", "W:a1,a4 B:g7 w 1 2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("a1-d1"), "{}", stdout(&o));
    assert!(lasker(&["verify"]).status.success());
    let _ = std::fs::remove_dir_all(&dir);
    // Without the keys with stones in hand, a query names the missing file and the command
    // that builds it (no search: there, positions can repeat).
    assert!(lasker(&["solve", "--moving-only"]).status.success());
    let o = lasker(&["query", "W:a1,a4 B:g7 w 1 2"]);
    assert_fails(&o, 1, &["morris solve"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged entry of a placement key, rewritten with a valid checksum: verify fails and
/// prints the position with the key's stones in hand.
#[test]
fn verify_reports_a_damaged_placement_entry() {
    use morris_db::format::{Table, Writer};
    use morris_db::Key;
    let dir = solved("damaged", &["--stones", "3"]);
    let d = dir.to_str().unwrap();
    let rules = morris_engine::Rules {
        stones: 3,
        ..morris_engine::Rules::nine()
    };
    let key = Key::new(2, 3, 1, 0);
    let path = dir.join("nine-s3-2-3-1-0.mdb");
    let mut entries = Table::open(&path, rules, key).unwrap().entries().to_vec();
    // A decided entry, moved two plies further (same value, wrong distance).
    let slot = entries.iter().position(|&b| b != 0 && b < 200).unwrap();
    entries[slot] += 2;
    let mut w = Writer::create(&path, rules, key).unwrap();
    w.push_raw(&entries).unwrap();
    w.finish().unwrap();
    let o = morris(&["verify", "--db", d, "--stones", "3"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with(&format!("  slot {slot} ")))
        .map(str::to_string)
        .unwrap_or_else(|| panic!("slot {slot} not reported: {}", stdout(&o)));
    assert!(line.contains(" w 1 0: stored "), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `play` with `input` typed in.
fn play_with(args: &[&str], input: &str) -> Output {
    morris_input(&[&["play"], args].concat(), input)
}

/// The draw rules of `play`: plies without a capture, and threefold repetition.
#[test]
fn play_declares_draws_by_rule() {
    let dir = solved(
        "draw-rules",
        &["--stones", "3", "--moves-without-capture", "1"],
    );
    let d = dir.to_str().unwrap();
    // Black (flying) moves a4-a1, capturing nothing: with a limit of 1 the game ends there.
    let o = play_with(
        &[
            "--db",
            d,
            "--stones",
            "3",
            "--as",
            "black",
            "--moves-without-capture",
            "1",
            "--position",
            "W:d7,g1,g7 B:a4,d5,g4 b 0 0",
        ],
        "a4-a1\n",
    );
    assert!(
        stdout(&o).contains("game over: draw, 1 plies without a capture"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);

    // Three Men's Morris, a drawn position: White shuttles c1-c2 and back, and the perfect
    // player (the first of its best moves) answers b2-b1 and back; the position comes a third
    // time.
    solve(&dir, &["--game", "three"]);
    let o = play_with(
        &[
            "--db",
            d,
            "--game",
            "three",
            "--position",
            "W:a1,a3,c1 B:a2,b2,c3 w 0 0",
            "--opponent",
            "fastest",
        ],
        "c1-c2\nc2-c1\nc1-c2\nc2-c1\n",
    );
    let out = stdout(&o);
    assert_eq!(out.matches("Black plays b2-b1").count(), 2, "{out}");
    assert!(
        out.contains("game over: draw by threefold repetition"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A reader that closes the pipe early ends the command quietly.
#[test]
fn closed_pipe_is_quiet() {
    use std::io::Read;
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(["moves", "startpos"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // nobody reads
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert!(!status.success() || err.is_empty(), "{err}");
}

#[test]
fn play_reasks_bad_moves_and_plays_perfectly() {
    let dir = solved("play", &["--stones", "3"]);
    let d = dir.to_str().unwrap();
    // White (the program) opens; d9 is no point, and the first placement repeated is taken.
    let out = play_with(
        &["--db", d, "--stones", "3", "--as", "black", "--hint"],
        "d9\nquit\n",
    );
    let text = stdout(&out);
    assert!(text.contains("White plays"), "{text}");
    assert!(text.contains("win in 23 plies for White"), "{text}");
    assert!(text.contains("unknown point `d9`"), "{text}");
    assert!(text.contains("game left unfinished"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn turn_limit_uses_exact_distances() {
    let dir = scratch("three");
    let d = dir.to_str().unwrap();
    let o = morris(&["solve", "--game", "three", "--db", d]);
    assert!(
        stdout(&o).contains("start position: win in 9 plies"),
        "{}",
        stdout(&o)
    );
    // A win in 9 plies is a win with 9 turns left and a draw with 8.
    for (left, expected) in [
        ("9", "{\"value\":\"win\",\"plies\":9,"),
        ("8", "{\"value\":\"draw\",\"plies\":null,"),
    ] {
        let o = morris(&[
            "query",
            "--game",
            "three",
            "--db",
            d,
            "--json",
            "--turns-left",
            left,
            "startpos",
        ]);
        assert!(stdout(&o).starts_with(expected), "{}", stdout(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn placement_query_falls_back_to_search() {
    let dir = solved("fallback", &["--stones", "3", "--moving-only"]);
    let d = dir.to_str().unwrap();
    let o = morris(&["query", "--db", d, "--stones", "3", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("White to move: win") && out.contains("alpha-beta search"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_game_is_offered() {
    let o = morris(&["show", "--help"]);
    let help = stdout(&o);
    for game in [
        "nine",
        "twelve",
        "six",
        "lasker",
        "three",
        "tictactoe",
        "dara",
    ] {
        assert!(help.contains(game), "{game} missing from: {help}");
    }
    let o = morris(&["show", "--game", "checkers", "startpos"]);
    assert_fails(&o, 2, &["dara"]);
}

/// Dara from the command line: the board, its moves, its plan, and its 3-3 endgame solved,
/// verified, queried and played.
#[test]
fn dara_end_to_end() {
    let o = morris(&["show", "--game", "dara", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("a5 - b5 - c5 - d5 - e5 - f5\n|    |"),
        "{}",
        stdout(&o)
    );
    let o = morris(&["moves", "--game", "dara", "startpos"]);
    assert_eq!(stdout(&o).lines().count(), 30);
    let o = morris(&["perft", "--game", "dara", "4"]);
    assert!(stdout(&o).contains("657720"), "{}", stdout(&o));
    let o = morris(&["plan", "--game", "dara", "--max-stones", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("4-3 + 3-4"), "{}", stdout(&o));

    let dir = solved("dara", &["--game", "dara", "--max-stones", "3"]);
    let d = dir.to_str().unwrap();
    assert_eq!(files(&dir)[0].0, "dara-3-3-0-0.mdb");
    let o = morris(&["verify", "--game", "dara", "--db", d, "--max-stones", "3"]);
    assert!(stdout(&o).contains("verification passed"), "{}", stdout(&o));
    // c2-c1 makes a1-b1-c1 and takes one of Black's three stones.
    let line = "W:a1,b1,c2 B:d4,e5,f4 w 0 0";
    let o = morris(&["query", "--game", "dara", "--db", d, "--json", line]);
    // The answer's shape (docs/answer.md) has every field, null where it does not apply.
    assert_best(&json(&o), "win", 1, "c2-c1xd4");
    // The program plays White and wins at once; no input is needed.
    let out = play_with(
        &[
            "--game",
            "dara",
            "--db",
            d,
            "--as",
            "black",
            "--position",
            line,
        ],
        "",
    );
    let text = stdout(&out);
    assert!(text.contains("White plays c2-c1x"), "{text}");
    assert!(text.contains("game over: White wins"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The no-capture rule end to end: its tables built beside the plain ones, queried at a
/// counter, verified and counted; a missing table and a counter past the limit refused.
#[test]
fn no_capture_rule() {
    let dir = solved("nocapture", &["--stones", "3"]);
    let d = dir.to_str().unwrap();
    let gasser = "W:d7,g1,g7 B:a4,d5,g4 b 0 0";
    let rule = ["--stones", "3", "--moves-without-capture", "12"];
    let query = |extra: &[&str], position: &str| {
        let mut a = vec!["query", "--db", d, "--json"];
        a.extend_from_slice(&rule);
        a.extend_from_slice(extra);
        a.push(position);
        morris(&a)
    };
    // The rule's tables are not built yet: a failure naming the file and how to build it.
    let o = query(&[], gasser);
    assert_fails(
        &o,
        1,
        &["nine-s3-nc12-3-3-0-0.mdb", "--moves-without-capture 12"],
    );

    let o = solve(&dir, &rule);
    assert!(
        stdout(&o).contains("start position with 12 plies without a capture: "),
        "{}",
        stdout(&o)
    );
    // Lost in 26 without the rule, with no capture on the way: 12 plies save Black.
    let o = query(&[], gasser);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(v["value"], "draw");
    assert_eq!(v["category"], "blessed-loss");
    assert_eq!(v["plies"], 26);
    assert_eq!(v["dtz"], 26);
    assert_eq!(v["counter"], 0);
    let moves = v["moves"].as_array().unwrap();
    assert!(moves.iter().all(|m| m["zeroing"] == false));
    assert_eq!(moves[0]["move"], "d5-a7");
    // White to move in a position won in 1 by a capture keeps it at any counter.
    let v = json(&query(&["--counter", "11"], "W:a1,d1,g4 B:a7,d7,g7 w 0 0"));
    assert_eq!(v["value"], "win", "{v}");
    assert_eq!(v["dtz"], 1);
    assert_eq!(v["moves"][0]["zeroing"], true);
    // A counter at the limit: the game is drawn already; bad input.
    let o = query(&["--counter", "12"], gasser);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Verify and stats read the rule's tables.
    let mut a = vec!["verify", "--db", d];
    a.extend_from_slice(&rule);
    let o = morris(&a);
    assert!(stdout(&o).contains("verification passed"), "{}", stdout(&o));
    let mut a = vec!["stats", "--db", d, "--json"];
    a.extend_from_slice(&rule);
    let v = json(&morris(&a));
    let k33 = v
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["key"] == "3-3-0-0")
        .unwrap();
    assert!(k33["blessed_losses"].as_u64().unwrap() > 0, "{k33}");
    assert!(k33["max_dtz"].as_u64().unwrap() <= 12, "{k33}");
    let o = morris(&["db", "info", d]);
    assert!(
        stdout(&o).contains("the no-capture rule with N = 12"),
        "{}",
        stdout(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Named rule sets: offered by `--help`, the same tables and answers as the flags they stand
/// for, refined by `--stones`, and refused beside a flag that says otherwise; bad rule values
/// are one line with the words the server and Python use.
#[test]
fn presets() {
    let help = stdout(&morris(&["query", "--help"]));
    for p in morris_engine::Preset::ALL {
        assert!(help.contains(p.name()), "{} missing from: {help}", p.name());
    }
    let dir = solved("presets", &["--rules", "no-capture-50", "--stones", "3"]);
    let d = dir.to_str().unwrap();
    assert!(files(&dir)
        .iter()
        .any(|(f, _)| f == "nine-s3-nc50-3-3-0-0.mdb"));
    let gasser = "W:d7,g1,g7 B:a4,d5,g4 b 0 0";
    // `morris query --db DIR ARGS` of a position.
    let query = |args: &[&str], position: &str| {
        morris(&[&["query", "--db", d][..], args, &[position]].concat())
    };
    let counter = ["--json", "--stones", "3", "--counter", "30"];
    let by_flags = query(
        &[&counter[..], &["--moves-without-capture", "50"]].concat(),
        gasser,
    );
    let by_name = query(
        &[&counter[..], &["--rules", "no-capture-50"]].concat(),
        gasser,
    );
    assert!(by_name.status.success(), "{}", stderr(&by_name));
    assert_eq!(stdout(&by_name), stdout(&by_flags));
    let v = json(&by_name);
    assert_eq!(v["rules"]["moves_without_capture"], 50, "{v}");
    assert_eq!(
        (&v["value"], &v["category"]),
        (&"draw".into(), &"loss".into())
    );
    // Flags that agree are accepted; flags that contradict the preset are refused.
    let o = query(
        &["--stones", "3", "--rules", "no-capture-50", "--flying"],
        gasser,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    for (args, needle) in [
        (
            vec!["--rules", "no-capture-50", "--no-flying"],
            "the rule set `no-capture-50`",
        ),
        (
            vec!["--rules", "no-capture-50", "--moves-without-capture", "100"],
            "N = 100",
        ),
        (vec!["--rules", "standard", "--game", "six"], "the game six"),
        (vec!["--rules", "blitz"], "unknown rule set `blitz`"),
        (
            vec!["--rules", "three-120", "--stones", "5"],
            "--stones must be from 3 to 4 for three",
        ),
        (
            vec!["--counter", "3"],
            "--counter needs the no-capture rule",
        ),
        (
            vec!["--rules", "no-capture-50", "--turns-left", "9"],
            "are not combined",
        ),
        (
            vec!["--turns-left", "100001"],
            "--turns-left must be from 0",
        ),
    ] {
        let o = query(&args, gasser);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
    // A finished game is answered without a table, as the server answers it.
    let o = query(&["--json", "--game", "three"], "W:a1,b1,c1 B:a3,b3 b 0 1");
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_value(&v, "loss", 0);
    assert_eq!(v["over"]["winner"], "white", "{v}");
    let o = morris(&["play", "--db", d, "--turn-limit", "x"]);
    assert!(
        stderr(&o).contains("--turn-limit: `x` is not a number"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
