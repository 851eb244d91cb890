"""Batch play: many seeded games between agents, in parallel processes, one JSON record per game.

Fair seating. Games come in *blocks* that share one deal (one game seed):
within a block the same agents play every rotation of the same seating, so
each of them holds each seat once and seat and deal luck even out (common
random numbers). With ``m`` agents and an ``n``-player game:

- ``m >= n``: a block is ``n`` games, the rotations of one ordered choice of
  ``n`` distinct agents; successive blocks run through every such choice
  (up to rotation), ordered so that agents take part as evenly as possible;
- ``m < n``: agents alternate around the table and a block is the ``m``
  rotations (two agents in a four-player game: A B A B, then B A B A).

Game ``i``'s seating comes from this cycle; its game seed derives from the
tournament seed and its block, each seat's agent generator from the
tournament seed and ``i``. So a game's result depends on nothing but the
tournament seed, the agents and ``i`` (with iteration budgets) — whatever
the number of processes.

A worker process needs the game registered. Built-in games register on
lookup; others (test fixtures, plug-ins) are named as ``module:function``
``setup`` entries, called once in each worker before the first game.
"""

from __future__ import annotations

import importlib
import itertools
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from warhorn.ai import Budget, make_agent
from warhorn.engine import GameState, Rng, load_game

GameRecord = dict[str, Any]

_MASK = (1 << 64) - 1


def derive_seed(*parts: int) -> int:
    """A 63-bit seed mixed from integers (SplitMix64 steps), stable across runs and platforms."""
    rng = Rng(0x5EED)
    for part in parts:
        rng.state = (rng.next_u64() ^ (part & _MASK)) & _MASK
    return rng.next_u64() >> 1


#: Above this many seating groups the even-participation ordering is skipped (it is quadratic).
_MAX_ORDERED_GROUPS = 2_000


def seating_blocks(num_agents: int, num_players: int) -> list[list[tuple[int, ...]]]:
    """The blocks of seatings (agent index per seat) a tournament cycles through; see the module doc."""
    if num_agents < 1 or num_players < 1:
        raise ValueError("a tournament needs at least one agent and one seat")
    n = num_players
    if num_agents < n:
        return [[tuple((seat + k) % num_agents for seat in range(n)) for k in range(num_agents)]]
    groups = [p for p in itertools.permutations(range(num_agents), n) if p[0] == min(p)]
    if len(groups) <= _MAX_ORDERED_GROUPS:
        ordered = []
        played = [0] * num_agents
        remaining = groups
        while remaining:
            best = min(range(len(remaining)), key=lambda g: sum(played[a] for a in remaining[g]))
            group = remaining.pop(best)
            for agent in group:
                played[agent] += 1
            ordered.append(group)
        groups = ordered
    return [[tuple(group[(seat + k) % n] for seat in range(n)) for k in range(n)] for group in groups]


def seatings(num_agents: int, num_players: int) -> list[tuple[int, ...]]:
    """Every seating of the cycle, block after block."""
    return [seating for block in seating_blocks(num_agents, num_players) for seating in block]


def agent_labels(specs: Iterable[str]) -> list[str]:
    """Agent specs as result labels; a spec listed twice becomes ``spec#1``, ``spec#2``."""
    specs = [s.strip() for s in specs]
    counts = {s: specs.count(s) for s in specs}
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        if counts[spec] > 1:
            seen[spec] = seen.get(spec, 0) + 1
            labels.append(f"{spec}#{seen[spec]}")
        else:
            labels.append(spec)
    return labels


@dataclass(frozen=True, slots=True)
class GameJob:
    """Everything one worker needs to play game ``index`` (picklable)."""

    game: str
    options: dict[str, Any]
    index: int
    game_seed: int
    agent_seed: int
    seat_specs: tuple[str, ...]
    seat_labels: tuple[str, ...]
    budget: Budget | None
    max_actions: int | None
    setup: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TournamentPlan:
    """The games of a tournament: built by :func:`plan_tournament`, played by :func:`run_tournament`."""

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    labels: tuple[str, ...]
    num_players: int
    seatings: tuple[tuple[int, ...], ...]
    block_size: int
    jobs: tuple[GameJob, ...] = field(repr=False)


def plan_tournament(
    game: str,
    agents: Iterable[str],
    games: int,
    *,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    budget: Budget | None = None,
    max_actions: int | None = None,
    setup: Iterable[str] = (),
    teams: Sequence[Sequence[int]] | None = None,
) -> TournamentPlan:
    """Check the agents and options (ValueError / WarhornError name the culprit) and lay out the games.

    ``teams`` groups seats that one agent holds together (Nerath's alliance
    mode: ``[(0, 2), (1, 3)]``); seating then rotates over teams instead of
    seats. Every seat must be in exactly one team.
    """
    setup = tuple(setup)
    run_setup(setup)
    specs = tuple(a.strip() for a in agents if a.strip())
    if not specs:
        raise ValueError("name at least one agent")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    for spec in specs:
        make_agent(spec, budget)  # refuse unknown kinds and bad parameters before any game starts
    labels = tuple(agent_labels(specs))
    first = load_game(game, seed=derive_seed(seed, 0), **(options or {}))
    resolved = dict(first.options)
    n = first.num_players
    groups = _check_teams(teams, n)
    blocks = seating_blocks(len(specs), len(groups))
    block_size = len(blocks[0])
    plan_seatings = tuple(_expand(seating, groups, n) for block in blocks for seating in block)
    jobs = []
    for index in range(games):
        seating = plan_seatings[index % len(plan_seatings)]
        jobs.append(
            GameJob(
                game=game,
                options=resolved,
                index=index,
                game_seed=derive_seed(seed, index // block_size),
                agent_seed=derive_seed(seed, index, 1),
                seat_specs=tuple(specs[a] for a in seating),
                seat_labels=tuple(labels[a] for a in seating),
                budget=budget,
                max_actions=max_actions,
                setup=setup,
            )
        )
    return TournamentPlan(game, resolved, specs, labels, n, plan_seatings, block_size, tuple(jobs))


def _check_teams(teams: Sequence[Sequence[int]] | None, seats: int) -> list[tuple[int, ...]]:
    if teams is None:
        return [(seat,) for seat in range(seats)]
    groups = [tuple(team) for team in teams]
    flat = sorted(seat for team in groups for seat in team)
    if flat != list(range(seats)) or any(not team for team in groups):
        raise ValueError(f"teams {groups} must split the seats 0..{seats - 1}, each seat in exactly one team")
    return groups


def _expand(seating: tuple[int, ...], groups: list[tuple[int, ...]], seats: int) -> tuple[int, ...]:
    """Agent per seat from agent per team."""
    out = [0] * seats
    for team, agent in zip(groups, seating, strict=True):
        for seat in team:
            out[seat] = agent
    return tuple(out)


_done_setup: set[str] = set()


def run_setup(entries: Iterable[str]) -> None:
    """Call each ``module:function`` (or import each ``module``) once per process."""
    for entry in entries:
        if entry in _done_setup:
            continue
        module_name, _, function = entry.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise ValueError(f"setup {entry!r}: cannot import {module_name!r} ({exc})") from None
        if function:
            target = getattr(module, function, None)
            if not callable(target):
                raise ValueError(f"setup {entry!r}: {module_name} has no function {function!r}")
            target()
        _done_setup.add(entry)


def _rounds_seen(events: Iterable[Any], rounds: int | None) -> int | None:
    for event in events:
        kind = event.kind
        if kind == "flow.round":
            value = event.data.get("round")
            if isinstance(value, int):
                rounds = max(rounds or 1, value)
        elif rounds is None and kind.startswith("flow."):
            rounds = 1
    return rounds


def play_game(job: GameJob) -> GameRecord:
    """Play one game to its end (or the action limit) and return its record.

    The record: game, rules_version, content_hash, options, cooperative (the
    game's players win or lose together), index, seed, seats (agent labels by
    seat), roles (what each seat plays: ``GameState.seat_roles()``),
    score_by_round (each seat's ``player_scores()`` as each round began, then
    at the end; None when the game keeps no score), first_seat (the seat that
    decided first), final_stage (``GameState.stage_name()`` at the end), result
    (``Results.to_json()`` or None when unfinished), actions, rounds (from the
    turn flow's events, else the game's ``rounds_played()``; None when the game
    counts no rounds), duration_s, decisions and think_s (per seat: how many
    decisions its agent took and the seconds it spent on them), and error
    (None, or why the game stopped: an agent's exception or the action limit).
    """
    run_setup(job.setup)
    started = time.perf_counter()
    state: GameState = load_game(job.game, seed=job.game_seed, **job.options)
    agents = [make_agent(spec, job.budget) for spec in job.seat_specs]
    if len(agents) != state.num_players:
        raise ValueError(f"{len(agents)} seats for a {state.num_players}-player game")
    seat_rngs = [Rng(derive_seed(job.agent_seed, seat)) for seat in range(len(agents))]
    limit = job.max_actions if job.max_actions is not None else state.spec.max_actions
    actions = 0
    decisions = [0] * len(agents)
    think = [0.0] * len(agents)
    rounds: int | None = None
    error: str | None = None
    roles = state.seat_roles()
    first = state.pending()
    first_seat = first.player if first is not None else None
    # score_by_round[r]: each seat's score when round r + 1 began (the last entry: at the end)
    score_by_round: list[list[float]] = []
    sampled_round = 0
    while True:
        current_round = rounds if rounds is not None else state.rounds_played()
        if current_round is not None and current_round > sampled_round:
            scores = state.player_scores()
            if scores is not None:
                score_by_round.append([float(scores.get(p, 0.0)) for p in range(state.num_players)])
            sampled_round = current_round
        decision = state.pending()
        if decision is None:
            break
        if actions >= limit:
            error = f"stopped at the action limit ({limit})"
            break
        seat = decision.player
        try:
            thinking = time.perf_counter()
            action = agents[seat].choose(state, seat, seat_rngs[seat])
            think[seat] += time.perf_counter() - thinking
            decisions[seat] += 1
            state, events = state.apply(action)
        except Exception as exc:  # a faulty agent or game must not end the tournament
            error = f"seat {seat} ({job.seat_labels[seat]}): {type(exc).__name__}: {exc}"
            break
        actions += 1
        rounds = _rounds_seen(events, rounds)
    if rounds is None:
        rounds = state.rounds_played()
    results = state.results()
    final_scores = state.player_scores()
    if final_scores is not None:
        score_by_round.append([float(final_scores.get(p, 0.0)) for p in range(state.num_players)])
    return {
        "game": job.game,
        "rules_version": state.spec.rules_version,
        "content_hash": state.content_hash,
        "options": job.options,
        "cooperative": state.spec.cooperative,
        "index": job.index,
        "seed": job.game_seed,
        "seats": list(job.seat_labels),
        "roles": roles,
        "first_seat": first_seat,
        "final_stage": state.stage_name(),
        "score_by_round": score_by_round if final_scores is not None else None,
        "result": results.to_json() if results is not None else None,
        "actions": actions,
        "rounds": rounds,
        "duration_s": round(time.perf_counter() - started, 4),
        "decisions": decisions,
        "think_s": [round(t, 4) for t in think],
        "error": error,
    }


def _play_chunk(jobs: list[GameJob]) -> list[GameRecord]:
    return [play_game(job) for job in jobs]


def _chunks(jobs: tuple[GameJob, ...], size: int) -> Iterator[list[GameJob]]:
    for start in range(0, len(jobs), size):
        yield list(jobs[start : start + size])


def run_tournament(
    plan: TournamentPlan,
    *,
    jobs: int = 1,
    backend: str = "local",
    on_record: Callable[[GameRecord], None] | None = None,
    chunk_size: int | None = None,
) -> list[GameRecord]:
    """Play every game of ``plan``; records come back ordered by game index.

    ``jobs``: worker processes (1 plays in this process). ``backend``:
    ``"local"`` (a process pool on this machine) or ``"ray"`` (needs ``ray``
    installed; uses the running or a new local Ray cluster). ``on_record`` is
    called in this process as each game finishes (in finishing order).
    """
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    if backend == "ray":
        records = _run_ray(plan, jobs, on_record)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r} (known: local, ray)")
    elif jobs == 1:
        records = []
        for job in plan.jobs:
            record = play_game(job)
            records.append(record)
            if on_record is not None:
                on_record(record)
    else:
        size = chunk_size or max(1, min(8, len(plan.jobs) // (jobs * 4)))
        records = []
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            pending: set[Future[list[GameRecord]]] = {
                pool.submit(_play_chunk, chunk) for chunk in _chunks(plan.jobs, size)
            }
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    for record in future.result():
                        records.append(record)
                        if on_record is not None:
                            on_record(record)
    records.sort(key=lambda r: int(r["index"]))
    return records


def ray_available() -> bool:
    try:
        importlib.import_module("ray")
    except ImportError:
        return False
    return True


def _run_ray(
    plan: TournamentPlan, jobs: int, on_record: Callable[[GameRecord], None] | None
) -> list[GameRecord]:
    """Play the games as Ray tasks: on the cluster named by ``RAY_ADDRESS`` (or one already joined), or on a
    local Ray instance started here with ``jobs`` CPUs whose workers import modules as this process does
    (so a ``--setup`` module beside the caller is found)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ValueError("the ray backend needs ray installed (pip install 'warhorn[ray]')") from None
    if not ray.is_initialized():
        if os.environ.get("RAY_ADDRESS"):
            ray.init()
        else:
            paths = [str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir()]
            ray.init(
                num_cpus=jobs,
                include_dashboard=False,
                runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}},
            )
    remote_play = ray.remote(play_game)
    waiting = [remote_play.remote(job) for job in plan.jobs]
    records: list[GameRecord] = []
    while waiting:
        ready, waiting = ray.wait(waiting, num_returns=1)
        for record in ray.get(ready):
            records.append(record)
            if on_record is not None:
                on_record(record)
    return records


def write_records(records: Iterable[GameRecord], path: Path) -> None:
    """One JSON object per line, keys sorted."""
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, sort_keys=True) + "\n")


class _RecordShape(pydantic.BaseModel):
    """The fields of a game record that reports read; a record may carry more."""

    model_config = pydantic.ConfigDict(extra="allow")

    seats: list[str]
    actions: int
    result: dict[str, Any] | None = None
    error: str | None = None
    rounds: int | None = None


def read_records(path: Path) -> list[GameRecord]:
    """The records of a ``.jsonl`` file written by :func:`write_records`.

    A line that is not JSON, or not a game record (seats, actions, result), is refused with its line
    number (:class:`ValueError`), so reports never start on data they cannot read.
    """
    records = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
            try:
                _RecordShape.model_validate(record)
            except pydantic.ValidationError as exc:
                first = exc.errors()[0]
                where = ".".join(str(p) for p in first["loc"]) or "(the line)"
                raise ValueError(f"{path}:{number}: not a game record: {where}: {first['msg']}") from None
            records.append(record)
    return records
