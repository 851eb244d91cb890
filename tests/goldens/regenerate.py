"""Write the golden playthroughs (``make goldens``): one JSON file per case, stale files removed.

Run from the repository root: ``python -m tests.goldens.regenerate``.
"""

from __future__ import annotations

import sys

from tests.goldens import GOLDEN_DIR, golden_cases, golden_path
from warhorn.goldens import record_golden


def main() -> int:
    wanted = set()
    total = 0
    for game, options, seed in golden_cases():
        path = golden_path(game, options, seed)
        wanted.add(path)
        text = record_golden(game, options, seed).to_text()
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            path.write_text(text, encoding="utf-8")
        total += len(text)
        print(f"{'unchanged' if old == text else 'written  '} {path.name} ({len(text) // 1024} KB)")
    for stale in sorted(set(GOLDEN_DIR.glob("*.json")) - wanted):
        stale.unlink()
        print(f"removed   {stale.name}")
    print(f"{len(wanted)} goldens, {total // 1024} KB in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
