"""Position look-ups shared by the engine and the game rulesets."""

from __future__ import annotations

import pytest

from toolkit.errors import RulesError
from toolkit.io import load_game
from toolkit.referee import position_from_scenario


def test_units_of_takes_one_id_or_a_stack():
    pos = position_from_scenario(load_game("tutorial"), "crossing", turn=1)
    first, second = sorted(pos.units)[:2]
    assert [u.id for u in pos.units_of(first)] == [first]
    assert [u.id for u in pos.units_of([first, second])] == [first, second]
    with pytest.raises(RulesError, match="no unit"):
        pos.units_of(["nobody"])
