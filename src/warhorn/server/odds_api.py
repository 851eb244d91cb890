"""Exact battle odds over HTTP, for every game whose plugin offers odds (``GamePlugin.odds``).

* ``GET /odds/{game}``: a game's calculator page (its form and script are the game's web assets
  ``<game>.odds.html`` and ``<game>.odds.js``); ``GET /odds``: that page when one game has a calculator,
  else the list of them. ``GET /api/odds/{game}``: the pieces and tiles the game's calculator offers;
  ``POST /api/odds/{game}``: the odds of any battle described in the request (for Nerath, as
  ``warhorn odds nerath``).
* ``POST /api/seat/{token}/odds`` ``{"action": {...}}``: the odds of the battle that one of the seat's
  legal actions would start, computed by the game from public facts only.
* ``POST /api/odds/{game}/position`` ``{"position": {...}, "action": {...}}``: the same for an action
  legal in a position (``docs/positions.md``), for games with positions.

The game decides the numbers (:class:`~warhorn.engine.plugin.OddsSupport`); this module checks who
asks and what, and turns every refusal into a 4xx with a message. The computation runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

import pydantic
from fastapi import Body, FastAPI
from fastapi.responses import HTMLResponse

from warhorn.engine import (
    ContentError,
    ContentErrors,
    MalformedActionError,
    UnknownGameError,
    WarhornError,
    game_plugin,
    registered_plugins,
)
from warhorn.engine.plugin import OddsSupport, OddsUnavailableError, resolve
from warhorn.engine.positions import check_position, split_position
from warhorn.server import pages
from warhorn.server.api_models import BODY, INTEGRAL, STORAGE, GameData, documented
from warhorn.server.boards import asset_text, game_asset
from warhorn.server.errors import ApiError

if TYPE_CHECKING:
    from warhorn.server.hub import GameHub


class SeatOddsRequest(pydantic.BaseModel):
    """One of the seat's legal actions (its JSON, as listed in the payload's ``legal``)."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    action: dict[str, Any]
    version: Annotated[int, pydantic.Field(ge=0), INTEGRAL] | None = None


def odds_support(game: str) -> OddsSupport:
    """The odds the game offers; :class:`ApiError` 404 ``no_odds`` for a game without any."""
    try:
        reference = game_plugin(game).odds
    except UnknownGameError as exc:
        raise ApiError(404, "no_odds", str(exc)) from None
    if reference is None:
        raise ApiError(404, "no_odds", f"battle odds are not offered for {game!r}")
    support = resolve(reference)
    assert isinstance(support, OddsSupport), f"{reference} is not an OddsSupport"
    return support


def _unavailable(exc: OddsUnavailableError) -> ApiError:
    return ApiError(400, exc.code, str(exc))


def calculate(game: str, body: Any) -> dict[str, Any]:
    """The game calculator's answer to ``body``: 400 naming the field for a malformed question."""
    support = odds_support(game)
    try:
        request = support.request.model_validate(body, strict=True)  # the schema's types exactly
    except pydantic.ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err.get('loc', ())) or 'body'}: {err.get('msg', 'invalid')}"
            for err in exc.errors()
        ]
        raise ApiError(400, "malformed", "; ".join(problems), problems=problems) from None
    try:
        return support.calculate(request)
    except OddsUnavailableError as exc:
        raise _unavailable(exc) from None


def seat_attack_odds(state: Any, seat: int, action_json: dict[str, Any]) -> dict[str, Any]:
    """Check that ``action_json`` is a legal action of the seat's own decision, then its battle's odds."""
    decision = state.pending()
    odds_support(state.spec.id)
    if decision is None:
        raise ApiError(409, "game_over", "the game is over: no battle is coming")
    if decision.player != seat:
        raise ApiError(403, "not_your_decision", f"the pending decision belongs to seat {decision.player}")
    return _attack_odds(state, action_json)


class PositionOddsRequest(pydantic.BaseModel):
    """A position (the game's format, ``docs/positions.md``) and one action legal there."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    position: dict[str, Any]
    action: dict[str, Any]


def position_attack_odds(game: str, body: PositionOddsRequest) -> dict[str, Any]:
    """The odds of the battle ``body.action`` would start in ``body.position`` (400 naming its mistakes)."""
    odds_support(game)
    try:
        name, data = split_position(body.position, game)
        state = check_position(name, data)
    except ContentErrors as exc:
        problems = [f"position.{e.key}: {e.message}" for e in exc.errors]
        raise ApiError(400, "bad_position", "; ".join(problems), problems=problems) from None
    except ContentError as exc:
        raise ApiError(400, "bad_position", f"position.{exc.key}: {exc.message}") from None
    except WarhornError as exc:
        raise ApiError(400, "bad_position", str(exc)) from None
    if state.pending() is None:
        raise ApiError(409, "game_over", "the position's game is over: no battle is coming")
    return _attack_odds(state, body.action)


def _attack_odds(state: Any, action_json: dict[str, Any]) -> dict[str, Any]:
    """The odds of the battle a legal action (JSON) would start (400 malformed, 409 illegal)."""
    support = odds_support(state.spec.id)
    try:
        action = state.decode(action_json)
    except MalformedActionError as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    except WarhornError as exc:
        raise ApiError(400, "malformed", str(exc)) from None
    if not state.is_legal(action):
        err = state.why_illegal(action)
        raise ApiError(409, "illegal", str(err), rule=err.rule)
    try:
        return support.attack_odds(state, action)
    except OddsUnavailableError as exc:
        raise _unavailable(exc) from None


def calculators() -> list[tuple[str, str]]:
    """(game id, name) of every game with odds and a calculator page (``<id>.odds.js``)."""
    return [
        (gid, plugin.spec.name)
        for gid, plugin in registered_plugins().items()
        if plugin.odds is not None and game_asset(f"{gid}.odds.js") is not None
    ]


def calculator_page(game: str) -> str:
    """The calculator page of ``game``; 404 when it has none."""
    odds_support(game)
    form = asset_text(f"{game}.odds.html")
    if form is None or game_asset(f"{game}.odds.js") is None:
        raise ApiError(404, "no_odds", f"{game!r} has no odds calculator page")
    return pages.odds_page(game_plugin(game).spec.name, form, f"/static/games/{game}.odds.js")


# --- routes ---------------------------------------------------------------------------------


def odds_games() -> list[str]:
    """The registered games that offer battle odds."""
    return [gid for gid, plugin in registered_plugins().items() if plugin.odds is not None]


def odds_request_schemas() -> dict[str, type[pydantic.BaseModel]]:
    """Per game with odds, the model of its calculator's question (for the API's schema)."""
    return {gid: odds_support(gid).request for gid in odds_games()}


def add_odds_routes(app: FastAPI, hub: GameHub) -> None:
    """Add the odds page and endpoints to ``app``."""

    @app.get("/odds", response_class=HTMLResponse, include_in_schema=False)
    async def odds_index() -> HTMLResponse:
        games = calculators()
        if len(games) == 1:
            return HTMLResponse(calculator_page(games[0][0]))
        return HTMLResponse(pages.odds_index(games))

    @app.get("/odds/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def odds_page(game: str) -> HTMLResponse:
        return HTMLResponse(calculator_page(game))

    @app.get("/api/odds/{game}", **documented(GameData, 404))
    async def odds_catalog(game: str) -> dict[str, Any]:
        return odds_support(game).catalog()

    # the body is documented by the games' question models (odds_request_schemas, in the app's schema),
    # read as JSON and checked by the game's model here, so that a refusal is a 400 naming the field
    @app.post("/api/odds/{game}", **documented(GameData, *BODY, 404))
    async def odds_calculate(game: str, body: Annotated[Any, Body()]) -> dict[str, Any]:
        return await asyncio.to_thread(calculate, game, body)

    @app.post("/api/odds/{game}/position", **documented(GameData, *BODY, 404, 409))
    async def odds_from_position(game: str, body: PositionOddsRequest) -> dict[str, Any]:
        return await asyncio.to_thread(position_attack_odds, game, body)

    @app.post("/api/seat/{token}/odds", **documented(GameData, *BODY, 403, 404, 409, *STORAGE))
    async def seat_odds(token: str, body: SeatOddsRequest) -> dict[str, Any]:
        live, seat = await hub.seat_for(token)
        if body.version is not None and body.version != live.version:
            raise ApiError(409, "stale", f"the game is at version {live.version}", version=live.version)
        return await asyncio.to_thread(seat_attack_odds, live.state, seat, body.action)
