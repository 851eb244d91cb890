"""How a game ended is machine-readable: ``state.ending`` and the prefix of the results' reason."""

from __future__ import annotations

import pytest

from warhorn.games.defenders.rules.minions import add_minions
from warhorn.games.defenders.rules.victory import ENDINGS

from .helpers import MC, give, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


def _ending_of_reason(reason: str) -> str:
    return reason.split(":", 1)[0]


@pytest.mark.rule("DEF-END-02")
def test_each_loss_condition_has_its_own_code() -> None:
    taint = scenario(("paladin",))
    taint.crystals_left = 1
    taint.taint[taint.board.loc("G3")] = 11
    put(taint, "R1", green=3)
    add_minions(taint, taint.board.loc("R1"), GREEN, 1)

    city = scenario(("paladin",))
    put(city, MC, red=2, green=2)
    add_minions(city, city.board.loc(MC), BLUE, 1)

    general = scenario(("paladin",), ds=["ds1"])
    general.generals[RED].loc = general.board.loc("R1")
    general = play(general, "end_day")

    supply = scenario(("paladin",), ds=["ds1"])
    supply.supply[RED] = 0
    supply = play(supply, "end_day")

    for state, code in [
        (taint, "taint_crystals"),
        (city, "city_overrun"),
        (general, "general_in_city"),
        (supply, "minion_supply"),
    ]:
        results = state.results()
        assert results is not None and results.winners == frozenset()
        assert state.ending == code and code in ENDINGS
        assert _ending_of_reason(results.reason) == code
        assert state.view(0)["ending"] == code


@pytest.mark.rule("DEF-END-01")
def test_a_win_is_coded_generals_defeated() -> None:
    s = scenario(("paladin",), rolls=[6], generals_at_start=False, at={"paladin": "B3"})
    s.generals[RED] = s.generals[GREEN] = s.generals[BLACK] = None
    s.generals[BLUE].loc = s.board.loc("B3")  # only Sapphire is left, standing with the paladin
    s.generals[BLUE].wounds = 3
    s.slots[0].actions = 1
    give(s, "paladin", "B1h")
    s = play(s, "attack_general", "commit paladin B1h", "commit_done paladin")
    results = s.results()
    assert results is not None and results.winners == frozenset({0})
    assert s.ending == "generals_defeated" and _ending_of_reason(results.reason) == "generals_defeated"
