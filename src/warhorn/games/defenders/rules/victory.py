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
    # The reason starts with the ending's code (rules.victory.ENDINGS) so records can be counted by it.
    text = "all four generals are defeated" if state.won else f"the heroes lose: {state.outcome}"
    reason = f"{state.ending}: {text}" if state.ending else text
    return Results(
        winners=winners,
        ranking=champion_ranking(state),
        scores={p: float(v[0]) for p, v in scores.items()},
        reason=reason,
    )


ENDINGS: dict[str, str] = {
    "generals_defeated": "all four generals are defeated (DEF-END-01)",
    "general_in_city": "a general entered Monarch City (DEF-END-02)",
    "minion_supply": "a colour's minion supply ran out (DEF-END-02)",
    "taint_crystals": "the last taint crystal was placed (DEF-OVR-06)",
    "city_overrun": "five minions stood in Monarch City (DEF-OVR-05)",
    "no_heroes": "no hero was left (DEF-TRN-03)",
}


def lose(state: DefendersState, reason: str, rule: str, ending: str) -> None:
    """End the game in a loss for everyone (DEF-END-02); ``ending`` is a code of :data:`ENDINGS`."""
    assert ending in ENDINGS, ending
    if state.outcome is None:
        state.outcome = reason
        state.ending = ending
        state.won = False
        state.log("game_lost", f"The realm falls: {reason}", reason=reason, rule=rule, ending=ending)
