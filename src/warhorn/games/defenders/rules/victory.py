"""The end: all win or all lose together; King's Champion ranks the players (DEF-END-01..03)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.engine.decisions import Results

if TYPE_CHECKING:
    from warhorn.games.defenders.state import DefendersState


def champion_scores(state: DefendersState) -> dict[int, tuple[int, int]]:
    """Each player's (points, quests): points = quests completed + generals slain (DEF-END-03)."""
    return {
        p: (state.quests_done[p] + state.generals_slain[p], state.quests_done[p])
        for p in range(state.players)
    }


def champion_ranking(state: DefendersState) -> tuple[tuple[int, ...], ...]:
    """Players grouped best first: most points, then most quests; still tied → shared place."""
    scores = champion_scores(state)
    keys = sorted(set(scores.values()), reverse=True)
    return tuple(tuple(p for p in range(state.players) if scores[p] == k) for k in keys)


def results(state: DefendersState) -> Results | None:
    if state.outcome is None:
        return None
    scores = champion_scores(state)
    winners = frozenset(range(state.players)) if state.won else frozenset()
    # The reason starts with the ending's code (rules.minions.ENDINGS) so records can be counted by it.
    text = "all four generals are defeated" if state.won else f"the heroes lose: {state.outcome}"
    reason = f"{state.ending}: {text}" if state.ending else text
    return Results(
        winners=winners,
        ranking=champion_ranking(state),
        scores={p: float(v[0]) for p, v in scores.items()},
        reason=reason,
    )
