"""Shared test set-up: hypothesis writes nothing into the repository; paths of test data."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

# hypothesis keeps caches under .hypothesis/ in the working folder: keep them out of the checkout
set_hypothesis_home_dir(tempfile.mkdtemp(prefix="hexforge-hypothesis-"))
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
