"""``warhorn experiment``: arms on the same seeds, paired differences, McNemar, the report."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from warhorn.cli import experiment_cmd
from warhorn.sim.experiment import (
    Arm,
    Metric,
    compare,
    mcnemar_exact,
    parse_arm,
    plan_experiment,
    summarize_experiment,
)
from warhorn.sim.runner import run_tournament

SETUP = ("fixture_game:register",)
BASE = Arm("base", ("random",), {"players": "2"})


def test_an_arm_changes_the_base_settings() -> None:
    arm = parse_arm(
        "deep; agents=mcts:iterations=50,random; option=target=30; o=hand-size=3; budget=10", BASE
    )
    options = {"players": "2", "target": "30", "hand_size": "3"}
    assert arm == Arm("deep", ("mcts:iterations=50", "random"), options, None, "10")
    assert parse_arm("same", BASE) == Arm("same", ("random",), {"players": "2"})
    assert parse_arm("mod;content=some/folder", BASE).content == "some/folder"
    for bad, message in (
        ("agents=random", "start with the arm's name"),
        ("x;colour=red", "unknown setting 'colour'"),
        ("x;option=target", "must be NAME=VALUE"),
        ("x;agents", "must be key=value"),
    ):
        with pytest.raises(ValueError, match=message):
            parse_arm(bad, BASE)


def test_mcnemar_exact_p_values() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 5) == pytest.approx(2 / 32)
    assert mcnemar_exact(5, 0) == mcnemar_exact(0, 5)
    assert mcnemar_exact(3, 3) == 1.0
    # 10 against 2: 2 * P(X <= 2), X ~ Bin(12, 1/2) = 2 * 79 / 4096
    assert mcnemar_exact(10, 2) == pytest.approx(2 * 79 / 4096)


def test_paired_difference_and_its_interval() -> None:
    win = Metric("team wins", True)
    base = {i: {win: float(i < 4)} for i in range(10)}  # won games 0-3
    arm = {i: {win: float(i < 6)} for i in range(10)}  # won games 0-5: two more, none fewer
    (d,) = compare("base", base, "arm", arm, [win])
    assert (d.n, d.difference, d.baseline_only, d.arm_only) == (10, pytest.approx(0.2), 0, 2)
    sd = math.sqrt((2 * 0.8**2 + 8 * 0.2**2) / 9)  # the differences: two 1s, eight 0s
    assert d.high - d.difference == pytest.approx(1.959963984540054 * sd / math.sqrt(10))
    assert d.p_value == pytest.approx(0.5)
    # the games only one of them played are left out of the pairing
    (d,) = compare("base", base, "arm", {i: arm[i] for i in range(5)}, [win])
    assert d.n == 5


def test_arms_share_the_deals_and_the_baseline_minus_itself_is_zero() -> None:
    arms = [parse_arm("a", BASE), parse_arm("b", BASE), parse_arm("c;agents=mcts:iterations=8", BASE)]
    plans = plan_experiment("dice-race", arms, 6, seed=3, setup=SETUP)
    assert [j.game_seed for j in plans[0].jobs] == [j.game_seed for j in plans[2].jobs]
    assert [j.agent_seed for j in plans[0].jobs] == [j.agent_seed for j in plans[2].jobs]
    summary = summarize_experiment(arms, [run_tournament(plan) for plan in plans])
    same = [d for d in summary.differences if d.arm == "b"]
    assert same and all(d.difference == 0 and d.low == d.high == 0 for d in same)
    with pytest.raises(ValueError, match="has 2 agents and the baseline 1"):
        plan_experiment("dice-race", [arms[0], parse_arm("d;agents=random,mcts", BASE)], 2, setup=SETUP)
    with pytest.raises(ValueError, match="two or more arms"):
        plan_experiment("dice-race", arms[:1], 2, setup=SETUP)
    with pytest.raises(ValueError, match="named twice"):
        plan_experiment("dice-race", [arms[0], arms[0]], 2, setup=SETUP)
    with pytest.raises(ValueError, match=r"arm 'x'.*target"):
        plan_experiment("dice-race", [arms[0], parse_arm("x;o=target=1", BASE)], 2, setup=SETUP)


def make_app() -> typer.Typer:
    app = typer.Typer()
    experiment_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps typer from collapsing the group
        """Nothing."""

    return app


def test_experiment_command_reports_and_resumes(tmp_path: Path) -> None:
    runner = CliRunner()
    args = [
        "experiment", "dice-race", "--agents", "mcts:iterations=4,random", "--arm", "shallow",
        "--arm", "deep;agents=mcts:iterations=40,random", "--games", "16", "--seed", "2", "--jobs", "2",
        "--setup", "fixture_game:register", "--out", str(tmp_path / "exp"), "--parquet",
    ]  # fmt: skip
    result = runner.invoke(make_app(), [*args, "--html", str(tmp_path / "exp.html")])
    assert result.exit_code == 0, result.output
    for words in ("Paired differences from shallow", "agent 1 wins", "McNemar p", "paired 95 % CI", "rounds"):
        assert words in result.output, words
    records = [json.loads(line) for line in (tmp_path / "exp" / "deep.jsonl").read_text().splitlines()]
    assert [r["index"] for r in records] == list(range(16))
    assert (tmp_path / "exp" / "shallow.parquet").exists()
    meta = json.loads((tmp_path / "exp" / "experiment.json").read_text())
    assert [a["label"] for a in meta["arms"]] == ["shallow", "deep"]
    page = (tmp_path / "exp.html").read_text()
    assert "Differences from the baseline" in page and "data:image/png;base64," in page
    assert "--resume" in page  # the regenerating command reuses the records
    again = runner.invoke(make_app(), [*args, "--resume"])
    assert again.exit_code == 0, again.output
    assert "16 of 16 games already played" in again.output
    assert (
        result.output.split("Arms (the first")[1].split("games in")[0]
        == (again.output.split("Arms (the first")[1].split("games in")[0])
    )


def test_experiment_bad_input_is_one_line() -> None:
    result = CliRunner().invoke(make_app(), ["experiment", "dice-race", "--arm", "only", "--setup",
                                             "fixture_game:register"])  # fmt: skip
    assert result.exit_code == 2
    assert "two or more arms" in result.output and "Traceback" not in result.output
