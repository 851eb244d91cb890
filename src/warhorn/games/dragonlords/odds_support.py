"""DragonLords battle odds as the front ends ask for them (the plugin's ``OddsSupport``).

The numbers are exact for a *plain* battle (:func:`warhorn.games.dragonlords.odds.plain_battle_odds`):
units and TAS modifiers, rounds to the end, no spells, cards, shards or monsters. For an attack in a
game (:func:`attack_odds`) the sides are what every player sees: the attacking units and the units
in the target space, each rolling at its people's attack value, the attacker one lower in a
Kingdom (DLR-CMB-01), an Elf attack's first round a sneak attack (DLR-PEO-02). Heroes, DragonLords
and prisoners count as plain units and nothing cast is counted: an approximation, said so in the
answer's ``note``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warhorn.engine.actions import Action
from warhorn.engine.plugin import OddsSupport, OddsUnavailableError
from warhorn.games.dragonlords.actions import Attack
from warhorn.games.dragonlords.content import shipped_content
from warhorn.games.dragonlords.odds import PlainBattleOdds, PlainBattleRequest, plain_battle_odds

if TYPE_CHECKING:
    from warhorn.engine.state import GameState

NOTE = (
    "exact for units and TAS modifiers only: spells, spell cards, shards, heroes' levels and "
    "DragonLords' fire are not counted"
)


def catalog() -> dict[str, Any]:
    """Each people's attack value (the TAS a plain unit rolls at)."""
    content = shipped_content()
    return {
        "peoples": [{"id": p.id, "name": p.name, "attack": p.attack} for p in content.peoples.values()],
        "kingdom_attack_penalty": content.game.kingdom_attack_penalty,
        "note": NOTE,
    }


def _answer(odds: PlainBattleOdds, request: PlainBattleRequest) -> dict[str, Any]:
    top = sorted(odds.outcomes.items(), key=lambda kv: -kv[1])[:5]
    return {
        "request": request.model_dump(),
        "attacker_wins": odds.attacker_wins,
        "defender_holds": odds.defender_holds,
        "mutual_destruction": odds.both_destroyed,
        "attacker_retreats": odds.attacker_retreats,
        "expected_attackers_left": odds.expected_attackers_left,
        "expected_defenders_left": odds.expected_defenders_left,
        "likeliest": [{"attackers": a, "defenders": d, "probability": p} for (a, d), p in top],
        "note": NOTE,
    }


def calculate(request: PlainBattleRequest) -> dict[str, Any]:
    return _answer(plain_battle_odds(request), request)


def attack_request(state: GameState, action: Action) -> PlainBattleRequest:
    """The plain battle a legal land attack would start, from public facts only."""
    from warhorn.games.dragonlords.state import DragonLordsState

    if not isinstance(state, DragonLordsState) or not isinstance(action, Attack):
        raise OddsUnavailableError("not_an_attack", "odds are given for attacks on a territory")
    if not state.is_legal(action):
        raise OddsUnavailableError("not_legal", f"{action.notation()} is not legal now")
    target = state.spaces.get(action.to)
    if target is None:
        raise OddsUnavailableError("not_an_attack", f"nobody holds {action.to}")
    content = state.content
    attacker_people = state.people_of(state.current)
    penalty = content.game.kingdom_attack_penalty if state.world.space(action.to).kingdom else 0
    defenders = target.units + (target.prisoners if target.prisoners_of != state.current else 0)
    return PlainBattleRequest(
        attackers=action.count + len(action.pieces),
        defenders=defenders,
        attacker_tas=content.peoples[attacker_people].attack - penalty,
        defender_tas=content.peoples[target.people].attack,
        sneak_attack=attacker_people == "elves",
    )


def attack_odds(state: GameState, action: Action) -> dict[str, Any]:
    return calculate(attack_request(state, action))


ODDS_SUPPORT = OddsSupport(
    request=PlainBattleRequest,
    catalog=catalog,
    calculate=calculate,
    attack_odds=attack_odds,
)
