"""The allied defenders' best agreement (NER-BAT-07, option ``allied_damage = agree``).

Two allies defending one space agree, volley by volley, how the attacker's hits are shared between
them; each ally then takes its share by the loss order. The calculator looks for the sharing that
is best for the defenders over *every* agreement: the one that keeps the attacker's chance of
winning lowest. It is a decision problem on the states (attacker state, ally 1's state, ally 2's
state): after each volley, knowing every die, the allies pick the split of the attacker's hits.

:func:`best_agreement` finds the optimal policy by policy iteration (the value of a state is the
attacker's chance of winning from it; each volley's split is the one that minimises the value of
what follows; the values of a policy are solved exactly, then its splits improved, until nothing
changes), then solves the battle exactly under that policy (the same linear system as an ordinary battle), so
every figure of the answer (wins, losses, rounds) is that of the best agreement. Only battles
without a retreat rule and of bounded size are solved this way; the caller falls back otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from warhorn.games.nerath.odds import FloatArray, IntArray, _SideChain

#: The most (attacker state x allied pair) states, and entries of the per-volley choice table, for
#: which the best agreement is solved exactly; larger battles fall back to the better of two splits.
MAX_AGREEMENT_STATES = 1500
MAX_CHOICE_ENTRIES = 6_000_000
#: Policy iteration stops when no state's value moves by more than this; it takes a handful of
#: rounds (each: the greedy splits, then their exact values by one linear solve).
TOLERANCE = 1e-13
MAX_ITERATIONS = 50


class _Choices:
    """For each allied pair ``p`` and attacker hit count ``h``, every split of the hits the allies may
    agree on (``k``: hits to the first ally), as the pairs it leads to (``target[p, h, k, r]``,
    with the chance ``weight`` of each lot ``r`` of the allies' own loss orders)."""

    def __init__(
        self, c1: _SideChain, c2: _SideChain, pair_i: IntArray, pair_j: IntArray, pos: IntArray, hits: int
    ):
        succ1, w1 = c1.successor_table(hits)
        succ2, w2 = c2.successor_table(hits)
        n2 = c2.size
        h = np.arange(hits + 1)[None, :, None]
        k = np.arange(hits + 1)[None, None, :]
        cap1 = c1.cap[pair_i][:, None, None]
        cap2 = c2.cap[pair_j][:, None, None]
        valid = (k <= h) & (k <= cap1) & (h - k <= cap2)
        # more hits than both can take: each takes all it can (the successor tables saturate)
        fallback = np.minimum(h, cap1)
        lowest = np.where(valid.any(axis=2, keepdims=True), np.argmax(valid, axis=2)[..., None], fallback)
        s1 = np.where(valid, k, lowest)  # (P, H, K): a choice that is not valid repeats a valid one
        s2 = np.clip(h - s1, 0, hits)
        i = pair_i[:, None, None]
        j = pair_j[:, None, None]
        a = succ1[i, s1]  # (P, H, K, R1)
        b = succ2[j, s2]  # (P, H, K, R2)
        wa = w1[i, s1]
        wb = w2[j, s2]
        self.target: IntArray = pos[a[..., :, None] * n2 + b[..., None, :]].reshape(*s1.shape, -1)
        self.weight: FloatArray = (wa[..., :, None] * wb[..., None, :]).reshape(*s1.shape, -1)

    def best(self, cont: FloatArray) -> tuple[FloatArray, IntArray]:
        """For each attacker state after the volley, pair and hit count: the lowest expected
        continuation over the splits, and the split reaching it."""
        expected = (cont[:, self.target] * self.weight[None]).sum(axis=-1)  # (S, P, H, K)
        choice = np.argmin(expected, axis=-1)
        return np.take_along_axis(expected, choice[..., None], axis=-1)[..., 0], choice


def _volley(
    A: _SideChain, pairs: _SideChain, fs: bool, choices: _Choices, cont: FloatArray
) -> tuple[FloatArray, IntArray]:
    """The value before one volley (``fs``: the first-strike one) given ``cont``, the value of every
    state after it; and the allies' split for each (attacker state after, pair, hits)."""
    da = A.dist_fs if fs else A.dist_n
    db = pairs.dist_fs if fs else pairs.dist_n
    succ_a, w_a = A.successor_table(db.shape[1] - 1)  # (S, HB, RA)
    best, choice = choices.best(cont)  # (S, P, HA)
    best = best[:, :, : da.shape[1]]
    # attacker state a, defender hits hb (by pair p), lot ra -> attacker state after
    after = best[succ_a]  # (S, HB, RA, P, HA)
    over_ha = np.einsum("abrph,ah->abrp", after, da)
    over_lot = np.einsum("abrp,abr->abp", over_ha, w_a)
    value: FloatArray = np.einsum("abp,pb->ap", over_lot, db)
    return value, choice


def _closed(A: _SideChain, pairs: _SideChain, value: FloatArray) -> FloatArray:
    """``value`` where both sides still fight; where the battle is over, 1 if the attacker won."""
    live = np.outer(A.can_fight, pairs.can_fight)
    won = np.broadcast_to(A.can_fight[:, None].astype(np.float64), value.shape)
    out: FloatArray = np.where(live, value, won)
    return out


def _policy_step(
    A: _SideChain, pairs: _SideChain, fs: bool, choices: _Choices, policy: IntArray, live: IntArray
) -> FloatArray:
    """One volley from every live state (flat ``a * P + p``) under the allies' ``policy``."""
    da = A.dist_fs if fs else A.dist_n
    db = pairs.dist_fs if fs else pairs.dist_n
    sp = A.size * pairs.size
    a_of, p_of = live // pairs.size, live % pairs.size
    succ_a, w_a = A.successor_table(db.shape[1] - 1)
    ha = da.shape[1]
    a_next = succ_a[a_of]  # (L, HB, RA)
    k = policy[a_next[:, :, :, None], p_of[:, None, None, None], np.arange(ha)[None, None, None, :]]
    h_idx = np.arange(ha)[None, None, None, :]
    p_idx = p_of[:, None, None, None]
    targets = choices.target[p_idx, h_idx, k]  # (L, HB, RA, HA, R)
    weights = choices.weight[p_idx, h_idx, k]
    chance = (
        db[p_of][:, :, None, None, None]
        * w_a[a_of][:, :, :, None, None]
        * da[a_of][:, None, None, :, None]
        * weights
    )
    flat = a_next[:, :, :, None, None] * pairs.size + targets
    rows = np.arange(len(live), dtype=np.intp)[:, None, None, None, None] * sp
    out: FloatArray = np.bincount(
        (rows + flat).ravel(), weights=chance.ravel(), minlength=len(live) * sp
    ).astype(np.float64)
    return out.reshape(len(live), sp)


def best_agreement(
    A: _SideChain, c1: _SideChain, c2: _SideChain, pairs: _SideChain
) -> tuple[FloatArray, FloatArray, float, float] | None:
    """The battle under the allies' best agreement: absorbed mass over (attacker state, pair),
    retreated mass (none: no retreat rule), expected rounds, and the attacker's chance of winning
    found by policy iteration. None when the battle is too large to solve this way.

    ``pairs`` is the allied chain of :func:`~.odds._allied_chain` (its states are the pairs of
    the allies' states; ``pairs.pair_index`` maps them back)."""
    assert pairs.pair_index is not None
    pair_i, pair_j, pos = pairs.pair_index
    S, P = A.size, pairs.size
    hits = max(A.max_fs, A.max_n)
    if S * P > MAX_AGREEMENT_STATES or S * P * (hits + 1) ** 2 * 4 > MAX_CHOICE_ENTRIES:
        return None
    choices = _Choices(c1, c2, pair_i, pair_j, pos, hits)
    has_fs = A.max_fs > 0 or pairs.max_fs > 0
    live_mask = np.outer(A.can_fight, pairs.can_fight).ravel()
    if not live_mask[0]:
        absorbed = np.zeros(S * P)
        absorbed[0] = 1.0
        return absorbed.reshape(S, P), np.zeros((S, P)), 0.0, float(A.can_fight[0])
    live = np.flatnonzero(live_mask)
    n = len(live)
    won = np.where(live_mask, 0.0, np.repeat(A.can_fight.astype(np.float64), P))  # ends the attacker won
    # policy iteration: the greedy splits for the current values, then those splits' exact values
    value = np.zeros((S, P))
    for _ in range(MAX_ITERATIONS):
        before_n, policy_n = _volley(A, pairs, False, choices, _closed(A, pairs, value))
        policy_fs = policy_n
        if has_fs:
            _before, policy_fs = _volley(A, pairs, True, choices, _closed(A, pairs, before_n))
        normal = _policy_step(A, pairs, False, choices, policy_n, live)
        try:
            if has_fs:
                first = _policy_step(A, pairs, True, choices, policy_fs, live)
                gain = first[:, live] @ (normal @ won) + first @ won
                loop = first[:, live] @ normal[:, live]
            else:
                gain = normal @ won
                loop = normal[:, live]
            exact = np.asarray(np.linalg.solve(np.eye(n) - loop, gain), dtype=np.float64)
        except np.linalg.LinAlgError:
            return None
        new = np.zeros(S * P)
        new[live] = exact
        value_new = new.reshape(S, P)
        done = float(np.max(np.abs(value_new - value))) < TOLERANCE
        value = value_new
        if done:
            break
    # the battle under the last policy: its ends and rounds, solved as an ordinary battle
    absorbed = np.zeros(S * P)
    start = np.zeros(n)
    start[0] = 1.0
    try:
        if has_fs:
            x = np.asarray(
                np.linalg.solve((np.eye(n) - first[:, live] @ normal[:, live]).T, start), dtype=np.float64
            )
            y = x @ first[:, live]
            absorbed += x @ first
        else:
            x = np.asarray(np.linalg.solve((np.eye(n) - normal[:, live]).T, start), dtype=np.float64)
            y = x
    except np.linalg.LinAlgError:
        return None
    absorbed += y @ normal
    absorbed[live] = 0.0
    return absorbed.reshape(S, P), np.zeros((S, P)), float(x.sum()), float(value[0, 0])
