"""Server-rendered HTML shells; the plain JavaScript modules in ``static/`` fill them from the JSON API."""

from __future__ import annotations

from html import escape


def _page(title: str, body: str, script: str | None = None) -> str:
    module = f'<script type="module" src="{escape(script)}"></script>' if script else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
{module}
</head>
<body>
{body}
</body>
</html>
"""


def lobby_page() -> str:
    """The lobby: create a game, see its private seat links, list and open games."""
    body = """<header><h1><a href="/">warhorn</a></h1>
<p>fantasy conquest board games by their rules</p>
<nav><a href="/odds">battle odds calculator</a></nav></header>
<main id="lobby">
  <section>
    <h2>New game</h2>
    <form id="create-form">
      <label>Game <select id="game-select" name="game"></select></label>
      <p id="game-description" class="muted"></p>
      <fieldset id="options"><legend>Options</legend></fieldset>
      <fieldset id="seats"><legend>Seats</legend></fieldset>
      <label>Seed (optional) <input id="seed" name="seed" type="number" min="0"></label>
      <button type="submit">Create game</button>
    </form>
    <div id="create-error" class="error" role="alert"></div>
    <div id="created"></div>
  </section>
  <section>
    <h2>Games <button id="refresh" type="button">refresh</button></h2>
    <p class="muted">Seat links are private: this browser remembers the ones it created.</p>
    <table id="games"><thead>
      <tr><th>game</th><th>status</th><th>actions</th><th>seats</th><th></th></tr></thead>
    <tbody></tbody></table>
  </section>
</main>"""
    return _page("warhorn — lobby", body, "/static/lobby.js")


def game_page(*, token: str, game: str, game_name: str, seat: int, renderer: str | None) -> str:
    """The page of one seat: decision, actions, board (if a renderer exists), view, log, results."""
    renderer_attr = f' data-renderer="{escape(renderer)}"' if renderer else ""
    body = f"""<header><h1><a href="/">warhorn</a></h1>
<p>{escape(game_name)} — seat {seat}</p></header>
<main id="game" data-token="{escape(token)}" data-game="{escape(game)}" data-seat="{seat}"{renderer_attr}>
  <section id="status-panel">
    <p id="connection" class="muted">connecting…</p>
    <h2 id="decision">loading…</h2>
    <div id="results" hidden></div>
    <div id="action-buttons"></div>
    <form id="text-form">
      <label>Action <input id="action-text" autocomplete="off" list="notations"
        placeholder="type a notation, e.g. the start of a button's text"></label>
      <datalist id="notations"></datalist>
      <button type="submit">Send</button>
    </form>
    <div id="action-error" class="error" role="alert"></div>
  </section>
  <section id="board"></section>
  <section id="view-panel"><h2>What you see</h2><div id="view"></div></section>
  <section id="log-panel"><h2>Log</h2><ol id="log"></ol></section>
</main>"""
    return _page(f"warhorn — {game_name}", body, "/static/game.js")


def odds_page() -> str:
    """The exact battle odds calculator of Conquest of Nerath (``static/odds.js`` fills and sends it)."""
    body = """<header><h1><a href="/">warhorn</a></h1>
<p>Conquest of Nerath — exact battle odds</p><nav><a href="/">lobby</a></nav></header>
<main id="odds-calculator">
  <section>
    <h2>Battle</h2>
    <form id="odds-form">
      <table id="odds-armies"><thead><tr><th>piece</th><th>attacker</th><th>defender</th></tr></thead>
      <tbody></tbody></table>
      <label><input type="checkbox" id="odds-sea">
        sea battle (warships, flyers and carried heroes fight)</label>
      <fieldset id="odds-dungeon"><legend>Dungeon guardians (instead of defending pieces)</legend></fieldset>
      <label>Attacker retreats at or below
        <input id="odds-retreat-below" type="number" min="0" max="60"> pieces</label>
      <label>Attacker retreats after <input id="odds-rounds" type="number" min="1" max="50"> rounds</label>
      <label><input type="checkbox" id="odds-double-up"> damage doubles up once every piece has one</label>
      <button type="submit">Compute</button>
    </form>
    <div id="odds-error" class="error" role="alert"></div>
  </section>
  <section>
    <h2>Result</h2>
    <div id="odds-result"><p class="muted">Choose the pieces and press Compute.</p></div>
  </section>
</main>"""
    return _page("warhorn — battle odds", body, "/static/odds.js")


def error_page(message: str) -> str:
    body = f"""<header><h1><a href="/">warhorn</a></h1></header>
<main><p class="error">{escape(message)}</p><p><a href="/">back to the lobby</a></p></main>"""
    return _page("warhorn — error", body)
