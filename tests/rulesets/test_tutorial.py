"""The tutorial ruleset, rule by rule (docs/tutorial-rules.md T.3-T.7).

Each test loads a position from tests/data/positions that isolates one rule and checks the
referee's answer against the rule's own arithmetic.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from toolkit.referee import Code, apply_supply, check_path, check_stacking, load_position, reachable, supply_status
from toolkit.rulesets.tutorial import RULESET as RS

POSITIONS = Path(__file__).resolve().parents[1] / "data" / "positions"


def load(name):
    return load_position(POSITIONS / f"{name}.yaml")


def walk(pos, units, text):
    return check_path(pos, RS, units, [pos.map.grid.parse(h) for h in text.split()])


def test_t5_road_rate_is_half_an_mp_and_bridges_the_river():
    pos = load("tutorial-road")
    check = walk(pos, "b-1", "0105 0205 0305 0405 0505 0605 0705 0805 0905")
    assert check.ok and [s["cost"] for s in check.steps] == [Fraction(1, 2)] * 8


def test_t5_mech_moving_with_another_unit_pays_terrain():
    pos = load("tutorial-mech-stack")
    alone = walk(pos, "b-3", "0105 0205 0305")
    together = walk(pos, ["b-3", "b-4"], "0105 0205 0305")
    assert [s["cost"] for s in alone.steps] == [Fraction(1, 2)] * 2
    assert [s["cost"] for s in together.steps] == [1, 1]
    # the road carries b-3 through the swamp at 1005; the stack may not enter it
    assert walk(pos, "b-3", "0105 0205 0305 0405 0505 0605 0705 0805 0905 1005").ok
    refused = walk(pos, ["b-3", "b-4"], "0105 0205 0305 0405 0505 0605 0705 0805 0905 1005").reason
    assert refused.code is Code.PROHIBITED_TERRAIN and set(refused.units) == {"b-3", "b-4"}


def test_t4_river_prohibited_to_mech_and_plus_two_for_foot():
    pos = load("tutorial-river")
    assert walk(pos, "b-3", "0604 0704").reason.code is Code.PROHIBITED_HEXSIDE
    assert walk(pos, "b-1", "0604 0704").steps[0]["cost"] == 3        # clear 1 + river 2


def test_t5_bridges_on_road_and_railway():
    pos = load("tutorial-river")
    assert walk(pos, "b-4", "0605 0705").steps[0]["cost"] == Fraction(1, 2)
    assert [s["cost"] for s in walk(pos, "b-5", "0608 0708 0808").steps] == [Fraction(1, 3)] * 2


def test_t4_stream_costs_one_foot_two_mech():
    pos = load("tutorial-river")
    assert walk(pos, "b-2", "0303 0304").steps[0]["cost"] == 2
    assert walk(pos, "b-hq", "0303 0304").steps[0]["cost"] == 3


def test_t3_t5_mud():
    pos = load("tutorial-mud")
    assert walk(pos, "b-3", "0303 0403").steps[0]["cost"] == 2          # clear, mech, mud
    assert [s["cost"] for s in walk(pos, "b-4", "0405 0505 0605").steps] == [1, 1]
    assert [s["cost"] for s in walk(pos, "b-1", "0405 0505 0605").steps] == [Fraction(1, 2)] * 2
    assert walk(pos, "b-2", "0206 0207").steps[0]["cost"] == 4          # swamp, foot, mud


def test_t6_entering_enemy_zoc_stops():
    pos = load("tutorial-zoc-stop")
    reach = reachable(pos, RS, "b-1")
    zoc_hex = pos.map.grid.parse("0805")
    assert reach.mp_left(zoc_hex) == 0 and reach.cost(zoc_hex) == Fraction(3, 2)
    assert walk(pos, "b-1", "0505 0605 0705 0805 0806").reason.code is Code.ZOC_STOP


def test_t6_no_zoc_to_zoc_and_no_zoc_across_a_river():
    pos = load("tutorial-zoc")
    refused = walk(pos, "b-2", "0804 0805").reason
    assert refused.code is Code.ZOC_TO_ZOC and refused.rule == "T.6"
    assert len(reachable(pos, RS, "b-2")) == 8
    # r-11 at 0705 is across the river from 0605 and 0604: b-1 walks past it
    assert walk(pos, "b-1", "0505 0605 0604 0603").ok


def test_t6_hq_exerts_no_zoc():
    pos = load("tutorial-zoc")
    assert walk(pos, "r-12", "0301 0302 0202 0102").ok     # 0202 and 0302 touch the blue HQ


def test_t6_stacking_two_with_hq_and_markers_free():
    pos = load("tutorial-stacking")
    found = check_stacking(pos, RS)
    assert [pos.map.format(r.hex) for r in found] == ["0404"]
    assert set(found[0].units) == {"b-3", "b-4", "b-5"}


def test_t7_enemy_zoc_blocks_supply_unless_a_friendly_unit_is_there():
    held = supply_status(load("tutorial-supply-zoc"), RS, "blue")
    cut = supply_status(load("tutorial-supply-cut"), RS, "blue")
    assert held.supplied == {"b-1", "b-2"} and held.unsupplied == {"b-3"}
    assert cut.unsupplied == {"b-1"}
    fmt = load("tutorial-supply-zoc").map.format
    assert [fmt(h) for h in held.paths["b-1"][:3]] == ["0706", "0705", "0605"]   # over the road bridge


def test_t7_river_blocks_supply_except_at_bridges():
    pos = load("tutorial-supply-cut")
    # 0606 (west bank, not in enemy ZOC) is next to b-1, yet no bridge is open
    assert pos.map.grid.adjacent(pos.units["b-1"].hex, pos.map.grid.parse("0606"))
    assert "b-1" in supply_status(pos, RS, "blue").unsupplied


def test_t7_out_of_supply_then_isolated_and_isolated_cannot_move():
    pos = load("tutorial-isolated")
    result = supply_status(pos, RS, "blue")
    assert result.status == {"b-1": "isolated", "b-2": "isolated", "b-3": "out_of_supply"}
    apply_supply(pos, RS, result)
    assert pos.units["b-3"].status == {"out_of_supply"} and pos.units["b-1"].status == {"isolated"}
    assert reachable(pos, RS, "b-1").refused.code is Code.CANNOT_MOVE
    assert reachable(pos, RS, "b-3").refused is None


def test_t6_a_move_may_not_end_over_the_stacking_limit():
    pos = load("tutorial-stacking")
    refused = walk(pos, "b-5", "0404 0505")          # 0505 holds b-1 and b-2 (and the free HQ)
    assert refused.reason.code is Code.STACKING_LIMIT and refused.failed_step == 1
    assert "b-5" in refused.reason.units
    assert walk(pos, "b-hq", "0505 0404").ok         # an HQ does not count, even into a full hex
    assert walk(pos, "b-1", "0505 0504").ok


def test_t6_destinations_leave_out_full_hexes():
    from toolkit.referee import destinations
    pos = load("tutorial-stacking")
    kessel = pos.map.grid.parse("0505")
    assert kessel in reachable(pos, RS, "b-5")
    ends = destinations(pos, RS, "b-5")
    assert kessel not in ends and len(ends) == len(reachable(pos, RS, "b-5")) - 1
