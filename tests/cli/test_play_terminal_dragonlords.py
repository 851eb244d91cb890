"""Blind play of Quest for the DragonLords in the terminal (issue #19): ``map`` (realms with their
territories, sea zones and ships, the Wastelands tracks with monsters and parties), ``cards`` (the
seat's spell cards, spells and shards explained by the rules help) and the exact plain-battle odds
before an attack, through the command (CliRunner) and in a pseudo-terminal (pexpect). Secrecy: the map
counts another player's hidden tokens and never names them."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.cli.test_play_terminal import _close, _spawn
from warhorn.cli.app import app
from warhorn.engine import Rng, load_game
from warhorn.engine.plugin import OddsUnavailableError
from warhorn.games.dragonlords.odds_support import attack_odds
from warhorn.games.dragonlords.position import to_position
from warhorn.games.dragonlords.terminal import attack_report, board_tables, card_texts
from warhorn.rules_help import rules_help

runner = CliRunner()
GAME = ["play", "dragonlords", "--seats", "human,random", "--seed", "1"]
TOKEN_WORDS = ("King", "sorcerer", "decoy", "hero")


def _play(args: list[str], stdin: str) -> str:
    result = runner.invoke(app, args, input=stdin, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def _attack_position() -> tuple[Any, Any]:
    """A two-player game played at random (fixed seeds) to the first plain land attack on offer."""
    state = load_game("dragonlords", seed=2, players=2)
    rng = random.Random(2)
    for _ in range(3000):
        assert not state.is_terminal
        legal = state.legal_actions()
        attack = next(
            (a for a in legal if a.kind == "attack" and not a.via and not a.frm.startswith("ship:")), None
        )
        if attack is not None:
            return state, attack
        state, _events = state.apply(rng.choice(legal))
    raise AssertionError("no attack on offer")


def _position_file(tmp_path: Path, state: Any) -> Path:
    path = tmp_path / "attack.json"
    path.write_text(json.dumps({"game": "dragonlords", **to_position(state)}))
    return path


def test_map_shows_realms_seas_and_the_wastelands_by_name() -> None:
    out = _play(GAME, "map\nquit\n")
    state: Any = load_game("dragonlords", seed=1, players=2)
    for realm in state.world.realms:
        assert realm.name in out
    for title in ("Players (round", "Sea zones", "Islands and other territories"):
        assert title in out
    for _track, name in state.world.tracks:
        assert name in out
    assert re.search(r"The Dragon's Lair\s+│ Dragon's Lair\s+│ Dragon of the Lair \(\d wounds\)", out)
    kingdom = state.world.kingdom_of(state.world.realms[0].id)
    assert re.search(re.escape(kingdom.name) + r"\s+│ .*│ Kingdom", out)
    tables = out[out.index("Players (round") :]
    assert "sea_frostbight" not in tables and "north_0_broken_cairn" not in tables  # names, never ids


def test_the_map_counts_other_players_hidden_tokens_and_never_names_them() -> None:
    state, _attack = _attack_position()
    for viewer in range(state.num_players):
        tables = board_tables(state, viewer)
        rows = [" ".join(row) for table in tables for row in table.rows]
        for text in rows:
            if "player" in text and "yours" not in text and "(you)" not in text:
                assert not any(re.search(rf"\b{word}\b", text) for word in TOKEN_WORDS), text
        hidden_others = sum(
            1
            for force in state.spaces.values()
            if force.owner not in (viewer, -1)
            for piece in force.pieces
            if piece.hidden
        )
        counted = sum(int(n) for text in rows for n in re.findall(r"(\d+) hidden tokens?", text))
        assert hidden_others and counted >= hidden_others
        assert any(re.search(r"\bKing\b", text) for text in rows if "yours" in text)  # one's own, named
        # a twin whose hidden facts are dealt again shows the viewer the same map and cards
        for n in range(3):
            twin = state.determinize(viewer, Rng(1000 + n))
            assert board_tables(twin, viewer) == tables
            assert card_texts(twin, viewer) == card_texts(state, viewer)


def test_a_prompt_that_names_its_rule_shows_it_once() -> None:
    out = _play(["play", "dragonlords", "--seats", "human,human", "--seed", "1"], "quit\n")
    line = next(line for line in out.splitlines() if line.startswith("player 0: "))
    assert line.strip() == "player 0: choose your people (DLR-SET-04)", line


def test_cards_explains_the_hand_spells_and_shards() -> None:
    out = " ".join(_play(GAME, "cards\nquit\n").split())
    state: Any = load_game("dragonlords", seed=1, players=2)
    help_ = rules_help("dragonlords")
    player = state.pending().player
    hand = state.view(player)["players"][player]["hand"]
    assert hand
    for card_id in hand:
        card = state.content.cards[card_id]
        assert f"{card.name} ({card.kind} card" in out
        assert help_.paragraph(card.rule) in out
    assert "your cards: " in out
    # another player's hand is never listed
    other = state.players[1 - player].hand
    names = [n for n, _t in card_texts(state, player)]
    assert not any(state.content.cards[c].name in " ".join(names) for c in other if c not in hand)


def test_an_attack_shows_its_exact_plain_odds_before_it_is_sent(tmp_path: Path) -> None:
    state, attack = _attack_position()
    path = _position_file(tmp_path, state)
    seats = ",".join(["human"] * state.num_players)
    out = _play(
        ["play", "dragonlords", "--position", str(path), "--seats", seats], f"{attack.notation()}\nquit\n"
    )
    expected = attack_report(state, attack)
    assert expected is not None
    odds = attack_odds(state, attack)
    assert f"attacker wins {100 * odds['attacker_wins']:.1f} %" in expected[1]
    flat = " ".join(out.split())
    assert " ".join(expected[0].split()) in flat
    assert "leaves out spells, spell cards" in flat
    assert out.index("odds of the plain battle") < out.rindex(f"player {state.current}")


def test_a_move_that_attacks_nothing_shows_no_odds(tmp_path: Path) -> None:
    state, _attack = _attack_position()
    calm = next(a for a in state.legal_actions() if a.kind != "attack")
    with pytest.raises(OddsUnavailableError) as refused:
        attack_report(state, calm)
    assert refused.value.code == "not_an_attack"
    seats = ",".join(["human"] * state.num_players)
    out = _play(
        ["play", "dragonlords", "--position", str(_position_file(tmp_path, state)), "--seats", seats],
        f"{calm.notation()}\nquit\n",
    )
    assert "odds of the" not in out and "no odds" not in out


def test_at_a_terminal_a_dragonlords_attack_asks_to_confirm(tmp_path: Path) -> None:
    state, attack = _attack_position()
    path = _position_file(tmp_path, state)
    seats = ",".join(["human"] * state.num_players)
    pexpect, child = _spawn(["play", "dragonlords", "--position", str(path), "--seats", seats], tmp_path)
    try:
        child.expect_exact("> ")
        child.sendline(attack.notation())
        child.expect_exact("odds of the plain battle")
        child.expect_exact("attack? [Y/n] ")
        child.sendline("n")
        child.expect_exact("not attacked")
        child.expect_exact("> ")
        child.sendline("quit")
        child.expect_exact("save the game before leaving?")
        child.sendline("")
        child.expect(pexpect.EOF)
    finally:
        _close(child)


@pytest.mark.parametrize("players", [2, 4])
def test_map_and_cards_for_every_seat_of_a_played_game(players: int) -> None:
    state: Any = load_game("dragonlords", seed=5, players=players)
    rng = random.Random(5)
    for _ in range(150):
        if state.is_terminal:
            break
        state, _events = state.apply(rng.choice(state.legal_actions()))
    for seat in range(players):
        assert board_tables(state, seat)
        card_texts(state, seat)
