"""The DragonLords combat in a game: the seven steps, spells, cards, shards, casualties and retreat.

Orcs (player 0) attack from Gorefort into Bonefield, held by Dwarves (player 1), unless a test says
otherwise. Dice are scripted: the attacker's step-5 dice first, then the defender's step-6 dice.
"""

from __future__ import annotations

import pytest

from .helpers import act, build, dice, force, kinds, legal, until

DWARF_KING = {"id": 20, "token": "king"}


def duel(defenders: dict, *, attackers: dict | None = None, **extra: object):
    spaces = {
        "gorefort": attackers or force(0, 5, {"id": 10, "token": "king"}),
        "bonefield": defenders,
    }
    spaces.update(extra.pop("spaces", {}))  # type: ignore[arg-type]
    return build(spaces=spaces, **extra)


@pytest.mark.rule("DLX-CMB-01")
@pytest.mark.rule("DLR-CMB-01")
def test_a_round_runs_step_two_then_the_rolls_then_the_casualties() -> None:
    state = duel(force(1, 2, DWARF_KING))
    dice(state, 1, 1, 6, 4, 5, 6)  # attacker 3 dice; defender 3 dice at TAS 3 + Hope = 4
    state, events = act(state, "attack gorefort bonefield 3", "cast hope p20", "done")
    state, more = until(state, "retreat")
    events += more
    order = kinds(events)
    assert order.index("cast") < order.index("roll") < order.index("casualties")
    rolls = [e for e in events if e.kind == "roll"]
    assert [r.data["purpose"] for r in rolls] == ["step 5", "step 6"]
    assert rolls[1].data["hits"] == 1  # the 4 hits under Hope
    assert state.pending().kind == "retreat" and state.pending().player == 0


@pytest.mark.rule("DLX-CMB-04")
@pytest.mark.rule("DLR-CMB-05")
def test_a_fireball_in_step_three_removes_an_attacker_who_does_not_roll() -> None:
    defenders = force(1, 2, DWARF_KING, {"id": 21, "token": "sorcerer", "spells": ["heal", "fireball"]})
    state = duel(defenders)
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "ranged", 1)
    assert "cast fireball p21" in legal(state)
    dice(state, 6, 6, 6, 6, 6, 6)  # two attackers roll (two dice), four defenders roll
    state, events = act(state, "cast fireball p21", "done")
    state, more = until(state, "retreat")
    events += more
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls[0].data["dice"]) == 2 and len(rolls[1].data["dice"]) == 4


@pytest.mark.rule("DLX-CMB-04")
@pytest.mark.rule("DLX-SPL-POI")
def test_poison_keeps_a_unit_from_striking_back_and_heal_saves_it_in_step_seven() -> None:
    state = build(
        players=[{"people": "orcs"}, {"people": "necromancers"}],
        spaces={
            "gorefort": force(0, 5, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer"}),
            "bonefield": force(1, 2, {"id": 20, "token": "king"}, {"id": 21, "token": "sorcerer"}),
        },
    )
    state, _ = act(state, "attack gorefort bonefield 3 with 11")
    state, _ = until(state, "ranged", 1)
    state, _ = act(state, "cast poison p21")
    fighters = state.battle.att.fighters
    assert sum(1 for f in fighters if f.condition == "poisoned") == 1
    dice(state, 6, 6, 6, 6, 6, 6, 6)  # 3 attackers roll (one poisoned), 4 defenders roll
    state, events = until(state, "heal", 0)
    assert len(next(e for e in events if e.kind == "roll").data["dice"]) == 3
    assert "cast heal p11" in legal(state)  # the Orc sorcerer knows Heal (spell 1)
    state, events = act(state, "cast heal p11")
    state, _ = until(state, "retreat")
    assert all(f.condition is None for f in state.battle.att.fighters)
    assert len(state.battle.att.fighters) == 4


@pytest.mark.rule("DLR-CMB-07")
@pytest.mark.rule("DLX-CMB-02")
def test_only_the_attacker_retreats_and_retreating_units_may_not_attack_again() -> None:
    state = duel(force(1, 3, DWARF_KING), spaces={"tusk_ridge": force(1, 1)})
    dice(state, 6, 6, 6, 6, 6, 6, 6)
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "retreat")
    decision = state.pending()
    assert decision.kind == "retreat" and decision.player == 0
    assert legal(state) == {"fight", "retreat gorefort"}
    state, events = act(state, "retreat gorefort")
    assert "retreat" in kinds(events) and state.battle is None
    gorefort = state.spaces["gorefort"]
    assert gorefort.plain == 5 and gorefort.spent == 3
    attacks = [a for a in legal(state) if a.startswith("attack gorefort")]
    assert attacks and max(int(a.split()[3]) for a in attacks) <= 2


@pytest.mark.rule("DLR-CMB-08")
def test_mutual_destruction_leaves_the_territory_empty() -> None:
    state = duel(force(1, 1), spaces={"khaz_thurn": force(1, 1, DWARF_KING)})
    dice(state, 1, 1)
    state, events = act(state, "attack gorefort bonefield 1")
    assert "mutual_destruction" in kinds(events)
    assert "bonefield" not in state.spaces and state.owner("bonefield") is None


@pytest.mark.rule("DLR-CMB-09")
@pytest.mark.rule("DLX-FAQ-09")
def test_the_winner_takes_the_treasures_the_losers_carried() -> None:
    state = duel(
        force(1, 0, {"id": 22, "items": ["ring_of_hope"]}), spaces={"khaz_thurn": force(1, 1, DWARF_KING)}
    )
    dice(state, 1, 1, 6)
    state, _ = act(state, "attack gorefort bonefield 2")
    assert state.owner("bonefield") == 0
    assert state.spaces["bonefield"].item_list() == ["ring_of_hope"]
    carrier = state.spaces["bonefield"].pieces[0]
    assert carrier.moved  # a unit that attacked carries it: it has moved this turn
    state, _ = act(state, "done")  # to the transfer phase: only units that have not moved go
    assert not any(f"with {carrier.id}" in a for a in legal(state))
    # the treasure moves with its unit
    state = duel(
        force(0, 1, {"id": 22, "items": ["ring_of_hope"]}), spaces={"khaz_thurn": force(1, 1, DWARF_KING)}
    )
    state, _ = until(state, "transfer")
    state, _ = act(state, "move bonefield gorefort 0 with 22")
    assert "ring_of_hope" in state.spaces["gorefort"].item_list() and "bonefield" in state.spaces


@pytest.mark.rule("DLR-HID-02")
def test_a_combat_shows_the_tokens_of_both_sides_until_they_move() -> None:
    state = duel(force(1, 2, {"id": 20, "token": "king"}, {"id": 23, "token": "decoy"}))
    seen = state.view(0)["spaces"]["bonefield"]
    assert seen["hidden_tokens"] == 2 and "shown" not in seen
    state, _ = act(state, "attack gorefort bonefield 1")
    shown = {p["token"] for p in state.view(0)["battle"]["defender"]["pieces"]}
    assert shown == {"king", "decoy"}
    dice(state, 6, 6, 6, 6, 6)
    state, _ = until(state, "retreat")
    state, _ = act(state, "retreat gorefort")
    after = state.view(0)["spaces"]["bonefield"]
    assert after["hidden_tokens"] == 0 and sorted(t for t, _ in after["shown"]) == ["decoy", "king"]


@pytest.mark.rule("DLR-HID-03")
def test_the_owner_chooses_which_tokens_the_hits_take() -> None:
    state = duel(force(1, 1, {"id": 20, "token": "king"}, {"id": 23, "token": "decoy"}))
    dice(state, 1, 1, 6, 6, 6, 6)
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "casualties")
    decision = state.pending()
    assert decision.kind == "casualties" and decision.player == 1
    assert legal(state) == {"lose 20", "lose 23"}
    state, _ = act(state, "lose 23")
    while state.battle is not None and state.pending().kind != "retreat":
        state, _ = act(state, "done")
    assert state.battle.dfn.piece(20) is not None
    assert [f.id for f in state.battle.dfn.fighters] == ["p20"]


@pytest.mark.rule("DLX-OPT-02")
def test_one_spell_per_caster_per_round_as_an_option() -> None:
    def heal_offered(one_spell: bool) -> bool:
        state = duel(force(1, 2, DWARF_KING), options={"one_spell_per_round": one_spell})
        dice(state, 1, 6, 6, 6, 6, 6)
        state, _ = act(state, "attack gorefort bonefield 3", "cast hope p20")
        state, _ = until(state, "heal", 1)
        return "cast heal p20" in legal(state)

    assert heal_offered(False) and not heal_offered(True)


@pytest.mark.rule("DLX-SHD-01")
@pytest.mark.rule("DLX-SET-06")
@pytest.mark.rule("DLX-SHD-02")
def test_a_shard_gives_its_spell_to_a_sorcerer_and_goes_to_the_winner() -> None:
    with_sorcerer = force(1, 1, DWARF_KING, {"id": 21, "token": "sorcerer", "spells": [], "shards": ["red"]})
    state = duel(with_sorcerer, options={"advanced": True})
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "ranged", 1)
    assert "cast fireball shard:red" in legal(state)  # red: Fireball (DLX-SHD-01)
    no_sorcerer = force(1, 1, DWARF_KING, {"id": 22, "shards": ["red"]})
    state = duel(no_sorcerer, options={"advanced": True})
    state, _ = act(state, "attack gorefort bonefield 3")
    assert not any("shard" in a for a in legal(state))  # only a sorcerer uses a shard (DLX-SET-06)
    dice(state, 1, 1, 1, 6, 6, 6)
    while state.battle is not None:
        options = sorted(legal(state))
        state, _ = act(state, "done" if "done" in options else options[0])
    assert state.owner("bonefield") == 0 and state.spaces["bonefield"].shard_list() == ["red"]


@pytest.mark.rule("DLX-SHD-03")
def test_equal_shards_on_both_sides_cancel() -> None:
    attackers = force(0, 5, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer", "shards": ["blue"]})
    defenders = force(1, 1, DWARF_KING, {"id": 21, "token": "sorcerer", "shards": ["red"]})
    state = duel(defenders, attackers=attackers, options={"advanced": True})
    state, _ = act(state, "attack gorefort bonefield 3 with 11")
    for _ in range(4):
        assert not any("shard" in a for a in legal(state))
        state, _ = act(state, "done")


@pytest.mark.rule("DLX-SPC-SHI")
def test_invincible_shield_stops_the_attackers_hits_for_the_round_but_not_the_return_blows() -> None:
    attackers = force(0, 5, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer"})
    defenders = force(1, 2, DWARF_KING, {"id": 21, "token": "sorcerer", "spells": []})
    state = duel(
        defenders,
        attackers=attackers,
        players=[{"people": "orcs"}, {"people": "dwarves", "hand": ["invincible_shield"]}],
    )
    state, _ = act(state, "attack gorefort bonefield 3 with 11")
    state, _ = until(state, "cards")
    assert state.pending().player == 1  # the defender plays first (DLX-CMB-05)
    dice(state, 1, 1, 1, 1, 1, 6, 6, 6)
    state, events = act(state, "play invincible_shield", "done")
    state, more = until(state, "retreat")
    events += more
    rolls = [e for e in events if e.kind == "roll"]
    assert rolls[0].data["hits"] == 0 and rolls[1].data["hits"] == 1
    assert len(state.battle.dfn.fighters) == 4


@pytest.mark.rule("DLX-SPC-TEL")
def test_a_defending_sorcerer_teleports_away_with_the_king() -> None:
    defenders = force(1, 2, DWARF_KING, {"id": 21, "token": "sorcerer", "spells": []})
    state = duel(
        defenders,
        players=[{"people": "orcs"}, {"people": "dwarves", "hand": ["teleport"]}],
        spaces={"khaz_thurn": force(1, 2)},
    )
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "ranged", 1)
    assert "play teleport" in legal(state)
    state, _ = act(state, "play teleport")
    decision = state.pending()
    assert (decision.kind, decision.player) == ("escape", 1)  # the defender chooses who goes, and where
    options = legal(state)
    assert "teleport 21 khaz_thurn 2 with 20,21" in options and "teleport 21 khaz_thurn 0 with 21" in options
    assert all(" bonefield " not in o and "with" in o and "21" in o.split(" with ")[1] for o in options)
    state, events = act(state, "teleport 21 khaz_thurn 2 with 20,21")
    assert "escape" in kinds(events) and state.battle is None
    assert state.owner("bonefield") == 0
    khaz = state.spaces["khaz_thurn"]
    assert khaz.units == 6 and khaz.has_token("king")
    assert "teleport" in state.spell_deck.discard_pile
    # the owner may leave some behind to hold the space: the King stays with one unit here
    state = duel(
        defenders,
        players=[{"people": "orcs"}, {"people": "dwarves", "hand": ["teleport"]}],
        spaces={"khaz_thurn": force(1, 2)},
    )
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "ranged", 1)
    state, _ = act(state, "play teleport", "teleport 21 khaz_thurn 1 with 21")
    assert state.battle is not None and len(state.battle.dfn.fighters) == 2
    assert state.spaces["khaz_thurn"].units == 4


@pytest.mark.rule("DLX-SPC-DIS")
@pytest.mark.rule("DLR-SCR-02")
def test_dispel_magic_cancels_an_elemental_summoned_from_elsewhere() -> None:
    def summon(answer: str):
        state = build(
            players=[
                {"people": "orcs", "hand": ["summon_earth_elemental"]},
                {"people": "dwarves", "hand": ["dispel_magic"]},
            ],
            spaces={
                "gorefort": force(0, 3, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer"}),
                "bonefield": force(1, 4),
                "khaz_thurn": force(1, 1, DWARF_KING),
            },
        )
        dice(state, 1, 1, 6, 6)
        state, _ = act(state, "summon summon_earth_elemental bonefield")
        decision = state.pending()
        assert decision.kind == "dispel" and decision.player == 1
        return act(state, answer)

    kept, events = summon("answer yes")
    assert "dispelled" in kinds(events) and kept.spaces["bonefield"].units == 4
    assert {"dispel_magic", "summon_earth_elemental"} <= set(kept.spell_deck.discard_pile)
    struck, events = summon("answer no")
    assert struck.spaces["bonefield"].units == 2


@pytest.mark.rule("DLR-SCR-01")
@pytest.mark.rule("DLR-SCR-07")
def test_a_heal_scroll_is_played_by_any_sorcerer_then_discarded_and_hands_stay_secret() -> None:
    attackers = force(0, 5, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer", "spells": []})
    state = duel(
        force(1, 2, DWARF_KING),
        attackers=attackers,
        players=[{"people": "orcs", "hand": ["scroll_heal", "storm"]}, {"people": "dwarves"}],
    )
    assert "hand" not in state.view(1)["players"][0] and state.view(1)["players"][0]["hand_size"] == 2
    dice(state, 6, 6, 6, 6, 1, 6, 6)
    state, _ = act(state, "attack gorefort bonefield 3 with 11")
    state, _ = until(state, "heal", 0)
    state, _ = act(state, "play scroll_heal")
    state, _ = until(state, "retreat")
    assert len(state.battle.att.fighters) == 4  # the hit unit was saved
    state, _ = act(state, "retreat gorefort")
    assert "scroll_heal" in state.spell_deck.discard_pile


@pytest.mark.rule("DLX-FAQ-05")
@pytest.mark.rule("DLR-INC-02")
def test_taking_a_kingdom_takes_the_gold_kept_there() -> None:
    state = build(
        players=[{"people": "orcs", "gold": 0}, {"people": "dwarves", "gold": 11}],
        spaces={
            "tusk_ridge": force(0, 5, {"id": 10, "token": "king"}),
            "gorefort": force(1, 1),
            "khaz_thurn": force(1, 1, DWARF_KING),
        },
    )
    dice(state, 1, 6)
    state, events = act(state, "attack tusk_ridge gorefort 1")
    assert "gold_taken" in kinds(events)
    assert state.players[0].gold + state.players[1].gold == 11 and state.players[0].gold in (5, 6)


@pytest.mark.rule("DLR-HID-03")
def test_the_owner_orders_its_pieces_for_the_spells_that_remove_units_at_once() -> None:
    defenders = force(
        1, 0, DWARF_KING, {"id": 21, "token": "sorcerer", "spells": []}, {"id": 22, "token": "hero"}
    )
    attackers = force(
        0, 5, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer", "spells": ["fireball"]}
    )

    def fireball(order: str | None):
        state = duel(defenders, attackers=attackers)
        state, _ = act(state, "attack gorefort bonefield 3 with 11")
        decision = state.pending()
        assert (decision.kind, decision.player, decision.rule) == ("order", 1, "DLR-HID-03")
        options = legal(state)
        assert "done" in options and len(options) == 6  # the five other orders of three pieces
        state, _ = act(state, order or "done")
        state, _ = until(state, "ranged", 0)
        state, _ = act(state, "cast fireball p11")
        return {f.id for f in state.battle.dfn.fighters}

    assert fireball(None) == {"p20", "p21"}  # as they stood: the hero first
    assert fireball("lose 21,22,20") == {"p20", "p22"}  # the owner gives up the sorcerer first


@pytest.mark.rule("DLR-SCR-02")
@pytest.mark.rule("DLR-HID-03")
def test_the_owner_orders_its_pieces_before_an_elemental_summoned_from_elsewhere() -> None:
    def summon(order: str | None, pieces: tuple[dict, ...]):
        state = build(
            players=[{"people": "orcs", "hand": ["summon_earth_elemental"]}, {"people": "dwarves"}],
            spaces={
                "gorefort": force(0, 3, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer"}),
                "bonefield": force(1, 1, *pieces),
                "khaz_thurn": force(1, 1, DWARF_KING),
            },
        )
        dice(state, 1, 1, 6, 6)
        state, _ = act(state, "summon summon_earth_elemental bonefield")
        if order is None:
            return state, None
        decision = state.pending()
        options = legal(state)
        view = state.view(0)
        state, _ = act(state, order)
        return state, (decision, options, view)

    two = ({"id": 21, "token": "sorcerer", "spells": []}, {"id": 23, "token": "decoy"})
    state, asked = summon("done", two)
    decision, options, view = asked
    assert (decision.kind, decision.player, decision.rule) == ("elemental_order", 1, "DLR-HID-03")
    assert options == {"done", "lose 21,23"}
    # the others see the question and the count of hidden tokens, never which pieces they are
    assert view["questions"][0]["kind"] == "elemental_order" and "pieces" not in view["spaces"]["bonefield"]
    assert [pc.id for pc in state.spaces["bonefield"].pieces] == [21]  # as they stood: the decoy first
    state, _ = summon("lose 21,23", two)
    assert [pc.id for pc in state.spaces["bonefield"].pieces] == [23]  # the owner gives up the sorcerer
    # one token-bearing unit: nothing to order, the elemental strikes at once
    state, _ = summon(None, two[:1])
    assert not state.questions and "bonefield" not in state.spaces
