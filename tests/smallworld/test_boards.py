"""Small World of Warcraft boards: the shipped board sets, their checks, and user board sets."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from warhorn.content.loader import read_data_file
from warhorn.engine.board_geometry import (
    geometric_borders,
    outlines_touch,
    polygon_problem,
    shared_boundary_length,
)
from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.games.smallworld.board import (
    SHIPPED_BOARDS_DIR,
    WATER,
    SmallWorldBoard,
    board_sets,
    check_boards,
    game_numbers,
    load_board,
)
from warhorn.games.smallworld.content import DATA_DIR

LAYOUTS = [(s, p) for s in ("islands", "classic") for p in (2, 3, 4, 5)]


def _board(board_set: str, players: int) -> SmallWorldBoard:
    return load_board(board_set, players)


@pytest.mark.parametrize(("board_set", "players"), LAYOUTS)
def test_every_layout_loads_with_symmetric_reachable_islands(board_set: str, players: int) -> None:
    board = _board(board_set, players)
    assert board.players == players and board.id == f"{board_set}-{players}p"
    by_id = {r.id: r for r in board.regions}
    assert len(by_id) == len(board.regions)
    for region in board.regions:
        for other in region.neighbours:
            assert region.id in by_id[other].neighbours, f"{region.id} - {other} is one-way"
            assert by_id[other].island == region.island, "islands are apart: borders stay on one island"
    for island in board.islands:
        ids = [r.id for r in board.regions_of(island.id)]
        seen, todo = {ids[0]}, [ids[0]]
        while todo:
            for there in by_id[todo.pop()].neighbours:
                if there not in seen:
                    seen.add(there)
                    todo.append(there)
        assert seen == set(ids), f"{island.id}: unreachable {set(ids) - seen}"
        assert any(by_id[r].entry for r in ids), f"{island.id} has no entry region"
    assert sum(r.place_slot for r in board.regions) == players
    assert all(
        not (r.terrain in WATER and (r.murlocs or r.mountain_token or r.place_slot)) for r in board.regions
    )
    # the integer-indexed graph agrees with the regions' neighbour lists
    for i, region in enumerate(board.regions):
        assert board.graph.neighbors_of(region.id) == tuple(sorted(region.neighbours, key=board.index))
        assert board.index(region.id) == i


@pytest.mark.parametrize(("board_set", "players"), LAYOUTS)
def test_drawing_and_borders_agree(board_set: str, players: int) -> None:
    """Two regions share a stretch of outline exactly when they border (corner borders meet at a point)."""
    board = _board(board_set, players)
    path = SHIPPED_BOARDS_DIR / board_set
    for island in board.islands:
        regions = board.regions_of(island.id)
        for region in regions:
            assert polygon_problem(region.polygon) is None, region.id
            assert all(0 <= x <= island.width and 0 <= y <= island.height for x, y in region.polygon)
        drawn = geometric_borders({r.id: r.polygon for r in regions})
        listed = {frozenset((r.id, n)) for r in regions for n in r.neighbours}
        corners = {
            frozenset((b["a"], b["b"]))
            for b in read_data_file(path / f"{island.id}.toml")["borders"]
            if b.get("corner")
        }
        assert drawn == listed - corners
        polygons = {r.id: r.polygon for r in regions}
        for pair in corners:
            a, b = sorted(pair)
            assert outlines_touch(polygons[a], polygons[b])


EXPECTED_ISLANDS = {
    # players: (regions, Murlocs, mountains, rounds)
    2: (21, 6, 4, 10),
    3: (30, 9, 6, 10),
    4: (39, 12, 8, 9),
    5: (48, 15, 10, 8),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_island_layouts_follow_the_rulebook_table(players: int) -> None:
    board = _board("islands", players)
    regions, murlocs, mountains, rounds = EXPECTED_ISLANDS[players]
    assert len(board.regions) == regions
    assert board.murloc_total == murlocs
    assert board.mountain_total == mountains
    assert board.rounds == rounds
    sizes = Counter(i.size for i in board.islands)
    assert {s: sizes.get(s, 0) for s in ("large", "medium", "small")} == game_numbers().sizes_for(players)
    assert all(r.source == "original" for r in board.regions)
    assert board.rounds == game_numbers().rounds_for(players)
    terrains = Counter(r.terrain for r in board.regions)
    assert set(terrains) == {"field", "forest", "hill", "mountain", "swamp", "sea", "lake"}
    assert any(r.cavern for r in board.regions) and any(r.magic for r in board.regions)
    for island in board.islands:
        here = board.regions_of(island.id)
        assert sum(r.place_slot for r in here) == 1
        assert any(r.terrain in WATER for r in here), "every island has a sea or lake (Well of Eternity)"


def test_five_player_islands_use_the_whole_box() -> None:
    """15 Murlocs and 10 Mountains: the box's supply (RB-WOW component table)."""
    board = _board("islands", 5)
    assert (board.murloc_total, board.mountain_total) == (15, 10)
    numbers = game_numbers()
    assert (numbers.murloc_tokens, numbers.mountain_tokens) == (15, 10)
    names = [r.name for r in board.regions]
    assert len(set(names)) == len(names)


# The classic maps' facts from the research appendix (SMAWG standard_N_players.json):
# regions, borders, turns, terrain counts (land), Lost Tribes, Caverns, Magic Sources, seas + lakes.
CLASSIC_FACTS = {
    2: (23, 51, 10, {"field": 4, "forest": 4, "hill": 4, "mountain": 4, "swamp": 4}, 9, 4, 4, (2, 1)),
    3: (30, 71, 10, {"field": 5, "forest": 5, "hill": 5, "mountain": 7, "swamp": 5}, 10, 5, 5, (2, 1)),
    4: (39, 95, 9, {"field": 7, "forest": 7, "hill": 7, "mountain": 8, "swamp": 7}, 14, 7, 7, (2, 1)),
    5: (48, 120, 8, {"field": 10, "forest": 9, "hill": 8, "mountain": 9, "swamp": 9}, 18, 9, 9, (2, 1)),
}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_classic_map_matches_the_appendix(players: int) -> None:
    regions, borders, turns, land, tribes, caverns, magic, (seas, lakes) = CLASSIC_FACTS[players]
    board = _board("classic", players)
    assert len(board.regions) == regions
    assert len(board.graph.edges()) == borders
    assert board.rounds == turns
    terrains = Counter(r.terrain for r in board.regions)
    assert {t: terrains[t] for t in land} == land
    assert (terrains["sea"], terrains["lake"]) == (seas, lakes)
    assert board.murloc_total == tribes  # Lost Tribes -> Murlocs
    assert sum(r.cavern for r in board.regions) == caverns
    assert sum(r.magic for r in board.regions) == magic
    # a Mountain token on every mountain region, as the original's setup does
    assert all(r.mountain_token == (r.terrain == "mountain") for r in board.regions)
    assert len(board.islands) == 1


def test_classic_maps_spot_checks() -> None:
    """A few rows of the appendix, as written there."""
    two = _board("classic", 2)
    assert two.region("m2_13").neighbours == ("m2_07", "m2_08", "m2_12", "m2_14", "m2_18", "m2_19", "m2_20")
    assert (two.region("m2_13").terrain, two.region("m2_13").murlocs, two.region("m2_13").magic) == (
        "field",
        1,
        True,
    )
    assert two.region("m2_21").entry  # shore on edge sea 22 (AZG flags it; SMAWG does not)
    assert not two.region("m2_07").entry and two.region("m2_07").terrain == "lake"
    five = _board("classic", 5)
    assert len(five.region("m5_20").neighbours) == 10  # the big lake
    assert five.region("m5_16").neighbours == ("m5_00", "m5_17")


def test_shipped_sets_are_checked_clean_and_listed() -> None:
    assert check_boards(SHIPPED_BOARDS_DIR.parent) == []
    assert board_sets() == ("classic", "islands")


def test_unknown_set_and_player_count_are_refused_by_name() -> None:
    with pytest.raises(ContentError, match="no board set 'atlantis' \\(known: classic, islands\\)"):
        load_board("atlantis", 3)
    with pytest.raises(ContentError, match="no layout for 6 players"):
        load_board("islands", 6)


# --- a user's own board set through a content folder ---------------------------------------


@pytest.fixture
def user_folder(tmp_path: Path) -> Path:
    """A content folder holding a copy of the shipped islands as the user's own set 'mine'."""
    shutil.copytree(SHIPPED_BOARDS_DIR / "islands", tmp_path / "boards" / "mine")
    return tmp_path


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_user_transcription_loads_through_the_content_folder(user_folder: Path) -> None:
    set_file = user_folder / "boards" / "mine" / "set.toml"
    _edit(set_file, 'id = "islands"', 'id = "mine"')
    _edit(set_file, 'name = "Original islands"', 'name = "My transcription"')
    _edit(
        user_folder / "boards" / "mine" / "stormcrest.toml", 'name = "Stormcrest Isle"', 'name = "Real Isle"'
    )
    assert check_boards(user_folder) == []
    board = load_board("mine", 3, user_folder)
    assert board.name == "My transcription, 3 players" and board.islands[0].name == "Real Isle"
    assert "mine" in board_sets(user_folder)
    # the shipped sets are still there for that folder
    assert load_board("classic", 2, user_folder).board_set == "classic"
    assert board.content_hash != load_board("islands", 3).content_hash


def test_a_content_folder_may_replace_a_shipped_set(tmp_path: Path) -> None:
    shutil.copytree(SHIPPED_BOARDS_DIR / "classic", tmp_path / "boards" / "classic")
    _edit(tmp_path / "boards" / "classic" / "set.toml", "rounds = 8", "rounds = 7")
    assert load_board("classic", 5, tmp_path).rounds == 7
    assert load_board("classic", 5).rounds == 8


def test_island_sets_take_rounds_from_the_games_content(tmp_path: Path) -> None:
    """One source: the rounds per player count are game.toml's, also for a content folder's own."""
    shutil.copy(DATA_DIR / "game.toml", tmp_path / "game.toml")
    _edit(tmp_path / "game.toml", '"5" = 8', '"5" = 7')
    assert load_board("islands", 5, tmp_path).rounds == 7
    assert load_board("islands", 5).rounds == 8


BAD_EDITS = [
    # (file, old, new, expected key, expected message fragment)
    (
        "tidewrack.toml",
        '{ a = "eagles_anvil", b = "leechfen"',
        '{ a = "eagles_anvil", b = "leechfenn"',
        "borders[",
        "unknown region 'leechfenn'",
    ),
    (
        "tidewrack.toml",
        'terrain = "field"',
        'terrain = "farmland"',
        "regions[",
        "Input should be 'field'",
    ),
    ("tidewrack.toml", "place_slot = true", "place_slot = false", "regions", "no region with place_slot"),
    (
        "set.toml",
        'source = "original"\nislands',
        'source = "made up"\nislands',
        "source",
        "source must be",
    ),
    ("duskmire.toml", "murlocs = 0", "murlocs = 1", "layouts[3] (5 players)", "need 16 tokens"),
    (
        "duskmire.toml",
        "mountain_token = false",
        "mountain_token = true",
        "layouts[3] (5 players)",
        "need 11 tokens",
    ),
    (
        "set.toml",
        "players = 5\n",
        "players = 5\nrounds = 8\n",
        "layouts[3] (5 players).rounds",
        "takes the rounds",
    ),
    ("set.toml", 'kind = "islands"', 'kind = "islands"\nmurloc_tokens = 18', "murloc_tokens", "token supply"),
    (
        "set.toml",
        'islands = ["stormcrest", "tidewrack"]',
        'islands = ["stormcrest", "mossgloom"]',
        "layouts[0] (2 players).islands",
        "2 players play on 1 large + 1 small islands",
    ),
]


@pytest.mark.parametrize(
    ("file", "old", "new", "key", "message"), BAD_EDITS, ids=[e[4][:24] for e in BAD_EDITS]
)
def test_bad_files_give_one_line_errors_with_file_and_key(
    user_folder: Path, file: str, old: str, new: str, key: str, message: str
) -> None:
    _edit(user_folder / "boards" / "mine" / file, old, new)
    errors = check_boards(user_folder)
    assert errors, "the edit must be refused"
    matching = [e for e in errors if message in e.message]
    assert matching, [str(e) for e in errors]
    error = matching[0]
    # a layout's totals are reported on set.toml, where the layout is
    expected_file = "set.toml" if key.startswith("layouts") else file
    assert error.file.endswith(expected_file) and error.key.startswith(key), str(error)
    assert "\n" not in str(error)
    with pytest.raises(ContentErrors):
        load_board("mine", 2, user_folder)


def test_a_border_listed_twice_or_missing_from_the_drawing_is_refused(user_folder: Path) -> None:
    island = user_folder / "boards" / "mine" / "tidewrack.toml"
    first = next(line for line in island.read_text().splitlines() if line.startswith("  { a ="))
    _edit(island, first, first + "\n" + first.replace("source", "source", 1))
    errors = [str(e) for e in check_boards(user_folder)]
    assert any("border listed twice" in e for e in errors), errors
    # drop the border instead: the outlines still touch, so the drawing shows a border the list lacks
    island.write_text(island.read_text().replace(first + "\n" + first + "\n", ""), encoding="utf-8")
    errors = [str(e) for e in check_boards(user_folder)]
    assert any("that borders does not list" in e for e in errors), errors


def test_an_unreachable_region_is_refused(user_folder: Path) -> None:
    island = user_folder / "boards" / "mine" / "duskmire.toml"
    lines = [
        line for line in island.read_text().splitlines() if '"goblet_hill"' not in line or "{ a" not in line
    ]
    island.write_text("\n".join(lines) + "\n", encoding="utf-8")
    errors = [str(e) for e in check_boards(user_folder)]
    assert any("(id goblet_hill): unreachable" in e for e in errors), errors


def test_a_polygon_that_is_not_simple_is_refused(user_folder: Path) -> None:
    island = user_folder / "boards" / "mine" / "duskmire.toml"
    text = island.read_text()
    start = text.index("polygon = [[", text.index('id = "wheatburrow"'))
    end = text.index("\n", start)
    island.write_text(
        text[:start] + "polygon = [[10.0, 10.0], [60.0, 60.0], [60.0, 10.0], [10.0, 80.0]]" + text[end:]
    )
    errors = [str(e) for e in check_boards(user_folder)]
    assert any("(id wheatburrow).polygon: not a simple polygon: sides 0 and 2 cross" in e for e in errors), (
        errors
    )


def test_syntax_errors_name_the_file_and_line(user_folder: Path) -> None:
    (user_folder / "boards" / "mine" / "duskmire.toml").write_text('id = "duskmire"\nname = \n')
    errors = check_boards(user_folder)
    assert len(errors) == 1 and errors[0].key == "(syntax)" and "line 2" in errors[0].message


def test_layouts_regenerate_byte_for_byte() -> None:
    """The shipped files are the generator's output (borders derived from the island outlines)."""
    pytest.importorskip("networkx")
    from warhorn.games.smallworld.board_drawing import BOARDS_DIR, classic_set_files, island_set_files

    for name, files in (("islands", island_set_files()), ("classic", classic_set_files())):
        assert sorted(files) == sorted(p.name for p in (BOARDS_DIR / name).glob("*.toml"))
        for file, text in files.items():
            assert (BOARDS_DIR / name / file).read_text(encoding="utf-8") == text, f"{name}/{file}"


def test_board_module_imports_without_the_generator_dependencies() -> None:
    code = (
        "import sys; sys.modules['networkx'] = None\n"
        "from warhorn.games.smallworld.board import load_board\n"
        "print(len(load_board('classic', 4).regions))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "39"


def test_a_short_side_lying_inside_a_longer_side_is_a_border_whichever_comes_first() -> None:
    # a small square sitting on the middle of a wide strip's top edge: the square's bottom side lies
    # strictly inside the strip's top side (neither end of the long side touches the short one)
    strip = ((0.0, 0.0), (10.0, 0.0), (10.0, 2.0), (0.0, 2.0))
    square = ((4.0, 2.0), (6.0, 2.0), (6.0, 4.0), (4.0, 4.0))
    assert shared_boundary_length(strip, square) == pytest.approx(2.0)
    assert shared_boundary_length(square, strip) == pytest.approx(2.0)
    assert geometric_borders({"a": strip, "b": square}) == {frozenset({"a", "b"})}
    assert geometric_borders({"b": square, "a": strip}) == {frozenset({"a", "b"})}


# --- islands drawn at random (rulebook set-up: "Randomly select a set of Game Boards") ----------


def _islands_of(state: object) -> tuple[str, ...]:
    return tuple(i.id for i in state.board.islands)  # type: ignore[attr-defined]


def test_the_islands_of_each_size_are_drawn_by_the_seed() -> None:
    from warhorn.engine import load_game

    drawn = {seed: _islands_of(load_game("smallworld", seed=seed, players=2)) for seed in range(24)}
    larges = {d[0] for d in drawn.values()}
    smalls = {d[1] for d in drawn.values()}
    assert larges == {"stormcrest", "emberfall"} and smalls == {"tidewrack", "duskmire"}
    assert _islands_of(load_game("smallworld", seed=5, players=2)) == drawn[5]  # the seed decides
    four = {_islands_of(load_game("smallworld", seed=seed, players=4)) for seed in range(12)}
    from warhorn.games.smallworld.board import load_board_set

    sizes = {i: f.size for i, f in load_board_set("islands").islands.items()}
    assert len(four) > 1
    assert all(Counter(sizes[i] for i in d) == {"large": 1, "medium": 2, "small": 1} for d in four)
    for seed in range(6):
        fixed = load_game("smallworld", seed=seed, players=2, islands="fixed")
        assert _islands_of(fixed) == ("stormcrest", "tidewrack")  # the set's layout


def test_every_draw_of_the_shipped_islands_passes_the_layout_checks() -> None:
    from warhorn.games.smallworld.board import load_board_set, possible_draws

    board_set = load_board_set("islands")
    for players in (2, 3, 4, 5):
        draws = possible_draws(board_set.islands, game_numbers().sizes_for(players), board_set.set.islands)
        assert len(draws) == {2: 4, 3: 8, 4: 4, 5: 2}[players]
        for draw in draws:
            board = board_set.board(players, draw)
            assert sum(r.place_slot for r in board.regions) == players
            assert board.murloc_total <= 15 and board.mountain_total <= 10


def test_a_draw_over_the_supply_is_refused_on_set_toml(user_folder: Path) -> None:
    # frostwatch is in no 5-player layout, but a 5-player draw may take it instead of mossgloom
    _edit(user_folder / "boards" / "mine" / "frostwatch.toml", "murlocs = 0", "murlocs = 1")
    errors = check_boards(user_folder)
    assert len(errors) == 1, [str(e) for e in errors]
    assert errors[0].file.endswith("set.toml") and errors[0].key.startswith("islands (drawn for 5 players")
    assert "need 16 tokens" in errors[0].message


def test_drawn_islands_round_trip_through_positions_and_bad_ones_are_refused() -> None:
    from warhorn.engine import load_game
    from warhorn.games.smallworld.position import position_from, to_position

    state = load_game("smallworld", seed=3, players=3)
    data = to_position(state)
    assert data["board"]["islands"] == list(_islands_of(state))
    assert _islands_of(position_from(data)) == _islands_of(state)
    with pytest.raises(ContentError, match="2 players play on 1 large \\+ 1 small islands"):
        position_from(
            {**data, "board": {"set": "islands", "players": 2, "islands": ["stormcrest", "emberfall"]}}
        )
    with pytest.raises(ContentError, match="no island 'atlantis'"):
        load_board("islands", 2, islands=["atlantis", "duskmire"])
