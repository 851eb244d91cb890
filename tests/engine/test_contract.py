"""The game contract, exercised through the fixture game."""

from __future__ import annotations

import pytest

from fixture_game import DiceRace, PlayCard, Respond, Roll
from warhorn.engine import (
    IllegalActionError,
    MalformedActionError,
    Match,
    OptionError,
    SaveError,
    ScriptedRng,
    UndoError,
    UnknownGameError,
    events_for,
    game_spec,
    load_game,
    registered_games,
)


def scripted(rolls: list[int], **options: int) -> DiceRace:
    opts = game_spec("dice-race").resolve_options(options)
    return DiceRace(opts, seed=0, rng=ScriptedRng(rolls))


def test_registry_lists_and_loads() -> None:
    assert "dice-race" in registered_games()
    state = load_game("dice-race", seed=4, players=3)
    assert state.num_players == 3
    with pytest.raises(UnknownGameError, match="no game named 'chess'"):
        load_game("chess")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "option 'colour': unknown option"),
        ({"players": "many"}, "option 'players': expected a whole number"),
        ({"players": 9}, "option 'players': must be at most 4"),
        ({"players": True}, "option 'players'"),
    ],
)
def test_bad_options_are_refused_by_name(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        load_game("dice-race", **options)


def test_apply_returns_new_state_and_never_mutates() -> None:
    state = scripted([3])
    before = state.digest()
    after, events = state.apply(Roll())
    assert state.digest() == before
    assert after.scores[0] == 3 and state.scores[0] == 0
    assert events[0].kind == "roll" and events[0].chance


def test_pending_decision_can_belong_to_another_player() -> None:
    state = scripted([6])
    after, _ = state.apply(Roll())
    decision = after.pending()
    assert decision is not None and decision.player == 1 and decision.kind == "respond"
    assert set(after.legal_actions()) == {Respond(True), Respond(False)}


def test_illegal_action_is_refused_with_rule_and_state_untouched() -> None:
    state = scripted([])
    before = state.digest()
    with pytest.raises(IllegalActionError) as info:
        state.apply(PlayCard("c9z"))
    assert info.value.rule == "FIX-CRD-01"
    with pytest.raises(IllegalActionError):
        state.apply(Respond(True))
    assert state.digest() == before


def test_text_and_json_input() -> None:
    state = scripted([])
    assert state.parse("roll") == Roll()
    with pytest.raises(MalformedActionError):
        state.parse("fly away")
    with pytest.raises(IllegalActionError):
        state.parse("respond block")
    with pytest.raises(MalformedActionError):
        state.decode({"kind": "roll", "dice": 3})


def test_hidden_draw_is_redacted_for_others() -> None:
    state = scripted([])
    card = state.hands[0][0]
    _, events = state.apply(PlayCard(card))
    drawn = next(e for e in events if e.kind == "card.drawn")
    assert "card" in drawn.data
    assert events_for([drawn], 0)[0].data["card"] == drawn.data["card"]
    other = events_for([drawn], 1)[0]
    assert "card" not in other.data and "draws a card" in other.text
    assert state.view(1)["hand"] == list(state.hands[1])
    assert set(state.hands[0]).isdisjoint(state.view(1)["hand"])


def test_undo_does_not_cross_a_roll_unless_hotseat() -> None:
    match = Match.new("dice-race", seed=3)
    match.play("roll")
    with pytest.raises(UndoError, match="roll or a draw"):
        match.undo()
    hotseat = Match.new("dice-race", seed=3, hotseat_undo=True)
    first = hotseat.play("roll")
    hotseat.undo()
    again = hotseat.play("roll")
    assert [e.to_json() for e in first] == [e.to_json() for e in again]


def test_undo_of_a_decision_without_chance() -> None:
    match = Match.from_state(scripted([6, 2]))
    match.play(Roll())
    match.play(Respond(True))
    assert match.undoable() == 1
    match.undo()
    assert match.state.pending() is not None and match.state.pending().kind == "respond"  # type: ignore[union-attr]
    with pytest.raises(UndoError):
        match.undo(5)


def test_save_load_round_trip_and_refusals() -> None:
    match = Match.new("dice-race", seed=11, players=3)
    for _ in range(15):
        if match.state.is_terminal:
            break
        match.play(match.state.legal_actions()[0])
    text = match.dumps()
    loaded = Match.from_save(text)
    assert loaded.state.digest() == match.state.digest()
    assert "pickle" not in text
    with pytest.raises(SaveError, match="not a warhorn save"):
        Match.from_save('{"game": 3}')
    with pytest.raises(SaveError, match="no game named"):
        Match.from_save(text.replace('"dice-race"', '"nope"'))
    with pytest.raises(SaveError, match="rules version"):
        Match.from_save(text.replace('"rules_version": "1"', '"rules_version": "0"'))
    tampered = match.to_save().model_copy(update={"final_digest": "0" * 64})
    with pytest.raises(SaveError, match="digest differs"):
        Match.from_save(tampered)
    bad_action = match.to_save().model_copy(update={"actions": [{"kind": "respond", "block": True}]})
    with pytest.raises(SaveError, match="action 1 does not replay"):
        Match.from_save(bad_action)
