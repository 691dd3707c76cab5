"""Where the test data lives, and edits of copied data files, for tests to import.

Kept out of conftest.py: tests/vassal has a conftest.py of its own, and ``from conftest import``
finds whichever of the two was loaded last (``pytest tests/vassal tests/io`` failed to collect).
"""

from __future__ import annotations

from pathlib import Path

#: The checkout's root (maps/, counters/, tests/data/).
ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "data" / "broken"


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a data file by ``new`` (the test fails if ``old`` is absent)."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path: Path, fragment: str) -> int:
    """The 1-based line of ``path`` that first contains ``fragment``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if fragment in line:
            return number
    raise AssertionError(fragment)
