"""Small World of Warcraft in the terminal (``warhorn play smallworld``): the ``map`` command's tables
(regions by island with terrain, symbols, holder and tokens; the race and power pairs on offer) and the
``cards`` command: the player's races and powers with what they do (the rules help's paragraph of the
rule each one names). Everything comes from the player's view: other players' coins stay hidden."""

from __future__ import annotations

from typing import Any

from warhorn.engine import GameState
from warhorn.engine.plugin import OddsTable, TerminalSupport
from warhorn.rules_help import rules_help

_LEFT = "left"
#: Marker keys of a region in the view that are not its holder, shown as they are named.
_HOLDER_KEYS = {"owner", "race", "declined", "tokens"}


def _race(state: Any, race: str | None) -> str:
    if race is None:
        return "—"
    found = state.content.races.get(race)
    return found.name if found is not None else race.replace("_", " ").title()


def _power(state: Any, power: str | None) -> str:
    if power is None:
        return "—"
    found = state.content.powers.get(power)
    return found.name if found is not None else power.replace("_", " ")


def board_tables(state: GameState, player: int) -> list[OddsTable]:
    """Regions island by island, then the pairs on offer with their coins."""
    board: Any = state.board  # type: ignore[attr-defined]
    view: dict[str, Any] = state.view(player)
    tables = []
    for island in board.islands:
        rows = []
        for region in board.regions:
            if region.island != island.id:
                continue
            here = view["regions"].get(region.id, {})
            symbols = [
                s
                for s, on in (("entry", region.entry), ("cavern", region.cavern), ("magic", region.magic))
                if on
            ]
            if here.get("tokens"):
                tokens = f"{here['tokens']} {_race(state, here.get('race'))}"
                if here.get("owner") is None:
                    holder = tokens
                else:
                    holder = f"player {here['owner']}: {tokens}" + (
                        " (in decline)" if here.get("declined") else ""
                    )
            else:
                holder = "—"
            markers = [k.replace("_", " ") for k, v in here.items() if k not in _HOLDER_KEYS and v]
            rows.append((region.name, region.terrain, ", ".join(symbols), holder, ", ".join(markers)))
        tables.append(
            OddsTable(
                island.name,
                (
                    ("region", _LEFT),
                    ("terrain", _LEFT),
                    ("symbols", _LEFT),
                    ("held by", _LEFT),
                    ("markers", _LEFT),
                ),
                tuple(rows),
            )
        )
    offers = tuple(
        (str(n), _race(state, c["race"]), _power(state, c["power"]), str(c.get("coins", 0)))
        for n, c in enumerate(view.get("combos", []), start=1)
    )
    tables.append(
        OddsTable(
            "Pairs on offer (pair k costs k-1 coins)",
            (("#", "right"), ("race", _LEFT), ("power", _LEFT), ("coins on it", "right")),
            offers,
        )
    )
    return tables


def card_texts(state: GameState, player: int) -> list[tuple[str, str]]:
    """The player's active and declined race and power, each with what it does."""
    view: dict[str, Any] = state.view(player)
    mine = view["players"][player]
    help_ = rules_help(state.spec.id)
    content: Any = state.content  # type: ignore[attr-defined]
    out: list[tuple[str, str]] = []
    for which in ("active", "declined"):
        pair = mine.get(which)
        if not pair:
            continue
        race = content.races.get(pair.get("race"))
        if race is not None:
            out.append((f"{race.name} (your {which} race, {race.faction})", help_.paragraph(race.rule)))
        power = content.powers.get(pair.get("power")) if pair.get("power") else None
        if power is not None:
            out.append((f"{power.name} (your {which} power)", help_.paragraph(power.rule)))
    return out


TERMINAL = TerminalSupport(board=board_tables, cards=card_texts)
