"""How big a flat action index would be: the actions random games offer, and a factorised space.

For every registered game (its first conformance option set), random games (seeds 0..n-1) are
played; every legal action offered is recorded. Printed per game: the distinct actions seen after
each game (a vocabulary enumerated from play keeps growing), and the size of the flat space that
factorises each action kind as the product of the distinct values each of its fields took (a lower
bound: a value not seen yet is not counted), with the kinds whose product passes 1,000 or that hold
a tuple field (a path, a set of moves, a multiset of pieces). The figures of docs/interop.md
("Why not a flat index for every game") come from ``--games 6``.

    .venv/bin/python benchmarks/interop_action_space.py [--games 6]
"""

from __future__ import annotations

import argparse
import dataclasses
from collections import defaultdict
from typing import Any

from warhorn.engine.actions import Action
from warhorn.engine.registry import load_game, registered_plugins
from warhorn.engine.rng import Rng


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=6, help="random games per registered game")
    args = parser.parse_args()
    for game, plugin in registered_plugins().items():
        options = dict(plugin.conformance.option_sets[0])
        distinct: set[Action] = set()
        values: dict[str, dict[str, set[Any]]] = defaultdict(lambda: defaultdict(set))
        growth = []
        for seed in range(args.games):
            state, rng = load_game(game, seed=seed, **options), Rng(seed)
            while not state.is_terminal:
                legal = state.legal_actions()
                for action in legal:
                    distinct.add(action)
                    for f in dataclasses.fields(action):
                        values[action.kind][f.name].add(getattr(action, f.name))
                state, _ = state.apply(rng.choice(legal))
            growth.append(len(distinct))
        products = {}
        for kind, fields in values.items():
            product = 1
            for seen in fields.values():
                product *= len(seen)
            products[kind] = product
        print(
            f"{game} {options}: distinct actions after each game {growth}; "
            f"factorised space (product of seen field values) {sum(products.values()):,}"
        )
        for kind, fields in sorted(values.items()):
            tuples = [name for name, seen in fields.items() if any(isinstance(v, tuple) for v in seen)]
            if tuples or products[kind] > 1000:
                sizes = ", ".join(f"{name} {len(seen)}" for name, seen in fields.items())
                print(
                    f"    {kind}: {sizes} -> {products[kind]:,}"
                    + (f" (tuples: {', '.join(tuples)})" if tuples else "")
                )


if __name__ == "__main__":
    main()
