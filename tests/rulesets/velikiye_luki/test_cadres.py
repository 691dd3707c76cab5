"""Velikiye Luki cadres (1.7)."""

from __future__ import annotations

import pytest

from toolkit.errors import RulesError
from toolkit.referee import check_stacking
from toolkit.rulesets.velikiye_luki import RULESET, lose_step, reintegrate, split_division

from .helpers import position


# -- cadres (1.7) -----------------------------------------------------------------------


def test_split_and_reintegrate_a_division(game):
    pos = position(game, {"df357": "1410", "rc27": "1410", "dfg21": "1314"}, side="soviet")
    cadre = split_division(pos, "df357")                      # 1.7.2: the 357th example
    assert pos.units["df357"].steps == 2 and pos.units[cadre].hex == pos.units["df357"].hex
    assert pos.units[cadre].counter.id == "cadre-c"           # the division's quality
    assert check_stacking(pos, RULESET) == []                # reduced division + cadre = a division (5.1)
    with pytest.raises(RulesError, match="1.7.2"):
        split_division(pos, "df357")                         # not at full strength any more
    reintegrate(pos, "df357", cadre)                         # 1.7.3
    assert pos.units["df357"].steps == 3 and cadre not in pos.units
    guards = split_division(pos, "dfg21")
    weaker = split_division(pos, "df357")                    # a C cadre
    pos.place(weaker, pos.units["dfg21"].hex)
    with pytest.raises(RulesError, match="equal or better"):
        reintegrate(pos, "dfg21", weaker)                    # C is worse than B
    pos.place(guards, pos.units["df357"].hex)
    reintegrate(pos, "df357", guards)                        # B is better than C: allowed
    assert pos.units["df357"].steps == 3


def test_three_step_division_becomes_a_cadre(game):
    # 1.7.1, the 21st Guards example: front, back, then a cadre of the same quality
    pos = position(game, {"dfg21": "1314"}, side="soviet")
    assert lose_step(pos, "dfg21") is None and pos.units["dfg21"].steps == 2
    cadre = lose_step(pos, "dfg21")
    assert "dfg21" not in pos.units and pos.units[cadre].counter.id == "cadre-b"
    assert lose_step(pos, cadre) is None and pos.units[cadre].box == "eliminated"
