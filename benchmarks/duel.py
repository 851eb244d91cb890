"""What the AI benchmark scripts share: one seeded game of an agent against the heuristic with the CPU
time of each searched decision, and writing one JSON line per game as games finish (in this process or
a process pool). Imported by the scripts beside it (``python benchmarks/<script>.py`` puts this folder
on the import path)."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from warhorn.ai import MCTSAgent, make_agent
from warhorn.engine import Results, Rng, load_game

Job = TypeVar("Job")


@dataclass(frozen=True)
class Duel:
    """A finished two-player game of ``agent`` (in seat ``agent_seat``) against the heuristic."""

    results: Results
    agent_seat: int
    decisions: int  # the agent's decisions
    searched_cpu: list[float]  # process CPU seconds of each decision that ran a search


def duel_against_heuristic(game_id: str, agent: str, game: int, seed: int, **options: Any) -> Duel:
    """Game number ``game`` (the agent in seat ``game % 2``) from ``seed``, each seat with its own dice
    derived from the seed; a decision that is a single legal action, or a root the prior decides alone,
    is not a search and has no CPU time recorded."""
    me = game % 2
    state = load_game(game_id, seed=seed, players=2, **options)
    agents = [make_agent(agent), make_agent("heuristic")]
    if me == 1:
        agents.reverse()
    rngs = [Rng(2 * seed + 1), Rng(2 * seed + 2)]
    cpu: list[float] = []
    decisions = 0
    while (decision := state.pending()) is not None:
        player = decision.player
        started = time.process_time()
        action = agents[player].choose(state, player, rngs[player])
        took = time.process_time() - started
        if player == me:
            decisions += 1
            search = getattr(agents[me], "last", None)
            if isinstance(agents[me], MCTSAgent) and search is not None and search.iterations > 0:
                cpu.append(round(took, 4))
        state, _ = state.apply(action)
    results = state.results()
    assert results is not None
    return Duel(results, me, decisions, cpu)


def append_records(
    play_one: Callable[[Job], dict[str, Any]], work: Sequence[Job], jobs: int, out: Path, chunksize: int = 1
) -> None:
    """Play every job (in a pool of ``jobs`` processes when more than one) and append each record to
    ``out`` as one JSON line as soon as it is there, so an interrupted run keeps what it played."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as sink:
        if jobs <= 1:
            for job in work:
                sink.write(json.dumps(play_one(job)) + "\n")
                sink.flush()
            return
        with ProcessPoolExecutor(jobs) as pool:
            for record in pool.map(play_one, work, chunksize=chunksize):
                sink.write(json.dumps(record) + "\n")
                sink.flush()


def print_searched_cpu(records: Sequence[dict[str, Any]]) -> None:
    """The CPU seconds per searched decision of the agent over ``records`` (median, mean, 95th percentile,
    maximum), when any decision ran a search."""
    cpu = sorted(t for r in records for t in r["searched_cpu"])
    decisions = sum(r["mcts_decisions"] for r in records)
    if cpu:
        p95 = cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]
        print(
            f"CPU seconds per searched decision ({len(cpu)} of {decisions} MCTS decisions searched): "
            f"median {statistics.median(cpu):.2f}, mean {statistics.mean(cpu):.2f}, "
            f"p95 {p95:.2f}, max {cpu[-1]:.2f}"
        )
