//! `GET /api/analyze` against a server on an ephemeral localhost port, over the 3-stone game
//! built here: the JSON is the library's [`analysis::Analysis`] of the same game, the chart is
//! SVG, and a bad move is a 400 with a JSON error naming its ply.

mod common;

use common::{built, enc, get, serve_args, three_stones};
use morris_db::format::Metric;
use morris_engine::Position;
use morris_serve::{spawn, Running};
use morris_tablebase::analysis;
use morris_tablebase::tablebase::Tablebase;
use std::path::PathBuf;

fn server() -> (Running, PathBuf) {
    let dir = built("analyze", &[(three_stones(), Metric::Plain)]);
    (spawn(serve_args(&dir, 1_000_000, false)).unwrap(), dir)
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

    let r = get(
        srv.addr,
        &format!("/api/analyze?stones=3&moves={}", enc(&text)),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let got = r.json();
    assert_eq!(got, serde_json::to_value(&want).unwrap());
    assert_eq!(got["plies"].as_array().unwrap().len(), moves.len());

    let r = get(
        srv.addr,
        &format!("/api/analyze?stones=3&format=svg&moves={}", enc(&text)),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(
        r.headers.contains("content-type: image/svg+xml"),
        "{}",
        r.headers
    );
    assert_eq!(r.body, analysis::svg(&want));

    // The third ply places on a taken point.
    let bad = format!("{} {} {}", moves[0], moves[1], moves[0]);
    let r = get(
        srv.addr,
        &format!("/api/analyze?stones=3&moves={}", enc(&bad)),
    );
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.headers.contains("application/json"), "{}", r.headers);
    let error = r.json();
    let message = error["error"].as_str().unwrap();
    assert!(
        message.contains("ply 3") && message.contains(&format!("`{}`", moves[0])),
        "{message}"
    );

    let r = get(srv.addr, "/api/analyze?stones=3&moves=a1&format=png");
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(r.body.contains("format"), "{}", r.body);
    srv.stop().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
