// Quest for the DragonLords board: the world (SVG) from the public layout (GET /api/seat/{token}/board),
// the pieces from the seat's view, and the legal actions as clicks:
//   a territory, sea zone or Wastelands square that a legal action names is ringed; click it to see
//   those actions (attack, move, board, land, sail, party...) and choose one;
//   actions naming no space (done, buy, cast, play, fight, retreat...) are buttons beside the map.
// Stacks show their owner's colour and unit count; other players' hidden tokens show only as a count
// (DLR-HID-01); tokens shown in a combat appear by name. Your own hand is listed; the others' only counted.
import { request, el, svg, ensureGameStyles } from "../api.js";

const token = document.getElementById("game") ? document.getElementById("game").dataset.token : "";
const SPACE_FIELDS = ["frm", "to", "territory", "zone", "target", "at"]; // "at": where a shard or item is carried
// Glyphs every system font of the browser tests has (DejaVu): no emoji.
const TOKEN_GLYPHS = { king: "♔", sorcerer: "✦", decoy: "◇", hero: "⚔", dragonlord: "♞" };
const FEATURES = { village: "⌂", witch: "☾", shrine: "✚", dragons_lair: "☠", quest: "?", pass: "▲" };

let layout = null;
let lastArgs = null;
let chosen = null; // [space id, version] clicked, when it offers several actions

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

// The world is drawn as a chart: a sea with waves, land whose coasts and borders are roughened by one
// displacement filter (the same noise for the coast, the land and the sea zones, so they stay aligned),
// a beach and shallows along every coast, realm colours, and icons for Kingdoms, mines, portals and the
// Wastelands' places. The Wastelands squares are small, so their names are written outside the frame,
// slanted, one per square; the square itself shows its place's icon and number.
const MARGIN = 112; // room above and below the world for the Wastelands squares' names

function mapDefs() {
  return svg("defs", {},
    svg("filter", { id: "dl-rough", x: "-5%", y: "-5%", width: "110%", height: "110%" },
      svg("feTurbulence", { type: "fractalNoise", baseFrequency: "0.025", numOctaves: "3", seed: "7", result: "noise" }),
      svg("feDisplacementMap", { in: "SourceGraphic", in2: "noise", scale: "16", xChannelSelector: "R", yChannelSelector: "G" })),
    svg("filter", { id: "dl-blur", x: "-10%", y: "-10%", width: "120%", height: "120%" },
      svg("feGaussianBlur", { stdDeviation: "5" })),
    svg("radialGradient", { id: "dl-sea", cx: "50%", cy: "45%", r: "70%" },
      svg("stop", { offset: "0%", "stop-color": "#4d8fc2" }),
      svg("stop", { offset: "100%", "stop-color": "#1f4f7d" })),
    svg("pattern", { id: "dl-waves", width: 64, height: 36, patternUnits: "userSpaceOnUse" },
      svg("path", { d: "M6 10 q5 -5 10 0 t10 0 M38 28 q5 -5 10 0 t10 0", class: "wave" })),
    svg("clipPath", { id: "dl-frame" }, svg("rect", { x: 0, y: 0, width: layout.width, height: layout.height })));
}

function playerLabel(i) {
  const players = (lastArgs && lastArgs.payload.view && lastArgs.payload.view.players) || [];
  const p = players[i];
  return p && p.people ? (layout.peoples[p.people] || p.people) : `player ${i}`;
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
  const people = layout.peoples[force.people] || force.people;
  const who = force.owner < 0 ? `neutral ${people}` : `${people} (player ${force.owner})`;
  const hidden = force.hidden_tokens ? `, ${force.hidden_tokens} hidden token(s)` : "";
  const own = (force.pieces || []).filter((p) => p.token).map((p) => p.token).join(", ");
  return `${who}: ${force.units} unit(s)${hidden}${own ? ` (${own})` : ""}`;
}

function spaceTitle(space) {
  const notes = [space.kingdom ? "Kingdom" : "", space.mine ? "mine" : "", space.portal ? "portal" : "",
    space.realm ? layout.realms[space.realm].name : "", space.island ? "island" : "",
    space.track ? `${space.track} track, square ${space.track_index + 1}` : ""].filter(Boolean);
  return `${space.name}${notes.length ? ` (${notes.join(", ")})` : ""}`;
}

function spaceShape(payload, controls, space, yours) {
  const actions = yours ? spaceActions(payload, space.id) : [];
  const classes = ["space", `kind-${space.kind}`];
  if (actions.length) classes.push("actionable");
  if (chosen && chosen[0] === space.id && chosen[1] === payload.version) classes.push("chosen");
  if (space.kingdom) classes.push("kingdom");
  if (space.island) classes.push("island");
  const force = ((payload.view || {}).spaces || {})[space.id];
  const points = space.polygon.map(([x, y]) => `${x},${y}`).join(" ");
  return svg("g", { class: classes.join(" "), "data-space": space.id,
    onclick: actions.length ? () => clickSpace(payload, controls, space.id) : null },
    svg("title", {}, [spaceTitle(space), force ? forceTitle(force) : ""].filter(Boolean).join("\n")),
    svg("polygon", { points, fill: space.kind === "sea" ? "transparent" : space.fill }));
}

// The widest stretch of a polygon along the row y: [left, right].
function rowSpan(polygon, y) {
  const xs = [];
  polygon.forEach(([x1, y1], i) => {
    const [x2, y2] = polygon[(i + 1) % polygon.length];
    if ((y1 > y) !== (y2 > y)) xs.push(x1 + ((y - y1) * (x2 - x1)) / (y2 - y1));
  });
  xs.sort((a, b) => a - b);
  let best = [0, 0];
  for (let i = 0; i + 1 < xs.length; i += 2) if (xs[i + 1] - xs[i] > best[1] - best[0]) best = [xs[i], xs[i + 1]];
  return best;
}

// A space's name: at its label point, moved inwards when it would run past the frame; a sea zone too
// narrow for its name there (a strait along the edge of the world) has it upright along the strait.
function nameText(space, x, y) {
  const half = space.name.length * 3.2 + 4;
  const [left, right] = rowSpan(space.polygon, y);
  const ys = space.polygon.map((p) => p[1]);
  if (space.kind === "sea" && right - left < 2 * half && Math.max(...ys) - Math.min(...ys) > 2 * half) {
    const cx = (left + right) / 2;
    return svg("text", { x: cx, y: y, transform: `rotate(-90 ${cx} ${y})`, class: "space-name" }, space.name);
  }
  return svg("text", { x: Math.min(Math.max(x, half), layout.width - half), y: y - 10, class: "space-name" }, space.name);
}

function spaceLabel(payload, space) {
  const [x, y] = space.label;
  const g = svg("g", { class: `label kind-${space.kind}` });
  if (space.kind === "wastelands") {
    g.append(svg("text", { x, y: y + 7, class: "place" }, FEATURES[space.feature] || "·"));
    g.append(svg("text", { x: x - 17, y: y - 14, class: "square-number" }, String(space.track_index + 1)));
  } else {
    g.append(nameText(space, x, y));
    const icons = [space.kingdom ? "♛" : "", space.mine ? "⚒" : "", space.portal ? "◎" : "", FEATURES[space.feature] || ""]
      .filter(Boolean);
    icons.forEach((icon, i) => {
      const ix = x + (i - (icons.length - 1) / 2) * 18;
      g.append(svg("circle", { cx: ix, cy: y - 1, r: 8, class: `emblem${icon === "♛" ? " crown" : ""}` }));
      g.append(svg("text", { x: ix, y: y + 3.5, class: "icon" }, icon));
    });
  }
  const force = ((payload.view || {}).spaces || {})[space.id];
  if (force) g.append(stackBadge(force, x - 6, y + 17, forceTitle(force)));
  return g;
}

// The Wastelands squares' names, slanted outside the frame (north above, south below), each starting
// at its square (which shows its number), and the tracks' titles.
function trackNames() {
  const g = svg("g", { class: "track-names" });
  const squares = layout.spaces.filter((s) => s.kind === "wastelands");
  for (const s of squares) {
    const xs = s.polygon.map((p) => p[0]);
    const ys = s.polygon.map((p) => p[1]);
    const x = (Math.min(...xs) + Math.max(...xs)) / 2;
    const north = Math.min(...ys) < layout.height / 2;
    const y = north ? Math.min(...ys) - 8 : Math.max(...ys) + 12;
    const angle = north ? -34 : 34;
    g.append(svg("text", { x, y, transform: `rotate(${angle} ${x} ${y})`, class: "track-name" },
      s.name));
  }
  for (const track of [...new Set(squares.map((s) => s.track))]) {
    const first = squares.find((s) => s.track === track && s.track_index === 0);
    if (!first) continue;
    const xs = squares.filter((s) => s.track === track).flatMap((s) => s.polygon.map((p) => p[0]));
    const north = first.polygon[0][1] < layout.height / 2;
    const x = Math.min(...xs) - 10;
    const y = north ? -10 : layout.height + 22;
    g.append(svg("text", { x, y, class: "track-title" }, `Wastelands, ${track} track`));
  }
  return g;
}

function drawMap(payload, controls) {
  const view = payload.view || {};
  const yours = payload.pending && payload.pending.yours;
  const W = layout.width;
  const H = layout.height;
  const map = svg("svg", { class: "dl-map", viewBox: `0 ${-MARGIN} ${W} ${H + 2 * MARGIN}`, role: "img", "aria-label": layout.name });
  map.append(mapDefs());
  map.append(svg("text", { x: 14, y: -MARGIN + 34, class: "map-title" }, layout.name));
  map.append(svg("text", { x: W - 40, y: -MARGIN + 44, class: "compass" }, "✵"));
  map.append(svg("text", { x: W - 40, y: -MARGIN + 18, class: "compass-n" }, "N"));
  const sea = layout.spaces.filter((s) => s.kind === "sea");
  const land = layout.spaces.filter((s) => s.kind !== "sea");
  const points = (s) => s.polygon.map(([x, y]) => `${x},${y}`).join(" ");
  const world = svg("g", { "clip-path": "url(#dl-frame)" },
    svg("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#dl-sea)" }),
    svg("rect", { x: 0, y: 0, width: W, height: H, fill: "url(#dl-waves)" }),
    svg("g", { class: "sea-zones", filter: "url(#dl-rough)" }, ...sea.map((s) => spaceShape(payload, controls, s, yours))),
    svg("g", { class: "coast", filter: "url(#dl-rough)" },
      svg("g", { class: "shallows", filter: "url(#dl-blur)" }, ...land.map((s) => svg("polygon", { points: points(s) }))),
      svg("g", { class: "beach" }, ...land.map((s) => svg("polygon", { points: points(s) })))),
    svg("g", { class: "land", filter: "url(#dl-rough)" }, ...land.map((s) => spaceShape(payload, controls, s, yours))),
    svg("g", { class: "labels" }, ...layout.spaces.map((s) => spaceLabel(payload, s))));
  map.append(world, svg("rect", { x: 0, y: 0, width: W, height: H, class: "frame" }), trackNames());
  for (const ship of view.ships || []) {
    const zone = layout.byId[ship.zone];
    if (!zone) continue;
    const units = ship.aboard ? ship.aboard.units : 0;
    const owner = ship.owner === null ? "nobody" : playerLabel(ship.owner);
    map.append(svg("g", { class: "ship", "data-ship": ship.id },
      svg("title", {}, `ship ${ship.id} of ${owner}: ${units} aboard`),
      svg("text", { x: Math.min(zone.label[0] + 18, layout.width - 34), y: zone.label[1] + 20, fill: colour(ship.owner), class: "boat" }, `⚓${units}`)));
  }
  for (const party of view.parties || []) {
    const square = layout.spaces.find((s) => s.track === party.track && s.track_index === party.square);
    if (!square) continue;
    map.append(svg("g", { class: "party" }, svg("title", {}, `${playerLabel(party.owner)}'s party: ${party.force.units} unit(s), ${party.gold} gold`),
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
    `${playerLabel(i)}${i === view.viewer ? " (you)" : ""}${p.alive ? "" : " (no King)"}: `
      + `${p.gold} gold, ${p.hand_size} spell card(s), ${p.shards} shard(s)`
      + (p.realms && p.realms.length ? `; ${p.realms.map((r) => (layout.realms[r] || { name: r }).name).join(", ")}` : ""),
    p.hand ? el("div", { class: "hand" }, `your hand: ${p.hand.map((c) => c.replaceAll("_", " ")).join(", ") || "empty"}`) : null));
  return el("section", { class: "dl-players" }, el("h4", {}, `Round ${view.round}, ${view.phase} phase`), el("ul", {}, ...rows));
}

// The realms' colours on the map, each with its people and who holds it now.
function drawRealms(payload) {
  const players = (payload.view || {}).players || [];
  const holder = (id) => {
    const i = players.findIndex((p) => (p.realms || []).includes(id));
    return i >= 0 ? playerLabel(i) : "unclaimed";
  };
  return el("section", { class: "dl-realms" }, el("h4", {}, "Realms"),
    el("ul", {}, ...Object.entries(layout.realms).map(([id, r]) => el("li", {},
      el("span", { class: "swatch square", style: `background:${r.colour}` }),
      `${r.name} (home of the ${layout.peoples[r.people] || r.people}): ${holder(id)}`))),
    el("p", { class: "key" }, "♛ Kingdom · ⚒ mine · ◎ portal · ▲ pass · ⌂ Village · ☾ Witch's chamber · ✚ Shrine · "
      + "☠ Dragon's Lair · ? quest card · ⚓ ship · T hidden tokens"));
}

function drawBattle(payload) {
  const battle = (payload.view || {}).battle;
  if (!battle) return null;
  const side = (s, name) => el("div", {}, `${name} (${s.player < -1 ? "monster" : s.player < 0 ? "neutral" : playerLabel(s.player)}): `
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
      drawBattle(payload), drawPlayers(payload), drawRealms(payload))));
}

// A seat's name in the game: its people, once chosen (the page's playerName hook).
export function playerName(seat, payload) {
  const p = payload.view && payload.view.players && payload.view.players[seat];
  if (!layout || !p || !p.people) return null;
  return layout.peoples[p.people] || p.people;
}

export function render(container, payload, controls) {
  ensureGameStyles("dragonlords");
  lastArgs = { container, payload, controls };
  if (layout) {
    draw();
    return;
  }
  request("GET", `/api/seat/${token}/board`).then((fetched) => {
    fetched.byId = Object.fromEntries(fetched.spaces.map((s) => [s.id, s]));
    layout = fetched;
    draw();
    if (controls.refreshLog) controls.refreshLog(); // the seats' names are known now
  }).catch((error) => console.warn("board layout failed to load", error));
}
