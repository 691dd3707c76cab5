"""The Grossdeutschland game, loaded once per session (tests never change it)."""

from __future__ import annotations

import pytest

from toolkit.io import load_game


@pytest.fixture(scope="session")
def gd():
    return load_game("grossdeutschland")
