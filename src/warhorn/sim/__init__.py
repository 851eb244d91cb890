"""Simulation: batch play of seeded games in parallel processes, and the statistics over them."""

from warhorn.sim.runner import (
    GameJob,
    GameRecord,
    TournamentPlan,
    derive_seed,
    plan_tournament,
    play_game,
    read_records,
    run_tournament,
    seatings,
    write_records,
)
from warhorn.sim.stats import (
    EloRating,
    Interval,
    TournamentSummary,
    WinRate,
    agent_win_rates,
    elo_ratings,
    fit_elo,
    seat_win_rates,
    summarize,
    wilson_interval,
)

__all__ = [
    "EloRating",
    "GameJob",
    "GameRecord",
    "Interval",
    "TournamentPlan",
    "TournamentSummary",
    "WinRate",
    "agent_win_rates",
    "derive_seed",
    "elo_ratings",
    "fit_elo",
    "plan_tournament",
    "play_game",
    "read_records",
    "run_tournament",
    "seat_win_rates",
    "seatings",
    "summarize",
    "wilson_interval",
    "write_records",
]
