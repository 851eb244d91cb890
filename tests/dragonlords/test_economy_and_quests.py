"""The purse over several Kingdoms and quest parties' moves along a track."""

from __future__ import annotations

import pytest

from warhorn.games.dragonlords.economy_and_quests import TrackMove, purse_shares, quest_move


@pytest.mark.rule("DLR-INC-02")
def test_the_purse_is_shared_over_the_kingdoms_held_with_the_rest_in_the_oldest() -> None:
    assert purse_shares(25, ["home"]) == {"home": 25}
    assert purse_shares(25, ["home", "won"]) == {"home": 13, "won": 12}
    assert purse_shares(7, ["a", "b", "c"]) == {"a": 3, "b": 2, "c": 2}
    assert purse_shares(10, []) == {}


@pytest.mark.rule("DLR-QST-02")
def test_a_party_moves_its_roll_and_leaves_past_either_end() -> None:
    assert quest_move(10, 4, at=None, entry=0) == TrackMove(3)  # the entry square counts as the first
    assert quest_move(10, 3, at=3) == TrackMove(6)
    assert quest_move(10, 5, at=6) == TrackMove(None, "end")
    assert quest_move(10, 2, at=1, forward=False) == TrackMove(None, "start")
    assert quest_move(10, 2, at=None, entry=9, forward=False) == TrackMove(8)  # from the far end
    with pytest.raises(ValueError, match="roll: 7"):
        quest_move(10, 7, at=2)


@pytest.mark.rule("DLX-FAQ-01")
def test_village_and_lair_count_as_the_first_square_when_entered_from_bridge_ship_or_pass() -> None:
    village, lair = 0, 9
    assert quest_move(10, 1, at=None, entry=village) == TrackMove(village)
    assert quest_move(10, 1, at=None, entry=lair, forward=False) == TrackMove(lair)
    assert quest_move(10, 3, at=None, entry=lair, forward=False) == TrackMove(7)


@pytest.mark.rule("DLX-FAQ-02")
def test_only_a_roll_of_one_stops_in_the_village_higher_rolls_pass_through() -> None:
    village = 0
    assert quest_move(10, 1, at=None, entry=village).square == village
    assert all(quest_move(10, roll, at=None, entry=village).square != village for roll in range(2, 7))
