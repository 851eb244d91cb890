"""`warhorn report` and the cooperative summary: records of real Nerath and Defenders games, one HTML page."""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from warhorn.cli import report_cmd
from warhorn.sim import plan_tournament, play_game, summarize, write_records
from warhorn.sim.report import build_figures, first_player_rates, role_win_rates, score_by_round
from warhorn.sim.stats import team_win_rate

pytest.importorskip("matplotlib")


def defenders_records(games: int = 2) -> list[dict]:
    plan = plan_tournament("defenders", ["heuristic", "random"], games, seed=4, options={"players": 2})
    return [play_game(job) for job in plan.jobs]


def test_defenders_records_carry_roles_scores_and_the_war_stage() -> None:
    record = defenders_records(1)[0]
    assert record["cooperative"] is True
    assert len(record["roles"]) == 2 and all(record["roles"])  # the heroes each player runs
    assert record["final_stage"] in {"Early War", "Mid War", "Mid War (second space)", "Late War"}
    rows = record["score_by_round"]
    assert rows and all(len(row) == 2 for row in rows)
    assert rows[-1] == [
        float(record["result"]["scores"][str(p)]) for p in range(2)
    ]  # the end: the final score
    assert len(rows) <= record["rounds"] + 1


def test_nerath_records_carry_kingdoms_and_vp_by_round() -> None:
    plan = plan_tournament("nerath", ["random"], 1, seed=2, max_actions=400)
    record = play_game(plan.jobs[0])
    assert record["cooperative"] is False and record["first_seat"] is not None
    assert len(record["roles"]) == 4 and len(set(record["roles"])) == 4
    assert len(record["score_by_round"]) >= 2 and all(len(row) == 4 for row in record["score_by_round"])


def test_cooperative_summary_gives_the_team_rate_and_no_elo() -> None:
    won = {
        "seats": ["a", "b"],
        "actions": 1,
        "cooperative": True,
        "result": {"winners": [0, 1], "ranking": [[1], [0]]},
    }
    lost = {
        "seats": ["b", "a"],
        "actions": 1,
        "cooperative": True,
        "result": {"winners": [], "ranking": [[0], [1]]},
    }
    summary = summarize([won, lost, lost], bootstrap=10)
    assert summary.elo is None
    assert summary.team is not None and (summary.team.games, summary.team.wins) == (3, 1)
    assert summary.team.interval.low < 1 / 3 < summary.team.interval.high
    # the same games marked competitive (or written before the flag) still get Elo
    competitive = [{k: v for k, v in r.items() if k != "cooperative"} for r in (won, lost, lost)]
    assert summarize(competitive, bootstrap=10).elo is not None and team_win_rate([won]).wins == 1


def test_report_statistics_by_role_first_player_and_round() -> None:
    records = [
        {"seats": ["x", "y"], "actions": 3, "roles": ["Elves", "Orcs"], "first_seat": 0,
         "score_by_round": [[0, 0], [2, 1]], "result": {"winners": [0]}},
        {"seats": ["y", "x"], "actions": 3, "roles": ["Elves", "Orcs"], "first_seat": 1,
         "score_by_round": [[1, 0]], "result": {"winners": [1]}},
    ]  # fmt: skip
    assert [(r.name, r.games, r.wins) for r in role_win_rates(records)] == [("Elves", 2, 1), ("Orcs", 2, 1)]
    first, others = first_player_rates(records)
    assert (first.games, first.wins, others.games, others.wins) == (2, 2, 2, 0)  # the starter won both
    curves = score_by_round(records)
    # the shorter game keeps its final score in round 2
    assert [round(m, 2) for m, _, _ in curves["Elves"]] == [0.5, 1.5]
    assert [n for _, _, n in curves["Orcs"]] == [2, 2]


def test_report_command_writes_one_self_contained_page(tmp_path: Path) -> None:
    results = tmp_path / "defenders.jsonl"
    write_records(defenders_records(2), results)
    app = typer.Typer()
    report_cmd.register(app)
    app.command("noop")(lambda: None)
    out = tmp_path / "report.html"
    result = CliRunner().invoke(app, ["report", str(results), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    for title in (
        "Team win rate (cooperative)",
        "Win rate per seat",
        "Game length",
        "Score over rounds",
        "End reasons",
    ):
        assert title in page
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == page.count("<table>") >= 5  # a table beside every figure
    assert all(base64.b64decode(data).startswith(b"\x89PNG") for data in images)
    assert 'src="http' not in page and f"warhorn report {results} --out {out}" in page
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n", encoding="utf-8")
    refused = CliRunner().invoke(app, ["report", str(bad), "--out", str(tmp_path / "x.html")])
    assert refused.exit_code == 2 and "bad.jsonl:1" in refused.output and not (tmp_path / "x.html").exists()


def test_a_clean_sweep_draws_its_interval_bar() -> None:
    # 0 wins: the Wilson interval's low end is a rounding error above 0; matplotlib refuses negative bars
    lost = {"seats": ["a"], "actions": 1, "cooperative": True, "result": {"winners": [], "reason": "x: y"}}
    assert len(build_figures([lost] * 40)) >= 4


def test_figures_refuse_an_empty_record_list() -> None:
    with pytest.raises(ValueError, match="no game records"):
        build_figures([])


def test_smallworld_records_carry_every_race_and_power_a_seat_played() -> None:
    plan = plan_tournament("smallworld", ["random"], 3, seed=5)
    records = [play_game(job) for job in plan.jobs]
    for record in records:
        assert record["roles"] is None  # nobody holds a race before the first pick
        played = record["roles_played"]
        assert len(played) == len(record["seats"]) and all(played)
        assert all(" + " in combo for held in played for combo in held)  # "Race + Power"
    assert any(len(held) > 1 for r in records for held in r["roles_played"])  # a seat went into decline
    races = role_win_rates(records, part=0)
    powers = role_win_rates(records, part=1)
    seat_games = sum(len(r["seats"]) for r in records)
    assert sum(r.games for r in races) >= seat_games and " + " not in races[0].name
    combos = {combo for r in records for held in r["roles_played"] for combo in held}
    assert {r.name for r in powers} == {combo.split(" + ")[1] for combo in combos}
    titles = [figure.title for figure in build_figures(records)]
    assert "Win rate per race" in titles and "Win rate per power" in titles
