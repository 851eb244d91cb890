// Defenders of the Realm board: the map as SVG (locations by region colour, minions, taint, gates,
// generals and heroes from the seat's view), the pending decision as clicks on the map, on cards and
// on buttons next to the deciding hero, and a side panel with heroes, generals and the war.
//
// The public layout (positions, connections, the card/quest/hero catalogue) comes once from
// /api/seat/<token>/board; everything else from the payload of each update. Every legal action can
// be reached here (the "Other choices" list holds what has no place on the map) and also through the
// generic buttons of the page.
import { request, el } from "../api.js";
import { fightBox, noteEvents } from "./defenders.fight.js";

const SVG = "http://www.w3.org/2000/svg";
const REGION = { red: "#c0392b", green: "#2e8b3a", blue: "#2f6fb5", black: "#3a3a3a", purple: "#7b3fa0" };
const MINION = { red: "#e74c3c", green: "#27ae60", blue: "#3498db", black: "#111" };
const COLOURS = ["red", "green", "blue", "black"];
const PLAYER = ["#f1c40f", "#1abc9c", "#e67e22", "#ecf0f1"];
const GENERAL_MARK = { red: "B", green: "G", blue: "S", black: "V" };
// Actions drawn as buttons next to the deciding hero (the others go on the map, on cards or in the list).
const HERO_BAR = ["fight", "attack_general", "rest", "heal_land", "build_gate", "rumors", "quest", "fireball",
  "slay", "end_day"];
const CARD_KINDS = ["commit", "discard"];
// Actions aimed at a location that are only offered on the map (clicking the location).
const MAP_ONLY = ["move", "fight", "turn_undead", "pick"];

let layout = null;
let loading = null;
let latest = null;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A location's land: its colour mixed into the parchment.
const PARCHMENT = [239, 230, 207];
function landTint(colour) {
  const hex = (REGION[colour] || "#888888").slice(1);
  const n = parseInt(hex, 16);
  const rgb = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return `rgb(${rgb.map((c, i) => Math.round(c * 0.32 + PARCHMENT[i] * 0.68)).join(",")})`;
}

function slug(name) { return name.toLowerCase().replace(/[^a-z0-9]+/g, "-"); }

// --- names in words ---------------------------------------------------------------------------
function cardName(id) {
  const card = layout.cards[id];
  return card ? card.name : id;
}
function heroName(id) {
  const hero = layout.heroes[id];
  return hero ? hero.name : id;
}
function questName(id) {
  const quest = layout.quests[id];
  return quest ? quest.name : id;
}
// A text for a person with the names of the hero cards, heroes and quests it names by id (a card
// copy "battle_luck#1" is named as its card).
function namesIn(text) {
  return String(text || "").replace(/\b[a-z][a-z0-9_]*(?:#\d+)?/g, (word) => {
    const base = word.replace(/#\d+$/, "");
    const named = layout.cards[base] || layout.heroes[base] || layout.quests[base];
    return named && named.name ? named.name : word;
  });
}
export function describeEvent(event) {
  if (!layout || !event.text) return null;
  return namesIn(event.text);
}
// A seat's name: the hero(es) its player runs ("Cleric", "Ranger and Wizard"), once the layout is here.
export function playerName(seat, payload) {
  const heroes = (payload.view && payload.view.heroes) || [];
  if (!layout || !Array.isArray(heroes)) return null;
  const names = heroes.filter((h) => h.player === seat && h.hero).map((h) => heroName(h.hero));
  return names.length ? names.join(" and ") : null;
}
// The page's phase tracker: the war status, the turn (counted from 1, as the side panel does) and the phase.
export function trackerSteps(payload) {
  const view = payload.view || {};
  if (typeof view.turn !== "number") return null;
  return [view.war_status, `Turn ${view.turn + 1}`, view.phase].filter(Boolean);
}

export function describeText(text) {
  return layout ? namesIn(text) : text;
}
function isLocation(name) { return typeof name === "string" && layout.byName.has(name); }

const TRAVEL = {
  foot: "Walk", horse: "Ride", eagle: "Fly", gate: "Magic gate", gatelink: "Gate to gate",
  eagle_flight: "Eagle flight", noble_steed: "Noble Steed", teleport: "Teleport",
};

function describe(action) {
  const a = action;
  switch (a.kind) {
    case "move": {
      const how = TRAVEL[a.by] || a.by;
      return a.card ? `${how} to ${a.to} (discard ${cardName(a.card)})` : `${how} to ${a.to}`;
    }
    case "fight": return `Fight the minions at ${a.at}`;
    case "attack_general": return "Attack the general here";
    case "rest": return "Rest and heal";
    case "heal_land": return a.card ? `Heal the land (discard ${cardName(a.card)})` : "Heal the land (Sanctify)";
    case "build_gate": return `Build a magic gate (discard ${cardName(a.card)})`;
    case "rumors": return `Rumors at the inn: ${a.colour}, ${a.tokens} token${a.tokens > 1 ? "s" : ""}`;
    case "quest": return "Work on the quest here";
    case "fireball": return `Fireball (discard ${cardName(a.card)})`;
    case "slay": return `Slay every ${a.colour} minion here`;
    case "end_day": return "End the day";
    case "use_reward": return `${heroName(a.hero)}: use ${questName(a.reward)}${a.target ? ` on ${a.target}` : ""}`;
    case "play": return `${heroName(a.hero)}: play ${cardName(a.card)}${a.targets && a.targets.length ? ` → ${a.targets.join(", ")}` : ""}`;
    case "discard": return `${heroName(a.hero)}: discard ${cardName(a.card)}`;
    case "pass": return "Pass";
    case "join": return `${heroName(a.hero)}: join the attack`;
    case "commit": return `${heroName(a.hero)}: commit ${cardName(a.card)}`;
    case "commit_done": return `${heroName(a.hero)}: done committing cards`;
    case "next_attacker": return `${heroName(a.hero)} rolls next`;
    case "choose_hero": return `Take the ${heroName(a.hero)}`;
    case "turn_choice": return `Choose: ${a.choice}`;
    case "turn_undead": return `Drive an undead to ${a.to}`;
    case "redraw": return "Redraw the Darkness Spreads card";
    case "pick": {
      const target = isLocation(a.where) ? a.where : layout.cards[a.where] ? cardName(a.where)
        : layout.heroes[a.where] ? heroName(a.where) : a.where;
      return `Pick ${a.what}: ${target}`;
    }
    default: return a.kind;
  }
}

// The location an action is aimed at, if any (clicking that location chooses it).
function locationOf(action) {
  if (action.kind === "move" || action.kind === "turn_undead") return action.to;
  if (action.kind === "fight") return action.at;
  if (action.kind === "pick" && isLocation(action.where)) return action.where;
  if (action.kind === "use_reward" && isLocation(action.target)) return action.target;
  if (action.kind === "play" && action.targets && action.targets.length && isLocation(action.targets.at(-1))) {
    return action.targets.at(-1);
  }
  return null;
}

// --- the layout --------------------------------------------------------------------------------
function indexLayout(data) {
  data.byName = new Map(data.locations.map((loc) => [loc.name, loc]));
  data.generalOf = Object.fromEntries(data.generals.map((g) => [g.colour, g]));
  return data;
}

function tokenOf(controls) {
  return controls.token || document.getElementById("game").dataset.token;
}

export function render(container, payload, controls) {
  noteEvents(payload); // for the result box of the last fight
  latest = { container, payload, controls };
  if (!layout) {
    if (!loading) {
      loading = request("GET", `/api/seat/${tokenOf(controls)}/board`)
        .then((data) => {
          layout = indexLayout(data);
          draw(latest.container, latest.payload, latest.controls);
          if (latest.controls.refreshLog) latest.controls.refreshLog(); // the log with names now
        })
        .catch((error) => {
          loading = null;
          container.replaceChildren(el("p", { class: "error" }, `The board could not be loaded: ${error.message}`));
        });
    }
    if (!container.firstChild) container.append(el("p", { class: "muted" }, "loading the board…"));
    return;
  }
  draw(container, payload, controls);
}

// --- drawing -------------------------------------------------------------------------------------
function draw(container, payload, controls) {
  // the live stream repeats the current position when it (re)connects: keep an open menu then
  const shown = container.querySelector(".dfr");
  if (shown && Number(shown.dataset.version) === payload.version && shown.dataset.seat === String(payload.seat)) return;
  injectStyle();
  const view = payload.view;
  const mine = payload.pending && payload.pending.yours ? payload.legal.map((l) => l.action) : [];
  const byLocation = new Map();
  const placed = new Set();
  mine.forEach((action, i) => {
    const where = locationOf(action);
    if (where) {
      if (!byLocation.has(where)) byLocation.set(where, []);
      byLocation.get(where).push(action);
      if (MAP_ONLY.includes(action.kind)) placed.add(i); // cards and rewards aimed at a place stay listed too
    }
  });
  const decider = decidingSlot(payload);
  const deciderHero = decider !== null ? view.heroes[decider] : null;

  const wrap = el("div", { class: "dfr-map" });
  const map = svg("svg", { viewBox: `0 0 ${layout.width} ${layout.height}`, role: "img",
    "aria-label": "Defenders of the Realm map" });
  const popup = el("div", { class: "dfr-popup", hidden: true });
  const closePopup = () => { popup.hidden = true; popup.replaceChildren(); };

  const openMenu = (x, y, title, actions) => {
    popup.replaceChildren(el("div", { class: "dfr-popup-title" }, title),
      ...actions.map((action) => el("button", { type: "button", class: "dfr-choice",
        onclick: (e) => { e.stopPropagation(); closePopup(); controls.submit(action); } }, describe(action))),
      el("button", { type: "button", class: "dfr-cancel", onclick: (e) => { e.stopPropagation(); closePopup(); } }, "cancel"));
    placeAt(popup, x, y);
    popup.hidden = false;
  };
  const choose = (x, y, title, actions) => {
    if (actions.length === 1) controls.submit(actions[0]);
    else openMenu(x, y, title, actions);
  };

  map.append(svg("rect", { x: 0, y: 0, width: layout.width, height: layout.height, fill: "#efe6cf",
    onclick: closePopup }));
  // the lands: each location's region, tinted with its colour (a click on it is a click on the location)
  const lands = svg("g", { class: "dfr-lands" });
  for (const loc of layout.locations) {
    if (!loc.polygon) continue;
    const d = `M${loc.polygon.map(([x, y]) => `${x},${y}`).join("L")}Z`;
    lands.append(svg("path", { d, class: "dfr-region", fill: landTint(loc.colour), "data-region": loc.name,
      onclick: (e) => { e.stopPropagation(); const g = map.querySelector(`#loc-${slug(loc.name)}`); if (g) g.dispatchEvent(new MouseEvent("click")); } },
    svg("title", {}, loc.name)));
  }
  map.append(lands);
  for (const [a, b] of layout.connections) {
    const p = layout.byName.get(a);
    const q = layout.byName.get(b);
    map.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "dfr-link-casing" }));
    map.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "dfr-link" }));
  }
  // each general's road to Monarch City, over the roads it follows
  for (const g of layout.generals) {
    const points = g.path.map((n) => layout.byName.get(n)).filter(Boolean).map((l) => `${l.x},${l.y}`).join(" ");
    map.append(svg("polyline", { points, class: "dfr-road", stroke: MINION[g.colour], "data-general": g.colour },
      svg("title", {}, `${g.name}'s road to Monarch City: ${g.path.join(" → ")}`)));
  }
  // gate-to-gate travel (DEF-ACT-04): dashed lines between the gates on the board
  const gates = view.gates || [];
  if (gates.length > 1) {
    for (let i = 0; i < gates.length; i++) {
      for (let j = i + 1; j < gates.length; j++) {
        const p = layout.byName.get(gates[i]);
        const q = layout.byName.get(gates[j]);
        if (p && q) map.append(svg("line", { x1: p.x, y1: p.y, x2: q.x, y2: q.y, class: "dfr-gatelink" }));
      }
    }
  }

  for (const loc of layout.locations) {
    const actions = byLocation.get(loc.name) || [];
    const main = actions.some((a) => MAP_ONLY.includes(a.kind));
    const group = svg("g", { class: `dfr-loc${actions.length ? " dfr-target" : ""}`, "data-location": loc.name,
      id: `loc-${slug(loc.name)}`, transform: `translate(${loc.x},${loc.y})`,
      tabindex: actions.length ? 0 : undefined, role: actions.length ? "button" : undefined,
      "aria-label": actions.length ? `${loc.name}: ${actions.map(describe).join("; ")}` : undefined,
      onclick: (e) => {
        e.stopPropagation();
        if (actions.length) choose(loc.x, loc.y, loc.name, actions);
        else closePopup();
      },
      onkeydown: (e) => {
        if (actions.length && (e.key === "Enter" || e.key === " ")) {
          e.preventDefault();
          choose(loc.x, loc.y, loc.name, actions);
        }
      } });
    const radius = loc.monarch_city ? 24 : 17;
    group.append(svg("title", {}, locationTitle(loc, view)));
    // a halo where the hero can go or fight; a thin ring where only a card or reward can aim
    if (actions.length) group.append(svg("circle", { r: radius + 6, class: main ? "dfr-halo" : "dfr-aim" }));
    if (gates.includes(loc.name)) group.append(svg("circle", { r: radius + 3, class: "dfr-gate" }));
    group.append(svg("circle", { r: radius, fill: REGION[loc.colour] || "#888", class: "dfr-spot" }));
    if (loc.inn) group.append(svg("text", { class: "dfr-icon", y: 5 }, "Inn"));
    if (loc.monarch_city) group.append(svg("text", { class: "dfr-icon", y: 5 }, "♛"));
    group.append(svg("text", { class: "dfr-name", y: radius + 12 }, loc.name));
    drawMinions(group, (view.minions || {})[loc.name], radius);
    const taint = (view.taint || {})[loc.name];
    if (taint) {
      group.append(svg("g", { class: "dfr-taint", transform: `translate(${-radius - 4},${-radius + 2})` },
        svg("title", {}, `${taint} taint crystal${taint > 1 ? "s" : ""}`),
        svg("path", { d: "M0,-10 L7,0 L0,10 L-7,0 Z" }), taint > 1 ? svg("text", { x: 0, y: 3.5 }, taint) : null));
    }
    map.append(group);
  }
  drawGenerals(map, view);
  drawHeroes(map, view, payload);
  wrap.append(map, popup);

  // buttons next to the deciding hero for what is done where it stands
  const barActions = mine.filter((a, i) => !placed.has(i) && HERO_BAR.includes(a.kind));
  mine.forEach((a, i) => { if (HERO_BAR.includes(a.kind)) placed.add(i); });
  // a fight on the hero's own location is both on the map and on the bar
  if (deciderHero) {
    for (const a of byLocation.get(deciderHero.location) || []) if (a.kind === "fight") barActions.unshift(a);
  }
  if (barActions.length && deciderHero) {
    const here = layout.byName.get(deciderHero.location);
    const bar = el("div", { class: "dfr-herobar", id: "dfr-herobar" });
    const groups = new Map();
    for (const a of barActions) {
      if (!groups.has(a.kind)) groups.set(a.kind, []);
      groups.get(a.kind).push(a);
    }
    for (const [kind, actions] of groups) {
      const label = `${SHORT_LABEL[kind] || kind}${actions.length > 1 ? "…" : ""}`;
      bar.append(el("button", { type: "button", "data-kind": kind, title: actions.map(describe).join("\n"),
        onclick: (e) => { e.stopPropagation(); choose(here.x, here.y, GROUP_LABEL[kind] || kind, actions); } }, label));
    }
    placeAt(bar, here.x, here.y);
    wrap.append(bar);
  }

  // card clicks: committing cards to a battle, discarding
  const cardActions = new Map();
  mine.forEach((a, i) => {
    if (CARD_KINDS.includes(a.kind)) {
      const key = `${a.hero}|${a.card}`;
      if (!cardActions.has(key)) cardActions.set(key, []);
      cardActions.get(key).push([a, i]);
    }
  });
  for (const [key, entries] of cardActions) { // a card is a button only when it means one action
    if (entries.length === 1) { cardActions.set(key, entries[0][0]); placed.add(entries[0][1]); } else cardActions.delete(key);
  }

  if (view.battle) mine.forEach((a, i) => { if (a.kind === "commit_done") placed.add(i); }); // in the battle box
  const others = mine.filter((_, i) => !placed.has(i));
  const hints = [];
  if (byLocation.size) hints.push("click a highlighted (or ringed) location");
  if (barActions.length && deciderHero) hints.push(`use the buttons by the ${heroName(deciderHero.hero)}`);
  if (cardActions.size) hints.push("click a marked card");
  if (view.battle && mine.some((a) => a.kind === "commit_done")) hints.push("say when you are done in the battle box");
  if (others.length) hints.push("choose under “Other choices”");
  const side = el("aside", { class: "dfr-side" },
    el("h2", { id: "dfr-decision" }, decisionLine(payload)),
    hints.length ? el("p", { class: "dfr-hint", id: "dfr-hint" }, `Your move: ${hints.join("; ")}.`) : null,
    warPanel(view),
    battlePanel(view, payload, mine, controls),
    fightBox((text) => namesIn(text)),
    el("h3", {}, "Heroes"),
    ...view.heroes.map((slot, i) => heroPanel(slot, i, payload, cardActions, controls)),
    el("h3", {}, "Generals"),
    generalsPanel(view),
    othersPanel(others, controls));
  container.replaceChildren(el("div", { class: "dfr", "data-version": payload.version, "data-seat": payload.seat }, wrap, side));
  const bar = wrap.querySelector(".dfr-herobar");
  if (bar) fitNextTo(bar, wrap, layout.byName.get(deciderHero.location));
}

// Puts `node` next to location `loc`: as a row or a column, near or a little further, on the side
// where it covers the fewest locations and stays on the map.
function fitNextTo(node, wrap, loc) {
  const box = wrap.getBoundingClientRect();
  if (!box.width) return;
  const scale = box.width / layout.width;
  const rects = (css) => [...wrap.querySelectorAll(css)].map((g) => g.getBoundingClientRect());
  const spots = rects(".dfr-loc .dfr-spot, .dfr-hero");
  const labels = rects(".dfr-loc .dfr-name, .dfr-general, .dfr-minion");
  const hits = (list, left, top, w, h) =>
    list.filter((r) => r.left < left + w && r.right > left && r.top < top + h && r.bottom > top).length;
  const cx = box.left + loc.x * scale;
  const cy = box.top + loc.y * scale;
  let best = null;
  for (const direction of ["row", "column"]) {
    node.style.flexDirection = direction;
    const w = node.offsetWidth;
    const h = node.offsetHeight;
    for (const far of [1.2, 1.6, 2.2, 2.8]) {
      const gap = 50 * scale * far;
      const d = gap * 0.7;
      const candidates = [
        [cx - w / 2, cy + gap], [cx - w / 2, cy - gap - h], [cx + gap, cy - h / 2], [cx - gap - w, cy - h / 2],
        [cx + d, cy + d], [cx - d - w, cy + d], [cx + d, cy - d - h], [cx - d - w, cy - d - h],
      ];
      for (const [left, top] of candidates) {
        const outside = Math.max(0, box.left - left) + Math.max(0, left + w - box.right)
          + Math.max(0, box.top - top) + Math.max(0, top + h - box.bottom);
        const cost = hits(spots, left, top, w, h) * 1000 + hits(labels, left, top, w, h) * 100 + outside * 10 + far * 40;
        if (!best || cost < best.cost) best = { cost, left, top, direction };
      }
    }
  }
  node.style.flexDirection = best.direction;
  node.style.left = `${best.left - box.left}px`;
  node.style.top = `${best.top - box.top}px`;
  node.style.transform = "none";
  // a dashed leader from the hero to its buttons
  const w = node.offsetWidth / scale;
  const h = node.offsetHeight / scale;
  const x0 = (best.left - box.left) / scale;
  const y0 = (best.top - box.top) / scale;
  const hx = loc.x;
  const hy = loc.y + (loc.monarch_city ? 24 : 17) + 27;
  const tx = Math.min(Math.max(hx, x0), x0 + w);
  const ty = Math.min(Math.max(hy, y0), y0 + h);
  wrap.querySelector("svg").append(svg("line", { x1: hx, y1: hy, x2: tx, y2: ty, class: "dfr-leader" }));
}

const SHORT_LABEL = { fight: "Fight", attack_general: "Attack general", rest: "Rest", heal_land: "Heal land",
  build_gate: "Build gate", rumors: "Rumors", quest: "Quest", fireball: "Fireball", slay: "Slay", end_day: "End day" };
const GROUP_LABEL = { fight: "Fight", heal_land: "Heal the land", build_gate: "Build a magic gate",
  rumors: "Rumors at the inn", fireball: "Fireball", slay: "Slay" };

function decisionLine(payload) {
  const pending = payload.pending;
  if (!pending) return payload.results ? `Game over: ${payload.results.reason}` : "Game over";
  if (pending.yours) return pending.prompt;
  const seat = payload.seats[pending.player];
  const who = seat && seat.kind !== "human" ? `AI ${seat.kind}` : "human";
  const name = playerName(pending.player, payload) || `seat ${pending.player}`;
  return `Waiting for ${name} (${who}): ${pending.kind.replace(/_/g, " ")}`;
}

function placeAt(node, x, y, where = "at") {
  node.style.left = `${(100 * x) / layout.width}%`;
  node.style.top = `${(100 * y) / layout.height}%`;
  node.dataset.place = where;
}

function decidingSlot(payload) {
  const view = payload.view;
  if (!payload.pending) return null;
  if (payload.pending.kind === "action" && view.heroes[view.current]) return view.current;
  const slot = view.heroes.findIndex((s) => s.player === payload.pending.player && s.hero);
  return slot >= 0 ? slot : null;
}

function locationTitle(loc, view) {
  const parts = [`${loc.name} (${loc.colour}${loc.inn ? ", inn" : ""})`];
  const m = (view.minions || {})[loc.name];
  if (m) parts.push(COLOURS.filter((c) => m[c]).map((c) => `${m[c]} ${c}`).join(", "));
  const taint = (view.taint || {})[loc.name];
  if (taint) parts.push(`${taint} taint crystal${taint > 1 ? "s" : ""}`);
  if ((view.gates || []).includes(loc.name)) parts.push("magic gate");
  return parts.join(" · ");
}

function drawMinions(group, counts, radius) {
  if (!counts) return;
  let i = 0;
  for (const colour of COLOURS) {
    const n = counts[colour];
    if (!n) continue;
    const x = radius + 4 + (i % 2) * 15;
    const y = -radius + 2 + Math.floor(i / 2) * 15;
    group.append(svg("g", { class: `dfr-minion dfr-minion-${colour}`, transform: `translate(${x},${y})`,
      "data-colour": colour, "data-count": n },
    svg("rect", { x: 0, y: 0, width: 13, height: 13, rx: 2, fill: MINION[colour] }),
    svg("text", { x: 6.5, y: 10 }, n)));
    i += 1;
  }
}

function drawGenerals(map, view) {
  for (const [colour, g] of Object.entries(view.generals || {})) {
    if (g.defeated || !g.location) continue;
    const loc = layout.byName.get(g.location);
    if (!loc) continue;
    map.append(svg("g", { class: "dfr-general", "data-general": colour,
      transform: `translate(${loc.x - 10},${loc.y - (loc.monarch_city ? 44 : 38)})` },
    svg("title", {}, `${g.name}: ${g.life_left} life left, ${g.wounds} wound(s)`),
    svg("path", { d: "M-12,-10 L12,-10 L12,4 L0,14 L-12,4 Z", fill: MINION[colour] }),
    svg("text", { x: 0, y: 3 }, GENERAL_MARK[colour] || "?"),
    g.wounds ? svg("text", { class: "dfr-wounds", x: 17, y: 0 }, `-${g.wounds}`) : null));
  }
}

function drawHeroes(map, view, payload) {
  const atLocation = new Map();
  view.heroes.forEach((slot, i) => {
    if (!slot.hero) return;
    if (!atLocation.has(slot.location)) atLocation.set(slot.location, []);
    atLocation.get(slot.location).push([slot, i]);
  });
  for (const [name, slots] of atLocation) {
    const loc = layout.byName.get(name);
    if (!loc) continue;
    slots.forEach(([slot, i], k) => {
      const x = loc.x - 12 * (slots.length - 1) + 24 * k;
      const y = loc.y + (loc.monarch_city ? 24 : 17) + 27;
      const current = i === view.current;
      map.append(svg("g", { class: `dfr-hero${current ? " dfr-current" : ""}${slot.player === payload.seat ? " dfr-mine" : ""}`,
        "data-hero": slot.hero, "data-location": slot.location, transform: `translate(${x},${y})` },
      svg("title", {}, `${heroName(slot.hero)} (seat ${slot.player}): life ${slot.life}/${slot.max_life}`),
      svg("circle", { r: 11, fill: PLAYER[slot.player % PLAYER.length] }),
      svg("text", { y: 4 }, heroName(slot.hero).slice(0, 2))));
    });
  }
}

// --- the side panel --------------------------------------------------------------------------------
function warPanel(view) {
  const minionsLeft = COLOURS.map((c) => el("span", { class: `dfr-chip dfr-c-${c}`, title: `${c} minions left in the supply` },
    `${view.supply[c]}`));
  return el("div", { class: "dfr-war" },
    el("p", {}, el("strong", {}, view.war_status), ` · turn ${view.turn + 1} · ${view.phase}`,
      view.outcome ? ` · ${view.outcome}` : ""),
    el("p", {}, "Minions left: ", ...minionsLeft),
    el("p", {}, `Taint crystals left: ${view.crystals_left} of 12 · gates: ${(view.gates || []).join(", ") || "none"} (${view.gate_supply} in supply)`),
    el("p", { class: "muted" }, `Hero deck ${view.hero_deck.draw_count} · Darkness Spreads ${view.darkness_deck.draw_count} · quests ${view.quest_deck.draw_count}`));
}

function cardChip(id, action, controls) {
  const card = layout.cards[id] || { name: id, colour: "any" };
  const colour = card.special ? "special" : card.colour;
  const dice = card.dice ? ` ${card.dice}d` : "";
  const band = card.band ? ` · ${card.band}` : "";
  const title = `${card.name} (${card.colour}${band}${card.dice ? `, ${card.dice} dice` : ""})${card.text ? `: ${card.text}` : ""}`;
  if (action) {
    return el("button", { type: "button", class: `dfr-card dfr-c-${colour} dfr-card-act`, title: `${describe(action)} — ${title}`,
      "data-card": id, "data-kind": action.kind, onclick: () => controls.submit(action) },
    `${card.name}${dice}`, el("small", {}, ` ${action.kind}`));
  }
  return el("span", { class: `dfr-card dfr-c-${colour}`, title, "data-card": id }, `${card.name}${dice}`);
}

function heroPanel(slot, index, payload, cardActions, controls) {
  const view = payload.view;
  if (!slot.hero) return el("div", { class: "dfr-heropanel muted" }, `seat ${slot.player}: no hero yet`);
  const seat = payload.seats[slot.player];
  const who = slot.player === payload.seat ? "you" : seat && seat.kind !== "human" ? `AI ${seat.kind}` : "human";
  const life = el("span", { class: "dfr-life", title: `life ${slot.life} of ${slot.max_life}` },
    "♥".repeat(Math.max(slot.life, 0)), el("span", { class: "muted" }, "♡".repeat(Math.max(slot.max_life - slot.life, 0))));
  const quest = slot.quest ? layout.quests[slot.quest] : null;
  const hand = slot.hand.map((id) => cardChip(id, cardActions.get(`${slot.hero}|${id}`), controls));
  return el("div", { class: `dfr-heropanel${index === view.current ? " dfr-active" : ""}`, "data-hero": slot.hero },
    el("div", {}, el("strong", { title: layout.heroes[slot.hero] ? layout.heroes[slot.hero].text : "" }, heroName(slot.hero)),
      ` (seat ${slot.player}, ${who}) at ${slot.location} `, life,
      index === view.current && view.phase === "day" ? el("span", { class: "muted" }, ` · ${slot.actions} action(s) left`) : ""),
    el("div", { class: "dfr-hand" }, ...(hand.length ? hand : [el("span", { class: "muted" }, "no cards")])),
    quest ? el("div", { class: "dfr-quest", title: `${quest.text} Reward: ${quest.reward_text}` },
      `Quest: ${quest.name}`, slot.quest_progress.length ? el("span", { class: "muted" }, ` (done: ${slot.quest_progress.join(", ")})`) : "") : null,
    slot.rewards.length ? el("div", {}, `Rewards: ${slot.rewards.map(questName).join(", ")}`) : null,
    slot.slain.length ? el("div", {}, `Slayer of: ${slot.slain.join(", ")}`) : null);
}

function generalsPanel(view) {
  const rows = Object.entries(view.generals || {}).map(([colour, g]) => {
    const sheet = layout.generalOf[colour] || { life: g.life_left + g.wounds, text: "" };
    const marks = el("span", { class: "dfr-track" },
      ...Array.from({ length: sheet.life }, (_, k) => el("span", { class: k < g.wounds ? "dfr-wound" : "dfr-unhurt" })));
    return el("tr", { "data-general": colour, title: sheet.text },
      el("td", {}, el("span", { class: `dfr-chip dfr-c-${colour}` }, GENERAL_MARK[colour]), ` ${g.name}`),
      el("td", {}, g.defeated ? "defeated" : g.location),
      el("td", {}, g.defeated ? "" : marks, g.defeated ? "" : ` ${g.wounds} wound(s), ${g.life_left} left`));
  });
  return el("table", { class: "dfr-generals" }, el("tbody", {}, ...rows));
}

function battlePanel(view, payload, mine, controls) {
  const battle = view.battle;
  if (!battle) return null;
  const g = view.generals[battle.general];
  const committed = Object.entries(battle.committed).map(([slot, ids]) =>
    el("div", {}, `${heroName(view.heroes[Number(slot)].hero)}: `, ...ids.map((id) => cardChip(id, null, controls))));
  const done = mine.filter((a) => a.kind === "commit_done");
  return el("div", { class: "dfr-battle" },
    el("h3", {}, `Battle against ${g ? g.name : battle.general}`),
    el("p", {}, `Stage: ${battle.stage} · heroes: ${battle.participants.map((s) => heroName(view.heroes[s].hero)).join(", ")} · hits: ${battle.hits}${battle.parries ? ` · parries: ${battle.parries}` : ""}`),
    ...committed,
    mine.some((a) => a.kind === "commit") ? el("p", { class: "muted" }, "Click a card of your hand marked “commit” to add it to the attack.") : null,
    ...done.map((a) => el("button", { type: "button", class: "dfr-done", onclick: () => controls.submit(a) }, describe(a))));
}

// The choices that have no place on the map; many variants of one card or reward fold into one entry.
function othersPanel(actions, controls) {
  if (!actions.length) return el("div", { id: "dfr-others" });
  const groups = new Map();
  for (const a of actions) {
    const key = a.kind === "play" || a.kind === "use_reward" ? `${a.kind}|${a.hero}|${a.card || a.reward}` : `${a.kind}|${groups.size}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  const button = (a) => el("button", { type: "button", class: "dfr-choice", onclick: () => controls.submit(a) }, describe(a));
  const entries = [...groups.values()].map((group) => {
    if (group.length <= 3) return group.map(button);
    const a = group[0];
    const what = a.kind === "play" ? cardName(a.card) : questName(a.reward);
    return [el("details", { class: "dfr-group" },
      el("summary", {}, `${heroName(a.hero)}: ${a.kind === "play" ? "play" : "use"} ${what} (${group.length} ways${locationOf(a) ? "; or click a location" : ""})`),
      ...group.map(button))];
  });
  return el("div", { id: "dfr-others" }, el("h3", {}, "Other choices"), ...entries.flat());
}

// --- style ---------------------------------------------------------------------------------------
function injectStyle() {
  if (document.getElementById("defenders-style")) return;
  const style = document.createElement("style");
  style.id = "defenders-style";
  style.textContent = `
#board { grid-column: 1 / -1; order: -1; padding: .5rem; }
#action-buttons { max-height: 14rem; overflow: auto; }
.dfr { display: grid; grid-template-columns: minmax(0, 3fr) minmax(280px, 1fr); gap: 1rem; align-items: start; }
@media (max-width: 900px) { .dfr { grid-template-columns: 1fr; } }
.dfr-map { position: relative; aspect-ratio: 1000 / 700; width: 100%; }
.dfr-map svg { width: 100%; height: 100%; display: block; border-radius: 6px; user-select: none; }
.dfr-link { stroke: #8a6d44; stroke-width: 2.2; stroke-dasharray: 7 3; stroke-linecap: round; }
.dfr-link-casing { stroke: #f7f0dd; stroke-width: 5.5; stroke-linecap: round; }
.dfr-region { stroke: #7d6b4f; stroke-width: 1; stroke-linejoin: round; cursor: default; }
.dfr-road { fill: none; stroke-width: 8; stroke-opacity: .5; stroke-linecap: round; stroke-linejoin: round; }
.dfr-leader { stroke: #7a2e0e; stroke-width: 1.5; stroke-dasharray: 4 3; pointer-events: none; }
.dfr-gatelink { stroke: #c9a227; stroke-width: 2; stroke-dasharray: 6 6; }
.dfr-spot { stroke: #fff; stroke-width: 2; }
.dfr-gate { fill: none; stroke: #c9a227; stroke-width: 4; }
.dfr-halo { fill: #ffd54a; opacity: .75; }
.dfr-aim { fill: none; stroke: #7b3fa0; stroke-width: 1.5; stroke-dasharray: 3 3; }
.dfr-target:hover .dfr-aim { stroke-width: 3; }
.dfr-target { cursor: pointer; }
.dfr-target:hover .dfr-halo, .dfr-target:focus .dfr-halo { opacity: 1; }
.dfr-target:focus { outline: none; } .dfr-target:focus .dfr-spot { stroke: #7a2e0e; stroke-width: 4; }
.dfr-name { font: 600 11px system-ui, sans-serif; text-anchor: middle; fill: #222; paint-order: stroke; stroke: #efe6cf; stroke-width: 3px; }
.dfr-icon { font: 700 10px system-ui, sans-serif; text-anchor: middle; fill: #fff; }
.dfr-minion text { font: 700 10px system-ui, sans-serif; text-anchor: middle; fill: #fff; }
.dfr-minion rect { stroke: #fff; stroke-width: 1; }
.dfr-taint path { fill: #cfa8ff; stroke: #3d1163; stroke-width: 2; }
.dfr-taint text { font: 800 10px system-ui, sans-serif; text-anchor: middle; fill: #3d1163; }
.dfr-general path { stroke: #fff; stroke-width: 2; }
.dfr-general text { font: 800 12px system-ui, sans-serif; text-anchor: middle; fill: #fff; }
.dfr-general .dfr-wounds { fill: #b00020; font-size: 11px; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.dfr-hero circle { stroke: #222; stroke-width: 1.5; }
.dfr-hero text { font: 700 10px system-ui, sans-serif; text-anchor: middle; fill: #222; }
.dfr-hero.dfr-current circle { stroke: #b00020; stroke-width: 3; }
.dfr-popup, .dfr-herobar { position: absolute; transform: translate(-50%, 8px); background: #fffdf7; border: 1px solid #7a2e0e;
  border-radius: 6px; padding: .3rem; box-shadow: 0 2px 8px rgba(0,0,0,.25); z-index: 6; max-width: 24rem; }
.dfr-herobar { z-index: 5; }
.dfr-herobar { display: flex; flex-wrap: wrap; justify-content: center; opacity: .96; max-width: 30rem; }
.dfr-herobar button { font-size: .85em; padding: .15rem .45rem; }
.dfr-popup-title { font-weight: 600; padding: 0 .3rem .2rem; }
.dfr-popup button { display: block; width: 100%; text-align: left; }
.dfr-hint { background: #fff5cc; border-left: 4px solid #c9a227; padding: .2rem .4rem; }
.dfr-side h3 { font-size: 1rem; margin: .6rem 0 .3rem; }
.dfr-side p { margin: .2rem 0; }
.dfr-chip { display: inline-block; min-width: 1.6em; text-align: center; border-radius: 3px; color: #fff; padding: 0 .25em; margin-right: .2em; font-weight: 600; }
.dfr-c-red { background: #c0392b; } .dfr-c-green { background: #2e8b3a; } .dfr-c-blue { background: #2f6fb5; }
.dfr-c-black { background: #333; } .dfr-c-any, .dfr-c-special { background: #7b3fa0; }
.dfr-heropanel { border-top: 1px solid #eee; padding: .3rem 0; }
.dfr-heropanel.dfr-active { background: #fff8e1; }
.dfr-life { color: #b00020; letter-spacing: .05em; }
.dfr-hand { display: flex; flex-wrap: wrap; gap: .2rem; margin: .2rem 0; }
.dfr-card { display: inline-block; color: #fff; border-radius: 4px; padding: .05rem .4rem; font-size: .85em; border: 2px solid transparent; margin: 0; }
.dfr-card-act { border-color: #ffd54a; box-shadow: 0 0 0 2px #7a2e0e; }
.dfr-card-act:hover { filter: brightness(1.15); color: #fff; }
.dfr-quest { font-size: .9em; }
.dfr-generals td { padding: .15rem .3rem; font-size: .9em; }
.dfr-track span { display: inline-block; width: .7em; height: .7em; margin-right: 1px; border: 1px solid #999; }
.dfr-track .dfr-wound { background: #b00020; }
.dfr-battle { border: 2px solid #b00020; border-radius: 6px; padding: .3rem .5rem; margin: .4rem 0; }
#dfr-others .dfr-choice { display: block; text-align: left; }
.dfr-group { margin: .2rem 0; } .dfr-group summary { cursor: pointer; color: #7a2e0e; }
.dfr-group[open] { max-height: 16rem; overflow: auto; }
`;
  document.head.append(style);
}
