// Rule IDs in text ("[NER-MOV-01]") become links to the game's rules help (/rules/<game>#NER-MOV-01).
// Only the IDs the game's rules help has (read once from /api/rules/<game>) are linked; any other
// text stays plain text (never parsed as HTML).
import { request } from "./api.js";

const RULE_ID = /\b[A-Z]{3}-[A-Z]{2,3}-[A-Z0-9]{2,3}\b/g;
let game = null;
let known = new Set();

// Read the game's rule IDs; a game without rules help links nothing.
export async function loadRuleLinks(gameId) {
  game = gameId;
  try {
    const help = await request("GET", `/api/rules/${encodeURIComponent(gameId)}`);
    known = new Set(help.sections.flatMap((s) => s.rules.map((r) => r.id)));
  } catch {
    known = new Set();
  }
}

// The URL of a rule's paragraph.
export function ruleUrl(ruleId) {
  return `/rules/${encodeURIComponent(game)}#${ruleId}`;
}

// `text` as nodes: plain text, with every known rule ID an <a class="rule-link"> to its paragraph.
export function withRuleLinks(text) {
  const fragment = document.createDocumentFragment();
  const value = String(text ?? "");
  let last = 0;
  for (const match of value.matchAll(RULE_ID)) {
    if (!known.has(match[0])) continue;
    if (match.index > last) fragment.append(value.slice(last, match.index));
    const link = document.createElement("a");
    link.className = "rule-link";
    link.href = ruleUrl(match[0]);
    link.target = "warhorn-rules";
    link.title = "rules help";
    link.textContent = match[0];
    fragment.append(link);
    last = match.index + match[0].length;
  }
  if (last < value.length) fragment.append(value.slice(last));
  return fragment;
}

// Set an element's text with rule links (in place of `element.textContent = text`).
export function setLinkedText(element, text) {
  element.replaceChildren(withRuleLinks(text));
}
