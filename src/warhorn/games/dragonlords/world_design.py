"""The design of warhorn's original DragonLords world, "The Sundered Realms", and its generator.

The real board is not public (research Part C.5: territory list, adjacency and sea zones NOT
FOUND), so warhorn draws its own to what is known. The map is a grid of 50-pixel cells, each
cell naming the space it belongs to (``..`` is impassable wilderness, drawn blank). Each space's
drawing polygon is the outline of its cells, and the borders written to the TOML are exactly the
pairs of spaces whose cells share an edge: the drawing and the graph come from one source.
``check_world`` re-derives the borders from the polygons, so a hand-edited file cannot drift.

Regenerate the shipped file with ``python -m warhorn.games.dragonlords.world_design``.
"""

from __future__ import annotations

import sys
from pathlib import Path

CELL = 50.0

#: 24 columns x 15 rows. o/e/d/b/a/n = Orc, Elf, Dwarf, Barbarian, Amazon, Necromancer realm
#: territories; i = islands; ~x = sea zones; N/S = squares of the northern and southern
#: Wastelands tracks (N7 the Village, S7 the Dragon's Lair).
GRID = """
~a o1 o1 o1 o2 o2 o2 .. N0 N1 N2 N3 N4 N5 N6 N7 ~h ~h e1 e1 e1 e1 e1 ~e
~a o1 o1 o3 o3 o2 o2 ~b d1 .. .. .. .. .. .. d2 ~c ~c e2 e3 e3 e3 e3 ~e
~a o4 o4 o3 o3 o5 o5 ~b d1 d1 d3 d3 d4 d4 d2 d2 ~c e4 e4 e3 e3 e5 e5 ~e
~a o4 o4 o6 o6 o5 o5 ~b d5 d5 d3 d3 d4 d4 d6 d6 ~c e4 e4 e6 e6 e5 e5 ~e
~a ~a o6 o6 o6 o6 ~b ~b d5 d5 d7 d7 d7 d7 d6 d6 ~c ~c e6 e6 e6 e6 ~e ~e
~f ~f ~f i1 i1 ~b ~b ~b ~b d7 d7 d7 d7 d7 d7 ~c ~c ~c i2 i2 ~g ~g ~g ~g
~f ~f ~f i1 i1 ~j ~j ~j ~j ~j ~j d8 d8 ~k ~k ~k ~k ~k i2 i2 ~g ~g ~g ~g
~l ~l ~l ~l ~l ~j ~j ~j ~j ~j ~j b8 b8 ~k ~k ~k ~k ~k ~m ~m ~m ~m ~m ~m
~l ~l i3 i3 ~l ~l ~n ~n ~n b7 b7 b7 b7 b7 b7 ~p ~p ~p ~m ~m i4 i4 ~m ~m
~l ~l i3 i3 ~n ~n ~n ~n ~n b7 b7 b7 b7 b7 b7 ~p ~p ~p ~p ~p i4 i4 ~q ~q
~r ~r a6 a6 a6 a6 ~n ~n b5 b5 b6 b6 b6 b6 b4 b4 ~p ~p n6 n6 n6 n6 ~q ~q
~r a4 a4 a6 a6 a5 a5 ~n b5 b5 b3 b3 b6 b6 b4 b4 ~p n4 n4 n6 n6 n5 n5 ~q
~r a4 a4 a3 a3 a5 a5 ~n b2 b2 b3 b3 b1 b1 b1 b1 ~p n4 n4 n3 n3 n5 n5 ~q
~r a1 a1 a3 a3 a2 a2 ~n b2 .. .. .. .. .. .. b1 ~s ~s n2 n3 n3 n3 n3 ~q
~r a1 a1 a1 a2 a2 a2 a2 S7 S6 S5 S4 S3 S2 S1 S0 .. ~s n1 n1 n1 n1 n1 ~q
"""

REALMS = (
    # realm letter, id, name, people, colour
    ("o", "orcmarch", "The Orcmarch", "orcs", "#7a8f3a"),
    ("e", "silverwood", "Silverwood", "elves", "#3f9e6e"),
    ("d", "deepholds", "The Deepholds", "dwarves", "#8c6b4f"),
    ("b", "stormsteppe", "The Storm Steppe", "barbarians", "#b5533c"),
    ("a", "jadecoast", "The Jade Coast", "amazons", "#c2a13a"),
    ("n", "gloamfen", "The Gloamfen", "necromancers", "#5d4b7a"),
)

#: Territory names by realm letter, in the order of their numbers (1..n).
TERRITORY_NAMES = {
    "o": ("Skullcrag", "Tusk Ridge", "Gorefort", "Ashen Pits", "Bonefield", "Rustmire"),
    "e": ("Moonhollow", "Starwatch", "Lumenhall", "Fernreach", "Whisperglade", "Dawnmere"),
    "d": (
        "Hammerdeep",
        "Lanternstair",
        "Khaz Thurn",
        "Copperhead",
        "Anvilgate",
        "Grimhelm",
        "Stonebelly",
        "Bridgehold",
    ),
    "b": (
        "Wolf Gate",
        "Cinder Pass",
        "Jarl's Seat",
        "Thunderfell",
        "Ravenmoor",
        "Horn Hill",
        "Longgrass",
        "Strandhold",
    ),
    "a": ("Serpent Bay", "Vinewall", "Sunspire", "Orchid Vale", "Tigerfall", "Palm Reach"),
    "n": ("Hollow Barrow", "Cryptmoor", "Duskcrown", "Wailing Fen", "Ghostlight", "Mournstead"),
}

#: The realm's Kingdom (income, DragonLords' landing ban) and mines, by territory number.
#: One mine a realm, two for the Dwarves (research C.3: "the two mining territories").
KINGDOMS = {"o": 3, "e": 3, "d": 3, "b": 3, "a": 3, "n": 3}
MINES = {"o": (6,), "e": (4,), "d": (4, 5), "b": (4,), "a": (6,), "n": (6,)}
#: The three teleportals (research C.5), one in the west, one in the centre, one in the east.
PORTALS = ("o4", "b6", "n5")
LAND_BRIDGE = ("d8", "b8")
#: Sea zones that meet under the land bridge, so ships reach both oceans (DLR-NAV-05).
STRAITS = (("~j", "~k"),)
PASSES = ("b2", "a2")

ISLANDS = {"i1": "Isle of Gulls", "i2": "Emberrock", "i3": "The Drowned Tor", "i4": "Pearl Atoll"}

SEAS = {
    "~a": ("sea_frostbight", "Frostbight Reach"),
    "~b": ("sea_orcwater", "Orcwater Sound"),
    "~c": ("sea_dwarfbay", "Gullwing Channel"),
    "~e": ("sea_eastfar", "Eastfar Deep"),
    "~f": ("sea_gullsound", "Gull Sound"),
    "~g": ("sea_ember", "Ember Sea"),
    "~h": ("sea_village_harbour", "Lantern Harbour"),
    "~j": ("sea_westwater", "Westwater Strait"),
    "~k": ("sea_eastwater", "Eastwater Strait"),
    "~l": ("sea_tor", "Tor Waters"),
    "~m": ("sea_pearl", "Pearl Sea"),
    "~n": ("sea_jade", "Jade Narrows"),
    "~p": ("sea_steppe", "Steppe Gulf"),
    "~q": ("sea_mourn", "Mourning Deep"),
    "~r": ("sea_serpent", "Serpent Reach"),
    "~s": ("sea_barrow", "Barrow Cove"),
}

#: Wastelands tracks: id, name, the track letter, and each square's feature and name (0 = entry).
TRACKS = (
    (
        "north",
        "The Northern Wastelands",
        "N",
        (
            ("quest", "Broken Cairn"),
            (None, "Howling Scree"),
            ("quest", "Sunken Library"),
            ("witch", "The Witch's Chamber"),
            ("quest", "Serpent Well"),
            (None, "Ash Dunes"),
            ("quest", "Hanged Man's Oak"),
            ("village", "Lanternford Village"),
        ),
    ),
    (
        "south",
        "The Southern Wastelands",
        "S",
        (
            ("quest", "Blackroot Gate"),
            (None, "Salt Flats"),
            ("shrine", "Shrine of the Still Flame"),
            ("quest", "Vulture Rocks"),
            (None, "Glass Desert"),
            ("quest", "Tomb of Nine Kings"),
            ("quest", "Smoking Crevasse"),
            ("dragons_lair", "The Dragon's Lair"),
        ),
    ),
)


def _cells() -> dict[str, list[tuple[int, int]]]:
    rows = [row.split() for row in GRID.strip().splitlines()]
    cells: dict[str, list[tuple[int, int]]] = {}
    for y, row in enumerate(rows):
        for x, token in enumerate(row):
            if token != "..":
                cells.setdefault(token, []).append((x, y))
    return cells


def outline(cells: list[tuple[int, int]]) -> tuple[tuple[float, float], ...]:
    """The outline of a connected set of grid cells, clockwise on screen, without collinear points."""
    edges: dict[tuple[int, int], tuple[int, int]] = {}
    cell_set = set(cells)
    for x, y in cells:
        for (dx, dy), a, b in (
            ((0, -1), (x, y), (x + 1, y)),
            ((1, 0), (x + 1, y), (x + 1, y + 1)),
            ((0, 1), (x + 1, y + 1), (x, y + 1)),
            ((-1, 0), (x, y + 1), (x, y)),
        ):
            if (x + dx, y + dy) not in cell_set:
                if a in edges:
                    raise ValueError(f"cells {sorted(cells)} pinch at {a}: not a simple outline")
                edges[a] = b
    start = min(edges)
    points = [start]
    point = edges[start]
    while point != start:
        points.append(point)
        point = edges[point]
    if len(points) != len(edges):
        raise ValueError(f"cells {sorted(cells)} are not one piece without holes")
    kept = [
        p
        for i, p in enumerate(points)
        if (p[0] - points[i - 1][0]) * (points[(i + 1) % len(points)][1] - p[1])
        != (p[1] - points[i - 1][1]) * (points[(i + 1) % len(points)][0] - p[0])
    ]
    return tuple((x * CELL, y * CELL) for x, y in kept)


def _grid_borders(cells: dict[str, list[tuple[int, int]]]) -> set[tuple[str, str]]:
    owner = {cell: token for token, cs in cells.items() for cell in cs}
    pairs: set[tuple[str, str]] = set()
    for (x, y), token in owner.items():
        for other in (owner.get((x + 1, y)), owner.get((x, y + 1))):
            if other is not None and other != token:
                pairs.add((min(token, other), max(token, other)))
    return pairs


def _toml_str(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def world_toml() -> str:
    """The shipped ``data/world/world.toml`` text, generated from :data:`GRID`."""
    cells = _cells()
    ids: dict[str, str] = {}
    lines = [
        "# Generated by warhorn.games.dragonlords.world_design from its grid; do not edit by hand.",
        'id = "sundered-realms"',
        'name = "The Sundered Realms"',
        'source = "original"',
        f"width = {24 * CELL:g}",
        f"height = {len(GRID.strip().splitlines()) * CELL:g}",
        "",
    ]
    for _letter, rid, name, people, colour in REALMS:
        lines += [
            "[[realms]]",
            f'id = "{rid}"',
            f"name = {_toml_str(name)}",
            f'people = "{people}"',
            f'colour = "{colour}"',
            'source = "original"',
            "",
        ]
    for letter, _rid, _name, _people, _colour in REALMS:
        for n, tname in enumerate(TERRITORY_NAMES[letter], start=1):
            ids[f"{letter}{n}"] = tname.lower().replace("'", "").replace(" ", "_")
    for token in ISLANDS:
        ids[token] = ISLANDS[token].lower().replace("'", "").replace(" ", "_").removeprefix("the_")
    for token, (sid, _n) in SEAS.items():
        ids[token] = sid
    for tid, _tname, letter, squares in TRACKS:
        for i, (_f, sname) in enumerate(squares):
            ids[f"{letter}{i}"] = f"{tid}_{i}_" + sname.lower().replace("'", "").replace(
                " ", "_"
            ).removeprefix("the_")
    missing = set(cells) - set(ids)
    if missing:
        raise ValueError(f"grid tokens without a space: {sorted(missing)}")

    def space(token: str, name: str, kind: str, **fields: object) -> list[str]:
        out = ["[[spaces]]", f'id = "{ids[token]}"', f"name = {_toml_str(name)}", f'kind = "{kind}"']
        for key, value in fields.items():
            if isinstance(value, bool):
                out.append(f"{key} = {'true' if value else 'false'}")
            elif isinstance(value, int):
                out.append(f"{key} = {value}")
            elif value is not None:
                out.append(f"{key} = {_toml_str(str(value))}")
        poly = ", ".join(f"[{x:g}, {y:g}]" for x, y in outline(cells[token]))
        out += [f"polygon = [{poly}]", 'source = "original"', ""]
        return out

    for letter, rid, _name, _people, _colour in REALMS:
        for n, tname in enumerate(TERRITORY_NAMES[letter], start=1):
            token = f"{letter}{n}"
            lines += space(
                token,
                tname,
                "territory",
                realm=rid,
                kingdom=KINGDOMS[letter] == n,
                mine=n in MINES[letter],
                portal=token in PORTALS,
                land_bridge=token in LAND_BRIDGE,
                feature="pass" if token in PASSES else None,
            )
    for token, iname in ISLANDS.items():
        lines += space(token, iname, "territory", island=True)
    for token, (_sid, sname) in SEAS.items():
        lines += space(token, sname, "sea", feature="village_harbour" if token == "~h" else None)
    for tid, _tname, letter, squares in TRACKS:
        for i, (feature, sname) in enumerate(squares):
            lines += space(f"{letter}{i}", sname, "wastelands", track=tid, track_index=i, feature=feature)
    for tid, tname, _letter, _squares in TRACKS:
        lines += ["[[tracks]]", f'id = "{tid}"', f"name = {_toml_str(tname)}", 'source = "original"', ""]
    pairs = sorted(tuple(sorted((ids[x], ids[y]))) for x, y in _grid_borders(cells))
    border_lines = [f'  ["{a}", "{b}"],' for a, b in pairs]
    # borders go before the tables (TOML: top-level keys first)
    header_end = 6
    straits = sorted(tuple(sorted((ids[x], ids[y]))) for x, y in STRAITS)
    strait_lines = [f'  ["{a}", "{b}"],' for a, b in straits]
    lines[header_end:header_end] = ["borders = [", *border_lines, "]", "straits = [", *strait_lines, "]"]
    return "\n".join(lines).rstrip() + "\n"


SHIPPED_WORLD_FILE = Path(__file__).parent / "data" / "world" / "world.toml"

if __name__ == "__main__":
    SHIPPED_WORLD_FILE.write_text(world_toml())
    sys.stdout.write(f"wrote {SHIPPED_WORLD_FILE}\n")
