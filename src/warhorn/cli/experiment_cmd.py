"""``warhorn experiment GAME --arm BASE --arm NAME;SETTING…``: paired what-if experiments.

Every arm plays the same seeded games (see :mod:`warhorn.sim.experiment`); the
report gives each arm's win rates and game length and each arm's difference
from the first arm with a paired 95 % interval and McNemar's exact test.
``--out DIR`` keeps one ``ARM.jsonl`` per arm, written as games finish;
``--resume`` continues a stopped experiment from them (and, once every game is
played, only reports again). ``--html`` writes the report page with plots.
"""

from __future__ import annotations

import json
import shlex
import time
from pathlib import Path

import typer
from rich.table import Table

from warhorn.cli.common import console, parse_options, say_error
from warhorn.cli.tournament_cmd import _parse_teams, play_plan
from warhorn.engine import WarhornError
from warhorn.sim.experiment import (
    Arm,
    ExperimentSummary,
    arm_file,
    format_difference,
    format_value,
    parse_arm,
    plan_experiment,
    summarize_experiment,
)
from warhorn.sim.runner import GameRecord, write_parquet


def print_experiment(summary: ExperimentSummary) -> None:
    """The terminal report: the arms, each arm's values, and the paired differences from the baseline."""
    arms = Table(title="Arms (the first is the baseline)", title_justify="left")
    arms.add_column("arm")
    arms.add_column("games", justify="right")
    arms.add_column("setting", overflow="fold")
    for arm, games in zip(summary.arms, summary.games, strict=True):
        arms.add_row(arm.label, str(games), arm.describe())
    console.print(arms)

    values = Table(
        title="Outcomes per arm (95 % CI: Wilson for rates, normal for means)", title_justify="left"
    )
    values.add_column("outcome")
    for arm in summary.arms:
        values.add_column(arm.label, justify="right")
    for metric in summary.metrics:
        cells = []
        for arm in summary.arms:
            value = next((v for v in summary.values if v.arm == arm.label and v.metric == metric), None)
            cells.append(
                "-"
                if value is None
                else f"{format_value(metric, value.mean)} ({format_value(metric, value.low)}–"
                f"{format_value(metric, value.high)})"
            )
        values.add_row(metric.key, *cells)
    console.print(values)

    diffs = Table(
        title=f"Paired differences from {summary.arms[0].label} (same game seeds)", title_justify="left"
    )
    for column in (
        "outcome",
        "arm",
        "games",
        "difference",
        "paired 95 % CI",
        "unpaired ±",
        "b / c",
        "McNemar p",
    ):
        diffs.add_column(column, justify="left" if column in ("outcome", "arm") else "right")
    for d in summary.differences:
        diffs.add_row(
            d.metric.key,
            d.arm,
            str(d.n),
            format_difference(d.metric, d.difference),
            f"{format_difference(d.metric, d.low)} – {format_difference(d.metric, d.high)}",
            format_difference(d.metric, d.unpaired_half_width).lstrip("+"),
            f"{d.baseline_only} / {d.arm_only}" if d.baseline_only is not None else "-",
            f"{d.p_value:.3g}" if d.p_value is not None else "-",
        )
    console.print(diffs)
    console.print(
        "difference: the mean of per-game differences (arm minus baseline) over games with the same seed; "
        "paired 95 % CI: ± 1.96 sd / sqrt(n) of those differences; unpaired ±: the half-width the same "
        "games would give unpaired; b / c: games won by the baseline only / by the arm only; McNemar p: "
        "exact two-sided test on b and c",
        highlight=False,
        style="dim",
    )


def register(app: typer.Typer) -> None:
    @app.command("experiment")
    def experiment(
        game: str = typer.Argument(..., help="Game id (see `warhorn games`)."),
        arm: list[str] = typer.Option(
            ...,
            "--arm",
            help="NAME[;agents=A,B][;option=NAME=VALUE][;content=DIR][;budget=B]: an arm (the base settings "
            "with these changed); the first --arm is the baseline. Two or more.",
        ),
        agents: str = typer.Option(
            "heuristic", "--agents", help="Base agents of every arm (comma list of specs)."
        ),
        option: list[str] = typer.Option([], "--option", "-o", help="Base game option as name=value."),
        content: str | None = typer.Option(None, "--content", help="Base content folder."),
        budget: str | None = typer.Option(None, "--budget", help="Base search budget per decision."),
        games: int = typer.Option(100, "--games", "-n", help="Games per arm (the same seeds in every arm)."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes."),
        seed: int = typer.Option(0, "--seed", help="Tournament seed shared by every arm."),
        out: Path | None = typer.Option(
            None, "--out", help="Folder for the records: ARM.jsonl per arm, written as games finish."
        ),
        resume: bool = typer.Option(
            False, "--resume", help="Keep the games already in --out, play the rest."
        ),
        html: Path | None = typer.Option(
            None, "--html", help="Write the report page (plots and tables) here."
        ),
        parquet: bool = typer.Option(False, "--parquet", help="Also write ARM.parquet per arm into --out."),
        max_actions: int | None = typer.Option(
            None, "--max-actions", help="Stop a game after this many actions."
        ),
        backend: str = typer.Option("local", "--backend", help="local (process pool) or ray."),
        address: str | None = typer.Option(
            None, "--address", help="With --backend ray: the cluster to join."
        ),
        teams: str | None = typer.Option(
            None, "--teams", help="Seats one agent holds together, e.g. 0+2,1+3."
        ),
        setup: list[str] = typer.Option([], "--setup", help="module:function to call in every worker first."),
    ) -> None:
        """Play two or more arms on the same seeds and report each arm's paired difference from the first."""
        try:
            base_agents = tuple(a.strip() for a in agents.split(",") if a.strip())
            base = Arm("base", base_agents, parse_options(option), content, budget)
            arms = [parse_arm(text, base) for text in arm]
            plans = plan_experiment(
                game,
                arms,
                games,
                seed=seed,
                max_actions=max_actions,
                setup=setup,
                teams=_parse_teams(teams) if teams is not None else None,
            )
            if jobs < 1:
                raise ValueError(f"--jobs must be at least 1, got {jobs}")
            if (resume or parquet) and out is None:
                raise ValueError("--resume and --parquet use the folder named by --out")
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
        except (WarhornError, ValueError, OSError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None

        console.print(
            f"{game}: {len(arms)} arms × {games} games on seed {seed} (baseline {arms[0].label})",
            highlight=False,
        )
        started = time.perf_counter()
        records: list[list[GameRecord]] = []
        try:
            if out is not None:
                (out / "experiment.json").write_text(
                    json.dumps(
                        {"game": game, "games": games, "seed": seed, "arms": [a.to_json() for a in arms]},
                        indent=2,
                    )
                    + "\n",
                    encoding="utf-8",
                )
            for one, plan in zip(arms, plans, strict=True):
                path = arm_file(out, one) if out is not None else None
                arm_records = play_plan(
                    plan,
                    jobs=jobs,
                    backend=backend,
                    address=address,
                    out=path,
                    resume=resume,
                    description=one.label,
                )
                records.append(arm_records)
                if parquet and out is not None:
                    write_parquet(arm_records, out / f"{one.label}.parquet")
        except (OSError, ValueError) as exc:
            say_error(exc)
            raise typer.Exit(2) from None
        wall = time.perf_counter() - started
        summary = summarize_experiment(arms, records)
        print_experiment(summary)
        played = sum(len(r) for r in records)
        console.print(f"{played} games in {wall:.1f} s wall with {jobs} job(s)", highlight=False)
        if html is not None:
            from warhorn.sim.report import build_experiment_report

            words = [
                "warhorn",
                "experiment",
                game,
                *(w for text in arm for w in ("--arm", text)),
                "--agents",
                agents,
            ]
            words += [w for pair in option for w in ("-o", pair)]
            words += ["--content", content] if content is not None else []
            words += ["--budget", budget] if budget is not None else []
            words += ["--max-actions", str(max_actions)] if max_actions is not None else []
            words += ["--teams", teams] if teams is not None else []
            words += [w for entry in setup for w in ("--setup", entry)]
            words += ["--games", str(games), "--seed", str(seed), "--jobs", str(jobs)]
            words += ["--out", str(out), "--resume"] if out is not None else []
            command = shlex.join([*words, "--html", str(html)])
            try:
                html.write_text(
                    build_experiment_report(summary, game=game, command=command), encoding="utf-8"
                )
            except (OSError, ValueError) as exc:
                say_error(exc)
                raise typer.Exit(2) from None
            console.print(f"wrote the report to {html}", highlight=False)
        crashed = [
            r
            for arm_records in records
            for r in arm_records
            if r.get("error") and r.get("result") is None and "action limit" not in str(r["error"])
        ]
        for record in crashed[:5]:
            say_error(f"game {record['index']}: {record['error']}")
        if crashed:
            raise typer.Exit(1)
