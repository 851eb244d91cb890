"""The odds front ends cover what battles contain (issue 18 item 5): allied defenders and Run Amok in
the calculator API, and in the odds of a planned attack (the Nerath plugin's odds hook), allied
defenders split as the game's option says and any number of face-down guardians."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.games.nerath.scenario import IC, K, N, V, position
from warhorn.engine.plugin import OddsUnavailableError
from warhorn.games.nerath import odds_support
from warhorn.games.nerath.battle_model import BattleSide, guardian_from
from warhorn.games.nerath.odds import battle_odds
from warhorn.games.nerath.odds_support import FACE_DOWN, attack_odds, mixture, tile_draws


@pytest.mark.rule("NER-BAT-07")
@pytest.mark.rule("NER-BAT-20")
def test_calculator_takes_an_ally_and_amok_targets(client: TestClient) -> None:
    body = {
        "attacker": {"soldier": 4, "mage": 1, "monster": 2},
        "defender": {"castle": 1, "soldier": 1},
        "ally": {"soldier": 3},
        "amok_targets": 1,
    }
    answer = client.post("/api/odds/nerath", json=body).json()
    want = battle_odds(
        "4 soldier, 1 mage, 2 monster", "1 castle, 1 soldier", ally="3 soldier", amok_targets=1
    )
    assert answer["attacker_win"] == pytest.approx(want.attacker_win, rel=1e-12)
    assert answer["allied_split"]["used"] == want.allied_split == "best"
    assert answer["run_amok"]["expected_conquests"] == pytest.approx(
        want.expected_amok_conquests(), rel=1e-12
    )
    fixed = client.post("/api/odds/nerath", json={**body, "allied_damage": "fixed"}).json()
    assert fixed["allied_split"]["used"] == "rule" and fixed["attacker_win"] > answer["attacker_win"]
    bad = client.post("/api/odds/nerath", json={**body, "allied_damage": "sometimes"})
    assert bad.status_code == 400


def _attack(s: Any, text: str) -> dict[str, Any]:
    return attack_odds(s, s.parse(text))


@pytest.mark.rule("NER-BAT-07")
@pytest.mark.parametrize("allied_damage", ["agree", "fixed"])
def test_planned_attack_on_allies_splits_damage_as_the_game_option_says(allied_damage: str) -> None:
    s = position(
        [(K, "k2", "soldier", 4), (V, "v2", "soldier", 1), (V, "v2", "castle", 1), (N, "v2", "soldier", 3)],
        options={"mode": "alliance", "players": 4, "allied_damage": allied_damage},
    )
    answer = _attack(s, "move 4 soldier k2>v2")
    assert answer["defender"] == {"soldier": 4, "castle": 1}
    assert answer["defender_kingdoms"] == ["nerath", "vailin"]
    want = battle_odds("4 soldier", "3 soldier", ally="1 soldier, 1 castle", allied_damage=allied_damage)
    assert answer["odds"]["attacker_win"] == pytest.approx(want.attacker_win, rel=1e-12)
    assert answer["odds"]["allied_split"]["used"] == want.allied_split


@pytest.mark.rule("NER-BAT-20")
def test_planned_attack_counts_the_territories_open_to_run_amok() -> None:
    """v2's neighbours v1 and v3 are Vailin's and empty: a monster that survives may take one."""
    s = position([(K, "k2", "monster", 2), (V, "v2", "soldier", 1), (IC, "i2", "soldier", 1)])
    answer = _attack(s, "move 2 monster k2>v2")
    assert answer["odds"]["run_amok"]["targets"] == 2
    want = battle_odds("2 monster", "1 soldier", amok_targets=2)
    assert answer["odds"]["run_amok"]["expected_conquests"] == pytest.approx(want.expected_amok_conquests())


@pytest.mark.rule("NER-DUN-02")
@pytest.mark.parametrize(
    "placed", [["medusa", "troll", "goblins"], ["medusa", "troll", "goblins", "goblins"]]
)
def test_planned_attack_averages_face_down_guardians_exactly(placed: list[str]) -> None:
    """Three or four face-down tiles on d1 (the test board holds 6 tiles: Medusa, Troll, Beholder
    and three Goblin Packs): the odds are the average over every draw, without replacement."""
    s = position([(K, "k3", "warrior", 2), (K, "k3", "mage", 1)], guardians={"d1": placed})
    answer = _attack(s, "move 2 warrior k3>d1")
    assert answer["guardians"] == [] and answer["guardians_face_down"] == len(placed)
    pool = Counter(s.board.guardian_tiles())
    parts = []
    for p, tiles in tile_draws(pool, len(placed)):
        gs = [guardian_from(s.board.guardian(t)) for t in tiles]
        parts.append((p, battle_odds("2 warrior", dungeon=gs)))
    want = mixture(parts)
    for key in (
        "attacker_win",
        "defender_win",
        "mutual_destruction",
        "expected_rounds",
        "expected_reward_gold",
    ):
        assert answer["odds"][key] == pytest.approx(getattr(want, key), rel=1e-9), key
    # the tiles stay hidden: face-down survivors are counted, not named (how many survive depends on
    # which of two equally strong dice the guardians' roller gives up first, so only bounds here)
    assert set(answer["odds"]["defender_survivors"]) == {FACE_DOWN}
    assert 0 < answer["odds"]["defender_survivors"][FACE_DOWN] < len(placed)


def test_too_many_face_down_draws_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(odds_support, "MAX_FACE_DOWN_DRAWS", 3)
    s = position([(K, "k3", "warrior", 2)], guardians={"d1": ["medusa", "troll"]})
    with pytest.raises(OddsUnavailableError, match="draws to average"):
        _attack(s, "move 2 warrior k3>d1")


def test_face_down_draws_are_the_tile_draws_by_kind() -> None:
    """Tiles that fight alike are one kind: the draws by kind carry the same probabilities."""
    s = position([])
    pool = Counter(s.board.guardian_tiles())
    tiles = {t: guardian_from(s.board.guardian(t)) for t in pool}
    by_kind = odds_support.face_down_draws(pool, tiles, 2)
    assert sum(p for p, _g, _r in by_kind) == pytest.approx(1.0)
    assert len(by_kind) == odds_support.face_down_draw_count(pool, tiles, 2) == len(tile_draws(pool, 2))
    goblins = [(p, r) for p, gs, r in by_kind if all(g.dice == (6,) for g in gs)]
    assert goblins == [(pytest.approx(3 / 15), 4.0)]  # two of the three Goblin Packs (2 gold each)
    assert BattleSide.of({}, guardians=by_kind[0][1]).guardians[0].id == FACE_DOWN
