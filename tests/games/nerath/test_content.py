"""The Nerath content loader: the shipped content loads, and every cross-reference check fires.

Each broken-content test copies the shipped folder into ``tmp_path``, breaks
one file by a text substitution, and checks that the loader names the right
file and key.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warhorn.engine.errors import ContentError, ContentErrors
from warhorn.engine.graph import BoardGraph
from warhorn.games.nerath.content import (
    CONTENT_FILES,
    NERATH_CONTENT_SUPPORT,
    SHIPPED_CONTENT_DIR,
    NerathContent,
    check_content_folder,
    content_files,
    load_nerath_content,
)
from warhorn.games.nerath.effects_vocabulary import EFFECT_OPS, TIMINGS, effect_problems


@pytest.fixture(scope="module")
def shipped() -> NerathContent:
    return load_nerath_content()


def copy_shipped(folder: Path) -> Path:
    for role in CONTENT_FILES:
        shutil.copy(SHIPPED_CONTENT_DIR / f"{role}.toml", folder / f"{role}.toml")
    return folder


def break_file(folder: Path, role: str, old: str, new: str, count: int = 1) -> Path:
    """Copy the shipped content into ``folder`` and replace ``old`` by ``new`` in ``role``.toml."""
    copy_shipped(folder)
    path = folder / f"{role}.toml"
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test set-up: {old!r} not in {role}.toml"
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    return folder


def append(folder: Path, role: str, extra: str) -> Path:
    copy_shipped(folder)
    path = folder / f"{role}.toml"
    path.write_text(path.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return folder


def find(errors: list[ContentError], file: str, key_part: str, message_part: str) -> ContentError:
    """The error in ``file`` whose key and message contain the given parts; fails listing all errors."""
    for error in errors:
        if Path(error.file).name == file and key_part in error.key and message_part in error.message:
            return error
    listing = "\n".join(str(e) for e in errors) or "(no errors)"
    raise AssertionError(
        f"no error in {file} with key ~{key_part!r} and message ~{message_part!r}:\n{listing}"
    )


# --- the shipped content ---------------------------------------------------------------------


def test_shipped_content_loads_cleanly(shipped: NerathContent) -> None:
    assert check_content_folder(None) == []
    assert len(shipped.content_hash) == 16
    assert set(shipped.files) == set(CONTENT_FILES)


def test_every_shipped_item_says_where_it_comes_from(shipped: NerathContent) -> None:
    items = [
        *shipped.kingdoms,
        *shipped.spaces,
        *shipped.borders,
        *shipped.impassable,
        *shipped.setup,
        *shipped.guardians,
        *shipped.treasures,
        *shipped.events,
    ]
    for item in items:
        assert item.source == "original" or item.source.startswith("fact: ")


def test_graph_carries_kind_and_properties(shipped: NerathContent) -> None:
    graph = shipped.graph()
    assert isinstance(graph, BoardGraph)
    assert graph is shipped.graph()  # built once
    assert len(graph) == len(shipped.spaces)
    capital = graph.space("mithralfast")
    assert capital.kind == "land"
    assert capital.props["kingdom"] == "nerath"
    assert capital.props["capital"] is True
    assert capital.props["name"] == "Mithralfast"
    assert capital.props["coastal"] is shipped.coastal("mithralfast")
    assert graph.space("gulf_of_kar").kind == "sea"
    assert graph.space("tomb_of_horrors").kind == "dungeon"
    assert len(graph.edges()) == len(shipped.borders)


def test_lookup_helpers(shipped: NerathContent) -> None:
    assert shipped.kingdom("vailin").capital == "vailindor"
    assert shipped.space("amil_forest").name == "Amil Forest"
    with pytest.raises(KeyError, match="unknown space"):
        shipped.space("atlantis")
    with pytest.raises(KeyError, match="unknown kingdom"):
        shipped.kingdom("elfland")
    assert len(shipped.event_deck("karkoth")) == 20
    assert len(shipped.treasure_deck()) == 30
    assert len(shipped.guardian_stack()) == 30
    assert shipped.treasure("horn_of_valhalla").vp >= 1
    assert shipped.event("veteran_warlord").kingdom == "nerath"
    assert shipped.guardian("medusa").first_strike
    assert set(shipped.territories_of("karkoth")) == {s.id for s in shipped.spaces if s.kingdom == "karkoth"}
    assert all(item.kingdom == "iron_circle" for item in shipped.setup_of("iron_circle"))


def test_content_support_for_the_cli() -> None:
    assert "board.toml" in NERATH_CONTENT_SUPPORT.marker_files
    assert NERATH_CONTENT_SUPPORT.check_folder(SHIPPED_CONTENT_DIR) == []
    assert isinstance(NERATH_CONTENT_SUPPORT.load_folder(None), NerathContent)


def test_shipped_effects_use_only_registered_ops_and_timings(shipped: NerathContent) -> None:
    for card in shipped.treasures:
        assert card.timing in TIMINGS
        for effect in (*card.power, *card.property):
            assert effect.op in EFFECT_OPS
            assert effect_problems(effect.op, effect.params, effect.when) == []
    for event in shipped.events:
        assert event.timing in TIMINGS
        for effect in event.effects:
            assert effect_problems(effect.op, effect.params, effect.when) == []


# --- content hash and user folders ---------------------------------------------------------


def test_content_hash_changes_when_a_file_changes(tmp_path: Path, shipped: NerathContent) -> None:
    copy_shipped(tmp_path)
    same = load_nerath_content(tmp_path)
    assert same.content_hash == shipped.content_hash
    guardians = tmp_path / "guardians.toml"
    guardians.write_text(guardians.read_text().replace('name = "Cave Bear"', 'name = "Cave Bear (worn)"'))
    changed = load_nerath_content(tmp_path)
    assert changed.content_hash != shipped.content_hash
    assert changed.guardian("cave_bear").name == "Cave Bear (worn)"


def test_user_folder_overrides_only_the_files_it_holds(tmp_path: Path) -> None:
    text = (SHIPPED_CONTENT_DIR / "treasures.toml").read_text()
    (tmp_path / "treasures.toml").write_text(text.replace('name = "Sunblade"', 'name = "Dawnblade"'))
    files = content_files(tmp_path)
    assert files["treasures"] == tmp_path / "treasures.toml"
    assert files["board"] == SHIPPED_CONTENT_DIR / "board.toml"
    content = load_nerath_content(tmp_path)
    assert content.treasure("sunblade").name == "Dawnblade"
    assert content.files["board"].endswith("board.toml")
    assert Path(content.files["treasures"]).parent == tmp_path
    assert content.content_hash != load_nerath_content().content_hash


def test_yaml_files_are_accepted_as_overrides(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    (tmp_path / "guardians.yaml").write_text(
        "guardians:\n"
        + "".join(f"  - {{id: g{i}, name: Guardian {i}, dice: [6], source: original}}\n" for i in range(30))
    )
    assert load_nerath_content(tmp_path).guardian("g7").dice == (6,)


def test_two_files_for_one_role_are_refused(tmp_path: Path) -> None:
    copy_shipped(tmp_path)
    (tmp_path / "board.yaml").write_text("kingdoms: []\n")
    find(check_content_folder(tmp_path), tmp_path.name, "board", "several files")


def test_a_folder_without_content_files_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello")
    find(check_content_folder(tmp_path), tmp_path.name, "(folder)", "none of the content files")
    errors = check_content_folder(tmp_path / "missing")
    find(errors, "missing", "(folder)", "not a folder")


# --- schema errors -------------------------------------------------------------------------------


def test_syntax_error_names_the_file(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", "setup = [", "setup = [[[")
    find(check_content_folder(tmp_path), "setup.toml", "(syntax)", "")


def test_missing_field_names_file_and_key(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", 'name = "Medusa"\n', "")
    find(check_content_folder(tmp_path), "guardians.toml", "guardians[0] (id medusa).name", "required")


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", 'name = "Medusa"\n', 'name = "Medusa"\ngaze = true\n')
    find(check_content_folder(tmp_path), "guardians.toml", "guardians[0] (id medusa).gaze", "")


def test_dishonest_source_is_refused(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", 'source = "original"', 'source = "made up"')
    find(check_content_folder(tmp_path), "guardians.toml", ".source", "original")


def test_space_kind_must_be_land_sea_or_dungeon(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'kind = "sea"', 'kind = "swamp"')
    find(check_content_folder(tmp_path), "board.toml", ".kind", "")


def test_errors_from_several_files_are_reported_together(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", 'name = "Medusa"\n', "")
    events = tmp_path / "events.toml"
    events.write_text(events.read_text().replace('name = "Bone Levy"\n', "", 1))
    errors = check_content_folder(tmp_path)
    find(errors, "guardians.toml", "name", "required")
    find(errors, "events.toml", "name", "required")


# --- board cross-references ---------------------------------------------------------------------


def test_duplicate_space_id(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'id = "black_tor"', 'id = "bonewind_steppe"')
    errors = check_content_folder(tmp_path)
    find(errors, "board.toml", "spaces.bonewind_steppe", "duplicate space id")


def test_duplicate_kingdom_and_unknown_kingdom_set(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'id = "vailin"', 'id = "karkoth"')
    errors = check_content_folder(tmp_path)
    find(errors, "board.toml", "kingdoms.karkoth", "duplicate kingdom id")
    find(errors, "board.toml", "kingdoms", "must be exactly")


def test_border_naming_an_unknown_space(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'b = "black_tor"', 'b = "black_torr"')
    find(
        check_content_folder(tmp_path),
        "board.toml",
        "borders[0] (bonewind_steppe - black_torr)",
        "unknown space",
    )


def test_border_to_an_impassable_area_is_explained(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'b = "black_tor"', 'b = "shardfang_peaks"')
    find(check_content_folder(tmp_path), "board.toml", "borders[0]", "impassable areas are not part")


def test_border_listed_twice_in_either_direction(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "board",
        "borders = [\n",
        'borders = [\n  { a = "black_tor", b = "bonewind_steppe", source = "original" },\n',
    )
    find(
        check_content_folder(tmp_path),
        "board.toml",
        "borders[1] (bonewind_steppe - black_tor)",
        "listed twice",
    )


def test_self_border(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'b = "black_tor"', 'b = "bonewind_steppe"')
    find(check_content_folder(tmp_path), "board.toml", "borders[0]", "cannot border itself")


@pytest.mark.rule("NER-SET-02")
def test_capital_must_be_a_land_space_of_its_kingdom(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'capital = "vailindor"', 'capital = "kharavas"')
    errors = check_content_folder(tmp_path)
    find(errors, "board.toml", "kingdoms[1] (id vailin).capital", "land space of vailin")
    find(errors, "board.toml", "spaces[", "no kingdom names it")


def test_capital_naming_an_unknown_space(tmp_path: Path) -> None:
    break_file(tmp_path, "board", 'capital = "vailindor"', 'capital = "elvenhome"')
    find(check_content_folder(tmp_path), "board.toml", "kingdoms[1] (id vailin).capital", "unknown space")


@pytest.mark.rule("NER-MAP-01")
def test_dungeon_entrance_owned_by_a_kingdom(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "board",
        'name = "Tomb of Horrors"\nkind = "dungeon"\n',
        'name = "Tomb of Horrors"\nkind = "dungeon"\nkingdom = "vailin"\n',
    )
    find(check_content_folder(tmp_path), "board.toml", "(id tomb_of_horrors).kingdom", "owned by no one")


@pytest.mark.rule("NER-MAP-01")
def test_board_needs_ten_dungeon_entrances(tmp_path: Path) -> None:
    break_file(
        tmp_path, "board", 'name = "Gloomspire"\nkind = "dungeon"', 'name = "Gloomspire"\nkind = "sea"'
    )
    find(check_content_folder(tmp_path), "board.toml", "spaces", "10 dungeon entrances")


@pytest.mark.rule("NER-SET-04")
def test_base_income_must_equal_starting_territories(tmp_path: Path) -> None:
    break_file(tmp_path, "board", "base_income = 13", "base_income = 12")
    find(check_content_folder(tmp_path), "board.toml", "kingdoms[1] (id vailin).base_income", "13 starting")


@pytest.mark.rule("NER-MAP-02")
def test_disconnected_board(tmp_path: Path) -> None:
    # Winterskull Lands is an island reached only by sea: cut its four sea borders.
    folder = copy_shipped(tmp_path)
    board = folder / "board.toml"
    lines = [ln for ln in board.read_text().splitlines() if '"winterskull_lands"' not in ln or "id =" in ln]
    board.write_text("\n".join(lines) + "\n")
    errors = check_content_folder(folder)
    find(errors, "board.toml", "borders", "not connected")
    find(errors, "board.toml", "spaces.winterskull_lands", "borders nothing")


# --- setup cross-references ----------------------------------------------------------------------


SETUP_LINE = (
    '{ kingdom = "karkoth", space = "bonewind_steppe", piece = "soldier", count = 1, source = "original" }'
)


def test_setup_on_an_unknown_space(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", 'space = "bonewind_steppe"', 'space = "bonewind"')
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "unknown space 'bonewind'")


def test_setup_with_unknown_piece_or_kingdom(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE.replace('"soldier"', '"zombie"'))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "unknown piece 'zombie'")
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE.replace('kingdom = "karkoth"', 'kingdom = "orcs"'))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "unknown kingdom 'orcs'")


@pytest.mark.rule("NER-SET-06")
def test_setup_on_another_kingdoms_territory(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE.replace("bonewind_steppe", "vailindor"))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "not a starting territory of karkoth")


@pytest.mark.rule("NER-SET-06")
def test_setup_on_a_dungeon_entrance(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE.replace("bonewind_steppe", "black_lantern_crypt"))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "dungeon entrance")


def test_land_pieces_cannot_start_at_sea(tmp_path: Path) -> None:
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE.replace("bonewind_steppe", "krakens_reach"))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "cannot start at sea")


def test_warships_start_at_sea_next_to_their_kingdom(tmp_path: Path) -> None:
    line = SETUP_LINE.replace('"soldier"', '"warship"')
    break_file(tmp_path, "setup", SETUP_LINE, line)
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "never stands on land")
    break_file(tmp_path, "setup", SETUP_LINE, line.replace("bonewind_steppe", "pale_deep"))
    find(check_content_folder(tmp_path), "setup.toml", "setup[0]", "next to a starting territory of karkoth")
    break_file(tmp_path, "setup", SETUP_LINE, line.replace("bonewind_steppe", "frostwater"))
    assert check_content_folder(tmp_path) == []


@pytest.mark.rule("NER-SET-06")
def test_two_kingdoms_never_start_on_one_space(tmp_path: Path) -> None:
    vailin_at_sea = (
        '{ kingdom = "vailin", space = "gulf_of_kar", piece = "warship", count = 1, source = "original" }'
    )
    break_file(tmp_path, "setup", SETUP_LINE, SETUP_LINE + ",\n" + vailin_at_sea)
    errors = check_content_folder(tmp_path)
    error = find(errors, "setup.toml", "karkoth 2 warship", "already holds vailin's pieces")
    assert "gulf_of_kar" in error.message


def test_the_cli_recognises_a_nerath_content_folder() -> None:
    from typer.testing import CliRunner

    from warhorn.cli.app import app

    result = CliRunner().invoke(app, ["content", "check", str(SHIPPED_CONTENT_DIR)])
    assert result.exit_code == 0, result.output
    assert "nerath content" in result.output and "valid" in result.output


@pytest.mark.rule("NER-PCS-05")
def test_at_most_one_castle_per_territory(tmp_path: Path) -> None:
    break_file(
        tmp_path, "setup", SETUP_LINE, SETUP_LINE + ",\n" + SETUP_LINE.replace('"soldier"', '"castle"')
    )
    assert check_content_folder(tmp_path) == []  # one castle is fine
    break_file(
        tmp_path,
        "setup",
        SETUP_LINE,
        SETUP_LINE + ",\n" + SETUP_LINE.replace('"soldier", count = 1', '"castle", count = 2'),
    )
    find(check_content_folder(tmp_path), "setup.toml", "setup (bonewind_steppe)", "at most one")


# --- guardians -----------------------------------------------------------------------------------


@pytest.mark.rule("NER-DUN-03")
def test_guardian_dice_must_be_game_dice(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", "dice = [20]", "dice = [7]")
    find(check_content_folder(tmp_path), "guardians.toml", "guardians[0] (id medusa).dice", "not game dice")
    break_file(tmp_path, "guardians", "dice = [20]", "dice = []")
    find(
        check_content_folder(tmp_path), "guardians.toml", "guardians[0] (id medusa).dice", "at least one die"
    )


def test_hero_hit_minimum_is_6_7_or_8(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", "hero_hit_min = 7", "hero_hit_min = 9")
    find(check_content_folder(tmp_path), "guardians.toml", "(id troll).hero_hit_min", "6, 7 or 8")


@pytest.mark.rule("NER-SET-06")
def test_thirty_guardian_tiles(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", "copies = 3", "copies = 4")
    find(check_content_folder(tmp_path), "guardians.toml", "guardians", "add up to 31")


def test_duplicate_guardian_id(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", 'id = "troll"', 'id = "medusa"')
    find(check_content_folder(tmp_path), "guardians.toml", "guardians.medusa", "duplicate")


# --- treasures and events ------------------------------------------------------------------------


def test_unknown_effect_op(tmp_path: Path) -> None:
    break_file(tmp_path, "treasures", 'op = "gain_gold"', 'op = "summon_gold"')
    find(
        check_content_folder(tmp_path),
        "treasures.toml",
        "(id crown_of_the_fallen_king).power[0]",
        "unknown effect op",
    )


def test_unknown_timing_window(tmp_path: Path) -> None:
    break_file(tmp_path, "events", 'timing = "movement"', 'timing = "lunch"')
    find(
        check_content_folder(tmp_path),
        "events.toml",
        "(id march_of_the_dead).timing",
        "unknown timing window",
    )
    break_file(tmp_path, "treasures", 'when = "start_of_turn"', 'when = "dawn"')
    find(
        check_content_folder(tmp_path),
        "treasures.toml",
        "(id horn_of_valhalla).property[0]",
        "unknown timing",
    )


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("count = 3, where", "count = 3, colour = 1, where", "no parameter 'colour'"),
        ("count = 3, where", "count = true, where", "expected a whole number"),
        ("count = 3, where", "count = 300, where", "outside"),
        ('where = "friendly_territory", together', 'where = "the moon", together', "is not one of"),
        ('piece = "soldier", count = 3', 'piece = "ent", count = 3', "unknown piece 'ent'"),
        (
            'piece = "soldier", count = 3, where = "friendly_territory", ',
            "count = 3, ",
            "needs parameter 'piece'",
        ),
        ("together = true", 'together = "yes"', "expected true or false"),
    ],
)
def test_bad_effect_parameters(tmp_path: Path, old: str, new: str, message: str) -> None:
    break_file(tmp_path, "treasures", old, new)
    find(check_content_folder(tmp_path), "treasures.toml", "(id horn_of_valhalla).power[0]", message)


def test_piece_filter_accepts_groups_but_not_nonsense(tmp_path: Path) -> None:
    break_file(tmp_path, "events", 'piece = "soldier", moves = 1', 'piece = "hero", moves = 1')
    assert check_content_folder(tmp_path) == []
    break_file(tmp_path, "events", 'piece = "soldier", moves = 1', 'piece = "heroes", moves = 1')
    find(
        check_content_folder(tmp_path),
        "events.toml",
        "(id march_of_the_dead).effects[0]",
        "unknown piece or group",
    )


def test_treasure_needs_a_power_or_a_property(tmp_path: Path) -> None:
    break_file(tmp_path, "treasures", 'power = [{ op = "gain_gold", params = { amount = 5 } }]\n', "")
    find(
        check_content_folder(tmp_path), "treasures.toml", "(id crown_of_the_fallen_king)", "power, a property"
    )


def test_treasure_vp_at_most_3(tmp_path: Path) -> None:
    break_file(tmp_path, "treasures", "vp = 3", "vp = 4")
    find(check_content_folder(tmp_path), "treasures.toml", ".vp", "")


@pytest.mark.rule("NER-CRD-02")
def test_thirty_treasure_cards(tmp_path: Path) -> None:
    append(
        tmp_path,
        "treasures",
        '[[treasures]]\nid = "spare"\nname = "Spare"\nvp = 1\ntiming = "own_turn"\ntext = "x"\n'
        'power = [{ op = "gain_gold", params = { amount = 1 } }]\nsource = "original"\n',
    )
    find(check_content_folder(tmp_path), "treasures.toml", "treasures", "add up to 31")


@pytest.mark.rule("NER-SET-06")
def test_twenty_event_cards_per_kingdom(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "events",
        'kingdom = "karkoth"\nname = "March of the Dead"\ncopies = 3',
        'kingdom = "karkoth"\nname = "March of the Dead"\ncopies = 2',
    )
    find(check_content_folder(tmp_path), "events.toml", "events (karkoth)", "karkoth has 19")


def test_event_with_unknown_kingdom_or_duplicate_id(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "events",
        'id = "bone_levy"\nkingdom = "karkoth"',
        'id = "march_of_the_dead"\nkingdom = "orcs"',
    )
    errors = check_content_folder(tmp_path)
    find(errors, "events.toml", "events.march_of_the_dead", "duplicate event card id")
    find(errors, "events.toml", ".kingdom", "unknown kingdom 'orcs'")


def test_event_needs_an_effect(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "events",
        'effects = [{ op = "gain_gold", params = { amount = 2 } }]',
        "effects = []",
    )
    find(check_content_folder(tmp_path), "events.toml", "(id grave_tax).effects", "at least one effect")


def test_load_raises_content_errors_with_every_mistake(tmp_path: Path) -> None:
    break_file(tmp_path, "guardians", "dice = [20]", "dice = [7]")
    setup = tmp_path / "setup.toml"
    setup.write_text(setup.read_text().replace('space = "bonewind_steppe"', 'space = "nowhere"'))
    with pytest.raises(ContentErrors) as info:
        load_nerath_content(tmp_path)
    files = {Path(e.file).name for e in info.value.errors}
    assert files == {"guardians.toml", "setup.toml"}


# --- the documentation's worked example ----------------------------------------------------------

DOC = Path(__file__).resolve().parents[3] / "docs" / "content-format.md"


def doc_example_files() -> dict[str, str]:
    """The files of the worked example: each ```toml block preceded by ``<!-- example: NAME -->``."""
    files: dict[str, str] = {}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("<!-- example: "):
            name = line.removeprefix("<!-- example: ").removesuffix(" -->").strip()
            assert lines[i + 1] == "```toml"
            end = lines.index("```", i + 2)
            files[name] = "\n".join(lines[i + 2 : end]) + "\n"
    return files


def test_doc_worked_example_loads_as_a_small_board(tmp_path: Path) -> None:
    files = doc_example_files()
    assert set(files) == {"board.toml", "setup.toml"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    small = load_nerath_content(tmp_path, full_game=False)
    assert len(small.spaces) == 11
    graph = small.graph()
    assert not graph.adjacent("ash_fields", "cinder_hills")
    assert small.coastal("ash_fields") and not small.coastal("silver_glade")
    # Guardians, treasures and events fall back to the shipped files.
    assert Path(small.files["events"]).parent == SHIPPED_CONTENT_DIR
    # The full check refuses it for exactly the reason the document gives.
    errors = check_content_folder(tmp_path)
    assert len(errors) == 1
    find(errors, "board.toml", "spaces", "10 dungeon entrances (NER-MAP-01); found 1")


def test_doc_lists_every_effect_op_and_timing() -> None:
    text = DOC.read_text(encoding="utf-8")
    for op in EFFECT_OPS:
        assert f"| `{op}` |" in text, op
    for timing in TIMINGS:
        assert f"| `{timing}` |" in text, timing


def test_checks_run_on_content_built_in_code(shipped: NerathContent) -> None:
    from warhorn.games.nerath.content import SetupDef, check_nerath_content

    assert check_nerath_content(shipped) == []
    bad = shipped.model_copy(
        update={
            "setup": (
                *shipped.setup,
                SetupDef(kingdom="nerath", space="vailindor", piece="soldier", count=1, source="original"),
            )
        }
    )
    errors = check_nerath_content(bad)
    find(errors, "setup.toml", "@ vailindor", "not a starting territory of nerath")
    small = shipped.model_copy(update={"guardians": shipped.guardians[:2]})
    assert check_nerath_content(small, full_game=False) == []
    find(check_nerath_content(small), "guardians.toml", "guardians", "30 guardian tiles")


def test_play_immediately_goes_with_the_immediately_timing(tmp_path: Path) -> None:
    break_file(
        tmp_path,
        "events",
        'timing = "immediately"\nplay_immediately = true',
        'timing = "own_turn"\nplay_immediately = true',
    )
    find(check_content_folder(tmp_path), "events.toml", "(id dread_tide).play_immediately", "timing")


def test_shipped_content_is_read_once_per_version_of_its_files() -> None:
    from warhorn.engine import load_game
    from warhorn.games.nerath import game as nerath_game

    first, second = load_game("nerath", seed=1), load_game("nerath", seed=2)
    assert first.board is second.board  # type: ignore[attr-defined]
    stamp, content = nerath_game._SHIPPED[0]
    nerath_game._SHIPPED[0] = ((("stale", 0, 0),), content)  # as if a file had changed since
    third = load_game("nerath", seed=3)
    assert nerath_game._SHIPPED[0][0] == stamp and nerath_game._SHIPPED[0][1] is not content
    assert third.content_hash == first.content_hash  # type: ignore[attr-defined]
