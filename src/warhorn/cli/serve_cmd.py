"""``warhorn serve``: the web app on a SQLite file (default) or a PostgreSQL database."""

from __future__ import annotations

import socket

import typer

from warhorn.cli.common import console, fail


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (e.g. the port is taken), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        return f"cannot listen on {host}:{port}: {exc}"
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            return f"cannot listen on {host}:{port}: {reason} (choose another port with --port)"
    return None


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve(
        host: str = typer.Option("127.0.0.1", help="Address to listen on."),
        port: int = typer.Option(8000, help="Port to listen on."),
        database_url: str = typer.Option(
            "sqlite:///./warhorn.sqlite3",
            "--database-url",
            envvar="WARHORN_DATABASE_URL",
            help="sqlite:///FILE (created on first start) or postgresql://user@host/db.",
        ),
        ai_delay: float = typer.Option(
            0.4, min=0.0, max=10.0, help="Seconds before each AI action, so people can follow the play."
        ),
        access_log: bool = typer.Option(
            False,
            "--access-log/--no-access-log",
            help="Log every request. Off by default: seat URLs hold the seats' private tokens, and the "
            "log line costs about a twentieth of the server's time per action under load.",
        ),
        games_per_hour: int | None = typer.Option(
            None,
            min=1,
            max=100_000,
            help="Games one client may create per hour (default: 12 beyond loopback, else no limit).",
        ),
        max_open_games: int | None = typer.Option(
            None,
            min=1,
            max=1_000_000,
            help="Unfinished games kept at once (default: 32 beyond loopback, else no limit).",
        ),
        ai_kinds: str | None = typer.Option(
            None, help="Comma-separated AI kinds a seat may be, e.g. 'random,heuristic' (default: all)."
        ),
        ai_think_seconds: float | None = typer.Option(
            None,
            min=0.01,
            max=600.0,
            help="Seconds an AI seat may think per action (default: 1 beyond loopback, "
            "else the agent's own iteration budget).",
        ),
        ai_workers: int = typer.Option(
            1, min=1, max=64, help="Workers that run AI searches (apart from requests)."
        ),
        ai_pool: str | None = typer.Option(
            None,
            help="Where AI searches run: 'threads' (in the server process) or 'processes' (forked workers, "
            "so a search never holds the server's interpreter lock; the default).",
        ),
    ) -> None:
        """Serve the web app: lobby at / and one private page per human seat."""
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import SQLAlchemyError

        from warhorn.server import create_app, serving
        from warhorn.server.database import normalise_database_url
        from warhorn.server.hub import seat_kinds
        from warhorn.server.limits import ServerLimits
        from warhorn.server.migrations import migrate

        if ai_pool not in (None, "threads", "processes"):
            raise fail(f"--ai-pool: {ai_pool!r} is neither 'threads' nor 'processes'")
        kinds = None
        if ai_kinds is not None:
            kinds = frozenset(k.strip() for k in ai_kinds.split(",") if k.strip())
            unknown = sorted(kinds - set(seat_kinds()))
            if unknown:
                raise fail(
                    f"--ai-kinds: unknown AI kind {unknown[0]!r} (known: {', '.join(seat_kinds()[1:])})"
                )
        limits = ServerLimits.for_host(
            host,
            games_per_client_per_hour=games_per_hour,
            max_open_games=max_open_games,
            ai_kinds=kinds,
            ai_think_seconds=ai_think_seconds,
            ai_workers=ai_workers,
            ai_pool=ai_pool,
        )
        try:
            parsed = normalise_database_url(database_url)
            web_app = create_app(database_url, ai_delay=ai_delay, limits=limits)
        except ValueError as exc:
            raise fail(str(exc)) from None
        except OSError as exc:  # the SQLite file's folder cannot be made
            raise _storage_failure(parsed.render_as_string(hide_password=True), exc) from None
        problem = port_problem(host, port)
        if problem is not None:
            raise fail(problem)
        try:
            if parsed.get_backend_name() == "sqlite":  # a PostgreSQL server is contacted once serving
                migrate(web_app.state.store.engine)
        except (OSError, SQLAlchemyError) as exc:
            raise _storage_failure(parsed.render_as_string(hide_password=True), exc) from None
        _freeze_loaded_objects()
        shown = "localhost" if host in {"127.0.0.1", "0.0.0.0", "::"} else host
        console.print(
            f"\nwarhorn web app: open http://{shown}:{port}/ in a browser\n", highlight=False, soft_wrap=True
        )
        if host in {"0.0.0.0", "::"}:
            console.print(
                f"  (also reachable from other machines on port {port})", highlight=False, soft_wrap=True
            )
        if limits != ServerLimits(ai_workers=limits.ai_workers, ai_pool=limits.ai_pool):
            console.print(
                f"  limits: {limits.games_per_client_per_hour or 'any number of'} games per client per hour, "
                f"{limits.max_open_games or 'any number of'} open games, AI thinking "
                f"{f'{limits.ai_think_seconds:g} s' if limits.ai_think_seconds else 'unbounded'} per action, "
                f"AI kinds {', '.join(sorted(limits.ai_kinds)) if limits.ai_kinds is not None else 'all'}",
                highlight=False,
                soft_wrap=True,
            )
        database = make_url(database_url).render_as_string(hide_password=True)
        console.print(
            f"  games are kept in {database}; Ctrl+C stops the server\n", highlight=False, soft_wrap=True
        )
        serving.run_server(
            web_app,
            host=host,
            port=port,
            log_level="info",
            access_log=access_log,
            timeout_graceful_shutdown=3,
        )


def _storage_failure(database: str, exc: BaseException) -> BaseException:
    """The one-line error for a database that cannot be used at start (the exception itself if it is no
    storage failure)."""
    from warhorn.server.database import storage_problem

    problem = storage_problem(exc)
    if problem is None:
        return exc
    return fail(f"cannot use the database {database}: {problem}")


#: The garbage collector's first threshold in the server process (Python's default is 700).
GC_YOUNG_THRESHOLD = 10_000


def _freeze_loaded_objects() -> None:
    """Take everything loaded so far (modules, the registered games) out of the garbage collector's view.

    A full collection then scans only what the server builds while it runs (the live games), so its
    pauses, which stall every request, are shorter: under the load test the median one went from about
    250 ms to about 90 ms (docs/benchmarks.md). Done here, in the server process only, not in
    ``create_app``: a process that builds many apps (the tests) would keep their garbage forever.
    """
    import gc

    from warhorn.engine import registered_games

    registered_games()  # imports the built-in games now, so they are frozen too
    gc.collect()
    gc.freeze()
    # A young generation of 10,000 objects (instead of 700): a request's short-lived objects (a
    # Nerath view, its JSON) then mostly die before a collection sees them, fewer survive into the
    # older generations, and the full collections come several times less often (docs/benchmarks.md).
    gc.set_threshold(GC_YOUNG_THRESHOLD, 10, 10)
