"""The Nerath heuristic: scenario positions with scripted dice, a short fuzz, MCTS hooks and the CLI."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.games.nerath.scenario import K, N, V, begin_turn, play, position
from tests.games.nerath.test_card_choices import BOARD
from warhorn.ai import heuristic_for, make_agent
from warhorn.ai.hooks import game_hooks
from warhorn.ai.nerath import NerathHeuristic
from warhorn.cli.app import app
from warhorn.engine import Action, Rng, load_game
from warhorn.games.nerath.actions import (
    AssignDamage,
    Buy,
    Move,
    Pass,
    PlayEvent,
    PlayTreasure,
    Retreat,
    Unload,
)
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.state import BATTLES, DRAW, REINFORCEMENTS

PERCENT = re.compile(r"\d+%")


def _decide(s: NerathState, heuristic: NerathHeuristic | None = None) -> tuple[Action, str]:
    h = heuristic or NerathHeuristic()
    p = s.pending()
    assert p is not None
    choice = h.choose(s, p.player, Rng(0))
    assert s.is_legal(choice.action)
    return choice.action, choice.reason


def _movement_plan(s: NerathState) -> list[tuple[Action, str]]:
    """Play the heuristic's movement decisions until it passes; return its actions with reasons."""
    h = NerathHeuristic()
    out = []
    for _ in range(40):
        action, reason = _decide(s, h)
        if isinstance(action, Pass):
            break
        out.append((action, reason))
        s, _ = s.apply(action)
    assert h.fallbacks == 0
    return out


def test_attacks_a_weakly_held_territory_with_good_odds_and_says_so() -> None:
    s = position([(K, "k2", "siege", 2), (K, "k2", "soldier", 2), (V, "v2", "soldier", 1)], kingdom=K)
    moves = _movement_plan(s)
    attack = [(m, r) for m, r in moves if isinstance(m, Move) and m.path[-1] == "v2"]
    assert attack, moves
    reason = attack[0][1]
    assert "attack v2" in reason and PERCENT.search(reason), reason
    assert "+1 VP" in reason and "expected loss" in reason
    odds = int(PERCENT.search(reason).group(0)[:-1])  # type: ignore[union-attr]
    assert odds >= 60


def test_does_not_attack_when_the_odds_are_bad() -> None:
    s = position(
        [(K, "k2", "soldier", 1), (V, "v2", "monster", 3), (V, "v2", "castle", 1)],
        kingdom=K,
    )
    moves = _movement_plan(s)
    assert not [m for m, _ in moves if isinstance(m, Move) and m.path[-1] == "v2"], moves


def test_assigns_damage_to_the_cheapest_piece() -> None:
    # Karkoth attacks v2 with a mage, a siege engine and a soldier; its dice all miss (mage's first
    # strike, then the siege's 2 d8 and the soldier's d6) and the lone defender's d6 hits.
    s = position(
        [(K, "v2", "mage", 1), (K, "v2", "siege", 1), (K, "v2", "soldier", 1), (V, "v2", "soldier", 1)],
        kingdom=K,
        phase=BATTLES,
        rolls=[1, 1, 1, 1, 6],
        control={"k2": K},
    )
    p = s.pending()
    assert p is not None and p.kind == "damage", s.describe()
    action, reason = _decide(s)
    assert action == AssignDamage(("soldier",))
    assert "cheapest" in reason


@pytest.mark.rule("NER-BAT-07")
def test_allied_defenders_put_shared_damage_on_the_cheaper_ally_and_the_ally_agrees() -> None:
    # Karkoth's two soldiers hit twice at v2, held by Vailin's three monsters and allied Nerath's two soldiers
    s = position(
        [(K, "k2", "soldier", 2), (V, "v2", "monster", 3), (N, "v2", "soldier", 2)],
        rolls=[6, 6, 1, 1, 1, 1, 1],
        options={"mode": "alliance", "players": 4},
    )
    s, _ = play(s, "move 2 soldier k2>v2", "pass")
    assert s.pending().kind == "damage_split"
    action, reason = _decide(s)
    assert action.notation() == "split vailin:0,nerath:2"
    assert "default" in reason and re.search(r"lose \d", reason)
    s, _ = s.apply(action)
    assert s.pending().kind == "split_answer"
    action, reason = _decide(s)
    assert action.notation() == "accept", reason


def test_retreats_when_continuing_is_hopeless() -> None:
    s = position(
        [(K, "v2", "soldier", 2), (V, "v2", "monster", 3)],
        kingdom=K,
        phase=BATTLES,
        rolls=[1, 1, 12, 1, 1],  # both soldiers miss; one monster hits
        control={"k2": K},
    )
    p = s.pending()
    assert p is not None and p.kind == "continue_or_retreat", s.describe()
    action, reason = _decide(s)
    assert isinstance(action, Retreat)
    assert "retreat from v2" in reason and PERCENT.search(reason)


def test_fights_on_when_winning() -> None:
    s = position(
        [(K, "v2", "siege", 3), (K, "v2", "monster", 1), (V, "v2", "soldier", 2)],
        kingdom=K,
        phase=BATTLES,
        rolls=[1, 1, 1, 1, 1, 1, 7, 1, 1],  # the attack kills one soldier, the defence misses
        control={"k2": K},
    )
    p = s.pending()
    if p is not None and p.kind == "damage":  # the defender's own casualty choice is forced anyway
        s, _ = s.apply(s.legal_actions()[0])
        p = s.pending()
    assert p is not None and p.kind == "continue_or_retreat", s.describe()
    action, reason = _decide(s)
    assert action.notation() == "continue"
    assert "continue at v2" in reason and PERCENT.search(reason)


def test_reinforces_a_threatened_capital() -> None:
    s = position(
        [
            (K, "k1", "castle", 1),
            (K, "k1", "soldier", 1),
            (K, "k3", "soldier", 3),
            (K, "k3", "warrior", 2),
            (V, "k2", "monster", 4),
            (V, "k2", "siege", 2),
        ],
        kingdom=K,
        control={"k2": V},
    )
    moves = _movement_plan(s)
    into_capital = [(m, r) for m, r in moves if isinstance(m, Move) and m.path[-1] == "k1"]
    assert into_capital, moves
    assert "reinforce k1" in into_capital[0][1] and "expected hits" in into_capital[0][1]


def test_retakes_its_capital() -> None:
    s = position(
        [(K, "k2", "siege", 2), (K, "k2", "soldier", 3), (K, "k3", "warrior", 1), (V, "k1", "soldier", 1)],
        kingdom=K,
        control={"k1": V},
    )
    moves = _movement_plan(s)
    retake = [(m, r) for m, r in moves if isinstance(m, Move) and m.path[-1] == "k1"]
    assert retake, moves
    assert "retakes our capital" in retake[0][1]


def test_sends_heroes_into_a_dungeon_when_the_guardian_odds_are_good() -> None:
    s = position(
        [(K, "k3", "warrior", 2), (K, "k3", "mage", 1)],
        kingdom=K,
        guardians={"d1": ["goblins"]},
    )
    moves = _movement_plan(s)
    delve = [(m, r) for m, r in moves if isinstance(m, Move) and m.path[-1] == "d1"]
    assert delve, moves
    assert "beat the guardians" in delve[0][1] and PERCENT.search(delve[0][1])


def test_ferries_pieces_by_warship_to_an_enemy_coast() -> None:
    s = position(
        [(K, "s1", "warship", 1), (K, "k2", "siege", 2), (V, "t1", "soldier", 1)],
        kingdom=K,
        control={"v1": K, "v2": K, "v3": K, "i2": K, "n2": K},
    )
    moves = _movement_plan(s)
    kinds = [type(m).__name__ for m, _ in moves]
    assert kinds[:2] == ["Load", "Load"] and "Unload" in kinds, moves
    unload = next(m for m, _ in moves if isinstance(m, Unload))
    assert {target for _, target in unload.drops} == {"t1"}
    assert "ferries" in moves[0][1] and PERCENT.search(moves[0][1])


def test_buys_within_its_gold_and_places_legally() -> None:
    s = position(
        [(K, "k1", "castle", 1), (K, "k1", "soldier", 1), (V, "v2", "monster", 2)],
        kingdom=K,
        phase=REINFORCEMENTS,
        gold={K: 7},
    )
    h = NerathHeuristic()
    spent = 0
    for _ in range(20):
        action, reason = _decide(s, h)
        if isinstance(action, Pass):
            break
        assert isinstance(action, Buy)
        assert "gold" in reason
        before = s.d.gold[K]
        s, _ = s.apply(action)
        spent += before - s.d.gold[K]
    assert 0 < spent <= 7
    assert s.d.gold[K] >= 0
    assert len([u for u in s.d.units.values() if u.kingdom == K and u.new]) >= 3


def _play(options: dict[str, Any], specs: list[str], seed: int) -> tuple[str, NerathState, list[str]]:
    s = load_game("nerath", seed=seed, **options)
    assert isinstance(s, NerathState)
    agents = [make_agent(specs[p % len(specs)]) for p in range(s.num_players)]
    rng = Rng(seed)
    digest = hashlib.sha256()
    reasons: list[str] = []
    while s.results() is None:
        p = s.pending()
        assert p is not None
        action = agents[p.player].choose(s, p.player, rng)
        assert s.is_legal(action), action
        if specs[p.player % len(specs)] == "heuristic":
            reasons.append(agents[p.player].explain())
        digest.update(action.notation().encode())
        s, _ = s.apply(action)
    for a in agents:
        for h in getattr(a, "_by_game", {}).values():
            assert h.fallbacks == 0
    return digest.hexdigest(), s, reasons


def test_short_games_against_random_are_legal_and_deterministic() -> None:
    games: list[dict[str, Any]] = [{"mode": "alliance", "players": 2, "round_cap": 2}, {"round_cap": 2}]
    for options in games:
        first, end, reasons = _play(options, ["heuristic", "random"], seed=11)
        again, _, _ = _play(options, ["heuristic", "random"], seed=11)
        assert first == again
        assert end.results() is not None and end.invariants() == []
        assert all(r for r in reasons)


def test_search_hooks_value_positions_and_roll_out_legally() -> None:
    hooks = game_hooks("nerath")
    assert hooks.evaluate is not None and hooks.rollout_policy is not None and hooks.rollout_depth
    s = load_game("nerath", seed=3, mode="alliance", players=2)
    values = [hooks.evaluate(s, p) for p in range(2)]
    assert all(0.0 <= v <= 1.0 for v in values) and abs(sum(values) - 1.0) < 1e-9
    rng = Rng(5)
    for _ in range(60):
        if s.results() is not None:
            break
        action = hooks.rollout_policy(s, rng)
        assert s.is_legal(action)
        s, _ = s.apply(action)


def test_mcts_with_a_tiny_budget_plays_the_heuristics_moves() -> None:
    """The heuristic is MCTS's prior at the root: one iteration follows it, plan and all."""
    assert game_hooks("nerath").prior is not None
    s: NerathState = load_game("nerath", seed=4, mode="alliance", players=2)  # type: ignore[assignment]
    heuristic = make_agent("heuristic")
    searcher = make_agent("mcts:iterations=1")
    plain = make_agent("mcts:iterations=1:prior=0")
    searched = differ = 0
    for _ in range(250):
        p = s.pending()
        if p is None:
            break
        action = heuristic.choose(s, p.player, Rng(0))
        if p.player == 0:
            assert searcher.choose(s, 0, Rng(1)) == action, p.kind
            if len(s.legal_actions()) > 1:
                searched += 1
                differ += plain.choose(s, 0, Rng(1)) != action
        s, _ = s.apply(action)
    assert searched > 40
    assert differ > searched // 2  # without the prior, one iteration is a random pick


def test_the_heuristic_kind_finds_the_nerath_heuristic() -> None:
    assert isinstance(heuristic_for("nerath"), NerathHeuristic)


def test_cli_play_with_four_heuristic_seats_narrates_reasons() -> None:
    result = CliRunner().invoke(
        app,
        [
            "play", "nerath", "--seats", "heuristic,heuristic,heuristic,heuristic", "--seed", "2",
            "-o", "round_cap=1", "--max-actions", "150",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "heuristic (player 0)" in result.output
    assert PERCENT.search(result.output) and "attack " in result.output


@pytest.mark.rule("NER-CRD-04")
def test_plays_cards_with_the_choice_their_text_leaves_to_it() -> None:
    s = position([(K, "k1", "soldier", 1)], board=BOARD)
    s.d.treasure_hands[K] = ("horn",)
    action, _ = _decide(s)
    assert isinstance(action, PlayTreasure) and action.card == "horn" and action.target == "k1"
    s, _ = s.apply(action)
    s = begin_turn(s, DRAW)  # the Horn's property asks where its soldier goes
    action, reason = _decide(s)
    assert isinstance(action, PlayTreasure) and action.target and "choose" in reason
    # a card that destroys an enemy piece: the most valuable one
    t = position(
        [(K, "k2", "soldier", 1), (V, "v2", "soldier", 1), (V, "v2", "dragon", 1)],
        board=BOARD,
        rolls=[1, 1, 1],
    )
    t.d.hands[K] = ("volley",)
    t, _ = play(t, "move 1 soldier k2>v2", "pass", "fight v2", "pass")
    action, _ = _decide(t)
    assert action == PlayEvent("volley", "vailin:dragon")
