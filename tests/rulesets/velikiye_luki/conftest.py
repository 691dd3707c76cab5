"""The Velikiye Luki game, loaded once per test module."""

from __future__ import annotations

import pytest

from toolkit.io import load_game

from .helpers import ROOT


@pytest.fixture(scope="module")
def game():
    return load_game(str(ROOT / "counters" / "velikiye-luki"))
