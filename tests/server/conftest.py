"""Databases and clients for the server tests.

Every API test runs twice: on a SQLite file in ``tmp_path`` and on a fresh
PostgreSQL database (``warhorn_test_<random>``) created on the server named
by ``WARHORN_TEST_POSTGRES`` (default: user ``postgres`` on 127.0.0.1:5432, database ``test`` or ``postgres``)
and dropped afterwards. Without a reachable PostgreSQL the PostgreSQL runs are
skipped, saying why (or fail, when ``WARHORN_REQUIRE_SERVICES=1`` as in CI).
"""

from __future__ import annotations

import os
import secrets
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette suggests httpx2; httpx is what the project uses
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from fastapi.testclient import TestClient

from tests.live_server import LiveServer
from warhorn.server import create_app

#: Where to create the test databases: WARHORN_TEST_POSTGRES, else these in turn (the ``test`` database
#: of this machine, then the ``postgres`` database every fresh cluster has).
ADMIN_URLS = (
    [os.environ["WARHORN_TEST_POSTGRES"]]
    if os.environ.get("WARHORN_TEST_POSTGRES")
    else [
        "postgresql://postgres@127.0.0.1:5432/test",
        "postgresql://postgres@127.0.0.1:5432/postgres",
    ]
)
#: Set by CI (.ci/run): a missing PostgreSQL fails the run instead of skipping its tests.
REQUIRE_SERVICES = os.environ.get("WARHORN_REQUIRE_SERVICES") == "1"


def _admin_connect(url: str) -> Any:
    import psycopg

    return psycopg.connect(url, connect_timeout=3, autocommit=True)


def _reachable_admin_url() -> str:
    problems = []
    for url in ADMIN_URLS:
        try:
            _admin_connect(url).close()
            return url
        except Exception as exc:  # any failure to connect means: not usable here
            problems.append(f"{url}: {type(exc).__name__}: {str(exc).strip()}")
    reason = "no PostgreSQL reachable (" + "; ".join(problems) + "); set WARHORN_TEST_POSTGRES"
    if REQUIRE_SERVICES:
        pytest.fail(reason + " [WARHORN_REQUIRE_SERVICES=1]")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for this test session, dropped at the end."""
    admin_url = _reachable_admin_url()
    name = f"warhorn_test_{secrets.token_hex(6)}"
    with _admin_connect(admin_url) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    from sqlalchemy.engine import make_url

    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
    try:
        yield url
    finally:
        with _admin_connect(admin_url) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'warhorn.sqlite3'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


OpenClient = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture
def open_client(database_url: str) -> OpenClient:
    """``with open_client() as client:`` a TestClient on a new app over the test database (lifespan run)."""

    @contextmanager
    def opener(ai_delay: float = 0.0) -> Iterator[TestClient]:
        app = create_app(database_url, ai_delay=ai_delay)
        with TestClient(app) as client:
            yield client

    return opener


@pytest.fixture
def client(open_client: OpenClient) -> Iterator[TestClient]:
    with open_client() as c:
        yield c


@pytest.fixture
def live_server(database_url: str) -> Iterator[LiveServer]:
    with LiveServer(create_app(database_url)) as server:
        yield server
