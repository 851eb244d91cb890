"""Conquest of Nerath's nine piece types and their numbers (digest table "Pieces", NER-PCS-*).

These are rules, not board content: they are the same in every edition's
rulebook, so they live in code. Dice are given as tuples of die sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Mobility(StrEnum):
    LAND = "land"  # moves on land territories, may be carried by warships
    FLYING = "flying"  # any space; passes over enemy spaces (NER-MOV-05)
    SEA = "sea"  # sea spaces only (NER-PCS-08)
    IMMOBILE = "immobile"  # castles (NER-PCS-05)


@dataclass(frozen=True, slots=True)
class PieceStats:
    """One piece type.

    ``attack_dice``/``defence_dice``: dice rolled in a land battle when
    attacking/defending; ``sea_dice``: dice in a sea battle (empty = takes no
    part, NER-BAT-08). ``toughness``: damage needed to destroy it (2 for
    resilient dragons, NER-PCS-07).
    """

    id: str
    name: str
    cost: int
    move: int
    mobility: Mobility
    attack_dice: tuple[int, ...]
    defence_dice: tuple[int, ...]
    sea_dice: tuple[int, ...] = ()
    first_strike: bool = False
    toughness: int = 1
    hero: bool = False
    capacity: int = 0
    run_amok: bool = False
    castle: bool = False


SOLDIER = PieceStats("soldier", "Soldier", 1, 1, Mobility.LAND, (6,), (6,))
SIEGE = PieceStats("siege", "Siege Engine", 2, 1, Mobility.LAND, (8, 8), (8,))
WARRIOR = PieceStats("warrior", "Warrior", 2, 2, Mobility.LAND, (10,), (10,), (10,), hero=True)
MAGE = PieceStats("mage", "Mage", 3, 2, Mobility.LAND, (10,), (10,), (10,), first_strike=True, hero=True)
MONSTER = PieceStats("monster", "Monster", 3, 2, Mobility.LAND, (12,), (12,), run_amok=True)
CASTLE = PieceStats("castle", "Castle", 4, 0, Mobility.IMMOBILE, (), (20,), castle=True)
ELEMENTAL = PieceStats("elemental", "Air Elemental", 3, 2, Mobility.FLYING, (8,), (8,), (8, 8))
DRAGON = PieceStats("dragon", "Dragon", 5, 3, Mobility.FLYING, (20,), (20,), (20,), toughness=2)
WARSHIP = PieceStats("warship", "Warship", 2, 2, Mobility.SEA, (8,), (8,), (8,), capacity=2)

PIECES: dict[str, PieceStats] = {
    p.id: p for p in (SOLDIER, SIEGE, WARRIOR, MAGE, MONSTER, CASTLE, ELEMENTAL, DRAGON, WARSHIP)
}

#: Accepted spellings → piece id (singular, plural, long names).
PIECE_ALIASES: dict[str, str] = {}
for _p in PIECES.values():
    for _alias in {_p.id, _p.id + "s", _p.name.lower(), _p.name.lower() + "s"}:
        PIECE_ALIASES[_alias] = _p.id
PIECE_ALIASES.update(
    {
        "siege engine": "siege",
        "siege engines": "siege",
        "sieges": "siege",
        "wizard": "mage",
        "wizards": "mage",
        "air elemental": "elemental",
        "air elementals": "elemental",
        "ship": "warship",
        "ships": "warship",
    }
)

#: A die result of this or more hits, for every die size (NER-PCS-01).
HIT_ON = 6


def piece(name: str) -> PieceStats:
    """Look a piece up by any accepted spelling; KeyError names the unknown word."""
    key = PIECE_ALIASES.get(name.strip().lower())
    if key is None:
        raise KeyError(f"unknown piece {name!r} (known: {', '.join(PIECES)})")
    return PIECES[key]
