"""A small hand-built realm and scenario builders for the Defenders rule tests."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from warhorn.engine.deck import Deck
from warhorn.engine.rng import ScriptedRng
from warhorn.games.defenders.board import (
    COLOURS,
    DarknessCard,
    DefendersBoard,
    GeneralDef,
    HeroCard,
    HeroDef,
    Location,
    QuestDef,
)
from warhorn.games.defenders.position import position_from
from warhorn.games.defenders.state import DefendersState

MC = "Monarch City"
INN = "Rest Inn"
# Four arms of three locations each: X1 touches Monarch City, X3 is the general's start.
ARMS = {"red": "R", "green": "G", "blue": "B", "black": "K"}


def loc_name(colour: str, n: int) -> str:
    return f"{ARMS[colour]}{n}"


def mini_locations() -> list[Location]:
    locs = [Location(MC, "purple", chest=True), Location(INN, "purple", inn=True)]
    for colour in COLOURS:
        for n in (1, 2, 3):
            locs.append(Location(loc_name(colour, n), colour, chest=(colour == "red" and n == 1)))
    locs.append(Location("Gatestone", "black", gate_printed=True))
    return locs


def mini_edges() -> list[tuple[str, str]]:
    edges = [(INN, "G2"), ("Gatestone", MC), ("Gatestone", "K2")]
    for colour in COLOURS:
        edges += [(MC, loc_name(colour, 1)), (loc_name(colour, 1), loc_name(colour, 2))]
        edges += [(loc_name(colour, 2), loc_name(colour, 3))]
    edges += [("R1", "G1"), ("B1", "K1")]
    return edges


def mini_generals() -> list[GeneralDef]:
    def path(c: str) -> tuple[str, ...]:
        return (loc_name(c, 3), loc_name(c, 2), loc_name(c, 1), MC)

    return [
        GeneralDef("red", "Balazarg", path("red"), 6, 1, 4, "D3", "all", skill="demonic_curse"),
        GeneralDef("green", "Gorgutt", path("green"), 6, 2, 3, "2", "2", skill="parry"),
        GeneralDef("blue", "Sapphire", path("blue"), 4, None, 5, "3", "D6", skill="regeneration"),
        GeneralDef("black", "Varkolak", path("black"), 5, None, 4, "D6", "D6", skill="no_rerolls"),
    ]


HEROES = [
    HeroDef("cleric", "Cleric", 6),
    HeroDef("dwarf", "Dwarf", 5),
    HeroDef("eagle_rider", "Eagle Rider", 4),
    HeroDef("paladin", "Paladin", 5),
    HeroDef("ranger", "Ranger", 5),
    HeroDef("rogue", "Rogue", 6),
    HeroDef("sorceress", "Sorceress", 6),
    HeroDef("wizard", "Wizard", 5),
]


def mini_hero_cards() -> list[HeroCard]:
    out = []
    for colour in COLOURS:
        for n in (1, 2, 3):
            name = loc_name(colour, n)
            out.append(HeroCard(f"{name}h", name, colour, name, "horse", 1))
            out.append(HeroCard(f"{name}e", name, colour, name, "eagle", 2))
            out.append(HeroCard(f"{name}g", name, colour, name, "gate", 1))
    for effect, colour in [
        ("magic_gate", "black"),
        ("spell_of_purity", "red"),
        ("all_is_quiet", "green"),
        ("battle_fury", "blue"),
        ("militia", "black"),
        ("strong_defenses", "red"),
        ("elven_archers", "green"),
        ("battle_luck", "any"),
        ("spy_in_camp", "any"),
        ("hammer_of_valor", "any"),
        ("kings_guard", "blue"),
        ("cavalry_sweep", "any"),
        ("battle_strategy", "any"),
        ("dark_visions", "any"),
        ("local_information", "any"),
    ]:
        out.append(HeroCard(f"sp_{effect}", effect.replace("_", " ").title(), colour, None, None, 1, effect))
    return out


def mini_darkness() -> list[DarknessCard]:
    """Regular cards pairing locations of different arms (never a general's start), plus specials."""
    pairs = [
        ("R1", "G2"),
        ("B1", "K2"),
        ("G1", "R2"),
        ("K1", "B2"),
        ("R1", "B2"),
        ("G1", "K2"),
        ("R2", "G2"),
        ("B1", "K1"),
    ]
    colour_of = {loc_name(c, n): c for c in COLOURS for n in (1, 2, 3)}
    gens = ["red", "green", "blue", "black"]
    out = [
        DarknessCard(
            f"ds{k + 1}",
            "regular",
            ((a, colour_of[a], 1), (b, colour_of[b], 2)),
            gens[k % 4],
            "next",
            1,
        )
        for k, (a, b) in enumerate(pairs)
    ]
    out.append(DarknessCard("quiet", "all_quiet"))
    out.append(DarknessCard("patrol", "orc_patrols", (), "black", "next", 1))
    out.append(DarknessCard("warparty", "orc_war_party", (), "blue", MC, 0))
    out.append(DarknessCard("monarch", "monarch_city"))
    return out


def mini_quests() -> list[QuestDef]:
    return [
        QuestDef("q_amulet", "Amulet", "roll", "amulet", location="K2", dice=4, need=6, fail_discard=True),
        QuestDef("q_banner", "Banner", "roll", "war_banner", location="K1", dice=3, need=5),
        QuestDef("q_militia", "Militia", "visit", "stop_general", locations=("R1", "G1")),
        QuestDef("q_inns", "Rumors", "inns", "draw4"),
        QuestDef("q_orcs", "Orc Hunter", "kill", "cancel_colour", colours=("green",), count=3),
        QuestDef("q_scout", "Scout Gorgutt", "scout", "scout", colours=("green",)),
        QuestDef("q_raids", "Raids", "kill", "skip_night", colours=COLOURS, count=0),
        QuestDef("q_crystal", "Crystal", "roll", "crystal_here", location="G3", dice=3, need=5),
        QuestDef("q_envoy", "Envoy", "roll", "envoy", location="B2", dice=3, need=5, reward_location="B2"),
        QuestDef("q_gryphons", "Gryphons", "roll", "move_heroes", location="G2", dice=3, need=5),
        QuestDef("q_gate", "Find Magic Gate", "gate_red", "extra_dice", colours=("red",)),
        QuestDef("q_boots", "Boots", "roll", "boots", location="B3", dice=1, need=6),
        QuestDef("q_helm", "Helm", "roll", "helm", location="B3", dice=1, need=6),
        QuestDef("q_unicorn", "Unicorn", "roll", "unicorn", location="B3", dice=1, need=6),
        QuestDef("q_blessing", "Blessing", "roll", "blessing", location="B3", dice=1, need=6),
        QuestDef("q_ward", "Ward", "roll", "ward", location="B3", dice=1, need=6),
        QuestDef("q_allies", "Elven Allies", "roll", "elven_allies", location="B3", dice=1, need=6),
        QuestDef("q_tree", "Tree", "roll", "crystal_any", location="B3", dice=1, need=6),
        QuestDef(
            "q_demons",
            "Demon Hunter",
            "kill",
            "cancel_colour",
            colours=("red",),
            count=2,
            reward_colour="red",
        ),
    ]


def mini_board(**overrides: Any) -> DefendersBoard:
    parts: dict[str, Any] = {
        "locations": tuple(mini_locations()),
        "edges": tuple(mini_edges()),
        "generals": tuple(mini_generals()),
        "heroes": tuple(HEROES),
        "darkness": tuple(mini_darkness()),
        "hero_cards": tuple(mini_hero_cards()),
        "quests": tuple(mini_quests()),
    }
    parts.update(overrides)
    return DefendersBoard(**parts)


def scenario(
    heroes: Sequence[str] = ("paladin",),
    *,
    players: int | None = None,
    rolls: Iterable[int] = (),
    ds: Sequence[str] | None = None,
    hero_deck: Sequence[str] | None = None,
    quest_deck: Sequence[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    at: dict[str, str] | None = None,
    board: DefendersBoard | None = None,
    options: dict[str, Any] | None = None,
    generals_at_start: bool = True,
    fallback: bool = False,
) -> DefendersState:
    """A clean position: generals on their starts without minions, heroes in Monarch City at
    full life, the decks in the given order (top first), no quests unless given, the first hero's
    Daytime ready. Dice come from ``rolls``; other cards are drawn in the order listed.
    Built with the public position builder (:mod:`warhorn.games.defenders.position`)."""
    b = board or mini_board()
    n = players or len(heroes)
    hands = hands or {}
    at = at or {}
    used = [c for h in heroes for c in hands.get(h, [])]
    top = list(hero_deck or [])
    ds_top = list(ds or [])
    q_top = list(quest_deck or [])
    position: dict[str, Any] = {
        "options": {"players": n, **(options or {})},
        "heroes": [
            {"player": i % n, "hero": h, "location": at.get(h, MC), "hand": list(hands.get(h, []))}
            for i, h in enumerate(heroes)
        ],
        "hero_deck": {"draw": top + [c.id for c in b.hero_cards if c.id not in used and c.id not in top]},
        "darkness_deck": {"draw": ds_top + [c.id for c in b.darkness if c.id not in ds_top]},
        "quest_deck": {"draw": q_top + [q.id for q in b.quests if q.id not in q_top]},
        "phase": "start",
    }
    if not generals_at_start:
        position["generals"] = {g.colour: {"location": None} for g in b.generals}
    state = position_from(position, b)
    state.rng = ScriptedRng(rolls, fallback_seed=1 if fallback else None)
    state.edited()
    return state


def play(state: DefendersState, *texts: str) -> DefendersState:
    """Apply actions by text, one after another, checking invariants after each (the first
    on a position the test may have edited by hand)."""
    state.edited()
    for text in texts:
        state, _ = state.apply(state.parse(text))
        assert state.invariants() == [], state.invariants()
    return state


def put(state: DefendersState, where: str, **counts: int) -> None:
    """Place minions by colour name without any rule (scenario building); takes them from the supply."""
    i = state.board.loc(where)
    for colour, n in counts.items():
        c = COLOURS.index(colour)
        state.minions[i][c] += n
        state.supply[c] -= n
    state.edited()


def give(state: DefendersState, hero: str, *card_ids: str) -> None:
    """Move cards from the hero deck's draw pile into a hero's hand (scenario building)."""
    slot = state.slots[state.slot_of(hero)]
    pile = list(state.hero_deck.draw_pile)
    for cid in card_ids:
        pile.remove(cid)
        slot.hand.append(cid)
    state.hero_deck = Deck(tuple(pile), state.hero_deck.discard_pile)
    state.edited()


def grant(state: DefendersState, hero: str, *quest_ids: str) -> None:
    """Give a hero finished quests' rewards, taking the cards out of the quest deck (scenario building)."""
    slot = state.slots[state.slot_of(hero)]
    pile = [q for q in state.quest_deck.draw_pile if q not in quest_ids]
    discard = [q for q in state.quest_deck.discard_pile if q not in quest_ids]
    state.quest_deck = Deck(tuple(pile), tuple(discard))
    slot.rewards.extend(quest_ids)
    state.edited()
