"""Quest for the DragonLords in the terminal (``warhorn play dragonlords``): the ``map`` command's
tables, the ``cards`` command's texts and the odds shown before an attack is confirmed.

Everything comes from the player's own view (``state.view(player)``) and the content, so nothing
hidden shows: another player's hidden tokens (King, sorcerer, decoy, hero) are counted, never named,
unless revealed; their hands and shards are counts. The player's own pieces are named.
"""

from __future__ import annotations

from typing import Any

from warhorn.engine import Action, GameState
from warhorn.engine.plugin import OddsTable, TerminalSupport, chances_line
from warhorn.rules_help import rules_help

_LEFT = "left"
_TOKEN_NAMES = {
    "king": "King",
    "sorcerer": "sorcerer",
    "decoy": "decoy",
    "hero": "hero",
    "dragonlord": "DragonLord",
}
_FEATURES = {
    "quest": "quest square",
    "witch": "the Witch",
    "shrine": "shrine",
    "village": "Village",
    "dragons_lair": "Dragon's Lair",
}


def _seat(state: Any, owner: int, people: str | None = None) -> str:
    """``"player 1 (Orcs)"``; units nobody plays: ``"neutral Elves"``."""
    if owner < 0 or owner >= len(state.players):
        return f"neutral {_people(state, people)}" if people else "neutral"
    return f"player {owner} ({_people(state, state.players[owner].people)})"


def _people(state: Any, people: str | None) -> str:
    if people is None:
        return "—"
    found = state.content.peoples.get(people)
    return found.name if found is not None else people


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _token(state: Any, token: str | None, level: int = 0) -> str:
    name = _TOKEN_NAMES.get(token or "", token or "unit")
    return f"{name} (level {level})" if level else name


def _force(state: Any, force: dict[str, Any] | None, *, viewer: int) -> str:
    """What a force shows ``viewer``: units, then its own named tokens or others' counted ones."""
    if not force:
        return "—"
    owner = force["owner"]
    who = "yours" if owner == viewer else _seat(state, owner, force.get("people"))
    parts = [_plural(force["units"], "unit")]
    if "pieces" in force:  # the viewer's own force: every token named, with the unit's number
        for piece in force["pieces"]:
            carried = [state.content.items[i].name for i in piece.get("items", ())]
            carried += [state.content.shards[s].name for s in piece.get("shards", ())]
            if piece.get("token") is None and not carried:
                continue
            token = piece.get("token")
            text = _token(state, token, piece.get("level", 0)) if token is not None else "a unit"
            text += f" #{piece['id']}"  # the number actions name ("with 7", "carry ... with 7")
            if piece.get("spells"):
                text += " knowing " + ", ".join(state.content.spells[s].name for s in piece["spells"])
            if carried:
                text += " carrying " + ", ".join(carried)
            parts.append(text)
    else:  # another player's: hidden tokens counted, never named
        if force.get("hidden_tokens"):
            parts.append(_plural(force["hidden_tokens"], "hidden token"))
        for token, level in force.get("shown", []):
            parts.append(_token(state, token, level))
        if force.get("items"):
            parts.append("items " + ", ".join(state.content.items[i].name for i in force["items"]))
        if force.get("shards"):
            parts.append(_plural(force["shards"], "shard"))
    if force.get("prisoners"):
        parts.append(f"{force['prisoners']} prisoners of {_seat(state, force['prisoners_of'])}")
    return f"{who}: " + ", ".join(parts)


def _notes(space: Any) -> str:
    notes = []
    if space.kingdom:
        notes.append("Kingdom")
    if space.mine:
        notes.append("mine")
    if space.portal:
        notes.append("teleportal")
    if space.feature == "pass":
        notes.append("pass to the Dragon's Lair")
    if space.island:
        notes.append("island")
    return ", ".join(notes)


def board_tables(state: GameState, player: int) -> list[OddsTable]:
    """The players, each realm's territories (holder and force), other territories, sea zones with
    their ships, and the Wastelands tracks square by square with monsters and quest parties."""
    s: Any = state
    world, content = s.world, s.content
    view: dict[str, Any] = state.view(player)
    spaces: dict[str, Any] = view["spaces"]
    tables: list[OddsTable] = []
    seats = tuple(
        (
            _seat(s, p) + (" (you)" if p == player else ""),
            str(entry["gold"]),
            str(entry["hand_size"]),
            str(entry["shards"]),
            ", ".join(r.name for r in world.realms if r.id in entry["realms"]),
            "playing" if entry["alive"] else "out",
        )
        for p, entry in enumerate(view["players"])
    )
    tables.append(
        OddsTable(
            f"Players (round {view['round']}, {view['phase']} phase)",
            (
                ("player", _LEFT),
                ("gold", "right"),
                ("spell cards", "right"),
                ("shards", "right"),
                ("realms", _LEFT),
                ("status", _LEFT),
            ),
            seats,
        )
    )
    land = (("territory", _LEFT), ("held by", _LEFT), ("notes", _LEFT))
    for realm in world.realms:
        rows = tuple(
            (t.name, _force(s, spaces.get(t.id), viewer=player), _notes(t))
            for t in world.territories_of(realm.id)
        )
        title = f"{realm.name} (realm of the {_people(s, realm.people)})"
        tables.append(OddsTable(title, land, rows))
    other = tuple(
        (t.name, _force(s, spaces.get(t.id), viewer=player), _notes(t))
        for t in world.spaces
        if t.kind == "territory" and t.realm is None
    )
    if other:
        tables.append(OddsTable("Islands and other territories", land, other))
    ships: dict[str, list[str]] = {}
    for ship in view["ships"]:
        owner = ship["owner"]
        whose = "empty ship" if owner is None else f"ship {ship['id']} of " + _seat(s, owner)
        aboard = _force(s, ship["aboard"], viewer=player) if ship["aboard"] else "nobody aboard"
        ships.setdefault(ship["zone"], []).append(f"{whose} — {aboard}")
    seas = tuple((z.name, "; ".join(ships.get(z.id, [])) or "—") for z in world.spaces if z.kind == "sea")
    tables.append(OddsTable("Sea zones", (("sea zone", _LEFT), ("ships", _LEFT)), seas))
    parties: dict[tuple[str, int], list[str]] = {}
    for party in view["parties"]:
        text = f"party of {_seat(s, party['owner'])}: " + _force(s, party["force"], viewer=player)
        gear = [g for g in ("torch", "pickaxe") if party.get(g)]
        extras = gear + ([f"{party['gold']} gold"] if party.get("gold") else [])
        extras += ["resting"] if party.get("resting") else []
        extras += ["fighting"] if party.get("fighting") else []
        parties.setdefault((party["track"], party["square"]), []).append(
            text + (f" ({', '.join(extras)})" if extras else "")
        )
    for track, track_name in world.tracks:
        squares: list[tuple[str, ...]] = []
        for square in world.track_squares(track):
            monster = view["monsters"].get(square.id)
            guard = ""
            if monster is not None:
                found = content.monsters.get(monster[0])
                guard = (found.name if found is not None else monster[0]) + f" ({monster[1]} wounds)"
            here = "; ".join(parties.get((track, square.track_index or 0), [])) or "—"
            squares.append(
                (
                    str(square.track_index),
                    square.name,
                    _FEATURES.get(square.feature or "", square.feature or ""),
                    guard,
                    here,
                )
            )
        tables.append(
            OddsTable(
                track_name,
                (
                    ("#", "right"),
                    ("square", _LEFT),
                    ("feature", _LEFT),
                    ("monster", _LEFT),
                    ("parties", _LEFT),
                ),
                tuple(squares),
            )
        )
    return tables


def card_texts(state: GameState, player: int) -> list[tuple[str, str]]:
    """The player's spell cards (name, kind, when it is played, the rules help's paragraph of its
    rule), then the spells its King and sorcerers know and the shards it carries, each explained."""
    s: Any = state
    content = s.content
    help_ = rules_help(state.spec.id)
    view: dict[str, Any] = state.view(player)
    out: list[tuple[str, str]] = []
    for card_id in view["players"][player].get("hand", []):
        card = content.cards[card_id]
        when = card.when.replace("_", " ")
        out.append((f"{card.name} ({card.kind} card, played: {when})", help_.paragraph(card.rule)))
    forces = [f for f in view["spaces"].values() if f["owner"] == player]
    forces += [sh["aboard"] for sh in view["ships"] if sh["aboard"] and sh["aboard"]["owner"] == player]
    forces += [pt["force"] for pt in view["parties"] if pt["owner"] == player]
    known: dict[str, list[str]] = {}
    shards: list[str] = []
    for force in forces:
        for piece in force.get("pieces", []):
            for spell in piece.get("spells", ()):
                known.setdefault(spell, []).append(_token(s, piece["token"]))
            shards.extend(piece.get("shards", ()))
    for spell_id, casters in known.items():
        spell = content.spells[spell_id]
        out.append(
            (
                f"{spell.name} (spell your {' and '.join(sorted(set(casters)))} knows)",
                help_.paragraph(spell.rule),
            )
        )
    for shard_id in shards:
        shard = content.shards[shard_id]
        spell = content.spells[shard.spell]
        out.append((f"{shard.name} (your shard, works as {spell.name})", help_.paragraph(spell.rule)))
    return out


def attack_report(state: GameState, action: Action) -> list[str]:
    """The exact odds of the plain battle ``action`` would start (OddsUnavailableError ``not_an_attack``:
    it starts none)."""
    from warhorn.games.dragonlords.odds_support import attack_odds

    answer = attack_odds(state, action)
    s: Any = state
    request = answer["request"]
    target = s.world.space(getattr(action, "to", ""))
    defender = s.spaces[target.id]
    lines = [
        f"odds of the plain battle at {target.name}: {_plural(request['attackers'], 'unit')} "
        f"(attack {request['attacker_tas']}) against {_plural(request['defenders'], 'unit')} of "
        f"{_seat(s, defender.owner, defender.people)} (attack {request['defender_tas']})"
        + (", sneak attack" if request.get("sneak_attack") else ""),
        "  "
        + chances_line(
            [
                ("attacker wins", answer["attacker_wins"]),
                ("defender holds", answer["defender_holds"]),
                ("mutual destruction", answer["mutual_destruction"]),
            ],
            attacker_retreats=answer.get("attacker_retreats"),
        ),
        f"  expected survivors: {answer['expected_attackers_left']:.1f} attackers, "
        f"{answer['expected_defenders_left']:.1f} defenders",
        "  leaves out spells, spell cards, shards, heroes' levels and Dragon Fire",
    ]
    return lines


TERMINAL = TerminalSupport(board=board_tables, cards=card_texts, attack_report=attack_report)
