"""The Demyansk Shield game, loaded once per test module (tests copy it before changing it)."""

from __future__ import annotations

import pytest

from toolkit.io import load_game


@pytest.fixture(scope="module")
def game():
    return load_game("demyansk-shield")
