"""The rulebook's statements about the board are content-check rules (board_facts.py).

Each test breaks one statement in a copy of the shipped board and checks that
``warhorn content check`` (check_content_folder) refuses it, naming the fact.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.games.nerath.scenario import K, begin_turn, position
from tests.games.nerath.test_content import append, break_file, find
from warhorn.games.nerath.board import board_from_content
from warhorn.games.nerath.board_facts import BOARD_FACTS, BoardView, board_fact_problems
from warhorn.games.nerath.content import check_content_folder, load_nerath_content
from warhorn.games.nerath.rules import cards
from warhorn.games.nerath.state import REINFORCEMENTS


def _border(a: str, b: str) -> str:
    return f'  {{ a = "{a}", b = "{b}", source = "original" }},\n'


BREAKS = [
    # (rule, fact id, an extra border that breaks it)
    ("NER-SEA-05", "lake-surth-in-karkoth", ("lake_surth", "greyhold")),
    ("NER-SEA-01", "gulf-of-kar-two-moves", ("gulf_of_kar", "saris_strait")),
    ("NER-SEA-01", "gulf-of-kar-two-moves", ("krakens_reach", "frostwater")),
    ("NER-MOV-01", "amil-forest-neighbours", ("amil_forest", "lanterncrest")),
    ("NER-MAP-02", "not-geomorphic-kharavas", ("kharavas", "forbidden_city")),
    ("NER-MAP-02", "not-geomorphic-dawnforge", ("dawnforge_mountains", "scarlet_principalities")),
    ("NER-MAP-03", "winterskull-island", ("winterskull_lands", "stormwatch")),
]


@pytest.mark.parametrize(("rule", "fact", "border"), BREAKS, ids=[f"{b[1]}:{b[2][1]}" for b in BREAKS])
def test_a_board_breaking_a_rulebook_fact_fails_the_content_check(
    tmp_path: Path, rule: str, fact: str, border: tuple[str, str]
) -> None:
    folder = break_file(tmp_path, "board", "borders = [\n", "borders = [\n" + _border(*border))
    find(check_content_folder(folder), "board.toml", f"rulebook fact {fact}", "rulebook")


@pytest.mark.rule("NER-MAP-02")
@pytest.mark.rule("NER-SEA-01")
@pytest.mark.rule("NER-SEA-05")
@pytest.mark.rule("NER-MAP-03")
def test_the_shipped_board_keeps_every_rulebook_fact() -> None:
    content = load_nerath_content()
    view = BoardView.build(
        ((s.id, s.kind, s.kingdom) for s in content.spaces), ((b.a, b.b) for b in content.borders)
    )
    assert board_fact_problems(view) == []
    assert all(all(s in view.kind for s in fact.spaces) for fact in BOARD_FACTS)  # none skipped


def test_a_board_of_other_names_is_not_held_to_the_facts() -> None:
    view = BoardView.build([("a", "land", "karkoth"), ("b", "sea", None)], [("a", "b")])
    assert board_fact_problems(view) == []


def test_the_lake_must_lie_inside_karkoth(tmp_path: Path) -> None:
    folder = break_file(
        tmp_path,
        "board",
        'b = "kharavas", source = "fact: rulebook example (Lake Surth',
        'b = "forbidden_city", source = "fact: rulebook example (Lake Surth',
    )
    find(check_content_folder(folder), "board.toml", "lake-surth-in-karkoth", "only karkoth territories")


@pytest.mark.rule("NER-REI-01")
def test_no_card_may_make_a_piece_free(tmp_path: Path) -> None:
    # the Ironbound Tome as first written: 1 gold off everything made soldiers free
    folder = break_file(
        tmp_path,
        "treasures",
        'power = [{ op = "reduce_cost", params = { piece = "castle", amount = 2 } }]',
        'power = [{ op = "reduce_cost", params = { piece = "any", amount = 1 } }]',
    )
    error = find(check_content_folder(folder), "treasures.toml", "ironbound_tome", "below 1 gold")
    assert "soldier 0" in error.message
    folder = append(
        tmp_path,
        "events",
        '[[events]]\nid = "free_ships"\nkingdom = "vailin"\nname = "Free Ships"\ntiming = "reinforcements"\n'
        'text = "Warships cost 2 gold less."\n'
        'effects = [{ op = "reduce_cost", params = { piece = "naval", amount = 2 } }]\nsource = "original"\n',
    )
    find(check_content_folder(folder), "events.toml", "free_ships", "warship 0")


@pytest.mark.rule("NER-REI-01")
@pytest.mark.rule("NER-CRD-04")
def test_the_redesigned_tome_discounts_castles_and_siege_engines_only() -> None:

    s = position([(K, "karkothi_throneholds", "soldier", 1)], board=board_from_content(load_nerath_content()))
    s = begin_turn(s, REINFORCEMENTS, K)
    before = {p: cards.cost(s, K, p) for p in ("soldier", "siege", "castle", "warship")}
    s.d.treasure_hands[K] = ("ironbound_tome",)
    cards.play_treasure(s, K, "ironbound_tome")
    after = {p: cards.cost(s, K, p) for p in ("soldier", "siege", "castle", "warship")}
    assert before == {"soldier": 1, "siege": 2, "castle": 4, "warship": 2}
    assert after == {"soldier": 1, "siege": 1, "castle": 1, "warship": 2}  # power 2 + property 1 off castles


@pytest.mark.rule("NER-CRD-04")
def test_a_property_must_repeat_at_a_moment_the_rules_run(tmp_path: Path) -> None:
    folder = break_file(
        tmp_path,
        "treasures",
        'property = [{ op = "gain_gold", params = { amount = 1 }, when = "income" }]',
        'property = [{ op = "gain_gold", params = { amount = 1 }, when = "reposition" }]',
    )
    find(check_content_folder(folder), "treasures.toml", "chalice_of_plenty", "repeats only at")
