//! `morris pack` as a user runs it: pack a solved game, verify it, query the packed directory
//! as the unpacked one, resume, and meet bad options and damaged files with clear errors.

mod common;
use common::{assert_fails, files, json, morris, solve, stderr, stdout};
use morris_testdirs::scratch;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

const POSITION: &str = "W:d7,g1,g7 B:a4,d5,g4 b 0 0";
/// White to move with fewer stones: a key the packed set answers by search.
const SEARCHED: &str = "W:d7,g1,g7 B:a4,d5,g4,a1 w 0 0";

/// A directory with the 4-stone game solved, and an empty one to pack it into.
fn solved(name: &str) -> (PathBuf, PathBuf) {
    let db = scratch(&format!("{name}-db"));
    let out = scratch(&format!("{name}-out"));
    solve(&db, &["--stones", "4"]);
    (db, out)
}

/// A `morris serve` process, stopped when dropped (a failed assertion leaves none behind).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `morris query --stones 4 --db DIR ARGS`.
fn query(dir: &str, args: &[&str]) -> Output {
    morris(&[&["query", "--stones", "4", "--db", dir][..], args].concat())
}

#[test]
fn pack_verify_query_resume_and_errors() {
    let (db, out) = solved("pack");
    let (db_s, out_s) = (db.to_str().unwrap(), out.to_str().unwrap());

    let pack = ["pack", "--stones", "4", "--db", db_s, "--out", out_s];
    let o = morris(
        &[
            &pack[..],
            &[
                "--wdl-block-slots",
                "4096",
                "--dtw-block-slots",
                "1000",
                "--level",
                "3",
            ],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("packed"), "{}", stdout(&o));
    let packed = files(&out);
    assert!(packed.iter().any(|(n, _)| n == "nine-s4-4-4-0-0.wdl.mpk"));
    assert!(packed.iter().any(|(n, _)| n == "nine-s4-4-4-0-0.dtw.mpk"));
    // The side to move with fewer stones gets no file; `--sides both` gives it one.
    assert!(!packed.iter().any(|(n, _)| n.starts_with("nine-s4-3-4-0-0")));
    let both = scratch("pack-both");
    let o = morris(&[
        "pack",
        "--stones",
        "4",
        "--db",
        db_s,
        "--out",
        both.to_str().unwrap(),
        "--sides",
        "both",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(files(&both)
        .iter()
        .any(|(n, _)| n == "nine-s4-3-4-0-0.dtw.mpk"));
    let bytes: usize = packed.iter().map(|(_, b)| b.len()).sum();
    let raw: usize = files(&db).iter().map(|(_, b)| b.len()).sum();
    assert!(bytes * 10 < raw, "packed {bytes} bytes of {raw}");

    // Every position of every key answers as the unpacked tables.
    let o = morris(&[&pack[..], &["--verify"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("verified"));
    // With a journal, a second run skips every key checked before.
    let journal = db.join("pack.journal");
    let with_journal = [
        &pack[..],
        &["--verify", "--journal", journal.to_str().unwrap()],
    ]
    .concat();
    for run in 0..2 {
        let o = morris(&with_journal);
        assert!(o.status.success(), "{}", stderr(&o));
        let all = format!("{}{}", stdout(&o), stderr(&o));
        let keys = std::fs::read_to_string(&journal).unwrap().lines().count();
        assert_eq!(keys, 18, "the 4-stone game's keys, one line each");
        let skipped = all.matches("verified before (journal)").count();
        assert_eq!(skipped, run * keys, "{all}");
    }

    // Once `morris verify --journal` has passed on the tables, the keys the sets leave out
    // are checked on a sample through the reader; the keys with a file, slot by slot.
    let verified = db.join("verify.journal");
    let verified_s = verified.to_str().unwrap();
    let o = morris(&[
        "verify",
        "--stones",
        "4",
        "--db",
        db_s,
        "--journal",
        verified_s,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let checked = |o: &Output, key: &str| -> (u64, bool) {
        let out = stdout(o) + &stderr(o);
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{key} dtw:")))
            .unwrap_or_else(|| panic!("no line for {key} in {out}"))
            .to_string();
        let n = line.split_whitespace().nth(2).unwrap().replace(',', "");
        (
            n.parse().unwrap(),
            line.contains("a sample through the reader"),
        )
    };
    let full = morris(&[&pack[..], &["--verify"]].concat());
    let o = morris(&[&pack[..], &["--verify", "--verified-by", verified_s]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("on a sample through the reader"),
        "{}",
        stdout(&o)
    );
    assert_eq!(checked(&o, "4-4-0-0"), checked(&full, "4-4-0-0"));
    let (sampled, on_sample) = checked(&o, "3-4-0-0");
    let (every, _) = checked(&full, "3-4-0-0");
    assert!(
        on_sample && sampled > 0 && sampled * 900 < every,
        "{sampled} of {every}"
    );
    // A key the journal does not vouch for (a table changed since, or never verified) is
    // checked in full.
    let empty = db.join("empty.journal");
    std::fs::write(&empty, "").unwrap();
    let o = morris(
        &[
            &pack[..],
            &["--verify", "--verified-by", empty.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(checked(&o, "3-4-0-0"), (every, false));
    let o = morris(
        &[
            &pack[..],
            &["--verify", "--verified-by", "/no/such.journal"],
        ]
        .concat(),
    );
    assert_fails(
        &o,
        2,
        &[
            "/no/such.journal: no such journal",
            "morris verify --journal",
        ],
    );

    // The same query, text and JSON, from either directory, of a position with a file and
    // of one searched.
    for (pos, extra) in [POSITION, SEARCHED]
        .into_iter()
        .flat_map(|p| [(p, &[][..]), (p, &["--json"][..])])
    {
        let q = |dir: &str| {
            let o = query(dir, &[&[pos][..], extra].concat());
            assert!(o.status.success(), "{}", stderr(&o));
            stdout(&o)
        };
        assert_eq!(q(db_s), q(out_s), "{pos}");
    }

    // `db info` lists the packed files, all sound.
    let o = morris(&["db", "info", out_s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("packed dtw") && stdout(&o).contains("0 damaged"));
    // Each kind in its own blocks.
    let info = stdout(&o);
    let line = |tag: &str| {
        info.lines()
            .find(|l| l.contains("4-4-0-0") && l.contains(tag))
            .unwrap_or_else(|| panic!("no {tag} line for 4-4-0-0 in {info}"))
            .to_string()
    };
    assert!(line("packed wdl").contains("blocks of 4096"), "{info}");
    assert!(line("packed dtw").contains("blocks of 1000"), "{info}");

    // Probe latency with every file read into memory first: both kinds, both passes.
    let o = morris(&[&pack[..], &["--latency", "50", "--preload"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("read into memory"), "{text}");
    for pass in ["wdl cold:", "wdl warm:", "dtw cold:", "dtw warm:"] {
        assert!(text.contains(pass), "{pass}: {text}");
    }
    let o = morris(&[&pack[..], &["--preload"]].concat());
    assert_eq!(o.status.code(), Some(2), "--preload without --latency");

    // `serve --preload` reads the packed files into memory before it listens, then answers.
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["serve", "--stones", "4", "--db", out_s])
            .args(["--addr", "127.0.0.1:0", "--preload"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs"),
    );
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    let mut conn = TcpStream::connect(addr).unwrap();
    write!(
        conn,
        "GET /api/query?position=startpos&stones=4 HTTP/1.1\r\nHost: localhost\r\n\
         Connection: close\r\n\r\n"
    )
    .unwrap();
    let mut reply = String::new();
    conn.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    let mut said = String::new();
    server.0.kill().unwrap();
    server
        .0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut said)
        .unwrap();
    assert!(said.contains("of packed tables read into memory"), "{said}");

    // A rerun finds every key packed and rewrites nothing.
    let o = morris(&pack);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("skipped") || stdout(&o).contains("skipped"));
    assert_eq!(files(&out), packed);

    // Bad options: exit 2, one line.
    for bad in [
        &["--level", "30"][..],
        &["--dtw-block-slots", "7"][..],
        &["--wdl-block-slots", "255"][..],
        &["--what", "all"][..],
        &["--sides", "weaker"][..],
        &["--sides", "stronger", "--moves-without-capture", "6"][..],
    ] {
        let o = morris(&[&pack[..], bad].concat());
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
    }
    // No source directory: exit 1 naming it.
    let o = morris(&[
        "pack",
        "--stones",
        "4",
        "--db",
        "/nonexistent/db",
        "--out",
        out_s,
    ]);
    assert_fails(&o, 1, &["/nonexistent/db"]);

    // A directory without the tables: the error names a file and the full build command.
    let (empty, fresh) = (scratch("pack-empty"), scratch("pack-fresh"));
    let (empty, fresh) = (empty.to_str().unwrap(), fresh.to_str().unwrap());
    let o = morris(&["pack", "--stones", "4", "--db", empty, "--out", fresh]);
    assert_fails(&o, 1, &["morris solve --game nine --stones 4"]);

    // A damaged block: the query fails naming the file, the block and its offset.
    let name = "nine-s4-4-3-0-0.dtw.mpk";
    let path = out.join(name);
    let mut b = std::fs::read(&path).unwrap();
    let len = b.len();
    // Inside the blocks, before the index at the end.
    for x in &mut b[200..len / 2] {
        *x ^= 0xff;
    }
    std::fs::write(&path, &b).unwrap();
    let o = query(out_s, &["W:d7,g1,g7,a1 B:a4,d5,g4 w 0 0"]);
    assert_fails(&o, 1, &[name, "damaged block"]);
    let o = morris(&[&pack[..], &["--verify"]].concat());
    assert_fails(&o, 1, &["damaged block"]);
    let o = morris(&["db", "info", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("DAMAGED"), "{}", stdout(&o));
}

/// The values-only set is the one a player downloads: `query` and `query --json` answer from
/// it with values and no distances, and a turn limit, which needs them, is refused.
#[test]
fn a_values_only_set_answers_queries() {
    let (db, out) = solved("pack-wdl");
    let (db_s, out_s) = (db.to_str().unwrap(), out.to_str().unwrap());
    let o = morris(&[
        "pack", "--stones", "4", "--db", db_s, "--out", out_s, "--what", "wdl",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(files(&out).iter().all(|(n, _)| !n.ends_with(".dtw.mpk")));
    let raw = json(&query(db_s, &["--json", "startpos"]));
    let o = query(out_s, &["--json", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(
        (&v["value"], &v["plies"], &v["source"]),
        (&raw["value"], &serde_json::Value::Null, &"values".into()),
        "{v}"
    );
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), raw["moves"].as_array().unwrap().len());
    // The same moves with the same values, ranked by value.
    let by_move = |a: &serde_json::Value| {
        let mut m: Vec<(String, String)> = a["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["move"].to_string(), m["value"].to_string()))
            .collect();
        m.sort();
        m
    };
    assert_eq!(by_move(&v), by_move(&raw));
    let rank = |m: &serde_json::Value| {
        ["win", "draw", "loss"]
            .iter()
            .position(|&x| m["value"].as_str() == Some(x))
            .unwrap()
    };
    assert!(moves.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])), "{v}");
    // Gasser's position, lost: the text says the loss and that its distance is not there.
    let o = query(out_s, &[POSITION]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Black to move: loss (no distance"),
        "{}",
        stdout(&o)
    );
    let o = query(out_s, &["--turns-left", "20", "startpos"]);
    assert_fails(&o, 2, &["values only"]);
    let _ = std::fs::remove_dir_all(&db);
    let _ = std::fs::remove_dir_all(&out);
}
