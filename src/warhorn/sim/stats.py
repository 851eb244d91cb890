"""Statistics over tournament records: Wilson intervals, win rates by agent and seat, Elo ratings.

- :func:`wilson_interval`: the Wilson score interval for a binomial rate
  (95 % by default), sound near 0 % and 100 % where the normal interval fails.
- :func:`agent_win_rates` / :func:`seat_win_rates`: a game counts as a win
  for an agent when one of its seats is among the winners (a shared or
  cooperative win counts for each agent sharing it); unfinished games count
  as played and not won.
- :func:`fit_elo`: Bradley–Terry maximum likelihood on the Elo scale
  (``P(A beats B) = 1 / (1 + 10 ** ((R_B - R_A) / 400))``), ratings averaging
  1500. Every finished game gives one comparison per pair of seats held by
  different agents (better ranking wins, equal ranking is a draw worth half).
  A weak prior — ``prior_draws`` virtual draws per pair of agents that met —
  keeps a clean sweep finite. :func:`elo_ratings` adds percentile intervals
  from a bootstrap over games with a seeded generator; an agent that won
  (or lost) every comparison gets an interval open at that end, since its
  games cannot bound how much stronger (weaker) it is.
- :func:`team_win_rate`: in a cooperative game (the record's ``cooperative``
  flag, from ``GameSpec.cooperative``) the players win or lose together, so
  the summary gives the team's win rate with its Wilson interval and no Elo:
  a rating between seats that share every result would only measure the
  game's own tie-break between champions.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warhorn.engine import Rng

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Interval:
    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high


def wilson_interval(successes: float, trials: int, z: float = Z95) -> Interval:
    """The Wilson score interval for ``successes`` out of ``trials`` (``[0, 1]`` when there are none)."""
    if trials <= 0:
        return Interval(0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in [0, {trials}], got {successes}")
    p = successes / trials
    z2 = z * z
    denominator = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class WinRate:
    """Wins out of games, with the 95 % Wilson interval (and, per agent, decisions and thinking time)."""

    name: str
    games: int
    wins: int
    decisions: int = 0
    think_seconds: float = 0.0

    @property
    def ms_per_decision(self) -> float:
        return 1000 * self.think_seconds / self.decisions if self.decisions else math.nan

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def interval(self) -> Interval:
        return wilson_interval(self.wins, self.games)


def _winners(record: Mapping[str, Any]) -> set[int]:
    result = record.get("result")
    if not result:
        return set()
    return {int(w) for w in result.get("winners", [])}


def roles_by_seat(record: Mapping[str, Any]) -> list[list[str]] | None:
    """Every role each seat held in a game: the record's ``roles_played`` (Small World's races change), else
    its ``roles`` (one per seat); None when the game has no roles."""
    played = record.get("roles_played")
    if played and any(played):
        return [list(held) for held in played]
    roles = record.get("roles")
    return [[role] for role in roles] if roles else None


#: A role made of parts, e.g. Small World's ``"Ratmen + Flying"``: the report also counts each part alone.
ROLE_PARTS = " + "


def agent_win_rates(records: Iterable[Mapping[str, Any]]) -> list[WinRate]:
    """Per agent label: games played and games where one of its seats won; in first-seen order."""
    games: dict[str, int] = {}
    wins: dict[str, int] = {}
    decisions: dict[str, int] = {}
    think: dict[str, float] = {}
    for record in records:
        seats: list[str] = list(record["seats"])
        winners = _winners(record)
        for label in dict.fromkeys(seats):
            games[label] = games.get(label, 0) + 1
            won = any(seat in winners for seat, held in enumerate(seats) if held == label)
            wins[label] = wins.get(label, 0) + int(won)
        seat_decisions = record.get("decisions") or [0] * len(seats)
        seat_think = record.get("think_s") or [0.0] * len(seats)
        for seat, label in enumerate(seats):
            decisions[label] = decisions.get(label, 0) + int(seat_decisions[seat])
            think[label] = think.get(label, 0.0) + float(seat_think[seat])
    return [WinRate(label, games[label], wins[label], decisions[label], think[label]) for label in games]


def seat_win_rates(records: Iterable[Mapping[str, Any]]) -> list[WinRate]:
    """Per seat index (whoever sat there): games and wins."""
    games: dict[int, int] = {}
    wins: dict[int, int] = {}
    for record in records:
        winners = _winners(record)
        for seat in range(len(record["seats"])):
            games[seat] = games.get(seat, 0) + 1
            wins[seat] = wins.get(seat, 0) + int(seat in winners)
    return [WinRate(f"seat {seat}", games[seat], wins[seat]) for seat in sorted(games)]


def _places(record: Mapping[str, Any]) -> dict[int, int] | None:
    """Seat → place (0 best) from the ranking, else winners before the rest; None if unfinished."""
    result = record.get("result")
    if not result:
        return None
    seats = range(len(record["seats"]))
    ranking = result.get("ranking") or []
    places: dict[int, int] = {}
    for place, group in enumerate(ranking):
        for seat in group:
            places[int(seat)] = place
    if len(places) < len(record["seats"]):
        winners = _winners(record)
        return {seat: 0 if seat in winners else 1 for seat in seats}
    return places


def pairwise_outcomes(
    records: Sequence[Mapping[str, Any]], labels: Sequence[str]
) -> list[list[tuple[int, int, float]]]:
    """Per record, ``(agent i, agent j, score of i)``, ``i < j``, per pair of seats of different agents."""
    index = {label: k for k, label in enumerate(labels)}
    out = []
    for record in records:
        places = _places(record)
        comparisons: list[tuple[int, int, float]] = []
        if places is not None:
            seats = list(record["seats"])
            for a in range(len(seats)):
                for b in range(a + 1, len(seats)):
                    if seats[a] == seats[b]:
                        continue
                    score = 1.0 if places[a] < places[b] else 0.0 if places[a] > places[b] else 0.5
                    i, j = index[seats[a]], index[seats[b]]
                    comparisons.append((i, j, score) if i < j else (j, i, 1.0 - score))
        out.append(comparisons)
    return out


def fit_elo(
    comparisons: Iterable[tuple[int, int, float]],
    num_agents: int,
    *,
    prior_draws: float = 1.0,
    tolerance: float = 1e-10,
    max_iterations: int = 10_000,
) -> list[float]:
    """Maximum-likelihood Elo ratings (mean 1500) from ``(i, j, score of i)`` comparisons.

    Solved with the minorization-maximization iteration for the
    Bradley–Terry model (Hunter, 2004); a draw counts half a win each way.
    Agents that never played get 1500.
    """
    wins = [0.0] * num_agents
    meetings: dict[tuple[int, int], float] = {}
    for i, j, score in comparisons:
        if i == j:
            continue
        wins[i] += score
        wins[j] += 1.0 - score
        key = (i, j) if i < j else (j, i)
        meetings[key] = meetings.get(key, 0.0) + 1.0
    if prior_draws > 0:
        for i, j in meetings:
            wins[i] += prior_draws / 2
            wins[j] += prior_draws / 2
            meetings[i, j] += prior_draws
    played = [False] * num_agents
    for i, j in meetings:
        played[i] = played[j] = True
    strength = [1.0] * num_agents
    for _ in range(max_iterations):
        denominators = [0.0] * num_agents
        for (i, j), count in meetings.items():
            shared = count / (strength[i] + strength[j])
            denominators[i] += shared
            denominators[j] += shared
        updated = [
            (wins[k] / denominators[k] if wins[k] > 0 else 1e-12) if played[k] and denominators[k] else 1.0
            for k in range(num_agents)
        ]
        logs = [math.log(s) for k, s in enumerate(updated) if played[k]]
        centre = math.exp(sum(logs) / len(logs)) if logs else 1.0
        updated = [s / centre if played[k] else 1.0 for k, s in enumerate(updated)]
        change = max(abs(math.log(a) - math.log(b)) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < tolerance:
            break
    return [1500.0 + 400.0 * math.log10(s) if played[k] else 1500.0 for k, s in enumerate(strength)]


@dataclass(frozen=True, slots=True)
class EloRating:
    name: str
    rating: float
    interval: Interval


def elo_ratings(
    records: Sequence[Mapping[str, Any]],
    labels: Sequence[str],
    *,
    bootstrap: int = 200,
    seed: int = 0,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
) -> list[EloRating]:
    """Elo per agent label with a percentile bootstrap interval (resampling whole games).

    The bootstrap draws from the engine's seeded generator, so the same
    records and seed give the same intervals. ``bootstrap=0`` gives no
    interval (``[rating, rating]``).
    """
    per_game = pairwise_outcomes(records, labels)
    n = len(labels)
    point = fit_elo((c for game in per_game for c in game), n, prior_draws=prior_draws)
    if bootstrap <= 0 or not per_game:
        return [EloRating(label, point[k], Interval(point[k], point[k])) for k, label in enumerate(labels)]
    rng = Rng(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    games = len(per_game)
    for _ in range(bootstrap):
        drawn = (c for _ in range(games) for c in per_game[rng.below(games)])
        ratings = fit_elo(drawn, n, prior_draws=prior_draws, tolerance=1e-8)
        for k in range(n):
            samples[k].append(ratings[k])
    tail = (1.0 - confidence) / 2
    scores: list[set[float]] = [set() for _ in range(n)]
    for game in per_game:
        for i, j, score in game:
            scores[i].add(score)
            scores[j].add(1.0 - score)
    out = []
    for k, label in enumerate(labels):
        ordered = sorted(samples[k])
        low, high = _quantile(ordered, tail), _quantile(ordered, 1 - tail)
        # a clean sweep resamples into the same sweep: the bootstrap shows only the prior's pull there
        if scores[k] == {1.0}:
            high = math.inf
        elif scores[k] == {0.0}:
            low = -math.inf
        out.append(EloRating(label, point[k], Interval(low, high)))
    return out


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default method)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def is_cooperative(records: Sequence[Mapping[str, Any]]) -> bool:
    """True when every record comes from a cooperative game (a record from before the flag: competitive)."""
    return bool(records) and all(bool(r.get("cooperative")) for r in records)


def team_win_rate(records: Iterable[Mapping[str, Any]]) -> WinRate:
    """Games the players won together (every seat among the winners) out of all games played."""
    games = 0
    wins = 0
    for record in records:
        games += 1
        winners = _winners(record)
        wins += int(bool(winners) and winners == set(range(len(record["seats"]))))
    return WinRate("team", games, wins)


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    games: int
    finished: int
    errors: int
    agents: list[WinRate]
    seats: list[WinRate]
    elo: list[EloRating] | None
    mean_actions: float
    mean_rounds: float | None
    total_game_seconds: float
    end_reasons: dict[str, int]
    #: The cooperative team's win rate (None in a competitive game).
    team: WinRate | None = None


def summarize(
    records: Sequence[Mapping[str, Any]], *, bootstrap: int = 200, seed: int = 0
) -> TournamentSummary:
    """Everything the tournament report prints: in a cooperative game the team's win rate and no Elo,
    otherwise Elo when two or more agents took part."""
    agents = agent_win_rates(records)
    labels = [a.name for a in agents]
    team = team_win_rate(records) if is_cooperative(records) else None
    elo = (
        elo_ratings(records, labels, bootstrap=bootstrap, seed=seed)
        if len(labels) > 1 and team is None
        else None
    )
    finished = sum(1 for r in records if r.get("result"))
    errors = sum(1 for r in records if r.get("error"))
    rounds = [r["rounds"] for r in records if isinstance(r.get("rounds"), int)]
    reasons: dict[str, int] = {}
    for r in records:
        reason = r["result"].get("reason", "") if r.get("result") else "unfinished"
        reasons[reason] = reasons.get(reason, 0) + 1
    return TournamentSummary(
        games=len(records),
        finished=finished,
        errors=errors,
        agents=agents,
        seats=seat_win_rates(records),
        elo=elo,
        mean_actions=sum(r["actions"] for r in records) / len(records) if records else 0.0,
        mean_rounds=sum(rounds) / len(rounds) if rounds else None,
        total_game_seconds=sum(float(r.get("duration_s", 0.0)) for r in records),
        end_reasons=reasons,
        team=team,
    )
