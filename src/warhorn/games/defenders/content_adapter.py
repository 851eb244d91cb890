"""Turn the validated content (:mod:`warhorn.games.defenders.content`) into the rules' board.

Locations are keyed by their display names (``Wolf Pass``), so action notation
reads like the board. Cards with several copies become one entry per copy
(``id#n``). Effects are mapped to the rule modules' effect names below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warhorn.games.defenders.board import (
    DarknessCard,
    DefendersBoard,
    GeneralDef,
    HeroCard,
    HeroDef,
    Location,
    QuestDef,
)

#: content special-card effect -> rules effect name (rules/specials.py)
SPECIAL_EFFECTS: dict[str, str] = {
    "place_gate": "magic_gate",
    "move_hero": "hammer_of_valor",
    "purify_location": "spell_of_purity",
    "clear_colour_locations": "elven_archers",
    "battle_strategy": "battle_strategy",
    "skip_darkness": "all_is_quiet",
    "reroll_failed": "battle_luck",
    "clear_here": "battle_fury",
    "inn_draw": "local_information",
    "kings_guard": "kings_guard",
    "cavalry_sweep": "cavalry_sweep",
    "dark_visions": "dark_visions",
    "cancel_placement": "militia",
    "stop_general": "strong_defenses",
    "stop_healing": "spy_in_camp",
}

#: content quest reward effect -> rules reward name (rules/quests.py)
QUEST_REWARDS: dict[str, str] = {
    "combat_bonus": "amulet",
    "extra_actions": "boots",
    "extra_card_draw": "helm",
    "ignore_general_penalty": "war_banner",
    "extra_combat_dice": "extra_dice",
    "unicorn_steed": "unicorn",
    "draw_hero_cards": "draw4",
    "stop_general": "stop_general",
    "kill_minions_near": "envoy",
    "cancel_general_skill": "blessing",
    "skip_darkness": "skip_night",
    "move_heroes": "move_heroes",
    "cancel_placement": "cancel_colour",
    "search_hero_card": "scout",
    "remove_taint_here": "crystal_here",
    "remove_taint_anywhere": "crystal_any",
    "ward_end_of_turn": "ward",
    "colour_combat_bonus": "elven_allies",
}

DARKNESS_KINDS = {"all_is_quiet": "all_quiet"}


def _instances(card_id: str, copies: int) -> list[str]:
    return [card_id] if copies == 1 else [f"{card_id}#{n}" for n in range(1, copies + 1)]


def board_from_content(content: Any = None) -> DefendersBoard:
    """Build the rules' board from a loaded content (``None``: the packaged data)."""
    from warhorn.games.defenders.content import DefendersContent, load_defenders_content

    c: DefendersContent = content if content is not None else load_defenders_content()
    name = {loc_id: loc.name for loc_id, loc in c.locations.items()}
    locations = tuple(
        Location(loc.name, loc.colour, loc.inn, loc.treasure_chest, loc.magic_gate)
        for loc in c.locations_file.locations
    )
    edges = tuple((name[a], name[b]) for a, b in c.connections)
    generals = []
    for g in c.generals_file.generals:
        generals.append(
            GeneralDef(
                g.colour,
                g.name,
                tuple(name[p] for p in g.path),
                g.life,
                g.grave_wound_at_life,
                g.hit,
                str(g.penalty_life),
                str(g.penalty_cards),
                regenerates=g.skill == "regeneration",
                skill=g.skill,
            )
        )
    heroes = tuple(HeroDef(h.id, h.name, h.life) for h in c.heroes_file.heroes)
    colour_of_general = {g.id: g.colour for g in c.generals_file.generals}
    darkness = []
    for d in c.darkness_file.cards:
        target = d.general_target
        if target is not None and target != "next":
            target = name[target]
        for inst in _instances(d.id, d.copies):
            darkness.append(
                DarknessCard(
                    inst,
                    DARKNESS_KINDS.get(d.kind, d.kind),
                    tuple((name[p.location], p.colour, p.count) for p in d.placements),
                    colour_of_general[d.general] if d.general else None,
                    target,
                    d.general_minions,
                )
            )
    hero_cards = []
    for hc in c.hero_cards_file.cards:
        for inst in _instances(hc.id, hc.copies):
            hero_cards.append(
                HeroCard(
                    inst,
                    f"{name[hc.location]} ({hc.travel})",
                    hc.colour,
                    name[hc.location],
                    hc.travel,
                    hc.dice,
                )
            )
    for sp in c.hero_cards_file.specials:
        for inst in _instances(sp.id, sp.copies):
            hero_cards.append(
                HeroCard(inst, sp.name, sp.colour, None, None, sp.dice, SPECIAL_EFFECTS[sp.effect])
            )
    quests = [_quest(q, name, colour_of_general) for q in c.quests_file.quests]
    return DefendersBoard(
        locations,
        edges,
        tuple(generals),
        heroes,
        tuple(darkness),
        tuple(hero_cards),
        tuple(quests),
        content_hash=c.content_hash,
    )


def _quest(q: Any, name: dict[str, str], colour_of_general: Mapping[str, str]) -> QuestDef:
    req = q.requirement
    params = dict(q.reward.params)
    reward = QUEST_REWARDS[q.reward.effect]
    reward_colour = params.get("colour") if isinstance(params.get("colour"), str) else None
    centre = params.get("centre")
    reward_location = name[centre] if isinstance(centre, str) and centre in name else None
    common: dict[str, Any] = {"reward_colour": reward_colour, "reward_location": reward_location}
    if req.kind == "dice_roll":
        dice = 1 if req.pay_per_die else req.dice
        return QuestDef(
            q.id,
            q.name,
            "roll",
            reward,
            location=name[req.location],
            dice=dice,
            need=req.target,
            fail_discard=req.fail_discards,
            **common,
        )
    if req.kind == "visit_all":
        return QuestDef(
            q.id, q.name, "inns", reward, locations=tuple(name[x] for x in req.locations), **common
        )
    if req.kind == "actions_at":
        return QuestDef(
            q.id, q.name, "visit", reward, locations=tuple(name[x] for x in req.locations), **common
        )
    if req.kind == "defeat_minions":
        colours = tuple(req.defeat)
        counts = set(req.defeat.values())
        count = 0 if len(colours) > 1 and counts == {1} else sum(req.defeat.values())
        return QuestDef(q.id, q.name, "kill", reward, colours=colours, count=count, **common)
    if req.kind == "build_gate":
        return QuestDef(q.id, q.name, "gate_red", reward, colours=(req.gate_colour or "red",), **common)
    if req.kind == "scout_general":
        return QuestDef(q.id, q.name, "scout", reward, colours=(colour_of_general[req.general],), **common)
    raise ValueError(f"quest {q.id}: unknown requirement kind {req.kind!r}")
