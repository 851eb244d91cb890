"""Defenders of the Realm in the terminal (``warhorn play defenders``): the ``map`` command's tables
(locations by colour with minions, taint, heroes, generals, gates and inns; the generals' roads) and
the ``cards`` command's texts (every hand is open in this cooperative game, DEF rules choices)."""

from __future__ import annotations

from typing import Any

from warhorn.engine import GameState
from warhorn.engine.plugin import OddsTable, TerminalSupport
from warhorn.games.defenders.board import COLOURS, MINION_NAMES, MONARCH_CITY, DefendersBoard
from warhorn.games.defenders.content import card_id_of
from warhorn.games.defenders.web.layout import printed_texts

_LEFT = "left"


def _minions(counts: dict[str, int]) -> str:
    """``"2 red (demon), 1 black (undead)"``."""
    names = dict(zip(COLOURS, MINION_NAMES, strict=True))
    shown = [f"{n} {colour} ({names.get(colour, colour)})" for colour, n in counts.items() if n]
    return ", ".join(shown) or "—"


def board_tables(state: GameState, player: int) -> list[OddsTable]:
    """Locations grouped by colour, then the generals on their roads to Monarch City."""
    board: DefendersBoard = state.board  # type: ignore[attr-defined]
    view: dict[str, Any] = state.view(player)
    heroes_at: dict[str, list[str]] = {}
    for slot in view["heroes"]:
        if slot.get("hero"):
            hero = board.hero_by_id[slot["hero"]]
            heroes_at.setdefault(slot["location"], []).append(f"{hero.name} (life {slot['life']})")
    generals_at: dict[str, list[str]] = {}
    for general in view["generals"].values():
        if not general["defeated"]:
            generals_at.setdefault(general["location"], []).append(general["name"])
    rows: dict[str, list[tuple[str, ...]]] = {}
    for loc in board.locations:
        notes = [
            note
            for note, on in (
                ("Monarch City", loc.name == MONARCH_CITY),
                ("inn", loc.inn),
                ("magic gate", loc.name in view["gates"]),
            )
            if on
        ]
        taint = view["taint"].get(loc.name, 0)
        here = heroes_at.get(loc.name, []) + [f"general {g}" for g in generals_at.get(loc.name, [])]
        rows.setdefault(loc.colour, []).append(
            (
                loc.name,
                _minions(view["minions"].get(loc.name, {})),
                str(taint) if taint else "—",
                ", ".join(here) or "—",
                ", ".join(notes),
            )
        )
    columns = (("location", _LEFT), ("minions", _LEFT), ("taint", "right"), ("here", _LEFT), ("notes", _LEFT))
    order = [*COLOURS, *sorted(set(rows) - set(COLOURS))]
    tables = [
        OddsTable(f"{colour.capitalize()} lands", columns, tuple(rows[colour]))
        for colour in order
        if colour in rows
    ]
    generals = []
    for g in board.generals:
        now = view["generals"][g.colour]
        if now["defeated"]:
            generals.append((g.name, "defeated", "", ""))
            continue
        path = list(g.path)
        ahead = path[path.index(now["location"]) + 1 :] if now["location"] in path else path
        generals.append((g.name, now["location"], f"{now['wounds']} of {g.life}", " → ".join(ahead)))
    tables.append(
        OddsTable(
            "Generals",
            (("general", _LEFT), ("at", _LEFT), ("wounds", "right"), ("road to Monarch City", _LEFT)),
            tuple(generals),
        )
    )
    return tables


def card_texts(state: GameState, player: int) -> list[tuple[str, str]]:
    """The hero cards and quest of every hero ``player`` runs (each with what it is for)."""
    board: DefendersBoard = state.board  # type: ignore[attr-defined]
    texts = printed_texts(board)
    out: list[tuple[str, str]] = []
    for slot in state.view(player)["heroes"]:
        if slot.get("player") != player or not slot.get("hero"):
            continue
        who = board.hero_by_id[slot["hero"]].name
        for card_id in slot["hand"]:
            card = board.cards[card_id]
            if card.special:
                text = texts.get("special", {}).get(
                    card_id_of(card.id), "a special card: play it at any time"
                )
            else:
                dice = (
                    f"; {card.dice} {'die' if card.dice == 1 else 'dice'} against the {card.colour} general"
                )
                text = f"{card.colour} card for {card.location}, {card.band} band" + (
                    dice if card.dice else ""
                )
            out.append((f"{card.name} ({who})", text))
        if slot.get("quest"):
            quest = board.quest_by_id[slot["quest"]]
            text = texts.get("quest", {}).get(quest.id, "")
            reward = texts.get("reward", {}).get(quest.id, "")
            out.append((f"{quest.name} ({who}, quest)", f"{text} Reward: {reward}".strip()))
    return out


TERMINAL = TerminalSupport(board=board_tables, cards=card_texts)
