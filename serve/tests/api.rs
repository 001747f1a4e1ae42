//! The HTTP API against a server on an ephemeral localhost port, over databases built here:
//! every field against the `Tablebase` the CLI reads, the errors and their status codes, a
//! missing table, malformed requests, the bounds, and a few hundred concurrent requests.
//! All traffic goes to 127.0.0.1 and every loop is bounded in count and time.

mod common;

use common::{built, enc, get, request, serve_args, three_stones, Reply};
use morris_db::format::Metric;
use morris_engine::{legal_moves, Game, Position, Rules};
use morris_serve::{spawn, Args, ReportArgs, RuleOptions, Running};
use morris_tablebase::store::Store;
use morris_tablebase::tablebase::Tablebase;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const N: u16 = 8;

/// The 3-stone Nine Men's Morris (plain and under the rule with N = 8), the 3-stone Twelve
/// Men's Morris without flying and Three Men's Morris, built once for every test of this file.
fn db() -> &'static Path {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| {
        built(
            "api",
            &[
                (three_stones(), Metric::Plain),
                (three_stones(), Metric::NoCapture(N)),
                (twelve_three(), Metric::Plain),
                (Rules::standard(Game::Three), Metric::Plain),
            ],
        )
    })
}

fn args(rate: u32, cors: bool) -> Args {
    serve_args(db(), rate, cors)
}

fn server() -> Running {
    spawn(args(1_000_000, false)).unwrap()
}

const GASSER: &str = "W:d7,g1,g7 B:a4,d5,g4 b 0 0";

/// Without flying, so that a stone's moves are its links, diagonals included.
fn twelve_three() -> Rules {
    Rules {
        stones: 3,
        flying: false,
        ..Rules::standard(Game::Twelve)
    }
}

/// Twelve Men's Morris: its diagonals in the moves, and every answer that of its tables.
#[test]
fn twelve_mens_morris_answers_from_its_tables() {
    let srv = server();
    let rules = twelve_three();
    let tb = Tablebase::open(db(), rules).unwrap();
    // White's a1 and g7 each have a diagonal neighbour (b2, f6); on Nine's board they have none.
    let text = "W:a1,g7,d1 B:a4,d5,g4 w 0 0";
    let pos = Position::parse(text, &rules).unwrap();
    let j = get(
        srv.addr,
        &format!(
            "/api/query?game=twelve&stones=3&flying=false&position={}",
            enc(text)
        ),
    )
    .json();
    assert_eq!(j["rules"]["game"], "twelve");
    let probe = tb.probe(&pos).unwrap();
    assert_eq!(j["value"], probe.plain.value().name());
    assert_eq!(plies(&j["plies"]), probe.plain.plies());
    let moves = move_names(&j);
    let ranked = tb.best_moves(&pos).unwrap();
    let want: Vec<String> = ranked
        .iter()
        .map(|m| m.mv.notation(rules.board()).to_string())
        .collect();
    assert_eq!(moves, want);
    assert!(
        moves.contains(&"a1-b2") && moves.contains(&"g7-f6"),
        "{moves:?}"
    );
    let j = get(
        srv.addr,
        "/api/query?game=twelve&stones=3&flying=false&position=startpos",
    )
    .json();
    let start = tb.probe(&Position::start(&rules)).unwrap();
    assert_eq!(j["value"], start.plain.value().name());
    assert_eq!(plies(&j["plies"]), start.plain.plies());
}

/// The moves of an answer (`moves[].move`), in its order.
fn move_names(j: &Value) -> Vec<&str> {
    j["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect()
}

fn plies(v: &Value) -> Option<u32> {
    v.as_u64().map(|p| p as u32)
}

#[test]
fn query_answers_every_field_as_the_tablebase() {
    let srv = server();
    let rules = three_stones();
    let tb = Tablebase::open(db(), rules).unwrap();
    let start = Position::start(&rules);
    // Positions of the placement and the moving phase.
    let mut positions = vec![Position::parse(GASSER, &rules).unwrap(), start];
    for a in legal_moves(&start, &rules).into_iter().take(3) {
        positions.push(start.play(a));
    }
    for pos in positions {
        let text = pos.notation(&rules).to_string();
        let j = get(
            srv.addr,
            &format!("/api/query?position={}&stones=3", enc(&text)),
        )
        .json();
        let probe = tb.probe(&pos).unwrap();
        assert_eq!(j["position"], text);
        assert_eq!(j["value"], probe.plain.value().name());
        assert_eq!(plies(&j["plies"]), probe.plain.plies());
        for field in ["category", "dtz", "counter", "turns_left"] {
            assert!(j[field].is_null(), "{field} without a rule: {j}");
        }
        assert_eq!(j["rules"]["stones"], 3);
        assert_eq!(j["rules"]["game"], "nine");
        let moves = tb.best_moves(&pos).unwrap();
        let got = j["moves"].as_array().unwrap();
        assert_eq!(got.len(), moves.len());
        for (g, m) in got.iter().zip(&moves) {
            assert_eq!(g["move"], m.mv.notation(rules.board()).to_string());
            assert_eq!(g["value"], m.plain.value().name());
            assert_eq!(plies(&g["plies"]), m.plain.plies());
            assert!(g["category"].is_null() && g["dtz"].is_null());
            // The answer's shape is one for every front end (docs/answer.md): `zeroing` is a
            // property of the move, given with or without the rule.
            assert_eq!(g["zeroing"], m.zeroing);
            assert_eq!(g["position"], pos.play(m.mv).notation(&rules).to_string());
            assert_eq!(g["to"], rules.board().point_name(m.mv.to()).to_string());
        }
    }
}

#[test]
fn no_capture_rule_and_turn_limit() {
    let srv = server();
    let rules = three_stones();
    let tb = Tablebase::open(db(), rules)
        .unwrap()
        .with_no_capture_rule(N);
    let pos = Position::parse(GASSER, &rules).unwrap();
    for counter in [0, 3, 7] {
        let j = get(
            srv.addr,
            &format!(
                "/api/query?position={}&stones=3&moves_without_capture={N}&counter={counter}",
                enc(GASSER)
            ),
        )
        .json();
        let probe = tb.probe_at(&pos, counter).unwrap();
        let r = probe.rule.unwrap();
        assert_eq!(j["value"], r.outcome.value().name());
        assert_eq!(j["category"], r.category.name());
        assert_eq!(plies(&j["dtz"]), r.dtz);
        assert_eq!(j["counter"], counter);
        assert_eq!(plies(&j["plies"]), probe.plain.plies());
        assert_eq!(j["rules"]["moves_without_capture"], N);
        let moves = tb.best_moves_at(&pos, counter).unwrap();
        let got = j["moves"].as_array().unwrap();
        assert_eq!(got.len(), moves.len());
        for (g, m) in got.iter().zip(&moves) {
            let mr = m.rule.unwrap();
            assert_eq!(g["move"], m.mv.notation(rules.board()).to_string());
            assert_eq!(g["value"], mr.outcome.value().name());
            assert_eq!(g["category"], mr.category.name());
            assert_eq!(plies(&g["dtz"]), mr.dtz);
            assert_eq!(g["zeroing"], m.zeroing);
            assert_eq!(plies(&g["plies"]), m.plain.plies());
        }
    }
    // Counter 3 of 8 turns the loss in 26 into a draw: a blessed loss.
    let j = get(
        srv.addr,
        &format!(
            "/api/query?position={}&stones=3&moves_without_capture={N}&counter=3",
            enc(GASSER)
        ),
    )
    .json();
    assert_eq!(
        (j["value"].as_str(), j["category"].as_str()),
        (Some("draw"), Some("blessed-loss"))
    );
    // A turn limit: the loss in 26 is a draw with 25 plies left and stays one with 26.
    let plain = Tablebase::open(db(), rules).unwrap();
    let moves = plain.best_moves(&pos).unwrap();
    for left in [25u32, 26, 2] {
        let j = get(
            srv.addr,
            &format!(
                "/api/query?position={}&stones=3&turns_left={left}",
                enc(GASSER)
            ),
        )
        .json();
        let want = plain
            .probe(&pos)
            .unwrap()
            .plain
            .outcome()
            .unwrap()
            .within(left);
        assert_eq!(j["value"], want.value().name(), "{left}");
        assert_eq!(plies(&j["plies"]), want.plies());
        assert_eq!(j["turns_left"], left);
        let mut ranked: Vec<_> = moves
            .iter()
            .map(|m| m.plain.outcome().unwrap().within(left))
            .collect();
        ranked.sort();
        let got: Vec<_> = j["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["value"].as_str().unwrap().to_string(), plies(&g["plies"])))
            .collect();
        let want: Vec<_> = ranked
            .iter()
            .map(|o| (o.value().name().to_string(), o.plies()))
            .collect();
        assert_eq!(got, want);
    }
}

#[test]
fn moves_games_and_finished_games() {
    let srv = server();
    let rules = three_stones();
    let pos = Position::parse(GASSER, &rules).unwrap();
    let j = get(
        srv.addr,
        &format!("/api/moves?position={}&stones=3", enc(GASSER)),
    )
    .json();
    let got = move_names(&j);
    let want: Vec<String> = legal_moves(&pos, &rules)
        .iter()
        .map(|m| m.notation(rules.board()).to_string())
        .collect();
    assert_eq!(got, want);
    assert_eq!(j["side"], "black");
    assert!(j["over"].is_null());
    // The moves need no table: a 9-stone position of an unsolved game.
    let j = get(srv.addr, "/api/moves?position=startpos&stones=9").json();
    assert_eq!(j["moves"].as_array().unwrap().len(), 24);
    assert_eq!(j["moves"][0]["zeroing"], true);
    // Three Men's Morris: a line of three has won; the query needs no table for it.
    let done = "W:a1,b1,c1 B:a3,b3 b 0 1";
    for path in ["/api/moves", "/api/query"] {
        let j = get(
            srv.addr,
            &format!("{path}?game=three&position={}", enc(done)),
        )
        .json();
        assert_eq!(j["over"]["winner"], "white", "{j}");
        assert_eq!(j["over"]["reason"], "a line of three");
        assert!(j["moves"].as_array().unwrap().is_empty());
    }
    let j = get(
        srv.addr,
        &format!("/api/query?game=three&position={}", enc(done)),
    )
    .json();
    assert_eq!(
        (j["value"].as_str(), plies(&j["plies"])),
        (Some("loss"), Some(0))
    );
    // Three Men's Morris from its tables: the first player wins in 9.
    let j = get(srv.addr, "/api/query?game=three&position=startpos").json();
    assert_eq!(
        (j["value"].as_str(), plies(&j["plies"])),
        (Some("win"), Some(9))
    );
    assert_eq!(j["moves"][0]["move"], "b2");
    // The games and the tables in the directory.
    let j = get(srv.addr, "/api/games").json();
    assert_eq!(j["default"]["stones"], 3);
    let tables = j["tables"].as_array().unwrap();
    let has = |game: &str, stones: u64, nc: Value| {
        tables
            .iter()
            .any(|t| t["game"] == game && t["stones"] == stones && t["moves_without_capture"] == nc)
    };
    assert!(
        has("nine", 3, Value::Null)
            && has("nine", 3, Value::from(N))
            && has("three", 3, Value::Null),
        "{tables:?}"
    );
    let games = j["games"].as_array().unwrap();
    assert_eq!(games.len(), Game::ALL.len());
    let nine = games.iter().find(|g| g["name"] == "nine").unwrap();
    assert_eq!(nine["points"].as_array().unwrap().len(), 24);
    assert_eq!(nine["lines"].as_array().unwrap().len(), 16);
    assert_eq!(nine["links"].as_array().unwrap().len(), 32);
    let dara = games.iter().find(|g| g["name"] == "dara").unwrap();
    assert_eq!(
        (dara["width"].as_u64(), dara["height"].as_u64()),
        (Some(6), Some(5))
    );
}

#[test]
fn errors_are_json_with_status_codes() {
    let srv = server();
    let cases: &[(&str, u16, &str)] = &[
        (
            "/api/query?position=W%3Az9+B%3A+w&stones=3",
            400,
            "position",
        ),
        ("/api/query?stones=3", 400, "position: missing"),
        (
            "/api/query?position=startpos&game=chess",
            400,
            "unknown game",
        ),
        (
            "/api/query?position=startpos&stones=99",
            400,
            "stones must be",
        ),
        ("/api/query?position=startpos&stones=x", 400, "not a number"),
        ("/api/query?position=startpos&flying=maybe", 400, "flying"),
        (
            "/api/query?position=startpos&stones=3&counter=2",
            400,
            "counter needs",
        ),
        (
            "/api/query?position=startpos&stones=3&moves_without_capture=8&turns_left=3",
            400,
            "not combined",
        ),
        (
            "/api/query?position=startpos&stones=3&moves_without_capture=8&counter=8",
            400,
            "drawn already",
        ),
        (
            "/api/query?position=startpos&stones=3&moves_without_capture=5000",
            400,
            "from 1 to 1000",
        ),
        (
            "/api/query?position=startpos&stones=3&turns_left=-1",
            400,
            "turns_left",
        ),
        (
            "/api/query?position=startpos&position=startpos",
            400,
            "malformed query string",
        ),
        ("/api/stats?stones=3&key=1-2", 400, "key"),
        ("/api/nothing", 404, "no such"),
        ("/nothing", 404, "no such"),
    ];
    for (target, status, words) in cases {
        let r = get(srv.addr, target);
        assert_eq!(r.status, *status, "{target}: {}", r.body);
        let j = r.json();
        assert!(
            j["error"].as_str().unwrap().contains(words),
            "{target}: {j}"
        );
        assert_eq!(j["status"], *status);
    }
    // A table that is not built: 404 with its path and the command that builds it.
    let r = get(srv.addr, "/api/query?position=startpos&stones=4");
    assert_eq!(r.status, 404);
    let j = r.json();
    assert!(
        j["build"]
            .as_str()
            .unwrap()
            .contains("morris solve --game nine --stones 4"),
        "{j}"
    );
    assert!(j["path"].as_str().unwrap().ends_with(".mdb"));
    // The rule's tables for another N are missing too.
    let r = get(
        srv.addr,
        &format!(
            "/api/query?position={}&stones=3&moves_without_capture=9",
            enc(GASSER)
        ),
    );
    assert_eq!(r.status, 404);
    assert!(r.json()["build"]
        .as_str()
        .unwrap()
        .contains("--moves-without-capture 9"));
    // A request too long, a method not served, a broken request line.
    let r = get(
        srv.addr,
        &format!("/api/query?position={}", "a".repeat(5000)),
    );
    assert_eq!(r.status, 414);
    assert!(r.json()["error"].is_string());
    let r = request(srv.addr, "POST", "/api/query?position=startpos");
    assert_eq!(r.status, 405);
    assert!(r.json()["error"].as_str().unwrap().contains("GET"));
    let mut s = TcpStream::connect(srv.addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(b"NONSENSE\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    assert!(out.is_empty() || out.starts_with("HTTP/1.1 400"), "{out}");
    // The server still answers after all that; no CORS header by default.
    let r = get(srv.addr, "/api/query?position=startpos&stones=3");
    assert_eq!(r.status, 200);
    assert!(!r.headers.contains("access-control-allow-origin"));
    assert!(r.headers.contains("x-content-type-options: nosniff"));
}

#[test]
fn pages_statistics_and_report() {
    let srv = server();
    let page = get(srv.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<svg id=\"board\"") && page.body.contains("/app.js"));
    for attr in ["src=\"http", "href=\"http", "src=\"//", "href=\"//"] {
        assert!(!page.body.contains(attr), "no external resource: {attr}");
    }
    for (path, kind) in [("/app.js", "javascript"), ("/style.css", "text/css")] {
        let r = get(srv.addr, path);
        assert_eq!(r.status, 200);
        assert!(r.headers.contains(kind));
    }
    // Key statistics against the solver's.
    let j = get(srv.addr, "/api/stats?stones=3").json();
    let keys = j["keys"].as_array().unwrap();
    assert!(keys
        .iter()
        .any(|k| k["key"] == "3-3-0-0" && k["built"] == true));
    let j = get(srv.addr, "/api/stats?stones=3&key=3-3-0-0").json();
    let rules = three_stones();
    let store = Store::new(db(), rules);
    let key = "3-3-0-0".parse().unwrap();
    let (index, table) = store.load(key, Default::default(), false).unwrap();
    let s = morris_tablebase::stats::key_stats(index, |i| table.outcome(i).code());
    assert_eq!(
        (
            j["wins"].as_u64(),
            j["draws"].as_u64(),
            j["losses"].as_u64()
        ),
        (Some(s.wins), Some(s.draws), Some(s.losses))
    );
    let hist: u64 = j["win_plies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(hist, s.wins);
    // The longest win is a position the query values at that distance.
    let longest = &j["longest_win"];
    assert_eq!(plies(&longest["plies"]), s.max_win_plies());
    let q = get(
        srv.addr,
        &format!(
            "/api/query?stones=3&position={}",
            enc(longest["position"].as_str().unwrap())
        ),
    )
    .json();
    assert_eq!(
        (q["value"].as_str(), plies(&q["plies"])),
        (Some("win"), s.max_win_plies())
    );
    let j = get(
        srv.addr,
        &format!("/api/stats?stones=3&moves_without_capture={N}&key=3-3-0-0"),
    )
    .json();
    let r = &j["rule"];
    let total: u64 = ["wins", "cursed_wins", "draws", "blessed_losses", "losses"]
        .iter()
        .map(|f| r[f].as_u64().unwrap())
        .sum();
    assert_eq!(total, s.classes());
    // The statistics page: charts as SVG, longest wins linking to the board.
    let r = get(srv.addr, "/stats?stones=3");
    assert_eq!(r.status, 200);
    assert!(
        r.body.contains("<svg")
            && r.body.contains("Longest wins")
            && r.body.contains("href=\"/?game=nine")
    );
    // The report: one static file, no script, no external resource.
    let out = db().join("report-test.html");
    morris_serve::report(ReportArgs {
        db: db().to_path_buf(),
        out: out.clone(),
        rules: RuleOptions {
            stones: Some(3),
            moves_without_capture: Some(N),
            ..RuleOptions::standard(Game::Nine)
        },
        max_stones: None,
    })
    .unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<svg") && html.contains("cursed wins") && html.contains("3-3-0-0"));
    assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"));
    let _ = std::fs::remove_file(out);
}

#[test]
fn concurrent_requests_are_answered_correctly() {
    let srv = server();
    let rules = three_stones();
    let tb = Tablebase::open(db(), rules).unwrap();
    // Expected answers, from the tablebase directly.
    let start = Position::start(&rules);
    let positions: Vec<(String, String, Option<u32>)> = legal_moves(&start, &rules)
        .into_iter()
        .take(12)
        .map(|m| {
            let p = start.play(m);
            let o = tb.probe(&p).unwrap().plain.outcome().unwrap();
            let text = p.notation(&rules).to_string();
            (text, o.value().name().to_string(), o.plies())
        })
        .collect();
    const THREADS: usize = 8;
    const PER_THREAD: usize = 50;
    let began = Instant::now();
    let addr = srv.addr;
    std::thread::scope(|s| {
        for t in 0..THREADS {
            let positions = &positions;
            s.spawn(move || {
                for i in 0..PER_THREAD {
                    let (pos, value, plies_) = &positions[(t * PER_THREAD + i) % positions.len()];
                    let r = get(addr, &format!("/api/query?stones=3&position={}", enc(pos)));
                    assert_eq!(r.status, 200, "{}", r.body);
                    let j = r.json();
                    assert_eq!(j["position"], pos.as_str());
                    assert_eq!(j["value"], value.as_str());
                    assert_eq!(plies(&j["plies"]), *plies_);
                }
            });
        }
    });
    let took = began.elapsed();
    assert!(
        took < Duration::from_secs(60),
        "{} requests took {took:?}",
        THREADS * PER_THREAD
    );
    eprintln!("{} concurrent requests in {took:?}", THREADS * PER_THREAD);
}

#[test]
fn rate_limit_cors_and_shutdown() {
    let srv = spawn(args(5, true)).unwrap();
    let addr = srv.addr;
    let statuses: Vec<Reply> = (0..30)
        .map(|_| get(addr, "/api/moves?position=startpos&stones=3"))
        .collect();
    let limited: Vec<&Reply> = statuses.iter().filter(|r| r.status == 429).collect();
    assert!(!limited.is_empty(), "30 requests at once at 5 a second");
    assert!(statuses.iter().all(|r| r.status == 200 || r.status == 429));
    assert!(limited[0].json()["error"]
        .as_str()
        .unwrap()
        .contains("too many"));
    assert!(limited[0].headers.contains("retry-after"));
    // The page is not rate limited; CORS was asked for.
    let r = get(addr, "/");
    assert_eq!(r.status, 200);
    assert!(r.headers.contains("access-control-allow-origin: *"));
    srv.stop().unwrap();
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_err());
    // A directory that is not there, and a port in use, fail at start.
    let mut bad = args(5, false);
    bad.db = db().join("nowhere");
    assert!(spawn(bad)
        .err()
        .unwrap()
        .contains("no such database directory"));
    let first = server();
    let mut taken = args(5, false);
    taken.addr = first.addr;
    assert!(spawn(taken).err().unwrap().contains("cannot listen"));
}

#[test]
fn presets_and_rule_errors_as_everywhere() {
    let srv = server();
    // A preset with the stones refined: the same answer as its parameters.
    let by_name = get(
        srv.addr,
        &format!(
            "/api/query?position={}&rules=standard&stones=3",
            enc(GASSER)
        ),
    );
    assert_eq!(by_name.status, 200, "{}", by_name.body);
    let plain = get(
        srv.addr,
        &format!("/api/query?position={}&stones=3", enc(GASSER)),
    );
    assert_eq!(by_name.body, plain.body);
    // A preset's tables that are not built: the command that builds them.
    let r = get(
        srv.addr,
        &format!(
            "/api/query?position={}&rules=no-capture-50&stones=3",
            enc(GASSER)
        ),
    );
    assert_eq!(r.status, 404, "{}", r.body);
    assert!(r.json()["build"]
        .as_str()
        .unwrap()
        .contains("--moves-without-capture 50"));
    // The messages are the rule set's own, as the command line and Python give them.
    let cases: &[(&str, &str)] = &[
        (
            "rules=no-flying&flying=1",
            "the rule set `no-flying` (Nine Men's Morris without flying, no draw by a counter) \
             has no flying, but the options ask for flying",
        ),
        (
            "rules=no-capture-50&moves_without_capture=8",
            "N = 8: leave that option out",
        ),
        ("rules=standard&game=six", "the game six"),
        (
            "rules=blitz",
            "unknown rule set `blitz` (known: standard, no-flying",
        ),
        (
            "rules=three-120&stones=5",
            "stones must be from 3 to 4 for three (got 5)",
        ),
        (
            "stones=3&moves_without_capture=-2",
            "moves_without_capture must be from 1 to 1000, or 0 for none (got -2)",
        ),
        (
            "stones=3&turns_left=100001",
            "turns_left must be from 0 to 100000",
        ),
    ];
    for (query, words) in cases {
        let r = get(srv.addr, &format!("/api/query?position=startpos&{query}"));
        assert_eq!(r.status, 400, "{query}: {}", r.body);
        let e = r.json()["error"].as_str().unwrap().to_string();
        assert!(e.contains(words), "{query}: {e}");
    }
    // The page's form sends `moves_without_capture=0` for no rule.
    let r = get(
        srv.addr,
        &format!(
            "/api/query?position={}&stones=3&moves_without_capture=0&turns_left=",
            enc(GASSER)
        ),
    );
    assert_eq!(r.body, plain.body);
}
