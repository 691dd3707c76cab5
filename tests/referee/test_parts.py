"""The configurable parts other games use, each checked on the tutorial map by hand.

Hexes used (tutorial map, T.2): 0505 town on the Kessel road; 0605, 0705 ... clear along the
road, the river between columns 06 and 07 (bridged by the road at 0605/0705); 0604 clear.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from toolkit.io import load_game
from toolkit.referee import (Code, MovementMode, Position, Ruleset, Unit, ZocRules, check_path, get_ruleset,
                             reachable)

GAME = load_game("tutorial")
TUT = get_ruleset("tutorial")


def H(text):
    return GAME.main_map.grid.parse(text)


def position(weather="clear", **units):
    pos = Position(game=GAME, map_id="main", side="blue", turn=1, weather=weather)
    for uid, hex in units.items():
        uid = uid.replace("_", "-")
        counter = GAME.counters[uid]
        pos.units[uid] = Unit(uid, counter, counter.side, H(hex))
    pos.touch()
    return pos


def rules(**changes):
    zoc = replace(TUT.zoc, **{k[4:]: v for k, v in changes.items() if k.startswith("zoc_")})
    mv = replace(TUT.movement, **{k[3:]: v for k, v in changes.items() if k.startswith("mv_")})
    return replace(TUT, name="parts-" + "-".join(sorted(changes)), zoc=zoc, movement=mv)


def walk(pos, rs, units, text, mode=None):
    return check_path(pos, rs, units, [H(h) for h in text.split()], mode=mode)


def test_zoc_enter_and_leave_costs():
    # r-10 at 0905: 0805 is in its ZOC; b-3 pays +2 to enter it and +1 to leave it
    rs = rules(zoc_enter_cost=2, zoc_leave_cost=1, zoc_stop=False)
    pos = position(r_10="0905", b_3="0705")
    check = walk(pos, rs, "b-3", "0705 0805 0706")
    assert [s["cost"] for s in check.steps] == [Fraction(1, 2) + 2, 1 + 1]   # road + enter; clear + leave
    assert check.ok


def test_zoc_to_zoc_one_hex_only_as_the_whole_move():
    rs = rules(zoc_zoc_to_zoc="one-hex")
    pos = position(r_10="0905", b_2="0804")
    check = walk(pos, rs, "b-2", "0804 0805")
    assert check.ok and check.steps[0]["mp_left"] == 0
    reach = reachable(pos, rs, "b-2")
    assert H("0805") in reach and reach.mp_left(H("0805")) == 0


def test_infiltration_spends_all_mp():
    rs = rules(zoc_infiltration_min_ma=6)
    pos = position(b_3="0905", r_12="0804")    # b-3's ZOC covers 0804 and 0805; r-12 is ski, MA 6
    assert walk(pos, rs, "r-12", "0804 0805").ok
    assert walk(pos, rs, "r-12", "0804 0805").steps[0]["mp_left"] == 0
    assert walk(pos, rs, "r-12", "0804 0805 0806").reason.code is Code.ZOC_STOP
    pos10 = position(b_3="0905", r_10="0804")   # r-10 has MA 4: may not infiltrate
    assert walk(pos10, rs, "r-10", "0804 0805").reason.code is Code.ZOC_TO_ZOC


def test_sticky_zoc():
    rs = rules(zoc_sticky=True)
    pos = position(r_10="0905", b_2="0804")
    assert reachable(pos, rs, "b-2").refused.code is Code.ZOC_STICKY


def test_friendly_unit_negates_zoc_for_movement_when_the_rules_say_so():
    pos = position(r_10="0905", b_1="0705", b_2="0805")
    assert walk(pos, TUT, "b-1", "0705 0805 0706").reason.code is Code.ZOC_STOP
    rs = rules(zoc_friendly_negates=True)
    assert walk(pos, rs, "b-1", "0705 0805 0706").ok


def test_minimum_move_lets_a_unit_enter_one_hex_it_cannot_afford():
    rs = rules(mv_minimum_move=True)
    pos = position(b_5="0302")                   # artillery, mech, MA 4 ... into woods costs 3
    pos.units["b-5"].status.add("out_of_supply")
    slow = replace(rs, movement=replace(rs.movement, status_ma={"out_of_supply": Fraction(1, 2)}))
    first = walk(pos, slow, "b-5", "0302 0202")                     # MA 2, woods 3, first step
    assert first.ok and first.steps[0]["mp_left"] == 0
    assert walk(pos, slow, "b-5", "0302 0202 0201").reason.code is Code.MOVE_ENDED
    assert walk(pos, replace(slow, movement=replace(slow.movement, minimum_move=False)),
                "b-5", "0302 0202").reason.code is Code.NOT_ENOUGH_MP
    assert walk(pos, slow, "b-5", "0302 0303 0304").reason.code is Code.NOT_ENOUGH_MP   # clear 1, stream 1+2
    reach = reachable(pos, slow, "b-5")
    assert H("0202") in reach and reach.mp_left(H("0202")) == 0


def test_line_rate_not_into_or_out_of_enemy_zoc():
    pos = position(r_10="0905", b_1="0705")
    into = rules(mv_line_into_ezoc=False)
    assert walk(pos, into, "b-1", "0705 0805").steps[0]["cost"] == 1     # clear, not the road's 1/2
    out = rules(mv_line_out_of_ezoc=False, zoc_stop=False)
    pos2 = position(r_10="0905", b_1="0805")
    assert walk(pos2, out, "b-1", "0805 0705").steps[0]["cost"] == 1


def test_strategic_mode_road_only_with_its_own_rate_and_bonus():
    strategic = MovementMode("strategic", rule="9.1", road_only=True, line_rate=Fraction(1, 3), ma_bonus=2,
                             enter_ezoc=False, no_weathers=("mud",))
    rs = replace(TUT, name="strategic", movement=replace(TUT.movement, modes={"strategic": strategic}))
    pos = position(b_1="0105", r_10="1205")
    reach = reachable(pos, rs, "b-1", mode="strategic")
    roads = {h for line in GAME.main_map.lines if line.code == "road" for h in line.hexes}
    assert reach.ma == 6 and set(reach.hexes()) <= roads
    # 1105 is in r-10's ZOC (adjacent to 1205): strategic movement may not enter it
    assert H("1005") in reach and H("1105") not in reach and reach.cost(H("1005")) == 3
    off_road = walk(pos, rs, "b-1", "0105 0106", mode="strategic")
    assert off_road.reason.code is Code.MODE_ROAD_ONLY
    mud = position("mud", b_1="0105")
    assert reachable(mud, rs, "b-1", mode="strategic").refused.code is Code.MODE_NOT_ALLOWED


def test_exploitation_mode_half_ma_needs_a_marker():
    exploit = MovementMode("exploitation", rule="8.4", ma_factor=Fraction(1, 2), needs_status="exploit")
    rs = replace(TUT, name="exploit", movement=replace(TUT.movement, modes={"exploitation": exploit}))
    pos = position(b_4="0105")
    assert reachable(pos, rs, "b-4", mode="exploitation").refused.code is Code.MODE_NOT_ALLOWED
    pos.units["b-4"].status.add("exploit")
    assert reachable(pos, rs, "b-4", mode="exploitation").ma == 4


def test_near_enemy_mode_keeps_away_from_enemy_units():
    mode = MovementMode("admin", rule="x.1", near_enemy=False)
    rs = replace(TUT, name="admin", movement=replace(TUT.movement, modes={"admin": mode}))
    pos = position(b_1="0505", r_14="0806")
    reach = reachable(pos, rs, "b-1", mode="admin")
    assert not any(GAME.main_map.grid.adjacent(h, H("0806")) for h in reach.hexes())
    assert walk(pos, rs, "b-1", "0505 0605 0705 0805", mode="admin").reason.code is Code.MODE_NOT_ALLOWED


def test_zoc_reaches_hook():
    class NoZocIntoTowns(Ruleset):
        def zoc_reaches(self, pos, unit, hex):
            return pos.map.terrain(hex) != "town"

    rs = NoZocIntoTowns(name="no-zoc-towns", movement=TUT.movement, zoc=TUT.zoc)
    pos = position(r_10="0604", b_1="0405")
    # 0505 (town) is next to r-10 but outside its ZOC: b-1 goes on to 0506? no: 0506 is woods next to nothing
    assert walk(pos, TUT, "b-1", "0405 0505 0506").reason.code is Code.ZOC_STOP
    assert walk(pos, rs, "b-1", "0405 0505 0506").ok


def test_zoc_across_prohibited_hexsides_uses_the_exerting_units_class():
    rs = replace(TUT, name="own-class", zoc=ZocRules(rule="3.22", prohibited_class="own", zoc_to_zoc="forbidden"))
    pos = position(r_14="0705", b_1="0505")   # r-14 is mech: the river is prohibited to it
    assert walk(pos, rs, "b-1", "0505 0604 0603").ok          # 0604 is across the river from 0705


def test_two_rulesets_of_one_name_do_not_share_cached_zoc():
    pos = position(r_11="0705", b_1="0505")
    river_blocks = TUT
    river_carries = replace(TUT, zoc=replace(TUT.zoc, blocked_hexsides=()))   # same name "tutorial"
    assert walk(pos, river_blocks, "b-1", "0505 0605 0604").ok
    assert walk(pos, river_carries, "b-1", "0505 0605 0604").reason.code is Code.ZOC_STOP
