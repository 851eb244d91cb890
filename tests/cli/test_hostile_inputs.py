"""Every CLI command fed a corpus of hostile files and arguments: one line saying what is wrong,
exit code 1 (bad input) or 2 (usage), never a traceback, never a hang.

The corpus is built once per test session from a real save and the shipped content, each file broken
in one way that was seen to crash or stall a command (issue #21: an unknown game, non-UTF-8 bytes,
a missing or bad content folder, TOML nested 100,000 deep, a 60 KB rules version, counts of a billion,
a save without its final digest).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import warhorn.games.defenders
import warhorn.games.nerath
from warhorn.cli.app import app
from warhorn.content.loader import MAX_CONTENT_NUMBER
from warhorn.engine import Match

runner = CliRunner()
NERATH_DATA = Path(warhorn.games.nerath.__file__).parent / "data"
DEFENDERS_DATA = Path(warhorn.games.defenders.__file__).parent / "data"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("hostile")
    match = Match.new("nerath", seed=3)
    for _ in range(4):
        match.play(match.state.legal_actions()[0])
    save = json.loads(match.dumps())

    def write_save(name: str, change: Callable[[dict[str, object]], None]) -> Path:
        data = json.loads(json.dumps(save))
        change(data)
        path = root / name
        path.write_text(json.dumps(data), encoding="utf-8")
        return path

    files: dict[str, Path] = {}
    files["good_save"] = write_save("good.json", lambda d: None)
    files["unknown_game"] = write_save("unknown_game.json", lambda d: d.update(game="nogame"))
    files["long_rules_version"] = write_save(
        "long_rules_version.json", lambda d: d.update(rules_version="x[bold]" * 40_000)
    )
    files["no_digest"] = write_save("no_digest.json", lambda d: d.pop("final_digest"))
    files["edited_history"] = write_save(
        "edited.json",
        lambda d: d.update(actions=d["actions"][:-1]),  # type: ignore[index]
    )
    files["not_a_save"] = write_save("list.json", lambda d: d.clear())
    (root / "binary.json").write_bytes(b'{"game": "\xff\xfe nerath"}')
    files["binary_save"] = root / "binary.json"
    (root / "not_json.json").write_text("{{{{", encoding="utf-8")
    files["not_json"] = root / "not_json.json"
    files["folder_as_save"] = root

    def content_folder(name: str, source: Path, file: str, rewrite: Callable[[str], str | bytes]) -> Path:
        folder = root / name
        shutil.copytree(source, folder)
        target = folder / file
        new = rewrite(target.read_text(encoding="utf-8"))
        if isinstance(new, bytes):
            target.write_bytes(new)
        else:
            target.write_text(new, encoding="utf-8")
        return folder

    files["deep_toml"] = content_folder(
        "deep", DEFENDERS_DATA, "heroes.toml", lambda t: "a = " + "[" * 100_000 + "]" * 100_000 + "\n"
    )
    files["huge_deck"] = content_folder(
        "huge_deck",
        DEFENDERS_DATA,
        "darkness.toml",
        lambda t: t.replace("copies = 3", "copies = 1000000000", 1).replace(
            "deck_size = ", "deck_size = 1000000053 #", 1
        ),
    )
    files["huge_gold"] = content_folder(
        "huge_gold",
        NERATH_DATA,
        "board.toml",
        lambda t: t.replace("start_gold = ", "start_gold = 1000000000000000000000000000000 #", 1),
    )
    files["binary_content"] = content_folder(
        "binary_content", NERATH_DATA, "events.toml", lambda t: t.encode() + b"\xff\xfe"
    )
    files["empty_folder"] = root / "empty"
    files["empty_folder"].mkdir()
    files["missing"] = root / "does-not-exist"
    return files


HOSTILE_SAVES = [
    "unknown_game",
    "long_rules_version",
    "no_digest",
    "edited_history",
    "not_a_save",
    "binary_save",
    "not_json",
    "folder_as_save",
    "missing",
]
HOSTILE_CONTENT = ["deep_toml", "huge_deck", "huge_gold", "binary_content", "empty_folder", "missing"]


def assert_one_line_error(args: list[str], codes: tuple[int, ...] = (1, 2)) -> str:
    result = runner.invoke(app, args)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{args}: raised {result.exception!r}"
    )
    assert result.exit_code in codes, f"{args}: exit code {result.exit_code}\n{result.output}"
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("error:")]
    assert errors or any(line.startswith("✗") for line in lines), (
        f"{args}: no error line in {result.output!r}"
    )
    assert all(len(line) < 1000 for line in lines), f"{args}: an unbounded line was printed"
    return result.output


@pytest.mark.parametrize("name", HOSTILE_SAVES)
def test_replay_refuses_each_hostile_save_in_one_line(corpus: dict[str, Path], name: str) -> None:
    assert_one_line_error(["replay", str(corpus[name]), "--quiet"])


@pytest.mark.parametrize("name", HOSTILE_SAVES)
def test_play_load_refuses_each_hostile_save_in_one_line(corpus: dict[str, Path], name: str) -> None:
    assert_one_line_error(["play", "nerath", "--load", str(corpus[name])])


@pytest.mark.parametrize("name", HOSTILE_CONTENT)
def test_play_and_content_check_refuse_each_hostile_content_folder(
    corpus: dict[str, Path], name: str
) -> None:
    game = "defenders" if name in {"deep_toml", "huge_deck"} else "nerath"
    assert_one_line_error(["play", game, "--content", str(corpus[name]), "--seed", "1"])
    assert_one_line_error(["content", "check", str(corpus[name]), "--game", game])


def test_a_number_too_large_for_content_is_named_by_its_key(corpus: dict[str, Path]) -> None:
    output = assert_one_line_error(["content", "check", str(corpus["huge_gold"])])
    assert "start_gold" in output and f"{MAX_CONTENT_NUMBER:,}" in output.replace("\n", " ")


def test_a_long_rules_version_is_refused_quickly_and_printed_bounded(corpus: dict[str, Path]) -> None:
    output = assert_one_line_error(["replay", str(corpus["long_rules_version"])])
    assert "rules_version" in output and len(output) < 1000


def test_a_save_without_its_digest_replays_only_as_unverified(corpus: dict[str, Path]) -> None:
    output = assert_one_line_error(["replay", str(corpus["no_digest"]), "--quiet"])
    assert "unverified" in output
    result = runner.invoke(app, ["replay", str(corpus["no_digest"]), "--quiet", "--unverified"])
    assert result.exit_code == 0, result.output
    assert "UNVERIFIED" in result.output


def test_an_edited_history_is_refused(corpus: dict[str, Path]) -> None:
    output = assert_one_line_error(["replay", str(corpus["edited_history"]), "--quiet"])
    assert "action" in output or "digest" in output


def test_replay_refuses_a_player_who_is_not_a_seat(corpus: dict[str, Path]) -> None:
    output = assert_one_line_error(["replay", str(corpus["good_save"]), "--player", "9"], codes=(2,))
    assert "0 to 3" in output


@pytest.mark.parametrize(
    "args",
    [
        ["play", "nogame"],
        ["play", "nerath", "-o", "round_cap=" + "9" * 100],
        ["play", "nerath", "-o", "round_cap=100000"],
        ["play", "nerath", "-o", "nonsense=1"],
        ["play", "nerath", "-o", "noequals"],
        ["play", "nerath", "--seats", "human,wizard"],
        ["play", "nerath", "--seats", "human,human,human,human,human"],
        ["play", "defenders", "-o", "heroes=" + "x" * 5000],
        ["play", "defenders", "--load", "PLACEHOLDER"],
        ["tournament", "nerath", "--agents", "random,wizard", "--games", "2"],
        ["tournament", "nerath", "--agents", "random", "--games", "2", "-o", "round_cap=-1"],
        ["tournament-report", "PLACEHOLDER"],
        ["odds", "nerath", "--attacker", "4 dragn", "--defender", "1 soldier"],
        ["content", "check", "PLACEHOLDER", "--game", "nogame"],
    ],
)
def test_bad_arguments_are_usage_errors_in_one_line(corpus: dict[str, Path], args: list[str]) -> None:
    args = [str(corpus["good_save"]) if a == "PLACEHOLDER" else a for a in args]
    assert_one_line_error(args)


def test_tournament_report_refuses_records_that_are_not_games(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text('[1, 2]\n"text"\n', encoding="utf-8")
    assert_one_line_error(["tournament-report", str(records)])
    records.write_bytes(b"\xff\xfe\n")
    assert_one_line_error(["tournament-report", str(records)])
