"""Velikiye Luki: the game data, the ruleset's parts, options and hooks (movement allowance,
supply, stacking categories)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.referee import (apply_supply, check_stacking, get_ruleset, position_from_scenario, reachable, ruleset_for,
                             supply_status)
from toolkit.rulesets.velikiye_luki import DEFAULTS, RULESET
from toolkit.validate import validate_game

from .helpers import position


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
    for hex_id in ("710", "714"):
        assert m.terrain(grid.parse(hex_id)) == "clear"
        assert m.hexes[grid.parse(hex_id)].source.rule in ("4.4", "3.2")
    # audit: 4.4's ski example starts in 709 and pays clear terrain for the hexes it enters
    # (710 and an unnamed third), so 709's terrain is an estimate, not a citation
    assert m.terrain(grid.parse("709")) == "clear" and m.hexes[grid.parse("709")].source.is_estimated
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
    pos = position(game, {"df357": "1410", "bm18-2m": "1612", "hq-3c": "1411", "ski44": "1607",
                      "mrl38g": "1508", "festung-east": "1108"},
               **{"df357": {"status": {"unsupplied"}}, "bm18-2m": {"status": {"isolated"}}})
    ma = {u: RULESET.movement_allowance(pos, pos.units[u], RULESET.mode(None)) for u in pos.units}
    assert ma == {"df357": 3, "bm18-2m": 8, "hq-3c": 8, "ski44": 6, "mrl38g": 8, "festung-east": 0}
    assert reachable(pos, RULESET, "festung-east").refused.rule == "1.6"


def test_options_resolve_from_ruleset_then_scenario_then_defaults(game):
    pos = position_from_scenario(game, "24-november-1942")
    assert RULESET.option(pos, "mech_road_cost") == DEFAULTS["mech_road_cost"] == "1/2"
    assert RULESET.with_options(mech_road_cost="1").option(pos, "mech_road_cost") == "1"
    with pytest.raises(RulesError):
        RULESET.with_options(mech_road_cost="2")
    with pytest.raises(RulesError):
        RULESET.with_options(no_such_rule=True)


# -- supply -----------------------------------------------------------------------------


def test_supply_ladder_isolated_then_unsupplied(game):
    units = {"g504-291": "1305", "df381": "1106", "dfg46": "1307", "df257": "1506", "dfg21": "1504",
             "df28": "1303", "df350": "1104"}
    pos = position(game, units)
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
    pos = position(game, ring)
    assert pos.map.grid.parse("0103") in RULESET.supply_sources(pos, "german")
    assert "s591" in supply_status(pos, RULESET, "german").unsupplied
    # a German unit in the edge hex negates the ZOC there (8.1)
    pos2 = position(game, {**ring, "s663": "0103"})
    assert {"s591", "s663"} <= supply_status(pos2, RULESET, "german").supplied


def test_festung_is_left_out_of_the_supply_check(game):
    # estimated (the rulebook is silent): the encircled garrison's attrition is the Festung track
    ring = {"dfg9": "1007", "df357": "1109", "rc36": "1207", "festung-east": "1108", "festung-west": "1108",
            "s591": "1208"}
    pos = position(game, ring)
    result = supply_status(pos, RULESET, "german")
    assert "festung-east" not in result.status and "festung-west" not in result.status
    assert "s591" in result.status


def test_ruleset_is_found_by_the_game(game):
    assert ruleset_for(game) is RULESET
    assert get_ruleset("velikiye-luki") is RULESET
    assert RULESET.stacking.when == "phase" and RULESET.zoc.leave_cost == 2
    assert Fraction(RULESET.option(position_from_scenario(game), "mech_road_cost")) == Fraction(1, 2)
