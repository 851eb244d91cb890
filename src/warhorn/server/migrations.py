"""Versioned schema migrations, applied by the server at start-up.

Why not Alembic: the schema is three tables owned by this one application,
and migrations must run in-process at start-up on SQLite and PostgreSQL
alike. A table ``warhorn_schema`` records each applied migration; every
migration runs in its own transaction together with its record, so a
failed one leaves nothing half-done (both SQLite and PostgreSQL have
transactional DDL). This costs no extra dependency, no ``alembic.ini`` or
``env.py`` and no separate command to forget.

Rules for adding a migration: append a new ``Migration`` with the next
number; never edit an applied one. Each migration spells out the tables it
creates, frozen as they were when it was written, rather than reusing
:mod:`warhorn.server.database`'s current tables: those change with the next
migration, and an old step that followed them would build a different schema
on a new database than it once built on an existing one. The two stay in
agreement through a test (``tests/server/test_storage.py``) that migrates an
empty database and compares every table, column, type, key and index with
the current tables.

Everything about connecting (URLs, engines, SQLite pragmas) lives in
:mod:`warhorn.server.database`; this module holds only the versioned steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

_schema_metadata = sa.MetaData()
schema_versions = sa.Table(
    "warhorn_schema",
    _schema_metadata,
    sa.Column("version", sa.Integer, primary_key=True),
    sa.Column("description", sa.String(200), nullable=False),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)

#: A number only this application uses for its PostgreSQL advisory lock during migration.
_PG_MIGRATION_LOCK = 0x5741_5248_4F52_4E31 & 0x7FFF_FFFF_FFFF_FFFF


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    apply: Callable[[Connection], None]


def _v1_initial(conn: Connection) -> None:
    md = sa.MetaData()
    sa.Table(
        "games",
        md,
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
    )
    sa.Table(
        "seats",
        md,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("token", sa.String(64), nullable=False, unique=True),
    )
    sa.Table(
        "actions",
        md,
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    md.create_all(conn)
    conn.execute(sa.text("CREATE INDEX ix_games_status ON games (status)"))


def _v2_digest_checkpoint(conn: Connection) -> None:
    conn.execute(sa.text("ALTER TABLE games ADD COLUMN digest_version INTEGER NOT NULL DEFAULT 0"))
    conn.execute(sa.text("UPDATE games SET digest_version = version"))  # so far every digest was current


def _v3_seat_invites(conn: Connection) -> None:
    moment = sa.DateTime(timezone=True).compile(dialect=conn.dialect)
    conn.execute(
        sa.text(f"ALTER TABLE seats ADD COLUMN invite {sa.String(64).compile(dialect=conn.dialect)}")
    )
    conn.execute(sa.text(f"ALTER TABLE seats ADD COLUMN claimed_at {moment}"))
    conn.execute(sa.text("CREATE UNIQUE INDEX ix_seats_invite ON seats (invite)"))


def _v4_rematch(conn: Connection) -> None:
    text = sa.String(32).compile(dialect=conn.dialect)
    conn.execute(sa.text(f"ALTER TABLE games ADD COLUMN rematch {text}"))


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, seats and actions", _v1_initial),
    Migration(2, "games.digest_version: the version the stored digest belongs to", _v2_digest_checkpoint),
    Migration(
        3, "seats.invite and seats.claimed_at: human seats handed out by invite links", _v3_seat_invites
    ),
    Migration(4, "games.rematch: the game started as this finished game's rematch", _v4_rematch),
)


def _lock_for_migration(conn: Connection) -> None:
    """On PostgreSQL, hold this application's advisory lock until the transaction ends, so that two
    servers starting at once migrate one after the other (SQLite's write lock does this by itself)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})


def current_version(engine: Engine) -> int:
    """The highest applied migration (0 on an empty database)."""
    with engine.connect() as conn:
        if not sa.inspect(conn).has_table("warhorn_schema"):
            return 0
        value = conn.execute(sa.select(sa.func.max(schema_versions.c.version))).scalar()
        return int(value or 0)


def migrate(engine: Engine) -> list[int]:
    """Apply every migration not yet applied, in order; return the versions applied now.

    Refuses a database migrated by a newer warhorn (its version is above ours).
    """
    latest = MIGRATIONS[-1].version
    applied: list[int] = []
    with engine.begin() as conn:
        _lock_for_migration(conn)
        _schema_metadata.create_all(conn)
    found = current_version(engine)
    if found > latest:
        raise RuntimeError(
            f"the database schema is at version {found}, newer than this warhorn knows ({latest}); "
            "upgrade warhorn"
        )
    for migration in MIGRATIONS:
        if migration.version <= found:
            continue
        with engine.begin() as conn:
            _lock_for_migration(conn)
            done = conn.execute(
                sa.select(schema_versions.c.version).where(schema_versions.c.version == migration.version)
            ).first()
            if done is not None:  # another process applied it meanwhile
                continue
            migration.apply(conn)
            conn.execute(
                schema_versions.insert().values(
                    version=migration.version,
                    description=migration.description,
                    applied_at=datetime.now(UTC),
                )
            )
        applied.append(migration.version)
    return applied
