"""Wilson intervals, win rates and Elo ratings against known values."""

from __future__ import annotations

import math
from typing import Any

import pytest

from warhorn.sim.stats import (
    agent_win_rates,
    elo_ratings,
    fit_elo,
    pairwise_outcomes,
    seat_win_rates,
    summarize,
    wilson_interval,
)


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [(50, 100, 0.4038, 0.5962), (0, 10, 0.0, 0.2775), (10, 10, 0.7225, 1.0), (81, 263, 0.2553, 0.3662)],
)
def test_wilson_known_values(wins: int, games: int, low: float, high: float) -> None:
    interval = wilson_interval(wins, games)
    assert interval.low == pytest.approx(low, abs=5e-5)
    assert interval.high == pytest.approx(high, abs=5e-5)


def test_wilson_edge_cases() -> None:
    assert wilson_interval(0, 0) == wilson_interval(0, 0).__class__(0.0, 1.0)
    with pytest.raises(ValueError):
        wilson_interval(5, 4)


def test_elo_two_agents_matches_the_closed_form() -> None:
    comparisons = [(0, 1, 1.0)] * 76 + [(0, 1, 0.0)] * 24
    a, b = fit_elo(comparisons, 2, prior_draws=0)
    assert a - b == pytest.approx(400 * math.log10(76 / 24), abs=1e-6)
    assert (a + b) / 2 == pytest.approx(1500)


def test_elo_draws_count_half_and_prior_keeps_sweeps_finite() -> None:
    a, b = fit_elo([(0, 1, 0.5)] * 10, 2, prior_draws=0)
    assert a == pytest.approx(b)
    swept = fit_elo([(0, 1, 1.0)] * 10, 2, prior_draws=1.0)
    # 10.5 wins to 0.5 in 11 comparisons
    assert swept[0] - swept[1] == pytest.approx(400 * math.log10(10.5 / 0.5), abs=1e-6)


def test_elo_three_agents_solves_the_likelihood_equations() -> None:
    """At the maximum, each agent's expected score equals its actual score."""
    raw = {(0, 1): (30, 20), (1, 2): (25, 15), (0, 2): (12, 3)}
    comparisons = []
    for (i, j), (wi, wj) in raw.items():
        comparisons += [(i, j, 1.0)] * wi + [(i, j, 0.0)] * wj
    ratings = fit_elo(comparisons, 3, prior_draws=0)
    for k in range(3):
        actual = expected = 0.0
        for (i, j), (wi, wj) in raw.items():
            if k not in (i, j):
                continue
            other = j if k == i else i
            actual += wi if k == i else wj
            expected += (wi + wj) / (1 + 10 ** ((ratings[other] - ratings[k]) / 400))
        assert expected == pytest.approx(actual, abs=1e-6)
    assert ratings[0] > ratings[1] > ratings[2]


def record(seats: list[str], winners: list[int], ranking: list[list[int]] | None = None) -> dict[str, Any]:
    return {
        "seats": seats,
        "result": {"winners": winners, "ranking": ranking or [], "scores": {}, "reason": "won"},
        "actions": 10,
        "rounds": 3,
        "duration_s": 0.1,
        "error": None,
    }


def test_win_rates_by_agent_and_seat() -> None:
    records = [
        record(["A", "B"], [0]),
        record(["B", "A"], [1]),
        record(["A", "B"], [1]),
        {"seats": ["B", "A"], "result": None, "actions": 99, "rounds": None, "error": "limit"},
    ]
    by_agent = {w.name: (w.wins, w.games) for w in agent_win_rates(records)}
    assert by_agent == {"A": (2, 4), "B": (1, 4)}
    by_seat = [(w.name, w.wins, w.games) for w in seat_win_rates(records)]
    assert by_seat == [("seat 0", 1, 4), ("seat 1", 2, 4)]


def test_allied_seats_and_multiplayer_rankings_become_pairwise_results() -> None:
    allied = record(["A", "B", "A", "B"], [0, 2], [[0, 2], [1, 3]])
    assert sorted(pairwise_outcomes([allied], ["A", "B"])[0]) == [(0, 1, 1.0)] * 4
    ffa = record(["A", "B", "C"], [1], [[1], [0, 2]])
    assert sorted(pairwise_outcomes([ffa], ["A", "B", "C"])[0]) == [(0, 1, 0.0), (0, 2, 0.5), (1, 2, 1.0)]
    no_ranking = record(["A", "B", "C"], [2])
    assert sorted(pairwise_outcomes([no_ranking], ["A", "B", "C"])[0]) == [
        (0, 1, 0.5),
        (0, 2, 0.0),
        (1, 2, 0.0),
    ]


def test_elo_bootstrap_is_seeded_and_brackets_the_estimate() -> None:
    records = [record(["A", "B"], [0])] * 60 + [record(["A", "B"], [1])] * 40
    first = elo_ratings(records, ["A", "B"], bootstrap=100, seed=3)
    again = elo_ratings(records, ["A", "B"], bootstrap=100, seed=3)
    assert first == again
    a = first[0]
    assert a.interval.low < a.rating < a.interval.high
    assert a.rating - first[1].rating == pytest.approx(400 * math.log10(60.5 / 40.5), abs=1e-6)


def test_a_clean_sweep_leaves_the_elo_interval_open_at_that_end() -> None:
    sweep = elo_ratings([record(["A", "B"], [0])] * 50, ["A", "B"], bootstrap=50, seed=1)
    winner, loser = sweep
    assert winner.rating > loser.rating
    assert math.isinf(winner.interval.high) and winner.interval.low <= winner.rating
    assert math.isinf(loser.interval.low) and loser.interval.high >= loser.rating


def test_summary() -> None:
    records = [record(["A", "B"], [0]), record(["B", "A"], [0])]
    summary = summarize(records, bootstrap=20)
    assert summary.games == 2 and summary.finished == 2 and summary.errors == 0
    assert summary.elo is not None and len(summary.elo) == 2
    assert summary.end_reasons == {"won": 2}
    assert summarize([record(["A", "A"], [1])], bootstrap=20).elo is None


def test_thinking_time_per_agent() -> None:
    first = record(["A", "B", "A"], [0]) | {"decisions": [3, 2, 1], "think_s": [0.3, 0.0, 0.1]}
    rates = {w.name: w for w in agent_win_rates([first])}
    assert rates["A"].decisions == 4 and rates["A"].ms_per_decision == pytest.approx(100.0)
    assert rates["B"].ms_per_decision == 0.0
    assert math.isnan(agent_win_rates([record(["A", "B"], [0])])[0].ms_per_decision)
