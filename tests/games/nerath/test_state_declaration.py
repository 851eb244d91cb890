"""Every field of Nerath's state is declared once (who may see it, how it is copied), and copy,
snapshot, views and determinize are checked against the declaration: a field added without
being declared, snapshotted, hidden or kept fails here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace

import pytest

from warhorn.engine import Rng, load_game
from warhorn.engine.deck import Deck
from warhorn.games.nerath.game import NerathState
from warhorn.games.nerath.state import NOBODY, OWNER, PUBLIC, NerathData

FIELDS = [f.name for f in fields(NerathData)]


def mid_game() -> NerathState:
    s = load_game("nerath", seed=3, round_cap=6)
    chooser = Rng(1)
    for _ in range(400):
        legal = s.legal_actions()
        s, _ = s.apply(legal[chooser.below(len(legal))])
    assert isinstance(s, NerathState)
    return s


def _bump_deck(deck: Deck) -> Deck:
    return Deck(deck.draw_pile[1:] + deck.draw_pile[:1], deck.discard_pile)


#: A change to each field that a snapshot must show (one entry per field: a new field needs one).
CHANGES: dict[str, Callable[[NerathData], None]] = {
    "units": lambda d: d.units.pop(max(d.units)),
    "next_uid": lambda d: setattr(d, "next_uid", d.next_uid + 1),
    "gold": lambda d: d.gold.__setitem__(1, d.gold[1] + 1),
    "vp": lambda d: d.vp.__setitem__(1, d.vp[1] + 1),
    "control": lambda d: d.control.__setitem__(d.control.index(1), 2),
    "hands": lambda d: d.hands.__setitem__(1, (*d.hands[1], "extra")),
    "treasure_hands": lambda d: d.treasure_hands.__setitem__(1, (*d.treasure_hands[1], "extra")),
    "treasures_in_play": lambda d: d.treasures_in_play.__setitem__(1, (*d.treasures_in_play[1], "x")),
    "event_decks": lambda d: d.event_decks.__setitem__(1, _bump_deck(d.event_decks[1])),
    "treasure_deck": lambda d: setattr(d, "treasure_deck", _bump_deck(d.treasure_deck)),
    "guardians": lambda d: d.guardians.pop(min(d.guardians)),
    "guardian_stack": lambda d: setattr(d, "guardian_stack", _bump_deck(d.guardian_stack)),
    "pos": lambda d: setattr(d, "pos", replace(d.pos, round=d.pos.round + 1)),
    "battles_todo": lambda d: setattr(d, "battles_todo", (*d.battles_todo, 0)),
    "battle": lambda d: None,  # a battle in progress: covered by the position round trip
    "landings": lambda d: setattr(d, "landings", (*d.landings, 1)),
    "amok": lambda d: setattr(d, "amok", (*d.amok, 1)),
    "amok_from": lambda d: None,  # only with amok (covered by the position round trip)
    "control_at_start": lambda d: setattr(d, "control_at_start", (9, *d.control_at_start[1:])),
    "captured": lambda d: setattr(d, "captured", d.captured | {0}),
    "placed": lambda d: setattr(d, "placed", (*d.placed, (0, 1))),
    "new_castles": lambda d: setattr(d, "new_castles", d.new_castles | {0}),
    "new_pieces_on": lambda d: None,  # derived from placements; not part of the snapshot
    "result": lambda d: None,  # shown through the view's result
    "round_cap_hit": lambda d: None,  # recorded in the result's reason
    "winner_pending": lambda d: None,  # decided within the same step
    "effects": lambda d: None,  # CardEffects: covered by the position round trip
    "windows": lambda d: None,  # covered by the position round trip
    "cancelled": lambda d: None,  # covered by the position round trip
}


def test_every_field_is_declared_with_who_sees_it_and_how_it_is_copied() -> None:
    for f in fields(NerathData):
        assert f.metadata.get("seen_by") in (PUBLIC, OWNER, NOBODY), f.name
        assert "copy" in f.metadata, f.name
    assert set(CHANGES) == set(FIELDS), "a field without a snapshot check"


def test_a_copy_owns_its_containers() -> None:
    s = mid_game()
    twin = s.d.copy()
    for name in FIELDS:
        value = getattr(s.d, name)
        assert getattr(twin, name) == value, name
        if isinstance(value, dict | list):
            assert getattr(twin, name) is not value, f"{name} is shared by copies: declare its copy"


@pytest.mark.parametrize("name", FIELDS)
def test_the_snapshot_shows_a_change_to_each_field(name: str) -> None:
    s = mid_game()
    twin = s.copy()
    before = twin.digest()
    CHANGES[name](twin.d)
    twin.touch()
    if getattr(twin.d, name) != getattr(s.d, name):
        assert twin.digest() != before, f"the snapshot misses {name}"


def test_hidden_fields_stay_out_of_views_and_owner_fields_show_to_their_owner() -> None:
    s = mid_game()
    for name in FIELDS:
        seen_by = next(f.metadata["seen_by"] for f in fields(NerathData) if f.name == name)
        if seen_by == PUBLIC:
            continue
        twin = s.copy()
        value = getattr(twin.d, name)
        if name in ("hands", "treasure_hands"):  # other cards, as many (how many is public)
            value[1] = tuple(f"other{n}" for n in range(len(value[1])))
        else:
            CHANGES[name](twin.d)
        if getattr(twin.d, name) == getattr(s.d, name):
            continue
        others = [p for p in (None, 0, 2, 3) if p != 1]
        for player in others:
            assert twin.view_json(player) == s.view_json(player), (name, player)
        if seen_by == OWNER:
            assert twin.view_json(1) != s.view_json(1), name


def test_determinize_keeps_every_public_field() -> None:
    s = mid_game()
    for player in range(s.num_players):
        other = s.determinize(player, Rng(7))
        for f in fields(NerathData):
            if f.metadata["seen_by"] == PUBLIC and f.name != "guardians":
                assert getattr(other.d, f.name) == getattr(s.d, f.name), (player, f.name)
        for space, slots in s.d.guardians.items():
            assert [g for g in other.d.guardians[space] if g.face_up] == [g for g in slots if g.face_up]
