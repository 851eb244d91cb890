"""The DragonLords world: the shipped original world loads flat and wrapped, its counts, symmetric
and geometry-derived adjacency, reachability, and a user's own transcription through a content
folder, with one-line file/key errors for bad files."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from warhorn.engine.errors import ContentErrors
from warhorn.games.dragonlords import world_design
from warhorn.games.dragonlords.world import (
    SHIPPED_WORLD_DIR,
    WORLD_FILE,
    check_world,
    drawn_borders,
    load_world,
)


def test_shipped_world_counts() -> None:
    world = load_world()
    kinds = Counter(s.kind for s in world.spaces)
    assert kinds == {"territory": 44, "sea": 16, "wastelands": 16}
    assert {r.people for r in world.realms} == {
        "orcs",
        "elves",
        "dwarves",
        "barbarians",
        "amazons",
        "necromancers",
    }
    for realm in world.realms:
        assert sum(1 for s in world.territories_of(realm.id) if s.kingdom) == 1
        assert any(s.mine for s in world.territories_of(realm.id))
    assert len(world.portals()) == 3
    assert sum(1 for s in world.spaces if s.island) == 4
    assert sum(1 for s in world.spaces if s.land_bridge) == 2
    assert [t for t, _ in world.tracks] == ["north", "south"]
    for track, _ in world.tracks:
        assert [s.track_index for s in world.track_squares(track)] == list(range(8))
    features = Counter(s.feature for s in world.spaces if s.feature)
    assert features["village"] == features["witch"] == features["shrine"] == features["dragons_lair"] == 1
    assert features["village_harbour"] == 1 and features["pass"] == 2 and features["quest"] == 8
    assert world.source == "original" and all(s.source == "original" for s in world.spaces)
    assert not world.wraps_vertically


def test_adjacency_is_symmetric_and_everything_is_reachable() -> None:
    for wrap in (False, True):
        world = load_world(wrap=wrap)
        for space in world.spaces:
            for n in space.neighbours:
                assert space.id in world.space(n).neighbours
        graph = world.graph
        assert len(graph) == len(world.spaces)
        first = world.spaces[0].id
        assert all(graph.distance(first, s.id) is not None for s in world.spaces)


def test_borders_are_the_drawing_and_the_file_is_the_generator_output() -> None:
    world = load_world()
    drawn = drawn_borders({s.id: s.polygon for s in world.spaces})
    listed = {frozenset((s.id, n)) for s in world.spaces for n in s.neighbours}
    assert drawn | {frozenset(("sea_eastwater", "sea_westwater"))} == listed  # plus the strait
    assert (SHIPPED_WORLD_DIR / WORLD_FILE).read_text() == world_design.world_toml()


def test_wastelands_touch_only_their_track_entry_village_and_lair() -> None:
    world = load_world()
    for square in (s for s in world.spaces if s.kind == "wastelands"):
        outside = [world.space(n) for n in square.neighbours if world.space(n).kind != "wastelands"]
        if square.feature == "village":
            assert {s.kind for s in outside} == {"territory", "sea"}
        elif square.feature == "dragons_lair":
            assert outside and all(s.feature == "pass" for s in outside)
        elif square.track_index == 0:
            assert [s.kind for s in outside] == ["territory"]
        else:
            assert outside == []


@pytest.mark.rule("DLR-MOV-04")
def test_wrap_adds_top_bottom_adjacencies_of_the_same_kind() -> None:
    flat, wrapped = load_world(), load_world(wrap=True)
    assert wrapped.wraps_vertically
    flat_pairs = {frozenset((s.id, n)) for s in flat.spaces for n in s.neighbours}
    wrap_pairs = {frozenset((s.id, n)) for s in wrapped.spaces for n in s.neighbours} - flat_pairs
    by_kind = Counter(next(iter({wrapped.space(x).kind for x in p})) for p in wrap_pairs)
    assert by_kind == {"territory": 3, "sea": 3}  # FAQ 3: three top-edge territories, and the seas
    for pair in wrap_pairs:
        a, b = (wrapped.space(x) for x in pair)
        assert a.kind == b.kind
        tops = sorted((min(y for _, y in s.polygon), max(y for _, y in s.polygon)) for s in (a, b))
        assert tops[0][0] == 0.0 and tops[1][1] == wrapped.height  # one on the top edge, one on the bottom
    assert frozenset(("skullcrag", "serpent_bay")) in wrap_pairs
    # a naval move crosses the edge in one step only when wrapped
    assert flat.sea_distance("sea_frostbight", "sea_serpent") == 3
    assert wrapped.sea_distance("sea_frostbight", "sea_serpent") == 1


def _own_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "content"
    (folder / "world").mkdir(parents=True)
    shutil.copy(SHIPPED_WORLD_DIR / WORLD_FILE, folder / "world" / WORLD_FILE)
    return folder


def _edit(folder: Path, old: str, new: str, count: int = 1) -> None:
    path = folder / "world" / WORLD_FILE
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, count))


def test_own_transcription_loads_through_a_content_folder(tmp_path: Path) -> None:
    folder = _own_folder(tmp_path)
    _edit(folder, 'name = "The Sundered Realms"', 'name = "My transcription"')
    world = load_world(folder)
    assert world.name == "My transcription"
    assert check_world(folder) == []
    assert load_world(tmp_path).name == "The Sundered Realms"  # no world/ folder: the shipped one


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('["anvilgate", "hammerdeep"]', '["anvilgate", "hammerdep"]', "unknown space 'hammerdep'"),
        (
            '["anvilgate", "hammerdeep"],',
            '["anvilgate", "hammerdeep"],\n  ["hammerdeep", "anvilgate"],',
            "listed twice",
        ),
        ('["anvilgate", "hammerdeep"],', "", "share an outline in the drawing but no border is listed"),
        ("kingdom = true", "kingdom = false", "0 Kingdom territories"),
        ("portal = true", "portal = false", "2 portal territories"),
        ("track_index = 3", "track_index = 4", "expected 0..7"),
        ('people = "orcs"', 'people = "goblins"', "unknown people 'goblins'"),
        ("polygon = [[50, 0], [200, 0]", "polygon = [[50, 0], [200, 50], [200, 0]", "not a simple polygon"),
        (
            '["sea_eastwater", "sea_westwater"]',
            '["sea_eastwater", "sea_tor"]',
            "both territories of a land bridge",
        ),
    ],
)
def test_bad_world_files_give_one_line_file_key_errors(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    folder = _own_folder(tmp_path)
    _edit(folder, old, new)
    errors = check_world(folder)
    assert errors, "the mistake was not found"
    text = [str(e) for e in errors]
    assert any(message in line for line in text), text
    for line in text:
        assert "\n" not in line and "world.toml" in line
    with pytest.raises(ContentErrors):
        load_world(folder)


def test_unreachable_space_is_named(tmp_path: Path) -> None:
    folder = _own_folder(tmp_path)
    path = folder / "world" / WORLD_FILE
    data = tomllib.loads(path.read_text())
    # cut the Pearl Atoll off: drop its borders and say they need no drawing
    text = path.read_text()
    text = re.sub(r'\n  \["[a-z_]*", "pearl_atoll"\],|\n  \["pearl_atoll", "[a-z_]*"\],', "", text)
    text = text.replace("height = 750", "height = 750\nborders_from_geometry = false")
    path.write_text(text)
    assert "pearl_atoll" in {s["id"] for s in data["spaces"]}
    assert any("unreachable" in str(e) and "pearl_atoll" in str(e) for e in check_world(folder))


@pytest.mark.rule("DLR-NAV-05")
def test_the_strait_under_the_land_bridge_joins_the_two_oceans() -> None:
    world = load_world()
    assert "sea_westwater" in world.space("sea_eastwater").neighbours
    seas = [s.id for s in world.spaces if s.kind == "sea"]
    assert all(world.sea_distance(a, b) is not None for a in seas for b in seas)
    bridge = {s.id for s in world.spaces if s.land_bridge}
    assert bridge <= set(world.space("sea_westwater").neighbours) & set(
        world.space("sea_eastwater").neighbours
    )
