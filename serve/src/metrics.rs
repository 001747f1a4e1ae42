//! `GET /metrics` in the Prometheus text format, and one log line a request.
//!
//! The counters are a handful of maps and atomics formatted by hand: the exposition format
//! is a few lines of text, and a metrics crate would bring more code than it saves. Requests
//! are counted by their matched route (the route's pattern, never the raw path, so that the
//! number of series stays bounded) and status, after the answer is made. The log line goes
//! through `tracing` (a `tracing-subscriber` formatter on stderr, installed by `run`), so
//! that a filter that turns it off leaves only a level check on the hot path.

use crate::api::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The upper bounds of the latency histogram's buckets, in seconds.
const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Why a request or a connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The client over `--client-rate`.
    ClientRate,
    /// All clients over `--rate`.
    ServerRate,
    /// The client over `--max-client-connections` (the connection, not a request).
    ClientConnections,
    /// The server at `--max-connections` (the connection, not a request).
    ServerConnections,
    /// Past `--request-timeout`.
    Timeout,
    /// A request over the length bound (414).
    TooLong,
    /// A request the server could not understand (400).
    BadRequest,
}

impl Reason {
    const ALL: [Reason; 7] = [
        Reason::ClientRate,
        Reason::ServerRate,
        Reason::ClientConnections,
        Reason::ServerConnections,
        Reason::Timeout,
        Reason::TooLong,
        Reason::BadRequest,
    ];

    fn name(self) -> &'static str {
        match self {
            Reason::ClientRate => "client_rate",
            Reason::ServerRate => "server_rate",
            Reason::ClientConnections => "client_connections",
            Reason::ServerConnections => "server_connections",
            Reason::Timeout => "timeout",
            Reason::TooLong => "too_long",
            Reason::BadRequest => "bad_request",
        }
    }
}

#[derive(Default)]
struct Histogram {
    /// Counts per bucket (not cumulative; summed when rendered), the last one past `BUCKETS`.
    counts: [u64; BUCKETS.len() + 1],
    sum: f64,
    count: u64,
}

#[derive(Default)]
struct Requests {
    by_status: BTreeMap<(String, u16), u64>,
    latency: BTreeMap<String, Histogram>,
}

/// The server's counters.
#[derive(Default)]
pub struct Metrics {
    requests: Mutex<Requests>,
    rejected: [AtomicU64; Reason::ALL.len()],
}

impl Metrics {
    /// Counts a refusal.
    pub fn reject(&self, why: Reason) {
        self.rejected[why as usize].fetch_add(1, Ordering::Relaxed);
    }

    fn observe(&self, route: &str, status: u16, secs: f64) {
        let mut r = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        *r.by_status.entry((route.to_string(), status)).or_default() += 1;
        let h = r.latency.entry(route.to_string()).or_default();
        let i = BUCKETS
            .iter()
            .position(|&b| secs <= b)
            .unwrap_or(BUCKETS.len());
        h.counts[i] += 1;
        h.sum += secs;
        h.count += 1;
    }

    /// The exposition text. `tables` is the number of table files of the set, `readers` the
    /// rule sets whose tables are open.
    pub fn render(&self, tables: usize, readers: usize) -> String {
        let mut out = String::new();
        let r = self.requests.lock().unwrap_or_else(|p| p.into_inner());
        out.push_str(
            "# HELP morris_serve_requests_total Requests answered, by matched route and status.\n",
        );
        out.push_str("# TYPE morris_serve_requests_total counter\n");
        for ((route, status), n) in &r.by_status {
            let _ = writeln!(
                out,
                "morris_serve_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
            );
        }
        out.push_str("# HELP morris_serve_request_duration_seconds Time to answer a request, by matched route.\n");
        out.push_str("# TYPE morris_serve_request_duration_seconds histogram\n");
        for (route, h) in &r.latency {
            let mut seen = 0;
            for (i, b) in BUCKETS.iter().enumerate() {
                seen += h.counts[i];
                let _ = writeln!(
                    out,
                    "morris_serve_request_duration_seconds_bucket{{route=\"{route}\",le=\"{b}\"}} {seen}"
                );
            }
            let _ = writeln!(
                out,
                "morris_serve_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {}\n\
                 morris_serve_request_duration_seconds_sum{{route=\"{route}\"}} {}\n\
                 morris_serve_request_duration_seconds_count{{route=\"{route}\"}} {}",
                h.count, h.sum, h.count
            );
        }
        drop(r);
        out.push_str(
            "# HELP morris_serve_rejected_total Requests and connections refused, by reason.\n",
        );
        out.push_str("# TYPE morris_serve_rejected_total counter\n");
        for why in Reason::ALL {
            let _ = writeln!(
                out,
                "morris_serve_rejected_total{{reason=\"{}\"}} {}",
                why.name(),
                self.rejected[why as usize].load(Ordering::Relaxed)
            );
        }
        out.push_str("# HELP morris_serve_table_files Table files (.mdb, .mpk) of the set the server opened.\n");
        out.push_str("# TYPE morris_serve_table_files gauge\n");
        let _ = writeln!(out, "morris_serve_table_files {tables}");
        out.push_str("# HELP morris_serve_rule_sets_open Rule sets whose tables are open (one reader each).\n");
        out.push_str("# TYPE morris_serve_rule_sets_open gauge\n");
        let _ = writeln!(out, "morris_serve_rule_sets_open {readers}");
        if let Some(bytes) = disk_read_bytes() {
            out.push_str("# HELP morris_serve_disk_read_bytes_total Bytes the process caused to be read from storage (read_bytes of /proc/self/io: page faults of the mapped tables included, page-cache hits not).\n");
            out.push_str("# TYPE morris_serve_disk_read_bytes_total counter\n");
            let _ = writeln!(out, "morris_serve_disk_read_bytes_total {bytes}");
        }
        out
    }
}

/// `read_bytes` of `/proc/self/io` (Linux only).
fn disk_read_bytes() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/self/io").ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("read_bytes:"))
        .and_then(|v| v.trim().parse().ok())
}

/// `GET /metrics`.
pub async fn endpoint(State(state): State<Arc<AppState>>) -> Response {
    let text = state
        .metrics
        .render(state.table_files, state.readers_open());
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        text,
    )
        .into_response()
}

/// The outermost middleware: times the request, counts it by route and status, counts a 400
/// as a rejection, and logs one line.
pub async fn observe(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let began = Instant::now();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", |m| m.as_str())
        .to_owned();
    let method = req.method().clone();
    let client = crate::limit::client_ip(&state, &req);
    let response = next.run(req).await;
    let elapsed = began.elapsed();
    let status = response.status().as_u16();
    if status == 400 {
        state.metrics.reject(Reason::BadRequest);
    }
    state.metrics.observe(&route, status, elapsed.as_secs_f64());
    tracing::info!(
        target: "morris_serve::request",
        method = %method,
        route = %route,
        status,
        micros = elapsed.as_micros() as u64,
        client = %client,
    );
    response
}
