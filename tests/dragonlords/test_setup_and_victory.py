"""Set-up without a board (kits, the Chosen One, realm shares) and the victory conditions."""

from __future__ import annotations

import pytest

from warhorn.engine.rng import ScriptedRng
from warhorn.games.dragonlords.content import shipped_content
from warhorn.games.dragonlords.setup import (
    chosen_one,
    deal_shards,
    extra_realm_pick_order,
    neutral_realms,
    starting_kit,
    turn_order,
)
from warhorn.games.dragonlords.victory import winner

CONTENT = shipped_content()


@pytest.mark.rule("DLX-SET-01")
def test_five_and_six_player_kits() -> None:
    kit = starting_kit(CONTENT, "amazons", players=6)
    assert (kit.units, kit.gold, kit.ships) == (25, 25, 1)
    assert kit.tokens == ("king", "sorcerer", "decoy")
    assert kit.equipment == ("torch", "pickaxe")


@pytest.mark.rule("DLX-SET-02")
def test_sorcerer_knows_spells_one_and_two_and_five_or_six_players_get_three_cards() -> None:
    kit = starting_kit(CONTENT, "necromancers", players=5, starting_scrolls=1)
    assert kit.known_spells == ("poison", "bloodlust") and kit.spell_cards == 3
    assert starting_kit(CONTENT, "elves", players=5).known_spells == ("heal", "fireball")


@pytest.mark.rule("DLX-SET-03")
def test_advanced_rules_add_a_hero_token_and_a_random_shard_each() -> None:
    assert starting_kit(CONTENT, "orcs", players=5, advanced=True).tokens[-1] == "hero"
    shards = deal_shards(ScriptedRng(), CONTENT, 5)
    assert len(shards) == len(set(shards)) == 5 and set(shards) <= set(CONTENT.shards)


@pytest.mark.rule("DLR-SET-01")
def test_base_game_kits_by_player_count() -> None:
    assert [starting_kit(CONTENT, "orcs", players=n).units for n in (2, 3, 4)] == [40, 35, 30]
    assert starting_kit(CONTENT, "dwarves", players=2).gold == 25
    with pytest.raises(ValueError, match="players: 7"):
        starting_kit(CONTENT, "orcs", players=7)


@pytest.mark.rule("DLR-SET-02")
def test_base_game_starting_scrolls_option() -> None:
    assert starting_kit(CONTENT, "orcs", players=4).spell_cards == 2
    assert starting_kit(CONTENT, "orcs", players=4, starting_scrolls=1).spell_cards == 1
    with pytest.raises(ValueError, match="starting_scrolls: 3"):
        starting_kit(CONTENT, "orcs", players=4, starting_scrolls=3)


@pytest.mark.rule("DLX-SET-04")
def test_first_blessed_roll_oldest_first_is_the_chosen_one() -> None:
    # Faces 1-2 are Blessed, 3-4 Ignored, 5-6 Cursed (DLR-SET-07).
    assert chosen_one(ScriptedRng([5, 3, 1]), CONTENT, ["ann", "bob", "cy"]) == "cy"
    assert chosen_one(ScriptedRng([6, 4, 5, 2]), CONTENT, ["ann", "bob", "cy"]) == "ann"  # second round


@pytest.mark.rule("DLR-SET-03")
def test_turns_go_round_the_table_from_the_chosen_one() -> None:
    assert turn_order(["ann", "bob", "cy", "di"], "cy") == ("cy", "di", "ann", "bob")


@pytest.mark.rule("DLR-SET-04")
def test_extra_realms_are_picked_in_reverse_then_forward_order() -> None:
    assert extra_realm_pick_order(["a", "b"]) == ("b", "a", "a", "b")  # 2 players: 3 realms each
    assert extra_realm_pick_order(["a", "b", "c"]) == ("c", "b", "a")  # 3 players: 2 realms each
    assert extra_realm_pick_order(["a", "b", "c", "d"]) == ()


@pytest.mark.rule("DLX-SET-05")
def test_unclaimed_realms_are_neutral_with_four_or_five_players() -> None:
    realms = {
        "r1": "orcs",
        "r2": "elves",
        "r3": "dwarves",
        "r4": "barbarians",
        "r5": "amazons",
        "r6": "necromancers",
    }
    claimed = {"r2", "r3", "r4", "r5", "r6"}
    assert neutral_realms(realms, claimed, 5) == {"r1": "orcs"}  # the seed's example: Orcs for the sixth
    assert neutral_realms(realms, {"r1", "r2", "r3", "r4"}, 4) == {"r5": "amazons", "r6": "necromancers"}
    assert neutral_realms(realms, {"r1", "r2"}, 2) == {}
    assert CONTENT.game.neutral_units_per_realm == 5


@pytest.mark.rule("DLX-END-01")
def test_short_long_and_bloodbath_victories() -> None:
    kings = {"a": True, "b": True, "c": True}
    assert winner("short", kings_alive=kings, shards={"a": 4}, realms={}, active="b") == "a"
    assert winner("short", kings_alive=kings, shards={}, realms={"b": 3}, active="a") == "b"
    assert winner("short", kings_alive=kings, shards={"a": 3}, realms={"a": 2}, active="a") is None
    assert winner("long", kings_alive=kings, shards={"a": 8}, realms={"a": 5}, active="a") is None
    assert winner("long", kings_alive=kings, shards={"c": 9}, realms={}, active="a") == "c"
    assert winner("long", kings_alive=kings, shards={}, realms={"b": 6}, active="a") == "b"
    assert winner("bloodbath", kings_alive=kings, shards={"a": 9}, realms={"a": 6}, active="a") is None
    alone = {"a": False, "b": True, "c": False}
    assert winner("bloodbath", kings_alive=alone, shards={}, realms={}, active="a") == "b"


def test_the_active_player_wins_a_tie_and_a_bad_option_is_refused() -> None:
    kings = {"a": True, "b": True}
    assert winner("short", kings_alive=kings, shards={"a": 4, "b": 4}, realms={}, active="b") == "b"
    assert winner("short", kings_alive={"a": False, "b": True}, shards={"a": 4}, realms={}, active="a") == "b"
    with pytest.raises(ValueError, match="victory: 'quick'"):
        winner("quick", kings_alive=kings, shards={}, realms={}, active="a")  # type: ignore[arg-type]
