"""Blind play in the terminal (issue #19): ``map`` shows the board as tables (territories by kingdom or
locations by colour, with holders and pieces), ``cards`` the texts of the cards in hand (their names
under the prompt), an attack shows its exact odds first and, at a terminal, asks to confirm, and a
spinner says when an AI seat is thinking. Driven through the command (CliRunner) and, for what only a
terminal shows, in a pseudo-terminal with pexpect."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from warhorn.cli.app import app
from warhorn.engine import Action, GameState, load_game
from warhorn.engine.plugin import OddsUnavailableError
from warhorn.games.nerath.terminal import attack_report

runner = CliRunner()
NERATH = ["play", "nerath", "--seats", "human,random,random,random", "--seed", "3"]
ATTACK = "move 2 soldier cinderveil>thornvale"


def _play(args: list[str], stdin: str) -> str:
    result = runner.invoke(app, args, input=stdin, env={"COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    return result.output


def test_map_shows_every_territory_by_kingdom_with_holder_and_pieces() -> None:
    out = _play(NERATH, "map\nquit\n")
    for title in ("Karkoth's home territories", "Vailin's home territories", "Seas", "Dungeon entrances"):
        assert title in out
    row = next(line for line in out.splitlines() if "Karkothi Throneholds" in line and "│" in line)
    assert "Karkoth" in row and "soldier" in row and "capital of Karkoth" in row
    assert "Thornvale" in out and "Vailin: 2 soldiers" in out
    assert "face down" in out  # a dungeon's guardians stay hidden
    tables = out[out.index("Karkoth's home territories") :]
    assert "karkothi_throneholds" not in tables and "cinderveil" not in tables  # names, never ids


def test_cards_prints_the_texts_of_the_hand_and_the_prompt_names_them() -> None:
    out = _play(NERATH, "cards\nquit\n")
    state = load_game("nerath", seed=3)
    hand = state.view(0)["kingdoms"][0]["hand"]
    for card_id in hand:
        card = state.board.event(card_id)  # type: ignore[attr-defined]
        assert f"{card.name} (Karkoth, event): {card.text}" in " ".join(out.split())
        assert card_id not in out.split("your cards:", 1)[1].splitlines()[0]
    assert "your cards: " in out


def test_an_attack_shows_its_exact_odds_before_it_is_sent() -> None:
    out = _play(NERATH, f"{ATTACK}\nquit\n")
    state = load_game("nerath", seed=3)
    expected = attack_report(state, state.parse(ATTACK))
    assert expected is not None
    odds_at = out.index(expected[0])
    assert "attacker wins 48.3 % · defender wins 48.3 % · mutual destruction 3.4 %" in out
    assert odds_at < out.index("attack declared")
    # a peaceful move shows no odds
    calm = _play(NERATH, "move 1 soldier bonewind_steppe>black_tor\nquit\n")
    assert "odds of the" not in calm


def test_a_battle_the_game_has_no_odds_for_is_said_so_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import warhorn.cli.play_cmd as play_cmd

    def no_odds(state: GameState, action: Action) -> list[str]:
        raise OddsUnavailableError("no_battle", "the guardians are unknown")

    shipped = play_cmd.terminal_support("nerath")
    assert shipped is not None
    monkeypatch.setattr(play_cmd, "terminal_support", lambda game: replace(shipped, attack_report=no_odds))
    out = _play(NERATH, f"{ATTACK}\nquit\n")
    assert "no odds for this battle: the guardians are unknown" in out
    assert out.index("no odds for this battle") < out.index("attack declared")


def test_defenders_map_and_cards() -> None:
    out = _play(["play", "defenders", "-o", "players=2", "--seed", "3"], "map\ncards\nquit\n")
    for title in ("Red lands", "Green lands", "Blue lands", "Black lands", "Generals"):
        assert title in out
    assert re.search(r"Scorpion Canyon\s+│ 3 red \(demon\)\s+│\s+1 │ general Lord Balazarg", out)
    assert "Monarch City" in out and "Ranger (life 5)" in out
    state = load_game("defenders", seed=3, players=2)
    flat = " ".join(out.split())
    for card_id in state.view(0)["heroes"][0]["hand"]:
        card = state.board.cards[card_id]  # type: ignore[attr-defined]
        assert f"{card.name} (Ranger): {card.colour} card for {card.location}, {card.band} band" in flat
    assert "(Ranger, quest): " in out


def test_rules_explains_the_decisions_rule_or_the_one_named() -> None:
    from warhorn.rules_help import rules_help

    out = " ".join(_play(NERATH, "rules\nrules ner-bat-03\nrules NER-XXX-01\nquit\n").split())
    help_ = rules_help("nerath")
    assert f"NER-MOV-01: {help_.paragraph('NER-MOV-01')}" in out  # the movement decision's rule
    assert f"NER-BAT-03: {help_.paragraph('NER-BAT-03')}" in out
    assert "error: 'NER-XXX-01' is not a rule of nerath" in out


def test_smallworld_map_and_the_races_and_powers_explained() -> None:
    from warhorn.rules_help import rules_help

    out = _play(["play", "smallworld", "--seats", "human,random", "--seed", "1"], "map\n1\ncards\nquit\n")
    state = load_game("smallworld", seed=1, players=2)
    for island in state.board.islands:  # type: ignore[attr-defined]
        assert island.name in out
    assert "Pairs on offer" in out and re.search(r"│ 1 │ Tauren\s+│ Beast Master", out)
    assert re.search(r"Gloomreed Bog\s+│ swamp\s+│ entry, magic\s+│ 1 Murlocs", out)
    flat = " ".join(out.split())
    faction = state.content.races["tauren"].faction  # type: ignore[attr-defined]
    assert (
        f"Tauren (your active race, {faction}): {rules_help('smallworld').paragraph('SWW-RAC-TAU')}" in flat
    )
    assert f"Beast Master (your active power): {rules_help('smallworld').paragraph('SWW-POW-BEA')}" in flat


def test_a_game_without_terminal_support_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import warhorn.cli.play_cmd as play_cmd

    monkeypatch.setattr(play_cmd, "terminal_support", lambda game: None)  # every shipped game has one
    out = _play(["play", "dragonlords", "--seats", "human,random", "--seed", "1"], "map\ncards\nquit\n")
    assert "this game has no map in the terminal" in out
    assert "this game gives no card texts in the terminal" in out


# --- in a pseudo-terminal ---------------------------------------------------------------------------


def _spawn(args: list[str], tmp_path: Path):  # type: ignore[no-untyped-def]
    pexpect = pytest.importorskip("pexpect", reason="pexpect is not installed (pip install -e '.[dev]')")
    warhorn = str(Path(sys.executable).parent / "warhorn")
    env = {**os.environ, "COLUMNS": "160", "LINES": "50", "TERM": "xterm"}
    child = pexpect.spawn(warhorn, args, cwd=str(tmp_path), env=env, encoding="utf-8", timeout=60)
    return pexpect, child


def _close(child) -> None:  # type: ignore[no-untyped-def]
    """Stop the child; on a loaded machine pexpect's own wait after SIGKILL can run out ("Could not terminate
    the child"), so wait for the killed process ourselves."""
    try:
        child.close(force=True)
    except Exception:
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child.pid, 0)


def test_at_a_terminal_an_attack_asks_to_confirm_with_its_odds(tmp_path: Path) -> None:
    pexpect, child = _spawn(NERATH, tmp_path)
    try:
        child.expect_exact("> ")
        child.sendline(ATTACK)
        child.expect_exact("attacker wins 48.3 %")
        child.expect_exact("attack? [Y/n] ")
        child.sendline("n")
        child.expect_exact("not attacked")
        child.expect_exact("> ")
        child.sendline(ATTACK)
        child.expect_exact("attack? [Y/n] ")
        child.sendline("")
        child.expect_exact("attack declared")
        child.expect_exact("> ")
        child.sendline("quit")
        child.expect_exact("save the game before leaving?")
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        _close(child)


#: An MCTS budget no machine searches through while a test waits: the seat is still thinking when the
#: test interrupts it, however fast or loaded the machine (its thinking ends only with Ctrl-C).
ENDLESS_SEARCH = "mcts:iterations=1000000000:skip=0"


def test_at_a_terminal_a_spinner_shows_while_an_ai_thinks(tmp_path: Path) -> None:
    # the human ends each phase of its first turn at once; then Vailin (an endless search) thinks
    pexpect, child = _spawn(
        ["play", "nerath", "--seats", f"human,{ENDLESS_SEARCH},heuristic,heuristic", "--seed", "3"], tmp_path
    )
    try:
        child.expect_exact("> ")
        child.sendline("pass")
        for _ in range(8):
            if child.expect(["mcts \\(player 1\\) is thinking", "\n> "]) == 0:
                break
            child.sendline("pass")
        else:
            pytest.fail("no spinner while the AI thought")
        child.sendintr()  # Ctrl-C while the AI thinks: offered to save, then leaves
        child.expect_exact("save the game before leaving?")
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)  # without the terminal's colour codes
        assert "mcts (player 1): " not in shown, f"the search ended before Ctrl-C: {shown}"
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        _close(child)
