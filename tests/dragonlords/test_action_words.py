"""DragonLords actions code as short token sequences in the interop vocabulary (issue 17 item 6)."""

from __future__ import annotations

import random

from warhorn.engine.registry import load_game
from warhorn.interop.action_index import ActionIndex


def test_every_action_word_is_one_token() -> None:
    """Space ids, track and ship references, piece references and content ids are vocabulary words:
    no action of a random game is spelled character by character."""
    options = {"players": 4, "advanced": True}
    index = ActionIndex.for_game("dragonlords", options)
    state = load_game("dragonlords", seed=3, **options)
    pick = random.Random(3)
    longest = 0
    for _ in range(600):
        if state.pending() is None:
            break
        actions = state.legal_actions()
        for a in actions:
            code = index.encode(a)
            words = [index.tokens[t] for t in code]
            assert "<spell>" not in words, a.notation()
            longest = max(longest, len(code))
        state, _ = state.apply(pick.choice(actions))
    assert longest <= 12


def test_the_words_are_in_the_public_view_only_and_name_no_card_or_shard() -> None:
    state = load_game("dragonlords", seed=0, players=2)
    words = set(state.view(None)["action_words"])
    assert "gorefort" in words and "track:north" in words
    assert not words & (set(state.content.cards) | set(state.content.quests) | set(state.content.shards))
    assert "action_words" not in state.view(0)


def test_the_words_are_built_once_per_content_and_world() -> None:
    """The vocabulary is constant: games of any option set on the same content and world share one
    tuple, equal to a fresh build."""
    from warhorn.games.dragonlords.state import _build_action_words

    two = load_game("dragonlords", seed=0, players=2)
    four = load_game("dragonlords", seed=5, players=4, advanced=True)
    assert two.action_words is four.action_words
    assert two.action_words == _build_action_words(two.content, two.world)
    assert two.view(None)["action_words"] == list(four.action_words)
