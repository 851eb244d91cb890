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
<nav><a href="/odds">battle odds calculator</a> <a href="/replay">watch a saved game</a></nav></header>
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
    <p class="muted">Seat links are private: this browser remembers the seats it created or opened
    (its hotseat seats, a claimed invite, a rematch) and the invite links until they are claimed;
    "links" shows them again. Games you play in this browser are highlighted.</p>
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


def _play_layout(*, root_attrs: str, title: str, nav: str, status: str) -> str:
    """The page of a game (a seat's, a spectator's or a replay's), laid out to fit a laptop screen:
    the board on the left; the decision (or the replay's controls) and the log in a column on the
    right, each scrolling by itself; the raw view behind the debug toggle."""
    return f"""<header class="slim"><h1><a href="/">warhorn</a></h1>
<p id="page-title">{title}</p>
<ol id="phase-tracker" class="phase-tracker" aria-label="turn and phase"></ol>
<nav>{nav}</nav></header>
<main id="game" class="play"{root_attrs}>
  <section id="board"></section>
  <aside id="side">
    <section id="status-panel">
      {status}
    </section>
    <section id="log-panel"><h2>Log</h2><ol id="log"></ol></section>
  </aside>
  <section id="view-panel" hidden>
    <h2>What you see</h2><div id="view"></div>
  </section>
</main>"""


_TOGGLES = """<label class="toggle" title="a short sound when it becomes your turn">
<input type="checkbox" id="sound-toggle"> sound</label>
<label class="toggle" title="show the raw view the server sends (for debugging)">
<input type="checkbox" id="debug-toggle"> raw view</label>
<a href="/">lobby</a>"""

_DECISION = """<p id="connection" class="muted">connecting…</p>
      <h2 id="decision">loading…</h2>
      <div id="results" hidden></div>
      <div id="undo-box"></div>
      <div id="action-buttons"></div>
      <form id="text-form">
        <label>Action <input id="action-text" autocomplete="off" list="notations"
          placeholder="type a notation, e.g. the start of a button's text"></label>
        <datalist id="notations"></datalist>
        <button type="submit">Send</button>
      </form>
      <div id="action-error" class="error" role="alert"></div>"""


def game_page(*, token: str, game: str, game_name: str, seat: int, renderer: str | None) -> str:
    """The page of one seat: board (if a renderer exists), decision, actions, log, results."""
    renderer_attr = f' data-renderer="{escape(renderer)}"' if renderer else ""
    body = _play_layout(
        root_attrs=f' data-mode="play" data-token="{escape(token)}" data-game="{escape(game)}" '
        f'data-seat="{seat}"{renderer_attr}',
        title=f'{escape(game_name)} — <span id="seat-name">seat {seat}</span>',
        nav='<a id="watch-link" href="#" title="a link showing only public information">watch link</a> '
        + _TOGGLES,
        status=_DECISION,
    )
    return _page(f"warhorn — {game_name}", body, "/static/game.js")


def watch_page(*, game_id: str, game: str, game_name: str, renderer: str | None) -> str:
    """A spectator's page: the board, who decides and the log, from public information only."""
    renderer_attr = f' data-renderer="{escape(renderer)}"' if renderer else ""
    body = _play_layout(
        root_attrs=f' data-mode="watch" data-game-id="{escape(game_id)}" '
        f'data-token="watch.{escape(game_id)}" data-game="{escape(game)}"{renderer_attr}',
        title=f"{escape(game_name)} — watching (public information only)",
        nav=_TOGGLES,
        status=_DECISION,
    )
    return _page(f"warhorn — watching {game_name}", body, "/static/game.js")


def replay_page(*, replay_id: str, game: str, game_name: str, renderer: str | None) -> str:
    """The replay viewer: the board at each step, forward and back, with the log up to that step."""
    renderer_attr = f' data-renderer="{escape(renderer)}"' if renderer else ""
    controls = """<p id="connection" class="muted">loading…</p>
      <h2 id="decision">replay</h2>
      <div id="replay-controls" class="replay-controls">
        <button type="button" id="replay-first" title="the start (Home)">«</button>
        <button type="button" id="replay-back" title="one step back (←)">◀</button>
        <button type="button" id="replay-event-back" title="one event back (Shift+←)">◁ event</button>
        <button type="button" id="replay-event-forward" title="one event forward (Shift+→)">event ▷</button>
        <button type="button" id="replay-forward" title="one step forward (→)">▶</button>
        <button type="button" id="replay-last" title="the end (End)">»</button>
        <button type="button" id="replay-play" title="play (space)">play</button>
        <input type="range" id="replay-slider" min="0" max="0" value="0" aria-label="step">
        <span id="replay-step" class="muted"></span>
      </div>
      <div id="results" hidden></div>
      <div id="action-buttons" hidden></div>
      <form id="text-form" hidden></form>
      <div id="action-error" class="error" role="alert"></div>"""
    body = _play_layout(
        root_attrs=f' data-mode="replay" data-replay="{escape(replay_id)}" '
        f'data-token="replay.{escape(replay_id)}" data-game="{escape(game)}"{renderer_attr}',
        title=f"{escape(game_name)} — replay",
        nav='<a href="/replay">replay another save</a> ' + _TOGGLES,
        status=controls,
    )
    return _page(f"warhorn — {game_name} replay", body, "/static/game.js")


def replay_upload_page() -> str:
    """Upload a save (the JSON a finished game offers) to step through it."""
    body = """<header><h1><a href="/">warhorn</a></h1><p>watch a replay</p>
<nav><a href="/">lobby</a></nav></header>
<main id="replay-upload">
  <section>
    <h2>Step through a saved game</h2>
    <p class="muted">Choose a save (the JSON a finished game's page offers, or one <code>warhorn play</code>
    wrote). The server replays it through the rules and shows it step by step, as a spectator sees it.</p>
    <input type="file" id="save-file" accept="application/json,.json">
    <div id="upload-error" class="error" role="alert"></div>
  </section>
</main>"""
    return _page("warhorn — replay a save", body, "/static/replay_upload.js")


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
