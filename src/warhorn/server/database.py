"""Database URLs, the SQLAlchemy engine and the current schema (SQLAlchemy Core tables).

SQLite (a file, WAL mode) is the default; PostgreSQL is used through psycopg 3.
The tables below are what the queries in :mod:`warhorn.server.store` use; they
are created and changed only by the versioned migrations in
:mod:`warhorn.server.migrations` (a test checks that the migrations build
exactly these tables). This module is the one place that turns a URL into an
engine: URL normalisation, engine and pool settings, SQLite's WAL pragmas.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import URL, Engine, make_url

DEFAULT_DATABASE_URL = "sqlite:///./warhorn.sqlite3"

metadata = sa.MetaData()

#: One row per game. ``version`` counts the actions applied so far.
games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("ai_seed", sa.BigInteger, nullable=False),
    sa.Column("rules_version", sa.String(64), nullable=False),
    sa.Column("content_hash", sa.String(128), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("digest", sa.String(64), nullable=False),
    sa.Column("results", sa.Text, nullable=True),
    #: ``digest`` is the digest of the state at this version (a checkpoint, at most a few actions back).
    sa.Column("digest_version", sa.Integer, nullable=False, server_default="0"),
    # the id of the game started as this finished game's rematch (same seats, a new seed)
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Index("ix_games_status", "status"),
)

#: One row per seat; ``kind`` is "human" or an AI agent's name. A human seat handed out by invite has
#: its ``invite`` code (the creator got that, not the token) and, once a player claimed it, ``claimed_at``.
seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("token", sa.String(64), nullable=False, unique=True),
    sa.Column("invite", sa.String(64), nullable=True),
    sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Index("ix_seats_invite", "invite", unique=True),
)

#: One row per applied action, with its events; the primary key (game, number) is the final guard
#: against two writers applying an action on the same version.
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("events", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)


def normalise_database_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``: ``postgresql://`` and ``postgres://`` use psycopg 3.

    Raises ValueError for a URL that is neither SQLite nor PostgreSQL.
    """
    try:
        parsed = make_url(url)
    except sa.exc.ArgumentError as exc:
        raise ValueError(f"not a database URL: {url!r} ({exc})") from None
    backend = parsed.get_backend_name()
    if backend in {"postgresql", "postgres"}:
        if importlib.util.find_spec("psycopg") is None:
            raise ValueError(
                "a PostgreSQL database needs the psycopg driver: pip install 'warhorn[postgresql]'"
            )
        return parsed.set(drivername="postgresql+psycopg")
    if backend == "sqlite":
        if parsed.drivername != "sqlite":
            raise ValueError(f"use a plain sqlite:/// URL, not {parsed.drivername!r}")
        return parsed
    raise ValueError(f"unsupported database {backend!r}: use sqlite:///FILE or postgresql://…")


def sqlite_url_for(path: Path | str) -> str:
    return f"sqlite:///{Path(path)}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url``. A SQLite file is created on first use, in WAL mode."""
    parsed = normalise_database_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:"):
            raise ValueError("the server needs a SQLite file, not an in-memory database")
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(parsed, connect_args={"check_same_thread": False}, pool_size=8)
        sa.event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return sa.create_engine(parsed, pool_size=10, max_overflow=10, pool_pre_ping=True)


#: SQLite's and PostgreSQL's words for each storage failure, and what the server says about it.
_STORAGE_PROBLEMS = (
    (("readonly", "read-only", "read only"), "the database is read-only"),
    (
        ("database or disk is full", "no space left", "disk i/o error", "file too large", "disk full"),
        "the database cannot be written: the disk is full (or the file reached its size limit)",
    ),
    (
        ("unable to open database file",),
        "the database file cannot be opened or created (is its folder writable?)",
    ),
)


def storage_problem(exc: BaseException) -> str | None:
    """What is wrong with the storage, in words, when ``exc`` is a storage failure (else None).

    Storage failures: the database is read-only, its disk is full (or a file-size limit is reached),
    it cannot be opened, or it cannot be reached (a dropped or refused connection). A refused
    constraint (IntegrityError) or a programming error is not one.
    """
    if isinstance(exc, sa.exc.IntegrityError | sa.exc.ProgrammingError):
        return None
    if isinstance(exc, OSError):
        return f"the database cannot be used: {exc.strerror or exc}"
    if not isinstance(exc, sa.exc.DBAPIError | sa.exc.DisconnectionError | sa.exc.TimeoutError):
        return None
    text = str(getattr(exc, "orig", None) or exc).lower()
    for words, problem in _STORAGE_PROBLEMS:
        if any(word in text for word in words):
            return problem
    if isinstance(exc, sa.exc.DBAPIError) and exc.connection_invalidated:
        return "the database is unreachable (the connection to it was lost)"
    if isinstance(exc, sa.exc.OperationalError | sa.exc.DisconnectionError | sa.exc.TimeoutError):
        return "the database is unreachable"
    if isinstance(exc, sa.exc.InterfaceError):
        return "the database is unreachable (the connection to it was lost)"
    return None
