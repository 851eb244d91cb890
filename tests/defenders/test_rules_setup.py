"""Setup (DEF-SET-*), the box (DEF-ENM-01, DEF-END-01) and the setup variants (DEF-VAR-*)."""

from __future__ import annotations

import pytest

from warhorn.engine.registry import load_game
from warhorn.engine.rng import ScriptedRng
from warhorn.games.defenders.board import COLOURS, DarknessCard
from warhorn.games.defenders.game import SPEC, load_board, new_defenders_game

from .helpers import MC, mini_board


def _card(cid: str, a: str, b: str, gen: str = "red") -> DarknessCard:
    colour = {"R": "red", "G": "green", "B": "blue", "K": "black"}
    return DarknessCard(cid, "regular", ((a, colour[a[0]], 1), (b, colour[b[0]], 1)), gen, "next", 1)


SETUP_DECK = (
    DarknessCard("quiet", "all_quiet"),
    _card("dsA", "R1", "G2"),
    _card("dsB", "R1", "B2"),  # repeats R1 in the first round: redrawn
    _card("dsC", "B1", "K2"),
    _card("dsD", "G1", "R2"),
    _card("dsE", "R3", "K1"),  # Balazarg's 3 demons + 1 = 4: redrawn
    _card("dsF", "R1", "B2"),  # R1 gets its third demon: taint
    _card("dsG", "G2", "K1"),
    _card("dsH", "B1", "G1"),
    _card("dsI", "K1", "R2"),
)


def _setup(**options: object) -> object:
    board = mini_board(darkness=SETUP_DECK)
    return new_defenders_game({"players": 2, **options}, 0, board, rng=ScriptedRng(fallback_seed=5))


def _count(state: object, name: str) -> list[int]:
    return list(state.minions[state.board.loc(name)])  # type: ignore[attr-defined]


@pytest.mark.rule("DEF-SET-01")
@pytest.mark.rule("DEF-OVR-04")
def test_generals_start_with_three_minions_and_balazarg_taints() -> None:
    s = _setup()
    for gd in s.board.generals:
        c = COLOURS.index(gd.colour)
        start = s.board.loc(gd.path[0])
        assert s.generals[c].loc == start
        assert s.minions[start][c] == 3
    assert s.taint[s.board.loc("R3")] == 1  # demons taint with 3


@pytest.mark.rule("DEF-SET-02")
def test_war_status_early_and_generals_unwounded() -> None:
    s = _setup()
    assert s.war == 0 and s.view(None)["war_status"] == "Early War"
    assert all(g.wounds == 0 for g in s.generals if g)


@pytest.mark.rule("DEF-SET-03")
def test_heroes_in_monarch_city_with_cards_quest_and_gate() -> None:
    s = _setup(heroes="paladin,wizard")
    for slot in s.slots:
        assert slot.loc == s.board.loc(MC)
        assert slot.life == slot.max_life == s.board.hero_by_id[slot.hero].life
        assert len(slot.hand) == 2 and slot.quest is not None
    assert s.gates[s.board.loc("Gatestone")] and s.gate_supply == 4


@pytest.mark.rule("DEF-SET-04")
def test_setup_redraws_specials_repeats_and_fourth_minions() -> None:
    s = _setup()
    # Round 1 (2 each): dsA, dsC, dsD (quiet and dsB redrawn). Round 2 (1 each): dsF, dsG, dsH (dsE redrawn).
    assert _count(s, "R1") == [3, 0, 0, 0]
    assert _count(s, "G2") == [0, 3, 0, 0]
    assert _count(s, "B1") == [0, 0, 3, 0]
    assert _count(s, "K2") == [0, 0, 0, 2]
    assert _count(s, "R2") == [2, 0, 0, 0]
    assert _count(s, "B2") == [0, 0, 1, 0]
    assert _count(s, "K1") == [0, 0, 0, 1]
    assert _count(s, "R3") == [3, 0, 0, 0]  # the 4th demon was refused
    # Minions use the location's colour, and the third demon on R1 taints it.
    assert s.taint[s.board.loc("R1")] == 1
    assert s.crystals_left == 10
    # The whole deck is reshuffled afterwards: nothing stays in the discard.
    assert s.ds_deck.discard_pile == () and len(s.ds_deck.draw_pile) == len(SETUP_DECK)


@pytest.mark.rule("DEF-SET-04")
def test_setup_minions_take_the_location_colour_not_the_card_colour() -> None:
    odd = DarknessCard("odd", "regular", (("R1", "blue", 1), ("G2", "black", 1)), "red", "next", 1)
    board = mini_board(darkness=(odd, *SETUP_DECK[1:]))
    s = new_defenders_game({"players": 1}, 0, board, rng=ScriptedRng(fallback_seed=5))
    assert _count(s, "R1")[0] >= 2 and _count(s, "R1")[2] == 0


@pytest.mark.rule("DEF-SET-05")
@pytest.mark.rule("DEF-ENM-01")
def test_real_setup_has_thirty_minions_over_four_generals_and_six_to_twelve_locations() -> None:
    board = load_board()
    for seed in range(12):
        s = new_defenders_game({"players": 2}, seed, board)
        total = sum(map(sum, s.minions))
        assert total == 30
        general_locs = {g.loc for g in s.generals if g}
        assert len(general_locs) == 4
        assert all(sum(s.minions[i]) == 3 for i in general_locs)
        others = [i for i in range(len(board.locations)) if i not in general_locs and sum(s.minions[i])]
        assert 6 <= len(others) <= 12
        assert sum(sum(s.minions[i]) for i in others) == 18
        assert all(s.supply[c] + s.on_board(c) == 25 for c in range(4))
        assert s.invariants() == []


@pytest.mark.rule("DEF-SET-06")
def test_first_player_by_choice_then_clockwise() -> None:
    s = _setup(players=3, first_player=2)
    assert [slot.player for slot in s.slots] == [2, 0, 1]
    assert s.pending().player == 2


@pytest.mark.rule("DEF-END-01")
def test_one_to_four_players_any_heroes_registered() -> None:
    assert SPEC.min_players == 1 and SPEC.max_players == 4
    s = load_game("defenders", seed=1, players=4, heroes="cleric,dwarf,eagle_rider,paladin")
    assert [x.hero for x in s.slots] == ["cleric", "dwarf", "eagle_rider", "paladin"]
    s = load_game("defenders", seed=1, players=1, heroes="sorceress")
    assert s.num_players == 1 and s.slots[0].hero == "sorceress"
    with pytest.raises(Exception, match="heroes"):
        load_game("defenders", seed=1, players=1, heroes="druid")


@pytest.mark.rule("DEF-VAR-01")
def test_easier_variants() -> None:
    s = _setup(easy_setup=True, easy_extra_life=True, heroes_per_player=3, heroes="paladin,wizard")
    assert sum(map(sum, s.minions)) == 12 + 12  # 2+2 cards: 8 + 4 beside the generals' 12
    assert len(s.slots) == 6 and [x.player for x in s.slots] == [0, 1, 0, 1, 0, 1]
    assert s.slots[0].max_life == 6  # paladin 5 + 1
    board = load_board()
    s = new_defenders_game({"players": 2, "easy_setup": True}, 3, board)
    assert sum(map(sum, s.minions)) == 24


@pytest.mark.rule("DEF-VAR-02")
def test_harder_variants() -> None:
    s = _setup(hard_less_life=True, hard_fewer_minions=True, heroes="paladin,wizard")
    assert s.slots[0].max_life == 4
    assert all(s.supply[c] + s.on_board(c) == 20 for c in range(4))
    board = load_board()
    s = new_defenders_game({"players": 1, "hard_remove_specials": 4, "hard_remove_quiet": 3}, 2, board)
    assert len(s.removed_cards) == 4 and all(board.cards[c].is_special for c in s.removed_cards)
    assert not any(board.ds_cards[c].kind == "all_quiet" for c in s.ds_deck.draw_pile)


@pytest.mark.rule("DEF-VAR-02")
def test_harder_setup_allows_overruns() -> None:
    s = _setup(hard_setup_overrun=True)
    # dsE is no longer redrawn: a 4th demon on R3 overruns (crystal) and spills to R2.
    assert s.taint[s.board.loc("R3")] == 2
    assert _count(s, "R3") == [3, 0, 0, 0]
