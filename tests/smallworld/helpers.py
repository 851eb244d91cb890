"""Small World of Warcraft scenario helpers: a small two-island test board and position shortcuts.

The board (built through the position builder's inline board, the same classes the
shipped boards use):

north (large)                         south (small)
  n1 field, entry, magic                s1 field, entry, cavern
  n2 forest, entry                      s2 forest, 1 Murloc, artifact/place slot
  n3 hill, cavern                       s3 hill, entry, magic
  n4 mountain (Mountain token)          s4 sea
  n5 swamp, entry, 1 Murloc
  n6 lake
  n7 field, magic, artifact/place slot
  n8 hill, entry

borders: n1-n2 n1-n3 n1-n6 n2-n3 n2-n4 n3-n4 n3-n6 n4-n5 n5-n6 n5-n7 n6-n7 n6-n8 n7-n8
         s1-s2 s1-s4 s2-s3 s2-s4 s3-s4
"""

from __future__ import annotations

import dataclasses
from typing import Any

from warhorn.engine.actions import Action
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.rng import ScriptedRng
from warhorn.games.smallworld.actions import ACTION_TYPES, CODEC
from warhorn.games.smallworld.position import position_from
from warhorn.games.smallworld.state import SmallWorldState

REGIONS: list[dict[str, Any]] = [
    {
        "id": "n1",
        "island": "north",
        "terrain": "field",
        "entry": True,
        "magic": True,
        "neighbours": ["n2", "n3", "n6"],
    },
    {"id": "n2", "island": "north", "terrain": "forest", "entry": True, "neighbours": ["n3", "n4"]},
    {"id": "n3", "island": "north", "terrain": "hill", "cavern": True, "neighbours": ["n4", "n6"]},
    {"id": "n4", "island": "north", "terrain": "mountain", "mountain_token": True, "neighbours": ["n5"]},
    {
        "id": "n5",
        "island": "north",
        "terrain": "swamp",
        "entry": True,
        "murlocs": 1,
        "neighbours": ["n6", "n7"],
    },
    {"id": "n6", "island": "north", "terrain": "lake", "neighbours": ["n7", "n8"]},
    {
        "id": "n7",
        "island": "north",
        "terrain": "field",
        "magic": True,
        "place_slot": True,
        "neighbours": ["n8"],
    },
    {"id": "n8", "island": "north", "terrain": "hill", "entry": True, "neighbours": []},
    {
        "id": "s1",
        "island": "south",
        "terrain": "field",
        "entry": True,
        "cavern": True,
        "neighbours": ["s2", "s4"],
    },
    {
        "id": "s2",
        "island": "south",
        "terrain": "forest",
        "murlocs": 1,
        "place_slot": True,
        "neighbours": ["s3", "s4"],
    },
    {"id": "s3", "island": "south", "terrain": "hill", "entry": True, "magic": True, "neighbours": ["s4"]},
    {"id": "s4", "island": "south", "terrain": "sea", "neighbours": []},
]
BOARD: dict[str, Any] = {
    "inline": {
        "id": "test",
        "name": "test islands",
        "rounds": 3,
        "islands": [{"id": "north", "size": "large"}, {"id": "south", "size": "small"}],
        "regions": REGIONS,
    }
}


def scenario(
    players: list[dict[str, Any]] | int = 2,
    regions: dict[str, dict[str, Any]] | None = None,
    *,
    rolls: list[int] | None = None,
    **rest: Any,
) -> SmallWorldState:
    """A position on the test board; ``rolls`` script the d6 behind the die (4->1, 5->2, 6->3, 1-3->0)."""
    seats = [{} for _ in range(players)] if isinstance(players, int) else players
    state = position_from({"board": BOARD, "players": seats, "regions": regions or {}, **rest})
    state.rng = ScriptedRng(rolls or [])
    return state


def mine(player: int, race: str, tokens: int, **extra: Any) -> dict[str, Any]:
    """A region entry held by ``player``'s active ``race``."""
    return {"owner": player, "race": race, "tokens": tokens, **extra}


def play(state: SmallWorldState, *texts: str) -> SmallWorldState:
    """Apply actions given as text notation, in order."""
    for text in texts:
        state, _ = state.apply(state.parse(text))
    return state


def action(text: str) -> Action:
    """The action a text names, built without looking at what is legal (to test refusals)."""
    words = text.split()
    cls = next(t for t in ACTION_TYPES if t.kind == words[0])
    names = [f.name for f in dataclasses.fields(cls)]
    values: dict[str, Any] = {}
    rest = words[1:]
    if "via" in rest:
        i = rest.index("via")
        values["via"] = rest[i + 1]
        rest = rest[:i] + rest[i + 2 :]
    for name, word in zip([n for n in names if n not in values], rest, strict=False):
        values[name] = int(word) if word.isdigit() else word
    return CODEC.from_json({"kind": cls.kind, **values})


def refused(state: SmallWorldState, text: str) -> str:
    """The refusal message of an illegal action (the test fails if it is legal)."""
    before = state.digest()
    try:
        state.apply(action(text))
    except IllegalActionError as exc:
        assert state.digest() == before
        return str(exc)
    raise AssertionError(f"{text!r} was accepted")


def finish_turn(state: SmallWorldState) -> SmallWorldState:
    """End the current player's conquests and take the first legal choice until the next turn."""
    player = state.current
    state = play(state, "end")
    while state.current == player and not state.is_terminal:
        state = play(state, state.legal_actions()[0].notation())
    return state


def scored(state: SmallWorldState) -> int:
    """Coins the current player scores by ending its turn now (it holds 0 coins in the scenario)."""
    player = state.current
    before = state.players[player].coins
    return finish_turn(state).players[player].coins - before
