//! `morris serve` and `morris report`: a web board, an HTTP API and a statistics page over the
//! solved databases, served by the binary itself.
//!
//! Everything the browser needs is embedded in the binary (`include_str!`): no CDN, no build
//! step, no network at run time, so the board works on a machine that has only the databases.
//! The board itself knows no rules: every answer of the API carries the legal moves with the
//! position each one leads to, so the one move generator of the engine stays the only one.
//!
//! The server binds to localhost unless told otherwise, sends no CORS header unless asked
//! (`--cors`), bounds the size of a request, the rate of requests and the connections of each
//! client and of all, the time a request may take to arrive and to be answered, answers every
//! bad request with a JSON error and a 4xx status rather than a panic, and on SIGTERM or
//! Ctrl-C finishes what it is answering (within a bound) and exits 0. Every answer carries a
//! validator of the table set and a lifetime (`cache`), `/metrics` counts requests, latencies
//! and refusals (`metrics`), and `run` logs a line a request through `tracing`.

mod api;
mod cache;
mod clients;
mod limit;
mod listen;
mod metrics;
mod params;
pub mod stats;

/// The rule options of `serve` and `report`: the command line's (a preset, the game and its
/// options), checked by the engine's `RuleSet`.
pub use morris_engine::rule_set::RuleArgs as RuleOptions;
pub use morris_engine::RuleSet;

pub use clients::ProxyHeader;

use api::AppState;
use axum::routing::get;
use axum::Router;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The options of `morris serve`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "The board is at http://ADDR/ (the position is in the URL, so it can be shared), the\n\
statistics at http://ADDR/stats, the API at /api/query, /api/moves, /api/analyze, /api/choose, /api/games, /api/stats, the counters at /metrics.\n\n\
Examples:\n  morris serve --db dbs/nine\n  morris serve --db dbs/nine --rules no-capture-50\n  morris serve --db dbs/s3 --stones 3 --addr 127.0.0.1:9000"
)]
pub struct Args {
    /// The database directory
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// Address to listen on; localhost only unless another address is given
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    // The rule options the page opens with (the API takes others per request).
    #[command(flatten)]
    pub rules: RuleOptions,
    /// Most API requests per second of all clients together before the server answers 429
    /// (bursts of twice this pass): the last resort when many clients ask at once
    #[arg(long, value_name = "N", default_value_t = 500,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub rate: u32,
    /// Most API requests per second of one client before it is answered 429 with Retry-After
    /// (bursts of twice this pass); the other clients are not slowed
    #[arg(long, value_name = "N", default_value_t = 50,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub client_rate: u32,
    /// Behind one reverse proxy: take the client's address from the last element of this
    /// header (the one the proxy added; the others are the client's own words) rather than
    /// from the connection, and leave the per-client connection cap to the proxy. Off by
    /// default: only give it when the proxy is the only way in
    #[arg(long, value_name = "HEADER", num_args = 0..=1,
          default_missing_value = "x-forwarded-for")]
    pub trust_proxy: Option<ProxyHeader>,
    /// Most connections open at once, all clients together (beyond: 503, closed at once)
    #[arg(long, value_name = "N", default_value_t = 256,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,
    /// Most connections open at once from one client (beyond: 429, closed at once)
    #[arg(long, value_name = "N", default_value_t = 16,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_client_connections: u32,
    /// Seconds a connection may take to send a request head, counted from its opening or the
    /// end of its previous answer: it bounds slow headers and idle keep-alive connections
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub header_timeout: Duration,
    /// Seconds a request may take to be answered, its wait for a turn included; beyond, 503
    /// with a JSON error (the search it started is not cut, but no client waits on it)
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub request_timeout: Duration,
    /// Seconds the requests in flight at SIGTERM or Ctrl-C have to finish before the server
    /// exits anyway
    #[arg(long, value_name = "SECS", default_value = "10", value_parser = seconds)]
    pub drain_timeout: Duration,
    /// Send `Access-Control-Allow-Origin: *` so that pages of other origins may call the API
    #[arg(long)]
    pub cors: bool,
    /// The statistics page computes keys of at most this many slots (`morris report` does all)
    #[arg(long, value_name = "SLOTS", default_value_t = 50_000_000)]
    pub stats_max_slots: u64,
    /// Before serving, read every packed table of the page's rule set into memory, so that no
    /// answer waits for the disk (it takes the set's size of RAM, as page cache)
    #[arg(long)]
    pub preload: bool,
    /// Leave out `GET /metrics` (the Prometheus counters, not rate limited; an operator may
    /// rather restrict the path at the proxy)
    #[arg(long)]
    pub no_metrics: bool,
    /// Which log lines go to stderr, as `RUST_LOG` takes them (`info`: a line a request;
    /// `warn` or `off`: none); without it, `RUST_LOG`, else `info`
    #[arg(long, value_name = "FILTER")]
    pub log: Option<String>,
}

/// A number of seconds on the command line: more than 0, at most a day, fractions allowed.
fn seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(secs > 0.0 && secs <= 86_400.0) {
        return Err(format!(
            "{text} s is out of range: more than 0, at most 86400"
        ));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl Args {
    /// The bounds of the accept loop.
    fn bounds(&self) -> listen::Bounds {
        listen::Bounds {
            max_connections: self.max_connections as usize,
            max_client_connections: match self.trust_proxy {
                Some(_) => None,
                None => Some(self.max_client_connections as usize),
            },
            header_timeout: self.header_timeout,
            drain_timeout: self.drain_timeout,
        }
    }
}

/// The options of `morris report`.
#[derive(clap::Args, Clone, Debug)]
#[command(
    after_help = "Examples:\n  morris report --db dbs/nine --out report.html\n  morris report --db dbs/s3 --stones 3 --moves-without-capture 8 --out s3.html"
)]
pub struct ReportArgs {
    /// The database directory
    #[arg(long, value_name = "DIR")]
    pub db: PathBuf,
    /// The HTML file to write
    #[arg(long, value_name = "FILE", default_value = "report.html")]
    pub out: PathBuf,
    #[command(flatten)]
    pub rules: RuleOptions,
    /// Only keys with at most this many stones a side on the board and in hand
    #[arg(long, value_name = "N")]
    pub max_stones: Option<u8>,
}

/// Writes the statistics of every key on disk as one static HTML file (charts as inline SVG,
/// no script, no external resource), printing a line per key to stderr as it goes.
pub fn report(args: ReportArgs) -> Result<(), String> {
    let set = args.rules.rule_set().map_err(|e| e.cli())?;
    let rules = set.rules();
    if !args.db.is_dir() {
        return Err(format!("{}: no such database directory", args.db.display()));
    }
    let max = args.max_stones.unwrap_or(rules.stones);
    if !(3..=rules.stones).contains(&max) {
        return Err(format!(
            "--max-stones must be from 3 to {} for {}",
            rules.stones, rules.game
        ));
    }
    let computed = stats::compute_all(&args.db, &set, max, u64::MAX, &|key, slots| {
        eprintln!("{key}: {slots} slots");
    })?;
    let html = stats::render_page(&set, &computed, None);
    std::fs::write(&args.out, html)
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    eprintln!(
        "wrote {} ({} keys)",
        args.out.display(),
        computed.keys.len()
    );
    Ok(())
}

/// The router of the server: the API, the board, the statistics page.
fn router(state: Arc<AppState>) -> Router {
    let mut api = Router::new()
        .route("/api/query", get(api::query))
        .route("/api/analyze", get(api::analyze))
        .route("/api/choose", get(api::choose))
        .route("/api/moves", get(api::moves))
        .route("/api/games", get(api::games))
        .route("/api/stats", get(api::key_stats))
        .route("/stats", get(api::stats_page))
        .route("/", get(api::index))
        .route("/app.js", get(api::app_js))
        .route("/style.css", get(api::style_css))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed);
    if state.metrics_route {
        api = api.route("/metrics", get(metrics::endpoint));
    }
    // The last layer is the outermost: every request is timed and counted with the answer the
    // guard gave it, and the guard's limits come before the 304 of a conditional request.
    api.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        cache::conditional,
    ))
    .layer(axum::extract::DefaultBodyLimit::max(limit::MAX_BODY))
    .layer(axum::middleware::from_fn_with_state(
        state.clone(),
        limit::guard,
    ))
    .layer(axum::middleware::from_fn_with_state(
        state.clone(),
        metrics::observe,
    ))
    .with_state(state)
}

/// A server running on a thread of its own, for tests and embedders: dropping it (or
/// [`Running::stop`]) shuts it down and waits for it.
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), String>>>,
}

impl Running {
    /// Shuts the server down and returns how it ended.
    pub fn stop(mut self) -> Result<(), String> {
        self.shutdown()
    }

    fn shutdown(&mut self) -> Result<(), String> {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        match self.thread.take() {
            Some(t) => t
                .join()
                .map_err(|_| "the server thread panicked".to_string())?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.shutdown();
    }
}

/// Binds `args.addr` (port 0: any free port) and serves on a background thread until the
/// returned handle is stopped or dropped.
pub fn spawn(args: Args) -> Result<Running, String> {
    let (state, listener) = prepare(&args)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let bounds = args.bounds();
    let thread = std::thread::spawn(move || {
        serve_on(listener, state, bounds, || {
            Ok(async move {
                let _ = rx.await;
            })
        })
    });
    Ok(Running {
        addr,
        stop: Some(tx),
        thread: Some(thread),
    })
}

/// Runs the server in the foreground until SIGTERM or Ctrl-C, then lets the requests in
/// flight finish (within `--drain-timeout`) and returns `Ok`.
pub fn run(args: Args) -> Result<(), String> {
    init_log(args.log.as_deref())?;
    let (state, listener) = prepare(&args)?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: listening on {addr}, reachable from other machines (the default is 127.0.0.1)"
        );
    }
    let announce = move || {
        let stop = listen::signals()?;
        println!(
            "morris serve: http://{addr}/ (statistics at /stats, API at /api/query), Ctrl-C to stop"
        );
        Ok(stop)
    };
    serve_on(listener, state, args.bounds(), announce)?;
    eprintln!("morris serve: stopped");
    Ok(())
}

/// Sends the request lines of `tracing` (target `morris_serve::request`, level info) to
/// stderr, filtered by `filter` or `RUST_LOG` (`target=level` directives, comma-separated),
/// `info` by default. A subscriber already set (by an embedder) is kept.
fn init_log(filter: Option<&str>) -> Result<(), String> {
    let env = std::env::var("RUST_LOG").ok();
    let text = filter.or(env.as_deref()).unwrap_or("info");
    let targets: tracing_subscriber::filter::Targets = text
        .parse()
        .map_err(|e| format!("--log or RUST_LOG `{text}`: {e}"))?;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::Layer;
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(targets),
        )
        .try_init();
    Ok(())
}

/// Serves on a runtime of its own until the future `stop` makes (on the runtime, before the
/// first connection) completes, then drains and shuts the runtime down; a probe still running
/// on the blocking pool is not waited for longer than a second (its client is gone).
fn serve_on<F: std::future::Future<Output = ()>>(
    listener: std::net::TcpListener,
    state: Arc<AppState>,
    bounds: listen::Bounds,
    stop: impl FnOnce() -> Result<F, String>,
) -> Result<(), String> {
    let rt = runtime()?;
    let served = rt.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)
            .map_err(|e| format!("cannot listen: {e}"))?;
        let stop = stop()?;
        let metrics = state.metrics.clone();
        let app = router(state);
        listen::serve(listener, app, bounds, metrics, stop).await
    });
    rt.shutdown_timeout(Duration::from_secs(1));
    served
}

/// Checks the options and binds the socket before any thread starts, so that a wrong
/// directory or a port in use is a one-line error from `run`/`spawn`, not a log line later.
fn prepare(args: &Args) -> Result<(Arc<AppState>, std::net::TcpListener), String> {
    let set = args.rules.rule_set().map_err(|e| e.cli())?;
    if !args.db.is_dir() {
        return Err(format!("{}: no such database directory", args.db.display()));
    }
    let listener = std::net::TcpListener::bind(args.addr)
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?;
    let state = AppState::new(args, set)?;
    if args.preload {
        let tb = state.tablebase(&state.default).map_err(|e| e.error)?;
        let bytes = tb
            .preload()
            .map_err(|e| format!("cannot preload the tables: {e}"))?;
        eprintln!(
            "morris serve: {} of packed tables read into memory (--preload)",
            morris_db::plan::bytes(bytes)
        );
    }
    Ok((Arc::new(state), listener))
}

/// A small multi-threaded runtime: probes run on its blocking pool, so two workers serve the
/// connections of a local user and of the tests.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(16)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))
}
