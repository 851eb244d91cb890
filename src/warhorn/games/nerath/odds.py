"""Exact battle odds for Conquest of Nerath (issue 4).

:func:`battle_odds` computes the exact probability distribution of a battle's
result by solving the absorbing Markov chain of the battle, using the very
damage model of :mod:`warhorn.games.nerath.battle` (the one
:func:`~warhorn.games.nerath.battle.fight_battle` and the game rules use).

The chain
---------
Under a fixed loss order a side's state is a :class:`~.battle.BattleSide`
(counts of healthy and damaged pieces, inactive castles, guardian dice). The
states one side can reach are enumerated once with
:func:`~.battle.successor_sides` and sorted so that damage only moves a side
forward. A battle state is a pair (attacker state, defender state) at one of
two moments: the start of a round (*X*) or between the first-strike volley
and the normal volley (*Y*). A volley's hit count is the convolution of the
per-die Bernoulli hit chances (binomials of equal dice, convolved with numpy).
Both sides' damage in a volley is independent given the pair, so the flow
from one pair to the next is an outer product.

The pairs are processed one attacker state (a *row*) at a time, in order.
Within a row the attacker takes no damage, and the only cycle is a row's
own "no hits" transitions; the row's flows are the solution of a small
triangular linear system ``x (I - C_F C_N) = in_X + in_Y C_N`` (which is the
analytic ``1 / (1 - p_stay)`` of the no-hit self-loop, generalised to a
whole row). Its outflow to later rows is one matrix product per volley.
With a round limit the rounds become layers of the state and no system is
solved. The numbers are floating point; every path of the chain is counted,
nothing is sampled or truncated.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from warhorn.games.nerath.battle import (
    BUILTIN_GUARDIANS,
    PIECE_IDS,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    check_sides,
    dungeon_penalty,
    heal,
    hit_chance,
    normalize_loss_order,
    successor_sides,
    volley_dice,
)
from warhorn.games.nerath.pieces import PIECES

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

_COST = np.array([PIECES[pid].cost for pid in PIECE_IDS], dtype=np.float64)
_CASTLE_I = PIECE_IDS.index("castle")


@dataclass(frozen=True, slots=True)
class OutcomeProbability:
    """One way the battle can end: who survives (after healing) and how likely it is.

    ``defender`` lists the defending pieces left (a castle taken by the attacker is not
    listed; ``castle_captured`` says so) and surviving guardians by id.
    """

    result: BattleOutcome
    attacker: dict[str, int]
    defender: dict[str, int]
    probability: float
    castle_captured: bool = False

    def describe(self) -> str:
        def army(c: Mapping[str, int]) -> str:
            return ", ".join(f"{n} {k}" for k, n in c.items()) or "nothing"

        extra = " (castle captured)" if self.castle_captured else ""
        return f"{self.result.value}: attacker {army(self.attacker)} / defender {army(self.defender)}{extra}"


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """The exact result distribution of one battle (see ``docs/odds.md`` for the definitions).

    ``attacker_win + defender_win + mutual_destruction + attacker_retreats == 1``.
    Survivors are expected counts per piece type after healing (guardians by id on the
    defender side; a captured castle counts as lost for the defender). Gold lost is the
    expected cost of the pieces a side loses (a captured castle counts for the defender).
    ``outcomes``: every distinct end with its probability, most likely first.
    """

    attacker_win: float
    defender_win: float
    mutual_destruction: float
    attacker_retreats: float
    expected_rounds: float
    attacker_survivors: dict[str, float]
    defender_survivors: dict[str, float]
    attacker_gold_lost: float
    defender_gold_lost: float
    expected_reward_gold: float
    outcomes: tuple[OutcomeProbability, ...] = field(default=())

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """A JSON-ready dict; ``top`` limits the outcome list."""
        return {
            "attacker_win": self.attacker_win,
            "defender_win": self.defender_win,
            "mutual_destruction": self.mutual_destruction,
            "attacker_retreats": self.attacker_retreats,
            "expected_rounds": self.expected_rounds,
            "attacker_survivors": self.attacker_survivors,
            "defender_survivors": self.defender_survivors,
            "attacker_gold_lost": self.attacker_gold_lost,
            "defender_gold_lost": self.defender_gold_lost,
            "expected_reward_gold": self.expected_reward_gold,
            "outcomes": [
                {
                    "result": o.result.value,
                    "attacker": o.attacker,
                    "defender": o.defender,
                    "castle_captured": o.castle_captured,
                    "probability": o.probability,
                }
                for o in self.outcomes[:top]
            ],
        }


ArmySpec = str | Mapping[str, int] | BattleSide


def resolve_guardians(
    dungeon: Iterable[str | Guardian], guardians: Mapping[str, Guardian] | None = None
) -> tuple[Guardian, ...]:
    """Guardian objects for ``dungeon`` (objects kept, ids looked up in ``guardians``, by default the
    built-in :data:`~.battle.BUILTIN_GUARDIANS`); an unknown id raises :class:`ArmyError`."""
    lookup = BUILTIN_GUARDIANS if guardians is None else guardians
    out = []
    for g in dungeon:
        if isinstance(g, Guardian):
            out.append(g)
            continue
        key = g.strip().lower()
        found = lookup.get(key) or next((x for x in lookup.values() if x.name.lower() == key), None)
        if found is None:
            raise ArmyError(f"unknown guardian {g!r} (known: {', '.join(sorted(lookup))})")
        out.append(found)
    return tuple(out)


def battle_odds(
    attacker: ArmySpec,
    defender: ArmySpec | None = None,
    *,
    sea: bool = False,
    dungeon: Iterable[str | Guardian] | None = None,
    loss_order: Sequence[str] | None = None,
    retreat: RetreatRule | None = None,
    guardians: Mapping[str, Guardian] | None = None,
    double_up: bool = False,
    attacker_hit_min: int | None = None,
    defender_hit_min: int | None = None,
) -> BattleOdds:
    """Exact odds of a battle.

    ``attacker``/``defender``: text (``"4 soldier, 2 siege, 1 dragon"``), a mapping piece → count,
    or a :class:`~.battle.BattleSide`. ``sea``: a sea battle (NER-BAT-08). ``dungeon``: the
    guardians the heroes fight (ids looked up in ``guardians``, default the built-in ones, or
    :class:`~.battle.Guardian` objects); the defender is then empty. ``loss_order``: both sides'
    order of losses (default :data:`~.battle.DEFAULT_LOSS_ORDER`). ``retreat``: the attacker's
    retreat rule. ``double_up``: the non-default reading of NER-BAT-03. ``*_hit_min``: a card's
    better hit number for that side (NER-CRD-05).
    Raises :class:`~.battle.ArmyError` for unknown names or impossible battles.
    """
    a0 = _side(attacker, attacker_hit_min)
    if dungeon is not None:
        gs = resolve_guardians(dungeon, guardians)
        if not gs:
            raise ArmyError("a dungeon battle needs at least one guardian")
        if defender is not None and _side(defender, None).piece_total:
            raise ArmyError("a dungeon holds only guardians; leave the defender empty (NER-DUN-01)")
        d0 = BattleSide.of({}, guardians=gs, hit_min=defender_hit_min)
    else:
        d0 = _side(defender if defender is not None else "", defender_hit_min)
    check_sides(a0, d0, sea=sea)
    order = normalize_loss_order(loss_order)
    return _solve(a0, d0, sea=sea, order=order, retreat=retreat, double_up=double_up)


def clear_caches() -> None:
    """Forget every memoised table (volley dice, loss sequences, hit distributions), so that the
    next call starts cold. Only benchmarks need this; results never depend on it."""
    from warhorn.games.nerath import battle

    for cached in (
        battle._volley_dice,
        battle.loss_sequence,
        battle._take_cached,
        battle._key_parts,
        _binomial_pmf,
        _hits_pmf,
    ):
        cached.cache_clear()


def _side(spec: ArmySpec, hit_min: int | None) -> BattleSide:
    if isinstance(spec, BattleSide):
        if hit_min is None:
            return spec
        return BattleSide(
            spec.healthy, spec.damaged, spec.guardians, spec.guardian_dice, hit_min, spec.resilient
        )
    return BattleSide.of(spec, hit_min=hit_min)


# ---------------------------------------------------------------------------
# One side's chain


@lru_cache(maxsize=4096)
def _binomial_pmf(n: int, p: float) -> FloatArray:
    k = np.arange(n + 1)
    comb = np.array([math.comb(n, int(i)) for i in k], dtype=np.float64)
    out: FloatArray = comb * p**k * (1.0 - p) ** (n - k)
    return out


@lru_cache(maxsize=8192)
def _hits_pmf(groups: tuple[tuple[float, int], ...]) -> FloatArray:
    """Distribution of the number of hits of independent dice: ``groups`` of (hit chance, count)."""
    out = np.ones(1)
    for p, n in groups:
        out = np.convolve(out, _binomial_pmf(n, p))
    return out


class _SideChain:
    """Every state one side can reach, in topological order, with its volley distributions."""

    def __init__(
        self,
        start: BattleSide,
        opponent: BattleSide,
        *,
        attacking: bool,
        sea: bool,
        order: tuple[str, ...],
        double_up: bool,
    ) -> None:
        succ_sides: dict[BattleSide, tuple[BattleSide, ...]] = {}
        todo = [start]
        while todo:
            s = todo.pop()
            if s in succ_sides:
                continue
            nxt = successor_sides(s, order, sea=sea, double_up=double_up)
            succ_sides[s] = nxt
            todo.extend(t for t in set(nxt[1:]) if t not in succ_sides)
        # Every hit lowers the remaining toughness, so sorting by it (high first) is topological.
        states = sorted(succ_sides, key=lambda s: -_toughness_left(s))
        if states[0] != start:
            raise AssertionError("start state must come first")
        self.states = states
        index = {s: i for i, s in enumerate(states)}
        self.size = n = len(states)
        self.succ: list[IntArray] = [
            np.array([index[t] for t in succ_sides[s]], dtype=np.intp) for s in states
        ]
        self.cap = np.array([len(x) - 1 for x in self.succ], dtype=np.intp)
        self.can_fight = np.array([s.can_fight for s in states], dtype=bool)
        self.remains = np.array([s.remains for s in states], dtype=bool)
        penalty_from = opponent
        dists: dict[bool, list[FloatArray]] = {True: [], False: []}
        for fs in (True, False):
            for s in states:
                groups: dict[float, int] = {}
                for r in volley_dice(s, penalty_from, attacking=attacking, sea=sea, first_strike=fs):
                    for sides in r.dice:
                        p = hit_chance(sides, r.hit_min)
                        groups[p] = groups.get(p, 0) + 1
                dists[fs].append(_hits_pmf(tuple(sorted(groups.items()))))
        self.max_fs = max(len(d) for d in dists[True]) - 1
        self.max_n = max(len(d) for d in dists[False]) - 1
        self.dist_fs = _pad(dists[True], self.max_fs + 1)
        self.dist_n = _pad(dists[False], self.max_n + 1)
        self.healed = [heal(s) for s in states]
        self.piece_counts = np.array([s.healthy for s in self.healed], dtype=np.float64).reshape(
            n, len(PIECE_IDS)
        )

    def successor_table(self, max_hits: int) -> IntArray:
        """``table[s, h]`` = state after ``h`` hits (h = 0..max_hits) from state ``s``."""
        table = np.empty((self.size, max_hits + 1), dtype=np.intp)
        for s, succ in enumerate(self.succ):
            cap = len(succ) - 1
            if cap >= max_hits:
                table[s] = succ[: max_hits + 1]
            else:
                table[s, : cap + 1] = succ
                table[s, cap + 1 :] = succ[cap]
        return table


def _toughness_left(side: BattleSide) -> int:
    total = sum(len(d) for d in side.guardian_dice)
    for i in range(len(PIECE_IDS)):
        t = side.toughness(i)
        if i == _CASTLE_I:
            total += side.healthy[i]
        else:
            total += side.healthy[i] * t + side.damaged[i] * (t - 1)
    return total


def _pad(rows: list[FloatArray], width: int) -> FloatArray:
    out = np.zeros((len(rows), width))
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def _volley_matrix(flat_index: IntArray, dist: FloatArray, size: int) -> FloatArray:
    """Transition matrix of a side (size × size) under a hit distribution ``dist``."""
    weights = np.broadcast_to(dist, (size, len(dist))).ravel()
    counts = np.bincount(flat_index, weights=weights, minlength=size * size)
    return np.asarray(counts, dtype=np.float64).reshape(size, size)


def _capped(dist: FloatArray, cap: int) -> FloatArray:
    """Columns 0..cap of a hit-distribution matrix, the last holding every count >= cap."""
    width = dist.shape[1]
    if cap >= width - 1:
        return dist
    out = dist[:, : cap + 1].copy()
    out[:, cap] = dist[:, cap:].sum(axis=1)
    return out


# ---------------------------------------------------------------------------
# The battle chain


def _solve(
    a0: BattleSide,
    d0: BattleSide,
    *,
    sea: bool,
    order: tuple[str, ...],
    retreat: RetreatRule | None,
    double_up: bool,
) -> BattleOdds:
    A = _SideChain(a0, d0, attacking=True, sea=sea, order=order, double_up=double_up)
    B = _SideChain(d0, a0, attacking=False, sea=sea, order=order, double_up=double_up)
    sa, sb = A.size, B.size
    # B's transitions under A's hits, as flat indices into an (sb × sb) matrix.
    rows_b = np.arange(sb, dtype=np.intp)[:, None] * sb
    flat_fs = (rows_b + B.successor_table(A.max_fs)).ravel()
    flat_n = (rows_b + B.successor_table(A.max_n)).ravel()
    fight_b = B.can_fight.astype(np.float64)
    zero_fs = B.dist_fs[:, 0] * fight_b  # B's first strike misses; B still fighting
    zero_n = B.dist_n[:, 0] * fight_b
    absorbed = np.zeros((sa, sb))
    retreated = np.zeros((sa, sb))
    rounds = 0.0

    retreat_row = np.zeros(sa, dtype=bool)
    if retreat is not None and retreat.at_or_below is not None:
        retreat_row = np.array([s.piece_total <= retreat.at_or_below for s in A.states], dtype=bool)
    limit = retreat.after_rounds if retreat is not None else None
    layers = 1 if limit is None else limit
    in_x = np.zeros((sa, sb))
    in_y = np.zeros((sa, sb))
    in_x[0, 0] = 1.0
    eye = np.eye(sb)
    if limit is None and retreat_row[0] and A.can_fight[0] and B.can_fight[0]:
        # The attacker starts at or below its retreat size: the first round is fought anyway
        # (NER-BAT-02, NER-BAT-12), so pass the start through its first-strike step here and
        # let every later visit of row 0 retreat.
        in_x[0, 0] = 0.0
        rounds += 1.0
        start = np.zeros(sb)
        start[0] = 1.0
        m_fs0 = _volley_matrix(flat_fs, A.dist_fs[0], sb)
        in_y[0] += start @ (zero_fs[:, None] * m_fs0)
        _spread(in_y, A, 0, _capped(B.dist_fs, int(A.cap[0])), start, m_fs0)

    for layer in range(layers):
        next_x = np.zeros((sa, sb)) if limit is not None else in_x
        for a in range(sa):
            x_in = in_x[a]
            y_in = in_y[a]
            if not A.can_fight[a]:
                absorbed[a] += x_in + y_in
                continue
            if not (x_in.any() or y_in.any()):
                continue
            m_fs = _volley_matrix(flat_fs, A.dist_fs[a], sb)
            m_n = _volley_matrix(flat_n, A.dist_n[a], sb)
            c_fs = zero_fs[:, None] * m_fs
            c_n = zero_n[:, None] * m_n
            can_retreat = bool(retreat_row[a]) and (limit is None or layer > 0)
            if limit is not None:
                # Rounds are layers: no cycle; the in-row normal volley feeds the next layer.
                x = x_in
                y = y_in if can_retreat else y_in + (x * fight_b) @ c_fs
            elif can_retreat:
                y = y_in
                x = x_in + y_in @ c_n
            else:
                try:
                    x = np.linalg.solve((eye - c_fs @ c_n).T, x_in + y_in @ c_n)
                except np.linalg.LinAlgError:
                    raise ArmyError("this battle never ends: neither side can ever hit") from None
                y = y_in + x @ c_fs
            x_fight = x * fight_b
            y_fight = y * fight_b
            absorbed[a] += (x - x_fight) + (y - y_fight)
            if can_retreat:
                retreated[a] += x_fight
            else:
                rounds += float(x_fight.sum())
                _spread(in_y, A, a, _capped(B.dist_fs, int(A.cap[a])), x_fight, m_fs)
            if limit is not None:
                next_x[a] += y_fight @ c_n
            _spread(next_x, A, a, _capped(B.dist_n, int(A.cap[a])), y_fight, m_n)
        if limit is not None:
            in_x = next_x
            in_y = np.zeros((sa, sb))
    if limit is not None:
        # After the last allowed round the attacker retreats from every undecided pair.
        for a in range(sa):
            if not A.can_fight[a]:
                absorbed[a] += in_x[a]
                continue
            fight = in_x[a] * fight_b
            retreated[a] += fight
            absorbed[a] += in_x[a] - fight
    return _summarize(A, B, absorbed, retreated, rounds, a0, d0)


def _spread(
    target: FloatArray, A: _SideChain, a: int, tb_dist: FloatArray, mass: FloatArray, m_b: FloatArray
) -> None:
    """Send ``mass`` (over B states, at attacker state ``a``) through one volley into later rows:
    A takes j >= 1 hits with the chance ``tb_dist[b, j]`` and B moves by ``m_b``."""
    if not mass.any():
        return
    j_max = tb_dist.shape[1] - 1
    if j_max < 1:
        return
    flow = (tb_dist[:, 1:] * mass[:, None]).T @ m_b
    np.add.at(target, A.succ[a][1 : j_max + 1], flow)


def _summarize(
    A: _SideChain,
    B: _SideChain,
    absorbed: FloatArray,
    retreated: FloatArray,
    rounds: float,
    a0: BattleSide,
    d0: BattleSide,
) -> BattleOdds:
    a_fight = A.can_fight
    b_fight = B.can_fight
    b_rem = B.remains
    win_mask = np.outer(a_fight, ~b_fight)
    lose_mask = np.outer(~a_fight, b_rem)
    mutual_mask = np.outer(~a_fight, ~b_rem)
    attacker_win = float(absorbed[win_mask].sum())
    defender_win = float(absorbed[lose_mask].sum())
    mutual = float(absorbed[mutual_mask].sum())
    retreats = float(retreated.sum())

    ended = absorbed + retreated
    a_mass = ended.sum(axis=1)
    b_mass = ended.sum(axis=0)
    a_exp = a_mass @ A.piece_counts
    b_exp = b_mass @ B.piece_counts
    # A castle left when the attacker wins is captured: lost to the defender (NER-BAT-16).
    b_win_mass = (absorbed * win_mask).sum(axis=0)
    captured = float(b_win_mass @ B.piece_counts[:, _CASTLE_I])
    b_exp[_CASTLE_I] -= captured
    a_start = np.array(a0.healthy, dtype=np.float64)
    b_start = np.array(d0.healthy, dtype=np.float64)
    attacker_survivors = {pid: float(a_exp[i]) for i, pid in enumerate(PIECE_IDS) if a_start[i]}
    defender_survivors = {pid: float(b_exp[i]) for i, pid in enumerate(PIECE_IDS) if b_start[i]}
    for g in dict.fromkeys(d0.guardians):
        alive = np.array([sum(1 for x in s.guardians if x == g) for s in B.healed], dtype=np.float64)
        defender_survivors[g.id] = float(b_mass @ alive)
    reward = attacker_win * sum(g.reward_gold for g in d0.guardians)

    outcomes: dict[tuple[Any, ...], float] = {}
    for mat, kind in ((absorbed, None), (retreated, BattleOutcome.ATTACKER_RETREATS)):
        rows, cols = np.nonzero(mat)
        for a, b in zip(rows.tolist(), cols.tolist(), strict=True):
            p = float(mat[a, b])
            if kind is None:
                if a_fight[a]:
                    result = BattleOutcome.ATTACKER_WINS
                elif b_rem[b]:
                    result = BattleOutcome.DEFENDER_WINS
                else:
                    result = BattleOutcome.MUTUAL_DESTRUCTION
            else:
                result = kind
            a_side = A.healed[a]
            b_side = B.healed[b]
            captured_castle = result is BattleOutcome.ATTACKER_WINS and b_side.count("castle") > 0
            b_counts = b_side.counts()
            if captured_castle:
                b_counts.pop("castle", None)
            for g in b_side.guardians:
                b_counts[g.id] = b_counts.get(g.id, 0) + 1
            key = (result, tuple(a_side.counts().items()), tuple(b_counts.items()), captured_castle)
            outcomes[key] = outcomes.get(key, 0.0) + p
    listed = sorted(
        (
            OutcomeProbability(res, dict(ac), dict(bc), p, cap)
            for (res, ac, bc, cap), p in outcomes.items()
            if p > 1e-15
        ),
        key=lambda o: -o.probability,
    )
    return BattleOdds(
        attacker_win=attacker_win,
        defender_win=defender_win,
        mutual_destruction=mutual,
        attacker_retreats=retreats,
        expected_rounds=rounds,
        attacker_survivors=attacker_survivors,
        defender_survivors=defender_survivors,
        attacker_gold_lost=float((a_start - a_exp) @ _COST),
        defender_gold_lost=float((b_start - b_exp) @ _COST),
        expected_reward_gold=reward,
        outcomes=tuple(listed),
    )


__all__ = [
    "BattleOdds",
    "OutcomeProbability",
    "battle_odds",
    "clear_caches",
    "dungeon_penalty",
    "resolve_guardians",
]
