"""Supply points (Rule 15 A; cases 42, 50) and the Velikiye Luki isolation waiver (15 D.2; case 52)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.rulesets.white_death import (barrage_factor, city_hexes, defence_cost, impulse_cost, isolation,
                                          isolation_effects, pools, spend, support_factor, waive_vl_isolation)

from .helpers import position


def test_case_50_what_an_impulse_costs():
    assert impulse_cost("soviet", assaults=False, barrage=False) == 0
    assert impulse_cost("soviet", assaults=True, barrage=False) == 1      # any number of assaults: 1 SP
    assert impulse_cost("german", assaults=False, barrage=True) == 2      # barrage, with or without assaults
    assert impulse_cost("german", assaults=True, barrage=True) == 2
    assert impulse_cost("german", assaults=True, barrage=True, rockets_full=True) == 3
    with pytest.raises(RulesError):
        impulse_cost("soviet", assaults=False, barrage=True, rockets_full=True)   # German only (15 A.3)


@pytest.mark.parametrize("option, three_hexes", [("impulse", 1), ("hex", 3)])
def test_case_50_defensive_support_intensity(game, rs, option, three_hexes):
    pos = position(game, {"g-ar183-1": "0505"})
    ruled = rs.with_options(support_charge=option)
    assert defence_cost(pos, ruled, high_intensity=True) == 1
    assert defence_cost(pos, ruled, high_intensity=True, hexes_defended=3) == three_hexes
    assert defence_cost(pos, ruled, high_intensity=False, hexes_defended=3) == 0
    unit = pos.units["g-ar183-1"]
    assert support_factor(unit, high_intensity=False) == 1                  # low intensity: every factor is 1
    assert support_factor(unit, high_intensity=True) == Fraction(str(unit.counter.front["support"]))


def test_cases_50_and_42_rockets_at_half_value_on_a_two_point_barrage(game):
    pos = position(game, {"g-werfer": "0505", "s-gdrkt": "2010"})
    werfer, katyusha = pos.units["g-werfer"], pos.units["s-gdrkt"]
    full = Fraction(str(werfer.counter.front["barrage"]))
    assert barrage_factor(werfer, 2) == full / 2 and barrage_factor(werfer, 3) == full
    # case 42: barrage factor 4 at strength 2 gives a value of 4 on 2 SP (half of 8), 8 on 3 SP
    assert full == 4
    assert barrage_factor(werfer, 2) * 2 == 4 and barrage_factor(werfer, 3) * 2 == 8
    assert barrage_factor(katyusha, 2) == Fraction(str(katyusha.counter.front["barrage"]))   # German rule only


def test_pools_start_with_two_german_points_and_spending_is_checked(game):
    pos = position(game, {}, turn=1)
    assert pools(pos) == {"soviet": 0, "german": 2, "vl": 2}                # 15 D.1
    spend(pos, "german", 2)
    assert pools(pos)["german"] == 0
    with pytest.raises(RulesError, match="has 0 supply points"):
        spend(pos, "german", 1)
    assert pools(pos) == {"soviet": 0, "german": 0, "vl": 2}                # nothing half-done
    with pytest.raises(RulesError):
        spend(pos, "depot", 1)


def test_case_52_one_vl_point_waives_isolation_in_the_city_this_turn(game, rs):
    m = game.maps["main"]
    city = sorted(city_hexes(m), key=lambda x: (x.col, x.row))
    pos = position(game, {"g-251-1": m.format(city[0]), "g-251-2": "0505"}, side="german", turn=1)
    inside, outside = pos.units["g-251-1"], pos.units["g-251-2"]
    before = isolation_effects(pos, rs, inside, isolated=True)
    assert (before.factor, before.morale_drm, before.replacements) == (Fraction(1, 2), 1, False)
    waive_vl_isolation(pos)
    assert pools(pos)["vl"] == 1 and pos.state["vl_waiver"] == 1
    after = isolation_effects(pos, rs, inside, isolated=True)
    assert (after.factor, after.morale_drm, after.replacements) == (1, 0, False)   # no replacements (18)
    assert isolation_effects(pos, rs, outside, isolated=True).factor == Fraction(1, 2)   # the city only
    pos.turn = 2
    assert isolation_effects(pos, rs, inside, isolated=True).factor == Fraction(1, 2)    # this turn only
    free = isolation_effects(pos, rs, outside, isolated=False)
    assert (free.factor, free.morale_drm, free.replacements) == (1, 0, True)


def test_case_52_the_waiver_is_bought_before_the_first_impulse_with_a_vl_point(game):
    pos = position(game, {}, side="german", turn=1, impulse=("soviet", 3))
    with pytest.raises(RulesError, match="beginning of a turn"):
        waive_vl_isolation(pos)
    empty = position(game, {}, side="german", turn=4, supply_points={"soviet": 0, "german": 3, "vl": 0})
    with pytest.raises(RulesError, match="vl pool"):
        waive_vl_isolation(empty)
    assert "vl_waiver" not in empty.state


def test_isolation_answer_feeds_the_effects(game, rs):
    pos = position(game, {"g-ski1": "1020"}, side="german")
    result = isolation(pos, rs, "german")
    unit = pos.units["g-ski1"]
    assert isolation_effects(pos, rs, unit, isolated="g-ski1" not in result.supplied).replacements
