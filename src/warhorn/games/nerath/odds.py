"""Exact battle odds for Conquest of Nerath (issue 4).

:func:`battle_odds` computes the exact probability distribution of a battle's
result by solving the absorbing Markov chain of the battle, using the very
damage model of :mod:`warhorn.games.nerath.battle_model` (the one
:func:`~warhorn.games.nerath.battle_model.fight_battle` and the game rules use).

The chain
---------
Under a fixed loss order a side's state is a :class:`~.battle.BattleSide`
(counts of healthy and damaged pieces, inactive castles, guardian dice), here
held as an integer vector. A volley's damage goes to blocks of targets in the
order of :func:`~.battle.loss_sequence`, so the side after ``h`` hits is
computed with numpy for every state and every ``h`` at once; the states are
found breadth first (or, when no hit creates a new target, they are simply the
start after 0, 1, 2 ... hits) and sorted so that damage only moves a side
forward. Chains are cached by army shape. A test checks every successor
against :func:`~.battle.successor_sides`, the game's own damage model.
A battle state is a pair (attacker state, defender state) at one of
two moments: the start of a round (*X*) or between the first-strike volley
and the normal volley (*Y*). A volley's hit count is the convolution of binomials, one per hit chance,
whose dice counts are a linear function of the state (a table of binomial
distributions per hit chance, rows picked by count).
Both sides' damage in a volley is independent given the pair, so the flow
from one pair to the next is an outer product.

The pairs are processed one attacker state (a *row*) at a time, in order.
Within a row the attacker takes no damage, and the only cycle is a row's
own "no hits" transitions; the row's flows are the solution of a small
triangular linear system ``x (I - C_F C_N) = in_X + in_Y C_N`` (which is the
analytic ``1 / (1 - p_stay)`` of the no-hit self-loop, generalised to a
whole row). Its outflow to later rows is one matrix product per volley.
When both sides are lines (no hit makes a new target) and nobody strikes
first, every row's defender moves are one product of the attacker's hit
chances with shift matrices, and every row's system is inverted at once.
With a round limit the rounds become layers of the state and no system is
solved. The numbers are floating point; every path of the chain is counted,
nothing is sampled or truncated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from warhorn.games.nerath.battle_model import (
    BUILTIN_GUARDIANS,
    FULL_DEFAULT_LOSS_ORDER,
    PIECE_IDS,
    WARSHIP_CAPACITY,
    WOUNDED,
    ArmyError,
    BattleOutcome,
    BattleSide,
    Guardian,
    RetreatRule,
    check_sides,
    dungeon_penalty,
    hit_chance,
    normalize_loss_order,
    piece_dice,
)
from warhorn.games.nerath.odds_agreement import best_agreement
from warhorn.games.nerath.pieces import HIT_ON, PIECES

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

_COST = np.array([PIECES[pid].cost for pid in PIECE_IDS], dtype=np.float64)
_MONSTER_I = PIECE_IDS.index("monster")
_CASTLE_I = PIECE_IDS.index("castle")


class OutcomeProbability(NamedTuple):
    """One way the battle can end: who survives (after healing) and how likely it is.

    ``defender`` lists the defending pieces left (a castle taken by the attacker is not
    listed; ``castle_captured`` says so) and surviving guardians by id. An immutable named tuple
    (a battle has dozens to thousands of ends, and a tuple is made several times faster than a
    frozen dataclass).
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


#: How two allied defenders share damage (NER-BAT-07), as ``battle_odds(allied_damage=...)`` takes it:
#: ``agree`` (the game's default option: the allies settle each volley's split) or ``fixed``
#: (always the rule's split, the game option ``allied_damage = fixed``).
ALLIED_DAMAGE = ("agree", "fixed")

_new_tuple = tuple.__new__


@dataclass(frozen=True, slots=True)
class BattleOdds:
    """The exact result distribution of one battle (see ``docs/odds.md`` for the definitions).

    ``attacker_win + defender_win + mutual_destruction + attacker_retreats == 1``.
    Survivors are expected counts per piece type after healing (guardians by id on the
    defender side; a captured castle counts as lost for the defender). Gold lost is the
    expected cost of the pieces a side loses (a captured castle counts for the defender).
    ``outcomes``: every distinct end with its probability, most likely first.

    ``amok_monsters[m]``: the chance that the attacker wins a land battle with exactly ``m``
    monsters left, each free to run amok (NER-BAT-20); empty when the attacker has no monsters or
    the battle is at sea or in a dungeon. ``amok_targets``: adjacent enemy territories without
    enemy pieces, when given (each monster conquers one).

    ``allied_split``: with allied defenders, how their damage is shared in these figures:
    ``"rule"`` (the default split of NER-BAT-07) or ``"one_army"`` (an agreed split under which the
    allies lose pieces by the loss order, as one army would); ``allied_split_note`` says why.
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
    amok_monsters: tuple[float, ...] = ()
    amok_targets: int | None = None
    allied_split: str | None = None
    allied_split_note: str = ""

    @property
    def run_amok_chance(self) -> float:
        """The chance that the attacker wins with at least one monster left to run amok (NER-BAT-20)."""
        return float(sum(self.amok_monsters[1:]))

    def expected_amok_conquests(self, targets: int | None = None) -> float:
        """Territories the surviving monsters are expected to conquer by running amok when
        ``targets`` (default ``amok_targets``) are open to them: one each, at most ``targets``."""
        t = self.amok_targets if targets is None else targets
        if t is None:
            raise ArmyError("say how many adjacent enemy territories without enemy pieces there are")
        return float(sum(p * min(m, t) for m, p in enumerate(self.amok_monsters)))

    def to_json(self, top: int | None = None) -> dict[str, Any]:
        """A JSON-ready dict; ``top`` limits the outcome list."""
        out: dict[str, Any] = {
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
        if self.amok_monsters:
            amok: dict[str, Any] = {"chance": self.run_amok_chance, "monsters": list(self.amok_monsters)}
            if self.amok_targets is not None:
                amok["targets"] = self.amok_targets
                amok["expected_conquests"] = self.expected_amok_conquests()
            out["run_amok"] = amok
        if self.allied_split is not None:
            out["allied_split"] = {"used": self.allied_split, "note": self.allied_split_note}
        return out


ArmySpec = str | Mapping[str, int] | BattleSide

#: The most states (one ally's times the other's) an allied defence split by the rule may have:
#: the chain of such a defence pairs both allies' states, so its work grows with the product.
MAX_ALLIED_STATES = 400


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
    ally: ArmySpec | None = None,
    allied_damage: str = "agree",
    amok_targets: int | None = None,
) -> BattleOdds:
    """Exact odds of a battle.

    ``attacker``/``defender``: text (``"4 soldier, 2 siege, 1 dragon"``), a mapping piece → count,
    or a :class:`~.battle.BattleSide`. ``sea``: a sea battle (NER-BAT-08). ``dungeon``: the
    guardians the heroes fight (ids looked up in ``guardians``, default the built-in ones, or
    :class:`~.battle.Guardian` objects); the defender is then empty. ``loss_order``: every side's
    order of losses (default :data:`~.battle.DEFAULT_LOSS_ORDER`). ``retreat``: the attacker's
    retreat rule. ``double_up``: the non-default reading of NER-BAT-03. ``*_hit_min``: a card's
    better hit number for that side (NER-CRD-05).

    ``ally``: the pieces of a second kingdom defending the space with the defender (NER-BAT-07).
    ``allied_damage="fixed"``: the damage is split by the rule; ``"agree"`` (the game's default):
    the allies agree on each split, and the figures use the split better for the defenders of
    the two the calculator knows, the rule's or the one that makes them lose pieces by the loss
    order as one army (``allied_split`` says which). ``amok_targets``: adjacent enemy territories
    without enemy pieces, for the expected Run Amok conquests (NER-BAT-20).
    Raises :class:`~.battle.ArmyError` for unknown names or impossible battles.
    """
    a0 = _side(attacker, attacker_hit_min)
    if allied_damage not in ALLIED_DAMAGE:
        raise ArmyError(f"allied_damage must be one of {', '.join(ALLIED_DAMAGE)}, not {allied_damage!r}")
    if amok_targets is not None and amok_targets < 0:
        raise ArmyError("amok_targets must be >= 0 (NER-BAT-20)")
    d_ally: BattleSide | None = None
    if dungeon is not None:
        gs = resolve_guardians(dungeon, guardians)
        if not gs:
            raise ArmyError("a dungeon battle needs at least one guardian")
        if defender is not None and _side(defender, None).piece_total:
            raise ArmyError("a dungeon holds only guardians; leave the defender empty (NER-DUN-01)")
        if ally is not None:
            raise ArmyError("a dungeon holds only guardians: no ally defends it (NER-DUN-01)")
        d0 = BattleSide.of({}, guardians=gs, hit_min=defender_hit_min)
    else:
        d0 = _side(defender if defender is not None else "", defender_hit_min)
        if ally is not None:
            d_ally = _side(ally, defender_hit_min)
            if not d_ally.piece_total:
                d_ally = None
            elif not d0.piece_total:
                d0, d_ally = d_ally, None
    whole = d0 if d_ally is None else _merged(d0, d_ally)
    check_sides(a0, whole, sea=sea)
    order = _loss_order(None if loss_order is None else tuple(loss_order))
    A = _side_chain(a0, dungeon_penalty(whole), True, sea, order, double_up)
    amok = amok_targets if not sea and dungeon is None else None
    if d_ally is None:
        B = _side_chain(whole, HIT_ON, False, sea, order, double_up)
        return _summarize(A, B, *_solve(A, B, retreat=retreat), a0, whole, sea=sea, amok_targets=amok)
    c1 = _side_chain(d0, HIT_ON, False, sea, order, double_up)
    c2 = _side_chain(d_ally, HIT_ON, False, sea, order, double_up)
    if c1.size * c2.size > MAX_ALLIED_STATES:
        raise ArmyError(
            f"allied defence too large for the exact split of NER-BAT-07: {c1.size} x {c2.size} states "
            f"(at most {MAX_ALLIED_STATES}); describe the allies as one defender for the odds of one army"
        )
    rule_b = _allied_chain(c1, c2, max(A.max_fs, A.max_n))
    rule = _summarize(A, rule_b, *_solve(A, rule_b, retreat=retreat), a0, whole, sea=sea, amok_targets=amok)
    if allied_damage == "fixed":
        return replace(
            rule,
            allied_split="rule",
            allied_split_note="the rule's split (NER-BAT-07): half each, the odd damage to the ally "
            "with more pieces there (by lot on a tie), what one ally cannot take to the other",
        )
    one_b = _side_chain(whole, HIT_ON, False, sea, order, double_up)
    one = _summarize(A, one_b, *_solve(A, one_b, retreat=retreat), a0, whole, sea=sea, amok_targets=amok)
    compare = f"attacker wins {one.attacker_win:.2%} against {rule.attacker_win:.2%} with the rule's split"
    solved = best_agreement(A, c1, c2, rule_b) if retreat is None else None
    if solved is not None:
        absorbed, retreated, rounds, _value = solved
        best = _summarize(A, rule_b, absorbed, retreated, rounds, a0, whole, sea=sea, amok_targets=amok)
        if best.attacker_win <= min(one.attacker_win, rule.attacker_win) + 1e-12:
            return replace(
                best,
                allied_split="best",
                allied_split_note="agreed (NER-BAT-07): after each volley the allies share the hits "
                "in the way that leaves the attacker the least chance, the best of every agreement "
                f"(exact: attacker wins {best.attacker_win:.2%}; as one army {one.attacker_win:.2%}, "
                f"with the rule's split {rule.attacker_win:.2%})",
            )
    why = "with a retreat rule" if retreat is not None else "too large for the search over every agreement"
    if (one.attacker_win, one.defender_gold_lost) <= (rule.attacker_win + 1e-12, rule.defender_gold_lost):
        return replace(
            one,
            allied_split="one_army",
            allied_split_note="agreed (NER-BAT-07): the allies share each volley's damage so that "
            f"together they lose pieces by the loss order, as one army; better for them ({compare}); "
            f"the better of these two splits, not searched over every agreement ({why})",
        )
    return replace(
        rule,
        allied_split="rule",
        allied_split_note="agreed (NER-BAT-07) on the rule's split, which serves the defenders better "
        f"here than losing pieces by the loss order as one army ({compare}); the better of these two "
        f"splits, not searched over every agreement ({why})",
    )


@lru_cache(maxsize=64)
def _loss_order(order: tuple[str, ...] | None) -> tuple[str, ...]:
    return FULL_DEFAULT_LOSS_ORDER if order is None else normalize_loss_order(order)


@lru_cache(maxsize=256)
def _parsed(text: str, hit_min: int | None) -> BattleSide:
    return BattleSide.of(text, hit_min=hit_min)


def _merged(a: BattleSide, b: BattleSide) -> BattleSide:
    """Two allies' pieces as one side (what both defend with)."""
    return BattleSide(
        tuple(x + y for x, y in zip(a.healthy, b.healthy, strict=True)),
        tuple(x + y for x, y in zip(a.damaged, b.damaged, strict=True)),
        (),
        (),
        a.hit_min,
        a.resilient | b.resilient,
    )


def clear_caches() -> None:
    """Forget every memoised table (side chains by army shape, binomial tables, volley dice, loss
    sequences), so that the next call starts cold. Only benchmarks need this; results never
    depend on it."""
    from warhorn.games.nerath import battle_model

    for cached in (
        battle_model._volley_dice,
        battle_model.loss_sequence,
        battle_model._take_cached,
        battle_model._key_parts,
        _side_chain,
        _binomial_table,
        _loss_order,
        _parsed,
    ):
        cached.cache_clear()


def _side(spec: ArmySpec, hit_min: int | None) -> BattleSide:
    if isinstance(spec, BattleSide):
        if hit_min is None:
            return spec
        return BattleSide(
            spec.healthy, spec.damaged, spec.guardians, spec.guardian_dice, hit_min, spec.resilient
        )
    if isinstance(spec, str):
        return _parsed(spec, hit_min)
    return BattleSide.of(spec, hit_min=hit_min)


# ---------------------------------------------------------------------------
# One side's chain, built with numpy
#
# A side's state is an integer vector: healthy counts per piece type, damaged (or inactive)
# counts per piece type, then the dice each guardian has left, one coordinate per
# (guardian, die size). Under the loss order a volley's damage goes to *blocks* of targets in a
# fixed order (:func:`~.battle.loss_sequence`): each block takes as many hits as the state has
# targets of that kind, and one hit on it adds a fixed vector to the state. So the side after
# ``h`` hits is a vectorised sum, for every state and every ``h`` at once.

_P = len(PIECE_IDS)
_STATS = tuple(PIECES[pid] for pid in PIECE_IDS)
_WARSHIP_I = PIECE_IDS.index("warship")
_WARRIOR_I = PIECE_IDS.index("warrior")
_MAGE_I = PIECE_IDS.index("mage")


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where each coordinate of a side's state vector comes from."""

    guardian_cols: tuple[tuple[int, int], ...]  # (guardian index, die size) per guardian coordinate

    @property
    def dim(self) -> int:
        return 2 * _P + len(self.guardian_cols)


def _layout(side: BattleSide) -> _Layout:
    cols: list[tuple[int, int]] = []
    for gi, dice in enumerate(side.guardian_dice):
        cols.extend((gi, s) for s in sorted(set(dice)))
    return _Layout(tuple(cols))


def _vector(side: BattleSide, layout: _Layout) -> IntArray:
    dice = [side.guardian_dice[gi].count(s) for gi, s in layout.guardian_cols]
    return np.array((*side.healthy, *side.damaged, *dice), dtype=np.int64)


#: Loss-order keys read once: (damaged?, piece index).
_KEYS: dict[str, tuple[bool, int]] = {
    **{pid: (False, i) for i, pid in enumerate(PIECE_IDS)},
    **{WOUNDED + pid: (True, i) for i, pid in enumerate(PIECE_IDS)},
}


def _loss_blocks(
    side: BattleSide, layout: _Layout, order: tuple[str, ...], double_up: bool
) -> tuple[IntArray, IntArray, bool]:
    """The blocks of :func:`~.battle.loss_sequence` in order: for each, the coordinate that counts
    its targets (before the volley) and the change one hit on it makes to the state vector; and
    whether some hit adds a target to a block (a healthy dragon becoming a damaged one)."""
    healthy, damaged = side.healthy, side.damaged
    tough = [
        (h or d) and side.toughness(i) >= 2 for i, (h, d) in enumerate(zip(healthy, damaged, strict=True))
    ]
    blocks: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    for key in order:
        is_damaged, i = _KEYS[key]
        if is_damaged:
            if i == _CASTLE_I or not (damaged[i] or (healthy[i] and tough[i])):
                continue
            blocks.append((_P + i, ((_P + i, -1),)))
        elif healthy[i]:
            if i == _CASTLE_I or tough[i]:
                blocks.append((i, ((i, -1), (_P + i, 1))))
            else:
                blocks.append((i, ((i, -1),)))
    if double_up:
        for key in order:
            is_damaged, i = _KEYS[key]
            if is_damaged and i != _CASTLE_I and healthy[i] and tough[i]:
                blocks.append((i, ((_P + i, -1),)))
    base = side.hit_min if side.hit_min is not None else HIT_ON
    gdice = sorted(
        (hit_chance(s, base), side.guardians[gi].first_strike, gi, s, c)
        for c, (gi, s) in enumerate(layout.guardian_cols)
    )
    for *_, c in gdice:
        blocks.append((2 * _P + c, ((2 * _P + c, -1),)))
    targets = {col for col, _d in blocks}
    adds_target = any(v > 0 and coord in targets for _col, change in blocks for coord, v in change)
    rows = [[0] * layout.dim for _ in blocks]
    for row, (_col, change) in zip(rows, blocks, strict=True):
        for coord, v in change:
            row[coord] = v
    cols = np.array([col for col, _d in blocks], dtype=np.intp)
    deltas = np.array(rows, dtype=np.int64).reshape(len(blocks), layout.dim)
    return cols, deltas, adds_target


def _after_hits(states: IntArray, cols: IntArray, deltas: IntArray, max_hits: int, sea: bool) -> IntArray:
    """``out[m, h]`` = state ``m`` after ``h`` hits (h = 0..max_hits) under the loss blocks."""
    counts = states[:, cols]
    before = np.cumsum(counts, axis=1) - counts
    h = np.arange(max_hits + 1, dtype=np.int64)
    take = np.clip(h[None, :, None] - before[:, None, :], 0, counts[:, None, :])
    out = np.repeat(states[:, None, :], max_hits + 1, axis=1)
    for k in range(len(cols)):
        for coord in np.flatnonzero(deltas[k]).tolist():
            out[:, :, coord] += deltas[k, coord] * take[:, :, k]
    return _drown(out) if sea else out


def _drown(states: IntArray) -> IntArray:
    """:func:`~.battle.drown_passengers` for many states: heroes beyond two per warship sink,
    warriors before mages, healthy before damaged (NER-SEA-07)."""
    ships = states[..., _WARSHIP_I] + states[..., _P + _WARSHIP_I]
    heroes = (
        states[..., _WARRIOR_I]
        + states[..., _P + _WARRIOR_I]
        + states[..., _MAGE_I]
        + states[..., _P + _MAGE_I]
    )
    excess = np.maximum(heroes - WARSHIP_CAPACITY * ships, 0)
    if not excess.any():
        return states
    out = states.copy()
    for col in (_WARRIOR_I, _P + _WARRIOR_I, _MAGE_I, _P + _MAGE_I):
        k = np.minimum(excess, out[..., col])
        out[..., col] -= k
        excess = excess - k
    return out


def _codes(rows: IntArray, radix: IntArray) -> IntArray:
    """One integer per state vector (mixed radix; :func:`_radix` makes sure it fits)."""
    return rows @ radix


def _radix(bounds: IntArray) -> IntArray | None:
    mult = []
    acc = 1
    for b in bounds.tolist():
        mult.append(acc)
        acc *= int(b) + 1
    if acc >= 1 << 62:
        return None
    return np.array(mult, dtype=np.int64)


#: Binomial coefficients ``C(n, k)`` for ``n, k <= PASCAL_ROWS - 1`` (row by row, Pascal's rule), and
#: ``n - k`` where it is >= 0: with them a table of binomial chances is three products (more dice
#: than that take the ratio recurrence of :func:`_binomial_table`). Built once at import (0.1 ms).
PASCAL_ROWS = 160


def _pascal(rows: int) -> tuple[FloatArray, IntArray]:
    comb = np.zeros((rows, rows))
    comb[:, 0] = 1.0
    for n in range(1, rows):
        comb[n, 1 : n + 1] = comb[n - 1, 1 : n + 1] + comb[n - 1, :n]
    idx = np.arange(rows)
    return comb, np.maximum(idx[:, None] - idx[None, :], 0)


_COMB, _MISSES = _pascal(PASCAL_ROWS)


@lru_cache(maxsize=256)
def _binomial_table(n_max: int, p: float) -> FloatArray:
    """``table[n, k]`` = chance of ``k`` hits with ``n`` dice of hit chance ``p`` (n, k <= n_max)."""
    m = n_max + 1
    if p <= 0.0 or p >= 1.0:
        table = np.zeros((m, m))
        if p <= 0.0:
            table[:, 0] = 1.0
        else:
            table[np.arange(m), np.arange(m)] = 1.0
        return table
    if m <= PASCAL_ROWS:
        k = np.arange(m, dtype=np.float64)
        out: FloatArray = _COMB[:m, :m] * (p**k)[None, :] * ((1.0 - p) ** k)[_MISSES[:m, :m]]
        return out
    table = np.zeros((m, m))
    n = np.arange(m, dtype=np.float64)[:, None]
    kk = np.arange(1, m, dtype=np.float64)[None, :]
    ratio = np.maximum((n - kk + 1) / kk, 0.0) * (p / (1.0 - p))
    table[:, 0] = (1.0 - p) ** n[:, 0]
    table[:, 1:] = table[:, :1] * np.cumprod(ratio, axis=1)
    return table


def _batch_convolve(x: FloatArray, y: FloatArray) -> FloatArray:
    """Row-wise convolution of two stacks of distributions."""
    if x.shape[1] < y.shape[1]:
        x, y = y, x
    width = x.shape[1]
    out = np.zeros((x.shape[0], width + y.shape[1] - 1))
    for j in range(y.shape[1]):
        out[:, j : j + width] += y[:, j : j + 1] * x
    return out


def _hit_distributions(
    states: IntArray, side: BattleSide, layout: _Layout, *, penalty: int, attacking: bool, sea: bool
) -> tuple[FloatArray, FloatArray]:
    """Distribution of the first-strike volley's and the normal volley's hits for every state:
    :func:`~.battle.volley_dice` as a linear map from the state vector to dice counts per hit
    chance, then binomials convolved."""
    # per volley (first strike, normal): hit chance -> state coordinate -> dice per piece there
    columns: tuple[dict[float, dict[int, int]], dict[float, dict[int, int]]] = ({}, {})
    healthy, damaged = side.healthy, side.damaged
    for i, st in enumerate(_STATS):
        if not (healthy[i] or damaged[i]):
            continue
        by_chance = columns[0 if st.first_strike else 1]
        hm = side.hit_min if side.hit_min is not None else (penalty if st.hero else HIT_ON)
        for s in piece_dice(st, attacking=attacking, sea=sea):
            col = by_chance.setdefault(hit_chance(s, hm), {})
            col[i] = col.get(i, 0) + 1
            if not st.castle:
                col[_P + i] = col.get(_P + i, 0) + 1
    g_hm = side.hit_min if side.hit_min is not None else HIT_ON
    for c, (gi, s) in enumerate(layout.guardian_cols):
        col = columns[0 if side.guardians[gi].first_strike else 1].setdefault(hit_chance(s, g_hm), {})
        col[2 * _P + c] = 1
    dists: list[FloatArray] = []
    for by_chance in columns:
        out: FloatArray | None = None
        for p, col in by_chance.items():
            if p <= 0.0:
                continue
            n = states[:, list(col)] @ np.fromiter(col.values(), dtype=np.int64, count=len(col))
            n_max = int(n.max())
            if n_max:
                dist = _binomial_table(n_max, p)[n]
                out = dist if out is None else _batch_convolve(out, dist)
        dists.append(np.ones((len(states), 1)) if out is None else out)
    return dists[0], dists[1]


class _SideChain:
    """Every state one side can reach, in topological order, with its volley distributions.

    ``succ[s, h, r]`` / ``succ_w[s, h, r]``: the state after ``h`` hits from state ``s`` and its
    chance (``r`` > 0 only where a lot decides, e.g. an allied odd damage); columns beyond a
    state's capacity repeat its last state.
    """

    size: int
    states: IntArray
    can_fight: npt.NDArray[np.bool_]
    remains: npt.NDArray[np.bool_]
    pieces_left: IntArray
    dist_fs: FloatArray
    dist_n: FloatArray
    piece_counts: FloatArray
    guardians_alive: npt.NDArray[np.bool_]
    guardians: tuple[Guardian, ...]
    drowns: bool  # at sea with heroes aboard: two hit counts may lead to one state (NER-SEA-07)
    _heal_codes: tuple[IntArray, int] | None = None
    _heal_radix: tuple[list[int], list[int]] | None = None  # place value and base of each column
    _columns: tuple[list[int], list[str], list[int]] | None = None
    _left: tuple[IntArray, list[str]] | None = None
    _heal_first: dict[int, int] | None = None
    #: An allied chain's states as pairs of the allies' states: (ally 1's, ally 2's, and the pair
    #: index of ``i * n2 + j``); None for one side's own chain.
    pair_index: tuple[IntArray, IntArray, IntArray] | None = None
    #: The states are the start after 0, 1, 2 ... hits (``succ[t, h] = min(t + h, size - 1)``).
    line: bool = False
    # The successor table, its weights, each state's capacity (targets) and toughness left: set
    # when the chain is built, or (a side's own chain) made on first use from what is kept here,
    # as the line solver reads none of them.
    _succ: IntArray | None = None
    _succ_w: FloatArray | None = None
    _cap: IntArray | None = None
    _tough: IntArray | None = None
    _cols: IntArray | None = None  # the loss blocks' target coordinates
    _tough_w: tuple[BattleSide, _Layout] | None = None  # what the toughness weights come from

    @property
    def succ(self) -> IntArray:
        if self._succ is None:  # a line: ``h`` hits from state ``t`` lead to state ``t + h``
            t = np.arange(self.size, dtype=np.intp)
            self._succ = np.minimum(t[:, None] + t[None, :], self.size - 1)[:, :, None]
        return self._succ

    @succ.setter
    def succ(self, value: IntArray) -> None:
        self._succ = value

    @property
    def succ_w(self) -> FloatArray:
        if self._succ_w is None:
            self._succ_w = np.ones(self.succ.shape)
        return self._succ_w

    @succ_w.setter
    def succ_w(self, value: FloatArray) -> None:
        self._succ_w = value

    @property
    def cap(self) -> IntArray:
        if self._cap is None:
            cols = self._cols
            assert cols is not None
            self._cap = self.states[:, cols].sum(axis=1) if len(cols) else np.zeros(self.size, dtype=np.int64)
        return self._cap

    @cap.setter
    def cap(self, value: IntArray) -> None:
        self._cap = value

    @property
    def tough(self) -> IntArray:
        if self._tough is None:
            assert self._tough_w is not None
            self._tough = self.states @ _toughness_weights(*self._tough_w)
        return self._tough

    @tough.setter
    def tough(self, value: IntArray) -> None:
        self._tough = value

    @property
    def max_fs(self) -> int:
        return int(self.dist_fs.shape[1]) - 1

    @property
    def max_n(self) -> int:
        return int(self.dist_n.shape[1]) - 1

    def successor_table(self, max_hits: int) -> tuple[IntArray, FloatArray]:
        """``succ``/``succ_w`` with exactly ``max_hits + 1`` hit columns."""
        width = self.succ.shape[1]
        if width > max_hits + 1:
            return self.succ[:, : max_hits + 1], self.succ_w[:, : max_hits + 1]
        if width == max_hits + 1:
            return self.succ, self.succ_w
        pad = max_hits + 1 - width
        idx = np.concatenate([self.succ, np.repeat(self.succ[:, -1:], pad, axis=1)], axis=1)
        w = np.concatenate([self.succ_w, np.repeat(self.succ_w[:, -1:], pad, axis=1)], axis=1)
        return idx, w

    def _left_columns(self) -> tuple[list[int], list[str], list[int]]:
        """The columns of what is left after healing: the piece types the start has (indices),
        then one per guardian (alive or not); their names; and the most each can hold (the
        start's count, as counts only fall: state 0 is the start; 1 for a guardian)."""
        if self._columns is None:
            start = self.piece_counts[0].tolist()
            live = [i for i, n in enumerate(start) if n]
            names = [PIECE_IDS[i] for i in live] + [g.id for g in self.guardians]
            self._columns = (live, names, [int(start[i]) for i in live] + [1] * len(self.guardians))
        return self._columns

    def _left_rows(self) -> tuple[IntArray, list[str]]:
        """What is left of each state after healing: the :meth:`_left_columns` of every state."""
        if self._left is not None:
            return self._left
        live, names, _top = self._left_columns()
        rows = self.piece_counts[:, live].astype(np.int64)
        if self.guardians:
            rows = np.concatenate([rows, self.guardians_alive.astype(np.int64)], axis=1)
        self._left = (rows, names)
        return self._left

    def heal_codes(self) -> tuple[IntArray, int]:
        """What is left of each state after healing (pieces, living guardians) as one number
        (mixed radix), and how many numbers there can be; :meth:`left_after` reads one back."""
        if self._heal_codes is not None:
            return self._heal_codes
        live, _names, top = self._left_columns()
        mult = []
        count = 1
        for b in top:
            mult.append(count)
            count *= b + 1
        if count >= 1 << 62:  # too many shapes for one number: number the distinct rows instead
            rows, _names = self._left_rows()
            _u, ids = np.unique(rows, axis=0, return_inverse=True)
            result = (ids.reshape(-1).astype(np.int64), int(ids.max()) + 1)
        else:
            by_type = [0] * _P
            for i, m in zip(live, mult, strict=False):
                by_type[i] = m
            codes = self.piece_counts.astype(np.int64) @ np.array(by_type, dtype=np.int64)
            if self.guardians:
                codes += self.guardians_alive.astype(np.int64) @ np.array(mult[len(live) :], dtype=np.int64)
            result = (codes, count)
            self._heal_radix = (mult, [b + 1 for b in top])
        self._heal_codes = result
        return result

    def left_after(self, codes: IntArray) -> list[dict[str, int]]:
        """Pieces and living guardians (by id) for each of some :meth:`heal_codes` numbers."""
        heal, _n = self.heal_codes()
        if self._heal_radix is not None:  # read the mixed-radix numbers back
            names = self._left_columns()[1]
            if len(names) == 1:  # the number is the count
                name = names[0]
                return [{name: n} if n else {} for n in codes.tolist()]
            place, base = (np.array(x, dtype=np.int64) for x in self._heal_radix)
            picked = (codes[:, None] // place % base).tolist()
        else:
            rows, names = self._left_rows()
            if self._heal_first is None:
                first: dict[int, int] = {}
                for i, c in enumerate(heal.tolist()):
                    first.setdefault(c, i)
                self._heal_first = first
            first = self._heal_first
            picked = rows[np.array([first[c] for c in codes.tolist()], dtype=np.intp)].tolist()
        if len(names) == 1:
            name = names[0]
            return [{name: row[0]} if row[0] else {} for row in picked]
        if len(set(names)) == len(names):  # no two guardians share an id
            return [{name: n for name, n in zip(names, row, strict=True) if n} for row in picked]
        out = []
        for row in picked:
            left: dict[str, int] = {}
            for name, n in zip(names, row, strict=True):
                if n:
                    left[name] = left.get(name, 0) + n
            out.append(left)
        return out


@lru_cache(maxsize=256)
def _side_chain(
    start: BattleSide, penalty: int, attacking: bool, sea: bool, order: tuple[str, ...], double_up: bool
) -> _SideChain:
    """The chain of one side (cached by army shape: the side, the hit penalty it suffers, its role)."""
    layout = _layout(start)
    cols, deltas, adds_target = _loss_blocks(start, layout, order, double_up)
    s0 = _vector(start, layout)
    counts = s0[cols]
    max_hits = int(counts.sum())
    if not adds_target and not (sea and (start.count("warrior") or start.count("mage"))):
        # no hit makes a new target (no resilient piece, no hero who could drown): the states
        # are the start after 0, 1, ... max_hits hits (the blocks' changes one hit at a time,
        # added up) and t hits later comes state t + h
        states = np.concatenate((s0[None, :], np.repeat(deltas, counts, axis=0))).cumsum(axis=0)
        chain = _finish_chain(start, layout, states, None, cols, penalty, attacking, sea)
        chain.line = True
        return chain
    bounds = s0.copy()
    bounds[_P : 2 * _P] += s0[:_P]
    radix = _radix(bounds)
    # breadth first: every state reachable by any number of hits per volley; the successors of
    # each state are kept (as codes) for the successor table
    found = [s0[None, :]]
    found_next: list[IntArray] = []
    frontier = s0[None, :]
    width = max_hits + 1
    if radix is not None:
        known = _codes(frontier, radix)
        while len(frontier):
            nxt = _after_hits(frontier, cols, deltas, max_hits, sea)
            codes_next = _codes(nxt, radix)
            found_next.append(codes_next)
            codes, first = np.unique(codes_next, return_index=True)
            fresh = ~np.isin(codes, known)
            frontier = nxt.reshape(-1, layout.dim)[first[fresh]]
            known = np.concatenate([known, codes[fresh]])
            found.append(frontier)
        states = np.concatenate(found)
        succ_codes = np.concatenate(found_next)
        codes_all = _codes(states, radix)
    else:  # astronomically many shapes: number the states by hashing rows instead
        numbers = {s0.tobytes(): 0}
        rows_next: list[IntArray] = []
        while len(frontier):
            nxt = _after_hits(frontier, cols, deltas, max_hits, sea)
            fresh_rows = []
            ids = np.empty(nxt.shape[:2], dtype=np.int64)
            for m in range(nxt.shape[0]):
                for h_ in range(width):
                    key = nxt[m, h_].tobytes()
                    got = numbers.get(key)
                    if got is None:
                        got = numbers[key] = len(numbers)
                        fresh_rows.append(nxt[m, h_])
                    ids[m, h_] = got
            rows_next.append(ids)
            frontier = np.array(fresh_rows, dtype=np.int64).reshape(-1, layout.dim)
            found.append(frontier)
        states = np.concatenate(found)
        succ_codes = np.concatenate(rows_next)
        codes_all = np.arange(len(states), dtype=np.int64)
    # every hit lowers the toughness left, so sorting by it (high first) is topological
    tough = states @ _toughness_weights(start, layout)
    order_idx = np.argsort(-tough, kind="stable")
    states = states[order_idx]
    n = len(states)
    rank = np.empty(n, dtype=np.intp)
    rank[order_idx] = np.arange(n)
    sorter = np.argsort(codes_all)
    succ = rank[sorter[np.searchsorted(codes_all[sorter], succ_codes[order_idx])]]
    return _finish_chain(start, layout, states, succ, cols, penalty, attacking, sea)


def _toughness_weights(start: BattleSide, layout: _Layout) -> IntArray:
    """Damage each coordinate of the state vector can still take (castles: one, then inactive)."""
    w = np.zeros(layout.dim, dtype=np.int64)
    for i in range(_P):
        t = start.toughness(i)
        w[i] = t
        w[_P + i] = 0 if i == _CASTLE_I else t - 1
    w[2 * _P :] = 1
    return w


def _finish_chain(
    start: BattleSide,
    layout: _Layout,
    states: IntArray,
    succ: IntArray | None,
    cols: IntArray,
    penalty: int,
    attacking: bool,
    sea: bool,
) -> _SideChain:
    """The chain's per-state tables once its states (topological order) and successors are known
    (``succ`` None: a line, see :attr:`_SideChain.succ`)."""
    n = len(states)
    chain = _SideChain()
    chain.size = n
    chain.states = states
    if succ is not None:
        chain.succ = succ.astype(np.intp)[:, :, None]
    chain._cols = cols
    chain._tough_w = (start, layout)
    healthy, damaged, gdice = states[:, :_P], states[:, _P : 2 * _P], states[:, 2 * _P :]
    pieces = healthy + damaged
    chain.pieces_left = left = pieces.sum(axis=1)
    if layout.guardian_cols:
        left = left + gdice.sum(axis=1)  # guardians' dice fight and remain too
    chain.remains = left > 0
    # an inactive castle remains but does not fight
    chain.can_fight = (left - damaged[:, _CASTLE_I]) > 0 if start.count("castle") else chain.remains
    chain.dist_fs, chain.dist_n = _hit_distributions(
        states, start, layout, penalty=penalty, attacking=attacking, sea=sea
    )
    chain.piece_counts = pieces.astype(np.float64)
    chain.guardians = start.guardians
    chain.drowns = sea and bool(start.count("warrior") or start.count("mage"))
    alive = np.zeros((n, len(start.guardians)), dtype=bool)
    for c, (gi, _s) in enumerate(layout.guardian_cols):
        alive[:, gi] |= gdice[:, c] > 0
    chain.guardians_alive = alive
    return chain


def _allied_chain(c1: _SideChain, c2: _SideChain, max_hits: int) -> _SideChain:
    """The defence of two allies sharing a space, the damage of each volley split by the rule of
    NER-BAT-07 (no agreement): half each, the odd one to the ally with more pieces there (by lot
    when they have as many), and what one ally cannot take goes to the other. Each ally then takes
    its share by the loss order. A state is a pair of the allies' states."""
    n1, n2 = c1.size, c2.size
    tough = (c1.tough[:, None] + c2.tough[None, :]).ravel()
    order = np.argsort(-tough, kind="stable")
    pos = np.empty_like(order)
    pos[order] = np.arange(len(order))
    i, j = order // n2, order % n2
    succ1, _w1 = c1.successor_table(max_hits)
    succ2, _w2 = c2.successor_table(max_hits)
    count1, count2 = c1.pieces_left[i][:, None], c2.pieces_left[j][:, None]
    cap1, cap2 = c1.cap[i][:, None], c2.cap[j][:, None]
    h = np.arange(max_hits + 1, dtype=np.int64)[None, :]
    half, odd = h // 2, h % 2
    targets = []
    weights = []
    for to_first, w in (
        (True, (count1 > count2) + 0.5 * (count1 == count2)),
        (False, (count1 < count2) + 0.5 * (count1 == count2)),
    ):
        share1 = half + (odd if to_first else 0)
        share2 = h - share1
        over1 = np.maximum(share1 - cap1, 0)
        share1, share2 = share1 - over1, share2 + over1
        over2 = np.maximum(share2 - cap2, 0)
        share1, share2 = share1 + over2, share2 - over2
        share1 = np.minimum(share1, cap1)
        a = succ1[i[:, None], share1, 0]
        b = succ2[j[:, None], share2, 0]
        targets.append(pos[a * n2 + b])
        weights.append(np.broadcast_to(w, a.shape).astype(np.float64))
    chain = _SideChain()
    chain.size = n1 * n2
    chain.states = np.concatenate([c1.states[i], c2.states[j]], axis=1)
    chain.succ = np.stack(targets, axis=2)
    chain.succ_w = np.stack(weights, axis=2)
    chain.cap = c1.cap[i] + c2.cap[j]
    chain.tough = tough[order]
    chain.can_fight = c1.can_fight[i] | c2.can_fight[j]
    chain.remains = c1.remains[i] | c2.remains[j]
    chain.pieces_left = c1.pieces_left[i] + c2.pieces_left[j]
    chain.dist_fs = _batch_convolve(c1.dist_fs[i], c2.dist_fs[j])
    chain.dist_n = _batch_convolve(c1.dist_n[i], c2.dist_n[j])
    chain.piece_counts = c1.piece_counts[i] + c2.piece_counts[j]
    chain.guardians = ()
    chain.drowns = c1.drowns or c2.drowns
    chain.guardians_alive = np.zeros((chain.size, 0), dtype=bool)
    chain.pair_index = (i, j, pos)
    return chain


# ---------------------------------------------------------------------------
# The battle chain


def _capped(dist: FloatArray, cap: int) -> FloatArray:
    """Columns 0..cap of a hit-distribution matrix, the last holding every count >= cap."""
    width = dist.shape[1]
    if cap >= width - 1:
        return dist
    out = dist[:, : cap + 1].copy()
    out[:, cap] = dist[:, cap:].sum(axis=1)
    return out


class _Moves:
    """The defender's moves under the attacker's hits of one volley, as flat indices into a
    (size × size) matrix, so that one attacker state's transition matrix is one ``bincount``."""

    def __init__(self, B: _SideChain, max_hits: int) -> None:
        succ, w = B.successor_table(max_hits)
        n = B.size
        self.size = n
        self.flat = (np.arange(n, dtype=np.intp)[:, None, None] * n + succ).ravel()
        self.weights = w
        self.max_hits = max_hits

    def matrix(self, dist: FloatArray) -> FloatArray:
        """Transition matrix of the defender when the attacker's hits follow ``dist``."""
        weights = (self.weights * dist[None, : self.max_hits + 1, None]).ravel()
        counts = np.bincount(self.flat, weights=weights, minlength=self.size * self.size)
        out: FloatArray = counts.astype(np.float64, copy=False).reshape(self.size, self.size)
        return out

    def matrices(self, dists: FloatArray) -> FloatArray:
        """:meth:`matrix` for every row of ``dists`` at once (rows × size × size)."""
        rows = dists.shape[0]
        n2 = self.size * self.size
        weights = (self.weights[None] * dists[:, None, : self.max_hits + 1, None]).ravel()
        flat = (np.arange(rows, dtype=np.intp)[:, None] * n2 + self.flat[None, :]).ravel()
        counts = np.bincount(flat, weights=weights, minlength=rows * n2)
        out: FloatArray = counts.astype(np.float64, copy=False).reshape(rows, self.size, self.size)
        return out


#: Largest number of (attacker, defender) pairs solved as one linear system (:func:`_solve_whole`);
#: larger battles go row by row (:func:`_solve_rows`). Both give the same numbers.
WHOLE_CHAIN_PAIRS = 90


def _solve(
    A: _SideChain, B: _SideChain, *, retreat: RetreatRule | None
) -> tuple[FloatArray, FloatArray, float]:
    """Absorbed and retreated mass over (attacker state, defender state) pairs, and expected rounds."""
    if retreat is None and A.size * B.size <= WHOLE_CHAIN_PAIRS:
        return _solve_whole(A, B)
    if (
        retreat is None
        and A.line
        and B.line
        and A.max_fs == 0
        and B.max_fs == 0
        and B.size <= LINE_ROWS_STATES
    ):
        return _solve_lines(A, B)
    return _solve_rows(A, B, retreat=retreat)


def _step_matrix(
    A: _SideChain, B: _SideChain, live: IntArray, a_dist: FloatArray, b_dist: FloatArray
) -> FloatArray:
    """One volley from every pair in ``live`` (flat indices ``a * sb + b``) to every pair:
    A's hits (``a_dist``) move B, B's hits (``b_dist``) move A, independently."""
    sa, sb = A.size, B.size
    a_of, b_of = live // sb, live % sb
    ha, hb = a_dist.shape[1], b_dist.shape[1]
    a_succ = A.successor_table(hb - 1)[0][a_of, :, 0]  # (live, hb): A after B's hits
    b_succ, b_w = B.successor_table(ha - 1)
    b_to = b_succ[b_of]  # (live, ha, r)
    p = (
        b_dist[b_of][:, :, None, None] * a_dist[a_of][:, None, :, None] * b_w[b_of][:, None, :, :]
    )  # (live, hb, ha, r)
    target = a_succ[:, :, None, None] * sb + b_to[:, None, :, :]
    rows = np.arange(len(live), dtype=np.intp)[:, None, None, None] * (sa * sb)
    flat = (rows + target).ravel()
    out: FloatArray = np.bincount(flat, weights=p.ravel(), minlength=len(live) * sa * sb).astype(np.float64)
    return out.reshape(len(live), sa * sb)


def _solve_whole(A: _SideChain, B: _SideChain) -> tuple[FloatArray, FloatArray, float]:
    """Small battles: the round-start chance of every live pair at once, ``x (I - F N) = start``,
    with ``F`` and ``N`` the first-strike and normal volleys between live pairs (no retreat)."""
    sa, sb = A.size, B.size
    live_mask = np.outer(A.can_fight, B.can_fight).ravel()
    absorbed = np.zeros(sa * sb)
    if not live_mask[0]:
        absorbed[0] = 1.0
        return absorbed.reshape(sa, sb), np.zeros((sa, sb)), 0.0
    live = np.flatnonzero(live_mask)
    n = len(live)
    normal = _step_matrix(A, B, live, A.dist_n, B.dist_n)
    start = np.zeros(n)
    start[0] = 1.0  # pair (0, 0) is the first live pair
    if A.max_fs > 0 or B.max_fs > 0:
        first = _step_matrix(A, B, live, A.dist_fs, B.dist_fs)
        x = _row_solve(np.eye(n) - first[:, live] @ normal[:, live], start)
        y = x @ first[:, live]
        absorbed += x @ first
    else:
        x = _row_solve(np.eye(n) - normal[:, live], start)
        y = x
    absorbed += y @ normal
    absorbed[live] = 0.0
    return absorbed.reshape(sa, sb), np.zeros((sa, sb)), float(x.sum())


#: Up to this many defender states, every row's matrices are built (and the no-hit loops
#: inverted) for all attacker states at once, instead of row by row.
BATCHED_ROWS_STATES = 40


class _RowMatrices:
    """Per attacker state ``a``: the defender's moves under ``a``'s volleys (``m_fs``, ``m_n``),
    the same kept only where the defender does not hit back and still fights (``c_fs``, ``c_n``),
    and ``settle(a, rhs)``: the row's round-start mass ``x`` with ``x (I - C_F C_N) = rhs``.
    Small defenders get every row at once (one ``bincount`` and one batched inverse)."""

    def __init__(self, A: _SideChain, B: _SideChain) -> None:
        self.has_fs = A.max_fs > 0 or B.max_fs > 0
        self.A = A
        self.moves_fs = _Moves(B, A.max_fs) if self.has_fs else None
        self.moves_n = _Moves(B, A.max_n)
        fight_b = B.can_fight.astype(np.float64)
        self.zero_fs = B.dist_fs[:, 0] * fight_b  # B's first strike misses; B still fighting
        self.zero_n = B.dist_n[:, 0] * fight_b
        sb = B.size
        self.eye = np.eye(sb)
        self.inverse: FloatArray | None = None
        self.m_n_all: FloatArray | None = None
        self.m_fs_all: FloatArray | None = None
        if sb <= BATCHED_ROWS_STATES:
            self.m_n_all = self.moves_n.matrices(A.dist_n)
            c = self.zero_n[None, :, None] * self.m_n_all
            if self.moves_fs is not None:
                self.m_fs_all = self.moves_fs.matrices(A.dist_fs)
                c = (self.zero_fs[None, :, None] * self.m_fs_all) @ c
            k = self.eye[None, :, :] - c
            k[~A.can_fight] = self.eye  # never solved: the battle is over in those rows
            try:
                self.inverse = np.asarray(np.linalg.inv(k), dtype=np.float64)
            except np.linalg.LinAlgError:
                self.inverse = None  # some row never ends: solve row by row, failing only if reached

    def m_n(self, a: int) -> FloatArray:
        if self.m_n_all is not None:
            out: FloatArray = self.m_n_all[a]
            return out
        return self.moves_n.matrix(self.A.dist_n[a])

    def m_fs(self, a: int) -> FloatArray:
        if self.m_fs_all is not None:
            out: FloatArray = self.m_fs_all[a]
            return out
        assert self.moves_fs is not None
        return self.moves_fs.matrix(self.A.dist_fs[a])

    def settle(self, a: int, loop: FloatArray, rhs: FloatArray) -> FloatArray:
        """``x`` with ``x (I - loop) = rhs``, ``loop`` being row ``a``'s ``C_F C_N`` (or ``C_N``)."""
        if self.inverse is not None:
            out: FloatArray = rhs @ self.inverse[a]
            return out
        return _row_solve(self.eye - loop, rhs)


def _solve_rows(
    A: _SideChain, B: _SideChain, *, retreat: RetreatRule | None
) -> tuple[FloatArray, FloatArray, float]:
    """The chain one attacker state (row) at a time (see the module docstring)."""
    sa, sb = A.size, B.size
    rm = _RowMatrices(A, B)
    if retreat is None and not rm.has_fs and rm.inverse is not None:
        return _solve_rows_plain(A, B, rm)
    moves_fs = rm.moves_fs
    fight_b = B.can_fight.astype(np.float64)
    zero_fs, zero_n = rm.zero_fs, rm.zero_n
    absorbed = np.zeros((sa, sb))
    retreated = np.zeros((sa, sb))
    rounds = 0.0
    a_succ = A.succ[:, :, 0]
    capped_fs: dict[int, FloatArray] = {}
    capped_n: dict[int, FloatArray] = {}

    def spread(
        target: FloatArray,
        a: int,
        dist: FloatArray,
        cache: dict[int, FloatArray],
        mass: FloatArray,
        m_b: FloatArray | None,
    ) -> None:
        """Send ``mass`` (over B states, at attacker state ``a``) through one volley into later rows:
        A takes j >= 1 hits with B's chance for it and B moves by ``m_b`` (None: stays)."""
        cap = int(A.cap[a])
        tb = cache.get(cap)
        if tb is None:
            tb = cache[cap] = _capped(dist, cap)
        j_max = tb.shape[1] - 1
        if j_max < 1:
            return
        flow = tb[:, 1:].T * mass[None, :]
        if m_b is not None:
            flow = flow @ m_b
        if A.drowns:
            np.add.at(target, a_succ[a, 1 : j_max + 1], flow)
        else:  # each hit up to the capacity lowers the attacker's toughness: the rows are distinct
            target[a_succ[a, 1 : j_max + 1]] += flow

    retreat_row = np.zeros(sa, dtype=bool)
    if retreat is not None and retreat.at_or_below is not None:
        retreat_row = A.pieces_left <= retreat.at_or_below
    limit = retreat.after_rounds if retreat is not None else None
    layers = 1 if limit is None else limit
    in_x = np.zeros((sa, sb))
    in_y = np.zeros((sa, sb))
    in_x[0, 0] = 1.0
    if limit is None and retreat_row[0] and A.can_fight[0] and B.can_fight[0]:
        # The attacker starts at or below its retreat size: the first round is fought anyway
        # (NER-BAT-02, NER-BAT-12), so pass the start through its first-strike step here and
        # let every later visit of row 0 retreat.
        in_x[0, 0] = 0.0
        rounds += 1.0
        start = np.zeros(sb)
        start[0] = 1.0
        if moves_fs is not None:
            m_fs0 = rm.m_fs(0)
            in_y[0] += start @ (zero_fs[:, None] * m_fs0)
            spread(in_y, 0, B.dist_fs, capped_fs, start, m_fs0)
        else:
            in_y[0] += start

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
            m_n = rm.m_n(a)
            c_n = zero_n[:, None] * m_n
            can_retreat = bool(retreat_row[a]) and (limit is None or layer > 0)
            if moves_fs is not None:
                m_fs = rm.m_fs(a)
                c_fs = zero_fs[:, None] * m_fs
                if limit is not None:
                    # Rounds are layers: no cycle; the in-row normal volley feeds the next layer.
                    x = x_in
                    y = y_in if can_retreat else y_in + (x * fight_b) @ c_fs
                elif can_retreat:
                    y = y_in
                    x = x_in + y_in @ c_n
                else:
                    x = rm.settle(a, c_fs @ c_n if rm.inverse is None else c_n, x_in + y_in @ c_n)
                    y = y_in + x @ c_fs
            else:
                # no first strike on either side: the first step only checks the end
                if limit is not None:
                    x = x_in
                    y = y_in if can_retreat else y_in + x * fight_b
                elif can_retreat:
                    y = y_in
                    x = x_in + y_in @ c_n
                else:
                    x = rm.settle(a, c_n, x_in + y_in @ c_n)
                    y = y_in + x * fight_b
            x_fight = x * fight_b
            y_fight = y * fight_b
            absorbed[a] += (x - x_fight) + (y - y_fight)
            if can_retreat:
                retreated[a] += x_fight
            else:
                rounds += float(x_fight.sum())
                if moves_fs is not None:
                    spread(in_y, a, B.dist_fs, capped_fs, x_fight, m_fs)
            if limit is not None:
                next_x[a] += y_fight @ c_n
            spread(next_x, a, B.dist_n, capped_n, y_fight, m_n)
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
    return absorbed, retreated, rounds


def _solve_rows_plain(A: _SideChain, B: _SideChain, rm: _RowMatrices) -> tuple[FloatArray, FloatArray, float]:
    """:func:`_solve_rows` when nobody has first strike, nobody retreats and every row's no-hit
    loop is already inverted: per row, its round-start mass and one volley into later rows."""
    sa, sb = A.size, B.size
    assert rm.inverse is not None and rm.m_n_all is not None
    fight_b = B.can_fight.astype(np.float64)
    fighting_dist = B.dist_n * fight_b[:, None]  # B's hits on A, only while B still fights
    flows: dict[int, FloatArray] = {}
    a_succ = A.succ[:, :, 0]
    in_x = np.zeros((sa, sb))
    in_x[0, 0] = 1.0
    settled = np.zeros((sa, sb))
    for a in range(sa):
        if not A.can_fight[a]:
            continue
        x = in_x[a] @ rm.inverse[a]
        settled[a] = x
        cap = int(A.cap[a])
        hits = flows.get(cap)
        if hits is None:
            hits = flows[cap] = np.ascontiguousarray(_capped(fighting_dist, cap)[:, 1:].T)
        if len(hits):
            flow = (hits * x) @ rm.m_n_all[a]
            if A.drowns:
                np.add.at(in_x, a_succ[a, 1 : len(hits) + 1], flow)
            else:  # distinct rows: each hit up to the capacity lowers the attacker's toughness
                in_x[a_succ[a, 1 : len(hits) + 1]] += flow
    absorbed = settled * (1.0 - fight_b)
    absorbed[~A.can_fight] = in_x[~A.can_fight]
    return absorbed, np.zeros((sa, sb)), float((settled * fight_b).sum())


#: Up to this many defender states, two line chains without first strike are solved by
#: :func:`_solve_lines`.
LINE_ROWS_STATES = 40


def _solve_lines(A: _SideChain, B: _SideChain) -> tuple[FloatArray, FloatArray, float]:
    """:func:`_solve_rows_plain` for two line chains (state ``t`` = the start after ``t`` hits)
    and no first strike: the defender's moves under attacker state ``a`` are one shift matrix
    per hit count weighted by ``a``'s hit chances (one product for every row at once), and the
    mass ``a`` sends on with ``k`` hits lands in row ``a + k`` (rows past the last one, where the
    attacker has nothing left, are added to it at the end)."""
    sa, sb = A.size, B.size
    live = A.can_fight
    rows = sa if live[-1] else int(np.argmin(live))  # a line only loses pieces: live rows lead
    absorbed = np.zeros((sa, sb))
    if rows == 0 or not B.can_fight[0]:
        absorbed[0, 0] = 1.0
        return absorbed, np.zeros((sa, sb)), 0.0
    a_dist, b_dist = A.dist_n, B.dist_n
    ha, hb = a_dist.shape[1], b_dist.shape[1]
    k = np.arange(ha)[:, None]
    j = np.arange(sb)[None, :]
    shift = np.zeros((ha, sb, sb))
    shift[k, j, np.minimum(j + k, sb - 1)] = 1.0
    moves = (a_dist[:rows] @ shift.reshape(ha, sb * sb)).reshape(rows, sb, sb)
    fight_b = B.can_fight.astype(np.float64)
    loop = (b_dist[:, 0] * -fight_b)[None, :, None] * moves
    loop += np.eye(sb)
    try:
        inverse = np.linalg.inv(loop)
    except np.linalg.LinAlgError:
        raise ArmyError("this battle never ends: neither side can ever hit") from None
    hits = np.ascontiguousarray(b_dist[:, 1:].T * fight_b)  # (hb - 1, sb)
    in_x = np.zeros((max(sa, rows + hb - 1), sb))
    in_x[0, 0] = 1.0
    settled = np.empty((rows, sb))
    dot = np.dot  # np.dot: less overhead than @ on these small operands
    for a in range(rows):
        x = dot(in_x[a], inverse[a], out=settled[a])
        in_x[a + 1 : a + hb] += dot(hits * x, moves[a])
    absorbed[:rows] = settled * (1.0 - fight_b)
    absorbed[rows:] = in_x[rows:sa]
    absorbed[sa - 1] += in_x[sa:].sum(axis=0)
    return absorbed, np.zeros((sa, sb)), float((settled * fight_b).sum())


def _row_solve(matrix: FloatArray, rhs: FloatArray) -> FloatArray:
    """``x`` with ``x @ matrix == rhs`` (one attacker state's no-hit loops, NER-BAT-02)."""
    try:
        out: FloatArray = np.asarray(np.linalg.solve(matrix.T, rhs), dtype=np.float64)
    except np.linalg.LinAlgError:
        raise ArmyError("this battle never ends: neither side can ever hit") from None
    return out


#: Up to this many possible ends (result x what is left of each side), the ends are summed by
#: counting into one array instead of sorting their keys.
SUMMED_BY_COUNT = 1 << 18


def _summarize(
    A: _SideChain,
    B: _SideChain,
    absorbed: FloatArray,
    retreated: FloatArray,
    rounds: float,
    a0: BattleSide,
    d0: BattleSide,
    *,
    sea: bool,
    amok_targets: int | None,
) -> BattleOdds:
    a_fight = A.can_fight
    b_rem = B.remains
    # every end with its mass: result 0 attacker wins, 1 defender wins, 2 both gone, 3 retreat
    rows, cols = np.nonzero(absorbed)
    mass = absorbed[rows, cols]
    result = np.where(a_fight[rows], 0, np.where(b_rem[cols], 1, 2))
    retreats = float(retreated.sum())
    if retreats:
        r_rows, r_cols = np.nonzero(retreated)
        rows = np.concatenate([rows, r_rows])
        cols = np.concatenate([cols, r_cols])
        mass = np.concatenate([mass, retreated[r_rows, r_cols]])
        result = np.concatenate([result, np.full(len(r_rows), 3, dtype=result.dtype)])
    attacker_win, defender_win, mutual, _r = np.bincount(result, weights=mass, minlength=4).tolist()
    win = result == 0
    a_mass = np.bincount(rows, weights=mass, minlength=A.size)
    b_mass = np.bincount(cols, weights=mass, minlength=B.size)
    a_exp = a_mass @ A.piece_counts
    b_exp = b_mass @ B.piece_counts
    a_start = A.piece_counts[0]  # state 0 is the start
    b_start = B.piece_counts[0]
    if b_start[_CASTLE_I]:
        # A castle left when the attacker wins is captured: lost to the defender (NER-BAT-16).
        b_win_mass = np.bincount(cols[win], weights=mass[win], minlength=B.size)
        b_exp[_CASTLE_I] -= float(b_win_mass @ B.piece_counts[:, _CASTLE_I])
    attacker_survivors = {
        pid: x for pid, x, n in zip(PIECE_IDS, a_exp.tolist(), a_start.tolist(), strict=True) if n
    }
    defender_survivors = {
        pid: x for pid, x, n in zip(PIECE_IDS, b_exp.tolist(), b_start.tolist(), strict=True) if n
    }
    for gi, g in enumerate(B.guardians):  # by id: guardians sharing an id are counted together
        alive = float(b_mass @ B.guardians_alive[:, gi])
        defender_survivors[g.id] = defender_survivors.get(g.id, 0.0) + alive
    reward = attacker_win * sum(g.reward_gold for g in d0.guardians)
    amok: tuple[float, ...] = ()
    if not sea and not d0.guardians and a0.count("monster"):
        monsters = A.piece_counts[rows[win], _MONSTER_I].astype(np.intp)
        by_count = np.bincount(monsters, weights=mass[win], minlength=a0.count("monster") + 1)
        amok = tuple(float(p) for p in by_count)

    # every distinct end: (result, what is left of each side after healing), summed with numpy
    a_codes, n_a = A.heal_codes()
    b_codes, n_b = B.heal_codes()
    key_all: npt.NDArray[Any]
    if n_a * n_b * 4 < 1 << 62:
        key_all = (result * n_a + a_codes[rows]) * n_b + b_codes[cols]
    else:
        key_all = np.array(
            [
                ((int(r) * n_a + int(x)) * n_b + int(y))
                for r, x, y in zip(result, a_codes[rows], b_codes[cols], strict=True)
            ],
            dtype=object,
        )
    results = (
        BattleOutcome.ATTACKER_WINS,
        BattleOutcome.DEFENDER_WINS,
        BattleOutcome.MUTUAL_DESTRUCTION,
        BattleOutcome.ATTACKER_RETREATS,
    )
    if key_all.dtype != object and n_a * n_b * 4 <= SUMMED_BY_COUNT:
        # few possible ends: sum by key directly (the same sums as by np.unique, in key order)
        summed = np.bincount(key_all, weights=mass, minlength=n_a * n_b * 4)
        uniq = np.flatnonzero(summed > 1e-15)
        summed = summed[uniq]
    else:
        uniq, inverse = np.unique(key_all, return_inverse=True)
        summed = np.bincount(inverse.reshape(-1), weights=mass, minlength=len(uniq))
        keep = summed > 1e-15
        uniq, summed = uniq[keep], summed[keep]
    by_chance = np.argsort(-summed, kind="stable")  # most likely first, ties in key order
    uniq, summed = uniq[by_chance], summed[by_chance]
    rest, b_code = np.divmod(uniq, n_b)
    code, a_code = np.divmod(rest, n_a)
    a_left = A.left_after(a_code)
    b_lefts = B.left_after(b_code)
    ends = zip([results[c] for c in code.tolist()], a_left, b_lefts, summed.tolist(), strict=True)
    if b_start[_CASTLE_I]:
        listed = []
        for res, a_l, b_l, p in ends:
            captured_castle = res is BattleOutcome.ATTACKER_WINS and "castle" in b_l
            if captured_castle:
                b_l = {k: n for k, n in b_l.items() if k != "castle"}
            listed.append(OutcomeProbability(res, a_l, b_l, p, captured_castle))
    else:  # no castle to capture: each end as it is, made without the keyword-reading constructor
        listed = [_new_tuple(OutcomeProbability, (*end, False)) for end in ends]
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
        amok_monsters=amok,
        amok_targets=amok_targets if amok else None,
    )


__all__ = [
    "ALLIED_DAMAGE",
    "MAX_ALLIED_STATES",
    "BattleOdds",
    "OutcomeProbability",
    "battle_odds",
    "clear_caches",
    "dungeon_odds_over_draws",
    "dungeon_penalty",
    "resolve_guardians",
]


# ---------------------------------------------------------------------------
# Many dungeons at once: the same heroes against each possible draw of guardians


#: Draws of guardians solved in one stack by :func:`dungeon_odds_over_draws`.
DRAWS_AT_ONCE = 1500


def dungeon_odds_over_draws(
    attacker: BattleSide,
    draws: Sequence[tuple[float, tuple[Guardian, ...], float]],
    *,
    double_up: bool = False,
) -> BattleOdds:
    """The odds of heroes entering a dungeon whose guardians are one of ``draws`` (probability,
    the guardians in their order on the entrance, reward gold if the heroes win), averaged.

    Every draw's guardians lose dice along one line (the weakest die first, :func:`~.battle.
    loss_sequence`), so all draws are solved together: the heroes' chain is shared (one per hit
    penalty, NER-DUN-05) and each row's guardian moves are a stack of small matrices, one per
    draw. The numbers are those of :func:`battle_odds` on each draw, averaged; surviving guardians
    are counted by id (guardians that share an id are counted together)."""
    if not draws:
        raise ArmyError("a dungeon battle needs at least one draw of guardians")
    check_sides(attacker, BattleSide.of({}, guardians=draws[0][1]))
    by_penalty: dict[int, list[tuple[float, tuple[Guardian, ...], float]]] = {}
    for draw in draws:
        if not draw[1]:
            raise ArmyError("a dungeon battle needs at least one guardian")
        by_penalty.setdefault(max(g.hero_hit_min for g in draw[1]), []).append(draw)
    ids = sorted({g.id for _w, gs, _r in draws for g in gs})
    order = _loss_order(None)
    totals: dict[str, Any] = {}
    outcome_mass: dict[tuple[int, int, tuple[int, ...]], float] = {}
    chains: dict[int, _SideChain] = {}
    for penalty, group in sorted(by_penalty.items()):
        A = chains[penalty] = _side_chain(attacker, penalty, True, False, order, double_up)
        for start in range(0, len(group), DRAWS_AT_ONCE):  # bounded memory
            _solve_draws(A, group[start : start + DRAWS_AT_ONCE], ids, totals, outcome_mass)
    a_start = np.array(attacker.healthy, dtype=np.float64) + np.array(attacker.damaged, dtype=np.float64)
    a_exp = totals["a_pieces"]
    results = (BattleOutcome.ATTACKER_WINS, BattleOutcome.DEFENDER_WINS, BattleOutcome.MUTUAL_DESTRUCTION)
    listed = []
    any_chain = next(iter(chains.values()))
    for (res, a_code, left), p in outcome_mass.items():
        if p <= 1e-15:
            continue
        a_left = any_chain.left_after(np.array([a_code], dtype=np.int64))[0]
        d_left = {gid: n for gid, n in zip(ids, left, strict=True) if n}
        listed.append(OutcomeProbability(results[res], a_left, d_left, p, False))
    listed.sort(key=lambda o: -o.probability)
    return BattleOdds(
        attacker_win=totals["win"],
        defender_win=totals["lose"],
        mutual_destruction=totals["mutual"],
        attacker_retreats=0.0,
        expected_rounds=totals["rounds"],
        attacker_survivors={pid: float(a_exp[i]) for i, pid in enumerate(PIECE_IDS) if a_start[i]},
        defender_survivors={gid: float(n) for gid, n in zip(ids, totals["g_alive"], strict=True)},
        attacker_gold_lost=float((a_start - a_exp) @ _COST),
        defender_gold_lost=0.0,
        expected_reward_gold=totals["reward"],
        outcomes=tuple(listed),
    )


def _solve_draws(
    A: _SideChain,
    group: Sequence[tuple[float, tuple[Guardian, ...], float]],
    ids: list[str],
    totals: dict[str, Any],
    outcome_mass: dict[tuple[int, int, tuple[int, ...]], float],
) -> None:
    """Solve the draws of one hit penalty together and add their weighted results to ``totals``
    and ``outcome_mass`` (keys: result, the heroes' :meth:`_SideChain.heal_codes` number, the
    guardians left per id)."""
    k_n = len(group)
    weights = np.array([w for w, _g, _r in group])
    rewards = np.array([r for _w, _g, r in group])
    # each draw's guardian dice in the order they are lost (NER-DUN-03, the default chooser)
    lines = []
    for _w, gs, _r in group:
        dice = sorted(
            (hit_chance(s, HIT_ON), g.first_strike, gi, s) for gi, g in enumerate(gs) for s in g.dice
        )
        lines.append(dice)
    length = np.array([len(d) for d in lines])
    L = int(length.max()) + 1  # states 0..len: after that many hits (len = beaten)
    p_fs = np.zeros((k_n, L))
    p_n = np.zeros((k_n, L))
    for k, dice in enumerate(lines):
        for i, (p, fs, _gi, _s) in enumerate(dice):
            (p_fs if fs else p_n)[k, i] = p

    # hit distributions of the dice left after t hits: the dice from position t on
    def tails(p: FloatArray) -> FloatArray:
        out = np.zeros((k_n, L, L))
        out[:, L - 1, 0] = 1.0
        for t in range(L - 2, -1, -1):
            out[:, t, :] = out[:, t + 1, :] * (1.0 - p[:, t : t + 1])
            out[:, t, 1:] += out[:, t + 1, :-1] * p[:, t : t + 1]
        return out

    b_fs, b_n = tails(p_fs), tails(p_n)
    t_idx = np.arange(L)
    live = t_idx[None, :] < length[:, None]  # guardians still able to fight
    live_f = live.astype(np.float64)
    # guardians alive after t hits, by id: a guardian lives while one of its dice is left
    alive = np.zeros((k_n, L, len(ids)))
    for k, (dice, (_w, gs, _r)) in enumerate(zip(lines, group, strict=True)):
        last_pos = {gi: i for i, (_p, _f, gi, _s) in enumerate(dice)}  # its last die's position
        for gi, g in enumerate(gs):
            alive[k, : last_pos[gi] + 1, ids.index(g.id)] += 1
    sa = A.size
    in_x = np.zeros((k_n, sa, L))
    in_y = np.zeros((k_n, sa, L))
    in_x[:, 0, 0] = 1.0
    absorbed = np.zeros((k_n, sa, L))
    rounds = np.zeros(k_n)
    eye = np.eye(L)
    a_succ = A.succ[:, :, 0]
    h_a = max(A.max_fs, A.max_n) + 1
    # the guardians' line after h more hits, capped at beaten: flat indices into (k, t, t')
    to = np.minimum(t_idx[None, :, None] + np.arange(h_a)[None, None, :], length[:, None, None])
    flat = ((np.arange(k_n)[:, None, None] * L + t_idx[None, :, None]) * L + to).ravel()

    def moves(dist: FloatArray) -> FloatArray:
        w = np.broadcast_to(np.pad(dist, (0, h_a - len(dist)))[None, None, :], (k_n, L, h_a)).ravel()
        out: FloatArray = np.bincount(flat, weights=w, minlength=k_n * L * L).astype(np.float64)
        return out.reshape(k_n, L, L)

    def spread(target: FloatArray, a: int, b_dist: FloatArray, mass: FloatArray, m: FloatArray) -> None:
        cap = int(A.cap[a])
        if cap >= b_dist.shape[2] - 1:
            tb = b_dist
        else:  # more hits than the heroes can take count as their capacity
            tb = b_dist[:, :, : cap + 1].copy()
            tb[:, :, cap] += b_dist[:, :, cap + 1 :].sum(axis=2)
        j_max = tb.shape[2] - 1
        if j_max < 1:
            return
        flow = np.einsum("ktj,kt,ktu->kju", tb[:, :, 1:], mass, m)
        target[:, a_succ[a, 1 : j_max + 1], :] += flow

    for a in range(sa):
        if not A.can_fight[a]:
            absorbed[:, a, :] += in_x[:, a, :] + in_y[:, a, :]
            continue
        m_fs = moves(A.dist_fs[a])
        m_n = moves(A.dist_n[a])
        c_fs = (b_fs[:, :, 0] * live_f)[:, :, None] * m_fs
        c_n = (b_n[:, :, 0] * live_f)[:, :, None] * m_n
        rhs = in_x[:, a, :] + np.einsum("kt,ktu->ku", in_y[:, a, :], c_n)
        system = eye[None] - np.einsum("ktu,kuv->ktv", c_fs, c_n)
        try:
            x = np.linalg.solve(np.transpose(system, (0, 2, 1)), rhs[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:
            raise ArmyError("this battle never ends: neither side can ever hit") from None
        y = in_y[:, a, :] + np.einsum("kt,ktu->ku", x, c_fs)
        x_live, y_live = x * live_f, y * live_f
        absorbed[:, a, :] += (x - x_live) + (y - y_live)
        rounds += x_live.sum(axis=1)
        spread(in_y, a, b_fs, x_live, m_fs)
        spread(in_x, a, b_n, y_live, m_n)
    a_fight = A.can_fight
    win = (absorbed[:, a_fight, :] * ~live[:, None, :]).sum(axis=(1, 2))
    lose = (absorbed[:, ~a_fight, :] * live[:, None, :]).sum(axis=(1, 2))
    mutual = (absorbed[:, ~a_fight, :] * ~live[:, None, :]).sum(axis=(1, 2))
    a_mass = absorbed.sum(axis=2)  # (k, a)
    g_alive = np.einsum("kat,ktg->g", absorbed * weights[:, None, None], alive)
    for name, value in (
        ("win", float(weights @ win)),
        ("lose", float(weights @ lose)),
        ("mutual", float(weights @ mutual)),
        ("rounds", float(weights @ rounds)),
        ("reward", float(weights @ (win * rewards))),
    ):
        totals[name] = totals.get(name, 0.0) + value
    totals["a_pieces"] = totals.get("a_pieces", 0.0) + (weights @ a_mass) @ A.piece_counts
    totals["g_alive"] = totals.get("g_alive", 0.0) + g_alive
    # outcomes: result, the heroes left, the guardians left per id (summed with numpy)
    a_codes, n_a = A.heal_codes()
    kk, aa, tt = np.nonzero(absorbed)
    mass = absorbed[kk, aa, tt] * weights[kk]
    res = np.where(a_fight[aa], 0, np.where(live[kk, tt], 1, 2))
    left = alive[kk, tt].astype(np.int64)
    radix = _radix(left.max(axis=0)) if len(left) else None
    assert radix is not None
    span = int(np.prod((left.max(axis=0) + 1).astype(object)))
    keys = (res * n_a + a_codes[aa]) * span + left @ radix
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    summed = np.bincount(inverse.reshape(-1), weights=mass, minlength=len(uniq))
    for i, q in zip(first.tolist(), summed.tolist(), strict=True):
        key = (int(res[i]), int(a_codes[aa[i]]), tuple(left[i].tolist()))
        outcome_mass[key] = outcome_mass.get(key, 0.0) + q
