// Drawing of one exact battle-odds answer (the JSON of BattleOdds.to_json), shared by the odds
// calculator page (/odds/nerath) and the Nerath board's attack preview.
import { el } from "../api.js";

const pct = (p) => `${(100 * p).toFixed(p > 0 && p < 0.001 ? 3 : 1)}%`;

function bar(label, p, cls) {
  return el("div", { class: `odds-row ${cls}` },
    el("span", { class: "odds-label" }, label),
    el("span", { class: "odds-bar" }, el("span", { class: "odds-fill", style: `width:${(100 * p).toFixed(1)}%` })),
    el("span", { class: "odds-pct" }, pct(p)));
}

function army(counts) {
  const parts = Object.entries(counts).map(([k, n]) => `${n} ${k}`);
  return parts.join(", ") || "nothing";
}

// `odds`: BattleOdds JSON; `compact`: only the result bars and expected survivors (board preview).
export function oddsView(odds, { compact = false } = {}) {
  const box = el("div", { class: "odds-view" });
  box.append(bar("attacker wins", odds.attacker_win, "win"), bar("defender wins", odds.defender_win, "lose"),
    bar("mutual destruction", odds.mutual_destruction, "draw"));
  if (odds.attacker_retreats) box.append(bar("attacker retreats", odds.attacker_retreats, "retreat"));
  const survivors = el("table", { class: "odds-survivors" },
    el("thead", {}, el("tr", {}, el("th", {}, "side"), el("th", {}, "piece"), el("th", {}, "expected left"))));
  const body = el("tbody");
  for (const [side, list] of [["attacker", odds.attacker_survivors], ["defender", odds.defender_survivors]]) {
    for (const [piece, n] of Object.entries(list)) {
      body.append(el("tr", {}, el("td", {}, side), el("td", {}, piece), el("td", {}, n.toFixed(2))));
    }
  }
  survivors.append(body);
  box.append(survivors);
  box.append(el("p", { class: "muted" }, `expected rounds ${odds.expected_rounds.toFixed(2)} · gold lost: attacker ` +
    `${odds.attacker_gold_lost.toFixed(2)}, defender ${odds.defender_gold_lost.toFixed(2)}` +
    (odds.expected_reward_gold ? ` · expected reward ${odds.expected_reward_gold.toFixed(2)}` : "")));
  if (odds.allied_split) box.append(el("p", { class: "odds-allies" }, `allied defenders: ${odds.allied_split.note}`));
  if (odds.run_amok) {
    let amok = `run amok: the attacker wins with a monster left ${pct(odds.run_amok.chance)}`;
    if (odds.run_amok.targets !== undefined) {
      amok += ` · expected conquests into ${odds.run_amok.targets} open territories ` +
        odds.run_amok.expected_conquests.toFixed(2);
    }
    box.append(el("p", { class: "odds-amok" }, amok));
  }
  if (!compact && odds.outcomes && odds.outcomes.length) {
    const list = el("table", { class: "odds-outcomes" },
      el("thead", {}, el("tr", {}, el("th", {}, "chance"), el("th", {}, "result"), el("th", {}, "attacker left"),
        el("th", {}, "defender left"))));
    const rows = el("tbody");
    for (const o of odds.outcomes) {
      rows.append(el("tr", {}, el("td", {}, pct(o.probability)), el("td", {}, o.result.replaceAll("_", " ")),
        el("td", {}, army(o.attacker)), el("td", {}, army(o.defender) + (o.castle_captured ? " (castle captured)" : ""))));
    }
    list.append(rows);
    box.append(el("h3", {}, "Most likely outcomes"), list);
  }
  return box;
}
