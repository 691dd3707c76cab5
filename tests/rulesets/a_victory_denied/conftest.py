"""The A Victory Denied game and ruleset, loaded once per test module."""

from __future__ import annotations

import pytest

from toolkit.io import load_game
from toolkit.rulesets.a_victory_denied import RULESET

from .helpers import ROOT


@pytest.fixture(scope="module")
def game():
    return load_game(str(ROOT / "counters" / "a-victory-denied"))


@pytest.fixture(scope="module")
def rs():
    return RULESET
