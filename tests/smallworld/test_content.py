"""Small World of Warcraft content: the shipped data loads, its facts are the rulebook's, and bad
content is refused with file and key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warhorn.engine.errors import ContentErrors
from warhorn.games.smallworld.content import DATA_DIR, load_smallworld_content


def test_shipped_content_has_the_box() -> None:
    c = load_smallworld_content()
    assert len(c.races) == 16 and len(c.powers) == 20
    assert len(c.artifacts) == 5 and len(c.places) == 7
    assert c.races["tauren"].banner == 11 and c.races["tauren"].tokens == 16
    assert c.races["forsaken"].tokens == 20
    assert c.powers["fishing"].badge == 3 and c.powers["garrisoned"].badge == 3
    assert {r.faction for r in c.races.values()} == {"alliance", "horde", "neutral"}
    assert sorted(r for r, x in c.races.items() if x.faction == "neutral") == [
        "ethereals",
        "kobolds",
        "naga",
        "pandaren",
    ]
    assert sum(r.tokens for r in c.races.values()) == c.supplies.race_tokens == 182
    assert c.murlocs.tokens == 15
    assert c.die_faces == (0, 0, 0, 1, 2, 3)
    assert c.supplies.bombs == 12 and c.supplies.exploding_bombs == 6
    assert [c.rounds_for(n) for n in (2, 3, 4, 5)] == [10, 10, 9, 8]
    assert sum(int(v) * n for v, n in c.game.coins.denominations.items()) == 520
    assert {p for p, x in c.powers.items() if x.in_decline} == {"garrisoned", "marshdweller"}
    for item in (*c.races.values(), *c.powers.values(), *c.artifacts.values(), *c.places.values()):
        assert item.source.startswith("fact:")
    assert "inference" in c.game.die.source


def test_every_race_and_power_names_a_digest_rule() -> None:
    c = load_smallworld_content()
    here = Path(__file__).resolve()
    candidates = [up / "shared" / "rules" / "small-world-of-warcraft.md" for up in here.parents[2:5]]
    digest = next((d for d in candidates if d.is_file()), None)
    if digest is None:
        pytest.skip("the rules digest is not beside the checkout")
    text = digest.read_text(encoding="utf-8")
    for item in (*c.races.values(), *c.powers.values(), *c.artifacts.values(), *c.places.values()):
        assert f"- {item.rule} " in text, item.id


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "sww"
    shutil.copytree(DATA_DIR, folder, ignore=shutil.ignore_patterns("boards"))
    return folder


def test_a_bad_banner_value_is_refused_with_file_and_key(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    races = folder / "races.toml"
    races.write_text(races.read_text().replace("banner = 11", "banner = -1", 1))
    with pytest.raises(ContentErrors) as caught:
        load_smallworld_content(folder)
    assert any(
        e.file.endswith("races.toml") and "banner" in e.key and "(id tauren)" in e.key
        for e in caught.value.errors
    )


def test_a_missing_race_and_a_bad_die_are_all_reported(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    races = folder / "races.toml"
    text = races.read_text()
    start = text.index("[[races]]")
    races.write_text(text[:start] + text[text.index("[[races]]", start + 1) :])
    game = folder / "game.toml"
    game.write_text(game.read_text().replace("faces = [0, 0, 0, 1, 2, 3]", "faces = [0, 1, 2]"))
    with pytest.raises(ContentErrors) as caught:
        load_smallworld_content(folder)
    keys = {(Path(e.file).name, e.key) for e in caught.value.errors}
    assert ("races.toml", "races") in keys and ("game.toml", "die.faces") in keys


def test_a_partial_folder_falls_back_to_the_shipped_files(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    shutil.copy(DATA_DIR / "powers.toml", folder / "powers.toml")
    c = load_smallworld_content(folder)
    assert len(c.races) == 16
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ContentErrors, match="holds none"):
        load_smallworld_content(empty)
