"""Velikiye Luki 1942-1943 (Vae Victis): the data and the ruleset.

Every worked example of the rulebook that the referee covers (3.2 road and rail, the 3.2
bridge, 4.4 ski infiltration, the retreats of Combat 1 and Combat 2) is a position file in
tests/data/velikiye-luki with its known answers; positions built here isolate each rule. Where
the rulebook contradicts itself the ruling is an option and both settings are tested.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from toolkit.errors import RulesError
from toolkit.io import load_game
from toolkit.referee import (Position, Unit, apply_supply, check_path, check_stacking, get_ruleset,
                             load_position, position_from_scenario, reachable, ruleset_for, supply_status,
                             zoc_counts)
from toolkit.rulesets.velikiye_luki import (DEFAULTS, RULESET, check_retreat, encircled, encirclement, lose_step,
                                            reintegrate, retreat_options, split_division)
from toolkit.validate import validate_game

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = sorted((ROOT / "tests" / "data" / "velikiye-luki").glob("*.yaml"))


@pytest.fixture(scope="module")
def game():
    return load_game(str(ROOT / "counters" / "velikiye-luki"))


def _pos(game, units: dict, side="german", turn=3, weather="overcast", **state) -> Position:
    """A position with ``units`` (id -> hex id) and per-unit state (id -> dict of Unit fields)."""
    pos = Position(game=game, map_id="main", side=side, turn=turn, weather=weather)
    for uid, hex_id in units.items():
        counter = game.counters[uid.split("#")[0]]
        pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=game.main_map.grid.parse(hex_id))
        for key, value in state.get(uid, {}).items():
            setattr(pos.units[uid], key, value)
    return pos


def _hexes(pos, text: str):
    return [pos.map.grid.parse(t) for t in text.split()]


# -- the position files: worked examples and isolated rules ----------------------------------


@pytest.mark.parametrize("path", POSITIONS, ids=[p.stem for p in POSITIONS])
def test_position_file(path):
    pos = load_position(path)
    rs = ruleset_for(pos.game)
    expect = pos.expect
    assert expect, f"{path.name} has no expect: block"
    fmt = pos.map.format
    # paths, supply, statuses and stacking: tests/referee/test_positions.py runs these files too
    if "encircled" in expect:
        assert encircled(pos, rs) == expect["encircled"], encirclement(pos, rs)
    for uid, hexes in expect.get("retreat_options", {}).items():
        assert sorted(fmt(h) for h in retreat_options(pos, rs, uid)) == sorted(hexes.split())
    for case in expect.get("retreats", []):
        check = check_retreat(pos, rs, case["units"], _hexes(pos, case["path"]))
        assert check.ok == case["legal"], (case, check.reason)
        if case["legal"]:
            assert check.losses == case["losses"], (case, check.steps)
        else:
            assert check.reason.rule == "6.5.1"
            if "step" in case:
                assert check.failed_step == case["step"], (case, check.reason)
        assert check.eliminated == case.get("eliminated", False)


# -- the data ---------------------------------------------------------------------------


def test_game_validates_clean(game):
    report = validate_game(game)
    assert report.ok and not report.warnings, [f.format() for f in report.findings]
    assert report.provenance["map main: hexes"]["total"] == 312        # 8 x 20 + 8 x 19


def test_grid_matches_every_adjacency_of_the_examples(game):
    grid = game.main_map.grid
    pairs = ["717 816", "516 615", "615 614", "614 714", "714 713", "1109 1008", "1008 909", "909 808",
             "709 710", "119 219"]
    for pair in pairs:
        a, b = (grid.parse(t) for t in pair.split())
        assert grid.adjacent(a, b), pair
    assert not grid.adjacent(grid.parse("1010"), grid.parse("909"))
    assert grid.parse("717") == grid.parse("0717")
    assert grid.parse("120") in grid and grid.parse("219") in grid and grid.parse("220") not in grid


def test_cited_hexes_hold_what_the_rulebook_says(game):
    m = game.main_map
    grid = m.grid
    for hex_id in ("709", "710", "714"):
        assert m.terrain(grid.parse(hex_id)) == "clear"
        assert m.hexes[grid.parse(hex_id)].source.rule in ("4.4", "3.2")
    side = grid.hexside(grid.parse("717"), grid.parse("816"))
    assert {"major_river", "bridge"} <= set(m.hexside_codes(side))
    links = m.line_links()
    assert "road" in links[grid.hexside(grid.parse("516"), grid.parse("615"))]
    assert "rail" in links[grid.hexside(grid.parse("614"), grid.parse("714"))]
    city = next(p for p in m.places if p.name == "Velikiye Luki")
    assert "city" in m.features(city.hex) and city.source.is_estimated


def test_every_estimate_says_so(game):
    m = game.main_map
    uncited = [h for h, cell in m.hexes.items() if not cell.source.rule and not cell.source.estimated]
    assert not uncited
    assert all(c.source.rule or c.source.estimated for c in game.counters.values())


def test_order_of_battle(game):
    scen = game.scenario("24-november-1942")
    assert len(scen.turns) == 11 and scen.weather(1) == "overcast" and scen.first_side == "soviet"
    placed = {u for u in set(scen.placed_units()) | set(scen.arriving_units()) if game.counters[u].kind != "marker"}
    units = {c.id for c in game.counters.values() if c.kind in ("unit", "hq") and not c.id.startswith("cadre")}
    assert units == placed
    by_turn = {}
    for r in scen.reinforcements:
        by_turn.setdefault((r.side, r.turn), []).extend(r.units)
    assert len(by_turn[("german", 2)]) == 14          # 20M x2, WLR1, 505, 506, 8/29/12Pz, 3 more, 8 Pz x5
    assert len(by_turn[("soviet", 2)]) == 8           # 44S, 45S, 26 BF, 2M x4, HQ 2M
    assert len(by_turn[("soviet", 4)]) == 6
    divisions = [c for c in game.counters.values() if c.side == "soviet" and c.size == "XX" and c.kind == "unit"]
    assert divisions and all(c.steps == 3 for c in divisions)     # 1.7.1
    hqs = {c.id: c for c in game.counters.values() if c.kind == "hq"}
    assert set(hqs) == {"hq-chevalerie", "hq-83", "hq-wohler", "hq-5g", "hq-3c", "hq-2m"}
    assert all(isinstance(c.front.get("supports"), int) and c.front.get("range") for c in hqs.values())
    mrls = [c for c in game.counters.values() if c.type == "rocket artillery"]
    assert {c.id for c in mrls} == {"swr3", "wlr1", "mrl38g"}
    assert all(c.front["range"] == 2 and c.front["shift"] == "+1" for c in mrls)   # 1.5


def test_scenario_setup_is_legal_and_supplied(game):
    pos = position_from_scenario(game, "24-november-1942")
    rs = ruleset_for(game)
    assert check_stacking(pos, rs) == []
    for side in ("german", "soviet"):
        assert not supply_status(pos, rs, side).unsupplied


def test_build_default_is_velikiye_luki(game):
    from toolkit.io.games import default_game
    assert default_game() == "velikiye-luki"


# -- movement ---------------------------------------------------------------------------


def test_movement_allowances(game):
    pos = _pos(game, {"df357": "1410", "bm18-2m": "1612", "hq-3c": "1411", "ski44": "1607",
                      "mrl38g": "1508", "festung-east": "1108"},
               **{"df357": {"status": {"unsupplied"}}, "bm18-2m": {"status": {"isolated"}}})
    ma = {u: RULESET.movement_allowance(pos, pos.units[u], RULESET.mode(None)) for u in pos.units}
    assert ma == {"df357": 3, "bm18-2m": 8, "hq-3c": 8, "ski44": 6, "mrl38g": 8, "festung-east": 0}
    assert reachable(pos, RULESET, "festung-east").refused.rule == "1.6"


def test_ski_pays_one_in_swamp_infantry_two(game):
    # 1106 and 1105 are swamp off the road from 1205 (clear, east of the Lovat)
    pos = _pos(game, {"ski44": "1206", "bf26": "1206", "bc184": "1206"}, side="soviet")
    for uid, spent in (("ski44", 1), ("bf26", 2), ("bc184", 3)):
        check = check_path(pos, RULESET, uid, _hexes(pos, "1206 1106"))
        assert check.ok and check.steps[-1]["spent"] == spent, uid


@pytest.mark.parametrize("option, legal", [("prohibited", False), ("1", True)])
def test_lake_for_infantry_is_an_option(game, option, legal):
    pos = _pos(game, {"s795": "717", "pz1-15": "717"})
    rs = RULESET.with_options(lake_infantry=option)
    check = check_path(pos, rs, "s795", _hexes(pos, "717 718"))
    assert check.ok == legal
    if not legal:
        assert check.reason.rule == "TEC 12"
    assert check_path(pos, rs, "pz1-15", _hexes(pos, "717 718")).steps[-1]["spent"] == 2


def test_lake_is_printed_prohibited_to_infantry_and_the_option_lifts_it(game):
    # the map holds the TEC's "–" (prohibited); option "1" is the step hook lifting it
    lake = game.main_map.terrain_types["lake"].move
    assert lake.lookup("infantry", "overcast") == (True, None) and lake.lookup("ski", "overcast") == (True, None)
    pos = _pos(game, {"s795": "717"})
    lake_hex = pos.map.grid.parse("718")
    assert lake_hex not in reachable(pos, RULESET, "s795")
    wading = RULESET.with_options(lake_infantry="1")
    reach = reachable(pos, wading, "s795")
    assert lake_hex in reach and reach.cost(lake_hex) == 1
    assert check_path(pos, wading, "s795", reach.path(lake_hex)).ok


def test_zoc_to_zoc_of_the_same_unit_is_data(game):
    # 4.2.1 is ZocRules(zoc_to_zoc="same-unit"); only the ski exception (4.4) is Python
    assert RULESET.zoc.zoc_to_zoc == "same-unit"
    pos = load_position(ROOT / "tests" / "data" / "velikiye-luki" / "ski-infiltration-4-4.yaml")
    refused = check_path(pos, RULESET, "bf26", _hexes(pos, "709 710"))
    assert refused.reason.code.value == "zoc-to-zoc" and refused.reason.rule == "4.2.1"
    assert "giehl" in refused.reason.text
    assert check_path(pos, RULESET, "ski44", _hexes(pos, "709 710 711")).ok


def test_options_resolve_from_ruleset_then_scenario_then_defaults(game):
    pos = position_from_scenario(game, "24-november-1942")
    assert RULESET.option(pos, "mech_road_cost") == DEFAULTS["mech_road_cost"] == "1/2"
    assert RULESET.with_options(mech_road_cost="1").option(pos, "mech_road_cost") == "1"
    with pytest.raises(RulesError):
        RULESET.with_options(mech_road_cost="2")
    with pytest.raises(RulesError):
        RULESET.with_options(no_such_rule=True)


def test_zoc_stop_and_leave_cost(game):
    pos = _pos(game, {"bf26": "1314", "giehl": "1012"}, side="soviet")
    reach = reachable(pos, RULESET, "bf26")
    h = pos.map.grid.parse("1113")                     # next to Giehl: entering it ends the move
    assert h in reach and reach.mp_left(h) == 0
    pos2 = _pos(game, {"bf26": "1113", "giehl": "1012"}, side="soviet")
    check = check_path(pos2, RULESET, "bf26", _hexes(pos2, "1113 1213"))
    assert check.ok and check.steps[-1]["spent"] == 3  # +2 to leave the ZOC, 1 for wooded (infantry)


def test_friendly_unit_does_not_negate_zoc_for_movement(game):
    pos = _pos(game, {"bf26": "1314", "bf31": "1113", "giehl": "1012"}, side="soviet")
    check = check_path(pos, RULESET, "bf26", _hexes(pos, "1314 1213 1113 1112"))
    assert not check.ok and check.reason.code.value == "zoc-stop"


# -- supply -----------------------------------------------------------------------------


def test_supply_ladder_isolated_then_unsupplied(game):
    units = {"g504-291": "1305", "df381": "1106", "dfg46": "1307", "df257": "1506", "dfg21": "1504",
             "df28": "1303", "df350": "1104"}
    pos = _pos(game, units)
    for expected in ("isolated", "unsupplied", "unsupplied"):
        result = supply_status(pos, RULESET, "german")
        apply_supply(pos, RULESET, result)
        assert pos.units["g504-291"].status == {expected}
    ma = RULESET.movement_allowance(pos, pos.units["g504-291"], RULESET.mode(None))
    assert ma == 3                                       # 8.3: half movement
    pos.place("df28", None)
    pos.place("df350", None)
    apply_supply(pos, RULESET, supply_status(pos, RULESET, "german"))
    assert pos.units["g504-291"].status == set()


def test_enemy_zoc_cancels_an_edge_hex(game):
    # 8.2: S 591 in 0203 has Soviet units on four sides; its only way out is into the west-edge
    # hexes 0103 and 0104, which the Soviets in 0202 and 0204 hold in their ZOC: "the presence
    # of an enemy unit or enemy ZoC in one of these hexes cancels the LoS in this hex".
    ring = {"s591": "0203", "bf31": "0202", "bf26": "0204", "bf100": "0303", "bf32": "0304"}
    pos = _pos(game, ring)
    assert pos.map.grid.parse("0103") in RULESET.supply_sources(pos, "german")
    assert "s591" in supply_status(pos, RULESET, "german").unsupplied
    # a German unit in the edge hex negates the ZOC there (8.1)
    pos2 = _pos(game, {**ring, "s663": "0103"})
    assert {"s591", "s663"} <= supply_status(pos2, RULESET, "german").supplied


def test_festung_is_left_out_of_the_supply_check(game):
    # estimated (the rulebook is silent): the encircled garrison's attrition is the Festung track
    ring = {"dfg9": "1007", "df357": "1109", "rc36": "1207", "festung-east": "1108", "festung-west": "1108",
            "s591": "1208"}
    pos = _pos(game, ring)
    result = supply_status(pos, RULESET, "german")
    assert "festung-east" not in result.status and "festung-west" not in result.status
    assert "s591" in result.status


# -- Velikiye Luki -------------------------------------------------------------------------


def test_festung_zoc_depends_on_encirclement(game):
    ring = {"dfg9": "1007", "df357": "1109", "rc36": "1207", "festung-east": "1108", "festung-west": "1108"}
    pos = _pos(game, ring, side="soviet")
    index = {h: i for i, h in enumerate(pos.map.grid.hexes())}
    assert encircled(pos, RULESET)
    assert zoc_counts(pos, RULESET, "german")[index[pos.map.grid.parse("1107")]] == 0
    broken = dict(ring)
    broken["rc36"] = "1306"                              # the ring opens at 1207
    pos2 = _pos(game, broken, side="soviet")
    assert not encircled(pos2, RULESET)
    assert any("1207" in why for why in encirclement(pos2, RULESET))
    assert zoc_counts(pos2, RULESET, "german")[index[pos.map.grid.parse("1107")]] == 2


def test_ruleset_is_found_by_the_game(game):
    assert ruleset_for(game) is RULESET
    assert get_ruleset("velikiye-luki") is RULESET
    assert RULESET.stacking.when == "phase" and RULESET.zoc.leave_cost == 2
    assert Fraction(RULESET.option(position_from_scenario(game), "mech_road_cost")) == Fraction(1, 2)


# -- cadres (1.7) -----------------------------------------------------------------------


def test_split_and_reintegrate_a_division(game):
    pos = _pos(game, {"df357": "1410", "rc27": "1410", "dfg21": "1314"}, side="soviet")
    cadre = split_division(pos, "df357")                      # 1.7.2: the 357th example
    assert pos.units["df357"].steps == 2 and pos.units[cadre].hex == pos.units["df357"].hex
    assert pos.units[cadre].counter.id == "cadre-c"           # the division's quality
    assert check_stacking(pos, RULESET) == []                # reduced division + cadre = a division (5.1)
    with pytest.raises(RulesError, match="1.7.2"):
        split_division(pos, "df357")                         # not at full strength any more
    reintegrate(pos, "df357", cadre)                         # 1.7.3
    assert pos.units["df357"].steps == 3 and cadre not in pos.units
    guards = split_division(pos, "dfg21")
    weaker = split_division(pos, "df357")                    # a C cadre
    pos.place(weaker, pos.units["dfg21"].hex)
    with pytest.raises(RulesError, match="equal or better"):
        reintegrate(pos, "dfg21", weaker)                    # C is worse than B
    pos.place(guards, pos.units["df357"].hex)
    reintegrate(pos, "df357", guards)                        # B is better than C: allowed
    assert pos.units["df357"].steps == 3


def test_three_step_division_becomes_a_cadre(game):
    # 1.7.1, the 21st Guards example: front, back, then a cadre of the same quality
    pos = _pos(game, {"dfg21": "1314"}, side="soviet")
    assert lose_step(pos, "dfg21") is None and pos.units["dfg21"].steps == 2
    cadre = lose_step(pos, "dfg21")
    assert "dfg21" not in pos.units and pos.units[cadre].counter.id == "cadre-b"
    assert lose_step(pos, cadre) is None and pos.units[cadre].box == "eliminated"


@pytest.mark.parametrize("name, units", [
    ("ski-infiltration-4-4", ["ski44", "bf26", "bf100"]),
    ("movement-3-2-example", ["g3-185", "s591", "pz8-29-12"]),
    ("movement-3-2-stacks", ["a59-8pz", "s663", "pz10-8pz"]),
    ("festung-encircled-7", ["rc27", "dfg9"]),
])
def test_every_reachable_hex_has_a_legal_cheapest_path(name, units):
    # the search and the step-by-step check agree through every hook
    pos = load_position(ROOT / "tests" / "data" / "velikiye-luki" / f"{name}.yaml")
    for uid in units:
        reach = reachable(pos, RULESET, uid)
        assert len(reach) > 0
        for h in reach.hexes():
            check = check_path(pos, RULESET, uid, reach.path(h))
            assert check.ok, (uid, pos.map.format(h), check.reason)
            assert check.steps[-1]["spent"] == reach.cost(h)
