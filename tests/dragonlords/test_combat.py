"""The dice of a combat round (steps 2, 5, 6, 7) and the exact odds of a plain battle, with scripted dice."""

from __future__ import annotations

import pydantic
import pytest

from warhorn.engine.rng import Rng, ScriptedRng
from warhorn.games.dragonlords.combat import (
    Fighter,
    bloodlust_surplus,
    dice_round,
    hits,
    side_modifier,
    take_hits,
)
from warhorn.games.dragonlords.content import shipped_content
from warhorn.games.dragonlords.odds import PlainBattleRequest, plain_battle_odds


def units(prefix: str, count: int, attack: int = 3) -> tuple[Fighter, ...]:
    return tuple(Fighter(f"{prefix}{i}", attacks=(attack,)) for i in range(count))


@pytest.mark.rule("DLR-CMB-02")
def test_a_roll_at_or_under_the_tas_hits_and_the_die_is_the_targets_defence() -> None:
    assert hits(3, 3) and not hits(4, 3)
    assert hits(6, 7)  # a TAS above the die always hits
    assert not hits(1, 0)  # a TAS of 0 never hits
    # Against a monster of defence 10 the party rolls a d10: a 7 misses at TAS 3.
    worm = Fighter("worm", attacks=(4,), defence=10, wounds=2)
    result = dice_round(ScriptedRng([7, 2, 5]), units("a", 2), (worm,))
    assert [r.die for r in result.attacker_rolls] == [10, 10]
    assert [r.hit for r in result.attacker_rolls] == [False, True]
    assert result.defenders == (Fighter("worm", attacks=(4,), defence=10, wounds=1),)  # one wound of two
    assert result.defender_rolls[0].die == 6 and result.defender_rolls[0].hit is False  # 5 > 4


@pytest.mark.rule("DLR-PEO-01")
def test_barbarians_hit_on_four_others_on_three_every_unit_defends_with_a_d6() -> None:
    peoples = shipped_content().peoples
    assert peoples["barbarians"].attack == 4
    assert {p.attack for name, p in peoples.items() if name != "barbarians"} == {3}
    barbarians = units("b", 2, attack=peoples["barbarians"].attack)
    orcs = units("o", 2, attack=peoples["orcs"].attack)
    result = dice_round(ScriptedRng([4, 5, 4, 3]), barbarians, orcs)
    assert [r.hit for r in result.attacker_rolls] == [True, False]
    assert [r.hit for r in result.defender_rolls] == [False, True]
    assert {r.die for r in (*result.attacker_rolls, *result.defender_rolls)} == {6}


@pytest.mark.rule("DLR-CMB-01")
def test_tas_adds_the_sides_modifiers_level_three_heroes_and_the_kingdom_penalty() -> None:
    hero = Fighter("h", attacks=(3,), hero_level=3)
    side = (hero, *units("a", 2))
    # Hope +1, enemy Panic -1, Wrath +2; one level-3 hero +1; attacking a Kingdom -1.
    modifier = side_modifier((1, -1, 2), fighters=side, attacking_a_kingdom=True)
    assert modifier == 2
    result = dice_round(ScriptedRng([6, 5, 6, 1]), side, units("d", 1), attacker_modifier=modifier)
    assert [r.tas for r in result.attacker_rolls] == [8, 5, 5]  # the hero's own +3 on its die
    assert [r.hit for r in result.attacker_rolls] == [True, True, False]


@pytest.mark.rule("DLR-CMB-03")
def test_both_sides_roll_before_casualties_and_units_out_of_action_do_not_roll() -> None:
    attackers = units("a", 2)
    defenders = (Fighter("d0"), Fighter("d1", condition="petrified"), Fighter("d2"))
    # Attackers: 1 and 2 hit twice; defenders d0 and d2 roll 1 and 6 (d1 is petrified, no die).
    result = dice_round(ScriptedRng([1, 2, 1, 6]), attackers, defenders)
    assert [r.fighter for r in result.defender_rolls] == ["d0", "d2"]
    assert result.defenders_removed == ("d0", "d1")  # the owner's casualty order
    assert result.attackers_removed == ("a0",)  # d0 struck back though it died in the same step 7


@pytest.mark.rule("DLR-PEO-02")
def test_elf_sneak_attack_removes_the_hit_defenders_before_they_roll() -> None:
    elves = units("e", 3)
    orcs = units("o", 3)
    result = dice_round(ScriptedRng([1, 1, 6, 2]), elves, orcs, sneak_attack=True)
    assert result.defenders_removed == ("o0", "o1")
    assert [r.fighter for r in result.defender_rolls] == ["o2"]  # only the unhit Orc strikes back
    assert result.attackers_removed == ("e0",)


def test_hits_beyond_a_side_are_lost() -> None:
    survivors, removed = take_hits(units("d", 4), 5)
    assert survivors == () and len(removed) == 4
    assert bloodlust_surplus(5, units("d", 4)) == 1


@pytest.mark.rule("DLX-SPL-BLD")
def test_bloodlust_adds_one_and_turns_surplus_hits_on_its_own_side() -> None:
    # The seed's example: Necromancers under Bloodlust score 5 hits on 4 Elves and lose one of their own.
    necromancers = units("n", 6)
    elves = units("e", 4)
    modifier = side_modifier((1,))  # Bloodlust's +1
    faces = [4, 4, 4, 4, 4, 6, 6, 6, 6, 6]  # six Necromancer dice at 4, then four Elf misses
    result = dice_round(
        ScriptedRng(faces), necromancers, elves, attacker_modifier=modifier, attacker_bloodlust=True
    )
    assert result.attacker_hits == 5 and result.defenders == ()
    assert result.attackers_removed == ("n0",)
    calm = dice_round(ScriptedRng(faces), necromancers, elves, attacker_modifier=modifier)
    assert calm.attackers_removed == ()


@pytest.mark.rule("DLX-MON-RED")
def test_red_dragon_rolls_two_dice_at_six_and_five() -> None:
    # In a quest its whole attack is these two dice: it has no Dragon Fire against a party.
    dragon = Fighter("dragon", attacks=(6, 5), defence=12, wounds=3)
    result = dice_round(ScriptedRng([12, 11, 6, 6]), units("p", 2), (dragon,))
    assert [(r.tas, r.hit) for r in result.defender_rolls] == [(6, True), (5, False)]


def test_plain_odds_one_against_one_at_even_chances() -> None:
    odds = plain_battle_odds(PlainBattleRequest(attackers=1, defenders=1))
    assert odds.attacker_wins == pytest.approx(1 / 3)
    assert odds.defender_holds == pytest.approx(1 / 3)
    assert odds.both_destroyed == pytest.approx(1 / 3)


def test_plain_odds_of_a_sneak_attack() -> None:
    odds = plain_battle_odds(PlainBattleRequest(attackers=1, defenders=1, sneak_attack=True))
    assert odds.attacker_wins == pytest.approx(7 / 12)
    assert odds.defender_holds == pytest.approx(1 / 3)
    assert odds.both_destroyed == pytest.approx(1 / 12)


def test_plain_odds_sum_to_one_and_a_kingdom_penalty_lowers_them() -> None:
    even = plain_battle_odds(PlainBattleRequest(attackers=8, defenders=5))
    kingdom = plain_battle_odds(PlainBattleRequest(attackers=8, defenders=5, attacker_tas=2))
    assert sum(even.outcomes.values()) == pytest.approx(1.0)
    assert kingdom.attacker_wins < even.attacker_wins
    retreat = plain_battle_odds(PlainBattleRequest(attackers=8, defenders=5, retreat_at=2))
    assert retreat.attacker_retreats > 0
    assert sum(retreat.outcomes.values()) == pytest.approx(1.0)


def test_plain_odds_agree_with_rolling_the_same_dice() -> None:
    request = PlainBattleRequest(attackers=4, defenders=3, attacker_tas=4)
    odds = plain_battle_odds(request)
    rng = Rng(17)
    wins = 0
    games = 4000
    for _ in range(games):
        attackers, defenders = units("a", 4, attack=4), units("d", 3)
        while attackers and defenders:
            result = dice_round(rng, attackers, defenders)
            attackers, defenders = result.attackers, result.defenders
        wins += bool(attackers) and not defenders
    assert wins / games == pytest.approx(odds.attacker_wins, abs=0.03)


def test_a_bad_odds_question_names_the_field() -> None:
    with pytest.raises(pydantic.ValidationError, match="attackers"):
        PlainBattleRequest(attackers=0, defenders=3)


def test_odds_refuse_a_battle_nobody_can_win() -> None:
    with pytest.raises(ValueError, match="attacker_tas/defender_tas"):
        plain_battle_odds(PlainBattleRequest(attackers=2, defenders=2, attacker_tas=0, defender_tas=0))
