//! `GET /api/choose`, the board's computer opponent, against a server of the 3-stone game:
//! each perfect player's move keeps the position's value, a weak level plays other moves too,
//! the same seed gives the same move, and a bad player or seed is a 400 naming it.

mod common;

use common::{built, enc, get, serve_args, three_stones};
use morris_db::format::Metric;
use morris_engine::Position;
use morris_serve::spawn;
use morris_tablebase::tablebase::Tablebase;
use std::collections::HashSet;

#[test]
fn choose_plays_the_players_of_the_library() {
    let dir = built("choose", &[(three_stones(), Metric::Plain)]);
    let srv = spawn(serve_args(&dir, 1_000_000, false)).unwrap();
    let rules = three_stones();
    let tb = Tablebase::open(&dir, rules).unwrap();
    // Gasser's position: Black to move, lost; and a drawn one, White to move.
    for text in ["W:d7,g1,g7 B:a4,d5,g4 b 0 0", "W:a1,d1,g1 B:a7,d7,g7 w 0 0"] {
        let pos = Position::parse(text, &rules).unwrap();
        let best = tb.best_moves(&pos).unwrap()[0].plain.value();
        let value_of = |mv: &str| {
            let m = pos.parse_move(mv, &rules).unwrap();
            let ranked = tb.best_moves(&pos).unwrap();
            ranked.iter().find(|r| r.mv == m).unwrap().plain.value()
        };
        for player in ["ultra", "random", "fastest", "level5"] {
            for seed in 0..4 {
                let target = format!(
                    "/api/choose?stones=3&position={}&player={player}&seed={seed}",
                    enc(text)
                );
                let r = get(srv.addr, &target);
                assert_eq!(r.status, 200, "{}", r.body);
                let v = r.json();
                assert_eq!(v["player"], player.replace("level5", "ultra"), "{v}");
                let mv = v["move"].as_str().unwrap();
                assert_eq!(value_of(mv), best, "{text} {player} {seed}: {mv}");
                // The same seed, the same move.
                assert_eq!(get(srv.addr, &target).json(), v);
            }
        }
        let weak: HashSet<String> = (0..30)
            .map(|seed| {
                let target = format!(
                    "/api/choose?stones=3&position={}&player=level1&seed={seed}",
                    enc(text)
                );
                get(srv.addr, &target).json()["move"]
                    .as_str()
                    .unwrap()
                    .to_string()
            })
            .collect();
        assert!(weak.len() > 1, "{weak:?}");
    }
    for (query, word) in [
        ("player=best", "best"),
        ("player=ultra@2", "ultra@2"),
        ("seed=-1", "-1"),
    ] {
        let r = get(
            srv.addr,
            &format!("/api/choose?stones=3&position=startpos&{query}"),
        );
        assert_eq!(r.status, 400, "{query}: {}", r.body);
        assert!(
            r.json()["error"].as_str().unwrap().contains(word),
            "{}",
            r.body
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
