"""What an installed game gets from warhorn with nothing else changed (``tests/test_external_game.py``).

Run in a fresh interpreter whose path holds a ``*.dist-info`` with an entry point
``dice-race = fixture_game:PLUGIN`` in the ``warhorn.games`` group, and the
``tests`` folder (for ``fixture_game``): no test set-up registers anything, so
the fixture game is known only through the same mechanism as the shipped games.
Exits non-zero with the failed check's message.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from warhorn.ai import make_agent
from warhorn.cli.app import app as cli
from warhorn.conformance import conformance_cases, random_playthrough, replay_problems
from warhorn.engine import Rng, load_game
from warhorn.engine.registry import installed_games
from warhorn.server.app import create_app

GAME = "dice-race"


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"external game check failed: {message}")


def main() -> None:
    check(GAME in installed_games(), f"{GAME} is not among the installed games {installed_games()}")

    # the command line: listed, and playable by AI seats to the end
    runner = CliRunner()
    listed = runner.invoke(cli, ["games"])
    check(
        listed.exit_code == 0 and GAME in listed.output, f"`warhorn games` does not list it:\n{listed.output}"
    )
    played = runner.invoke(cli, ["play", GAME, "--seats", "heuristic,random", "--seed", "5"])
    check(played.exit_code == 0, f"`warhorn play {GAME}` failed ({played.exit_code}):\n{played.output}")
    check("wins" in played.output.lower() or "game over" in played.output.lower(), played.output[-500:])

    # the AI kinds: each one chooses a legal action
    state = load_game(GAME, seed=2)
    for kind in ("random", "heuristic", "mcts:iterations=40"):
        agent = make_agent(kind)
        decision = state.pending()
        check(decision is not None, "the new game has no decision")
        assert decision is not None
        action = agent.choose(state, decision.player, Rng(1))
        check(state.is_legal(action), f"agent {kind} chose an illegal action {action}")

    # the server's lobby: in the catalogue, and a game with an AI seat can be created and seen
    with tempfile.TemporaryDirectory() as folder:
        database = f"sqlite:///{Path(folder) / 'probe.sqlite3'}"
        with TestClient(create_app(database)) as client:
            catalogue = client.get("/api/catalog").json()
            check(GAME in [g["id"] for g in catalogue["games"]], f"the lobby does not offer it: {catalogue}")
            check(
                {"random", "heuristic", "mcts"} <= set(catalogue["seat_kinds"]), str(catalogue["seat_kinds"])
            )
            made = client.post("/api/games", json={"game": GAME, "seats": ["human", "heuristic"], "seed": 4})
            check(made.status_code == 201, f"the lobby refused to create it: {made.text}")
            token = made.json()["seats"][0]["token"]
            seat = client.get(f"/api/seat/{token}")
            check(seat.status_code == 200 and seat.json()["legal"], f"its seat page is empty: {seat.text}")

    # the conformance suite: its plugin's cases, played and replayed
    cases = [c for c in conformance_cases() if c[0] == GAME]
    check(len(cases) == 36, f"expected the plugin's 3 option sets x 12 seeds, got {len(cases)} cases")
    for game, options, seed in cases[::12]:
        report = random_playthrough(game, seed, options)
        check(
            report.problems == [] and report.finished, f"conformance {options} seed {seed}: {report.problems}"
        )
        check(replay_problems(report) == [], f"replay {options} seed {seed}: {replay_problems(report)}")
    print("ok")


if __name__ == "__main__":
    main()
    sys.exit(0)
