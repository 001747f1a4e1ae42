//! The accept loop: connections counted per client and in all (over a cap, a short error and
//! the connection closed at once, never queued), the time a client may take to send a request
//! head, and the graceful end (stop accepting, let what is in flight finish within a bound).
//!
//! axum's own `serve` has none of these knobs, so connections are served here with hyper
//! directly, the router being the same.

use crate::clients::Client;
use crate::metrics::{Metrics, Reason};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::collections::HashMap;
use std::future::Future;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tower_service::Service;

/// The connection bounds and timeouts of the accept loop.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub max_connections: usize,
    /// `None` behind a trusted proxy, whose connections carry every client's requests.
    pub max_client_connections: Option<usize>,
    pub header_timeout: Duration,
    pub drain_timeout: Duration,
}

/// The open connections, in all and per client.
struct Open {
    bounds: Bounds,
    counts: Mutex<(usize, HashMap<Client, usize>)>,
}

/// Why a connection was refused.
#[derive(Clone, Copy, Debug)]
enum Refusal {
    Client,
    Server,
}

/// A connection's place among the open ones, given back when it is dropped.
struct Ticket {
    open: Arc<Open>,
    client: Client,
}

impl Open {
    fn admit(self: &Arc<Open>, client: Client) -> Result<Ticket, Refusal> {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if c.0 >= self.bounds.max_connections {
            return Err(Refusal::Server);
        }
        let mine = c.1.get(&client).copied().unwrap_or(0);
        if self
            .bounds
            .max_client_connections
            .is_some_and(|m| mine >= m)
        {
            return Err(Refusal::Client);
        }
        c.0 += 1;
        c.1.insert(client, mine + 1);
        Ok(Ticket {
            open: self.clone(),
            client,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut c = self.open.counts.lock().unwrap_or_else(|p| p.into_inner());
        c.0 -= 1;
        if let Some(n) = c.1.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                c.1.remove(&self.client);
            }
        }
    }
}

/// Answers a connection over a cap without reading it, and closes it: 429 when its client
/// has too many open, 503 when the server has. The answer is written once, without waiting
/// (a new socket's send buffer takes it whole); a client that cannot take it just sees the
/// connection close.
fn refuse(stream: tokio::net::TcpStream, why: Refusal) {
    let (status, error) = match why {
        Refusal::Client => (
            "429 Too Many Requests",
            "too many connections from your address: close one and try again",
        ),
        Refusal::Server => (
            "503 Service Unavailable",
            "the server has all the connections it takes: try again in a moment",
        ),
    };
    let code = &status[..3];
    let body = format!("{{\"error\":\"{error}\",\"status\":{code}}}");
    let reply = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    if let Ok(mut s) = stream.into_std() {
        let _ = s.write_all(reply.as_bytes());
    }
}

/// Serves `app` on `listener` until `stop` completes, then stops accepting, asks every
/// connection to close after its request in flight, and waits for them at most
/// `drain_timeout`; those still open then are cut.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    bounds: Bounds,
    metrics: Arc<Metrics>,
    stop: impl Future<Output = ()>,
) -> Result<(), String> {
    let drain = bounds.drain_timeout;
    let header_timeout = bounds.header_timeout;
    let open = Arc::new(Open {
        bounds,
        counts: Mutex::new((0, HashMap::new())),
    });
    let graceful = GracefulShutdown::new();
    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of descriptors or a connection reset before it was taken: the
                    // listener stays good, so wait a moment rather than spin.
                    eprintln!("morris serve: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let ticket = match open.admit(Client::of(peer.ip())) {
            Ok(t) => t,
            Err(why) => {
                metrics.reject(match why {
                    Refusal::Client => Reason::ClientConnections,
                    Refusal::Server => Reason::ServerConnections,
                });
                refuse(stream, why);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            let mut app = app.clone();
            async move { app.call(req).await }
        });
        // The header timeout runs from the moment the connection waits for a request head:
        // it bounds a slow head and an idle keep-alive connection alike.
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            let _ = conn.await;
            drop(ticket);
        });
    }
    drop(listener);
    let open_now = graceful.count();
    if tokio::time::timeout(drain, graceful.shutdown())
        .await
        .is_err()
    {
        eprintln!(
            "morris serve: {open_now} connection(s) open at the stop; those not done within {} s were cut",
            drain.as_secs_f64()
        );
    }
    Ok(())
}

/// Watches SIGTERM and SIGINT (Ctrl-C) from now on (so that a signal sent as soon as the
/// address is printed is not lost), and returns what completes on the first of them. Must be
/// called on the runtime.
pub fn signals() -> Result<impl Future<Output = ()>, String> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let watch = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|e| format!("cannot watch {name}: {e}"))
        };
        let mut term = watch(SignalKind::terminate(), "SIGTERM")?;
        let mut int = watch(SignalKind::interrupt(), "SIGINT")?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => eprintln!("morris serve: SIGTERM, stopping"),
                _ = int.recv() => eprintln!("morris serve: interrupted, stopping"),
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                eprintln!("morris serve: interrupted, stopping");
            } else {
                std::future::pending::<()>().await;
            }
        })
    }
}
