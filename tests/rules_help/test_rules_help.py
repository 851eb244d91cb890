"""Rules help (issue #19): every rule ID of every game has one paragraph in the game's own
``rules_help.toml``, no paragraph names a rule the game does not have, and the command line and the
server serve it (``warhorn rules <game> [RULE-ID]``, ``/rules/<game>#ID``, ``/api/rules/<game>``)."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tests.conftest import known_rule_ids
from warhorn.cli.app import app as cli_app
from warhorn.engine import registered_plugins
from warhorn.rules_help import RULE_ID, RulesHelpError, problems, rule_ids_in, rules_help
from warhorn.server import create_app

SRC = Path(__file__).resolve().parents[2] / "src" / "warhorn"
GAMES_WITH_HELP = sorted(p.id for p in registered_plugins().values() if p.rules_help is not None)


def test_every_shipped_game_has_rules_help() -> None:
    assert GAMES_WITH_HELP == ["defenders", "dragonlords", "nerath", "smallworld"]


@pytest.mark.parametrize("game", GAMES_WITH_HELP)
def test_the_file_is_well_formed(game: str) -> None:
    package = registered_plugins()[game].rules_help
    assert package is not None
    data = tomllib.loads(resources.files(package).joinpath("rules_help.toml").read_text("utf-8"))
    assert problems(data, game) == []
    assert rules_help(game).paragraphs  # loads


@pytest.mark.parametrize("game", GAMES_WITH_HELP)
def test_every_rule_id_of_the_game_has_a_paragraph_and_no_other(game: str) -> None:
    """The rule IDs are those the digests (beside the checkout) and docs/*reconstruction*.md define."""
    help_ = rules_help(game)
    known = known_rule_ids()
    if known is None:
        pytest.skip("the rules digests are not beside this checkout")
    for prefix in help_.prefixes:
        ids = {i for i in known if i.startswith(prefix + "-")}
        written = {i for i in help_.paragraphs if i.startswith(prefix + "-")}
        assert ids, f"no rule ID of {prefix} is defined anywhere"
        assert sorted(ids - written) == [], f"{game}: rule IDs without a paragraph"
        assert sorted(written - ids) == [], f"{game}: paragraphs for rule IDs the game does not have"


def test_every_defined_prefix_belongs_to_exactly_one_game() -> None:
    known = known_rule_ids()
    if known is None:
        pytest.skip("the rules digests are not beside this checkout")
    owners: dict[str, list[str]] = {}
    for game in GAMES_WITH_HELP:
        for prefix in rules_help(game).prefixes:
            owners.setdefault(prefix, []).append(game)
    assert {i[:3] for i in known} == set(owners)
    assert all(len(games) == 1 for games in owners.values()), owners


@pytest.mark.parametrize("game", GAMES_WITH_HELP)
def test_every_rule_id_the_game_code_names_has_a_paragraph(game: str) -> None:
    """Prompts, errors and logs name rule IDs written in the game's code: each one is explained
    (this holds with or without the digests)."""
    help_ = rules_help(game)
    named: set[str] = set()
    for folder in (SRC / "games" / game, SRC / "ai" / game):
        for path in folder.rglob("*"):
            if path.suffix in {".py", ".toml", ".js"} and path.name != "rules_help.toml":
                named.update(m.group(0) for m in RULE_ID.finditer(path.read_text("utf-8")))
    owned = {i for i in named if i[:3] in help_.prefixes}
    assert owned, f"{game}'s code names no rule ID"
    assert sorted(owned - set(help_.paragraphs)) == []


def test_paragraphs_are_short_and_plain() -> None:
    for game in GAMES_WITH_HELP:
        for rule_id, text in rules_help(game).paragraphs.items():
            assert 20 <= len(text) <= 900, (rule_id, len(text))
            assert "<" not in text and "\n" not in text, rule_id


def test_a_bad_file_is_refused_naming_the_key() -> None:
    bad = {
        "prefixes": ["NER"],
        "sections": {"NER-MOV": "Movement"},
        "rules": {"NER-MOV-01": "ok text", "DEF-ACT-01": "x"},
    }
    assert problems(bad, "nerath") == [
        "nerath: 'DEF-ACT-01' is not a rule ID with one of the prefixes ['NER']"
    ]
    no_heading = {"prefixes": ["NER"], "sections": {"NER-MOV": "Movement"}, "rules": {"NER-BAT-01": "text"}}
    assert "add 'NER-BAT' to [sections]" in problems(no_heading, "nerath")[0]
    assert problems({"prefixes": [], "sections": {}, "rules": {"NER-MOV-01": ""}}, "g") == [
        "g: prefixes must be a non-empty list of rule-ID prefixes",
        "g: [rules] must map keys to non-empty text",
    ]


def test_unknown_rule_is_one_line_naming_the_game() -> None:
    with pytest.raises(RulesHelpError, match=r"'NER-MOV-99' is not a rule of nerath"):
        rules_help("nerath").paragraph("NER-MOV-99")
    assert rules_help("nerath").paragraph("ner-mov-01") == rules_help("nerath").paragraphs["NER-MOV-01"]


def test_rule_ids_in_text() -> None:
    assert rule_ids_in("illegal move [NER-MOV-02] (see NER-MOV-02, SWW-RAC-KOB and NER-VP-01)") == [
        "NER-MOV-02",
        "SWW-RAC-KOB",
        "NER-VP-01",
    ]


# --- the command line ----------------------------------------------------------------------------


def test_cli_prints_one_rule() -> None:
    result = CliRunner().invoke(cli_app, ["rules", "nerath", "NER-MOV-01"])
    assert result.exit_code == 0, result.output
    assert "NER-MOV-01" in result.output and "Movement" in result.output
    words = " ".join(result.output.split())
    assert rules_help("nerath").paragraphs["NER-MOV-01"] in words


def test_cli_prints_a_group_and_every_rule() -> None:
    group = CliRunner().invoke(cli_app, ["rules", "defenders", "DEF-OVR"])
    assert group.exit_code == 0
    assert re.findall(r"DEF-OVR-\d\d", group.output) == [f"DEF-OVR-0{i}" for i in range(1, 8)]
    whole = CliRunner().invoke(cli_app, ["rules", "dragonlords"])
    assert whole.exit_code == 0
    printed = {m.group(0) for m in RULE_ID.finditer(whole.output)}
    assert printed == set(rules_help("dragonlords").paragraphs)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["rules", "nerath", "NER-MOV-99"], "error: 'NER-MOV-99' is not a rule of nerath"),
        (["rules", "nerath", "DEF-ACT-01"], "error: 'DEF-ACT-01' is not a rule of nerath"),
        (["rules", "chess"], "error: no game named 'chess'"),
    ],
)
def test_cli_refuses_an_unknown_rule_or_game_in_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 2
    assert result.output.strip().startswith(message), result.output
    assert len(result.output.strip().splitlines()) == 1


# --- the server ----------------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", ai_delay=3600))


def test_rules_page_anchors_every_rule(client: TestClient) -> None:
    page = client.get("/rules/nerath")
    assert page.status_code == 200
    anchors = re.findall(r'<dt id="([A-Z0-9-]+)">', page.text)
    assert sorted(anchors) == sorted(rules_help("nerath").paragraphs)
    assert "Movement" in page.text
    index = client.get("/rules")
    assert all(f'href="/rules/{g}"' in index.text for g in GAMES_WITH_HELP)


def test_rules_json_and_refusals(client: TestClient) -> None:
    answer = client.get("/api/rules/smallworld").json()
    assert answer["prefixes"] == ["SWW"]
    ids = [r["id"] for s in answer["sections"] for r in s["rules"]]
    assert len(ids) == len(set(ids)) == len(rules_help("smallworld").paragraphs)
    missing = client.get("/api/rules/chess")
    assert missing.status_code == 404 and missing.json()["code"] == "no_rules"
    assert client.get("/rules/chess").status_code == 404
    # a registered game without rules help (the fixture dice race) has nothing to link, and no page
    empty = client.get("/api/rules/dice-race")
    assert empty.status_code == 200 and empty.json()["sections"] == [] and empty.json()["prefixes"] == []
    assert client.get("/rules/dice-race").status_code == 404
