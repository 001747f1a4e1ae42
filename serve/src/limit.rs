//! Bounds on what a client can ask of the server: the size of a request, the rate of API
//! requests (per client and in all), the number answered at once, the time each may take;
//! and the headers every answer carries.
//!
//! The server is meant for one person on their own machine, but a page of another site open
//! in the same browser can still send it requests, and an operator may put it on a network:
//! the bounds keep one client (a page, a script in a loop) from slowing the others or tying up
//! the machine, and the absence of CORS headers keeps a foreign page from reading the answers
//! unless `--cors` says so.

use crate::api::{ApiError, AppState};
use crate::cache::NO_STORE;
use crate::clients::Client;
use crate::metrics::Reason;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest query string accepted: a position of the largest board with its options is
/// under 300 characters.
pub const MAX_QUERY: usize = 2048;
/// The API takes no body; anything larger than this is refused unread.
pub const MAX_BODY: usize = 16 * 1024;
/// Requests answered at once; more wait for a turn (within the request timeout).
pub const MAX_IN_FLIGHT: usize = 64;

/// The state of a token bucket: `rate` tokens a second, up to `2 * rate` saved (a burst of
/// twice the rate passes, as a page asks for a few answers at once), one per API request.
#[derive(Clone, Copy, Debug)]
pub struct Tokens {
    left: f64,
    at: Instant,
}

impl Tokens {
    /// A bucket as a client that has not asked for a while finds it: full.
    pub fn full(rate: f64, now: Instant) -> Tokens {
        Tokens {
            left: 2.0 * rate,
            at: now,
        }
    }

    /// Takes a token, or says how long until there is one (so that `Retry-After` is true).
    pub fn take(&mut self, rate: f64, now: Instant) -> Result<(), Duration> {
        self.refill(rate, now);
        if self.left >= 1.0 {
            self.left -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - self.left) / rate))
        }
    }

    /// Whether the bucket is full again at `now`: it is then the same as a new one, so that
    /// forgetting it changes nothing.
    pub fn is_full(&self, rate: f64, now: Instant) -> bool {
        let mut t = *self;
        t.refill(rate, now);
        t.left >= 2.0 * rate
    }

    fn refill(&mut self, rate: f64, now: Instant) {
        let gained = now.saturating_duration_since(self.at).as_secs_f64() * rate;
        self.left = (self.left + gained).min(2.0 * rate);
        self.at = now;
    }
}

/// The bucket every client shares: the last resort when many clients ask at once.
pub struct Bucket {
    rate: f64,
    tokens: Mutex<Tokens>,
}

impl Bucket {
    pub fn new(rate: u32) -> Bucket {
        let rate = rate as f64;
        Bucket {
            rate,
            tokens: Mutex::new(Tokens::full(rate, Instant::now())),
        }
    }

    /// Tokens a second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Takes a token, or says how long until there is one.
    pub fn take(&self) -> Result<(), Duration> {
        let mut t = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
        t.take(self.rate, Instant::now())
    }
}

/// The address that sent a request: the peer of its connection, or with `--trust-proxy` the
/// address the proxy says it forwards for.
pub(crate) fn client_ip(state: &AppState, req: &Request) -> IpAddr {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    state
        .trust_proxy
        .and_then(|h| h.client(req.headers()))
        .unwrap_or(peer)
}

/// Who sent a request, as the rate limits count clients.
fn client_of(state: &AppState, req: &Request) -> Client {
    Client::of(client_ip(state, req))
}

/// 429 with the whole seconds to wait (at least one) in `Retry-After`.
fn too_many(wait: Duration, whose: &str) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut r = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("too many requests {whose}: try again in {secs} s"),
    )
    .into_response();
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    r
}

/// The middleware in front of every route.
pub async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let too_long = req.uri().query().is_some_and(|q| q.len() > MAX_QUERY)
        || req.uri().path().len() > MAX_QUERY;
    let api = req.uri().path().starts_with("/api/");
    // The client's own bucket first, so that a client over its limit spends none of the
    // tokens the others share.
    let refused = if api {
        match state.clients.take(client_of(&state, &req)) {
            Err(wait) => Some((wait, "from your address", Reason::ClientRate)),
            Ok(()) => state
                .bucket
                .take()
                .err()
                .map(|w| (w, "to this server", Reason::ServerRate)),
        }
    } else {
        None
    };
    let mut response = if too_long {
        state.metrics.reject(Reason::TooLong);
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the request is longer than {MAX_QUERY} characters"),
        )
        .into_response()
    } else if let Some((wait, whose, why)) = refused {
        state.metrics.reject(why);
        too_many(wait, whose)
    } else {
        // The wait for a turn counts against the request's time too: no request hangs.
        let timeout = state.request_timeout;
        let work = async {
            match state.in_flight.clone().acquire_owned().await {
                Ok(_permit) => next.run(req).await,
                Err(_) => ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is shutting down".to_string(),
                )
                .into_response(),
            }
        };
        match tokio::time::timeout(timeout, work).await {
            Ok(r) => r,
            Err(_) => {
                state.metrics.reject(Reason::Timeout);
                let mut r = ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!(
                        "the answer took longer than this server allows ({} s, --request-timeout)",
                        timeout.as_secs_f64()
                    ),
                )
                .into_response();
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
                r
            }
        }
    };
    let status = response.status();
    let h = response.headers_mut();
    // Errors and refusals are the client's or the moment's, never to be kept.
    if !(status.is_success() || status == StatusCode::NOT_MODIFIED) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_STORE));
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
        ),
    );
    if state.cors {
        h.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    }
    response
}

#[cfg(test)]
mod tests {
    use super::Tokens;
    use std::time::{Duration, Instant};

    #[test]
    fn a_bucket_passes_a_burst_then_says_how_long_to_wait() {
        let t0 = Instant::now();
        let mut b = Tokens::full(2.0, t0);
        for _ in 0..4 {
            assert!(b.take(2.0, t0).is_ok());
        }
        let wait = b.take(2.0, t0).unwrap_err();
        assert!(wait > Duration::from_millis(400) && wait <= Duration::from_millis(500));
        assert!(b.take(2.0, t0 + Duration::from_millis(500)).is_ok());
        assert!(!b.is_full(2.0, t0 + Duration::from_secs(1)));
        assert!(b.is_full(2.0, t0 + Duration::from_secs(3)));
    }
}
