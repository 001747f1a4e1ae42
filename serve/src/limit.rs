//! Bounds on what a client can ask of the server: the size of a request, the rate of API
//! requests, the number answered at once; and the headers every answer carries.
//!
//! The server is meant for one person on their own machine, but a page of another site open
//! in the same browser can still send it requests: the bounds keep such a page (or a script
//! in a loop) from tying up the machine, and the absence of CORS headers keeps it from
//! reading the answers unless `--cors` says so.

use crate::api::{ApiError, AppState};
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The longest query string accepted: a position of the largest board with its options is
/// under 300 characters.
pub const MAX_QUERY: usize = 2048;
/// The API takes no body; anything larger than this is refused unread.
pub const MAX_BODY: usize = 16 * 1024;
/// Requests answered at once; more wait for a turn.
pub const MAX_IN_FLIGHT: usize = 64;

/// A token bucket: `rate` tokens a second, up to `2 * rate` saved, one per API request.
pub struct Bucket {
    rate: f64,
    state: Mutex<(f64, Instant)>,
}

impl Bucket {
    pub fn new(rate: u32) -> Bucket {
        let rate = rate as f64;
        Bucket {
            rate,
            state: Mutex::new((2.0 * rate, Instant::now())),
        }
    }

    /// Tokens a second.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Takes a token, or says no.
    pub fn take(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        let refill = now.duration_since(s.1).as_secs_f64() * self.rate;
        s.0 = (s.0 + refill).min(2.0 * self.rate);
        s.1 = now;
        if s.0 >= 1.0 {
            s.0 -= 1.0;
            true
        } else {
            false
        }
    }
}

/// The middleware in front of every route.
pub async fn guard(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let too_long = req.uri().query().is_some_and(|q| q.len() > MAX_QUERY)
        || req.uri().path().len() > MAX_QUERY;
    let mut response = if too_long {
        ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!("the request is longer than {MAX_QUERY} characters"),
        )
        .into_response()
    } else if req.uri().path().starts_with("/api/") && !state.bucket.take() {
        let mut r = ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too many requests: try again in a moment".to_string(),
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        r
    } else {
        match state.in_flight.clone().acquire_owned().await {
            Ok(_permit) => next.run(req).await,
            Err(_) => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is shutting down".to_string(),
            )
            .into_response(),
        }
    };
    let h = response.headers_mut();
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
