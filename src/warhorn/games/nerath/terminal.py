"""Conquest of Nerath in the terminal (``warhorn play nerath``): the ``map`` command's tables, the
``cards`` command's texts and the odds shown before an attack is confirmed.

Everything comes from the player's own view (``state.view(player)``) and the printed board and cards,
so nothing hidden shows: another kingdom's hand is a count, a face-down guardian is "face down".
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from warhorn.engine import Action, GameState
from warhorn.engine.plugin import OddsTable, TerminalSupport, chances_line
from warhorn.games.nerath.board import DUNGEON, KINGDOM_IDS, KINGDOM_NAMES, LAND, SEA, NerathBoard
from warhorn.games.nerath.pieces import PIECES

_NAME = dict(zip(KINGDOM_IDS, KINGDOM_NAMES, strict=True))


def _piece_name(piece: str, n: int) -> str:
    name = PIECES[piece].name.lower() if piece in PIECES else piece
    return f"{n} {name}" + ("s" if n != 1 and not name.endswith("s") else "")


def _pieces(units: list[dict[str, Any]]) -> str:
    """``"Karkoth: 3 soldiers, 1 siege engine (+1 soldier aboard); Vailin: 2 warriors"``."""
    by_kingdom: dict[str, Counter[tuple[str, bool]]] = {}
    for u in units:
        if u["piece"] == "castle":
            continue
        by_kingdom.setdefault(u["kingdom"], Counter())[(u["piece"], bool(u.get("aboard")))] += 1
    parts = []
    for kingdom, counts in by_kingdom.items():
        order = list(PIECES)
        loose = [
            _piece_name(p, n)
            for (p, aboard), n in sorted(counts.items(), key=lambda kv: order.index(kv[0][0]))
            if not aboard
        ]
        carried = [_piece_name(p, n) for (p, aboard), n in counts.items() if aboard]
        text = ", ".join(loose) + (f" (+{', '.join(carried)} aboard)" if carried else "")
        parts.append(f"{_NAME.get(kingdom, kingdom)}: {text}")
    return "; ".join(parts) or "—"


def _notes(board: NerathBoard, i: int, units: list[dict[str, Any]]) -> str:
    notes = []
    if board.capital_of[i] >= 0:
        notes.append(f"capital of {KINGDOM_NAMES[board.capital_of[i]]}")
    castles = [u for u in units if u["piece"] == "castle"]
    if castles:
        notes.append(f"castle ({_NAME.get(castles[0]['kingdom'], castles[0]['kingdom'])})")
    if board.coastal[i] and board.kind[i] == LAND:
        notes.append("coast")
    return ", ".join(notes)


def board_tables(state: GameState, player: int) -> list[OddsTable]:
    """Territories by home kingdom (holder, pieces, capital/castle/coast), then seas, then dungeons."""
    board: NerathBoard = state.board  # type: ignore[attr-defined]
    view = state.view(player)
    spaces = {s["id"]: s for s in view["spaces"]}
    groups: dict[int, list[tuple[str, ...]]] = {k: [] for k in range(len(KINGDOM_IDS))}
    other: list[tuple[str, ...]] = []
    seas: list[tuple[str, ...]] = []
    dungeons: list[tuple[str, ...]] = []
    for i in range(len(board)):
        here = spaces.get(board.sid(i), {})
        units = here.get("units", [])
        if board.kind[i] == SEA:
            seas.append((board.names[i], _pieces(units)))
        elif board.kind[i] == DUNGEON:
            up = [board.guardian(g["tile"]).name for g in here.get("guardians", [])]
            down = here.get("guardians_face_down", 0)
            guardians = ", ".join(up + ([f"{down} face down"] if down else [])) or "none"
            dungeons.append((board.names[i], guardians, _pieces(units)))
        else:
            holder = _NAME.get(here.get("control") or "", "nobody")
            row = (board.names[i], holder, _pieces(units), _notes(board, i, units))
            (groups[board.owner[i]] if board.owner[i] >= 0 else other).append(row)
    land = (("territory", "left"), ("held by", "left"), ("pieces", "left"), ("notes", "left"))
    tables = [
        OddsTable(f"{KINGDOM_NAMES[k]}'s home territories", land, tuple(rows))
        for k, rows in groups.items()
        if rows
    ]
    if other:
        tables.append(OddsTable("Other territories", land, tuple(other)))
    tables.append(OddsTable("Seas", (("sea", "left"), ("pieces", "left")), tuple(seas)))
    tables.append(
        OddsTable(
            "Dungeon entrances",
            (("entrance", "left"), ("guardians", "left"), ("heroes inside", "left")),
            tuple(dungeons),
        )
    )
    return tables


def card_texts(state: GameState, player: int) -> list[tuple[str, str]]:
    """The event cards and treasures in the hands of the kingdoms ``player`` plays, with their texts."""
    board: NerathBoard = state.board  # type: ignore[attr-defined]
    out: list[tuple[str, str]] = []
    for kingdom in state.view(player)["kingdoms"]:
        if "hand" not in kingdom:  # another player's kingdom: only counts
            continue
        who = _NAME.get(kingdom["id"], kingdom["id"])
        for card in kingdom["hand"]:
            event = board.event(card)
            out.append((f"{event.name} ({who}, event)", event.text))
        for card in kingdom["treasure_hand"]:
            treasure = board.treasure(card)
            out.append((f"{treasure.name} ({who}, treasure, {treasure.vp} VP)", treasure.text))
    return out


def attack_report(state: GameState, action: Action) -> list[str]:
    """The exact odds of the battle ``action`` would start (OddsUnavailableError ``not_an_attack``: it
    starts none)."""
    from warhorn.games.nerath.odds_support import attack_odds

    answer = attack_odds(state, action)

    def army(counts: dict[str, int]) -> str:
        return ", ".join(_piece_name(p, n) for p, n in counts.items()) or "nothing"

    odds = answer["odds"]
    if answer["kind"] == "dungeon":
        guardians = [state.board.guardian(g).name for g in answer.get("guardians", [])]  # type: ignore[attr-defined]
        hidden = answer.get("guardians_face_down", 0)
        against = ", ".join(
            guardians
            + ([f"{hidden} face-down guardian(s), averaged over the tiles they may be"] if hidden else [])
        )
    else:
        kingdoms = [_NAME.get(k, k) for k in answer.get("defender_kingdoms", [])]
        against = army(answer["defender"]) + (f" ({', '.join(kingdoms)})" if kingdoms else "")
    lines = [
        f"odds of the {answer['kind']} battle at {answer['space_name']}: "
        f"{army(answer['attacker'])} against {against}",
        "  "
        + chances_line(
            [
                ("attacker wins", odds["attacker_win"]),
                ("defender wins", odds["defender_win"]),
                ("mutual destruction", odds["mutual_destruction"]),
            ],
            attacker_retreats=odds.get("attacker_retreats"),
        ),
        f"  expected rounds {odds['expected_rounds']:.2f}",
    ]
    return lines


TERMINAL = TerminalSupport(board=board_tables, cards=card_texts, attack_report=attack_report)
