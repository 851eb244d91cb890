"""Phase 6 income (NER-INC-*) and victory at the end of a round or turn (NER-WIN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.decisions import Results
from warhorn.engine.events import Event

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: VP targets for free-for-all games (NER-WIN-01) and treasures for the long game (NER-WIN-02).
FFA_TARGET = {"short": 13, "medium": 20}
FFA_LONG_TREASURES = 8


def income_of(s: NerathState, k: int) -> int:
    """Base income + conquered − lost territories (NER-INC-01), halved rounding up without the
    capital (NER-INC-03).

    Conquered less lost is the territories ``k`` holds less those it started with (a starting
    territory still held counts in both).
    """
    return _income(s, k, s.board.land_controllers(s.d.control).count(k))


def incomes(s: NerathState) -> list[int]:
    """:func:`income_of` of every kingdom, in kingdom order (the territories read once)."""
    controllers = s.board.land_controllers(s.d.control)
    return [_income(s, k, controllers.count(k)) for k in range(4)]


def _income(s: NerathState, k: int, held: int) -> int:
    """The income of ``k`` holding ``held`` territories (NER-INC-01, NER-INC-03)."""
    total = max(0, s.board.base_income[k] + held - s.board.home_lands[k])
    if not s.holds_own_capital(k):
        total = (total + 1) // 2
    return total


def collect_income(s: NerathState, k: int) -> list[Event]:
    """NER-INC-01; then the holder's treasure properties that repeat in its income phase."""
    amount = income_of(s, k)
    s.d.gold[k] += amount
    events = [Event("income", {"kingdom": k, "gold": amount}, f"{s.kingdom_name(k)} collects {amount} gold")]
    return events + s.card_trigger("income", k, -1)


def _team_members(s: NerathState, k: int) -> list[int]:
    return [j for j in range(4) if s.allied(j, k)]


def _teams(s: NerathState) -> list[list[int]]:
    seen: list[list[int]] = []
    for k in range(4):
        members = _team_members(s, k)
        if members not in seen:
            seen.append(members)
    return seen


def team_vp(s: NerathState, members: list[int]) -> int:
    return sum(s.d.vp[j] for j in members)


def team_treasures(s: NerathState, members: list[int]) -> int:
    return sum(s.treasure_count(j) for j in members)


def _result(s: NerathState, members: list[int], reason: str) -> Results:
    winners = frozenset(s.player_of[j] for j in members)
    return Results(winners, s.ranking(), s.player_scores(), reason)


def _strict_leader(values: list[tuple[list[int], int]], target: int) -> list[int] | None:
    best = max(v for _, v in values)
    leaders = [m for m, v in values if v == best]
    if best >= target and len(leaders) == 1:
        return leaders[0]
    return None


def check_turn_end(s: NerathState, k: int) -> Results | None:
    """Long game: holding every capital at the end of one's own turn wins at once (NER-WIN-02/03)."""
    if s.options["length"] != "long":
        return None
    members = _team_members(s, k)
    caps = [c for c in s.board.capitals if c >= 0]
    if caps and all(s.d.control[c] in members for c in caps):
        return _result(s, members, "holds every capital")
    return None


def check_round_end(s: NerathState) -> Results | None:
    """VP targets (short/medium) or treasures (long), strictly ahead of everyone (NER-WIN-01..03)."""
    length = s.options["length"]
    teams = _teams(s)
    alliance = s.options["mode"] == "alliance"
    if length == "long":
        target = int(s.options["alliance_long_treasures"]) if alliance else FFA_LONG_TREASURES
        leader = _strict_leader([(m, team_treasures(s, m)) for m in teams], target)
        if leader is not None:
            return _result(s, leader, f"{target}+ treasures and the most")
        return None
    if alliance:
        target = int(s.options["alliance_short_vp" if length == "short" else "alliance_medium_vp"])
    else:
        target = FFA_TARGET[length]
    leader = _strict_leader([(m, team_vp(s, m)) for m in teams], target)
    if leader is not None:
        return _result(s, leader, f"{target}+ VP and the most")
    return None


def round_cap_result(s: NerathState) -> Results:
    """The declared result when the round cap is reached: the players with the most VP win (ties share)."""
    scores = s.player_scores()
    best = max(scores.values())
    winners = frozenset(p for p, v in scores.items() if v == best)
    return Results(winners, s.ranking(), scores, "round cap reached: most VP")
