"""Random play leaves no reference cycles behind: every object a step makes is freed when its
last reference goes. (In the compiled build a function with nested functions keeps them in an
environment object that refers back to them, a cycle only the cycle collector frees; that made
move_options' garbage a visible cost, so the rules use no nested functions on the hot path.)"""

from __future__ import annotations

import gc

from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng


def test_random_games_leave_no_cyclic_garbage() -> None:
    load_game("defenders", seed=0, players=4)  # content loaded and caches made outside the count
    gc.collect()
    gc.disable()
    try:
        for seed in range(4):
            chooser = Rng(seed + 1)
            state = load_game("defenders", seed=seed, players=4, heroes="wizard,eagle_rider,sorceress")
            while state.pending() is not None:
                legal = state.legal_actions()
                state, _ = state.apply(legal[chooser.below(len(legal))])
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0, f"{found} objects were freed only by the cycle collector"
