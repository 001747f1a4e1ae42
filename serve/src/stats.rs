//! Statistics of a database per key — values, the distribution of distances, the longest
//! wins as positions — and their rendering as one HTML page with the charts drawn as inline
//! SVG from the numbers (no plotting library, no script): the same page is the server's
//! `/stats` and `morris report`'s file, which must open anywhere without a network.

use morris_db::format::Checks;
use morris_db::plan::KeyGraph;
use morris_db::{slots, Category, Key};
use morris_engine::RuleSet;
use morris_engine::{Bitboard, Color, Position, Rules};
use morris_tablebase::stats::{add_counts, key_stats, rule_key_stats};
use morris_tablebase::store::Store;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;

/// One key: every class counted once (holes skipped), from the side to move.
#[derive(Clone, Debug, Serialize)]
pub struct KeyReport {
    pub key: String,
    pub slots: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Classes won in `d` plies at index `d`.
    pub win_plies: Vec<u64>,
    /// Classes lost in `d` plies at index `d`.
    pub loss_plies: Vec<u64>,
    pub longest_win: Option<LongestPosition>,
    pub longest_loss: Option<LongestPosition>,
    /// Under the no-capture rule, at counter 0.
    pub rule: Option<RuleReport>,
}

/// A position at the longest distance of its key, in notation (side to move: White when the
/// rules allow it).
#[derive(Clone, Debug, Serialize)]
pub struct LongestPosition {
    pub plies: u32,
    pub position: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct RuleReport {
    pub limit: u16,
    pub wins: u64,
    pub cursed_wins: u64,
    pub draws: u64,
    pub blessed_losses: u64,
    pub losses: u64,
    /// Wins and losses the rule keeps, by distance to zeroing (empty for placement keys,
    /// whose tables hold values only).
    pub dtz: Vec<u64>,
    pub max_dtz: Option<u32>,
}

impl KeyReport {
    pub fn classes(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// The statistics of a rule set's database.
pub struct Computed {
    pub keys: Vec<Arc<KeyReport>>,
    /// Keys of the plan not shown, with why.
    pub skipped: Vec<(Key, u64, String)>,
    pub dir: String,
}

/// A key's position in notation: White to move when the hands allow it, else Black.
fn position_text(rules: &Rules, key: Key, us: u32, them: u32) -> String {
    let hands = [key.us_hand, key.them_hand];
    for side in [Color::White, Color::Black] {
        let p = Position::from_sides(Bitboard(us), Bitboard(them), hands, side);
        let text = p.notation(rules).to_string();
        if Position::parse(&text, rules).is_ok() {
            return text;
        }
    }
    Position::from_sides(Bitboard(us), Bitboard(them), hands, Color::White)
        .notation(rules)
        .to_string()
}

/// The statistics of one key, read from its table (and the rule's table of the same key).
pub fn key_report(
    set: &RuleSet,
    plain: &Store,
    rule: Option<&Store>,
    key: Key,
) -> Result<KeyReport, String> {
    let checks = Checks { checksum: false };
    let (index, table) = plain.load(key, checks, false).map_err(|e| e.to_string())?;
    let rule_table = match rule {
        Some(s) => Some(s.load(key, checks, false).map_err(|e| e.to_string())?.1),
        None => None,
    };
    let stats = match (rule_table, set.moves_without_capture()) {
        (Some(rt), Some(n)) => rule_key_stats(index, n, |i| table.outcome(i), |i| rt.outcome(i)),
        _ => key_stats(index, |i| table.outcome(i).code()),
    };
    let rules = &set.rules();
    let longest = |l: Option<morris_tablebase::stats::Longest>| {
        l.map(|l| {
            let (us, them) = index.unindex(l.slot);
            LongestPosition {
                plies: l.plies,
                position: position_text(rules, key, us.0, them.0),
            }
        })
    };
    let cyclic = morris_db::plan::UnitKind::of(rules, key).is_cyclic();
    Ok(KeyReport {
        key: key.to_string(),
        slots: index.size(),
        wins: stats.wins,
        draws: stats.draws,
        losses: stats.losses,
        longest_win: longest(stats.longest_win),
        longest_loss: longest(stats.longest_loss),
        rule: stats.rule.map(|r| RuleReport {
            limit: r.limit,
            wins: r.count(Category::Win),
            cursed_wins: r.count(Category::CursedWin),
            draws: r.count(Category::Draw),
            blessed_losses: r.count(Category::BlessedLoss),
            losses: r.count(Category::Loss),
            max_dtz: if cyclic { r.max_dtz() } else { None },
            dtz: if cyclic { r.dtz } else { Vec::new() },
        }),
        win_plies: stats.win_plies,
        loss_plies: stats.loss_plies,
    })
}

/// Computes every key of the plan that is on disk and has at most `max_slots` slots;
/// `cached` returns a key computed before, `done` hears of each new one.
pub fn compute_with(
    dir: &Path,
    set: &RuleSet,
    max_stones: u8,
    max_slots: u64,
    cached: &dyn Fn(Key) -> Option<Arc<KeyReport>>,
    done: &dyn Fn(Key, &Arc<KeyReport>),
) -> Result<Computed, String> {
    let rules = set.rules();
    let mut plain = Store::new(dir, rules);
    let mut rule = set
        .moves_without_capture()
        .map(|n| Store::with_metric(dir, rules, morris_db::Metric::NoCapture(n)));
    let mut out = Computed {
        keys: Vec::new(),
        skipped: Vec::new(),
        dir: dir.display().to_string(),
    };
    for key in KeyGraph::new(&rules, max_stones).keys() {
        let n = slots(rules.board(), key);
        if let Some(r) = cached(key) {
            out.keys.push(r);
            continue;
        }
        let missing =
            !plain.path(key).exists() || rule.as_ref().is_some_and(|s| !s.path(key).exists());
        if missing {
            out.skipped.push((key, n, "not built".to_string()));
            continue;
        }
        if n > max_slots {
            out.skipped.push((
                key,
                n,
                "larger than the page computes (morris report computes every key)".to_string(),
            ));
            continue;
        }
        let r = Arc::new(key_report(set, &plain, rule.as_ref(), key)?);
        done(key, &r);
        out.keys.push(r);
        // Unmap as we go: a whole game's tables are tens of GiB.
        plain.close_all();
        if let Some(s) = &mut rule {
            s.close_all();
        }
    }
    Ok(out)
}

/// [`compute_with`] without a cache, telling `progress` of each key before it is read.
pub fn compute_all(
    dir: &Path,
    set: &RuleSet,
    max_stones: u8,
    max_slots: u64,
    progress: &dyn Fn(Key, u64),
) -> Result<Computed, String> {
    compute_with(dir, set, max_stones, max_slots, &|_| None, &|k, r| {
        progress(k, r.slots)
    })
}

// ---------------------------------------------------------------------------------------
// Rendering

const WIN: &str = "#2f9e44";
const CURSED: &str = "#8fd19e";
const DRAW: &str = "#868e96";
const BLESSED: &str = "#f4a582";
const LOSS: &str = "#d6453d";

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn thousands(n: u64) -> String {
    morris_db::plan::thousands(n)
}

fn pct(a: u64, total: u64) -> f64 {
    100.0 * a as f64 / total.max(1) as f64
}

/// The segments of one key's bar: (label, count, colour).
fn segments(r: &KeyReport) -> Vec<(&'static str, u64, &'static str)> {
    match &r.rule {
        Some(q) => vec![
            ("wins", q.wins, WIN),
            ("cursed wins", q.cursed_wins, CURSED),
            ("draws", q.draws, DRAW),
            ("blessed losses", q.blessed_losses, BLESSED),
            ("losses", q.losses, LOSS),
        ],
        None => vec![
            ("wins", r.wins, WIN),
            ("draws", r.draws, DRAW),
            ("losses", r.losses, LOSS),
        ],
    }
}

/// Horizontal stacked bars, one per key: the share of each value among its classes.
fn values_chart(keys: &[Arc<KeyReport>]) -> String {
    let row = 18;
    let (left, width) = (90, 560);
    let h = 30 + row * keys.len();
    let mut s = format!(
        r#"<svg class="chart" role="img" aria-label="values per key" viewBox="0 0 {} {h}" width="{}" height="{h}">"#,
        left + width + 130,
        left + width + 130
    );
    for (i, r) in keys.iter().enumerate() {
        let y = 10 + i * row;
        let total = r.classes().max(1);
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end" class="lbl">{}</text>"#,
            left - 6,
            y + 12,
            esc(&r.key)
        );
        let mut x = left as f64;
        for (name, n, colour) in segments(r) {
            let w = width as f64 * n as f64 / total as f64;
            if w > 0.0 {
                let _ = write!(
                    s,
                    r#"<rect x="{x:.2}" y="{y}" width="{w:.2}" height="{}" fill="{colour}"><title>{}: {} {name} ({:.1}%)</title></rect>"#,
                    row - 4,
                    esc(&r.key),
                    thousands(n),
                    pct(n, total)
                );
            }
            x += w;
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="{}" class="lbl">{} classes</text>"#,
            left + width + 6,
            y + 12,
            thousands(r.classes())
        );
    }
    let y = 14 + row * keys.len();
    let mut x = left;
    let legend: Vec<(&str, &str)> = if keys.iter().any(|r| r.rule.is_some()) {
        vec![
            ("win", WIN),
            ("cursed win", CURSED),
            ("draw", DRAW),
            ("blessed loss", BLESSED),
            ("loss", LOSS),
        ]
    } else {
        vec![("win", WIN), ("draw", DRAW), ("loss", LOSS)]
    };
    for (name, colour) in legend {
        let _ = write!(
            s,
            r#"<rect x="{x}" y="{y}" width="12" height="12" fill="{colour}"/><text x="{}" y="{}" class="lbl">{name}</text>"#,
            x + 16,
            y + 11
        );
        x += 110;
    }
    s.push_str("</svg>");
    s
}

/// A histogram of distances: wins above the axis, losses below (or one series).
fn histogram(series: &[(&str, &[u64], &str)], width: usize, height: usize, axis: bool) -> String {
    let len = series.iter().map(|s| s.1.len()).max().unwrap_or(0).max(1);
    let max = series
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .max()
        .unwrap_or(0)
        .max(1);
    let (left, bottom) = if axis { (50, 22) } else { (0, 0) };
    let plot_w = width - left - if axis { 10 } else { 0 };
    let half = series.len() > 1;
    let plot_h = height - bottom - if axis { 8 } else { 0 };
    let base = if half { 4 + plot_h / 2 } else { 4 + plot_h };
    let scale = if half { plot_h / 2 } else { plot_h } as f64;
    let bw = plot_w as f64 / len as f64;
    let mut s = format!(
        r#"<svg class="hist" role="img" aria-label="distances" viewBox="0 0 {width} {height}" width="{width}" height="{height}">"#
    );
    for (k, (name, counts, colour)) in series.iter().enumerate() {
        for (d, &n) in counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let h = (scale * n as f64 / max as f64).max(1.0);
            let x = left as f64 + d as f64 * bw;
            let y = if k == 0 { base as f64 - h } else { base as f64 };
            let _ = write!(
                s,
                r#"<rect x="{x:.2}" y="{y:.2}" width="{:.2}" height="{h:.2}" fill="{colour}"><title>{} {name} in {d} plies</title></rect>"#,
                (bw - 0.5).max(0.5),
                thousands(n)
            );
        }
    }
    if axis {
        let _ = write!(
            s,
            r##"<line x1="{left}" y1="{base}" x2="{}" y2="{base}" stroke="#333"/>"##,
            left + plot_w
        );
        let step = [1, 2, 5, 10, 20, 25, 50, 100]
            .into_iter()
            .find(|&st| len / st <= 12)
            .unwrap_or(200);
        for d in (0..len).step_by(step) {
            let x = left as f64 + (d as f64 + 0.5) * bw;
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{}" text-anchor="middle" class="lbl">{d}</text>"#,
                height - 6
            );
        }
        let _ = write!(
            s,
            r#"<text x="{}" y="12" text-anchor="end" class="lbl">{}</text>"#,
            left - 4,
            thousands(max)
        );
        for (k, (name, _, colour)) in series.iter().enumerate() {
            let _ = write!(
                s,
                r#"<text x="{}" y="{}" class="lbl" fill="{colour}">{name}</text>"#,
                left + plot_w - 120,
                if k == 0 { 14 } else { height - bottom - 6 }
            );
        }
    }
    s.push_str("</svg>");
    s
}

/// A board diagram of a position, drawn from the engine's geometry.
pub fn board_svg(rules: &Rules, position: &str, size: usize) -> String {
    let board = rules.board();
    let Ok(pos) = Position::parse(position, rules) else {
        return String::new();
    };
    let (w, h) = (board.width() as usize, board.height() as usize);
    let step = size as f64 / (w.max(h) as f64);
    let at = |p: u8| {
        let (x, y) = board.coord(p);
        (
            step * (x as f64 + 0.5),
            step * ((h - 1 - y as usize) as f64 + 0.5),
        )
    };
    let mut s = format!(
        r#"<svg class="mini" viewBox="0 0 {:.0} {:.0}" width="{:.0}" height="{:.0}" role="img" aria-label="{}">"#,
        step * w as f64,
        step * h as f64,
        step * w as f64,
        step * h as f64,
        esc(position)
    );
    for p in 0..board.len() as u8 {
        for q in board.adjacent(p) {
            if q > p {
                let (a, b) = (at(p), at(q));
                let _ = write!(
                    s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#6b5a3a" stroke-width="1.5"/>"##,
                    a.0, a.1, b.0, b.1
                );
            }
        }
    }
    if !rules.stones_move() {
        for &l in board.lines() {
            let pts: Vec<u8> = l.collect();
            let (a, b) = (at(pts[0]), at(pts[pts.len() - 1]));
            let _ = write!(
                s,
                r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#6b5a3a" stroke-width="1"/>"##,
                a.0, a.1, b.0, b.1
            );
        }
    }
    for p in 0..board.len() as u8 {
        let (x, y) = at(p);
        let (r, fill, stroke) = match pos.color_at(p) {
            Some(Color::White) => (step * 0.32, "#fafafa", "#222"),
            Some(Color::Black) => (step * 0.32, "#222", "#000"),
            None => (step * 0.1, "#6b5a3a", "#6b5a3a"),
        };
        let _ = write!(
            s,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}"/>"#
        );
    }
    s.push_str("</svg>");
    s
}

/// `nine, 3 stones, flying; no-capture rule N = 8`.
pub fn describe(set: &RuleSet) -> String {
    let mut s = morris_db::format::describe_rules(&set.rules());
    if let Some(n) = set.moves_without_capture() {
        let _ = write!(s, "; no-capture rule with N = {n}");
    }
    s
}

/// The board URL of a position under a rule set.
pub fn board_link(set: &RuleSet, position: &str) -> String {
    let enc = |s: &str| {
        s.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => {
                    (b as char).to_string()
                }
                b' ' => "+".to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    format!(
        "/?game={}&flying={}&stones={}&moves_without_capture={}&position={}",
        set.game(),
        u8::from(set.flying()),
        set.stones(),
        set.moves_without_capture().unwrap_or(0),
        enc(position)
    )
}

const PAGE_STYLE: &str = r#"
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f6f3ec;color:#222}
header{background:#3b2f1e;color:#f6f3ec;padding:10px 24px;display:flex;gap:24px;align-items:baseline}
header a{color:#f3d9a4}
main{padding:16px 24px;max-width:1200px}
h2{margin-top:28px;border-bottom:1px solid #d8cfbd;padding-bottom:4px}
table{border-collapse:collapse;font-size:14px;background:#fff}
th,td{padding:4px 8px;border-bottom:1px solid #e6dfd0;text-align:right;vertical-align:middle}
th{background:#efe7d6;position:sticky;top:0}
td.l,th.l{text-align:left}
.lbl{font-size:11px;fill:#333}
.chart,.hist{background:#fff;border:1px solid #e6dfd0}
.mini{background:#e9d8b4;border-radius:4px}
.cards{display:flex;gap:16px;flex-wrap:wrap}
.card{background:#fff;border:1px solid #e6dfd0;padding:10px 16px;border-radius:6px}
.card b{font-size:22px;display:block}
.long{display:flex;gap:16px;flex-wrap:wrap}
.long figure{margin:0;background:#fff;border:1px solid #e6dfd0;padding:8px;border-radius:6px;text-align:center;font-size:13px}
code{font-size:12px}
"#;

/// The statistics as one HTML page. `served`: positions link to the board of the server.
pub fn render_page(set: &RuleSet, c: &Computed, served: Option<()>) -> String {
    let mut s = String::new();
    page_head(&mut s, set, c, served);
    if c.keys.iter().map(|r| r.classes()).sum::<u64>() > 0 {
        summary(&mut s, set, c);
        distances(&mut s, set, c);
        longest_wins(&mut s, set, c, served);
        key_table(&mut s, set, c, served);
    }
    skipped(&mut s, c);
    s.push_str("</main></body></html>\n");
    s
}

/// The document's head, the title bar, and what the page counts.
fn page_head(s: &mut String, set: &RuleSet, c: &Computed, served: Option<()>) {
    let title = format!("morris statistics: {}", describe(set));
    let _ = write!(
        s,
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><style>{PAGE_STYLE}</style></head><body>",
        esc(&title)
    );
    let _ = write!(
        s,
        "<header><h1 style=\"margin:0;font-size:20px\">{}</h1>{}</header><main>",
        esc(&title),
        if served.is_some() {
            "<a href=\"/\">board</a>"
        } else {
            ""
        }
    );
    let _ = write!(s, "<p>Database <code>{}</code>. Values are from the side to move, one per symmetry class (holes of the index skipped); distances in plies under perfect play.</p>", esc(&c.dir));
    if c.keys.is_empty() {
        s.push_str("<p><b>No key of this rule set is on disk.</b> Build it with <code>morris solve</code>.</p>");
    }
}

/// The cards of the totals, and the values per key.
fn summary(s: &mut String, set: &RuleSet, c: &Computed) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    for r in &c.keys {
        let seg = segments(r);
        w += seg[0].1;
        l += seg[seg.len() - 1].1;
        d += seg[1..seg.len() - 1].iter().map(|x| x.1).sum::<u64>();
    }
    let total = w + d + l;
    let longest = c
        .keys
        .iter()
        .filter_map(|r| r.longest_win.as_ref().map(|x| x.plies))
        .max();
    let rule_word = if set.moves_without_capture().is_some() {
        " (under the rule, at counter 0)"
    } else {
        ""
    };
    let _ = write!(
        s,
        "<div class=\"cards\"><div class=\"card\"><b>{}</b>classes in {} keys</div>\
         <div class=\"card\"><b style=\"color:{WIN}\">{:.2}%</b>wins for the side to move{rule_word}</div>\
         <div class=\"card\"><b style=\"color:{DRAW}\">{:.2}%</b>draws{rule_word}</div>\
         <div class=\"card\"><b style=\"color:{LOSS}\">{:.2}%</b>losses{rule_word}</div>\
         <div class=\"card\"><b>{}</b>plies: the longest win</div></div>",
        thousands(total),
        c.keys.len(),
        pct(w, total),
        pct(d, total),
        pct(l, total),
        longest.map_or("-".to_string(), |p| p.to_string())
    );
    s.push_str("<h2>Values per key</h2>");
    s.push_str(&values_chart(&c.keys));
}

/// The distances over every key shown: to the end, and under the rule to zeroing.
fn distances(s: &mut String, set: &RuleSet, c: &Computed) {
    let (mut win, mut loss, mut dtz) = (Vec::new(), Vec::new(), Vec::new());
    for r in &c.keys {
        add_counts(&mut win, &r.win_plies);
        add_counts(&mut loss, &r.loss_plies);
        if let Some(q) = &r.rule {
            add_counts(&mut dtz, &q.dtz);
        }
    }
    s.push_str("<h2>Distances to the end of the game</h2><p>Classes by the number of plies to the end under perfect play, over every key shown: wins for the side to move above the axis, losses below.</p>");
    s.push_str(&histogram(
        &[("wins", &win, WIN), ("losses", &loss, LOSS)],
        900,
        260,
        true,
    ));
    if set.moves_without_capture().is_some() && !dtz.is_empty() {
        s.push_str("<h2>Distances to zeroing under the rule</h2><p>Wins and losses the no-capture rule keeps, by the plies to the zeroing ply (capture, placement or blocking move) that settles them.</p>");
        s.push_str(&histogram(&[("dtz", &dtz, "#1971c2")], 900, 200, true));
    }
}

/// The twelve longest wins, one per key, drawn.
fn longest_wins(s: &mut String, set: &RuleSet, c: &Computed, served: Option<()>) {
    let mut longest: Vec<(&KeyReport, &LongestPosition)> = c
        .keys
        .iter()
        .filter_map(|r| r.longest_win.as_ref().map(|x| (&**r, x)))
        .collect();
    longest.sort_by(|a, b| b.1.plies.cmp(&a.1.plies).then(a.0.key.cmp(&b.0.key)));
    s.push_str("<h2>Longest wins</h2><p>Per key, the position won in the most plies (the first of them in index order)");
    s.push_str(if served.is_some() {
        "; click one to study it on the board.</p>"
    } else {
        ".</p>"
    });
    s.push_str("<div class=\"long\">");
    for (r, x) in longest.iter().take(12) {
        let fig = format!(
            "{}<figcaption>{} &middot; win in {}<br><code>{}</code></figcaption>",
            board_svg(&set.rules(), &x.position, 150),
            esc(&r.key),
            x.plies,
            esc(&x.position)
        );
        match served {
            Some(()) => {
                let _ = write!(
                    s,
                    "<a class=\"pos\" href=\"{}\"><figure>{fig}</figure></a>",
                    esc(&board_link(set, &x.position))
                );
            }
            None => {
                let _ = write!(s, "<figure>{fig}</figure>");
            }
        }
    }
    s.push_str("</div>");
}

/// A row a key: its counts, its longest win and loss, its distances.
fn key_table(s: &mut String, set: &RuleSet, c: &Computed, served: Option<()>) {
    s.push_str("<h2>Per key</h2><table><tr><th class=\"l\">key</th><th>slots</th><th>classes</th>");
    if set.moves_without_capture().is_some() {
        s.push_str("<th>wins</th><th>cursed wins</th><th>draws</th><th>blessed losses</th><th>losses</th><th>max dtz</th>");
    } else {
        s.push_str("<th>wins</th><th>draws</th><th>losses</th><th>win %</th>");
    }
    s.push_str("<th>longest win</th><th>longest loss</th><th class=\"l\">distances</th></tr>");
    for r in &c.keys {
        let _ = write!(
            s,
            "<tr><td class=\"l\">{}</td><td>{}</td><td>{}</td>",
            esc(&r.key),
            thousands(r.slots),
            thousands(r.classes())
        );
        match &r.rule {
            Some(q) => {
                let _ = write!(
                    s,
                    "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                    thousands(q.wins),
                    thousands(q.cursed_wins),
                    thousands(q.draws),
                    thousands(q.blessed_losses),
                    thousands(q.losses),
                    q.max_dtz.map_or("-".to_string(), |d| d.to_string())
                );
            }
            None => {
                let _ = write!(
                    s,
                    "<td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td>",
                    thousands(r.wins),
                    thousands(r.draws),
                    thousands(r.losses),
                    pct(r.wins, r.classes())
                );
            }
        }
        for x in [&r.longest_win, &r.longest_loss] {
            match (x, served) {
                (None, _) => s.push_str("<td>-</td>"),
                (Some(x), Some(())) => {
                    let _ = write!(
                        s,
                        "<td><a href=\"{}\" title=\"{}\">{}</a></td>",
                        esc(&board_link(set, &x.position)),
                        esc(&x.position),
                        x.plies
                    );
                }
                (Some(x), None) => {
                    let _ = write!(s, "<td title=\"{}\">{}</td>", esc(&x.position), x.plies);
                }
            }
        }
        let _ = write!(
            s,
            "<td class=\"l\">{}</td></tr>",
            histogram(
                &[("wins", &r.win_plies, WIN), ("losses", &r.loss_plies, LOSS)],
                160,
                30,
                false
            )
        );
    }
    s.push_str("</table>");
}

/// The keys of the plan not shown, with why.
fn skipped(s: &mut String, c: &Computed) {
    if c.skipped.is_empty() {
        return;
    }
    s.push_str("<h2>Keys not shown</h2><table><tr><th class=\"l\">key</th><th>slots</th><th class=\"l\">why</th></tr>");
    for (k, n, why) in &c.skipped {
        let _ = write!(
            s,
            "<tr><td class=\"l\">{k}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            thousands(*n),
            esc(why)
        );
    }
    s.push_str("</table>");
}
