// The generic page of one seat: pending decision in words, legal actions as buttons, a notation box,
// the seat's view, the live event log and the results.
//
// A game may add a board: the module static/games/<game id>.js, when present, is imported and its
// exported functions are called:
//   render(container, payload, controls)  after every update; `container` is the #board section,
//                                          `payload` the seat's JSON (view, pending, legal, events...),
//                                          `controls.submit(actionJson)` / `controls.submitText(text)`
//                                          send an action chosen on the shown version; `controls.seat`
//                                          and `controls.token` name this seat (e.g. for its board
//                                          layout at /api/seat/<token>/board).
//   describeEvent(event) -> string|null   optional: a nicer log line for an event (names for ids).
//                                          A renderer that loads what it names things with later (its
//                                          board layout) calls `controls.refreshLog()` once it has it,
//                                          and the whole log is written again with the names.
//   describeText(text) -> string          optional: any other text (the prompt) with names for ids.
//   playerName(seat, payload) -> string|null  optional: a seat's name in the game ("Vailin", "Cleric").
import { request, el } from "./api.js";
import { loadRuleLinks, setLinkedText, withRuleLinks } from "./rule_links.js";

const root = document.getElementById("game");
const token = root.dataset.token;
const seat = Number(root.dataset.seat);
const $ = (id) => document.getElementById(id);

let current = null; // the last payload
let renderer = null;
let busy = false;
let streamId = null; // the id of this page's live stream (its "stream" event)
let shownEvents = []; // every event in the log, in order (to write the log again with names)

function seatName(index) {
  if (!current) return `seat ${index}`;
  const s = current.seats[index];
  const who = s.kind === "human" ? "human" : `AI ${s.kind}`;
  const name = plainName(index); // the player's name in the game (a kingdom, a hero...)
  return index === seat ? `${name} (you)` : `${name} (${who})`;
}

// A seat's name in the game, plain ("Vailin"), or "seat 2" until the board renderer knows it.
function plainName(index) {
  const named = current && renderer && renderer.playerName ? renderer.playerName(index, current) : null;
  return named || `seat ${index}`;
}

// The tab's title says whether this seat must act: "your turn", "waiting for Vailin" or "game over",
// then the page's own title (so a player in another tab sees it).
const pageTitle = document.title;
function updateTitle(payload) {
  const pending = payload.pending;
  let state;
  if (payload.results || !pending) state = "game over";
  else if (pending.yours) state = "your turn";
  else state = `waiting for ${plainName(pending.player)}`;
  document.title = `${state} · ${pageTitle}`;
}

function decisionText(payload) {
  if (payload.results) return "Game over";
  const pending = payload.pending;
  if (!pending) return "Game over";
  const rule = pending.rule ? ` [${pending.rule}]` : "";
  const prompt = renderer && renderer.describeText ? renderer.describeText(pending.prompt) : pending.prompt;
  if (pending.yours) return `Your decision: ${prompt}${rule}`;
  return `Waiting for ${seatName(pending.player)} (${pending.kind})${rule}`;
}

function renderValue(value) {
  if (value === null || value === undefined) return el("span", { class: "muted" }, "—");
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return el("span", {}, value.map((v) => String(v)).join(", ") || "(none)");
    return el("ol", { start: 0 }, ...value.map((v) => el("li", {}, renderValue(v))));
  }
  if (typeof value === "object") {
    const dl = el("dl");
    for (const [key, v] of Object.entries(value)) dl.append(el("dt", {}, key), el("dd", {}, renderValue(v)));
    return dl;
  }
  return el("span", {}, String(value));
}

function renderResults(payload) {
  const box = $("results");
  if (!payload.results) { box.hidden = true; return; }
  const r = payload.results;
  const ranking = r.ranking.map((group, i) => `${i + 1}. ${group.map(seatName).join(" = ")}`);
  const scores = Object.entries(r.scores).map(([p, s]) => `${seatName(Number(p))}: ${s}`);
  box.replaceChildren(
    el("h3", {}, r.winners.includes(seat) ? "You won!" : `Winner: ${r.winners.map(seatName).join(", ")}`),
    el("p", {}, r.reason),
    el("p", {}, ranking.join("  ")),
    el("p", { class: "muted" }, scores.join(" · ")),
    el("a", { href: `/api/seat/${token}/save`, download: true }, "download the save (JSON)"),
  );
  box.hidden = false;
}

function renderActions(payload) {
  const box = $("action-buttons");
  const list = $("notations");
  box.replaceChildren();
  list.replaceChildren();
  for (const legal of payload.legal) {
    box.append(el("button", { type: "button", disabled: busy, onclick: () => submit({ action: legal.action }) }, legal.notation));
    list.append(el("option", { value: legal.notation }));
  }
  $("text-form").hidden = !(payload.pending && payload.pending.yours);
}

function logLine(event) {
  const custom = renderer && renderer.describeEvent ? renderer.describeEvent(event) : null;
  const kind = event.kind === "ai_reason" ? "reason" : event.chance ? "chance" : undefined;
  return el("li", { value: event.action, class: kind, title: `action ${event.action}, ${event.kind}` },
    withRuleLinks(custom || event.text || event.kind));
}

function appendEvents(events) {
  const log = $("log");
  for (const old of log.querySelectorAll(".fresh")) old.classList.remove("fresh");
  shownEvents.push(...events);
  for (const event of events) {
    const line = logLine(event);
    line.classList.add("fresh");
    log.append(line);
  }
  if (events.length) log.scrollTop = log.scrollHeight;
}

function render(payload) {
  current = payload;
  setLinkedText($("decision"), decisionText(payload));
  updateTitle(payload);
  if (payload.ai_error) setLinkedText($("action-error"), `AI problem: ${payload.ai_error}`);
  renderResults(payload);
  renderActions(payload);
  $("view").replaceChildren(renderValue(payload.view));
  if (renderer && renderer.render) {
    try { renderer.render($("board"), payload, controls); } catch (error) { console.error(error); }
  }
}

function accept(payload, replaceLog) {
  if (current && payload.version < current.version) return; // an older answer arriving late
  if (replaceLog) { $("log").replaceChildren(); shownEvents = []; }
  const known = current ? current.version : 0;
  appendEvents(replaceLog ? payload.events : payload.events.filter((e) => e.action > known));
  render(payload);
}

async function submit(body) {
  if (!current || busy) return;
  busy = true;
  $("action-error").textContent = "";
  try {
    // naming our live stream tells the server not to send this answer's version again on it
    const headers = streamId ? { "X-Warhorn-Stream": streamId } : {};
    const payload = await request("POST", `/api/seat/${token}/actions`, { version: current.version, ...body }, headers);
    accept(payload, false);
    $("action-text").value = "";
  } catch (error) {
    setLinkedText($("action-error"), errorText(error));
    // a refused stale action, or an answer lost on the way (the live stream will not repeat it)
    if (error.status === 409 || error.status === undefined) await reload();
  } finally {
    busy = false;
    if (current) renderActions(current);
  }
}

// A refused action's message, naming its rule once: "[NER-MOV-01]" when the message does not already.
function errorText(error) {
  const rule = error.body && error.body.rule;
  const message = renderer && renderer.describeText ? renderer.describeText(error.message) : error.message;
  if (!rule || String(message).includes(rule)) return message;
  return `${message} [${rule}]`;
}

// The whole log written again (after the renderer got what it names things with).
function refreshLog() {
  if (current) { setLinkedText($("decision"), decisionText(current)); updateTitle(current); renderResults(current); } // seats by name
  const log = $("log");
  log.replaceChildren(...shownEvents.map(logLine));
  log.scrollTop = log.scrollHeight;
}

const controls = {
  seat,
  token,
  submit: (action) => submit({ action }),
  submitText: (text) => submit({ text }),
  refreshLog,
};

async function reload() {
  current = null;
  accept(await request("GET", `/api/seat/${token}`), true);
}

function connect() {
  const after = current ? current.version : 0;
  const source = new EventSource(`/api/seat/${token}/stream?after=${after}`);
  source.addEventListener("open", () => { $("connection").textContent = "live"; });
  source.addEventListener("stream", (message) => { streamId = JSON.parse(message.data).stream; });
  source.addEventListener("update", (message) => accept(JSON.parse(message.data), false));
  source.addEventListener("deleted", () => { $("connection").textContent = "this game was deleted"; source.close(); });
  source.addEventListener("failure", (message) => { $("connection").textContent = JSON.parse(message.data).error; source.close(); });
  source.addEventListener("error", () => { $("connection").textContent = "reconnecting…"; });
}

async function main() {
  await loadRuleLinks(root.dataset.game);
  if (root.dataset.renderer) {
    try { renderer = await import(root.dataset.renderer); } catch (error) { console.error("board renderer failed to load", error); }
  }
  $("text-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("action-text").value.trim();
    if (text) submit({ text });
  });
  await reload();
  connect();
}

main().catch((error) => { $("action-error").textContent = error.message; });
