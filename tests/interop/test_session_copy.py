"""Copies of a session and of its choosers (``TokenSession.__deepcopy__``, ``TokenChooser.copy``,
``FlatChooser.copy``): they name every attribute (the compiled build has no instance ``__dict__`` to
copy), and a copy goes on independently of its original."""

from __future__ import annotations

import copy

import pytest

from warhorn.interop.session import TokenSession


def _attributes(obj: object) -> set[str]:
    if not hasattr(obj, "__dict__"):  # the compiled build: the pure run checks the source
        pytest.skip("a compiled class keeps its attributes outside an instance __dict__")
    return set(vars(obj))


@pytest.mark.parametrize(("game", "action_index"), [("defenders", "tokens"), ("smallworld", "flat")])
def test_a_copy_names_every_attribute_of_the_session_and_its_chooser(game: str, action_index: str) -> None:
    session = TokenSession(game, action_index=action_index)
    session.encoded_view(0)
    assert session.chooser is not None
    twin = copy.deepcopy(session)
    assert _attributes(twin) == _attributes(session)
    assert twin.chooser is not None
    assert _attributes(twin.chooser) == _attributes(session.chooser)


@pytest.mark.parametrize("action_index", ["tokens", "flat"])
def test_a_copied_session_chooses_independently_of_its_original(action_index: str) -> None:
    session = TokenSession("smallworld", action_index=action_index)
    session.reset(3)
    while True:  # a decision with a choice to make
        chooser = session.chooser
        assert chooser is not None
        if len(chooser.legal) > 1:
            break
        session.choose(int(chooser.mask().nonzero()[0][0]))
    before = (session.state.digest(), list(chooser.chosen), chooser.mask().tolist())
    twin = copy.deepcopy(session)
    assert twin.chooser is not None and twin.chooser is not chooser
    assert twin.observation(0).tolist() == session.observation(0).tolist()
    while twin.choose(int(twin.chooser.mask().nonzero()[0][-1])) is None:
        pass
    assert twin.state.digest() != before[0]
    assert (session.state.digest(), list(chooser.chosen), chooser.mask().tolist()) == before
    session.choose(int(chooser.mask().nonzero()[0][0]))  # the original still chooses
