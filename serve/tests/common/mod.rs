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

/// The body of the test a [`ChildServer`] runs: serves the database `env` names, in the
/// foreground until a signal stops it; without `env` set (a normal test run), nothing.
pub fn serve_if_child(env: &str) {
    let Some(dir) = std::env::var_os(env) else {
        return;
    };
    let mut a = serve_args(Path::new(&dir), 1_000_000, false);
    a.drain_timeout = Duration::from_secs(5);
    morris_serve::run(a).unwrap();
}

/// A server run in a process of its own, so that a test can send it a signal and read what it
/// logged: the test binary started again with only `test` run (a test that serves the
/// tables of `db` when `env` names them, and does nothing in a normal run), `extra` set in
/// its environment. Killed when dropped.
pub struct ChildServer {
    child: std::process::Child,
    /// Its standard output, held open: a server whose pipe closed would fail at its next line.
    _stdout: std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    pub addr: SocketAddr,
}

impl ChildServer {
    pub fn start(test: &str, env: &str, db: &Path, extra: &[(&str, &str)]) -> ChildServer {
        use std::io::{BufRead, BufReader};
        use std::process::{Command, Stdio};
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", test, "--nocapture", "--test-threads=1"])
            .env(env, db)
            .envs(extra.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let addr = loop {
            let line = lines.next().expect("the server's address").unwrap();
            if let Some(rest) = line.split("http://").nth(1) {
                break rest.split('/').next().unwrap().parse().unwrap();
            }
        };
        ChildServer {
            child,
            _stdout: lines,
            addr,
        }
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let killed = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
    }

    /// Whether it has exited, and how.
    pub fn try_wait(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().unwrap()
    }

    /// Its exit status once it exits, within 20 s, and all it wrote to standard error.
    pub fn wait(&mut self) -> (std::process::ExitStatus, String) {
        let began = std::time::Instant::now();
        let status = loop {
            if let Some(s) = self.try_wait() {
                break s;
            }
            assert!(began.elapsed() < Duration::from_secs(20), "still running");
            std::thread::sleep(Duration::from_millis(50));
        };
        let mut err = String::new();
        let stderr = self.child.stderr.take();
        stderr.unwrap().read_to_string(&mut err).unwrap();
        (status, err)
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
