"""The FastAPI application: JSON API, live stream (server-sent events), pages and static files.

``create_app(database_url)`` builds an app bound to one database; the schema is
migrated and unfinished games are resumed when the app starts (its lifespan).
Every refusal is JSON ``{"error": ..., "code": ...}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

import pydantic
import sqlalchemy as sa
from fastapi import Body, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic.json_schema import SkipJsonSchema
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Mount, Route

from warhorn.engine import SaveFile, registered_games
from warhorn.server import pages
from warhorn.server.api_models import (
    BODY,
    INTEGRAL,
    STORAGE,
    BoardLayout,
    Catalog,
    ClaimedSeat,
    CreatedGame,
    Deleted,
    GameList,
    GameSummary,
    Invite,
    RematchCreated,
    ReplayFrame,
    ReplayStarted,
    SeatPayload,
    documented,
    refusals,
)
from warhorn.server.boards import board_layout, game_asset, renderer_url
from warhorn.server.database import DEFAULT_DATABASE_URL, make_engine, storage_problem
from warhorn.server.errors import ApiError
from warhorn.server.hub import SPECTATOR, GameHub, LiveGame, seat_kinds
from warhorn.server.limits import CreationRateLimit, RequestBodyLimit, ServerLimits
from warhorn.server.migrations import migrate
from warhorn.server.odds_api import add_odds_routes, odds_request_schemas
from warhorn.server.replays import UPLOAD_PREFIX, Replay, Replays, build_replay
from warhorn.server.rules_api import add_rules_routes
from warhorn.server.store import GameRecord, GameStore, SeatRecord

log = logging.getLogger("warhorn.server")

STATIC_DIR = Path(__file__).parent / "static"
KEEPALIVE_SECONDS = 15.0
#: The ``Retry-After`` of a 503 for a storage failure.
STORAGE_RETRY_AFTER_SECONDS = 5
_EVENT_ID_SHAPE = re.compile(r"^[0-9]{1,18}$")
#: One server-sent event of a seat's live stream, as a client reads it (``data`` is JSON text).
SSE_EVENT = {
    "type": "object",
    "properties": {
        "event": {"enum": ["stream", "update", "seen", "deleted", "failure"]},
        "data": {"type": "string"},
        "id": {"type": "string"},
        "retry": {"type": "integer"},
    },
}
#: How a live stream's route is documented: the events, or the refusals of the seat or game looked up.
STREAM_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Server-sent events (stream, update, seen, deleted, failure)",
        "content": {"text/event-stream": {"schema": SSE_EVENT}},
    },
    **refusals(404, 409, 422, *STORAGE),
}
#: The largest seed a client may give (the server draws its own from 63 bits).
MAX_CLIENT_SEED = 2**53 - 1


SeatIndex = Annotated[int, pydantic.Field(ge=0, le=15), INTEGRAL]


class CreateGameRequest(pydantic.BaseModel):
    """A new game: which game, its options, one entry per seat ("human" or an AI kind), an optional seed."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    #: A registered game's id (the schema lists them).
    game: str = pydantic.Field(max_length=64)
    options: dict[str, Any] = {}
    #: "human" or an AI kind this server allows, per seat (the schema lists them).
    seats: list[str] = pydantic.Field(min_length=1, max_length=16)
    #: At most 2**53 - 1: a seed a browser (JavaScript numbers) and every JSON Schema validator read exactly.
    seed: Annotated[int, pydantic.Field(ge=0, le=MAX_CLIENT_SEED), INTEGRAL] | SkipJsonSchema[None] = None
    #: The human seats handed out by invite link: the answer holds an invite code for each, not its
    #: token, and one player claims it (the other human seats are the creator's: hotseat).
    invites: list[Annotated[int, pydantic.Field(ge=0, le=15), INTEGRAL]] = pydantic.Field(
        default=[], max_length=16
    )


class UndoRequest(pydantic.BaseModel):
    """Take back the last human decision of a hotseat game; ``version``: the version it is asked on."""

    model_config = pydantic.ConfigDict(extra="forbid", strict=True)

    version: Annotated[int, pydantic.Field(ge=0), INTEGRAL]


class SubmitActionRequest(pydantic.BaseModel):
    """An action for the seat's pending decision: its JSON or its text notation, and the version it was
    chosen on."""

    model_config = pydantic.ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={"oneOf": [{"required": ["action"]}, {"required": ["text"]}]},
    )

    version: Annotated[int, pydantic.Field(ge=0), INTEGRAL]
    action: dict[str, Any] | SkipJsonSchema[None] = None
    text: Annotated[str, pydantic.Field(max_length=1000)] | SkipJsonSchema[None] = None

    @pydantic.model_validator(mode="after")
    def _one_form(self) -> SubmitActionRequest:
        if (self.action is None) == (self.text is None):
            raise ValueError("give exactly one of 'action' (JSON) and 'text' (notation)")
        return self


def catalog(kinds: list[str] | None = None) -> dict[str, Any]:
    """The registered games with their options, and the seat kinds (``kinds``: those a server allows)."""
    out = []
    for spec in registered_games().values():
        out.append(
            {
                "id": spec.id,
                "name": spec.name,
                "description": spec.description,
                "min_players": spec.min_players,
                "max_players": spec.max_players,
                "options": [
                    {
                        "name": o.name,
                        "type": o.type.__name__,
                        "default": o.default,
                        "help": o.help,
                        "choices": list(o.choices) if o.choices is not None else None,
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                    }
                    for o in spec.options
                ],
            }
        )
    return {"games": out, "seat_kinds": kinds if kinds is not None else seat_kinds()}


def game_summary(record: GameRecord, seat_names: list[str] | None = None) -> dict[str, Any]:
    """What anyone may know about a game: no seed, no tokens, no state; ``seat_names``: what each seat
    plays as the game names it (public), when known."""
    if seat_names is None and record.results is not None:
        seat_names = record.results.get("seat_names")
    return {
        "game_id": record.id,
        "game": record.game,
        "status": record.status,
        "version": record.version,
        "created_at": record.created_at.isoformat(),
        "updated_at": record.updated_at.isoformat(),
        "seats": [_seat_summary(s) for s in record.seats],
        "seat_names": seat_names,
        "results": record.results,
    }


def _seat_summary(seat: SeatRecord) -> dict[str, Any]:
    """A seat as anyone may know it: its kind and, for a seat handed out by invite, whether it was
    claimed (``open``/``claimed``)."""
    out: dict[str, Any] = {"seat": seat.seat, "kind": seat.kind}
    if seat.invite_status is not None:
        out["invite"] = seat.invite_status
    return out


def created_seat(seat: SeatRecord) -> dict[str, Any]:
    """A seat as the creator of its game receives it: the token of a hotseat human seat, the invite
    code of an invited one, nothing for an AI seat."""
    if not seat.is_human:
        return {"seat": seat.seat, "kind": seat.kind}
    if seat.invite is not None:
        return {"seat": seat.seat, "kind": seat.kind, "invite": seat.invite, "link": f"/invite/{seat.invite}"}
    return {"seat": seat.seat, "kind": seat.kind, "token": seat.token, "link": f"/play/{seat.token}"}


def _validation_message(exc: RequestValidationError) -> tuple[int, str, list[str]]:
    problems = []
    status = 422
    for err in exc.errors():
        if err.get("type") == "json_invalid":
            status = 400
            problems.append("the request body is not valid JSON")
            continue
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        problems.append(f"{where}: {err.get('msg', 'invalid')}")
    return status, "; ".join(problems) or "invalid request", problems


class ServerTimingMiddleware:
    """Adds ``Server-Timing: app;dur=<ms>`` to every response: the time spent inside the app.

    Lets a load test tell the server's own latency from queueing in the client.
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                elapsed = (time.perf_counter() - started) * 1000
                headers = [*message.get("headers", []), (b"server-timing", f"app;dur={elapsed:.2f}".encode())]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed_send)


def create_app(
    database_url: str = DEFAULT_DATABASE_URL, *, ai_delay: float = 0.0, limits: ServerLimits | None = None
) -> FastAPI:
    """The web app on ``database_url`` (SQLite file or PostgreSQL).

    ``ai_delay`` seconds pass before each AI action (so people can follow them; 0 in tests).
    ``limits``: what clients may spend (default: no limits on games, one AI thread).
    """
    limits = limits or ServerLimits()
    engine = make_engine(database_url)
    store = GameStore(engine)
    hub = GameHub(store, ai_delay=ai_delay, limits=limits)
    creation_rate = CreationRateLimit(limits.games_per_client_per_hour)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, engine)
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            engine.dispose()

    app = FastAPI(title="warhorn", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.add_middleware(RequestBodyLimit, seconds=limits.request_body_seconds, max_bytes=limits.max_body_bytes)
    app.add_middleware(MethodsMiddleware, routes=app)
    app.add_middleware(ServerTimingMiddleware)
    app.state.hub = hub
    app.state.limits = limits
    app.state.store = store

    @app.get("/static/games/{name}", include_in_schema=False)
    async def game_web_asset(name: str) -> Response:
        """A game's board renderer and its other web files, from the game's package (before ``/static``)."""
        found = game_asset(name)
        if found is None:
            raise ApiError(404, "not_found", f"no game web file {name!r}")
        content, media = found
        return Response(content, media_type=media)

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # --- refusals -----------------------------------------------------------------
    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        status, message, problems = _validation_message(exc)
        return JSONResponse({"error": message, "code": "malformed", "problems": problems}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(getattr(exc, "headers", None) or {})
        if exc.status_code == 405:  # every method of the path, not only those of the route that matched first
            headers["Allow"] = _allow(allowed_methods(app, request.url.path))
        return JSONResponse(
            {"error": str(exc.detail), "code": f"http_{exc.status_code}"},
            status_code=exc.status_code,
            headers=headers or None,
        )

    @app.exception_handler(sa.exc.SQLAlchemyError)
    async def _storage(_request: Request, exc: sa.exc.SQLAlchemyError) -> JSONResponse:
        problem = storage_problem(exc)
        if problem is None:
            return await _internal(_request, exc)
        log.warning("storage failure: %s (%s)", problem, str(exc).splitlines()[0][:300])
        return JSONResponse(
            {"error": f"{problem}; nothing was changed, try again later", "code": "storage_unavailable"},
            status_code=503,
            headers={"Retry-After": str(STORAGE_RETRY_AFTER_SECONDS)},
        )

    @app.exception_handler(Exception)
    async def _internal(_request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error", exc_info=exc)
        return JSONResponse({"error": "internal error (it was logged)", "code": "internal"}, status_code=500)

    # --- pages ----------------------------------------------------------------------
    # (pages are HTML for browsers, not part of the JSON API's schema)
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby_page() -> HTMLResponse:
        return HTMLResponse(pages.lobby_page())

    @app.get("/play/{token}", response_class=HTMLResponse, include_in_schema=False)
    async def game_page(token: str) -> HTMLResponse:
        try:
            live, seat = await hub.seat_for(token)
        except ApiError as exc:
            return HTMLResponse(pages.error_page(exc.message), status_code=exc.status)
        return HTMLResponse(
            pages.game_page(
                token=token,
                game=live.record.game,
                game_name=live.state.spec.name,
                seat=seat,
                renderer=renderer_url(live.record.game),
            )
        )

    @app.get("/watch/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def watch_page(game_id: str) -> HTMLResponse:
        """A spectator's page: the board and the log as anyone may see them (no hand, no decision)."""
        try:
            live = await hub.watched(game_id)
        except ApiError as exc:
            return HTMLResponse(pages.error_page(exc.message), status_code=exc.status)
        return HTMLResponse(
            pages.watch_page(
                game_id=live.id,
                game=live.record.game,
                game_name=live.state.spec.name,
                renderer=renderer_url(live.record.game),
            )
        )

    @app.get("/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay_upload_page() -> HTMLResponse:
        """Upload a save to step through it."""
        return HTMLResponse(pages.replay_upload_page())

    @app.get("/replay/{replay_id}", response_class=HTMLResponse, include_in_schema=False)
    async def replay_page(replay_id: str) -> HTMLResponse:
        """The replay viewer: a finished game (by its id) or an uploaded save, step by step."""
        try:
            replay = await replay_for(replay_id)
        except ApiError as exc:
            return HTMLResponse(pages.error_page(exc.message), status_code=exc.status)
        return HTMLResponse(
            pages.replay_page(
                replay_id=replay.replay_id,
                game=replay.game,
                game_name=replay.game_name,
                renderer=renderer_url(replay.game),
            )
        )

    @app.get("/invite/{code}", response_class=HTMLResponse, include_in_schema=False)
    async def invite_page(code: str) -> HTMLResponse:
        """An invite link: the page names the seat and claims it on a click (never on the GET itself)."""
        return HTMLResponse(pages.invite_page(code))

    add_odds_routes(app, hub)
    add_rules_routes(app)
    replays = Replays()

    async def replay_for(replay_id: str) -> Replay:
        """A kept replay, or a finished game's (built from its stored actions); 404 / 409 otherwise."""
        found = replays.get(replay_id)
        if found is not None:
            return found
        if replay_id.startswith(UPLOAD_PREFIX):
            raise ApiError(404, "not_found", "no such replay (uploaded saves are kept for a while only)")
        live = await hub.watched(replay_id)
        if live.record.status != "finished":
            raise ApiError(409, "not_finished", "a game's replay is offered once the game is over")
        save = hub.save_file(live)
        seats = [{"seat": s.seat, "kind": s.kind} for s in live.record.seats]
        built = await asyncio.to_thread(build_replay, live.id, save, seats, list(live.events))
        return replays.keep(built)

    # --- lobby API ------------------------------------------------------------------
    @app.get("/api/catalog", **documented(Catalog))
    async def get_catalog() -> dict[str, Any]:
        return catalog(hub.allowed_seat_kinds())

    @app.get("/api/games", **documented(GameList, *STORAGE))
    async def list_games() -> dict[str, Any]:
        records = await asyncio.to_thread(store.list_games)
        return {"games": [game_summary(r, hub.seat_names(r.id)) for r in records]}

    @app.post("/api/games", status_code=201, **documented(CreatedGame, *BODY, 429, *STORAGE, status=201))
    async def create_game(body: CreateGameRequest, request: Request) -> dict[str, Any]:
        client = request.client.host if request.client is not None else "unknown"
        if not creation_rate.allow(client):
            raise ApiError(
                429,
                "too_many_games",
                f"this server lets one client create {limits.games_per_client_per_hour} games per hour; "
                "try again later",
            )
        live = await hub.create(body.game, body.options, body.seats, body.seed, body.invites)
        return {
            "game_id": live.id,
            "version": live.version,
            "seats": [created_seat(s) for s in live.record.seats],
            "seat_names": live.state.seat_roles(),
        }

    @app.get("/api/games/{game_id}", **documented(GameSummary, 404, *STORAGE))
    async def get_game(game_id: str) -> dict[str, Any]:
        record = await asyncio.to_thread(store.get_game, game_id)
        if record is None:
            raise ApiError(404, "not_found", f"no game {game_id!r}")
        return game_summary(record, hub.seat_names(record.id))

    @app.delete("/api/games/{game_id}", **documented(Deleted, 403, 404, 409, *STORAGE))
    async def delete_game(game_id: str, x_seat_token: str = Header(default="")) -> dict[str, Any]:
        await hub.delete(game_id, x_seat_token)
        return {"deleted": game_id}

    # --- invites -------------------------------------------------------------------
    @app.get("/api/invites/{code}", **documented(Invite, 404, *STORAGE))
    async def get_invite(code: str) -> dict[str, Any]:
        """The seat an invite hands out and whether it was claimed (reading it claims nothing)."""
        found = await hub.invite(code)
        return {
            "game_id": found.game_id,
            "game": found.game,
            "seat": found.seat,
            "status": "claimed" if found.claimed else "open",
        }

    @app.post("/api/invites/{code}/claim", **documented(ClaimedSeat, 404, 408, 409, 413, *STORAGE))
    async def claim_invite(code: str) -> dict[str, Any]:
        """Claim the seat: its token, given this once (409 ``claimed`` afterwards)."""
        live, seat, token = await hub.claim(code)
        return {"game_id": live.id, "seat": seat, "token": token, "link": f"/play/{token}"}

    # --- seat API -------------------------------------------------------------------
    @app.get("/api/seat/{token}", **documented(SeatPayload, 404, 409, 422, *STORAGE))
    async def seat_state(token: str, after: int = Query(0, ge=0)) -> Response:
        live, seat = await hub.seat_for(token)
        return _json(hub.seat_payload_json(live, seat, after))

    @app.post("/api/seat/{token}/actions", **documented(SeatPayload, *BODY, 403, 404, 409, *STORAGE))
    async def submit_action(
        token: str,
        body: SubmitActionRequest,
        x_warhorn_stream: str | None = Header(default=None, max_length=64),
    ) -> Response:
        """Apply the action; the answer is the seat's new state with the events since ``version``.

        ``X-Warhorn-Stream``: the id of the sending page's live stream (its ``stream`` event), which
        then does not send this new state again.
        """
        live, seat = await hub.submit(token, body.version, body.action, body.text, x_warhorn_stream)
        return _json(hub.seat_payload_json(live, seat, body.version))

    @app.get("/api/seat/{token}/board", **documented(BoardLayout, 404, 409, *STORAGE))
    async def seat_board(token: str) -> dict[str, Any]:
        """The public layout of the seat's board (spaces, coordinates, links); 404 when the game has none.

        The board is public: a spectator's page names its game as ``watch.<game id>`` and a replay's as
        ``replay.<replay id>`` in place of a token (a token never holds a dot), so that the games' board
        renderers fetch it the same way on every page.
        """
        kind, _, name = token.partition(".")
        if kind == "watch" and name:
            state = (await hub.watched(name)).state
        elif kind == "replay" and name:
            state = (await replay_for(name)).checkpoints[0]
        else:
            state = (await hub.seat_for(token))[0].state
        layout = board_layout(state)
        if layout is None:
            raise ApiError(404, "no_board", f"the game {state.spec.id!r} has no board layout")
        return layout

    @app.get("/api/seat/{token}/save", **documented(SaveFile, 403, 404, 409, *STORAGE))
    async def download_save(token: str) -> Response:
        live, _seat = await hub.seat_for(token)
        save = hub.save_file(live)
        return Response(
            save.text(),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="warhorn-{live.id}.json"'},
        )

    @app.post("/api/seat/{token}/undo", **documented(SeatPayload, *BODY, 403, 404, 409, *STORAGE))
    async def undo(token: str, body: UndoRequest) -> Response:
        """Take back the last human decision (and the AI actions after it) of a hotseat game, under the
        engine's undo rules (never a roll, draw or shuffle); the answer is the seat's whole state."""
        live, seat = await hub.undo(token, body.version)
        return _json(hub.seat_payload_json(live, seat, 0))

    @app.post(
        "/api/seat/{token}/rematch",
        status_code=201,
        **documented(RematchCreated, 404, 409, 429, *STORAGE, status=201),
    )
    async def rematch(token: str, request: Request) -> dict[str, Any]:
        """Start (once) the rematch of a finished game: same game, options and seats, a new seed. Each
        human seat's page then shows the link of its own seat in it."""
        live = await hub.seat_for(token)
        if live[0].record.rematch is None:
            client = request.client.host if request.client is not None else "unknown"
            if not creation_rate.allow(client):
                raise ApiError(429, "too_many_games", "this server's limit of games per hour is reached")
        _old, created, seat = await hub.rematch(token)
        return {
            "game_id": created.id,
            "seat": seat,
            "link": f"/play/{created.seat(seat).token}",
            "watch": f"/watch/{created.id}",
        }

    # --- spectators ----------------------------------------------------------------
    @app.get("/api/watch/{game_id}", **documented(SeatPayload, 404, 409, 422, *STORAGE))
    async def watch_state(game_id: str, after: int = Query(0, ge=0)) -> Response:
        """What anyone watching the game may know: the public view and events, who decides (no prompt)."""
        live = await hub.watched(game_id)
        return _json(hub.seat_payload_json(live, SPECTATOR, after))

    @app.get(
        "/api/watch/{game_id}/stream",
        response_class=StreamingResponse,
        responses=STREAM_RESPONSES,
    )
    async def watch_stream(
        game_id: str,
        request: Request,
        after: int | None = Query(None, ge=0),
        last_event_id: str | None = Header(default=None),
    ) -> StreamingResponse:
        """The spectator's live stream: an ``update`` (the public payload) after every change."""
        live = await hub.watched(game_id)

        async def resolve() -> tuple[LiveGame, int]:
            return await hub.watched(game_id), SPECTATOR

        return _event_stream(hub, resolve, live, SPECTATOR, _resume_after(after, last_event_id), request)

    # --- replays ---------------------------------------------------------------------
    @app.post("/api/replays", status_code=201, **documented(ReplayStarted, *BODY, 429, *STORAGE, status=201))
    async def upload_replay(body: Annotated[dict[str, Any], Body()], request: Request) -> dict[str, Any]:
        """Upload a save (the JSON a finished game offers, ``SaveFile``): the engine replays it, to be
        stepped through; a body that is no save, or does not replay to its final digest, is a 400.
        Replaying costs what playing the game cost, so an upload counts as a game created (429)."""
        client = request.client.host if request.client is not None else "unknown"
        if not creation_rate.allow(client):
            raise ApiError(429, "too_many_games", "this server's limit of games per hour is reached")
        replay = replays.keep(await asyncio.to_thread(build_replay, Replays.upload_id(), body))
        return {
            "replay_id": replay.replay_id,
            "game": replay.game,
            "game_name": replay.game_name,
            "actions": replay.length,
        }

    @app.get("/api/replays/{replay_id}", **documented(ReplayFrame, 400, 404, 409, 422, *STORAGE))
    async def replay_frame(
        replay_id: str, step: int = Query(0, ge=0), after: int = Query(0, ge=0)
    ) -> dict[str, Any]:
        """Step ``step`` of a replay (a finished game's id, or an uploaded save's replay id): the public
        view after that many actions and the public events of the steps after ``after``."""
        replay = await replay_for(replay_id)
        return await asyncio.to_thread(replay.frame, step, after)

    @app.get(
        "/api/seat/{token}/stream",
        response_class=StreamingResponse,
        responses=STREAM_RESPONSES,
    )
    async def stream(
        token: str,
        request: Request,
        after: int | None = Query(None, ge=0),
        last_event_id: str | None = Header(default=None),
    ) -> StreamingResponse:
        """Server-sent events: first a ``stream`` event naming the stream, then an ``update`` (the seat's
        payload with the new events) after every change.

        ``after`` (or the ``Last-Event-ID`` of a reconnecting page): the version the page already
        holds; it is not sent again. Without either, the current state is sent at once. A version the
        page received as the answer to its own action (see ``X-Warhorn-Stream``) comes as a ``seen``
        event (its id and version, no payload), so that a reconnection resumes after it.
        """
        live, seat = await hub.seat_for(token)
        resume = _resume_after(after, last_event_id)
        return _event_stream(hub, lambda: hub.seat_for(token), live, seat, resume, request)

    def openapi() -> dict[str, Any]:
        """The schema, with the games and seat kinds this server accepts listed where a game is made."""
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
            create = schema["components"]["schemas"]["CreateGameRequest"]["properties"]
            create["game"]["enum"] = sorted(registered_games())
            create["seats"]["items"]["enum"] = hub.allowed_seat_kinds()
            components = schema["components"]["schemas"]
            questions = []
            for model in odds_request_schemas().values():
                body = model.model_json_schema(ref_template="#/components/schemas/{model}")
                components.update(body.pop("$defs", {}))
                questions.append(body)
            if questions:  # the calculator's question: one game's (the route reads and checks it)
                operation = schema["paths"]["/api/odds/{game}"]["post"]
                content = operation["requestBody"]["content"]["application/json"]
                content["schema"] = questions[0] if len(questions) == 1 else {"anyOf": questions}
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _json(body: bytes) -> Response:
    return Response(body, media_type="application/json")


def _sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _resume_after(after: int | None, last_event_id: str | None) -> int | None:
    """The version a page's stream resumes after: the ``Last-Event-ID`` of a reconnecting page (the id of
    the last update it got; ASCII digits only, "²".isdigit() holds too), else its ``after``."""
    if last_event_id is not None and _EVENT_ID_SHAPE.match(last_event_id):
        return int(last_event_id)
    return after


def _event_stream(
    hub: GameHub,
    resolve: Callable[[], Awaitable[tuple[LiveGame, int]]],
    live: LiveGame,
    seat: int,
    after: int | None,
    request: Request,
) -> StreamingResponse:
    """The response of a page's live stream (:func:`_seat_stream`), never cached or buffered on the way."""
    return StreamingResponse(
        _seat_stream(hub, resolve, live, seat, after, request),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


async def _seat_stream(
    hub: GameHub,
    resolve: Callable[[], Awaitable[tuple[LiveGame, int]]],
    live: LiveGame,
    seat: int,
    after: int | None,
    request: Request,
) -> AsyncIterator[str | bytes]:
    """A page's live stream (a seat's, or ``SPECTATOR``'s); ``resolve`` finds its game again once the
    cached game was reloaded."""
    watcher = hub.watch(live, seat)
    # what the page holds (see LiveGame.shown); the AI error it may hold is not known, so it is sent
    sent: tuple[int, str | None, int, str | None] | None = (
        (after, None, live.undos, live.record.rematch) if after is not None else None
    )
    after = after or 0
    try:
        yield "retry: 1000\n\n" + _sse("stream", {"stream": watcher.id})
        while True:
            if hub.streams_closed:  # the server is stopping
                return
            if live.deleted:
                yield _sse("deleted", {"game_id": live.id})
                return
            if live.retired:
                hub.unwatch(live, watcher)
                if hub.closing:
                    return
                try:
                    live, seat = await resolve()
                except ApiError as exc:
                    yield _sse("failure", exc.body())
                    return
                watcher = hub.watch(live, seat, watcher)
            watcher.wake.clear()
            now = live.shown()
            if now != sent:
                if now == watcher.delivered:
                    yield _sse("seen", {"version": live.version}, live.version)
                else:
                    payload = hub.seat_payload_json(live, seat, after)
                    yield b"id: %d\nevent: update\ndata: %s\n\n" % (live.version, payload)
                after = live.version
                sent = now
            try:
                await asyncio.wait_for(watcher.wake.wait(), timeout=KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keep-alive\n\n"
            if await request.is_disconnected():
                return
    finally:
        hub.unwatch(live, watcher)


def allowed_methods(app: FastAPI, path: str) -> set[str]:
    """The methods some route of ``app`` answers on ``path`` (with HEAD for GET; empty: no such path)."""
    methods: set[str] = set()
    for route in app.router.routes:
        if isinstance(route, Mount):
            if path.startswith(route.path + "/"):
                methods |= {"GET", "HEAD"}
        elif isinstance(route, Route | APIRoute) and route.methods and route.path_regex.match(path):
            methods |= set(route.methods)
    return methods


def _allow(methods: set[str]) -> str:
    return ", ".join(sorted(methods | {"OPTIONS"}))


class MethodsMiddleware:
    """ASGI middleware: ``OPTIONS`` on a path answers ``204`` with ``Allow`` (the methods of every route
    on that path), ``404`` on a path no route has."""

    def __init__(self, app: Any, *, routes: FastAPI) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "OPTIONS":
            await self.app(scope, receive, send)
            return
        methods = allowed_methods(self.routes, scope["path"])
        if not methods:
            body = json.dumps({"error": f"no route {scope['path']!r}", "code": "http_404"}).encode()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 404, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        allow = _allow(methods).encode()
        await send({"type": "http.response.start", "status": 204, "headers": [(b"allow", allow)]})
        await send({"type": "http.response.body", "body": b""})
