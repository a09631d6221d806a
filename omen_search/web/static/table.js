// omen-search serve: "At the table", following a game played on a real table from your seat.
// #/table is the set-up (game, options, your seat, your starting hand by clicking), #/table/<id> the
// game: the board as you see it, the next event entered by clicking (a seat's move in steps, then the
// hidden cards it showed you), advice at your decisions, undo, save and review. Uses app.js's helpers.
"use strict";

const table = { setup: null, seen: [], game: null, picked: [], draft: null, advising: false };

// ---------------------------------------------------------------- the set-up

async function showTableNew() {
  showScreen("screen-table-new");
  document.title = "At the table · Omen";
  if (!state.games) state.games = await api("GET", "/api/games");
  const select = $("t-game");
  if (!select.options.length) {
    for (const g of state.games.games.filter((g) => g.table)) select.append(el("option", { value: g.name }, g.title));
    select.addEventListener("change", () => loadSetup().catch((error) => showError(error.message)));
  }
  if (!table.setup) await loadSetup();
}

async function loadSetup() {
  table.setup = await api("GET", `/api/table/setup?game=${encodeURIComponent($("t-game").value)}`);
  table.setup.hand = [];
  table.seen = [];
  const box = $("t-options");
  fill(box);
  for (const option of table.setup.options) {
    const label = option.name.replaceAll("_", " ");
    if (typeof option.default === "boolean") {
      box.append(el("label", { class: "check" }, el("input", { type: "checkbox", "data-table-option": option.name }),
                    `${label}: ${option.help}`));
    } else if (option.choices) {
      const field = el("select", { "data-table-option": option.name });
      for (const choice of option.choices) field.append(el("option", { value: String(choice) }, String(choice)));
      field.value = String(option.default);
      box.append(el("label", {}, label, el("span", { class: "help" }, option.help), field));
    }
  }
  fill($("t-seat"), ...table.setup.seats.map((s) => el("option", { value: s }, `seat ${s}`)));
  fill($("t-cards"), ...table.setup.cards.map((name) =>
    el("button", { type: "button", "data-add": name, onclick: () => { table.setup.hand.push(name); drawHand(); } }, `+ ${name}`)));
  drawHand();
}

function drawHand() {
  const hand = table.setup.hand;
  $("t-hand-count").textContent = `${hand.length} of ${table.setup.hand_size}`;
  fill($("t-hand"), hand.length ? hand.map((name, i) =>
    el("button", { type: "button", class: "card", "data-remove": name, title: "Take it out of the hand",
                   onclick: () => { hand.splice(i, 1); drawHand(); } }, name, el("span", { class: "n" }, "×")))
    : el("span", { class: "note" }, "Click the cards you were dealt."));
  table.seen = [];
  $("t-setup-question").hidden = true;
}

function tableOptions() {
  const options = {};
  for (const option of table.setup.options) {
    const field = document.querySelector(`[data-table-option="${option.name}"]`);
    if (!field) continue;
    let value = typeof option.default === "boolean" ? field.checked : field.value;
    if (typeof option.default === "number") value = Number(value);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

async function startTable(event) {
  if (event) event.preventDefault();
  showError("");
  const body = { game: table.setup.game, options: tableOptions(), seat: Number($("t-seat").value),
                 hand: table.setup.hand, seen: table.seen };
  try {
    const made = await api("POST", "/api/table", body);
    if (made.question) {  // the set-up showed you a card: which one?
      drawQuestion($("t-setup-question"), made.question, (name) => { table.seen.push(name); startTable(); },
                   () => { table.seen = []; $("t-setup-question").hidden = true; });
      return;
    }
    table.seen = [];
    $("t-setup-question").hidden = true;
    location.hash = `#/table/${made.id}`;
  } catch (error) {
    showError(error.message);
  }
}

async function openTableRecord(event) {
  const file = event.target.files[0];
  event.target.value = "";
  if (!file) return;
  showError("");
  try {
    const made = await api("POST", "/api/table/load", { record: await file.text() });
    location.hash = `#/table/${made.id}`;
  } catch (error) {
    showError(`${file.name}: ${error.message}`);
  }
}

// a question about a hidden card you saw: its prompt and the names it can have, as buttons
function drawQuestion(box, question, answer, cancel) {
  box.hidden = false;
  fill(box, el("h2", {}, question.prompt),
    el("div", { class: "options", role: "group", "aria-label": "the card you saw" },
      question.choices.map((name) => el("button", { type: "button", "data-seen": name, onclick: () => answer(name) }, name))),
    cancel ? el("button", { type: "button", class: "back", onclick: cancel }, "← cancel") : null);
  const first = box.querySelector("button[data-seen]");
  if (first) first.focus({ preventScroll: true });
}

// ---------------------------------------------------------------- following the game

async function showTable(id) {
  showScreen("screen-table");
  if (table.game && table.game.id === id) return;
  table.picked = [];
  table.draft = null;
  try {
    drawTable(await api("GET", `/api/table/${encodeURIComponent(id)}`));
  } catch (error) {
    showError(error.message);
    fill($("t-board"), el("p", {}, el("a", { href: "#/table" }, "Set up a game at the table")));
  }
}

function drawTable(game) {
  const moved = !table.game || table.game.id !== game.id || table.game.events.length !== game.events.length;
  if (moved) { table.picked = []; table.draft = null; }
  table.game = game;
  const next = game.next;
  const yours = next.kind === "decision" && next.seat === game.seat;
  document.title = `${next.kind === "over" ? "Game over" : yours ? "Your decision" : "Opponent"} · at the table · Omen`;
  const status = $("t-status");
  status.className = `status ${next.kind === "over" ? "over" : yours ? "your-move" : "thinking"}`;
  fill(status, next.prompt, el("span", { class: "sub" }, ` · ${game.game.title} · ${game.events.length} events`));
  $("t-advice").disabled = !yours || table.advising;
  $("t-undo").disabled = !game.can_undo;
  $("t-save").href = `/api/table/${encodeURIComponent(game.id)}/record`;
  drawBoard($("t-board"), { ...game, me: "you" });
  drawEvent(game);
  drawAdvice(game);
  const log = $("t-log");
  const items = [];
  let turn = null;
  for (const e of game.events) {
    if (e.turn && e.turn !== turn) items.push(el("li", { class: "turn" }, (turn = e.turn)));
    items.push(el("li", { class: e.seat === game.seat ? "you" : "them", value: e.index },
      `${e.who}: ${e.move}`, e.seen.length ? el("span", { class: "note" }, ` · you saw ${e.seen.join(", ")}`) : null));
  }
  fill(log, items.length ? items : el("li", { class: "turn" }, "No events yet."));
  log.scrollTop = log.scrollHeight;
}

// the next event: the seat's possible moves in steps, then any hidden card it showed you; a move
// can also be typed, in the game's notation
function drawEvent(game) {
  const box = $("t-decide");
  const next = game.next;
  if (next.kind === "over") {
    fill(box, el("h2", {}, "Game over"), el("p", {}, next.prompt));
    return;
  }
  if (table.draft && table.draft.question) {
    fill(box, el("h2", {}, `${table.draft.seat === game.seat ? "You" : "The opponent"}: ${table.draft.move}`),
         el("section", { class: "question", id: "t-question" }));
    drawQuestion($("t-question"), table.draft.question, (name) => { table.draft.seen.push(name); sendEvent(table.draft); },
                 () => { table.draft = null; drawEvent(game); });
    return;
  }
  const yours = next.seat === game.seat;
  fill(box,
    el("h2", {}, yours ? "Your decision" : "The opponent's decision", el("span", { class: "note" }, `${next.moves.length} possible`)),
    el("p", { class: "note" }, next.prompt),
    stepPicker(next.moves, game.view, table.picked, (move) => sendEvent({ seat: next.seat, move, seen: [] }),
               (picked) => { table.picked = picked; drawEvent(game); focusFirstOption("#t-decide"); }),
    el("details", { class: "typed" }, el("summary", {}, "Type an event"),
      el("form", { id: "t-typed", onsubmit: (e) => { e.preventDefault(); sendEvent({ seat: Number($("t-typed-seat").value), move: $("t-typed-move").value.trim(), seen: [] }); } },
        el("select", { id: "t-typed-seat", "aria-label": "whose move" },
           game.players.map((who, seat) => el("option", { value: seat, selected: seat === next.seat }, who))),
        el("input", { id: "t-typed-move", "aria-label": "the move, in the game's notation", placeholder: 'play "Temple Servant" city1', autocomplete: "off" }),
        el("button", { type: "submit" }, "Enter"))));
}

async function sendEvent(draft) {
  showError("");
  const game = table.game;
  try {
    const answer = await api("POST", `/api/table/${encodeURIComponent(game.id)}/event`, { seat: draft.seat, move: draft.move, seen: draft.seen });
    if (answer.question) {
      table.draft = { ...draft, question: answer.question };
      drawEvent(game);
      return;
    }
    table.draft = null;
    drawTable(answer);
    focusFirstOption("#t-decide");
  } catch (error) {
    table.draft = null;
    drawEvent(game);
    showError(error.message);  // refused: the reason, and nothing changed
  }
}

function drawAdvice(game) {
  const box = $("t-hint");
  if (table.advising) {
    box.hidden = false;
    fill(box, el("h2", {}, "Advice"), el("p", { class: "waiting" }, el("span", { class: "spinner" }), "The advisor is searching… "),
      el("button", { type: "button", id: "t-advice-stop", onclick: () => api("POST", `/api/table/${encodeURIComponent(game.id)}/advice/stop`).catch((e) => showError(e.message)) }, "Stop"));
    return;
  }
  const hint = game.hint;
  if (!hint || hint.event !== game.events.length) { box.hidden = true; fill(box); return; }
  box.hidden = false;
  fill(box, el("h2", {}, "Advice ", el("span", { class: "note" }, `· ${hint.iterations} iterations, from what you have seen`)),
       hintTable(hint, (move) => sendEvent({ seat: game.seat, move, seen: [] })));
}

async function askAdvice() {
  const game = table.game;
  showError("");
  table.advising = true;
  drawTable(game);
  try {
    await api("POST", `/api/table/${encodeURIComponent(game.id)}/advice`, {});
  } catch (error) {
    showError(error.message);
  } finally {
    table.advising = false;
  }
  try {
    drawTable(await api("GET", `/api/table/${encodeURIComponent(game.id)}`));
  } catch (error) {
    showError(error.message);
  }
}

async function reviewTable() {
  showError("");
  try {
    const review = await api("POST", "/api/review", { table: table.game.id });
    location.hash = `#/review/${review.id}`;
  } catch (error) {
    showError(error.message);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  $("t-form").addEventListener("submit", startTable);
  $("t-file").addEventListener("change", openTableRecord);
  $("t-advice").addEventListener("click", askAdvice);
  $("t-undo").addEventListener("click", async () => {
    showError("");
    try { drawTable(await api("POST", `/api/table/${encodeURIComponent(table.game.id)}/undo`)); } catch (error) { showError(error.message); }
  });
  $("t-review").addEventListener("click", reviewTable);
});
