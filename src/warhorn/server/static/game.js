// The page of a game, in one of three modes (the page's data-mode):
//   play    one seat's page (/play/<token>): the pending decision in words, the legal actions as buttons,
//           a notation box, undo in hotseat games, the live log, the game-over panel (rematch, save,
//           replay, lobby);
//   watch   a spectator's page (/watch/<game id>): the same board and log from public information only;
//   replay  the replay viewer (/replay/<replay id>): a finished game or an uploaded save, step by step,
//           forward and back (the server replays it through the engine and sends each step's public view).
// Laid out to fit a 1366×768 screen: the board on the left, the decision and the log on the right (each
// scrolls by itself); the raw view is behind the "raw view" toggle.
//
// A game may add a board: the module static/games/<game id>.js, when present, is imported and its
// exported functions are called:
//   render(container, payload, controls)  after every update; `container` is the #board section,
//                                          `payload` the seat's JSON (view, pending, legal, events...),
//                                          `controls.submit(actionJson)` / `controls.submitText(text)`
//                                          send an action chosen on the shown version; `controls.seat`
//                                          and `controls.token` name this seat (e.g. for its board
//                                          layout at /api/seat/<token>/board; on a watch or replay page
//                                          the token is "watch.<game id>" / "replay.<replay id>", which
//                                          that route accepts too). `payload.seat` is null there.
//   describeEvent(event) -> string|null   optional: a nicer log line for an event (names for ids).
//                                          A renderer that loads what it names things with later (its
//                                          board layout) calls `controls.refreshLog()` once it has it,
//                                          and the whole log is written again with the names.
//   describeText(text) -> string          optional: any other text (the prompt) with names for ids.
//   playerName(seat, payload) -> string|null  optional: a seat's name in the game ("Vailin", "Cleric");
//                                          without it the page uses the payload's `seat_names`.
//   trackerSteps(payload) -> [string]|null optional: the game's own turn counter and phase for the
//                                          header's phase tracker (default: "Round n" and the view's phase).
import { request, el, rememberSeat } from "./api.js";
import { loadRuleLinks, setLinkedText, withRuleLinks } from "./rule_links.js";

const root = document.getElementById("game");
const mode = root.dataset.mode || "play";
const token = root.dataset.token;
const seat = mode === "play" ? Number(root.dataset.seat) : null;
const $ = (id) => document.getElementById(id);

let current = null; // the last payload
let renderer = null;
let rendererUrl = root.dataset.renderer || null;
let busy = false;
let streamId = null; // the id of this page's live stream (its "stream" event)
let shownEvents = []; // every event in the log, in order (to write the log again with names)
let rematchAsked = null; // the answer to this page's rematch request

function seatName(index) {
  if (!current) return `seat ${index}`;
  const s = current.seats[index];
  const who = s.kind === "human" ? "human" : `AI ${s.kind}`;
  const name = plainName(index); // the player's name in the game (a kingdom, a hero...)
  return index === seat ? `${name} (you)` : `${name} (${who})`;
}

// A seat's name in the game, plain ("Vailin"): the renderer's, else the server's seat names, else "seat 2".
function plainName(index) {
  const named = current && renderer && renderer.playerName ? renderer.playerName(index, current) : null;
  if (named) return named;
  const names = current && current.seat_names;
  return (names && names[index]) || `seat ${index}`;
}

// The tab's title says whether this seat must act: "your turn", "waiting for Vailin" or "game over",
// then the page's own title (so a player in another tab sees it).
const pageTitle = document.title;
function updateTitle(payload) {
  const pending = payload.pending;
  let state;
  if (mode === "replay") state = `step ${payload.version} of ${payload.actions}`;
  else if (payload.results || !pending) state = "game over";
  else if (pending.yours) state = "your turn";
  else state = `waiting for ${plainName(pending.player)}`;
  document.title = `${state} · ${pageTitle}`;
}

function words(kind) {
  return String(kind || "").replaceAll("_", " ");
}

function decisionText(payload) {
  const pending = payload.pending;
  if (mode === "replay") {
    const who = pending ? ` — next: ${plainName(pending.player)} (${words(pending.kind)})` : "";
    return payload.results ? "Game over" : `Step ${payload.version} of ${payload.actions}${who}`;
  }
  if (payload.results || !pending) return "Game over";
  const rule = pending.rule ? ` [${pending.rule}]` : "";
  if (pending.yours) {
    const prompt = renderer && renderer.describeText ? renderer.describeText(pending.prompt) : pending.prompt;
    const named = pending.rule && String(prompt).includes(pending.rule); // a prompt may name its rule itself
    return `Your decision: ${prompt}${named ? "" : rule}`;
  }
  return `Waiting for ${seatName(pending.player)} (${words(pending.kind)})${rule}`;
}

// The phase tracker in the header: round or turn, whose turn, the phase, and who decides now.
function renderTracker(payload) {
  const view = payload.view && typeof payload.view === "object" ? payload.view : {};
  const steps = [];
  // a game's own counter is named by its renderer (trackerSteps); "round" is the one games share
  const own = renderer && renderer.trackerSteps ? renderer.trackerSteps(payload) : null;
  if (own) steps.push(...own.map((text) => ["own", text]));
  else if (typeof view.round === "number") steps.push(["round", `Round ${view.round}`]);
  if (!own && typeof view.phase === "string") steps.push(["phase", words(view.phase)]);
  const pending = payload.pending;
  if (pending) {
    const who = pending.yours ? "you" : plainName(pending.player);
    steps.push(["who", `${who} ${pending.yours ? "decide" : "decides"}: ${words(pending.kind)}`]);
  } else if (payload.results) {
    steps.push(["who", "game over"]);
  }
  $("phase-tracker").replaceChildren(...steps.map(([kind, text]) =>
    el("li", { class: `${kind}${pending && pending.yours && kind === "who" ? " yours" : ""}` }, text)));
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

// --- the game-over panel: who won, rematch, save, replay, lobby --------------------------------------------
function renderResults(payload) {
  const box = $("results");
  if (!payload.results) { box.hidden = true; box.replaceChildren(); return; }
  const r = payload.results;
  const ranking = r.ranking.map((group, i) => `${i + 1}. ${group.map(seatName).join(" = ")}`);
  const scores = Object.entries(r.scores).map(([p, s]) => `${seatName(Number(p))}: ${s}`);
  const won = seat !== null && r.winners.includes(seat);
  const headline = won ? "You won!" : r.winners.length ? `Winner: ${r.winners.map(seatName).join(", ")}` : "No winner";
  const links = el("div", { class: "game-over-links" });
  if (mode === "play") {
    const rematch = payload.rematch;
    if (rematch && rematch.link) {
      links.append(el("a", { class: "button primary", id: "rematch-link", href: rematch.link }, "Play the rematch"));
    } else if (rematch) {
      links.append(el("a", { class: "button", href: rematch.watch }, "Watch the rematch"));
    } else {
      links.append(el("button", { type: "button", id: "rematch", class: "primary", onclick: askRematch,
        title: "the same game with the same seats and a new seed" }, "Rematch"));
    }
    links.append(el("a", { class: "button", id: "download-save", href: `/api/seat/${token}/save`, download: true }, "Download the save"));
  }
  if (mode !== "replay") links.append(el("a", { class: "button", id: "replay-link", href: `/replay/${payload.game_id}` }, "Watch the replay"));
  links.append(el("a", { class: "button", id: "lobby-link", href: "/" }, "Back to the lobby"));
  box.replaceChildren(
    el("h3", {}, headline),
    el("p", {}, r.reason),
    el("p", {}, ranking.join("  ")),
    el("p", { class: "muted" }, scores.join(" · ")),
    links,
  );
  box.hidden = false;
}

async function askRematch() {
  try {
    rematchAsked = await request("POST", `/api/seat/${token}/rematch`);
    rememberSeat(rematchAsked.game_id, rematchAsked.seat, rematchAsked.link.split("/").pop());
    window.location.href = rematchAsked.link;
  } catch (error) {
    $("action-error").textContent = error.message;
  }
}

function renderActions(payload) {
  const box = $("action-buttons");
  const list = $("notations");
  box.replaceChildren();
  if (list) list.replaceChildren();
  for (const legal of payload.legal) {
    box.append(el("button", { type: "button", disabled: busy, onclick: () => submit({ action: legal.action }) }, legal.notation));
    if (list) list.append(el("option", { value: legal.notation }));
  }
  $("text-form").hidden = !(mode === "play" && payload.pending && payload.pending.yours);
}

// Undo in a hotseat game: the server says how many actions it takes back (the last human decision and
// the AI actions after it), or null when the engine's undo rules refuse (after a roll, draw or shuffle).
function renderUndo(payload) {
  const box = $("undo-box");
  if (!box) return;
  if (mode !== "play" || payload.undo === null || payload.undo === undefined) { box.replaceChildren(); return; }
  const n = payload.undo;
  box.replaceChildren(el("button", { type: "button", id: "undo", disabled: busy, onclick: undo,
    title: "take back the last decision made at this table (never a roll, a draw or a shuffle)" },
  n === 1 ? "Undo the last action" : `Undo the last decision (${n} actions)`));
}

async function undo() {
  if (!current || busy) return;
  busy = true;
  try {
    await request("POST", `/api/seat/${token}/undo`, { version: current.version });
    window.location.reload(); // the board and log start again from the position undone to
  } catch (error) {
    $("action-error").textContent = error.message;
    busy = false;
  }
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

// --- turn awareness: a short sound when it becomes this seat's turn (off unless the player turns it on) ----
const SOUND_KEY = "warhorn.sound";
const DEBUG_KEY = "warhorn.debug";
function setting(key) {
  try { return localStorage.getItem(key) === "on"; } catch { return false; }
}
function setSetting(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch { /* private mode: not kept */ }
}
let audio = null;
function chime() {
  if (!setting(SOUND_KEY)) return;
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.4);
  } catch { /* no audio here */ }
  root.dataset.chimed = String(Number(root.dataset.chimed || 0) + 1);
}

function renderDebug(payload) {
  const on = setting(DEBUG_KEY) || !rendererUrl; // without a board, what the seat sees is the board
  $("view-panel").hidden = !on;
  if (on) $("view").replaceChildren(renderValue(payload.view));
  else $("view").replaceChildren();
}

function render(payload) {
  const before = current;
  current = payload;
  root.dataset.version = String(payload.version);
  setLinkedText($("decision"), decisionText(payload));
  updateTitle(payload);
  renderTracker(payload);
  if (mode === "play" && $("seat-name")) $("seat-name").textContent = seatName(seat);
  if (payload.ai_error) setLinkedText($("action-error"), `AI problem: ${payload.ai_error}`);
  renderResults(payload);
  renderActions(payload);
  renderUndo(payload);
  renderDebug(payload);
  // a chime when the turn comes to this seat (not for a question the page answers by itself)
  const nowYours = payload.pending && payload.pending.yours && !payload.pending.auto_answer;
  if (before && nowYours && !(before.pending && before.pending.yours)) chime();
  if (renderer && renderer.render) {
    try { renderer.render($("board"), payload, controls); } catch (error) { console.error(error); }
  }
}

function accept(payload, replaceLog) {
  if (current && payload.undos !== undefined && payload.undos !== current.undos) {
    window.location.reload(); // actions were taken back: start again from the position undone to
    return;
  }
  if (current && payload.version < current.version) return; // an older answer arriving late
  if (replaceLog) { $("log").replaceChildren(); shownEvents = []; }
  const known = current ? current.version : 0;
  appendEvents(replaceLog ? payload.events : payload.events.filter((e) => e.action > known));
  if (mode === "play" && !current) rememberSeat(payload.game_id, seat, token); // the lobby lists it
  render(payload);
}

async function submit(body) {
  if (mode !== "play" || !current || busy) return;
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
    if (current) { renderActions(current); renderUndo(current); }
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
  if (current) { setLinkedText($("decision"), decisionText(current)); updateTitle(current); renderTracker(current); renderResults(current); } // seats by name
  if (mode === "play" && current && $("seat-name")) $("seat-name").textContent = seatName(seat);
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

function payloadUrl() {
  return mode === "watch" ? `/api/watch/${root.dataset.gameId}` : `/api/seat/${token}`;
}

async function reload() {
  current = null;
  accept(await request("GET", payloadUrl()), true);
}

function connect() {
  const after = current ? current.version : 0;
  const source = new EventSource(`${payloadUrl()}/stream?after=${after}`);
  source.addEventListener("open", () => { $("connection").textContent = mode === "watch" ? "live · watching" : "live"; });
  source.addEventListener("stream", (message) => { streamId = JSON.parse(message.data).stream; });
  source.addEventListener("update", (message) => accept(JSON.parse(message.data), false));
  source.addEventListener("deleted", () => { $("connection").textContent = "this game was deleted"; source.close(); });
  source.addEventListener("failure", (message) => { $("connection").textContent = JSON.parse(message.data).error; source.close(); });
  source.addEventListener("error", () => { $("connection").textContent = "reconnecting…"; });
}

// --- the replay viewer ----------------------------------------------------------------------------------
// ``partial``: how many events of the next action are shown in the log while the board stays at ``step``
// (an action is one engine transition: the board has no position between two of its events, so it changes
// when the action's last event is shown)
const replay = { id: root.dataset.replay, step: 0, partial: 0, length: 0, events: [], loadedUpTo: 0, timer: null, fresh: 0 };

async function loadEventsThrough(step) {
  if (replay.loadedUpTo >= step) return;
  const frame = await request("GET", `/api/replays/${replay.id}?step=${step}&after=${replay.loadedUpTo}`);
  for (const e of frame.events) if (e.action > replay.loadedUpTo) replay.events.push(e);
  replay.loadedUpTo = step;
}

function eventsOfAction(action) {
  return replay.events.filter((e) => e.action === action);
}

async function showEvent(delta) {
  if (delta > 0) {
    if (replay.step >= replay.length) return;
    await loadEventsThrough(replay.step + 1);
    if (replay.partial + 1 >= eventsOfAction(replay.step + 1).length) { await showStep(replay.step + 1); return; }
    replay.partial += 1;
  } else if (replay.partial > 0) {
    replay.partial -= 1;
  } else {
    if (replay.step <= 0) return;
    const shown = eventsOfAction(replay.step).length;
    await showStep(replay.step - 1);
    replay.partial = Math.max(0, shown - 1);
  }
  showPartialEvents();
}

function showPartialEvents() {
  const upTo = replay.events.filter((e) => e.action <= replay.step);
  const next = eventsOfAction(replay.step + 1);
  const extra = next.slice(0, replay.partial);
  $("log").replaceChildren();
  shownEvents = [];
  appendEvents(upTo);
  appendEvents(extra);
  const lines = $("log").querySelectorAll("li");
  lines.forEach((line, index) => line.classList.toggle("fresh", extra.length > 0 ? index === lines.length - 1 : Number(line.value) === replay.step));
  $("replay-step").textContent = `step ${replay.step} / ${replay.length}`
    + (replay.partial ? ` · event ${replay.partial} of ${next.length} of step ${replay.step + 1} (the board shows step ${replay.step})` : "");
}

async function showStep(step) {
  step = Math.max(0, Math.min(replay.length || step, step));
  replay.partial = 0;
  const back = current && step < current.version;
  const after = Math.min(replay.loadedUpTo, step);
  const frame = await request("GET", `/api/replays/${replay.id}?step=${step}&after=${after}`);
  for (const e of frame.events) if (e.action > replay.loadedUpTo) replay.events.push(e);
  replay.loadedUpTo = Math.max(replay.loadedUpTo, step);
  replay.length = frame.actions;
  replay.step = step;
  const upTo = replay.events.filter((e) => e.action <= step);
  if (back && rendererUrl) {
    // a renderer keeps what it was shown (its battle report...): a fresh copy of it for a step back
    replay.fresh += 1;
    try { renderer = await import(`${rendererUrl}?replay=${replay.fresh}`); } catch (error) { console.error(error); }
    $("board").replaceChildren();
  }
  current = null;
  $("log").replaceChildren();
  shownEvents = [];
  appendEvents(upTo);
  for (const line of $("log").querySelectorAll("li")) if (Number(line.value) !== step) line.classList.remove("fresh");
  render({ ...frame, events: upTo });
  $("replay-slider").max = String(replay.length);
  $("replay-slider").value = String(step);
  $("replay-step").textContent = `step ${step} / ${replay.length}`;
  $("connection").textContent = `replay of ${frame.game_name}: ${replay.length} actions`;
}

function replayControls() {
  const go = (delta) => () => { stopPlaying(); showStep(replay.step + delta).catch(report); };
  const goEvent = (delta) => () => { stopPlaying(); showEvent(delta).catch(report); };
  $("replay-event-back").addEventListener("click", goEvent(-1));
  $("replay-event-forward").addEventListener("click", goEvent(1));
  $("replay-first").addEventListener("click", () => { stopPlaying(); showStep(0).catch(report); });
  $("replay-back").addEventListener("click", go(-1));
  $("replay-forward").addEventListener("click", go(1));
  $("replay-last").addEventListener("click", () => { stopPlaying(); showStep(replay.length).catch(report); });
  $("replay-slider").addEventListener("change", (e) => { stopPlaying(); showStep(Number(e.target.value)).catch(report); });
  $("replay-play").addEventListener("click", () => (replay.timer ? stopPlaying() : startPlaying()));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
    if (e.key === "ArrowRight" && e.shiftKey) goEvent(1)();
    else if (e.key === "ArrowLeft" && e.shiftKey) goEvent(-1)();
    else if (e.key === "ArrowRight") go(1)();
    else if (e.key === "ArrowLeft") go(-1)();
    else if (e.key === "Home") $("replay-first").click();
    else if (e.key === "End") $("replay-last").click();
    else if (e.key === " ") { e.preventDefault(); $("replay-play").click(); }
  });
}

function startPlaying() {
  $("replay-play").textContent = "pause";
  replay.timer = setInterval(() => {
    if (replay.step >= replay.length) { stopPlaying(); return; }
    showStep(replay.step + 1).catch(report);
  }, 700);
}

function stopPlaying() {
  if (replay.timer) clearInterval(replay.timer);
  replay.timer = null;
  $("replay-play").textContent = "play";
}

function report(error) {
  $("action-error").textContent = error.message;
}

function toggles() {
  for (const [id, key, after] of [["sound-toggle", SOUND_KEY, () => {}], ["debug-toggle", DEBUG_KEY, () => current && renderDebug(current)]]) {
    const box = $(id);
    if (!box) continue;
    box.checked = setting(key);
    box.addEventListener("change", () => { setSetting(key, box.checked); after(); });
  }
}

// With a board the generic list of legal actions is folded (the board offers them); it stays reachable.
function foldGenericActions() {
  const buttons = $("action-buttons");
  if (!buttons || buttons.closest("details")) return;
  const details = el("details", { id: "all-actions" }, el("summary", {}, "All legal actions (as text)"));
  buttons.replaceWith(details);
  details.append(buttons);
}

async function main() {
  toggles();
  await loadRuleLinks(root.dataset.game);
  if (rendererUrl) {
    try { renderer = await import(rendererUrl); } catch (error) { console.error("board renderer failed to load", error); rendererUrl = null; }
  }
  if (renderer && mode !== "replay") foldGenericActions();
  if (mode === "replay") {
    replayControls();
    await showStep(0);
    return;
  }
  if (mode === "play") {
    $("text-form").addEventListener("submit", (event) => {
      event.preventDefault();
      const text = $("action-text").value.trim();
      if (text) submit({ text });
    });
  }
  await reload();
  if (mode === "play" && $("watch-link")) $("watch-link").href = `/watch/${current.game_id}`;
  connect();
}

main().catch((error) => { $("action-error").textContent = error.message; });
