"""The action index: every action seen in random games of every registered game codes and decodes back."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from warhorn.conformance import conformance_cases
from warhorn.engine.registry import game_plugin, load_game
from warhorn.engine.rng import Rng
from warhorn.games.nerath.actions import Move, Retreat
from warhorn.games.smallworld.actions import Deploy
from warhorn.interop.action_index import (
    ActionIndex,
    ActionIndexError,
    FlatActionIndex,
    FlatChooser,
    TokenChooser,
    action_index_for,
)

OPTION_SETS = sorted({(game, tuple(sorted(options.items()))) for game, options, _ in conformance_cases()})


def _id(case: tuple[str, tuple[tuple[str, Any], ...]]) -> str:
    game, options = case
    return f"{game}[{','.join(f'{k}={v}' for k, v in options) or 'default'}]"


@pytest.mark.parametrize("case", OPTION_SETS, ids=[_id(c) for c in OPTION_SETS])
def test_every_action_of_a_random_game_round_trips(case: tuple[str, tuple[tuple[str, Any], ...]]) -> None:
    game, option_items = case
    options = dict(option_items)
    index = ActionIndex.for_game(game, options)
    for seed in (1, 2):
        state = load_game(game, seed=seed, **options)
        assert ActionIndex.for_state(load_game(game, seed=0, **options)).tokens == index.tokens
        rng = Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            codes = set()
            for action in legal:
                code = index.encode(action)
                assert all(0 <= token < index.size for token in code)
                assert index.decode(code) == action
                codes.add(code)
            assert len(codes) == len(legal), "two legal actions share a code"
            state, _ = state.apply(rng.choice(legal))


def test_choosing_token_by_token_reaches_exactly_the_legal_actions() -> None:
    state = load_game("nerath", seed=3, round_cap=2)
    index = ActionIndex.for_game("nerath", {"round_cap": 2})
    rng = Rng(3)
    while not state.is_terminal:
        legal = state.legal_actions()
        chooser = TokenChooser(index, legal)
        chosen = None
        while chosen is None:
            mask = chooser.mask()
            assert mask.shape == (index.size,) and mask.any()
            chosen = chooser.choose(rng.choice([int(t) for t in mask.nonzero()[0]]))
        assert chosen in legal
        state, _ = state.apply(chosen)


def test_a_string_outside_the_vocabulary_is_spelled_and_read_back() -> None:
    index = ActionIndex.for_game("nerath", {"round_cap": 2})
    retreat = Retreat(moves=(("warship(soldier)", "ember_sound"),))
    assert index.decode(index.encode(retreat)) == retreat
    assert "str:ember_sound" in index.tokens


def test_malformed_codes_are_refused_with_a_reason() -> None:
    index = ActionIndex.for_game("nerath", {"round_cap": 2})
    code = index.encode(Move(piece="soldier", count=2, path=("a", "b")))
    with pytest.raises(ActionIndexError, match="ends inside"):
        index.decode(code[:-1])
    with pytest.raises(ActionIndexError, match="left after"):
        index.decode((*code, code[-1]))
    with pytest.raises(ActionIndexError, match="starts with its kind"):
        index.decode(code[1:])
    with pytest.raises(ActionIndexError, match="outside"):
        index.encode(Move(piece="soldier", count=10_000, path=("a",)))


# --- the flat index (a game whose plugin declares its action domains) ---------------------------

FLAT_OPTION_SETS = [case for case in OPTION_SETS if game_plugin(case[0]).action_domains is not None]


def test_small_world_declares_a_flat_index_and_nerath_does_not() -> None:
    assert {game for game, _ in FLAT_OPTION_SETS} == {"smallworld"}
    nerath = load_game("nerath", seed=0, round_cap=2)
    assert isinstance(action_index_for(nerath), ActionIndex)
    with pytest.raises(ValueError, match="nerath declares no action domains"):
        action_index_for(nerath, "flat")
    assert isinstance(action_index_for(load_game("smallworld", seed=0), "tokens"), ActionIndex)


@pytest.mark.parametrize("case", FLAT_OPTION_SETS, ids=[_id(c) for c in FLAT_OPTION_SETS])
def test_every_action_of_a_random_game_has_a_flat_number_and_back(
    case: tuple[str, tuple[tuple[str, Any], ...]],
) -> None:
    """Action -> number -> action for every legal action of random games; the index (so the mask's
    size) is the same whatever the seed it is read from; the mask is exactly the legal numbers."""
    game, option_items = case
    options = dict(option_items)
    index = action_index_for(load_game(game, seed=0, **options), "flat")
    assert isinstance(index, FlatActionIndex)
    for seed in (1, 2):
        state = load_game(game, seed=seed, **options)
        other = action_index_for(state, "flat")
        assert isinstance(other, FlatActionIndex) and other.blocks() == index.blocks()
        rng = Rng(seed)
        while not state.is_terminal:
            legal = state.legal_actions()
            numbers = [index.encode(action) for action in legal]
            assert all(0 <= number < index.size for number in numbers)
            assert [index.decode(number) for number in numbers] == legal
            assert len(set(numbers)) == len(legal), "two legal actions share a number"
            chooser = FlatChooser(index, legal)
            mask = chooser.mask()
            assert mask.shape == (index.size,) and set(np.flatnonzero(mask)) == set(numbers)
            action = rng.choice(legal)
            assert chooser.choose(index.encode(action)) == action
            state, _ = state.apply(action)


def test_the_flat_blocks_are_the_documented_layout() -> None:
    index = action_index_for(load_game("smallworld", seed=0), "flat")
    assert isinstance(index, FlatActionIndex)
    blocks = index.blocks()
    assert [kind for kind, *_ in blocks] == sorted(kind for kind, *_ in blocks)
    assert blocks[0][1] == 0 and blocks[-1][2] == index.size
    assert all(a[2] == b[1] for a, b in itertools.pairwise(blocks))
    deploy = next(block for block in blocks if block[0] == "deploy")
    assert deploy[3] == (("region", 57), ("count", 20), ("unit", 3))
    assert index.size == 10_921
    # mixed radix, the first field most significant
    first = index.decode(deploy[1])
    assert isinstance(first, Deploy) and (first.count, first.unit) == (1, "token")
    assert index.encode(first) == deploy[1]
    assert index.encode(Deploy(region=first.region, count=1, unit="beast")) == deploy[1] + 1
    assert index.encode(Deploy(region=first.region, count=2, unit="token")) == deploy[1] + 3


def test_a_value_outside_the_declared_domains_is_refused_with_a_reason() -> None:
    index = action_index_for(load_game("smallworld", seed=0), "flat")
    with pytest.raises(
        ActionIndexError, match="deploy count=99 is outside the game's declared action domains"
    ):
        index.encode(Deploy(region=index.decode(0).region, count=99))  # type: ignore[attr-defined]
    with pytest.raises(ActionIndexError, match="outside 0"):
        index.decode(index.size)
    with pytest.raises(ActionIndexError, match="no finite domain"):
        FlatActionIndex(index.codec, {})
