"""Small World of Warcraft: the choices the rules leave to a player - how many Military Objectives
and where, where the Goblins' bombs go, a neutral race's side at the Battleground - asked of that
player as decisions, and the Tauren's lone-token corners; scenarios on the test board (helpers)."""

from __future__ import annotations

import pytest

from warhorn.ai.smallworld.player import SmallWorldHeuristic
from warhorn.engine.rng import Rng
from warhorn.games.smallworld.state import SmallWorldState, Stage

from .helpers import mine, play, refused, scenario


def notations(s: SmallWorldState) -> set[str]:
    return {a.notation() for a in s.legal_actions()}


def ai(s: SmallWorldState) -> str:
    decision = s.pending()
    assert decision is not None
    return SmallWorldHeuristic().choose(s, decision.player, Rng(0)).action.notation()


def humans_ending_their_turn() -> SmallWorldState:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "humans", "power": "sailing"}},
            {"coins": 0, "active": {"race": "naga", "power": "fishing"}, "hand": 6},
        ],
        {
            "n1": mine(0, "humans", 1),
            "n3": mine(1, "naga", 1),
            "n8": mine(1, "naga", 1),
            "s2": {"objective": True},
        },
    )
    return play(s, "end")


@pytest.mark.rule("SWW-RAC-HUM")
def test_the_humans_choose_how_many_military_objectives_and_where() -> None:
    s = humans_ending_their_turn()
    assert s.stage is Stage.OBJECTIVE and s.pending().player == 0  # type: ignore[union-attr]
    assert not s.areas["s2"].objective  # last turn's objectives are taken back first
    assert {"objective n2", "objective n3", "done"} <= notations(s) and "objective n1" not in notations(s)
    none = play(s, "done")  # none at all
    assert none.current == 1 and not any(a.objective for a in none.areas.values())
    one = play(s, "objective n3", "done")  # just one
    assert one.current == 1 and [r for r, a in one.areas.items() if a.objective] == ["n3"]
    two = play(s, "objective n3", "objective n2")  # the second one ends the choice
    assert two.current == 1 and {r for r, a in two.areas.items() if a.objective} == {"n2", "n3"}
    assert "SWW-RAC-HUM" in refused(play(s, "objective n3"), "objective n3")  # different regions


@pytest.mark.rule("SWW-RAC-HUM")
def test_the_heuristic_lays_its_objectives_next_to_its_own_regions() -> None:
    s = humans_ending_their_turn()
    assert ai(s) in ("objective n2", "objective n3")  # the regions bordering the Humans' n1


def goblins_ending_their_turn(stage: str | None = None, **seat: object) -> SmallWorldState:
    """The Goblins' conquests are over; ``stage="bomb"`` builds the bomb decision directly."""
    s = scenario(
        [
            {"coins": 3, "active": {"race": "goblins", "power": "sailing"}, **seat},
            {"coins": 0, "active": {"race": "pandaren", "power": "farmer"}, "declined": {"race": "orcs"}},
        ],
        {
            "n3": mine(0, "goblins", 1),
            "n1": mine(1, "pandaren", 2),
            "n2": mine(1, "pandaren", 1),
            "n4": {"owner": 1, "race": "orcs", "declined": True, "tokens": 1},
            "n8": mine(1, "pandaren", 1),
        },
        bombs=[True, False, True],
        **({"stage": stage} if stage else {}),
    )
    return s if stage else play(s, "end")


@pytest.mark.rule("SWW-RAC-GOB")
def test_the_goblins_choose_where_their_bombs_go() -> None:
    s = goblins_ending_their_turn()
    assert s.stage is Stage.BOMB
    assert notations(s) == {"bomb n1", "bomb n2", "done"}  # next to n3, an opponent's active race
    assert "SWW-RAC-GOB" in refused(s, "bomb n8")  # not next to a Goblin region
    assert "SWW-RAC-GOB" in refused(s, "bomb n4")  # a declined race
    assert "SWW-RAC-GOB" in refused(s, "bomb n3")  # their own region
    one = play(s, "bomb n2", "done")
    assert one.current == 1 and one.areas["n2"].bomb_by == 0 and one.areas["n1"].bomb_by is None
    assert len(one.bombs) == 2  # the top of the stack went on n3
    none = play(s, "done")
    assert none.current == 1 and len(none.bombs) == 3


@pytest.mark.rule("SWW-RAC-GOB")
@pytest.mark.rule("SWW-RAC-PAN")
def test_a_goblin_holding_harmony_pays_the_pandaren_once_before_bombing_them() -> None:
    s = goblins_ending_their_turn(harmony_from=1)
    s = play(s, "bomb n1")  # forcing the Pandaren to lose a token by any means: 2 coins first
    assert s.players[0].coins == 1 and s.players[1].coins == 2 and s.players[0].harmony_from is None
    s = play(s, "bomb n2")  # paid once, the Harmony token is handed back
    assert s.players[1].coins == 2 and s.areas["n2"].bomb_by == 0 and s.current == 1
    broke = goblins_ending_their_turn("bomb", harmony_from=1, coins=1)
    assert "bomb n1" not in notations(broke) and "bomb n2" not in notations(broke)
    assert "SWW-RAC-PAN" in refused(broke, "bomb n1")


@pytest.mark.rule("SWW-RAC-GOB")
def test_the_heuristic_bombs_where_it_pays_nothing_and_the_fewest_tokens_stand() -> None:
    s = goblins_ending_their_turn()
    assert ai(s) == "bomb n2"
    assert ai(goblins_ending_their_turn(harmony_from=1)) == "done"  # every bomb would cost 2 coins


def neutral_at_the_battleground(race: str = "naga") -> SmallWorldState:
    s = scenario(
        [
            {"coins": 0, "active": {"race": race, "power": "sailing"}, "hand": 8},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {
            "n1": mine(0, race, 1, markers=["battleground"]),
            "n2": mine(1, "humans", 1),
            "n3": mine(1, "humans", 1),
            "n8": mine(1, "humans", 1),
        },
    )
    s = play(s, "conquer n2", "conquer n3", "end")
    while s.stage is Stage.REDEPLOY:
        s = play(s, s.legal_actions()[0].notation())
    return s


@pytest.mark.rule("SWW-LEG-01")
def test_a_neutral_race_at_the_battleground_chooses_its_side_for_the_turn() -> None:
    s = neutral_at_the_battleground()
    assert s.stage is Stage.SIDE and notations(s) == {"side alliance", "side horde"}
    horde = play(s, "side horde")  # the Humans (Alliance) beaten twice: 2 coins with the Battleground
    alliance = play(s, "side alliance")
    assert horde.players[0].coins - alliance.players[0].coins == 2
    assert horde.current == 1 and horde.turn.side == ""  # neutral again after its turn
    assert ai(s) == "side horde"
    assert neutral_at_the_battleground("trolls").stage is not Stage.SIDE  # the Horde need no choice


@pytest.mark.rule("SWW-RAC-TAU")
def test_a_declined_tauren_token_left_alone_by_intimidation_goes_too() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "intimidating"}},
            {"active": {"race": "humans", "power": "farmer"}, "declined": {"race": "tauren"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n3": {"owner": 1, "race": "tauren", "declined": True, "tokens": 2},
            "n8": {"owner": 1, "race": "tauren", "declined": True, "tokens": 2},
        },
    )
    s = play(s, "intimidate n3")
    assert s.areas["n3"].race is None and s.players[1].returning_declined == 2


@pytest.mark.rule("SWW-RAC-TAU")
def test_a_tauren_champion_takes_a_token_along_and_decline_keeps_two_tokens_there() -> None:
    s = scenario(
        [{"active": {"race": "tauren", "power": "championing"}, "hand": 2, "hand_champion": True}, {}],
        {"n1": mine(0, "tauren", 2), "n3": {"race": "murlocs", "tokens": 3}},
    )
    s = play(s, "conquer n3 via champion")
    assert s.areas["n3"].champion and s.areas["n3"].tokens == 1 and s.players[0].hand == 1
    alone = scenario(
        [{"active": {"race": "tauren", "power": "championing"}, "hand": 0, "hand_champion": True}, {}],
        {"n1": mine(0, "tauren", 2)},
    )
    assert "SWW-CNQ-03" in refused(alone, "conquer n3 via champion")  # no token to go with it
    d = scenario(
        [{"active": {"race": "tauren", "power": "championing"}, "hand": 1, "picked_turn": -3}, {}],
        {"n1": mine(0, "tauren", 2), "n3": mine(0, "tauren", 1, champion=True)},
    )
    d = play(d, "decline")  # the Champion leaves; a token from hand keeps n3 at 2
    assert d.areas["n1"].tokens == 2 and d.areas["n3"].tokens == 2 and d.areas["n3"].declined
    short = scenario(
        [{"active": {"race": "tauren", "power": "championing"}, "hand": 0, "picked_turn": -3}, {}],
        {"n1": mine(0, "tauren", 2), "n3": mine(0, "tauren", 1, champion=True)},
    )
    short = play(short, "decline")  # no token in hand: the lone one joins n1
    assert short.areas["n3"].race is None and short.areas["n1"].tokens == 3


@pytest.mark.rule("SWW-RAC-TAU")
@pytest.mark.rule("SWW-POW-BEA")
def test_a_tauren_token_left_alone_when_the_beasts_go_returns_to_hand() -> None:
    s = scenario(
        [{"active": {"race": "tauren", "power": "beast_master"}, "picked_turn": -3}, {}],
        {"n1": mine(0, "tauren", 3), "n3": mine(0, "tauren", 1, beasts=1)},
        start_turn=True,
    )
    assert s.areas["n3"].race is None  # its beast discarded, the lone token was taken back
    assert s.players[0].hand == 1 + 1 and s.areas["n1"].tokens == 2  # n3's token + n1's spare


@pytest.mark.rule("SWW-RAC-TAU")
def test_a_tauren_token_left_beside_a_beast_by_intimidation_leaves_with_it() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "intimidating"}},
            {"active": {"race": "tauren", "power": "beast_master"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(1, "tauren", 1, beasts=1), "n8": mine(1, "tauren", 2)},
    )
    s = play(s, "intimidate n3")
    assert s.areas["n3"].race is None and (s.players[1].returning, s.players[1].returning_beasts) == (1, 1)
