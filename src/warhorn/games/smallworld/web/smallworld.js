// Small World of Warcraft board: the islands (SVG) from the public layout (GET /api/seat/{token}/board),
// the pieces from the seat's view, and the legal actions as clicks:
//   a region you may conquer is ringed and shows its price before you click (tokens, coins; a final
//   conquest shows how many tokens you are short and the die's odds); click it to conquer (several ways
//   → a choice below the map);
//   any other action naming a region (deploy, abandon, place an artifact, objective, intimidate, portal,
//   steal) → click the region, then choose;
//   the combination column with its coins: click a combo to take it.
// Coins: only your own total is in your view; the others' stay hidden. Every legal action also stays in
// the generic list of the page.
import { request, el, svg, ensureGameStyles } from "../api.js";

const token = document.getElementById("game") ? document.getElementById("game").dataset.token : "";

let layout = null; // the latest layout (it carries the prices of the moment, so it is fetched per version)
let layoutVersion = -1;
let lastArgs = null;
let chosenRegion = null; // the region clicked on the current version, when it offers several actions
let chosenVersion = -1;

const SYMBOLS = { entry: "⚓", cavern: "◗", magic: "✦", place_slot: "★" };
const REGION_FIELDS = ["region", "first", "source"]; // the field naming the region an action starts at

function raceName(id) {
  if (!id) return "";
  const race = layout.races[id];
  return race ? race.name : id;
}

function raceColour(id) {
  const race = layout.races[id];
  return race ? race.colour : "#999";
}

function regionName(id) {
  const r = layout.byId[id];
  return r ? r.name : id;
}

// --- names in the log and the page: a seat is named by its race (with its power) -----------------------
// The engine's texts say "player 2"; the page says "Farmer Tauren (seat 2)" instead, with the race that
// seat played when the event happened: the names follow the picks in the log (the log is described in
// order, and written again from its start when the layout arrives), else the seat's race now.
const seatRaces = new Map(); // seat -> "Power Race" of its latest pick in the log described so far
let lastLogged = 0; // the action number of the last event described (a smaller one: the log restarts)

function comboName(tribe) {
  if (!tribe) return null;
  const power = tribe.power && layout ? layout.powers[tribe.power] || tribe.power : null;
  return power ? `${power} ${raceName(tribe.race)}` : raceName(tribe.race);
}

function seatLabel(n, viewNow) {
  const viewer = lastArgs ? lastArgs.controls.seat : null;
  const now = viewNow && viewNow.players && viewNow.players[n];
  const name = seatRaces.has(n) ? seatRaces.get(n) : now ? comboName(now.active) : null;
  const who = n === viewer ? "you" : `seat ${n}`;
  return name ? `${name} (${who})` : who === "you" ? "you" : who;
}

function namePlayers(text) {
  const view = lastArgs ? lastArgs.payload.view : null;
  return String(text)
    .replace(/\bplayers \[([\d, ]+)\]/g, (_, list) => list.split(",").map((n) => seatLabel(Number(n), view)).join(", "))
    .replace(/\b[Pp]layer (\d+)('s)?/g, (_, n, own) => `${seatLabel(Number(n), view)}${own || ""}`);
}

// A log line with the seats named by their races.
export function describeEvent(event) {
  if (!layout || !event.text) return null;
  if (event.action < lastLogged) seatRaces.clear();
  lastLogged = event.action;
  const pick = event.kind === "pick" && event.data && event.data.race ? event.data : null;
  if (pick && !seatRaces.has(pick.player)) seatRaces.set(pick.player, null); // its first race: "seat 0 takes..."
  const text = namePlayers(event.text);
  if (pick) seatRaces.set(pick.player, comboName({ race: pick.race, power: pick.power }));
  return text;
}

// A seat's name on the page: the race (and power) it plays now, or its declined race.
export function playerName(seatIndex, payload) {
  const p = payload.view && payload.view.players && payload.view.players[seatIndex];
  if (!layout || !p) return null;
  if (p.active) return comboName(p.active);
  return p.declined ? `${raceName(p.declined.race)} (in decline)` : null;
}

export function describeText(text) {
  return layout ? namePlayers(text) : text;
}

// The prices belong to one version: while the layout of a newer one is on its way, none are shown.
function currentOffers() {
  return lastArgs && layoutVersion === lastArgs.payload.version ? layout.offers || {} : {};
}

function regionActions(payload, regionId) {
  return payload.legal.filter((legal) => REGION_FIELDS.some((f) => legal.action[f] === regionId));
}

function priceText(offer) {
  if (offer.odds !== undefined) return `die: ${offer.short} short, ${Math.round(offer.odds * 100)}%`;
  return `${offer.tokens}${offer.coins ? ` +${offer.coins}c` : ""}`;
}

function offerFor(regionId, action) {
  const offers = currentOffers()[regionId] || [];
  return offers.find((o) => JSON.stringify(o.action) === JSON.stringify(action));
}

function actionLabel(legal, regionId) {
  const offer = offerFor(regionId, legal.action);
  if (!offer) return legal.notation;
  if (offer.odds !== undefined) {
    return `${legal.notation} — ${offer.tokens} tokens needed, ${offer.short} short: the die makes it up ${Math.round(offer.odds * 100)}%`;
  }
  return `${legal.notation} — ${offer.tokens} tokens${offer.coins ? ` and ${offer.coins} coins` : ""}`;
}

function clickRegion(payload, controls, regionId) {
  const actions = regionActions(payload, regionId);
  if (!actions.length) return;
  if (actions.length === 1) {
    controls.submit(actions[0].action);
    return;
  }
  chosenRegion = regionId;
  chosenVersion = payload.version;
  draw();
}

function pieceBadges(area, region) {
  const g = svg("g", { class: "pieces" });
  const [x, y] = region.label;
  let dx = 0;
  const units = (area.tokens || 0) + (area.beasts || 0) + (area.champion ? 1 : 0);
  if (area.race && units > 0) {
    const murlocs = area.race === "murlocs";
    const title = murlocs ? `${units} Murloc${units > 1 ? "s" : ""}` :
      `${raceName(area.race)}${area.declined ? " (in decline)" : ""} of player ${area.owner}: ${units} unit${units > 1 ? "s" : ""}`;
    g.append(svg("g", { class: `stack${area.declined ? " declined" : ""}${murlocs ? " murlocs" : ""}` },
      svg("title", {}, title),
      svg("circle", { cx: x, cy: y + 15, r: 12, fill: raceColour(area.race) }),
      svg("text", { x, y: y + 20, class: "count" }, String(units))));
    dx = 12;
  }
  const extras = [];
  if (area.mountain) extras.push(["▲", "Mountain (defends as 1)"]);
  if (area.fort) extras.push(["▣", "Fort"]);
  if (area.wisp_wall) extras.push(["≋", "Wisp Wall"]);
  if (area.watchtower) extras.push(["♜", "Watch Tower"]);
  if (area.objective) extras.push(["⚑", "Military Objective"]);
  if (area.beasts) extras.push([`B${area.beasts}`, `${area.beasts} Beast(s)`]);
  if (area.champion) extras.push(["♛", "Champion"]);
  if (area.face_down_marker) extras.push(["?", "a face-down artifact or legendary place"]);
  if (area.bomb) extras.push(["✹", `a face-down Bomb of player ${area.bomb.by}`]);
  for (const marker of area.markers || []) extras.push(["◈", layout.markers[marker] || marker]);
  extras.forEach(([glyph, title], i) => {
    g.append(svg("text", { x: x + dx + 4 + i * 15, y: y + 20, class: "extra" }, svg("title", {}, title), glyph));
  });
  return g;
}

function drawMap(payload, controls) {
  const view = payload.view || {};
  const areas = view.regions || {};
  const yours = payload.pending && payload.pending.yours;
  const map = svg("svg", { class: "sw-map", viewBox: `-10 -30 ${layout.width + 20} ${layout.height + 40}`,
    role: "img", "aria-label": layout.name });
  for (const island of layout.islands) {
    map.append(svg("text", { x: island.x + 4, y: island.y - 8, class: "island-name" },
      `${island.name} (${island.size})`));
  }
  for (const region of layout.regions) {
    const area = areas[region.id] || {};
    const actions = yours ? regionActions(payload, region.id) : [];
    const offers = yours ? currentOffers()[region.id] || [] : [];
    const classes = ["region", `terrain-${region.terrain}`];
    if (actions.length) classes.push("actionable");
    if (offers.length) classes.push("conquerable");
    if (chosenRegion === region.id && chosenVersion === payload.version) classes.push("chosen");
    const points = region.polygon.map(([x, y]) => `${x},${y}`).join(" ");
    const symbols = ["entry", "cavern", "magic", "place_slot"].filter((s) => region[s]).map((s) => SYMBOLS[s]).join(" ");
    const title = [`${region.name} — ${region.terrain}`,
      region.entry ? "entry region (anchor)" : "", region.cavern ? "cavern" : "", region.magic ? "magic" : "",
      ...offers.map((o) => `${o.notation}: ${priceText(o)}`)].filter(Boolean).join("\n");
    const group = svg("g", { class: classes.join(" "), "data-region": region.id,
      onclick: actions.length ? () => clickRegion(payload, controls, region.id) : null },
      svg("title", {}, title),
      svg("polygon", { points, fill: layout.terrain_colours[region.terrain] || "#ccc" }),
      svg("text", { x: region.label[0], y: region.label[1] - 14, class: "region-name" }, region.name),
      symbols ? svg("text", { x: region.label[0], y: region.label[1], class: "symbols" }, symbols) : null);
    group.append(pieceBadges(area, region));
    if (offers.length) {
      const best = offers.reduce((a, b) => (a.tokens <= b.tokens ? a : b));
      group.append(svg("text", { x: region.label[0], y: region.label[1] + 44, class: "price" }, priceText(best)));
    }
    map.append(group);
  }
  return map;
}

function drawCombos(payload, controls) {
  const view = payload.view || {};
  const picks = new Map(payload.legal.filter((l) => l.action.kind === "pick").map((l) => [l.action.index, l]));
  const rows = (view.combos || []).map((combo, i) => {
    const legal = picks.get(i);
    const label = `${layout.powers[combo.power] || combo.power} ${raceName(combo.race)}`;
    return el("li", { class: legal ? "pickable" : "" },
      el("span", { class: "swatch", style: `background:${raceColour(combo.race)}` }),
      legal ? el("button", { type: "button", onclick: () => controls.submit(legal.action),
        title: i ? `costs ${i} coin${i > 1 ? "s" : ""} (one on each combo above)` : "free" }, label) : el("span", {}, label),
      el("span", { class: "muted" }, ` cost ${i}`),
      combo.coins ? el("span", { class: "coins" }, ` +${combo.coins} coin${combo.coins > 1 ? "s" : ""} on it`) : null);
  });
  return el("section", { class: "sw-combos" }, el("h4", {}, "Combinations"), el("ol", { start: 0 }, ...rows));
}

function drawPlayers(payload) {
  const view = payload.view || {};
  const rows = (view.players || []).map((p, i) => {
    const races = [p.active ? `${raceName(p.active.race)}${p.active.power ? ` (${layout.powers[p.active.power] || p.active.power})` : ""}` : "no race",
      p.declined ? `declined ${raceName(p.declined.race)}` : null].filter(Boolean).join(", ");
    return el("li", { class: view.current === i ? "current" : "" },
      p.active ? el("span", { class: "swatch", style: `background:${raceColour(p.active.race)}` }) : null,
      `Player ${i}${i === view.viewer ? " (you)" : ""}: ${races}; ${p.tokens_on_board} on the board, ${p.hand} in hand`,
      p.coins !== undefined ? el("strong", {}, ` — ${p.coins} coins`) : el("span", { class: "muted" }, " — coins hidden"));
  });
  return el("section", { class: "sw-players" }, el("h4", {}, `Round ${view.round} of ${view.rounds}`), el("ul", {}, ...rows));
}

function drawChoice(payload, controls) {
  if (chosenRegion === null || chosenVersion !== payload.version) return null;
  const actions = regionActions(payload, chosenRegion);
  if (!actions.length) return null;
  return el("section", { class: "sw-choice" },
    el("h4", {}, regionName(chosenRegion)),
    ...actions.map((legal) => el("button", { type: "button", onclick: () => controls.submit(legal.action) },
      actionLabel(legal, chosenRegion))),
    el("button", { type: "button", class: "muted", onclick: () => { chosenRegion = null; draw(); } }, "cancel"));
}

function drawTurnButtons(payload, controls) {
  // actions that name no region and are no combo (end conquests, decline, form, recruit...)
  const others = payload.legal.filter((l) => l.action.kind !== "pick" && !REGION_FIELDS.some((f) => f in l.action));
  if (!others.length) return null;
  return el("section", { class: "sw-turn" },
    ...others.map((legal) => el("button", { type: "button", onclick: () => controls.submit(legal.action) }, legal.notation)));
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
  container.classList.add("smallworld-board");
  foldGenericActions();
  container.replaceChildren(
    // data-version says which version is drawn complete, with its prices (tests wait for it)
    el("div", { class: "sw-board", "data-version": layoutVersion === payload.version ? payload.version : -1 },
      drawMap(payload, controls),
      el("div", { class: "sw-side" }, drawTurnButtons(payload, controls), drawChoice(payload, controls),
        drawPlayers(payload), drawCombos(payload, controls))));
}

async function loadLayout(version) {
  const fetched = await request("GET", `/api/seat/${token}/board`);
  fetched.byId = Object.fromEntries(fetched.regions.map((r) => [r.id, r]));
  if (version >= layoutVersion) {
    const first = layout === null;
    layout = fetched;
    layoutVersion = version;
    if (first && lastArgs && lastArgs.controls.refreshLog) lastArgs.controls.refreshLog(); // names now known
  }
}

// Fetch the layout of this version (a few tries: a refused or lost request must not leave the board
// without its prices), then draw if it is still the version shown.
function fetchAndDraw(version, tries) {
  loadLayout(version).then(() => {
    if (lastArgs && lastArgs.payload.version === version) draw();
  }).catch((error) => {
    console.warn("board layout failed to load", error);
    if (tries > 1 && lastArgs && lastArgs.payload.version === version) {
      setTimeout(() => fetchAndDraw(version, tries - 1), 300);
    }
  });
}

export function render(container, payload, controls) {
  ensureGameStyles("smallworld");
  lastArgs = { container, payload, controls };
  if (layout && layoutVersion === payload.version) {
    draw();
    return;
  }
  fetchAndDraw(payload.version, 5);
  if (layout) draw(); // the previous drawing, without prices, until this version's layout arrives
}
