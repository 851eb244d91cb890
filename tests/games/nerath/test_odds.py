"""Exact battle odds (warhorn.games.nerath.odds): closed forms, invariants and a Monte Carlo
cross-check against the game's own battle code (fight_battle)."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warhorn.engine.rng import Rng
from warhorn.games.nerath.battle_model import (
    TROLL,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    Roller,
    apply_damage,
    battle_outcome,
    default_assignment,
    fight_battle,
    volley_dice,
)
from warhorn.games.nerath.odds import BattleOdds, battle_odds, resolve_guardians
from warhorn.games.nerath.pieces import PIECES


def close(x: float, y: F | float, tol: float = 1e-12) -> bool:
    return abs(x - float(y)) < tol


def total(o: BattleOdds) -> float:
    return o.attacker_win + o.defender_win + o.mutual_destruction + o.attacker_retreats


# --- closed forms ---------------------------------------------------------------------


@pytest.mark.rule("NER-PCS-01")
@pytest.mark.rule("NER-BAT-15")
def test_soldier_against_soldier() -> None:
    # Per round: each hits with 1/6, simultaneously. Leaving the round: 1 - (5/6)^2 = 11/36.
    o = battle_odds("1 soldier", "1 soldier")
    assert close(o.attacker_win, F(5, 11))
    assert close(o.defender_win, F(5, 11))
    assert close(o.mutual_destruction, F(1, 11))
    assert o.attacker_retreats == 0
    assert close(o.expected_rounds, F(36, 11))
    assert close(o.attacker_survivors["soldier"], F(5, 11))
    assert close(o.attacker_gold_lost, F(6, 11))
    assert close(o.defender_gold_lost, F(6, 11))
    assert abs(sum(x.probability for x in o.outcomes) - 1) < 1e-12


@pytest.mark.rule("NER-BAT-06")
@pytest.mark.rule("NER-BAT-15")
@pytest.mark.rule("NER-BAT-16")
def test_soldier_against_castle() -> None:
    # The soldier wins only if it hits while the castle (d20, 3/4) misses: 1/24 per round;
    # the castle wins with 3/4 (an inactive castle still holds the space if both hit).
    o = battle_odds("soldier", "castle")
    assert close(o.attacker_win, F(1, 19))
    assert close(o.defender_win, F(18, 19))
    assert o.mutual_destruction == 0
    assert close(o.expected_rounds, F(24, 19))
    assert close(o.defender_survivors["castle"], F(18, 19))  # captured otherwise
    assert close(o.defender_gold_lost, F(4, 19))
    won = [x for x in o.outcomes if x.result is BattleOutcome.ATTACKER_WINS]
    assert len(won) == 1 and won[0].castle_captured and won[0].defender == {}


@pytest.mark.rule("NER-PCS-07")
@pytest.mark.rule("NER-BAT-05")
def test_dragon_against_soldier() -> None:
    # Healthy dragon: wins at once with 3/4, gets damaged with 1/4*1/6; stays with 1/4*5/6.
    # Damaged dragon: win 5/8, mutual 1/8, lose 1/24, stay 5/24.
    o = battle_odds("dragon", "soldier")
    assert close(o.attacker_win, F(357, 361))
    assert close(o.mutual_destruction, F(3, 361))
    assert close(o.defender_win, F(1, 361))
    # a surviving dragon is healed: one whole dragon survives whenever the attacker wins
    assert close(o.attacker_survivors["dragon"], F(357, 361))


@pytest.mark.rule("NER-PCS-03")
@pytest.mark.rule("NER-BAT-02")
def test_mage_first_strike_against_soldier() -> None:
    # The mage (d10: 1/2) strikes first; a soldier it kills never rolls.
    o = battle_odds("1 mage", "1 soldier")
    assert close(o.attacker_win, F(6, 7))
    assert close(o.defender_win, F(1, 7))
    assert o.mutual_destruction == 0


@pytest.mark.rule("NER-PCS-02")
def test_siege_engine_attacks_with_two_dice() -> None:
    # Siege 2xd8 attacking: P(>=1 hit) = 1 - (5/8)^2 = 39/64, against a soldier's 1/6.
    p, q = F(39, 64), F(1, 6)
    o = battle_odds("1 siege", "1 soldier")
    leave = 1 - (1 - p) * (1 - q)
    assert close(o.attacker_win, p * (1 - q) / leave)
    # defending, a siege engine rolls one d8 (3/8)
    o2 = battle_odds("1 soldier", "1 siege")
    p2 = F(3, 8)
    assert close(o2.defender_win, p2 * (1 - q) / (1 - (1 - p2) * (1 - q)))


@pytest.mark.rule("NER-BAT-08")
def test_warship_against_warship() -> None:
    o = battle_odds("1 warship", "1 warship", sea=True)
    assert close(o.attacker_win, F(5, 13)) and close(o.mutual_destruction, F(3, 13))


@pytest.mark.rule("NER-PCS-06")
@pytest.mark.rule("NER-BAT-08")
def test_elemental_capsizes_with_two_dice_at_sea() -> None:
    p, q = F(39, 64), F(3, 8)
    o = battle_odds("1 elemental", "1 warship", sea=True)
    assert close(o.attacker_win, p * (1 - q) / (1 - (1 - p) * (1 - q)))


@pytest.mark.rule("NER-DUN-03")
@pytest.mark.rule("NER-DUN-05")
def test_warrior_against_troll() -> None:
    p = F(2, 5)  # the warrior needs 7+ on its d10
    q1 = F(3, 8)
    q2 = 1 - F(5, 8) ** 2
    stay2 = (1 - p) * (1 - q2)
    to_one = p * (1 - q2) / (1 - stay2)
    leave1 = 1 - (1 - p) * (1 - q1)
    o = battle_odds("1 warrior", dungeon=["troll"])
    assert close(o.attacker_win, to_one * p * (1 - q1) / leave1)
    assert close(o.mutual_destruction, to_one * p * q1 / leave1)
    assert abs(total(o) - 1) < 1e-12
    assert close(o.defender_survivors["troll"], o.defender_win)


@pytest.mark.rule("NER-CRD-05")
def test_better_hit_number_for_one_side() -> None:
    # hit on 5+: 2/6 per d6
    o = battle_odds("1 soldier", "1 soldier", attacker_hit_min=5)
    assert close(o.attacker_win, F(5, 8))
    # against a troll, a card's 5+ beats the 7+ penalty
    o = battle_odds("1 warrior", dungeon=[TROLL], attacker_hit_min=5)
    o_plain = battle_odds("1 warrior", dungeon=[TROLL])
    assert o.attacker_win > o_plain.attacker_win


# --- retreat ----------------------------------------------------------------------------


@pytest.mark.rule("NER-BAT-12")
def test_retreat_after_one_round() -> None:
    for rule in (RetreatRule(after_rounds=1), RetreatRule(at_or_below=1)):
        o = battle_odds("1 soldier", "1 soldier", retreat=rule)
        assert close(o.attacker_retreats, F(25, 36))
        assert close(o.attacker_win, F(5, 36))
        assert close(o.mutual_destruction, F(1, 36))
        assert close(o.expected_rounds, 1)
        assert close(o.attacker_survivors["soldier"], F(5, 36) + F(25, 36))


@pytest.mark.rule("NER-BAT-12")
def test_retreat_when_reduced() -> None:
    # 2 soldiers vs 1, retreat at 1 soldier: the attacker fights on only while it has 2.
    o = battle_odds("2 soldier", "1 soldier", retreat=RetreatRule(at_or_below=1))
    a2 = F(11, 36)  # at least one of two soldiers hits: 1 - (5/6)^2
    d = F(1, 6)
    leave = 1 - (1 - a2) * (1 - d)
    assert close(o.attacker_win, a2 / leave)  # the defender dies whenever it is hit
    assert close(o.attacker_retreats, (1 - a2) * d / leave)
    assert abs(total(o) - 1) < 1e-12


# --- API ------------------------------------------------------------------------------


def test_inputs_text_mapping_and_side_agree() -> None:
    a = battle_odds("2 soldiers, 1 siege engine", {"soldier": 2, "castles": 1})
    b = battle_odds({"soldier": 2, "siege": 1}, BattleSide.of("2 soldier, 1 castle"))
    assert a == b


def test_dungeon_guardians_by_object_id_and_custom_lookup() -> None:
    ogre = Guardian("ogre", "Ogre", (12,), reward_gold=3)
    by_obj = battle_odds("2 warrior", dungeon=[ogre])
    by_id = battle_odds("2 warrior", dungeon=["ogre"], guardians={"ogre": ogre})
    assert by_obj == by_id
    assert close(by_obj.expected_reward_gold, 3 * by_obj.attacker_win)
    assert resolve_guardians(["Medusa", "troll"])[1] is TROLL
    with pytest.raises(ArmyError, match="unknown guardian"):
        battle_odds("2 warrior", dungeon=["ogre"])
    with pytest.raises(ArmyError, match="only guardians"):
        battle_odds("2 warrior", "1 soldier", dungeon=["troll"])
    with pytest.raises(ArmyError, match="only heroes"):
        battle_odds("2 soldier", dungeon=["troll"])


def test_bad_names_and_impossible_battles_are_refused() -> None:
    with pytest.raises(ArmyError, match="goblin"):
        battle_odds("2 goblin", "1 soldier")
    with pytest.raises(ArmyError, match="NER-BAT-08"):
        battle_odds("1 warship, 1 soldier", "1 warship", sea=True)
    with pytest.raises(ArmyError, match="loss order"):
        battle_odds("1 soldier", "1 soldier", loss_order=["goblin"])


@pytest.mark.rule("NER-BAT-03")
def test_strict_rule_helps_a_lone_dragon_against_many() -> None:
    strict = battle_odds("1 dragon", "3 soldier")
    double = battle_odds("1 dragon", "3 soldier", double_up=True)
    assert strict.attacker_win > double.attacker_win


def test_outcomes_are_sorted_and_sum_to_one() -> None:
    o = battle_odds(
        "4 soldier, 2 siege, 2 warrior, 1 mage, 1 dragon", "5 soldier, 2 monster, 1 mage, 1 castle, 1 siege"
    )
    probs = [x.probability for x in o.outcomes]
    assert probs == sorted(probs, reverse=True)
    assert abs(sum(probs) - 1) < 1e-9
    assert abs(total(o) - 1) < 1e-12
    assert o.mutual_destruction == 0  # the castle always remains for the defender
    js = o.to_json(top=3)
    assert {"attacker_win", "defender_win", "mutual_destruction", "expected_rounds"} <= set(js)
    assert len(js["outcomes"]) == 3


def test_custom_loss_order_changes_survivors() -> None:
    default = battle_odds("3 soldier, 1 monster", "4 soldier")
    monsters_first = battle_odds("3 soldier, 1 monster", "4 soldier", loss_order=["monster"])
    assert monsters_first.attacker_survivors["monster"] < default.attacker_survivors["monster"]


# --- Monte Carlo cross-check against fight_battle ----------------------------------------


@dataclass(frozen=True)
class Case:
    attacker: str
    defender: str = ""
    sea: bool = False
    dungeon: tuple[str, ...] = ()
    retreat: RetreatRule | None = None
    double_up: bool = False
    attacker_hit_min: int | None = None

    def kwargs(self) -> dict[str, Any]:
        return {"sea": self.sea, "retreat": self.retreat, "double_up": self.double_up}


CASES = [
    Case("1 soldier", "1 soldier"),
    Case("3 soldier", "2 soldier, 1 castle"),
    Case("2 soldier, 1 siege", "2 soldier, 1 castle"),
    Case("1 dragon", "3 soldier"),
    Case("2 dragon", "1 dragon, 2 soldier"),
    Case("1 dragon", "3 soldier", double_up=True),
    Case("1 mage, 2 warrior", "1 mage, 2 soldier, 1 castle"),
    Case("2 monster, 1 elemental", "2 warrior, 1 siege"),
    Case("2 siege, 1 mage", "1 monster, 1 castle"),
    Case("2 warship, 1 mage, 1 warrior", "2 warship, 1 elemental", sea=True),
    Case("1 warship, 2 warrior", "1 elemental, 1 dragon", sea=True),
    Case("1 dragon, 1 elemental", "3 warship", sea=True),
    Case("2 warrior, 1 mage", dungeon=("troll",)),
    Case("1 warrior, 1 mage", dungeon=("medusa", "beholder")),
    Case("2 warrior", dungeon=("troll",), attacker_hit_min=5),
    Case("1 mage, 1 warrior", dungeon=("medusa",)),
    Case("4 soldier, 2 monster", "3 soldier, 1 monster", retreat=RetreatRule(at_or_below=2)),
    Case("3 siege, 2 soldier", "4 soldier, 1 castle", retreat=RetreatRule(after_rounds=2)),
    Case("1 soldier, 1 siege", "2 soldier", retreat=RetreatRule(at_or_below=2)),
    Case("3 soldier", "1 soldier, 1 castle", retreat=RetreatRule(at_or_below=1, after_rounds=3)),
    Case("2 dragon", "2 soldier, 1 castle", double_up=True),
    Case("1 warrior, 1 dragon", "1 mage, 1 soldier, 1 castle", retreat=RetreatRule(after_rounds=1)),
    Case(
        "4 soldier, 2 siege, 2 warrior, 1 mage, 1 dragon", "5 soldier, 2 monster, 1 mage, 1 castle, 1 siege"
    ),
]

RUNS = 10_000


def _sides(case: Case) -> tuple[BattleSide, BattleSide]:
    a = BattleSide.of(case.attacker, hit_min=case.attacker_hit_min)
    if case.dungeon:
        return a, BattleSide.of({}, guardians=resolve_guardians(case.dungeon))
    return a, BattleSide.of(case.defender)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.attacker} vs {c.defender or c.dungeon}" for c in CASES])
def test_exact_odds_match_fight_battle_frequencies(case: Case) -> None:
    """The calculator and the game's battle code share one model: 10,000 automatic battles land
    within three standard errors of every exact probability (fixed seed, so deterministic)."""
    exact = battle_odds(
        case.attacker,
        case.defender or None,
        dungeon=case.dungeon or None,
        attacker_hit_min=case.attacker_hit_min,
        **case.kwargs(),
    )
    attacker, defender = _sides(case)
    rng = Rng(20261125 + CASES.index(case))
    counts: Counter[BattleOutcome] = Counter()
    rounds: list[int] = []
    a_lost: list[int] = []
    d_lost: list[int] = []
    for _ in range(RUNS):
        result = fight_battle(attacker, defender, rng, **case.kwargs())
        counts[result.outcome] += 1
        rounds.append(result.rounds)
        a_lost.append(_gold(attacker) - _gold(result.attacker))
        kept = _gold(result.defender)
        if result.outcome is BattleOutcome.ATTACKER_WINS:
            kept -= 4 * result.defender.count("castle")  # captured (NER-BAT-16)
        d_lost.append(_gold(defender) - kept)
    expected = {
        BattleOutcome.ATTACKER_WINS: exact.attacker_win,
        BattleOutcome.DEFENDER_WINS: exact.defender_win,
        BattleOutcome.MUTUAL_DESTRUCTION: exact.mutual_destruction,
        BattleOutcome.ATTACKER_RETREATS: exact.attacker_retreats,
    }
    for outcome, p in expected.items():
        freq = counts[outcome] / RUNS
        se = math.sqrt(p * (1 - p) / RUNS)
        if se < 1e-9:
            assert abs(freq - p) < 1e-9, (outcome, freq, p)
        else:
            assert abs(freq - p) <= 3 * se, (outcome, freq, p, se)
    assert _within(rounds, exact.expected_rounds)
    assert _within(a_lost, exact.attacker_gold_lost)
    assert _within(d_lost, exact.defender_gold_lost)


def _gold(side: BattleSide) -> int:
    return sum(PIECES[pid].cost * n for pid, n in side.counts().items())


def _within(samples: list[int], expected: float) -> bool:
    mean = sum(samples) / len(samples)
    var = sum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
    return abs(mean - expected) <= 3 * math.sqrt(var / len(samples)) + 1e-9


# --- an independent exact reference (fractions, plain recursion) --------------------------


def _exact_hits(rollers: tuple[Roller, ...]) -> dict[int, F]:
    dist = {0: F(1)}
    for r in rollers:
        for sides in r.dice:
            p = F(max(0, min(sides, sides - r.hit_min + 1)), sides)
            nxt: dict[int, F] = {}
            for h, q in dist.items():
                nxt[h] = nxt.get(h, F(0)) + q * (1 - p)
                nxt[h + 1] = nxt.get(h + 1, F(0)) + q * p
            dist = nxt
    return dist


def _reference(
    attacker: BattleSide,
    defender: BattleSide,
    *,
    sea: bool = False,
    retreat: RetreatRule | None = None,
    double_up: bool = False,
) -> tuple[dict[str, F], F]:
    """Outcome probabilities and expected rounds by recursion over rounds, with the game's own
    dice and default damage functions and exact fractions; the "nobody is hit" self-loop is
    divided out. Independent of the calculator's state enumeration and matrices."""
    top = retreat.after_rounds if retreat is not None and retreat.after_rounds else 1
    memo: dict[tuple[BattleSide, BattleSide, int], tuple[dict[str, F], F]] = {}

    def step(a: BattleSide, d: BattleSide, fs: bool) -> dict[tuple[BattleSide, BattleSide], F]:
        ha = _exact_hits(volley_dice(a, d, attacking=True, sea=sea, first_strike=fs))
        hd = _exact_hits(volley_dice(d, a, attacking=False, sea=sea, first_strike=fs))
        out: dict[tuple[BattleSide, BattleSide], F] = {}
        for x, px in ha.items():
            for y, py in hd.items():
                na = apply_damage(
                    a, default_assignment(a, y, double_up=double_up), sea=sea, double_up=double_up
                )
                nd = apply_damage(
                    d, default_assignment(d, x, double_up=double_up), sea=sea, double_up=double_up
                )
                out[(na, nd)] = out.get((na, nd), F(0)) + px * py
        return out

    def value(a: BattleSide, d: BattleSide, r: int) -> tuple[dict[str, F], F]:
        key = (a, d, r)
        if key in memo:
            return memo[key]
        done = battle_outcome(a, d)
        if done is not None:
            return {done.value: F(1)}, F(0)
        if r > 0 and retreat is not None:
            rounds_fought = r if retreat.after_rounds else 1
            if retreat.at_or_below is not None and a.piece_total <= retreat.at_or_below:
                return {"attacker_retreats": F(1)}, F(0)
            if retreat.after_rounds is not None and rounds_fought >= retreat.after_rounds:
                return {"attacker_retreats": F(1)}, F(0)
        ends: dict[tuple[BattleSide, BattleSide], F] = {}
        for (a1, d1), p1 in step(a, d, True).items():
            if battle_outcome(a1, d1) is not None:
                ends[(a1, d1)] = ends.get((a1, d1), F(0)) + p1
                continue
            for (a2, d2), p2 in step(a1, d1, False).items():
                ends[(a2, d2)] = ends.get((a2, d2), F(0)) + p1 * p2
        r_next = min(r + 1, top)
        stay = ends.pop((a, d), F(0)) if r_next == r else F(0)
        dist: dict[str, F] = {}
        rounds = F(1)
        for (a2, d2), p in ends.items():
            sub, sub_rounds = value(a2, d2, r_next)
            for k, q in sub.items():
                dist[k] = dist.get(k, F(0)) + p * q
            rounds += p * sub_rounds
        result = ({k: q / (1 - stay) for k, q in dist.items()}, rounds / (1 - stay))
        memo[key] = result
        return result

    return value(attacker, defender, 0)


REFERENCE_CASES = [
    Case("2 soldier", "1 soldier, 1 castle"),
    Case("1 dragon, 1 soldier", "2 soldier"),
    Case("1 dragon", "2 soldier", double_up=True),
    Case("1 mage, 1 siege", "1 mage, 1 monster"),
    Case("1 warship, 1 mage", "1 elemental", sea=True),
    Case("1 warship, 2 warrior", "1 warship", sea=True),
    Case("1 warrior, 1 mage", dungeon=("troll", "medusa")),
    Case("2 warrior", dungeon=("beholder",), attacker_hit_min=5),
    Case("3 soldier", "2 soldier", retreat=RetreatRule(at_or_below=1)),
    Case("2 soldier, 1 siege", "2 soldier", retreat=RetreatRule(after_rounds=2)),
    Case("2 soldier, 1 dragon", "1 soldier, 1 castle", retreat=RetreatRule(at_or_below=2, after_rounds=3)),
    Case("1 soldier", "1 soldier", retreat=RetreatRule(at_or_below=1)),
]


@pytest.mark.parametrize(
    "case", REFERENCE_CASES, ids=[f"{c.attacker} vs {c.defender or c.dungeon}" for c in REFERENCE_CASES]
)
def test_calculator_equals_an_independent_exact_recursion(case: Case) -> None:
    got = battle_odds(
        case.attacker,
        case.defender or None,
        dungeon=case.dungeon or None,
        attacker_hit_min=case.attacker_hit_min,
        **case.kwargs(),
    )
    attacker, defender = _sides(case)
    want, rounds = _reference(
        attacker, defender, sea=case.sea, retreat=case.retreat, double_up=case.double_up
    )
    assert close(got.attacker_win, want.get("attacker_wins", F(0)))
    assert close(got.defender_win, want.get("defender_wins", F(0)))
    assert close(got.mutual_destruction, want.get("mutual_destruction", F(0)))
    assert close(got.attacker_retreats, want.get("attacker_retreats", F(0)))
    assert close(got.expected_rounds, rounds)


_LAND = ["soldier", "siege", "warrior", "mage", "monster", "elemental", "dragon"]


@settings(max_examples=40, deadline=None)
@given(
    st.dictionaries(st.sampled_from(_LAND), st.integers(1, 3), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from([*_LAND, "castle"]), st.integers(1, 3), min_size=1, max_size=3),
    st.one_of(st.none(), st.integers(0, 3)),
)
def test_invariants_on_random_land_battles(
    attacker: dict[str, int], defender: dict[str, int], retreat_at: int | None
) -> None:
    defender = {k: (1 if k == "castle" else n) for k, n in defender.items()}
    rule = RetreatRule(at_or_below=retreat_at) if retreat_at is not None else None
    o = battle_odds(attacker, defender, retreat=rule)
    parts = (o.attacker_win, o.defender_win, o.mutual_destruction, o.attacker_retreats)
    assert all(-1e-12 <= p <= 1 + 1e-12 for p in parts)
    assert abs(sum(parts) - 1) < 1e-9
    assert abs(sum(x.probability for x in o.outcomes) - 1) < 1e-9
    for name, n in attacker.items():
        assert -1e-9 <= o.attacker_survivors[name] <= n + 1e-9
    for name, n in defender.items():
        assert -1e-9 <= o.defender_survivors[name] <= n + 1e-9
    assert o.expected_rounds >= 1 - 1e-9
    if rule is None:
        assert o.attacker_retreats == 0


# --- the calculator's vectorised chain is the battle model's damage ------------------------


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["soldier", "siege", "warrior", "mage", "monster", "elemental", "dragon", "warship"]),
        st.integers(1, 4),
        min_size=1,
        max_size=4,
    ),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_side_chain_successors_are_the_battle_models(
    pieces: dict[str, int], castle: bool, sea: bool, double_up: bool
) -> None:
    """Every state the calculator reaches, after every number of hits, is what
    ``successor_sides`` (the game's damage model) gives (NER-BAT-03..06, NER-SEA-07)."""
    from warhorn.games.nerath import odds as odds_module
    from warhorn.games.nerath.battle_model import PIECE_IDS, normalize_loss_order, successor_sides

    if sea:
        pieces = {k: n for k, n in pieces.items() if PIECES[k].sea_dice}
        heroes = pieces.get("warrior", 0) + pieces.get("mage", 0)
        if heroes:
            pieces["warship"] = max(pieces.get("warship", 0), (heroes + 1) // 2)
    elif castle:
        pieces["castle"] = 1
    side = BattleSide.of(pieces)
    order = normalize_loss_order(None)
    chain = odds_module._side_chain(side, 6, False, sea, order, double_up)
    p = len(PIECE_IDS)
    rows = [tuple(r.tolist()) for r in chain.states]
    assert len(set(rows)) == len(rows)
    for i, row in enumerate(rows):
        s = BattleSide(tuple(row[:p]), tuple(row[p : 2 * p]), (), (), None, frozenset())
        for h, t in enumerate(successor_sides(s, order, sea=sea, double_up=double_up)):
            assert rows[int(chain.succ[i, h, 0])] == (*t.healthy, *t.damaged)


@pytest.mark.parametrize(
    "case", REFERENCE_CASES, ids=[f"{c.attacker} vs {c.defender or c.dungeon}" for c in REFERENCE_CASES]
)
def test_every_solver_path_gives_the_same_odds(case: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    """One linear system for small battles, rows with batched or row-by-row matrices for larger
    ones: the same numbers whichever the size picks."""
    from warhorn.games.nerath import odds as odds_module

    def run() -> BattleOdds:
        odds_module.clear_caches()
        return battle_odds(
            case.attacker,
            case.defender or None,
            dungeon=case.dungeon or None,
            attacker_hit_min=case.attacker_hit_min,
            **case.kwargs(),
        )

    results = []
    for whole, batched in ((10**9, 10**9), (0, 10**9), (0, 0)):
        monkeypatch.setattr(odds_module, "WHOLE_CHAIN_PAIRS", whole)
        monkeypatch.setattr(odds_module, "BATCHED_ROWS_STATES", batched)
        results.append(run())
    for other in results[1:]:
        for name in ("attacker_win", "defender_win", "mutual_destruction", "attacker_retreats"):
            assert close(getattr(other, name), getattr(results[0], name))
        assert close(other.expected_rounds, results[0].expected_rounds, 1e-9)
        assert len(other.outcomes) == len(results[0].outcomes)


@pytest.mark.parametrize(
    ("attacker", "defender", "hit_min"),
    [
        ("10 soldier", "10 soldier", None),
        ("12 soldier, 3 siege", "9 soldier, 1 castle", None),
        ("8 soldier, 2 monster", "6 soldier, 3 siege, 1 castle", None),
        ("14 soldier", "5 soldier, 2 siege", 5),
        ("3 soldier", "30 soldier", None),
    ],
)
def test_line_battles_solved_by_shifts_equal_the_row_solver(
    attacker: str, defender: str, hit_min: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sides whose states are one line each and no first strike: the shift-matrix solver
    (``_solve_lines``) gives the numbers of the general row solver, outcome by outcome."""
    from warhorn.games.nerath import odds as odds_module

    used = []
    solve_lines = odds_module._solve_lines

    def spy(*args: Any) -> Any:
        used.append(True)
        return solve_lines(*args)

    monkeypatch.setattr(odds_module, "_solve_lines", spy)
    odds_module.clear_caches()
    fast = battle_odds(attacker, defender, attacker_hit_min=hit_min)
    assert used, "the line solver was not used"
    monkeypatch.setattr(odds_module, "LINE_ROWS_STATES", 0)
    odds_module.clear_caches()
    used.clear()
    slow = battle_odds(attacker, defender, attacker_hit_min=hit_min)
    assert not used
    for name in ("attacker_win", "defender_win", "mutual_destruction", "expected_rounds"):
        assert close(getattr(fast, name), getattr(slow, name))
    for mine, theirs in (
        (fast.attacker_survivors, slow.attacker_survivors),
        (fast.defender_survivors, slow.defender_survivors),
    ):
        assert mine.keys() == theirs.keys()
        assert all(close(mine[k], theirs[k]) for k in mine)

    def ends(o: BattleOdds) -> dict[tuple[Any, ...], float]:
        return {
            (
                e.result,
                tuple(sorted(e.attacker.items())),
                tuple(sorted(e.defender.items())),
                e.castle_captured,
            ): e.probability
            for e in o.outcomes
        }

    got, want = ends(fast), ends(slow)
    assert got.keys() == want.keys()
    assert all(close(got[k], want[k]) for k in got)


@pytest.mark.parametrize("p", [1 / 6, 2 / 6, 5 / 6, 3 / 8, 1 / 10, 7 / 12, 1 / 20, 19 / 20])
def test_binomial_tables_from_pascal_equal_the_ratio_recurrence(
    p: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Up to PASCAL_ROWS - 1 dice a table of binomial chances is made from the Pascal triangle
    built at import, beyond that by the ratio recurrence: both give the binomial distribution
    (against math.comb) to 1e-12."""
    from warhorn.games.nerath import odds as odds_module

    sizes = (1, 7, 40, odds_module.PASCAL_ROWS - 1)
    odds_module.clear_caches()
    by_pascal = {n: odds_module._binomial_table(n, p) for n in sizes}
    monkeypatch.setattr(odds_module, "PASCAL_ROWS", 0)
    odds_module.clear_caches()
    by_ratio = {n: odds_module._binomial_table(n, p) for n in sizes}
    odds_module.clear_caches()
    for n in sizes:
        assert by_pascal[n].shape == by_ratio[n].shape == (n + 1, n + 1)
        assert abs(by_pascal[n] - by_ratio[n]).max() < 1e-12
        for dice in {0, 1, n // 2, n}:
            want = [
                math.comb(dice, k) * p**k * (1 - p) ** (dice - k) if k <= dice else 0.0 for k in range(n + 1)
            ]
            assert max(abs(x - y) for x, y in zip(by_pascal[n][dice].tolist(), want, strict=True)) < 1e-12
            assert abs(by_pascal[n][dice].sum() - 1) < 1e-12


def _ends(o: BattleOdds) -> dict[tuple[Any, ...], float]:
    """Each end of a battle (result, what is left of each side) with its chance."""
    return {
        (e.result, tuple(sorted(e.attacker.items())), tuple(sorted(e.defender.items())), e.castle_captured): (
            e.probability
        )
        for e in o.outcomes
    }


@settings(max_examples=25, deadline=None)
@given(
    st.dictionaries(st.sampled_from(_LAND), st.integers(1, 6), min_size=1, max_size=4),
    st.dictionaries(st.sampled_from([*_LAND, "castle"]), st.integers(1, 6), min_size=1, max_size=4),
)
def test_pascal_and_ratio_binomials_give_the_same_battle_odds(
    attacker: dict[str, int], defender: dict[str, int]
) -> None:
    """Random armies: the odds with binomial tables from the Pascal triangle (small dice counts)
    and with every table by the ratio recurrence (the path of large dice counts) agree to 1e-12."""
    from warhorn.games.nerath import odds as odds_module

    defender = {k: (1 if k == "castle" else n) for k, n in defender.items()}
    odds_module.clear_caches()
    small = battle_odds(attacker, defender)
    saved = odds_module.PASCAL_ROWS
    try:
        odds_module.PASCAL_ROWS = 0  # hypothesis runs many examples: no monkeypatch fixture here
        odds_module.clear_caches()
        large = battle_odds(attacker, defender)
    finally:
        odds_module.PASCAL_ROWS = saved
        odds_module.clear_caches()
    for name in (
        "attacker_win",
        "defender_win",
        "mutual_destruction",
        "expected_rounds",
        "defender_gold_lost",
    ):
        assert close(getattr(small, name), getattr(large, name))
    got, want = _ends(small), _ends(large)
    assert got.keys() == want.keys()
    assert all(close(got[k], want[k]) for k in got)
