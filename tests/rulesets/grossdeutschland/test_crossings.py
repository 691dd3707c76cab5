"""Fords, dragon's teeth, blown bridges and pontoons (9.1, 9.2, 9.7, 8.0, 12.0, 12.1): the
notes' worked example A08 first, then the derived cases (13.B: B77, B80), each on a small clear
board. The ford's cells and the dragon's teeth's Leg cost are estimated (maps' Terrain Chart)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.referee import board_of, check_path, enemy_zoc_owners
from toolkit.rulesets.grossdeutschland import Activation
from toolkit.rulesets.grossdeutschland.bridges import bridged
from toolkit.rulesets.grossdeutschland.engineers import (clear_fortifications, complete_pontoons, demolish,
                                                          enemy_moved_next_to, place_pontoon)

from .helpers import RS, board, h, paint, put, road, side_feature


def path(pos, unit, *hexes):
    return check_path(pos, RS, [unit], [h(x) for x in hexes])


def facing(pos, a, b) -> str:
    return f"facing:{pos.map.grid.direction(h(a), h(b))}"


def zoc(pos, side="german") -> set:
    """The hexes in an enemy ZOC of ``side``."""
    hexes = board_of(pos.map).hexes
    return {hexes[i] for i, owners in enumerate(enemy_zoc_owners(pos, RS, side)) if owners}


# -- A08: dragon's teeth (9.2) ------------------------------------------------------------------

def test_a08_dragons_teeth_stop_tracked_units_unless_a_road_crosses(gd):
    pos = board(gd)
    side_feature(pos, "dragons_teeth", "0505/0605")
    put(pos, "g-2pz-5k", "0505")
    case1 = path(pos, "g-2pz-5k", "0505", "0605")
    assert not case1.ok and case1.reason.code.value == "prohibited-hexside"
    road(pos, "0405", "0505", "0605", "0705")
    case2 = path(pos, "g-2pz-5k", "0505", "0605")
    assert case2.ok and case2.steps[-1]["cost"] == Fraction(1, 2)             # the road rate (9.0)


def test_dragons_teeth_cost_leg_units_one_more_and_bar_wheeled(gd):
    pos = board(gd)
    side_feature(pos, "dragons_teeth", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    leg = path(pos, "g-1gr-1k", "0505", "0605")
    assert leg.ok and leg.steps[-1]["cost"] == 2                               # clear 1 + 1 (15.2 chit)
    put(pos, "g-2gr-flak", "0505")
    assert path(pos, "g-2gr-flak", "0505", "0605").reason.code.value == "prohibited-hexside"


def test_no_zoc_across_dragons_teeth(gd):
    """8.0: no ZOC across a hexside NA to Wheeled units (the notes' inference for dragon's teeth)."""
    pos = board(gd)
    put(pos, "s-1rif-1", "0505")
    assert h("0605") in zoc(pos)
    side_feature(pos, "dragons_teeth", "0505/0605")
    assert h("0605") not in zoc(pos) and h("0504") in zoc(pos)


# -- fords (9.1, 9.7) -------------------------------------------------------------------------

def test_a_ford_lets_every_class_cross_at_its_cost(gd):
    pos = board(gd)
    side_feature(pos, "ford", "0505/0605")
    for unit, cost in (("g-1gr-1k", 2), ("g-2pz-5k", 2), ("g-2gr-flak", 3)):   # clear 1 + 1 / 1 / 2
        put(pos, unit, "0505")
        crossing = path(pos, unit, "0505", "0605")
        assert crossing.ok and crossing.steps[-1]["cost"] == cost, unit
        pos.units.pop(unit)


def test_b19_rafts_cancel_the_ford_for_german_leg_units(gd):
    pos = board(gd)
    side_feature(pos, "ford", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    put(pos, "g-eng-raft-1", "0504")
    assert path(pos, "g-1gr-1k", "0505", "0605").steps[-1]["cost"] == 1
    put(pos, "g-2pz-5k", "0505")                                                # not for Tracked units
    assert path(pos, "g-2pz-5k", "0505", "0605").steps[-1]["cost"] == 2


def test_rafts_take_nothing_off_a_bridged_crossing(gd):
    """9.7 cancels the water's MP; over a bridge there is none to cancel (the fort chit stays)."""
    pos = board(gd)
    side_feature(pos, "stream", "0505/0605")
    side_feature(pos, "bridge", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    put(pos, "g-eng-raft-1", "0504")
    put(pos, "m-minefield", "0605")
    assert path(pos, "g-1gr-1k", "0505", "0605").steps[-1]["cost"] == 3        # clear 1 + minefield H 2


# -- blown bridges (12.0) ---------------------------------------------------------------------

def _road_over_river(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    road(pos, "0405", "0505", "0605", "0705")
    return pos


def test_b77_a_blown_bridge_is_no_bridge(gd):
    pos = _road_over_river(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").steps[-1]["cost"] == Fraction(1, 2)
    put(pos, "m-blown-bridge", "0505", status=(facing(pos, "0505", "0605"),))
    assert not bridged(pos, h("0505"), h("0605"))
    tank = path(pos, "g-2pz-5k", "0505", "0605")
    assert not tank.ok and tank.reason.rule == "12.0" and tank.reason.code.value == "prohibited-hexside"
    leg = path(pos, "g-1gr-1k", "0505", "0605")
    assert leg.ok and leg.steps[-1]["cost"] == 3                                # clear 1 + river 2, no road rate
    assert path(pos, "g-2pz-5k", "0505", "0405").ok                             # other sides untouched


def test_a_blown_bridge_marker_on_the_far_bank_faces_back(gd):
    pos = _road_over_river(gd)
    put(pos, "g-2pz-5k", "0505")
    put(pos, "m-blown-bridge", "0605", status=(facing(pos, "0605", "0505"),))
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.rule == "12.0"


def test_no_crossing_into_enemy_zoc_over_a_blown_bridge(gd):
    pos = _road_over_river(gd)
    put(pos, "g-1gr-1k", "0505")
    put(pos, "s-1rif-1", "0705")
    assert path(pos, "g-1gr-1k", "0505", "0605").ok                              # the bridge stands: stop
    put(pos, "m-blown-bridge", "0505", status=(facing(pos, "0505", "0605"),))
    refused = path(pos, "g-1gr-1k", "0505", "0605")
    assert not refused.ok and refused.reason.rule == "8.0"


def test_no_zoc_across_a_blown_bridge(gd):
    pos = _road_over_river(gd)
    put(pos, "s-1rif-1", "0605")
    assert h("0505") in zoc(pos)                                                # 8.0: over the bridge
    put(pos, "m-blown-bridge", "0605", status=(facing(pos, "0605", "0505"),))
    assert h("0505") not in zoc(pos)


def test_a_blown_bridge_over_a_major_river_hex(gd):
    """The Main Bridge (20.3): a road through major river hexes; blown, the hex is impassable."""
    pos = board(gd)
    paint(pos, "major_river", "0605")
    road(pos, "0505", "0605", "0705")
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-1gr-1k", "0505", "0605", "0705").ok
    put(pos, "m-blown-bridge", "0605")
    refused = path(pos, "g-1gr-1k", "0505", "0605")
    assert not refused.ok and refused.reason.rule == "12.0"


# -- pontoon bridges (12.1) -------------------------------------------------------------------

def test_a21_a_completed_pontoon_carries_tracked_units_over_the_river(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "g-2pz-5k", "0505")
    put(pos, "m-pontoon", "0505", status=(facing(pos, "0505", "0605"), "under_construction"))
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.code.value == "prohibited-hexside"
    pos.units["m-pontoon"].status.discard("under_construction")                 # flipped at the end of turn
    pos.touch()
    over = path(pos, "g-2pz-5k", "0505", "0605")
    assert over.ok and over.steps[-1]["cost"] == 1                               # the river nullified (9.1)
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-1gr-1k", "0505", "0605").steps[-1]["cost"] == 1


def test_a_pontoon_is_a_bridge_for_crossing_into_enemy_zoc(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "g-1gr-1k", "0505")
    put(pos, "s-1rif-1", "0705")
    assert path(pos, "g-1gr-1k", "0505", "0605").reason.rule == "8.0"
    put(pos, "m-pontoon", "0605", status=(facing(pos, "0605", "0505"),))
    assert path(pos, "g-1gr-1k", "0505", "0605").ok


def test_b80_pontoons_chain_across_a_major_river(gd):
    pos = board(gd)
    paint(pos, "major_river", "0605", "0705")
    put(pos, "g-2pz-5k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.code.value == "prohibited-terrain"
    put(pos, "m-pontoon", "0605")
    put(pos, "m-pontoon", "0705", copy="-2")
    crossing = path(pos, "g-2pz-5k", "0505", "0605", "0705", "0805")
    assert crossing.ok and [s["cost"] for s in crossing.steps] == [1, 1, 1]   # as clear (estimated)
    pos.units["m-pontoon-2"].status.add("under_construction")
    pos.touch()
    assert not path(pos, "g-2pz-5k", "0505", "0605", "0705").ok


# -- engineers: demolition and pontoons as actions (12.0, 12.1) ---------------------------------

ENG = "g-eng-1k"


def test_b77_demolition_needs_an_engineer_next_to_the_bridge_and_a_die_of_2_to_6(gd):
    pos = _road_over_river(gd)
    put(pos, "g-1gr-1k", "0505")
    assert "only an Eng unit" in demolish(RS, pos, "g-1gr-1k", h("0505"), h("0605"), 4).text
    put(pos, ENG, "0405")
    assert demolish(RS, pos, ENG, h("0505"), h("0605"), 4).rule == "12.0"          # two hexes away
    pos.units[ENG].hex = h("0504")                                                   # next to both
    pos.touch()
    assert demolish(RS, pos, ENG, h("0505"), h("0605"), 1) is False                # 1: no effect
    assert bridged(pos, h("0505"), h("0605"))
    assert demolish(RS, pos, ENG, h("0505"), h("0605"), 2) is True                 # 2-6: blown
    assert not bridged(pos, h("0505"), h("0605"))
    put(pos, "g-2pz-5k", "0505")
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.rule == "12.0"
    assert "no standing bridge" in demolish(RS, pos, ENG, h("0505"), h("0605"), 6).text


def test_b77_no_demolition_in_an_enemy_zoc_or_pinned(gd):
    pos = _road_over_river(gd)
    put(pos, ENG, "0505", status={"pinned"})
    assert "pinned" in demolish(RS, pos, ENG, h("0505"), h("0605"), 5).text
    pos.units[ENG].status.clear()
    put(pos, "s-1rif-1", "0405")
    assert "enemy ZOC" in demolish(RS, pos, ENG, h("0505"), h("0605"), 5).text


def test_the_main_bridge_over_a_major_river_hex_can_be_blown(gd):
    pos = board(gd)
    paint(pos, "major_river", "0605")
    road(pos, "0505", "0605", "0705")
    put(pos, ENG, "0505")
    assert demolish(RS, pos, ENG, h("0605"), None, 3) is True
    put(pos, "g-1gr-1k", "0505")
    assert path(pos, "g-1gr-1k", "0505", "0605").reason.rule == "12.0"


def test_a21_b78_a_pontoon_is_laid_completed_at_the_end_of_turn_or_lost(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, ENG, "0505")
    put(pos, "g-2pz-5k", "0505")
    assert place_pontoon(RS, pos, ENG, h("0505"), h("0605")) is None
    assert path(pos, "g-2pz-5k", "0505", "0605").reason.code.value == "prohibited-hexside"   # building
    assert complete_pontoons(pos) and path(pos, "g-2pz-5k", "0505", "0605").ok              # A21
    again = board(gd)
    side_feature(again, "river", "0505/0605")
    put(again, ENG, "0505")
    assert place_pontoon(RS, again, ENG, h("0505"), h("0605")) is None
    put(again, "s-1rif-1", "0807")
    assert enemy_moved_next_to(again, "s-1rif-1") == []                                      # far away
    again.units["s-1rif-1"].hex = h("0706")                                                  # next to 0605 only
    assert enemy_moved_next_to(again, "s-1rif-1") == []
    grid = again.map.grid
    end = next(x for x in grid.neighbours(h("0505")) if grid.adjacent(x, h("0605")))          # at the side's end
    again.units["s-1rif-1"].hex = end
    assert enemy_moved_next_to(again, "s-1rif-1") == ["m-pontoon#1"]                         # B78: removed
    assert complete_pontoons(again) == []


def test_b79_no_pontoon_in_storm_or_snow_or_off_a_river(gd):
    for weather in ("stormy", "snowy"):
        pos = board(gd, weather=weather)
        side_feature(pos, "river", "0505/0605")
        put(pos, ENG, "0505")
        assert place_pontoon(RS, pos, ENG, h("0505"), h("0605")).rule == "12.1"
    pos = board(gd)
    side_feature(pos, "stream", "0505/0605")
    put(pos, ENG, "0505")
    assert "not a river or canal" in place_pontoon(RS, pos, ENG, h("0505"), h("0605")).text


def test_b80_pontoons_into_a_major_river_next_to_a_completed_one(gd):
    pos = board(gd)
    paint(pos, "major_river", "0605", "0705", "0805")
    put(pos, ENG, "0505")
    assert place_pontoon(RS, pos, ENG, h("0605")) is None                     # from the bank
    assert "next to neither" in place_pontoon(RS, pos, ENG, h("0705")).text   # next to one being built
    complete_pontoons(pos)
    assert place_pontoon(RS, pos, ENG, h("0705")) is None                     # next to a completed one
    assert "next to neither" in place_pontoon(RS, pos, ENG, h("0805")).text


def test_a_pontoon_needs_an_activated_engineer_when_the_activation_is_given(gd):
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "g-eng-hq", "0504")
    put(pos, ENG, "0505")
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-eng")
    assert "not been activated" in place_pontoon(RS, pos, ENG, h("0505"), h("0605"), activation=act).text
    act.activate(pos, RS, ENG)
    assert place_pontoon(RS, pos, ENG, h("0505"), h("0605"), activation=act) is None


@pytest.mark.parametrize("option, leg_cost", [("bridge", 1), ("na_only", 3)])
def test_pontoon_costs_option(gd, option, leg_cost):
    """12.1 says a completed pontoon "functions like a normal bridge" and also that it "only
    functions to allow units to cross a river ... wherein a unit's movement is normally not
    allowed (NA)": by default a bridge (the river nullified, 9.1); ``na_only``: Leg units,
    never barred, still pay the river. Tracked units cross either way."""
    rs = RS.with_options(pontoon=option)
    pos = board(gd)
    side_feature(pos, "river", "0505/0605")
    put(pos, "m-pontoon", "0505", status=(facing(pos, "0505", "0605"),))
    put(pos, "g-1gr-1k", "0505")
    put(pos, "g-2pz-5k", "0505")
    leg = check_path(pos, rs, ["g-1gr-1k"], [h("0505"), h("0605")])
    assert leg.ok and leg.steps[-1]["cost"] == leg_cost
    tank = check_path(pos, rs, ["g-2pz-5k"], [h("0505"), h("0605")])
    assert tank.ok and tank.steps[-1]["cost"] == 1


def test_b81_an_engineer_clears_the_fortification_chits_of_a_hex(gd):
    pos = board(gd)
    put(pos, ENG, "0505")                                   # MA 4 (estimated): half is 2
    put(pos, "m-trench", "0605", status={"facing:N"})
    put(pos, "m-minefield", "0605")
    assert "at least half" in clear_fortifications(RS, pos, ENG, h("0605"), spent=1).text
    assert "fought" in clear_fortifications(RS, pos, ENG, h("0605"), spent=2, fought=True).text
    assert "neither in nor next to" in clear_fortifications(RS, pos, ENG, h("0805"), spent=2).text
    put(pos, "s-1rif-1", "0704")                            # 0605 in its ZOC
    assert "enemy ZOC" in clear_fortifications(RS, pos, ENG, h("0605"), spent=2).text
    pos.units.pop("s-1rif-1")
    pos.touch()
    assert sorted(clear_fortifications(RS, pos, ENG, h("0605"), spent=2)) == ["m-minefield", "m-trench"]
    assert not [u for u in pos.at(h("0605")) if u.counter.is_marker]
    assert "no fortification chit" in clear_fortifications(RS, pos, ENG, h("0605"), spent=2).text
    pinned = board(gd)
    put(pinned, ENG, "0505", status={"pinned"})
    put(pinned, "m-bunker", "0505")
    assert "pinned" in clear_fortifications(RS, pinned, ENG, h("0505"), spent=4).text
