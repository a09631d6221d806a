// omen-search serve: the page. Plain JavaScript, no build step, nothing fetched but this server's API.
// Screens by the address's #fragment: #/ the new-game form, #/play/<id> a game, #/review and
// #/review/<id> the reviews (review.js). The board is drawn from the game's own description of it
// (Game.view), so no game is named here.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { games: null, game: null, picked: [], poll: null, lastLog: 0, resignArmed: null };

// ---------------------------------------------------------------- small helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// replaceChildren that, as el does, flattens lists and leaves out null, undefined and false
function fill(node, ...children) {
  node.replaceChildren(...children.flat(2).filter((c) => c !== null && c !== undefined && c !== false));
}

function showError(message) {
  const box = $("alert");
  box.textContent = message;
  box.hidden = !message;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = response.status === 204 ? null : await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(data && data.message ? data.message : `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.kind = data && data.error;
    throw error;
  }
  return data;
}

const pct = (x) => (x === null || x === undefined ? "–" : `${(100 * x).toFixed(0)}%`);

// show one screen (a <main> element) and hide the others
function showScreen(id) {
  for (const screen of document.querySelectorAll("main")) screen.hidden = screen.id !== id;
}

// ---------------------------------------------------------------- the new-game form

async function showNew() {
  stopPolling();
  state.game = null;
  showScreen("screen-new");
  document.title = "New game · Omen";
  if (!state.games) state.games = await api("GET", "/api/games");
  const select = $("f-game");
  if (!select.options.length) {
    for (const g of state.games.games) select.append(el("option", { value: g.name }, g.title));
    for (const o of state.games.opponents) $("f-opponent").append(el("option", { value: o.spec }, o.label));
    $("f-opponent").append(el("option", { value: "custom" }, "another bot: type its spec"));
    $("f-opponent").value = "ismcts:iterations=2000";
    select.addEventListener("change", fillOptions);
    $("f-opponent").addEventListener("change", () => { $("f-custom-label").hidden = $("f-opponent").value !== "custom"; });
  }
  fillOptions();
}

function chosenGame() {
  return state.games.games.find((g) => g.name === $("f-game").value);
}

function fillOptions() {
  const game = chosenGame();
  const main = $("f-options"), more = $("f-more");
  fill(main); fill(more);
  for (const option of game.options) {
    const id = `opt-${option.name}`;
    const label = option.name.replaceAll("_", " ");
    let field;
    if (typeof option.default === "boolean") {
      field = el("label", { class: "check" }, el("input", { type: "checkbox", id, "data-option": option.name }),
                 `${label}: ${option.help}`);
      main.append(field);
      continue;
    }
    const help = el("span", { class: "help" }, option.help);
    if (option.choices) {
      const select = el("select", { id, "data-option": option.name });
      for (const choice of option.choices) select.append(el("option", { value: String(choice) }, String(choice)));
      select.value = String(option.default);
      main.append(el("label", {}, label, help, select));
    } else {
      const input = el("input", { id, "data-option": option.name, value: String(option.default ?? ""),
                                  inputmode: typeof option.default === "number" ? "numeric" : null });
      more.append(el("label", {}, label, help, input));
    }
  }
  const seats = $("f-seat");
  fill(seats, ...game.seats.map((s) => el("option", { value: s }, s === 0 ? "seat 0 (moves first by default)" : `seat ${s}`)));
  const alone = game.seats.length === 1;
  $("f-seat-label").hidden = alone;
  $("f-opponent-label").hidden = alone;
  // a game on its reference engine alone has no search yet: no searching bots, no hints
  for (const option of $("f-opponent").options) option.disabled = !game.search && /^(ismcts|pimc)/.test(option.value);
  if ($("f-opponent").selectedOptions[0]?.disabled) $("f-opponent").value = "greedy";
  $("f-custom-label").hidden = alone || $("f-opponent").value !== "custom";
  $("f-game-note").textContent = (game.automaton
    ? `You play seat ${game.seats.join(", ")}; the ${game.automaton} plays the other seat by the rules.`
    : `${game.players} players: you and the engine.`)
    + (game.search ? "" : " Its core is not built yet: no hints, and the bots do not search.");
}

function formOptions() {
  const game = chosenGame();
  const options = {};
  for (const option of game.options) {
    const field = document.querySelector(`[data-option="${option.name}"]`);
    if (!field) continue;
    let value;
    if (typeof option.default === "boolean") value = field.checked;
    else if (typeof option.default === "number") value = field.value.trim() === "" ? option.default : Number(field.value);
    else value = field.value;
    if (option.choices && typeof option.default === "number") value = Number(value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

async function startGame(event) {
  event.preventDefault();
  showError("");
  const game = chosenGame();
  let opponent = $("f-opponent").value;
  if (opponent === "custom") opponent = $("f-custom").value.trim();
  const body = { game: game.name, seat: Number($("f-seat").value || game.seats[0]), options: formOptions() };
  if (game.seats.length > 1) body.opponent = opponent;
  const seed = $("f-seed").value.trim();
  if (seed) body.seed = /^\d+$/.test(seed) ? Number(seed) : seed;
  $("f-start").disabled = true;
  try {
    const snapshot = await api("POST", "/api/play", body);
    location.hash = `#/play/${snapshot.id}`;
  } catch (error) {
    showError(error.message);
  } finally {
    $("f-start").disabled = false;
  }
}

async function loadRecord(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  showError("");
  try {
    const snapshot = await api("POST", "/api/play/load", { record: await file.text() });
    location.hash = `#/play/${snapshot.id}`;
  } catch (error) {
    showError(`${file.name}: ${error.message}`);
  }
}

// ---------------------------------------------------------------- a game

async function showGame(id) {
  showScreen("screen-play");
  if (!state.game || state.game.id !== id) {
    state.picked = [];
    state.lastLog = -1;
    try {
      render(await api("GET", `/api/play/${encodeURIComponent(id)}`));
    } catch (error) {
      showError(error.message);
      fill($("board"), el("p", {}, el("a", { href: "#/" }, "Start a new game")));
      return;
    }
  }
}

function stopPolling() {
  if (state.poll) state.poll.abort();
  state.poll = null;
}

async function follow() {
  // wait for the game's next change while a bot thinks or a hint runs
  const game = state.game;
  if (!game || state.poll || !(game.status === "thinking" || game.hinting)) return;
  const controller = new AbortController();
  state.poll = controller;
  try {
    const response = await fetch(`/api/play/${encodeURIComponent(game.id)}?after=${game.version}&wait=25`,
                                 { signal: controller.signal });
    const data = await response.json();
    if (!response.ok) throw new Error(data.message || response.statusText);
    if (state.poll === controller) {
      state.poll = null;
      if (state.game && data.id === state.game.id && data.version >= state.game.version) render(data);
    }
  } catch (error) {
    if (error.name === "AbortError") return;
    state.poll = null;
    showError(error.message);
    return;
  }
  follow();
}

async function act(method, path, body) {
  showError("");
  try {
    const data = await api(method, path, body);
    stopPolling();
    render(data);
    return data;
  } catch (error) {
    showError(error.message);
    return null;
  }
}

function render(game) {
  const fresh = !state.game || state.game.id !== game.id || state.game.ply !== game.ply || state.game.status !== game.status;
  if (fresh) state.picked = [];
  state.game = game;
  document.title = `${game.status === "your-move" ? "Your move" : game.status === "over" ? "Game over" : "Thinking"} · Omen`;
  renderStatus(game);
  renderBoard(game);
  renderDecision(game);
  renderHint(game);
  renderLog(game);
  // a keyboard player's focus was on a button the new decision replaced: give it the first choice
  if (game.status === "your-move" && (!document.activeElement || document.activeElement === document.body)) {
    const first = document.querySelector("#decide .options button");
    if (first) first.focus({ preventScroll: true });
  }
  follow();
}

function renderStatus(game) {
  const status = $("status");
  status.className = `status ${game.status}`;
  let text;
  if (game.error) text = `Something went wrong: ${game.error}`;
  else if (game.status === "over") text = game.result.text;
  else if (game.status === "your-move") text = `Your move: ${game.decision}`;
  else text = `${game.players[game.to_move]} is thinking…`;
  fill(status, game.status === "thinking" ? el("span", { class: "spinner" }) : "", text,
                         el("span", { class: "sub" }, ` · ${game.game.title}${game.turn ? " · " + game.turn : ""}`));
  $("b-hint").disabled = game.status !== "your-move" || game.hinting;
  $("b-undo").disabled = !game.can_undo;
  $("b-resign").disabled = game.status === "over";
  $("b-save").href = `/api/play/${encodeURIComponent(game.id)}/record`;
}

// the board is drawn from a table: {view, seat (whose view it is), players (names by seat), me (the
// name of that seat: "you" when unsaid)}
function seatOrder(game) {
  // the others first (across the table), you last (nearest)
  const seats = game.view.seats.map((s) => s.seat);
  return [...seats.filter((s) => s !== game.seat), game.seat].filter((s) => seats.includes(s));
}

function factList(facts) {
  return el("ul", { class: "facts" }, (facts || []).map((f) => el("li", {}, `${f.label} `, el("b", {}, String(f.value)))));
}

function cardChip(card) {
  const chip = el("button", { type: "button", class: "card", "data-name": card.name, title: [card.detail, card.text].filter(Boolean).join("\n"),
                              onclick: () => showCard(card) },
                  card.name, card.count > 1 ? el("span", { class: "n" }, `×${card.count}`) : null,
                  (card.tags || []).map((t) => el("span", { class: "tag" }, t)));
  return chip;
}

function cardList(cards, hidden) {
  const box = el("div", { class: "cards" }, (cards || []).map(cardChip));
  if (hidden) box.append(el("span", { class: "card back", title: `${hidden} hidden` }, `${hidden} hidden`));
  return box;
}

function showCard(card) {
  $("card-info-name").textContent = card.name + (card.count > 1 ? ` ×${card.count}` : "");
  $("card-info-detail").textContent = [card.detail, ...(card.tags || [])].filter(Boolean).join(" · ");
  $("card-info-text").textContent = card.text || "";
  $("card-info").hidden = false;
}

function pileBlock(pile) {
  return el("div", { class: "pile" }, el("span", { class: "pname" }, pile.name), cardList(pile.cards, pile.hidden));
}

function seatBlock(game, seat) {
  const you = seat.seat === game.seat;
  const piles = seat.piles.filter((p) => p.cards.length || p.hidden || (you && p.name === "hand"));
  return el("section", { class: `panel seat ${you ? "you" : "them"}`, "data-seat": seat.seat },
    el("h2", {}, seat.name, el("span", { class: "who" }, ` · ${you ? game.me || "you" : game.players[seat.seat]} (seat ${seat.seat})`)),
    factList(seat.facts), piles.map(pileBlock));
}

function renderBoard(game) {
  drawBoard($("board"), game);
}

function drawBoard(board, game) {
  const view = game.view;
  const bySeat = Object.fromEntries(view.seats.map((s) => [s.seat, s]));
  const order = seatOrder(game);
  const zones = el("div", { class: "zones" }, view.zones.map((zone) => el("section", { class: "panel zone", "data-zone": zone.name },
    el("h3", {}, zone.name, (zone.marks || []).map((m) => el("span", { class: "mark" }, m))),
    factList(zone.facts),
    order.map((s) => zone.sides.find((side) => side.seat === s)).filter(Boolean).map((side) =>
      el("div", { class: `side-of ${side.seat === game.seat ? "you" : "them"}` },
        el("span", { class: "strength" }, `${side.seat === game.seat ? game.me || "you" : game.players[side.seat]}`,
           (side.facts || []).map((f) => ` · ${f.label} ${f.value}`)),
        cardList(side.cards))))));
  const shared = view.piles.filter((p) => p.cards.length || p.hidden);
  fill(board, ...[
    factList(view.facts),
    order.slice(0, -1).map((s) => bySeat[s] && seatBlock(game, bySeat[s])),
    zones,
    bySeat[game.seat] ? seatBlock(game, bySeat[game.seat]) : null,
    shared.length ? el("section", { class: "panel shared" }, el("h2", {}, "On the table"),
      shared.map((p) => p.cards.length > 8
        ? el("details", {}, el("summary", {}, `${p.name} (${p.cards.reduce((n, c) => n + c.count, 0)})`), cardList(p.cards, p.hidden))
        : pileBlock(p))) : null,
  ].flat().filter(Boolean));
}

// The moves that begin with the steps picked: those complete there, and the next steps by the
// moves that share them. A step that every remaining move shares is taken for you.
function advance(moves, picked) {
  for (;;) {
    const matching = moves.filter((m) => picked.every((step, i) => m.steps[i] === step));
    const complete = matching.filter((m) => m.steps.length === picked.length);
    const next = new Map();
    for (const m of matching) {
      if (m.steps.length <= picked.length) continue;
      const step = m.steps[picked.length];
      if (!next.has(step)) next.set(step, []);
      next.get(step).push(m);
    }
    const only = next.size === 1 ? [...next.entries()][0] : null;
    if (complete.length || !only || only[1].length < 2) return { picked, complete, next };
    picked = [...picked, only[0]];
  }
}

// A decision's moves as buttons, step by step: the steps picked so far (with "← back") and the
// next ones. choose(move) makes a move; repick(steps) draws the picker again with those steps picked.
function stepPicker(moves, view, chosen, choose, repick) {
  const { picked, complete, next } = advance(moves, chosen);
  const backTo = advance(moves, []).picked.length;  // the steps taken for you at the start
  const options = [];
  for (const m of complete) {
    options.push(el("button", { type: "button", class: "primary", "data-move": m.move, onclick: () => choose(m.move) },
      `✓ ${m.move}`));
  }
  for (const [step, stepMoves] of next) {
    const only = stepMoves.length === 1 ? stepMoves[0] : null;
    const rest = only ? only.steps.slice(picked.length + 1).join(" ") : `${stepMoves.length} choices`;
    options.push(el("button", {
      type: "button", class: picked.length === 0 ? "kind" : "", "data-step": step,
      "data-move": only ? only.move : null, title: only ? only.move : null,
      onclick: () => { if (only) choose(only.move); else repick([...picked, step]); },
    }, step, rest ? el("span", { class: "more" }, rest) : null));
  }
  const cards = new Map();
  for (const s of view.seats) for (const p of s.piles) for (const c of p.cards) cards.set(c.name, c);
  return [
    picked.length ? el("div", { class: "crumbs" },
      picked.length > backTo ? el("button", { type: "button", class: "back", onclick: () => repick(picked.slice(0, -1)) }, "← back") : null,
      picked.map((s) => el("span", { class: "step", title: cards.has(s) ? cards.get(s).text : null }, s))) : null,
    el("div", { class: "options", role: "group", "aria-label": "choices" }, options),
  ];
}

// the decision: the legal moves as steps (kind, then card, then city ...), never one long list
function renderDecision(game) {
  const box = $("decide");
  if (game.status !== "your-move") {
    fill(box, el("h2", {}, game.status === "over" ? "Game over" : "Waiting"),
      game.status === "over"
        ? [el("p", {}, game.result.text, " ", el("a", { href: "#/" }, "New game")),
           el("button", { type: "button", class: "primary", id: "b-review", onclick: () => reviewGame(game.id) }, "Review this game")]
        : el("p", { class: "waiting" }, el("span", { class: "spinner" }),
             `${game.players[game.to_move]} is choosing`,
             game.thinking && game.thinking.iterations ? ` (${game.thinking.iterations} iterations)` : "", "…"));
    return;
  }
  fill(box,
    el("h2", {}, `Your move: ${game.decision}`, el("span", { class: "note" }, `${game.moves.length} legal`)),
    stepPicker(game.moves, game.view, state.picked, play,
               (picked) => { state.picked = picked; renderDecision(game); focusFirstOption("#decide"); }));
}

function focusFirstOption(box) {
  const first = document.querySelector(`${box} .options button`);
  if (first) first.focus();
}

function play(move) {
  return act("POST", `/api/play/${encodeURIComponent(state.game.id)}/move`, { move });
}

// ---------------------------------------------------------------- hints

function renderHint(game) {
  const box = $("hint");
  if (game.hinting) {
    box.hidden = false;
    fill(box, el("h2", {}, "Hint"), el("p", { class: "waiting" }, el("span", { class: "spinner" }), "The advisor is searching… "),
      el("button", { type: "button", id: "b-hint-stop", onclick: () => api("POST", `/api/play/${encodeURIComponent(game.id)}/hint/stop`).catch((e) => showError(e.message)) }, "Stop"));
    return;
  }
  const hint = game.hint;
  if (!hint) { box.hidden = true; fill(box); return; }
  box.hidden = false;
  fill(box,
    el("h2", {}, "Hint ", el("span", { class: "note" }, `· ${hint.iterations} iterations${hint.stopped ? ", stopped early" : ""}`)),
    hintTable(hint, game.status === "your-move" ? play : null));
}

// the advisor's best moves as a table: each with its win % and 95% interval, and a button that
// plays it (onPlay(move); none without onPlay)
function hintTable(hint, onPlay) {
  const rows = hint.moves.map((m, i) => el("tr", {},
    el("td", {}, `${i + 1}.`),
    el("td", {}, m.move, m.pv.length > 1 ? el("div", { class: "note" }, "then ", m.pv.slice(1, 4).map((s) => s.move).join("; ")) : null),
    el("td", { class: "num" }, m.win_prob === null ? "forced" : pct(m.win_prob),
       m.win_prob === null ? null : el("div", { class: "note" }, `${pct(m.win_prob_low)}–${pct(m.win_prob_high)}`),
       m.win_prob === null ? null : el("div", { class: "bar" }, el("span", { style: `left:${100 * m.win_prob_low}%;right:${100 - 100 * m.win_prob_high}%` }))),
    el("td", {}, onPlay ? el("button", { type: "button", class: "play-hint", onclick: () => onPlay(m.move) }, "Play") : null)));
  return [
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, "move"), el("th", {}, "win % (95%)"), el("th", {}, ""))),
       el("tbody", {}, rows)),
    hint.separated === false ? el("p", { class: "note separated" }, "The top two moves cannot be told apart at this budget (their 95% intervals overlap).") : null,
    hint.outlook ? el("p", { class: "note" }, hint.outlook) : null];
}

async function askHint() {
  const game = state.game;
  if (!game) return;
  const request = api("POST", `/api/play/${encodeURIComponent(game.id)}/hint`, {});
  // the server marks the game as hinting at once; follow it to show the Stop button
  setTimeout(() => { if (state.game && state.game.id === game.id) { stopPolling(); refresh(); } }, 150);
  try {
    await request;
    await refresh();
  } catch (error) {
    if (error.status !== 409 || !/changed/.test(error.message)) showError(error.message);
  }
}

async function refresh() {
  if (!state.game) return;
  try {
    render(await api("GET", `/api/play/${encodeURIComponent(state.game.id)}`));
  } catch (error) {
    showError(error.message);
  }
}

// ---------------------------------------------------------------- the moves so far

function renderLog(game) {
  const list = $("log");
  const items = [];
  let turn = null;
  for (const entry of game.log) {
    if (entry.turn && entry.turn !== turn) {
      turn = entry.turn;
      items.push(el("li", { class: "turn" }, turn));
    }
    const you = entry.seat === game.seat;
    const fresh = entry.ply > state.lastLog && state.lastLog >= 0 && !you;
    items.push(el("li", { class: `${you ? "you" : "them"}${fresh ? " fresh" : ""}${entry.kind === "automaton" ? " auto" : ""}`,
                          value: entry.ply + 1 }, you ? "you: " : `${entry.who}: `, entry.text));
  }
  if (!items.length) items.push(el("li", { class: "turn" }, "No moves yet."));
  fill(list, ...items);
  list.scrollTop = list.scrollHeight;
  state.lastLog = game.log.length ? Math.max(...game.log.map((e) => e.ply)) : 0;
}

// ---------------------------------------------------------------- wiring

function route() {
  showError("");
  $("card-info").hidden = true;
  const match = location.hash.match(/^#\/play\/([\w-]+)$/);
  const review = location.hash.match(/^#\/review(?:\/([\w-]+))?$/);
  const table = location.hash.match(/^#\/table(?:\/([\w-]+))?$/);
  if (table) stopPolling();
  if (match) showGame(match[1]);
  else if (table) (table[1] ? showTable(table[1]) : showTableNew()).catch((error) => showError(error.message));
  else if (review) (review[1] ? showReview(review[1]) : showOpenReview()).catch((error) => showError(error.message));
  else showNew().catch((error) => showError(error.message));
}

document.addEventListener("DOMContentLoaded", () => {
  $("new-form").addEventListener("submit", startGame);
  $("load-file").addEventListener("change", loadRecord);
  $("b-hint").addEventListener("click", askHint);
  $("b-undo").addEventListener("click", () => act("POST", `/api/play/${encodeURIComponent(state.game.id)}/undo`));
  $("b-resign").addEventListener("click", () => {
    const button = $("b-resign");
    if (state.resignArmed) {
      clearTimeout(state.resignArmed);
      state.resignArmed = null;
      button.textContent = "Resign";
      act("POST", `/api/play/${encodeURIComponent(state.game.id)}/resign`);
      return;
    }
    button.textContent = "Really resign?";
    state.resignArmed = setTimeout(() => { state.resignArmed = null; button.textContent = "Resign"; }, 4000);
  });
  $("card-info-close").addEventListener("click", () => { $("card-info").hidden = true; });
  document.addEventListener("keydown", (event) => { if (event.key === "Escape") $("card-info").hidden = true; });
  window.addEventListener("hashchange", route);
  route();
});
