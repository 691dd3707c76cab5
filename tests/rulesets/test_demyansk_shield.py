"""Demyansk Shield: the rulebook's worked examples, then positions that isolate each rule.

Examples are cited by rule; positions live in tests/data/demyansk-shield/ or are built here
on the real map. Where the rulebook contradicts itself both settings of the option are tested.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.game.map import HexTerrain, SupplySource
from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import (Code, Position, Unit, check_path, check_stacking, load_position,
                             position_from_scenario, reachable, ruleset_for)
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

DATA = Path(__file__).resolve().parents[1] / "data" / "demyansk-shield"


@pytest.fixture(scope="module")
def game():
    return load_game("demyansk-shield")


def H(text: str) -> Hex:
    return Hex(int(text[:2]), int(text[2:]))


def hexes(text: str) -> list[Hex]:
    return [H(t) for t in text.split()]


def position(game, weather="dry", side="axis", turn=3, **units) -> Position:
    """A position on the game map: ``unit_id="HHHH"`` or ``unit_id=("HHHH", {"status": ...})``."""
    pos = Position(game=game, map_id="main", weather=weather, side=side, turn=turn)
    for uid, where in units.items():
        extra = {}
        if isinstance(where, tuple):
            where, extra = where
        cid = uid.split("__")[0]
        counter = game.counters[cid]
        unit = Unit(uid, counter, counter.side, box=where[4:] if where.startswith("box:") else None,
                    hex=None if where.startswith("box:") else H(where))
        unit.status |= set(extra.get("status", ()))
        if "steps" in extra:
            unit.steps = extra["steps"]
        pos.units[uid] = unit
    return pos


def costs(check) -> list[Fraction]:
    return [s["cost"] for s in check.steps]


# -- the game data ------------------------------------------------------------------------------


def test_grid_fits_every_adjacency_the_examples_use(game):
    grid = game.main_map.grid
    pairs = ("3215/3114 3215/3214 3214/3114 1710/1811 1710/1810 1810/1811 1910/1810 1824/1923 1824/1924 "
             "2024/2025 2632/2731 2731/2730 2731/2831 1810/1809 2711/2710 2710/2709 2709/2708 2708/2707")
    for pair in pairs.split():
        a, b = pair.split("/")
        assert grid.adjacent(H(a), H(b)), pair
    assert not grid.adjacent(H("1710"), H("1910"))   # 17.0: 1710 triggers no attack on 1910
    assert grid.distance(H("1829"), H("1732")) == 4   # 6.24: "a Supply Line of four hexes"
    assert game.main_map.north == "left"


def test_named_hexes_carry_what_the_text_says(game):
    m = game.main_map
    places = {p.name: m.format(p.hex) for p in m.places}
    assert places["Demyansk"] == "2711" and places["Staraya Russa"] == "1528"
    for name, hex_id in [("Lyubnitsa", "1608"), ("Pola", "1621"), ("Lychkovo", "1712"), ("Ivanovskoye", "1929"),
                         ("Kolbykino", "2124"), ("Stepanovo", "2219"), ("Belebelka", "2833"),
                         ("Polnovo", "3004"), ("Molvotitsy", "3412")]:
        assert places[name] == hex_id
    axis_edge = {m.format(h) for s in m.supply if s.side == "axis" and s.kind == "edge" for h in s.hexes}
    assert axis_edge == {"1032", "1836", "2036"}
    assert {m.format(h) for e in m.edges for h in e.hexes} == {"4027", "4031"}
    assert {b.id for b in m.boxes} >= {"agn", "nwf", "valday", "swf", "eliminated", "2grc"}
    assert all(m.box(b).entry for b in ("agn", "nwf", "valday", "swf"))
    # 8.31: 2709 clear, 2708 clear + rough, 2707 clear + rough + woods; 2711-2710 by road
    assert (m.terrain(H("2709")), m.features(H("2709"))) == ("clear", ())
    assert (m.terrain(H("2708")), m.features(H("2708"))) == ("rough", ())
    assert (m.terrain(H("2707")), m.features(H("2707"))) == ("rough", ("woods",))
    assert H("2710") in m.lines[[ln.name for ln in m.lines].index("Demyansk - Lychkovo road")].hexes
    # 17.0 strongpoints; 11.22: exactly one of 1824/1923, 1824/1924 is a major river; 6.23: 2024/2025
    assert "strongpoint" in m.features(H("1811")) and "strongpoint" in m.features(H("1910"))
    side = m.grid.hexside
    assert "major_river" not in m.hexside_codes(side(H("1824"), H("1923")))
    assert "major_river" in m.hexside_codes(side(H("1824"), H("1924")))
    assert "major_river" in m.hexside_codes(side(H("2024"), H("2025")))
    assert any(m.hexside_codes(side(H("2329"), n)) for n in m.grid.neighbours(H("2329")))   # 13.2 example


def test_the_game_names_this_ruleset(game):
    assert ruleset_for(game).name == "demyansk-shield"


def test_every_scenario_sets_up_legally(game):
    for sid, first in [("scenario-1", 1), ("scenario-2", 10), ("scenario-3", 1)]:
        pos = position_from_scenario(game, sid)
        assert pos.turn == first and pos.weather == "frozen"   # 19.11, 19.21, 19.31
        assert check_stacking(pos, RULESET) == []
        if sid == "scenario-2":   # 19.22: west of the line 1117-3917
            assert all(u.hex.row >= 17 for u in pos.on_map())


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


# -- 8.2 and 9.2 zones of control ---------------------------------------------------------------


def test_zoc_example_8_2():
    pos = load_position(DATA / "zoc-8-2.yaml")
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("3215"))
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("3114"))
    assert not ds.in_enemy_zoc(pos, RULESET, "soviet", H("3214"))
    direct = check_path(pos, RULESET, "so-1-87", hexes("3215 3114"))
    assert not direct.ok and direct.reason.code == Code.ZOC_TO_ZOC
    around = check_path(pos, RULESET, "so-1-87", hexes("3215 3214 3114"))
    assert around.ok and around.steps[-1]["mp_left"] == 0
    beyond = check_path(pos, RULESET, "so-1-87", hexes("3215 3214 3114 3014"))
    assert not beyond.ok and beyond.reason.code == Code.ZOC_STOP   # 8.21


def test_infiltration_9_2():
    pos = load_position(DATA / "zoc-8-2.yaml")
    check = check_path(pos, RULESET, "so-ski-1", hexes("3215 3114"))   # printed MA 7 (9.22)
    assert check.ok and check.steps[0]["spent"] == 7 and check.steps[0]["mp_left"] == 0
    assert not check_path(pos, RULESET, "so-ski-1", hexes("3215 3114 3014")).ok
    # not into an active enemy Strongpoint (9.23)
    pos.units["m-sp"] = Unit("m-sp", pos.game.counters["m-sp"], None, hex=H("3114"))
    pos.touch()
    refused = check_path(pos, RULESET, "so-ski-1", hexes("3215 3114"))
    assert not refused.ok and refused.reason.rule == "9.23"
    # nor while receiving replacements (15.23)
    pos = load_position(DATA / "zoc-8-2.yaml")
    pos.units["so-ski-1"].status.add("receiving_replacements")
    assert not check_path(pos, RULESET, "so-ski-1", hexes("3215 3114")).ok


def test_no_zoc_band_unless_stacked(game):
    import dataclasses
    banded = dataclasses.replace(game.counters["ax-ir27"], id="banded", marks=("no-zoc",))
    pos = position(game, weather="frozen")
    pos.units["banded"] = Unit("banded", banded, "axis", hex=H("3115"))
    pos.touch()
    assert not ds.in_enemy_zoc(pos, RULESET, "soviet", H("3114"))   # 3.24
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("3115"))       # it controls its own hex
    pos.units["ax-ir48"] = Unit("ax-ir48", game.counters["ax-ir48"], "axis", hex=H("3115"))
    pos.touch()
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("3114"))


def test_no_zoc_into_an_active_enemy_strongpoint(game):
    # 3.25: the Soviet unit in 1810 projects no ZOC into the Axis Strongpoint at 1811
    pos = position(game, weather="frozen", **{"so-1318": "1810", "ax-iii26": "1811"})
    assert not ds.in_enemy_zoc(pos, RULESET, "axis", H("1811"))
    assert ds.in_enemy_zoc(pos, RULESET, "axis", H("1710"))
    # a destroyed printed Strongpoint (non-active marker, 14.41) no longer shields it
    pos.units["m-sp"] = Unit("m-sp", game.counters["m-sp"], None, hex=H("1811"), status={"non_active"})
    pos.touch()
    assert ds.in_enemy_zoc(pos, RULESET, "axis", H("1811"))


def test_entering_an_enemy_strongpoint_costs_one_more(game):
    pos = position(game, weather="frozen", side="soviet", **{"so-1318": "1810"})
    assert costs(check_path(pos, RULESET, "so-1318", hexes("1810 1811")))[0] == \
        costs(check_path(pos, RULESET, "so-1318", hexes("1810 1710")))[0] + 1   # 14.13 (both clear)


@pytest.mark.parametrize("literal", [False, True])
def test_zoc_into_swamp_option(game, literal):
    # 3.22: a heavy unit's ZOC and swamp it may not enter in Dry (option restricted_zoc_into_swamp)
    m = game.main_map
    swamp = next(h for h in m.grid if m.terrain(h) == "swamp" and not ds.road_hex(position(game), h))
    start = next(n for n in m.grid.neighbours(swamp) if m.terrain(n) != "lake"
                 and not m.hexside_codes(m.grid.hexside(swamp, n)))
    rs = make_ruleset(restricted_zoc_into_swamp=literal)
    pos = position(game, weather="dry", **{"ax-pz203": m.format(start)})
    assert ds.in_enemy_zoc(pos, rs, "soviet", swamp) is (not literal)


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
    g = _one_source_game("1836")
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


# -- 3.3 stacking -------------------------------------------------------------------------------


def test_stacking_seven_points(game):
    # 3.32: IR 27 (2) + IR 48 (2) + IR 89 (2) + AA12/12 (1) = 7 is legal; one more point is not
    seven = position(game, **{"ax-ir27": "2711", "ax-ir48": "2711", "ax-ir89": "2711", "ax-aa12": "2711"})
    assert check_stacking(seven, RULESET) == []
    eight = position(game, **{"ax-ir27": "2711", "ax-ir48": "2711", "ax-ir89": "2711", "ax-aa12": "2711",
                              "ax-pi-12": "2711"})
    (why,) = check_stacking(eight, RULESET)
    assert why.code == Code.STACKING_LIMIT and why.rule == "3.32"
    # air units and markers do not count (3.31, 13.13); no limit in a Map Box (3.34)
    seven.units["ax-air-b1"] = Unit("ax-air-b1", game.counters["ax-air-b1"], "axis", hex=H("2711"))
    seven.units["m-sp"] = Unit("m-sp", game.counters["m-sp"], None, hex=H("2711"))
    seven.touch()
    assert check_stacking(seven, RULESET) == []
    boxed = position(game, **{f"ax-ir{n}": "box:agn" for n in (27, 48, 89, 6, 46)})
    assert check_stacking(boxed, RULESET) == []


def test_printed_units_stack_free(game):
    pos = position(game, **{"ax-ir27": "1624", "ax-ir48": "1624", "ax-ir89": "1624", "ax-aa12": "1624",
                            "ax-map-1": "1624"})
    assert check_stacking(pos, RULESET) == []   # 3.33 note: map-printed units count 0


@pytest.mark.parametrize("free", [True, False])
def test_soviet_armor_battalions_option(game, free):
    # 3.31 (battalions have no dots) vs the 11.41 note (additional armor not ignored for stacking)
    rs = make_ruleset(soviet_armor_battalions_free=free)
    pos = position(game, side="soviet", **{"so-180": "1320", "so-nav-1": "1320", "so-tb-1": "1320"})
    assert (check_stacking(pos, rs) == []) is free


# -- 6.0 supply ---------------------------------------------------------------------------------


def test_supply_example_6_24():
    pos = load_position(DATA / "supply-6-24.yaml")
    result = ds.supply(pos, "axis")
    assert result.supplied == set(pos.expect["supplied"]["axis"])
    assert H("1732") in result.road and H("1836") in result.road
    assert result.source["ax-ir501"] in {H("1032"), H("1836"), H("2036")}


def _one_source_game(source: str, airfields: bool = False):
    # a copy of the game whose map has no road, a single Axis source and (unless asked) no
    # airfield: it isolates the rule under test
    g = load_game("demyansk-shield")
    m = g.main_map
    m.lines = [ln for ln in m.lines if ln.code != "road"]
    m.supply = [s for s in m.supply if s.side != "axis"]
    m.supply.append(SupplySource(side="axis", hexes=(H(source),), kind="edge"))
    if not airfields:
        m.hexes = {h: c if "airfield" not in c.features else
                   HexTerrain(c.terrain, tuple(f for f in c.features if f != "airfield"), c.source)
                   for h, c in m.hexes.items()}
    return g


def test_supply_line_is_at_most_seven_hexes():
    g = _one_source_game("2036")
    grid = g.main_map.grid
    seven = next(h for h in grid.ring(H("2036"), 7) if h in grid and g.main_map.terrain(h) != "lake")
    eight = next(h for h in grid.ring(H("2036"), 8) if h in grid and g.main_map.terrain(h) != "lake")
    pos = position(g, weather="frozen", **{"ax-ir27": grid.format(seven), "ax-ir48": grid.format(eight)})
    result = ds.supply(pos, "axis")
    assert result.supplied == {"ax-ir27"} and result.unsupplied == {"ax-ir48"}   # 6.22
    assert result.reasons["ax-ir48"].rule == "6.2"


def test_supply_blocked_by_enemy_zoc_unless_a_friendly_unit_is_there(game):
    g = _one_source_game("2036")
    # a straight line 2036 -> 2033 -> 2030; a Soviet unit beside 2034 puts the route in its ZOC
    pos = position(g, weather="frozen", **{"ax-ir27": "2031"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    soviet = {f"so-ski-{i + 1}": g.main_map.grid.format(h) for i, h in enumerate(
        [H("1834"), H("2134"), H("1833"), H("2133"), H("1932"), H("2132")])}
    cut = position(g, weather="frozen", **{"ax-ir27": "2031"}, **soviet)
    assert "ax-ir27" in ds.supply(cut, "axis").unsupplied   # 6.24
    held = position(g, weather="frozen", **{"ax-ir27": "2031", "ax-ir48": "2033", "ax-ir89": "2034",
                                            "ax-ir6": "2035", "ax-ir46": "2032"}, **soviet)
    assert "ax-ir27" in ds.supply(held, "axis").supplied


def test_supply_lake_side_blocks_in_mud_not_when_frozen(game):
    # 6.22: "a prohibited terrain hexside [Example: Lake during Mud weather]"
    m = game.main_map
    side = next(s for s, fs in m.hexsides.items() if any(f.code == "lake" for f in fs))
    g = _one_source_game(m.format(side.a))
    frozen = ds.supply(position(g, weather="frozen", **{"ax-ir27": m.format(side.b)}), "axis")
    assert frozen.paths["ax-ir27"] == [side.b, side.a]
    mud = ds.supply(position(g, weather="mud", **{"ax-ir27": m.format(side.b)}), "axis")
    assert "ax-ir27" in mud.unsupplied or len(mud.paths["ax-ir27"]) > 2


def test_road_break_2024_2025():
    # 6.23 design note: the road from Staraya Russa reaches 2025; the pocket road starts at 2024
    # across the Lovat, with no bridge. Keep only those roads and the source 1836: the one road
    # break allowed joins them; without it the pocket road is not a Supply Road.
    g = _one_source_game("1836")
    full = load_game("demyansk-shield").main_map
    keep = ("Staraya Russa - Dno road", "Staraya Russa - Ramushevo road", "Ramushevo - Demyansk road")
    g.main_map.lines = [ln for ln in full.lines if ln.name in keep]
    pos = position(g, weather="frozen", **{"ax-ir27": "2317"})
    assert g.main_map.grid.distance(H("2317"), H("2025")) > 7
    result = ds.supply(pos, "axis")
    assert {H("2025"), H("2024"), H("2711")} <= result.road and "ax-ir27" in result.supplied
    no_break = make_ruleset()
    no_break.supply = replace(no_break.supply, road_breaks=0)
    result = ds.supply(pos, "axis", no_break)
    assert H("2024") not in result.road and "ax-ir27" in result.unsupplied


def test_sources_scenario_two_only(game):
    s2 = position_from_scenario(game, "scenario-2")
    s1 = position_from_scenario(game, "scenario-1")
    assert H("2219") in ds.map_sources(s2, RULESET, "axis")   # 19.23
    assert H("2219") not in ds.map_sources(s1, RULESET, "axis")


def test_airfields_supply_every_axis_unit_but_only_soviet_airborne(game):
    # 6.33: cut off near Demyansk's airfield, an Axis unit traces to it; a Soviet rifle unit
    # cannot use a captured airfield, a parachute unit can
    pos = position(game, weather="frozen", **{"ax-ir27": "2811"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    g = _one_source_game("2036", airfields=True)
    pos = position(g, weather="frozen", **{"ax-ir27": "2811"})
    result = ds.supply(pos, "axis")
    assert "ax-ir27" in result.supplied and result.source["ax-ir27"] in (H("2711"), H("2912"))
    soviets = position(g, weather="frozen", side="soviet", **{"so-1-87": "2711", "so-204abn": "2710",
                                                               "so-2-87": "2709"})
    res = ds.supply(soviets, "soviet")
    assert "so-204abn" in res.supplied and res.source["so-204abn"] in (H("2711"), H("2912"))
    assert "so-2-87" in res.unsupplied


def test_printed_strongpoint_supplies_only_the_units_on_it(game):
    # 6.34: surround 1811 and 1812; III/26 on the printed Strongpoint is supplied, I/26 next to it is not
    g = _one_source_game("2036")
    pos = position(g, weather="frozen", **{"ax-iii26": "1811", "ax-i26": "1812"})
    result = ds.supply(pos, "axis")
    assert "ax-iii26" in result.supplied and result.source["ax-iii26"] == H("1811")
    assert "ax-i26" in result.unsupplied
    pos.units["m-sp"] = Unit("m-sp", g.counters["m-sp"], None, hex=H("1811"), status={"destroyed"})
    pos.touch()
    assert "ax-iii26" in ds.supply(pos, "axis").unsupplied   # a destroyed one is no source


@pytest.mark.parametrize("limited", [True, False])
def test_constructed_airfield_option(game, limited):
    # 6.35 (defending units only) vs 6.33 (any friendly airfield)
    g = _one_source_game("2036")
    rs = make_ruleset(constructed_airfield_limited=limited)
    pos = position(g, weather="frozen", **{"ax-ir27": "2611", "m-airfield": "2711"})
    assert ("ax-ir27" in ds.supply(pos, "axis", rs).supplied) is (not limited)
    assert "ax-ir27" in ds.supply(pos, "axis", rs, defending={"ax-ir27"}).supplied


def test_supply_is_judged_at_the_moment_of_combat(game):
    # 6.13, 6.43 note: an advance after an earlier combat cuts a defender off
    g = _one_source_game("2036")
    pos = position(g, weather="frozen", **{"ax-ir27": "2031"})
    assert "ax-ir27" in ds.supply(pos, "axis").supplied
    for i, h in enumerate(["1834", "2134", "1833", "2133", "1932", "2132"]):
        pos.units[f"so-ski-{i + 1}"] = Unit(f"so-ski-{i + 1}", g.counters[f"so-ski-{i + 1}"], "soviet", hex=H(h))
    pos.touch()
    assert "ax-ir27" in ds.supply(pos, "axis").unsupplied


# -- 11-13 combat and 17.0 ------------------------------------------------------------------------


def test_odds_rounding_11_52():
    assert [ds.initial_odds(10, d) for d in (2, 3, 4, 5, 6)] == ["5-1", "3-1", "5-2", "2-1", "3-2"]
    assert ds.initial_odds(2, 3) == "1-2" and ds.initial_odds(3, 3) == "1-1" and ds.initial_odds(9, 3) == "3-1"


def test_odds_above_8_1_start_at_8_1():
    assert ds.final_column(24, 2, -2) == ("6-1", 0)   # 11.52 note: 12-1 starts at 8-1, 2L -> 6-1
    assert ds.support_shifts(3) == 2 and ds.support_shifts(1) == 1 and ds.support_shifts(0) == 0


def test_shift_cap_and_below_1_3():
    assert ds.final_column(10, 2, 5) == ds.final_column(10, 2, 3)   # net shift capped at 3
    assert ds.final_column(1, 3, -1) == ("1-3", 1)                   # 12.12: 1-3 and +1 on the die


@pytest.mark.parametrize("minimum,allowed", [("1-3", False), ("1-4", True)])
def test_minimum_odds_option(minimum, allowed):
    # 11.17/11.31 (1-3) vs 12.12 (1-4): 1 against 4
    rs = make_ruleset(minimum_odds=minimum)
    assert (ds.attack_allowed(1, 4, rs) is None) is allowed
    assert ds.attack_allowed(1, 3, rs) is None


def test_cas_example_13_2():
    # Soviet 1 defensive point first; Axis 0, 1 or 3 points -> 1L, none, 1R
    assert [ds.support_shifts(a) - ds.support_shifts(1) for a in (0, 1, 3)] == [-1, 0, 1]


def test_comprehensive_example_17_0():
    pos = load_position(DATA / "combat-17-0.yaml")
    assert check_stacking(pos, RULESET) == []
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("1810"))        # 1910's ZOC reaches 1810 (11.15a)
    assert not pos.map.grid.adjacent(H("1710"), H("1910"))
    attackers = ["so-87", "so-1-87", "so-1318", "so-1-1318", "so-2-87"]
    attack = sum(pos.unit(u).value("attack") for u in attackers)
    defence = pos.unit("ax-iii26").value("defence")
    assert (attack, defence) == (9, 3)
    # artillery at 1609 is in range (computed 3; the text says "four hexes", range 4 covers both)
    assert pos.map.grid.distance(H("1609"), H("1811")) == 3
    assert ds.artillery_may_fire(pos, RULESET, "so-231-387", [H("1811")]) is None
    assert ds.bomber_may_support(pos, [H("1811")])                       # Strongpoint (13.25)
    support = ds.support_shifts(2 + 1) - ds.support_shifts(1)           # 2R - 1L = 1R
    strongpoint = -1                                                     # 14.21
    assert ds.final_column(attack, defence, support + strongpoint) == ("3-1", 0)
    assert ds.no_retreat_drm(pos, "ax-iii26") == 1                       # 12.42c: printed Strongpoint
    # combat 2: the engineer alone, 2 vs 3; air 1 vs 1; the Strongpoint shift gives 1-3
    assert ds.initial_odds(2, 3) == "1-2"
    assert ds.final_column(2, 3, ds.support_shifts(1) - ds.support_shifts(1) - 1) == ("1-3", 0)
    # the engineer retreats to 1809 (adjacent to 1810, away from 1910)
    pos.units["so-28-238"].hex = H("1810")
    pos.touch()
    assert H("1809") in ds.retreat_destinations(pos, RULESET, "so-28-238", H("1910"))
    # in the second Operation 231+387 is Fired (10.41)
    pos.units["so-231-387"].status.add("fired")
    assert ds.artillery_may_fire(pos, RULESET, "so-231-387", [H("1811")]).rule == "10.13b"


@pytest.mark.parametrize("adjacent_ok", [True, False])
def test_artillery_in_enemy_zoc_option(game, adjacent_ok):
    # 10.13e vs 10.32: artillery next to the defender may support an attack on it (option)
    rs = make_ruleset(artillery_in_zoc_supports_adjacent=adjacent_ok)
    pos = position(game, weather="frozen", side="soviet", turn=9, **{"so-231-387": "1710", "so-1318": "1710",
                                                                     "ax-iii26": "1811"})
    assert (ds.artillery_may_fire(pos, rs, "so-231-387", [H("1811")]) is None) is adjacent_ok


def test_hexside_benefit_examples_11_22(game):
    pos = position(game, weather="dry", side="soviet", **{"so-180": "1824", "ax-ir27": "1923", "ax-ir48": "1924"})
    # A: defenders in 1923 and 1924, attackers in 1824 -> the major-river benefit
    assert ds.major_river_benefit(pos, {H("1824"): ["so-180"]}, hexes("1923 1924"))
    # B: defender in 1824, attackers in 1923 and 1924 -> none
    pos = position(game, weather="dry", **{"ax-ir27": "1923", "ax-ir48": "1924", "so-180": "1824"})
    assert not ds.major_river_benefit(pos, {H("1923"): ["ax-ir27"], H("1924"): ["ax-ir48"]}, [H("1824")])


def test_odds_halving_3_51():
    assert ds.halved_attack([5], [3, 2]) == 7                     # TC-SUP-05
    assert ds.halved_attack([], [1]) == 0                          # reduced to zero: cancelled (3.51d)


# -- 12.3 retreats ------------------------------------------------------------------------------


def test_retreat_example_12_44():
    pos = load_position(DATA / "retreat-12-44.yaml")
    grid = pos.map.grid
    assert {grid.format(h) for h in ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"))} == \
        {"2731", "2730", "2831"}
    # unit #1 has no normal retreat but may try through the ZOC (+1 only if it has an EM box)
    assert ds.retreat_destinations(pos, RULESET, "so-1-87", H("2733")) == {}
    assert ds.zoc_retreat_possible(pos, RULESET, "so-1-87", H("2733")) is None
    assert ds.zoc_retreat_drm(pos, "so-1-87") == 0 and ds.zoc_retreat_drm(pos, "so-1-87", storm=True) == 1
    # artillery in the same spot is simply eliminated (12.43b)
    pos.units["so-231-387"] = Unit("so-231-387", pos.game.counters["so-231-387"], "soviet", hex=H("2733"))
    pos.touch()
    assert ds.zoc_retreat_possible(pos, RULESET, "so-231-387", H("2733")).rule == "12.43b"


def test_retreat_may_end_in_friendly_occupied_zoc_not_vacant(game):
    # 12.35
    pos = position(game, weather="frozen", **{"so-1-87": "2632", "ax-ss-baum": "2732", "ax-ss-kurtz": "2532",
                                              "ax-ss-kleffner": "2530"})
    ends = ds.retreat_destinations(pos, RULESET, "so-1-87", H("2632"))
    assert H("2731") not in ends   # vacant and in Axis ZOC
    pos.units["so-2-87"] = Unit("so-2-87", game.counters["so-2-87"], "soviet", hex=H("2731"))
    pos.touch()
    assert H("2731") in ds.retreat_destinations(pos, RULESET, "so-1-87", H("2632"))


def test_printed_units_cannot_retreat(game):
    pos = position(game, **{"ax-map-1": "1624"})
    assert ds.retreat_destinations(pos, RULESET, "ax-map-1") == {}   # 12.33
    assert ds.zoc_retreat_possible(pos, RULESET, "ax-map-1").rule == "12.43b"


# -- 16.14 and 19.24 ------------------------------------------------------------------------------


def test_demyansk_surrounded_ignores_airfields(game):
    # the open map: Demyansk traces by road to the map edge
    assert not ds.demyansk_surrounded(position(game, weather="frozen"))
    # a ring of Soviet units three hexes out cuts every route; the airfield inside does not help
    units = {f"so-180__{i}": game.main_map.format(h) for i, h in enumerate(game.main_map.grid.ring(H("2711"), 3))}
    pos = position(game, weather="frozen", **units)
    assert ds.demyansk_surrounded(pos, RULESET)
    pos.units["so-1-87"] = Unit("so-1-87", game.counters["so-1-87"], "soviet", hex=H("2711"))
    pos.touch()
    assert not ds.demyansk_surrounded(pos)   # Soviet-held: no longer Axis-controlled


def test_bruckenschlag_victory_needs_a_route_to_2219_or_2518(game):
    pos = position_from_scenario(game, "scenario-2")
    open_map = position(game, weather="frozen")
    assert ds.bruckenschlag_won(open_map)
    assert not ds.bruckenschlag_won(pos)   # GT10: the pocket is cut off when the scenario starts
    cut = position(game, weather="frozen", **{f"so-180__{i}": game.main_map.format(h)
                                              for i, h in enumerate(game.main_map.grid.ring(H("2219"), 2)
                                                                    + game.main_map.grid.ring(H("2518"), 2))})
    assert not ds.bruckenschlag_won(cut)


def test_scenario_two_uses_only_the_map_west_of_1117_3917(game):
    pos = position_from_scenario(game, "scenario-2")
    unit = next(u for u in pos.on_map("axis") if u.hex.row == 17 and u.value("movement", 0) > 0)
    outside = Hex(unit.hex.col, 16)
    check = check_path(pos, RULESET, unit.id, [unit.hex, outside])
    assert not check.ok and check.reason.rule == "19.22"
    assert all(u.hex.row >= 17 for u in pos.on_map())
    # the pocket draws on the scenario's own sources 2219 and 2518 (19.23)
    result = ds.supply(pos, "axis")
    assert any(result.source[u] in (H("2219"), H("2518")) for u in result.supplied)


# -- 5.34, 7.1 and 7.2 ------------------------------------------------------------------------------


def test_2grc_exit(game):
    # 1 MP to leave at 4027 or 4031, full strength only; strategic movement may be used (5.34)
    pos = position(game, weather="dry", side="soviet", turn=5, **{"so-2grc-2": "3731", "so-2grc-3": "3531"})
    assert ds.grc_exit(pos, RULESET, "so-2grc-2") is None                # 3 road hexes, 1 MP left
    assert ds.grc_exit(pos, RULESET, "so-2grc-3").code == Code.NOT_ENOUGH_MP   # 5 road hexes, MA 4
    assert ds.grc_exit(pos, RULESET, "so-2grc-3", "strategic") is None   # MA 6 leaves 1 MP
    pos.units["so-2grc-2"].steps = 1
    assert ds.grc_exit(pos, RULESET, "so-2grc-2").rule == "5.34"
    pos.units["so-180"] = Unit("so-180", game.counters["so-180"], "soviet", hex=H("3731"))
    pos.touch()
    assert "not a 2GRC unit" in ds.grc_exit(pos, RULESET, "so-180").text


def test_air_transport(game):
    pos = position(game, weather="frozen", turn=5, **{"ax-ir27": "box:agn", "ax-pi-12": "box:agn",
                                                      "ax-pz203": "box:agn"})
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2711")) is None               # 2 points of infantry
    assert ds.air_transport(pos, RULESET, ["ax-ir27", "ax-pi-12"], H("2711")).rule == "7.13"
    assert ds.air_transport(pos, RULESET, "ax-pz203", H("2711")).rule == "7.14"
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2710")).rule == "7.11"        # not an airfield
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2711"), storm=True).rule == "7.16"
    early = position(game, weather="frozen", turn=4, **{"ax-ir27": "box:agn"})
    assert ds.air_transport(early, RULESET, "ax-ir27", H("2711")).rule == "7.15"
    zoc = position(game, weather="frozen", turn=5, **{"ax-ir27": "box:agn", "so-1-87": "2710", "ax-ir48": "2711"})
    assert ds.air_transport(zoc, RULESET, "ax-ir27", H("2711")).rule == "7.11"        # in an enemy ZOC


def test_airdrop(game):
    pos = position(game, weather="frozen", side="soviet", turn=5, **{"so-204abn": "box:valday", "ax-ir27": "2711"})
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2415")) is None
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2711")).rule == "7.23b"   # enemy unit
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2710")).rule == "7.23b"   # enemy ZOC
    assert ds.airdrop(pos, RULESET, "so-204abn", H("1811")).rule == "7.23b"   # active Strongpoint
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2415"), storm=True).rule == "7.22"


def test_retreat_toward_the_supply_source_12_37(game):
    # from 2632 (attacked from 2532) the ends are 2731, 2730 and 2831 (12.44); if the unit traced
    # to a source at 1827 for this combat, 2831 would take it farther away and is dropped
    pos = load_position(DATA / "retreat-12-44.yaml")
    ends = ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("1827"))
    assert set(ends) == {H("2731"), H("2730")}
    # when every end is farther, the retreat is still allowed ("unless no alternate position")
    assert set(ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("2036"))) == \
        {H("2731"), H("2730"), H("2831")}


def test_no_defender_retreat_without_a_surviving_attacker_12_38():
    # a one-step attacker at 1-3 rolls 1: A1/DR; the attacker is eliminated, the defender stays
    assert ds.final_column(1, 3, 0) == ("1-3", 0)
    assert not ds.defender_must_retreat(True, attackers_left=0)
    assert ds.defender_must_retreat(True, attackers_left=1)


def test_2grc_delay_examples_5_34():
    # required by the end of GT5 (roll 3), historically completed in GT6: 6 VP lost
    assert ds.grc_penalty("scenario-3", 5, 6) == {"vp": -6}
    # never completed: GT5, 6, 7 and the GT8 Recovery Phase: the maximum of 24 VP
    assert ds.grc_penalty("scenario-3", 5, None) == {"vp": -24}
    # on time, or never required
    assert ds.grc_penalty("scenario-3", 5, 5) == {"vp": 0} and ds.grc_penalty("scenario-3", None, None) == {"vp": 0}
    # Scenario 1: one more victory location per turn of delay
    assert ds.grc_penalty("scenario-1", 5, 6) == {"locations_needed": 6}


def test_campaign_starts_before_the_pocket_closes(game):
    # GT1 is 23 January 1942; the pocket closed in February: Demyansk still traces to the map edge
    pos = position_from_scenario(game, "scenario-1")
    assert not ds.demyansk_surrounded(pos)
    assert ds.supply(pos, "axis").unsupplied == set()


def test_cli_supply_uses_the_game_sources_and_blocks(game, tmp_path, capsys):
    # `hexforge referee supply` runs the same search as ds.supply: III/26, surrounded on its
    # printed Strongpoint 1811, is supplied by it (6.34) and the surrounding Soviets are not
    # blocked by it
    import json

    from toolkit.cli import main
    ring = [game.main_map.format(n) for n in game.main_map.grid.neighbours(H("1811"))]
    lines = ["game: demyansk-shield", "turn: 3", "side: axis", "weather: frozen", "units:",
             '  ax-iii26: {hex: "1811"}']
    lines += [f'  so-ski-{i + 1}: {{hex: "{h}"}}' for i, h in enumerate(ring)]
    path = tmp_path / "sp.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit) as exc:
        main(["referee", "supply", "-p", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)["supply"]
    assert exc.value.code == 0
    pos = load_position(path)
    expected = ds.supply(pos, "axis")
    assert out["supplied"] == sorted(expected.supplied) == ["ax-iii26"]
    assert out["paths"]["ax-iii26"] == ["1811"]
