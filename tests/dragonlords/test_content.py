"""The DragonLords content files: the shipped set loads and cross-checks, and a user's folder with a
mistake is refused with every mistake named by file and key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warhorn.engine.errors import ContentErrors
from warhorn.games.dragonlords.content import (
    CONTENT_FILES,
    DATA_DIR,
    check_content_folder,
    load_dragonlords_content,
    shipped_content,
)


def test_shipped_content_loads_with_the_box_numbers() -> None:
    content = shipped_content()
    assert set(content.peoples) == {"orcs", "elves", "dwarves", "barbarians", "amazons", "necromancers"}
    assert len(content.shards) == 9
    assert len(content.quests) == 12
    assert len(content.deck(expansion=False)) == 24  # the base game's 24 scroll cards (research C.2)
    assert len(content.deck()) == 36
    assert [content.start_units(n) for n in (2, 3, 4, 5, 6)] == [40, 35, 30, 25, 25]
    assert content.game.start_gold == 25


def test_every_item_records_its_source() -> None:
    content = shipped_content()
    items = [
        *content.peoples.values(),
        *content.spells.values(),
        *content.cards.values(),
        *content.shards.values(),
        *content.monsters.values(),
        *content.items.values(),
        *content.quests.values(),
    ]
    assert all(item.source == "original" or item.source.startswith("fact: ") for item in items)


def test_prices_follow_each_people() -> None:
    peoples = shipped_content().peoples
    assert peoples["orcs"].price(4) == 10  # 4 Orcs for 10 gold (research C.3)
    assert peoples["orcs"].price(9) == 23  # two lots of 4 and one single Orc
    assert peoples["barbarians"].price(3) == 12  # Barbarians pay 4 a unit
    assert peoples["elves"].price(3) == 9


@pytest.mark.rule("DLX-AMZ-01")
@pytest.mark.rule("DLX-NEC-01")
def test_expansion_peoples_spells_are_the_seeds() -> None:
    peoples = shipped_content().peoples
    assert peoples["amazons"].spells[:2] == ("heal", "petrifying_gaze")
    assert peoples["amazons"].king_spells == ("command", "rapture")
    assert peoples["necromancers"].spells[:2] == ("poison", "bloodlust")
    assert peoples["necromancers"].king_spells == ("command", "necromantic")
    assert peoples["orcs"].king_spells == ("hope", "heal")
    assert set(peoples["amazons"].spells[2:]) == {"teleport", "command", "lure", "rapture"}
    assert set(peoples["necromancers"].spells[2:]) == {"teleport", "command", "death", "necromantic"}


def test_starting_cards_depend_on_the_player_count_and_option() -> None:
    content = shipped_content()
    assert content.start_cards(4, starting_scrolls=1) == 1
    assert content.start_cards(3, starting_scrolls=2) == 2
    assert content.start_cards(6, starting_scrolls=1) == 3


@pytest.mark.rule("DLX-OPT-03")
def test_optional_rule_removes_overpowered_cards_from_the_deck() -> None:
    content = shipped_content()
    deck = content.deck(leave_out=frozenset({"death_seeker", "summon_earth_elemental"}))
    assert "death_seeker" not in deck and "summon_earth_elemental" not in deck
    assert len(deck) == 36 - 2 - 1


@pytest.mark.rule("DLR-SET-07")
def test_crystal_die_has_two_faces_of_each_kind() -> None:
    faces = shipped_content().game.crystal_die.faces
    assert sorted(faces) == ["blessed", "blessed", "cursed", "cursed", "ignored", "ignored"]


def _copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    for name in CONTENT_FILES:
        shutil.copy(DATA_DIR / name, folder / name)
    return folder


def test_a_users_folder_with_a_bad_reference_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    folder = _copy_data(tmp_path)
    shards = folder / "shards.toml"
    shards.write_text(shards.read_text().replace('spell = "fireball"', 'spell = "firebal"'))
    quests = folder / "quests.toml"
    quests.write_text(quests.read_text().replace('monster = "ice_worm"', 'monster = "ice_wyrm"'))
    with pytest.raises(ContentErrors) as caught:
        load_dragonlords_content(folder)
    messages = [(Path(e.file).name, e.key, e.message) for e in caught.value.errors]
    assert ("shards.toml", "shards[1].spell", "unknown spell 'firebal'") in messages
    assert ("quests.toml", "quests[0].cursed.monster", "unknown monster 'ice_wyrm'") in messages


def test_schema_errors_name_the_key_and_a_missing_source_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "items.toml").write_text(
        '[[items]]\nid = "potion"\nname = "Potion"\neffect = "heal_one"\n'
        'rule = "DLR-ITM-01"\nsource = "made up"\n'
    )
    errors = check_content_folder(folder)
    assert errors and all(Path(e.file).name == "items.toml" for e in errors)
    assert any(e.key.startswith("items[0]") and e.key.endswith(".source") for e in errors)


def test_a_partial_folder_takes_the_rest_from_the_shipped_set(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    game = (DATA_DIR / "game.toml").read_text().replace("start_gold = 25", "start_gold = 30")
    (folder / "game.toml").write_text(game)
    content = load_dragonlords_content(folder)
    assert content.game.start_gold == 30
    assert len(content.quests) == 12
    assert content.content_hash != shipped_content().content_hash


def test_a_folder_with_no_content_is_refused(tmp_path: Path) -> None:
    errors = check_content_folder(tmp_path)
    assert len(errors) == 1 and errors[0].key == "(folder)"
