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
import multiprocessing
import os
import queue
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pydantic

from warhorn.ai import Budget, make_agent
from warhorn.engine import GameState, Rng, content_support, load_game

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
    #: A content folder to play with instead of the shipped content (None: the shipped content).
    content: str | None = None


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
    #: The content's hash (``GameState.content_hash``) every game of the plan is played with.
    content_hash: str | None = None


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
    content: Path | str | None = None,
) -> TournamentPlan:
    """Check the agents and options (ValueError / WarhornError name the culprit) and lay out the games.

    ``teams`` groups seats that one agent holds together (Nerath's alliance
    mode: ``[(0, 2), (1, 3)]``); seating then rotates over teams instead of
    seats. Every seat must be in exactly one team. ``content``: a content
    folder every game is played with (checked here; each worker loads it once).
    """
    setup = tuple(setup)
    run_setup(setup)
    content_path = str(Path(content).resolve()) if content is not None else None
    specs = tuple(a.strip() for a in agents if a.strip())
    if not specs:
        raise ValueError("name at least one agent")
    if games < 1:
        raise ValueError(f"the number of games must be at least 1, got {games}")
    for spec in specs:
        make_agent(spec, budget)  # refuse unknown kinds and bad parameters before any game starts
    labels = tuple(agent_labels(specs))
    first = load_game(
        game, seed=derive_seed(seed, 0), content=load_content(game, content_path), **(options or {})
    )
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
                content=content_path,
            )
        )
    return TournamentPlan(
        game, resolved, specs, labels, n, plan_seatings, block_size, tuple(jobs), first.content_hash
    )


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
_loaded_content: dict[tuple[str, str], Any] = {}


def load_content(game: str, folder: str | None) -> Any:
    """The content object of ``folder`` for ``game`` (None: the shipped content), loaded once per process."""
    if folder is None:
        return None
    key = (game, folder)
    if key not in _loaded_content:
        support = content_support(game)
        if support is None:
            raise ValueError(f"{game} takes no content folder (content {folder!r})")
        if not Path(folder).is_dir():
            raise ValueError(f"content {folder!r} is not a folder")
        _loaded_content[key] = support.load_folder(Path(folder))
    return _loaded_content[key]


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
    seat), roles (what each seat plays: ``GameState.seat_roles()`` at the start; None when a seat has
    no role yet), roles_played (per seat, every role it held, sampled as each round began and at the end,
    in order: Small World's race and power combinations; None when the game has no roles),
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
    state: GameState = load_game(
        job.game, seed=job.game_seed, content=load_content(job.game, job.content), **job.options
    )
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
    roles_played: list[list[str]] | None = None

    def sample_roles() -> None:
        nonlocal roles_played
        held = state.seat_roles()
        if held is None:
            return
        if roles_played is None:
            roles_played = [[] for _ in held]
        for seat, role in enumerate(held):
            if role and role not in roles_played[seat]:
                roles_played[seat].append(role)

    sample_roles()
    if roles is not None and not all(roles):
        roles = None
    first = state.pending()
    first_seat = first.player if first is not None else None
    # score_by_round[r]: each seat's score when round r + 1 began (the last entry: at the end)
    score_by_round: list[list[float]] = []
    sampled_round = 0
    while True:
        current_round = rounds if rounds is not None else state.rounds_played()
        if current_round is not None and current_round > sampled_round:
            sample_roles()
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
    sample_roles()
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
        "roles_played": roles_played,
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


#: In a pool worker: where each record goes as its game finishes (set by :func:`_init_worker`).
_record_queue: Any = None


def _init_worker(records: Any) -> None:
    global _record_queue
    _record_queue = records


def _play_chunk(jobs: list[GameJob]) -> int:
    """Play a chunk of games in a pool worker, sending each record back as soon as its game ends."""
    for job in jobs:
        _record_queue.put(play_game(job))
    return len(jobs)


def _play_games(jobs: list[GameJob]) -> list[GameRecord]:
    """A Ray task: play a chunk of games and return their records."""
    return [play_game(job) for job in jobs]


def _next_record(finished_games: Any, chunks: list[Future[int]]) -> GameRecord:
    """The next record a pool worker sends; a worker that failed or died stops the run with its error."""
    while True:
        try:
            record: GameRecord = finished_games.get(timeout=0.5)
            return record
        except queue.Empty:
            pass
        for chunk in chunks:
            error = chunk.exception() if chunk.done() else None
            if error is not None:
                raise error


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
    address: str | None = None,
    done: Iterable[GameRecord] = (),
) -> list[GameRecord]:
    """Play every game of ``plan``; records come back ordered by game index.

    ``jobs``: worker processes (1 plays in this process). ``chunk_size``: games
    per task (local pool: by default up to 8, records still stream back one by
    one; Ray: by default 1, a chunk's records come back together). ``backend``:
    ``"local"`` (a process pool on this machine) or ``"ray"`` (needs ``ray``
    installed): with ``address`` (``auto``, ``HOST:PORT`` of a cluster's head,
    or ``ray://HOST:10001`` for Ray Client) it joins that running cluster,
    else the cluster named by ``RAY_ADDRESS``, else a local Ray instance
    started here. ``on_record`` is called in this process as each game
    finishes (in finishing order). ``done``: records of this plan already
    played (a resumed run, see :func:`resume_records`); their games are not
    played again and the records are returned with the new ones.
    """
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, got {jobs}")
    if address is not None and backend != "ray":
        raise ValueError(f"--address {address!r} joins a Ray cluster: use it with --backend ray")
    records = list(done)
    played = {int(r["index"]) for r in records}
    todo = tuple(job for job in plan.jobs if job.index not in played)

    def collect(record: GameRecord) -> None:
        records.append(record)
        if on_record is not None:
            on_record(record)

    if backend == "ray":
        _run_ray(todo, jobs, collect, address, chunk_size or 1)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r} (known: local, ray)")
    elif jobs == 1 or len(todo) <= 1:
        for job in todo:
            collect(play_game(job))
    else:
        size = chunk_size or max(1, min(8, len(todo) // (jobs * 4)))
        context = multiprocessing.get_context()
        finished_games: Any = context.Queue()
        with ProcessPoolExecutor(
            max_workers=jobs, mp_context=context, initializer=_init_worker, initargs=(finished_games,)
        ) as pool:
            chunks: list[Future[int]] = [pool.submit(_play_chunk, chunk) for chunk in _chunks(todo, size)]
            for _ in todo:  # a record streams back as each game ends, whatever the chunk
                collect(_next_record(finished_games, chunks))
    records.sort(key=lambda r: int(r["index"]))
    return records


def ray_available() -> bool:
    try:
        importlib.import_module("ray")
    except ImportError:
        return False
    return True


#: How many times a local Ray instance is started before giving up: Ray gives its raylet a fixed 30 s to
#: register with the head, which a loaded machine can miss ("The current node timed out during startup").
LOCAL_RAY_START_ATTEMPTS = 3


def start_local_ray(ray: Any, jobs: int, attempts: int = LOCAL_RAY_START_ATTEMPTS) -> None:
    """Start a local Ray instance with ``jobs`` CPUs whose workers import modules as this process does;
    a start that times out is shut down and tried again, up to ``attempts`` times."""
    paths = [str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir()]
    for attempt in range(1, attempts + 1):
        try:
            ray.init(
                num_cpus=jobs,
                include_dashboard=False,
                runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(paths)}},
            )
            return
        except Exception as exc:  # Ray raises a bare Exception when its node does not come up in time
            ray.shutdown()
            if attempt == attempts:
                message = f"could not start a local Ray instance ({attempts} attempts): {exc}"
                raise ValueError(message) from None


def join_ray_cluster(ray: Any, address: str, attempts: int = LOCAL_RAY_START_ATTEMPTS) -> None:
    """Join the Ray cluster at ``address``; a join that fails (a Ray Client server that did not start in
    time on a loaded head, a head still coming up) is tried again, up to ``attempts`` times, then one
    clear error."""
    for attempt in range(1, attempts + 1):
        try:
            ray.init(address=address, log_to_driver=False)
            return
        except (ConnectionError, RuntimeError, ValueError) as exc:
            ray.shutdown()
            if attempt == attempts:
                raise ValueError(f"--address {address!r}: cannot join a Ray cluster there ({exc})") from None


def _run_ray(
    jobs_to_play: tuple[GameJob, ...],
    jobs: int,
    collect: Callable[[GameRecord], None],
    address: str | None,
    chunk_size: int = 1,
) -> None:
    """Play the games as Ray tasks of ``chunk_size`` games each (retried if a worker dies: a game is
    deterministic), at most a few tasks per cluster CPU in flight; a chunk's records come back together.

    ``address``: join that running cluster (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``); its nodes must
    have warhorn (and any ``--setup`` module) installed. Without it: the cluster named by ``RAY_ADDRESS``
    or one already joined, else a local Ray instance started here with ``jobs`` CPUs whose workers import
    modules as this process does (so a ``--setup`` module beside the caller is found)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ValueError("the ray backend needs ray installed (pip install 'warhorn[ray]')") from None
    if not ray.is_initialized():
        if address is not None:
            join_ray_cluster(ray, address)
        elif os.environ.get("RAY_ADDRESS"):
            ray.init()
        else:
            start_local_ray(ray, jobs)
    remote_play = ray.remote(max_retries=3)(_play_games)
    # a bounded window of tasks in flight (a few per CPU of the cluster), so that a million games are never
    # a million pending tasks and object references in this process
    window = max(16, 4 * int(ray.cluster_resources().get("CPU", jobs)))
    chunks = _chunks(jobs_to_play, chunk_size)
    waiting = [remote_play.remote(chunk) for chunk in itertools.islice(chunks, window)]
    while waiting:
        ready, waiting = ray.wait(waiting, num_returns=min(len(waiting), 64), timeout=1.0)
        waiting += [remote_play.remote(chunk) for chunk in itertools.islice(chunks, len(ready))]
        for records in ray.get(ready):
            for record in records:
                collect(record)


def write_records(records: Iterable[GameRecord], path: Path) -> None:
    """One JSON object per line, keys sorted."""
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(record, sort_keys=True) + "\n")


class RecordStream:
    """Appends each record to a ``.jsonl`` file as its game finishes (flushed line by line), so a killed
    run loses at most the games still being played; :meth:`close` rewrites the file ordered by index.

    Used as a context manager; ``records`` are written first (a resumed run's old records, kept as read).
    """

    def __init__(self, path: Path, records: Iterable[GameRecord] = ()) -> None:
        self.path = path
        self._out = path.open("w", encoding="utf-8")
        for record in records:
            self.write(record)

    def write(self, record: GameRecord) -> None:
        self._out.write(json.dumps(record, sort_keys=True) + "\n")
        self._out.flush()

    def close(self, records: Iterable[GameRecord] | None = None) -> None:
        """Close the stream; with ``records`` (the finished run), write them ordered by index instead."""
        self._out.close()
        if records is not None:
            temporary = self.path.with_name(self.path.name + ".tmp")
            write_records(sorted(records, key=lambda r: int(r["index"])), temporary)
            temporary.replace(self.path)

    def __enter__(self) -> RecordStream:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._out.closed:
            self._out.close()


def resume_records(path: Path, plan: TournamentPlan) -> list[GameRecord]:
    """The records of ``plan`` already in ``path`` (a run that was stopped): each must be one of the plan's
    games (its index, deal seed and seating), or :class:`ValueError` says the file belongs to another run.

    A last line cut short by the kill is dropped (its game is played again); a game recorded twice is kept
    once. A missing file holds no records.
    """
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    by_index: dict[int, GameRecord] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            if number == len(lines):
                break  # the line being written when the run was killed
            raise ValueError(f"{path}:{number}: not a JSON line; cannot resume from it") from None
        index = record.get("index") if isinstance(record, dict) else None
        if not isinstance(index, int) or not 0 <= index < len(plan.jobs):
            raise ValueError(
                f"{path}:{number}: game index {index!r} is not one of this run's {len(plan.jobs)} games"
            )
        job = plan.jobs[index]
        if (
            record.get("game") != plan.game
            or record.get("seed") != job.game_seed
            or record.get("seats") != list(job.seat_labels)
            or record.get("options") != job.options
            or (plan.content_hash is not None and record.get("content_hash") != plan.content_hash)
        ):
            raise ValueError(
                f"{path}:{number}: game {index} was played with another game, seed, options, content or "
                "agents than this run's: resume with the same arguments, or write to a new file"
            )
        by_index.setdefault(index, record)
    return [by_index[i] for i in sorted(by_index)]


#: The Parquet columns: one row per game; nested parts (options, result, scores) as JSON text or lists.
_PARQUET_COLUMNS = (
    "game", "rules_version", "content_hash", "index", "seed", "seats", "roles", "winners", "reason",
    "finished", "actions", "rounds", "first_seat", "final_stage", "duration_s", "decisions", "think_s",
    "error", "cooperative", "options_json", "result_json", "score_by_round",
)  # fmt: skip


def parquet_rows(records: Iterable[GameRecord]) -> list[dict[str, Any]]:
    """Records as flat rows (the Parquet columns): winners and the end reason lifted out of the result."""
    rows = []
    for record in records:
        result = record.get("result")
        rows.append(
            {
                "game": record.get("game"),
                "rules_version": None
                if record.get("rules_version") is None
                else str(record["rules_version"]),
                "content_hash": record.get("content_hash"),
                "index": record.get("index"),
                "seed": record.get("seed"),
                "seats": list(record.get("seats") or []),
                "roles": record.get("roles"),
                "winners": [int(w) for w in result.get("winners", [])] if result else None,
                "reason": result.get("reason") if result else None,
                "finished": result is not None,
                "actions": record.get("actions"),
                "rounds": record.get("rounds"),
                "first_seat": record.get("first_seat"),
                "final_stage": record.get("final_stage"),
                "duration_s": record.get("duration_s"),
                "decisions": record.get("decisions"),
                "think_s": record.get("think_s"),
                "error": record.get("error"),
                "cooperative": bool(record.get("cooperative")),
                "options_json": json.dumps(record.get("options", {}), sort_keys=True),
                "result_json": json.dumps(result, sort_keys=True) if result is not None else None,
                "score_by_round": record.get("score_by_round"),
            }
        )
    return rows


def write_parquet(records: Iterable[GameRecord], path: Path) -> None:
    """The records as a Parquet table (pyarrow, the ``sim`` extra) for pandas, Polars or DuckDB."""
    try:
        pa: Any = importlib.import_module("pyarrow")
        pq: Any = importlib.import_module("pyarrow.parquet")
    except ImportError:
        raise ValueError("Parquet output needs pyarrow (pip install 'warhorn[sim]')") from None
    schema = pa.schema(
        [
            ("game", pa.string()),
            ("rules_version", pa.string()),
            ("content_hash", pa.string()),
            ("index", pa.int64()),
            ("seed", pa.int64()),
            ("seats", pa.list_(pa.string())),
            ("roles", pa.list_(pa.string())),
            ("winners", pa.list_(pa.int64())),
            ("reason", pa.string()),
            ("finished", pa.bool_()),
            ("actions", pa.int64()),
            ("rounds", pa.int64()),
            ("first_seat", pa.int64()),
            ("final_stage", pa.string()),
            ("duration_s", pa.float64()),
            ("decisions", pa.list_(pa.int64())),
            ("think_s", pa.list_(pa.float64())),
            ("error", pa.string()),
            ("cooperative", pa.bool_()),
            ("options_json", pa.string()),
            ("result_json", pa.string()),
            ("score_by_round", pa.list_(pa.list_(pa.float64()))),
        ]
    )
    assert tuple(schema.names) == _PARQUET_COLUMNS
    table = pa.Table.from_pylist(parquet_rows(records), schema=schema)
    pq.write_table(table, path)


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
