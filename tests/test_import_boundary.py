"""The rules core (warhorn.engine, warhorn.games.*) imports no front end and does no I/O of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "warhorn"
CORE = [SRC / "engine", SRC / "games"]
FRONT_ENDS = ("warhorn.cli", "warhorn.server", "warhorn.ai", "warhorn.sim", "warhorn.interop")
FORBIDDEN_MODULES = {"random", "time", "datetime", "socket", "subprocess", "requests", "httpx"}


def core_files() -> list[Path]:
    return sorted(p for root in CORE for p in root.rglob("*.py"))


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_core_imports_no_front_end_and_no_clock_or_global_random(path: Path) -> None:
    for module in imported_modules(path):
        assert not module.startswith(FRONT_ENDS), f"{path.name} imports front end {module}"
        assert module.split(".")[0] not in FORBIDDEN_MODULES, f"{path.name} imports {module}"


@pytest.mark.parametrize("path", core_files(), ids=lambda p: str(p.relative_to(SRC)))
def test_core_does_not_print(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and getattr(n.func, "id", None) in {"print", "input"}
    ]
    assert not calls, f"{path.name} calls print/input"
