"""The Defenders cooperative heuristic: exact battle odds, hand-built positions, legality, determinism."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping

import pytest
from typer.testing import CliRunner

from tests.defenders.helpers import MC, give, put, scenario
from warhorn.ai import MCTSAgent, game_hooks, make_agent
from warhorn.ai.defenders import DefendersHeuristic, evaluate, threat
from warhorn.ai.defenders.odds import Attacker, binomial_tail, defeat_chance
from warhorn.ai.heuristic import Choice
from warhorn.ai.hooks import shared_win_reward
from warhorn.cli.app import app
from warhorn.engine import Rng, load_game
from warhorn.games.defenders.state import DefendersState

RED, GREEN, BLUE, BLACK = 0, 1, 2, 3
NUMBER = re.compile(r"\d")


def decide(state: DefendersState) -> tuple[str, str]:
    decision = state.pending()
    assert decision is not None
    choice = DefendersHeuristic().choose(state, decision.player, Rng(0))
    assert choice.action in state.legal_actions()
    return choice.action.notation(), choice.reason


def defeat(state: DefendersState, *colours: int) -> None:
    """Take the generals of ``colours`` off the board as if defeated (scenario building)."""
    for colour in colours:
        general = state.generals[colour]
        assert general is not None
        general.loc = -1


def before_and_now(
    position: Callable[[], DefendersState], keep: Mapping[str, str] | None = None, **before: str
) -> tuple[Choice, Choice]:
    """The first seat's choice in a fresh ``position()`` with the ``before`` settings, then the
    defaults (both with the settings of ``keep``)."""
    kept = dict(keep or {})
    return (
        DefendersHeuristic({**kept, **before}).choose(position(), 0, Rng(0)),
        DefendersHeuristic(kept).choose(position(), 0, Rng(0)),
    )


#: The `spare` rule off: for tests of how much a task is worth against walking to the gathering
#: (with it, a hero due at the gathering may first do a task from which it is back in time).
NO_SPARE = {"spare": "0"}


# --- exact odds -------------------------------------------------------------------------------
def brute_force(
    dice: list[int], cursed: list[bool], need: int, life: int, parry: bool, reroll: bool
) -> float:
    """Every curse die and every face enumerated (re-rolls as a second face per failed die)."""
    total = 0.0
    for curse_faces in itertools.product(range(1, 7), repeat=sum(cursed)):
        it = iter(curse_faces)
        kept = sum(d for d, c in zip(dice, cursed, strict=True) if not c or next(it) != 1)
        per_die = []  # (probability, hit, one) of a die's final result
        for first in range(1, 7):
            if first >= need or not reroll:
                per_die.append((1 / 6, first >= need, first == 1))
            else:
                per_die.extend((1 / 36, second >= need, second == 1) for second in range(1, 7))
        chance = 0.0
        for combo in itertools.product(per_die, repeat=kept):
            pr = 1.0
            hits = 0
            for p, hit, one in combo:
                pr *= p
                hits += hit - (one and parry)
            if max(0, hits) >= life:
                chance += pr
        total += chance / 6 ** sum(cursed)
    return total


def test_plain_binomial_odds_are_exact() -> None:
    assert binomial_tail(3, 5, 2) == pytest.approx(7 / 27)  # 3*(1/3)^2*(2/3) + (1/3)^3
    assert binomial_tail(4, 4, 4) == pytest.approx(1 / 16)
    assert binomial_tail(2, 4, 3) == 0.0


@pytest.mark.parametrize(
    ("dice", "cursed", "need", "life", "parry", "reroll"),
    [
        ([1, 1, 2], [False] * 3, 4, 3, False, False),  # Varkolak-like
        ([1, 2], [True, True], 4, 2, False, False),  # Balazarg's curse
        ([1, 1, 1, 1], [False] * 4, 3, 3, True, False),  # Gorgutt's parries
        ([1, 1, 1], [False] * 3, 5, 2, False, True),  # re-rolls (Sapphire, Dwarf)
        ([1, 1, 1], [False] * 3, 3, 2, True, True),  # re-roll and parry together
    ],
)
def test_defeat_chance_matches_full_enumeration(
    dice: list[int], cursed: list[bool], need: int, life: int, parry: bool, reroll: bool
) -> None:
    attacker = Attacker(tuple(dice), tuple(cursed), 0, need, reroll)
    assert defeat_chance([attacker], life, parry) == pytest.approx(
        brute_force(dice, cursed, need, life, parry, reroll)
    )


def test_parries_count_over_the_whole_battle() -> None:
    """Every 1 parries a hit of any participant (DEF-GEN-08); the battle is won once, after some
    participant's roll, its hits less its 1s reach the general's life (checked by enumeration)."""
    first = Attacker((1, 1), (False, False), 0, 3, False)
    second = Attacker((1,), (False,), 0, 3, False)

    def net(faces: tuple[int, ...]) -> int:
        return sum(1 for f in faces if f >= 3) - sum(1 for f in faces if f == 1)

    expected = 0.0
    for a in itertools.product(range(1, 7), repeat=2):
        for b in itertools.product(range(1, 7), repeat=1):
            if net(a) >= 2 or net(a) + net(b) >= 2:
                expected += 1 / 6**3
    assert defeat_chance([first, second], 2, True) == pytest.approx(expected)
    # A 1 of the first roller cancels a hit of the second: one die each, 2 needed, only hits win.
    one = Attacker((1,), (False,), 0, 3, False)
    assert defeat_chance([one, one], 2, True) == pytest.approx((4 / 6) ** 2)
    assert defeat_chance([first, second], 2, False) == pytest.approx(binomial_tail(3, 3, 2))


# --- positions ----------------------------------------------------------------------------------
def test_clears_a_location_one_minion_short_of_overrun() -> None:
    s = scenario(("paladin",), at={"paladin": "G1"})
    put(s, "G1", green=3)
    put(s, "B2", blue=1)
    action, reason = decide(s)
    assert action == "fight G1"
    assert "3 orc at G1" in reason and NUMBER.search(reason)


def test_walks_to_the_location_about_to_overrun() -> None:
    s = scenario(("wizard",), at={"wizard": "R2"})
    put(s, "G1", green=3)
    put(s, "K3", black=1)
    action, reason = decide(s)
    assert action in ("move R1", "move G1 by horse", "move G1 by eagle") or action.startswith("move R1")
    assert "G1" in reason and NUMBER.search(reason)


def test_defends_monarch_city() -> None:
    s = scenario(("dwarf",))
    put(s, MC, red=2, black=1)
    put(s, "B3", blue=2)
    action, reason = decide(s)
    assert action == "fight Monarch_City"
    assert "Monarch City" in reason and NUMBER.search(reason)


def test_heals_the_land_when_crystals_run_short() -> None:
    s = scenario(("paladin",), at={"paladin": "R2"})
    r2 = s.board.loc("R2")
    s.taint[r2] = 3
    s.taint[s.board.loc("K2")] = 6
    s.crystals_left = 3
    give(s, "paladin", "R3g")
    action, reason = decide(s)
    assert action == "heal_land R3g"
    assert "3 left" in reason and "%" in reason


def test_attacks_a_general_only_when_the_odds_are_good() -> None:
    weak = scenario(("paladin",), at={"paladin": "K3"})
    give(weak, "paladin", "K1h")
    action, _ = decide(weak)
    assert action != "attack_general"

    strong = scenario(("paladin",), at={"paladin": "K3"})
    give(strong, "paladin", "K1h", "K2h", "K3h", "K1g", "K2g", "K3g", "K1e", "K2e", "K3e")
    action, reason = decide(strong)
    assert action == "attack_general"
    chance = int(re.search(r"(\d+) % to defeat", reason).group(1))  # type: ignore[union-attr]
    assert chance >= 55 and "Varkolak" in reason and "needs 5 hits at 4+" in reason


def test_group_attack_partner_joins_with_its_cards() -> None:
    s = scenario(("paladin", "wizard"), at={"paladin": "K3", "wizard": "K3"})
    give(s, "paladin", "K1h", "K2h", "K3h", "K1e", "K2e")
    give(s, "wizard", "K3e", "K1g", "K2g", "K3g")
    action, reason = decide(s)
    assert action == "attack_general", reason
    s, _ = s.apply(s.parse(action))
    action, reason = decide(s)
    assert action == "join wizard" and "->" in reason and "%" in reason


# --- whole games --------------------------------------------------------------------------------
def play_out(seed: int, players: int, limit: int = 4000) -> list[str]:
    state = load_game("defenders", seed=seed, players=players)
    agent = make_agent("heuristic")
    rng = Rng(seed)
    played: list[str] = []
    while state.results() is None and len(played) < limit:
        decision = state.pending()
        assert decision is not None
        action = agent.choose(state, decision.player, rng)
        assert action in state.legal_actions(), action.notation()
        assert agent.explain(), action.notation()
        played.append(action.notation())
        state, _ = state.apply(action)
    assert state.invariants() == []
    return played


def test_fuzz_every_choice_is_legal_and_games_replay_exactly() -> None:
    first = play_out(11, 2)  # a whole two-hero game
    assert play_out(11, 2) == first
    play_out(12, 3, limit=300)  # the start of a three-hero game


def test_decisions_ignore_the_order_of_hidden_decks() -> None:
    state = load_game("defenders", seed=5, players=2)
    heuristic = DefendersHeuristic()
    for step in range(80):
        decision = state.pending()
        if decision is None:
            break
        choice = heuristic.choose(state, decision.player, Rng(step))
        shuffled = state.determinize(decision.player, Rng(1000 + step))
        assert heuristic.choose(shuffled, decision.player, Rng(step)) == choice
        state, _ = state.apply(choice.action)


def test_search_hooks_are_registered_and_mcts_plays_legally() -> None:
    hooks = game_hooks("defenders")
    assert hooks.reward is shared_win_reward and hooks.rollout_policy is not None
    state = load_game("defenders", seed=3, players=2)
    assert 0.0 <= evaluate(state, 0) <= 1.0
    agent = make_agent("mcts:iterations=8")
    assert isinstance(agent, MCTSAgent)
    decision = state.pending()
    assert decision is not None
    action = agent.choose(state, decision.player, Rng(1))
    assert action in state.legal_actions()


def test_cli_play_with_heuristic_seats_narrates_reasons() -> None:
    result = CliRunner().invoke(
        app, ["play", "defenders", "--seats", "heuristic,heuristic", "--seed", "2", "--max-actions", "25"]
    )
    assert result.exit_code == 0, result.output
    assert "heuristic (player 0)" in result.output
    assert re.search(r"(clear|toward|attack|gather|heal|rest|Rumors|quest).*\d", result.output)


def test_holds_the_third_kill_until_the_last_general_is_within_reach() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin",), at={"paladin": "K3"})
        defeat(s, RED, GREEN)  # two generals already defeated: Varkolak would be the third
        give(s, "paladin", "K1h", "K2h", "K3h", "K1g", "K2g", "K3g", "K1e", "K2e", "K3e")
        return s

    s = position()
    holder = DefendersHeuristic({"hold": "0.5"})
    assert holder.held(s, BLACK) is not None and holder.held(s, BLUE) is None  # Sapphire: no blue cards
    choice = holder.choose(s, 0, Rng(0))
    assert choice.action.notation() != "attack_general"
    assert DefendersHeuristic().choose(position(), 0, Rng(0)).action.notation() == "attack_general"

    s = position()
    give(s, "paladin", "B1h", "B2h", "B3h", "B1e", "B2e", "B3e", "B1g", "B2g", "B3g")  # last one in reach
    assert holder.held(s, BLACK) is None


# --- magic gates (DEF-ACT-04, DEF-ACT-06) ---------------------------------------------------------
GATES = {"gates": "0.4"}


def test_builds_a_magic_gate_where_it_shortens_the_trips() -> None:
    s = scenario(("paladin",), at={"paladin": "R2"})
    give(s, "paladin", "R2h")
    put(s, "G3", green=1)  # a far, harmless task: building the gate here is worth more
    choice = DefendersHeuristic(GATES).choose(s, 0, Rng(0))
    assert choice.action.notation() == "build_gate R2h", choice.reason
    assert "magic gate at R2" in choice.reason and "shorter" in choice.reason and NUMBER.search(choice.reason)


def test_hops_between_gates_when_it_saves_steps() -> None:
    s = scenario(("dwarf",), at={"dwarf": "Gatestone"})
    s.gates[s.board.loc("B3")] = True
    s.gate_supply -= 1
    put(s, "B2", blue=3)
    choice = DefendersHeuristic(GATES).choose(s, 0, Rng(0))
    assert choice.action.notation() == "move B3 by gatelink", choice.reason
    assert "toward B2 (2 step(s))" in choice.reason  # hop and step, not three steps on foot


def test_plays_the_magic_gate_card_where_it_shortens_the_trips_most() -> None:
    s = scenario(("paladin",), at={"paladin": "R2"})
    give(s, "paladin", "sp_magic_gate")
    choice = DefendersHeuristic(GATES).choose(s, 0, Rng(0))
    assert choice.action.notation().startswith("play paladin sp_magic_gate"), choice.reason
    assert "Magic Gate at" in choice.reason and "shorter" in choice.reason


def test_a_hero_gathered_at_the_target_stays_for_a_small_task_next_door() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "wizard"), at={"paladin": "K3", "wizard": "R1"})
        give(s, "paladin", "K1h", "K2h", "K3h")
        give(s, "wizard", "K1e", "K2e", "K3e", "K1g", "K2g")  # the team: 11 dice, 73 % on Varkolak
        put(s, "K2", green=1)
        return s

    # (the `spare` rule, which would fight the orc and be back in time, is off here)
    choice = DefendersHeuristic({"trip": "1", "spare": "0"}).choose(position(), 0, Rng(0))
    assert choice.action.notation() == "end_day", choice.reason
    assert choice.reason.startswith("wait at Varkolak") and "73 %" in choice.reason
    # Without the rule (nor the `back` rule, which also stops this trip) the paladin walks off
    # for the orc and would walk back next action.
    unruled = DefendersHeuristic({"trip": "0", "back": "0", "spare": "0"})
    assert unruled.choose(position(), 0, Rng(0)).action.notation() == "move K2"


def test_hammer_of_valor_carries_a_hero_with_cards_to_the_gathering() -> None:
    s = scenario(("paladin", "wizard"), at={"paladin": "K3", "wizard": "B2"})
    give(s, "paladin", "K1h", "K2h", "K3h", "sp_hammer_of_valor")
    give(s, "wizard", "K1e", "K2e", "K3e", "K1g", "K2g")
    choice = DefendersHeuristic(GATES).choose(s, 0, Rng(0))
    assert choice.action.notation() == "play paladin sp_hammer_of_valor wizard K3", choice.reason
    assert "5 card(s)" in choice.reason and "step(s) saved" in choice.reason and "%" in choice.reason


def test_the_last_general_outweighs_minions_because_its_defeat_wins() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "dwarf"), at={"paladin": MC, "dwarf": "R1"})
        defeat(s, RED, GREEN, BLUE)  # three generals already defeated: Varkolak is the last
        give(s, "paladin", "K1h", "K2h", "K3h", "K1e", "K2e")
        give(s, "dwarf", "K1g", "K2g", "K3g")
        put(s, "G1", green=3)  # one orc short of an overrun, with crystals running short
        s.crystals_left = 6
        return s

    old, choice = before_and_now(position, NO_SPARE, final="0")
    assert old.action.notation() == "move G1", old.reason
    assert choice.action.notation() == "move K2 by noble_steed", choice.reason
    assert "gather at Varkolak" in choice.reason and "62 %" in choice.reason
    heuristic = DefendersHeuristic()
    assert heuristic.kill_worth(position(), BLACK) == pytest.approx(1000.0)
    s = position()
    sapphire = s.generals[BLUE]
    assert sapphire is not None
    sapphire.loc = s.board.loc("B3")  # two generals left: an ordinary kill again
    assert heuristic.kill_worth(s, BLACK) == heuristic.kill_worth(s, BLUE) < 100


def test_a_gathered_hero_does_not_leave_for_a_task_it_would_walk_away_from() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "dwarf"), at={"paladin": "K3", "dwarf": "R1"}, rolls=[6] * 6)
        defeat(s, RED, GREEN, BLUE)  # Varkolak is the last general: the gathering is worth a win
        give(s, "paladin", "K1h", "K2h", "K3h")
        give(s, "dwarf", "K1g", "K2g", "K3g", "K1e", "K2e", "K3e")
        put(s, "K2", black=2)  # a task next door
        s.crystals_left = 3
        return s

    old = DefendersHeuristic({"back": "0", **NO_SPARE})
    s = position()
    away = old.choose(s, 0, Rng(0))
    assert away.action.notation() == "move K2", away.reason
    s, _ = s.apply(away.action)
    assert old.choose(s, 0, Rng(0)).action.notation() == "move K3"  # straight back, nothing done there
    choice = DefendersHeuristic(NO_SPARE).choose(position(), 0, Rng(0))
    assert choice.action.notation() == "end_day", choice.reason
    assert "wait at Varkolak" in choice.reason and "81 %" in choice.reason
    # With the `spare` rule the trip is made, since the paladin fights there and is back in time.
    s, done = play_turn(position(), DefendersHeuristic())
    assert done[:3] == ["move K2", "fight K2", "move K3"] and done[-1] == "end_day"


def test_a_general_one_step_from_the_city_is_worth_its_chance_of_entering_it() -> None:
    s = scenario(("paladin",))
    s.war = 1  # Mid War: two Darkness cards a night, both may move a general
    varkolak = s.generals[BLACK]
    assert varkolak is not None
    varkolak.loc = s.board.loc("K1")
    # Three of the twelve Darkness cards move Varkolak on ("next"); two are drawn in a round of one hero.
    assert threat.advance_chance(s, BLACK) == pytest.approx(3 / 12)
    assert threat.general_menace(s, BLACK) == pytest.approx((1 - (1 - 3 / 12) ** 2) * threat.LOSS)
    varkolak.loc = s.board.loc("K2")  # two steps out: both cards of the round must move him
    assert threat.general_menace(s, BLACK) == pytest.approx((3 / 12) ** 2 * threat.LOSS)
    assert threat.general_menace(s, BLACK, rounds=0.5) == 0.0  # one card cannot move him twice
    gorgutt = s.generals[GREEN]
    assert gorgutt is not None
    gorgutt.loc = s.board.loc("G1")
    assert threat.general_menace(s, GREEN) > 0.0
    gorgutt.wounds = 4  # two life left: gravely wounded, he does not advance (DEF-GEN-05)
    assert threat.advance_chance(s, GREEN) == threat.general_menace(s, GREEN) == 0.0


def test_a_general_about_to_enter_the_city_outweighs_minions_in_it() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "dwarf"), at={"paladin": MC, "dwarf": "R3"})
        s.war = 1
        varkolak = s.generals[BLACK]
        assert varkolak is not None
        varkolak.loc = s.board.loc("K1")
        give(s, "paladin", "K1h", "K2h")
        give(s, "dwarf", "K3h", "K1e", "K2e", "K3e")
        put(s, MC, green=2, red=1)  # three minions in Monarch City: two short of losing
        return s

    old, choice = before_and_now(position, NO_SPARE, menace="0")
    assert old.action.notation() == "fight Monarch_City", old.reason
    assert choice.action.notation() == "move K1", choice.reason
    assert "gather at Varkolak" in choice.reason and "50 %" in choice.reason
    heuristic = DefendersHeuristic()
    s = position()
    assert heuristic.stake(s, BLACK) == pytest.approx(60.0 + threat.general_menace(s, BLACK))
    assert heuristic.stake(s, RED) < heuristic.stake(s, BLACK) / 5  # Balazarg is three steps out


def test_the_ranger_shoots_minions_next_door_instead_of_walking_in() -> None:
    def position(at: str, where: str) -> DefendersState:
        s = scenario(("ranger", "dwarf"), at={"ranger": at, "dwarf": "R3"})
        put(s, where, green=2, red=1)
        return s

    old, choice = before_and_now(lambda: position("R1", "G1"), archery="0")
    assert old.action.notation() == "move G1", old.reason
    assert choice.action.notation() == "fight G1", choice.reason
    assert choice.reason.startswith("shoot from here: clear 1 demon+2 orc at G1")
    # Two locations away: one step to a location next to them, then shoot.
    old, choice = before_and_now(lambda: position(MC, "G2"), archery="0")
    assert "toward G2 (2 step(s))" in old.reason
    assert choice.action.notation() == "move G1", choice.reason
    assert "shoot from G1: clear 1 demon+2 orc at G2" in choice.reason


def test_the_dwarf_ends_his_turn_where_he_gains_an_action() -> None:
    def position() -> DefendersState:
        s = scenario(("dwarf", "ranger"), at={"dwarf": "G1", "ranger": "R3"}, fallback=True)
        s.slots[0].actions = 1  # the last action of the turn; R1 next door is red (Mountain Lore)
        return s

    old, choice = before_and_now(position, lore="0")
    assert old.action.notation() != "move R1", old.reason
    assert choice.action.notation() == "move R1", choice.reason
    assert "one more action next turn" in choice.reason
    s, _ = position().apply(choice.action)
    while s.current != 0:  # play the night and the ranger's turn out
        decision = s.pending()
        assert decision is not None
        s, _ = s.apply(DefendersHeuristic().choose(s, decision.player, Rng(0)).action)
    assert s.slots[0].actions == s.slots[0].life + 1


def test_a_wounded_hero_rests_rather_than_walk_for_a_small_task() -> None:
    def position() -> DefendersState:
        s = scenario(("dwarf", "ranger"), at={"dwarf": "G2", "ranger": "R3"})
        s.slots[0].life = s.slots[0].actions = 3
        put(s, "G1", green=1)
        return s

    old, choice = before_and_now(position, rest="0")
    assert old.action.notation() != "rest", old.reason
    assert choice.action.notation() == "rest", choice.reason
    assert "rest at G2: 3/5 life, +2" in choice.reason


def test_the_third_kill_waits_while_late_war_would_overrun_a_full_board() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "dwarf"), at={"paladin": "K3", "dwarf": "R3"})
        defeat(s, RED, GREEN)  # two generals defeated: the next kill brings Late War
        s.war = 2
        varkolak = s.generals[BLACK]
        assert varkolak is not None
        varkolak.wounds = 2
        give(s, "paladin", "K1h", "K2h", "K3h", "K1e", "K2e", "K3e")
        for loc in ("R1", "R2", "G1", "G2", "B1", "B2", "K1", "K2"):  # every location the cards name is full
            put(s, loc, **{{"R": "red", "G": "green", "B": "blue", "K": "black"}[loc[0]]: 3})
        s.crystals_left = 6
        return s

    old, choice = before_and_now(position, late="0")
    assert old.action.notation() == "attack_general", old.reason
    assert "91 %" in old.reason
    assert choice.action.notation() == "move K1 by noble_steed", choice.reason
    assert "clear 3 undead at K1" in choice.reason
    heuristic = DefendersHeuristic()
    s = position()
    assert heuristic.stake(s, BLACK) < 0 < DefendersHeuristic({"late": "0"}).stake(s, BLACK)
    blue = s.generals[BLUE]
    assert blue is not None
    blue.loc = -1  # Varkolak the last general: his defeat wins, no Late War follows
    assert heuristic.stake(s, BLACK) >= threat.LOSS


def play_turn(state: DefendersState, heuristic: DefendersHeuristic) -> tuple[DefendersState, list[str]]:
    """Play the first seat's Daytime actions out; the state after them and each action's notation."""
    done = []
    while state.current == 0 and (decision := state.pending()) is not None and decision.kind == "action":
        action = heuristic.choose(state, 0, Rng(0)).action
        done.append(action.notation())
        state, _ = state.apply(action)
    return state, done


def test_a_hero_due_at_the_gathering_spends_its_spare_actions_and_is_back_in_time() -> None:
    def position() -> DefendersState:
        s = scenario(("paladin", "wizard"), at={"paladin": "K3", "wizard": "R1"}, rolls=[6] * 6)
        give(s, "paladin", "K1h", "K2h", "K3h")
        give(s, "wizard", "K1e", "K2e", "K3e", "K1g", "K2g")  # the team: 11 dice, 73 % on Varkolak
        put(s, "K2", green=1)
        return s

    old, choice = before_and_now(position, spare="0")
    assert old.action.notation() == "end_day", old.reason  # waits out four actions
    assert old.reason.startswith("wait at Varkolak")
    assert choice.action.notation() == "move K2", choice.reason
    assert choice.reason.endswith("back at the gathering in time (score 0.3)")
    s, done = play_turn(position(), DefendersHeuristic())
    assert done == ["move K2", "fight K2", "move K3", "end_day"]
    assert s.slots[0].loc == s.board.loc("K3") and s.minion_total(s.board.loc("K2")) == 0
    # On the way to the gathering: first the task where it stands, then the walk, arriving in time.
    s = position()
    s.slots[0].loc = s.board.loc("K1")
    put(s, "K1", green=1)
    s, done = play_turn(s, DefendersHeuristic())
    assert done[0] == "fight K1" and s.slots[0].loc == s.board.loc("K3")


def test_settings_are_checked_by_name_and_range() -> None:
    assert DefendersHeuristic({"menace": "2.5"}).settings.menace == 2.5  # rounds: up to 4
    for params, message in (
        ({"menace": "5"}, "heuristic parameter menace='5' must be a number from 0 to 4"),
        ({"spare": "2"}, "heuristic parameter spare='2' must be a number from 0 to 1"),
        ({"attack": "high"}, "heuristic parameter attack='high' must be a number from 0 to 1"),
        ({"sparse": "1"}, "unknown defenders heuristic parameter(s) sparse (known: archery, attack"),
    ):
        with pytest.raises(ValueError) as error:
            DefendersHeuristic(params)
        assert str(error.value).startswith(message)


def test_a_decision_never_reads_battle_die_values_cached_for_another_position() -> None:
    # The cache once keyed on id(state), turn, hand sizes and crystals: a later state with the
    # same id (a freed one's memory reused) and the same key read stale values, so a game's
    # decisions could depend on memory layout. Here the same object changes between decisions.
    s = scenario(("paladin", "dwarf"), at={"paladin": MC, "dwarf": "R1"})
    give(s, "paladin", "K1h", "K2h", "K3h")
    heuristic = DefendersHeuristic()
    heuristic.choose(s, 0, Rng(0))
    before = heuristic.die_values(s)
    varkolak = s.generals[BLACK]
    assert varkolak is not None
    varkolak.loc = s.board.loc("K1")  # one step from the city now: his dice are worth more
    heuristic.choose(s, 0, Rng(0))
    assert heuristic.die_values(s) == DefendersHeuristic().die_values(s) != before
