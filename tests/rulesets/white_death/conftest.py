import pytest

from toolkit.io import load_game
from toolkit.rulesets.white_death import RULESET


@pytest.fixture(scope="session")
def game():
    return load_game("white-death")


@pytest.fixture(scope="session")
def rs():
    return RULESET
