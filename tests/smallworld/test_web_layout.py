"""The Small World web board's layout: the drawing of the islands and the public price of each conquest."""

from __future__ import annotations

import json
import random

import pytest

from warhorn.engine.board_geometry import point_strictly_inside
from warhorn.games.smallworld.actions import Conquer, Pick, Reinforce
from warhorn.games.smallworld.game import new_smallworld_game
from warhorn.games.smallworld.rules import conquest_cost
from warhorn.games.smallworld.state import SmallWorldState
from warhorn.games.smallworld.web.layout import die_odds, smallworld_layout

STATIC_REGION_KEYS = {
    "id",
    "name",
    "island",
    "terrain",
    "entry",
    "cavern",
    "magic",
    "place_slot",
    "neighbours",
    "polygon",
    "label",
}


def _game(board: str, players: int, seed: int = 1) -> SmallWorldState:
    state = new_smallworld_game({"board": board, "players": players}, seed=seed)
    assert isinstance(state, SmallWorldState)
    return state


@pytest.mark.parametrize("board", ["islands", "classic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_layout_draws_every_region_inside_the_canvas_with_a_label_inside_it(board: str, players: int) -> None:
    state = _game(board, players)
    layout = smallworld_layout(state)
    assert len(layout["regions"]) == len(state.board.regions)
    assert [r["id"] for r in layout["regions"]] == [r.id for r in state.board.regions]
    boxes = []
    for island in layout["islands"]:
        boxes.append(
            (island["x"], island["y"], island["x"] + island["width"], island["y"] + island["height"])
        )
        assert island["x"] + island["width"] <= layout["width"] + 0.1
        assert island["y"] + island["height"] <= layout["height"] + 0.1
    for i, a in enumerate(boxes):  # islands are drawn apart
        for b in boxes[i + 1 :]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    for region in layout["regions"]:
        assert set(region) == STATIC_REGION_KEYS
        polygon = [tuple(p) for p in region["polygon"]]
        assert point_strictly_inside(tuple(region["label"]), polygon), region["id"]
        assert all(0 <= x <= layout["width"] + 0.1 and 0 <= y <= layout["height"] + 0.1 for x, y in polygon)


def test_offers_are_the_legal_conquests_at_the_rules_price() -> None:
    state = _game("islands", 3)
    state, _ = state.apply(Pick(0))
    p = state.pending()
    assert p is not None and p.kind == "conquer"
    layout = smallworld_layout(state)
    legal = [a for a in state.legal_actions() if isinstance(a, (Conquer, Reinforce))]
    offered = [o for offers in layout["offers"].values() for o in offers]
    assert sorted(o["notation"] for o in offered) == sorted(a.notation() for a in legal)
    for offer in offered:
        region = offer["action"]["region"]
        cost = conquest_cost(state, p.player, region, offer["action"].get("via", ""))
        assert (offer["tokens"], offer["coins"]) == (cost.tokens, cost.coins)
        # a first conquest enters by an entry region and pays the travel cost (SWW-CNQ-01, SWW-CNQ-03),
        # unless an ability reaches any region (the Gnomes' airborne assault, SWW-RAC-GNO)
        if offer["action"].get("via") != "airborne":
            assert state.board.region(region).entry and offer["tokens"] >= 3


def test_final_conquest_odds_follow_the_die() -> None:
    faces = (0, 0, 0, 1, 2, 3)
    assert [die_odds(faces, short) for short in (1, 2, 3)] == [
        0.5,
        pytest.approx(1 / 3),
        pytest.approx(1 / 6),
    ]
    rng = random.Random(3)
    state = _game("classic", 2, seed=3)
    seen = False
    for _ in range(400):
        if state.is_terminal:
            break
        layout = smallworld_layout(state)
        for offers in layout["offers"].values():
            for offer in offers:
                if "odds" in offer:
                    seen = True
                    assert 1 <= offer["short"] <= 3
                    assert offer["odds"] == round(die_odds(state.content.die_faces, offer["short"]), 4)
        state, _ = state.apply(rng.choice(state.legal_actions()))
    assert seen, "a random game offers a final conquest"


def test_layout_holds_no_coins_and_no_face_down_marker() -> None:
    """Public data only: the coin totals and what lies face down stay out of it (SWW-FLW-02)."""
    state = _game("islands", 4)
    text = json.dumps(smallworld_layout(state))
    assert 'coins": 5' not in text and "hand" not in text
    hidden = [a.hidden_marker for a in state.areas.values() if a.hidden_marker]
    assert hidden, "the islands hold face-down markers at the start"
    layout = smallworld_layout(state)
    assert all(set(r) == STATIC_REGION_KEYS for r in layout["regions"])
    # the catalogue names every artifact and place of the game (a public list), not where each lies
    assert set(layout["markers"]) >= set(hidden)
    assert not any(m in json.dumps(layout["regions"]) for m in hidden)
