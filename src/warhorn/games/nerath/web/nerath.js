// Conquest of Nerath board: the schematic map (SVG) from the public layout (GET /api/seat/{token}/board),
// the pieces from the seat's view, and the pending decision's legal actions as map interactions:
//   movement  click one of your spaces (ringed) → choose piece type and count → click a highlighted space
//             (red = an attack: its exact odds show before you confirm);
//   ships     sail / load / unload as a list per warship;
//   battles   fight (with odds), every die rolled and every loss, casualties, continue or retreat;
//   buying    a button per piece with its cost → click a highlighted space to place it;
//   cards     a button per playable card, pass to close a window or end a phase.
// Every legal action also stays reachable in the generic list ("All legal actions", folded).
import { request, el } from "../api.js";
import { oddsView } from "./nerath.odds_view.js";

const SVG = "http://www.w3.org/2000/svg";
const token = document.getElementById("game").dataset.token;

const PHASE_DONE = { movement: "End movement", reposition: "End repositioning", reinforcements: "End reinforcements",
  card_window: "Pass (play no card)", run_amok: "Let no monster run amok" };

let layout = null; // the public layout, once loaded
let layoutLoading = null;
let lastArgs = null; // the last render() arguments, to redraw after the layout arrives
let drawScheduled = false;
const events = []; // every event seen, in order (the game page hands them over as they come)
const seenEvents = new Set();
const oddsCache = new Map();
// What the player has picked on the current version (reset when the version changes).
let ui = { version: -1 };

// Card windows ask every kingdom that holds a card (so being asked reveals nothing). When none of your
// cards fits, the only choice is to pass; this browser can do that for you (a per-browser setting).
const AUTO_PASS_KEY = "warhorn.nerath.autoPass";
let autoPassedVersion = -1;
function autoPassOn() {
  try { return localStorage.getItem(AUTO_PASS_KEY) !== "off"; } catch { return true; }
}
function setAutoPass(on) {
  try { localStorage.setItem(AUTO_PASS_KEY, on ? "on" : "off"); } catch { /* private mode: not kept */ }
}
function autoPassToggle() {
  const box = el("input", { type: "checkbox", id: "nerath-auto-pass", checked: autoPassOn(),
    onchange: (e) => { setAutoPass(e.target.checked); if (lastArgs) maybeAutoPass(lastArgs.payload, lastArgs.controls); } });
  return el("label", { class: "muted auto-pass", title: "A card window where none of your cards fits is passed at once" },
    box, " pass card windows where no card of mine fits");
}
function maybeAutoPass(payload, controls) {
  const p = payload.pending;
  // the engine says when a decision answers itself (state.auto_answer: a card window where no card
  // of this kingdom's can change anything); the page only keeps the player's on/off preference
  if (!p || !p.yours || !p.auto_answer || !autoPassOn()) return;
  if (autoPassedVersion === payload.version) return;
  autoPassedVersion = payload.version;
  const action = p.auto_answer;
  const attempt = (tries) => {
    if (!lastArgs || lastArgs.payload.version !== payload.version) return; // moved on meanwhile
    Promise.resolve(controls.submit(action)).then(() => {
      // the page ignores a submit while another is in flight: try again shortly if still waiting
      if (tries > 0 && lastArgs && lastArgs.payload.version === payload.version) setTimeout(() => attempt(tries - 1), 150);
    });
  };
  setTimeout(() => attempt(20), 0);
}

function resetUi(version) {
  oddsCache.clear(); // odds belong to one version of the game
  ui = { version, space: null, piece: null, count: 1, buy: null, confirm: null, odds: null, placeChoices: null };
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function ensureStyles() {
  if (document.getElementById("nerath-css")) return;
  document.head.append(el("link", { id: "nerath-css", rel: "stylesheet", href: "/static/games/nerath.css" }));
}

function spaceName(id) {
  const s = layout && layout.byId[id];
  return s ? s.name : id;
}

function kingdomOf(id) {
  return layout.kingdoms.find((k) => k.id === id);
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// --- the legal actions, grouped the way the map uses them ------------------------------------------
function groupLegal(payload) {
  const g = { moves: [], ships: new Map(), buys: [], cards: [], fights: [], damage: [], split: [], cont: null,
    retreats: [], pass: null, amok: [], other: [] };
  for (const legal of payload.legal) {
    const a = legal.action;
    switch (a.kind) {
      case "move": g.moves.push(legal); break;
      case "sail": case "load": case "unload": case "stay": {
        if (!g.ships.has(a.ship)) g.ships.set(a.ship, []);
        g.ships.get(a.ship).push(legal);
        break;
      }
      case "buy": g.buys.push(legal); break;
      case "play": case "treasure": g.cards.push(legal); break;
      case "fight": g.fights.push(legal); break;
      case "damage": g.damage.push(legal); break;
      case "split": case "accept": case "refuse": g.split.push(legal); break;
      case "continue": g.cont = legal; break;
      case "retreat": g.retreats.push(legal); break;
      case "amok": g.amok.push(legal); break;
      case "pass": g.pass = legal; break;
      default: g.other.push(legal);
    }
  }
  return g;
}

// The attacker's enemies: a destination is an attack when it is a dungeon (heroes fight guardians), an enemy
// territory, or a sea with enemy pieces, seen from the view.
function isAttack(view, spaceId, kingdom) {
  const s = layout.byId[spaceId];
  const here = view.spaceById[spaceId] || {};
  if (!s) return false;
  if (s.kind === "dungeon") return true;
  const team = view.teamOf;
  if (s.kind === "land") return !here.control || team[here.control] !== team[kingdom]; // unheld land is enemy too
  return (here.units || []).some((u) => team[u.kingdom] !== team[kingdom]);
}

// --- odds of an attack, from the server, from public facts only --------------------------------------
async function fetchOdds(action, version) {
  const key = `${version}:${JSON.stringify(action)}`;
  if (!oddsCache.has(key)) {
    oddsCache.set(key, request("POST", `/api/seat/${token}/odds`, { action, version }).catch((error) => ({ error: error.message })));
  }
  return oddsCache.get(key);
}

async function showOdds(action, label) {
  const version = ui.version;
  ui.odds = { label, loading: true, action };
  paintOdds();
  const answer = await fetchOdds(action, version);
  if (ui.version !== version || !ui.odds || ui.odds.action !== action) return;
  ui.odds = { label, answer, action };
  paintOdds();
}

function paintOdds() {
  const box = document.getElementById("nerath-odds");
  if (!box) return;
  const o = ui.odds;
  if (!o) { box.replaceChildren(); box.hidden = true; return; }
  box.hidden = false;
  if (o.loading) { box.replaceChildren(el("p", { class: "muted" }, `computing the odds of ${o.label}…`)); return; }
  if (o.answer.error) { box.replaceChildren(el("p", { class: "muted" }, `${o.label}: ${o.answer.error}`)); return; }
  const a = o.answer;
  const army = (c) => Object.entries(c).map(([k, n]) => `${n} ${k}`).join(", ") || "nothing";
  const against = a.kind === "dungeon"
    ? `guardians: ${[...a.guardians.map((g) => (layout.guardians[g] || { name: g }).name),
      ...(a.guardians_face_down ? [`${a.guardians_face_down} face down (odds averaged over the tiles it may be)`] : [])].join(", ")}`
    : `${army(a.defender)}${a.defender_kingdoms && a.defender_kingdoms.length ? ` (${a.defender_kingdoms.map((k) => kingdomOf(k).name).join(", ")})` : ""}`;
  box.replaceChildren(
    button("×", () => { ui.odds = null; paintOdds(); }, { class: "close", title: "hide the odds" }),
    el("h3", {}, `Odds: ${a.kind} battle at ${a.space_name}`),
    el("p", {}, `${army(a.attacker)} against ${against}`),
    oddsView(a.odds, { compact: true }),
  );
}

// --- the map ----------------------------------------------------------------------------------------------
// Regions (the layout's polygons, computed on the server from the content's coordinates): land tinted by
// the kingdom that holds it with a band of its home kingdom's colour inside the border, seas as water,
// dungeon entrances as rock with a cave and the number of guardians, impassable areas as mountains.
// Cliffs mark where two regions touch without a border in the rules, dashed roads or ferry lines where
// the rules join two regions that do not touch. Pieces are icons with counts, in their kingdom's colour.
const PARCHMENT = [239, 231, 211];
const PIECE_ORDER = ["soldier", "siege", "warrior", "mage", "monster", "elemental", "dragon", "warship"];
// Icons on a 20 x 20 grid (drawn white on the kingdom's colour).
const ICONS = {
  soldier: "M10 2.5 16 5v5c0 4-2.6 6.6-6 8-3.4-1.4-6-4-6-8V5z",
  siege: "M3 13h14v2H3zM5 17.5a1.8 1.8 0 1 0 0-.1zM15 17.5a1.8 1.8 0 1 0 0-.1zM6 13 14 3l1.4 1.2L8.6 13z",
  warrior: "M9 2h2v11h3v2h-3v3H9v-3H6v-2h3z",
  mage: "M10 1.8l2.3 5.3 5.7.5-4.3 3.8 1.3 5.6L10 14l-5 3 1.3-5.6L2 7.6l5.7-.5z",
  monster: "M3 3l4 4.5h6L17 3l-1.2 8.5C15 16.5 5 16.5 4.2 11.5zM7.3 10.4a1 1 0 1 0 0-.1zM12.7 10.4a1 1 0 1 0 0-.1z",
  elemental: "M10 2.5c4.5 0 7.5 3.3 7.5 7 0 3.2-2.5 5.6-5.5 5.6-2.4 0-4.2-1.8-4.2-4 0-1.8 1.4-3.2 3.1-3.2 1.3 0 2.3 1 2.3 2.3h-2c0-.2-.1-.3-.3-.3-.6 0-1.1.5-1.1 1.2 0 1.1.9 2 2.2 2 1.9 0 3.5-1.6 3.5-3.6 0-2.6-2.2-5-5.5-5C6.3 4.5 3.6 7.3 3.6 11c0 3.4 2.5 5.8 5.6 6.3l-.3 2C4.8 18.7 1.6 15.4 1.6 11 1.6 6.2 5.2 2.5 10 2.5z",
  dragon: "M1.5 5.5 7.5 9 10 3.5 12.5 9l6-3.5-3.5 9-5-2.2-5 2.2z",
  warship: "M2 12.5h16l-3 5H5zM9 2v9.5h1.6V2zM10.6 3.2 16 10.5h-5.4z",
  castle: "M3 18V6h2.2V3h2.4v3h1.3V3h2.2v3h1.3V3h2.4v3H17v12h-4.5v-4.5a2.5 2.5 0 0 0-5 0V18z",
  crown: "M2.5 15.5 1.5 5l5 4 3.5-6 3.5 6 5-4-1 10.5z",
  cave: "M2 18c0-7 3.6-12 8-12s8 5 8 12h-4.5c0-3.6-1.6-6.5-3.5-6.5S6.5 14.4 6.5 18z",
  peak: "M0 18 7 5l3.5 6L13 7l7 11z",
};

function tint(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  const mix = rgb.map((c, i) => Math.round(c * amount + PARCHMENT[i] * (1 - amount)));
  return `rgb(${mix.join(",")})`;
}

function pathOf(points) {
  return `M${points.map(([x, y]) => `${x},${y}`).join("L")}Z`;
}

function iconDefs() {
  const defs = svg("defs");
  for (const [name, d] of Object.entries(ICONS)) {
    defs.append(svg("symbol", { id: `nerath-icon-${name}`, viewBox: "0 0 20 20" }, svg("path", { d })));
  }
  defs.append(svg("pattern", { id: "nerath-waves", width: 24, height: 12, patternUnits: "userSpaceOnUse" },
    svg("path", { d: "M0 8q3-3 6 0t6 0 6 0 6 0", class: "wave" })));
  defs.append(svg("pattern", { id: "nerath-rock", width: 10, height: 10, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(35)" }, svg("path", { d: "M0 5h10", class: "rock-hatch" })));
  return defs;
}

// A row of piece badges: per piece type an icon in the kingdom's colour and the count ("×3").
function pieceBadges(units) {
  const groups = new Map(); // kingdom → piece → {n, aboard}
  for (const u of units || []) {
    if (u.piece === "castle") continue;
    if (!groups.has(u.kingdom)) groups.set(u.kingdom, new Map());
    const key = u.aboard ? `${u.piece}+` : u.piece;
    const g = groups.get(u.kingdom);
    g.set(key, (g.get(key) || 0) + 1);
  }
  const badges = [];
  for (const [kingdom, counts] of groups) {
    const keys = [...counts.keys()].sort((a, b) => (PIECE_ORDER.indexOf(a.replace("+", "")) + (a.endsWith("+") ? 20 : 0))
      - (PIECE_ORDER.indexOf(b.replace("+", "")) + (b.endsWith("+") ? 20 : 0)));
    for (const key of keys) badges.push({ kingdom, piece: key.replace("+", ""), aboard: key.endsWith("+"), n: counts.get(key) });
  }
  return badges;
}

const BADGE_W = 25;
const BADGE_H = 14;
const BADGES_PER_ROW = 3;

function drawBadges(badges, x, y) {
  const g = svg("g", { class: "badges" });
  badges.forEach((b, i) => {
    const row = Math.floor(i / BADGES_PER_ROW);
    const inRow = Math.min(BADGES_PER_ROW, badges.length - row * BADGES_PER_ROW);
    const col = i % BADGES_PER_ROW;
    const bx = x - (inRow * BADGE_W) / 2 + col * BADGE_W;
    const by = y + row * (BADGE_H + 2);
    const k = kingdomOf(b.kingdom);
    const name = (layout.pieces.find((p) => p.id === b.piece) || { name: b.piece }).name;
    g.append(svg("g", { class: `badge${b.aboard ? " aboard" : ""}`, "data-kingdom": b.kingdom, "data-piece": b.piece,
      "data-count": b.n, transform: `translate(${bx},${by})` },
    svg("title", {}, `${k.name}: ${plural(b.n, name.toLowerCase())}${b.aboard ? " aboard a warship" : ""}`),
    svg("rect", { x: 0.5, y: 0, width: BADGE_W - 1.5, height: BADGE_H, rx: 3, fill: k.fill, class: "badge-bg" }),
    svg("use", { href: `#nerath-icon-${b.piece}`, x: 1.5, y: 1, width: 12, height: 12, class: "badge-icon" }),
    svg("text", { x: 18.7, y: 10.6, class: "badge-count" }, String(b.n))));
  });
  return g;
}

// A space's whole name: a long name on two lines (split at the space nearest its middle), never cut.
const LABEL_LINE = 12;
const CHAR_W = 5.8; // about the width of a label's letter, to keep labels inside the map
function nameLabel(name, x0, y, cls) {
  const words = name.split(" ");
  const oneLine = name.length <= LABEL_LINE || words.length < 2;
  const half = (CHAR_W * (oneLine ? name.length : Math.ceil(name.length / 2) + 2)) / 2;
  const x = Math.max(half + 2, Math.min(layout.width - half - 2, x0));
  if (oneLine) return svg("text", { x, y, class: cls }, name);
  let best = 1;
  for (let i = 1; i < words.length; i++) {
    const head = words.slice(0, i).join(" ").length;
    const bestHead = words.slice(0, best).join(" ").length;
    if (Math.abs(2 * head - name.length) < Math.abs(2 * bestHead - name.length)) best = i;
  }
  return svg("text", { x, y: y - 4.5, class: cls },
    svg("tspan", { x }, words.slice(0, best).join(" ")),
    svg("tspan", { x, dy: 9.5 }, ` ${words.slice(best).join(" ")}`));
}

function drawMap(payload, marks) {
  const view = payload.view;
  const W = layout.width;
  const H = layout.height;
  const map = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "nerath-map", role: "img", "aria-label": "map of Nerath" });
  map.append(iconDefs());
  // open water under the regions: what a dungeon entrance's clipped cell leaves shows as sea
  map.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "map-bg" }));
  map.append(svg("rect", { x: 0, y: 0, width: W, height: H, class: "region waves" }));
  const seas = svg("g", { class: "layer seas" });
  const lands = svg("g", { class: "layer lands" });
  const over = svg("g", { class: "layer over" });
  const marksLayer = svg("g", { class: "layer marks" });
  const top = svg("g", { class: "layer labels" });
  for (const area of layout.impassable) {
    lands.append(svg("path", { d: pathOf(area.polygon), class: "region impassable" }, svg("title", {}, `${area.name} (impassable)`)));
    for (const [dx, dy, s] of [[-16, -6, 18], [2, -12, 22], [-4, 4, 16]]) {
      top.append(svg("use", { href: "#nerath-icon-peak", x: area.x + dx - s / 2, y: area.y + dy - s / 2, width: s, height: s, class: "peak" }));
    }
    top.append(nameLabel(area.name, area.x, area.y + 24, "label impassable-label"));
  }
  for (const s of layout.spaces) {
    const here = view.spaceById[s.id] || {};
    const controller = here.control ? kingdomOf(here.control) : null;
    const home = s.home ? kingdomOf(s.home) : null;
    const mark = marks.get(s.id) || "";
    const d = pathOf(s.polygon);
    const handlers = { onclick: () => onSpaceClick(s.id), onmouseenter: () => onSpaceHover(s.id) };
    const g = svg("g", { class: `space ${s.kind} ${mark}`, "data-space": s.id, ...handlers },
      svg("title", {}, spaceTitle(s, here)));
    if (s.kind === "sea") {
      g.append(svg("path", { d, class: "region sea" }), svg("path", { d, class: "region waves" }));
      seas.append(g);
    } else if (s.kind === "dungeon") {
      g.append(svg("path", { d, class: "region dungeon" }), svg("path", { d, class: "region rock" }));
      lands.append(g);
    } else {
      g.append(svg("path", { d, class: "region land", fill: controller ? tint(controller.fill, 0.5) : "#e6dcc3" }));
      if (home) {
        const clip = `clip-${s.id}`;
        g.append(svg("clipPath", { id: clip }, svg("path", { d })));
        g.append(svg("path", { d, class: "home-band", stroke: home.fill, "clip-path": `url(#${clip})` }));
      }
      lands.append(g);
    }
    if (mark) marksLayer.append(svg("path", { d, class: `mark ${mark}`, "data-mark": s.id }));
    // labels, icons and pieces above every region
    const badges = pieceBadges(here.units);
    const rows = Math.ceil(badges.length / BADGES_PER_ROW);
    const labelY = s.y - 6 - Math.max(0, rows - 1) * 6;
    const cls = s.kind === "sea" ? "label sea-label" : s.kind === "dungeon" ? "label dungeon-label" : "label";
    const t = svg("g", { class: "space-top", "data-space": s.id });
    t.append(nameLabel(s.name, s.x, labelY, cls));
    if (s.capital) t.append(svg("use", { href: "#nerath-icon-crown", x: s.x - 30, y: labelY - 22, width: 13, height: 13, class: "crown" },
      svg("title", {}, "capital")));
    if ((here.units || []).some((u) => u.piece === "castle")) {
      const owner = kingdomOf(here.units.find((u) => u.piece === "castle").kingdom);
      t.append(svg("use", { href: "#nerath-icon-castle", x: s.x + 17, y: labelY - 23, width: 15, height: 15, class: "castle",
        fill: owner.fill }, svg("title", {}, `castle of ${owner.name}`)));
    }
    if (s.kind === "dungeon") {
      const down = here.guardians_face_down || 0;
      const up = (here.guardians || []).length;
      t.append(svg("use", { href: "#nerath-icon-cave", x: s.x - 10, y: labelY + 5, width: 20, height: 20, class: "cave" }));
      t.append(svg("text", { x: s.x, y: labelY + 23, class: "guardian-count" }, `${up + down}`,
        svg("title", {}, `${plural(up + down, "guardian")} (${up} face up)`)));
    }
    if (badges.length) t.append(drawBadges(badges, s.x, labelY + (s.kind === "dungeon" ? 28 : 7)));
    top.append(t);
  }
  for (const b of layout.barriers) {
    over.append(svg("polyline", { points: b.line.map(([x, y]) => `${x},${y}`).join(" "), class: "barrier" },
      svg("title", {}, `no border between ${spaceName(b.between[0])} and ${spaceName(b.between[1])}`)));
  }
  for (const [a, b] of layout.crossings) {
    const p = layout.byId[a];
    const q = layout.byId[b];
    over.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: `crossing ${p.kind}-${q.kind}` },
      svg("title", {}, `${p.name} borders ${q.name}`)));
  }
  map.append(seas, lands, over, marksLayer, top);
  if (view.battle) {
    const s = layout.byId[view.battle.space];
    map.append(svg("text", { x: s.x + 26, y: s.y + 22, class: "battle-mark" }, "⚔"));
  }
  return map;
}

function spaceTitle(s, here) {
  const bits = [s.name, s.kind];
  if (s.home) bits.push(`home of ${kingdomOf(s.home).name}`);
  if (s.capital) bits.push("capital");
  if (here.control) bits.push(`held by ${kingdomOf(here.control).name}`);
  if (s.vp) bits.push(`${s.vp} VP to conquer`);
  return bits.join(" · ");
}

// --- clicks -----------------------------------------------------------------------------------------------
let controlsRef = null;

function movesFrom(spaceId) {
  return lastArgs ? groupLegal(lastArgs.payload).moves.filter((m) => m.action.path[0] === spaceId) : [];
}

function destinationsFor() {
  // one move per destination: the shortest path the legal list offers
  const best = new Map();
  for (const m of movesFrom(ui.space)) {
    if (m.action.piece !== ui.piece || m.action.count !== ui.count) continue;
    const dest = m.action.path[m.action.path.length - 1];
    const known = best.get(dest);
    if (!known || m.action.path.length < known.action.path.length) best.set(dest, m);
  }
  return best;
}

function buyTargets() {
  const out = new Map();
  if (!ui.buy || !lastArgs) return out;
  for (const b of groupLegal(lastArgs.payload).buys) {
    if (b.action.piece !== ui.buy) continue;
    if (!out.has(b.action.space)) out.set(b.action.space, []);
    out.get(b.action.space).push(b);
  }
  return out;
}

function onSpaceClick(spaceId) {
  if (!lastArgs) return;
  const { payload } = lastArgs;
  const g = groupLegal(payload);
  const kingdom = payload.view.kingdom;
  if (ui.buy) {
    const choices = buyTargets().get(spaceId);
    if (choices) {
      if (choices.length === 1) return controlsRef.submit(choices[0].action);
      ui.placeChoices = choices;
      return redraw();
    }
  }
  if (ui.space && ui.piece) {
    const move = destinationsFor().get(spaceId);
    if (move) {
      if (isAttack(payload.view, spaceId, kingdom)) return confirmAttack(move);
      return controlsRef.submit(move.action);
    }
  }
  const fight = g.fights.find((f) => f.action.space === spaceId);
  if (fight) return confirmAttack(fight);
  if (movesFrom(spaceId).length) {
    const pieces = piecesMovable(spaceId);
    ui = { ...ui, space: spaceId, piece: pieces.length === 1 ? pieces[0].piece : null, count: 1, confirm: null,
      buy: null, placeChoices: null };
    if (ui.piece) ui.count = pieces[0].max;
  } else {
    ui = { ...ui, space: spaceId === ui.space ? null : spaceId, piece: null, confirm: null };
  }
  redraw();
}

// The space an attacking action fights at (a move's or sail's end, a landing's enemy space, a fight's space).
function attackedSpace(a, view) {
  if (a.kind === "fight") return a.space;
  if (a.kind === "move") return a.path[a.path.length - 1];
  return attackTarget(a, view);
}

// Ask to confirm an attacking action, showing its odds first.
function confirmAttack(legal) {
  ui.confirm = legal;
  const where = attackedSpace(legal.action, lastArgs.payload.view);
  showOdds(legal.action, `the battle at ${spaceName(where)}`);
  redraw();
}

function onSpaceHover(spaceId) {
  if (!lastArgs || !ui.space || !ui.piece) return;
  const move = destinationsFor().get(spaceId);
  if (move && isAttack(lastArgs.payload.view, spaceId, lastArgs.payload.view.kingdom) && !ui.confirm) {
    showOdds(move.action, `the attack on ${spaceName(spaceId)}`);
  }
}

function piecesMovable(spaceId) {
  const max = new Map();
  for (const m of movesFrom(spaceId)) max.set(m.action.piece, Math.max(max.get(m.action.piece) || 0, m.action.count));
  return [...max.entries()].map(([piece, n]) => ({ piece, max: n }));
}

function redraw() {
  if (lastArgs) draw(lastArgs.container, lastArgs.payload, lastArgs.controls);
}

// --- the tray: the pending decision as buttons ---------------------------------------------------------
function button(label, onclick, attrs = {}) {
  return el("button", { type: "button", onclick, ...attrs }, label);
}

function damageLabel(targets) {
  if (!targets.length) return "no damage can be taken";
  const counts = new Map();
  for (const t of targets) counts.set(t, (counts.get(t) || 0) + 1);
  return [...counts.entries()].map(([t, n]) => `${n} × ${prettyToken(t)}`).join(" + ");
}

function prettyToken(token) {
  if (token.includes("@")) {
    const [head, die] = token.split(":");
    const [tile, n] = head.split("@");
    const g = layout.guardians[tile];
    return `${g ? g.name : tile} #${n} loses its ${die}`;
  }
  if (token.startsWith("wounded-")) return `wounded ${token.slice(8)}`;
  if (token.startsWith("warship(")) return `warship carrying ${token.slice(8, -1).replaceAll("+", " + ")}`;
  return token;
}

function shipLabel(legal, view) {
  const a = legal.action;
  const to = (path) => path.slice(1).map(spaceName).join(" → ");
  switch (a.kind) {
    case "sail": return `sail to ${to(a.path)}${attackTarget(a, view) ? " (attack!)" : ""}`;
    case "load": return `load a ${a.piece} from ${spaceName(a.space)}`;
    case "unload": return `unload ${a.drops.map(([p, s]) => `${p} → ${spaceName(s)}`).join(", ")}${attackTarget(a, view) ? " (attack!)" : ""}`;
    case "stay": return "keep the cargo aboard";
    default: return legal.notation;
  }
}

function cardLabel(legal) {
  const a = legal.action;
  const def = a.kind === "treasure" ? layout.treasures[a.card] : layout.events[a.card];
  const name = def ? def.name : a.card;
  const vp = a.kind === "treasure" && def ? ` (${def.vp} VP)` : "";
  return { text: `${a.kind === "treasure" ? "Play treasure" : "Play"} ${name}${vp}${a.target ? ` on ${spaceName(a.target)}` : ""}`,
    title: def ? def.text : "" };
}

// The space a ship action attacks (a sail into enemy ships, a landing on one enemy space), or null.
function attackTarget(a, view) {
  let targets = [];
  if (a.kind === "sail") targets = [a.path[a.path.length - 1]];
  else if (a.kind === "unload") targets = [...new Set(a.drops.map(([, space]) => space))];
  const attacked = targets.filter((t) => isAttack(view, t, view.kingdom));
  return attacked.length === 1 ? attacked[0] : null;
}

function shipWhere(view, uid) {
  for (const s of view.spaces) {
    for (const u of s.units || []) {
      if (u.uid === uid) {
        const cargo = s.units.filter((c) => c.aboard === uid).map((c) => c.piece);
        return `${spaceName(s.id)}${cargo.length ? `, carrying ${cargo.join(" + ")}` : ", empty"}`;
      }
    }
  }
  return "";
}

function tray(payload, controls) {
  const pending = payload.pending;
  const box = el("div", { class: "nerath-tray", "data-version": payload.version,
    "data-decision": pending ? pending.kind : "over", "data-yours": pending && pending.yours ? "yes" : "no" });
  if (!pending) { box.append(el("p", {}, "The game is over.")); return box; }
  if (!pending.yours) {
    box.append(el("p", { class: "muted" }, `Waiting for ${playerName(pending.player, payload) || `seat ${pending.player}`} (${pending.kind.replaceAll("_", " ")}).`));
    return box;
  }
  const view = payload.view;
  const g = groupLegal(payload);
  box.append(el("h3", { class: "prompt" }, pending.prompt));
  if (g.pass) {
    box.append(button(PHASE_DONE[pending.kind] || "Pass", () => controls.submit(g.pass.action), { id: "nerath-pass", class: "pass" }));
  }
  const handled = new Set();
  const use = (legal) => { handled.add(legal); return legal; };

  // confirming an attack (its odds shown in the odds box just below)
  if (ui.confirm) {
    const a = ui.confirm.action;
    const where = attackedSpace(a, view);
    let question = `Fight the battle at ${spaceName(where)}?`;
    if (a.kind === "move") question = `Attack ${spaceName(where)} with ${plural(a.count, a.piece)} (path ${a.path.map(spaceName).join(" → ")})?`;
    else if (a.kind === "sail" || a.kind === "unload") question = `Attack ${spaceName(where)}: warship ${a.ship} — ${shipLabel(ui.confirm, view)}?`;
    box.append(el("div", { class: "confirm" }, el("p", {}, question),
      button(a.kind === "fight" ? "Fight" : "Attack", () => controls.submit(a), { id: "nerath-confirm", class: "primary" }),
      button("Cancel", () => { ui.confirm = null; ui.odds = null; redraw(); })));
  }
  // The odds of the attack to confirm, or of the attack the pointer is on in the map (the tray's own buttons
  // show odds only when clicked: odds appearing on hover must not push a button away from the pointer).
  box.append(el("div", { id: "nerath-odds", class: "nerath-odds", hidden: true }));

  // moving pieces
  if (g.moves.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Move pieces"));
    if (!ui.space || !movesFrom(ui.space).length) {
      part.append(el("p", { class: "muted" }, "Click one of your ringed spaces to move pieces from it."));
    } else {
      part.append(el("p", {}, `From ${spaceName(ui.space)}: `));
      for (const { piece, max } of piecesMovable(ui.space)) {
        part.append(button(`${piece} (up to ${max})`, () => { ui.piece = piece; ui.count = max; ui.confirm = null; redraw(); },
          { class: piece === ui.piece ? "chosen piece-choice" : "piece-choice", "data-piece": piece }));
      }
      if (ui.piece) {
        const max = piecesMovable(ui.space).find((p) => p.piece === ui.piece).max;
        const input = el("input", { type: "number", min: 1, max, value: ui.count, id: "nerath-count",
          onchange: (e) => { ui.count = Math.max(1, Math.min(max, Number(e.target.value) || 1)); ui.confirm = null; redraw(); } });
        part.append(el("label", { class: "inline" }, "how many ", input, ` of ${max}`));
        part.append(el("p", { class: "muted" }, "Click a green space to move there, a red one to attack (its odds show first)."));
      }
      part.append(button("cancel", () => { resetUi(ui.version); redraw(); }));
    }
    g.moves.forEach(use);
    box.append(part);
  }

  // battles: choose, take damage, continue or retreat
  if (g.fights.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Choose the next battle"));
    for (const f of g.fights) {
      use(f);
      part.append(button(`Battle at ${spaceName(f.action.space)}`, () => confirmAttack(f), { class: "fight-choice" }));
    }
    box.append(part);
  }
  if (g.split.length) {
    // allied defenders agree how to share one volley's damage (NER-BAT-07)
    const split = view.battle && view.battle.split;
    const title = split ? `Share ${plural(split.hits, "damage")} with your ally` : "Share the damage with your ally";
    const part = el("div", { class: "part" }, el("h4", {}, title));
    for (const l of g.split) {
      const a = use(l).action;
      let text = l.notation;
      if (a.kind === "split") text = a.shares.map(([k, n]) => `${kingdomOf(k).name} takes ${n}`).join(", ");
      else if (split && split.offer) {
        const [mine, theirs] = [split.offer[1], split.offer[0]];
        text = a.kind === "accept" ? `Accept: you take ${mine}, ${kingdomOf(split.proposer).name} ${theirs}`
          : "Refuse: split by the rule (half each)";
      }
      part.append(button(text, () => controls.submit(a), { class: "split-choice" }));
    }
    box.append(part);
  }
  if (g.damage.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Choose the casualties"));
    for (const d of g.damage) part.append(button(damageLabel(use(d).action.targets), () => controls.submit(d.action), { class: "damage-choice" }));
    box.append(part);
  }
  if (g.cont || g.retreats.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Continue or retreat"));
    if (g.cont) part.append(button("Continue the battle", () => controls.submit(use(g.cont).action), { id: "nerath-continue", class: "primary" }));
    for (const r of g.retreats) {
      use(r);
      const moves = r.action.moves.map(([t, d]) => `${prettyToken(t)} → ${d.startsWith("ship:") ? `warship ${d.slice(5)}` : spaceName(d)}`);
      part.append(button(`Retreat: ${moves.join(", ") || "(nowhere to go: destroyed)"}`, () => controls.submit(r.action), { class: "retreat-choice" }));
    }
    box.append(part);
  }
  if (g.amok.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Run amok"));
    for (const a of g.amok) part.append(button(`Monster runs amok into ${spaceName(use(a).action.target)}`, () => controls.submit(a.action)));
    box.append(part);
  }

  // warships
  if (g.ships.size) {
    const part = el("div", { class: "part" }, el("h4", {}, "Warships"));
    for (const [uid, list] of g.ships) {
      const row = el("div", { class: "ship", "data-ship": uid }, el("strong", {}, `Warship ${uid}`), ` at ${shipWhere(view, uid)}: `);
      for (const legal of list) {
        use(legal);
        const target = attackTarget(legal.action, view);
        row.append(button(shipLabel(legal, view), () => (target ? confirmAttack(legal) : controls.submit(legal.action))));
      }
      part.append(row);
    }
    box.append(part);
  }

  // buying reinforcements
  if (g.buys.length) {
    const part = el("div", { class: "part" }, el("h4", {}, `Buy reinforcements (${view.kingdoms.find((k) => k.id === view.kingdom).gold} gold)`));
    const pieces = [...new Set(g.buys.map((b) => b.action.piece))];
    for (const piece of pieces) {
      const def = layout.pieces.find((p) => p.id === piece);
      part.append(button(`${def.name} — ${def.cost} gold`, () => { ui.buy = ui.buy === piece ? null : piece; ui.space = null; ui.piece = null; ui.placeChoices = null; redraw(); },
        { class: ui.buy === piece ? "chosen buy-choice" : "buy-choice", "data-piece": piece }));
    }
    g.buys.forEach(use);
    if (ui.buy) part.append(el("p", { class: "muted" }, `Click a green space to place the ${ui.buy}.`));
    if (ui.placeChoices) {
      for (const c of ui.placeChoices) part.append(button(`place on ${spaceName(c.action.space)} via the castle at ${spaceName(c.action.via)}`, () => controls.submit(c.action)));
    }
    box.append(part);
  }

  // cards
  if (g.cards.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Cards"));
    for (const c of g.cards) {
      const { text, title } = cardLabel(use(c));
      part.append(button(text, () => controls.submit(c.action), { title, class: "card-choice" }));
    }
    box.append(part);
  }

  const rest = payload.legal.filter((l) => !handled.has(l) && l !== g.pass);
  if (rest.length) {
    const part = el("div", { class: "part" }, el("h4", {}, "Other actions"));
    for (const l of rest) part.append(button(l.notation, () => controls.submit(l.action)));
    box.append(part);
  }
  return box;
}

// --- side panel -------------------------------------------------------------------------------------------
function sidePanel(payload) {
  const view = payload.view;
  const box = el("div", { class: "nerath-side" });
  const current = kingdomOf(view.kingdom);
  box.append(el("p", { class: "turn" }, `Round ${view.round} · ${current.name} · ${view.phase.replaceAll("_", " ")}`));
  box.append(autoPassToggle());
  const table = el("table", { class: "kingdoms" }, el("thead", {}, el("tr", {}, el("th", {}, "kingdom"),
    el("th", { title: "treasury" }, "gold"), el("th", { title: "income at the end of its turn" }, "income"),
    el("th", {}, "VP"), el("th", { title: "event cards / treasures in hand" }, "hand"))));
  const body = el("tbody");
  for (const k of view.kingdoms) {
    const def = kingdomOf(k.id);
    const hand = k.hand ? `${k.hand.length} / ${k.treasure_hand.length}` : `${k.hand_count} / ${k.treasure_hand_count}`;
    const who = k.player === payload.seat ? " (you)" : ` (seat ${k.player})`;
    body.append(el("tr", { class: k.id === view.kingdom ? "current" : undefined, "data-kingdom": k.id },
      el("td", {}, el("span", { class: "swatch", style: `background:${def.fill}` }), ` ${def.name}${who}`),
      el("td", { class: "gold" }, String(k.gold)), el("td", {}, String(k.income)), el("td", { class: "vp" }, String(k.vp)),
      el("td", {}, hand)));
  }
  table.append(body);
  box.append(table);
  const inPlay = view.kingdoms.filter((k) => k.treasures_in_play.length);
  if (inPlay.length) {
    box.append(el("h4", {}, "Treasures in play"));
    const list = el("ul");
    for (const k of inPlay) {
      for (const t of k.treasures_in_play) {
        const def = layout.treasures[t];
        list.append(el("li", { title: def ? def.text : "" }, `${kingdomOf(k.id).name}: ${def ? def.name : t}`));
      }
    }
    box.append(list);
  }
  for (const k of view.kingdoms.filter((x) => x.hand)) {
    box.append(el("h4", {}, `Your hand (${kingdomOf(k.id).name})`));
    const list = el("ul", { class: "hand" });
    for (const c of k.hand) {
      const def = layout.events[c];
      list.append(el("li", {}, el("strong", {}, def ? def.name : c), def ? ` — ${def.text}` : ""));
    }
    for (const c of k.treasure_hand) {
      const def = layout.treasures[c];
      list.append(el("li", {}, el("strong", {}, def ? `${def.name} (treasure, ${def.vp} VP)` : c), def ? ` — ${def.text}` : ""));
    }
    if (!k.hand.length && !k.treasure_hand.length) list.append(el("li", { class: "muted" }, "no cards"));
    box.append(list);
  }
  if (ui.space) box.append(spaceDetails(view, ui.space));
  box.append(legend());
  return box;
}

// What the map's icons and marks mean (the icons are the map's own symbols).
function legend() {
  const icon = (name, fill) => {
    const s = svg("svg", { width: 14, height: 14, viewBox: "0 0 20 20", class: "legend-icon" });
    s.append(svg("use", { href: `#nerath-icon-${name}`, fill: fill || "#3b3b46" }));
    return s;
  };
  const items = [...PIECE_ORDER, "castle"].map((p) => el("span", { class: "legend-item" }, icon(p),
    ` ${(layout.pieces.find((d) => d.id === p) || { name: p }).name}`));
  items.push(el("span", { class: "legend-item" }, icon("crown", "#b8860b"), " capital"));
  items.push(el("span", { class: "legend-item" }, icon("cave", "#3a2c20"), " dungeon (guardians)"));
  items.push(el("span", { class: "legend-item" }, icon("peak", "#6e665c"), " impassable"));
  return el("p", { class: "legend muted" }, ...items,
    el("span", {}, " · fill: the kingdom holding it; inner band: its home kingdom; dotted cliffs: no border; dashed line: a border; ⚔ battle"));
}

function spaceDetails(view, id) {
  const s = layout.byId[id];
  const here = view.spaceById[id] || {};
  const box = el("div", { class: "space-details" }, el("h4", {}, s.name));
  const facts = [s.kind];
  if (s.home) facts.push(`home of ${kingdomOf(s.home).name}`);
  if (s.capital) facts.push("capital");
  if (here.control) facts.push(`held by ${kingdomOf(here.control).name}`);
  if (s.gold) facts.push(`${s.gold} gold of income`);
  if (s.vp) facts.push(`${s.vp} VP to conquer`);
  box.append(el("p", { class: "muted" }, facts.join(" · ")));
  const list = el("ul");
  for (const u of here.units || []) {
    const flags = ["moved", "new", "damage", "inactive"].filter((f) => u[f]).join(", ");
    list.append(el("li", {}, `${kingdomOf(u.kingdom).name} ${u.piece}${u.piece === "warship" ? ` ${u.uid}` : ""}` +
      `${u.aboard ? ` (aboard warship ${u.aboard})` : ""}${flags ? ` [${flags}]` : ""}`));
  }
  for (const gd of here.guardians || []) {
    const def = layout.guardians[gd.tile];
    list.append(el("li", {}, `guardian ${def ? def.name : gd.tile} (${gd.dice.map((d) => `d${d}`).join(" ")})`));
  }
  if (here.guardians_face_down) list.append(el("li", {}, `${here.guardians_face_down} guardian(s) face down`));
  if (!list.children.length) list.append(el("li", { class: "muted" }, "empty"));
  box.append(list);
  return box;
}

// --- battle report: every die and every loss of the current (or last) battle -------------------------------
function battleReport(view) {
  let start = -1;
  for (let i = events.length - 1; i >= 0; i--) if (events[i].kind === "battle.start") { start = i; break; }
  if (start < 0) return null;
  const box = el("div", { class: "battle-report", id: "nerath-battle" });
  const first = events[start];
  const live = view.battle && view.battle.space === first.data.space;
  box.append(el("h3", {}, `${live ? "Battle" : "Last battle"} at ${spaceName(first.data.space)}` +
    (live ? ` — round ${view.battle.round}, ${view.battle.step.replaceAll("_", " ")}` : "")));
  const list = el("ol", { class: "battle-events" });
  for (let i = start; i < events.length; i++) {
    const e = events[i];
    if (i > start && e.kind === "battle.start") break;
    if (e.kind === "roll" && e.data && e.data.dice) {
      const dice = el("span", { class: "dice" });
      for (const [sides, face] of e.data.dice) dice.append(el("span", { class: `die ${face >= 6 ? "hit" : "miss"}`, title: `d${sides}` }, String(face)));
      list.append(el("li", { class: "roll" }, `${e.data.who} (${namesIn(e.data.purpose)}): `, dice,
        ` → ${plural(e.data.hits ?? 0, "hit")}`));
    } else if (["damage", "destroyed", "battle.round", "battle.end", "retreat", "conquer", "liberate",
      "guardians.revealed", "battle.odd_damage", "dungeon.win", "dungeon.lose"].includes(e.kind) || e.kind.startsWith("dungeon")) {
      list.append(el("li", { class: e.kind.replace(".", "-") }, describeEvent(e) || e.text || e.kind));
    }
    if (e.kind === "battle.end") break;
  }
  box.append(list);
  return box;
}

// --- the whole board ---------------------------------------------------------------------------------------
function marksFor(payload) {
  const marks = new Map();
  const view = payload.view;
  const g = groupLegal(payload);
  for (const id of view.battles_todo || []) marks.set(id, "todo");
  if (!payload.pending || !payload.pending.yours) return marks;
  for (const m of g.moves) marks.set(m.action.path[0], "source");
  if (ui.space && ui.piece) {
    for (const dest of destinationsFor().keys()) marks.set(dest, isAttack(view, dest, view.kingdom) ? "dest attack" : "dest");
  }
  if (ui.buy) for (const dest of buyTargets().keys()) marks.set(dest, "dest place");
  for (const f of g.fights) marks.set(f.action.space, "dest attack");
  if (ui.space) marks.set(ui.space, `${marks.get(ui.space) || ""} selected`);
  if (ui.confirm) marks.set(attackedSpace(ui.confirm.action, view), "dest attack confirm");
  return marks;
}

function prepareView(view, kingdoms) {
  view.spaceById = Object.fromEntries(view.spaces.map((s) => [s.id, s]));
  view.mine = new Set(view.kingdoms.filter((k) => k.hand).map((k) => k.id));
  // allied kingdoms share a team (alliance mode); in free-for-all each kingdom is its own
  view.teamOf = Object.fromEntries(kingdoms.map((k) => [k.id, k.team ?? k.id]));
  return view;
}

function foldGenericActions() {
  const buttons = document.getElementById("action-buttons");
  if (!buttons || buttons.closest("details")) return;
  const details = el("details", { id: "all-actions" }, el("summary", {}, "All legal actions (as text)"));
  buttons.replaceWith(details);
  details.append(buttons);
}

function draw(container, payload, controls) {
  const view = prepareView(payload.view, layout.kingdoms);
  container.classList.add("nerath-board");
  const mapBox = el("div", { class: "nerath-map-box" }, drawMap(payload, marksFor(payload)));
  const report = battleReport(view);
  const left = el("div", { class: "nerath-left" }, mapBox);
  const right = el("div", { class: "nerath-right" }, tray(payload, controls));
  if (report) right.append(report);
  right.append(sidePanel(payload));
  container.replaceChildren(left, right);
  paintOdds();
}

export function render(container, payload, controls) {
  ensureStyles();
  foldGenericActions();
  controlsRef = controls;
  for (const e of payload.events || []) {
    const key = `${e.action}:${e.index}`;
    if (!seenEvents.has(key)) { seenEvents.add(key); events.push(e); }
  }
  if (payload.version !== ui.version) resetUi(payload.version);
  lastArgs = { container, payload, controls };
  maybeAutoPass(payload, controls);
  if (!layout) {
    if (!layoutLoading) {
      layoutLoading = request("GET", `/api/seat/${token}/board`).then((data) => {
        data.byId = Object.fromEntries([...data.spaces].map((s) => [s.id, s]));
        layout = data;
        redraw();
        if (controlsRef && controlsRef.refreshLog) controlsRef.refreshLog(); // the log with names now
      }).catch((error) => { container.replaceChildren(el("p", { class: "error" }, `board: ${error.message}`)); });
    }
    container.replaceChildren(el("p", { class: "muted" }, "loading the map…"));
    return;
  }
  // Updates can come faster than frames (AI kingdoms play many actions a second): draw the latest once a frame.
  if (!drawScheduled) {
    drawScheduled = true;
    requestAnimationFrame(() => { drawScheduled = false; redraw(); });
  }
}

// The name a person reads for an id in a text: a territory, a kingdom, a treasure or event card
// (a card copy "battle_luck#1" is named as its card), a dungeon guardian; null for any other word.
function nameOf(id) {
  const base = id.replace(/#\d+$/, "");
  const named = layout.byId[base] || layout.kingdoms.find((k) => k.id === base)
    || layout.treasures[base] || layout.events[base] || layout.guardians[base];
  return named && named.name ? named.name : null;
}

function namesIn(text) {
  return String(text || "").replace(/\b[a-z][a-z0-9_]*(?:#\d+)?/g, (word) => nameOf(word) || word);
}

// A log line with names (territories, kingdoms, cards, guardians) instead of their ids.
export function describeEvent(event) {
  if (!layout || !event.text) return null;
  return namesIn(event.text);
}

// A seat's name: the kingdom(s) it plays ("Karkoth", "Karkoth and Vailin"), once the layout is here.
export function playerName(seat, payload) {
  const kingdoms = (payload.view && payload.view.kingdoms) || [];
  if (!layout || !Array.isArray(kingdoms)) return null;
  const names = kingdoms.filter((k) => k.player === seat).map((k) => nameOf(k.id) || k.id);
  return names.length ? names.join(" and ") : null;
}

// Any other text for a person (the pending decision's prompt) with names instead of ids.
export function describeText(text) {
  return layout ? namesIn(text) : text;
}
