// Defenders of the Realm: the result box of the last fight against minions (or Fireball), like the battle
// report of Nerath: every die rolled (hits in green, against the number needed), and who died.
// The board renderer hands it every event it receives (noteEvents) and places the box (fightBox).
import { el } from "../api.js";

const seen = new Set();
const events = []; // every event received, in order

// Keep the payload's events (each once: the live stream may repeat a version).
export function noteEvents(payload) {
  for (const e of payload.events || []) {
    const key = `${e.action}:${e.index}`;
    if (!seen.has(key)) { seen.add(key); events.push(e); }
  }
}

const FIGHTS = ["fight", "fireball"];
const STYLE = `.dfr-fight { margin: .5rem 0; border: 1px solid #e2c4c4; border-radius: 6px; padding: .4rem .7rem; background: #fff7f7; }
.dfr-fight h3 { margin: .1rem 0; font-size: 1rem; }
.dfr-fight-rolls { margin: .2rem 0; padding-left: 1.3rem; }
.dfr-fight-result { margin: .2rem 0; font-weight: 600; }`;

function injectStyle() {
  if (document.getElementById("dfr-fight-css")) return;
  document.head.append(el("style", { id: "dfr-fight-css" }, STYLE));
}

// The number a die needs, as the roll's purpose says it ("fighting Orcs (need 3+)"), or null.
function needOf(purpose) {
  const found = /need (\d)\+/.exec(purpose || "") || /\((\d)\+\)/.exec(purpose || "");
  return found ? Number(found[1]) : null;
}

// The box of the latest fight (null before any): its rolls are the roll events of the same action
// before the fight's own event; `describe(text)` puts names for ids in a text.
export function fightBox(describe = (text) => text) {
  let at = -1;
  for (let i = events.length - 1; i >= 0; i--) if (FIGHTS.includes(events[i].kind)) { at = i; break; }
  if (at < 0) return null;
  injectStyle();
  const fight = events[at];
  const rolls = events.filter((e, i) => i < at && e.action === fight.action && e.kind === "roll" && e.data && e.data.dice);
  const list = el("ol", { class: "dfr-fight-rolls" });
  for (const roll of rolls) {
    const need = needOf(roll.data.purpose);
    const dice = el("span", { class: "dice" });
    let hits = 0;
    for (const [sides, face] of roll.data.dice) {
      const hit = need !== null && face >= need;
      if (hit) hits += 1;
      dice.append(el("span", { class: `die ${hit ? "hit" : "miss"}`, title: `d${sides}${need !== null ? `, needs ${need}+` : ""}` }, String(face)));
    }
    list.append(el("li", {}, `${describe(roll.data.purpose || "roll")}: `, dice, need !== null ? ` → ${hits} hit${hits === 1 ? "" : "s"}` : ""));
  }
  const killed = fight.data && fight.data.killed ? Object.entries(fight.data.killed).filter(([, n]) => n > 0) : [];
  const latest = events.length - 1 === at || events.slice(at + 1).every((e) => e.action === fight.action);
  return el("div", { class: "dfr-fight", id: "dfr-fight", "data-action": fight.action },
    el("h3", {}, latest ? "Fight" : "Last fight"),
    el("p", { class: "dfr-fight-result" }, describe(fight.text || fight.kind)),
    list,
    killed.length
      ? el("p", { class: "dfr-fight-killed" }, "Killed: ",
        ...killed.map(([colour, n]) => el("span", { class: `dfr-chip dfr-c-${colour}`, title: `${colour} minions killed` }, String(n))))
      : null);
}
