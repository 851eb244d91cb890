"""``warhorn odds nerath`` through typer's CliRunner on a local app (the lead wires the real one)."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from warhorn.cli import odds_cmd
from warhorn.games.nerath.odds_support import guardian_tiles

TEN_A = "4 soldier, 2 siege, 2 warrior, 1 mage, 1 dragon"
TEN_D = "5 soldier, 2 monster, 1 mage, 1 castle, 1 siege"


def make_app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """test root"""

    odds_cmd.register(app)
    return app


runner = CliRunner()


def test_json_output_has_the_promised_keys() -> None:
    result = runner.invoke(
        make_app(), ["odds", "nerath", "--attacker", "1 soldier", "--defender", "1 soldier", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert abs(data["attacker_win"] - 5 / 11) < 1e-12
    assert abs(data["defender_win"] - 5 / 11) < 1e-12
    assert abs(data["mutual_destruction"] - 1 / 11) < 1e-12
    assert abs(data["expected_rounds"] - 36 / 11) < 1e-12
    assert data["outcomes"][0]["probability"] >= data["outcomes"][-1]["probability"]


def test_table_output_with_retreat_and_rounds() -> None:
    args = ["odds", "nerath", "-a", TEN_A, "-d", TEN_D, "--retreat-below", "2", "--rounds", "4", "--top", "3"]
    result = runner.invoke(make_app(), args)
    assert result.exit_code == 0, result.output
    for text in ("attacker wins", "defender wins", "mutual destruction", "attacker retreats", "█"):
        assert text in result.output
    assert "expected rounds" in result.output and "Most likely outcomes" in result.output


def test_sea_and_dungeon_options() -> None:
    sea = runner.invoke(
        make_app(), ["odds", "nerath", "-a", "2 warship, 1 mage", "-d", "1 dragon", "--sea", "--json"]
    )
    assert sea.exit_code == 0, sea.output
    dun = runner.invoke(
        make_app(), ["odds", "nerath", "-a", "2 warrior", "--dungeon", "troll,beholder", "--json"]
    )
    assert dun.exit_code == 0, dun.output
    data = json.loads(dun.output)
    assert set(data["defender_survivors"]) == {"troll", "beholder"}


def test_bad_piece_name_is_a_clear_error_with_exit_code_2() -> None:
    result = runner.invoke(make_app(), ["odds", "nerath", "-a", "2 goblins", "-d", "1 soldier"])
    assert result.exit_code == 2
    assert "unknown piece 'goblins'" in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_impossible_battle_and_unknown_guardian_exit_2() -> None:
    sea = runner.invoke(make_app(), ["odds", "nerath", "-a", "1 soldier", "-d", "1 warship", "--sea"])
    assert sea.exit_code == 2 and "NER-BAT-08" in sea.output
    dun = runner.invoke(make_app(), ["odds", "nerath", "-a", "1 warrior", "--dungeon", "no_such_tile"])
    assert dun.exit_code == 2 and "unknown guardian" in dun.output


def test_dungeon_ids_come_from_the_shipped_guardian_tiles() -> None:
    lookup = guardian_tiles()
    assert {"medusa", "troll", "beholder"} <= set(lookup)
    extra = sorted(set(lookup) - {"medusa", "troll", "beholder"})
    if extra:  # content tiles are shipped: any of them can be fought
        result = runner.invoke(
            make_app(), ["odds", "nerath", "-a", "2 warrior, 1 mage", "--dungeon", extra[0], "--json"]
        )
        assert result.exit_code == 0, result.output
        assert extra[0] in json.loads(result.output)["defender_survivors"]


def test_a_missing_defender_is_a_usage_error_and_an_empty_one_is_not() -> None:
    missing = runner.invoke(make_app(), ["odds", "nerath", "--attacker", "4 soldier"])
    assert missing.exit_code == 2 and "--defender is missing" in missing.output, missing.output
    empty = runner.invoke(
        make_app(), ["odds", "nerath", "--attacker", "4 soldier", "--defender", "", "--json"]
    )
    assert empty.exit_code == 0 and json.loads(empty.output)["attacker_win"] == 1.0
    dungeon = runner.invoke(make_app(), ["odds", "nerath", "-a", "1 warrior", "--dungeon", "troll", "--json"])
    assert dungeon.exit_code == 0, dungeon.output  # the guardians are the defenders
