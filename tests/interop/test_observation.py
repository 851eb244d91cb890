"""Encoded observations: fixed shape, and blind to what a player may not see (the game's own encoder
and the hashed view alike)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from warhorn.conformance import conformance_cases
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.interop.observation import OBSERVATION_KINDS, encode_view, observation_encoder, view_features

OPTION_SETS = sorted({(game, tuple(sorted(options.items()))) for game, options, _ in conformance_cases()})


def _id(case: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    game, options = case
    return f"{game}[{','.join(f'{k}={v}' for k, v in options) or 'default'}]"


@pytest.mark.parametrize("kind", OBSERVATION_KINDS)
@pytest.mark.parametrize("case", OPTION_SETS, ids=[_id(c) for c in OPTION_SETS])
def test_encoded_observation_leaks_nothing_hidden(
    case: tuple[str, tuple[tuple[str, Any], ...]], kind: str
) -> None:
    game, option_items = case
    encoder = observation_encoder(load_game(game, seed=0, **dict(option_items)), kind)
    state = load_game(game, seed=5, **dict(option_items))
    rng = Rng(5)
    step = 0
    while not state.is_terminal and step < 400:
        if step % 7 == 0:
            for player in range(state.num_players):
                seen = encoder.encode(state, player)
                assert seen.shape == (encoder.size,) and seen.dtype == np.float32
                other = state.determinize(player, Rng(rng.next_u64()))
                assert np.array_equal(encoder.encode(other, player), seen), (
                    f"step {step}: player {player}'s encoded observation depends on hidden facts"
                )
        state, _ = state.apply(rng.choice(state.legal_actions()))
        step += 1


def test_features_name_paths_and_values() -> None:
    view = {"spaces": {"a": {"owner": "k1", "pieces": [{"kind": "soldier"}, {"kind": "soldier"}]}}, "gold": 7}
    assert view_features(view) == {"spaces/a/owner=k1": 1.0, "spaces/a/pieces/kind=soldier": 2.0, "gold": 7.0}
    assert np.array_equal(encode_view(view), encode_view(dict(reversed(view.items()))))
    assert encode_view(view, size=64).shape == (64,)


@pytest.mark.parametrize("case", OPTION_SETS, ids=[_id(c) for c in OPTION_SETS])
def test_an_encoder_gives_the_same_vector_whatever_it_encoded_before(
    case: tuple[str, tuple[tuple[str, Any], ...]],
) -> None:
    """An encoder may keep what it computed last (Nerath's pieces); used on two games in turn, for
    every player, it must give what a fresh encoder gives."""
    game, option_items = case
    options = dict(option_items)
    encoder = observation_encoder(load_game(game, seed=0, **options))
    games = [load_game(game, seed=seed, **options) for seed in (7, 8)]
    rngs = [Rng(7), Rng(8)]
    for step in range(150):
        for g, state in enumerate(games):
            if state.is_terminal:
                continue
            if step % 5 == 0:
                fresh = observation_encoder(load_game(game, seed=0, **options))
                for player in range(state.num_players):
                    assert np.array_equal(encoder.encode(state, player), fresh.encode(state, player)), (
                        f"step {step}, game {g}, player {player}: the encoder's memory changed its answer"
                    )
            games[g], _ = state.apply(rngs[g].choice(state.legal_actions()))


GAMES_FIRST_OPTIONS = sorted({game: options for game, options, _ in reversed(conformance_cases())}.items())


@pytest.mark.parametrize("game, options", GAMES_FIRST_OPTIONS, ids=[g for g, _ in GAMES_FIRST_OPTIONS])
def test_an_encoder_gives_what_a_fresh_one_gives_whatever_came_before(
    game: str, options: dict[str, Any]
) -> None:
    """Encoders keep their last vector and rewrite what changed (Small World, Nerath, Defenders): one
    encoder fed the states of two random games in a shuffled order, for shuffled viewers, gives the
    vector a fresh encoder gives for each."""
    states = []
    for seed in (1, 2):
        state, rng = load_game(game, seed=seed, **options), Rng(seed)
        while not state.is_terminal and len(states) < 150 * seed:
            states.append(state)
            state, _ = state.apply(rng.choice(state.legal_actions()))
    order = Rng(3)
    picked = [order.choice(states) for _ in range(30)]
    first = load_game(game, seed=0, **options)
    shared = observation_encoder(first)
    for state in picked:
        player = order.choice(range(state.num_players))
        fresh = observation_encoder(first)
        assert np.array_equal(shared.encode(state, player), fresh.encode(state, player))


def test_a_small_world_encoder_that_failed_halfway_starts_afresh() -> None:
    """A state the encoder cannot read (a marker that cannot be looked up) fails the call; the next
    call gives the vector a fresh encoder gives, not one half updated."""
    first = load_game("smallworld", seed=0)
    encoder = observation_encoder(first)
    state = load_game("smallworld", seed=4)
    encoder.encode(state, 0)
    broken = state.copy()
    region = next(iter(broken.areas))
    broken.areas[region].markers = ([],)  # type: ignore[assignment]
    with pytest.raises(TypeError):
        encoder.encode(broken, 0)
    later, _ = state.apply(Rng(4).choice(state.legal_actions()))
    assert np.array_equal(encoder.encode(later, 0), observation_encoder(first).encode(later, 0))
