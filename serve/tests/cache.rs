//! Caching, metrics and the request log, against servers on ephemeral localhost ports over
//! the 3-stone game: a conditional request gets 304, the validator of an answer is the same
//! after a restart on the same tables and another for another set, the embedded files are
//! validated too, errors are never kept, `/metrics` counts exactly what was sent, and `run`
//! logs one line a request.

mod common;

use common::{built, get, serve_args, three_stones, ChildServer, Reply};
use morris_db::format::Metric;
use morris_serve::{spawn, Args};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

fn db() -> &'static Path {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| built("cache", &[(three_stones(), Metric::Plain)]))
}

fn args() -> Args {
    serve_args(db(), 1_000_000, false)
}

const QUERY: &str = "/api/query?position=startpos&stones=3";
const MOVES: &str = "/api/moves?position=startpos&stones=3";

/// A GET with the extra header lines `extra` on a connection of its own.
fn get_with(addr: SocketAddr, target: &str, extra: &str) -> Reply {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8(raw).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").expect("a header");
    Reply {
        status: head.split(' ').nth(1).unwrap().parse().unwrap(),
        headers: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

/// The value of header `name` (lower case), if any.
fn header(r: &Reply, name: &str) -> Option<String> {
    r.headers
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{name}:")))
        .map(|v| v.trim().to_string())
}

fn etag(r: &Reply) -> String {
    header(r, "etag").unwrap_or_else(|| panic!("no etag: {}", r.headers))
}

#[test]
fn a_conditional_request_gets_304_with_the_same_headers() {
    let srv = spawn(args()).unwrap();
    let full = get(srv.addr, QUERY);
    assert_eq!(full.status, 200, "{}", full.body);
    let tag = etag(&full);
    assert!(
        tag.starts_with('"') && tag.ends_with('"') && tag.len() == 34,
        "{tag}"
    );
    let cache = header(&full, "cache-control").unwrap();
    assert_eq!(cache, "public, max-age=86400");
    // Every answer of the tables carries the set's validator.
    for target in [
        MOVES,
        "/api/choose?position=startpos&stones=3",
        "/api/analyze?stones=3&moves=d6",
    ] {
        let r = get(srv.addr, target);
        assert_eq!(r.status, 200, "{target}: {}", r.body);
        assert_eq!(etag(&r), tag, "{target}");
        assert_eq!(header(&r, "cache-control").unwrap(), cache, "{target}");
    }
    for condition in [
        tag.clone(),
        format!("W/{tag}"),
        format!("\"other\", {tag}"),
        "*".to_string(),
    ] {
        let r = get_with(srv.addr, QUERY, &format!("If-None-Match: {condition}\r\n"));
        assert_eq!(r.status, 304, "{condition}: {}", r.headers);
        assert!(r.body.is_empty(), "{condition}: {}", r.body);
        assert_eq!(etag(&r), tag);
        assert_eq!(header(&r, "cache-control").unwrap(), cache);
    }
    let r = get_with(srv.addr, QUERY, "If-None-Match: \"other\"\r\n");
    assert_eq!(r.status, 200);
    assert_eq!(r.body, full.body);
    // An error is never kept, and a conditional request does not turn it into a 304.
    let bad = get_with(
        srv.addr,
        "/api/query?position=nonsense&stones=3",
        "If-None-Match: *\r\n",
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    assert_eq!(header(&bad, "cache-control").unwrap(), "no-store");
    assert!(header(&bad, "etag").is_none());
    let posted = common::request(srv.addr, "POST", QUERY);
    assert_eq!(posted.status, 405);
    assert_eq!(header(&posted, "cache-control").unwrap(), "no-store");
    assert!(header(&posted, "etag").is_none());
    // The pages that read the directory now are revalidated each time.
    let games = get(srv.addr, "/api/games");
    assert_eq!(header(&games, "cache-control").unwrap(), "no-cache");
    let again = get_with(
        srv.addr,
        "/api/games",
        &format!("If-None-Match: {}\r\n", etag(&games)),
    );
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    // And the counters never.
    let m = get(srv.addr, "/metrics");
    assert_eq!(header(&m, "cache-control").unwrap(), "no-store");
    assert!(header(&m, "etag").is_none());
}

#[test]
fn the_embedded_files_carry_validators_too() {
    let srv = spawn(args()).unwrap();
    for path in ["/", "/app.js", "/style.css"] {
        let r = get(srv.addr, path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(
            header(&r, "cache-control").unwrap(),
            "public, max-age=86400",
            "{path}"
        );
        let tag = etag(&r);
        let again = get_with(srv.addr, path, &format!("If-None-Match: {tag}\r\n"));
        assert_eq!(again.status, 304, "{path}");
        assert_eq!(etag(&again), tag);
        assert!(again.body.is_empty());
    }
    assert_ne!(etag(&get(srv.addr, "/")), etag(&get(srv.addr, "/app.js")));
}

/// The validator of `/api/query` of a server on `dir`.
fn tag_of(dir: &Path) -> String {
    let srv = spawn(serve_args(dir, 1_000_000, false)).unwrap();
    let r = get(srv.addr, QUERY);
    assert_eq!(r.status, 200, "{}", r.body);
    etag(&r)
}

#[test]
fn the_validator_is_the_tables_not_the_moment_nor_the_path() {
    let first = tag_of(db());
    assert_eq!(tag_of(db()), first, "the same after a restart");
    // The same tables in another directory: the same validator.
    let copy = morris_testdirs::scratch("cache-copy");
    let mut files: Vec<PathBuf> = std::fs::read_dir(db())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for f in &files {
        std::fs::copy(f, copy.join(f.file_name().unwrap())).unwrap();
    }
    assert_eq!(tag_of(&copy), first, "the same tables elsewhere");
    // Another set (one table fewer; the query still has its own): another validator.
    let dropped = files
        .iter()
        .rev()
        .find(|p| p.extension().is_some_and(|e| e == "mdb"))
        .unwrap();
    std::fs::remove_file(copy.join(dropped.file_name().unwrap())).unwrap();
    let srv = spawn(serve_args(&copy, 1_000_000, false)).unwrap();
    let r = get(srv.addr, MOVES);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(etag(&r), first, "another set");
    // And another default rule set, which fills what a URL leaves out: another validator.
    let mut a = args();
    a.rules.no_flying = true;
    let other = spawn(a).unwrap();
    let r = get(other.addr, MOVES);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_ne!(etag(&r), first, "another default rule set");
}

/// The value of the series `name` (with its labels) in a `/metrics` text; 0 when absent.
fn series(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.strip_prefix(' ')))
        .map_or(0, |v| v.trim().parse().unwrap())
}

#[test]
fn metrics_count_what_was_sent() {
    let srv = spawn(args()).unwrap();
    for _ in 0..3 {
        assert_eq!(get(srv.addr, MOVES).status, 200);
    }
    assert_eq!(
        get(srv.addr, "/api/moves?position=nonsense&stones=3").status,
        400
    );
    let tag = etag(&get(srv.addr, QUERY));
    let r = get_with(srv.addr, QUERY, &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(r.status, 304);
    assert_eq!(get(srv.addr, "/nowhere").status, 404);
    let long = format!("/api/moves?position={}", "x".repeat(3000));
    assert_eq!(get(srv.addr, &long).status, 414);
    let m = get(srv.addr, "/metrics");
    assert_eq!(m.status, 200);
    assert!(
        header(&m, "content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4"),
        "{}",
        m.headers
    );
    let t = &m.body;
    let req = |route: &str, status: u16| {
        series(
            t,
            &format!("morris_serve_requests_total{{route=\"{route}\",status=\"{status}\"}}"),
        )
    };
    assert_eq!(req("/api/moves", 200), 3, "{t}");
    assert_eq!(req("/api/moves", 400), 1, "{t}");
    assert_eq!(req("/api/moves", 414), 1, "{t}");
    assert_eq!(req("/api/query", 200), 1, "{t}");
    assert_eq!(req("/api/query", 304), 1, "{t}");
    assert_eq!(req("unmatched", 404), 1, "{t}");
    assert_eq!(req("/metrics", 200), 0, "a scrape counts in the next");
    let total: u64 = t
        .lines()
        .filter(|l| l.starts_with("morris_serve_requests_total{"))
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(total, 8, "{t}");
    assert_eq!(
        series(
            t,
            "morris_serve_request_duration_seconds_count{route=\"/api/moves\"}"
        ),
        5
    );
    assert_eq!(
        series(
            t,
            "morris_serve_request_duration_seconds_bucket{route=\"/api/moves\",le=\"+Inf\"}"
        ),
        5
    );
    assert_eq!(
        series(t, "morris_serve_rejected_total{reason=\"bad_request\"}"),
        1
    );
    assert_eq!(
        series(t, "morris_serve_rejected_total{reason=\"too_long\"}"),
        1
    );
    assert_eq!(
        series(t, "morris_serve_rejected_total{reason=\"client_rate\"}"),
        0
    );
    assert!(series(t, "morris_serve_table_files") > 0, "{t}");
    assert_eq!(series(t, "morris_serve_rule_sets_open"), 1, "{t}");
    assert!(t.contains("morris_serve_disk_read_bytes_total "), "{t}");
    let again = get(srv.addr, "/metrics").body;
    assert_eq!(
        series(
            &again,
            "morris_serve_requests_total{route=\"/metrics\",status=\"200\"}"
        ),
        1
    );
}

#[test]
fn metrics_count_refusals_by_reason_and_are_not_rate_limited() {
    let mut a = args();
    a.client_rate = 1;
    let srv = spawn(a).unwrap();
    let statuses: Vec<u16> = (0..6).map(|_| get(srv.addr, MOVES).status).collect();
    let limited = statuses.iter().filter(|&&s| s == 429).count() as u64;
    assert!(limited >= 1, "{statuses:?}");
    // Scraping is not an API request: never 429, however often.
    let mut text = String::new();
    for _ in 0..5 {
        let m = get(srv.addr, "/metrics");
        assert_eq!(m.status, 200);
        text = m.body;
    }
    assert_eq!(
        series(&text, "morris_serve_rejected_total{reason=\"client_rate\"}"),
        limited,
        "{text}"
    );
    assert_eq!(
        series(
            &text,
            "morris_serve_requests_total{route=\"/api/moves\",status=\"429\"}"
        ),
        limited
    );
    assert_eq!(
        series(
            &text,
            "morris_serve_requests_total{route=\"/api/moves\",status=\"200\"}"
        ),
        6 - limited
    );
    // Off with --no-metrics.
    let mut a = args();
    a.no_metrics = true;
    let srv = spawn(a).unwrap();
    assert_eq!(get(srv.addr, "/metrics").status, 404);
}

/// Runs the server in the foreground for
/// `run_logs_one_line_a_request`, when `MORRIS_SERVE_LOG_CHILD` names the database.
#[test]
fn log_child_server() {
    common::serve_if_child("MORRIS_SERVE_LOG_CHILD");
}

#[cfg(unix)]
#[test]
fn run_logs_one_line_a_request() {
    let mut child = ChildServer::start(
        "log_child_server",
        "MORRIS_SERVE_LOG_CHILD",
        db(),
        &[("RUST_LOG", "info")],
    );
    let addr = child.addr;
    assert_eq!(get(addr, MOVES).status, 200);
    assert_eq!(get(addr, "/nowhere").status, 404);
    child.terminate();
    let (_, err) = child.wait();
    let requests: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("morris_serve::request"))
        .collect();
    assert_eq!(requests.len(), 2, "{err}");
    let first = requests[0];
    for field in [
        "INFO",
        "method=GET",
        "route=/api/moves",
        "status=200",
        "micros=",
        "client=127.0.0.1",
    ] {
        assert!(first.contains(field), "{field} in {first}");
    }
    assert!(requests[1].contains("route=unmatched") && requests[1].contains("status=404"));
}
