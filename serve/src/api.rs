//! The routes: the JSON API, the embedded page, the statistics page.
//!
//! Probes read memory-mapped tables (a page fault can wait on the disk), so they run on the
//! runtime's blocking pool, never on the threads that serve connections.

use crate::clients::{ClientBuckets, ProxyHeader};
use crate::limit::{Bucket, MAX_IN_FLIGHT};
use crate::metrics::Metrics;
use crate::params::Params;
use crate::stats::{self, KeyReport};
use crate::Args;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use morris_db::format::Checks;
use morris_db::Key;
use morris_engine::{for_each_move, Game, Move, Position, RuleSet, Rules};
use morris_tablebase::analysis::{self, AnalysisError};
use morris_tablebase::answer::{color_name, is_zeroing, Answer, AnswerRules, Over};
use morris_tablebase::choice::{choose_move, Choice, Player};
use morris_tablebase::rng::Rng;
use morris_tablebase::tablebase::{ProbeError, Tablebase};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What every request shares.
pub struct AppState {
    pub db: PathBuf,
    pub default: RuleSet,
    /// The bound of all clients together.
    pub bucket: Bucket,
    /// Each client's own bound.
    pub clients: ClientBuckets,
    /// Where the client's address is read behind a proxy (`--trust-proxy`).
    pub trust_proxy: Option<ProxyHeader>,
    pub in_flight: Arc<tokio::sync::Semaphore>,
    pub request_timeout: std::time::Duration,
    pub cors: bool,
    pub stats_max_slots: u64,
    /// One reader per rule set (without its turn limit), opened on first use: a reader keeps
    /// its tables open, so every later request of that rule set reads maps already made.
    tablebases: Mutex<HashMap<RuleSet, Arc<Tablebase>>>,
    /// Keys whose statistics were computed (a pass over the whole table each).
    stats: Mutex<HashMap<(RuleSet, Key), Arc<KeyReport>>>,
    /// One statistics computation at a time: each already uses every core. The computation
    /// holds it, not the request: one whose client timed out still finishes (and fills the
    /// cache) before the next starts.
    stats_turn: Arc<tokio::sync::Mutex<()>>,
    /// The validator of every answer of the tables (crate::cache), computed at start-up.
    pub etag: String,
    /// The validators of the embedded files, by route.
    pub asset_tags: HashMap<&'static str, String>,
    /// The table files of the directory (`.mdb` and `.mpk`), counted at start-up.
    pub table_files: usize,
    pub metrics: Arc<Metrics>,
    /// Whether `/metrics` is served (`--no-metrics`).
    pub metrics_route: bool,
}

impl AppState {
    pub fn new(args: &Args, default: RuleSet) -> Result<AppState, String> {
        let (etag, table_files) = crate::cache::set_validator(&args.db, &default)?;
        let asset_tags = [
            ("/", INDEX_HTML),
            ("/app.js", APP_JS),
            ("/style.css", STYLE_CSS),
        ]
        .into_iter()
        .map(|(route, text)| (route, crate::cache::bytes_tag(text.as_bytes())))
        .collect();
        Ok(AppState {
            db: args.db.clone(),
            default,
            bucket: Bucket::new(args.rate),
            clients: ClientBuckets::new(args.client_rate),
            trust_proxy: args.trust_proxy,
            in_flight: Arc::new(tokio::sync::Semaphore::new(MAX_IN_FLIGHT)),
            request_timeout: args.request_timeout,
            cors: args.cors,
            stats_max_slots: args.stats_max_slots,
            tablebases: Mutex::new(HashMap::new()),
            stats: Mutex::new(HashMap::new()),
            stats_turn: Arc::new(tokio::sync::Mutex::new(())),
            etag,
            asset_tags,
            table_files,
            metrics: Arc::new(Metrics::default()),
            metrics_route: !args.no_metrics,
        })
    }

    /// The rule sets whose readers are open.
    pub fn readers_open(&self) -> usize {
        self.tablebases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .len()
    }

    pub(crate) fn tablebase(&self, set: &RuleSet) -> Result<Arc<Tablebase>, ApiError> {
        let set = set.without_turn_limit();
        let mut map = self.tablebases.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tb) = map.get(&set) {
            return Ok(tb.clone());
        }
        let tb = Tablebase::open(&self.db, set.rules()).map_err(probe_error)?;
        let tb = Arc::new(match set.moves_without_capture() {
            Some(n) => tb.with_no_capture_rule(n),
            None => tb,
        });
        map.insert(set, tb.clone());
        Ok(tb)
    }
}

/// An error as JSON: `{"error": message}`, with the path of a missing table and the command
/// that builds it.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub error: String,
    pub build: Option<String>,
    pub path: Option<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, error: String) -> ApiError {
        ApiError {
            status,
            error,
            build: None,
            path: None,
        }
    }

    fn bad(error: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error.to_string())
    }
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    build: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<&'a str>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: &self.error,
            status: self.status.as_u16(),
            build: self.build.as_deref(),
            path: self.path.as_deref(),
        };
        (self.status, Json(body)).into_response()
    }
}

/// A missing table is 404 with the command that builds it; a position or counter the tables
/// cannot hold is the client's error; a damaged table or a vanished directory the server's.
fn probe_error(e: ProbeError) -> ApiError {
    let message = e.to_string();
    match e {
        ProbeError::MissingTable { path, build, .. } => ApiError {
            status: StatusCode::NOT_FOUND,
            error: message,
            build: Some(build),
            path: Some(path.display().to_string()),
        },
        ProbeError::BadTable { build, error } => ApiError {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            error: message,
            build: Some(build),
            path: Some(error.path().display().to_string()),
        },
        ProbeError::NotInGame { .. }
        | ProbeError::CounterTooLarge { .. }
        | ProbeError::NoDistances { .. } => ApiError::bad(message),
        ProbeError::NoDirectory { .. } => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message),
    }
}

fn params<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(p)| p)
        .map_err(|e| ApiError::bad(format!("malformed query string: {}", e.body_text())))
}

/// Runs blocking work off the connection threads; a panic in it is a 500, not a lost
/// connection.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| {
        Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: {e}"),
        ))
    })
}

/// A legal move with where it leads, so that the page needs no rules of its own.
#[derive(Serialize)]
struct MoveInfo {
    #[serde(rename = "move")]
    mv: String,
    from: Option<String>,
    to: String,
    capture: Option<String>,
    /// The position after the move.
    position: String,
}

fn move_info(pos: &Position, rules: &Rules, mv: Move) -> MoveInfo {
    let board = rules.board();
    MoveInfo {
        mv: mv.notation(board).to_string(),
        from: mv.from().map(|p| board.point_name(p).to_string()),
        to: board.point_name(mv.to()).to_string(),
        capture: mv.capture().map(|p| board.point_name(p).to_string()),
        position: pos.play(mv).notation(rules).to_string(),
    }
}

/// The rules an answer is under, as `/api/query` gives them.
fn echo(set: &RuleSet) -> AnswerRules {
    AnswerRules::of(&set.rules(), set.moves_without_capture())
}

#[derive(Serialize)]
struct MovesAnswer {
    position: String,
    side: &'static str,
    rules: AnswerRules,
    over: Option<Over>,
    moves: Vec<MoveEntry>,
}

#[derive(Serialize)]
struct MoveEntry {
    #[serde(flatten)]
    info: MoveInfo,
    zeroing: bool,
}

fn parse_position(p: &Params, rules: &Rules) -> Result<Position, ApiError> {
    let text = p.position().map_err(ApiError::bad)?;
    Position::parse(text, rules).map_err(|e| ApiError::bad(format!("position: {e}")))
}

/// `GET /api/moves`: the legal moves of a position, without any table.
pub async fn moves(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = params(q)?;
    let set = p.rule_set(&state.default).map_err(ApiError::bad)?;
    let rules = set.rules();
    let pos = parse_position(&p, &rules)?;
    let end = Over::of(&pos, &rules);
    let mut moves = Vec::new();
    if end.is_none() {
        for_each_move(&pos, &rules, |mv| {
            moves.push(MoveEntry {
                info: move_info(&pos, &rules, mv),
                zeroing: is_zeroing(mv),
            })
        });
    }
    let answer = MovesAnswer {
        position: pos.notation(&rules).to_string(),
        side: color_name(pos.side_to_move()),
        rules: echo(&set),
        over: end,
        moves,
    };
    Ok(Json(answer).into_response())
}

/// `GET /api/query`: the value of a position and every move ranked, from the tables
/// ([`Answer`], the shape of `morris query --json`: docs/answer.md).
pub async fn query(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = params(q)?;
    let (set, counter) = p.query_rule_set(&state.default).map_err(ApiError::bad)?;
    let pos = parse_position(&p, &set.rules())?;
    let tb = state.tablebase(&set)?;
    let answer =
        blocking(move || Answer::query(&tb, &pos, counter, set.turn_limit()).map_err(probe_error))
            .await?;
    Ok(Json(answer).into_response())
}

/// The parameters of `/api/choose` beside those every endpoint takes.
#[derive(Deserialize)]
pub struct ChooseParams {
    /// As `morris arena` takes a player: `ultra` (the default), `random`, `fastest`,
    /// `ultra@0.9`, `level1` … `level5`.
    player: Option<String>,
    /// Seed of the choice (0 by default): the same seed, the same move.
    seed: Option<String>,
}

/// `GET /api/choose`: the move a player plays from a position (docs/player.md): the board's
/// computer opponent. `{"move": "d6-d5", "player": "ultra"}`; `"move"` is `null` without a
/// legal move.
pub async fn choose(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
    c: Result<Query<ChooseParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let (p, c) = (params(q)?, params(c)?);
    let player: Player = match c.player.as_deref().map(str::trim) {
        None | Some("") => Player::perfect(Choice::Ultra),
        Some(text) => text
            .parse()
            .map_err(|e| ApiError::bad(format!("player: {e}")))?,
    };
    let seed: u64 = match c.seed.as_deref().map(str::trim) {
        None | Some("") => 0,
        Some(text) => text.parse().map_err(|_| {
            ApiError::bad(format!(
                "seed: `{text}` is not a whole number from 0 to 18446744073709551615"
            ))
        })?,
    };
    let (set, counter) = p.query_rule_set(&state.default).map_err(ApiError::bad)?;
    let pos = parse_position(&p, &set.rules())?;
    let tb = state.tablebase(&set)?;
    let board = set.rules().board();
    let mv = blocking(move || {
        let mut rng = Rng::new(seed);
        choose_move(&tb, &pos, counter, set.turn_limit(), player, &mut rng).map_err(probe_error)
    })
    .await?;
    Ok(Json(serde_json::json!({
        "move": mv.map(|m| m.notation(board).to_string()),
        "player": player.name(),
    }))
    .into_response())
}

/// The parameters of `/api/analyze` beside those every endpoint takes.
#[derive(Deserialize)]
pub struct GameParams {
    /// The game, as `morris analyze` reads a file: moves in notation, `#` comments and move
    /// numbers skipped.
    moves: Option<String>,
    /// `json` (the default) or `svg`: the chart of the game's value instead.
    format: Option<String>,
}

/// `GET /api/analyze`: a game replayed against the tables, every ply judged (the
/// [`analysis::Analysis`] of `morris analyze --json`: docs/analyze.md), or its chart with
/// `format=svg`. It starts from `position` (the start by default) at `counter`.
pub async fn analyze(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
    game: Result<Query<GameParams>, QueryRejection>,
) -> Result<Response, ApiError> {
    let (p, g) = (params(q)?, params(game)?);
    let svg = match g.format.as_deref().map(str::trim).unwrap_or("") {
        "" | "json" => false,
        "svg" => true,
        f => {
            return Err(ApiError::bad(format!(
                "format: `{f}` is neither json nor svg"
            )))
        }
    };
    let set = p.rule_set(&state.default).map_err(ApiError::bad)?;
    let counter = set
        .counter_text(p.counter.as_deref())
        .map_err(ApiError::bad)?;
    let rules = set.rules();
    let text = p.position.as_deref().map(str::trim).unwrap_or("");
    let start = Position::parse(if text.is_empty() { "startpos" } else { text }, &rules)
        .map_err(|e| ApiError::bad(format!("position: {e}")))?;
    let tb = state.tablebase(&set)?;
    let a = blocking(move || {
        let moves = g.moves.unwrap_or_default();
        analysis::analyze(&tb, &start, counter, &analysis::moves_of(&moves)).map_err(|e| match e {
            AnalysisError::Probe(e) => probe_error(e),
            e => ApiError::bad(format!("moves: {e}")),
        })
    })
    .await?;
    if svg {
        let chart = analysis::svg(&a);
        return Ok(([(header::CONTENT_TYPE, "image/svg+xml")], chart).into_response());
    }
    Ok(Json(a).into_response())
}

#[derive(Serialize)]
struct PointInfo {
    name: String,
    x: u8,
    y: u8,
}

#[derive(Serialize)]
struct GameInfo {
    name: &'static str,
    stones: u8,
    flying: bool,
    max_stones: u8,
    line_wins: bool,
    stones_move: bool,
    place_or_move: bool,
    width: u8,
    height: u8,
    points: Vec<PointInfo>,
    /// Lines of three (mills), as point names.
    lines: Vec<Vec<String>>,
    /// Pairs of neighbouring points: the drawing's segments.
    links: Vec<[String; 2]>,
}

fn game_info(game: Game) -> GameInfo {
    let rules = Rules::standard(game);
    let board = game.board();
    let name = |p: u8| board.point_name(p).to_string();
    let mut links = Vec::new();
    for p in 0..board.len() as u8 {
        for q in board.adjacent(p) {
            if q > p {
                links.push([name(p), name(q)]);
            }
        }
    }
    GameInfo {
        name: game.name(),
        stones: rules.stones,
        flying: rules.flying,
        max_stones: game.max_stones(),
        line_wins: rules.line_wins(),
        stones_move: rules.stones_move(),
        place_or_move: rules.place_or_move(),
        width: board.width(),
        height: board.height(),
        points: (0..board.len() as u8)
            .map(|p| {
                let (x, y) = board.coord(p);
                PointInfo {
                    name: name(p),
                    x,
                    y,
                }
            })
            .collect(),
        lines: board
            .lines()
            .iter()
            .map(|&l| l.map(name).collect())
            .collect(),
        links,
    }
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct TableSet {
    game: &'static str,
    flying: bool,
    stones: u8,
    moves_without_capture: Option<u16>,
    files: usize,
}

/// `GET /api/games`: every game's board, the rule sets whose tables are in the directory,
/// and the server's defaults.
pub async fn games(
    State(state): State<Arc<AppState>>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let db = state.db.clone();
    let tables = blocking(move || {
        let infos = morris_db::format::info::inspect(&db, Checks { checksum: false })
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        let mut count: HashMap<(Game, bool, u8, Option<u16>), usize> = HashMap::new();
        for h in infos
            .iter()
            .filter(|i| i.is_ok())
            .filter_map(|i| i.status.as_ref().ok())
        {
            let limit = match h.metric {
                morris_db::Metric::Plain => None,
                morris_db::Metric::NoCapture(n) => Some(n),
            };
            *count
                .entry((h.rules.game, h.rules.flying, h.rules.stones, limit))
                .or_default() += 1;
        }
        let mut v: Vec<TableSet> = count
            .into_iter()
            .map(|((g, flying, stones, limit), files)| TableSet {
                game: g.name(),
                flying,
                stones,
                moves_without_capture: limit,
                files,
            })
            .collect();
        v.sort();
        Ok(v)
    })
    .await?;
    let games: Vec<GameInfo> = Game::ALL.into_iter().map(game_info).collect();
    Ok(Json(serde_json::json!({
        "default": echo(&state.default),
        "tables": tables,
        "games": games,
        "limits": {
            "requests_per_second": state.bucket_rate(),
            "client_requests_per_second": state.clients.rate(),
            "request_timeout_seconds": state.request_timeout.as_secs_f64(),
            "stats_max_slots": state.stats_max_slots,
        },
    })))
}

impl AppState {
    fn bucket_rate(&self) -> f64 {
        self.bucket.rate()
    }
}

/// `GET /api/stats`: without `key`, the keys of the rule set's solve and whether each is
/// built; with `key`, that key's statistics (computed once, then kept).
pub async fn key_stats(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let p = params(q)?;
    let set = p.rule_set(&state.default).map_err(ApiError::bad)?;
    let rules = set.rules();
    let keys = morris_db::plan::KeyGraph::new(&rules, rules.stones).keys();
    let Some(text) = p.key.as_deref().filter(|s| !s.is_empty()) else {
        let plain = morris_tablebase::store::Store::new(&state.db, rules);
        let list: Vec<serde_json::Value> = keys
            .iter()
            .map(|&k| {
                serde_json::json!({
                    "key": k.to_string(),
                    "slots": morris_db::slots(rules.board(), k),
                    "built": plain.path(k).exists(),
                })
            })
            .collect();
        return Ok(Json(
            serde_json::json!({ "rules": echo(&set), "keys": list }),
        ));
    };
    let key: Key = text
        .parse()
        .map_err(|e| ApiError::bad(format!("key: {e}")))?;
    if !keys.contains(&key) {
        return Err(ApiError::bad(format!(
            "key: {key} is not a key of {}",
            stats::describe(&set)
        )));
    }
    let slots = morris_db::slots(rules.board(), key);
    if slots > state.stats_max_slots {
        return Err(ApiError::bad(format!(
            "key {key} has {slots} slots, more than this server computes ({}); `morris report` computes every key",
            state.stats_max_slots
        )));
    }
    if let Some(r) = state.cached(&set, key) {
        return Ok(Json(serde_json::to_value(&*r).expect("serialisable")));
    }
    let turn = state.stats_turn.clone().lock_owned().await;
    let s = state.clone();
    let r = blocking(move || {
        let _turn = turn;
        let plain = morris_tablebase::store::Store::new(&s.db, rules);
        let rule = set.moves_without_capture().map(|n| {
            morris_tablebase::store::Store::with_metric(
                &s.db,
                rules,
                morris_db::Metric::NoCapture(n),
            )
        });
        for store in std::iter::once(&plain).chain(rule.as_ref()) {
            if !store.path(key).exists() {
                return Err(probe_error(ProbeError::MissingTable {
                    path: store.path(key),
                    packed: Vec::new(),
                    build: morris_tablebase::tablebase::build_command_for(
                        &rules,
                        &s.db,
                        store.metric(),
                        rules.stones,
                    ),
                }));
            }
        }
        let r = Arc::new(
            stats::key_report(&set, &plain, rule.as_ref(), key)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?,
        );
        s.remember(&set, key, &r);
        Ok(r)
    })
    .await?;
    Ok(Json(serde_json::to_value(&*r).expect("serialisable")))
}

impl AppState {
    fn cached(&self, set: &RuleSet, key: Key) -> Option<Arc<KeyReport>> {
        let map = self.stats.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&(*set, key)).cloned()
    }

    fn remember(&self, set: &RuleSet, key: Key, r: &Arc<KeyReport>) {
        let mut map = self.stats.lock().unwrap_or_else(|p| p.into_inner());
        map.insert((*set, key), r.clone());
    }
}

/// `GET /stats`: the statistics page of a rule set (the server's default without
/// parameters).
pub async fn stats_page(
    State(state): State<Arc<AppState>>,
    q: Result<Query<Params>, QueryRejection>,
) -> Result<Html<String>, ApiError> {
    let p = params(q)?;
    let set = p.rule_set(&state.default).map_err(ApiError::bad)?;
    let turn = state.stats_turn.clone().lock_owned().await;
    let s = state.clone();
    let html = blocking(move || {
        let _turn = turn;
        let c = stats::compute_with(
            &s.db,
            &set,
            set.stones(),
            s.stats_max_slots,
            &|k| s.cached(&set, k),
            &|k, r| s.remember(&set, k, r),
        )
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        Ok(stats::render_page(&set, &c, Some(())))
    })
    .await?;
    Ok(Html(html))
}

const INDEX_HTML: &str = include_str!("../static/index.html");
const APP_JS: &str = include_str!("../static/app.js");
const STYLE_CSS: &str = include_str!("../static/style.css");

pub async fn index() -> Html<&'static str> {
    Html(INDEX_HTML)
}

pub async fn app_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        APP_JS,
    )
}

pub async fn style_css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        STYLE_CSS,
    )
}

pub async fn not_found(uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such page or endpoint: {}", uri.path()),
    )
}

pub async fn method_not_allowed(method: axum::http::Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed on {} (use GET)", uri.path()),
    )
}
