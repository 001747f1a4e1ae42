//! The bounds an operator relies on, against servers on ephemeral localhost ports: a client
//! over its rate or its connections is refused while another is served, a slow or idle
//! connection is closed after the header timeout, a request over its time is 503, and SIGTERM
//! lets the request in flight finish and exits 0. Clients are told apart by their source
//! address on the loopback network (127.0.0.1, 127.0.0.2, …, all of which are local on
//! Linux). Every wait is bounded, and the bounds are ten times the timeouts under test.

mod common;

use common::{built, serve_args, three_stones, ChildServer, Reply};
use morris_db::format::Metric;
use morris_serve::{spawn, Args, ProxyHeader};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The 3-stone Nine Men's Morris, built once for every test of this file.
fn db() -> &'static Path {
    static DB: OnceLock<PathBuf> = OnceLock::new();
    DB.get_or_init(|| built("limits", &[(three_stones(), Metric::Plain)]))
}

fn args() -> Args {
    serve_args(db(), 1_000_000, false)
}

const MOVES: &str = "/api/moves?position=startpos&stones=3";

/// A connection to `addr` from the loopback address `from` (`127.0.0.N`), reads bounded.
fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let s = rt
        .block_on(async {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(format!("{from}:0").parse().unwrap())?;
            socket.connect(addr).await
        })
        .unwrap_or_else(|e| panic!("connect from {from}: {e}"))
        .into_std()
        .unwrap();
    s.set_nonblocking(false).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    s
}

/// Reads one response (its head, then `content-length` bytes of body).
fn read_reply(s: &mut TcpStream) -> Reply {
    let mut raw = Vec::new();
    let mut byte = [0u8; 1];
    while !raw.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => raw.push(byte[0]),
            r => panic!("the connection ended in the head ({r:?}): {raw:?}"),
        }
    }
    let head = String::from_utf8(raw).unwrap().to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .map_or(0, |v| v.trim().parse().unwrap());
    let mut body = vec![0; length];
    s.read_exact(&mut body).unwrap();
    Reply {
        status: head.split(' ').nth(1).unwrap().parse().unwrap(),
        headers: head,
        body: String::from_utf8(body).unwrap(),
    }
}

/// A GET on `s` with the extra header lines `extra`, keeping the connection open.
fn get_on(s: &mut TcpStream, target: &str, extra: &str) -> Reply {
    write!(s, "GET {target} HTTP/1.1\r\nHost: localhost\r\n{extra}\r\n").unwrap();
    read_reply(s)
}

/// A GET on a connection of its own from `from`.
fn get_from(from: &str, addr: SocketAddr, target: &str, extra: &str) -> Reply {
    get_on(&mut connect_from(from, addr), target, extra)
}

/// Waits (at most `bound`) for the server to close `s`; what it sent before is returned.
fn closed_within(s: &mut TcpStream, bound: Duration) -> String {
    s.set_read_timeout(Some(bound)).unwrap();
    let began = Instant::now();
    let mut seen = Vec::new();
    match s.read_to_end(&mut seen) {
        Ok(_) => {}
        Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
        Err(e) => panic!("not closed after {:?}: {e}", began.elapsed()),
    }
    String::from_utf8_lossy(&seen).into_owned()
}

#[test]
fn a_client_over_its_rate_leaves_the_others_served() {
    let mut a = args();
    a.client_rate = 2;
    let srv = spawn(a).unwrap();
    let replies: Vec<Reply> = (0..12)
        .map(|_| get_from("127.0.0.1", srv.addr, MOVES, "Connection: close\r\n"))
        .collect();
    let limited: Vec<&Reply> = replies.iter().filter(|r| r.status == 429).collect();
    assert!(limited.len() >= 6, "12 requests at once at 2 a second");
    assert!(replies.iter().all(|r| r.status == 200 || r.status == 429));
    let r = limited[0];
    assert!(r.headers.contains("retry-after: 1"), "{}", r.headers);
    assert!(r.json()["error"].as_str().unwrap().contains("your address"));
    // Meanwhile another client is served at once, and the page is never limited.
    let other = get_from("127.0.0.2", srv.addr, MOVES, "");
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(get_from("127.0.0.1", srv.addr, "/", "").status, 200);
    // The forwarding header is nobody's word without --trust-proxy.
    let forged = get_from(
        "127.0.0.1",
        srv.addr,
        MOVES,
        "X-Forwarded-For: 10.9.9.9\r\n",
    );
    assert_eq!(forged.status, 429);
}

#[test]
fn behind_a_trusted_proxy_clients_are_the_addresses_it_adds() {
    let mut a = args();
    a.client_rate = 2;
    a.trust_proxy = Some(ProxyHeader::XForwardedFor);
    a.max_client_connections = 1;
    let srv = spawn(a).unwrap();
    // All from the proxy's address, on connections held open (no per-client connection cap
    // behind a proxy); what the client wrote before the proxy's element does not count.
    let held: Vec<TcpStream> = (0..3)
        .map(|_| connect_from("127.0.0.1", srv.addr))
        .collect();
    let first = "X-Forwarded-For: 10.0.0.1\r\n";
    let statuses: Vec<u16> = (0..10)
        .map(|_| get_from("127.0.0.1", srv.addr, MOVES, first).status)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    let second = "X-Forwarded-For: 10.0.0.1, 10.0.0.2\r\n";
    assert_eq!(get_from("127.0.0.1", srv.addr, MOVES, second).status, 200);
    let mut a = args();
    a.client_rate = 2;
    a.trust_proxy = Some(ProxyHeader::Forwarded);
    let srv2 = spawn(a).unwrap();
    let fwd = "Forwarded: for=10.0.0.1\r\n";
    let statuses: Vec<u16> = (0..10)
        .map(|_| get_from("127.0.0.1", srv2.addr, MOVES, fwd).status)
        .collect();
    assert!(statuses.contains(&429), "{statuses:?}");
    let other = "Forwarded: for=\"[2001:db8::7]:443\"\r\n";
    assert_eq!(get_from("127.0.0.1", srv2.addr, MOVES, other).status, 200);
    drop(held);
}

#[test]
fn connections_over_a_cap_are_refused_at_once() {
    let mut a = args();
    a.max_client_connections = 2;
    a.max_connections = 3;
    a.header_timeout = Duration::from_secs(120);
    let srv = spawn(a).unwrap();
    let addr = srv.addr;
    let mut mine: Vec<TcpStream> = (0..2).map(|_| connect_from("127.0.0.1", addr)).collect();
    // A third from the same address: 429, closed without waiting for a request.
    let mut third = connect_from("127.0.0.1", addr);
    let said = closed_within(&mut third, Duration::from_secs(10));
    assert!(said.starts_with("HTTP/1.1 429"), "{said}");
    assert!(said.contains("too many connections") && said.contains("retry-after: 1"));
    // Another client still gets a connection (the third of the server's three)...
    let mut other = connect_from("127.0.0.2", addr);
    // ... after which the server is full: 503 for anyone.
    let mut fourth = connect_from("127.0.0.3", addr);
    let said = closed_within(&mut fourth, Duration::from_secs(10));
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    // The connections admitted are served, and one closed frees a place.
    assert_eq!(get_on(&mut other, MOVES, "").status, 200);
    assert_eq!(get_on(&mut mine[0], MOVES, "").status, 200);
    drop(mine.pop());
    let began = Instant::now();
    loop {
        let mut s = connect_from("127.0.0.1", addr);
        write!(
            s,
            "GET {MOVES} HTTP/1.1\r\nHost: l\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let said = closed_within(&mut s, Duration::from_secs(10));
        if said.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(began.elapsed() < Duration::from_secs(10), "{said}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn slow_heads_and_idle_connections_are_closed_after_the_header_timeout() {
    let mut a = args();
    a.header_timeout = Duration::from_secs(1);
    let srv = spawn(a).unwrap();
    // Half a header, then nothing.
    let mut half = connect_from("127.0.0.1", srv.addr);
    write!(half, "GET {MOVES} HTTP/1.1\r\nHost: loc").unwrap();
    // A connection that never says anything.
    let mut mute = connect_from("127.0.0.1", srv.addr);
    // A keep-alive connection after its answer.
    let mut idle = connect_from("127.0.0.1", srv.addr);
    assert_eq!(get_on(&mut idle, MOVES, "").status, 200);
    let began = Instant::now();
    for s in [&mut half, &mut mute, &mut idle] {
        let said = closed_within(s, Duration::from_secs(10));
        assert!(!said.contains("200 OK"), "{said}");
    }
    assert!(began.elapsed() < Duration::from_secs(10));
    // The others are served meanwhile and after.
    assert_eq!(get_from("127.0.0.2", srv.addr, MOVES, "").status, 200);
}

#[test]
fn a_request_over_its_time_is_503() {
    let mut a = args();
    // Any answer that waits for the blocking pool (the statistics of every key here) is over
    // this; one made at once is not.
    a.request_timeout = Duration::ZERO;
    let srv = spawn(a).unwrap();
    let r = get_from("127.0.0.1", srv.addr, "/stats?stones=3", "");
    assert_eq!(r.status, 503, "{}", r.body);
    assert!(r.json()["error"].as_str().unwrap().contains("longer"));
    assert!(r.headers.contains("retry-after"));
    assert_eq!(get_from("127.0.0.1", srv.addr, MOVES, "").status, 200);
}

/// The server as a process of its own, for the signal test: this test binary run again with
/// `MORRIS_SERVE_CHILD` set to the database; without it, nothing.
#[test]
fn child_server() {
    common::serve_if_child("MORRIS_SERVE_CHILD");
}

#[cfg(unix)]
#[test]
fn sigterm_finishes_the_request_in_flight_and_exits_0() {
    let mut child = ChildServer::start("child_server", "MORRIS_SERVE_CHILD", db(), &[]);
    let addr = child.addr;
    // A request half sent, and a keep-alive connection idle after its answer (which, being
    // accepted after the first, shows that the first was accepted too).
    let mut in_flight = connect_from("127.0.0.1", addr);
    write!(in_flight, "GET {MOVES} HTTP/1.1\r\nHost: localhost\r\n").unwrap();
    let mut idle = connect_from("127.0.0.1", addr);
    assert_eq!(get_on(&mut idle, MOVES, "").status, 200);
    child.terminate();
    // It stops accepting...
    let began = Instant::now();
    while let Ok(s) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
        drop(s);
        assert!(began.elapsed() < Duration::from_secs(10), "still accepting");
        std::thread::sleep(Duration::from_millis(20));
    }
    // ... closes the idle connection, answers the request in flight, and exits 0.
    closed_within(&mut idle, Duration::from_secs(10));
    write!(in_flight, "\r\n").unwrap();
    let r = read_reply(&mut in_flight);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.headers.contains("connection: close"), "{}", r.headers);
    let (status, err) = child.wait();
    assert_eq!(status.code(), Some(0));
    assert!(err.contains("SIGTERM") && err.contains("stopped"), "{err}");
}
