//! Who a client is, and a token bucket for each: one client over its rate is answered 429
//! while the others go on at theirs.
//!
//! A client is an IPv4 address or an IPv6 /64 (one host usually holds a whole /64, so keying
//! by the full address would give it billions of buckets). Behind a reverse proxy every
//! connection comes from the proxy, so with `--trust-proxy` the client is the address that
//! proxy says it forwards for; the header is read only then, because any client can write it.

use crate::limit::Tokens;
use axum::http::HeaderMap;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The most clients whose buckets are kept. A bucket is forgotten once full again (at most
/// two seconds after its client's last request), so this many clients would all have to be
/// asking within those seconds; one more is then held to the global bound only.
pub const MAX_TRACKED: usize = 65_536;

/// How often buckets that have filled up are swept out of the table.
const SWEEP_EVERY: Duration = Duration::from_secs(10);

/// A client as the limits count it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Client(IpAddr);

impl Client {
    /// An IPv4 address (an IPv4-mapped IPv6 address is the IPv4 one), or the /64 of an IPv6
    /// address.
    pub fn of(ip: IpAddr) -> Client {
        match ip {
            IpAddr::V4(_) => Client(ip),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Client(IpAddr::V4(v4)),
                None => {
                    let s = v6.segments();
                    Client(IpAddr::V6(Ipv6Addr::new(
                        s[0], s[1], s[2], s[3], 0, 0, 0, 0,
                    )))
                }
            },
        }
    }
}

/// The header a trusted reverse proxy writes the client's address in (`--trust-proxy`).
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProxyHeader {
    /// `X-Forwarded-For: client, proxy1, …` (nginx, Caddy, HAProxy)
    XForwardedFor,
    /// RFC 7239 `Forwarded: for=client;proto=https, for=…`
    Forwarded,
}

impl ProxyHeader {
    /// The address the one trusted proxy added: the last element of the header, since the
    /// proxy appends the peer it saw to whatever the client sent (the first elements are the
    /// client's own words and could be anything). `None` when there is no usable address
    /// (no header, `unknown`, an obfuscated name): the peer is then the client.
    pub fn client(self, headers: &HeaderMap) -> Option<IpAddr> {
        let name = match self {
            ProxyHeader::XForwardedFor => "x-forwarded-for",
            ProxyHeader::Forwarded => "forwarded",
        };
        let last = headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .rfind(|e| !e.is_empty())?;
        match self {
            ProxyHeader::XForwardedFor => node(last),
            ProxyHeader::Forwarded => last
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                .and_then(|(_, v)| node(v)),
        }
    }
}

/// An address as the headers write it: `1.2.3.4`, `1.2.3.4:80`, `::1`, `"[::1]:80"`.
fn node(text: &str) -> Option<IpAddr> {
    let t = text.trim().trim_matches('"');
    if let Some(rest) = t.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    t.parse()
        .ok()
        .or_else(|| t.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
}

/// The buckets of the clients that asked lately.
pub struct ClientBuckets {
    rate: f64,
    capacity: usize,
    table: Mutex<Table>,
}

struct Table {
    buckets: HashMap<Client, Tokens>,
    swept: Instant,
}

impl ClientBuckets {
    /// `rate` requests a second for each client, bursts of twice that.
    pub fn new(rate: u32) -> ClientBuckets {
        ClientBuckets::with_capacity(rate, MAX_TRACKED)
    }

    fn with_capacity(rate: u32, capacity: usize) -> ClientBuckets {
        ClientBuckets {
            rate: rate as f64,
            capacity,
            table: Mutex::new(Table {
                buckets: HashMap::new(),
                swept: Instant::now(),
            }),
        }
    }

    /// Requests a second for each client.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Takes a token of `client`'s bucket, or says how long until there is one.
    pub fn take(&self, client: Client) -> Result<(), Duration> {
        self.take_at(client, Instant::now())
    }

    fn take_at(&self, client: Client, now: Instant) -> Result<(), Duration> {
        let mut t = self.table.lock().unwrap_or_else(|p| p.into_inner());
        let since = now.saturating_duration_since(t.swept);
        let crowded = t.buckets.len() >= self.capacity;
        if since >= SWEEP_EVERY || (crowded && since >= Duration::from_secs(1)) {
            let rate = self.rate;
            t.buckets.retain(|_, b| !b.is_full(rate, now));
            t.swept = now;
        }
        if let Some(b) = t.buckets.get_mut(&client) {
            return b.take(self.rate, now);
        }
        if t.buckets.len() >= self.capacity {
            return Ok(());
        }
        let mut b = Tokens::full(self.rate, now);
        let taken = b.take(self.rate, now);
        t.buckets.insert(client, b);
        taken
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.table.lock().unwrap().buckets.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn one_client_over_its_rate_leaves_the_others_theirs() {
        let b = ClientBuckets::new(1);
        let t0 = Instant::now();
        let (a, c) = (Client::of(ip("10.0.0.1")), Client::of(ip("10.0.0.2")));
        assert!(b.take_at(a, t0).is_ok() && b.take_at(a, t0).is_ok());
        assert!(b.take_at(a, t0).is_err());
        assert!(b.take_at(c, t0).is_ok());
    }

    #[test]
    fn idle_clients_are_forgotten_and_the_table_is_bounded() {
        let b = ClientBuckets::with_capacity(1, 3);
        let t0 = Instant::now();
        for i in 1..=5 {
            let _ = b.take_at(Client::of(ip(&format!("10.0.0.{i}"))), t0);
        }
        assert_eq!(b.len(), 3, "the table holds no more than its capacity");
        // Once their buckets are full again, the clients are swept out for new ones.
        let later = t0 + Duration::from_secs(11);
        assert!(b.take_at(Client::of(ip("10.0.0.9")), later).is_ok());
        assert_eq!(b.len(), 1);
    }

    #[test]
    fn clients_are_addresses_and_ipv6_64s() {
        assert_eq!(Client::of(ip("::ffff:1.2.3.4")), Client::of(ip("1.2.3.4")));
        assert_eq!(
            Client::of(ip("2001:db8:1:2::5")),
            Client::of(ip("2001:db8:1:2:ffff::1"))
        );
        assert_ne!(
            Client::of(ip("2001:db8:1:2::5")),
            Client::of(ip("2001:db8:1:3::5"))
        );
    }

    #[test]
    fn the_proxy_header_gives_the_address_the_proxy_added() {
        let mut h = HeaderMap::new();
        let xff = ProxyHeader::XForwardedFor;
        assert_eq!(xff.client(&h), None);
        h.append(
            "x-forwarded-for",
            HeaderValue::from_static("6.6.6.6, 1.2.3.4"),
        );
        assert_eq!(xff.client(&h), Some(ip("1.2.3.4")));
        h.append(
            "x-forwarded-for",
            HeaderValue::from_static("[2001:db8::1]:443"),
        );
        assert_eq!(xff.client(&h), Some(ip("2001:db8::1")));
        let fwd = ProxyHeader::Forwarded;
        assert_eq!(fwd.client(&h), None);
        h.insert(
            "forwarded",
            HeaderValue::from_static("for=6.6.6.6, proto=https;For=\"[2001:db8::2]:80\""),
        );
        assert_eq!(fwd.client(&h), Some(ip("2001:db8::2")));
        h.insert("forwarded", HeaderValue::from_static("for=unknown"));
        assert_eq!(fwd.client(&h), None);
    }
}
