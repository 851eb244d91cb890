"""The API's contract: the shape of every answer and the refusals each route documents.

The models describe what the routes send (the OpenAPI schema at ``/openapi.json``, read at
``/api/docs``); a bounded Schemathesis run in the tests (``tests/server/test_api_contract.py``) checks
that the server keeps to it: no server error, no status code a route does not document, answers of
the documented shape, ``405`` with ``Allow``, and no ``422`` for a request the schema accepts.

Status codes, the same on every route:

* ``400``: the request is well formed but makes no sense to the game (malformed or ambiguous action,
  an option or seat count the game does not have, an invalid JSON body);
* ``403``/``404``: a token that may not do this / nothing with this token, id or name;
* ``408``/``413``: a request body that came too slowly or is too large;
* ``409``: the request conflicts with the game's state (a stale version, an illegal action, a game
  over or not over, an invite claimed already, a game that cannot be resumed);
* ``422``: the request does not match the schema (only then);
* ``429``: a limit of the server (games per client, open games);
* ``503``: the storage fails (disk full, read-only, database unreachable).
"""

from __future__ import annotations

from typing import Any

import pydantic


class _Open(pydantic.BaseModel):
    """An answer that may carry more fields than those listed (a game's own data)."""

    model_config = pydantic.ConfigDict(extra="allow")


class ErrorBody(_Open):
    """Every refusal: a message in words and a short code (some carry more: ``rule``, ``version``...)."""

    error: str
    code: str


DESCRIPTIONS = {
    400: "The request is well formed but the game cannot use it (malformed or ambiguous action, an "
    "option or seat count the game does not have, invalid JSON)",
    403: "This token may not do this (another seat's decision, not one of the game's human seats, the "
    "save before the end)",
    404: "Nothing has this token, id or name",
    405: "Method not allowed (the Allow header lists those allowed)",
    408: "The request's body did not arrive in time",
    409: "The request conflicts with the game's state (stale version, illegal action, game over or not "
    "over, invite claimed, game that cannot be resumed)",
    413: "The request's body is too large",
    422: "The request does not match this schema",
    429: "A limit of this server (games per client per hour, open games)",
    503: "The storage fails (disk full, read-only, database unreachable); nothing was changed",
}


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entries of a route's refusals (the error body, described)."""
    return {status: {"model": ErrorBody, "description": DESCRIPTIONS[status]} for status in statuses}


#: What any route reading the database may answer besides its own refusals.
STORAGE = (503,)
#: What any route with a request body may answer besides its own refusals.
BODY = (400, 408, 413, 422)


# --- lobby ------------------------------------------------------------------------------------


class CatalogOption(pydantic.BaseModel):
    name: str
    type: str
    default: Any = None
    help: str
    choices: list[Any] | None = None
    minimum: float | None = None
    maximum: float | None = None


class CatalogGame(pydantic.BaseModel):
    id: str
    name: str
    description: str
    min_players: int
    max_players: int
    options: list[CatalogOption]


class Catalog(pydantic.BaseModel):
    """The registered games and the seat kinds this server accepts."""

    games: list[CatalogGame]
    seat_kinds: list[str]


class SeatSummary(pydantic.BaseModel):
    """A seat as anyone may know it; ``invite``: ``open`` or ``claimed`` for a seat handed out by invite."""

    seat: int
    kind: str
    invite: str | None = None


class GameSummary(pydantic.BaseModel):
    """What anyone may know about a game: no seed, no tokens, no state."""

    game_id: str
    game: str
    status: str
    version: int
    created_at: str
    updated_at: str
    seats: list[SeatSummary]
    seat_names: list[str] | None = None
    results: dict[str, Any] | None


class GameList(pydantic.BaseModel):
    games: list[GameSummary]


class CreatedSeat(pydantic.BaseModel):
    """A seat as the creator receives it: a hotseat human seat's ``token`` and ``link`` (``/play/...``),
    an invited one's ``invite`` and ``link`` (``/invite/...``), nothing more for an AI seat."""

    seat: int
    kind: str
    token: str | None = None
    invite: str | None = None
    link: str | None = None


class CreatedGame(pydantic.BaseModel):
    game_id: str
    version: int
    seats: list[CreatedSeat]
    #: What each seat plays as the game names it ("Karkoth"), when the game names seats.
    seat_names: list[str] | None = None


class Deleted(pydantic.BaseModel):
    deleted: str


class Invite(pydantic.BaseModel):
    """The seat an invite hands out; ``status`` ``open`` or ``claimed``."""

    game_id: str
    game: str
    seat: int
    status: str


class ClaimedSeat(pydantic.BaseModel):
    """The claimed seat's token, given this once."""

    game_id: str
    seat: int
    token: str
    link: str


# --- seats ------------------------------------------------------------------------------------


class Pending(pydantic.BaseModel):
    """Who decides and what kind of decision; ``prompt`` only for the seat that decides."""

    player: int
    kind: str
    rule: str | None = None
    yours: bool
    prompt: str | None = None


class LegalEntry(pydantic.BaseModel):
    notation: str
    action: dict[str, Any]


class SeatEvent(_Open):
    """One event as the seat may see it, numbered by its action and its place in that action."""

    action: int
    index: int
    kind: str
    text: str
    data: dict[str, Any]


class Rematch(pydantic.BaseModel):
    """The rematch of a finished game: its id, its watch link and (only in a seat's own payload) the
    link of that seat's seat in it."""

    game_id: str
    watch: str
    link: str | None = None


class SeatPayload(pydantic.BaseModel):
    """Everything one seat (``seat`` null: a spectator) may know about its game now (see
    docs/server.md)."""

    game_id: str
    game: str
    game_name: str
    seat: int | None
    seats: list[SeatSummary]
    seat_names: list[str] | None
    version: int
    status: str
    view: Any
    pending: Pending | None
    results: dict[str, Any] | None
    ai_error: str | None
    undos: int
    undo: int | None
    rematch: Rematch | None
    legal: list[LegalEntry]
    events: list[SeatEvent]


class RematchCreated(pydantic.BaseModel):
    """A rematch: the new game and the asking seat's link in it (every other seat's page shows its own)."""

    game_id: str
    seat: int
    link: str
    watch: str


class ReplayStarted(pydantic.BaseModel):
    """An uploaded save ready to be stepped through: its replay id, game and number of actions."""

    replay_id: str
    game: str
    game_name: str
    actions: int


class ReplayFrame(_Open):
    """One step of a replay: the public view after action ``version`` of ``actions``, the public events
    of the actions after ``after`` up to it, who decides next, and the results at the end."""

    replay_id: str
    game: str
    game_name: str
    version: int
    actions: int
    view: Any
    pending: Pending | None
    results: dict[str, Any] | None
    events: list[SeatEvent]


class BoardLayout(_Open):
    """The public layout of the seat's board (the game's own fields: positions, regions, links...)."""


class GameData(_Open):
    """A game's own answer (odds calculator catalog, battle odds)."""


def documented(model: Any, *statuses: int, status: int = 200) -> dict[str, Any]:
    """A route's ``response_model``/``responses=``: its answer's model (for the schema only: the route
    sends its JSON as it builds it) and its refusals."""
    return {
        "response_model": None,
        "responses": {status: {"model": model, "description": "Success"}, **refusals(*statuses)},
    }


def json_integer(value: Any) -> Any:
    """JSON Schema's integer: an int, or a number with no fraction (``3.0``); never a bool or a string
    (the request models are strict)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: Put after the field's constraints: ``Annotated[int, Field(ge=0), INTEGRAL]``.
INTEGRAL = pydantic.BeforeValidator(json_integer)
