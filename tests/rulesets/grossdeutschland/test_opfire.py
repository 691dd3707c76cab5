"""Opportunity fire as a referee question (11.4): the derived cases of the notes' 13.B (B18,
B66, B68, B69) and the A27 ruling both ways. The fire's own dice are combat's business."""

from __future__ import annotations

import pytest

from toolkit.errors import RulesError
from toolkit.rulesets.grossdeutschland import fire_targets, opportunity_fire

from .helpers import RS, board, h, paint, put

TANK = "g-2pz-5k"            # German Panzer company: black triangle 5 (estimated)


def fire(pos, movers, hex, how="move", rs=RS):
    return opportunity_fire(rs, pos, movers, h(hex), how)


def test_b68_a_stack_entering_a_hex_in_range_and_sight(gd):
    pos = board(gd, side="soviet")
    put(pos, TANK, "0205")
    put(pos, "s-2tk-1-t-34", "0604")
    put(pos, "s-2tk-hq", "0604")
    firers, why = fire(pos, ["s-2tk-1-t-34", "s-2tk-hq"], "0505")            # 3 hexes from the tank
    assert firers == [(TANK, 3)] and why is None
    # the firer picks one unit: the T-34, not the HQ while it is not alone (11.4)
    assert fire_targets(RS, pos, h("0505"), ["s-2tk-1-t-34", "s-2tk-hq"]) == ["s-2tk-1-t-34"]
    assert fire_targets(RS, pos, h("0505"), ["s-2tk-hq"]) == ["s-2tk-hq"]      # alone: it may be chosen
    put(pos, "s-1rif-1", "0505")
    assert fire_targets(RS, pos, h("0505"), ["s-2tk-hq"]) == []                 # joining a stack: not


def test_range_counts_the_target_hex_and_sight_must_be_clear(gd):
    pos = board(gd, side="soviet")
    put(pos, TANK, "0105")
    put(pos, "s-1rif-1", "0705")
    assert fire(pos, ["s-1rif-1"], "0605")[0] == [(TANK, 5)]                   # range 5: in
    assert fire(pos, ["s-1rif-1"], "0705")[0] == []                            # 6: out of range
    paint(pos, "woods", "0305")
    assert fire(pos, ["s-1rif-1"], "0605")[0] == []                            # blocked at 0305
    assert fire(pos, ["s-1rif-1"], "0305")[0] == [(TANK, 2)]                   # into blocking terrain: yes


@pytest.mark.parametrize("turn, weather, status, rule", [
    (4, "sunny", (), "13.2"),          # Kursk turn 4 is the 10th Night
    (1, "foggy", (), "14.1"),
    (1, "stormy", (), "14.1"),
    (1, "sunny", ("out_of_supply",), None),
])
def test_b66_no_direct_fire_in_fog_storm_at_night_or_out_of_supply(gd, turn, weather, status, rule):
    pos = board(gd, turn=turn, weather=weather, side="soviet")
    put(pos, TANK, "0205", status=status)
    put(pos, "s-1rif-1", "0605")
    firers, why = fire(pos, ["s-1rif-1"], "0505")
    assert firers == []
    assert (why is not None and why.startswith(rule)) if rule else why is None   # 5.3: that unit only
    clear = board(gd, side="soviet", weather="snowy")
    put(clear, TANK, "0205")
    put(clear, "s-1rif-1", "0605")
    assert fire(clear, ["s-1rif-1"], "0505")[0] == [(TANK, 3)]                 # snow only modifies the dice


def test_b69_b18_what_movement_draws_fire(gd):
    pos = board(gd, side="soviet")
    put(pos, TANK, "0205")
    put(pos, "s-1rif-1", "0505")
    for how, rule in (("advance", "11.4"), ("stay", "11.4"), ("dismount", "9.5"), ("retreat", "A27")):
        firers, why = fire(pos, ["s-1rif-1"], "0505", how)
        assert firers == [] and why.startswith(rule), how
    assert fire(pos, ["s-1rif-1"], "0505", "debark")[0] == [(TANK, 3)]         # 9.6: debarking is movement
    with pytest.raises(RulesError):
        fire(pos, ["s-1rif-1"], "0505", "teleport")


@pytest.mark.parametrize("option, fired", [(False, False), (True, True)])
def test_a27_retreats_and_opportunity_fire_option(gd, option, fired):
    pos = board(gd, side="soviet")
    put(pos, TANK, "0205")
    put(pos, "s-1rif-1", "0505")
    firers, _ = fire(pos, ["s-1rif-1"], "0505", "retreat", rs=RS.with_options(op_fire_retreats=option))
    assert bool(firers) is fired


def test_a_rider_is_not_a_target_only_its_carrier(gd):
    """9.5: "if that hex is attacked, only the Tracked unit is targeted"."""
    pos = board(gd, side="soviet")
    put(pos, "s-2tk-1-t-34", "0604")
    put(pos, "s-1rif-1", "0604", status={"riding_tanks"})
    assert fire_targets(RS, pos, h("0505"), ["s-2tk-1-t-34", "s-1rif-1"]) == ["s-2tk-1-t-34"]
