"""The action index: every action seen in random games of every registered game codes and decodes back."""

from __future__ import annotations

from typing import Any

import pytest

from warhorn.conformance import conformance_cases
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.nerath.actions import Move, Retreat
from warhorn.interop.action_index import ActionIndex, ActionIndexError, TokenChooser

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
