"""The Darkness Spreads narration reads in words: what the card places and moves, never its id."""

from __future__ import annotations

from warhorn.engine import Rng, load_game


def test_darkness_spreads_lines_name_no_card_ids() -> None:
    state = load_game("defenders", seed=4, players=2)
    rng = Rng(9)
    lines: list[str] = []
    for _ in range(400):
        if state.pending() is None:
            break
        legal = state.legal_actions()
        state, events = state.apply(legal[rng.below(len(legal))])
        lines += [e.text for e in events if e.kind == "darkness_drawn"]
    assert len(lines) >= 3
    for line in lines:
        assert line.startswith("Darkness spreads: ") and "ds_" not in line, line
