"""Shard ultimatums and offers of mercy (DLX-SHD-04)."""

from __future__ import annotations

import pytest

from warhorn.games.dragonlords.ultimatum import TurnUltimatums, hand_over_refusal, mercy_terms


@pytest.mark.rule("DLX-SHD-04")
def test_ultimatums_spare_who_pays_mercy_terms_and_timing() -> None:
    turn = TurnUltimatums("red")
    held = {"green", "purple"}
    assert (
        turn.demand_refusal("red", ("green",), held) == "DLX-SHD-04: an ultimatum is made to another player"
    )
    assert turn.demand_refusal("blue", ("yellow",), held) == "DLX-SHD-04: blue holds no yellow shard"
    demand = turn.demand("blue", ("green",), held)
    refused = turn.answer(demand, accept=False)
    assert refused.attack_refusal("blue") is None  # refused: the attack may go ahead
    paid = turn.answer(demand, accept=True)
    assert (
        paid.attack_refusal("blue") == "DLX-SHD-04: blue handed over shards and may not be attacked this turn"
    )
    # Any number of ultimatums a turn.
    paid = paid.answer(paid.demand("white", ("purple",), {"purple"}), accept=True)
    assert paid.spared == {"blue", "white"} and paid.attack_refusal("black") is None
    # Mercy: the attacker leaves if he can, else the defender, else no deal.
    assert mercy_terms(attacker_can_leave=True, defender_can_leave=True) == "attacker_leaves"
    assert mercy_terms(attacker_can_leave=False, defender_can_leave=True) == "defender_leaves"
    assert mercy_terms(attacker_can_leave=False, defender_can_leave=False) is None
    # After a refusal, shards change hands in a combat only after step 7.
    assert hand_over_refusal(None) is None and hand_over_refusal(7) is None
    assert hand_over_refusal(5) == "DLX-SHD-04: during a combat, shards may be handed over only after step 7"
    with pytest.raises(ValueError, match="holds no yellow"):
        turn.demand("blue", ("yellow",), held)
