"""Scenario tests of Conquest of Nerath's battle model (warhorn.games.nerath.battle_model), dice scripted."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from warhorn.engine.errors import IllegalActionError
from warhorn.engine.rng import Rng, ScriptedRng
from warhorn.games.nerath.battle_model import (
    BEHOLDER,
    DEFAULT_LOSS_ORDER,
    MEDUSA,
    TROLL,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    apply_damage,
    battle_outcome,
    check_sides,
    damage_capacity,
    default_assignment,
    dungeon_penalty,
    fight_battle,
    guardian_from,
    heal,
    hit_chance,
    legal_assignments,
    normalize_loss_order,
    parse_army,
    roll_volley,
    successor_sides,
    validate_assignment,
    volley_dice,
    volley_event,
)


def side(text: str, **kw: object) -> BattleSide:
    return BattleSide.of(text, **kw)  # type: ignore[arg-type]


def dungeon(*guardians: Guardian, hit_min: int | None = None) -> BattleSide:
    return BattleSide.of({}, guardians=guardians, hit_min=hit_min)


# --- army text ----------------------------------------------------------------


def test_parse_army_accepts_singular_plural_and_long_names() -> None:
    assert parse_army("4 soldiers, 2 siege engines, dragon; 1 air elemental + 3 wizards") == {
        "soldier": 4,
        "siege": 2,
        "dragon": 1,
        "elemental": 1,
        "mage": 3,
    }
    assert BattleSide.of({"Soldiers": 2, "castle": 1}).counts() == {"soldier": 2, "castle": 1}


def test_parse_army_names_the_bad_word() -> None:
    with pytest.raises(ArmyError, match="goblin"):
        parse_army("2 goblin")
    with pytest.raises(ArmyError, match="whole number"):
        BattleSide.of({"soldier": -1})


# --- dice ---------------------------------------------------------------------


@pytest.mark.rule("NER-PCS-01")
def test_six_or_more_hits_on_every_die() -> None:
    army = side("1 soldier, 1 warrior, 1 monster, 1 dragon")
    # soldier d6, warrior d10, monster d12, dragon d20 (volley order = piece table order)
    rng = ScriptedRng([6, 5, 6, 5])
    volley = roll_volley(army, side("1 soldier"), rng, attacking=True, first_strike=False)
    assert [(r.who, r.faces, r.hits) for r in volley.rolls] == [
        ("soldier", ((6, 6),), 1),
        ("warrior", ((10, 5),), 0),
        ("monster", ((12, 6),), 1),
        ("dragon", ((20, 5),), 0),
    ]
    assert volley.hits == 2
    assert hit_chance(6, 6) == 1 / 6
    assert hit_chance(8, 6) == 3 / 8
    assert hit_chance(20, 6) == 15 / 20


@pytest.mark.rule("NER-PCS-02")
def test_siege_engine_rolls_two_d8_attacking_and_one_defending() -> None:
    siege = side("1 siege")
    enemy = side("2 soldier")
    attack = volley_dice(siege, enemy, attacking=True, sea=False, first_strike=False)
    defend = volley_dice(siege, enemy, attacking=False, sea=False, first_strike=False)
    assert [r.dice for r in attack] == [(8, 8)]
    assert [r.dice for r in defend] == [(8,)]
    volley = roll_volley(siege, enemy, ScriptedRng([7, 8]), attacking=True, first_strike=False)
    assert volley.hits == 2


@pytest.mark.rule("NER-PCS-03")
def test_mage_rolls_only_in_the_first_strike_step_attacking_and_defending() -> None:
    army = side("1 mage, 1 soldier")
    enemy = side("1 soldier")
    for attacking in (True, False):
        fs = volley_dice(army, enemy, attacking=attacking, sea=False, first_strike=True)
        normal = volley_dice(army, enemy, attacking=attacking, sea=False, first_strike=False)
        assert [r.who for r in fs] == ["mage"]
        assert [r.who for r in normal] == ["soldier"]


@pytest.mark.rule("NER-PCS-03")
@pytest.mark.rule("NER-BAT-02")
def test_first_strike_kill_happens_before_the_victim_rolls() -> None:
    rng = ScriptedRng([6])  # the mage's d10; the soldier is dead before its step
    result = fight_battle(side("1 mage"), side("1 soldier"), rng, record=True)
    assert result.outcome is BattleOutcome.ATTACKER_WINS
    assert result.rounds == 1
    assert rng.remaining == ()
    assert len(result.log) == 1 and result.log[0].first_strike


@pytest.mark.rule("NER-BAT-02")
def test_round_is_first_strike_step_then_everyone_else() -> None:
    # Round 1: FS: attacker mage 2 (miss), defender mage 6 (hit -> attacker soldier dies).
    # Normal: attacker warrior 6 (hit), defender soldier 1, castle 1.
    # The defender loses its soldier; round 2: FS: attacker mage 6 kills the defender mage,
    # defender mage rolls 1 at the same time; normal: warrior 9 hits the castle (inactive),
    # the castle rolls 2. The defence cannot fight: attacker wins.
    rng = ScriptedRng([2, 6, 6, 1, 1, 6, 1, 9, 2])
    result = fight_battle(
        side("1 soldier, 1 warrior, 1 mage"), side("1 soldier, 1 mage, 1 castle"), rng, record=True
    )
    assert rng.remaining == ()
    steps = [(s.first_strike, s.attacker_volley.hits, s.defender_volley.hits) for s in result.log]
    assert steps == [(True, 0, 1), (False, 1, 0), (True, 1, 0), (False, 1, 0)]
    assert result.log[0].attacker.counts() == {"warrior": 1, "mage": 1}
    assert result.outcome is BattleOutcome.ATTACKER_WINS
    assert result.attacker.counts() == {"warrior": 1, "mage": 1}
    assert result.defender.counts() == {"castle": 1}


@pytest.mark.rule("NER-PCS-06")
@pytest.mark.rule("NER-BAT-08")
def test_elemental_rolls_two_d8_at_sea_one_on_land() -> None:
    elemental = side("1 elemental")
    enemy = side("1 warship")
    land = volley_dice(elemental, enemy, attacking=True, sea=False, first_strike=False)
    sea = volley_dice(elemental, enemy, attacking=True, sea=True, first_strike=False)
    assert [r.dice for r in land] == [(8,)]
    assert [r.dice for r in sea] == [(8, 8)]


# --- damage -------------------------------------------------------------------


@pytest.mark.rule("NER-PCS-07")
@pytest.mark.rule("NER-BAT-03")
@pytest.mark.rule("NER-BAT-05")
def test_lone_dragon_hit_twice_in_one_volley_survives_and_heals() -> None:
    # Round 1: dragon 20 (kills one soldier), soldiers 6, 6 -> only one damage can go to the dragon.
    # Round 2: dragon 6 kills the last soldier, which rolls 1.
    rng = ScriptedRng([20, 6, 6, 6, 1])
    result = fight_battle(side("1 dragon"), side("2 soldier"), rng, record=True)
    assert result.log[1].attacker_damage == {"dragon": 1}
    assert result.log[1].attacker.describe() == "1 damaged dragon"
    assert result.outcome is BattleOutcome.ATTACKER_WINS
    assert result.attacker.describe() == "1 dragon"  # healed (NER-BAT-05)
    assert rng.remaining == ()


@pytest.mark.rule("NER-BAT-05")
def test_piece_made_resilient_by_a_card_survives_its_first_damage_and_heals() -> None:
    tough = BattleSide.of("2 soldier", resilient=["soldier"])
    hurt = apply_damage(tough, {"soldier": 2}, hits=2)
    assert hurt.describe() == "2 damaged soldier" and hurt.can_fight
    assert default_assignment(hurt, 1) == {"wounded-soldier": 1}
    assert heal(apply_damage(hurt, {"wounded-soldier": 1}, hits=1)).describe() == "1 soldier"


@pytest.mark.rule("NER-PCS-07")
def test_damaged_dragon_dies_from_a_second_damage_in_a_later_volley() -> None:
    dragon = side("1 dragon")
    hurt = apply_damage(dragon, {"dragon": 1}, hits=1)
    assert hurt.count("dragon") == 1 and hurt.can_fight
    dead = apply_damage(hurt, {"wounded-dragon": 1}, hits=1)
    assert dead.count("dragon") == 0 and not dead.remains


@pytest.mark.rule("NER-BAT-03")
def test_assignment_must_use_distinct_pieces_and_all_takeable_hits() -> None:
    army = side("1 dragon, 2 soldier")
    validate_assignment(army, {"dragon": 1, "soldier": 2}, 5)  # 2 excess hits lost
    with pytest.raises(IllegalActionError) as err:
        validate_assignment(army, {"dragon": 1, "wounded-dragon": 1, "soldier": 1}, 3)
    assert err.value.rule == "NER-BAT-03"
    with pytest.raises(IllegalActionError, match="must be assigned"):
        validate_assignment(army, {"soldier": 1}, 2)
    with pytest.raises(IllegalActionError, match="undamaged soldier"):
        validate_assignment(army, {"soldier": 3}, 3)
    with pytest.raises(IllegalActionError, match="unknown damage target"):
        validate_assignment(army, {"goblin": 1}, 1)
    for odd in (
        "troll@²:d6",
        "troll@1:d٦",
        "troll@0:d8",
    ):  # digits to str.isdigit, not to int: refused like any unknown target
        with pytest.raises(IllegalActionError, match="unknown damage target"):
            validate_assignment(army, {odd: 1}, 1)
    assert damage_capacity(army) == 3


@pytest.mark.rule("NER-BAT-03")
def test_double_up_option_lets_a_piece_take_a_second_damage_only_after_everyone_has_one() -> None:
    lone = side("1 dragon")
    validate_assignment(lone, {"dragon": 1, "wounded-dragon": 1}, 2, double_up=True)
    assert not apply_damage(lone, {"dragon": 1, "wounded-dragon": 1}, double_up=True, hits=2).remains
    army = side("1 dragon, 1 soldier")
    with pytest.raises(IllegalActionError, match="once every piece"):
        validate_assignment(army, {"dragon": 1, "wounded-dragon": 1}, 2, double_up=True)
    assert damage_capacity(army, double_up=True) == 3
    assert default_assignment(army, 3, double_up=True) == {"dragon": 1, "soldier": 1, "wounded-dragon": 1}


@pytest.mark.rule("NER-BAT-03")
def test_default_loss_order_is_the_documented_one() -> None:
    assert DEFAULT_LOSS_ORDER[0] == "dragon" and DEFAULT_LOSS_ORDER[-1] == "wounded-dragon"
    army = side("1 dragon, 1 soldier, 1 siege, 1 warrior, 1 mage, 1 monster, 1 elemental, 1 castle")
    assert list(default_assignment(army, 99)) == [
        "dragon",
        "soldier",
        "siege",
        "warrior",
        "mage",
        "monster",
        "elemental",
        "castle",
    ]
    hurt = apply_damage(side("1 dragon, 1 soldier"), {"dragon": 1})
    assert default_assignment(hurt, 1) == {"soldier": 1}
    assert default_assignment(hurt, 2) == {"soldier": 1, "wounded-dragon": 1}
    custom = normalize_loss_order(["monsters", "wounded-dragon"])
    assert custom[:2] == ("monster", "wounded-dragon") and len(custom) == len(set(custom))
    with pytest.raises(ArmyError):
        normalize_loss_order(["soldier", "soldiers"])


@pytest.mark.rule("NER-BAT-04")
def test_ordinary_pieces_die_from_one_damage() -> None:
    after = apply_damage(side("3 soldier, 1 monster"), {"soldier": 2, "monster": 1}, hits=3)
    assert after.counts() == {"soldier": 1}


def test_successor_sides_match_default_assignment_applied() -> None:
    """The calculator's transitions are the game's own damage code, hit count by hit count."""
    army = side("1 dragon, 2 soldier, 1 siege, 1 castle")
    for sea, start in ((False, army), (True, side("2 warship, 3 warrior, 1 dragon"))):
        succ = successor_sides(start, DEFAULT_LOSS_ORDER, sea=sea)
        for h, got in enumerate(succ):
            assert got == apply_damage(start, default_assignment(start, h), sea=sea)


# --- castles ------------------------------------------------------------------


@pytest.mark.rule("NER-BAT-06")
@pytest.mark.rule("NER-BAT-15")
def test_damaged_castle_goes_inactive_and_alone_it_is_beaten() -> None:
    # Round 1: attacker soldiers 6, 6 (2 hits: the soldier dies, the castle goes inactive);
    # defender soldier 1, castle 2 (misses).
    rng = ScriptedRng([6, 6, 1, 2])
    result = fight_battle(side("2 soldier"), side("1 soldier, 1 castle"), rng, record=True)
    last = result.log[-1].defender
    assert last.describe() == "1 inactive castle"
    assert not last.can_fight and last.remains
    assert result.outcome is BattleOutcome.ATTACKER_WINS
    assert result.defender.describe() == "1 castle"  # active again after the battle, now captured


@pytest.mark.rule("NER-BAT-06")
def test_inactive_castle_neither_rolls_nor_takes_damage() -> None:
    army = apply_damage(side("1 castle, 1 soldier"), {"castle": 1}, hits=1)
    rollers = volley_dice(army, side("1 soldier"), attacking=False, sea=False, first_strike=False)
    assert [r.who for r in rollers] == ["soldier"]
    assert damage_capacity(army) == 1
    with pytest.raises(IllegalActionError) as err:
        validate_assignment(army, {"wounded-castle": 1}, 1)
    assert err.value.rule == "NER-BAT-06"
    assert default_assignment(army, 3) == {"soldier": 1}
    assert heal(army).describe() == "1 soldier, 1 castle"


# --- outcome and retreat ------------------------------------------------------


@pytest.mark.rule("NER-BAT-15")
def test_outcomes_when_one_or_both_sides_are_gone() -> None:
    nothing = side("")
    inactive = apply_damage(side("1 castle"), {"castle": 1})
    assert battle_outcome(side("1 soldier"), side("1 soldier")) is None
    assert battle_outcome(side("1 soldier"), inactive) is BattleOutcome.ATTACKER_WINS
    assert battle_outcome(nothing, inactive) is BattleOutcome.DEFENDER_WINS
    assert battle_outcome(nothing, nothing) is BattleOutcome.MUTUAL_DESTRUCTION
    mutual = fight_battle(side("1 soldier"), side("1 soldier"), ScriptedRng([6, 6]))
    assert mutual.outcome is BattleOutcome.MUTUAL_DESTRUCTION


@pytest.mark.rule("NER-BAT-12")
def test_retreat_only_after_a_complete_round() -> None:
    # The attacker starts at its retreat size, yet fights the first round.
    rng = ScriptedRng([1, 1])
    result = fight_battle(side("1 soldier"), side("1 soldier"), rng, retreat=RetreatRule(at_or_below=1))
    assert result.outcome is BattleOutcome.ATTACKER_RETREATS and result.rounds == 1
    rng = ScriptedRng([1, 1, 1, 1, 1, 1])
    result = fight_battle(side("2 soldier"), side("1 soldier"), rng, retreat=RetreatRule(after_rounds=2))
    assert result.outcome is BattleOutcome.ATTACKER_RETREATS and result.rounds == 2
    assert result.attacker.counts() == {"soldier": 2}
    with pytest.raises(ArmyError):
        RetreatRule(after_rounds=0)


# --- sea ----------------------------------------------------------------------


@pytest.mark.rule("NER-BAT-08")
def test_sea_battle_admits_only_flyers_warships_and_carried_heroes() -> None:
    check_sides(side("1 warship, 2 warrior"), side("1 dragon, 1 elemental"), sea=True)
    with pytest.raises(ArmyError, match="NER-BAT-08"):
        check_sides(side("1 warship, 1 soldier"), side("1 warship"), sea=True)
    with pytest.raises(ArmyError, match="aboard warships"):
        check_sides(side("1 warship, 3 mage"), side("1 warship"), sea=True)
    rollers = volley_dice(
        side("1 warship, 1 warrior, 1 dragon"),
        side("1 warship"),
        attacking=True,
        sea=True,
        first_strike=False,
    )
    assert [(r.who, r.dice) for r in rollers] == [("warrior", (10,)), ("dragon", (20,)), ("warship", (8,))]


@pytest.mark.rule("NER-BAT-11")
def test_carried_mage_keeps_first_strike_at_sea() -> None:
    fs = volley_dice(
        side("1 warship, 1 mage"), side("1 warship"), attacking=True, sea=True, first_strike=True
    )
    assert [(r.who, r.dice) for r in fs] == [("mage", (10,))]


@pytest.mark.rule("NER-SEA-07")
def test_heroes_sink_with_their_warship() -> None:
    fleet = side("1 warship, 2 warrior")
    assert not apply_damage(fleet, {"warship": 1}, sea=True, hits=1).remains
    fleet = side("2 warship, 2 warrior, 1 mage")
    after = apply_damage(fleet, {"warship": 1}, sea=True, hits=1)
    assert after.counts() == {"warrior": 1, "mage": 1, "warship": 1}
    assert apply_damage(fleet, {"warship": 1}, sea=False).counts()["warrior"] == 2


# --- dungeons -----------------------------------------------------------------


@pytest.mark.rule("NER-DUN-03")
def test_guardian_loses_one_die_per_damage_and_dies_with_none() -> None:
    troll = dungeon(TROLL)
    one = apply_damage(troll, {"troll@1:d8": 1}, hits=1)
    assert one.guardian_dice == ((8,),) and one.can_fight
    assert not apply_damage(one, {"troll@1:d8": 1}, hits=1).remains
    with pytest.raises(IllegalActionError) as err:
        validate_assignment(dungeon(BEHOLDER), {"beholder@1:d8": 1}, 1)
    assert err.value.rule == "NER-DUN-03"
    # roller's choice; the default gives up the weakest die (the Beholder's d6) first
    assert default_assignment(dungeon(BEHOLDER), 1) == {"beholder@1:d6": 1}
    validate_assignment(dungeon(BEHOLDER), {"beholder@1:d20": 1}, 1)


@pytest.mark.rule("NER-DUN-03")
@pytest.mark.rule("NER-DUN-05")
def test_two_heroes_kill_a_troll_in_one_volley() -> None:
    # Heroes need 7+ against the troll: 7 and 9 hit; guardians are not pieces, so both
    # damage land on the troll. The troll's 2xd8 roll 1, 2 at the same time.
    rng = ScriptedRng([7, 9, 1, 2])
    result = fight_battle(side("2 warrior"), dungeon(TROLL), rng, record=True)
    assert result.outcome is BattleOutcome.ATTACKER_WINS and result.rounds == 1
    assert result.defender.guardians == ()


@pytest.mark.rule("NER-DUN-02")
def test_several_guardians_fight_together_and_split_damage() -> None:
    pair = dungeon(TROLL, BEHOLDER)
    rollers = volley_dice(pair, side("1 warrior"), attacking=False, sea=False, first_strike=False)
    assert [(r.who, r.dice) for r in rollers] == [("Troll", (8, 8)), ("Beholder", (6, 20))]
    assert default_assignment(pair, 2) == {"beholder@2:d6": 1, "troll@1:d8": 1}
    validate_assignment(pair, {"troll@1:d8": 2, "beholder@2:d20": 1}, 3)
    after = apply_damage(pair, {"troll@1:d8": 2, "beholder@2:d20": 1}, hits=3)
    assert [g.name for g in after.guardians_alive] == ["Beholder"]


@pytest.mark.rule("NER-DUN-04")
def test_first_strike_guardian_kills_before_the_hero_rolls() -> None:
    rng = ScriptedRng([6])  # Medusa's d20 in the first-strike step
    result = fight_battle(side("1 warrior"), dungeon(MEDUSA), rng, record=True)
    assert result.outcome is BattleOutcome.DEFENDER_WINS and rng.remaining == ()


@pytest.mark.rule("NER-DUN-04")
def test_first_strike_guardian_rolls_with_first_strike_heroes() -> None:
    # FS step: mage 7 and Medusa 6 at the same time: both die -> mutual destruction.
    rng = ScriptedRng([7, 6])
    result = fight_battle(side("1 mage"), dungeon(MEDUSA), rng)
    assert result.outcome is BattleOutcome.MUTUAL_DESTRUCTION


@pytest.mark.rule("NER-DUN-05")
def test_hit_penalty_applies_to_every_hero_die_against_all_guardians_all_battle() -> None:
    heroes = side("1 warrior, 1 mage")
    both = dungeon(TROLL, BEHOLDER)
    assert dungeon_penalty(both) == 7
    assert {r.hit_min for r in volley_dice(heroes, both, attacking=True, sea=False, first_strike=False)} == {
        7
    }
    assert {
        r.hit_min
        for r in volley_dice(heroes, dungeon(BEHOLDER), attacking=True, sea=False, first_strike=True)
    } == {6}
    troll_dead = apply_damage(both, {"troll@1:d8": 2})
    assert dungeon_penalty(troll_dead) == 7  # the penalty lasts the whole battle
    # guardians themselves hit on 6+
    assert {r.hit_min for r in volley_dice(both, heroes, attacking=False, sea=False, first_strike=False)} == {
        6
    }
    volley = roll_volley(side("1 warrior"), both, ScriptedRng([6]), attacking=True, first_strike=False)
    assert volley.hits == 0


@pytest.mark.rule("NER-CRD-05")
@pytest.mark.rule("NER-DUN-05")
def test_card_hit_number_overrides_dungeon_penalty() -> None:
    heroes = side("1 warrior", hit_min=5)
    volley = roll_volley(heroes, dungeon(TROLL), ScriptedRng([5]), attacking=True, first_strike=False)
    assert volley.hits == 1


@pytest.mark.rule("NER-DUN-07")
def test_surviving_guardians_return_to_full_dice() -> None:
    hurt = apply_damage(dungeon(TROLL, BEHOLDER), {"troll@1:d8": 1, "beholder@2:d6": 1, "beholder@2:d20": 1})
    healed = heal(hurt)
    assert healed.guardians == (TROLL,) and healed.guardian_dice == ((8, 8),)


@pytest.mark.rule("NER-MOV-04")
def test_only_heroes_fight_guardians_and_dungeons_hold_no_pieces() -> None:
    with pytest.raises(ArmyError, match="only heroes"):
        check_sides(side("1 soldier, 1 warrior"), dungeon(TROLL))
    with pytest.raises(ArmyError, match="castles never attack"):
        check_sides(side("1 castle"), side("1 soldier"))


def test_fight_battle_without_record_rolls_the_same_dice() -> None:
    a = side("4 soldier, 2 siege, 2 warrior, 1 mage, 1 dragon")
    d = side("5 soldier, 2 monster, 1 mage, 1 castle, 1 siege")
    for seed in range(20):
        fast = fight_battle(a, d, Rng(seed))
        full = fight_battle(a, d, Rng(seed), record=True)
        assert (fast.outcome, fast.rounds, fast.attacker, fast.defender) == (
            full.outcome,
            full.rounds,
            full.attacker,
            full.defender,
        )


def test_volley_event_is_a_public_chance_event_with_every_face() -> None:
    army = side("1 soldier, 1 siege")
    volley = roll_volley(army, side("1 soldier"), ScriptedRng([6, 2, 8]), attacking=True, first_strike=False)
    event = volley_event(volley, "Karkoth")
    assert event.chance and event.visible_to is None
    assert event.data["dice"] == [[6, 6], [8, 2], [8, 8]]
    assert event.data["hits"] == 2
    assert [u["who"] for u in event.data["units"]] == ["soldier", "siege"]


def test_guardian_from_content_definition() -> None:
    @dataclass
    class TileDef:
        id: str = "hydra"
        name: str = "Hydra"
        dice: tuple[int, ...] = (10, 10, 10)
        first_strike: bool = False
        hero_hit_min: int = 8
        reward_gold: int = 4

    hydra = guardian_from(TileDef())
    assert hydra == Guardian("hydra", "Hydra", (10, 10, 10), False, 8, 4)
    with pytest.raises(ArmyError):
        Guardian("bad", "Bad", ())


def test_a_battle_nobody_can_win_is_refused() -> None:
    never = side("1 soldier", hit_min=7)
    with pytest.raises(ArmyError, match="undecided"):
        fight_battle(never, never, Rng(1), max_rounds=50)


@pytest.mark.rule("NER-BAT-03")
def test_legal_assignments_are_exactly_the_valid_ones() -> None:
    army = apply_damage(side("2 dragon, 2 soldier, 1 castle"), {"dragon": 1})
    # healthy: 1 dragon, 2 soldier, 1 castle; damaged: 1 dragon -> 5 pieces can take damage
    ways = legal_assignments(army, 2)
    assert len(ways) == len({tuple(sorted(w.items())) for w in ways})
    for w in ways:
        validate_assignment(army, w, 2)
    # choose 2 from slots (1, 2, 1, 1): coefficient of x^2 in (1+x)^3 (1+x+x^2) = 3 + 3 + 1 = 7
    assert len(ways) == 7
    assert default_assignment(army, 2) in ways
    assert legal_assignments(army, 9) == [{"dragon": 1, "soldier": 2, "castle": 1, "wounded-dragon": 1}]
    lone = side("1 dragon, 1 soldier")
    assert legal_assignments(lone, 3, double_up=True) == [{"dragon": 1, "soldier": 1, "wounded-dragon": 1}]
    for w in legal_assignments(dungeon(TROLL, BEHOLDER), 3):
        validate_assignment(dungeon(TROLL, BEHOLDER), w, 3)
    assert len(legal_assignments(dungeon(TROLL, BEHOLDER), 3)) == 3  # 3 of the 4 dice: 2 + 1 ways
