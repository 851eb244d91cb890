"""A game installed from outside warhorn's source tree gets everything the shipped games get.

The fixture game (``tests/fixture_game.py``) is declared by a ``*.dist-info`` written to a
temporary folder — the metadata a separately installed package would carry — with an entry
point in the ``warhorn.games`` group. A fresh interpreter with that folder on its path runs
``tests/external_game_probe.py``: the CLI lists and plays it, the AI kinds play it, the server's
lobby offers and creates it, and the conformance suite plays its plugin's cases.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _path(site: Path) -> str:
    """The probe's import path: the dist-info folder, the tests, the checkout, then what this run had."""
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return os.pathsep.join([str(site), str(TESTS), str(TESTS.parent), *kept])


def write_dist_info(site: Path, entry_point: str) -> None:
    info = site / "warhorn_fixture_game-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: warhorn-fixture-game\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[warhorn.games]\n{entry_point}\n")


def test_a_game_installed_from_outside_gets_cli_lobby_ai_and_conformance(tmp_path: Path) -> None:
    write_dist_info(tmp_path, "dice-race = fixture_game:PLUGIN")
    env = dict(os.environ)
    env["PYTHONPATH"] = _path(tmp_path)
    probe = subprocess.run(
        [sys.executable, str(TESTS / "external_game_probe.py")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert probe.returncode == 0, probe.stdout[-2000:] + probe.stderr[-4000:]
    assert probe.stdout.strip().endswith("ok")


@pytest.mark.parametrize(
    ("entry_point", "problem"),
    [
        ("not-dice = fixture_game:PLUGIN", "the entry point's name must be the game id"),
        ("not-dice = no_such_module_anywhere:PLUGIN", "failed to load"),
        ("not-dice = fixture_game:SPEC", "is not a GamePlugin"),
    ],
)
def test_a_broken_plugin_is_named_and_the_other_games_still_work(
    tmp_path: Path, entry_point: str, problem: str
) -> None:
    write_dist_info(tmp_path, entry_point)
    env = dict(os.environ)
    env["PYTHONPATH"] = _path(tmp_path)
    run = subprocess.run(
        [sys.executable, "-c", "from warhorn.cli.app import main; main()", "games"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    output = " ".join(run.stdout.split())
    assert "game plugin 'not-dice' is installed but cannot be used" in output and problem in output
    assert "nerath — Conquest of Nerath" in output
    code = "from warhorn.engine import load_game; load_game('not-dice')"
    asked = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert asked.returncode != 0 and problem in asked.stderr
