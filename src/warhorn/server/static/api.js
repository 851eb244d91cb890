// Small helpers shared by the lobby and game pages: JSON requests and refusals as Errors, HTML and SVG
// elements, and a game renderer's stylesheet.

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

export async function request(method, url, body, headers = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";

// An SVG element, as el() makes an HTML one: attributes (on... are listeners), then children.
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Adds a game renderer's stylesheet (/static/games/<name>.css) to the page once.
export function ensureGameStyles(name) {
  const id = `${name}-css`;
  if (document.getElementById(id)) return;
  document.head.append(el("link", { id, rel: "stylesheet", href: `/static/games/${name}.css` }));
}

const LINKS_KEY = "warhorn.links";

export function rememberedLinks() {
  try { return JSON.parse(localStorage.getItem(LINKS_KEY) || "{}"); } catch { return {}; }
}

export function rememberLinks(gameId, seats) {
  const all = rememberedLinks();
  all[gameId] = seats;
  localStorage.setItem(LINKS_KEY, JSON.stringify(all));
}

export function forgetLinks(gameId) {
  const all = rememberedLinks();
  delete all[gameId];
  localStorage.setItem(LINKS_KEY, JSON.stringify(all));
}

// This browser's own seat of a game (a page remembers the seat it plays, so that the lobby lists it even
// when the link came from an invite or a rematch).
export function rememberSeat(gameId, seat, token) {
  const mine = rememberedLinks()[gameId] || [];
  if (mine.some((m) => m.seat === seat && m.token === token)) return;
  rememberLinks(gameId, [...mine.filter((m) => m.seat !== seat), { seat, token }].sort((a, b) => a.seat - b.seat));
}
