"""Defenders of the Realm content: the shipped data and every cross-reference check."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from warhorn.engine import BoardGraph, ContentError, ContentErrors
from warhorn.games.defenders.content import (
    DATA_DIR,
    DarknessCard,
    DefendersContent,
    General,
    Hero,
    HeroCard,
    Location,
    Quest,
    SpecialCard,
    card_id_of,
    card_instances,
    load_defenders_content,
)


@pytest.fixture(scope="module")
def content() -> DefendersContent:
    return load_defenders_content()


# --- the shipped content ---------------------------------------------------------------------------


def test_default_folder_is_the_shipped_data(content: DefendersContent) -> None:
    assert content.folder == DATA_DIR
    assert load_defenders_content(DATA_DIR).content_hash == content.content_hash


def test_board_counts_match_the_research(content: DefendersContent) -> None:
    assert len(content.locations) == 45
    colours = Counter(loc.colour for loc in content.locations.values())
    assert colours == {"green": 11, "red": 10, "black": 10, "blue": 10, "purple": 4}
    assert len(content.connections) == 74
    assert sorted(content.inns) == ["chimera_inn", "eagle_nest_inn", "gryphon_inn"]
    assert content.monarch_city == "monarch_city"
    chests = sorted(loc.id for loc in content.locations.values() if loc.treasure_chest)
    assert chests == [
        "bounty_bay",
        "land_of_amazons",
        "mccorm_highlands",
        "mermaid_harbor",
        "monarch_city",
        "pleasant_hill",
        "seabird_port",
    ]


def test_monarch_city_and_inns_are_wired_as_the_research_says(content: DefendersContent) -> None:
    graph = content.graph()
    assert sorted(graph.neighbors_of("monarch_city")) == [
        "bounty_bay",
        "dancing_stone",
        "father_oak_forest",
        "greenleaf_village",
        "orc_valley",
        "wolf_pass",
    ]
    assert graph.neighbors_of("eagle_nest_inn") == ("enchanted_glade",)
    assert graph.neighbors_of("gryphon_inn") == ("gryphon_forest",)
    assert graph.neighbors_of("chimera_inn") == ("withered_hills",)
    # the single-source connections are left out (docs/defenders-content-choices.md)
    assert not graph.adjacent("orc_valley", "whispering_woods")
    assert not graph.adjacent("crystal_hills", "withered_hills")
    assert graph.adjacent("blood_flats", "brookdale_village")


def test_graph_is_a_connected_board_graph_with_drawing_props(content: DefendersContent) -> None:
    graph = content.graph()
    assert isinstance(graph, BoardGraph)
    assert graph is content.graph()
    assert len(graph) == 45 and graph.connected()
    assert graph.space("monarch_city").kind == "city"
    assert graph.space("gryphon_inn").kind == "inn"
    props = graph.space("dark_woods").props
    assert props["colour"] == "black" and props["name"] == "Dark Woods"
    for space in graph.spaces:
        assert 0 <= space.props["x"] <= 1000 and 0 <= space.props["y"] <= 700


def test_every_item_says_where_it_comes_from(content: DefendersContent) -> None:
    items = [
        *content.locations.values(),
        *content.locations_file.connections,
        *content.minions.values(),
        *content.generals.values(),
        *content.heroes.values(),
        *content.darkness_cards.values(),
        *content.hero_cards.values(),
        *content.special_cards.values(),
        *content.quests.values(),
    ]
    for item in items:
        assert item.source == "original" or item.source.startswith("fact: ")
        assert item.confidence in {"high", "medium", "low"}


@pytest.mark.rule("DEF-SET-01")
def test_generals_start_with_three_minions_and_balazarg_demons_taint(content: DefendersContent) -> None:
    starts = {g.id: g.start for g in content.generals.values()}
    assert starts == {
        "balazarg": "scorpion_canyon",
        "gorgutt": "thorny_woods",
        "varkolak": "dark_woods",
        "sapphire": "blizzard_mountains",
    }
    assert content.components.general_start_minions == 3
    balazarg = content.general("balazarg")
    assert content.minion(balazarg.colour).taints_with_three
    assert [m.colour for m in content.minions.values() if m.taints_with_three] == ["red"]


@pytest.mark.rule("DEF-SET-03")
def test_one_gate_on_dancing_stone_and_five_gate_tokens(content: DefendersContent) -> None:
    assert content.starting_gates == ("dancing_stone",)
    assert content.components.magic_gate_tokens == 5
    assert content.components.taint_crystals == 12


@pytest.mark.rule("DEF-ENM-01")
def test_four_factions_of_25_minions_each_with_their_general(content: DefendersContent) -> None:
    assert {c: m.supply for c, m in content.minions.items()} == {
        "red": 25,
        "green": 25,
        "black": 25,
        "blue": 25,
    }
    by_colour = {g.colour: g.name for g in content.generals.values()}
    assert by_colour == {"red": "Lord Balazarg", "green": "Gorgutt", "blue": "Sapphire", "black": "Varkolak"}
    names = {c: m.plural for c, m in content.minions.items()}
    assert names == {"red": "Demons", "green": "Orcs", "blue": "Dragonkin", "black": "Undead"}
    assert content.general_of_colour("blue").id == "sapphire"


@pytest.mark.rule("DEF-ENM-02")
def test_minion_kill_numbers(content: DefendersContent) -> None:
    kills = {c: m.kill_number for c, m in content.minions.items()}
    assert kills == {"green": 3, "red": 4, "black": 4, "blue": 5}
    assert [m.colour for m in content.minions.values() if m.causes_fear] == ["black"]


def test_generals_life_hits_grave_wounds_skills_and_penalties(content: DefendersContent) -> None:
    g = content.generals
    assert {k: v.life for k, v in g.items()} == {"balazarg": 6, "gorgutt": 6, "varkolak": 5, "sapphire": 4}
    assert {k: v.hit for k, v in g.items()} == {"balazarg": 4, "gorgutt": 3, "varkolak": 4, "sapphire": 5}
    assert {k: v.skill for k, v in g.items()} == {
        "balazarg": "demonic_curse",
        "gorgutt": "parry",
        "varkolak": "no_rerolls",
        "sapphire": "regeneration",
    }
    assert g["balazarg"].is_grave(1) and not g["balazarg"].is_grave(2)
    assert g["gorgutt"].is_grave(2) and not g["gorgutt"].is_grave(3)
    assert not any(g[k].is_grave(0) for k in ("varkolak", "sapphire"))
    assert g["balazarg"].skill_params["curse_face"] == 1 and g["gorgutt"].skill_params["parry_face"] == 1
    assert not g["varkolak"].allows_rerolls and g["gorgutt"].allows_rerolls
    assert g["sapphire"].regenerates and not g["balazarg"].regenerates
    assert (g["balazarg"].penalty_life, g["balazarg"].penalty_cards) == ("D3", "all")
    assert (g["gorgutt"].penalty_life, g["gorgutt"].penalty_cards) == (2, 2)
    assert (g["varkolak"].penalty_life, g["varkolak"].penalty_cards) == ("D6", "D6")
    assert (g["sapphire"].penalty_life, g["sapphire"].penalty_cards) == (3, "D6")


def test_general_paths_close_in_on_monarch_city_one_step_at_a_time(content: DefendersContent) -> None:
    graph = content.graph()
    for general in content.generals.values():
        assert len(general.path) == 5 and general.path[-1] == "monarch_city"
        distances = [graph.distance(space, "monarch_city") for space in general.path]
        assert distances == [4, 3, 2, 1, 0], general.id
        assert general.next_on_path(general.start) == general.path[1]
        assert general.next_on_path("monarch_city") is None
        assert general.next_on_path("gryphon_inn") is None


@pytest.mark.rule("DEF-END-01")
def test_the_eight_heroes_and_their_life(content: DefendersContent) -> None:
    lives = {h.name: h.life for h in content.heroes.values()}
    assert lives == {
        "Cleric": 6,
        "Dwarf": 5,
        "Eagle Rider": 4,
        "Paladin": 5,
        "Ranger": 5,
        "Rogue": 6,
        "Sorceress": 6,
        "Wizard": 5,
    }
    wizard = content.hero("wizard")
    teleport = wizard.ability("teleport")
    assert teleport is not None and teleport.costs_action and teleport.params["per_turn"] == 1
    assert wizard.ability("nothing") is None
    for hero in content.heroes.values():
        assert len(hero.abilities) >= 3


def test_darkness_spreads_deck(content: DefendersContent) -> None:
    deck = content.darkness_deck()
    assert len(deck) == 56
    kinds = Counter(content.darkness_card(entry).kind for entry in deck)
    assert kinds == {
        "regular": 46,
        "all_is_quiet": 3,
        "orc_patrols": 4,
        "orc_war_party": 2,
        "monarch_city": 1,
    }
    regular = [c for c in content.darkness_cards.values() if c.kind == "regular"]
    assert Counter(c.general for c in regular) == {
        "balazarg": 12,
        "gorgutt": 12,
        "varkolak": 11,
        "sapphire": 11,
    }
    # research 5.1: the six Monarch City neighbours appear 4 times, other coloured locations
    # twice, Mountains of Mist never
    seen = Counter(p.location for c in regular for p in c.placements)
    neighbours = set(content.graph().neighbors_of("monarch_city"))
    for loc in content.locations.values():
        if loc.colour == "purple":
            continue
        expected = 4 if loc.id in neighbours else 0 if loc.id == "mountains_of_mist" else 2
        assert seen[loc.id] == expected, loc.id
    first = content.darkness_card("ds_01")
    assert [(p.location, p.colour, p.count) for p in first.placements] == [
        ("rock_bridge_pass", "blue", 2),
        ("angel_tear_falls", "black", 1),
    ]
    assert (first.general, first.general_target, first.general_minions) == ("balazarg", "angel_tear_falls", 2)
    quiet = content.darkness_card("ds_all_is_quiet#2")
    assert not quiet.places_minions and not quiet.moves_general
    monarch = content.darkness_card("ds_monarch_city")
    assert monarch.reshuffles_decks and monarch.places_minions and not monarch.moves_general
    patrol = content.darkness_card("ds_orc_patrols_gorgutt")
    assert patrol.general_target == "next" and patrol.general_minions == 2


def test_hero_deck(content: DefendersContent) -> None:
    deck = content.hero_deck()
    assert len(deck) == 97
    location_cards = [c for c in (content.hero_card(e) for e in deck) if isinstance(c, HeroCard)]
    specials = [c for c in (content.hero_card(e) for e in deck) if isinstance(c, SpecialCard)]
    assert len(location_cards) == 81 and len(specials) == 16
    assert Counter(c.colour for c in location_cards) == {"green": 22, "red": 20, "black": 21, "blue": 18}
    assert Counter(c.travel for c in location_cards) == {"gate": 39, "horse": 31, "eagle": 11}
    per_location = Counter(c.location for c in location_cards)
    assert per_location["mermaid_harbor"] == 3 and per_location["mountains_of_mist"] == 0
    assert content.hero_card("battle_luck#2").name == "Battle Luck"  # type: ignore[union-attr]
    assert content.special_cards["battle_fury"].costs_action


def test_quest_deck(content: DefendersContent) -> None:
    assert len(content.quest_deck()) == 26
    amulet = content.quest("amulet_of_the_gods")
    assert amulet.requirement.location == "dark_woods" and amulet.requirement.dice == 4
    assert amulet.reward.timing == "permanent"
    hunters = sorted(q.id for q in content.quests.values() if q.holds_minions)
    assert hunters == ["demon_hunter", "dragon_hunter", "orc_hunter", "raids", "undead_hunter"]
    scouts = sorted(q.requirement.general or "" for q in content.quests.values() if q.id.startswith("scout_"))
    assert scouts == ["balazarg", "gorgutt", "sapphire", "varkolak"]


def test_card_instances_round_trip() -> None:
    assert card_instances("magic_gate", 1) == ("magic_gate",)
    assert card_instances("battle_luck", 2) == ("battle_luck#1", "battle_luck#2")
    assert card_id_of("battle_luck#2") == "battle_luck" and card_id_of("magic_gate") == "magic_gate"


def test_every_choice_is_listed_in_the_docs(content: DefendersContent) -> None:
    doc = (Path(__file__).parents[3] / "docs" / "defenders-content-choices.md").read_text(encoding="utf-8")
    ids = [f"{c.a}-{c.b}" for c in content.locations_file.connections if c.choice]
    choosers: list[Location | General | Hero | DarknessCard | HeroCard | SpecialCard | Quest] = [
        *content.locations.values(),
        *content.generals.values(),
        *content.heroes.values(),
        *content.darkness_cards.values(),
        *content.hero_cards.values(),
        *content.special_cards.values(),
        *content.quests.values(),
    ]
    ids += [item.id for item in choosers if item.choice]
    files = (content.locations_file, content.darkness_file, content.hero_cards_file, content.quests_file)
    assert all(f.choice for f in files if f is not content.locations_file)
    assert len(ids) >= 10
    for item_id in ids:
        assert f"`{item_id}`" in doc, item_id


# --- cross-reference checks on broken copies ---------------------------------------------------------


def broken_copy(tmp_path: Path, file: str, old: str, new: str, count: int = 1) -> Path:
    """A copy of the shipped data with ``old`` replaced by ``new`` in ``file``."""
    folder = tmp_path / "data"
    if not folder.exists():
        shutil.copytree(DATA_DIR, folder)
    text = (folder / file).read_text(encoding="utf-8")
    assert old in text, old
    (folder / file).write_text(text.replace(old, new, count), encoding="utf-8")
    return folder


def errors_of(folder: Path) -> list[ContentError]:
    with pytest.raises(ContentErrors) as info:
        load_defenders_content(folder)
    return list(info.value.errors)


def assert_error(folder: Path, file: str, key: str, words: str) -> None:
    found = errors_of(folder)
    for err in found:
        if Path(err.file).name == file and err.key == key and words in err.message:
            return
    pytest.fail(f"no error {file}: {key}: ...{words}... among {[str(e) for e in found]}")


def index_of(items: object, item_id: str) -> int:
    return [getattr(i, "id", None) for i in items].index(item_id)  # type: ignore[attr-defined]


def test_duplicate_location_id(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(tmp_path, "locations.toml", 'id = "ancient_ruins"', 'id = "amarak_peak"')
    i = index_of(content.locations_file.locations, "ancient_ruins")
    assert_error(folder, "locations.toml", f"locations[{i}] (id amarak_peak).id", "duplicate id")


def test_connection_to_unknown_location(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "locations.toml", 'b = "ghost_marsh"', 'b = "ghost_swamp"')
    assert_error(folder, "locations.toml", "connections[1]", "unknown location 'ghost_swamp'")


def test_self_connection(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "locations.toml", 'b = "ghost_marsh"', 'b = "amarak_peak"')
    assert_error(folder, "locations.toml", "connections[1]", "connected to itself")


def test_duplicate_connection_in_reverse(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path,
        "locations.toml",
        'a = "amarak_peak"\nb = "ghost_marsh"',
        'a = "eagle_peak_pass"\nb = "amarak_peak"',
    )
    assert_error(folder, "locations.toml", "connections[1]", "duplicate connection")


def test_disconnected_board(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    path = folder / "locations.toml"
    text = path.read_text(encoding="utf-8")
    text, n = re.subn(
        r'\[\[connections\]\]\na = "chimera_inn"\nb = "withered_hills"\n(?:\w+ = .*\n)*\n?', "", text
    )
    assert n == 1
    path.write_text(text, encoding="utf-8")
    assert_error(folder, "locations.toml", "connections", "not connected")


def test_neutral_colour_only_for_city_and_inns(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(
        tmp_path,
        "locations.toml",
        'name = "Chimera Inn"\ncolour = "purple"',
        'name = "Chimera Inn"\ncolour = "red"',
    )
    i = index_of(content.locations_file.locations, "chimera_inn")
    assert_error(folder, "locations.toml", f"locations[{i}] (id chimera_inn).colour", "purple")


def test_general_path_must_walk_along_connections(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path,
        "generals.toml",
        '"scorpion_canyon", "raven_forest", "angel_tear_falls"',
        '"scorpion_canyon", "raven_forest", "fire_river"',
    )
    assert_error(folder, "generals.toml", "generals[0] (id balazarg).path[2]", "not a connection")


def test_general_path_must_end_at_monarch_city(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "generals.toml", '"bounty_bay", "monarch_city"]', '"bounty_bay"]')
    assert_error(folder, "generals.toml", "generals[0] (id balazarg).path", "must end at Monarch City")


def test_general_start_must_be_a_known_location(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "generals.toml", 'start = "thorny_woods"', 'start = "thorny_wood"')
    assert_error(folder, "generals.toml", "generals[1] (id gorgutt).start", "unknown location")


def test_general_grave_threshold_below_life(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "generals.toml", "grave_wound_at_life = 2", "grave_wound_at_life = 6")
    assert_error(folder, "generals.toml", "generals[1] (id gorgutt).grave_wound_at_life", "below")


def test_darkness_card_naming_unknown_location(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "darkness.toml", 'location = "rock_bridge_pass"', 'location = "rock_pass"')
    assert_error(folder, "darkness.toml", "cards[0] (id ds_01).placements[0].location", "unknown location")


def test_darkness_card_colour_must_match_location(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path,
        "darkness.toml",
        'location = "rock_bridge_pass", colour = "blue"',
        'location = "rock_bridge_pass", colour = "red"',
    )
    assert_error(
        folder, "darkness.toml", "cards[0] (id ds_01).placements[0].colour", "rock_bridge_pass is blue"
    )


def test_darkness_card_naming_unknown_general(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "darkness.toml", 'general = "balazarg"', 'general = "balrog"')
    assert_error(folder, "darkness.toml", "cards[0] (id ds_01).general", "unknown general 'balrog'")


def test_darkness_general_target_must_lie_on_its_path(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path, "darkness.toml", 'general_target = "angel_tear_falls"', 'general_target = "orc_valley"'
    )
    assert_error(folder, "darkness.toml", "cards[0] (id ds_01).general_target", "not on balazarg's path")


def test_darkness_deck_size(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "darkness.toml", "copies = 3", "copies = 2")
    assert_error(folder, "darkness.toml", "deck_size", "add up to 55")


def test_hero_card_colour_must_match_its_location(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path,
        "hero_cards.toml",
        'location = "amarak_peak"\ncolour = "blue"',
        'location = "amarak_peak"\ncolour = "green"',
    )
    assert_error(folder, "hero_cards.toml", "cards[0] (id amarak_peak_eagle).colour", "amarak_peak is blue")


def test_hero_card_naming_unknown_location(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "hero_cards.toml", 'location = "amarak_peak"', 'location = "amarak_pk"')
    assert_error(folder, "hero_cards.toml", "cards[0] (id amarak_peak_eagle).location", "unknown location")


def test_hero_deck_sizes(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "hero_cards.toml", "location_deck_size = 81", "location_deck_size = 82")
    broken_copy(tmp_path, "hero_cards.toml", "special_deck_size = 16", "special_deck_size = 15")
    assert_error(folder, "hero_cards.toml", "location_deck_size", "add up to 81")
    assert_error(folder, "hero_cards.toml", "special_deck_size", "add up to 16")


def test_duplicate_id_across_location_and_special_cards(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(tmp_path, "hero_cards.toml", 'id = "magic_gate"', 'id = "amarak_peak_eagle"')
    i = index_of(content.hero_cards_file.specials, "magic_gate")
    assert_error(folder, "hero_cards.toml", f"specials[{i}] (id amarak_peak_eagle).id", "duplicate id")


def test_quest_naming_unknown_location_or_general(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(tmp_path, "quests.toml", 'location = "dark_woods"', 'location = "darkwoods"')
    broken_copy(tmp_path, "quests.toml", 'general = "gorgutt"', 'general = "gorgut"')
    assert_error(folder, "quests.toml", "quests[0] (id amulet_of_the_gods).requirement", "unknown location")
    i = index_of(content.quests_file.quests, "scout_gorgutt")
    assert_error(
        folder, "quests.toml", f"quests[{i}] (id scout_gorgutt).requirement.general", "unknown general"
    )


def test_quest_reward_centre_must_be_a_known_location(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(tmp_path, "quests.toml", 'centre = "heavens_glade"', 'centre = "heaven"')
    i = index_of(content.quests_file.quests, "elf_envoy")
    assert_error(
        folder, "quests.toml", f"quests[{i}] (id elf_envoy).reward.params.centre", "unknown location"
    )


def test_quest_deck_size(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "quests.toml", "deck_size = 26", "deck_size = 21")
    assert_error(folder, "quests.toml", "deck_size", "there are 26 quests")


def test_schema_error_names_file_and_key(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "heroes.toml", "life = 6\n", "life = 0\n")
    assert_error(folder, "heroes.toml", "heroes[0] (id cleric).life", "greater than or equal to 1")


def test_source_must_be_honest(tmp_path: Path) -> None:
    folder = broken_copy(
        tmp_path,
        "heroes.toml",
        'source = "fact: [J] heroes.js (research 4); roster',
        'source = "[J] heroes.js; roster',
    )
    assert_error(folder, "heroes.toml", "heroes[0] (id cleric).source", "fact:")


def test_missing_file_and_errors_in_several_files_are_reported_together(tmp_path: Path) -> None:
    folder = broken_copy(tmp_path, "heroes.toml", "life = 6\n", "life = -1\n")
    (folder / "quests.toml").unlink()
    found = {(Path(e.file).name, e.key) for e in errors_of(folder)}
    assert ("quests.toml", "(file)") in found
    assert ("heroes.toml", "heroes[0] (id cleric).life") in found


def test_content_hash_follows_the_files(tmp_path: Path, content: DefendersContent) -> None:
    folder = broken_copy(tmp_path, "heroes.toml", "# Defenders", "# Changed comment, same content: Defenders")
    assert load_defenders_content(folder).content_hash != content.content_hash
