//! `GET /api/analyze` against a server on an ephemeral localhost port, over the 3-stone game
//! built here: the JSON is the library's [`analysis::Analysis`] of the same game, the chart is
//! SVG, and a bad move is a 400 with a JSON error naming its ply.

use morris_engine::{Position, Rules};
use morris_serve::{spawn, Args, RuleOptions, Running};
use morris_solver::progress::Silent;
use morris_solver::solve::{solve, Job};
use morris_tablebase::analysis;
use morris_tablebase::store::Store;
use morris_tablebase::tablebase::Tablebase;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::time::Duration;

fn three_stones() -> Rules {
    Rules {
        stones: 3,
        ..Rules::nine()
    }
}

fn server() -> (Running, PathBuf) {
    let dir = std::env::temp_dir().join(format!("morris-serve-analyze-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let job = Job {
        max_stones: 3,
        only: None,
        placement: true,
        stop_after_files: None,
    };
    solve(&mut Store::new(&dir, three_stones()), &job, &Silent).unwrap();
    let args = Args {
        db: dir.clone(),
        addr: "127.0.0.1:0".parse().unwrap(),
        rules: RuleOptions {
            stones: Some(3),
            ..RuleOptions::default()
        },
        rate: 1_000_000,
        cors: false,
        stats_max_slots: 10_000_000,
    };
    (spawn(args).unwrap(), dir)
}

/// Status, headers (lower case) and body of one GET on its own connection.
fn get(srv: &Running, target: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect_timeout(&srv.addr, Duration::from_secs(5)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = String::new();
    s.read_to_string(&mut raw).unwrap();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head.to_ascii_lowercase(), body.to_string())
}

/// A query string value, percent-encoded.
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[test]
fn analyze_answers_the_library_analysis_and_refuses_a_bad_move() {
    let (srv, dir) = server();
    let rules = three_stones();
    let tb = Tablebase::open(&dir, rules).unwrap();
    // Six plies, each the last-ranked move, so that some drop value, written as a game file.
    let mut pos = Position::start(&rules);
    let mut moves = Vec::new();
    while moves.len() < 6 && pos.outcome(&rules).is_none() {
        let ranked = tb.best_moves(&pos).unwrap();
        let worst = ranked.last().unwrap().mv;
        moves.push(worst.notation(rules.board()).to_string());
        pos = pos.play(worst);
    }
    let text = format!(
        "# worst moves\n1. {} {}\n2. {}",
        moves[0],
        moves[1],
        moves[2..].join(" ")
    );
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let want = analysis::analyze(&tb, &Position::start(&rules), 0, &refs).unwrap();
    assert!(want.plies.iter().any(|p| p.drop.is_blunder()), "{want:?}");

    let (status, _, body) = get(&srv, &format!("/api/analyze?stones=3&moves={}", enc(&text)));
    assert_eq!(status, 200, "{body}");
    let got: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(got, serde_json::to_value(&want).unwrap());
    assert_eq!(got["plies"].as_array().unwrap().len(), moves.len());

    let (status, head, body) = get(
        &srv,
        &format!("/api/analyze?stones=3&format=svg&moves={}", enc(&text)),
    );
    assert_eq!(status, 200, "{body}");
    assert!(head.contains("content-type: image/svg+xml"), "{head}");
    assert_eq!(body, analysis::svg(&want));

    // The third ply places on a taken point.
    let bad = format!("{} {} {}", moves[0], moves[1], moves[0]);
    let (status, head, body) = get(&srv, &format!("/api/analyze?stones=3&moves={}", enc(&bad)));
    assert_eq!(status, 400, "{body}");
    assert!(head.contains("application/json"), "{head}");
    let error: Value = serde_json::from_str(&body).unwrap();
    let message = error["error"].as_str().unwrap();
    assert!(
        message.contains("ply 3") && message.contains(&format!("`{}`", moves[0])),
        "{message}"
    );

    let (status, _, body) = get(&srv, "/api/analyze?stones=3&moves=a1&format=png");
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("format"), "{body}");
    srv.stop().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
