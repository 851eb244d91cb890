"""Legality is single-sourced: the pending decision's generator (``legal_actions``) is the only
judge. Every action it lists is accepted (by ``is_legal``, its handler's ``check`` and
``apply``); every other well-formed action is refused with a reason and changes nothing. The
check runs over every action kind of the codec, from random play and from scenario positions
for the kinds random play seldom reaches (battles, rewards, slaying)."""

from __future__ import annotations

import pytest

from warhorn.engine.actions import Action
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.defenders.actions import CODEC
from warhorn.games.defenders.records import DecisionKind
from warhorn.games.defenders.rules import decisions
from warhorn.games.defenders.state import DefendersState

from .helpers import give, grant, play, put, scenario

BLACK = 3
#: Other actions tried at each position: at most this many, from those seen legal elsewhere.
REFUSALS_PER_POSITION = 25


def check_agreement(state: DefendersState, pool: dict[str, Action], seen: set[str]) -> None:
    """Every listed action is accepted; a sample of other actions is refused without a change."""
    handler = decisions.handler_for(state)
    legal = state.legal_actions()
    if handler is None:
        assert legal == []
        return
    decision = state.pending()
    assert decision is not None and decision.kind in handler.kinds
    for action in legal:
        assert state.is_legal(action) and handler.check(state, action) is None, action.notation()
        state.apply(action)  # must not raise
        seen.add(action.kind)
        pool.setdefault(action.notation(), action)
    listed = set(legal)
    others = [a for a in pool.values() if a not in listed]
    before = state.digest()
    for action in others[-REFUSALS_PER_POSITION:]:
        assert not state.is_legal(action)
        reason = handler.check(state, action)
        assert isinstance(reason, IllegalActionError) and str(reason), action.notation()
        with pytest.raises(IllegalActionError):
            state.apply(action)
    assert state.digest() == before


def test_every_listed_action_is_accepted_and_every_other_refused() -> None:
    pool: dict[str, Action] = {}
    seen: set[str] = set()
    # Random play, choosing a kind of action first so that rare kinds come up too.
    for seed, heroes in enumerate(("cleric,wizard,eagle_rider,sorceress", "dwarf,paladin,ranger,rogue") * 2):
        state = load_game("defenders", seed=seed, players=4, heroes=heroes, easy_setup=True)
        assert isinstance(state, DefendersState)
        rng = Rng(seed)
        while state.pending() is not None:
            check_agreement(state, pool, seen)
            legal = state.legal_actions()
            kinds = sorted({a.kind for a in legal})
            kind = kinds[rng.below(len(kinds))]
            pick = [a for a in legal if a.kind == kind]
            state, _ = state.apply(pick[rng.below(len(pick))])
    # Scenario positions: a group battle (join, commit, next attacker), a slayer, held rewards,
    # a quest on the spot and a discard owed.
    s = scenario(
        ("paladin", "wizard"), at={"paladin": "K3", "wizard": "K3"}, rolls=[1, 4, 4, 4, 4, 4], fallback=True
    )
    s.generals[BLACK].wounds = 2
    give(s, "paladin", "K1h")
    give(s, "wizard", "K2h")
    grant(s, "paladin", "q_gate", "q_blessing")
    for step in ("attack_general", "join wizard", "commit paladin K1h", "commit_done paladin"):
        check_agreement(s, pool, seen)
        s = play(s, step)
    for step in ("commit wizard K2h", "commit_done wizard", "next_attacker wizard"):
        check_agreement(s, pool, seen)
        s = play(s, step)
    s = scenario(("paladin",), at={"paladin": "K3"}, generals_at_start=False, fallback=True)
    s.slots[0].slain.append(BLACK)
    put(s, "K3", black=2)
    check_agreement(s, pool, seen)  # slay
    s = scenario(("wizard",), at={"wizard": "R1"}, fallback=True)
    give(s, "wizard", "R1h")
    put(s, "R1", red=1)
    check_agreement(s, pool, seen)  # fireball, build a gate
    s = scenario(("cleric",), at={"cleric": "K1"}, fallback=True)
    put(s, "K1", black=1)
    s = play(s, "end_day")
    assert s.pending().kind == DecisionKind.TURN_UNDEAD
    check_agreement(s, pool, seen)
    s = scenario(("paladin",), at={"paladin": "R1"}, fallback=True)
    give(s, "paladin", *[c.id for c in s.board.hero_cards if c.location and c.colour == "red"][:9])
    s.owed_discards.append([0, 1])
    s.edited()
    check_agreement(s, pool, seen)
    assert s.pending().kind == DecisionKind.DISCARD
    assert seen == set(CODEC.kinds), f"never listed: {sorted(set(CODEC.kinds) - seen)}"


def test_each_decision_kind_has_one_handler() -> None:
    kinds = [k for h in decisions.HANDLERS for k in h.kinds]
    assert sorted(kinds) == sorted(DecisionKind) and len(kinds) == len(set(kinds))
