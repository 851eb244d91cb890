"""What battles contain, in the exact odds (issue 18 item 5): allied defenders (NER-BAT-07), Run Amok
(NER-BAT-20) and dungeons with any number of guardians (NER-DUN-02/03).

Each case is checked three ways: small battles computed by hand, an independent exact recursion in
fractions, and a seeded Monte Carlo of the game itself (``NerathState``: the battle state machine of
``rules/battle_flow.py``, the decisions answered by the loss order the calculator assumes).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction as F
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.nerath.boards import small_board
from tests.games.nerath.scenario import position
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng
from warhorn.games.nerath.actions import AssignDamage, RunAmok, SplitDamage
from warhorn.games.nerath.battle_model import (
    FULL_DEFAULT_LOSS_ORDER,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    apply_damage,
    battle_outcome,
    damage_capacity,
    default_assignment,
    guardian_from,
    hit_chance,
    volley_dice,
)
from warhorn.games.nerath.board import KINGDOM_IDS
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.odds import battle_odds

K, V, IC, N = 0, 1, 2, 3


def close(x: float, y: F | float, tol: float = 1e-12) -> bool:
    return abs(x - float(y)) < tol


# --- hand-computed ------------------------------------------------------------------------------


@pytest.mark.rule("NER-BAT-07")
def test_allied_defenders_hand_computed_rule_and_agreement() -> None:
    """One soldier attacks a soldier and an allied castle. Per round the defence hits the attacker
    with 1 - 5/6 * 1/4 = 19/24; the attacker lives and hits with 5/24 * 1/6 = 5/144.

    By the rule (NER-BAT-07) the single damage is odd and the allies have one piece each: a lot
    sends it to the soldier (the castle fights on alone: the attacker then wins 1/24 of each
    round, 1/19 in all) or to the castle (inactive; the soldier fights on: 5/36 of each round,
    5/11 in all). As one army by the loss order the soldier always takes it."""
    per_round_hit = F(5, 144)
    repeat = 1 - F(25, 144)
    rule = per_round_hit * (F(1, 2) * F(1, 19) + F(1, 2) * F(5, 11)) / repeat
    one_army = per_round_hit * F(1, 19) / repeat
    assert (rule, one_army) == (F(265, 24871), F(5, 2261))

    fixed = battle_odds("1 soldier", "1 soldier", ally="1 castle", allied_damage="fixed")
    assert close(fixed.attacker_win, rule) and close(fixed.defender_win, 1 - rule)
    assert fixed.allied_split == "rule" and "NER-BAT-07" in fixed.allied_split_note

    agreed = battle_odds("1 soldier", "1 soldier", ally="1 castle")
    assert close(agreed.attacker_win, one_army)  # here the best agreement is the one army's split
    assert agreed.allied_split == "best" and "best of every agreement" in agreed.allied_split_note
    assert close(agreed.defender_survivors["castle"], 1 - one_army, 1e-12)


@pytest.mark.rule("NER-BAT-07")
def test_allied_odd_damage_goes_to_the_ally_with_more_pieces() -> None:
    """One round, then the attacker retreats: its single soldier hits with 1/6 (whether or not it
    survives, the volleys are simultaneous). By the rule that odd damage goes to the ally with
    more pieces, the one with two soldiers: 11/6 soldiers are left on average and the dragon is
    untouched. Agreeing as one army, the dragon takes it and heals: both soldiers stay."""
    one_round = RetreatRule(after_rounds=1)
    rule = battle_odds("1 soldier", "2 soldier", ally="1 dragon", allied_damage="fixed", retreat=one_round)
    assert close(rule.defender_survivors["soldier"], F(11, 6))
    assert close(rule.defender_survivors["dragon"], 1)
    agreed = battle_odds("1 soldier", "2 soldier", ally="1 dragon", retreat=one_round)
    assert agreed.allied_split == "one_army"
    assert close(agreed.defender_survivors["soldier"], 2)
    # the dragon (d20, hits 15/20) and two soldiers (d6) all miss with 1/4 * (5/6)^2
    assert close(agreed.attacker_retreats, F(1, 4) * F(25, 36))


@pytest.mark.rule("NER-BAT-20")
def test_run_amok_chances_hand_computed() -> None:
    """A monster (d12: hits 7/12) against a soldier (d6: 1/6): the attacker wins a round with
    7/12 * 5/6 = 35/72 and the round repeats with 5/12 * 5/6 = 25/72, so it wins 35/47 with its
    monster alive, which may then run amok into one of the open territories."""
    o = battle_odds("1 monster", "1 soldier", amok_targets=2)
    assert len(o.amok_monsters) == 2
    assert close(o.amok_monsters[0], 0) and close(o.amok_monsters[1], F(35, 47))
    assert close(o.run_amok_chance, F(35, 47))
    assert close(o.expected_amok_conquests(), F(35, 47))
    assert close(o.expected_amok_conquests(0), 0)
    assert o.to_json()["run_amok"]["expected_conquests"] == pytest.approx(35 / 47)
    # a win with a soldier and no monster left gives nothing to run amok (monsters lost first here)
    two = battle_odds("1 monster, 1 soldier", "1 soldier", loss_order=["monster"])
    assert close(sum(two.amok_monsters), two.attacker_win)
    assert two.amok_monsters[0] > 0
    # only land battles: nothing at sea, nothing in a dungeon, nothing without monsters
    assert battle_odds("2 soldier", "1 soldier").amok_monsters == ()
    assert battle_odds("2 warrior", dungeon=["medusa"]).amok_monsters == ()
    with pytest.raises(ArmyError, match="NER-BAT-20"):
        battle_odds("1 monster", "1 soldier", amok_targets=-1)


@pytest.mark.rule("NER-BAT-20")
def test_run_amok_conquests_are_capped_by_the_open_territories() -> None:
    o = battle_odds("3 monster", "1 soldier", amok_targets=1)
    assert close(o.expected_amok_conquests(), o.run_amok_chance)
    assert o.expected_amok_conquests(3) > o.expected_amok_conquests(1)
    assert close(o.expected_amok_conquests(3), sum(m * p for m, p in enumerate(o.amok_monsters)))


@pytest.mark.rule("NER-DUN-02")
@pytest.mark.rule("NER-DUN-03")
def test_a_dungeon_with_many_guardians_hand_computed() -> None:
    """A warrior (d10: 1/2) against four one-die guardians that each hit on a d6 (1/6): every
    round it removes a die with 1/2 and survives with (5/6)^k while k remain."""
    goblin = Guardian("gob", "Goblin", (6,))
    want = F(1)
    for k in range(4, 0, -1):
        live = F(5, 6) ** k
        # the round ends with: warrior hits and lives (1/2 live) -> next; otherwise dies or repeats
        want *= F(1, 2) * live / (1 - F(1, 2) * live)
    o = battle_odds("1 warrior", dungeon=[goblin] * 4)
    assert close(o.attacker_win, want)
    assert close(
        o.defender_survivors["gob"], sum(x.defender.get("gob", 0) * x.probability for x in o.outcomes)
    )


# --- an independent exact recursion for allied defenders -------------------------------------------


def _hits(rollers: Any) -> dict[int, F]:
    dist = {0: F(1)}
    for r in rollers:
        for sides in r.dice:
            good = max(0, sides - max(r.hit_min, 1) + 1)
            p = F(min(good, sides), sides)
            nxt: dict[int, F] = {}
            for k, q in dist.items():
                nxt[k] = nxt.get(k, F(0)) + q * (1 - p)
                nxt[k + 1] = nxt.get(k + 1, F(0)) + q * p
            dist = nxt
    return dist


def _rule_shares(hits: int, one: BattleSide, two: BattleSide) -> list[tuple[F, int, int]]:
    """NER-BAT-07 without agreement, written from the rule: half each, the odd one to the ally with
    more pieces (a lot when equal), what one cannot take to the other."""
    if hits % 2 == 0:
        odds_to = [(F(1), None)]
    elif one.piece_total != two.piece_total:
        odds_to = [(F(1), 0 if one.piece_total > two.piece_total else 1)]
    else:
        odds_to = [(F(1, 2), 0), (F(1, 2), 1)]
    out = []
    caps = (damage_capacity(one), damage_capacity(two))
    for w, odd in odds_to:
        share = [hits // 2, hits // 2]
        if odd is not None:
            share[odd] += 1
        for x, y in ((0, 1), (1, 0)):
            if share[x] > caps[x]:
                share[y] += share[x] - caps[x]
                share[x] = caps[x]
        out.append((w, share[0], share[1]))
    return out


def _merged(a: BattleSide, b: BattleSide) -> BattleSide:
    return BattleSide(
        tuple(x + y for x, y in zip(a.healthy, b.healthy, strict=True)),
        tuple(x + y for x, y in zip(a.damaged, b.damaged, strict=True)),
    )


def _allied_reference(att: BattleSide, one: BattleSide, two: BattleSide) -> tuple[F, F]:
    """(attacker wins, expected rounds) with the rule's split, no retreat, by plain recursion."""
    memo: dict[tuple[BattleSide, BattleSide, BattleSide], tuple[F, F]] = {}

    def take(side: BattleSide, n: int) -> BattleSide:
        return apply_damage(side, default_assignment(side, n))

    def step(a: BattleSide, d1: BattleSide, d2: BattleSide, fs: bool) -> dict[Any, F]:
        both = _merged(d1, d2)
        ha = _hits(volley_dice(a, both, attacking=True, sea=False, first_strike=fs))
        hd = _hits(volley_dice(both, a, attacking=False, sea=False, first_strike=fs))
        out: dict[Any, F] = {}
        for x, px in ha.items():
            for w, s1, s2 in _rule_shares(x, d1, d2):
                n1, n2 = take(d1, s1), take(d2, s2)
                for y, py in hd.items():
                    key = (take(a, y), n1, n2)
                    out[key] = out.get(key, F(0)) + px * py * w
        return out

    def value(a: BattleSide, d1: BattleSide, d2: BattleSide) -> tuple[F, F]:
        key = (a, d1, d2)
        if key in memo:
            return memo[key]
        done = battle_outcome(a, _merged(d1, d2))
        if done is not None:
            return (F(1) if done is BattleOutcome.ATTACKER_WINS else F(0)), F(0)
        ends: dict[Any, F] = {}
        for (a1, x1, y1), p1 in step(a, d1, d2, True).items():
            if battle_outcome(a1, _merged(x1, y1)) is not None:
                ends[(a1, x1, y1)] = ends.get((a1, x1, y1), F(0)) + p1
                continue
            for k2, p2 in step(a1, x1, y1, False).items():
                ends[k2] = ends.get(k2, F(0)) + p1 * p2
        stay = ends.pop(key, F(0))
        win, rounds = F(0), F(1)
        for (a2, x2, y2), p in ends.items():
            w2, r2 = value(a2, x2, y2)
            win += p * w2
            rounds += p * r2
        memo[key] = (win / (1 - stay), rounds / (1 - stay))
        return memo[key]

    return value(att, one, two)


ALLIED_CASES = [
    ("3 soldier", "2 soldier", "1 soldier"),
    ("3 soldier", "1 soldier, 1 castle", "1 soldier"),
    ("2 soldier, 1 mage", "1 dragon", "2 soldier"),
    ("4 soldier", "1 warrior, 1 soldier", "1 mage"),
    ("2 siege, 1 soldier", "1 monster", "1 soldier, 1 dragon"),
]


@pytest.mark.rule("NER-BAT-07")
@pytest.mark.parametrize(("attacker", "one", "two"), ALLIED_CASES)
def test_allied_rule_split_equals_an_independent_exact_recursion(attacker: str, one: str, two: str) -> None:
    got = battle_odds(attacker, one, ally=two, allied_damage="fixed")
    win, rounds = _allied_reference(BattleSide.of(attacker), BattleSide.of(one), BattleSide.of(two))
    assert close(got.attacker_win, win)
    assert close(got.expected_rounds, rounds, 1e-10)
    assert abs(got.attacker_win + got.defender_win + got.mutual_destruction - 1) < 1e-12
    # agreement: the best of every agreement, never worse for the defenders than either split
    agreed = battle_odds(attacker, one, ally=two)
    one_army = battle_odds(attacker, _merged(BattleSide.of(one), BattleSide.of(two)))
    assert agreed.attacker_win <= min(float(win), one_army.attacker_win) + 1e-12
    assert agreed.allied_split in ("best", "rule", "one_army")
    assert agreed.to_json()["allied_split"]["used"] == agreed.allied_split


def test_an_ally_alone_is_the_defender_and_dungeons_have_no_allies() -> None:
    alone = battle_odds("3 soldier", None, ally="2 soldier")
    plain = battle_odds("3 soldier", "2 soldier")
    assert close(alone.attacker_win, plain.attacker_win) and alone.allied_split is None
    with pytest.raises(ArmyError, match="NER-DUN-01"):
        battle_odds("2 warrior", dungeon=["troll"], ally="1 soldier")
    with pytest.raises(ArmyError, match="allied_damage"):
        battle_odds("2 soldier", "1 soldier", ally="1 soldier", allied_damage="maybe")


# --- the game itself, seeded --------------------------------------------------------------------

_BOARD = small_board()
_RANK = {key: i for i, key in enumerate(FULL_DEFAULT_LOSS_ORDER)}


def _token_rank(s: NerathState, token: str) -> tuple[Any, ...]:
    """Where a damage target stands in the calculator's loss order (guardians: weakest die first)."""
    if "@" in token:
        head, _, sides = token.rpartition(":d")
        tile, _, n = head.rpartition("@")
        g = s.board.guardian(tile)
        return (len(_RANK), hit_chance(int(sides), 6), g.first_strike, int(n), int(sides))
    return (_RANK[token.partition("(")[0]],)  # the same targets as the model's, a warship by itself


def _by_loss_order(s: NerathState, actions: list[Any]) -> Any:
    """The assignment that takes the targets first in the loss order (the calculator's chooser)."""
    return min(actions, key=lambda a: sorted(_token_rank(s, t) for t in a.targets))


def _one_army_split(s: NerathState, actions: list[SplitDamage]) -> SplitDamage:
    """The agreed split under which the allies lose pieces by the loss order, as one army."""
    from warhorn.games.nerath.rules.battle_flow import _damageable, token_of

    b = s.d.battle
    assert b is not None and b.split is not None
    pool = [
        (_token_rank(s, token_of(s, u)), k)
        for k in (b.split.proposer, b.split.partner)
        for u in _damageable(s, k)
    ]
    pool.sort()
    taken = [k for _rank, k in pool[: b.split.hits]]
    want = (taken.count(b.split.proposer), taken.count(b.split.partner))
    return next(a for a in actions if (a.shares[0][1], a.shares[1][1]) == want)


def _play_battle(
    s: NerathState, moves: list[str], *, run_amok: bool = False
) -> tuple[NerathState, list[Event]]:
    """Make the moves, end movement and answer every battle decision by the loss order (Run Amok:
    into the first open territory each time, when asked to); the state after the battle and
    every event."""
    events: list[Event] = []
    for text in [*moves, "pass"]:
        s, ev = s.apply(s.parse(text))
        events += ev
    while True:
        p = s.pending()
        if p is None or (s.d.battle is None and not s.d.amok):
            return s, events
        legal = s.legal_actions()
        if p.kind == "damage":
            pick = _by_loss_order(s, [a for a in legal if isinstance(a, AssignDamage)])
        elif p.kind == "damage_split":
            pick = _one_army_split(s, [a for a in legal if isinstance(a, SplitDamage)])
        elif p.kind == "split_answer":
            pick = s.parse("accept")
        elif p.kind == "continue_or_retreat":
            pick = s.parse("continue")
        elif p.kind == "run_amok" and run_amok:
            pick = next(a for a in legal if isinstance(a, RunAmok))
        else:  # card windows (no cards in hand), an amok offer declined
            pick = s.parse("pass")
        s, ev = s.apply(pick)
        events += ev


def _attacker_won(events: list[Event]) -> float:
    ends = [e for e in events if e.kind == "battle.end"]
    assert len(ends) == 1
    return float(ends[0].data["winner"] == "attacker")


def _game(
    pieces: list[tuple[int, str, str, int]],
    seed: int,
    options: dict[str, Any] | None = None,
    guardians: dict[str, list[str]] | None = None,
) -> NerathState:
    """Karkoth's movement phase with only ``pieces`` and face-down ``guardians``, real dice of ``seed``."""
    return position(pieces, options=options, guardians=guardians, board=_BOARD, rng=Rng(seed))


def _frequency(runs: int, trial: Callable[[int], float]) -> tuple[float, float]:
    values = [trial(seed) for seed in range(runs)]
    mean = sum(values) / runs
    var = sum((v - mean) ** 2 for v in values) / max(runs - 1, 1)
    return mean, math.sqrt(var / runs)


RUNS = 1500


def _agrees(mean: float, se: float, p: float) -> bool:
    return abs(mean - p) <= 4 * max(se, math.sqrt(max(p * (1 - p), 1e-4) / RUNS))


@pytest.mark.rule("NER-BAT-07")
@pytest.mark.parametrize("allied_damage", ["fixed", "agree"])
def test_allied_defence_odds_match_the_game(allied_damage: str) -> None:
    """Karkoth's 4 soldiers and a mage attack v2, held by Vailin's castle and soldier with allied
    Nerath's 3 soldiers; the game is played through its battle state machine, the allies
    splitting by the rule (``fixed``) or agreeing as one army (``agree``). The two ways differ
    by more than 5 points here, and the game's frequency sides with the calculator's way."""
    pieces = [
        (K, "k2", "soldier", 4),
        (K, "k2", "mage", 1),
        (V, "v2", "castle", 1),
        (V, "v2", "soldier", 1),
        (N, "v2", "soldier", 3),
    ]
    options = {"mode": "alliance", "players": 4, "allied_damage": allied_damage}
    rule = battle_odds("4 soldier, 1 mage", "1 castle, 1 soldier", ally="3 soldier", allied_damage="fixed")
    one_army = battle_odds("4 soldier, 1 mage", "1 castle, 4 soldier")
    agreed = battle_odds("4 soldier, 1 mage", "1 castle, 1 soldier", ally="3 soldier")
    assert agreed.allied_split == "best" and close(agreed.attacker_win, one_army.attacker_win)
    want, other = (rule, one_army) if allied_damage == "fixed" else (one_army, rule)

    def trial(seed: int) -> float:
        _s, events = _play_battle(_game(pieces, seed, options), ["move 4 soldier k2>v2", "move 1 mage k2>v2"])
        return _attacker_won(events)

    mean, se = _frequency(RUNS, trial)
    assert _agrees(mean, se, want.attacker_win), (mean, se, want.attacker_win)
    assert abs(mean - want.attacker_win) < abs(mean - other.attacker_win)


@pytest.mark.rule("NER-BAT-20")
def test_run_amok_odds_match_the_game() -> None:
    """Two monsters and a soldier take v2 from two soldiers; v1 and v3 are Vailin's and empty, so
    each surviving monster may conquer one of them."""
    pieces = [(K, "k2", "monster", 2), (K, "k2", "soldier", 1), (V, "v2", "soldier", 2)]
    want = battle_odds("2 monster, 1 soldier", "2 soldier", amok_targets=2)

    def trial(seed: int) -> float:
        s = _game(pieces, seed)
        _after, events = _play_battle(s, ["move 2 monster k2>v2", "move 1 soldier k2>v2"], run_amok=True)
        return float(sum(1 for e in events if e.kind == "amok"))

    mean, se = _frequency(RUNS, trial)
    assert abs(mean - want.expected_amok_conquests()) <= 4 * se + 1e-9, (mean, se)


@pytest.mark.rule("NER-DUN-02")
@pytest.mark.rule("NER-DUN-03")
def test_a_dungeon_with_four_guardians_matches_the_game() -> None:
    """Two warriors and a mage explore d1, where four guardians wait: a troll (heroes need 7+),
    a beholder and two goblin packs."""
    tiles = ["troll", "beholder", "goblins", "goblins"]
    pieces = [(K, "k3", "warrior", 2), (K, "k3", "mage", 1)]
    lookup = {t.id: guardian_from(t) for t in _BOARD.guardians}
    want = battle_odds("2 warrior, 1 mage", dungeon=tiles, guardians=lookup)

    def trial(seed: int) -> float:
        s = _game(pieces, seed, guardians={"d1": tiles})
        _s, events = _play_battle(s, ["move 2 warrior k3>d1", "move 1 mage k3>d1"])
        return _attacker_won(events)

    mean, se = _frequency(RUNS, trial)
    assert _agrees(mean, se, want.attacker_win), (mean, se, want.attacker_win)


def test_kingdom_ids_are_the_games() -> None:  # the helpers above name kingdoms by index
    assert KINGDOM_IDS[K] == "karkoth" and KINGDOM_IDS[N] == "nerath"


@pytest.mark.rule("NER-DUN-02")
@pytest.mark.rule("NER-DUN-05")
@pytest.mark.rule("NER-DUN-06")
def test_many_draws_of_guardians_solved_together_equal_each_battle_averaged() -> None:
    """dungeon_odds_over_draws (all draws in one stack, one heroes' chain per hit penalty) gives
    each draw's battle_odds, averaged: win chances, rounds, rewards, survivors and outcomes."""
    from warhorn.games.nerath.odds import dungeon_odds_over_draws

    tiles = {g.id: guardian_from(g) for g in _BOARD.guardians}
    med, tro, beh, gob = tiles["medusa"], tiles["troll"], tiles["beholder"], tiles["goblins"]
    draws = [
        (0.5, (gob, gob, beh, med, tro), 4.0),  # five guardians, heroes need 7+ (the troll)
        (0.3, (gob,), 2.0),  # one die: fewer hits than the heroes could take
        (0.2, (beh, med), 0.0),
    ]
    got = dungeon_odds_over_draws(BattleSide.of("3 warrior, 1 mage"), draws)
    parts = [(w, battle_odds("3 warrior, 1 mage", dungeon=list(gs)), r) for w, gs, r in draws]
    for name in (
        "attacker_win",
        "defender_win",
        "mutual_destruction",
        "expected_rounds",
        "attacker_gold_lost",
    ):
        assert close(getattr(got, name), sum(w * getattr(o, name) for w, o, _r in parts)), name
    assert close(got.expected_reward_gold, sum(w * o.attacker_win * r for w, o, r in parts))
    for gid in ("goblins", "beholder", "medusa", "troll"):
        want = sum(w * o.defender_survivors.get(gid, 0.0) for w, o, _r in parts)
        assert close(got.defender_survivors[gid], want), gid
    want_outcomes: dict[Any, float] = {}
    for w, o, _r in parts:
        for x in o.outcomes:
            key = (x.result, tuple(sorted(x.attacker.items())), tuple(sorted(x.defender.items())))
            want_outcomes[key] = want_outcomes.get(key, 0.0) + w * x.probability
    got_outcomes = {
        (x.result, tuple(sorted(x.attacker.items())), tuple(sorted(x.defender.items()))): x.probability
        for x in got.outcomes
    }
    assert max(abs(want_outcomes.get(k, 0) - got_outcomes.get(k, 0)) for k in want_outcomes) < 1e-12


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 3),
    st.integers(0, 2),
    st.lists(
        st.lists(st.sampled_from(["medusa", "troll", "beholder", "goblins"]), min_size=1, max_size=4),
        min_size=1,
        max_size=3,
    ),
)
def test_draws_solved_together_equal_each_battle_on_random_dungeons(
    warriors: int, mages: int, draws: list[list[str]]
) -> None:
    from warhorn.games.nerath.odds import dungeon_odds_over_draws

    if warriors + mages == 0:
        warriors = 1
    tiles = {g.id: guardian_from(g) for g in _BOARD.guardians}
    heroes = BattleSide.of({"warrior": warriors, "mage": mages})
    weighted = [(1 / len(draws), tuple(tiles[t] for t in d), 1.0) for d in draws]
    got = dungeon_odds_over_draws(heroes, weighted)
    parts = [battle_odds(heroes, dungeon=list(gs)) for _w, gs, _r in weighted]
    assert close(got.attacker_win, sum(o.attacker_win for o in parts) / len(parts))
    assert close(got.expected_rounds, sum(o.expected_rounds for o in parts) / len(parts), 1e-10)
