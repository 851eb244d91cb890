"""Small World's action domains: the finite values each action field may take (``GamePlugin.action_domains``).

:mod:`warhorn.interop` numbers every action the game can ever offer with one
integer from these (its flat action index). They are read from the content
and the board set, never from play, so every legal action of any deal of the
same option set has a number:

- a region: every region of every island the game may draw (an islands set
  changes its islands with the seed; a map set has one map per number of
  players), sorted by id — the same list the observation encoder lays out;
- a combo to pick: ``0 .. visible_combos - 1``;
- a count of units to deploy: ``1 ..`` the most units of one kind a seat can
  hold (the largest race's tokens in the box, the beasts' or champions'
  supply); Forsaken recruits ``0 ..`` the largest race's tokens;
- an artifact to place: every artifact of the content.

The ``Literal`` fields (a conquest's ``via``, a unit, a Worgen form, a side)
take their values from the action types' hints.
"""

from __future__ import annotations

from typing import Any

from warhorn.games.smallworld.board import load_board_set
from warhorn.games.smallworld.content import DATA_DIR
from warhorn.games.smallworld.state import SmallWorldState


def regions_in_any_deal(first: SmallWorldState) -> tuple[str, ...]:
    """Every region a game of ``first``'s board set and number of players may have, sorted by id."""
    regions = set(first.index.order)
    if first.board_ref is not None:
        folder = None if first.content.folder == DATA_DIR else first.content.folder
        board_set = load_board_set(first.board_ref["set"], folder)
        drawable = (  # an islands set draws among all its islands; a map set has one map per count
            board_set.islands
            if board_set.set.kind == "islands"
            else board_set.layout(first.num_players).islands
        )
        for island in drawable:
            regions.update(region.id for region in board_set.islands[island].regions)
    return tuple(sorted(regions))


def action_domains(first: SmallWorldState) -> dict[str, dict[str, tuple[Any, ...]]]:
    """The plugin's ``action_domains`` factory (see the module text)."""
    content = first.content
    regions = regions_in_any_deal(first)
    most_tokens = max(race.tokens for race in content.races.values())
    supplies = content.supplies
    most_units = max(most_tokens, supplies.beasts, supplies.champion, 1)
    artifacts = tuple(sorted(content.artifacts))
    one_region = {"region": regions}
    return {
        "pick": {"index": tuple(range(first.visible_combos))},
        "conquer": one_region,
        "reinforce": one_region,
        "abandon": one_region,
        "intimidate": one_region,
        "portal": {"first": regions, "second": regions},
        "steal": {"source": regions, "target": regions},
        "recruit": {"count": tuple(range(most_tokens + 1))},
        "deploy": {"region": regions, "count": tuple(range(1, most_units + 1))},
        "place": {"artifact": artifacts, "region": regions},
        "objective": one_region,
        "bomb": one_region,
    }
