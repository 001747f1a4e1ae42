//! `morris arena` and the choices among best moves, on the 4-stone game: no perfect player
//! ever loses, the ultra choice scores more than a random choice among the best moves against
//! a fallible player, the strength levels are ordered, a match replays from its seed, and bad
//! player names are refused.

mod common;

use common::{morris, stderr, stdout};
use morris_testdirs::scratch;
use serde_json::Value;

fn arena(db: &str, args: &[&str]) -> Value {
    let mut a = vec!["arena", "--db", db, "--stones", "4", "--json"];
    a.extend_from_slice(args);
    let o = morris(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn choices_and_levels_measured_in_matches() {
    let dir = scratch("arena");
    let d = dir.to_str().unwrap();
    let o = morris(&["solve", "--stones", "4", "--db", d]);
    assert!(o.status.success(), "{}", stderr(&o));

    // Against a player who errs 3% of the time: every perfect choice keeps the draw of the
    // start, and ultra converts more of the errors into wins than a random best move.
    let mut scores = Vec::new();
    for choice in ["ultra", "random", "fastest"] {
        let v = arena(d, &[choice, "random@0.97", "--games", "1000"]);
        assert_eq!(v["tally"]["losses"], 0, "{choice}: {v}");
        assert_eq!(v["tally"]["games"], 1000);
        scores.push(v["score"].as_f64().unwrap());
    }
    assert!(
        scores[0] > scores[1] + 0.03 && scores[1] > scores[2],
        "ultra, random, fastest: {scores:?}"
    );

    // Each level beats the one below it; the top level is perfect and never loses.
    for n in 1..5 {
        let (up, down) = (format!("level{}", n + 1), format!("level{n}"));
        let v = arena(d, &[&up, &down, "--games", "400"]);
        assert!(
            v["score"].as_f64().unwrap() > 0.5,
            "{up} against {down}: {v}"
        );
    }
    let v = arena(d, &["level5", "level3", "--games", "200"]);
    assert_eq!(v["tally"]["losses"], 0, "{v}");

    // Under the no-capture rule and under a turn limit the choices keep the value too: the
    // start is drawn under both, and no perfect player loses.
    let o = morris(&[
        "solve",
        "--stones",
        "4",
        "--db",
        d,
        "--moves-without-capture",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for limit in [["--moves-without-capture", "10"], ["--turns-left", "40"]] {
        for choice in ["ultra", "random"] {
            let v = arena(
                d,
                &[&[choice, "random@0.9", "--games", "200"][..], &limit].concat(),
            );
            assert_eq!(v["tally"]["losses"], 0, "{choice} {limit:?}: {v}");
            assert!(
                v["tally"]["wins"].as_u64().unwrap() > 0,
                "{choice} {limit:?}: {v}"
            );
        }
    }

    // The same seed, the same match; the record has a game a line after its header.
    let record = dir.join("games.txt");
    let r = record.to_str().unwrap();
    let a = arena(
        d,
        &[
            "ultra", "level3", "--games", "20", "--seed", "7", "--record", r,
        ],
    );
    let b = arena(d, &["ultra", "level3", "--games", "20", "--seed", "7"]);
    assert_eq!(a, b);
    let text = std::fs::read_to_string(&record).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("# game ")).count(),
        20
    );

    // A player that is not one: exit 2, naming it.
    for bad in ["best", "ultra@1.5", "level0", "random@x"] {
        let o = morris(&["arena", "--db", d, "--stones", "4", bad, "ultra"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(stderr(&o).contains(bad), "{bad}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
