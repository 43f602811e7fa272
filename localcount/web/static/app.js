// The localcount page: plain JavaScript over the JSON API of docs/web.md.
"use strict";

const $ = (selector) => document.querySelector(selector);
const MAX_SIDE = 100;
const TIMEOUT = 5; // seconds of search the page asks for
const BLACK = "#1f2328", NEW = "#2563eb";
/** Requests the page makes by itself, not asked for by a click: their answers do not clear the user's errors. */
const BACKGROUND = new Set(["analyze", "rank"]);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// ---------- messages and requests ----------

const message = $("#message");
let busyCount = 0;
/** Each tab's message, {text, kind, source, at}: a message belongs to the tab it was said on and shows while that
 *  tab does (another tab shows its own, or none).  said: messages said so far (at: the message's number). */
const messages = {};
let said = 0;
const shownTab = () => document.querySelector("[role=tab][aria-selected=true]").dataset.tab;

/** One line for the user in the message area of a tab (the one shown): kind "error" or "info"; "" hides it. */
function say(text, kind = "info", source = "", tab = shownTab()) {
  messages[tab] = { text, kind, source, at: ++said };
  if (tab === shownTab()) sayShown();
}

/** Show the message of the tab shown (none: the area hides). */
function sayShown() {
  const { text, kind, source } = messages[shownTab()] || { text: "", kind: "info", source: "" };
  message.textContent = text;
  message.title = text;
  message.className = kind;
  message.dataset.source = source;
  message.hidden = !text;
}

/** POST body (or GET when body is undefined) to /api/NAME; the answer, or null after showing the error.
 *  current() false: a newer request made this one moot, and its answer neither says nor clears anything. */
async function api(name, body, buttons = [], current = () => true) {
  const control = new AbortController();
  const timer = setTimeout(() => control.abort(), 90000);
  const asked = said; // an answer clears only a message said before it was asked for
  for (const b of buttons) b.disabled = true;
  $("#busy").hidden = ++busyCount === 0;
  try {
    const options = body === undefined ? { signal: control.signal }
      : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: control.signal };
    const response = await fetch(`/api/${name}`, options);
    let data;
    try { data = await response.json(); } catch { data = { error: `the server answered ${response.status} without JSON` }; }
    if (!response.ok || data.error) throw new Error(data.error || `the server answered ${response.status}`);
    // an answer clears the error it replaces (and any error, when the user asked for it: not the background analysis)
    const shown = messages[shownTab()];
    if (current() && shown && shown.at <= asked && (shown.source === name || (!BACKGROUND.has(name) && shown.kind === "error"))) say("");
    return data;
  } catch (err) {
    const text = err.name === "AbortError" ? "the server did not answer in 90 s" : err.message;
    if (current()) say(`${name}: ${text}`, "error", name);
    return null;
  } finally {
    clearTimeout(timer);
    for (const b of buttons) b.disabled = false;
    $("#busy").hidden = --busyCount === 0;
  }
}

// ---------- clues and grids ----------

/** The runs of a line of 0/1 values. */
function runs(bits) {
  const out = [];
  let k = 0;
  for (const b of bits) {
    if (b) k++;
    else if (k) { out.push(k); k = 0; }
  }
  if (k) out.push(k);
  return out;
}

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
/** A whole number with thousands separators: 24,976,511. */
const thousands = (v) => Number(v).toLocaleString("en-US");
/** A count and its word, plural unless it is 1: "1 step", "12 steps", "1,234 puzzles". */
const counted = (k, word) => `${typeof k === "number" ? thousands(k) : k} ${word}${Number(k) === 1 ? "" : "s"}`;
/** A puzzle's name with its size (and more, e.g. "3 colours"), the size left out where the name already says it:
 *  "heart (8×9)", "random 15x15, seed 3, 10 steps". */
function titled(name, p, ...more) {
  const size = new RegExp(`(^|\\D)(${p.n}\\s*[x×]\\s*${p.m}|${p.m}\\s*[x×]\\s*${p.n})(\\D|$)`).test(name) ? [] : [`${p.n}×${p.m}`];
  const extra = [...size, ...more.filter(Boolean)];
  return extra.length ? `${name} (${extra.join(", ")})` : name;
}
/** A tab's Rows and Columns boxes read: [n, m], or null after saying which box is wrong (either, or both). */
function readSizes(rowsInput, colsInput) {
  const wrong = [];
  const sizes = [[rowsInput, "Rows"], [colsInput, "Columns"]].map(([input, label]) => {
    const v = Number(input.value), bad = !Number.isInteger(v) || v < 1 || v > MAX_SIDE;
    input.classList.toggle("bad", bad);
    input.setAttribute("aria-invalid", String(bad));
    if (bad) wrong.push(`${label} is ${input.value || "nothing"}`);
    return v;
  });
  if (wrong.length) return void say(`sizes are 1 to ${MAX_SIDE}: ${wrong.join(", ")}`, "error", "size");
  if (message.dataset.source === "size") say("");
  return sizes;
}

/** True for a light colour (hex rgb): black text (or marks) on it, else white. */
const lightRgb = (rgb) => parseInt(rgb.slice(0, 2), 16) * 0.3 + parseInt(rgb.slice(2, 4), 16) * 0.59 + parseInt(rgb.slice(4, 6), 16) * 0.11 > 150;

/** A clue as shown: numbers (colour runs [length, colour] as coloured chips); "0" for an empty line. */
function clueNode(kind, index, clue, palette) {
  const node = el("div", { "data-clue": clue.length ? clue.map((r) => (Array.isArray(r) ? r[0] : r)).join(" ") : "0" });
  node.dataset[kind] = index;
  node.dataset.number = index + 1; // shown every 5 lines where the board asks for numbers (Play's Numbers)
  if (!clue.length) node.append(el("span", { class: "zero", text: "0" }));
  for (const run of clue) {
    if (!Array.isArray(run)) { node.append(el("span", { text: String(run) })); continue; }
    const rgb = palette[run[1]].rgb;
    node.append(el("span", { class: "chip", style: `background:#${rgb};color:${lightRgb(rgb) ? "#000" : "#fff"}`, title: palette[run[1]].name, text: String(run[0]) }));
  }
  return node;
}

/** Size a canvas for n×m cells of cell px (sharp on any screen); its 2D context. */
function sizeCanvas(canvas, n, m, cell) {
  const dpr = window.devicePixelRatio || 1, w = m * cell + 1, h = n * cell + 1;
  Object.assign(canvas, { width: Math.round(w * dpr), height: Math.round(h * dpr) });
  Object.assign(canvas.style, { width: `${w}px`, height: `${h}px` });
  Object.assign(canvas.dataset, { rows: n, cols: m, cell });
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

/** The smallest clue font (px): below it the cells grow instead (Board.minCell). */
const MIN_FONT = 8;
/** A digit's advance per px of font in the page's font (the widest of 0-9: clues use tabular digits). */
const DIGIT = (() => {
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `100px ${getComputedStyle(document.body).fontFamily}`;
  return Math.max(...[..."0123456789"].map((d) => ctx.measureText(d).width)) / 100;
})();
/** The most digits of a number in clues (colour runs: [length, colour]); 1 for none. */
const clueDigits = (clues) => Math.max(1, ...clues.flatMap((c) => c.map((r) => String(Array.isArray(r) ? r[0] : r).length)));

/** A puzzle board: column clues above, row clues left, a canvas of cells (cell size in data-cell).
 *  Clue numbers never overlap: a column's numbers are at most a cell wide (the font shrinks to MIN_FONT, then the
 *  cells are at least minCell()); set the clues before sizing, so that their digits are known. */
class Board {
  constructor(root, prefix, maxPx) {
    this.maxPx = maxPx;
    this.digits = 1; // the column clues' longest number (reserve: at least this many, for clues that will change)
    this.reserve = 1;
    this.chips = false;
    this.root = root;
    root.classList.add("board");
    this.cols = el("div", { class: "col-clues", id: `${prefix}-col-clues` });
    this.rows = el("div", { class: "row-clues", id: `${prefix}-row-clues` });
    this.canvas = el("canvas", { id: `${prefix}-canvas` });
    root.replaceChildren(el("div", { class: "corner" }), this.cols, this.rows, this.canvas);
    this.n = this.m = 0;
  }

  /** Cells of ``cell`` px, or else at most ``this.maxPx`` px for the longer side (up to ``this.maxCell`` px a cell),
   *  times ``zoom``; never under minCell(). */
  size(n, m, zoom = 1, cell = null) {
    const fit = cell || Math.min(Math.floor(this.maxPx / Math.max(n, m)), this.maxCell || 28);
    Object.assign(this, { n, m, cell: clamp(Math.round(fit * zoom), this.minCell(), 160) });
    this.ctx = sizeCanvas(this.canvas, n, m, this.cell);
    this.root.style.setProperty("--cell", `${this.cell}px`);
    this.root.style.setProperty("--clue-font", `${this.fitFont(this.cell, Math.max(this.digits, this.reserve))}px`);
  }

  /** The width of a column's widest number in a font of ``font`` px (a colour chip: padded, at least 1.2em). */
  numberWidth(font, digits) {
    const text = digits * DIGIT * font;
    return this.chips ? Math.max(1.2 * font, text + 4) : text;
  }

  /** The clue font for ``cell`` px cells: .58 of a cell, at most what fits ``digits`` digits in a column (1 px
   *  each side), at least ``least`` px. */
  fitFont(cell, digits, least = MIN_FONT) {
    const fits = this.chips ? Math.min((cell - 2) / 1.2, (cell - 6) / (digits * DIGIT)) : (cell - 2) / (digits * DIGIT);
    return Math.round(Math.max(least, Math.min(cell * 0.58, fits)) * 10) / 10;
  }

  /** The smallest cell whose rows and columns show the clues in MIN_FONT px: 9 px, or wider for longer numbers. */
  minCell() {
    return Math.max(9, Math.ceil(this.numberWidth(MIN_FONT, Math.max(this.digits, this.reserve)) + 2));
  }

  setClues(rows, columns, palette = null) {
    this.rows.replaceChildren(...rows.map((c, i) => clueNode("row", i, c, palette)));
    this.cols.replaceChildren(...columns.map((c, j) => clueNode("col", j, c, palette)));
    Object.assign(this, { digits: clueDigits(columns), chips: !!palette });
  }

  /** One line's clue changed (Draw): a column number longer than the board was sized for gets a smaller font of its
   *  own rather than meet its neighbours. */
  setClue(kind, index, clue) {
    const box = kind === "row" ? this.rows : this.cols, node = clueNode(kind, index, clue, null);
    const digits = clueDigits([clue]);
    if (kind === "col" && this.cell && digits > Math.max(this.digits, this.reserve)) {
      node.style.fontSize = `${this.fitFont(this.cell, digits, 4)}px`;
    }
    box.children[index].replaceWith(node);
  }

  /** The cell under a pointer event, or null. */
  cellAt(event) {
    const box = this.canvas.getBoundingClientRect();
    const r = Math.floor((event.clientY - box.top) / this.cell), c = Math.floor((event.clientX - box.left) / this.cell);
    return r >= 0 && r < this.n && c >= 0 && c < this.m ? [r, c] : null;
  }

  /** Paint: fill(r, c) and dot(r, c) give a colour or null; shade and outline are lists of cells; line highlights a row or column. */
  draw({ fill = () => null, dot = () => null, shade = [], outline = [], line = null } = {}) {
    const { n, m, cell, ctx } = this;
    const w = m * cell, h = n * cell;
    ctx.fillStyle = "#fff";
    ctx.fillRect(0, 0, w + 1, h + 1);
    if (line) {
      ctx.fillStyle = "#fde68a";
      if (line.kind === "row") ctx.fillRect(0, line.index * cell, w, cell);
      else ctx.fillRect(line.index * cell, 0, cell, h);
    }
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < m; c++) {
        const f = fill(r, c);
        if (f) { ctx.fillStyle = f; ctx.fillRect(c * cell, r * cell, cell, cell); }
        const d = dot(r, c);
        if (d) { ctx.fillStyle = d; ctx.fillRect(c * cell + cell / 2 - 1.5, r * cell + cell / 2 - 1.5, 3, 3); }
      }
    }
    ctx.fillStyle = "rgba(245, 158, 11, 0.55)";
    for (const [r, c] of shade) ctx.fillRect(c * cell, r * cell, cell, cell);
    this.lines(ctx, n, m, cell);
    ctx.strokeStyle = "#e11d48";
    ctx.lineWidth = 2;
    for (const [r, c] of outline) ctx.strokeRect(c * cell + 1.5, r * cell + 1.5, cell - 2, cell - 2);
  }

  lines(ctx, n, m, cell) {
    for (const [every, colour] of [[1, cell < 12 ? "#e5e7eb" : "#d1d5db"], [5, "#6b7280"]]) {
      ctx.beginPath();
      for (let c = 0; c <= m; c += every) { ctx.moveTo(c * cell + 0.5, 0); ctx.lineTo(c * cell + 0.5, n * cell + 1); }
      for (let r = 0; r <= n; r += every) { ctx.moveTo(0, r * cell + 0.5); ctx.lineTo(m * cell + 1, r * cell + 0.5); }
      ctx.strokeStyle = colour;
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    ctx.strokeStyle = "#374151";
    ctx.strokeRect(0.5, 0.5, m * cell, n * cell);
  }
}

/** A small picture of a grid (row strings of 0/1, or colour characters with a palette) on a canvas; data-grid holds it. */
function drawMini(canvas, grid, { palette = null, outline = [], maxPx = 220 } = {}) {
  const n = grid.length, m = grid[0].length, cell = clamp(Math.floor(maxPx / Math.max(n, m)), 2, 14);
  const mini = { n, m, cell, ctx: sizeCanvas(canvas, n, m, cell), lines: Board.prototype.lines };
  const colours = palette ? Object.fromEntries(palette.map((p, i) => [p.char, i ? `#${p.rgb}` : null])) : { 1: BLACK };
  Board.prototype.draw.call(mini, { fill: (r, c) => colours[grid[r][c]] || null, outline });
  canvas.dataset.grid = JSON.stringify(grid);
}

// ---------- tabs ----------

const loaders = {};
function showTab(name) {
  for (const tab of document.querySelectorAll("[role=tab]")) {
    const on = tab.dataset.tab === name;
    tab.setAttribute("aria-selected", String(on));
    $(`#panel-${tab.dataset.tab}`).hidden = !on;
  }
  sayShown(); // the tab's own message, if it has one
  if (shownPuzzles[name] && current.owner !== name) showCurrent(name);
  // the address names the tab, or Play's puzzle: never "#play" on the way to the puzzle's link (a reload that
  // Chromium's browser process starts between two replaceState calls would load "#play" and open no puzzle)
  history.replaceState(null, "", `#${name === "play" && play.puzzle ? play.link : name}`);
  if (loaders[name]) loaders[name]();
  playClock(); // Play's clock pauses while another tab is shown
}
for (const tab of document.querySelectorAll("[role=tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));

// ---------- 1. Draw ----------

const draw = { n: 10, m: 10, cells: new Uint8Array(100), unknown: [], changed: [], erase: false, version: 0, timer: 0, frame: 0, busy: false, again: false };
const drawBoard = new Board($("#draw-board"), "draw", 560);
const drawVerdict = $("#draw-verdict"), drawStatus = $("#draw-status");

const drawRow = (r) => Array.from(draw.cells.subarray(r * draw.m, (r + 1) * draw.m));
const drawCol = (c) => Array.from({ length: draw.n }, (_, r) => draw.cells[r * draw.m + c]);
const drawGrid = () => Array.from({ length: draw.n }, (_, r) => drawRow(r).join(""));
/** The drawing's clues as a request body. */
const drawClues = () => ({ rows: Array.from({ length: draw.n }, (_, r) => runs(drawRow(r))),
  columns: Array.from({ length: draw.m }, (_, c) => runs(drawCol(c))) });

function drawRender() {
  if (draw.frame) return;
  draw.frame = requestAnimationFrame(() => {
    draw.frame = 0;
    const { m, cells } = draw;
    drawBoard.draw({ fill: (r, c) => (cells[r * m + c] ? BLACK : null), shade: draw.unknown, outline: draw.changed });
    drawBoard.canvas.dataset.grid = JSON.stringify(drawGrid());
  });
}

/** A new n×m drawing (keeping what fits of the old one, or the rows given). */
function drawSet(n, m, grid = null) {
  const old = draw.cells, oldM = draw.m, oldN = draw.n;
  draw.cells = new Uint8Array(n * m);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < m; c++) {
      draw.cells[r * m + c] = grid ? Number(grid[r][c] === "1") : r < oldN && c < oldM ? old[r * oldM + c] : 0;
    }
  }
  Object.assign(draw, { n, m, unknown: [], changed: [] });
  $("#draw-rows").value = n;
  $("#draw-cols").value = m;
  drawBoard.reserve = String(n).length > 1 ? 2 : 1; // room for two-digit runs painted later (100: a font of its own)
  const { rows, columns } = drawClues();
  drawBoard.setClues(rows, columns);
  drawBoard.size(n, m);
  drawChanged();
}

function drawChanged() {
  draw.version++;
  draw.unknown = [];
  $("#draw-number").hidden = true;
  drawRender();
  drawVerdict.dataset.state = "pending";
  drawStatus.textContent = "analysing…";
  clearTimeout(draw.timer);
  draw.timer = setTimeout(drawAnalyze, 150);
}

/** Analyse the drawing: local logic first (fast: one request at a time, an answer for an older drawing dropped),
 *  then, if local logic does not solve it, the search for uniqueness (up to TIMEOUT s; dropped if the drawing changed). */
async function drawAnalyze() {
  if (draw.busy) return void (draw.again = true);
  draw.busy = true;
  const version = draw.version, grid = drawGrid();
  const a = await api("analyze", { grid, search: false });
  draw.busy = false;
  if (draw.again) {
    draw.again = false;
    if (version !== draw.version) return drawAnalyze();
  }
  if (version !== draw.version) return; // the drawing changed: its own analysis is on the way
  if (!a) { drawVerdict.dataset.state = "error"; drawStatus.textContent = ""; return; }
  drawShow(a);
  if (a.simple) drawNumber(version, grid);
  else {
    const searched = await api("analyze", { grid, timeout: TIMEOUT });
    if (searched && version === draw.version) drawShow(searched);
  }
}

/** The lines where local logic stops (those with unknown cells), for a maker: "rows 3, 7; columns 2, 9" (1-based). */
function stuckLines(unknown) {
  const list = (values) => {
    const sorted = [...new Set(values)].sort((a, b) => a - b).map((v) => v + 1);
    return sorted.length > 12 ? `${sorted.slice(0, 12).join(", ")} … (${sorted.length})` : sorted.join(", ");
  };
  if (!unknown.length) return "";
  const rows = list(unknown.map(([r]) => r)), cols = list(unknown.map(([, c]) => c));
  return `row${rows.includes(",") ? "s" : ""} ${rows}; column${cols.includes(",") ? "s" : ""} ${cols}`;
}

/** Show an analysis: the verdict line (uniqueness pending until the search answers), status, unknown cells. */
function drawShow(a) {
  const verdict = a.verdict === null ? "checking uniqueness…"
    : { unique: "unique", multiple: "multiple solutions", undecided: `undecided after ${TIMEOUT} s` }[a.verdict] || a.verdict;
  const logic = a.simple ? `solved by local logic in ${a.steps} step${a.steps === 1 ? "" : "s"}` : "not solved by local logic";
  const level = a.verdict === null ? "" : ` · level: ${a.level || "none"}`;
  drawVerdict.textContent = `${logic}${level} · ${verdict}`;
  const state = a.verdict === null ? "searching" : "done";
  Object.assign(drawVerdict.dataset, { state, simple: a.simple, verdict: a.verdict || "", level: a.level || "", steps: a.steps ?? "" });
  drawVerdict.className = a.simple ? "good" : "bad";
  const black = draw.cells.reduce((s, v) => s + v, 0);
  drawStatus.textContent = `${draw.n}×${draw.m}, ${black} black` + (a.unknown.length ? `, ${counted(a.unknown.length, "cell")} unknown (shaded)` : "") + ` · ${(a.seconds * 1000).toFixed(1)} ms`;
  drawStatus.dataset.stuck = stuckLines(a.unknown);
  if (a.unknown.length) drawStatus.textContent += ` · stuck: ${drawStatus.dataset.stuck}`;
  draw.unknown = a.unknown;
  drawRender();
  drawWhy(a);
}

/** Each clue's tooltip (hover): the line's last deduction by local logic, and where it stops on it. */
function drawWhy(a) {
  const open = (kind, i) => a.unknown.filter(([r, c]) => (kind === "row" ? r : c) === i).length;
  for (const [kind, word, box] of [["row", "row", drawBoard.rows], ["col", "column", drawBoard.cols]]) {
    [...box.children].forEach((node, i) => {
      const line = `${word} ${i + 1}`, got = (a.last || {})[line], left = open(kind, i);
      const at = (cells) => cells.map(([r, c]) => (kind === "row" ? c : r) + 1).join(", ");
      let text = got ? `${line}: its last deduction, local logic's update ${got.update} of ${a.updates}:` +
        (got.filled.length ? ` cells ${at(got.filled)} filled` : "") + (got.filled.length && got.empty.length ? ";" : "") +
        (got.empty.length ? ` cells ${at(got.empty)} empty` : "") : `${line}: local logic decides nothing on it alone`;
      if (left) text += ` · local logic stops with ${left} of its cells unknown`;
      node.title = text;
    });
  }
}

/** A simple drawing's number among the puzzles of its size, beside the verdict (if its size has an index). */
async function drawNumber(version, grid) {
  if (!everyEntry(`${draw.n}x${draw.m}`)) return;
  const got = await api("rank", { grid });
  if (!got || version !== draw.version) return;
  const button = $("#draw-number");
  button.textContent = `puzzle #${thousands(got.k)} of ${thousands(got.of)}`;
  Object.assign(button.dataset, { size: `${got.n}x${got.m}`, k: got.k, of: got.of, number: got.number });
  button.hidden = false;
}

/** Paint cells (r, c) to value, updating the clues of the lines touched. */
function drawPaint(cells, value) {
  const rows = new Set(), cols = new Set();
  for (const [r, c] of cells) {
    const i = r * draw.m + c;
    if (draw.cells[i] !== value) { draw.cells[i] = value; rows.add(r); cols.add(c); }
  }
  if (!rows.size) return;
  for (const r of rows) drawBoard.setClue("row", r, runs(drawRow(r)));
  for (const c of cols) drawBoard.setClue("col", c, runs(drawCol(c)));
  draw.changed = [];
  drawChanged();
}

/** The cells on a straight line from a to b (so that fast drags leave no gaps). */
function between([r0, c0], [r1, c1]) {
  const k = Math.max(Math.abs(r1 - r0), Math.abs(c1 - c0)), out = [];
  for (let t = 0; t <= k; t++) out.push([Math.round(r0 + ((r1 - r0) * t) / (k || 1)), Math.round(c0 + ((c1 - c0) * t) / (k || 1))]);
  return out;
}

{
  const canvas = drawBoard.canvas;
  let stroke = null; // {value, last}
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    const at = drawBoard.cellAt(e);
    if (!at) return;
    e.preventDefault();
    canvas.setPointerCapture(e.pointerId);
    const value = e.button === 2 || draw.erase ? 0 : 1 - draw.cells[at[0] * draw.m + at[1]];
    stroke = { value, last: at };
    drawPaint([at], value);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!stroke) return;
    const at = drawBoard.cellAt(e);
    if (!at || (at[0] === stroke.last[0] && at[1] === stroke.last[1])) return;
    drawPaint(between(stroke.last, at), stroke.value);
    stroke.last = at;
  });
  for (const name of ["pointerup", "pointercancel"]) canvas.addEventListener(name, () => (stroke = null));
}

for (const id of ["#draw-rows", "#draw-cols"]) {
  $(id).addEventListener("change", () => {
    const [n, m] = readSizes($("#draw-rows"), $("#draw-cols")) || [];
    if (n && m) drawSet(n, m);
  });
}
$("#draw-clear").addEventListener("click", () => drawSet(draw.n, draw.m, Array(draw.n).fill("0".repeat(draw.m))));
$("#draw-mode").addEventListener("click", (e) => {
  draw.erase = !draw.erase;
  e.target.textContent = `Mode: ${draw.erase ? "erase" : "paint"}`;
  e.target.setAttribute("aria-pressed", String(draw.erase));
});
$("#draw-number").addEventListener("click", (e) => everyOpen(e.target.dataset.size, Number(e.target.dataset.k)));
$("#draw-simplify").addEventListener("click", async (e) => {
  const made = await api("simplify", { grid: drawGrid() }, [e.target]);
  if (!made) return;
  drawSet(made.grid.length, made.grid[0].length, made.grid);
  draw.changed = made.changed;
  drawRender();
  say(`made simple: ${counted(made.changed.length, "cell")} changed (outlined), ${counted(made.steps, "step")}`, "info", "simplify");
});

// ---------- the result of a solve (shown under Type, Files or Every puzzle) and its replay ----------

const result = { data: null, steps: [], k: 0, timer: 0 };
const resultBoard = new Board($("#result-board"), "result", 440);
const slider = $("#replay-slider");

/** Show a solve's answer under a tab, named as the puzzle it solved is named there. */
function showResult(data, owner, name) {
  const box = $("#result");
  $(`#${owner}-result-slot`).append(box);
  box.hidden = false;
  replayPause();
  const p = data.puzzle;
  result.data = data;
  $("#result-title").textContent = titled(name || p.title || "untitled", p);
  const verdict = { unique: "unique", multiple: "multiple solutions", undecided: `undecided after ${TIMEOUT} s`, none: "no solution" }[data.verdict] || data.verdict;
  const logic = { solved: `solved by local logic${data.steps != null ? ` in ${counted(data.steps, "step")}` : ""}`, stuck: "local logic gets stuck", contradiction: "local logic finds a contradiction" }[data.local] || data.local;
  const v = $("#result-verdict");
  v.textContent = `${verdict} · ${logic} · level: ${data.level || "none"} · ${data.method}: ${data.nodes} node${data.nodes === 1 ? "" : "s"}, ${(data.seconds * 1000).toFixed(1)} ms`;
  Object.assign(v.dataset, { verdict: data.verdict, level: data.level || "", local: data.local });
  v.className = `verdict ${data.verdict === "unique" ? "good" : "bad"}`;
  const sols = $("#result-solutions");
  sols.replaceChildren();
  data.solutions.slice(0, 2).forEach((grid, i) => {
    const canvas = el("canvas", { id: `result-solution-${i}` });
    sols.append(el("figure", {}, canvas, el("figcaption", { text: data.solutions.length > 1 ? `solution ${i + 1}` : "the only solution" })));
    drawMini(canvas, grid, { palette: p.palette });
  });
  if (!data.solutions.length) sols.append(el("p", { class: "quiet", text: "none found" }));
  resultBoard.setClues(p.rows, p.columns, p.palette);
  resultBoard.size(p.n, p.m);
  result.steps = data.replay.map((s) => ({ text: s.line, filled: s.filled, empty: s.empty }));
  if (!p.palette && data.local !== "solved" && data.solutions.length) result.steps.push({ text: "search: the rest from the first solution", search: true });
  $("#replay").hidden = !!p.palette;
  slider.max = result.steps.length;
  if (p.palette) {
    const grid = data.solutions[0] || Array(p.n).fill(p.palette[0].char.repeat(p.m));
    const colours = Object.fromEntries(p.palette.map((c, i) => [c.char, i ? `#${c.rgb}` : null]));
    resultBoard.draw({ fill: (r, c) => colours[grid[r][c]] || null });
    resultBoard.canvas.dataset.grid = JSON.stringify(grid);
  } else replayGo(0);
}

/** The board after k steps: 1 black, 0 white, -1 not known yet. */
function replayState(k) {
  const { n, m } = resultBoard, state = new Int8Array(n * m).fill(-1);
  for (const step of result.steps.slice(0, k)) {
    if (step.search) {
      const sol = result.data.solutions[0];
      for (let i = 0; i < n * m; i++) if (state[i] < 0) state[i] = Number(sol[Math.floor(i / m)][i % m] === "1");
      continue;
    }
    for (const [r, c] of step.filled) state[r * m + c] = 1;
    for (const [r, c] of step.empty) state[r * m + c] = 0;
  }
  return state;
}

function replayGo(k) {
  const N = result.steps.length;
  k = clamp(k, 0, N);
  result.k = k;
  slider.value = k;
  const { n, m } = resultBoard, state = replayState(k), step = result.steps[k - 1];
  const recent = new Set(step && !step.search ? [...step.filled, ...step.empty].map(([r, c]) => r * m + c) : []);
  const match = step && /^(row|column) (\d+)/.exec(step.text);
  resultBoard.draw({
    fill: (r, c) => (state[r * m + c] === 1 ? (recent.has(r * m + c) ? NEW : BLACK) : null),
    dot: (r, c) => (state[r * m + c] === 0 ? (recent.has(r * m + c) ? NEW : "#9ca3af") : null),
    line: match ? { kind: match[1], index: Number(match[2]) - 1 } : null,
  });
  resultBoard.canvas.dataset.grid = JSON.stringify(Array.from({ length: n }, (_, r) =>
    Array.from(state.subarray(r * m, (r + 1) * m), (v) => (v < 0 ? "?" : String(v))).join("")));
  $("#replay-text").textContent = `step ${k} of ${N}: ${k ? step.text : "start"}`;
  $("#replay-back").disabled = k === 0;
  $("#replay-step").disabled = k === N;
}

function replayPause() {
  clearInterval(result.timer);
  result.timer = 0;
  $("#replay-play").disabled = false;
  $("#replay-pause").disabled = true;
}

function replayPlay() {
  replayPause();
  if (result.k >= result.steps.length) replayGo(0);
  $("#replay-play").disabled = true;
  $("#replay-pause").disabled = false;
  result.timer = setInterval(() => {
    replayGo(result.k + 1);
    if (result.k >= result.steps.length) replayPause();
  }, Number($("#replay-speed").value));
}

$("#replay-play").addEventListener("click", replayPlay);
$("#replay-pause").addEventListener("click", replayPause);
$("#replay-step").addEventListener("click", () => { replayPause(); replayGo(result.k + 1); });
$("#replay-back").addEventListener("click", () => { replayPause(); replayGo(result.k - 1); });
slider.addEventListener("input", () => { replayPause(); replayGo(Number(slider.value)); });
$("#replay-speed").addEventListener("change", () => { if (result.timer) replayPlay(); });

// ---------- 2. Type ----------

const solveButton = $("#solve-button");

/** One line's clue from its text: {clue} or {error}. */
/** A typed clue: numbers, or with ``colours`` (a colour puzzle's) runs [length, colour] typed as "3a 1b" (a length and
 *  its colour's letter, a: colour 1; a length alone is colour a); {clue} or {error}. */
function parseClue(text, length, label, colours = 0) {
  if (/[^\d\s,]/.test(colours ? text.replace(/[a-z]/gi, "") : text)) return { error: `${label}: invalid characters` };
  if (colours) return parseColourClue(text.toLowerCase(), length, label, LETTERS.slice(0, colours));
  const clue = text.split(/[\s,]+/).filter(Boolean).map(Number).filter((v) => v > 0);
  const need = clue.reduce((s, v) => s + v, 0) + Math.max(0, clue.length - 1);
  if (need > length) return { error: `${label}: clue ${clue.join(" ")} needs ${need} cells, the line has ${length}` };
  return { clue };
}

function parseColourClue(text, length, label, letters) {
  const words = text.split(/[\s,]+/).filter(Boolean), clue = [];
  for (const w of words) {
    const run = /^(\d+)([a-z]?)$/.exec(w);
    if (!run || (run[2] && !letters.includes(run[2]))) {
      return { error: `${label}: ${w} is not a run (a length and a colour's letter, ${letters.length > 1 ? `${letters[0]} to ${letters.at(-1)}` : letters[0]})` };
    }
    if (Number(run[1]) > 0) clue.push([Number(run[1]), run[2] ? letters.indexOf(run[2]) + 1 : 1]);
  }
  // runs of one colour need a gap between them; runs of two colours may touch
  const need = clue.reduce((t, [k]) => t + k, 0) + clue.filter((r, i) => i && clue[i - 1][1] === r[1]).length;
  if (need > length) return { error: `${label}: clue ${words.join(" ")} needs ${counted(need, "cell")}, the line has ${length}` };
  return { clue };
}

/** Type's Colours box: {hexes} of colours a, b, c, ... ("e11d48"; [] for black and white) from colour names or #hex,
 *  or {error}. */
function typeColours() {
  const words = $("#type-colours").value.split(/[\s,]+/).filter(Boolean);
  if (words.length > LETTERS.length) return { error: `colours: at most ${LETTERS.length}, got ${words.length}` };
  const ctx = document.createElement("canvas").getContext("2d"), hexes = [];
  for (const w of words) {
    ctx.fillStyle = "#000000";
    ctx.fillStyle = w; // the browser reads any CSS colour; what it cannot read leaves the black before it
    const got = String(ctx.fillStyle).toLowerCase();
    if (!/^#[0-9a-f]{6}$/.test(got) || (got === "#000000" && !/^(black|#0{3}|#0{6})$/i.test(w))) return { error: `colours: ${w} is not a colour` };
    hexes.push(got.slice(1));
  }
  return { hexes };
}

/** What the server is asked about Type's clues: the clues themselves, or a colour puzzle's .non file (as a link's). */
const typeRequest = (clues) => (clues.colours.length ? decodeClues(encodeClues({ ...clues, variant: "nonogram" }), clues.colours.join("."))
  : { rows: clues.rows, columns: clues.columns });

function typeBuild() {
  const [n, m] = readSizes($("#type-rows"), $("#type-cols")) || [];
  if (!n || !m) return;
  for (const [kind, count, list] of [["row", n, "#type-row-list"], ["col", m, "#type-col-list"]]) {
    const box = $(list);
    const old = Array.from(box.querySelectorAll("input"), (i) => i.value);
    box.replaceChildren(...Array.from({ length: count }, (_, i) => {
      const input = el("input", { id: `type-${kind}-${i}`, type: "text", autocomplete: "off", spellcheck: "false", value: old[i] || "" });
      input.addEventListener("input", typeCheck);
      return el("label", {}, el("span", { class: "index", text: String(i + 1) }), input, el("span", { class: "field-msg", id: `type-${kind}-${i}-msg` }));
    }));
  }
  typeCheck();
}

/** Check every clue; show the problems; the clues ({rows, columns}) when all is well, else null. */
function typeCheck() {
  const problems = [], colours = typeColours(), out = { colours: colours.hexes || [] };
  if (colours.error) problems.push(colours.error);
  const n = $("#type-row-list").children.length, m = $("#type-col-list").children.length;
  for (const [kind, name, count, length] of [["row", "rows", n, m], ["col", "columns", m, n]]) {
    out[name] = [];
    for (let i = 0; i < count; i++) {
      const input = $(`#type-${kind}-${i}`);
      const got = parseClue(input.value, length, `${kind === "row" ? "row" : "column"} ${i + 1}`, out.colours.length);
      input.classList.toggle("bad", !!got.error);
      input.setAttribute("aria-invalid", String(!!got.error));
      $(`#type-${kind}-${i}-msg`).textContent = got.error ? got.error.replace(/^\w+ \d+: /, "") : "";
      if (got.error) problems.push(got.error);
      else out[name].push(got.clue);
    }
  }
  if (!problems.length) { // the cells of each colour (a number's: colour a) the rows fill, against the columns'
    const tally = (clues) => clues.flat().reduce((t, run) => {
      const [k, colour] = Array.isArray(run) ? run : [run, 1];
      t[colour - 1] = (t[colour - 1] || 0) + k;
      return t;
    }, []);
    const r = tally(out.rows), c = tally(out.columns);
    for (let k = 0; k < Math.max(r.length, c.length, 1); k++) {
      if ((r[k] || 0) === (c[k] || 0)) continue;
      const what = out.colours.length ? `colour ${LETTERS[k]}: ` : "";
      problems.push(`${what}rows fill ${counted(r[k] || 0, "cell")}, columns ${c[k] || 0}`);
    }
  }
  const msg = $("#type-message");
  msg.textContent = problems.length ? problems.slice(0, 3).join("; ") + (problems.length > 3 ? ` (and ${problems.length - 3} more)` : "") : `${n}×${m}: the clues fit`;
  msg.className = `status ${problems.length ? "bad" : "good"}`;
  solveButton.disabled = problems.length > 0;
  return problems.length ? null : out;
}

/** The puzzle last filled into Type (its name and clues): Type's clues keep its name while they are its clues. */
let typed = null;
const typeName = (clues) => (typed && JSON.stringify([typed.rows, typed.columns]) === JSON.stringify([clues.rows, clues.columns]) ? typed.name : "");

/** Fill the Type tab with a puzzle's clues, under its name. */
function typeFill(p, name) {
  typed = { name, rows: p.rows, columns: p.columns };
  $("#type-colours").value = p.palette ? p.palette.slice(1).map((c) => `#${c.rgb.toLowerCase()}`).join(" ") : "";
  const run = (r) => (Array.isArray(r) ? `${r[0]}${LETTERS[r[1] - 1]}` : r);
  $("#type-rows").value = p.n;
  $("#type-cols").value = p.m;
  for (const list of ["#type-row-list", "#type-col-list"]) $(list).replaceChildren();
  typeBuild();
  p.rows.forEach((c, i) => ($(`#type-row-${i}`).value = c.map(run).join(" ")));
  p.columns.forEach((c, j) => ($(`#type-col-${j}`).value = c.map(run).join(" ")));
  typeCheck();
}

$("#type-rows").addEventListener("change", typeBuild);
$("#type-colours").addEventListener("input", typeCheck);
$("#type-cols").addEventListener("change", typeBuild);
$("#type-clear").addEventListener("click", () => {
  for (const input of document.querySelectorAll(".clue-list input")) input.value = "";
  typeCheck();
});
$("#type-example").addEventListener("change", async (e) => {
  if (!e.target.value) return;
  const got = await api("example", { name: e.target.value }, [e.target]);
  if (got) typeFill(got.puzzle, e.target.value);
});
solveButton.addEventListener("click", async () => {
  const clues = typeCheck();
  if (!clues) return;
  const data = await api("solve", { ...typeRequest(clues), timeout: TIMEOUT }, [solveButton]);
  typeCheck();
  if (data) showResult(data, "type", typeName(clues) || "typed clues");
});

// ---------- 3. Files: open, save, generate, design ----------

const SUFFIXES = { txt: "txt", non: "non", nin: "nin", xml: "xml", pbn: "xml", pattern: "tatham" };
const EXTENSIONS = { tatham: "pattern" };
const current = { request: null, puzzle: null, name: "puzzle", owner: "files" };
const shownPuzzles = {}; // owner ("files", "every") -> [request, puzzle, name]: the card shows it again when its tab is shown
const filesBoard = new Board($("#files-board"), "files", 440);

/** Make a puzzle the current one of a tab (owner: files or every; the card moves there): request is {text, format} or
 *  {rows, columns}, what solve, convert and save send. */
function setCurrent(request, puzzle, name, owner = "files") {
  shownPuzzles[owner] = [request, puzzle, name];
  if (current.owner === owner || !$(`#panel-${owner}`).hidden) showCurrent(owner); // else when its tab is shown
  if ($(`#${owner}-result-slot`).contains($("#result"))) $("#result").hidden = true;
}

/** Show a tab's current puzzle in the puzzle card, moved under that tab: its title, clues, and what can be done with it. */
function showCurrent(owner) {
  const [request, puzzle, name] = shownPuzzles[owner];
  Object.assign(current, { request, puzzle, name, owner });
  $(`#${owner}-current-slot`).append($("#files-current"));
  $("#files-current").hidden = false;
  $("#files-title").textContent = titled(puzzle.title || name, puzzle, puzzle.palette ? counted(puzzle.palette.length - 1, "colour") : "");
  filesBoard.setClues(puzzle.rows, puzzle.columns, puzzle.palette);
  filesBoard.size(puzzle.n, puzzle.m);
  filesBoard.draw();
  $("#files-to-type").disabled = !!puzzle.palette || puzzle.variant !== "nonogram"; // Type writes nonogram clues
}

async function openFile(file) {
  if (!file) return;
  if (file.size > 2 * 1024 * 1024) return say(`${file.name}: the file is over 2 MB`, "error", "parse");
  const text = await file.text();
  const format = SUFFIXES[(/\.([^.]+)$/.exec(file.name.toLowerCase()) || [])[1]];
  const data = await api("parse", format ? { text, format } : { text }, [$("#file-input")]);
  if (!data) return;
  $("#file-info").textContent = `${file.name}: ${data.format}, ${data.puzzle.n}×${data.puzzle.m}`;
  setCurrent({ text, format: data.format }, data.puzzle, file.name.replace(/\.[^.]*$/, "") || "puzzle");
}

$("#file-input").addEventListener("change", (e) => { openFile(e.target.files[0]); e.target.value = ""; });
{
  const zone = $("#drop-zone");
  zone.addEventListener("dragover", (e) => { e.preventDefault(); zone.classList.add("over"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", (e) => { e.preventDefault(); zone.classList.remove("over"); openFile(e.dataTransfer.files[0]); });
}

$("#files-solve").addEventListener("click", async (e) => {
  const owner = current.owner;
  const data = await api("solve", { ...current.request, timeout: TIMEOUT }, [e.target]);
  if (data) showResult(data, owner, shownPuzzles[owner][1].title || shownPuzzles[owner][2]);
});
$("#files-to-type").addEventListener("click", () => { typeFill(current.puzzle, current.puzzle.title || current.name); showTab("type"); });
$("#save-button").addEventListener("click", async (e) => {
  const to = $("#save-format").value;
  const data = await api("convert", { ...current.request, to }, [e.target]);
  if (!data) return;
  const name = `${current.name.replace(/[^\w.-]+/g, "_")}.${EXTENSIONS[to] || to}`;
  const link = el("a", { href: URL.createObjectURL(new Blob([data.text], { type: "text/plain" })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  say(`saved ${name}`, "info", "convert");
});

$("#gen-button").addEventListener("click", async (e) => {
  const [n, m] = readSizes($("#gen-rows"), $("#gen-cols")) || [];
  if (!n || !m) return;
  const body = { rows: n, columns: m };
  if ($("#gen-steps").value.trim()) body.steps = $("#gen-steps").value.trim();
  if ($("#gen-seed").value !== "") body.seed = Number($("#gen-seed").value);
  $("#gen-info").textContent = "generating…";
  const made = await api("generate", body, [e.target]);
  $("#gen-info").textContent = made ? `seed ${made.seed}, ${counted(made.steps, "step")}, ${(made.seconds * 1000).toFixed(0)} ms` : "";
  if (made) setCurrent({ rows: made.puzzle.rows, columns: made.puzzle.columns }, made.puzzle, `random-${n}x${m}-${made.seed}`);
});

let designed = null;
$("#design-button").addEventListener("click", async (e) => {
  const [n, m] = readSizes($("#design-rows"), $("#design-cols")) || [];
  if (!n || !m) return;
  const body = { rows: n, columns: m, threshold: Number($("#design-threshold").value) };
  const file = $("#design-file").files[0], picture = $("#design-picture").value;
  if (file) {
    body.image = await new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => resolve("");
      reader.readAsDataURL(file);
    });
  } else if (picture) body.picture = picture;
  else return say("design: choose a picture (PNG or JPEG) or a shipped one", "error", "design");
  const made = await api("design", body, [e.target]);
  if (!made) return;
  designed = made;
  $("#design-preview").hidden = false;
  drawMini($("#design-thresholded"), made.thresholded, { maxPx: 160 });
  drawMini($("#design-grid"), made.grid, { outline: made.changed, maxPx: 160 });
  $("#design-info").textContent = `${counted(made.changed.length, "cell")} changed, ${counted(made.steps, "step")}`;
  setCurrent({ rows: made.puzzle.rows, columns: made.puzzle.columns }, made.puzzle, (file ? file.name.replace(/\.[^.]*$/, "") : picture) + `-${n}x${m}`);
});
$("#design-file").addEventListener("change", () => ($("#design-picture").value = ""));
$("#design-to-draw").addEventListener("click", () => {
  if (!designed) return;
  drawSet(designed.grid.length, designed.grid[0].length, designed.grid);
  draw.changed = designed.changed;
  showTab("draw");
});

// ---------- 4. Every puzzle: the locally solvable puzzles of a size, by their number ----------

// sizes: what /api/indexes offers; order: the size, family and steps of the last request; k: the number it asked for
// (the latest request wins); of: how many puzzles the order has (null until an answer for it says); key and request:
// the last request (not sent twice) and its promise; seq: answers for older requests are dropped; shown: the answer shown.
const every = { sizes: [], order: null, k: 1, of: null, key: null, request: null, seq: 0, shown: null };
const everyKey = (s) => `${s.n}x${s.m}${s.variant === "yesnogram" ? "-yes" : ""}`;
const everyEntry = (key) => every.sizes.find((s) => everyKey(s) === key) || null;
const everyButtons = ["#every-go", "#every-first", "#every-prev", "#every-next", "#every-last", "#every-random"].map($);

/** Read the sizes that have an index into the size list (keeping the one chosen if it is still there); false if the
 *  server did not answer. */
async function everyIndexes() {
  const data = await api("indexes");
  if (!data) return false;
  every.sizes = data.indexes;
  const select = $("#every-size"), was = select.value, keys = every.sizes.map(everyKey);
  select.replaceChildren(...every.sizes.map((s) => el("option", { value: everyKey(s),
    text: `${s.n}×${s.m}${s.variant === "nonogram" ? "" : " yesnogram"}: ${counted(s.puzzles, "puzzle")}` })));
  select.value = keys.includes(was) ? was : keys.includes("5x5") ? "5x5" : keys[0] || "";
  $("#every-none").hidden = keys.length > 0;
  for (const control of [select, $("#every-steps"), $("#every-k"), ...everyButtons]) control.disabled = !keys.length;
  everySteps();
  return true;
}

/** The steps the chosen size has, offered in the Steps box (with how many puzzles take each). */
function everySteps() {
  const size = everyEntry($("#every-size").value);
  $("#every-steps-list").replaceChildren(...Object.entries(size ? size.steps : {}).map(([d, count]) =>
    el("option", { value: d, label: `${thousands(count)} puzzle${count === 1 ? "" : "s"}` })));
}

/** Show puzzle #k of the size and steps chosen; a promise of it done. */
function everyGo(k) {
  const size = everyEntry($("#every-size").value);
  if (!size || !Number.isSafeInteger(k) || k < 1) return Promise.resolve();
  const body = { rows: size.n, columns: size.m, k, variant: size.variant };
  const steps = $("#every-steps").value.trim();
  if (steps) body.steps = steps;
  const key = JSON.stringify(body), order = JSON.stringify({ ...body, k: null });
  if (key === every.key) return every.request;
  if (order !== every.order) Object.assign(every, { order, of: null });
  Object.assign(every, { key, k });
  $("#every-k").value = thousands(k);
  everyEnable();
  const seq = ++every.seq;
  every.request = api("nth", body).then((got) => {
    if (seq !== every.seq) return; // a newer request is on its way
    if (got) return everyShow(got);
    Object.assign(every, { key: null, k: every.of !== null ? every.shown.k : 1 }); // of: this order has shown one
    everyEnable();
  });
  return every.request;
}

/** Show an answer of /api/nth: the title, what the puzzle is, and the puzzle itself in the puzzle card. */
function everyShow(got) {
  Object.assign(every, { shown: got, k: got.k, of: got.of });
  const family = got.variant === "nonogram" ? "" : ` ${got.variant}`;
  const title = $("#every-title");
  title.textContent = `puzzle #${thousands(got.k)} of ${thousands(got.of)}`;
  Object.assign(title.dataset, { size: `${got.n}x${got.m}`, variant: got.variant, k: got.k, of: got.of, number: got.number });
  const [a, b] = got.within_steps || [];
  const within = got.within_steps ? ` of ${a === b ? counted(a, "step") : `${a}-${b} steps`}` : "";
  let played = false;
  try { played = JSON.parse(localStorage.getItem(SOLVED_KEY(`${got.n}x${got.m}${family ? "-yes" : ""}`)) || "[]").includes(got.k); } catch { played = false; }
  $("#every-info").textContent = `${got.n}×${got.m}${family} puzzles${within} · this one: solved by local logic in ${got.steps} step${got.steps === 1 ? "" : "s"} · grid number ${thousands(got.number)} of 2^${got.n * got.m}${played ? " · you have solved it (Play)" : ""}`;
  $("#every-k").value = thousands(got.k);
  $("#every-k").classList.remove("bad");
  setCurrent({ text: got.text, format: "non" }, got.puzzle, `${got.n}x${got.m}${got.variant === "nonogram" ? "" : "-yes"}-${got.k}`, "every");
  everyEnable();
}

/** First and Previous are off at #1, Next and Last at the last one. */
function everyEnable() {
  const none = !every.sizes.length;
  for (const id of ["#every-first", "#every-prev"]) $(id).disabled = none || every.k <= 1;
  for (const id of ["#every-next", "#every-last"]) $(id).disabled = none || (every.of !== null && every.k >= every.of);
}

/** How many puzzles the chosen order has (asking for #1 first if no answer has said yet); null if unknown. */
async function everyOf() {
  if (every.of === null) await everyGo(1);
  return every.of;
}

/** The number typed (separators allowed), shown. */
function everyTyped() {
  const input = $("#every-k"), text = input.value.replace(/[\s,_'’]/g, ""), k = Number(text);
  const bad = !/^\d+$/.test(text) || !Number.isSafeInteger(k) || k < 1;
  input.classList.toggle("bad", bad);
  input.setAttribute("aria-invalid", String(bad));
  if (bad) return say(`puzzle #: a whole number from 1, got ${input.value.trim() || "nothing"}`, "error", "every");
  if (message.dataset.source === "every") say("");
  everyGo(k);
}

const everyMoves = {
  first: () => everyGo(1),
  prev: () => every.k > 1 && everyGo(every.k - 1),
  next: () => (every.of === null || every.k < every.of) && everyGo(every.k + 1),
  last: async () => { const of = await everyOf(); if (of) everyGo(of); },
  random: async () => { const of = await everyOf(); if (of) everyGo(1 + Math.floor(Math.random() * of)); },
};

/** Open puzzle #k of a size (e.g. "5x5") in this tab: the number of a drawing, from Draw. */
function everyOpen(size, k) {
  if (!everyEntry(size)) return;
  $("#every-size").value = size;
  $("#every-steps").value = "";
  everySteps();
  everyGo(k);
  showTab("every");
}

loaders.every = async () => {
  const before = $("#every-size").value;
  if (!(await everyIndexes())) return;
  const wanted = every.wanted; // the puzzle a link opened in Play: shown here too
  every.wanted = null;
  if (wanted && everyEntry(wanted.size)) {
    $("#every-size").value = wanted.size;
    everySteps();
    $("#every-steps").value = wanted.steps;
    return everyGo(wanted.k);
  }
  if ($("#every-size").value !== before || !every.key) everyGo(1);
};

$("#every-size").addEventListener("change", () => { everySteps(); everyGo(1); }); // a new order: from #1
$("#every-steps").addEventListener("change", () => everyGo(1));
$("#every-steps").addEventListener("keydown", (e) => { if (e.key === "Enter") everyGo(1); });
$("#every-k").addEventListener("keydown", (e) => { if (e.key === "Enter") everyTyped(); });
$("#every-k").addEventListener("change", everyTyped);
$("#every-go").addEventListener("click", everyTyped);
for (const [name, move] of Object.entries(everyMoves)) $(`#every-${name}`).addEventListener("click", move);
document.addEventListener("keydown", (e) => {
  if ($("#panel-every").hidden || e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, select, textarea, [role=tab]")) return;
  const move = { ArrowLeft: "prev", PageUp: "prev", ArrowRight: "next", PageDown: "next", Home: "first", End: "last", r: "random", R: "random" }[e.key];
  if (!move) return;
  e.preventDefault();
  everyMoves[move]();
});

// ---------- 5. Play ----------

// puzzle: the one played (as /api/parse answers); marks: rows of "1" (filled), "x" (crossed), "o" (a dot: maybe,
// with Dots on; unknown to Check, Hint and the clues), "." (unknown);
// undo/redo: strokes, each a list of [r, c, before, after]; link: what the address names (without "#");
// every: {size, steps, k, of} when it is an Every puzzle; hinted: cells the last hint decided; wrong: cells shown as mistakes.
// A colour puzzle's marks are colours: COLOUR_MARKS[k - 1] for colour k ("1", black and white's fill, is colour 1);
// pick: the colour a fill paints; request: what /api/hint is asked about a colour puzzle (its file, or a link's);
// opened: counts what was opened or followed (a link, a puzzle): an answer for an older one is dropped.
const play = { puzzle: null, marks: [], undo: [], redo: [], link: "", every: null, elapsed: 0, since: null, solved: false,
  stroke: null, cursor: [0, 0], hover: null, hinted: [], wrong: [], ticker: 0, press: 0, pick: 1, request: null, opened: 0 };
/** The marks of colours 1, 2, ... (as /api/hint reads them); a link's colour letters (a: colour 1, b: colour 2, ...). */
const COLOUR_MARKS = "123456789ABCDEFGHIJKLMNOPQRSTUVWYZ", LETTERS = "abcdefghijklmnopqrstuvwxyz";
/** The colour of a mark: 0 for a cross or an unknown cell. */
const colourOf = (mark) => COLOUR_MARKS.indexOf(mark) + 1;
const playBoard = new Board($("#play-board"), "play", 520);
playBoard.maxCell = 64; // Play's cells follow the window (playFit), up to this, before the player's zoom
/** Play's board fits the window: the largest cells (up to maxCell, at least legible) whose board and clues fit
 *  the panel's width and the window's height under the toolbar; then the player's zoom.  The clues' room follows
 *  the cell (their font does): measured at one size, scaled to the next, twice. */
function playFit() {
  const { n, m } = play.puzzle, box = $("#play-board").parentElement;
  const top = box.getBoundingClientRect().top + window.scrollY;
  const height = Math.max(200, window.innerHeight - Math.min(top, 260) - 16);
  let cell = 20;
  for (let pass = 0; pass < 2 && box.clientWidth; pass++) {
    playBoard.size(n, m, 1, cell);
    const clueWidth = playBoard.rows.offsetWidth, clueHeight = playBoard.cols.offsetHeight;
    const across = (box.clientWidth - 2) / (m + clueWidth / playBoard.cell), down = height / (n + clueHeight / playBoard.cell);
    cell = clamp(Math.floor(Math.min(across, down)), 1, playBoard.maxCell);
  }
  playBoard.size(n, m, play.zoom, cell);
}
const ZOOMS = [0.5, 0.625, 0.8, 1, 1.25, 1.6, 2, 2.5, 3];
/** Zoom Play's board one step in (+1) or out (-1); kept with the puzzle's progress. */
function playZoom(step) {
  if (!play.puzzle) return;
  const at = ZOOMS.findIndex((z) => z >= play.zoom);
  play.zoom = ZOOMS[clamp((at < 0 ? ZOOMS.length - 1 : at) + step, 0, ZOOMS.length - 1)];
  playFit();
  playSave();
  playRender();
}
window.addEventListener("resize", () => { if (play.puzzle && !$("#panel-play").hidden) { playFit(); playRender(); } });
const SOLVED_KEY = (size) => `localcount-solved:${size}`;

/** A puzzle's clues as a link: lines joined by ".", numbers by "," ("0": an empty line), rows "_" columns (+ "_y"). */
/** A puzzle's link: "c=CLUES", a colour puzzle's "&p=" and its colours, and "&t=TITLE" when it has a title (the title
 *  is not part of its saved progress). */
const clueLink = (p) => `c=${encodeClues(p)}${paletteLink(p)}${p.title ? `&t=${encodeURIComponent(p.title)}` : ""}`;
/** A colour puzzle's colours 1, 2, ... in a link: "&p=ff0000.00b000" ('' for black and white). */
const paletteLink = (p) => (p.palette ? `&p=${p.palette.slice(1).map((c) => c.rgb.toLowerCase()).join(".")}` : "");

/** A colour puzzle's runs are their length and their colour's letter: "3a,1b" (a: colour 1). */
function encodeClues(p) {
  const run = (r) => (Array.isArray(r) ? `${r[0]}${LETTERS[r[1] - 1]}` : r);
  const half = (clues) => clues.map((c) => (c.length ? c.map(run).join(",") : "0")).join(".");
  return `${half(p.rows)}_${half(p.columns)}${p.variant === "yesnogram" ? "_y" : ""}`;
}

/** The request body of a link's clues, or null; ``palette`` (a link's "p=": colours 1, 2, ... as hex, "." between):
 *  a colour puzzle, whose runs may end in their colour's letter, sent as the .non file it makes. */
function decodeClues(text, palette = "") {
  const parts = text.split("_");
  if (parts.length < 2 || parts.length > 3 || (parts[2] && parts[2] !== "y")) return null;
  const hexes = palette ? palette.split(".") : [];
  if (hexes.some((h) => !/^[0-9a-f]{6}$/i.test(h)) || hexes.length > LETTERS.length || (palette && parts[2])) return null;
  // every run a whole number ("0" alone: an empty line), a colour puzzle's maybe with its colour's letter; anything else
  // ("zz", "", "1e2", a letter past the colours) makes the link unreadable
  const letters = LETTERS.slice(0, hexes.length);
  const run = (v) => (/^\d+[a-z]?$/.test(v) && (/^\d+$/.test(v) || letters.includes(v.slice(-1))) ? v : null);
  const half = (t) => t.split(".").map((c) => c.split(",").map(run).filter((v) => v === null || Number.parseInt(v, 10) !== 0));
  const [rows, columns] = parts.slice(0, 2).map(half);
  if ([...rows, ...columns].flat().some((v) => v === null)) return null;
  if (!palette) return { rows: rows.map((c) => c.map(Number)), columns: columns.map((c) => c.map(Number)), variant: parts[2] ? "yesnogram" : "nonogram" };
  const lines = (clues) => clues.map((c) => c.map((v) => (/\d$/.test(v) ? `${v}a` : v)).join(",") || "0"); // 3: 3a
  const file = [`width ${columns.length}`, `height ${rows.length}`, ...hexes.map((h, k) => `color ${letters[k]} #${h}`),
    "rows", ...lines(rows), "columns", ...lines(columns)];
  return { text: `${file.join("\n")}\n`, format: "non" };
}

const playKey = () => `localcount-play:${encodeClues(play.puzzle)}${paletteLink(play.puzzle)}`;
const minutes = (ms) => { const s = Math.floor(ms / 1000); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };
const playTime = () => play.elapsed + (play.since === null ? 0 : Date.now() - play.since);
/** " with 2 hints and 1 check" for a solve that used them ('' for none). */
const playAids = () => {
  const words = [[play.hints, "hint"], [play.checks, "check"]].filter(([k]) => k).map(([k, w]) => `${k} ${w}${k === 1 ? "" : "s"}`);
  return words.length ? ` with ${words.join(" and ")}` : "";
};
const solvedText = () => `solved in ${minutes(play.elapsed)}${playAids()}${bestNote()}`;
/** This puzzle's best time in this browser (ms, any solve, aids or not), or null before its first solve. */
const BEST_KEY = () => `${playKey()}:best`;
function playBest() {
  let kept = null;
  try { kept = localStorage.getItem(BEST_KEY()); } catch { kept = null; }
  return kept !== null && Number.isFinite(Number(kept)) ? Number(kept) : null;
}
/** A solve's time against the best before it (play.bestBefore, set by the solve; else the one kept):
 *  ", a new best (was 1:02)", ", best 0:41", or '' for a first solve or one that is the best. */
function bestNote() {
  const was = play.bestBefore !== undefined ? play.bestBefore : playBest();
  if (was === null || play.elapsed === was) return "";
  return play.elapsed < was ? `, a new best (was ${minutes(was)})` : `, best ${minutes(was)}`;
}
/** Keep this solve's time if it is the best so far (called once per solve). */
function playRecordBest() {
  play.bestBefore = playBest();
  if (play.bestBefore === null || play.elapsed < play.bestBefore) {
    try { localStorage.setItem(BEST_KEY(), String(play.elapsed)); } catch { /* private mode: not kept */ }
  }
}

/** The clock runs only while a puzzle is open, unsolved and on screen (Play shown, the browser tab visible). */
function playClock() {
  const run = !!play.puzzle && !play.solved && !$("#panel-play").hidden && document.visibilityState !== "hidden";
  if (run && play.since === null) play.since = Date.now();
  if (!run && play.since !== null) Object.assign(play, { elapsed: playTime(), since: null });
  $("#play-timer").dataset.running = String(run);
}
document.addEventListener("visibilitychange", playClock);
const lineOf = (kind, i) => (kind === "row" ? play.marks[i] : play.marks.map((row) => row[i]));
/** A line's filled runs: runs of "1" (a yesnogram row: runs of cells not filled). */
const lineRuns = (kind, i) => (play.puzzle.palette ? colourRuns(lineOf(kind, i).map(colourOf))
  : runs(lineOf(kind, i).map((v) => (kind === "row" && play.puzzle.variant === "yesnogram" ? v !== "1" : v === "1"))));
/** The runs [length, colour] of a line of colours (0 the background). */
function colourRuns(colours) {
  const out = [];
  colours.forEach((v, j) => { if (v && j && colours[j - 1] === v) out[out.length - 1][0]++; else if (v) out.push([1, v]); });
  return out;
}
/** Two clues are the same (numbers, or colour runs [length, colour]). */
const sameClue = (a, b) => a.length === b.length && a.every((v, i) => String(v) === String(b[i]));
/** True when a line's runs have more cells of some colour than its clue (a number: colour 1). */
const overfull = (got, clue) => {
  const tally = (list) => list.reduce((t, r) => { const [n, k] = Array.isArray(r) ? r : [r, 1]; t[k] = (t[k] || 0) + n; return t; }, {});
  const need = tally(clue);
  return Object.entries(tally(got)).some(([k, n]) => n > (need[k] || 0));
};
/** A mark that decides nothing: unknown, or a dot (the player's "maybe"). */
const undecided = (v) => v === "." || v === "o";

/** Open a puzzle ({n, m, rows, columns, variant, title}) in Play: its saved marks and time if any; link: the address. */
function playOpen(puzzle, link, everyInfo = null, request = null) {
  if (puzzle.palette && puzzle.palette.length > LETTERS.length + 1) {
    return say(`play: the page plays puzzles of at most ${LETTERS.length} colours, this one has ${puzzle.palette.length - 1}`, "error", "play");
  }
  play.opened++; // what was on its way to Play (a link's puzzle, a warning) is moot now
  say("", "info", "", "play"); // the last puzzle's message goes with it
  Object.assign(play, { puzzle, link, every: everyInfo, undo: [], redo: [], hinted: [], wrong: [], cursor: [0, 0], stroke: null,
    hints: 0, checks: 0, bestBefore: undefined, pick: 1, request: puzzle.palette ? request || colourRequest(puzzle) : null });
  const markChars = `.xo${COLOUR_MARKS.slice(0, puzzle.palette ? puzzle.palette.length - 1 : 1)}`;
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(playKey()) || "null"); } catch { saved = null; }
  const fits = saved && Array.isArray(saved.marks) && saved.marks.length === puzzle.n && saved.marks.every((r) => typeof r === "string" && [...r].every((v) => markChars.includes(v)) && r.length === puzzle.m);
  play.marks = fits ? saved.marks.map((r) => r.split("")) : Array.from({ length: puzzle.n }, () => Array(puzzle.m).fill("."));
  play.elapsed = fits ? Number(saved.elapsed) || 0 : 0;
  play.solved = fits && !!saved.solved;
  if (fits) Object.assign(play, { hints: Number(saved.hints) || 0, checks: Number(saved.checks) || 0 });
  play.since = play.solved ? null : Date.now();
  play.zoom = fits && ZOOMS.includes(Number(saved.zoom)) ? Number(saved.zoom) : 1;
  playBoard.setClues(puzzle.rows, puzzle.columns, puzzle.palette);
  playPalette();
  $("#play-title").textContent = everyInfo ? `${everyInfo.size} puzzle #${thousands(everyInfo.k)}${everyInfo.steps ? ` (of ${counted(everyInfo.steps, "step")})` : ""} of ${thousands(everyInfo.of)}`
    : titled(puzzle.title || "puzzle", puzzle, puzzle.variant === "nonogram" ? "" : "yesnogram", puzzle.palette ? counted(puzzle.palette.length - 1, "colour") : "");
  $("#play-title").dataset.link = link;
  playEnable();
  $("#play-next").hidden = !everyInfo;
  playStatus(play.solved ? solvedText() : fits ? "your marks so far, kept in this browser" : "", play.solved ? "solved" : "");
  playCheckSolved(); // a puzzle with no filled cell is solved as it opens
  showTab("play"); // fits the board (loaders.play) and draws it
  if (!everyInfo) playWarnIfNotUnique(play.request || { rows: puzzle.rows, columns: puzzle.columns, variant: puzzle.variant });
}

/** With no puzzle open, Play's controls that act on one are off and a line says how to get one, in the board's place. */
function playEnable() {
  const none = !play.puzzle;
  for (const name of ["hint", "check", "restart", "zoom-in", "zoom-out", "undo", "redo"]) $(`#play-${name}`).disabled = none;
  $("#play-board").parentElement.hidden = none;
  $("#play-none").hidden = !none;
}
playEnable();

function playStatus(text, kind = "") {
  $("#play-status").textContent = text;
  $("#play-status").dataset.kind = kind;
  if (play.puzzle && play.puzzle.palette) colourWords($("#play-status"), play.puzzle.palette);
}

/** A colour puzzle's file for /api/hint when the page has none (a puzzle of Files has its own): its .non, as a link's. */
function colourRequest(p) {
  const link = encodeClues(p), hexes = paletteLink(p).slice(3);
  return decodeClues(link, hexes);
}

/** Each colour's name in a text (a hint's reason) gets a swatch of the colour before it. */
function colourWords(node, palette) {
  const names = palette.slice(1).map((c) => c.name).filter(Boolean).sort((a, b) => b.length - a.length);
  if (!names.length) return;
  const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const parts = node.textContent.split(new RegExp(`(?<![\\w#])(${names.map(escape).join("|")})(?![\\w])`));
  if (parts.length < 2) return;
  node.replaceChildren(...parts.map((part, i) => {
    const colour = i % 2 ? palette.find((c) => c.name === part) : null;
    return colour ? el("span", { class: "named" }, el("span", { class: "swatch", style: `background:#${colour.rgb}` }), part) : part;
  }));
}

/** The palette of a colour puzzle (hidden for black and white): a button a colour (keys 1-9), the picked one pressed. */
function playPalette() {
  const box = $("#play-palette"), palette = play.puzzle.palette;
  box.hidden = !palette;
  box.replaceChildren(...(palette || []).slice(1).map((c, i) => {
    const button = el("button", { type: "button", "data-colour": i + 1, "aria-pressed": String(i + 1 === play.pick),
      title: `paint ${c.name}${i < 9 ? ` (key ${i + 1})` : ""}`, "aria-label": `colour ${i + 1}: ${c.name}` },
    el("span", { class: "swatch", style: `background:#${c.rgb}` }), el("span", { text: String(i + 1) }));
    button.addEventListener("click", () => { playPick(i + 1); $("#play-board").focus({ preventScroll: true }); });
    return button;
  }));
}

/** Pick the colour a fill paints. */
function playPick(k) {
  play.pick = k;
  for (const b of $("#play-palette").children) b.setAttribute("aria-pressed", String(Number(b.dataset.colour) === k));
}

function playSave() {
  const marks = play.marks.map((r) => r.join(""));
  const kept = { marks, elapsed: playTime(), solved: play.solved, hints: play.hints, checks: play.checks, zoom: play.zoom };
  try { localStorage.setItem(playKey(), JSON.stringify(kept)); } catch { /* private mode: not kept */ }
  $("#play-board").dataset.marks = JSON.stringify(marks);
}

/** Where each run of ``clue`` starts in the leftmost placement that fits a line's marks (a colour 1, 2, ... in a run,
 *  0 a gap, null unknown; black and white: 1 or 0), or null if none fits.  A run is a number (colour 1) or [length,
 *  colour]; runs of one colour need a gap between them, of two colours not.  fits[i][j]: runs i.. can be placed in
 *  cells j.. (a DP from the right). */
function leftmostStarts(line, clue) {
  const L = line.length, k = clue.length;
  const len = clue.map((r) => (Array.isArray(r) ? r[0] : r)), col = clue.map((r) => (Array.isArray(r) ? r[1] : 1));
  const gap = (j) => line[j] === null || line[j] === 0;
  const fits = Array.from({ length: k + 1 }, () => new Array(L + 2).fill(false));
  const gapFrom = new Array(L + 1).fill(true); // no cell marked a colour from j on
  for (let j = L - 1; j >= 0; j--) gapFrom[j] = gapFrom[j + 1] && gap(j);
  const next = (i, j) => j + len[i] + (i + 1 < k && col[i + 1] === col[i] ? 1 : 0); // where run i + 1 may start
  const runAt = (i, j) => j + len[i] <= L && line.slice(j, j + len[i]).every((v) => v === null || v === col[i])
    && (next(i, j) === j + len[i] ? fits[i + 1][j + len[i]] : j + len[i] < L && gap(j + len[i]) && fits[i + 1][next(i, j)]);
  for (let j = L + 1; j >= 0; j--) fits[k][j] = j >= L || gapFrom[j];
  for (let i = k - 1; i >= 0; i--) {
    for (let j = L; j >= 0; j--) fits[i][j] = j < L && ((gap(j) && fits[i][j + 1]) || runAt(i, j));
  }
  if (!fits[0][0]) return null;
  const starts = [];
  let j = 0;
  for (let i = 0; i < k; i++) {
    while (!runAt(i, j)) j++; // the cells skipped are gaps: fits[i][j] said so
    starts.push(j);
    j = next(i, j);
  }
  return starts;
}

/** The clue numbers (indices) the marks fix: the run's place is the same in every placement that fits them, its
 *  cells are all marked in the run and it is bounded by gaps or the line's ends. */
function finishedRuns(line, clue) {
  const left = leftmostStarts(line, clue);
  const right = leftmostStarts([...line].reverse(), [...clue].reverse());
  if (!left || !right) return [];
  const L = line.length;
  return clue.flatMap((r, i) => {
    const [len, col] = Array.isArray(r) ? r : [r, 1];
    const start = left[i], end = L - right[clue.length - 1 - i]; // the rightmost placement's run, turned back
    if (end - len !== start) return [];
    const other = (j) => line[j] !== null && line[j] !== col; // a gap, or another colour
    const bounded = (start === 0 || other(start - 1)) && (start + len === L || other(start + len));
    return bounded && line.slice(start, start + len).every((v) => v === col) ? [i] : [];
  });
}

/** Strike finished clues, redden lines that cannot be right (every cell marked and the runs differ, or too many filled). */
function playClues() {
  const { puzzle } = play;
  for (const [kind, clues, box] of [["row", puzzle.rows, playBoard.rows], ["col", puzzle.columns, playBoard.cols]]) {
    clues.forEach((clue, i) => {
      const line = lineOf(kind, i), got = lineRuns(kind, i);
      const yes = kind === "row" && puzzle.variant === "yesnogram";
      const open = line.some(undecided);
      const done = sameClue(got, clue) && (yes ? !open : true);
      const wrong = (!open && !sameClue(got, clue)) || (!yes && overfull(got, clue));
      box.children[i].dataset.state = wrong ? "wrong" : done ? "done" : "";
      // each number its marks finish, struck on its own (a line's marks as 1 in a run, 0 a gap, null unknown)
      const values = yes ? line.map((v) => (v === "x" ? 1 : v === "1" ? 0 : null)) : line.map((v) => (undecided(v) ? null : colourOf(v)));
      const finished = new Set(wrong || done ? [] : finishedRuns(values, clue));
      [...box.children[i].children].forEach((span, k) => { span.dataset.done = String(finished.has(k)); });
    });
  }
}

function playRender() {
  if (!play.puzzle) return;
  const { marks, hover, hinted, wrong } = play;
  const mark = (list) => new Set(list.map(([r, c]) => `${r},${c}`));
  const hint = mark(hinted), bad = mark(wrong), palette = play.puzzle.palette;
  const cursor = [document.body, $("#play-board")].includes(document.activeElement) && play.keyboard ? [play.cursor] : [];
  // a colour puzzle's cells keep their colours: a wrong one is outlined, a hinted one dotted
  const painted = (r, c) => (palette && colourOf(marks[r][c]) ? palette[colourOf(marks[r][c])].rgb : null);
  playBoard.draw({
    fill: (r, c) => {
      const k = `${r},${c}`;
      if (painted(r, c)) return `#${painted(r, c)}`;
      if (bad.has(k)) return marks[r][c] === "1" ? "#b91c1c" : "#fecaca";
      if (marks[r][c] === "1") return hint.has(k) ? NEW : BLACK;
      if (hint.has(k)) return "#dbeafe";
      return hover && (hover[0] === r || hover[1] === c) ? "#fef9c3" : null;
    },
    dot: (r, c) => (painted(r, c) && hint.has(`${r},${c}`) ? (lightRgb(painted(r, c)) ? "#000" : "#fff") : null),
    outline: palette ? [...cursor, ...wrong.filter(([r, c]) => painted(r, c))] : cursor,
  });
  const { ctx, cell } = playBoard;
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = Math.max(1, cell / 14);
  ctx.beginPath();
  marks.forEach((row, r) => row.forEach((v, c) => {
    if (v !== "x") return;
    const a = cell * 0.3;
    ctx.moveTo(c * cell + a, r * cell + a); ctx.lineTo((c + 1) * cell - a, (r + 1) * cell - a);
    ctx.moveTo((c + 1) * cell - a, r * cell + a); ctx.lineTo(c * cell + a, (r + 1) * cell - a);
  }));
  ctx.stroke();
  ctx.fillStyle = "#6b7280"; // dots: a small disc in the cell's middle
  marks.forEach((row, r) => row.forEach((v, c) => {
    if (v !== "o") return;
    ctx.beginPath();
    ctx.arc((c + 0.5) * cell, (r + 0.5) * cell, Math.max(1.5, cell * 0.12), 0, 2 * Math.PI);
    ctx.fill();
  }));
  playClues();
  $("#play-undo").disabled = !play.undo.length;
  $("#play-redo").disabled = !play.redo.length;
  $("#play-timer").textContent = minutes(playTime());
  $("#play-board").dataset.marks = JSON.stringify(marks.map((r) => r.join("")));
}

/** Apply changes [r, c, before, after] as one undoable step (auto-crossing what they finish), then check for the end.
 *  An undo or redo (``record`` false) and a restart (``auto`` false) cross nothing more: what they restore is all. */
function playApply(changes, { record = true, auto = record } = {}) {
  if (!changes.length) return;
  for (const [r, c, , after] of changes) play.marks[r][c] = after;
  if (auto && $("#play-autocross").checked) {
    const touched = new Set(changes.flatMap(([r, c]) => [`row:${r}`, `col:${c}`]));
    for (const key of touched) {
      const [kind, i] = [key.split(":")[0], Number(key.split(":")[1])];
      const clue = kind === "row" ? play.puzzle.rows[i] : play.puzzle.columns[i];
      if (kind === "row" && play.puzzle.variant === "yesnogram") continue; // its empty cells are the clue's
      if (!sameClue(lineRuns(kind, i), clue)) continue;
      const cellsOf = kind === "row" ? play.marks[i].map((_, c) => [i, c]) : play.marks.map((_, r) => [r, i]);
      for (const [r, c] of cellsOf) if (undecided(play.marks[r][c])) { changes.push([r, c, play.marks[r][c], "x"]); play.marks[r][c] = "x"; }
    }
  }
  if (record) { play.undo.push(changes); play.redo = []; }
  if (play.wrong.length && $("#play-status").dataset.kind === "mistakes") playStatus(""); // its red marks go now
  play.wrong = [];
  playCheckSolved();
  playSave();
  playRender();
}

function playCheckSolved() {
  const { puzzle } = play;
  const solved = puzzle.rows.every((clue, r) => sameClue(lineRuns("row", r), clue)) && puzzle.columns.every((clue, c) => sameClue(lineRuns("col", c), clue));
  if (solved && !play.solved) {
    play.elapsed = playTime();
    Object.assign(play, { solved: true, since: null, hinted: [] });
    playRecordBest();
    playStatus(solvedText(), "solved");
    if (play.every) {
      const done = new Set(JSON.parse(localStorage.getItem(SOLVED_KEY(play.every.size)) || "[]"));
      done.add(play.every.k);
      localStorage.setItem(SOLVED_KEY(play.every.size), JSON.stringify([...done]));
    }
  } else if (!solved && play.solved) {
    Object.assign(play, { solved: false, since: null });
    playStatus("");
  }
  playClock(); // stopped by a solve, started again by an unsolve
}

function playUndo(from, to, index) {
  const step = from.pop();
  if (!step) return;
  to.push(step);
  playApply(step.map((ch) => [ch[0], ch[1], ch[3 - index], ch[2 + index]]).reverse(), { record: false });
}

/** Whether a mark of ``kind`` may go on a cell marked ``was``: an unknown one, or a dot under a fill or a cross. */
const markable = (was, kind) => was === "." || (was === "o" && kind !== "o");
/** True when a fill of colour ``kind`` paints over mark ``was``: another colour (a colour puzzle's; never a cross
 *  or a dot's own mark). */
const recolours = (kind, was) => !["x", "o"].includes(kind) && ![".", "x", "o", kind].includes(was);
/** A stroke starts on a cell with a kind ("1".. a colour's fill, "x" cross, "o" dot): it clears that kind if the
 *  cell has it, else sets it on unknown cells only (a fill or a cross goes over a dot, a fill over another colour). */
function playStroke(cell, kind) {
  const [r, c] = cell;
  const clears = play.marks[r][c] === kind;
  if (!clears && !markable(play.marks[r][c], kind) && !recolours(kind, play.marks[r][c])) return null;
  return { kind, clears, seen: new Set(), changes: [] };
}

function playStrokeAt(cell) {
  const s = play.stroke;
  if (!s || !cell) return;
  const key = `${cell[0]},${cell[1]}`;
  if (s.seen.has(key)) return;
  s.seen.add(key);
  const [r, c] = cell, was = play.marks[r][c];
  if (s.clears ? was === s.kind : markable(was, s.kind) || recolours(s.kind, was)) {
    const after = s.clears ? "." : s.kind;
    s.changes.push([r, c, was, after]);
    play.marks[r][c] = after;
    playRender();
  }
}

/** [what a click or a tap marks, what the right button, Shift or a long press marks]: the Mode button's choice
 *  (its data-kind: "1" fill in the picked colour, "x" cross, "o" dot, which only Dots offers). */
const playModeKinds = () => {
  const fill = COLOUR_MARKS[play.pick - 1];
  return ({ x: ["x", fill], o: ["o", fill] })[$("#play-mode").dataset.kind] || [fill, "x"];
};
const MODE_NAMES = { 1: "fill", x: "cross", o: "dot" };
function playSetMode(kind) {
  const button = $("#play-mode");
  button.dataset.kind = kind;
  button.setAttribute("aria-pressed", String(kind !== "1"));
  button.textContent = `Mode: ${MODE_NAMES[kind]}`;
}
$("#play-mode").addEventListener("click", () => { // fill -> cross (-> dot, with Dots on) -> fill
  const order = $("#play-dots").checked ? ["1", "x", "o"] : ["1", "x"];
  playSetMode(order[(order.indexOf($("#play-mode").dataset.kind || "1") + 1) % order.length]);
});
/** Dots, a third mark ("maybe") for players who think ahead: off unless chosen, kept in this browser. */
const DOTS_KEY = "localcount-play-dots";
function playDots(on) {
  $("#play-dots").checked = on;
  if (!on && $("#play-mode").dataset.kind === "o") playSetMode("1");
  try { localStorage.setItem(DOTS_KEY, on ? "1" : "0"); } catch { /* private mode: not kept */ }
}
$("#play-dots").addEventListener("change", (e) => playDots(e.target.checked));
playDots((() => { try { return localStorage.getItem(DOTS_KEY) === "1"; } catch { return false; } })());

/** The stroke's length beside the pointer while it drags over two cells or more (hidden otherwise, or at its end). */
function playDragCount(e) {
  const counter = $("#play-drag"), cells = e && play.stroke ? play.stroke.seen.size : 0;
  counter.hidden = cells < 2;
  if (counter.hidden) return;
  counter.textContent = String(cells);
  Object.assign(counter.style, { left: `${e.clientX + 14}px`, top: `${e.clientY - 22}px` });
}

function playStrokeEnd() {
  const s = play.stroke;
  play.stroke = null;
  if (!s || !s.changes.length) return;
  for (const [r, c, before] of s.changes) play.marks[r][c] = before; // playApply sets them again, as one step
  playApply(s.changes);
}

{
  const canvas = playBoard.canvas;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    const cell = playBoard.cellAt(e);
    if (!cell || !play.puzzle) return;
    e.preventDefault(); // (which also keeps the browser from moving the focus: the board takes it itself)
    $("#play-board").focus({ preventScroll: true });
    play.keyboard = false;
    canvas.setPointerCapture(e.pointerId);
    const [tap, other] = playModeKinds();
    if (e.pointerType === "touch") { // a tap marks as the mode says; a long press the other
      play.press = setTimeout(() => { play.press = 0; play.stroke = playStroke(cell, other); playStrokeAt(cell); }, 450);
      play.pressCell = cell;
      return;
    }
    play.stroke = playStroke(cell, e.button === 2 || e.shiftKey ? other : tap);
    playStrokeAt(cell);
  });
  canvas.addEventListener("pointermove", (e) => {
    const cell = playBoard.cellAt(e);
    if (play.press && cell && String(cell) !== String(play.pressCell)) { // a touch that moves: a fill stroke
      clearTimeout(play.press);
      play.press = 0;
      play.stroke = playStroke(play.pressCell, playModeKinds()[0]);
      playStrokeAt(play.pressCell);
    }
    if (play.stroke) {
      const last = [...play.stroke.seen].pop().split(",").map(Number);
      for (const x of between(last, cell || last)) playStrokeAt(x);
    }
    playDragCount(e);
    if (String(cell) !== String(play.hover)) { play.hover = cell; playRender(); }
  });
  const end = () => {
    if (play.press) { clearTimeout(play.press); play.press = 0; play.stroke = playStroke(play.pressCell, playModeKinds()[0]); playStrokeAt(play.pressCell); }
    playStrokeEnd();
    playDragCount(null);
  };
  for (const name of ["pointerup", "pointercancel"]) canvas.addEventListener(name, end);
  canvas.addEventListener("pointerleave", () => { if (!play.stroke) { play.hover = null; playRender(); } });
}

/** Ask for a hint: its cells applied (as an undoable step) and shown, its reason said; or the mistakes shown. */
/** /api/hint on the marks so far (the button disabled meanwhile); null when nothing is open or on an error. */
async function playAsk(button) {
  if (!play.puzzle) return null;
  const { rows, columns, variant } = play.puzzle;
  const marks = play.marks.map((r) => r.map((v) => (v === "o" ? "." : v)).join("")); // a dot decides nothing
  return api("hint", play.request ? { ...play.request, marks } : { rows, columns, variant, marks }, [button]);
}

async function playHint() {
  const got = await playAsk($("#play-hint"));
  if (!got) return;
  if (got.solved) return playStatus(play.solved ? $("#play-status").textContent : "solved", "solved");
  // counted when it tells something: cells to mark, wrong marks, a line the marks leave no way to fill (not "stuck")
  if (got.mistakes || got.kind === "contradiction" || got.filled.length + got.empty.length) play.hints += 1;
  if (got.mistakes) {
    play.wrong = got.mistakes;
    playRender();
    return playStatus(`${got.reason}: shown in red`, "mistakes");
  }
  const fill = (i) => (got.colours ? COLOUR_MARKS[got.colours[i] - 1] : "1"); // a colour puzzle's: each cell's colour
  const changes = [...got.filled.map(([r, c], i) => [r, c, play.marks[r][c], fill(i)]), ...got.empty.map(([r, c]) => [r, c, play.marks[r][c], "x"])];
  playStatus(got.reason, got.kind);
  $("#play-status").dataset.line = got.line || "";
  play.hinted = [...got.filled, ...got.empty]; // before the step: the step that solves the puzzle clears it
  playApply(changes);
  playRender();
}

async function playCheck() {
  const got = await playAsk($("#play-check"));
  if (!got) return;
  if (!got.solved) play.checks += 1;
  play.wrong = got.mistakes || [];
  playRender();
  if (got.mistakes) playStatus(`${got.reason}: shown in red`, "mistakes");
  else if (got.kind === "contradiction") playStatus(got.reason, "mistakes");
  else playStatus(got.solved ? "solved" : "no mistakes so far", got.solved ? "solved" : "");
}

$("#play-hint").addEventListener("click", playHint);
/** Play's line numbers every 5 (the Numbers box), kept in this browser for every puzzle. */
const NUMBERS_KEY = "localcount-play-numbers";
function playNumbers(on) {
  $("#play-numbers").checked = on;
  $("#play-board").classList.toggle("numbers", on);
  try { localStorage.setItem(NUMBERS_KEY, on ? "1" : "0"); } catch { /* private mode: not kept */ }
}
$("#play-numbers").addEventListener("change", (e) => playNumbers(e.target.checked));
playNumbers((() => { try { return localStorage.getItem(NUMBERS_KEY) !== "0"; } catch { return true; } })());
$("#play-zoom-in").addEventListener("click", () => playZoom(1));
$("#play-zoom-out").addEventListener("click", () => playZoom(-1));
$("#play-board").addEventListener("wheel", (e) => { // Ctrl+wheel over the board zooms it, not the page
  if (!e.ctrlKey) return;
  e.preventDefault();
  playZoom(e.deltaY < 0 ? 1 : -1);
}, { passive: false });
// A toolbar control hands the keyboard back to the board once used: Space then marks a cell, it does not press the
// button again, and Ctrl+Z undoes after ticking Auto-cross.
for (const control of document.querySelectorAll("#panel-play .toolbar button, #panel-play .toolbar input")) {
  control.addEventListener(control.tagName === "INPUT" ? "change" : "click", () => $("#play-board").focus({ preventScroll: true }));
}
$("#play-check").addEventListener("click", playCheck);
$("#play-undo").addEventListener("click", () => playUndo(play.undo, play.redo, 0));
$("#play-redo").addEventListener("click", () => playUndo(play.redo, play.undo, 1));
$("#play-restart").addEventListener("click", () => {
  if (!play.puzzle) return;
  const changes = [];
  play.marks.forEach((row, r) => row.forEach((v, c) => { if (v !== ".") changes.push([r, c, v, "."]); }));
  Object.assign(play, { elapsed: 0, since: Date.now(), solved: false, hints: 0, checks: 0 });
  playStatus("");
  playApply(changes, { auto: false }); // undoable, and no line left crossed
  playCheckSolved(); // (a puzzle with no filled cell: solved again)
});
$("#play-next").addEventListener("click", async () => {
  const e = play.every;
  if (!e) return;
  const done = new Set(JSON.parse(localStorage.getItem(SOLVED_KEY(e.size)) || "[]"));
  let k = e.k + 1;
  while (done.has(k) && k <= e.of) k++;
  if (k > e.of) return say("play: every later puzzle of this size is solved here", "info", "play");
  playOpenLink(everyLink(e.size, e.steps, k));
});
document.addEventListener("keydown", (e) => {
  if ($("#panel-play").hidden || !play.puzzle || e.altKey || e.metaKey || e.target.closest("input, select, textarea, button, [role=tab]")) return;
  const key = e.key.toLowerCase();
  if (e.ctrlKey && (key === "z" || key === "y")) {
    e.preventDefault();
    if (key === "z" && !e.shiftKey) playUndo(play.undo, play.redo, 0);
    else playUndo(play.redo, play.undo, 1);
    return;
  }
  if (e.ctrlKey) return;
  const move = { arrowup: [-1, 0], arrowdown: [1, 0], arrowleft: [0, -1], arrowright: [0, 1] }[key];
  const [r, c] = play.cursor;
  if (move) {
    play.cursor = [clamp(r + move[0], 0, play.puzzle.n - 1), clamp(c + move[1], 0, play.puzzle.m - 1)];
  } else if (key === " " || key === "x" || (key === "d" && $("#play-dots").checked)) {
    const kind = { x: "x", d: "o" }[key] || COLOUR_MARKS[play.pick - 1], was = play.marks[r][c];
    if (was === kind || markable(was, kind) || recolours(kind, was)) playApply([[r, c, was, was === kind ? "." : kind]]);
  } else if (/^[1-9]$/.test(key) && play.puzzle.palette && Number(key) < play.puzzle.palette.length) {
    playPick(Number(key));
    return e.preventDefault();
  } else if (key === "h") {
    playHint();
  } else return;
  e.preventDefault();
  play.keyboard = true;
  playRender();
});
setInterval(() => { if (!$("#panel-play").hidden && play.since !== null) $("#play-timer").textContent = minutes(playTime()); }, 500);
window.addEventListener("pagehide", () => { if (play.puzzle) playSave(); });

const everyLink = (size, steps, k) => `${size}${steps ? `/steps=${steps}` : ""}/${k}`;

/** A link that opens nothing says why, names what is still on the board, and the address names that again. */
function playLinkFailed(link, why) {
  const still = play.puzzle ? `; still playing ${$("#play-title").textContent}` : "";
  say(`play: the link #${link} ${why}${still}`, "error", "play");
  if (play.puzzle && location.hash === `#${link}`) history.replaceState(null, "", `#${play.link}`);
}

/** Open what a link names: "5x5/1234", "5x5-yes/steps=7/12" (Every puzzle) or "c=CLUES"; false if it names none. */
async function playOpenLink(link) {
  const opened = ++play.opened, current = () => play.opened === opened; // a newer link or puzzle: this one is moot
  const numbered = /^(\d+)x(\d+)(-yes)?(?:\/steps=([\d-]+))?\/(\d+)$/.exec(link);
  if (numbered) {
    const [, n, m, yes, steps, k] = numbered;
    const body = { rows: Number(n), columns: Number(m), k: Number(k), variant: yes ? "yesnogram" : "nonogram" };
    if (steps) body.steps = steps;
    const got = await api("nth", body, [], current);
    if (!current()) return true;
    if (!got) { playLinkFailed(link, `opens nothing (${message.textContent})`); return true; }
    playOpen(got.puzzle, link, { size: `${n}x${m}${yes || ""}`, steps: steps || "", k: got.k, of: got.of });
    every.wanted = { size: `${n}x${m}${yes || ""}`, steps: steps || "", k: got.k };
    return true;
  }
  if (/^\d+x\d+/.test(link) && !link.startsWith("c=")) {
    playLinkFailed(link, "names no puzzle: a link is #5x5/1234, #5x5/steps=7/12, #5x5-yes/12 or #c=CLUES");
    return true;
  }
  if (link.startsWith("c=")) {
    const [text, ...params] = link.slice(2).split("&");
    const param = (name) => (params.find((p) => p.startsWith(`${name}=`)) || "").slice(name.length + 1);
    const title = param("t"), clues = decodeClues(decodeURIComponent(text), param("p"));
    if (!clues) { playLinkFailed(link, "cannot be read: its clues are whole numbers, joined by , . and _"); return true; }
    const got = await api("parse", clues, [], current);
    if (!current()) return true;
    if (!got) { playLinkFailed(link, `opens nothing (${message.textContent})`); return true; }
    if (title) got.puzzle.title = decodeURIComponent(title);
    playOpen(got.puzzle, link, null, clues.text ? clues : null);
    return true;
  }
  return false;
}

/** Clues played need not have one solution (a link's, Type's, a drawing's): say so on Play (hints and Check then
 *  judge by the clues, not one picture).  Every puzzle's have one. */
async function playWarnIfNotUnique(clues) {
  const opened = play.opened;
  const got = await api("solve", { ...clues, timeout: 2 }, [], () => play.opened === opened);
  if (!got || play.opened !== opened || got.verdict === "unique") return;
  const text = { multiple: "play: this puzzle has more than one solution: any grid with its clues solves it",
    none: "play: no grid has these clues: the puzzle cannot be solved" }[got.verdict];
  if (text) say(text, "info", "play", "play");
}

/** Play the current puzzle of Files or Every puzzle (its link: the Every puzzle's number, or its clues). */
$("#files-play").addEventListener("click", () => {
  const p = current.puzzle;
  if (current.owner === "every" && every.shown) {
    const s = every.shown, size = `${s.n}x${s.m}${s.variant === "nonogram" ? "" : "-yes"}`;
    const steps = s.within_steps ? (s.within_steps[0] === s.within_steps[1] ? String(s.within_steps[0]) : s.within_steps.join("-")) : "";
    return playOpen(p, everyLink(size, steps, s.k), { size, steps, k: s.k, of: s.of });
  }
  const named = p.title ? p : { ...p, title: current.name }; // the card's name: Play says it too
  playOpen(named, clueLink(named), null, current.request);
});
$("#draw-play").addEventListener("click", async () => {
  const got = await api("parse", drawClues(), [$("#draw-play")]);
  if (!got) return;
  got.puzzle.title = `drawing-${draw.n}x${draw.m}`; // as Open in Files names it
  playOpen(got.puzzle, clueLink(got.puzzle));
});
$("#draw-to-files").addEventListener("click", async () => {
  const clues = drawClues(), got = await api("parse", clues, [$("#draw-to-files")]);
  if (!got) return;
  setCurrent(clues, got.puzzle, `drawing-${draw.n}x${draw.m}`);
  showTab("files");
});
$("#type-play").addEventListener("click", async () => {
  const clues = typeCheck();
  if (!clues) return;
  const request = typeRequest(clues), got = await api("parse", request, [$("#type-play")]);
  if (!got) return;
  if (typeName(clues)) got.puzzle.title = typeName(clues);
  playOpen(got.puzzle, clueLink(got.puzzle), null, request.text ? request : null);
});
window.addEventListener("hashchange", () => {
  const link = location.hash.slice(1);
  if (link !== play.link && /^(\d+x\d+|c=)/.test(link)) playOpenLink(link);
});
loaders.play = () => { if (play.puzzle) { history.replaceState(null, "", `#${play.link}`); playFit(); playRender(); } };

// ---------- 6. Counts ----------

const SERIES = { nonogram: "#2563eb", yesnogram: "#dc2626" };

loaders.counts = async () => {
  if (loaders.counts.done) return;
  const data = await api("results");
  if (!data) return;
  loaders.counts.done = true;
  for (const family of Object.keys(SERIES)) {
    const head = el("tr", {}, ...["n", "m", "cells", "count", "fraction"].map((h) => el("th", { text: h })));
    const rows = (data[family] || []).map((r) => el("tr", {},
      ...[r.n, r.m, r.n * r.m, r.count.replace(/\B(?=(\d{3})+$)/g, "\u202f"), r.fraction >= 1e-3 ? r.fraction.toPrecision(4) : r.fraction.toExponential(3)]
        .map((v) => el("td", { text: String(v) }))));
    $(`#counts-${family}`).replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)));
  }
  $("#counts-plot").innerHTML = plot(data);
};

/** An SVG plot of fraction (log scale) against cells, one colour per family. */
function plot(data) {
  const W = 720, H = 300, L = 56, R = 16, T = 14, B = 40;
  const points = Object.keys(SERIES).flatMap((f) => (data[f] || []).filter((r) => r.fraction > 0).map((r) => ({ f, ...r, cells: r.n * r.m })));
  if (!points.length) return "<p>no counts recorded</p>";
  const xmax = Math.max(...points.map((p) => p.cells), 1);
  const ymin = Math.min(0.5, 0.9 * Math.min(...points.map((p) => p.fraction)));
  const x = (v) => L + ((W - L - R) * v) / xmax, y = (f) => T + ((H - T - B) * Math.log(f)) / Math.log(ymin);
  const step = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000].find((s) => xmax / s <= 8) || 10000;
  const decades = Math.ceil(-Math.log10(ymin));
  const ticks = [];
  const mantissas = decades > 4 ? [1] : decades > 1 ? [1, 0.5, 0.2] : [1, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2];
  for (let e = 0; e <= decades; e++) for (const t of mantissas) if (t * 10 ** -e >= ymin) ticks.push(t * 10 ** -e);
  const parts = [`<svg id="counts-svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="fraction of simple grids against cells">`];
  for (const t of ticks) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(t)}" y2="${y(t)}" class="gridline"/><text x="${L - 6}" y="${y(t) + 4}" text-anchor="end">${t >= 0.01 ? +t.toFixed(2) : t.toExponential(0)}</text>`);
  }
  for (let v = 0; v <= xmax; v += step) parts.push(`<text x="${x(v)}" y="${H - B + 16}" text-anchor="middle">${v}</text>`);
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 6}" text-anchor="middle">cells (n×m)</text>`);
  parts.push(`<text x="14" y="${(T + H - B) / 2}" text-anchor="middle" transform="rotate(-90 14 ${(T + H - B) / 2})">fraction simple</text>`);
  parts.push(`<line x1="${L}" x2="${L}" y1="${T}" y2="${H - B}" class="axis"/><line x1="${L}" x2="${W - R}" y1="${H - B}" y2="${H - B}" class="axis"/>`);
  for (const p of points) {
    parts.push(`<circle cx="${x(p.cells).toFixed(1)}" cy="${y(p.fraction).toFixed(1)}" r="3.5" fill="${SERIES[p.f]}" fill-opacity="0.7"><title>${p.f} ${p.n}×${p.m}: ${p.fraction.toPrecision(4)}</title></circle>`);
  }
  Object.entries(SERIES).forEach(([f, colour], i) => {
    parts.push(`<circle cx="${L + 16}" cy="${H - B - 42 + 18 * i}" r="4" fill="${colour}"/><text x="${L + 26}" y="${H - B - 38 + 18 * i}">${f}s</text>`);
  });
  return parts.join("") + "</svg>";
}

// ---------- start ----------

(async () => {
  drawSet(10, 10);
  typeBuild();
  replayPause();
  const tab = location.hash.slice(1);
  showTab(["draw", "type", "files", "every", "play", "counts"].includes(tab) ? tab : "draw");
  const info = await api("info");
  if (!info) return;
  for (const f of info.formats) $("#save-format").append(el("option", { value: f, text: f }));
  $("#save-format").value = info.formats.includes("non") ? "non" : info.formats[0];
  for (const name of info.examples) $("#type-example").append(el("option", { value: name, text: name }));
  for (const name of info.pictures) $("#design-picture").append(el("option", { value: name, text: name }));
  if (!every.sizes.length) await everyIndexes(); // Draw numbers the drawings of these sizes
  if (/^(\d+x\d+|c=)/.test(tab)) await playOpenLink(tab); // a link to a puzzle: play it
  document.body.dataset.ready = "true";
})();
