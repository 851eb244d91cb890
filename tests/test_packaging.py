"""Packaging facts a user relies on: one version, a licence file matching the metadata, optional
drivers behind extras with a clear message when missing, and a lock that covers every dependency."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import tomllib
from pathlib import Path

import pytest

import warhorn
from warhorn.server.database import normalise_database_url

ROOT = Path(__file__).resolve().parent.parent


def test_the_version_is_defined_once_and_installed_as_such() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("warhorn") == warhorn.__version__


def test_the_licence_file_is_the_licence_the_metadata_names() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


def test_the_lock_pins_every_runtime_and_optional_dependency() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = {
        re.split(r"==", line)[0].lower().replace("_", "-")
        for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines()
        if "==" in line and not line.startswith("#")
    }
    wanted = list(project["dependencies"]) + [
        d for ds in project["optional-dependencies"].values() for d in ds
    ]
    for requirement in wanted:
        name = re.match(r"[A-Za-z0-9_.-]+", requirement)
        assert name is not None
        if name.group(0) == "warhorn":
            continue
        assert name.group(0).lower().replace("_", "-") in pinned, (
            f"{requirement} is not in the lock: run `make lock` and commit constraints.txt"
        )


def test_postgresql_without_its_driver_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "psycopg" else real(name, *a)
    )
    with pytest.raises(ValueError, match=r"warhorn\[postgresql\]"):
        normalise_database_url("postgresql://user@localhost/warhorn")
