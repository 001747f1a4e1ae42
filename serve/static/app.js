// The morris board. It knows no rules: every answer of the API lists the legal moves with the
// position each leads to, so playing a move is taking its `position`, and the engine's one
// move generator stays the only one.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
let STEP = 80; // user units between grid points: the board spans the same width whatever its grid
/** A size proportional to the grid step, capped so that a 3x3 board keeps 7x7-sized stones. */
const R = (k) => Math.min(STEP, 80) * k;
const $ = (id) => document.getElementById(id);

const S = {
  games: null,     // /api/games
  game: null,      // the current game's geometry
  rules: { game: "nine", flying: true, stones: 9, nc: 0, turns: null },
  pos: "startpos",
  counter: 0,
  history: [],     // {before: {pos, counter, turns}, move, text, cls, slip}
  redo: [],
  answer: null,    // the last /api/query or /api/moves answer
  valued: false,   // the moves carry values
  selected: null,  // a point whose stone is picked up
  pending: null,   // moves that differ only by their capture, waiting for the choice
  hint: true,
  computer: "none",
  player: "ultra",
  edit: null,      // {white:Set, black:Set, wh, bh, side} while editing
  seq: 0,          // answers to older requests are dropped
  timer: null,
};

// ---- the API -------------------------------------------------------------------------------

function ruleParams() {
  const p = new URLSearchParams();
  p.set("game", S.rules.game);
  p.set("flying", S.rules.flying ? "1" : "0");
  p.set("stones", String(S.rules.stones));
  p.set("moves_without_capture", String(S.rules.nc || 0));
  return p;
}

async function api(path, params) {
  const r = await fetch(path + "?" + params.toString());
  let body;
  try { body = await r.json(); } catch (e) { body = { error: "bad answer: " + r.status }; }
  return { ok: r.ok, status: r.status, body };
}

// ---- values --------------------------------------------------------------------------------

/** The colour class of a value: the category where the rule turns a win or loss into a draw. */
function cls(m) {
  if (m.category === "cursed-win" || m.category === "blessed-loss") return m.category;
  return m.value || "plain";
}

function describe(m) {
  if (!m.value) return "";
  if (m.value === "draw") return m.category && m.category !== "draw" ? `draw (${m.category})` : "draw";
  if (S.rules.nc && m.dtz != null) return `${m.value}, ${m.dtz} to zeroing`;
  return m.plies != null ? `${m.value} in ${m.plies}` : m.value;
}

function shortLabel(m) {
  if (!m.value) return "";
  if (m.value === "draw") return "=";
  const d = S.rules.nc ? m.dtz : m.plies;
  return d == null ? (m.value === "win" ? "+" : "−") : String(d);
}

const RANK = { win: 0, draw: 1, loss: 2 };
/** Best first, as the API sorts: the first of a list is its best. */
function better(a, b) { return a && (!b || S.answer.moves.indexOf(a) < S.answer.moves.indexOf(b)); }

// ---- the URL -------------------------------------------------------------------------------

function readUrl() {
  const q = new URLSearchParams(location.search);
  const d = S.games.default;
  S.rules.game = q.get("game") || d.game;
  const g = S.games.games.find((x) => x.name === S.rules.game) || S.games.games[0];
  S.rules.game = g.name;
  const same = g.name === d.game;
  S.rules.flying = q.has("flying") ? q.get("flying") === "1" : (same ? d.flying : g.flying);
  S.rules.stones = q.has("stones") ? parseInt(q.get("stones"), 10) || g.stones : (same ? d.stones : g.stones);
  S.rules.nc = q.has("moves_without_capture") ? parseInt(q.get("moves_without_capture"), 10) || 0 : (same ? d.moves_without_capture || 0 : 0);
  S.rules.turns = q.get("turns_left") ? parseInt(q.get("turns_left"), 10) : null;
  S.counter = parseInt(q.get("counter") || "0", 10) || 0;
  S.pos = q.get("position") || "startpos";
  S.hint = q.get("hint") !== "0";
  S.computer = q.get("computer") || "none";
  S.player = q.get("player") || "ultra";
}

function writeUrl() {
  const p = ruleParams();
  if (S.rules.turns != null) p.set("turns_left", String(S.rules.turns));
  if (S.rules.nc) p.set("counter", String(S.counter));
  p.set("position", S.pos);
  if (!S.hint) p.set("hint", "0");
  if (S.computer !== "none") p.set("computer", S.computer);
  if (S.player !== "ultra") p.set("player", S.player);
  history.replaceState(null, "", "?" + p.toString());
  $("stats-link").href = "/stats?" + ruleParams().toString();
}

// ---- loading a position --------------------------------------------------------------------

async function load() {
  const seq = ++S.seq;
  document.body.dataset.busy = "1";
  clearTimeout(S.timer);
  S.selected = null; S.pending = null;
  writeUrl();
  const p = ruleParams();
  p.set("position", S.pos);
  if (S.rules.turns != null) p.set("turns_left", String(S.rules.turns));
  if (S.rules.nc) p.set("counter", String(S.counter));
  let r = await api("/api/query", p);
  if (seq !== S.seq) return;
  let error = null;
  if (!r.ok) {
    error = r.body;
    // Without values the board still plays: the legal moves need no table.
    const m = await api("/api/moves", p);
    if (seq !== S.seq) return;
    if (!m.ok) { showError(m.body); S.answer = null; render(); document.body.dataset.busy = "0"; return; }
    r = m;
  }
  S.answer = r.body;
  S.valued = r.body.value !== undefined;
  S.pos = r.body.position;
  writeUrl();
  showError(error);
  render();
  document.body.dataset.busy = "0";
  maybeComputer();
}

function showError(e) {
  const box = $("error");
  if (!e) { box.hidden = true; box.textContent = ""; return; }
  box.hidden = false;
  box.textContent = e.error || String(e);
  if (e.build) {
    const c = document.createElement("code");
    c.textContent = e.build;
    box.appendChild(document.createTextNode(" Build the tables with:"));
    box.appendChild(c);
  }
}

// ---- playing -------------------------------------------------------------------------------

function ruleDraw() { return S.rules.nc && S.counter >= S.rules.nc; }
function turnsOut() { return S.rules.turns != null && S.rules.turns <= 0; }
function finished() { return !S.answer || S.answer.over || ruleDraw() || turnsOut() || !S.answer.moves.length; }

function play(m) {
  if (!m || S.edit) return;
  const before = { pos: S.pos, counter: S.counter, turns: S.rules.turns };
  const best = S.answer.moves[0];
  const slip = S.valued && best && RANK[m.value] > RANK[best.value];
  S.history.push({ before, move: m.move, text: describe(m), cls: cls(m), slip });
  S.redo = [];
  const zeroing = m.zeroing != null ? m.zeroing : (m.from == null || m.capture != null);
  S.counter = zeroing ? 0 : S.counter + 1;
  if (S.rules.turns != null) S.rules.turns = Math.max(0, S.rules.turns - 1);
  S.pos = m.position;
  syncControls();
  load();
}

function undo() {
  const h = S.history.pop();
  if (!h) return;
  S.redo.push({ h, after: { pos: S.pos, counter: S.counter, turns: S.rules.turns } });
  restore(h.before);
}

function redo() {
  const r = S.redo.pop();
  if (!r) return;
  S.history.push(r.h);
  restore(r.after);
}

function restore(st) {
  S.pos = st.pos; S.counter = st.counter; S.rules.turns = st.turns;
  syncControls();
  load();
}

/** The computer moves when it is its turn: the move its player picks (/api/choose, the
 *  library's choice among the best moves, or a level's), seeded by the ply so that a game
 *  replays. */
function maybeComputer() {
  if (!S.answer || !S.valued || finished() || S.edit) return;
  const side = S.answer.side;
  if (S.computer === "both" || S.computer === side) {
    const seq = S.seq;
    S.timer = setTimeout(async () => {
      if (seq !== S.seq) return;
      const p = ruleParams();
      p.set("position", S.pos);
      if (S.rules.nc) p.set("counter", String(S.counter));
      if (S.rules.turns != null) p.set("turns_left", String(S.rules.turns));
      p.set("player", S.player);
      p.set("seed", String(S.history.length));
      const r = await api("/api/choose", p);
      if (seq !== S.seq) return;
      if (!r.ok) { showError(r.body); return; }
      play(S.answer.moves.find((m) => m.move === r.body.move));
    }, 450);
  }
}

function bestMove() { if (S.answer && S.answer.moves.length && !finished()) play(S.answer.moves[0]); }

// ---- clicks on the board -------------------------------------------------------------------

function movesWhere(f) { return S.answer && !finished() ? S.answer.moves.filter(f) : []; }

function choose(list) {
  if (list.length === 1) play(list[0]);
  else if (list.length > 1) { S.pending = list; render(); }
}

function clickPoint(name) {
  if (S.edit) { editPoint(name); return; }
  if (!S.answer || finished()) return;
  if (S.pending) {
    const m = S.pending.find((x) => x.capture === name);
    S.pending = null;
    if (m) { play(m); return; }
    render();
    return;
  }
  if (S.selected) {
    const to = movesWhere((m) => m.from === S.selected && m.to === name);
    if (to.length) { S.selected = null; choose(to); return; }
  }
  const place = movesWhere((m) => m.from == null && m.to === name);
  if (place.length) { S.selected = null; choose(place); return; }
  const from = movesWhere((m) => m.from === name);
  S.selected = from.length && S.selected !== name ? name : null;
  render();
}

// ---- drawing -------------------------------------------------------------------------------

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function xy(name) {
  const p = S.pointMap[name];
  return [STEP * (p.x + 0.5) + 20, STEP * (S.game.height - 1 - p.y + 0.5)];
}

/** The stones of a position in notation: {white: Set, black: Set, hands, side}. */
function parsePos(text) {
  const f = text.trim().split(/\s+/);
  const list = (s) => new Set(s.slice(2) ? s.slice(2).split(",") : []);
  return {
    white: list(f[0]), black: list(f[1]), side: f[2],
    wh: parseInt(f[3] || "0", 10), bh: parseInt(f[4] || "0", 10),
  };
}

function render() {
  const svg = $("board");
  const g = S.game;
  svg.textContent = "";
  const W = STEP * g.width + 20, H = STEP * g.height + 24;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const pos = S.edit ? S.edit : parsePos(S.answer ? S.answer.position : "W: B: w 0 0");
  // The drawing: neighbour links, and the lines where stones never move (tic-tac-toe).
  const segs = g.stones_move ? g.links : g.lines.map((l) => [l[0], l[2]]);
  for (const [a, b] of segs) {
    const [x1, y1] = xy(a), [x2, y2] = xy(b);
    el("line", { x1, y1, x2, y2, class: "link" }, svg);
  }
  // Coordinates along the bottom and the left.
  for (let x = 0; x < g.width; x++) {
    const t = el("text", { x: STEP * (x + 0.5) + 20, y: H - 6, "text-anchor": "middle", class: "coord" }, svg);
    t.textContent = String.fromCharCode(97 + x);
  }
  for (let y = 0; y < g.height; y++) {
    const t = el("text", { x: 8, y: STEP * (g.height - 1 - y + 0.5) + 5, "text-anchor": "middle", class: "coord" }, svg);
    t.textContent = String(y + 1);
  }
  const hint = S.hint && S.valued && !S.edit;
  const marks = hint || !S.valued ? targets() : new Map();
  const rings = hint || !S.valued ? sources() : new Map();
  const last = S.history.length && !S.edit ? S.history[S.history.length - 1] : null;
  for (const pt of g.points) {
    const [x, y] = xy(pt.name);
    el("circle", { cx: x, cy: y, r: R(0.09), class: "pt" }, svg);
    const colour = pos.white.has(pt.name) ? "w" : pos.black.has(pt.name) ? "b" : null;
    if (colour) {
      const c = el("circle", { cx: x, cy: y, r: R(0.34), class: `stone stone-${colour}`, "data-stone": colour }, svg);
      if (S.selected === pt.name) c.classList.add("sel");
      if (S.pending && S.pending.some((m) => m.capture === pt.name)) c.classList.add("cap");
    }
    const mark = marks.get(pt.name);
    if (mark && !colour) {
      el("circle", { cx: x, cy: y, r: R(0.22), class: "mark " + cls(mark) }, svg);
      const t = el("text", { x, y: y + 5, "text-anchor": "middle", class: "mark-label" }, svg);
      t.textContent = S.valued ? shortLabel(mark) : "";
    } else if (mark && colour) {
      el("circle", { cx: x, cy: y, r: R(0.42), class: "ring " + cls(mark) }, svg);
      const t = el("text", { x, y: y + 5, "text-anchor": "middle", class: "mark-label", style: colour === "w" ? "fill:#222" : "" }, svg);
      t.textContent = S.valued ? shortLabel(mark) : "";
    }
    const ring = rings.get(pt.name);
    if (ring && colour && !mark) {
      el("circle", { cx: x, cy: y, r: R(0.42), class: "ring " + cls(ring) }, svg);
      // A badge with the best distance from this stone.
      const bx = x + R(0.32), by = y - R(0.32);
      el("circle", { cx: bx, cy: by, r: R(0.17), class: "mark " + cls(ring) }, svg);
      const t = el("text", { x: bx, y: by + 5, "text-anchor": "middle", class: "mark-label" }, svg);
      t.textContent = S.valued ? shortLabel(ring) : "";
    }
    if (last && lastPoints(last).includes(pt.name)) el("circle", { cx: x, cy: y, r: R(0.47), class: "last" }, svg);
    const hit = el("circle", {
      cx: x, cy: y, r: STEP * 0.45, class: "hit", tabindex: "0", role: "button",
      "data-point": pt.name, "aria-label": pt.name + (colour ? (colour === "w" ? " white" : " black") : " empty"),
    }, svg);
    hit.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickPoint(pt.name); focusPoint(pt.name); }
    });
  }
  renderPanel(pos);
}

function lastPoints(h) {
  return h.move.split(/[-x]/);
}

function focusPoint(name) {
  const e = document.querySelector(`[data-point="${name}"]`);
  if (e) e.focus();
}

/** Where a click lands a stone now: placements, or the selected stone's targets, or the
 *  stones a pending move may capture; each with its best move. */
function targets() {
  const out = new Map();
  if (!S.answer || finished()) return out;
  let list;
  if (S.pending) {
    for (const m of S.pending) if (better(m, out.get(m.capture))) out.set(m.capture, m);
    return out;
  }
  if (S.selected) list = S.answer.moves.filter((m) => m.from === S.selected);
  else list = S.answer.moves.filter((m) => m.from == null);
  for (const m of list) if (better(m, out.get(m.to))) out.set(m.to, m);
  return out;
}

/** The stones that can move, each with its best move (when none is selected). */
function sources() {
  const out = new Map();
  if (!S.answer || finished() || S.selected || S.pending) return out;
  for (const m of S.answer.moves) if (m.from && better(m, out.get(m.from))) out.set(m.from, m);
  return out;
}

function renderPanel(pos) {
  const a = S.answer;
  // Status.
  const st = $("status");
  st.textContent = "";
  const side = a ? (a.side === "white" ? "White" : "Black") : "";
  let text = "", vcls = "", extra = "";
  if (S.edit) text = "Editing the position";
  else if (!a) text = "No position";
  else if (a.over) text = a.over.winner ? `Game over: ${a.over.winner === "white" ? "White" : "Black"} wins (${a.over.reason})` : `Game over: draw (${a.over.reason})`;
  else if (ruleDraw()) text = `Drawn: ${S.rules.nc} plies without a capture or placement`;
  else if (turnsOut()) text = "Drawn: no turns left";
  else if (S.valued) {
    text = `${side} to move: `;
    vcls = "v-" + a.value;
    extra = describe(a);
    if (S.rules.nc && a.plies != null) extra += `; ${a.plies} plies without the rule`;
  } else text = `${side} to move (no table for this position)`;
  st.appendChild(document.createTextNode(text));
  if (extra) { const s = document.createElement("span"); s.className = vcls; s.textContent = extra; st.appendChild(s); }
  if (S.rules.nc && !S.edit) { const s = document.createElement("small"); s.textContent = `  counter ${S.counter} of ${S.rules.nc}`; st.appendChild(s); }
  if (S.rules.turns != null && !S.edit) { const s = document.createElement("small"); s.textContent = `  ${S.rules.turns} turns left`; st.appendChild(s); }
  st.dataset.value = a && S.valued && !S.edit ? a.value : "";
  st.dataset.plies = a && S.valued && a.plies != null ? a.plies : "";
  // Hands.
  const hands = $("hands");
  hands.textContent = "";
  for (const [name, n, c] of [["White", pos.wh, "w"], ["Black", pos.bh, "b"]]) {
    const d = document.createElement("div");
    d.className = "hand";
    d.appendChild(document.createTextNode(`${name} in hand: ${n} `));
    for (let i = 0; i < Math.min(n, 12); i++) { const s = document.createElement("span"); s.className = "stone " + c; d.appendChild(s); }
    hands.appendChild(d);
  }
  // Moves.
  const tb = $("moves").tBodies[0];
  tb.textContent = "";
  const moves = a && !finished() && !S.edit ? a.moves : [];
  $("move-count").textContent = a && !S.edit ? `(${moves.length})` : "";
  for (const m of moves) {
    const tr = document.createElement("tr");
    tr.tabIndex = 0;
    tr.dataset.move = m.move;
    tr.dataset.value = m.value || "";
    tr.dataset.plies = m.plies == null ? "" : m.plies;
    const cells = [
      ["mv", m.move],
      ["val v-" + cls(m), m.value ? (m.category && m.category !== m.value ? `${m.value} (${m.category})` : m.value) : "—"],
      ["pl", m.plies == null ? "" : m.plies],
      ["rule-col", m.dtz == null ? "" : m.dtz + (m.zeroing ? " z" : "")],
    ];
    for (const [c, t] of cells) { const td = document.createElement("td"); td.className = c; td.textContent = t; tr.appendChild(td); }
    tr.addEventListener("click", () => play(m));
    tr.addEventListener("keydown", (e) => { if (e.key === "Enter") play(m); });
    tb.appendChild(tr);
  }
  // History.
  const ol = $("history");
  ol.textContent = "";
  S.history.forEach((h, i) => {
    const li = document.createElement("li");
    li.dataset.index = i;
    const mv = document.createElement("span");
    mv.textContent = h.move.padEnd(10, " ");
    li.appendChild(mv);
    const v = document.createElement("span");
    v.className = "v-" + h.cls;
    v.textContent = h.text;
    li.appendChild(v);
    if (h.slip) { const s = document.createElement("span"); s.className = "slip"; s.textContent = " ?"; s.title = "this move gave away value"; li.appendChild(s); }
    li.addEventListener("click", () => backTo(i + 1));
    ol.appendChild(li);
  });
  if (ol.lastChild) { ol.lastChild.classList.add("current"); ol.scrollTop = ol.scrollHeight; }
  $("undo").disabled = !S.history.length;
  $("redo").disabled = !S.redo.length;
  $("best").disabled = !S.valued || finished() || !!S.edit;
  if (document.activeElement !== $("position")) $("position").value = S.edit ? editText() : (a ? a.position : S.pos);
  document.body.classList.toggle("rule", !!S.rules.nc);
  document.body.classList.toggle("nohint", !S.hint);
}

/** Back to the position after `n` plies of the history (the later ones go to redo). */
function backTo(n) {
  if (n >= S.history.length) return;
  let after = { pos: S.pos, counter: S.counter, turns: S.rules.turns };
  while (S.history.length > n) {
    const h = S.history.pop();
    S.redo.push({ h, after });
    after = h.before;
  }
  restore(after);
}

// ---- dragging ------------------------------------------------------------------------------

let drag = null;

function svgPoint(e) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function nearest(p) {
  let best = null, dist = STEP * 0.45;
  for (const pt of S.game.points) {
    const [x, y] = xy(pt.name);
    const d = Math.hypot(x - p.x, y - p.y);
    if (d < dist) { dist = d; best = pt.name; }
  }
  return best;
}

function onDown(e) {
  const name = nearest(svgPoint(e));
  if (!name) return;
  e.preventDefault();
  const movable = !S.edit && !S.pending && movesWhere((m) => m.from === name).length;
  if (!movable) { drag = { name, moved: false, ghost: null }; return; }
  const was = S.selected === name;
  S.selected = name; render();
  const [x, y] = xy(name);
  const colour = S.answer.side === "white" ? "w" : "b";
  const ghost = el("circle", { cx: x, cy: y, r: R(0.34), class: `stone stone-${colour} ghost` }, $("board"));
  drag = { name, moved: false, ghost, was };
}

function onMove(e) {
  if (!drag || !drag.ghost) return;
  const p = svgPoint(e);
  drag.moved = true;
  drag.ghost.setAttribute("cx", p.x); drag.ghost.setAttribute("cy", p.y);
}

function onUp(e) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.ghost) d.ghost.remove();
  const name = nearest(svgPoint(e));
  if (!d.moved || !d.ghost) {
    if (d.ghost) S.selected = d.was ? d.name : null;
    if (name === d.name) clickPoint(name);
    return;
  }
  if (name && name !== d.name) clickPoint(name); else { S.selected = null; render(); }
}

// ---- the editor ----------------------------------------------------------------------------

function editText() {
  const e = S.edit;
  const order = S.game.points.map((p) => p.name);
  const list = (set) => order.filter((n) => set.has(n)).join(",");
  return `W:${list(e.white)} B:${list(e.black)} ${e.side} ${e.wh} ${e.bh}`;
}

function startEdit() {
  if (S.edit) { finishEdit(); return; }
  clearTimeout(S.timer);
  const p = parsePos(S.answer ? S.answer.position : "W: B: w 0 0");
  S.edit = p;
  $("editor").hidden = false;
  $("wh").value = p.wh; $("bh").value = p.bh;
  $(p.side === "b" ? "side-b" : "side-w").checked = true;
  $("edit").textContent = "done editing";
  render();
}

function editPoint(name) {
  const e = S.edit;
  if (e.white.has(name)) { e.white.delete(name); e.black.add(name); }
  else if (e.black.has(name)) e.black.delete(name);
  else e.white.add(name);
  render();
}

function finishEdit() {
  const e = S.edit;
  e.wh = parseInt($("wh").value, 10) || 0;
  e.bh = parseInt($("bh").value, 10) || 0;
  e.side = $("side-b").checked ? "b" : "w";
  S.pos = editText();
  S.edit = null;
  $("editor").hidden = true;
  $("edit").textContent = "edit position";
  S.history = []; S.redo = []; S.counter = 0;
  load();
}

// ---- analysing a game ------------------------------------------------------------------------

/** The moves played on the board and where they started, into the analysis form. */
function boardGame() {
  const first = S.history.length ? S.history[0].before : { pos: S.pos, counter: S.counter };
  $("analyse-from").value = first.pos;
  $("analyse-from").dataset.counter = String(first.counter || 0);
  $("analyse-moves").value = S.history.map((h) => h.move).join(" ");
  analyse();
}

/** The server judges the game (/api/analyze) and draws its chart (format=svg). */
async function analyse() {
  const p = ruleParams();
  p.set("position", $("analyse-from").value.trim() || "startpos");
  if (S.rules.nc) p.set("counter", $("analyse-from").dataset.counter || "0");
  p.set("moves", $("analyse-moves").value);
  const chart = new URLSearchParams(p);
  chart.set("format", "svg");
  const [r, svg] = await Promise.all([api("/api/analyze", p), fetch("/api/analyze?" + chart.toString())]);
  const box = $("analysis-error");
  box.hidden = r.ok;
  box.textContent = r.ok ? "" : r.body.error;
  $("analysis-chart").innerHTML = r.ok && svg.ok ? await svg.text() : "";
  renderAnalysis(r.ok ? r.body : null);
}

function renderAnalysis(a) {
  const tb = $("analysis").tBodies[0];
  tb.textContent = "";
  $("analysis-box").hidden = !a;
  $("analysis-summary").textContent = "";
  if (!a) return;
  for (const p of a.plies) {
    const tr = document.createElement("tr");
    tr.dataset.ply = p.ply;
    tr.dataset.drop = p.drop;
    if (p.drop !== "none") tr.className = "blunder";
    const verdict = p.missed ? `${p.drop}; best ${p.missed.move}, ${describe(p.missed)}` : p.best ? "best" : "";
    const cells = [
      ["ply", `${p.ply}. ${p.side}`],
      ["mv", p.move],
      ["val v-" + cls(p.after), `${describe(p.before)} → ${describe(p.after)}`],
      ["verdict", verdict],
    ];
    for (const [c, t] of cells) { const td = document.createElement("td"); td.className = c; td.textContent = t; tr.appendChild(td); }
    // The position the move was played from, on the board, to look at what was missed.
    tr.addEventListener("click", () => {
      S.pos = p.position; S.counter = p.counter || 0; S.history = []; S.redo = [];
      load();
    });
    tb.appendChild(tr);
  }
  const count = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const side = (name, s) => `${name}: ${count(s.moves, "move")}, ${s.best} best, ${count(s.win_to_draw + s.win_to_loss + s.draw_to_loss, "blunder")}`;
  const end = a.end ? `Game over after ply ${a.end.ply}: ${a.end.winner ? a.end.winner + " wins" : "draw"} (${a.end.reason}). ` : "";
  $("analysis-summary").textContent = end + side("White", a.summary.white) + "; " + side("Black", a.summary.black) + ".";
}

function wireAnalysis() {
  $("analyse").addEventListener("click", analyse);
  $("analyse-board").addEventListener("click", boardGame);
  $("analyse-from").addEventListener("input", () => { delete $("analyse-from").dataset.counter; });
  // Typing a game is not a keyboard shortcut of the board.
  $("analyse-moves").addEventListener("keydown", (e) => e.stopPropagation());
}

// ---- controls ------------------------------------------------------------------------------

function syncControls() {
  $("game").value = S.rules.game;
  $("stones").value = S.rules.stones;
  $("stones").max = S.game.max_stones;
  $("flying").checked = S.rules.flying;
  $("turns").value = S.rules.turns == null ? "" : S.rules.turns;
  $("nc").value = S.rules.nc ? S.rules.nc : "";
  $("hint").checked = S.hint;
  $("computer").value = S.computer;
  $("player").value = S.player;
  $("turns").disabled = !!S.rules.nc;
  $("nc").disabled = S.rules.turns != null;
}

function setGame(name) {
  S.game = S.games.games.find((g) => g.name === name);
  STEP = 560 / Math.max(S.game.width, S.game.height);
  S.pointMap = {};
  for (const p of S.game.points) S.pointMap[p.name] = p;
}

function newGame() {
  S.history = []; S.redo = []; S.counter = 0;
  S.pos = "startpos";
  load();
}

function showTables() {
  const t = S.games.tables.map((x) => `${x.game} ${x.stones} stones${x.flying ? "" : " no flying"}${x.moves_without_capture ? ", no-capture " + x.moves_without_capture : ""} (${x.files} files)`);
  $("tables").textContent = t.length ? "Tables in this database: " + t.join("; ") + "." : "This database directory holds no tables yet.";
}

function wire() {
  const sel = $("game");
  for (const g of S.games.games) { const o = document.createElement("option"); o.value = g.name; o.textContent = g.name; sel.appendChild(o); }
  sel.addEventListener("change", () => {
    setGame(sel.value);
    S.rules = { game: S.game.name, flying: S.game.flying, stones: S.game.stones, nc: 0, turns: null };
    const t = S.games.tables.find((x) => x.game === S.game.name);
    if (t) { S.rules.flying = t.flying; S.rules.stones = t.stones; }
    syncControls(); newGame();
  });
  $("stones").addEventListener("change", () => { S.rules.stones = parseInt($("stones").value, 10) || S.game.stones; newGame(); });
  $("flying").addEventListener("change", () => { S.rules.flying = $("flying").checked; load(); });
  $("turns").addEventListener("change", () => { const v = $("turns").value; S.rules.turns = v === "" ? null : Math.max(0, parseInt(v, 10) || 0); syncControls(); load(); });
  $("nc").addEventListener("change", () => { S.rules.nc = Math.max(0, parseInt($("nc").value, 10) || 0); S.counter = 0; syncControls(); load(); });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("best").addEventListener("click", bestMove);
  $("hint").addEventListener("change", () => { S.hint = $("hint").checked; writeUrl(); render(); });
  $("computer").addEventListener("change", () => { S.computer = $("computer").value; writeUrl(); maybeComputer(); });
  $("player").addEventListener("change", () => { S.player = $("player").value; writeUrl(); maybeComputer(); });
  $("go").addEventListener("click", () => { S.pos = $("position").value.trim() || "startpos"; S.history = []; S.redo = []; S.counter = 0; load(); });
  $("position").addEventListener("keydown", (e) => { if (e.key === "Enter") $("go").click(); });
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("copy").textContent = "copied"; }
    catch (e) { prompt("Link to this position:", location.href); }
    setTimeout(() => { $("copy").textContent = "link"; }, 1200);
  });
  $("edit").addEventListener("click", startEdit);
  $("done").addEventListener("click", finishEdit);
  $("clear").addEventListener("click", () => { if (S.edit) { S.edit.white.clear(); S.edit.black.clear(); render(); } });
  $("start").addEventListener("click", newGame);
  $("move-input").addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    const text = $("move-input").value.trim();
    const m = S.answer && !finished() && S.answer.moves.find((x) => x.move === text);
    if (m) { $("move-input").value = ""; play(m); }
    else showError({ error: `\`${text}\` is not a legal move here` + (S.answer && S.answer.moves.length ? ` (legal: ${S.answer.moves.map((x) => x.move).join(", ")})` : "") });
  });
  const svg = $("board");
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT")) return;
    if (e.key === "u" || e.key === "ArrowLeft" || (e.key === "z" && (e.ctrlKey || e.metaKey))) { e.preventDefault(); undo(); }
    else if (e.key === "r" || e.key === "ArrowRight") { e.preventDefault(); redo(); }
    else if (e.key === "b") bestMove();
    else if (e.key === "h") { S.hint = !S.hint; syncControls(); writeUrl(); render(); }
    else if (e.key === "e") startEdit();
    else if (e.key === "Escape") { S.selected = null; S.pending = null; render(); }
  });
}

async function main() {
  const r = await api("/api/games", new URLSearchParams());
  if (!r.ok) { showError(r.body); return; }
  S.games = r.body;
  readUrl();
  setGame(S.rules.game);
  wire();
  wireAnalysis();
  syncControls();
  showTables();
  await load();
}

// For tests and the console: the state of the page in one object.
window.morris = { state: () => S, clickPoint, play, undo, redo };

main();
