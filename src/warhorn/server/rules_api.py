"""Rules help over HTTP, for every game whose plugin has it (:mod:`warhorn.rules_help`).

* ``GET /rules/{game}``: a page with every rule of the game under its headings; each rule is an
  anchor (``/rules/nerath#NER-MOV-01``), so the "[NER-MOV-01]" of a prompt, an error or a log line on a
  seat page links straight to its paragraph. ``GET /rules``: the list of games with rules help.
* ``GET /api/rules/{game}``: the same as JSON (``prefixes``, ``sections`` with their rules), which the
  seat page reads to link only the rule IDs the game has (none for a game without rules help; 404 for
  a game that is not registered).
"""

from __future__ import annotations

from html import escape
from typing import Any

import pydantic
from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from warhorn.engine import WarhornError, game_plugin, registered_plugins
from warhorn.rules_help import RulesHelp, rules_help
from warhorn.server import pages
from warhorn.server.api_models import documented
from warhorn.server.errors import ApiError


class RuleEntry(pydantic.BaseModel):
    id: str
    text: str


class RuleSectionEntry(pydantic.BaseModel):
    key: str
    heading: str
    rules: list[RuleEntry]


class RulesHelpAnswer(pydantic.BaseModel):
    """A game's rules help: one paragraph per rule ID, grouped under headings."""

    game: str
    title: str
    prefixes: list[str]
    sections: list[RuleSectionEntry]


def game_rules(game: str) -> RulesHelp:
    """The game's rules help; :class:`ApiError` 404 ``no_rules`` for an unknown game or one without it."""
    try:
        return rules_help(game)
    except WarhornError as exc:
        raise ApiError(404, "no_rules", str(exc)) from None


def rules_json(help_: RulesHelp) -> dict[str, Any]:
    return {
        "game": help_.game,
        "title": help_.title,
        "prefixes": list(help_.prefixes),
        "sections": [
            {"key": s.key, "heading": s.heading, "rules": [{"id": i, "text": t} for i, t in s.rules]}
            for s in help_.sections()
        ],
    }


def rules_page(help_: RulesHelp) -> str:
    """The HTML page of a game's rules: a table of contents, then every rule as an anchored paragraph."""
    toc = "".join(f'<li><a href="#{escape(s.key)}">{escape(s.heading)}</a></li>' for s in help_.sections())
    parts = []
    for section in help_.sections():
        rules = "".join(
            f'<dt id="{escape(rule_id)}"><a href="#{escape(rule_id)}">{escape(rule_id)}</a></dt>'
            f"<dd>{escape(text)}</dd>"
            for rule_id, text in section.rules
        )
        parts.append(
            f'<section class="rules-section"><h3 id="{escape(section.key)}">{escape(section.heading)}'
            f' <span class="muted">{escape(section.key)}</span></h3><dl class="rules">{rules}</dl></section>'
        )
    body = f"""<header><h1><a href="/">warhorn</a></h1>
<p>{escape(help_.title)} — rules help</p>
<nav><a href="/rules">all games</a></nav></header>
<main id="rules-help" data-game="{escape(help_.game)}">
  <p class="muted">One paragraph per rule, in warhorn's own words. Prompts and errors name the rule
  they apply, such as [{escape(next(iter(help_.paragraphs)))}]; each links here.</p>
  <nav class="rules-toc"><ol>{toc}</ol></nav>
  {"".join(parts)}
</main>"""
    return pages._page(f"warhorn — {help_.title} rules", body)


def _rules_index() -> str:
    items = []
    for plugin in registered_plugins().values():
        if plugin.rules_help is not None:
            items.append(f'<li><a href="/rules/{escape(plugin.id)}">{escape(plugin.spec.name)}</a></li>')
    body = f"""<header><h1><a href="/">warhorn</a></h1><p>rules help</p></header>
<main><ul>{"".join(items) or "<li>no game has rules help</li>"}</ul></main>"""
    return pages._page("warhorn — rules help", body)


def add_rules_routes(app: FastAPI) -> None:
    """Add the rules pages and the rules JSON to ``app``."""

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    async def rules_index() -> HTMLResponse:
        return HTMLResponse(_rules_index())

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def rules_help_page(game: str) -> HTMLResponse:
        try:
            help_ = game_rules(game)
        except ApiError as exc:
            return HTMLResponse(pages.error_page(exc.message), status_code=exc.status)
        return HTMLResponse(rules_page(help_))

    @app.get("/api/rules/{game}", **documented(RulesHelpAnswer, 404))
    async def rules_help_json(game: str) -> dict[str, Any]:
        try:
            plugin = game_plugin(game)
        except WarhornError as exc:
            raise ApiError(404, "no_rules", str(exc)) from None
        if plugin.rules_help is None:  # a game without rules help: nothing to link
            return {"game": game, "title": plugin.spec.name, "prefixes": [], "sections": []}
        return rules_json(game_rules(game))
