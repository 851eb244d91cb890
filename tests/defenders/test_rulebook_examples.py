"""Every worked example of the Defenders of the Realm rulebook, reproduced position by position on
the shipped board (the English original; the Italian seed carries the same examples).

Each test names the rulebook section its example stands in and the rule IDs it checks. The
examples are the King's Champion scoring, the set-up placement (Father Oak Forest), the two
examples of engaging minions, the two Darkness Spreads card examples (Balazarg and Raven Forest;
Orc Patrols with Varkolak), the overrun and tainted-land rules as the section states them, the
Monarch City card, the step-by-step guide and the group attack on a general, the example quest
card (War Banner of Valor) and the example purple card (no Darkness Spreads cards this turn).
"""

from __future__ import annotations

import pytest

from warhorn.engine.deck import Deck
from warhorn.games.defenders.game import load_board
from warhorn.games.defenders.rules import cards, setup
from warhorn.games.defenders.state import DefendersState

from .helpers import MC, give, play, put, scenario

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3


def realm(heroes: tuple[str, ...] = ("paladin",), **kwargs: object) -> DefendersState:
    """A clean position on the shipped board (generals on their starts without minions)."""
    return scenario(heroes, board=load_board(), **kwargs)  # type: ignore[arg-type]


def at(s: DefendersState, name: str) -> list[int]:
    return s.minions[s.board.loc(name)]


def notations(s: DefendersState) -> set[str]:
    return {a.notation() for a in s.legal_actions()}


@pytest.mark.rule("DEF-END-03")
def test_example_kings_champion() -> None:
    """Section "The King's Champion": Garrett the Rogue (6 quests, 2 generals: 8 points) is the
    King's Champion; Johnny the Paladin (4 + 1) and Ryan the Ranger (5 + 0) both score 5, Ryan
    ahead on quests; Becky the Wizard (3 + 1) scores 4."""
    s = realm(("rogue", "paladin", "ranger", "wizard"))
    s.quests_done = [6, 4, 5, 3]
    s.generals_slain = [2, 1, 0, 1]
    s.outcome, s.won, s.ending = "win", True, "generals_defeated"
    r = s.results()
    assert r is not None and r.winners == frozenset({0, 1, 2, 3})
    assert r.scores == {0: 8.0, 1: 5.0, 2: 5.0, 3: 4.0}
    assert r.ranking == ((0,), (2,), (1,), (3,))


@pytest.mark.rule("DEF-SET-04")
@pytest.mark.rule("DEF-SET-05")
def test_example_setup_father_oak_forest_gets_two_green_minions() -> None:
    """Section "Set Up", step 8: a card showing Father Oak Forest (a green location) in the first
    three cards puts 2 green minions there, whatever the card shows; special cards drawn are
    discarded and redrawn; after set-up 18 minions stand on 6 to 12 locations besides the
    generals' (here the generals' escorts are left out, as in a clean position)."""
    s = realm(fallback=True)
    board = s.board
    first = ["ds_07", "ds_all_is_quiet#1", "ds_orc_patrols_varkolak"]  # Father Oak / Greenleaf, 1 each
    rest = [c.id for c in board.darkness if c.id not in first]
    s.ds_deck = Deck(tuple(first + rest), ())
    setup.setup_minions(s)
    draws = [e.data for e in s.events if e.kind == "setup_draw"]
    assert draws[0]["card"] == "ds_07" and draws[0]["redraw"] is None
    assert draws[1]["redraw"] == draws[2]["redraw"] == "special or single-location card"
    assert at(s, "Father Oak Forest")[GREEN] >= 2 and at(s, "Greenleaf Village")[GREEN] >= 2
    assert sum(map(sum, s.minions)) == 18
    assert 6 <= sum(1 for m in s.minions if sum(m)) <= 12
    assert s.ds_deck.discard_pile == ()  # the whole deck is reshuffled afterwards


@pytest.mark.rule("DEF-ACT-10")
@pytest.mark.rule("DEF-ENM-02")
def test_example_engage_minions_three_orcs_then_one_undead_and_two_dragonkin() -> None:
    """Section "Actions", Engage Minions in Combat. Example 1: 3 orcs, 3 green dice. Example 2:
    1 undead and 2 dragonkin, 1 black die (4+ kills the undead) and 2 blue dice (each 5+ kills a
    dragonkin); one action attacks every minion on the location."""
    s = realm(at={"paladin": "Father Oak Forest"}, rolls=[3, 1, 6, 5, 4, 4], ds=["ds_all_is_quiet#1"])
    put(s, "Father Oak Forest", green=3)
    s, events = s.apply(s.parse("fight Father_Oak_Forest"))
    rolls = [e for e in events if e.kind == "roll"]
    assert len(rolls) == 1 and len(rolls[0].data["dice"]) == 3 and "orc" in rolls[0].data["purpose"]
    assert at(s, "Father Oak Forest") == [0, 1, 0, 0] and s.slots[0].actions == 4  # 3 and 6 kill
    s.minions[s.board.loc("Father Oak Forest")][GREEN] = 0
    s.supply[GREEN] += 1
    put(s, "Father Oak Forest", black=1, blue=2)
    s, events = s.apply(s.parse("fight Father_Oak_Forest"))
    rolls = [e for e in events if e.kind == "roll"]
    assert [len(e.data["dice"]) for e in rolls] == [2, 1]  # blue dice, then the black die
    assert "need 5+" in rolls[0].data["purpose"] and "need 4+" in rolls[1].data["purpose"]
    assert at(s, "Father Oak Forest") == [0, 0, 1, 0] and s.slots[0].actions == 3  # 5 and 4 kill


@pytest.mark.rule("DEF-DRK-02")
@pytest.mark.rule("DEF-GEN-11")
def test_example_balazarg_advances_to_raven_forest_only_from_scorpion_canyon() -> None:
    """Section "Darkness Spreads Cards", Example 1: the card names Balazarg and Raven Forest with
    1 demon. From Scorpion Canyon he advances to Raven Forest with 1 new demon; already at Raven
    Forest, Angel Tear Falls or Bounty Bay, the card does not move him and adds no demon."""
    s = realm(ds=["ds_12"])
    s = play(s, "end_day")
    assert s.board.name(s.generals[RED].loc) == "Raven Forest" and at(s, "Raven Forest") == [1, 0, 0, 0]
    for where in ("Raven Forest", "Angel Tear Falls", "Bounty Bay"):
        s = realm(ds=["ds_12"])
        s.generals[RED].loc = s.board.loc(where)
        s = play(s, "end_day")
        assert s.board.name(s.generals[RED].loc) == where and at(s, where) == [0, 0, 0, 0], where
        assert at(s, "Eagle Peak Pass") == [0, 0, 1, 0]  # the card's minions arrive all the same


@pytest.mark.rule("DEF-DRK-05")
@pytest.mark.rule("DEF-DRK-02")
def test_example_orc_patrols_and_varkolak_advancing() -> None:
    """Section "Darkness Spreads Cards", Example 2: one orc on each green location that is empty;
    Varkolak moves one space forward along his path with 1 new undead."""
    s = realm(ds=["ds_orc_patrols_varkolak"])
    put(s, "Raven Forest", red=1)
    put(s, "Unicorn Forest", green=2)
    greens = [loc.name for i, loc in enumerate(s.board.locations) if s.board.colour_of[i] == GREEN]
    empty = [g for g in greens if sum(at(s, g)) == 0]
    s = play(s, "end_day")
    assert all(at(s, g) == [0, 1, 0, 0] for g in empty)
    assert at(s, "Raven Forest") == [1, 0, 0, 0] and at(s, "Unicorn Forest") == [0, 2, 0, 0]
    assert s.board.name(s.generals[BLACK].loc) == "Windy Pass" and at(s, "Windy Pass") == [0, 0, 0, 1]


@pytest.mark.rule("DEF-DRK-05")
def test_example_all_is_quiet_darkness_card() -> None:
    """Section "Darkness Spreads Cards", All is Quiet: no new enemies, no general moves."""
    s = realm(ds=["ds_all_is_quiet#2"])
    before = [g.loc for g in s.generals if g is not None]
    s = play(s, "end_day")
    assert sum(map(sum, s.minions)) == 0 and [g.loc for g in s.generals if g is not None] == before


@pytest.mark.rule("DEF-OVR-01")
@pytest.mark.rule("DEF-OVR-02")
@pytest.mark.rule("DEF-OVR-03")
@pytest.mark.rule("DEF-OVR-07")
def test_example_overrun_and_tainted_land_around_enchanted_glade() -> None:
    """Section "Overruns and Tainted Land", as the section states it, on Enchanted Glade (3 undead):
    its connected locations are Eagle Nest Inn (3 orcs), Rock Bridge Pass (3 dragonkin) and
    Unicorn Forest (empty). A card brings a 4th undead: a crystal instead of the 4th minion, and
    one undead for every connected location - Rock Bridge Pass, already at 3, is tainted and
    takes no minion nor overruns in turn; the Inn may not be overrun or tainted. Night two: the
    tainted Glade gets a 4th minion again and overruns again, taking a second crystal."""
    s = realm(ds=["ds_40", "ds_15"])  # Wolf Pass 1 blue, Enchanted Glade 1 undead; then 2 undead
    put(s, "Enchanted Glade", black=3)
    put(s, "Eagle Nest Inn", green=3)
    put(s, "Rock Bridge Pass", blue=3)
    s = play(s, "end_day")
    b = s.board
    assert at(s, "Enchanted Glade") == [0, 0, 0, 3] and s.taint[b.loc("Enchanted Glade")] == 1
    assert at(s, "Rock Bridge Pass") == [0, 0, 3, 0] and s.taint[b.loc("Rock Bridge Pass")] == 1
    assert at(s, "Eagle Nest Inn") == [0, 3, 0, 0] and s.taint[b.loc("Eagle Nest Inn")] == 0
    assert at(s, "Unicorn Forest") == [0, 0, 0, 1]
    assert s.crystals_left == 10
    s = play(s, "end_day")  # the second card: 2 undead for the tainted Glade
    assert s.taint[b.loc("Enchanted Glade")] == 2 and at(s, "Enchanted Glade") == [0, 0, 0, 3]
    assert s.taint[b.loc("Rock Bridge Pass")] == 2 and s.taint[b.loc("Eagle Nest Inn")] == 0
    assert at(s, "Unicorn Forest") == [0, 0, 0, 2]  # one overrun for the placement of two
    assert s.crystals_left == 8


@pytest.mark.rule("DEF-OVR-04")
@pytest.mark.rule("DEF-OVR-05")
def test_example_overrun_notes_demons_taint_at_three_and_monarch_city_falls_at_five() -> None:
    """Section "Overruns and Tainted Land", the two notes: a 3rd demon taints the land when all
    three are demons, not a mix; Monarch City never overruns, but 5 minions there lose the game."""
    from warhorn.games.defenders.rules.minions import add_minions

    s = realm()
    add_minions(s, s.board.loc("Blood Flats"), RED, 3)
    put(s, "Ghost Marsh", red=2, green=1)
    add_minions(s, s.board.loc("Ghost Marsh"), RED, 0)
    assert s.taint[s.board.loc("Blood Flats")] == 1 and s.taint[s.board.loc("Ghost Marsh")] == 0
    put(s, MC, red=1, green=1, blue=1, black=1)
    add_minions(s, s.board.monarch, GREEN, 1)
    assert s.outcome == "five minions stand in Monarch City" and s.taint[s.board.monarch] == 0


@pytest.mark.rule("DEF-DRK-05")
@pytest.mark.rule("DEF-CRD-02")
def test_example_monarch_city_card() -> None:
    """Section "Darkness Spreads Cards", The Monarch City card: one minion of each colour found next
    to the city enters it; the hero and Darkness Spreads decks are reshuffled, used purple cards
    left out."""
    s = realm(ds=["ds_monarch_city"])
    put(s, "Father Oak Forest", green=2)
    put(s, "Orc Valley", red=1, green=1)
    put(s, "Wolf Pass", blue=1)
    give(s, "paladin", "magic_gate")
    s = play(s, "play paladin magic_gate Wolf_Pass", "end_day")
    assert at(s, MC) == [1, 1, 1, 0]
    assert s.hero_deck.discard_pile == () and s.ds_deck.discard_pile == ()
    assert "magic_gate" in s.removed_cards and "magic_gate" not in s.hero_deck.draw_pile


@pytest.mark.rule("DEF-GEN-01")
@pytest.mark.rule("DEF-GEN-02")
@pytest.mark.rule("DEF-GEN-04")
@pytest.mark.rule("DEF-GEN-05")
@pytest.mark.rule("DEF-GEN-07")
@pytest.mark.rule("DEF-ACT-11")
def test_example_step_by_step_attack_on_balazarg_fails() -> None:
    """Section "Step-by-step Guide to Attacking a General", steps 1-5 and 8: on Balazarg's space,
    first the demon there is killed; one action starts the combat; red cards are played; his
    skill comes before the dice (a die per red card, a 1 corrupts it); a die per die on the
    remaining cards, each 4+ a wound; not defeated, the hero suffers the penalty (D3 life, every
    card) and is carried to Monarch City, and the lightly wounded general starts healing at the
    end of the next player's turn."""
    s = realm(
        ("paladin", "rogue"),
        at={"paladin": "Scorpion Canyon"},
        rolls=[5, 1, 2, 6, 4, 3, 5],
        ds=["ds_all_is_quiet#1", "ds_all_is_quiet#2", "ds_all_is_quiet#3"],
    )
    put(s, "Scorpion Canyon", red=1)
    give(s, "paladin", "ancient_ruins_eagle", "blood_flats_horse", "ghost_marsh_horse", "amarak_peak_eagle")
    assert "attack_general" not in notations(s)  # step 1: the minions there first
    s = play(s, "fight Scorpion_Canyon")  # 5 kills the demon
    s = play(s, "attack_general")  # step 2: one action
    for card in ("ancient_ruins_eagle", "blood_flats_horse", "ghost_marsh_horse"):  # step 3
        s = play(s, f"commit paladin {card}")
    assert "commit paladin amarak_peak_eagle" not in notations(s)  # a blue card: not against him
    s = play(s, "commit_done paladin")
    # Step 4: curse dice 1 (the eagle card, 2 dice, is lost), 2, 6. Step 5: 2 dice, 4 and 3: 1 wound.
    g = s.generals[RED]
    assert g.wounds == 1 and s.battle is None
    # Step 8: the penalty (D3 = 3 from a 5, the paladin ignores 1) and every card; to Monarch City.
    paladin = s.slots[0]
    assert paladin.life == 5 - 2 and paladin.hand == [] and paladin.loc == s.board.monarch
    assert {"ancient_ruins_eagle", "amarak_peak_eagle"} <= set(s.hero_deck.discard_pile)
    s = play(s, "end_day")  # the attacker's turn ends: a light wound waits
    assert s.generals[RED].wounds == 1 and s.current == 1
    s = play(s, "end_day")  # the next player's turn ends: healing starts
    assert s.generals[RED].wounds == 0


@pytest.mark.rule("DEF-GEN-03")
@pytest.mark.rule("DEF-GEN-06")
@pytest.mark.rule("DEF-DRK-04")
def test_example_group_attack_on_varkolak_and_the_slayer() -> None:
    """Sections "Group Attacking a General" and step 7 of the guide: the player who starts the
    combat chooses who attacks next after each result; every committed card is discarded, rolled
    or not; the hero landing the final blow becomes the Slayer; every participant gains 3 hero
    cards and the war status advances to Mid War."""
    s = realm(
        ("paladin", "wizard", "cleric"),
        at={"paladin": "Dark Woods", "wizard": "Dark Woods", "cleric": "Dark Woods"},
        rolls=[4, 4, 1, 6, 5, 4],
    )
    give(s, "paladin", "dark_woods_gate")
    give(s, "wizard", "seabird_port_eagle", "fire_river_gate")
    give(s, "cleric", "mermaid_harbor_eagle", "land_of_amazons_gate")
    s = play(s, "attack_general", "join wizard", "join cleric")
    s = play(s, "commit paladin dark_woods_gate", "commit_done paladin")
    s = play(s, "commit wizard seabird_port_eagle", "commit wizard fire_river_gate", "commit_done wizard")
    s = play(s, "commit cleric mermaid_harbor_eagle", "commit cleric land_of_amazons_gate")
    s = play(s, "commit_done cleric")
    s = play(s, "next_attacker wizard")  # 4, 4, 1: 2 wounds (Varkolak 5 life)
    assert s.generals[BLACK].wounds == 2 and s.pending().kind == "next_attacker"
    s = play(s, "next_attacker cleric")  # 6, 5, 4: 3 more - the final blow
    assert s.generals[BLACK] is None and s.slots[2].slain == [BLACK] and s.generals_slain == [0, 0, 1]
    assert "dark_woods_gate" in s.hero_deck.discard_pile  # the paladin never rolled
    assert [len(x.hand) for x in s.slots] == [3, 3, 3] and s.war == 1


@pytest.mark.rule("DEF-CRD-03")
def test_example_quest_card_war_banner_of_valor() -> None:
    """Section "Quest Cards", the example card: at Fire River spend 1 action and roll 3 dice; a 5
    or 6 on any die succeeds. Reward: ignore the wounds and other effects of losing a battle to a
    general (no lost life or cards, no retreat to Monarch City)."""
    s = realm(
        at={"paladin": "Fire River"},
        rolls=[1, 2, 4, 2, 3, 6, 1, 1],
        quest_deck=["war_banner_of_valor"],
        ds=["ds_all_is_quiet#1"],
    )
    cards.draw_quest(s, 0)
    s = play(s, "quest")  # 1, 2, 4: not yet (the card is kept, the action spent)
    assert s.slots[0].quest == "war_banner_of_valor" and s.slots[0].actions == 4
    s = play(s, "quest")  # 2, 3, 6: the banner is won
    assert s.quests_done == [1] and "war_banner_of_valor" in s.slots[0].rewards
    s.slots[0].loc = s.board.loc("Dark Woods")
    give(s, "paladin", "dark_woods_gate", "blood_flats_gate")
    s = play(s, "attack_general", "commit paladin dark_woods_gate", "commit_done paladin")  # a 1: lost
    paladin = s.slots[0]
    assert s.battle is None and s.generals[BLACK].wounds == 0
    assert paladin.life == 5 and paladin.hand == ["blood_flats_gate"]
    assert s.board.name(paladin.loc) == "Dark Woods"


@pytest.mark.rule("DEF-CRD-02")
def test_example_purple_card_no_darkness_spreads_cards_this_turn() -> None:
    """Section "Purple (Special) Hero Cards", the example text: discard to draw no Darkness Spreads
    cards this turn. Once played, the card leaves the game."""
    s = realm(ds=["ds_12"])
    give(s, "paladin", "all_is_quiet")
    s = play(s, "play paladin all_is_quiet", "end_day")
    assert s.ds_deck.discard_pile == () and sum(map(sum, s.minions)) == 0
    assert s.board.name(s.generals[RED].loc) == "Scorpion Canyon"
    assert "all_is_quiet" in s.removed_cards
