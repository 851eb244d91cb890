"""The spell-card exchange of a combat round (DLX-CMB-05, DLX-CMB-06, DLX-CMB-07)."""

from __future__ import annotations

import pytest

from warhorn.games.dragonlords.card_exchange import CardExchange, Event
from warhorn.games.dragonlords.content import shipped_content

CARDS = shipped_content().cards


def both() -> CardExchange:
    return CardExchange.start(attacker_sorcerer=True, defender_sorcerer=True)


@pytest.mark.rule("DLX-CMB-05")
def test_defender_first_alternating_one_damage_card_each_two_passes_end_it() -> None:
    exchange = both()
    assert exchange.to_play == "defender"
    assert (
        exchange.refusal("attacker", CARDS["storm"])
        == "DLX-CMB-05: it is the defender's turn to play or pass"
    )
    exchange, events = exchange.play("defender", CARDS["storm"])
    assert events == () and exchange.to_play == "attacker"  # waiting for an answer
    exchange, events = exchange.play("attacker", CARDS["berserk"])  # no answer: Storm resolves first
    assert events == (Event("resolve", "storm", "attacker"),)
    assert exchange.refusal("defender", CARDS["infernal_spell"]) == (
        "DLX-CMB-05: one damage card per player per combat round"
    )
    exchange, events = exchange.pass_turn("defender")  # Berserk hits the defender
    assert events == (Event("resolve", "berserk", "defender"),)
    assert not exchange.finished
    exchange, _ = exchange.pass_turn("attacker")
    assert exchange.finished
    assert (
        exchange.refusal("defender", CARDS["storm"]) == "DLX-CMB-05: the card exchange of this round is over"
    )
    # The next round starts afresh: the defender first, a new damage card each.
    assert (
        CardExchange.start(attacker_sorcerer=True, defender_sorcerer=True).refusal("defender", CARDS["storm"])
        is None
    )


@pytest.mark.rule("DLX-CMB-06")
def test_damage_cards_in_the_ranged_step_summon_elemental_only_by_the_player_whose_turn_it_is() -> None:
    exchange = both()
    refusal = exchange.refusal("defender", CARDS["summon_fire_elemental"])
    assert refusal is not None and refusal.startswith("DLX-CMB-06")
    exchange, _ = exchange.pass_turn("defender")
    assert exchange.refusal("attacker", CARDS["summon_fire_elemental"]) is None
    assert CARDS["wrath"].when == "tas"
    assert exchange.refusal("attacker", CARDS["wrath"]) == (
        "DLX-CMB-05: Wrath is played in another step of the combat round"
    )


@pytest.mark.rule("DLX-CMB-07")
@pytest.mark.rule("DLR-SCR-06")
def test_protection_answers_a_damage_card_and_a_side_without_sorcerer_plays_nothing() -> None:
    exchange, _ = both().play("defender", CARDS["infernal_spell"])
    after_dispel, events = exchange.play("attacker", CARDS["dispel_magic"])
    assert events == (Event("cancelled", "infernal_spell", "attacker"),)
    assert after_dispel.pending is None and after_dispel.to_play == "defender"
    after_reflection, events = exchange.play("attacker", CARDS["reflection"])
    assert after_reflection.pending is None
    assert events == (
        Event("reflected", "infernal_spell", "attacker"),
        Event("resolve", "infernal_spell", "defender"),
    )
    # Reflection with no damage card waiting is refused.
    assert both().refusal("defender", CARDS["reflection"]) == (
        "DLX-CMB-07: Reflection answers a damage card, and none is waiting"
    )
    # Invincible Shield is the defender's and does not answer a card.
    assert both().refusal("defender", CARDS["invincible_shield"]) is None
    _, events = both().play("defender", CARDS["invincible_shield"])
    assert events == (Event("resolve", "invincible_shield", "defender"),)
    # Storm kills the attacker's last sorcerer: the attacker plays no more cards.
    exchange, _ = both().play("defender", CARDS["storm"])
    exchange, events = exchange.pass_turn("attacker")
    assert events == (Event("resolve", "storm", "attacker"),)
    exchange = exchange.without_sorcerer("attacker")
    assert exchange.to_play == "defender"
    assert exchange.refusal("attacker", CARDS["berserk"]) is not None
    exchange, _ = exchange.pass_turn("defender")
    assert exchange.finished
    # Without a sorcerer in the space a side plays no card at all.
    lone = CardExchange.start(attacker_sorcerer=True, defender_sorcerer=False)
    assert lone.to_play == "attacker"
    assert lone.refusal("defender", CARDS["storm"]) is not None
    lone, events = lone.play("attacker", CARDS["storm"])  # nobody can answer: it takes effect at once
    assert events == (Event("resolve", "storm", "defender"),)


def test_invincible_shield_only_by_a_defending_sorcerer() -> None:
    exchange, _ = both().pass_turn("defender")
    assert exchange.refusal("attacker", CARDS["invincible_shield"]) == (
        "DLX-CMB-07: Invincible Shield is cast only by a defending sorcerer"
    )


def test_no_sorcerer_anywhere_means_no_exchange() -> None:
    assert CardExchange.start(attacker_sorcerer=False, defender_sorcerer=False).finished
