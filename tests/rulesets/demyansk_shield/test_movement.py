"""Demyansk Shield movement: 8.3, strategic and exploitation movement (9.1, 8.4) and map boxes (9.35)."""

from __future__ import annotations

from fractions import Fraction

from toolkit.io import load_game
from toolkit.referee import Code, check_path, load_position, reachable
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

from .helpers import DATA, H, costs, hexes, one_source_game, position

# -- 8.3 movement -------------------------------------------------------------------------------


def test_movement_example_8_31():
    pos = load_position(DATA / "move-8-31.yaml")
    path = hexes(" ".join(pos.expect["path"]["ax-aa12"]))
    check = check_path(pos, RULESET, "ax-aa12", path)
    assert check.ok
    assert costs(check) == [Fraction(c) for c in pos.expect["costs"]["ax-aa12"]]
    assert check.steps[-1]["mp_left"] == 0
    further = check_path(pos, RULESET, "ax-aa12", path + [H("2706")])
    assert not further.ok and further.reason.code == Code.NOT_ENOUGH_MP and further.failed_step == 5


def test_woods_option_max_reads_8_31_text_literally():
    pos = load_position(DATA / "move-8-31.yaml")
    literal = make_ruleset(woods="max")
    check = check_path(pos, literal, "ax-aa12", hexes("2711 2710 2709 2708 2707"))
    assert costs(check)[-1] == 2   # the highest cost of rough and woods, against the example's 3


def test_supply_shortage_takes_two_mp_so_2707_is_refused(game):
    pos = position(game, weather="dry", side="soviet", **{"so-ski-1": ("2711", {"status": ["shortage"]})})
    check = check_path(pos, RULESET, "so-ski-1", hexes("2711 2710 2709 2708 2707"))
    assert not check.ok and check.failed_step == 4   # 7 - 2 = 5 MP: 1 + 1 + 2, then 3 > 1 (6.53, 8.32)


def test_stack_moves_at_its_lowest_ma(game):
    pos = position(game, weather="dry", **{"ax-aa12": "2711", "ax-ir27": "2711"})
    assert reachable(pos, RULESET, ["ax-aa12", "ax-ir27"]).ma == 4   # 8.12


def test_mud_costs_more_than_dry(game):
    dry = position(game, weather="dry", **{"ax-ir27": "2709"})
    mud = position(game, weather="mud", **{"ax-ir27": "2709"})
    assert len(reachable(mud, RULESET, "ax-ir27")) < len(reachable(dry, RULESET, "ax-ir27"))


def test_lake_hexsides_and_lakes_close_in_dry_and_mud_open_when_frozen(game):
    m = game.main_map
    side = next(s for s, fs in m.hexsides.items() if any(f.code == "lake" for f in fs))
    for weather, ok in [("dry", False), ("mud", False), ("frozen", True)]:
        pos = position(game, weather=weather, **{"ax-ir27": m.format(side.a)})
        check = check_path(pos, RULESET, "ax-ir27", [side.a, side.b])
        assert check.ok is ok, weather   # 8.34
        if not ok:
            assert check.reason.code == Code.PROHIBITED_HEXSIDE


def test_heavy_units_and_swamp(game):
    # 8.35a: armor may not enter swamp off road in Dry/Mud; it may in Frozen
    m = game.main_map
    swamp = next(h for h in m.grid if m.terrain(h) == "swamp" and not ds.road_hex(_pos0(game), h)
                 and any(m.terrain(n) == "clear" and not m.hexside_codes(m.grid.hexside(h, n))
                         for n in m.grid.neighbours(h)))
    start = next(n for n in m.grid.neighbours(swamp) if m.terrain(n) == "clear"
                 and not m.hexside_codes(m.grid.hexside(swamp, n)))
    for weather, ok in [("dry", False), ("mud", False), ("frozen", True)]:
        pos = position(game, weather=weather, **{"ax-pz203": m.format(start)})
        assert check_path(pos, RULESET, "ax-pz203", [start, swamp]).ok is ok, weather
    # stuck: on swamp without a road in Dry it cannot move at all
    pos = position(game, weather="dry", **{"ax-pz203": m.format(swamp)})
    reach = reachable(pos, RULESET, "ax-pz203")
    assert reach.refused is not None and reach.refused.rule == "8.35a"
    # infantry is not restricted
    pos = position(game, weather="dry", **{"ax-ir27": m.format(start)})
    assert check_path(pos, RULESET, "ax-ir27", [start, swamp]).ok


def _pos0(game):
    return position(game)


def test_major_river_needs_an_engineer_for_heavy_units_in_dry_and_mud(game):
    # 8.35b, 8.33b on the Lovat hexside 1824/1924 (no road there)
    pos = position(game, weather="dry", **{"ax-pz203": "1824"})
    check = check_path(pos, RULESET, "ax-pz203", hexes("1824 1924"))
    assert not check.ok and check.reason.rule == "8.35b"
    pos = position(game, weather="dry", **{"ax-pz203": "1824", "ax-pi-12": "1824"})
    assert check_path(pos, RULESET, "ax-pz203", hexes("1824 1924")).ok
    pos = position(game, weather="frozen", **{"ax-pz203": "1824"})
    assert check_path(pos, RULESET, "ax-pz203", hexes("1824 1924")).ok


def test_engineer_takes_one_mp_off_a_river_crossing(game):
    base = position(game, weather="dry", **{"ax-ir27": "1824"})
    helped = position(game, weather="dry", **{"ax-ir27": "1824", "ax-pi-12": "1924"})
    plain = check_path(base, RULESET, "ax-ir27", hexes("1824 1924")).steps[0]["cost"]
    with_engineer = check_path(helped, RULESET, "ax-ir27", hexes("1824 1924")).steps[0]["cost"]
    assert with_engineer == plain - 1   # 8.33b
    # the engineer itself crosses at the reduced cost and stops
    pos = position(game, weather="dry", **{"ax-pi-12": "1824"})
    reach = reachable(pos, RULESET, "ax-pi-12")
    assert H("1924") in reach and reach.mp_left(H("1924")) == 0


def test_road_bridges_the_river(game):
    # 8.36b: 2711 -> 2710 crosses the Yavon on the road: 1 MP; off the road it would be more
    pos = position(game, weather="dry", **{"ax-ir27": "2711"})
    assert costs(check_path(pos, RULESET, "ax-ir27", hexes("2711 2710"))) == [1]


def test_no_road_rate_into_an_enemy_zoc(game):
    # 8.36c: 2710 -> 2610 is a road link; with a Soviet unit next to 2610 the unit pays the terrain
    m = game.main_map
    target = H("2610")
    enemy = next(n for n in m.grid.neighbours(target) if n not in (H("2710"), H("2711"))
                 and m.terrain(n) != "lake" and not m.grid.adjacent(n, H("2710")))
    free = position(game, weather="mud", **{"ax-ir27": "2710"})
    zoc = position(game, weather="mud", **{"ax-ir27": "2710", "so-1-87": m.format(enemy)})
    assert costs(check_path(free, RULESET, "ax-ir27", hexes("2710 2610"))) == [1]
    paid = costs(check_path(zoc, RULESET, "ax-ir27", hexes("2710 2610")))[0]
    board_cost = m.terrain_types[m.terrain(target)].move.lookup("foot", "mud")[1]
    assert paid == board_cost   # the other terrain (woods ignored), not the road

# -- 9.1 strategic, 8.4 exploitation, 9.35 map boxes --------------------------------------------


def test_strategic_movement(game):
    pos = position(game, weather="dry", **{"ax-ir27": "1528", "ax-aa12": "1528"})
    assert reachable(pos, RULESET, "ax-ir27", "strategic").ma == 6   # 4 + 2
    assert reachable(pos, RULESET, "ax-aa12", "strategic").ma == 11   # recon 7 + 4
    reach = reachable(pos, RULESET, "ax-ir27", "strategic")
    assert reach.hexes() and all(any(h in ln.hexes for ln in game.main_map.lines if ln.code == "road")
                                 for h in reach.hexes())
    mud = position(game, weather="mud", **{"ax-ir27": "1528"})
    assert reachable(mud, RULESET, "ax-ir27", "strategic").refused.rule == "9.1"
    flown = position(game, weather="dry", **{"ax-ir27": ("1528", {"status": ["air_transported"]})})
    assert reachable(flown, RULESET, "ax-ir27", "strategic").refused.rule == "7.11"
    near = position(game, weather="dry", **{"ax-ir27": "1528", "so-1-87": "1529"})
    assert reachable(near, RULESET, "ax-ir27", "strategic").refused.rule == "9.11"


def test_strategic_movement_needs_a_friendly_supply_road():
    # a Soviet unit on 1631 cuts the Staraya Russa - Dno road: from 1836 the Supply Road ends
    # short of it, so a unit in Staraya Russa is not on a friendly Supply Road (9.11)
    g = one_source_game("1836")
    full = load_game("demyansk-shield").main_map
    g.main_map.lines = [ln for ln in full.lines if ln.name == "Staraya Russa - Dno road"]
    pos = position(g, weather="dry", **{"ax-ir27": "1528", "ax-ir48": "1835", "so-1-87": "1631"})
    road = ds.supply(pos, "axis").road
    assert H("1528") not in road and H("1835") in road
    assert reachable(pos, RULESET, "ax-ir27", "strategic").refused.rule == "9.11"
    reach = reachable(pos, RULESET, "ax-ir48", "strategic")
    assert reach.refused is None and reach.hexes() and set(reach.hexes()) <= road


def test_exploitation(game):
    pos = position(game, weather="frozen", **{"ax-aa12": ("2711", {"status": ["exploit"]})})
    assert reachable(pos, RULESET, "ax-aa12", "exploitation").ma == 3   # half of 7, fraction dropped
    mud = position(game, weather="mud", **{"ax-aa12": ("2711", {"status": ["exploit"]})})
    assert reachable(mud, RULESET, "ax-aa12", "exploitation").refused.rule == "8.4"
    ski = position(game, weather="dry", side="soviet", **{"so-ski-1": ("2711", {"status": ["exploit"]})})
    assert reachable(ski, RULESET, "so-ski-1", "exploitation").refused.rule == "8.44"
    unmarked = position(game, weather="frozen", **{"ax-aa12": "2711"})
    assert reachable(unmarked, RULESET, "ax-aa12", "exploitation").refused is not None
    no_box = position(game, weather="frozen", **{"ax-ir27": ("2711", {"status": ["exploit"]})})
    assert reachable(no_box, RULESET, "ax-ir27", "exploitation").refused.rule == "8.42a"


def test_map_box_entry(game):
    # 5.32 / TC-REINF-01: 170 Division enters from the Valday box through its (yellow) Entry hexes
    pos = position(game, weather="frozen", side="soviet", turn=13, **{"so-170": "box:valday"})
    reach, refused = ds.reachable_from_box(pos, RULESET, "so-170")
    valday = game.main_map.box("valday").entry
    assert all(h in reach for h in valday) and not refused
    first = valday[0]
    blocked = position(game, weather="frozen", side="soviet", turn=13,
                       **{"so-170": "box:valday", "ax-ir27": game.main_map.format(first)})
    reach, refused = ds.reachable_from_box(blocked, RULESET, "so-170")
    assert first not in reach and refused[first].code == Code.ENEMY_OCCUPIED   # 9.35a
    # a yellow unit may not use the NWF box (9.32-9.33)
    wrong = position(game, weather="frozen", side="soviet", **{"so-170": "box:nwf"})
    reach, refused = ds.reachable_from_box(wrong, RULESET, "so-170")
    assert not reach and refused
