"""Which build the tests run on: pure Python, or the compiled build (`make compiled`, docs/compiled.md).

``make pytest-compiled`` sets WARHORN_EXPECT_COMPILED=1 and puts build/compiled first on the path:
then every module setup.py lists must come from its extension module, so the compiled run cannot pass
while quietly testing the sources. Otherwise (the default run) every one of them is the .py source.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _compiled_modules() -> list[str]:
    spec = importlib.util.spec_from_file_location("warhorn_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    setup_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_module)  # defines the list; builds only when run as a script
    paths: list[str] = setup_module.COMPILED_MODULES
    return [p.removeprefix("src/").removesuffix(".py").replace("/", ".") for p in paths]


COMPILED = _compiled_modules()
EXPECT_COMPILED = os.environ.get("WARHORN_EXPECT_COMPILED") == "1"


def test_setup_lists_existing_modules() -> None:
    for name in COMPILED:
        assert importlib.util.find_spec(name) is not None, name


@pytest.mark.parametrize("name", COMPILED)
def test_each_listed_module_comes_from_the_expected_build(name: str) -> None:
    origin = importlib.import_module(name).__file__ or ""
    if EXPECT_COMPILED:
        assert not origin.endswith(".py"), f"{name} is the source {origin}, not the compiled module"
    else:
        assert origin.endswith(".py"), f"{name} is {origin}: the default run must test pure Python"
