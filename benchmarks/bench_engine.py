"""Engine hot paths on a 100-space board, each against a plain baseline measured in the same run.

Run:  python benchmarks/bench_engine.py [--repeat N]

1. reachable-set query (3 moves, with a passability rule) — BoardGraph vs a
   straightforward BFS over a dict of string ids;
2. apply of a trivial action, copy included — GameState.apply vs copy.deepcopy + mutate;
3. save and replay of a 1,000-action log — Match.dumps + Match.from_save.
Prints medians of repeated runs (microseconds or milliseconds).
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from warhorn.engine import (
    Action,
    ActionCodec,
    BoardGraph,
    Decision,
    Event,
    GameSpec,
    GameState,
    Match,
    OptionSpec,
    Results,
    Rng,
    Space,
    register_game,
)

SIDE = 10  # a 10 x 10 grid: 100 spaces


def grid_board() -> BoardGraph:
    spaces = [
        Space(f"r{r}c{c}", "sea" if (r * 7 + c) % 9 == 0 else "land")
        for r in range(SIDE)
        for c in range(SIDE)
    ]
    edges = []
    for r in range(SIDE):
        for c in range(SIDE):
            if c + 1 < SIDE:
                edges.append((f"r{r}c{c}", f"r{r}c{c + 1}"))
            if r + 1 < SIDE:
                edges.append((f"r{r}c{c}", f"r{r + 1}c{c}"))
            if r + 1 < SIDE and c + 1 < SIDE and (r + c) % 3 == 0:
                edges.append((f"r{r}c{c}", f"r{r + 1}c{c + 1}"))
    return BoardGraph(spaces, edges)


BOARD = grid_board()


@dataclass(frozen=True, slots=True)
class Step(Action):
    kind: ClassVar[str] = "step"
    token: int
    to: int


SPEC = GameSpec(
    "bench-walk", "Token walk (benchmark)", "1", 1, 1, True, False, (OptionSpec("tokens", int, 20),)
)


class TokenWalk(GameState):
    """20 tokens on the 100-space board; a step moves one token to a neighbour and rolls a die."""

    spec: ClassVar[GameSpec] = SPEC
    codec: ClassVar[ActionCodec] = ActionCodec([Step])

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.options, self.seed, self.rng = options, seed, Rng(seed)
        self.tokens = [i * 5 % len(BOARD) for i in range(options["tokens"])]
        self.score = 0
        self.moves = 0

    @property
    def num_players(self) -> int:
        return 1

    def pending(self) -> Decision | None:
        return Decision(0, "step", "move a token")

    def legal_actions(self) -> list[Action]:
        return [Step(t, n) for t, here in enumerate(self.tokens) for n in BOARD.neighbors[here]]

    def is_legal(self, action: Action) -> bool:
        return (
            isinstance(action, Step)
            and 0 <= action.token < len(self.tokens)
            and BOARD.adjacent_i(self.tokens[action.token], action.to)
        )

    def copy(self) -> Self:
        twin = object.__new__(type(self))
        twin.options, twin.seed, twin.rng = self.options, self.seed, self.rng.copy()
        twin.tokens = list(self.tokens)
        twin.score, twin.moves = self.score, self.moves
        return twin

    def _apply_in_place(self, action: Action) -> list[Event]:
        assert isinstance(action, Step)
        self.tokens[action.token] = action.to
        face = self.rng.roll(6)
        self.score += face
        self.moves += 1
        return [Event("step", {"token": action.token, "to": action.to, "roll": face}, chance=True)]

    def results(self) -> Results | None:
        return None

    def view(self, player: int | None) -> dict[str, Any]:
        return self.snapshot()

    def snapshot(self) -> dict[str, Any]:
        return {"tokens": self.tokens, "score": self.score, "moves": self.moves, "rng": self.rng.state}


register_game(SPEC, lambda options, seed, content=None: TokenWalk(options, seed))


def naive_reachable(
    adj: dict[str, list[str]], start: str, steps: int, ok: Callable[[str], bool]
) -> dict[str, int]:
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if seen[here] == steps:
            continue
        for nxt in adj[here]:
            if nxt not in seen and ok(nxt):
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def median_time(fn: Callable[[], object], repeat: int, number: int) -> float:
    """Median seconds per call over ``repeat`` batches of ``number`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}, board {len(BOARD)} spaces, {len(BOARD.edges())} borders")

    land = [k == "land" for k in BOARD.kinds]
    adj = {s.id: list(BOARD.neighbors_of(s.id)) for s in BOARD.spaces}
    kinds = {s.id: s.kind for s in BOARD.spaces}
    fast = median_time(lambda: BOARD.reachable_i(45, 3, can_enter=land.__getitem__), args.repeat, 2000)
    slow = median_time(
        lambda: naive_reachable(adj, "r4c5", 3, lambda s: kinds[s] == "land"), args.repeat, 2000
    )
    assert set(BOARD.reachable_i(45, 3, can_enter=land.__getitem__)) == {
        BOARD.index[s] for s in naive_reachable(adj, "r4c5", 3, lambda s: kinds[s] == "land")
    }
    print(f"reachable (3 moves):      {fast * 1e6:8.2f} µs   baseline dict BFS {slow * 1e6:8.2f} µs")

    state = TokenWalk({"tokens": 20}, 1)
    action = state.legal_actions()[0]

    def deep_apply() -> None:
        twin = copy.deepcopy(state)
        twin._apply_in_place(action)

    fast = median_time(lambda: state.apply(action), args.repeat, 5000)
    slow = median_time(deep_apply, args.repeat, 500)
    print(f"apply incl. copy:         {fast * 1e6:8.2f} µs   baseline deepcopy  {slow * 1e6:8.2f} µs")
    legal = median_time(state.legal_actions, args.repeat, 2000)
    print(f"legal_actions ({len(state.legal_actions())} moves): {legal * 1e6:6.2f} µs")

    match = Match.new("bench-walk", seed=5)
    chooser = Rng(9)
    for _ in range(1000):
        options = match.state.legal_actions()
        match.play(options[chooser.below(len(options))])
    text = match.dumps()
    save_t = median_time(match.dumps, args.repeat, 3)
    load_t = median_time(lambda: Match.from_save(text), args.repeat, 1)
    print(f"save 1,000-action log:    {save_t * 1e3:8.2f} ms   ({len(text) // 1024} KiB)")
    print(f"load+replay+verify:       {load_t * 1e3:8.2f} ms   ({load_t / 1000 * 1e6:.1f} µs per action)")


if __name__ == "__main__":
    main(sys.argv[1:])
