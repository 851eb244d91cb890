"""Optional compiled build: WARHORN_COMPILE=1 compiles the hot modules with mypyc.

Without the variable (the default, `pip install -e .` / `make install`) this is a plain pure-Python
package and needs no C compiler. See docs/compiled.md.
"""

from __future__ import annotations

import os

from setuptools import setup

#: The modules mypyc compiles (paths from the repository root): the engine core and the rules of the
#: games random play spends its time in. Everything else stays interpreted.
COMPILED_MODULES = [
    "src/warhorn/engine/rng.py",
    "src/warhorn/engine/graph.py",
    "src/warhorn/engine/deck.py",
    "src/warhorn/engine/events.py",
    "src/warhorn/engine/decisions.py",
    "src/warhorn/engine/declared.py",
    "src/warhorn/games/nerath/board.py",
    "src/warhorn/games/nerath/pieces.py",
    "src/warhorn/games/nerath/state.py",
    "src/warhorn/games/nerath/decisions.py",
    "src/warhorn/games/nerath/game.py",
    "src/warhorn/games/nerath/battle_model.py",
    "src/warhorn/games/nerath/rules/battle_flow.py",
    "src/warhorn/games/nerath/rules/cards.py",
    "src/warhorn/games/nerath/rules/dungeons.py",
    "src/warhorn/games/nerath/rules/economy.py",
    "src/warhorn/games/nerath/rules/movement.py",
    "src/warhorn/games/nerath/rules/reinforcements.py",
    "src/warhorn/games/nerath/rules/reposition.py",
    "src/warhorn/ai/mcts.py",
    "src/warhorn/ai/nerath/search_hooks.py",
    "src/warhorn/games/defenders/board.py",
    "src/warhorn/games/defenders/records.py",
    "src/warhorn/games/defenders/state.py",
    "src/warhorn/games/defenders/rules/battle.py",
    "src/warhorn/games/defenders/rules/cards.py",
    "src/warhorn/games/defenders/rules/combat.py",
    "src/warhorn/games/defenders/rules/darkness.py",
    "src/warhorn/games/defenders/rules/decisions.py",
    "src/warhorn/games/defenders/rules/hero_actions.py",
    "src/warhorn/games/defenders/rules/heroes.py",
    "src/warhorn/games/defenders/rules/interned.py",
    "src/warhorn/games/defenders/rules/minions.py",
    "src/warhorn/games/defenders/rules/picks.py",
    "src/warhorn/games/defenders/rules/quests.py",
    "src/warhorn/games/defenders/rules/setup.py",
    "src/warhorn/games/defenders/rules/specials.py",
    "src/warhorn/games/defenders/rules/turn.py",
    "src/warhorn/games/defenders/rules/victory.py",
    # the RL environments' own work per step (issue 20 item 7): coding the legal actions and the mask,
    # the session, and each game's observation encoder
    "src/warhorn/interop/action_index.py",
    "src/warhorn/interop/observation.py",
    "src/warhorn/interop/session.py",
    "src/warhorn/games/defenders/observation.py",
    "src/warhorn/games/dragonlords/observation.py",
    "src/warhorn/games/nerath/observation.py",
    "src/warhorn/games/smallworld/observation.py",
]

if __name__ == "__main__":
    extensions = []
    if os.environ.get("WARHORN_COMPILE") == "1":
        from mypyc.build import mypycify

        extensions = mypycify(
            ["--no-warn-unused-configs", *COMPILED_MODULES],
            opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
            target_dir="build/mypyc",
        )
    setup(ext_modules=extensions)
