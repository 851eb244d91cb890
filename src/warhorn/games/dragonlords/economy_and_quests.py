"""Board-free pieces of the purse and of quest movement (DLR-INC-02, DLR-QST-02, DLX-FAQ-01/02).

* **The purse.** A player's gold lies in his Kingdom territories (DLX-FAQ-05). warhorn keeps one
  purse per player and shares it evenly over the Kingdoms he holds. Each Kingdom gets the same
  share, rounded down, and the oldest-held Kingdom also gets what is left over. Whoever conquers a
  Kingdom takes its share (DLR-INC-02).
* **A quest party's move.** A party rolls a d6 and moves that many squares along its Wastelands
  track. Entering the track, the square it steps onto counts as the first: the Village from a bridge
  or a docked ship, the Dragon's Lair from the pass, the square next to a territory otherwise. So a
  roll of 1 stops on the entry square, and a party passes through the Village on a higher roll
  (DLX-FAQ-01, DLX-FAQ-02). A party already on the track moves the roll in the direction its owner
  chose. Moving past either end takes it off the track (DLR-QST-02).
* **What a square does.** The crystal die decides at the Witch's chamber, the Shrine, the Dragon's
  Lair and a quest card (DLR-QST-03, 05-08). These functions say what happens, and the game applies
  it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from warhorn.games.dragonlords.content import QuestCard


def purse_shares(gold: int, kingdoms_oldest_first: Sequence[str]) -> dict[str, int]:
    """DLR-INC-02: the purse shared evenly over the Kingdoms held, the remainder in the oldest-held."""
    if not kingdoms_oldest_first:
        return {}
    share, rest = divmod(gold, len(kingdoms_oldest_first))
    shares = dict.fromkeys(kingdoms_oldest_first, share)
    shares[kingdoms_oldest_first[0]] += rest
    return shares


@dataclass(frozen=True, slots=True)
class TrackMove:
    """Where a party ends: a square index, or off the track at the ``start`` or ``end`` side."""

    square: int | None
    left_track: Literal["start", "end"] | None = None


def quest_move(
    track_length: int, roll: int, *, at: int | None, entry: int | None = None, forward: bool = True
) -> TrackMove:
    """Move a party ``roll`` squares (DLR-QST-02).

    ``at``: its square, or None if it is entering from ``entry`` (the square it steps onto, which
    counts as the first). ``forward``: towards higher indices.
    """
    if not 1 <= roll <= 6:
        raise ValueError(f"roll: {roll} is not a d6 face")
    if track_length < 1:
        raise ValueError("track_length: a track has at least one square")
    step = 1 if forward else -1
    if at is None:
        if entry is None or not 0 <= entry < track_length:
            raise ValueError(f"entry: {entry} is not a square of the track")
        target = entry + step * (roll - 1)
    else:
        if not 0 <= at < track_length:
            raise ValueError(f"at: {at} is not a square of the track")
        target = at + step * roll
    if target < 0:
        return TrackMove(None, "start")
    if target >= track_length:
        return TrackMove(None, "end")
    return TrackMove(target)


CrystalFace = Literal["blessed", "ignored", "cursed"]


@dataclass(frozen=True, slots=True)
class Happening:
    """What a Wastelands square does to a party; the game applies it.

    ``kind``: ``learn_spell`` (``what``: the spell), ``gain_item`` (``what``: the item),
    ``draw_card``, ``stay_next_quest`` (the party may not move next quest phase), ``lose_units``
    (``amount``), ``gain_dragonlord``, ``fight`` (``what``: the monster), ``quest`` (``what``:
    the quest card's outcome kind, with its ``what`` and ``amount``), or ``nothing``.
    """

    kind: str
    what: str | None = None
    amount: int = 0


def witch(face: CrystalFace, next_unknown_spell: str | None) -> Happening:
    """DLR-QST-05: the Witch's chamber. Blessed: a sorcerer of the party learns its next unknown
    spell (``next_unknown_spell``; None when the party has no sorcerer, or it knows all six), else
    the party gains a potion. Ignored: nothing. Cursed: one unit of the party is lost."""
    if face == "blessed":
        return (
            Happening("learn_spell", next_unknown_spell)
            if next_unknown_spell
            else Happening("gain_item", "potion")
        )
    if face == "cursed":
        return Happening("lose_units", amount=1)
    return Happening("nothing")


def shrine(face: CrystalFace) -> Happening:
    """DLR-QST-06: the Shrine. Blessed: draw a spell card. Ignored: nothing. Cursed: the party may not
    move in the next quest phase."""
    return {
        "blessed": Happening("draw_card"),
        "ignored": Happening("nothing"),
        "cursed": Happening("stay_next_quest"),
    }[face]


def dragons_lair(face: CrystalFace, *, has_orb: bool) -> Happening:
    """DLR-QST-08: at the Dragon's Lair a party with a DragonOrb spends it: Blessed or Ignored gains a
    DragonLord, Cursed fights the lair's dragon. A party without an Orb fights the dragon."""
    if has_orb and face != "cursed":
        return Happening("gain_dragonlord")
    return Happening("fight", "lair_dragon")


def quest_card(card: QuestCard, face: CrystalFace, *, has_torch: bool, has_pickaxe: bool) -> Happening:
    """DLR-QST-07 with DLR-QST-03: the adventure of the crystal die's face on the drawn quest card. A
    card that needs the torch or the pickaxe is Cursed, whatever the face, for a party without it."""
    lacking = (card.needs == "torch" and not has_torch) or (card.needs == "pickaxe" and not has_pickaxe)
    outcome = card.outcome("cursed" if lacking else face)
    if outcome.kind == "monster":
        return Happening("fight", outcome.monster)
    if outcome.kind == "nothing":
        return Happening("nothing")
    return Happening(outcome.kind, outcome.item, outcome.amount)
