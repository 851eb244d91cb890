// Quest for the DragonLords board: the world (SVG) from the public layout (GET /api/seat/{token}/board),
// the pieces from the seat's view, and the legal actions as clicks:
//   a territory, sea zone or Wastelands square that a legal action names is ringed; click it to see
//   those actions (attack, move, board, land, sail, party...) and choose one;
//   actions naming no space (done, buy, cast, play, fight, retreat...) are buttons beside the map.
// Stacks show their owner's colour and unit count; other players' hidden tokens show only as a count
// (DLR-HID-01); tokens shown in a combat appear by name. Your own hand is listed; the others' only counted.
import { request, el } from "../api.js";

const SVG = "http://www.w3.org/2000/svg";
const token = document.getElementById("game") ? document.getElementById("game").dataset.token : "";
const SPACE_FIELDS = ["frm", "to", "territory", "zone", "target"];
const TOKEN_GLYPHS = { king: "♔", sorcerer: "✦", decoy: "◇", hero: "⚔", dragonlord: "🐉" };
const FEATURES = { village: "⌂", witch: "☾", shrine: "✚", dragons_lair: "🐉", quest: "?", pass: "⛰" };

let layout = null;
let lastArgs = null;
let chosen = null; // [space id, version] clicked, when it offers several actions

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function ensureStyles() {
  if (document.getElementById("dragonlords-css")) return;
  document.head.append(el("link", { id: "dragonlords-css", rel: "stylesheet", href: "/static/games/dragonlords.css" }));
}

function colour(owner) {
  return owner === null || owner === undefined || owner < 0 ? layout.neutral_colour : layout.player_colours[owner];
}

function spaceName(id) {
  const s = layout.byId[id];
  return s ? s.name : id;
}

function spaceOf(action) {
  for (const f of SPACE_FIELDS) {
    const v = action[f];
    if (typeof v === "string" && layout.byId[v]) return v;
  }
  if (action.kind === "party" || action.kind === "quest") {
    return null;
  }
  return null;
}

function spaceActions(payload, id) {
  return payload.legal.filter((l) => SPACE_FIELDS.some((f) => l.action[f] === id));
}

function stackBadge(force, x, y, title) {
  const g = svg("g", { class: "stack" }, svg("title", {}, title));
  g.append(svg("circle", { cx: x, cy: y, r: 11, fill: colour(force.owner) }));
  g.append(svg("text", { x, y: y + 4, class: "count" }, String(force.units)));
  const marks = [];
  if (force.hidden_tokens) marks.push(`T${force.hidden_tokens}`);
  for (const [tok] of force.shown || []) marks.push(TOKEN_GLYPHS[tok] || tok);
  for (const p of force.pieces || []) if (p.token) marks.push(TOKEN_GLYPHS[p.token] || p.token);
  if (force.shards) marks.push(`◆${force.shards}`);
  if (marks.length) g.append(svg("text", { x: x + 13, y: y + 4, class: "tokens" }, marks.join(" ")));
  return g;
}

function forceTitle(force) {
  const who = force.owner < 0 ? "neutral" : `player ${force.owner}`;
  const hidden = force.hidden_tokens ? `, ${force.hidden_tokens} hidden token(s)` : "";
  const own = (force.pieces || []).filter((p) => p.token).map((p) => p.token).join(", ");
  return `${layout.peoples[force.people] || force.people} of ${who}: ${force.units} unit(s)${hidden}${own ? ` (${own})` : ""}`;
}

function drawMap(payload, controls) {
  const view = payload.view || {};
  const yours = payload.pending && payload.pending.yours;
  const map = svg("svg", { class: "dl-map", viewBox: `0 0 ${layout.width} ${layout.height}`, role: "img", "aria-label": layout.name });
  for (const space of layout.spaces) {
    const actions = yours ? spaceActions(payload, space.id) : [];
    const classes = ["space", `kind-${space.kind}`];
    if (actions.length) classes.push("actionable");
    if (chosen && chosen[0] === space.id && chosen[1] === payload.version) classes.push("chosen");
    if (space.kingdom) classes.push("kingdom");
    const points = space.polygon.map(([x, y]) => `${x},${y}`).join(" ");
    const marks = [space.kingdom ? "♛" : "", space.mine ? "⛏" : "", space.portal ? "◎" : "", FEATURES[space.feature] || ""]
      .filter(Boolean).join(" ");
    const group = svg("g", { class: classes.join(" "), "data-space": space.id,
      onclick: actions.length ? () => clickSpace(payload, controls, space.id) : null },
      svg("title", {}, `${space.name}${space.kingdom ? " (Kingdom)" : ""}${space.mine ? " (mine)" : ""}${space.portal ? " (portal)" : ""}`),
      svg("polygon", { points, fill: space.fill }),
      svg("text", { x: space.label[0], y: space.label[1] - 10, class: "space-name" }, space.name),
      marks ? svg("text", { x: space.label[0], y: space.label[1] + 3, class: "marks" }, marks) : null);
    const force = (view.spaces || {})[space.id];
    if (force) group.append(stackBadge(force, space.label[0] - 6, space.label[1] + 16, forceTitle(force)));
    map.append(group);
  }
  for (const ship of view.ships || []) {
    const zone = layout.byId[ship.zone];
    if (!zone) continue;
    const units = ship.aboard ? ship.aboard.units : 0;
    map.append(svg("g", { class: "ship", "data-ship": ship.id },
      svg("title", {}, `ship ${ship.id} of ${ship.owner === null ? "nobody" : `player ${ship.owner}`}: ${units} aboard`),
      svg("text", { x: zone.label[0] + 18, y: zone.label[1] + 20, fill: colour(ship.owner), class: "boat" }, `⛵${units}`)));
  }
  for (const party of view.parties || []) {
    const square = layout.spaces.find((s) => s.track === party.track && s.track_index === party.square);
    if (!square) continue;
    map.append(svg("g", { class: "party" }, svg("title", {}, `player ${party.owner}'s party: ${party.force.units} unit(s), ${party.gold} gold`),
      svg("circle", { cx: square.label[0] + 14, cy: square.label[1] + 14, r: 8, fill: colour(party.owner) }),
      svg("text", { x: square.label[0] + 14, y: square.label[1] + 18, class: "count" }, String(party.force.units))));
  }
  return map;
}

function clickSpace(payload, controls, id) {
  const actions = spaceActions(payload, id);
  if (actions.length === 1) {
    controls.submit(actions[0].action);
    return;
  }
  chosen = [id, payload.version];
  draw();
}

function drawChoice(payload, controls) {
  if (!chosen || chosen[1] !== payload.version) return null;
  const actions = spaceActions(payload, chosen[0]);
  if (!actions.length) return null;
  return el("section", { class: "dl-choice" }, el("h4", {}, spaceName(chosen[0])),
    ...actions.map((l) => el("button", { type: "button", onclick: () => controls.submit(l.action) }, l.notation)),
    el("button", { type: "button", class: "muted", onclick: () => { chosen = null; draw(); } }, "cancel"));
}

function drawButtons(payload, controls) {
  const others = payload.legal.filter((l) => !SPACE_FIELDS.some((f) => typeof l.action[f] === "string" && layout.byId[l.action[f]]));
  if (!others.length) return null;
  return el("section", { class: "dl-turn" },
    ...others.slice(0, 40).map((l) => el("button", { type: "button", onclick: () => controls.submit(l.action) }, l.notation)));
}

function drawPlayers(payload) {
  const view = payload.view || {};
  const rows = (view.players || []).map((p, i) => el("li", { class: view.current === i ? "current" : "" },
    el("span", { class: "swatch", style: `background:${colour(i)}` }),
    `Player ${i}${i === view.viewer ? " (you)" : ""}: ${layout.peoples[p.people] || "?"}${p.alive ? "" : " (no King)"}, `
      + `${p.gold} gold, ${p.hand_size} spell card(s), ${p.shards} shard(s)`,
    p.hand ? el("div", { class: "hand" }, `your hand: ${p.hand.map((c) => c.replaceAll("_", " ")).join(", ") || "empty"}`) : null));
  return el("section", { class: "dl-players" }, el("h4", {}, `Round ${view.round}, ${view.phase} phase`), el("ul", {}, ...rows));
}

function drawBattle(payload) {
  const battle = (payload.view || {}).battle;
  if (!battle) return null;
  const side = (s, name) => el("div", {}, `${name} (${s.player < -1 ? "monster" : s.player < 0 ? "neutral" : `player ${s.player}`}): `
    + `${s.fighters.length} fighting, modifier ${s.modifier >= 0 ? "+" : ""}${s.modifier}`
    + (s.pieces.length ? `; ${s.pieces.map((p) => p.token || "carrier").join(", ")}` : ""));
  return el("section", { class: "dl-battle" }, el("h4", {}, `Combat in ${spaceName(battle.space)}: round ${battle.round}, step ${battle.step}`),
    side(battle.attacker, "attacker"), side(battle.defender, "defender"));
}

function foldGenericActions() {
  const buttons = document.getElementById("action-buttons");
  if (!buttons || buttons.closest("details")) return;
  const details = el("details", { id: "all-actions" }, el("summary", {}, "All legal actions (as text)"));
  buttons.replaceWith(details);
  details.append(buttons);
}

function draw() {
  if (!lastArgs || !layout) return;
  const { container, payload, controls } = lastArgs;
  container.classList.add("dragonlords-board");
  foldGenericActions();
  container.replaceChildren(el("div", { class: "dl-board", "data-version": payload.version },
    drawMap(payload, controls),
    el("div", { class: "dl-side" }, drawChoice(payload, controls), drawButtons(payload, controls),
      drawBattle(payload), drawPlayers(payload))));
}

export function render(container, payload, controls) {
  ensureStyles();
  lastArgs = { container, payload, controls };
  if (layout) {
    draw();
    return;
  }
  request("GET", `/api/seat/${token}/board`).then((fetched) => {
    fetched.byId = Object.fromEntries(fetched.spaces.map((s) => [s.id, s]));
    layout = fetched;
    draw();
  }).catch((error) => console.warn("board layout failed to load", error));
}
