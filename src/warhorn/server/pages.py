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
    <p class="muted">Seat links are private: this browser remembers the ones it created (its hotseat
    seats) and the invite links until they are claimed.</p>
    <table id="games"><thead>
      <tr><th>game</th><th>status</th><th>actions</th><th>seats</th><th></th></tr></thead>
    <tbody></tbody></table>
  </section>
</main>"""
    return _page("warhorn — lobby", body, "/static/lobby.js")


def invite_page(code: str) -> str:
    """An invite link's page: which seat it hands out, and a button that claims it (a GET claims
    nothing, so a link preview cannot take the seat)."""
    body = f"""<header><h1><a href="/">warhorn</a></h1><p>an invitation to play</p></header>
<main id="invite" data-invite="{escape(code)}">
  <h2 id="invite-title">loading…</h2>
  <p id="invite-text" class="muted"></p>
  <button id="claim" type="button" hidden>Take this seat</button>
  <div id="invite-error" class="error" role="alert"></div>
</main>"""
    return _page("warhorn — invitation", body, "/static/invite.js")


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


def odds_page(game_name: str, form: str, script: str) -> str:
    """A game's battle odds calculator: the game's own form (HTML from its web assets) and script."""
    body = f"""<header><h1><a href="/">warhorn</a></h1>
<p>{escape(game_name)} — exact battle odds</p><nav><a href="/">lobby</a></nav></header>
{form}"""
    return _page(f"warhorn — {game_name} battle odds", body, script)


def odds_index(calculators: list[tuple[str, str]]) -> str:
    """The list of the games' odds calculators, as (game id, game name)."""
    items = "".join(f'<li><a href="/odds/{escape(gid)}">{escape(name)}</a></li>' for gid, name in calculators)
    body = f"""<header><h1><a href="/">warhorn</a></h1><p>exact battle odds</p>
<nav><a href="/">lobby</a></nav></header>
<main><ul>{items or "<li>no installed game offers a calculator</li>"}</ul></main>"""
    return _page("warhorn — battle odds", body)


def error_page(message: str) -> str:
    body = f"""<header><h1><a href="/">warhorn</a></h1></header>
<main><p class="error">{escape(message)}</p><p><a href="/">back to the lobby</a></p></main>"""
    return _page("warhorn — error", body)
