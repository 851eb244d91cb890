"""End-of-turn scoring (SWW-SCR-01): regions, race and power bonuses, artifacts, places, factions.

The total is told only to the scoring player (SWW-FLW-02); the others see that a
score happened and which bonuses applied, not the coins.
"""

from __future__ import annotations

from collections.abc import Callable

from warhorn.engine.events import Event
from warhorn.games.smallworld.rules import BATTLEGROUND, HEART, WELL, forced_pay, race_tally
from warhorn.games.smallworld.state import SmallWorldState

KARAZHAN = "karazhan"
DARK_PORTAL = "dark_portal"

#: Powers that pay 1 coin per region of the active race meeting a test (rule ID, test).
REGION_POWERS: dict[str, tuple[str, Callable[[SmallWorldState, str], bool]]] = {
    "mountaineer": ("SWW-POW-MOU", lambda s, r: s.index.regions[r].terrain == "mountain"),
    "swamp_walker": ("SWW-POW-SWA", lambda s, r: s.index.regions[r].terrain == "swamp"),
    "farmer": ("SWW-POW-PEA", lambda s, r: s.index.regions[r].terrain == "field"),
    "herbalist": ("SWW-POW-HER", lambda s, r: s.index.regions[r].terrain == "hill"),
    "ranger": ("SWW-POW-RAN", lambda s, r: s.index.regions[r].terrain == "forest"),
    "mining": ("SWW-POW-MIN", lambda s, r: s.index.regions[r].cavern),
    "fishing": ("SWW-POW-FIS", lambda s, r: s.index.by_water(r)),
}
OPPOSITE = {"alliance": "horde", "horde": "alliance"}


def faction_bonus(s: SmallWorldState, p: int, faction: str, per_race: int) -> int:
    """1 coin per race of the opposite faction defeated this turn (``per_race`` 2 with the Battleground).

    A player's active and declined races are different races; neutral races and Murlocs never count.
    """
    enemy = OPPOSITE.get(faction)
    if enemy is None:
        return 0
    counts: dict[tuple[int, str, bool], int] = {}
    for owner, race, declined in s.turn.defeated:
        if owner != p and s.faction_of(race) == enemy:
            counts[(owner, race, declined)] = counts.get((owner, race, declined), 0) + 1
    return sum(min(n, per_race) for n in counts.values())


def well_winner(s: SmallWorldState) -> tuple[int | None, str | None, bool] | None:
    """The race holding strictly more regions next to the Well of Eternity than any other, if any."""
    well = s.marker_region(WELL)
    if well is None:
        return None
    tally = race_tally(s, well)
    if not tally:
        return None
    best = max(tally.values())
    leaders = [k for k, v in tally.items() if v == best]
    return leaders[0] if len(leaders) == 1 else None


def score_turn(s: SmallWorldState, p: int) -> list[Event]:
    """Score player ``p``'s turn; returns the events (the coin total private to ``p``)."""
    seat = s.players[p]
    lines: list[tuple[str, int, str]] = []
    active = s.regions_of(p)
    declined = s.regions_of(p, declined=True)
    if active:
        lines.append(("SWW-SCR-01", len(active), "regions of the active race"))
    if declined:
        lines.append(("SWW-DCL-02", len(declined), "regions of the declined race"))
    events: list[Event] = []
    tribe = seat.active
    if tribe is not None:
        if tribe.race == "blood_elves":
            n = sum(1 for r in active if s.index.regions[r].magic)
            lines.append(("SWW-RAC-BEL", n, "magic regions"))
        if tribe.power in REGION_POWERS:
            rule, test = REGION_POWERS[tribe.power]
            lines.append((rule, sum(1 for r in active if test(s, r)), s.content.powers[tribe.power].name))
        if tribe.power == "explorer":
            islands = {s.index.regions[r].island for r in active}
            lines.append(("SWW-POW-EXP", len(islands), "islands occupied"))
        if tribe.power == "archaeologist":
            n = sum(1 for r in active for _ in s.areas[r].markers)
            lines.append(("SWW-POW-ARC", n, "artifacts and places held"))
        if s.controls_marker(p, DARK_PORTAL):
            lines.append(("SWW-LEG-05", 2, "the Dark Portal"))
        if s.controls_marker(p, KARAZHAN):
            home = s.marker_region(KARAZHAN)
            assert home is not None
            terrain = s.index.regions[home].terrain
            n = sum(1 for r in active if r != home and s.index.regions[r].terrain == terrain)
            lines.append(("SWW-LEG-03", n, f"other {terrain} regions with Karazhan"))
        battleground = s.controls_marker(p, BATTLEGROUND)
        per_race = 2 if battleground else 1
        faction = s.faction_of(tribe.race)
        if faction == "neutral" and battleground:
            faction = s.turn.side  # the side its player chose for this turn (SWW-LEG-01)
        bonus = faction_bonus(s, p, faction, per_race)
        if bonus:
            lines.append(("SWW-LEG-01" if battleground else "SWW-SCR-01", bonus, "faction bonus"))
        if s.controls_marker(p, HEART):
            heart = s.marker_region(HEART)
            assert heart is not None
            for q in range(s.num_players):
                if q != p and any(
                    s.areas[n].owner == q and not s.areas[n].declined and s.areas[n].occupied
                    for n in s.index.neighbours[heart]
                ):
                    events.append(forced_pay(s, q, p, 1, "SWW-ART-03", "beside the Heart of Azeroth"))
    winner = well_winner(s)
    if winner is not None and winner[0] == p:
        lines.append(("SWW-LEG-06", 2, "most regions around the Well of Eternity"))
    total = sum(c for _, c, _ in lines if c > 0)
    seat.coins += total
    shown = [{"rule": r, "coins": c, "why": w} for r, c, w in lines if c > 0]
    events.append(
        Event(
            "score",
            {"player": p, "coins": total, "lines": shown},
            f"player {p} scores {total} coin(s): " + ", ".join(f"{c} {w}" for _, c, w in lines if c > 0),
            visible_to=frozenset({p}),
            public_data={"player": p},
            public_text=f"player {p} scores",
        )
    )
    return events
