"""The DragonLords observation encoder (the plugin's ``observation``): a fixed shape per option set,
and blind to another player's hidden tokens, hand, sorcerers' spells and shard colours."""

from __future__ import annotations

import numpy as np

from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.observation import DragonLordsObservation
from warhorn.games.dragonlords.state import DragonLordsState
from warhorn.interop.observation import observation_encoder

from .helpers import build, force


def position() -> DragonLordsState:
    """Player 1 holds hidden King, decoy and sorcerer (with spells) in three spaces, shards of two
    colours, and a hand; player 0 a sorcerer with a shard and a hand of its own."""
    return build(
        players=[
            {"people": "orcs", "hand": ["scroll_fireball", "scroll_heal"]},
            {"people": "dwarves", "hand": ["scroll_panic", "scroll_hope", "storm"]},
        ],
        spaces={
            "gorefort": force(
                0, 3, {"id": 10, "token": "king"}, {"id": 11, "token": "sorcerer", "shards": ["red"]}
            ),
            "bonefield": force(1, 2, {"id": 20, "token": "king"}, {"id": 23, "shards": ["blue", "green"]}),
            "khaz_thurn": force(1, 2, {"id": 21, "token": "decoy"}),
            "tusk_ridge": force(1, 1, {"id": 22, "token": "sorcerer", "spells": ["heal", "fireball"]}),
        },
        options={"advanced": True},
    )


def test_the_plugin_names_the_encoder_and_its_shape_is_fixed_per_option_set() -> None:
    two = load_game("dragonlords", seed=0, players=2)
    encoder = observation_encoder(two)
    assert isinstance(encoder, DragonLordsObservation)
    other = load_game("dragonlords", seed=9, players=2)
    assert encoder.encode(other, 1).shape == (encoder.size,)
    six = observation_encoder(load_game("dragonlords", seed=0, players=6))
    assert six.size > encoder.size  # more seats, more slots


def test_hidden_tokens_hands_spells_and_shard_colours_leave_the_vector_unchanged() -> None:
    state = position()
    encoder = DragonLordsObservation(state)
    seen = encoder.encode(state, 0)
    changed = {"tokens": False, "hand": False, "colours": False, "spells": False}
    for seed in range(12):
        other = state.determinize(0, Rng(seed))
        assert np.array_equal(encoder.encode(other, 0), seen), f"determinize seed {seed} changed the vector"
        pieces = {pc.id: pc for pc in other._all_pieces()}
        changed["tokens"] |= pieces[20].token != "king"
        changed["spells"] |= pieces[20].spells != ()
        changed["hand"] |= sorted(other.players[1].hand) != ["scroll_hope", "scroll_panic", "storm"]
        changed["colours"] |= pieces[23].shards != ("blue", "green")
    assert all(changed.values()), changed  # the hidden facts did change
    # what player 0 may see does show: its own shard's colour and its hand
    recoloured = position()
    recoloured.spaces["gorefort"] = force_with_shard(recoloured, "purple")
    assert not np.array_equal(encoder.encode(recoloured, 0), seen)
    rehanded = position()
    rehanded.players[0].hand = ("scroll_fireball", "storm")
    assert not np.array_equal(encoder.encode(rehanded, 0), seen)
    # and player 1 sees its own tokens: moving its King's token to the decoy's unit shows
    swapped = position()
    swapped.spaces["bonefield"] = swap_token(swapped, "bonefield", 20, "decoy")
    assert np.array_equal(encoder.encode(swapped, 0), seen)  # player 0 cannot tell
    assert not np.array_equal(encoder.encode(swapped, 1), encoder.encode(state, 1))


def force_with_shard(state: DragonLordsState, colour: str):
    from dataclasses import replace

    f = state.spaces["gorefort"]
    return replace(f, pieces=tuple(replace(pc, shards=(colour,)) if pc.shards else pc for pc in f.pieces))


def swap_token(state: DragonLordsState, space: str, pid: int, token: str):
    from dataclasses import replace

    f = state.spaces[space]
    return replace(f, pieces=tuple(replace(pc, token=token) if pc.id == pid else pc for pc in f.pieces))


def test_random_games_leak_nothing_through_the_vector() -> None:
    """Advanced four-player games (hidden tokens, hands, shards, carry questions): at many steps every
    player's vector is the same on a determinized twin."""
    options = {"players": 4, "advanced": True, "max_rounds": 3}
    encoder = observation_encoder(load_game("dragonlords", seed=0, **options))
    for seed in (1, 2):
        state = load_game("dragonlords", seed=seed, **options)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal and step < 600:
            if step % 11 == 0:
                for player in range(state.num_players):
                    seen = encoder.encode(state, player)
                    twin = state.determinize(player, Rng(rng.next_u64()))
                    assert np.array_equal(encoder.encode(twin, player), seen), (seed, step, player)
                    # the shard counts the view shows each seat
                    assert isinstance(encoder, DragonLordsObservation)
                    for p, entry in enumerate(state.view(player)["players"]):
                        at = encoder.at_seats + ((p - player) % state.num_players) * encoder.seat_width
                        assert seen[at + len(encoder.peoples) + 7] == entry["shards"]
            state, _ = state.apply(rng.choice(state.legal_actions()))
            step += 1
