"""Paired what-if experiments: two or more *arms* played on the same seeds, each compared with the first.

An arm is a tournament setting: its agents (an agent setting such as
``heuristic:spare=0``), game options, a content folder and a search budget.
Every arm plays the same games: game ``i`` of every arm has the same deal seed
and the same agent generators (:func:`warhorn.sim.runner.plan_tournament` with
one tournament seed), so arms with the same number of agents sit the same way.
What differs between the arms' games ``i`` is the arm's setting (and whatever
it changes downstream), so most of the luck of the dice cancels in the
difference.

Outcomes per game (:func:`outcomes`): for a cooperative game the team's win;
otherwise a win for each role (kingdom, faction, hero: the record's
``roles``) and, with two or more agents, for each agent by its place in the
field; and the game's length in rounds and in actions.

Each arm against the baseline (:func:`compare`), over the games both played:

- **difference**: the mean of the per-game differences ``x_arm(i) - x_base(i)``
  (for a win rate: the difference of the two rates, in points);
- **paired 95 % interval**: ``mean ± 1.96 · sd(d) / sqrt(n)`` over the
  per-game differences ``d`` (the normal interval of a paired mean; for
  binary outcomes this is the Wald interval of the difference of paired
  proportions); shown beside the unpaired half-width
  ``1.96 · sqrt(var_arm / n + var_base / n)`` so the gain from pairing is visible;
- **McNemar's exact test** for binary outcomes: ``b`` games won by the
  baseline only, ``c`` by the arm only; two-sided p from the binomial
  distribution of ``c`` out of ``b + c`` at one half (the games both won or
  both lost say nothing about the difference).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warhorn.ai import Budget
from warhorn.engine import WarhornError
from warhorn.sim.runner import GameRecord, TournamentPlan, plan_tournament
from warhorn.sim.stats import Z95, roles_by_seat, wilson_interval


@dataclass(frozen=True, slots=True)
class Arm:
    """One setting of an experiment; the first arm is the baseline."""

    label: str
    agents: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    content: str | None = None
    budget: str | None = None

    def describe(self) -> str:
        parts = [f"agents={','.join(self.agents)}"]
        parts += [f"option {k}={v}" for k, v in sorted(self.options.items())]
        if self.content is not None:
            parts.append(f"content={self.content}")
        if self.budget is not None:
            parts.append(f"budget={self.budget}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "agents": list(self.agents),
            "options": self.options,
            "content": self.content,
            "budget": self.budget,
        }


def parse_arm(text: str, base: Arm) -> Arm:
    """``LABEL[;agents=A,B][;option=NAME=VALUE]…[;content=DIR][;budget=B]``: the base settings with these
    changed (``o=`` is short for ``option=``; options add to the base's). ValueError names a bad part."""
    label, *parts = [part.strip() for part in text.split(";")]
    if not label or "=" in label:
        raise ValueError(f"--arm {text!r}: start with the arm's name, e.g. 'spare0;agents=heuristic:spare=0'")
    agents, options, content, budget = base.agents, dict(base.options), base.content, base.budget
    for part in parts:
        if not part:
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not value:
            raise ValueError(f"--arm {label!r}: {part!r} must be key=value (agents, option, content, budget)")
        if key == "agents":
            agents = tuple(a.strip() for a in value.split(",") if a.strip())
        elif key in ("option", "o"):
            name, sep, option_value = value.partition("=")
            if not sep or not name.strip():
                raise ValueError(f"--arm {label!r}: option {value!r} must be NAME=VALUE")
            options[name.strip().replace("-", "_")] = option_value.strip()  # the game spec types it
        elif key == "content":
            content = value
        elif key == "budget":
            budget = value
        else:
            raise ValueError(
                f"--arm {label!r}: unknown setting {key!r} (known: agents, option, content, budget)"
            )
    return Arm(label, agents, options, content, budget)


def plan_experiment(
    game: str,
    arms: Sequence[Arm],
    games: int,
    *,
    seed: int = 0,
    max_actions: int | None = None,
    setup: Sequence[str] = (),
    teams: Sequence[Sequence[int]] | None = None,
) -> list[TournamentPlan]:
    """One tournament plan per arm, all on tournament seed ``seed``; ValueError when arms cannot be paired."""
    if len(arms) < 2:
        raise ValueError("an experiment needs two or more arms (--arm), the first being the baseline")
    labels = [arm.label for arm in arms]
    for label in labels:
        if labels.count(label) > 1:
            raise ValueError(f"arm {label!r} is named twice: give every arm its own name")
        if "/" in label or label.startswith("."):
            raise ValueError(
                f"arm {label!r}: an arm's name becomes a file name; use no '/' and no leading '.'"
            )
    plans = []
    for arm in arms:
        try:
            plans.append(
                plan_tournament(
                    game,
                    arm.agents,
                    games,
                    seed=seed,
                    options=arm.options,
                    budget=Budget.parse(arm.budget) if arm.budget is not None else None,
                    max_actions=max_actions,
                    setup=setup,
                    teams=teams,
                    content=arm.content,
                )
            )
        except (ValueError, WarhornError) as exc:
            raise ValueError(f"arm {arm.label!r}: {exc}") from None
    base = plans[0]
    for arm, plan in zip(arms[1:], plans[1:], strict=True):
        if len(plan.agents) != len(base.agents):
            raise ValueError(
                f"arm {arm.label!r} has {len(plan.agents)} agents and the baseline {len(base.agents)}: "
                "paired arms seat the same number of agents (change an agent's setting, not the field's size)"
            )
    return plans


# --- outcomes ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Metric:
    """An outcome measured on every game: binary (a win) or a number (rounds, actions)."""

    key: str
    binary: bool


def _winners(record: Mapping[str, Any]) -> set[int]:
    result = record.get("result")
    return {int(w) for w in result.get("winners", [])} if result else set()


def outcomes(record: Mapping[str, Any]) -> dict[Metric, float]:
    """The outcomes of one game (see the module doc); a game stopped early is a game not won."""
    seats = list(record["seats"])
    winners = _winners(record)
    out: dict[Metric, float] = {}
    if record.get("cooperative"):
        out[Metric("team wins", True)] = float(bool(winners) and winners == set(range(len(seats))))
    else:
        for seat, held in enumerate(roles_by_seat(record) or []):
            for role in held:
                key = Metric(f"{role} wins", True)
                out[key] = max(out.get(key, 0.0), float(seat in winners))
    if record.get("rounds") is not None:
        out[Metric("rounds", False)] = float(record["rounds"])
    out[Metric("actions", False)] = float(record["actions"])
    return out


def agent_outcomes(record: Mapping[str, Any], agents: Sequence[str]) -> dict[Metric, float]:
    """For a field of two or more agents: a win for agent number k (by its place in the field)."""
    if len(agents) < 2 or record.get("cooperative"):
        return {}
    seats = list(record["seats"])
    winners = _winners(record)
    return {
        Metric(f"agent {k + 1} wins", True): float(
            any(seats[s] == label and s in winners for s in range(len(seats)))
        )
        for k, label in enumerate(agents)
    }


def game_outcomes(records: Sequence[GameRecord], labels: Sequence[str]) -> dict[int, dict[Metric, float]]:
    """Per game index, every outcome of that game."""
    return {int(r["index"]): {**outcomes(r), **agent_outcomes(r, labels)} for r in records}


# --- comparison -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArmValue:
    """One arm's mean of a metric (a rate for a binary one, with its Wilson interval)."""

    arm: str
    metric: Metric
    n: int
    mean: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class Difference:
    """Arm minus baseline on one metric, over the ``n`` games both played."""

    arm: str
    baseline: str
    metric: Metric
    n: int
    difference: float
    low: float
    high: float
    unpaired_half_width: float
    #: McNemar counts: games won by the baseline only (b) and by the arm only (c); binary metrics only.
    baseline_only: int | None = None
    arm_only: int | None = None
    p_value: float | None = None


def _mean_sd(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p: ``min(1, 2 · P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)``."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2 * tail)


def arm_values(
    arm: str, per_game: Mapping[int, Mapping[Metric, float]], metrics: Sequence[Metric]
) -> list[ArmValue]:
    out = []
    for metric in metrics:
        values = [o[metric] for o in per_game.values() if metric in o]
        if not values:
            continue
        mean, sd = _mean_sd(values)
        if metric.binary:
            interval = wilson_interval(sum(values), len(values))
            low, high = interval.low, interval.high
        else:
            half = Z95 * sd / math.sqrt(len(values))
            low, high = mean - half, mean + half
        out.append(ArmValue(arm, metric, len(values), mean, low, high))
    return out


def compare(
    baseline: str,
    base_games: Mapping[int, Mapping[Metric, float]],
    arm: str,
    arm_games: Mapping[int, Mapping[Metric, float]],
    metrics: Sequence[Metric],
) -> list[Difference]:
    """Arm minus baseline per metric, paired by game index (see the module doc)."""
    out = []
    for metric in metrics:
        pairs = [
            (base_games[i][metric], arm_games[i][metric])
            for i in sorted(base_games.keys() & arm_games.keys())
            if metric in base_games[i] and metric in arm_games[i]
        ]
        if not pairs:
            continue
        n = len(pairs)
        mean, sd = _mean_sd([a - b for b, a in pairs])
        half = Z95 * sd / math.sqrt(n)
        _, sd_base = _mean_sd([b for b, _ in pairs])
        _, sd_arm = _mean_sd([a for _, a in pairs])
        unpaired = Z95 * math.sqrt((sd_base**2 + sd_arm**2) / n)
        b = c = None
        p = None
        if metric.binary:
            b = sum(1 for base, other in pairs if base > other)
            c = sum(1 for base, other in pairs if other > base)
            p = mcnemar_exact(b, c)
        out.append(Difference(arm, baseline, metric, n, mean, mean - half, mean + half, unpaired, b, c, p))
    return out


@dataclass(frozen=True, slots=True)
class ExperimentSummary:
    arms: tuple[Arm, ...]
    games: tuple[int, ...]
    metrics: tuple[Metric, ...]
    values: tuple[ArmValue, ...]
    differences: tuple[Difference, ...]


def summarize_experiment(arms: Sequence[Arm], records: Sequence[Sequence[GameRecord]]) -> ExperimentSummary:
    """Every arm's values and every arm's differences from the first arm (the baseline)."""
    per_arm = []
    for arm, arm_records in zip(arms, records, strict=True):
        labels = list(dict.fromkeys(label for r in arm_records for label in r["seats"]))
        # the field's order is the arm's agents' order (labels as the runner makes them)
        ordered = [label for label in _field_labels(arm) if label in labels] or labels
        per_arm.append(game_outcomes(arm_records, ordered))
    metrics: list[Metric] = []
    for per_game in per_arm:
        for outcome in per_game.values():
            for metric in outcome:
                if metric not in metrics:
                    metrics.append(metric)
    metrics.sort(key=lambda m: (not m.binary, m.key.startswith("agent "), m.key))
    values = [
        v
        for arm, per_game in zip(arms, per_arm, strict=True)
        for v in arm_values(arm.label, per_game, metrics)
    ]
    differences = [
        d
        for arm, per_game in zip(arms[1:], per_arm[1:], strict=True)
        for d in compare(arms[0].label, per_arm[0], arm.label, per_game, metrics)
    ]
    return ExperimentSummary(
        tuple(arms), tuple(len(r) for r in records), tuple(metrics), tuple(values), tuple(differences)
    )


def _field_labels(arm: Arm) -> list[str]:
    from warhorn.sim.runner import agent_labels

    return agent_labels(arm.agents)


def format_value(metric: Metric, value: float) -> str:
    return f"{value * 100:.1f} %" if metric.binary else f"{value:.2f}"


def format_difference(metric: Metric, value: float) -> str:
    return f"{value * 100:+.1f} pt" if metric.binary else f"{value:+.2f}"


def arm_file(folder: Path, arm: Arm) -> Path:
    """Where an arm's records are kept in an experiment's folder."""
    return folder / f"{arm.label}.jsonl"


__all__ = [
    "Arm",
    "ArmValue",
    "Difference",
    "ExperimentSummary",
    "Metric",
    "arm_file",
    "compare",
    "mcnemar_exact",
    "outcomes",
    "parse_arm",
    "plan_experiment",
    "summarize_experiment",
]
