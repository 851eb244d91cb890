"""Shared test set-up.

- The fixture game is registered for every test session.
- Every ``@pytest.mark.rule("XXX-YYY-NN")`` marker must name a rule ID that
  exists in the rules digests (``../shared/rules/*.md`` beside the checkout,
  when present) or among the rules a game reconstructs itself
  (``docs/*reconstruction*.md``, e.g. the DLR-* rules), so a typo cannot count as coverage.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent.parent))

from fixture_game import register

register()

RULE_ID = re.compile(r"^\s*-\s+([A-Z]{3}-[A-Z]{2,3}-[A-Z0-9]{2,3})\b")
#: ``shared/rules`` beside the checkout (CI: ``../shared``) or beside a folder above it (a git worktree
#: kept under ``wt/<name>/`` next to the main checkout): the nearest one found
_CANDIDATE_DIGESTS = [up / "shared" / "rules" for up in Path(__file__).resolve().parents[2:5]]
DIGESTS = next((folder for folder in _CANDIDATE_DIGESTS if folder.is_dir()), _CANDIDATE_DIGESTS[0])
RECONSTRUCTIONS = Path(__file__).resolve().parents[1] / "docs"


def known_rule_ids() -> set[str] | None:
    """Rule IDs defined by the digests, or None when the digests are not beside this checkout."""
    if not DIGESTS.is_dir():
        return None
    ids: set[str] = set()
    for digest in (*DIGESTS.glob("*.md"), *RECONSTRUCTIONS.glob("*reconstruction*.md")):
        for line in digest.read_text(encoding="utf-8").splitlines():
            m = RULE_ID.match(line)
            if m:
                ids.add(m.group(1))
    return ids or None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    known = known_rule_ids()
    bad: list[str] = []
    for item in items:
        for marker in item.iter_markers("rule"):
            if len(marker.args) != 1 or not isinstance(marker.args[0], str):
                bad.append(f"{item.nodeid}: rule marker takes exactly one rule ID")
            elif known is not None and marker.args[0] not in known and not marker.args[0].startswith("FIX-"):
                bad.append(f"{item.nodeid}: unknown rule ID {marker.args[0]!r}")
    if bad:
        raise pytest.UsageError("bad rule markers:\n" + "\n".join(bad))
