"""warhorn's original Nerath board and cards meet the constraints the rules and sources give.

The real board is not public (see ``../shared/research/nerath-content.md``);
these tests pin the shipped stand-in to every figure the rulebook states and
to the examples it gives (named adjacencies, straits, islands).
"""

from __future__ import annotations

import math
from collections import Counter, deque

import pytest

from warhorn.games.nerath.content import NerathContent, load_nerath_content

ALLIES = (("karkoth", "iron_circle"), ("vailin", "nerath"))


@pytest.fixture(scope="module")
def content() -> NerathContent:
    return load_nerath_content()


def land_components(content: NerathContent) -> list[set[str]]:
    """Groups of land territories and dungeon entrances joined by land borders (seas cut them apart)."""
    graph = content.graph()
    on_land = {s.id for s in content.spaces if s.kind != "sea"}
    seen: set[str] = set()
    groups: list[set[str]] = []
    for start in sorted(on_land):
        if start in seen:
            continue
        group = {start}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in graph.neighbors_of(here):
                if nxt in on_land and nxt not in group:
                    group.add(nxt)
                    queue.append(nxt)
        seen |= group
        groups.append(group)
    return groups


def sea_distance(content: NerathContent, a: str, b: str) -> int | None:
    """Fewest moves from sea space ``a`` to sea space ``b`` through sea spaces only."""
    graph = content.graph()
    found = graph.reachable(a, 99, can_enter=lambda s: graph.space(s).kind == "sea")
    return found.get(b)


@pytest.mark.rule("NER-SET-01")
def test_four_kingdoms_in_turn_order_with_their_colours(content: NerathContent) -> None:
    assert [k.id for k in content.kingdoms] == ["karkoth", "vailin", "iron_circle", "nerath"]
    assert [k.colour for k in content.kingdoms] == ["black", "gold", "red", "blue"]


@pytest.mark.rule("NER-SET-02")
def test_capitals(content: NerathContent) -> None:
    names = {k.id: content.space(k.capital).name for k in content.kingdoms}
    assert names == {
        "karkoth": "Karkothi Throneholds",
        "vailin": "Vailindor",
        "iron_circle": "Citadel of Iron's Grasp",
        "nerath": "Mithralfast",
    }
    assert sorted(s.id for s in content.spaces if s.capital) == sorted(k.capital for k in content.kingdoms)


@pytest.mark.rule("NER-SET-03")
def test_starting_gold(content: NerathContent) -> None:
    assert {k.id: k.start_gold for k in content.kingdoms} == {
        "karkoth": 10,
        "vailin": 11,
        "iron_circle": 12,
        "nerath": 13,
    }


@pytest.mark.rule("NER-SET-04")
def test_base_income_equals_starting_territories(content: NerathContent) -> None:
    expected = {"karkoth": 15, "vailin": 13, "iron_circle": 13, "nerath": 14}
    assert {k.id: k.base_income for k in content.kingdoms} == expected
    assert {k: len(content.territories_of(k)) for k in expected} == expected
    land = [s for s in content.spaces if s.kind == "land"]
    assert len(land) == 55
    assert all(s.kingdom is not None for s in land)  # no neutral land at the start


@pytest.mark.rule("NER-MAP-01")
def test_space_kinds_dungeons_and_impassable_areas(content: NerathContent) -> None:
    kinds = Counter(s.kind for s in content.spaces)
    assert kinds["dungeon"] == 10
    assert kinds["sea"] >= 18  # enough room for real naval play
    dungeons = {s.name: s for s in content.spaces if s.kind == "dungeon"}
    assert {"Tomb of Horrors", "Temple of Elemental Evil"} <= set(dungeons)
    assert all(s.kingdom is None for s in dungeons.values())
    assert len(content.impassable) == 2
    graph = content.graph()
    for area in content.impassable:
        assert area.id not in graph.index  # not part of the board


@pytest.mark.rule("NER-MAP-02")
def test_adjacency_is_symmetric_and_connected(content: NerathContent) -> None:
    graph = content.graph()
    assert graph.connected()
    for a, b in graph.edges():
        assert graph.adjacent(a, b) and graph.adjacent(b, a)


def test_allies_share_no_land_border(content: NerathContent) -> None:
    graph = content.graph()
    owner = {s.id: s.kingdom for s in content.spaces if s.kind == "land"}
    for a, b in graph.edges():
        if a in owner and b in owner:
            assert (owner[a], owner[b]) not in ALLIES and (owner[b], owner[a]) not in ALLIES, (a, b)


def test_two_land_masses_and_islands(content: NerathContent) -> None:
    groups = land_components(content)
    by_member = {space: i for i, group in enumerate(groups) for space in group}

    def kingdoms(group: set[str]) -> set[str | None]:
        return {content.space(s).kingdom for s in group if content.space(s).kingdom}

    west = groups[by_member["vailindor"]]
    east = groups[by_member["mithralfast"]]
    assert kingdoms(west) == {"karkoth", "vailin"}
    assert "karkothi_throneholds" in west
    assert kingdoms(east) == {"iron_circle", "nerath"}
    assert "citadel_of_irons_grasp" in east
    # The central island holds Amil Forest and the Tomb of Horrors and no capital.
    island = groups[by_member["amil_forest"]]
    assert {"zaarnath", "satrapy_of_numoth", "dread_marches", "tomb_of_horrors"} <= island
    assert not any(content.space(s).capital for s in island)
    assert island is not west and island is not east
    # Winterskull Lands is an island of its own.
    assert groups[by_member["winterskull_lands"]] == {"winterskull_lands"}
    big = sorted((len(g) for g in groups), reverse=True)
    assert big[0] > 20 and big[1] > 20 and big[2] < 10


def test_named_adjacencies_from_the_rulebook(content: NerathContent) -> None:
    graph = content.graph()
    for other in ("zaarnath", "satrapy_of_numoth", "dread_marches"):
        assert graph.adjacent("amil_forest", other)
    assert graph.space("gulf_of_kar").kind == "sea"
    assert graph.adjacent("gulf_of_kar", "maze_of_maur_khul")
    assert graph.adjacent("gulf_of_kar", "ruined_land_of_tarsembor")
    assert content.coastal("maze_of_maur_khul") and content.coastal("ruined_land_of_tarsembor")
    assert not graph.adjacent("kharavas", "forbidden_city")
    assert not graph.adjacent("dawnforge_mountains", "scarlet_principalities")


@pytest.mark.rule("NER-SEA-01")
def test_gulf_of_kar_sea_distances(content: NerathContent) -> None:
    five = {"dragons_gate", "forbidding_shore", "amilian_sea", "krakens_reach", "tarsem_coast"}
    near = {s.id for s in content.spaces if s.kind == "sea" and s.id != "gulf_of_kar"}
    near = {s for s in near if (d := sea_distance(content, "gulf_of_kar", s)) is not None and d <= 2}
    assert near == five  # exactly those five: not Saris Strait, not Frostwater


@pytest.mark.parametrize("strait", ["saris_strait", "skallen_reach", "lake_surth"])
def test_straits_for_bridging(content: NerathContent, strait: str) -> None:
    graph = content.graph()
    assert graph.space(strait).kind == "sea"
    shores = [s for s in graph.neighbors_of(strait) if graph.space(s).kind == "land"]
    bridges = [(a, b) for a in shores for b in shores if a < b and not graph.adjacent(a, b)]
    assert bridges, f"{strait} joins no two otherwise separate shores"


@pytest.mark.rule("NER-SEA-05")
def test_lake_surth_is_a_lake_inside_karkoth(content: NerathContent) -> None:
    graph = content.graph()
    shores = graph.neighbors_of("lake_surth")
    assert shores and all(content.space(s).kind == "land" for s in shores)
    assert {content.space(s).kingdom for s in shores} == {"karkoth"}


@pytest.mark.rule("NER-MAP-03")
def test_coastal_territories(content: NerathContent) -> None:
    assert content.coastal("winterskull_lands")  # an island counts as coastal
    assert content.coastal("amil_forest")
    assert not content.coastal("vailindor")  # inland
    assert not content.coastal("gulf_of_kar")  # a sea is not a coastal territory
    assert not content.coastal("tomb_of_horrors")  # a dungeon is not a territory
    graph = content.graph()
    for space in content.spaces:
        touches_sea = any(graph.space(n).kind == "sea" for n in graph.neighbors_of(space.id))
        assert content.coastal(space.id) == (space.kind == "land" and touches_sea)


@pytest.mark.rule("NER-SET-06")
def test_every_starting_territory_is_garrisoned_by_its_own_kingdom(content: NerathContent) -> None:
    mobile = Counter(item.space for item in content.setup if item.piece != "castle")
    for space in content.spaces:
        if space.kind == "land":
            assert mobile[space.id] >= 1, space.id
    for item in content.setup:
        space = content.space(item.space)
        assert space.kind != "dungeon"
        if space.kind == "land":
            assert space.kingdom == item.kingdom


@pytest.mark.rule("NER-PCS-05")
def test_castles_in_every_capital_and_at_most_one_per_territory(content: NerathContent) -> None:
    castles: Counter[str] = Counter()
    for item in content.setup:
        if item.piece == "castle":
            castles[item.space] += item.count
    assert all(n == 1 for n in castles.values())
    for kingdom in content.kingdoms:
        assert castles[kingdom.capital] == 1
    assert len(castles) > len(content.kingdoms)  # a few castles besides the capitals


def test_warships_start_at_sea_next_to_their_kingdom(content: NerathContent) -> None:
    graph = content.graph()
    ships = [item for item in content.setup if item.piece == "warship"]
    assert {item.kingdom for item in ships} == {"karkoth", "vailin", "iron_circle", "nerath"}
    for item in ships:
        assert graph.space(item.space).kind == "sea"
        assert any(content.space(n).kingdom == item.kingdom for n in graph.neighbors_of(item.space))


@pytest.mark.rule("NER-SET-06")
def test_card_and_tile_counts(content: NerathContent) -> None:
    assert len(content.guardian_stack()) == 30
    assert len(content.treasure_deck()) == 30
    for kingdom in ("karkoth", "vailin", "iron_circle", "nerath"):
        assert len(content.event_deck(kingdom)) == 20


@pytest.mark.rule("NER-CRD-02")
def test_thirty_treasures_each_with_vp(content: NerathContent) -> None:
    assert len(content.treasure_deck()) == 30
    assert all(1 <= card.vp <= 3 for card in content.treasures)
    assert all(card.power or card.property for card in content.treasures)


@pytest.mark.rule("NER-DUN-03")
def test_rulebook_guardians(content: NerathContent) -> None:
    medusa, troll, beholder = (content.guardian(g) for g in ("medusa", "troll", "beholder"))
    assert medusa.dice == (20,) and medusa.first_strike
    assert troll.dice == (8, 8) and troll.hero_hit_min == 7
    assert sorted(beholder.dice) == [6, 20]
    assert medusa.source.startswith("fact:")


def test_guardian_abilities_are_all_used(content: NerathContent) -> None:
    guardians = content.guardians
    assert sum(1 for g in guardians if g.reward_gold > 0) >= 5
    assert {g.hero_hit_min for g in guardians} == {6, 7, 8}
    assert any(g.first_strike for g in guardians)
    assert any(len(g.dice) > 1 for g in guardians)


def test_horn_of_valhalla(content: NerathContent) -> None:
    horn = content.treasure("horn_of_valhalla")
    (power,) = horn.power
    assert power.op == "place_pieces"
    assert power.params["piece"] == "soldier" and power.params["count"] == 3
    assert power.params["where"] == "friendly_territory" and power.params.get("together", True)
    (prop,) = horn.property
    assert prop.op == "place_pieces" and prop.when == "start_of_turn"
    assert prop.params["piece"] == "soldier" and prop.params["count"] == 1


def test_veteran_warlord(content: NerathContent) -> None:
    card = content.event("veteran_warlord")
    assert card.kingdom == "nerath"
    (effect,) = card.effects
    assert effect.op == "modify_hit_number"
    assert effect.params == {"hit_on": 5, "piece": "any", "side": "own", "duration": "battle"}


def test_kingdom_decks_have_their_character(content: NerathContent) -> None:
    def ops(kingdom: str) -> Counter[str]:
        counter: Counter[str] = Counter()
        for card in content.events_of(kingdom):
            for effect in card.effects:
                counter[effect.op] += card.copies
        return counter

    def params(kingdom: str, op: str, key: str) -> set[object]:
        return {e.params.get(key) for c in content.events_of(kingdom) for e in c.effects if e.op == op}

    # Vailin: sea and trade.
    assert {"coastal_territory", "sea_space_with_warship"} <= params("vailin", "gain_gold", "per")
    assert "warship" in params("vailin", "reduce_cost", "piece")
    # Iron Circle: surprise help arriving in the middle of a battle.
    assert "battle_space" in params("iron_circle", "place_pieces", "where")
    # Nerath: the strongest heroes (hit-number boosts, hero resilience, dungeon help).
    assert ops("nerath")["modify_hit_number"] >= 4
    assert "hero" in params("nerath", "grant_resilience", "piece")
    # Karkoth: the weakest deck (no hit-number boosts, no cancelling, small gold amounts).
    assert ops("karkoth")["modify_hit_number"] == 0
    assert ops("karkoth")["cancel_card"] == 0
    assert max(a for a in params("karkoth", "gain_gold", "amount") if isinstance(a, int)) <= 2


def test_map_coordinates_draw_without_overlaps(content: NerathContent) -> None:
    points = [(s.id, s.x, s.y) for s in content.spaces] + [(i.id, i.x, i.y) for i in content.impassable]
    for i, (a, ax, ay) in enumerate(points):
        assert 0 <= ax <= 1000 and 0 <= ay <= 700
        for b, bx, by in points[i + 1 :]:
            assert math.dist((ax, ay), (bx, by)) >= 60, (a, b)
