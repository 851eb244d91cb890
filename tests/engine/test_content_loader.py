from __future__ import annotations

from pathlib import Path

import pytest

from warhorn.content import ContentReport, SourcedModel, content_hash, load_model
from warhorn.content.loader import ContentModel
from warhorn.engine import ContentError, ContentErrors


class Item(SourcedModel):
    id: str
    size: int


class ItemFile(ContentModel):
    item: tuple[Item, ...]


def write(tmp_path: Path, text: str, name: str = "items.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_valid_file_loads_into_frozen_models(tmp_path: Path) -> None:
    path = write(tmp_path, '[[item]]\nid = "a"\nsize = 2\nsource = "original"\n')
    data = load_model(path, ItemFile)
    assert data.item[0].size == 2
    with pytest.raises(Exception, match="frozen"):
        data.item[0].size = 3  # type: ignore[misc]


def test_errors_name_file_and_key(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[item]]\nid = "a"\nsize = "big"\nsource = "original"\n'
        '[[item]]\nid = "b"\nsize = 1\nsource = "made up"\n',
    )
    with pytest.raises(ContentErrors) as info:
        load_model(path, ItemFile)
    keys = {(e.file, e.key) for e in info.value.errors}
    assert (str(path), "item[0] (id a).size") in keys
    assert (str(path), "item[1] (id b).source") in keys


def test_syntax_error_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "item = [\n")
    with pytest.raises(ContentError) as info:
        load_model(path, ItemFile)
    assert info.value.file == str(path) and info.value.key == "(syntax)"


def test_source_must_be_original_or_a_fact() -> None:
    assert Item(id="a", size=1, source="fact: rulebook p. 3").source.startswith("fact")
    with pytest.raises(ValueError, match="original"):
        Item(id="a", size=1, source="fact:")


def test_report_gathers_every_mistake(tmp_path: Path) -> None:
    report = ContentReport()
    report.check(True, "f.toml", "a", "fine")
    report.check(False, "f.toml", "borders[2]", "unknown space 'x'")
    report.error("g.toml", "setup[0].space", "sea space")
    with pytest.raises(ContentErrors) as info:
        report.raise_if_any()
    assert [str(e) for e in info.value.errors] == [
        "f.toml: borders[2]: unknown space 'x'",
        "g.toml: setup[0].space: sea space",
    ]


def test_content_hash_tracks_bytes(tmp_path: Path) -> None:
    a = write(tmp_path, "x = 1\n", "a.toml")
    first = content_hash([a])
    a.write_text("x = 2\n")
    assert content_hash([a]) != first
