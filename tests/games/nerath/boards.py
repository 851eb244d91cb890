"""Small hand-made Nerath boards for scenario tests and random play (not the shipped content)."""

from __future__ import annotations

from warhorn.games.nerath.board import (
    CardEffect,
    EventCard,
    GuardianTile,
    NerathBoard,
    SpaceSpec,
    TreasureCard,
    build_board,
)

# Two land masses: Karkoth + Vailin (k*, v*), Iron Circle + Nerath (i*, n*); an island t1 (Vailin);
# dungeons d1 (between k3 and v3) and d2 (between i3 and n3); seas s1-s2-s3 link them.
SPACES = [
    SpaceSpec("k1", "land", "karkoth", capital=True),
    SpaceSpec("k2", "land", "karkoth"),
    SpaceSpec("k3", "land", "karkoth"),
    SpaceSpec("v1", "land", "vailin", capital=True),
    SpaceSpec("v2", "land", "vailin"),
    SpaceSpec("v3", "land", "vailin"),
    SpaceSpec("t1", "land", "vailin"),
    SpaceSpec("i1", "land", "iron_circle", capital=True),
    SpaceSpec("i2", "land", "iron_circle"),
    SpaceSpec("i3", "land", "iron_circle"),
    SpaceSpec("n1", "land", "nerath", capital=True),
    SpaceSpec("n2", "land", "nerath"),
    SpaceSpec("n3", "land", "nerath"),
    SpaceSpec("d1", "dungeon"),
    SpaceSpec("d2", "dungeon"),
    SpaceSpec("s1", "sea"),
    SpaceSpec("s2", "sea"),
    SpaceSpec("s3", "sea"),
]
BORDERS = [
    ("k1", "k2"), ("k1", "k3"), ("k2", "k3"), ("k2", "v2"), ("k3", "v3"),
    ("v1", "v2"), ("v1", "v3"), ("v2", "v3"), ("k3", "d1"), ("v3", "d1"),
    ("i1", "i2"), ("i1", "i3"), ("i2", "i3"), ("i2", "n2"), ("i3", "n3"),
    ("n1", "n2"), ("n1", "n3"), ("n2", "n3"), ("i3", "d2"), ("n3", "d2"),
    ("s1", "k1"), ("s1", "k2"), ("s1", "v2"), ("s1", "s2"), ("s2", "i2"),
    ("s2", "t1"), ("s2", "s3"), ("s3", "n2"), ("s3", "v1"), ("s1", "d1"),
]  # fmt: skip

GUARDIANS = [
    GuardianTile("medusa", "Medusa", (20,), first_strike=True),
    GuardianTile("troll", "Troll", (8, 8), hero_hit_min=7),
    GuardianTile("beholder", "Beholder", (6, 20)),
    GuardianTile("goblins", "Goblin Pack", (6,), reward_gold=2, copies=3),
]
TREASURES = [
    TreasureCard(
        "horn",
        "Horn of Valhalla",
        2,
        timing="own_turn",
        power=(
            CardEffect("place_pieces", (("count", 3), ("piece", "soldier"), ("where", "friendly_territory"))),
        ),
        property=(
            CardEffect(
                "place_pieces",
                (("count", 1), ("piece", "soldier"), ("where", "friendly_territory")),
                when="start_of_turn",
            ),
        ),
    ),
    TreasureCard("crown", "Crown", 3, timing="own_turn"),
    TreasureCard("ring", "Ring", 1, timing="own_turn", copies=4),
]
EVENTS = [
    card
    for k in range(4)
    for card in (
        EventCard(
            f"tax{k}",
            k,
            "Tax",
            timing="movement",
            effects=(CardEffect("gain_gold", (("amount", 2),)),),
            copies=2,
        ),
        EventCard(
            f"warlord{k}",
            k,
            "Warlord",
            timing="before_battle",
            effects=(CardEffect("modify_hit_number", (("hit_on", 5),)),),
        ),
        EventCard(
            f"windfall{k}",
            k,
            "Windfall",
            play_immediately=True,
            timing="immediately",
            effects=(CardEffect("gain_gold", (("amount", 1),)),),
        ),
        EventCard(
            f"raid{k}", k, "Raid", timing="movement", effects=(CardEffect("steal_gold", (("amount", 2),)),)
        ),
    )
]

SETUP = [
    ("karkoth", "k1", "castle", 1), ("karkoth", "k1", "soldier", 2), ("karkoth", "k1", "monster", 1),
    ("karkoth", "k2", "soldier", 1), ("karkoth", "k3", "warrior", 1), ("karkoth", "k2", "siege", 1),
    ("vailin", "v1", "castle", 1), ("vailin", "v1", "soldier", 2), ("vailin", "v2", "soldier", 1),
    ("vailin", "v3", "mage", 1), ("vailin", "t1", "soldier", 1), ("vailin", "v1", "elemental", 1),
    ("iron_circle", "i1", "castle", 1), ("iron_circle", "i1", "soldier", 2),
    ("iron_circle", "i2", "soldier", 1),
    ("iron_circle", "i3", "warrior", 1), ("iron_circle", "i1", "dragon", 1),
    ("nerath", "n1", "castle", 1), ("nerath", "n1", "soldier", 2), ("nerath", "n2", "soldier", 1),
    ("nerath", "n3", "warrior", 1), ("nerath", "n2", "castle", 1),
]  # fmt: skip


def small_board(with_cards: bool = True) -> NerathBoard:
    """The test board with its guardians, treasures and event cards."""
    return build_board(
        SPACES,
        BORDERS,
        setup=SETUP,
        guardians=GUARDIANS,
        treasures=TREASURES,
        events=EVENTS if with_cards else (),
        content_hash="test-board",
    )
