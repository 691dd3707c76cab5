"""Shared test set-up: hypothesis keeps no example database in the repository."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("hexforge", database=None, deadline=None)
settings.load_profile("hexforge")

#: The checkout's root (maps/, counters/, tests/data/).
ROOT = Path(__file__).resolve().parents[1]
BROKEN = ROOT / "tests" / "data" / "broken"


@pytest.fixture(scope="session")
def tutorial():
    """The bundled tutorial game, loaded once (tests must copy before changing it)."""
    from toolkit.io import load_game

    return load_game(str(ROOT / "counters" / "tutorial"))
