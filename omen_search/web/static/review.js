// omen-search serve: the review pages, over app.js's helpers (el, fill, api, drawBoard, stepPicker).
// #/review opens a record (a file, or a game of this server); #/review/<id> follows its analysis,
// then shows both seats' win % graph, the decisions, the board at any of them, and practice.
"use strict";

const SEAT_COLORS = ["#1f6f8b", "#8b2f3c", "#5b7b1f", "#6b4fa0"];
const LABEL_COLORS = { inaccuracy: "#d4a106", mistake: "#e07000", blunder: "#c01818" };
const SVG = "http://www.w3.org/2000/svg";
const rv = { review: null, poll: null, selected: null, board: null, filter: "labelled", practice: null };

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

const interval = (e) => `${pct(e.low)}–${pct(e.high)}`;
const playerName = (review, seat) => (review.you === seat ? "you" : review.players[seat]);
const seatName = (review, seat) => `seat ${seat} (${playerName(review, seat)})`;

function leaveScreens() {
  // stop following a game or a review that is no longer shown
  stopPolling();
  state.game = null;
  if (rv.poll) rv.poll.abort();
  rv.poll = null;
}

// ---------------------------------------------------------------- opening a review

async function showOpenReview() {
  leaveScreens();
  rv.review = null;
  showScreen("screen-review-open");
  document.title = "Review · Omen";
  const list = $("r-games");
  const held = (await api("GET", "/api/play")).games;
  fill(list, held.length ? held.map((g) => el("li", {},
    el("button", { type: "button", "data-game": g.id, onclick: () => openReview({ play: g.id }) },
       `${g.game.title}: ${g.players.join(" vs ")}`,
       el("span", { class: "more" }, `${g.ply} ${g.ply === 1 ? "ply" : "plies"} · ${g.status === "over" ? "over" : "in play"}`))))
    : el("li", { class: "note" }, "No games yet: play one, or open a record file."));
}

async function openReview(source) {
  showError("");
  try {
    const iterations = $("r-iterations").value;  // "" is the default budget, which settles
    const review = await api("POST", "/api/review", iterations ? { ...source, iterations: Number(iterations) } : source);
    location.hash = `#/review/${review.id}`;
  } catch (error) {
    showError(source.record !== undefined && source.name ? `${source.name}: ${error.message}` : error.message);
  }
}

async function openReviewFile(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (file) openReview({ record: await file.text(), name: file.name });
}

// the game just played, from its page
async function reviewGame(id) {
  showError("");
  try {
    const review = await api("POST", "/api/review", { play: id });
    location.hash = `#/review/${review.id}`;
  } catch (error) {
    showError(error.message);
  }
}

// ---------------------------------------------------------------- following the analysis

async function showReview(id) {
  showScreen("screen-review");
  if (rv.review && rv.review.id === id) return;
  leaveScreens();
  Object.assign(rv, { review: null, selected: null, board: null, practice: null, filter: "labelled" });
  fill($("r-graph")); fill($("r-legend")); fill($("r-board")); fill($("r-table").tBodies[0]);
  $("r-detail").hidden = true;
  try {
    renderReview(await api("GET", `/api/review/${encodeURIComponent(id)}`));
  } catch (error) {
    showError(error.message);
    fill($("r-status"), el("a", { href: "#/review" }, "Open another review"));
  }
}

async function followReview() {
  const review = rv.review;
  if (!review || rv.poll || review.status !== "analysing") return;
  const controller = new AbortController();
  rv.poll = controller;
  try {
    const response = await fetch(`/api/review/${encodeURIComponent(review.id)}?after=${review.version}&wait=25`,
                                 { signal: controller.signal });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || response.statusText);
    if (rv.poll !== controller) return;
    rv.poll = null;
    if (rv.review && data.id === rv.review.id) renderReview(data);
  } catch (error) {
    if (error.name === "AbortError") return;
    rv.poll = null;
    showError(error.message);
  }
}

function decisionsOf(review) {
  return review.seats.flatMap((s) => s.decisions).sort((a, b) => a.ply - b.ply);
}

function renderReview(review) {
  rv.review = review;
  const p = review.progress;
  const status = $("r-status");
  const title = el("span", { class: "sub" }, ` · ${review.title} · ${review.iterations} iterations a search${review.settle ? `, settling up to ${review.settle}` : ""}`);
  const tools = [];
  $("r-progress").hidden = review.status !== "analysing";
  if (review.status === "analysing") {
    document.title = "Analysing · Omen";
    $("r-progress").max = Math.max(1, p.total);
    $("r-progress").value = p.done;
    fill(status, el("span", { class: "spinner" }), `Analysing: ${p.done} of ${p.total || "…"} searches`, title);
    tools.push(el("button", { type: "button", id: "r-stop", onclick: () =>
      api("POST", `/api/review/${encodeURIComponent(review.id)}/stop`).catch((e) => showError(e.message)) }, "Stop"));
  } else if (review.status === "done") {
    document.title = "Review · Omen";
    fill(status, review.seats.map((s, i) => [i ? " · " : "", `${seatName(review, s.seat)}: accuracy ${s.accuracy}%`]), title);
    for (const s of review.seats) {
      const labelled = s.decisions.filter((d) => d.label).length;
      if (!labelled || (review.you !== null && review.you !== s.seat)) continue;
      tools.push(el("button", { type: "button", class: "primary practise", "data-seat": s.seat, onclick: () => startPractice(s.seat) },
        review.you === s.seat ? `Practise your mistakes (${labelled})` : `Practise seat ${s.seat}'s mistakes (${labelled})`));
    }
  } else {
    document.title = "Review · Omen";
    fill(status, review.status === "stopped" ? "The analysis was stopped. " : `Something went wrong: ${review.error}. `,
         el("a", { href: "#/review" }, "Open a review again"), title);
  }
  fill($("r-tools"), tools);
  renderGraph(review);
  renderTable(review);
  if (review.status === "done" && !rv.selected) {
    const first = decisionsOf(review).find((d) => d.label) || decisionsOf(review)[0];
    if (first) select(first.seat, first.ply);
  }
  followReview();
}

// ---------------------------------------------------------------- the graph

function niceStep(span, ticks) {
  const raw = span / ticks;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
}

// drawn at the width of its box (a unit is a pixel, so the ticks stay readable on a phone), again on a resize
function renderGraph(review) {
  const W = Math.max(300, $("r-graph").clientWidth || 720), H = W < 600 ? 220 : 280, L = 42, R = 12, T = 12, B = 34;
  const last = Math.max(1, review.plies);
  const x = (ply) => L + (W - L - R) * ply / last;
  const y = (p) => T + (H - T - B) * (1 - p);
  const parts = [svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" })];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === 0.5 ? "grid half" : "grid" }),
               svg("text", { x: L - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, `${100 * v}%`));
  }
  const step = niceStep(last, W < 600 ? 5 : 8);
  for (let ply = 0; ply <= last; ply += step) {
    parts.push(svg("line", { x1: x(ply), x2: x(ply), y1: H - B, y2: H - B + 5, class: "axis" }),
               svg("text", { x: x(ply), y: H - B + 17, class: "tick", "text-anchor": "middle" }, String(ply)));
  }
  parts.push(svg("text", { x: (L + W - R) / 2, y: H - 2, class: "axis-name", "text-anchor": "middle" }, "ply"));
  for (const s of review.seats) {
    const color = SEAT_COLORS[s.seat % SEAT_COLORS.length];
    if (s.decisions.length) {
      parts.push(svg("polyline", { class: "line", "data-seat": s.seat, stroke: color, fill: "none",
        points: s.decisions.map((d) => `${x(d.ply).toFixed(1)},${y(d.before.win_prob).toFixed(1)}`).join(" ") }));
    }
    for (const d of s.decisions) {
      const chosen = rv.selected && rv.selected.seat === s.seat && rv.selected.ply === d.ply;
      parts.push(svg("circle", {
        class: `point ${d.label || "ok"}${chosen ? " chosen" : ""}`, cx: x(d.ply).toFixed(1), cy: y(d.before.win_prob).toFixed(1),
        r: d.label ? 6 : 3.5, fill: d.label ? LABEL_COLORS[d.label] : color, stroke: color,
        "data-seat": s.seat, "data-ply": d.ply, tabindex: "0", role: "button",
        "aria-label": `ply ${d.ply}, seat ${s.seat}: ${d.played}, ${pct(d.before.win_prob)}${d.label ? ", " + d.label : ""}`,
        onclick: () => select(s.seat, d.ply),
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); select(s.seat, d.ply); } },
      }, svg("title", {}, `ply ${d.ply}, seat ${s.seat}: ${d.played} (${pct(d.before.win_prob)} → ${pct(d.after.win_prob)})${d.label ? " " + d.label : ""}`)));
    }
  }
  fill($("r-graph"), review.seats.length
    ? svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": "win % of each seat before each of its decisions", id: "r-svg" }, parts)
    : el("p", { class: "note" }, review.status === "analysing" ? "The graph comes when the analysis ends." : "Nothing to show."));
  fill($("r-legend"),
    review.seats.map((s) => el("li", {}, el("span", { class: "swatch line", style: `background:${SEAT_COLORS[s.seat % SEAT_COLORS.length]}` }),
                                seatName(review, s.seat))),
    Object.entries(LABEL_COLORS).map(([label, color]) => el("li", {}, el("span", { class: "swatch dot", style: `background:${color}` }), label)));
}

// ---------------------------------------------------------------- the decisions

function renderTable(review) {
  const all = decisionsOf(review);
  const labelled = all.filter((d) => d.label);
  const shown = rv.filter === "labelled" && labelled.length ? labelled : all;
  $("r-count").textContent = review.status === "done" ? `· ${labelled.length} labelled of ${all.length}` : "";
  fill($("r-filter"), review.status === "done" ? ["labelled", "all"].map((f) => el("button", {
    type: "button", class: (shown === labelled) === (f === "labelled") ? "on" : "",
    "aria-pressed": (shown === labelled) === (f === "labelled") ? "true" : "false",
    onclick: () => { rv.filter = f; renderTable(review); } }, f === "labelled" ? "Mistakes only" : "Every decision")) : []);
  fill($("r-table").tBodies[0], shown.map((d) => {
    const chosen = rv.selected && rv.selected.seat === d.seat && rv.selected.ply === d.ply;
    return el("tr", { class: `${d.label || "ok"}${chosen ? " chosen" : ""}`, "data-seat": d.seat, "data-ply": d.ply, tabindex: "0",
                      onclick: () => select(d.seat, d.ply),
                      onkeydown: (e) => { if (e.key === "Enter") select(d.seat, d.ply); } },
      el("td", { class: "num" }, d.ply),
      el("td", {}, el("span", { class: "swatch dot", style: `background:${SEAT_COLORS[d.seat % SEAT_COLORS.length]}` }), d.seat),
      el("td", {}, d.played, d.better ? el("div", { class: "note" }, "best: ", d.better) : null),
      el("td", { class: "num" }, `${pct(d.before.win_prob)} → ${pct(d.after.win_prob)}`,
         d.label ? el("div", { class: `label ${d.label}` }, d.label) : null));
  }));
}

async function select(seat, ply, keepPractice) {
  const review = rv.review;
  if (!review) return;
  if (!keepPractice) rv.practice = null;
  rv.selected = { seat, ply };
  renderGraph(review);
  renderTable(review);
  try {
    const board = await api("GET", `/api/review/${encodeURIComponent(review.id)}/decision?seat=${seat}&ply=${ply}`);
    if (!rv.selected || rv.selected.seat !== seat || rv.selected.ply !== ply) return;
    rv.board = board;
    const players = review.players.map((_, s) => playerName(review, s));
    drawBoard($("r-board"), { view: board.view, seat, players, me: players[seat] });
    renderDetail();
  } catch (error) {
    showError(error.message);
  }
}

function estimateCell(e) {
  return [pct(e.win_prob), el("div", { class: "bar" }, el("span", { style: `left:${100 * e.low}%;right:${100 - 100 * e.high}%` })),
          el("div", { class: "note" }, interval(e))];
}

function renderDetail() {
  const box = $("r-detail");
  const d = rv.board, review = rv.review;
  box.hidden = false;
  const order = [...$("r-table").tBodies[0].rows].map((row) => ({ seat: Number(row.dataset.seat), ply: Number(row.dataset.ply) }));
  const at = order.findIndex((x) => x.seat === d.seat && x.ply === d.ply);
  const heading = el("h2", {}, `Ply ${d.ply} · ${seatName(review, d.seat)}`,
    d.label ? el("span", { class: `label ${d.label}` }, d.label) : null,
    el("span", { class: "note" }, [d.turn, d.decision].filter(Boolean).join(" · ")));
  if (rv.practice) {
    fill(box, heading, practicePanel(d));
    return;
  }
  fill(box, heading,
    el("p", {}, "Played ", el("b", {}, d.played), ` (${pct(d.after.win_prob)}, ${interval(d.after)})`,
       d.played === d.best ? ": the best move the search found." : !d.better
         ? [": as good as the search's best, ", el("b", {}, d.best), `, within the search's error (${pct(d.before.win_prob)}, ${interval(d.before)}).`]
         : ["; the best was ", el("b", {}, d.better), ` (${pct(d.before.win_prob)}, ${interval(d.before)}).`],
       d.stake > 0 ? ` At stake: ${d.stake.toFixed(1)} points of win %; accuracy ${d.accuracy}%.` : null),
    d.explain ? el("p", { class: "note" }, d.explain) : null,
    el("table", { class: "best-moves" }, el("thead", {}, el("tr", {}, el("th", {}, "the search's best moves"), el("th", {}, "win % (95%)"))),
      el("tbody", {}, d.top.map((m) => el("tr", { class: m.move === d.played ? "played" : "" },
        el("td", {}, m.move, m.move === d.played ? el("span", { class: "note" }, " · played") : null), el("td", { class: "num" }, estimateCell(m)))))),
    el("div", { class: "tools" },
      el("button", { type: "button", id: "r-prev", disabled: at <= 0, onclick: () => select(order[at - 1].seat, order[at - 1].ply) }, "← previous"),
      el("button", { type: "button", id: "r-next", disabled: at < 0 || at >= order.length - 1, onclick: () => select(order[at + 1].seat, order[at + 1].ply) }, "next →"),
      d.moves.length > 1 ? el("button", { type: "button", id: "r-try", onclick: () => { rv.practice = { list: [d], at: 0, picked: [], answer: null }; renderDetail(); } }, "Try another move here") : null));
}

// ---------------------------------------------------------------- practice

function startPractice(seat) {
  const review = rv.review;
  const list = review.seats.find((s) => s.seat === seat).decisions.filter((d) => d.label);
  rv.practice = { list, at: 0, picked: [], answer: null };
  showPracticeStep();
}

function showPracticeStep() {
  const p = rv.practice;
  const d = p.list[p.at];
  p.picked = [];
  p.answer = null;
  select(d.seat, d.ply, true);
}

function practicePanel(d) {
  const p = rv.practice;
  const more = p.list.length > 1;
  const intro = el("p", { class: "practice-intro" }, more ? `Practice ${p.at + 1} of ${p.list.length}: ` : "",
    "the game went on with ", el("b", {}, d.played), d.label ? ` (${d.label}, ${d.loss.toFixed(0)} points of win % lost)` : "",
    ". Find a better move.");
  const parts = [intro];
  if (p.answer) {
    parts.push(el("p", { class: `verdict ${p.answer.good ? "good" : "bad"}`, role: "status" }, p.answer.text));
    if (p.shown || p.answer.good) parts.push(el("p", { class: "note" }, "The search's best: ", el("b", {}, d.best), ` (${pct(d.before.win_prob)}).`));
  } else if (p.judging) {
    parts.push(el("p", { class: "waiting" }, el("span", { class: "spinner" }), `Searching ${p.judging}…`));
  } else {
    parts.push(stepPicker(d.moves, rv.board.view, p.picked, tryMove,
      (picked) => { p.picked = picked; renderDetail(); focusFirstOption("#r-detail"); }));
  }
  const tools = [];
  if (p.answer) tools.push(el("button", { type: "button", id: "r-again", onclick: () => { p.answer = null; p.picked = []; renderDetail(); focusFirstOption("#r-detail"); } }, "Try again"));
  if (p.answer && !p.answer.good && !p.shown) tools.push(el("button", { type: "button", id: "r-show", onclick: () => { p.shown = true; renderDetail(); } }, "Show the best"));
  if (p.at < p.list.length - 1) tools.push(el("button", { type: "button", class: p.answer ? "primary" : "", id: "r-skip", onclick: () => { p.at += 1; p.shown = false; showPracticeStep(); } }, p.answer ? "Next mistake →" : "Skip →"));
  tools.push(el("button", { type: "button", id: "r-end", onclick: () => { rv.practice = null; renderDetail(); } }, more ? "End practice" : "Done"));
  parts.push(el("div", { class: "tools" }, tools));
  return parts;
}

async function tryMove(move) {
  const p = rv.practice, d = rv.board;
  p.judging = move;
  renderDetail();
  try {
    p.answer = await api("POST", `/api/review/${encodeURIComponent(rv.review.id)}/practice`, { seat: d.seat, ply: d.ply, move });
  } catch (error) {
    showError(error.message);
  } finally {
    p.judging = null;
  }
  if (rv.practice === p) {
    renderDetail();
    const again = $("r-skip") || $("r-again");
    if (again) again.focus();
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("r-file").addEventListener("change", openReviewFile);
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (rv.review && !$("screen-review").hidden) renderGraph(rv.review); }, 150);
  });
});
