// Conquest of Nerath's battle odds calculator (the page /odds/nerath, its form in nerath.odds.html):
// pieces per side, options, and the exact answer from POST /api/odds/nerath.
import { request, el } from "../api.js";
import { oddsView } from "./nerath.odds_view.js";

const $ = (id) => document.getElementById(id);
let catalog = { pieces: [], guardians: [] };

function numberInput(side, piece) {
  return el("input", { type: "number", min: 0, max: 60, value: 0, class: `count ${side}`, "data-piece": piece.id,
    "aria-label": `${side} ${piece.name}`, id: `odds-${side}-${piece.id}` });
}

function buildForm() {
  const body = $("odds-armies").querySelector("tbody");
  for (const piece of catalog.pieces) {
    body.append(el("tr", {}, el("td", {}, `${piece.name} (${piece.cost} gold)`),
      el("td", {}, piece.castle ? el("span", { class: "muted" }, "defends only") : numberInput("attacker", piece)),
      el("td", {}, numberInput("defender", piece)),
      el("td", {}, numberInput("ally", piece))));
  }
  const box = $("odds-dungeon");
  for (const g of catalog.guardians) {
    const dice = g.dice.map((d) => `d${d}`).join("+") + (g.first_strike ? ", first strike" : "");
    box.append(el("label", { class: "inline" }, el("input", { type: "checkbox", class: "guardian", value: g.id }),
      ` ${g.name} (${dice})`));
  }
}

function readSide(side) {
  const out = {};
  for (const input of document.querySelectorAll(`input.count.${side}`)) {
    const n = Number(input.value || 0);
    if (n) out[input.dataset.piece] = n;
  }
  return out;
}

async function compute(event) {
  event.preventDefault();
  $("odds-error").textContent = "";
  const body = {
    attacker: readSide("attacker"),
    defender: readSide("defender"),
    sea: $("odds-sea").checked,
    dungeon: [...document.querySelectorAll("input.guardian:checked")].map((i) => i.value),
    ally: readSide("ally"),
    allied_damage: $("odds-allied-damage").value,
    double_up: $("odds-double-up").checked,
    top: 8,
  };
  if ($("odds-amok-targets").value !== "") body.amok_targets = Number($("odds-amok-targets").value);
  if ($("odds-retreat-below").value !== "") body.retreat_below = Number($("odds-retreat-below").value);
  if ($("odds-rounds").value !== "") body.rounds = Number($("odds-rounds").value);
  try {
    const odds = await request("POST", "/api/odds/nerath", body);
    $("odds-result").replaceChildren(oddsView(odds));
  } catch (error) {
    $("odds-error").textContent = error.message;
  }
}

async function main() {
  catalog = await request("GET", "/api/odds/nerath");
  buildForm();
  $("odds-form").addEventListener("submit", compute);
}

main().catch((error) => { $("odds-error").textContent = error.message; });
