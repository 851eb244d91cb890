"""Database URLs, migrations and the final guard against two writers."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.server.conftest import OpenClient
from tests.server.helpers import create, play_random, state, tokens
from warhorn.engine import Rng
from warhorn.server.database import make_engine, metadata, normalise_database_url
from warhorn.server.hub import DIGEST_EVERY
from warhorn.server.migrations import MIGRATIONS, current_version, migrate, schema_versions


@pytest.mark.parametrize(
    ("given", "driver"),
    [
        ("postgresql://u@h:5432/db", "postgresql+psycopg"),
        ("postgres://u@h/db", "postgresql+psycopg"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg"),
        ("sqlite:///x.sqlite3", "sqlite"),
    ],
)
def test_database_urls_are_normalised(given: str, driver: str) -> None:
    assert normalise_database_url(given).drivername == driver


@pytest.mark.parametrize("bad", ["mysql://u@h/db", "nonsense", "sqlite+pysqlcipher:///x"])
def test_unsupported_database_urls_are_refused_by_name(bad: str) -> None:
    with pytest.raises(ValueError):
        normalise_database_url(bad)


def test_in_memory_sqlite_is_refused() -> None:
    with pytest.raises(ValueError, match="SQLite file"):
        make_engine("sqlite://")


def test_sqlite_file_is_created_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "w.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(sa.text("PRAGMA journal_mode")).scalar() == "wal"
    engine.dispose()
    assert path.is_file()


def test_migrations_build_the_current_schema_once(database_url: str) -> None:
    engine = make_engine(database_url)
    try:
        migrate(engine)
        assert current_version(engine) == MIGRATIONS[-1].version
        assert migrate(engine) == []  # idempotent
        inspector = sa.inspect(engine)
        for table in metadata.sorted_tables:
            found = {c["name"] for c in inspector.get_columns(table.name)}
            assert found == {c.name for c in table.columns}, table.name
        pk = inspector.get_pk_constraint("actions")["constrained_columns"]
        assert pk == ["game_id", "number"]
    finally:
        engine.dispose()


def _schema_of(inspector: sa.Inspector, table: str) -> dict[str, object]:
    """What a table is made of, in terms both a live database and the declared metadata can be compared by."""
    indexes = inspector.get_indexes(table)
    return {
        "columns": {
            c["name"]: (type(c["type"]._type_affinity).__name__, bool(c["nullable"]))
            for c in inspector.get_columns(table)
        },
        "primary_key": inspector.get_pk_constraint(table)["constrained_columns"],
        "foreign_keys": {
            (tuple(fk["constrained_columns"]), fk["referred_table"], tuple(fk["referred_columns"]))
            for fk in inspector.get_foreign_keys(table)
        },
        "indexes": {(i["name"], tuple(i["column_names"])) for i in indexes if not i["unique"]},
        "unique": {tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)}
        | {tuple(i["column_names"]) for i in indexes if i["unique"]},
    }


def _declared_schema(table: sa.Table) -> dict[str, object]:
    return {
        "columns": {c.name: (type(c.type._type_affinity).__name__, bool(c.nullable)) for c in table.columns},
        "primary_key": [c.name for c in table.primary_key.columns],
        "foreign_keys": {
            (
                tuple(e.parent.name for e in fk.elements),
                fk.referred_table.name,
                tuple(e.column.name for e in fk.elements),
            )
            for fk in table.foreign_key_constraints
        },
        "indexes": {(i.name, tuple(c.name for c in i.columns)) for i in table.indexes if not i.unique},
        "unique": {
            tuple(c.name for c in u.columns) for u in table.constraints if isinstance(u, sa.UniqueConstraint)
        }
        | {(c.name,) for c in table.columns if c.unique}
        | {tuple(c.name for c in i.columns) for i in table.indexes if i.unique},
    }


def test_the_migrations_build_exactly_the_declared_tables(database_url: str) -> None:
    """The migrations spell out their tables themselves (frozen); this keeps them and the current tables
    of warhorn.server.database the same schema: columns, types, nullability, keys and indexes."""
    engine = make_engine(database_url)
    try:
        migrate(engine)
        inspector = sa.inspect(engine)
        assert set(inspector.get_table_names()) == {*metadata.tables, "warhorn_schema"}
        for table in metadata.sorted_tables:
            assert _schema_of(inspector, table.name) == _declared_schema(table), table.name
    finally:
        engine.dispose()


def test_a_database_from_a_newer_warhorn_is_refused(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new.sqlite3'}")
    migrate(engine)
    with engine.begin() as conn:
        conn.execute(
            schema_versions.insert().values(version=999, description="future", applied_at=sa.func.now())
        )
    with pytest.raises(RuntimeError, match="newer"):
        migrate(engine)
    engine.dispose()


def test_a_second_writer_on_a_stale_cache_is_refused_and_reloads(open_client: OpenClient) -> None:
    with open_client() as first, open_client() as second:
        t = tokens(create(first, ["human", "human"]))
        assert state(second, t[0])["version"] == 0  # second server caches the game at version 0
        assert first.post(f"/api/seat/{t[0]}/actions", json={"version": 0, "text": "roll"}).status_code == 200
        response = second.post(f"/api/seat/{t[0]}/actions", json={"version": 0, "text": "roll"})
        assert response.status_code == 409 and response.json()["code"] == "stale"
        assert state(second, t[0])["version"] == 1  # rebuilt from the database
        assert state(second, t[0]) == state(first, t[0])


def test_a_game_whose_replay_differs_is_refused_clearly(open_client: OpenClient, database_url: str) -> None:
    with open_client() as client:
        created = create(client, ["human", "human"])
        t = tokens(created)
        assert (
            client.post(f"/api/seat/{t[0]}/actions", json={"version": 0, "text": "roll"}).status_code == 200
        )
    engine = make_engine(database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE games SET digest = 'x' WHERE id = :id"), {"id": created["game_id"]})
    engine.dispose()
    with open_client() as client:
        response = client.get(f"/api/seat/{t[0]}")
        assert response.status_code == 409 and "cannot be resumed" in response.json()["error"]
        assert client.get("/api/games").status_code == 200


def test_migration_2_dates_every_stored_digest_at_its_games_version(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'v1.sqlite3'}")
    try:
        with engine.begin() as conn:  # a database as warhorn left it before migration 2 existed
            schema_versions.create(conn)
            MIGRATIONS[0].apply(conn)
            conn.execute(
                schema_versions.insert().values(version=1, description="v1", applied_at=sa.func.now())
            )
            conn.execute(
                sa.text(
                    "INSERT INTO games VALUES ('g1', 'dice-race', '{}', 1, 2, '1', 'h', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 'active', 5, 'd', NULL)"
                )
            )
            conn.execute(sa.text("INSERT INTO seats VALUES ('g1', 0, 'human', 'tokentokentokentoken')"))
        assert migrate(engine) == [2, 3, 4]
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT digest_version FROM games")).scalar() == 5
            # migration 3: a seat from before invites existed is a hotseat seat (no invite, never claimed)
            assert tuple(conn.execute(sa.text("SELECT invite, claimed_at FROM seats")).one()) == (None, None)
            # migration 4: a game from before rematches existed has none
            assert conn.execute(sa.text("SELECT rematch FROM games")).scalar() is None
    finally:
        engine.dispose()


def test_the_stored_digest_is_a_checkpoint_the_replay_must_pass_through(
    open_client: OpenClient, database_url: str
) -> None:
    with open_client() as client:
        created = create(client, ["human", "human"], target=100)
        t = tokens(created)
        played = play_random(client, t, DIGEST_EVERY + 3, Rng(5))
        before = state(client, t[0])
    assert played["status"] == "active" and played["version"] == DIGEST_EVERY + 3
    game = {"id": created["game_id"]}
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            stored = conn.execute(
                sa.text("SELECT version, digest_version FROM games WHERE id = :id"), game
            ).one()
        assert tuple(stored) == (DIGEST_EVERY + 3, DIGEST_EVERY)
        with open_client() as client:  # resumes between two checkpoints, exactly
            assert state(client, t[0]) == before
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE games SET digest = 'x' WHERE id = :id"), game)
        with open_client() as client:
            response = client.get(f"/api/seat/{t[0]}")
            assert response.status_code == 409
            assert f"stored state of version {DIGEST_EVERY}" in response.json()["error"]
    finally:
        engine.dispose()
