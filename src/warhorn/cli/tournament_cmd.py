"""``warhorn tournament GAME --agents A,B,…``: seeded games between agents, with win rates and Elo.

Games run in ``--jobs`` processes; seats rotate fairly (see
:mod:`warhorn.sim.runner`); every game is one JSON line in ``--out``. The
report gives per-agent and per-seat win rates with 95 % Wilson intervals and,
for two or more agents, Elo ratings with bootstrap intervals. The same seed,
agents, options and iteration budgets give the same results.
"""

from __future__ import annotations

import math
import time
from pathlib import Path

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from warhorn.ai import Budget
from warhorn.cli.common import console, parse_options, say_error
from warhorn.engine import WarhornError
from warhorn.sim import plan_tournament, read_records, run_tournament, summarize
from warhorn.sim.runner import GameRecord, RecordStream, TournamentPlan, resume_records, write_parquet
from warhorn.sim.stats import TournamentSummary

MAX_ERRORS_SHOWN = 5


def _elo_bound(value: float) -> str:
    """An interval end; an open end (a clean sweep) is shown as ∞."""
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    return f"{value:.0f}"


def _percent(value: float) -> str:
    return f"{value:.1%}"


def _parse_teams(text: str) -> list[tuple[int, ...]]:
    """``"0+2,1+3"`` → ``[(0, 2), (1, 3)]``."""
    try:
        return [tuple(int(seat) for seat in team.split("+")) for team in text.split(",")]
    except ValueError:
        raise ValueError(f"--teams {text!r} must look like 0+2,1+3 (seat numbers)") from None


def _span(low: float, high: float) -> str:
    return f"{low * 100:.1f}–{high * 100:.1f} %"


def print_summary(summary: TournamentSummary, wall_seconds: float, jobs: int) -> None:
    """The tournament report: the team (cooperative games), agents (win rates, thinking time), Elo, seats,
    and throughput."""
    if summary.team is not None:
        team = summary.team
        console.print(
            f"Team (cooperative: the players win or lose together): {team.wins} wins in {team.games} games, "
            f"{_percent(team.rate)} (95 % CI {_span(team.interval.low, team.interval.high)}); "
            "no Elo between seats",
            highlight=False,
        )
    title = "Agents (games won by a team it sat in)" if summary.team is not None else "Agents"
    agents = Table(title=title, title_justify="left")
    agents.add_column("agent", overflow="fold")
    for column in ("games", "wins", "rate", "95 % CI", "ms/move"):
        agents.add_column(column, justify="right")
    for rate in summary.agents:
        interval = rate.interval
        agents.add_row(
            rate.name,
            str(rate.games),
            str(rate.wins),
            _percent(rate.rate),
            _span(interval.low, interval.high),
            f"{rate.ms_per_decision:.1f}" if rate.decisions else "-",
        )
    console.print(agents)

    if summary.elo is not None:
        ratings = Table(title="Elo (mean 1500, 95 % bootstrap interval)", title_justify="left")
        ratings.add_column("agent", overflow="fold")
        ratings.add_column("Elo", justify="right")
        ratings.add_column("95 % CI", justify="right")
        for rating in sorted(summary.elo, key=lambda r: -r.rating):
            ratings.add_row(
                rating.name,
                f"{rating.rating:.0f}",
                f"{_elo_bound(rating.interval.low)}–{_elo_bound(rating.interval.high)}",
            )
        console.print(ratings)

    seats = Table(title="Seats", title_justify="left")
    for column in ("seat", "games", "wins", "rate", "95 % CI"):
        seats.add_column(column, justify="left" if column == "seat" else "right")
    for rate in summary.seats:
        interval = rate.interval
        seats.add_row(
            rate.name,
            str(rate.games),
            str(rate.wins),
            _percent(rate.rate),
            _span(interval.low, interval.high),
        )
    console.print(seats)

    reasons = ", ".join(f"{reason or 'no reason'}: {count}" for reason, count in summary.end_reasons.items())
    rounds = f", {summary.mean_rounds:.1f} rounds" if summary.mean_rounds is not None else ""
    console.print(
        f"{summary.games} games ({summary.finished} finished, {summary.errors} stopped early); "
        f"mean {summary.mean_actions:.1f} actions{rounds}; ends: {reasons}",
        highlight=False,
    )
    throughput = summary.games / wall_seconds if wall_seconds > 0 else float("inf")
    console.print(
        f"{wall_seconds:.2f} s wall with {jobs} job(s): {throughput:.1f} games/s "
        f"({summary.total_game_seconds:.2f} s of play in total)",
        highlight=False,
    )


def play_plan(
    plan: TournamentPlan,
    *,
    jobs: int,
    backend: str,
    address: str | None,
    out: Path | None,
    resume: bool,
    description: str = "games",
    chunk_size: int | None = None,
) -> list[GameRecord]:
    """Play ``plan`` with a progress bar (done, elapsed, time left), streaming each record to ``out`` as its
    game finishes; with ``resume`` the games already in ``out`` are kept and not played again."""
    done = resume_records(out, plan) if resume and out is not None else []
    if done:
        console.print(
            f"{out}: {len(done)} of {len(plan.jobs)} games already played; playing the rest", highlight=False
        )
    stream = RecordStream(out, done) if out is not None else None
    try:
        with Progress(
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        ) as progress:
            task = progress.add_task(description, total=len(plan.jobs), completed=len(done))

            def advance(record: GameRecord) -> None:
                if stream is not None:
                    stream.write(record)
                progress.advance(task)

            records = run_tournament(
                plan,
                jobs=jobs,
                backend=backend,
                address=address,
                on_record=advance,
                done=done,
                chunk_size=chunk_size,
            )
    except BaseException:
        if stream is not None:
            stream.close()
        raise
    if stream is not None and out is not None:
        stream.close(records)
        console.print(f"wrote {len(records)} records to {out}", highlight=False)
    return records


def register(app: typer.Typer) -> None:
    @app.command("tournament")
    def tournament(
        game: str = typer.Argument(..., help="Game id (see `warhorn games`)."),
        agents: str = typer.Option(
            ..., "--agents", help="Comma list of agent specs, e.g. mcts:iterations=400,random."
        ),
        games: int = typer.Option(100, "--games", "-n", help="Number of games."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes."),
        seed: int = typer.Option(0, "--seed", help="Tournament seed: deals and agents' generators."),
        out: Path | None = typer.Option(None, "--out", help="Write one JSON line per game here."),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option as name=value."),
        budget: str | None = typer.Option(
            None, "--budget", help="Search budget per decision: 400 (iterations), 0.5s, or both."
        ),
        max_actions: int | None = typer.Option(
            None, "--max-actions", help="Stop a game after this many actions (default: the game's limit)."
        ),
        bootstrap: int = typer.Option(200, "--bootstrap", help="Bootstrap resamples for Elo intervals."),
        backend: str = typer.Option("local", "--backend", help="local (process pool) or ray."),
        teams: str | None = typer.Option(
            None, "--teams", help="Seats one agent holds together, e.g. 0+2,1+3 (alliances)."
        ),
        setup: list[str] = typer.Option(
            [], "--setup", help="module:function to call in every worker first (registers plug-in games)."
        ),
        address: str | None = typer.Option(
            None,
            "--address",
            help="With --backend ray: join this Ray cluster (auto, HOST:PORT, ray://HOST:PORT).",
        ),
        resume: bool = typer.Option(
            False, "--resume", help="Keep the games already in --out (a stopped run) and play only the rest."
        ),
        parquet: Path | None = typer.Option(
            None, "--parquet", help="Also write the records as a Parquet table here (pyarrow)."
        ),
        content: Path | None = typer.Option(None, "--content", help="Content folder to play with."),
        chunk: int | None = typer.Option(
            None,
            "--chunk",
            help="Games per task (local default: up to 8; Ray default: 1). Short games want more.",
        ),
    ) -> None:
        """Play GAME between agents over seeded games and report win rates and Elo.

        With --out, each game's record is written as it finishes; --resume continues a stopped run from
        the records already in --out (no game played twice)."""
        try:
            parsed_budget = Budget.parse(budget) if budget is not None else None
            parsed_teams = _parse_teams(teams) if teams is not None else None
            plan = plan_tournament(
                game,
                agents.split(","),
                games,
                seed=seed,
                options=parse_options(option),
                budget=parsed_budget,
                max_actions=max_actions,
                setup=setup,
                teams=parsed_teams,
                content=content,
            )
            if jobs < 1:
                raise ValueError(f"--jobs must be at least 1, got {jobs}")
            if resume and out is None:
                raise ValueError("--resume continues the run recorded in --out: name the file with --out")
        except (WarhornError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None

        seats_text = ", ".join(plan.labels)
        console.print(
            f"{game}: {games} games, {plan.num_players} seats, agents {seats_text}; "
            f"{len(plan.seatings)} seatings, {plan.block_size} games per deal; seed {seed}",
            highlight=False,
        )
        started = time.perf_counter()
        try:
            if chunk is not None and chunk < 1:
                raise ValueError(f"--chunk must be at least 1, got {chunk}")
            records = play_plan(
                plan, jobs=jobs, backend=backend, address=address, out=out, resume=resume, chunk_size=chunk
            )
            if parquet is not None:
                write_parquet(records, parquet)
                console.print(f"wrote {len(records)} rows to {parquet}", highlight=False)
        except (OSError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None
        wall = time.perf_counter() - started
        summary = summarize(records, bootstrap=bootstrap, seed=seed)
        print_summary(summary, wall, jobs)
        failed = [r for r in records if r.get("error") and r.get("result") is None]
        crashed = [r for r in failed if "action limit" not in str(r["error"])]
        for record in crashed[:MAX_ERRORS_SHOWN]:
            say_error(f"game {record['index']}: {record['error']}")
        if crashed:
            raise typer.Exit(1)

    @app.command("tournament-report")
    def tournament_report(
        records_file: Path = typer.Argument(..., help="A .jsonl file written by `warhorn tournament --out`."),
        bootstrap: int = typer.Option(200, "--bootstrap", help="Bootstrap resamples for Elo intervals."),
        seed: int = typer.Option(0, "--seed", help="Seed of the bootstrap."),
    ) -> None:
        """Report win rates, Elo and seats again from a tournament's JSON lines."""
        try:
            records = read_records(records_file)
        except (OSError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None
        if not records:
            say_error(f"{records_file} holds no games")
            raise typer.Exit(2)
        games = {(r.get("game"), r.get("rules_version")) for r in records}
        console.print(
            f"{len(records)} games of {', '.join(f'{g} (rules {v})' for g, v in sorted(games, key=str))}",
            highlight=False,
        )
        summary = summarize(records, bootstrap=bootstrap, seed=seed)
        wall = sum(float(r.get("duration_s", 0.0)) for r in records)
        print_summary(summary, wall, 1)
