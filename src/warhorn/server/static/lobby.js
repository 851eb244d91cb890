// The lobby: create a game (game, options, seats), show each human seat's private link, list games.
import { request, el, rememberedLinks, rememberLinks, forgetLinks } from "./api.js";

let catalog = { games: [], seat_kinds: ["human"] };
const $ = (id) => document.getElementById(id);

function currentGame() {
  return catalog.games.find((g) => g.id === $("game-select").value);
}

// An option's name or choice as a person reads it: "reposition_flyers_cross_enemy" → "Reposition flyers
// cross enemy", "free_for_all" → "free for all" (the form still sends the option's own values).
function label(name, capital = false) {
  const words = String(name).replace(/_/g, " ");
  return capital ? words.charAt(0).toUpperCase() + words.slice(1) : words;
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    input = el("select", { id, name: option.name });
    for (const choice of option.choices) {
      input.append(el("option", { value: String(choice), selected: choice === option.default }, label(choice)));
    }
  } else if (option.type === "bool") {
    input = el("input", { id, name: option.name, type: "checkbox", checked: option.default === true });
  } else if (option.type === "int") {
    input = el("input", { id, name: option.name, type: "number", value: option.default,
      min: option.minimum ?? undefined, max: option.maximum ?? undefined });
  } else {
    input = el("input", { id, name: option.name, value: option.default ?? "" });
  }
  input.dataset.type = option.type;
  return el("label", { title: option.name, "data-option": option.name }, `${label(option.name, true)} `, input,
    el("span", { class: "muted" }, ` ${option.help}`));
}

// A seat's select: "human" (played in this browser: hotseat, the lobby keeps its link), "invite" (a
// human handed an invite link: whoever claims it first gets the seat and the lobby never sees its
// token), or an AI kind. The request sends "human" for both human kinds and lists the invited seats.
const INVITE = "invite";

function seatRow(index, kind) {
  const select = el("select", { class: "seat-kind", "aria-label": `seat ${index}` });
  for (const k of catalog.seat_kinds) {
    if (k === "human") {
      select.append(el("option", { value: "human", selected: kind === "human" }, "human, in this browser"));
      select.append(el("option", { value: INVITE, selected: kind === INVITE }, "human, by invite link"));
    } else {
      select.append(el("option", { value: k, selected: k === kind }, `AI: ${k}`));
    }
  }
  return el("label", {}, `Seat ${index} `, select);
}

function renderSeats(count) {
  const game = currentGame();
  const box = $("seats");
  const kinds = [...box.querySelectorAll(".seat-kind")].map((s) => s.value);
  box.replaceChildren(el("legend", {}, "Seats"));
  for (let i = 0; i < count; i++) box.append(seatRow(i, kinds[i] ?? (i === 0 ? "human" : catalog.seat_kinds[1] ?? "human")));
  const controls = el("div");
  if (count < game.max_players) controls.append(el("button", { type: "button", onclick: () => renderSeats(count + 1) }, "add seat"));
  if (count > game.min_players) controls.append(el("button", { type: "button", onclick: () => renderSeats(count - 1) }, "remove seat"));
  box.append(controls);
}

function renderGameForm() {
  const game = currentGame();
  if (!game) return;
  $("game-description").textContent = game.description || "";
  const box = $("options");
  box.replaceChildren(el("legend", {}, "Options"));
  for (const option of game.options) {
    if (option.name === "players") continue; // follows the number of seats
    box.append(optionInput(option));
  }
  // as many seats as the game's default number of players (its defaults are a valid game), else its least
  const players = game.options.find((o) => o.name === "players");
  renderSeats(players && Number.isInteger(players.default) ? players.default : game.min_players);
}

function readOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    if (input.dataset.type === "bool") options[input.name] = input.checked;
    else if (input.dataset.type === "int") options[input.name] = Number(input.value);
    else options[input.name] = input.value;
  }
  return options;
}

function linkFor(token) {
  return new URL(`/play/${token}`, window.location.href).href;
}

function inviteFor(code) {
  return new URL(`/invite/${code}`, window.location.href).href;
}

function showCreated(result) {
  const list = el("ul", { class: "links" });
  const named = (seat) => seatLabel(result, seat.seat);
  for (const seat of result.seats) {
    if (seat.token) {
      const url = linkFor(seat.token);
      list.append(el("li", {}, el("a", { href: url, target: "_blank" }, `${named(seat)} (human, this browser)`), " ",
        el("input", { value: url, readonly: true, onfocus: (e) => e.target.select() })));
    } else if (seat.invite) {
      const url = inviteFor(seat.invite);
      list.append(el("li", { class: "invite" }, `${named(seat)} (human) invite: `,
        el("input", { value: url, readonly: true, onfocus: (e) => e.target.select() })));
    } else {
      list.append(el("li", {}, `${named(seat)}: AI (${seat.kind})`));
    }
  }
  $("created").replaceChildren(el("h3", {}, `Game ${result.game_id} created`),
    el("p", { class: "muted" }, "Play your seats in this browser. Send each invited player their invite link: " +
      "the first to open it and take the seat gets it, and neither you nor anyone else receives its private link."),
    list);
}

async function createGame(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const kinds = [...$("seats").querySelectorAll(".seat-kind")].map((s) => s.value);
  const body = {
    game: $("game-select").value,
    options: readOptions(),
    seats: kinds.map((k) => (k === INVITE ? "human" : k)),
    invites: kinds.flatMap((k, i) => (k === INVITE ? [i] : [])),
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    const result = await request("POST", "/api/games", body);
    // this browser keeps its own seats' links and the invite links (until claimed), never another's token
    rememberLinks(result.game_id, result.seats.filter((s) => s.token || s.invite)
      .map((s) => (s.token ? { seat: s.seat, token: s.token } : { seat: s.seat, invite: s.invite })));
    showCreated(result);
    await refreshGames();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

async function deleteGame(gameId, token) {
  try {
    await request("DELETE", `/api/games/${gameId}`, undefined, { "X-Seat-Token": token });
    forgetLinks(gameId);
    await refreshGames();
  } catch (error) {
    alert(error.message);
  }
}

// A winning seat as its game names what it played ("Karkoth", "Cleric", "Ratmen + Flying"), recorded
// with the results; "seat 3" for a game finished before names were recorded.
function winnerName(results, seatIndex) {
  const name = results.seat_names && results.seat_names[seatIndex];
  return name ? `${name} (seat ${seatIndex})` : `seat ${seatIndex}`;
}

// A seat as the lobby names it: what it plays in the game ("Karkoth", "Cleric") when the server knows,
// else its number ("seat 2").
function seatLabel(game, seatIndex) {
  const name = game.seat_names && game.seat_names[seatIndex];
  return name ? `${name} (seat ${seatIndex})` : `seat ${seatIndex}`;
}

// The links this browser keeps for a game, written out again (to copy to another browser or device).
function linksBox(game, mine) {
  const list = el("ul", { class: "links" });
  for (const m of mine) {
    const url = m.token ? linkFor(m.token) : inviteFor(m.invite);
    list.append(el("li", {}, `${seatLabel(game, m.seat)}${m.invite ? " invite" : ""}: `,
      el("input", { value: url, readonly: true, onfocus: (e) => e.target.select() })));
  }
  list.append(el("li", {}, "watch link (public information only): ",
    el("input", { value: new URL(`/watch/${game.game_id}`, window.location.href).href, readonly: true, onfocus: (e) => e.target.select() })));
  return list;
}

async function refreshGames() {
  const { games } = await request("GET", "/api/games");
  const links = rememberedLinks();
  const rows = games.map((g) => {
    let mine = links[g.game_id] || [];
    // an invite that was claimed is of no use any more: forget it
    const claimed = new Set(g.seats.filter((s) => s.invite === "claimed").map((s) => s.seat));
    if (mine.some((m) => m.invite && claimed.has(m.seat))) {
      mine = mine.filter((m) => !(m.invite && claimed.has(m.seat)));
      rememberLinks(g.game_id, mine);
    }
    const seats = g.seats.map((s) => {
      const link = mine.find((m) => m.seat === s.seat);
      const name = seatLabel(g, s.seat);
      if (link && link.token) return el("a", { href: linkFor(link.token), class: "my-seat" }, name);
      if (link && link.invite) return el("a", { href: inviteFor(link.invite), class: "invite-open" }, `${name}: invite open`);
      if (s.invite === "claimed") return el("span", { class: "invite-claimed" }, `${name}: claimed`);
      if (s.invite === "open") return el("span", {}, `${name}: invite open`);
      return el("span", {}, `${name}: ${s.kind}`);
    });
    const seatCell = el("td");
    seats.forEach((node, i) => { if (i) seatCell.append(", "); seatCell.append(node); });
    const winners = g.results ? ` — won by ${g.results.winners.map((w) => winnerName(g.results, w)).join(", ")}` : "";
    const actions = el("td");
    const own = mine.find((m) => m.token);
    if (mine.length) {
      const shown = el("div", { class: "shown-links", hidden: true }, linksBox(g, mine));
      actions.append(el("button", { type: "button", class: "show-links", title: "this browser's links to this game's seats",
        onclick: () => { shown.hidden = !shown.hidden; } }, "links"), shown);
    }
    actions.append(el("a", { href: g.status === "finished" ? `/replay/${g.game_id}` : `/watch/${g.game_id}`, class: "watch" },
      g.status === "finished" ? "replay" : "watch"), " ");
    if (g.status === "finished" && own) {
      actions.append(el("button", { type: "button", onclick: () => deleteGame(g.game_id, own.token) }, "delete"));
    }
    return el("tr", { "data-game": g.game_id, class: mine.length ? "mine" : undefined }, el("td", {}, `${g.game} (${g.game_id})`), el("td", {}, g.status + winners),
      el("td", {}, String(g.version)), seatCell, actions);
  });
  $("games").querySelector("tbody").replaceChildren(...rows);
}

async function main() {
  catalog = await request("GET", "/api/catalog");
  const select = $("game-select");
  for (const game of catalog.games) select.append(el("option", { value: game.id }, game.name));
  select.addEventListener("change", renderGameForm);
  renderGameForm();
  $("create-form").addEventListener("submit", createGame);
  $("refresh").addEventListener("click", refreshGames);
  await refreshGames();
}

main().catch((error) => { $("create-error").textContent = error.message; });
