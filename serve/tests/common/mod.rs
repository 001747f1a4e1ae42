//! Helpers shared by the server's test files: the game their tables are built for, the
//! server's options, and plain HTTP/1.1 requests to it.

// Each test file uses its own subset.
#![allow(dead_code)]

use morris_db::format::Metric;
use morris_engine::{Game, Rules};
use morris_serve::{Args, RuleOptions};
use morris_solver::progress::Silent;
use morris_solver::solve::{solve, Job};
use morris_tablebase::store::Store;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Nine Men's Morris with three stones a side: the game the tests build tables for.
pub fn three_stones() -> Rules {
    Rules {
        stones: 3,
        ..Rules::nine()
    }
}

/// A fresh directory (`name` tells the tests of a file apart) with the whole games of `sets`
/// (their rules and the metric of their tables) solved into it.
pub fn built(name: &str, sets: &[(Rules, Metric)]) -> PathBuf {
    let dir = morris_testdirs::scratch(name);
    for &(rules, metric) in sets {
        let job = Job {
            max_stones: rules.stones,
            only: None,
            placement: true,
            stop_after_files: None,
            in_hand: None,
        };
        solve(&mut Store::with_metric(&dir, rules, metric), &job, &Silent).unwrap();
    }
    dir
}

/// A server of the tables in `db` on an ephemeral localhost port, three stones a side by
/// default, at `rate` requests a second (for each client and in all), with CORS headers if
/// `cors`, and the server's default connection bounds and timeouts.
pub fn serve_args(db: &Path, rate: u32, cors: bool) -> Args {
    Args {
        db: db.to_path_buf(),
        addr: "127.0.0.1:0".parse().unwrap(),
        rules: RuleOptions {
            stones: Some(3),
            ..RuleOptions::standard(Game::Nine)
        },
        rate,
        client_rate: rate,
        trust_proxy: None,
        max_connections: 256,
        max_client_connections: 16,
        header_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(10),
        drain_timeout: Duration::from_secs(10),
        cors,
        stats_max_slots: 10_000_000,
        preload: false,
        no_metrics: false,
        log: None,
    }
}

/// Status, headers (lower case) and body of one response.
pub struct Reply {
    pub status: u16,
    pub headers: String,
    pub body: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// One HTTP/1.1 request on its own connection, with a deadline.
pub fn request(addr: SocketAddr, method: &str, target: &str) -> Reply {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a header");
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Reply {
        status,
        headers: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

pub fn get(addr: SocketAddr, target: &str) -> Reply {
    request(addr, "GET", target)
}

/// A query string value, percent-encoded.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
