"""Small World of Warcraft: the turn - combos, conquests, losses, the die, redeployment, scoring,
decline, abandonment and the end of the game. Positions on the two-island test board (helpers)."""

from __future__ import annotations

import pytest

from warhorn.games.smallworld.rules import conquest_cost
from warhorn.games.smallworld.state import Stage

from .helpers import mine, play, refused, scenario

RACES = ["orcs", "humans", "naga", "trolls", "gnomes", "kobolds", "dwarves"]
POWERS = ["fishing", "farmer", "ranger", "explorer", "mining", "herbalist", "sailing"]


def _column(coins: list[int] | None = None) -> dict[str, object]:
    return {"races": RACES, "powers": POWERS, "coins": coins or [0] * 6}


@pytest.mark.rule("SWW-CMB-01")
def test_a_combo_costs_one_coin_on_each_combo_above_and_collects_its_coins() -> None:
    s = scenario([{"coins": 5}, {}], column=_column([0, 0, 3, 0, 0, 0]))
    s = play(s, "pick 2")
    seat = s.players[0]
    assert seat.active is not None and (seat.active.race, seat.active.power) == ("naga", "ranger")
    assert seat.coins == 5 - 2 + 3
    assert [c for _, _, c in s.combos()] == [1, 1, 0, 0, 0, 0]
    assert [r for r, _, _ in s.combos()] == ["orcs", "humans", "trolls", "gnomes", "kobolds", "dwarves"]


@pytest.mark.rule("SWW-CMB-01")
def test_a_combo_you_cannot_pay_for_is_refused() -> None:
    s = scenario([{"coins": 1}, {}], column=_column())
    assert "SWW-CMB-01" in refused(s, "pick 3")
    assert {a.notation() for a in s.legal_actions()} == {"pick 0", "pick 1"}


@pytest.mark.rule("SWW-CMB-02")
def test_tokens_are_banner_plus_badge() -> None:
    s = scenario(2, column={"races": ["tauren", *RACES[:5]], "powers": ["fishing", *POWERS[1:6]]})
    s = play(s, "pick 0")
    assert s.players[0].hand == 11 + 3
    s2 = scenario(2, column={"races": RACES[:6], "powers": ["sailing", *POWERS[:5]]})
    assert play(s2, "pick 0").players[0].hand == 6 + 5


@pytest.mark.rule("SWW-CNQ-01")
def test_the_first_conquest_is_an_entry_region_with_the_travel_cost() -> None:
    s = scenario([{"active": {"race": "orcs", "power": "fishing"}, "hand": 5}, {}])
    assert "SWW-CNQ-01" in refused(s, "conquer n3")
    assert conquest_cost(s, 0, "n1").tokens == 3
    s = play(s, "conquer n1")
    assert s.areas["n1"].tokens == 3 and s.players[0].hand == 2


@pytest.mark.rule("SWW-CNQ-02")
@pytest.mark.rule("SWW-EXP-02")
def test_later_conquests_are_adjacent_or_any_entry_region() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 9}, {}], {"n1": mine(0, "orcs", 1)}
    )
    assert conquest_cost(s, 0, "n3").tokens == 2  # adjacent, no travel
    assert conquest_cost(s, 0, "s1").tokens == 3  # an entry region on another island: +1 travel
    assert conquest_cost(s, 0, "n2").tokens == 2  # an adjacent entry region: no travel
    assert "SWW-CNQ-02" in refused(s, "conquer n7")
    s = play(s, "conquer s1", "conquer n3")
    assert s.areas["s1"].owner == 0 and s.areas["n3"].owner == 0


@pytest.mark.rule("SWW-CNQ-03")
def test_every_defending_piece_adds_a_token_to_the_cost() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "fishing"}, "hand": 9},
            {"active": {"race": "humans", "power": "championing"}},
        ],
        {
            "n1": mine(0, "orcs", 1),
            "n2": mine(1, "humans", 2, fort=True, champion=True),
            "n3": mine(1, "humans", 1, beasts=1, wisp_wall=True),
            "n4": {"mountain": True},
            "s1": {"race": "murlocs", "tokens": 1},
        },
    )
    assert conquest_cost(s, 0, "n2").tokens == 2 + 2 + 1 + 1  # 2 tokens, fort, champion
    assert conquest_cost(s, 0, "n3").tokens == 2 + 1 + 1 + 1  # 1 token, beast, wisp wall
    assert conquest_cost(s, 0, "s1").tokens == 2 + 1 + 1  # a Murloc, and travel
    s = play(s, "conquer n3")
    s = play(s, "conquer n4")  # via n3: a Mountain defends as 1
    assert s.areas["n4"].tokens == 3 and s.areas["n4"].mountain  # the mountain stays for its new holder


@pytest.mark.rule("SWW-CNQ-04")
def test_the_defender_loses_one_and_redeploys_the_rest_at_the_end_of_the_attackers_turn() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "fishing"}, "hand": 6},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(1, "humans", 3), "n8": mine(1, "humans", 1)},
    )
    s = play(s, "conquer n3")
    assert s.players[1].returning == 2 and s.supply_of("humans") == 10 - 3
    s = play(s, "end")
    s = play(s, *[a.notation() for a in s.legal_actions()[:1]])  # the attacker places its spare token(s)
    while s.stage is Stage.REDEPLOY:
        s = play(s, s.legal_actions()[0].notation())
    decision = s.pending()
    assert decision is not None and decision.player == 1 and decision.kind == "defend"
    assert {a.notation() for a in s.legal_actions()} == {"deploy n8 1", "deploy n8 2"}
    s, events = s.apply(s.parse("deploy n8 2"))
    assert events[0].kind == "deploy" and events[0].data["player"] == 1
    assert s.current == 1 and s.areas["n8"].tokens + s.players[1].hand == 3  # then its own turn readies them


@pytest.mark.rule("SWW-CNQ-04")
def test_a_defender_with_no_region_left_keeps_the_tokens_for_a_new_first_conquest() -> None:
    s = scenario(
        [
            {"active": {"race": "orcs", "power": "fishing"}, "hand": 6},
            {"active": {"race": "humans", "power": "farmer"}},
        ],
        {"n1": mine(0, "orcs", 1), "n3": mine(1, "humans", 3)},
    )
    s = play(s, "conquer n3", "end")
    while s.current == 0:
        s = play(s, s.legal_actions()[0].notation())
    assert s.players[1].hand == 2 + 0 and s.players[1].returning == 0
    assert "conquer n3" not in {a.notation() for a in s.legal_actions()}  # a first conquest again
    assert "reinforce n2" in {a.notation() for a in s.legal_actions()}  # an entry region, 1 short


@pytest.mark.rule("SWW-CNQ-05")
def test_the_final_conquest_rolls_the_die_and_ends_the_conquests() -> None:
    base = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 1}, {}],
        {"n1": mine(0, "orcs", 1), "n3": {"race": "murlocs", "tokens": 1}},
    )
    assert conquest_cost(base, 0, "n3").tokens == 3  # 2 short with 1 token
    assert "SWW-CNQ-03" in refused(base, "conquer n3")
    lost = base.copy()
    base.rng.push(5)  # face 2
    won = play(base, "reinforce n3")
    assert won.areas["n3"].owner == 0 and won.areas["n3"].tokens == 1
    assert won.stage is not Stage.CONQUER
    lost.rng.push(4)  # face 1: 1 + 1 < 3
    lost = play(lost, "reinforce n3")
    assert lost.areas["n3"].race == "murlocs" and lost.stage is not Stage.CONQUER
    far = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 1}, {}],
        {"n3": mine(0, "orcs", 1), "n4": {"mountain": True, "race": "murlocs", "tokens": 2}},
    )
    assert "at most 3" in refused(far, "reinforce n4")  # 5 tokens, 4 short


@pytest.mark.rule("SWW-CNQ-06")
def test_a_conquest_always_takes_at_least_one_token() -> None:
    s = scenario(
        [{"active": {"race": "dwarves", "power": "blacksmith"}, "hand": 2}, {}],
        {"n3": mine(0, "dwarves", 1), "n4": {"mountain": True}},
    )
    assert conquest_cost(s, 0, "n4").tokens == 1  # 2 + 1 mountain - 2 dwarves - 1 blacksmith = 0 -> 1
    empty = scenario(
        [{"active": {"race": "dwarves", "power": "blacksmith"}}, {}], {"n3": mine(0, "dwarves", 1)}
    )
    empty = play(empty, "end")
    assert not [a for a in empty.legal_actions() if a.notation().startswith("conquer")]


@pytest.mark.rule("SWW-RDP-01")
def test_redeployment_moves_tokens_freely_leaving_one_per_region() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 0}, {}],
        {"n1": mine(0, "orcs", 4), "n3": mine(0, "orcs", 1), "s1": mine(0, "orcs", 1)},
    )
    s = play(s, "end")
    assert s.stage is Stage.REDEPLOY and s.players[0].hand == 3
    assert all(s.areas[r].tokens == 1 for r in ("n1", "n3", "s1"))
    assert "deploy n2 1" not in {a.notation() for a in s.legal_actions()}
    s = play(s, "deploy s1 3")
    assert s.areas["s1"].tokens == 4 and s.current == 1


@pytest.mark.rule("SWW-SCR-01")
def test_scoring_counts_regions_and_one_faction_bonus_per_enemy_race() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "trolls", "power": "sailing"}, "hand": 10},
            {"active": {"race": "humans", "power": "farmer"}, "declined": {"race": "dwarves"}},
            {"active": {"race": "naga", "power": "ranger"}},
        ],
        {
            "n1": mine(0, "trolls", 1),
            "n2": mine(1, "humans", 1),
            "s1": mine(1, "humans", 1),
            "n3": {"owner": 1, "race": "dwarves", "declined": True, "tokens": 1},
            "n8": mine(2, "naga", 1),
        },
    )
    s = play(s, "conquer n2", "conquer s1", "conquer n3", "conquer n8", "end")
    while s.current == 0:
        s = play(s, s.legal_actions()[0].notation())
    # 5 regions; faction bonus: Humans (twice: still 1) and the declined Dwarves (another race); Naga neutral.
    assert s.players[0].coins == 5 + 2


@pytest.mark.rule("SWW-EXP-01")
def test_troops_are_readied_and_regions_can_be_abandoned() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "picked_turn": -5}, {}],
        {"n1": mine(0, "orcs", 3), "n3": mine(0, "orcs", 2)},
        start_turn=True,
    )
    assert s.players[0].hand == 3 and s.areas["n1"].tokens == 1 and s.areas["n3"].tokens == 1
    s = play(s, "abandon n1", "abandon n3")
    assert s.players[0].hand == 5 and not s.regions_of(0)
    assert "SWW-CNQ-01" in refused(s, "conquer n3")  # everything abandoned: a first conquest again
    s = play(s, "conquer n2")
    assert "SWW-EXP-01" in refused(s, "abandon n2")


@pytest.mark.rule("SWW-DCL-01")
def test_decline_flips_one_token_per_region_and_removes_the_older_declined_race() -> None:
    s = scenario(
        [
            {"coins": 0, "active": {"race": "orcs", "power": "fishing"}, "declined": {"race": "dwarves"}},
            {},
        ],
        {
            "n1": mine(0, "orcs", 3),
            "n3": mine(0, "orcs", 2),
            "s1": {"owner": 0, "race": "dwarves", "declined": True, "tokens": 1},
        },
        column={"races": RACES[1:6], "powers": POWERS[1:]},
        start_turn=True,
    )
    s = play(s, "decline")
    seat = s.players[0]
    assert seat.active is None and seat.declined is not None and seat.declined.race == "orcs"
    assert seat.declined.power is None and "fishing" in s.powers_discard
    assert s.areas["n1"].tokens == 1 and s.areas["n1"].declined and s.areas["s1"].race is None
    assert s.races_stack[-1] == "dwarves"
    assert seat.coins == 2  # scored its 2 declined regions, no conquest that turn
    assert s.current == 1
    refused(s, "decline")


@pytest.mark.rule("SWW-DCL-01")
def test_a_race_picked_this_turn_cannot_decline() -> None:
    s = scenario(2, column=_column())
    s = play(s, "pick 0")
    assert "SWW-DCL-01" in refused(s, "decline")


@pytest.mark.rule("SWW-DCL-02")
def test_declined_tokens_score_and_defend() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 5}, {"declined": {"race": "humans"}}],
        {"n1": mine(0, "orcs", 1), "n3": {"owner": 1, "race": "humans", "declined": True, "tokens": 1}},
    )
    assert conquest_cost(s, 0, "n3").tokens == 3
    s = play(s, "conquer n3")
    assert s.players[1].returning_declined == 0 and s.supply_of("humans") == 10  # the lone token is lost
    quiet = scenario(
        [{"coins": 0, "declined": {"race": "worgen"}}, {}],
        {"n3": {"owner": 0, "race": "worgen", "declined": True, "tokens": 1}},
        column=_column(),
    )
    quiet = play(quiet, "pick 0", "end")
    assert quiet.players[0].coins == 1


@pytest.mark.rule("SWW-MAP-02")
def test_seas_and_lakes_are_closed_to_all_but_the_naga() -> None:
    s = scenario(
        [{"active": {"race": "orcs", "power": "fishing"}, "hand": 5}, {}], {"n1": mine(0, "orcs", 1)}
    )
    assert "SWW-MAP-02" in refused(s, "conquer n6")


@pytest.mark.rule("SWW-FLW-01")
def test_the_game_ends_after_the_last_round_and_ties_go_to_the_most_tokens() -> None:
    s = scenario(
        [
            {"coins": 9, "active": {"race": "orcs", "power": "fishing"}},
            {"coins": 8, "active": {"race": "draenei", "power": "sailing"}},
        ],
        {"n1": mine(0, "orcs", 1), "s1": mine(1, "draenei", 3)},
        current=1,
        round=3,
        rounds=3,
    )
    s = play(s, "end", "deploy s1 2")
    assert s.is_terminal and s.pending() is None
    results = s.results()
    assert results is not None and results.winners == frozenset({1})  # 9 and 9 coins: 3 tokens beat 1
    assert s.legal_actions() == []
