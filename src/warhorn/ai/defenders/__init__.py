"""The Defenders of the Realm AI: a cooperative heuristic and search hooks, registered on import.

- :mod:`.odds` -- exact chances of defeating a general (binomial tables, curse and parries);
- :mod:`.battle_odds` -- those chances for the heroes' real hands, bonuses and re-rolls;
- :mod:`.threat` -- what minions, overruns, crystals and advancing generals cost;
- :mod:`.player` -- :class:`DefendersHeuristic`, every decision with a one-line reason;
- :mod:`.search` -- the leaf value, rollout policy and shared-win reward for ``mcts``.

The game's plugin (``warhorn.games.defenders.plugin``) names the heuristic and the hooks.
"""

from __future__ import annotations

from warhorn.ai.defenders.player import DefendersHeuristic, Settings, parse_settings
from warhorn.ai.defenders.search import HOOKS, evaluate, rollout_policy

__all__ = ["HOOKS", "DefendersHeuristic", "Settings", "evaluate", "parse_settings", "rollout_policy"]
