"""Movement (9.0-9.2, 13.2, 14.1, 5.3/9.1): the rulebook's examples (notes 13.A) and the derived
cases (13.B), each on a small clear board painted for the case."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.referee import check_path, reachable
from toolkit.rulesets.grossdeutschland import Activation, dismount, mount, pin, reembark

from .helpers import RS, board, h, paint, put, road, side_feature


def path(pos, unit, *hexes, rs=RS, mode=None):
    return check_path(pos, rs, [unit], [h(x) for x in hexes], mode=mode)


# -- A07: woods are 2 / H / ALL (9.0) ----------------------------------------------------------

def test_a07_woods_cost_by_class(gd):
    pos = board(gd)
    paint(pos, "woods", "0605")
    put(pos, "g-1gr-1k", "0505")                    # Leg, MA 4
    put(pos, "g-2pz-5k", "0504")                    # Tracked, MA 8
    leg = path(pos, "g-1gr-1k", "0505", "0605")
    assert leg.ok and leg.steps[-1]["cost"] == 2
    tracked = path(pos, "g-2pz-5k", "0504", "0505", "0605")
    assert tracked.ok and tracked.steps[-1]["cost"] == 4 and tracked.steps[-1]["mp_left"] == 3
    pos.units.clear()
    put(pos, "g-1gr-hq", "0505")                    # Wheeled, MA 6: ALL from an adjacent hex
    wheeled = path(pos, "g-1gr-hq", "0505", "0605")
    assert wheeled.ok and wheeled.steps[-1]["cost"] == 6 and wheeled.steps[-1]["mp_left"] == 0


def test_b02_all_needs_the_move_to_start_adjacent(gd):
    pos = board(gd)
    paint(pos, "woods", "0605")
    put(pos, "g-1gr-hq", "0405")
    result = path(pos, "g-1gr-hq", "0405", "0505", "0605")
    assert not result.ok and result.failed_step == 2 and result.reason.rule == "9.0"
    assert h("0605") not in reachable(pos, RS, "g-1gr-hq").hexes()


def test_a07_h_may_follow_half_the_allowance(gd):
    pos = board(gd)
    paint(pos, "woods", "0605")
    put(pos, "g-2pz-5k", "0105")                    # MA 8: 4 clear hexes, then woods for 4
    assert path(pos, "g-2pz-5k", "0105", "0205", "0305", "0405", "0505", "0605").ok
    far = path(pos, "g-2pz-5k", "0105", "0106", "0206", "0306", "0406", "0505", "0605")
    assert not far.ok and far.failed_step == 6      # 5 MP spent: 5 + 4 > 8


@pytest.mark.parametrize("option, legal_after_three", [("ceil", False), ("floor", True)])
def test_b03_h_rounding_option(gd, option, legal_after_three):
    """A20: H = ceil(MA/2) by default; "floor" is the other reading. KV-2, MA 5."""
    pos = board(gd, side="soviet")
    paint(pos, "woods", "0605")
    kv2 = "s-hvy-1-kv-2"
    rs = RS.with_options(h_cost=option)
    put(pos, kv2, "0305")
    assert path(pos, kv2, "0305", "0405", "0505", "0605", rs=rs).ok             # 2 spent + H
    three = path(pos, kv2, "0205", "0305", "0405", "0505", "0605", rs=rs)      # 3 spent + H
    pos.units.clear()
    put(pos, kv2, "0205")
    three = path(pos, kv2, "0205", "0305", "0405", "0505", "0605", rs=rs)
    assert three.ok is legal_after_three
    assert RS.h_cost(pos, pos.units[kv2]) == 3 and rs.h_cost(pos, pos.units[kv2]) == (3 if option == "ceil" else 2)


def test_b01_minimum_move_into_h_at_night_in_rain(gd):
    pos = board(gd, turn=4, weather="rainy")        # turn 4 of Kursk is the 10th Night
    paint(pos, "woods", "0606")
    paint(pos, "major_river", "0505")
    put(pos, "g-3pz-1-tiger", "0506")
    tiger = pos.units["g-3pz-1-tiger"]
    assert RS.movement_allowance(pos, tiger, RS.mode(None)) == 2                # 6 -> 3 -> 2
    into_woods = path(pos, "g-3pz-1-tiger", "0506", "0606")
    assert into_woods.ok                                                        # H = 3 > 2: one hex
    assert path(pos, "g-3pz-1-tiger", "0506", "0505").reason.code.value == "prohibited-terrain"
    assert reachable(pos, RS, "g-3pz-1-tiger").hexes()


@pytest.mark.parametrize("unit, ma", [("g-1gr-1k", 1), ("s-hvy-1-kv-2", 2), ("g-2pz-5k", 2)])
def test_b21_night_and_rain_halve_in_turn_rounding_up(gd, unit, ma):
    pos = board(gd, turn=4, weather="rainy")
    u = put(pos, unit, "0505")
    assert RS.movement_allowance(pos, u, RS.mode(None)) == ma
    day = board(gd, turn=2, weather="sunny")
    assert RS.movement_allowance(day, put(day, unit, "0505"), RS.mode(None)) == u.value("movement")


@pytest.mark.parametrize("option, leg, tracked, hq", [("9.1", 4, 4, 3), ("5.3", 4, 4, 3)])
def test_out_of_supply_allowance_option(gd, option, leg, tracked, hq):
    """A1: 9.1 halves Tracked, Wheeled and HQs, rounding up (default); 5.3 Tracked and Wheeled,
    rounding down. The HQs are Wheeled, so only an odd MA shows the difference."""
    rs = RS.with_options(out_of_supply_ma=option)
    pos = board(gd, turn=2)
    units = [put(pos, u, "0505", status={"out_of_supply"}) for u in ("g-1gr-1k", "g-2pz-5k", "g-1gr-hq")]
    got = [rs.movement_allowance(pos, u, rs.mode(None)) for u in units]
    assert got == [leg, tracked, hq]
    kv2 = put(pos, "s-hvy-1-kv-2", "0707", status={"out_of_supply"})
    assert rs.movement_allowance(pos, kv2, rs.mode(None)) == (3 if option == "9.1" else 2)


def test_b04_road_rate_half_for_tracked(gd):
    pos = board(gd)
    road(pos, "0105", "0205", "0305", "0405", "0505", "0605", "0705")
    put(pos, "g-2pz-5k", "0105")
    result = path(pos, "g-2pz-5k", "0105", "0205", "0305", "0405", "0505", "0605", "0705")
    assert result.ok and result.steps[-1]["spent"] == 3
    put(pos, "g-1gr-1k", "0105", copy="")
    leg = path(pos, "g-1gr-1k", "0105", "0205", "0305", "0405", "0505")
    assert leg.ok and leg.steps[-1]["spent"] == 4                            # Leg road rate 1 (estimated)


def test_a08_road_carries_tracked_over_what_it_may_not_cross(gd):
    """9.2: road to road disregards the hexside (the rulebook's dragon's teeth; a river here)."""
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "g-2pz-5k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.code.value == "prohibited-hexside"
    road(pos, "0405", "0505", "0605", "0705")
    crossing = path(pos, "g-2pz-5k", "0505", "0605")
    assert crossing.ok and crossing.steps[-1]["cost"] == Fraction(1, 2)


def test_b05_leaving_a_zoc_along_a_road_pays_terrain_plus_one(gd):
    pos = board(gd)
    road(pos, "0305", "0405", "0505", "0605")
    put(pos, "g-2pz-5k", "0405")
    put(pos, "s-1rif-1", "0304")                     # adjacent to 0405: 0405 is in its ZOC
    out = path(pos, "g-2pz-5k", "0405", "0505")
    assert out.ok and out.steps[-1]["cost"] == 2     # clear 1 + 1 to leave, no road rate (8.0)
    on = path(pos, "g-2pz-5k", "0405", "0505", "0605")
    assert on.ok and on.steps[-1]["cost"] == Fraction(1, 2)


def test_b06_enemy_combat_units_stop_movement_hqs_do_not(gd):
    pos = board(gd)
    put(pos, "g-1gr-1k", "0305")
    put(pos, "s-1rif-1", "0605")
    stopped = path(pos, "g-1gr-1k", "0305", "0405", "0505", "0506")   # 0505 is next to 0605
    assert not stopped.ok and stopped.reason.code.value == "zoc-stop"
    pos.units.pop("s-1rif-1")
    put(pos, "s-1rif-hq", "0605")
    assert path(pos, "g-1gr-1k", "0305", "0405", "0505", "0506").ok


def test_b07_no_crossing_a_river_into_enemy_zoc_without_a_bridge(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    put(pos, "s-1rif-1", "0705")                     # 0605 is in its ZOC, on its side of the river
    refused = path(pos, "g-1gr-1k", "0505", "0605")
    assert not refused.ok and refused.reason.rule == "8.0" and refused.reason.code.value == "zoc-entry"
    side_feature(pos, "bridge", "0505/0605")
    assert path(pos, "g-1gr-1k", "0505", "0605").ok


def test_b08_b09_rivers_and_major_rivers(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    paint(pos, "major_river", "0506")
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.code.value == "prohibited-hexside"
    leg = path(pos, "g-1gr-1k", "0505", "0605")
    assert leg.ok and leg.steps[-1]["cost"] == 3      # clear 1 + river 2 (estimated)
    for unit in ("g-2pz-5k", "g-1gr-1k"):
        assert path(pos, unit, "0505", "0506").reason.code.value == "prohibited-terrain"


def test_debarked_wheeled_unit_moves_as_leg_with_four(gd):
    pos = board(gd)
    paint(pos, "forest", "0605")
    u = put(pos, "s-rcn-1", "0505", status={"debarked"})
    assert RS.unit_class(pos, u) == "leg" and RS.movement_allowance(pos, u, RS.mode(None)) == 4
    assert path(pos, "s-rcn-1", "0505", "0605").ok                  # forest: NA to Wheeled, 3 to Leg
    u.status.clear()
    pos.touch()
    assert not path(pos, "s-rcn-1", "0505", "0605").ok


def test_b11_a_rider_moves_as_its_tracked_carrier(gd):
    """9.5: the Leg unit riding a Tracked unit ignores Leg costs and moves on the carrier's MA."""
    pos = board(gd)
    paint(pos, "woods", "0605")
    put(pos, "g-2pz-5k", "0505")                                   # Tracked, MA 8
    rider = put(pos, "g-1gr-1k", "0505", status={"riding_tanks"})   # Leg, MA 4
    assert RS.unit_class(pos, rider) == "tracked" and RS.movement_allowance(pos, rider, RS.mode(None)) == 8
    pair = check_path(pos, RS, ["g-2pz-5k", "g-1gr-1k"], [h("0505"), h("0605"), h("0705"), h("0805")])
    assert pair.ok and pair.steps[0]["cost"] == 4 and pair.steps[-1]["mp_left"] == 2
    alone = board(gd)
    paint(alone, "woods", "0605")
    walker = put(alone, "g-1gr-1k", "0505", status={"riding_tanks"})   # no carrier: a Leg unit
    assert RS.unit_class(alone, walker) == "leg" and RS.movement_allowance(alone, walker, RS.mode(None)) == 4


def test_mounting_costs_the_rider_and_the_carrier_one_mp_each(gd):
    """9.5: "the Leg unit and the Tracked unit ... must each expend +1 MP to mount up"; the pair
    then moves on the carrier's MA less that MP."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")                                   # Tracked, MA 8
    put(pos, "g-1gr-1k", "0505")                                   # Leg, MA 4
    assert mount(RS, pos, "g-1gr-1k", "g-2pz-5k") is None
    assert "riding_tanks" in pos.unit("g-1gr-1k").status
    ma = RS.mode(None)
    assert RS.movement_allowance(pos, pos.unit("g-2pz-5k"), ma) == 7
    assert RS.movement_allowance(pos, pos.unit("g-1gr-1k"), ma) == 7
    pair = check_path(pos, RS, ["g-2pz-5k", "g-1gr-1k"], [h("0505"), h("0605"), h("0705")])
    assert pair.ok and pair.steps[-1]["mp_left"] == 5
    assert reachable(pos, RS, ["g-2pz-5k"]).mp_left(h("0505")) == 7      # the carrier paid too
    assert reachable(pos, RS, ["g-2pz-5k", "g-1gr-1k"]).ma == 7


def test_mounting_is_refused_without_an_mp_left(gd):
    """9.5: each must expend +1 MP: a carrier (or a Leg unit) with no MP left cannot mount one."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505")
    why = mount(RS, pos, "g-1gr-1k", "g-2pz-5k", carrier_spent=Fraction(15, 2))     # 1/2 MP left
    assert why is not None and why.code == "not-enough-mp" and "g-2pz-5k" in why.text and why.rule == "9.5"
    why = mount(RS, pos, "g-1gr-1k", "g-2pz-5k", spent=4)
    assert why is not None and why.code == "not-enough-mp" and "g-1gr-1k" in why.text
    assert "riding_tanks" not in pos.unit("g-1gr-1k").status and not pos.unit("g-2pz-5k").status
    put(pos, "g-2pz-6k", "0506")
    assert "same hex" in mount(RS, pos, "g-1gr-1k", "g-2pz-6k").text
    assert mount(RS, pos, "g-1gr-1k", "g-2pz-5k", spent=3, carrier_spent=7) is None       # exactly 1 MP each


def test_dismounting_costs_both_one_mp_and_the_rider_walks_on(gd):
    """9.5: "the Leg unit and the Tracked unit must each expend +1 MP to dismount that Leg unit";
    the Leg unit then moves as Leg on its own MA."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505", status={"riding_tanks"})          # began the activation riding
    why = dismount(RS, pos, "g-1gr-1k", spent=8, carrier_spent=8)
    assert why is not None and why.code == "not-enough-mp" and "riding_tanks" in pos.unit("g-1gr-1k").status
    assert dismount(RS, pos, "g-1gr-1k", spent=3, carrier_spent=3) is None
    leg, tank = pos.unit("g-1gr-1k"), pos.unit("g-2pz-5k")
    assert "riding_tanks" not in leg.status and RS.unit_class(pos, leg) == "leg"
    assert RS.movement_allowance(pos, leg, RS.mode(None)) == 3 and RS.movement_allowance(pos, tank, RS.mode(None)) == 7
    assert "not riding" in dismount(RS, pos, "g-1gr-1k").text


def test_the_mount_charge_lasts_one_activation(gd):
    """9.5: the +1 MP is spent in the activation it is paid; the next activation starts whole."""
    pos = board(gd)
    put(pos, "g-2pz-hq", "0504")
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505")
    assert mount(RS, pos, "g-1gr-1k", "g-2pz-5k") is None
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-2pz")
    act.activate(pos, RS, "g-2pz-5k")
    assert RS.movement_allowance(pos, pos.unit("g-2pz-5k"), RS.mode(None)) == 8
    assert "mounted" not in pos.unit("g-2pz-5k").status


def test_a_carrier_with_a_rider_may_not_overrun(gd):
    """9.5 note: "A Tracked unit may not conduct overrun while a Leg unit is riding it"."""
    from toolkit.rulesets.grossdeutschland import overrun_moves
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505", status={"overrun"})
    put(pos, "g-1gr-1k", "0505", status={"riding_tanks"})
    _, reach = overrun_moves(pos, RS, "g-2pz-5k", spent=3, approach=1)
    assert reach.refused is not None and reach.refused.rule == "9.5" and "g-1gr-1k" in reach.refused.text
    assert dismount(RS, pos, "g-1gr-1k") is None
    _, reach = overrun_moves(pos, RS, "g-2pz-5k", spent=3, approach=1)
    assert reach.refused is None and h("0605") in reach


def test_b13_a_pinned_carrier_pins_and_drops_its_rider(gd):
    """9.5: "If a Tracked unit becomes pinned while a Leg unit is riding it, the riding Leg unit
    is also pinned. Further, that Leg unit is immediately dismounted" (no MP paid)."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505", status={"riding_tanks"})
    put(pos, "g-1gr-2k", "0505")                                   # stacked, not riding: untouched
    assert pin(RS, pos, "g-2pz-5k") == ["g-2pz-5k", "g-1gr-1k"]
    leg = pos.unit("g-1gr-1k")
    assert leg.status == {"pinned"} and RS.unit_class(pos, leg) == "leg"
    assert "pinned" in pos.unit("g-2pz-5k").status and not pos.unit("g-1gr-2k").status
    assert RS.movement_allowance(pos, leg, RS.mode(None)) == 4      # jumping off costs no MP
    alone = board(gd)
    put(alone, "g-1gr-1k", "0505", status={"riding_tanks"})         # a rider pinned on its own
    assert pin(RS, alone, "g-1gr-1k") == ["g-1gr-1k"]


def test_a_pinned_unit_halts(gd):
    """11.3: "A unit that becomes pinned must halt its movement"; the marker stays to the end of
    the turn (3.5), so the unit moves no more this turn (B68: the rest of its stack may go on)."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505")
    pin(RS, pos, "g-2pz-5k")
    why = check_path(pos, RS, ["g-2pz-5k"], [h("0505"), h("0605")])
    assert not why.ok and why.reason.rule == "11.3" and why.reason.code.value == "cannot-move"
    assert check_path(pos, RS, ["g-1gr-1k"], [h("0505"), h("0605")]).ok


def test_a_reembarked_rider_is_dismounted(gd):
    """9.6: a debarked unit may ride tanks, "but once a unit is re-embarked, it is immediately
    considered dismounted"."""
    pos = board(gd)
    put(pos, "g-2pz-5k", "0505")
    flak = put(pos, "g-2gr-flak", "0505", status={"debarked", "riding_tanks"})
    assert RS.unit_class(pos, flak) == "tracked"
    assert reembark(RS, pos, "g-2gr-flak") is None
    assert flak.status == set() and RS.unit_class(pos, flak) == "wheeled"


def test_a_rider_is_activated_only_with_its_carrier(gd):
    """9.5: the rider "is only activated when that Tracked unit is activated", whatever its own
    battalion; its own battalion's chit does not move it while it rides."""
    pos = board(gd)
    put(pos, "g-2pz-hq", "0504")
    put(pos, "g-1gr-hq", "0506")
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505", status={"riding_tanks"})           # a 1Gr company on a 2Pz tank
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    why = act.may_activate(pos, RS, "g-1gr-1k")
    assert why is not None and why.rule == "9.5" and "g-2pz-5k" in why.text
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-2pz")
    assert act.may_activate(pos, RS, "g-1gr-1k") is None
    act.activate(pos, RS, "g-2pz-5k")
    assert {"g-2pz-5k", "g-1gr-1k"} <= act.units


def test_a15_a_minefield_adds_half_the_allowance(gd):
    """15.2 example: a Leg unit, MA 4, enters a clear hex with a minefield: 1 + H (2) = 3 MP."""
    pos = board(gd)
    put(pos, "g-1gr-1k", "0505")
    put(pos, "m-minefield", "0605")
    step = path(pos, "g-1gr-1k", "0505", "0605")
    assert step.ok and step.steps[-1]["cost"] == 3


def test_b82_faced_fortifications_and_roads(gd):
    """15.2: a trench is NA to Wheeled units, dragon's teeth to Tracked ones, through the green
    hexside only; a road does not negate a chit. 0605 meets 0505 on its SW side, 0504 on its NW."""
    pos = board(gd)
    road(pos, "0505", "0605", "0705")
    put(pos, "m-dragons-teeth", "0605", status={"facing:SW"})
    put(pos, "g-2pz-5k", "0505")
    refused = path(pos, "g-2pz-5k", "0505", "0605")
    assert not refused.ok and refused.reason.rule == "15.2"
    put(pos, "g-1gr-1k", "0505")
    leg = path(pos, "g-1gr-1k", "0505", "0605")
    assert leg.ok and leg.steps[-1]["cost"] == 2                   # road 1 + 1: the road does not negate it
    assert path(pos, "g-2pz-5k", "0505", "0504", "0605").ok        # through NW: not the green side
    pos = board(gd)
    put(pos, "m-trench", "0605", status={"facing:SW"})
    put(pos, "s-rcn-1", "0505")
    assert path(pos, "s-rcn-1", "0505", "0605").reason.rule == "15.2"
    pos = board(gd)
    put(pos, "m-bunker", "0705", status={"facing:NW", "facing:SW"})
    put(pos, "g-1gr-2k", "0605")
    bunker = path(pos, "g-1gr-2k", "0605", "0705")
    assert bunker.ok and bunker.steps[-1]["cost"] == 5             # clear 1 + bunker 4 for Leg


@pytest.mark.parametrize("spent_rule, left", [("through_adjacent", 5), ("before_adjacent", 6)])
def test_b58_moving_on_after_an_overrun(gd, spent_rule, left):
    """9.4, A21: MA 8, 3 MP spent reaching the hex next to the defender (the last hex 1 MP)."""
    from toolkit.rulesets.grossdeutschland import overrun_moves

    rs = RS.with_options(overrun_spent=spent_rule)
    pos = board(gd)
    put(pos, "g-2pz-5k", "0105", status={"overrun"})
    mp_left, reach = overrun_moves(pos, rs, "g-2pz-5k", spent=3, approach=1)
    assert mp_left == left and reach.ma == left
    assert (h("0605") in reach.hexes()) and ((h("0705") in reach.hexes()) is (left == 6))
    put(pos, "s-1rif-1", "0307")                      # its ZOC takes in 0306: the tank halts there
    _, reach = overrun_moves(pos, rs, "g-2pz-5k", spent=3, approach=1)
    assert reach.board.index[h("0306")] in reach.stopped
    pos.units["g-2pz-5k"].status.clear()
    pos.touch()
    assert overrun_moves(pos, rs, "g-2pz-5k", spent=3, approach=1)[1].refused.code.value == "mode-not-allowed"


def test_b19_german_rafts_cancel_the_stream_for_german_leg_units(gd):
    pos = board(gd)
    side_feature(pos, "stream", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-1gr-1k", "0505", "0605").steps[-1]["cost"] == 2          # clear 1 + stream 1
    put(pos, "g-eng-raft-1", "0504")                                            # next to both hexes
    assert path(pos, "g-1gr-1k", "0505", "0605").steps[-1]["cost"] == 1
    put(pos, "s-1rif-1", "0505")
    pos.units.pop("g-1gr-1k")
    pos.touch()
    # not for the Soviets: clear 1 + stream 1 + 1 to leave the raft unit's ZOC
    assert path(pos, "s-1rif-1", "0505", "0605").steps[-1]["cost"] == 3
    pos = board(gd)
    side_feature(pos, "stream", "0505/0605")
    put(pos, "g-eng-raft-1", "0504")
    put(pos, "g-2pz-5k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").steps[-1]["cost"] == 3          # not for Tracked: 1 + 2


def test_b14_to_b17_debarking(gd):
    from toolkit.rulesets.grossdeutschland import debark, reembark

    pos = board(gd)
    rcn = put(pos, "s-rcn-1", "0505")                                    # Wheeled, MA 10
    assert debark(RS, pos, "s-rcn-1", spent=6).rule == "9.6"             # B15: more than half
    assert debark(RS, pos, "s-rcn-1", spent=5) is None                   # B14: half or less
    assert RS.unit_class(pos, rcn) == "leg" and RS.movement_allowance(pos, rcn, RS.mode(None)) == 4
    same = reembark(RS, pos, "s-rcn-1", debarked_this_activation=True)                  # B16
    assert same.rule == "9.6" and "may not re-embark in it" in same.text
    rcn.status.add("out_of_supply")
    assert "out of supply" in reembark(RS, pos, "s-rcn-1").text
    rcn.status = {"debarked", "low_supply"}
    assert reembark(RS, pos, "s-rcn-1") is None and RS.movement_allowance(pos, rcn, RS.mode(None)) == 10
    rcn.status.add("pinned")
    assert debark(RS, pos, "s-rcn-1").code.value == "cannot-move"        # B17
    put(pos, "g-2pz-5k", "0606")
    assert "only a Wheeled unit" in debark(RS, pos, "g-2pz-5k").text      # Tracked never debark


def test_b20_a_held_entry_hex_moves_the_arrival_along_the_edge(gd):
    from toolkit.rulesets.grossdeutschland import entry_hex

    pos = board(gd)
    put(pos, "g-1gr-1k", None)
    assert entry_hex(RS, pos, ["g-1gr-1k"], h("0105")) == h("0105")
    put(pos, "s-1rif-1", "0105")
    paint(pos, "major_river", "0104")
    assert entry_hex(RS, pos, ["g-1gr-1k"], h("0105")) == h("0106")      # 0104 cannot be entered
    put(pos, "g-2gr-5k", "0106", status={"pinned"})
    # nor a pinned friendly stack: 0103 and 0107 are both two hexes away (the lower id is taken)
    assert entry_hex(RS, pos, ["g-1gr-1k"], h("0105")) == h("0103")
    paint(pos, "major_river", *[f"01{r:02d}" for r in range(1, 11) if r not in (5, 6)])
    assert entry_hex(RS, pos, ["g-1gr-1k"], h("0105")) is None            # wait for a later turn
