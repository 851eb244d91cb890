"""Set-up rules that need no board: each player's starting kit, the Chosen One, how realms are shared.

The game's factory will call these with the world and the options. The rules are DLX-SET-01..05 and
DLR-SET-01..04/06 (``docs/dragonlords-reconstruction.md``):

* each player's kit: units by player count, 25 gold, one ship, a torch and a pickaxe, the King,
  sorcerer and decoy tokens (and a Hero token and one random shard under the advanced rules), the
  sorcerer's spells 1 and 2, and a number of spell cards by player count and option;
* the first player: the crystal die is rolled oldest first until the first Blessed face;
* realms: each player takes his people's home realm; with 2 or 3 players the rest are chosen one at
  a time in reverse turn order, then forward; with 4 or 5 players the unclaimed realms are neutral,
  with five units of their own people on their Kingdom.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.content import PLAYER_COUNTS, DragonLordsContent

#: How many realms each player holds after the deal (six realms on the board).
REALMS_PER_PLAYER: dict[int, int] = {2: 3, 3: 2, 4: 1, 5: 1, 6: 1}


@dataclass(frozen=True, slots=True)
class StartingKit:
    """What one player starts with (DLX-SET-01/02/03, DLR-SET-01/02)."""

    units: int
    gold: int
    ships: int
    tokens: tuple[str, ...]
    equipment: tuple[str, ...]
    known_spells: tuple[str, ...]
    king_spells: tuple[str, ...]
    spell_cards: int


def starting_kit(
    content: DragonLordsContent,
    people: str,
    *,
    players: int,
    starting_scrolls: int = 2,
    advanced: bool = False,
) -> StartingKit:
    """The kit of a player of ``people`` in a game of ``players`` (refuses a bad count or option)."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"players: {players} is not 2-6 (DLR-SET-01)")
    if starting_scrolls not in (1, 2):
        raise ValueError(f"starting_scrolls: {starting_scrolls} is not 1 or 2 (DLR-SET-02)")
    if people not in content.peoples:
        raise ValueError(f"people: unknown people {people!r}")
    spec = content.peoples[people]
    tokens = ("king", "sorcerer", "decoy", "hero") if advanced else ("king", "sorcerer", "decoy")
    return StartingKit(
        units=content.start_units(players),
        gold=content.game.start_gold,
        ships=1,
        tokens=tokens,
        equipment=("torch", "pickaxe"),
        known_spells=spec.spells[:2],
        king_spells=spec.king_spells,
        spell_cards=content.start_cards(players, starting_scrolls),
    )


def deal_shards(rng: Rng, content: DragonLordsContent, players: int) -> tuple[str, ...]:
    """DLX-SET-03: one random shard per player (advanced rules), in seat order."""
    return tuple(rng.shuffled(sorted(content.shards))[:players])


def chosen_one(rng: Rng, content: DragonLordsContent, seats_oldest_first: Sequence[str]) -> str:
    """DLX-SET-04: everyone rolls the crystal die, oldest first, round after round; the first
    Blessed face is the Chosen One, who plays first."""
    faces = content.game.crystal_die.faces
    if not seats_oldest_first:
        raise ValueError("seats: nobody to choose from")
    while True:
        for seat in seats_oldest_first:
            if faces[rng.roll(len(faces)) - 1] == "blessed":
                return seat


def turn_order(seats: Sequence[str], first: str) -> tuple[str, ...]:
    """DLR-SET-03: play goes round the table in seat order from the Chosen One."""
    i = list(seats).index(first)
    return (*seats[i:], *seats[:i])


def extra_realm_pick_order(order: Sequence[str]) -> tuple[str, ...]:
    """DLR-SET-04: the seats that pick the realms left after everyone's home realm, one realm a
    pick, in reverse turn order and then forward (2 players: two picks each; 3: one each; 4-6: none)."""
    players = len(order)
    extra = REALMS_PER_PLAYER[players] - 1
    picks: list[str] = []
    for round_index in range(extra):
        picks += reversed(order) if round_index % 2 == 0 else order
    return tuple(picks)


def neutral_realms(realm_people: dict[str, str], claimed: set[str], players: int) -> dict[str, str]:
    """DLX-SET-05 / DLR-SET-06: with 4 or 5 players, each realm nobody holds after the first pick
    is neutral, guarded by units of its own people (realm id -> people)."""
    if players not in (4, 5):
        return {}
    return {realm: people for realm, people in realm_people.items() if realm not in claimed}


def realms_joined_by_land(
    realm_borders: Iterable[tuple[str, str]], realms: Iterable[str]
) -> list[frozenset[str]]:
    """The groups of realms joined by land (one group per continent), from the pairs of realms that
    share a land border."""
    group = {r: frozenset({r}) for r in realms}
    for a, b in realm_borders:
        joined = group[a] | group[b]
        for r in joined:
            group[r] = joined
    return sorted(set(group.values()), key=sorted)


def peoples_offered(
    home_realm: dict[str, str], chosen: Iterable[str], groups: list[frozenset[str]], players: int
) -> list[str]:
    """DLR-SET-08: the peoples a player may still choose when neutral realms are kept apart.

    With 4 or 5 players the realms left unclaimed are neutral (DLR-SET-06); they may not share a
    land border with a claimed realm, so the claimed realms must make up whole groups of
    :func:`realms_joined_by_land`. A people is offered when some such set of ``players`` realms
    holds the realms already chosen and its own. When no set of that size exists in the world,
    every people not yet chosen is offered (the rule cannot apply)."""
    taken = set(chosen)
    free = sorted(p for p in home_realm if p not in taken)
    if players not in (4, 5):
        return free
    sizes = [len(g) for g in groups]
    fits: list[frozenset[str]] = []
    for mask in range(1 << len(groups)):
        if sum(sizes[i] for i in range(len(groups)) if mask >> i & 1) == players:
            fits.append(frozenset().union(*(groups[i] for i in range(len(groups)) if mask >> i & 1)))
    if not fits:
        return free
    claimed = {home_realm[p] for p in taken}
    return [p for p in free if any(claimed | {home_realm[p]} <= fit for fit in fits)]
