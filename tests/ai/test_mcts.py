"""The generic information-set MCTS, on games whose best moves are known and on the fixture game."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence

import pytest

import tiny_games
from fixture_game import DiceRace, PlayCard, Respond, Stage, TurnPosition
from warhorn.ai import Budget, GameHooks, MCTSAgent, make_agent, register_game_hooks
from warhorn.ai.hooks import Prior, rank_reward, shared_win_reward, unregister_game_hooks, win_share_reward
from warhorn.ai.mcts import SearchReport, prior_decides
from warhorn.engine import Action, GameState, Results, Rng, load_game
from warhorn.sim import plan_tournament, run_tournament, wilson_interval

tiny_games.register()


@pytest.fixture
def clean_hooks() -> Iterator[None]:
    yield
    unregister_game_hooks("nim-test")


@pytest.mark.parametrize(("stones", "best"), [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2), (11, 3)])
def test_finds_the_forced_win_in_nim(stones: int, best: int) -> None:
    state = load_game("nim-test", stones=stones)
    agent = MCTSAgent(Budget(iterations=1500))
    action = agent.choose(state, 0, Rng(7))
    assert action == tiny_games.Take(best), agent.explain()
    assert agent.last is not None and agent.last.chosen.mean > 0.8


def test_plays_nim_perfectly_to_the_end_from_a_winning_pile() -> None:
    state: GameState = load_game("nim-test", stones=13)
    agents = [MCTSAgent(Budget(iterations=800)), MCTSAgent(Budget(iterations=800))]
    rng = Rng(3)
    while (decision := state.pending()) is not None:
        action = agents[decision.player].choose(state, decision.player, rng)
        state, _ = state.apply(action)
    results = state.results()
    assert results is not None and results.winners == {0}


def test_blocks_a_winning_six_when_asked_outside_its_turn() -> None:
    """A decision asked of the non-active player: blocking the roller's 6 is the only way not to lose."""
    state = load_game("dice-race", seed=1, hand_size=0)
    assert isinstance(state, DiceRace)
    state.scores = [21, 0]
    state.pos = TurnPosition(round=3, turn=0, stage=Stage.RESPOND)
    decision = state.pending()
    assert decision is not None and decision.player == 1 and decision.kind == "respond"
    agent = MCTSAgent(Budget(iterations=300))
    assert agent.choose(state, 1, Rng(0)) == Respond(True), agent.explain()


def test_plays_the_card_that_wins_at_once() -> None:
    """At 15 of 20 with a 5 in hand, playing it wins now; a roll wins only on a 5 (a 6 can be blocked)."""
    state = load_game("dice-race", seed=4, hand_size=2)
    assert isinstance(state, DiceRace)
    state.scores = [15, 18]
    state.hands[0] = ("c1a", "c5b")
    agent = MCTSAgent(Budget(iterations=300))
    assert agent.choose(state, 0, Rng(1)) == PlayCard("c5b"), agent.explain()
    assert agent.last is not None and agent.last.chosen.mean == 1.0


def test_never_uses_the_hidden_card() -> None:
    """Whatever player 1 holds, the search sees the same information set and decides the same way."""
    chosen = set()
    reasons = set()
    for card in range(1, 10):
        state = load_game("guess-test", card=card)
        agent = MCTSAgent(Budget(iterations=400))
        chosen.add(agent.choose(state, 0, Rng(11)))
        reasons.add(agent.explain())
    assert chosen == {tiny_games.Call("low")}
    assert len(reasons) == 1, reasons


def test_same_seed_and_iterations_give_the_same_search() -> None:
    state = load_game("dice-race", seed=9, players=3, hand_size=3)
    first, second = MCTSAgent(Budget(iterations=300)), MCTSAgent(Budget(iterations=300))
    assert first.choose(state, 0, Rng(5)) == second.choose(state, 0, Rng(5))
    assert first.last is not None and second.last is not None
    assert _figures(first.last) == _figures(second.last) and first.explain() == second.explain()


def _figures(report: SearchReport) -> list[tuple[Action, int, str, str]]:
    """A report's root statistics, the means and priors as text: a missing one is NaN, which equals
    nothing, not even itself (the pure build happened to compare the same NaN object; the
    compiled build keeps floats unboxed, so each read is a new one)."""
    return [(s.action, s.visits, repr(s.mean), repr(s.prior)) for s in report.actions]


def test_explanation_gives_visits_win_rate_and_alternatives() -> None:
    state = load_game("nim-test", stones=9)
    agent = MCTSAgent(Budget(iterations=200))
    agent.choose(state, 0, Rng(0))
    reason = agent.explain()
    assert "/200 visits" in reason and "% expected win rate" in reason and "next best" in reason
    assert "\n" not in reason


def test_with_hidden_information_the_explanation_names_only_the_choice() -> None:
    """The runners-up may be plays of cards the player holds, and the figures come from positions
    dealt around its own hand: the reason, shown to every player, names only the action taken."""
    state = load_game("dice-race", seed=2, hand_size=2)
    assert isinstance(state, DiceRace) and state.hands[0]
    agent = MCTSAgent(Budget(iterations=200))
    chosen = agent.choose(state, 0, Rng(0))
    assert agent.explain() == f"{chosen.notation()}: chosen by information-set search"
    assert agent.last is not None and len(agent.last.actions) > 1  # the search itself still ran


def test_a_single_legal_action_is_taken_without_search() -> None:
    state = load_game("nim-test", stones=1)
    agent = MCTSAgent(Budget(iterations=10_000))
    assert agent.choose(state, 0, Rng(0)) == tiny_games.Take(1)
    assert "only legal action" in agent.explain()


def test_refuses_to_decide_for_the_wrong_player() -> None:
    with pytest.raises(ValueError, match="not the one to decide"):
        MCTSAgent().choose(load_game("nim-test"), 1, Rng(0))


def test_time_budget_stops_the_search() -> None:
    agent = MCTSAgent(Budget(seconds=0.05))
    started = time.perf_counter()
    agent.choose(load_game("dice-race", seed=1), 0, Rng(0))
    assert time.perf_counter() - started < 1.0
    assert agent.last is not None and agent.last.iterations >= 1


def test_leaf_evaluator_hook_replaces_rollouts(clean_hooks: None) -> None:
    """A perfect Nim evaluator with depth-0 rollouts finds the win with very few iterations."""
    calls = []

    def nim_value(state: GameState, player: int) -> float:
        assert isinstance(state, tiny_games.Nim)
        calls.append(player)
        mover_wins = state.stones % 4 != 0
        return 1.0 if (state.to_move == player) == mover_wins else 0.0

    def never(state: GameState, rng: Rng) -> Action:
        raise AssertionError("depth 0 must not roll out")

    register_game_hooks("nim-test", GameHooks(evaluate=nim_value, rollout_policy=never, rollout_depth=0))
    agent = MCTSAgent(Budget(iterations=40))
    assert agent.choose(load_game("nim-test", stones=23), 0, Rng(0)) == tiny_games.Take(3)
    assert calls


def test_rollout_policy_hook_is_used(clean_hooks: None) -> None:
    used = []

    def take_one(state: GameState, rng: Rng) -> Action:
        used.append(1)
        return tiny_games.Take(1)

    agent = MCTSAgent(Budget(iterations=20), rollout_policy=take_one)
    agent.choose(load_game("nim-test", stones=15), 0, Rng(0))
    assert used


def test_reward_functions() -> None:
    solo = Results(frozenset({2}), ((2,), (0, 1), (3,)))
    assert [win_share_reward(solo, p) for p in range(4)] == [0, 0, 1, 0]
    tie = Results(frozenset({0, 1}), ((0, 1),))
    assert win_share_reward(tie, 0) == 0.5 and shared_win_reward(tie, 1) == 1.0
    assert [rank_reward(solo, p) for p in range(4)] == [0.5, 0.5, 1.0, 0.0]


def test_spec_parameters_reach_the_agent() -> None:
    agent = make_agent("mcts:iterations=12:c=1.5:depth=4:reward=rank")
    assert isinstance(agent, MCTSAgent)
    assert agent.budget == Budget(iterations=12)
    assert agent.exploration == 1.5 and agent.rollout_depth == 4 and agent.reward is rank_reward
    budgeted = make_agent("mcts", Budget(seconds=0.5))
    assert isinstance(budgeted, MCTSAgent) and budgeted.budget == Budget(seconds=0.5)
    with pytest.raises(ValueError, match="unknown mcts parameter"):
        make_agent("mcts:iters=3")
    with pytest.raises(ValueError, match="iterations must be a int"):
        make_agent("mcts:iterations=lots")
    with pytest.raises(ValueError, match="reward must be one of"):
        make_agent("mcts:reward=gold")


def test_mcts_beats_random_in_dice_race() -> None:
    """120 seeded games, seats swapped every game: the 95 % Wilson interval lies above one half."""
    plan = plan_tournament(
        "dice-race", ["mcts:iterations=30", "random"], 120, seed=2024, options={"hand_size": 4}
    )
    records = run_tournament(plan)
    wins = sum(1 for r in records if r["seats"][r["result"]["winners"][0]].startswith("mcts"))
    low, high = wilson_interval(wins, len(records)).low, wilson_interval(wins, len(records)).high
    assert low > 0.55, (wins, low, high)
    assert not math.isnan(low)


def test_three_player_games_with_every_decision_kind_finish() -> None:
    plan = plan_tournament("dice-race", ["mcts:iterations=20", "random"], 3, seed=5, options={"players": 3})
    records = run_tournament(plan)
    assert all(r["result"] is not None and r["error"] is None for r in records)


class GuardedRace(DiceRace):
    """A dice race whose real state refuses everything search must not use on it."""

    guarded = False

    def determinize(self, player: int, rng: Rng) -> GuardedRace:
        self.guarded = False
        try:
            return super().determinize(player, rng)
        finally:
            self.guarded = True

    def _refuse(self, what: str) -> None:
        if self.guarded:
            raise AssertionError(f"search used {what} of the real state")

    def copy(self) -> GuardedRace:
        self._refuse("copy")
        return super().copy()

    def snapshot(self) -> dict[str, object]:
        self._refuse("snapshot")
        return super().snapshot()

    def view(self, player: int | None) -> dict[str, object]:
        self._refuse("view")
        return super().view(player)

    def results(self) -> Results | None:
        self._refuse("results")
        return super().results()


def test_search_touches_the_real_state_only_through_determinize() -> None:
    state = GuardedRace({"players": 3, "target": 20, "hand_size": 3}, seed=6)
    state.guarded = True
    agent = MCTSAgent(Budget(iterations=200))
    agent.choose(state, 0, Rng(0))
    assert agent.last is not None and agent.last.iterations == 200


def test_rollouts_cut_short_without_an_evaluator_count_as_neutral() -> None:
    agent = MCTSAgent(Budget(iterations=50), rollout_depth=0)
    agent.choose(load_game("nim-test", stones=40), 0, Rng(0))
    assert agent.last is not None
    assert all(a.mean == pytest.approx(0.5) for a in agent.last.actions)


# -- policy priors ------------------------------------------------------------------------------


def _favour(action: Action, share: float = 0.9) -> Callable[[], Prior]:
    """A prior factory putting ``share`` on ``action`` (when legal) and the rest evenly elsewhere."""

    def make() -> Prior:
        def prior(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
            rest = (1 - share) / max(1, len(legal) - 1)
            return [share if a == action else rest for a in legal]

        return prior

    return make


def test_without_a_prior_the_search_is_the_plain_one() -> None:
    """Pinned figures of the search as it was before priors existed: same visits, means and draws."""
    agent = MCTSAgent(Budget(iterations=300))
    rng = Rng(5)
    agent.choose(load_game("nim-test", stones=11), 0, rng)
    assert agent.last is not None
    got = [(a.action, a.visits, round(a.mean, 6)) for a in agent.last.actions]
    assert got == [
        (tiny_games.Take(3), 254, 0.858268),
        (tiny_games.Take(1), 33, 0.454545),
        (tiny_games.Take(2), 13, 0.307692),
    ]
    assert all(math.isnan(a.prior) for a in agent.last.actions)
    assert rng.next_u64() == 13877614986023876344
    race = MCTSAgent(Budget(iterations=200))
    race.choose(load_game("dice-race", seed=3, hand_size=2), 0, Rng(5))
    assert race.last is not None
    assert [(a.action.notation(), a.visits) for a in race.last.actions] == [
        ("roll", 123),
        ("play c4c", 53),
        ("play c2b", 24),
    ]


def test_at_tiny_budgets_the_root_follows_the_prior(clean_hooks: None) -> None:
    """From 11 stones the win is taking 3; a prior favouring 1 decides while the budget is tiny."""
    register_game_hooks("nim-test", GameHooks(prior=_favour(tiny_games.Take(1))))
    for iterations in (1, 2, 5):
        agent = MCTSAgent(Budget(iterations=iterations))
        assert agent.choose(load_game("nim-test", stones=11), 0, Rng(0)) == tiny_games.Take(1)
        assert agent.last is not None
        assert agent.last.chosen.prior == pytest.approx(0.9)
        assert "prior 90%" in agent.explain()
    # With the prior ignored, the same tiny budget is plain UCB1 (which tries every action once).
    plain = MCTSAgent(Budget(iterations=3), use_prior=False)
    plain.choose(load_game("nim-test", stones=11), 0, Rng(0))
    assert plain.last is not None and {a.visits for a in plain.last.actions} == {1}


def test_a_larger_budget_departs_from_a_wrong_prior(clean_hooks: None) -> None:
    register_game_hooks("nim-test", GameHooks(prior=_favour(tiny_games.Take(1), share=0.75)))
    agent = MCTSAgent(Budget(iterations=1500))
    assert agent.choose(load_game("nim-test", stones=11), 0, Rng(7)) == tiny_games.Take(3), agent.explain()


def test_the_prior_is_made_once_per_agent_and_asked_once_per_search(clean_hooks: None) -> None:
    made: list[int] = []
    asked: list[int] = []

    def make() -> Prior:
        made.append(1)

        def prior(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
            asked.append(len(legal))
            return [1.0] * len(legal)

        return prior

    register_game_hooks("nim-test", GameHooks(prior=make))
    agent = MCTSAgent(Budget(iterations=30))
    agent.choose(load_game("nim-test", stones=11), 0, Rng(0))
    agent.choose(load_game("nim-test", stones=9), 0, Rng(1))
    assert made == [1] and asked == [3, 3]
    assert make_agent("mcts:prior=0").use_prior is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="prior must be 0 or 1"):
        make_agent("mcts:prior=yes")


def test_a_malformed_prior_is_refused() -> None:
    def short(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
        return [1.0]

    def zero(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
        return [0.0] * len(legal)

    for bad, message in ((short, "weights for 3 legal actions"), (zero, "not all be zero")):
        with pytest.raises(ValueError, match=message):
            MCTSAgent(Budget(iterations=5), prior=bad).choose(load_game("nim-test", stones=11), 0, Rng(0))


def test_a_prior_sees_only_a_determinization() -> None:
    """A prior that peeks at the hidden card it is given is fooled: it gets a resampled card."""

    def peek(state: GameState, legal: Sequence[Action], rng: Rng) -> list[float]:
        assert isinstance(state, tiny_games.Guess)
        side = "low" if state.card <= 5 else "high"
        return [1.0 if a == tiny_games.Call(side) else 0.0 for a in legal]

    chosen = set()
    reasons = set()
    for card in range(1, 10):
        agent = MCTSAgent(Budget(iterations=3), prior=peek)
        chosen.add(agent.choose(load_game("guess-test", card=card), 0, Rng(11)))
        reasons.add(agent.explain())
    assert len(chosen) == 1 and len(reasons) == 1, (chosen, reasons)
    assert "prior" not in next(iter(reasons))


# -- skipping the search where the prior decides --------------------------------------------------


def test_prior_decides_follows_the_puct_bound() -> None:
    """With share p on the favourite and q on the next best, the favourite takes the first
    floor(p / q) iterations; the search is skipped when the rest could not outvisit it."""
    # 75 % on one of k actions, the rest even (the Nerath heuristic's prior): q = 0.25 / (k - 1),
    # so p / q = 3 (k - 1) and 100 iterations decide alone from k = 18 on (2 * 51 >= 100).
    for k, decides in ((17, False), (18, True)):
        assert prior_decides([0.75] + [0.25 / (k - 1)] * (k - 1), 100, 0.7) is decides
    assert prior_decides([0.5, 0.5, 0.0], 1, 0.7)  # one iteration: the first of the tied favourites
    assert not prior_decides([0.5, 0.5, 0.0], 2, 0.7)  # equal visits, equal priors: the means decide
    # p / q = 11.3: the favourite takes the first 11 iterations; at 22 the others could only tie it
    # (the prior breaks the tie), at 23 one of them could outvisit it.
    assert prior_decides([0.85, 0.075, 0.075], 22, 0.7)
    assert not prior_decides([0.85, 0.075, 0.075], 23, 0.7)
    # Where p / q is a whole number the search breaks a tie of scores by rounding: the favourite
    # is counted one iteration short (p / q = 6: five iterations, not six; 10 decide, 12 do not).
    assert prior_decides([0.75, 0.125, 0.125], 10, 0.7)
    assert not prior_decides([0.75, 0.125, 0.125], 11, 0.7)
    assert prior_decides([0.2, 0.8, 0.0], 10**6, 0.7) is False
    assert prior_decides([0.0, 1.0, 0.0], 10**6, 0.7)  # nothing else can ever be tried
    assert prior_decides([0.6, 0.4], 10**6, 0.0)  # no exploration: nothing else is ever tried
    with pytest.raises(ValueError):
        prior_decides([1.0], 0, 0.7)


@pytest.mark.parametrize("share", [0.5, 0.6, 0.75, 0.9])
def test_the_search_never_departs_where_the_prior_is_said_to_decide(share: float) -> None:
    """Against a searched root: where prior_decides holds, the full search ends on the favourite
    (here a losing move the search would leave with budget enough), and the first other action is
    tried once the budget exceeds p / q iterations (where p / q is a whole number, rounding decides
    whether at that budget or one sooner: share 0.75 tries one at 6 iterations)."""
    q = (1 - share) / 2
    for iterations in range(1, 70):
        agent = MCTSAgent(
            Budget(iterations=iterations), prior=_favour(tiny_games.Take(1), share)(), skip=False
        )
        chosen = agent.choose(load_game("nim-test", stones=11), 0, Rng(iterations))
        assert agent.last is not None and not agent.last.skipped
        others = sum(a.visits for a in agent.last.actions if a.action != tiny_games.Take(1))
        if abs(iterations * q - share) > 1e-9:
            assert (others > 0) is (iterations * q > share), (share, iterations)
        if prior_decides([share, q, q], iterations, agent.exploration):
            assert chosen == tiny_games.Take(1), (share, iterations, agent.explain())


def test_a_skipped_search_takes_the_favourite_at_once_and_says_so(clean_hooks: None) -> None:
    register_game_hooks("nim-test", GameHooks(prior=_favour(tiny_games.Take(2), share=0.9)))
    skipping = MCTSAgent(Budget(iterations=30))
    searching = MCTSAgent(Budget(iterations=30), skip=False)
    rng_a, rng_b = Rng(3), Rng(3)
    state = load_game("nim-test", stones=11)
    assert skipping.choose(state, 0, rng_a) == searching.choose(state, 0, rng_b) == tiny_games.Take(2)
    assert rng_a.next_u64() == rng_b.next_u64()  # the caller's generator is drawn the same
    assert skipping.last is not None and skipping.last.skipped and skipping.last.iterations == 0
    assert skipping.last.chosen.action == tiny_games.Take(2)
    assert skipping.explain() == (
        "take 2: prior's choice, search skipped: prior 90% against at most 5.0% for any other action, "
        "so 30 iterations could not overturn it"
    )
    assert searching.last is not None and searching.last.iterations == 30
    # A larger budget searches (and may depart); a budget in seconds alone is never skipped.
    wide = MCTSAgent(Budget(iterations=37))
    wide.choose(state, 0, Rng(3))
    assert wide.last is not None and not wide.last.skipped and wide.last.iterations == 37
    timed = MCTSAgent(Budget(seconds=0.02))
    timed.choose(state, 0, Rng(3))
    assert timed.last is not None and not timed.last.skipped and timed.last.iterations >= 1


def test_skip_is_set_from_the_agent_spec() -> None:
    assert make_agent("mcts").skip is True  # type: ignore[attr-defined]
    assert make_agent("mcts:iterations=50:skip=0").skip is False  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="skip must be 0 or 1"):
        make_agent("mcts:skip=yes")
