"""Phase 5: what to buy with the treasury and at which castle to place it (NER-REI-*).

One purchase per decision: the piece type the army lacks most against its
target mix (affordable), placed at the usable castle that needs it most
(threat it faces minus its defence, front line first). Heroes are topped up
to two for dungeon delves; a castle is built near the front when the
kingdom's usable castles all lie far behind it and the treasury is large.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from warhorn.ai.heuristic import Choice
from warhorn.ai.nerath.knowledge import DEFENCE_POWER
from warhorn.ai.nerath.situation import Situation
from warhorn.games.nerath.actions import Buy, Pass
from warhorn.games.nerath.board import LAND
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import cards, reinforcements

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Target shares of the land army by piece type (cheap casualties, strong attack dice, mobility).
ARMY_MIX: dict[str, float] = {"soldier": 0.40, "siege": 0.25, "warrior": 0.12, "monster": 0.15, "mage": 0.08}
#: Heroes kept for dungeon delves.
HEROES_WANTED = 2
#: Purchases per turn at most (a safety bound: no card makes a piece free, the price floor is 1 gold).
MAX_PURCHASES = 30
#: A new castle is considered with at least this much gold.
CASTLE_GOLD = 10


def choose_purchase(s: NerathState, k: int) -> Choice:
    gold = s.d.gold[k]
    bought = sum(1 for u in s.d.units.values() if u.kingdom == k and u.new)
    if bought >= MAX_PURCHASES:
        return Choice(Pass(), f"{bought} pieces bought this turn: enough ({gold} gold kept)")
    legal = reinforcements.legal_buys(s, k)
    if not legal:
        return Choice(Pass(), f"nothing to buy or no place to put it ({gold} gold)")
    sit = Situation(s, k)
    by_piece: dict[str, list[Buy]] = {}
    for b in legal:
        by_piece.setdefault(b.piece, []).append(b)
    castle_buy = _castle_site(sit, by_piece.get("castle", []), gold)
    if castle_buy is not None:
        return castle_buy
    ptype, why = _piece_to_buy(sit, by_piece, gold)
    if ptype is None:
        return Choice(Pass(), f"keep {gold} gold: nothing useful is affordable")
    buy, where = _placement(sit, by_piece[ptype])
    price = cards.cost(s, k, ptype)
    return Choice(buy, f"buy {ptype} for {price} ({gold} → {gold - price} gold): {why}; place at {where}")


def _army(s: NerathState, k: int) -> Counter[str]:
    return Counter(u.ptype for u in s.d.units.values() if u.kingdom == k)


def _piece_to_buy(sit: Situation, by_piece: dict[str, list[Buy]], gold: int) -> tuple[str | None, str]:
    s, k = sit.s, sit.k
    have = _army(s, k)
    heroes = have["warrior"] + have["mage"]
    if heroes < HEROES_WANTED and "warrior" in by_piece and gold >= 3:
        return "warrior", f"{heroes} hero(es) for dungeons, want {HEROES_WANTED}"
    land_total = sum(have[p] for p in ARMY_MIX) or 1
    best: tuple[float, str] | None = None
    for ptype, share in ARMY_MIX.items():
        if ptype not in by_piece:
            continue
        gap = share - have[ptype] / land_total
        if best is None or gap > best[0]:
            best = (gap, ptype)
    if best is None:
        cheap = sorted(by_piece, key=lambda p: (PIECES[p].cost, p))
        usable = [p for p in cheap if p not in ("castle", "warship")]
        if not usable:
            return None, ""
        return usable[0], "the cheapest piece that fits"
    gap, ptype = best
    return ptype, f"{have[ptype]} of {land_total} land pieces are {ptype}, mix wants {ARMY_MIX[ptype]:.0%}"


def _need(sit: Situation, space: int) -> float:
    s, k = sit.s, sit.k
    defence = sum(DEFENCE_POWER[u.ptype] for u in sit.friends(space))
    need = sit.threat_power(space) - defence
    if sit.frontier(space):
        need += 1.0
    if s.board.capitals[k] == space:
        need += 0.5
    return need - 0.2 * min(sit.enemy_distance(space), 10)


def _placement(sit: Situation, options: list[Buy]) -> tuple[Buy, str]:
    s = sit.s
    scored = []
    for b in options:
        space = s.board.idx(b.space)
        if s.board.kind[space] != LAND:
            continue
        scored.append((_need(sit, space), b))
    if not scored:
        return options[0], options[0].space
    scored.sort(key=lambda x: (-x[0], x[1].space))
    need, buy = scored[0]
    space = s.board.idx(buy.space)
    return buy, f"{buy.space} (threat {sit.threat_power(space):.1f} expected enemy hits, need {need:+.1f})"


def _castle_site(sit: Situation, options: list[Buy], gold: int) -> Choice | None:
    s, k = sit.s, sit.k
    if gold < CASTLE_GOLD or not options or s.d.new_castles:
        return None
    usable = reinforcements.usable_castles(s, k)
    if any(sit.enemy_distance(c) <= 2 for c in usable):
        return None
    sites = [
        (sit.enemy_distance(idx), -len(sit.friends(idx)), b.space, b)
        for b in options
        if (idx := s.board.idx(b.space)) >= 0 and sit.enemy_distance(idx) <= 1
    ]
    if not sites:
        return None
    sites.sort(key=lambda x: x[:3])
    buy = sites[0][3]
    price = cards.cost(s, k, "castle")
    return Choice(
        buy,
        f"build a castle at {buy.space} for {price} ({gold} gold): our usable castles lie 3+ steps "
        "behind the front",
    )
