"""Stacking: limits, points, exemptions, compositions, modes."""

from __future__ import annotations

from fractions import Fraction

from toolkit.io import load_game
from toolkit.referee import (Code, MovementMode, MovementRules, Ruleset, StackingRules, check_stacking,
                             get_ruleset, position_from_scenario, stack_reasons)

GAME = load_game("tutorial")
RS = get_ruleset("tutorial")


def H(text):
    return GAME.main_map.grid.parse(text)


def _pos(**hexes):
    pos = position_from_scenario(GAME, "crossing", turn=2)   # b-4 has arrived
    for uid, hex in hexes.items():
        pos.place(uid.replace("_", "-"), H(hex))
    return pos


def test_two_units_and_an_hq_are_legal():
    assert check_stacking(_pos(b_2="0505"), RS) == []      # b-1, b-hq, b-2


def test_three_units_break_the_limit_and_are_named():
    pos = _pos(b_2="0505", b_3="0505")
    found = check_stacking(pos, RS)
    assert len(found) == 1
    r = found[0]
    assert r.code is Code.STACKING_LIMIT and r.rule == "T.6" and r.hex == H("0505")
    assert set(r.units) == {"b-1", "b-2", "b-3"}       # the HQ does not count
    assert check_stacking(pos, RS, H("0503")) == []


def test_enemies_never_share_a_hex():
    found = check_stacking(_pos(r_10="0505"), RS, H("0505"))
    assert [r.code for r in found] == [Code.STACKING_ENEMY]


def test_points_reduced_units_terrain_and_mode_limits():
    rs = Ruleset(name="gd-like", movement=MovementRules(modes={"road": MovementMode("road", stacking="road")}),
                 stacking=StackingRules(rule="7.1", limit=4, limit_by_terrain={"town": 6},
                                        limit_by_mode={"road": 2}, reduced_factor=Fraction(1, 2),
                                        exempt_types=("hq",), points_value=None))
    pos = _pos(b_2="0404", b_3="0404", b_4="0404")     # with b-5: four units at 0404 (clear)
    assert check_stacking(pos, rs, H("0404")) == []
    pos.units["b-2"].mode = "road"
    found = check_stacking(pos, rs, H("0404"))
    assert found and "limit for units moving in road mode is 2" in found[0].text
    pos.units["b-2"].mode = None
    for uid in ("b-2", "b-3", "b-4"):
        pos.units[uid].steps = 1                          # depleted: half a point each
    pos.place("b-1", H("0404"))
    assert check_stacking(pos, rs, H("0404")) == []       # 1 + 4 x 1/2 = 3 (b-5 has one step)
    assert rs.stacking_limit(pos, H("0505"), "blue") == 6


def test_compositions_by_size():
    rs = Ruleset(name="vv-like", stacking=StackingRules(rule="5.1", compositions=(
        {"XX": 1, "X": 1, "III": 1, "II": 1}, {"III": 3, "II": 1}), exempt_types=("hq",)))
    pos = _pos(b_2="0404", b_4="0404")                   # III + II (b-5) + II (b-4)
    found = stack_reasons(pos, rs, H("0404"), pos.at(H("0404")))
    assert [r.code for r in found] == [Code.STACKING_COMPOSITION]
    assert "2 x II, 1 x III" in found[0].text
    pos.place("b-4", H("0101"))
    assert stack_reasons(pos, rs, H("0404"), pos.at(H("0404"))) == []
