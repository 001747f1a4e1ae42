//! A game solved a layer at a time (`--in-hand T`), as scripts/solve-layers.sh solves Twelve
//! Men's and Lasker Morris within the disk: each layer solved, verified, counted and packed,
//! then the raw tables of the layer below deleted. The answers must be those of the game
//! solved whole.

mod common;
use common::{assert_fails, files, json, morris, morris_input, solve, stderr, stdout};
use morris_testdirs::scratch;
use std::path::{Path, PathBuf};

const TWELVE: [&str; 4] = ["--game", "twelve", "--stones", "4"];
const LASKER: [&str; 4] = ["--game", "lasker", "--stones", "4"];
const LAYERS: u32 = 8;

fn run(args: &[&str]) -> String {
    let o = morris(args);
    assert!(o.status.success(), "morris {args:?}: {}", stderr(&o));
    stdout(&o)
}

/// The stones in hand of a table file `GAME-s4-M-O-MH-OH.mdb`.
fn layer_of(name: &str) -> Option<u32> {
    let key = name.strip_suffix(".mdb")?.split_once("-s4-")?.1;
    let n: Vec<u32> = key.split('-').map(|x| x.parse().unwrap()).collect();
    Some(n[2] + n[3])
}

fn raw_tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir)
        .into_iter()
        .filter(|(n, _)| layer_of(n).is_some())
        .collect()
}

/// Solves `game` whole and layer by layer, pruning as the script does, and checks that every
/// table, every count and a few answers agree; returns the pruned directory.
fn solved_by_layers(game: &[&str; 4], name: &str) -> PathBuf {
    let whole = scratch(&format!("layers-whole-{name}"));
    solve(&whole, game);
    let whole_s = whole.to_str().unwrap();
    let layered = scratch(&format!("layers-{name}"));
    let dir = layered.to_str().unwrap();

    let with = |cmd: &[&str], t: &str| -> Vec<String> {
        let mut a: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
        a.extend(["--db", dir].map(String::from));
        a.extend(game.map(String::from));
        a.extend(["--in-hand".to_string(), t.to_string()]);
        a
    };
    let verified = layered.join("verify.journal");
    let checked = layered.join("pack-verify.journal");
    let (verified, checked) = (verified.to_str().unwrap(), checked.to_str().unwrap());
    let mut tables = Vec::new();
    let mut stats = Vec::new();
    let mut sampled = 0;
    for t in 0..=LAYERS {
        let t_s = t.to_string();
        for cmd in [&["solve"][..], &["verify", "--journal", verified]] {
            let a = with(cmd, &t_s);
            run(&a.iter().map(String::as_str).collect::<Vec<_>>());
        }
        // The layer's tables, before the layer below goes: exactly those of the whole solve.
        tables.extend(
            raw_tables(&layered)
                .into_iter()
                .filter(|(n, _)| layer_of(n) == Some(t)),
        );
        let a = with(&["stats", "--json"], &t_s);
        let rows = json(&morris(&a.iter().map(String::as_str).collect::<Vec<_>>()));
        stats.extend(rows.as_array().unwrap().iter().cloned());
        // Once the layer is verified nothing reads the layer below's raw tables: the packed
        // check reads a searched key's children from the packed sets.
        if t >= 1 {
            for (name, _) in raw_tables(&layered) {
                if layer_of(&name) == Some(t - 1) {
                    std::fs::remove_file(layered.join(name)).unwrap();
                }
            }
        }
        let check = ["pack", "--out", dir, "--verify", "--journal", checked];
        for cmd in [
            &["pack", "--out", dir][..],
            &[&check[..], &["--verified-by", verified]].concat(),
        ] {
            let a = with(cmd, &t_s);
            let out = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
            sampled += out.matches("a sample through the reader").count();
        }
        if t == 2 {
            // Without the layer below's packed check on record, a searched key is checked in
            // full, which needs the raw tables deleted: an error naming one.
            let a = with(&check[..4], &t_s);
            let mut a: Vec<&str> = a.iter().map(String::as_str).collect();
            let other = layered.join("other.journal");
            a.extend([
                "--journal",
                other.to_str().unwrap(),
                "--verified-by",
                verified,
            ]);
            assert_fails(&morris(&a), 1, &["cannot open", "morris solve"]);
        }
    }
    assert!(
        sampled > 0,
        "{name}: no searched key was checked on the sample"
    );
    tables.sort();
    assert_eq!(tables, raw_tables(&whole), "the tables, layer by layer");
    let whole_stats = json(&morris(
        &[&["stats", "--db", whole_s, "--json"][..], game].concat(),
    ));
    assert_eq!(
        serde_json::Value::Array(stats),
        whole_stats,
        "the counts, layer by layer"
    );
    // Only the last layer's raw tables are left; every other key answers from its packed set.
    assert!(raw_tables(&layered)
        .iter()
        .all(|(n, _)| layer_of(n) == Some(LAYERS)));
    for position in [
        "startpos",
        "W:a1,d2,g7 B:b6,f4 b 1 2",
        "W:a1,d2,g7 B:b6,f4,a4 w 0 0",
    ] {
        let q = |d: &str| {
            json(&morris(
                &[&["query", "--db", d, "--json"][..], game, &[position]].concat(),
            ))
        };
        assert_eq!(q(dir), q(whole_s), "{name}: {position}");
    }
    layered
}

#[test]
fn twelve_solved_layer_by_layer_answers_as_the_game_solved_whole() {
    let layered = solved_by_layers(&TWELVE, "twelve");
    let dir = layered.to_str().unwrap();

    // `play` from the packed sets: a diagonal slide of the human's, then the computer's reply.
    let o = morris_input(
        &[
            &["play", "--db", dir][..],
            &TWELVE,
            &[
                "--as",
                "white",
                "--position",
                "W:a1,g7,d1,d7 B:a4,d5,g4,g1 w 0 0",
            ],
        ]
        .concat(),
        "a1-b2\n",
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.contains("W:d1,b2,d7,g7 B:") && out.contains("Black plays "),
        "{out}"
    );

    // A layer the game does not have, and a layer whose layer below is missing.
    let o = morris(&[&["solve", "--db", dir][..], &TWELVE, &["--in-hand", "99"]].concat());
    assert_fails(&o, 2, &["no key of this game has 99 stones in hand"]);
    let empty = scratch("layers-empty");
    let o = morris(
        &[
            &["solve", "--db", empty.to_str().unwrap()][..],
            &TWELVE,
            &["--in-hand", "3"],
        ]
        .concat(),
    );
    assert!(!o.status.success());
    assert!(stderr(&o).contains(".mdb"), "{}", stderr(&o));
    let o = morris(
        &[
            &["solve", "--db", dir, "--only", "4-3"][..],
            &TWELVE,
            &["--in-hand", "0"],
        ]
        .concat(),
    );
    assert_fails(&o, 2, &["--in-hand"]);
}

/// Lasker's keys with stones in hand read their own layer as well (a slide keeps the hands).
#[test]
fn lasker_solved_layer_by_layer_answers_as_the_game_solved_whole() {
    solved_by_layers(&LASKER, "lasker");
}
