"""A designer's balance report: one self-contained HTML page of plots, each with its numbers beside it.

:func:`build_report` reads tournament records (``warhorn tournament --out``)
and draws, with matplotlib, what a designer asks of a batch of games:

- win rate per agent, per seat and per role (faction, kingdom, hero: the
  record's ``roles``), each with its 95 % Wilson interval as an error bar;
  for a cooperative game the team's win rate first, and no Elo;
- first-player advantage: the win rate of the seat that decided first
  against the other seats;
- game length: the distribution of rounds (or actions, when the game counts
  no rounds);
- score over rounds (the record's ``score_by_round``): the mean per role with
  a 95 % band for the mean;
- end reasons; for a cooperative game, the losses by cause and by the stage
  the game had reached (``final_stage``: Defenders' war status).

Every figure is a PNG embedded as a data URI next to an HTML table of the
numbers it plots, and the page names the command that regenerates it, so a
report file can be mailed or archived alone.
"""

from __future__ import annotations

import base64
import html
import io
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warhorn.sim.experiment import ExperimentSummary, format_difference, format_value
from warhorn.sim.stats import (
    ROLE_PARTS,
    Z95,
    WinRate,
    agent_win_rates,
    is_cooperative,
    roles_by_seat,
    seat_win_rates,
    team_win_rate,
)


@dataclass(frozen=True, slots=True)
class Figure:
    """One section of the report: a title, a PNG, the table of its numbers and a note."""

    title: str
    png: bytes
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise ValueError("warhorn report needs matplotlib (pip install 'warhorn[sim]')") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=96, bbox_inches="tight")
    _pyplot().close(fig)
    return buffer.getvalue()


def _percent(value: float) -> str:
    return "-" if math.isnan(value) else f"{value * 100:.1f} %"


def _rate_rows(rates: Sequence[WinRate]) -> tuple[tuple[str, ...], ...]:
    return tuple(
        (
            r.name,
            str(r.games),
            str(r.wins),
            _percent(r.rate),
            f"{r.interval.low * 100:.1f}–{r.interval.high * 100:.1f} %",
        )
        for r in rates
    )


RATE_HEADER = ("name", "games", "wins", "rate", "95 % CI")


def _rate_figure(title: str, rates: Sequence[WinRate], note: str = "") -> Figure:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(rates) + 1.2))
    names = [r.name for r in rates]
    values = [0.0 if math.isnan(r.rate) else r.rate for r in rates]
    # max(0, …): at 0 % or 100 % the interval's end can miss the rate by a rounding error
    low = [max(0.0, v - r.interval.low) for v, r in zip(values, rates, strict=True)]
    high = [max(0.0, r.interval.high - v) for v, r in zip(values, rates, strict=True)]
    positions = list(range(len(rates)))
    ax.barh(positions, values, xerr=[low, high], color="#4c78a8", capsize=4)
    ax.set_yticks(positions, names)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (bars: 95 % Wilson interval)")
    ax.set_title(title)
    return Figure(title, _png(fig), RATE_HEADER, _rate_rows(rates), note)


def role_win_rates(records: Sequence[Mapping[str, Any]], part: int | None = None) -> list[WinRate]:
    """Per role (faction, kingdom, hero; Small World's race and power combination): seat-games in which a
    seat held it, and those the seat won; each role counted once per seat and game; sorted by name.
    ``part``: count only that part of ``"A + B"`` roles (0: the race, 1: the power)."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for record in records:
        held = roles_by_seat(record)
        if not held:
            continue
        result = record.get("result") or {}
        winners = {int(w) for w in result.get("winners", [])}
        for seat, roles in enumerate(held):
            names = (
                roles
                if part is None
                else [r.split(ROLE_PARTS)[part] for r in roles if len(r.split(ROLE_PARTS)) > part]
            )
            for role in dict.fromkeys(names):
                games[role] += 1
                wins[role] += int(seat in winners)
    return [WinRate(role, games[role], wins[role]) for role in sorted(games)]


def first_player_rates(records: Sequence[Mapping[str, Any]]) -> list[WinRate]:
    """The seat that decided first against the other seats (per seat-game), for competitive games."""
    first = [0, 0]
    others = [0, 0]
    for record in records:
        seat0 = record.get("first_seat")
        if seat0 is None:
            continue
        result = record.get("result") or {}
        winners = {int(w) for w in result.get("winners", [])}
        for seat in range(len(record["seats"])):
            bucket = first if seat == seat0 else others
            bucket[0] += 1
            bucket[1] += int(seat in winners)
    return [WinRate("first player", first[0], first[1]), WinRate("other players", others[0], others[1])]


def _length_figure(records: Sequence[Mapping[str, Any]]) -> Figure:
    plt = _pyplot()
    rounds = [int(r["rounds"]) for r in records if isinstance(r.get("rounds"), int)]
    unit = "rounds" if rounds else "actions"
    values = rounds or [int(r["actions"]) for r in records]
    counts = Counter(values)
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    rows: tuple[tuple[str, ...], ...]
    if unit == "rounds":
        keys = sorted(counts)
        ax.bar(keys, [counts[k] for k in keys], color="#72b7b2")
        rows = tuple((str(k), str(counts[k]), _percent(counts[k] / len(values))) for k in keys)
    else:
        ax.hist(values, bins=min(30, max(1, len(set(values)))), color="#72b7b2")
        rows = tuple(
            (name, f"{value:.1f}")
            for name, value in (
                ("min", float(min(values))),
                ("median", float(statistics.median(values))),
                ("mean", statistics.fmean(values)),
                ("max", float(max(values))),
            )
        )
    ax.set_xlabel(unit)
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({unit})")
    header = (unit, "games", "share") if unit == "rounds" else ("statistic", unit)
    note = f"mean {statistics.fmean(values):.1f} {unit}, median {statistics.median(values)}"
    return Figure(f"Game length ({unit})", _png(fig), header, rows, note)


def score_by_round(records: Sequence[Mapping[str, Any]]) -> dict[str, list[tuple[float, float, int]]]:
    """Per role (or seat): for each round, (mean score, half-width of its 95 % interval, games counted).

    A game that ended earlier keeps its final score in later rounds (a score is final once the game ends),
    so every curve averages over the same games.
    """
    series: dict[str, list[list[float]]] = defaultdict(list)
    longest = max((len(r.get("score_by_round") or []) for r in records), default=0)
    for record in records:
        rows = record.get("score_by_round")
        if not rows:
            continue
        roles = record.get("roles") or [f"seat {s}" for s in range(len(record["seats"]))]
        for seat, role in enumerate(roles):
            curve = [float(row[seat]) for row in rows]
            curve += [curve[-1]] * (longest - len(curve))
            series[role].append(curve)
    out: dict[str, list[tuple[float, float, int]]] = {}
    for role in sorted(series):
        curves = series[role]
        points = []
        for step in range(longest):
            values = [c[step] for c in curves]
            mean = statistics.fmean(values)
            half = Z95 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
            points.append((mean, half, len(values)))
        out[role] = points
    return out


def _score_figure(records: Sequence[Mapping[str, Any]]) -> Figure | None:
    series = score_by_round(records)
    if not series:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for role, points in series.items():
        xs = list(range(1, len(points) + 1))
        means = [p[0] for p in points]
        ax.plot(xs, means, label=role)
        ax.fill_between(
            xs, [p[0] - p[1] for p in points], [p[0] + p[1] for p in points], alpha=0.2, linewidth=0
        )
    ax.set_xlabel("round (the last point: the end of the game)")
    ax.set_ylabel("score")
    ax.set_title("Score over rounds (mean, 95 % band)")
    ax.legend(fontsize="small")
    rows = tuple(
        (role, str(step + 1), f"{mean:.2f}", f"±{half:.2f}", str(n))
        for role, points in series.items()
        for step, (mean, half, n) in enumerate(points)
    )
    return Figure(
        "Score over rounds",
        _png(fig),
        ("role", "round", "mean score", "95 % CI", "games"),
        rows,
        "a game that ended earlier counts with its final score in later rounds",
    )


def _bar_counts_figure(title: str, counts: Mapping[str, int], xlabel: str, note: str = "") -> Figure:
    plt = _pyplot()
    names = list(counts)
    total = sum(counts.values())
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(names) + 1.2))
    ax.barh(range(len(names)), [counts[n] for n in names], color="#f58518")
    ax.set_yticks(range(len(names)), [n[:60] for n in names])
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    rows = tuple((n, str(counts[n]), _percent(counts[n] / total if total else math.nan)) for n in names)
    return Figure(title, _png(fig), ("", "games", "share"), rows, note)


def _reason_code(record: Mapping[str, Any]) -> str:
    result = record.get("result")
    if not result:
        return "unfinished"
    reason = str(result.get("reason", "")) or "no reason given"
    return reason.split(":", 1)[0]


def _loss_table(records: Sequence[Mapping[str, Any]]) -> Figure | None:
    """Cooperative losses: cause (the reason's code) by the stage reached, as a stacked bar chart."""
    losses = [r for r in records if r.get("result") and not (r["result"].get("winners") or [])]
    if not losses:
        return None
    stages = list(dict.fromkeys(str(r.get("final_stage") or "-") for r in losses))
    causes = Counter(_reason_code(r) for r in losses)
    table: dict[tuple[str, str], int] = Counter(
        (_reason_code(r), str(r.get("final_stage") or "-")) for r in losses
    )
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(stages) + 1.6))
    left = [0] * len(stages)
    for cause, _ in causes.most_common():
        widths = [table.get((cause, stage), 0) for stage in stages]
        ax.barh(range(len(stages)), widths, left=left, label=cause)
        left = [a + b for a, b in zip(left, widths, strict=True)]
    ax.set_yticks(range(len(stages)), stages)
    ax.invert_yaxis()
    ax.set_xlabel("lost games")
    ax.set_title("Loss causes by stage reached")
    ax.legend(fontsize="small")
    rows = tuple(
        (stage, cause, str(table[cause, stage]))
        for stage in stages
        for cause, _ in causes.most_common()
        if table.get((cause, stage))
    )
    return Figure(
        "Loss causes by stage reached", _png(fig), ("stage", "cause", "games"), rows, f"{len(losses)} losses"
    )


def build_figures(records: Sequence[Mapping[str, Any]]) -> list[Figure]:
    """The report's figures, in reading order (see the module doc)."""
    if not records:
        raise ValueError("no game records to report on")
    cooperative = is_cooperative(records)
    figures = []
    if cooperative:
        team = team_win_rate(records)
        figures.append(
            _rate_figure(
                "Team win rate (cooperative)",
                [team],
                "the players win or lose together: no Elo between seats",
            )
        )
    agents = agent_win_rates(records)
    figures.append(
        _rate_figure(
            "Win rate per agent",
            agents,
            "a game counts for an agent when one of its seats won",
        )
    )
    figures.append(_rate_figure("Win rate per seat", seat_win_rates(records)))
    roles = role_win_rates(records)
    parted = any(ROLE_PARTS in role.name for role in roles)
    if parted and not cooperative:
        note = "a seat counts for every race (power) it played in the game: a win counts for each of them"
        figures.append(_rate_figure("Win rate per race", role_win_rates(records, part=0), note))
        figures.append(_rate_figure("Win rate per power", role_win_rates(records, part=1), note))
    elif roles and not cooperative:
        figures.append(_rate_figure("Win rate per role (faction, kingdom, hero)", roles))
    elif roles:
        figures.append(_rate_figure("Team win rate per hero taking part", roles))
    if not cooperative and any(r.get("first_seat") is not None for r in records):
        first = first_player_rates(records)
        figures.append(
            _rate_figure(
                "First-player advantage",
                first,
                "per seat-game; without an advantage both rates are about 1 / players",
            )
        )
    figures.append(_length_figure(records))
    score = _score_figure(records)
    if score is not None:
        figures.append(score)
    reasons = Counter(_reason_code(r) for r in records)
    figures.append(_bar_counts_figure("End reasons", dict(reasons.most_common()), "games"))
    if cooperative:
        loss = _loss_table(records)
        if loss is not None:
            figures.append(loss)
    return figures


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
section { display: flex; gap: 2em; align-items: flex-start; margin-bottom: 2.5em; }
section img { max-width: 640px; flex: none; }
section div { flex: 1; min-width: 16em; }
section code { overflow-wrap: anywhere; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { border-bottom: 1px solid #ddd; padding: 0.2em 0.6em; text-align: right; }
td { white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
code { background: #f4f4f4; padding: 0.1em 0.3em; }
.note { color: #555; font-size: 0.9em; }
"""


def render_html(figures: Sequence[Figure], *, title: str, summary: str, command: str) -> str:
    """The page: a header (what was played, the command), then each figure beside its table."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(summary)}</p>",
        f"<p>Regenerate every figure: <code>{html.escape(command)}</code></p>",
    ]
    for figure in figures:
        data = base64.b64encode(figure.png).decode("ascii")
        head = "".join(f"<th>{html.escape(h)}</th>" for h in figure.header)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in figure.rows
        )
        note = f'<p class="note">{html.escape(figure.note)}</p>' if figure.note else ""
        parts.append(
            f"<h2>{html.escape(figure.title)}</h2><section>"
            f'<img alt="{html.escape(figure.title)}" src="data:image/png;base64,{data}">'
            f"<div><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note}"
            f'<p class="note">regenerate: <code>{html.escape(command)}</code></p></div></section>'
        )
    parts.append("</body></html>")
    return "\n".join(parts)


def build_report(records: Sequence[Mapping[str, Any]], *, command: str) -> str:
    """The HTML report of ``records``; ``command`` is the command line that regenerates it."""
    figures = build_figures(records)
    games = Counter(f"{r.get('game')} (rules {r.get('rules_version')})" for r in records)
    finished = sum(1 for r in records if r.get("result"))
    summary = f"{len(records)} games of {', '.join(games)}; {finished} finished" + (
        f"; team win rate {_percent(team_win_rate(records).rate)}" if is_cooperative(records) else ""
    )
    title = f"warhorn report: {', '.join(sorted({str(r.get('game')) for r in records}))}"
    return render_html(figures, title=title, summary=summary, command=command)


def _panels(plt: Any, groups: int, rows_per_group: int) -> tuple[Any, list[Any]]:
    """One horizontal panel per group (a win-rate figure has one; game length one per measure, each on
    its own scale)."""
    fig, axes = plt.subplots(
        groups, 1, figsize=(6.4, (0.45 * rows_per_group + 0.9) * groups + 0.6), squeeze=False
    )
    return fig, [row[0] for row in axes]


def _arm_values_figure(summary: ExperimentSummary, binary: bool) -> Figure | None:
    values = [v for v in summary.values if v.metric.binary == binary]
    if not values:
        return None
    plt = _pyplot()
    metrics = [m for m in summary.metrics if m.binary == binary]
    arms = [a.label for a in summary.arms]
    title = "Each arm's win rates" if binary else "Each arm's game length"
    # win rates share one panel (one group of bars per outcome); each length measure gets its own panel
    groups = [metrics] if binary else [[m] for m in metrics]
    fig, axes = _panels(plt, len(groups), len(groups[0]) * max(1, len(arms) // 2))
    height = 0.8 / len(arms)
    for ax, group in zip(axes, groups, strict=True):
        for k, arm in enumerate(arms):
            rows = [next((v for v in values if v.arm == arm and v.metric == m), None) for m in group]
            positions = [i + k * height for i in range(len(group))]
            means = [v.mean if v else 0.0 for v in rows]
            low = [max(0.0, v.mean - v.low) if v else 0.0 for v in rows]
            high = [max(0.0, v.high - v.mean) if v else 0.0 for v in rows]
            ax.barh(positions, means, height=height, xerr=[low, high], capsize=3, label=arm)
        ax.set_yticks([i + height * (len(arms) - 1) / 2 for i in range(len(group))], [m.key for m in group])
        ax.invert_yaxis()
        if binary:
            ax.set_xlim(0, 1)
            ax.set_xlabel("rate (bars: 95 % Wilson interval)")
        else:
            ax.set_xlabel(f"mean {group[0].key} (bars: 95 % normal interval)")
        ax.legend(loc="best", fontsize="small")
    axes[0].set_title(title)
    fig.tight_layout()
    rows_out = tuple(
        (v.metric.key, v.arm, str(v.n), format_value(v.metric, v.mean),
         f"{format_value(v.metric, v.low)} – {format_value(v.metric, v.high)}")
        for m in metrics for v in values if v.metric == m
    )  # fmt: skip
    return Figure(title, _png(fig), ("outcome", "arm", "games", "value", "95 % CI"), rows_out)


def _difference_figure(summary: ExperimentSummary, binary: bool) -> Figure | None:
    diffs = [d for d in summary.differences if d.metric.binary == binary]
    if not diffs:
        return None
    plt = _pyplot()
    scale = 100.0 if binary else 1.0
    metrics = [m for m in summary.metrics if m.binary == binary]
    groups = [diffs] if binary else [[d for d in diffs if d.metric == m] for m in metrics]
    groups = [g for g in groups if g]
    fig, axes = _panels(plt, len(groups), max(len(g) for g in groups))
    for ax, group in zip(axes, groups, strict=True):
        positions = list(range(len(group)))
        centre = [d.difference * scale for d in group]
        ax.errorbar(
            centre,
            positions,
            xerr=[
                [(d.difference - d.low) * scale for d in group],
                [(d.high - d.difference) * scale for d in group],
            ],
            fmt="o",
            capsize=4,
            color="#4c78a8",
            label="paired 95 % interval",
        )
        ax.errorbar(
            centre,
            [p + 0.2 for p in positions],
            xerr=[d.unpaired_half_width * scale for d in group],
            fmt="none",
            capsize=2,
            color="#bbbbbb",
            label="unpaired (for comparison)",
        )
        ax.axvline(0.0, color="#444", linewidth=0.8)
        ax.set_yticks(positions, [f"{d.metric.key}: {d.arm}" for d in group])
        ax.set_ylim(len(group) - 0.5, -0.6)
        unit = " (points)" if binary else f" ({group[0].metric.key})"
        ax.set_xlabel(f"arm minus {summary.arms[0].label}{unit}")
        ax.legend(loc="best", fontsize="small")
    title = "Differences from the baseline" + (" (win rates)" if binary else " (game length)")
    axes[0].set_title(title)
    fig.tight_layout()
    header: tuple[str, ...] = ("outcome", "arm", "games", "difference", "paired 95 % CI", "unpaired ±")
    if binary:
        header += ("b / c", "McNemar p")
    rows = []
    for d in diffs:
        row: tuple[str, ...] = (
            d.metric.key,
            d.arm,
            str(d.n),
            format_difference(d.metric, d.difference),
            f"{format_difference(d.metric, d.low)} – {format_difference(d.metric, d.high)}",
            format_difference(d.metric, d.unpaired_half_width).lstrip("+"),
        )
        if binary:
            row += (f"{d.baseline_only} / {d.arm_only}", f"{d.p_value:.3g}" if d.p_value is not None else "-")
        rows.append(row)
    note = (
        "paired by game seed: the mean of per-game differences ± 1.96 sd / sqrt(n); unpaired ±: the "
        "half-width two independent runs of these sizes would give; b / c: games won by the baseline only / "
        "by the arm only; McNemar's exact test on b and c"
        if binary
        else "paired by game seed: the mean of per-game differences ± 1.96 sd / sqrt(n); unpaired ±: the "
        "half-width two independent runs of these sizes would give"
    )
    return Figure(title, _png(fig), header, tuple(rows), note)


def build_experiment_report(summary: ExperimentSummary, *, game: str, command: str) -> str:
    """An experiment's HTML page: each arm's paired differences from the first arm, then each arm's values."""
    figures = [
        f
        for f in (
            _difference_figure(summary, True),
            _arm_values_figure(summary, True),
            _difference_figure(summary, False),
            _arm_values_figure(summary, False),
        )
        if f is not None
    ]
    arms = "; ".join(
        f"{arm.label}{' (baseline)' if k == 0 else ''}: {arm.describe()}, {games} games"
        for k, (arm, games) in enumerate(zip(summary.arms, summary.games, strict=True))
    )
    return render_html(figures, title=f"warhorn experiment: {game}", summary=f"Arms: {arms}", command=command)


__all__ = [
    "Figure",
    "build_experiment_report",
    "build_figures",
    "build_report",
    "first_player_rates",
    "render_html",
    "role_win_rates",
    "score_by_round",
]
