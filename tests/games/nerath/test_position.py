"""The public Nerath position builder: round trip, defaults, and mistakes named by key."""

from __future__ import annotations

import json
import tomllib

import pytest

from tests.games.nerath.boards import small_board
from warhorn.engine import Rng, load_game
from warhorn.engine.errors import ContentErrors
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.position import position_from, to_position


def test_every_state_of_a_random_game_builds_again_from_its_position() -> None:
    s = load_game("nerath", seed=4, round_cap=3)
    chooser = Rng(9)
    seen = set()
    while True:
        data = json.loads(json.dumps(to_position(s)))  # JSON-able
        again = position_from(data, s.board)
        assert again.digest() == s.digest(), s.describe()
        assert again.legal_actions() == s.legal_actions()
        seen.add(s.pending().kind if s.pending() else "over")
        if s.pending() is None:
            break
        legal = s.legal_actions()
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert {"movement", "reinforcements", "damage", "over"} <= seen, seen


def test_a_small_position_from_toml_with_defaults() -> None:
    text = """
kingdom = "vailin"
phase = "movement"
begin_turn = true

[kingdoms.vailin]
gold = 4
hand = []

[spaces.v2]
pieces = [{ piece = "soldier", kingdom = "vailin", count = 2 }, { piece = "dragon", kingdom = "vailin" }]

[spaces.k2]
control = "vailin"
"""
    s = position_from(tomllib.loads(text), small_board())
    assert isinstance(s, NerathState)
    assert s.pending() is not None and s.pending().kind == "movement" and s.current_kingdom == 1
    assert [u.ptype for u in s.units_at(s.board.idx("v2"))] == ["soldier", "soldier", "dragon"]
    assert s.d.gold[1] == 4 and s.d.gold[0] == s.board.start_gold[0]
    assert s.controller(s.board.idx("k2")) == 1 and s.controller(s.board.idx("k1")) == 0
    # decks not given hold the kingdom's cards nobody holds; the builder is deterministic
    assert len(s.d.event_decks[0].draw_pile) == len(s.board.event_cards(0))
    again = position_from(tomllib.loads(text), small_board())
    assert again.digest() == s.digest()


@pytest.mark.parametrize(
    ("data", "key", "words"),
    [
        (
            {"spaces": {"k1": {"pieces": [{"piece": "dragn", "kingdom": "karkoth"}]}}},
            "spaces.k1.pieces[0].piece",
            "unknown piece 'dragn'",
        ),
        ({"spaces": {"nowhere": {}}}, "spaces.nowhere", "unknown space 'nowhere'"),
        (
            {"spaces": {"k1": {"pieces": [{"piece": "soldier", "kingdom": "orcs"}]}}},
            "spaces.k1.pieces[0].kingdom",
            "karkoth",
        ),
        ({"phase": "lunch"}, "phase", "movement"),
        ({"kingdoms": {"karkoth": {"hand": ["not-a-card"]}}}, "kingdoms.karkoth.hand[0]", "not-a-card"),
        ({"spaces": {"s1": {"control": "karkoth"}}}, "spaces.s1.control", "only land spaces"),
        ({"colour": "red"}, "colour", "Extra inputs"),
        (
            {"turn": {"windows": [{"name": "income", "queue": ["orcs"]}]}},
            "turn.windows[0].queue[0]",
            "karkoth",
        ),
        (
            {"turn": {"battle": {"space": "v2", "kind": "land", "attacker": "karkoth", "step": "lunch"}}},
            "turn.battle.step",
            "first_strike",
        ),
        (
            {"turn": {"battle": {"space": "nowhere", "kind": "land", "attacker": "karkoth"}}},
            "turn.battle.space",
            "unknown space 'nowhere'",
        ),
    ],
)
def test_mistakes_name_their_key(data: dict, key: str, words: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(ContentErrors) as exc:
        position_from(data, small_board())
    found = [(e.key, e.message) for e in exc.value.errors]
    assert any(k == key and words in m for k, m in found), found


def test_battles_and_card_windows_are_written_in_their_documented_form() -> None:
    """Kingdoms by id, damage orders, dice and cancelled hits by name (docs/positions.md)."""
    s = load_game("nerath", seed=4, round_cap=6)
    chooser = Rng(9)
    battle = window = None
    while s.pending() is not None and (battle is None or window is None):
        turn = to_position(s)["turn"]
        if turn["battle"] is not None and turn["battle"]["orders"]:
            battle = turn["battle"]
        if turn["windows"] and turn["windows"][-1]["queue"]:
            window = turn["windows"][-1]
        legal = s.legal_actions()
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert battle is not None and window is not None
    order = battle["orders"][0]
    assert set(order) == {"player", "kingdom", "hits"} and isinstance(order["kingdom"], str)
    assert set(battle["rolled"]) == {"attacker", "defenders"} and set(battle["negate"]) == {
        "attacker",
        "defenders",
    }
    assert all(set(die) == {"sides", "face", "hits_on"} for die in battle["rolled"]["attacker"])
    assert all(isinstance(k, str) for k in window["queue"]), window
