//! Validators and lifetimes: what a browser or a proxy may keep, and the 304 of a conditional
//! request.
//!
//! An answer of the tables is a function of the request's URL and of the table set the server
//! opened, never of the time: so every answer of `/api/query`, `/api/analyze`, `/api/choose`
//! and `/api/moves` carries the one validator of the set, computed once at start-up from the
//! checksums in the headers of every table file of the directory, the server's default rule
//! set (which fills the parameters a URL leaves out) and the version of the answer format.
//! The set's validator rather than one per table: it is as exact (a given set never gives
//! another answer to the same URL) and needs no record of which tables an answer read, and a
//! request that matches it is answered 304 before any probe. The pages that read the directory
//! as it is now (`/api/games`, `/api/stats`, `/stats`) are validated by a hash of their body
//! and must be revalidated (`no-cache`); the embedded page, script and styles by a hash of
//! their bytes. Errors, refusals and `/metrics` are `no-store`.

use crate::api::AppState;
use axum::body::Body;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use morris_engine::RuleSet;
use std::path::Path;
use std::sync::Arc;
use xxhash_rust::xxh3::Xxh3;

/// The version of the answers' format: raise it when an answer changes shape for the same
/// tables, so that no cache serves the old shape after an upgrade.
pub const API_VERSION: u32 = 1;

/// How long a browser or proxy may keep an answer or an asset without asking again: a day.
const LONG: &str = "public, max-age=86400";
const REVALIDATE: &str = "no-cache";
pub const NO_STORE: &str = "no-store";

/// How a route is cached.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Policy {
    /// An answer of the tables: the set's validator, kept a day.
    Set,
    /// A page that reads the directory as it is: a hash of the body, revalidated every time.
    Body,
    /// An embedded file: a hash of its bytes, kept a day.
    Asset,
    /// Never kept.
    NoStore,
    /// Not a route (the fallback's errors).
    None,
}

fn policy(route: Option<&str>) -> Policy {
    match route {
        Some("/api/query" | "/api/analyze" | "/api/choose" | "/api/moves") => Policy::Set,
        Some("/api/games" | "/api/stats" | "/stats") => Policy::Body,
        Some("/" | "/app.js" | "/style.css") => Policy::Asset,
        Some("/metrics") => Policy::NoStore,
        _ => Policy::None,
    }
}

/// The validator of the table set in `db` under `default`, as a quoted strong ETag, and the
/// number of table files it covers. Every `.mdb` and `.mpk` file counts by its name and the
/// checksum of its header (no data is read); a file whose header cannot be read counts by its
/// name and its error.
pub fn set_validator(db: &Path, default: &RuleSet) -> Result<(String, usize), String> {
    let mut files: Vec<(String, String)> = Vec::new();
    let name = |p: &Path| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let tables =
        morris_db::format::info::inspect(db, morris_db::format::Checks { checksum: false })
            .map_err(|e| format!("cannot list {}: {e}", db.display()))?;
    let packed = morris_packed::info::inspect(db, false)
        .map_err(|e| format!("cannot list {}: {e}", db.display()))?;
    let sum = |checksum: Result<u64, &morris_db::format::DbError>| match checksum {
        Ok(c) => format!("{c:016x}"),
        Err(e) => format!("error: {e}"),
    };
    let raw = tables
        .iter()
        .map(|t| (&t.path, t.status.as_ref().map(|h| h.checksum)));
    let packed = packed
        .iter()
        .map(|t| (&t.path, t.status.as_ref().map(|h| h.checksum)));
    files.extend(raw.chain(packed).map(|(path, c)| (name(path), sum(c))));
    files.sort();
    let mut h = Xxh3::new();
    h.update(
        format!(
            "morris-serve {} api {API_VERSION}\n",
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    h.update(format!("default {default:?}\n").as_bytes());
    for (name, sum) in &files {
        h.update(format!("{name} {sum}\n").as_bytes());
    }
    let count = files
        .iter()
        .filter(|(_, s)| !s.starts_with("error"))
        .count();
    Ok((format!("\"{:032x}\"", h.digest128()), count))
}

/// The quoted strong ETag of some bytes under this version of the server.
pub fn bytes_tag(bytes: &[u8]) -> String {
    let mut h = Xxh3::new();
    h.update(
        format!(
            "morris-serve {} api {API_VERSION}\n",
            env!("CARGO_PKG_VERSION")
        )
        .as_bytes(),
    );
    h.update(bytes);
    format!("\"{:032x}\"", h.digest128())
}

/// Whether `If-None-Match` lists `tag` (compared weakly, as RFC 9110 wants for this header)
/// or is `*`.
fn none_match(headers: &HeaderMap, tag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_string();
    let want = strip(tag);
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || strip(t) == want)
}

/// Whether `If-None-Match` is exactly `*` somewhere.
fn asks_any(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*")
}

/// 304 with the validator and the lifetime the full answer would have had.
fn not_modified(tag: &str, cache: &'static str) -> Response {
    let mut r = Response::new(Body::empty());
    *r.status_mut() = StatusCode::NOT_MODIFIED;
    set_headers(r.headers_mut(), Some(tag), cache);
    r
}

fn set_headers(h: &mut HeaderMap, tag: Option<&str>, cache: &'static str) {
    if let Some(tag) = tag.and_then(|t| HeaderValue::from_str(t).ok()) {
        h.insert(header::ETAG, tag);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
}

/// The middleware that gives every successful answer its validator and lifetime, and answers
/// a conditional GET or HEAD 304. It runs after the rate limits: a conditional request counts
/// as one.
pub async fn conditional(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned());
    let policy = policy(route.as_deref());
    let readable = matches!(*req.method(), Method::GET | Method::HEAD);
    let headers = req.headers().clone();
    let conditional = readable && headers.contains_key(header::IF_NONE_MATCH);
    // An answer of the tables that the client already holds: no probe at all. (`*` waits
    // for the answer, which must exist for it to match.)
    if policy == Policy::Set
        && conditional
        && !asks_any(&headers)
        && none_match(&headers, &state.etag)
    {
        return not_modified(&state.etag, LONG);
    }
    let response = next.run(req).await;
    if response.status() != StatusCode::OK || !readable {
        return response;
    }
    let (tag, cache) = match policy {
        Policy::Set => (state.etag.clone(), LONG),
        Policy::Asset => match route.as_deref().and_then(|r| state.asset_tags.get(r)) {
            Some(t) => (t.clone(), LONG),
            None => return response,
        },
        Policy::Body => {
            let (parts, body) = response.into_parts();
            let Ok(bytes) = axum::body::to_bytes(body, usize::MAX).await else {
                let mut r = Response::new(Body::from("the answer could not be read"));
                *r.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
                return r;
            };
            let tag = bytes_tag(&bytes);
            let mut r = Response::from_parts(parts, Body::from(bytes));
            if conditional && none_match(&headers, &tag) {
                return not_modified(&tag, REVALIDATE);
            }
            set_headers(r.headers_mut(), Some(&tag), REVALIDATE);
            return r;
        }
        Policy::NoStore => {
            let mut r = response;
            set_headers(r.headers_mut(), None, NO_STORE);
            return r;
        }
        Policy::None => return response,
    };
    if conditional && none_match(&headers, &tag) {
        return not_modified(&tag, cache);
    }
    let mut r = response;
    set_headers(r.headers_mut(), Some(&tag), cache);
    r
}

#[cfg(test)]
mod tests {
    use super::none_match;
    use axum::http::{header, HeaderMap, HeaderValue};

    fn with(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_str(v).unwrap());
        h
    }

    #[test]
    fn if_none_match_takes_lists_weak_tags_and_a_star() {
        let tag = "\"abc\"";
        assert!(none_match(&with("\"abc\""), tag));
        assert!(none_match(&with("\"x\", W/\"abc\""), tag));
        assert!(none_match(&with("*"), tag));
        assert!(!none_match(&with("\"abcd\", \"ab\""), tag));
        assert!(!none_match(&HeaderMap::new(), tag));
    }
}
