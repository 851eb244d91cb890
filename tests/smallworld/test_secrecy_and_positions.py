"""Small World of Warcraft: hidden information (coins, bombs, face-down markers) and the position
builder (errors naming the key, round trip)."""

from __future__ import annotations

import json

import pytest

from warhorn.engine import load_game
from warhorn.engine.errors import ContentErrors
from warhorn.engine.events import events_for
from warhorn.engine.rng import Rng
from warhorn.games.smallworld.position import position_from, to_position

from .helpers import BOARD, finish_turn, mine, play, scenario


@pytest.mark.rule("SWW-FLW-02")
def test_coin_totals_are_seen_only_by_their_owner() -> None:
    s = scenario(
        [{"coins": 7, "active": {"race": "orcs", "power": "sailing"}}, {"coins": 4}],
        {"n1": mine(0, "orcs", 1, markers=["dark_portal"])},
        column={"coins": [0, 2, 0, 0, 0, 0]},
    )
    assert s.view(0)["players"][0]["coins"] == 7 and "coins" not in s.view(0)["players"][1]
    assert "coins" not in s.view(1)["players"][0] and "coins" not in s.view(None)["players"][0]
    assert [c["coins"] for c in s.view(1)["combos"]] == [0, 2, 0, 0, 0, 0]  # coins on the column are public
    s, events = s.apply(s.parse("end"))
    score = next(e for e in events if e.kind == "score")
    assert score.data["coins"] == 3
    seen_by_other = [e for e in events_for(events, 1) if e.kind == "score"]
    assert seen_by_other and "coins" not in seen_by_other[0].data and "3" not in seen_by_other[0].text


@pytest.mark.rule("SWW-FLW-02")
def test_determinize_resamples_what_a_player_cannot_see_and_keeps_its_view() -> None:
    s = scenario(
        [{"coins": 7, "active": {"race": "goblins", "power": "sailing"}}, {"coins": 4}, {"coins": 11}],
        {
            "n1": mine(0, "goblins", 1),
            "n7": {"hidden_marker": "doomhammer"},
            "s2": {"hidden_marker": "karazhan"},
            "n3": {"bomb_by": 0, "bomb_live": True},
        },
        bombs=[True, False, False],
    )
    seen = {p: s.view_json(p) for p in range(3)}
    different = set()
    for seed in range(30):
        other = s.determinize(0, Rng(seed))
        assert other.view_json(0) == seen[0]
        assert other.players[0].coins == 7
        assert sorted([other.players[1].coins, other.players[2].coins]) == [4, 11]
        different.add((other.areas["n7"].hidden_marker, other.areas["n3"].bomb_live, other.players[1].coins))
        assert not other.invariants()
    assert len(different) > 3


def test_position_errors_name_the_key() -> None:
    with pytest.raises(ContentErrors) as caught:
        position_from(
            {
                "board": BOARD,
                "players": [{"active": {"race": "orks", "power": "sailing"}}, {}],
                "regions": {"n1": {"owner": 0, "race": "orks", "tokens": 1}, "zz": {}},
            }
        )
    keys = {e.key for e in caught.value.errors}
    assert "players[0].active.race" in keys and "regions.zz" in keys
    assert any("unknown race 'orks'" in e.message for e in caught.value.errors)
    with pytest.raises(ContentErrors, match="tokens"):
        position_from({"board": BOARD, "players": [{}, {}], "regions": {"n1": {"tokens": -1}}})


def test_positions_round_trip() -> None:
    s = scenario(
        [
            {
                "coins": 3,
                "active": {"race": "orcs", "power": "sailing"},
                "hand": 4,
                "declined": {"race": "humans"},
            },
            {"coins": 2, "active": {"race": "naga", "power": "garrisoned"}, "harmony_from": 0},
        ],
        {
            "n1": mine(0, "orcs", 2, markers=["frostmourne"]),
            "n6": mine(1, "naga", 2, fort=True),
            "s1": {"owner": 0, "race": "humans", "declined": True, "tokens": 1},
            "n5": {"race": "murlocs", "tokens": 1},
            "n7": {"hidden_marker": "karazhan"},
        },
    )
    s = play(s, "conquer n3")
    data = to_position(s)
    again = position_from(data)
    assert to_position(again) == data
    assert again.view_json(0) == s.view_json(0) and again.view_json(1) == s.view_json(1)
    later = finish_turn(again)
    assert later.current == 1


@pytest.mark.parametrize(("players", "board"), [(2, "islands"), (4, "classic")])
def test_every_state_of_a_random_game_round_trips_through_a_position(players: int, board: str) -> None:
    state = load_game("smallworld", seed=5, players=players, board=board)
    chooser = Rng(11)
    steps = 0
    while not state.is_terminal and steps < 400:
        if steps % 3 == 0:
            data = json.loads(json.dumps(to_position(state)))
            again = position_from(data)
            assert again.digest() == state.digest(), f"step {steps}: {state.stage}"
        legal = state.legal_actions()
        state, _ = state.apply(legal[chooser.below(len(legal))])
        steps += 1
