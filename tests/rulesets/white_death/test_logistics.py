"""Supply points (Rule 15 A; cases 42, 50) and the Velikiye Luki isolation waiver (15 D.2; case 52)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.rulesets.white_death import (barrage_factor, city_hexes, defence_cost, impulse_cost, isolation,
                                          isolation_effects, pools, spend, support_factor, waive_vl_isolation)
from toolkit.rulesets.white_death.logistics import fire_pools

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


# -- the supply points an applied fire costs its impulse (15 A, charge_fire) -------------------------


def _wd(pools=None, **units):
    """wd-assault.yaml (9 Gds RD's two regiments and a T-70 battalion in 0603, two battalions of
    83 ID in 0703, 9 Gds RD's artillery deployed in 0803) with the pools given."""
    from pathlib import Path

    from toolkit.referee import load_position
    pos = load_position(Path(__file__).resolve().parents[2] / "data" / "combat" / "wd-assault.yaml")
    if pools is not None:
        pos.state["supply_points"] = dict(pools)
    for uid, where in units.items():
        pos.unit(uid).hex = pos.map.grid.parse(where)
    pos.touch()
    return pos


def _fire(pos, rs, attackers, fire="assault", **context):
    from toolkit.referee import apply_combat, assess_combat, roll_combat
    supports = context.pop("supports", ())
    a = assess_combat(pos, rs, attackers, pos.map.grid.parse("0703"), context={"fire": fire, **context},
                      supports=supports)
    assert a.legal, a.refusals
    quiet = {f"{s.kind} {s.unit.id}": 6 for s in a.shots if s.kind != "morale"}   # high fire dice, morale
    quiet |= {f"morale {s.unit.id}": 1 for s in a.shots}                          # passed: nobody retreats
    return apply_combat(pos, rs, a, roll_combat(pos, rs, a, seed=1, rolls=quiet))


def test_an_assault_costs_its_impulse_one_point_once(rs):
    # 15 A.1: "one supply point will be expended. The expenditure of one supply point allows as
    # many units as desired to attack"
    pos = _wd({"soviet": 3, "german": 2, "vl": 2})
    o = _fire(pos, rs, ["s-18g", "s-31g"], targets={"g-251-1": None})
    assert pools(o.position)["soviet"] == 2 and "soviet pays 1 supply point(s) (15 A.1, assault): 3 -> 2" in o.log
    again = _fire(o.position, rs, ["s-t184-2"])                       # the same impulse: nothing more
    assert pools(again.position)["soviet"] == 2 and not any("pays" in line for line in again.log)
    pos.state["supply_points"]["soviet"] = 0                          # a short pool: refused, nothing charged
    with pytest.raises(RulesError, match="the soviet pool has 0 supply points, 1 needed"):
        _fire(pos, rs, ["s-18g", "s-31g"])


def test_a_barrage_costs_two_and_covers_the_assaults(rs):
    # 15 A.2: "two supply points will be expended. As many units as desired may assault and
    # conduct barrages"; an assault first, then a barrage: 1, then 1 more
    pos = _wd({"soviet": 4, "german": 0, "vl": 0})
    o = _fire(pos, rs, ["s-art-9g"], fire="barrage")
    assert pools(o.position)["soviet"] == 2 and "(15 A.2, barrage): 4 -> 2" in " ".join(o.log)
    assert pools(_fire(o.position, rs, ["s-18g", "s-31g"]).position)["soviet"] == 2
    first = _fire(pos, rs, ["s-18g", "s-31g"])
    assert pools(_fire(first.position, rs, ["s-art-9g"], fire="barrage").position)["soviet"] == 2


def test_german_rockets_at_full_value_and_the_city_pool(rs):
    # 15 A.3: three points for a full-value rocket barrage; 15 D.2: German troops in Velikiye Luki
    # pay from the city's own pool
    pos = _wd({"soviet": 0, "german": 3, "vl": 3}, **{"g-251-1": "0705", "g-251-2": "0705"})
    from toolkit.referee import Unit
    pos.units["g-werfer"] = Unit("g-werfer", pos.game.counters["g-werfer"], "german",
                                 hex=pos.map.grid.parse("0704"), status={"deployed"})
    pos.units["s-18g"].hex = pos.map.grid.parse("0703")
    pos.side = "german"
    pos.touch()
    o = _fire(pos, rs, ["g-werfer"], fire="barrage", barrage_sp=3)
    assert pools(o.position) == {"soviet": 0, "german": 0, "vl": 3}
    assert "german pays 3 supply point(s) (15 A.3, rocket barrage at full value): 3 -> 0" in o.log
    city = sorted(city_hexes(pos.map))[0]
    pos.units["g-werfer"].hex = next(h for h in pos.map.grid.neighbours(city) if h in city_hexes(pos.map))
    pos.touch()
    assert fire_pools(pos, "german", ["g-werfer"]) == ["vl"] and fire_pools(pos, "soviet", ["s-18g"]) == ["soviet"]


def test_high_intensity_defensive_support_costs_the_defender(rs):
    # 15 A.4: "If the non-phasing player expends one supply point, all artillery units may conduct
    # defensive support fires with their indicated support factors"; low intensity is free. The
    # German assaults the Soviet regiments (now in 0703) from 0603; their artillery supports them.
    from toolkit.referee import Support
    pos = _wd({"soviet": 2, "german": 2, "vl": 2}, **{"s-18g": "0703", "s-31g": "0703", "g-251-1": "0603",
                                                     "g-251-2": "0603"})
    pos.side = "german"
    pos.touch()
    high = [Support("artillery", "defender", unit="s-art-9g")]
    o = _fire(pos, rs, ["g-251-1", "g-251-2"], fire="defensive", supports=high)
    assert pools(o.position) == {"soviet": 1, "german": 1, "vl": 2}             # 15 A.4 and 15 A.1
    assert "soviet pays 1 supply point(s) (15 A.4, high-intensity defensive support): 2 -> 1" in o.log
    then = _fire(o.position, rs, ["g-251-1", "g-251-2"])                       # their assault fire: paid
    assert pools(then.position) == {"soviet": 1, "german": 1, "vl": 2}
    low = _fire(pos, rs, ["g-251-1", "g-251-2"], fire="defensive",
                supports=[Support("artillery-low", "defender", unit="s-art-9g")])
    assert pools(low.position) == {"soviet": 2, "german": 1, "vl": 2}


def test_a_position_without_pools_is_charged_nothing(rs):
    o = _fire(_wd(), rs, ["s-18g", "s-31g"])
    assert "no supply points charged: the position records no pools (state.supply_points, 15 A)" in o.log
    assert "supply_points" not in o.position.state
