"""The pure rules core shared by every game: no I/O, no clocks, no global random.

Front ends (CLI, server, AI, simulation) import this package, never the reverse.
"""

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.decisions import Decision, GameSpec, OptionSpec, Results
from warhorn.engine.deck import Deck
from warhorn.engine.errors import (
    ActionError,
    AmbiguousActionError,
    ContentError,
    ContentErrors,
    IllegalActionError,
    MalformedActionError,
    OptionError,
    SaveError,
    ScriptExhaustedError,
    UndoError,
    UnknownGameError,
    WarhornError,
)
from warhorn.engine.events import Event, events_for, roll_event
from warhorn.engine.graph import BoardGraph, Space
from warhorn.engine.plugin import ConformanceCases, GamePlugin
from warhorn.engine.registry import (
    ContentSupport,
    content_support,
    game_plugin,
    game_spec,
    load_game,
    register_game,
    register_plugin,
    registered_games,
    registered_plugins,
    unregister_game,
)
from warhorn.engine.rng import Rng, ScriptedRng
from warhorn.engine.session import SAVE_FORMAT_VERSION, Match, SaveFile, replay_actions, undoable_actions
from warhorn.engine.state import GameState

__all__ = [
    "SAVE_FORMAT_VERSION",
    "Action",
    "ActionCodec",
    "ActionError",
    "AmbiguousActionError",
    "BoardGraph",
    "ConformanceCases",
    "ContentError",
    "ContentErrors",
    "ContentSupport",
    "Decision",
    "Deck",
    "Event",
    "GamePlugin",
    "GameSpec",
    "GameState",
    "IllegalActionError",
    "MalformedActionError",
    "Match",
    "OptionError",
    "OptionSpec",
    "Results",
    "Rng",
    "SaveError",
    "SaveFile",
    "ScriptExhaustedError",
    "ScriptedRng",
    "Space",
    "UndoError",
    "UnknownGameError",
    "WarhornError",
    "content_support",
    "events_for",
    "game_plugin",
    "game_spec",
    "load_game",
    "register_game",
    "register_plugin",
    "registered_games",
    "registered_plugins",
    "replay_actions",
    "roll_event",
    "undoable_actions",
    "unregister_game",
]
