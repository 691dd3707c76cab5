"""Velikiye Luki movement: terrain by class, lakes, ZOC costs, the same-unit ZOC rule and ski
infiltration (3, 4.2-4.4, TEC); every reachable hex has a legal cheapest path."""

from __future__ import annotations

import pytest

from toolkit.referee import check_path, load_position, reachable
from toolkit.rulesets.velikiye_luki import RULESET

from .helpers import ROOT, hex_list, position


def test_ski_pays_one_in_swamp_infantry_two(game):
    # 1106 and 1105 are swamp off the road from 1205 (clear, east of the Lovat)
    pos = position(game, {"ski44": "1206", "bf26": "1206", "bc184": "1206"}, side="soviet")
    for uid, spent in (("ski44", 1), ("bf26", 2), ("bc184", 3)):
        check = check_path(pos, RULESET, uid, hex_list(pos, "1206 1106"))
        assert check.ok and check.steps[-1]["spent"] == spent, uid


@pytest.mark.parametrize("option, legal", [("prohibited", False), ("1", True)])
def test_lake_for_infantry_is_an_option(game, option, legal):
    pos = position(game, {"s795": "717", "pz1-15": "717"})
    rs = RULESET.with_options(lake_infantry=option)
    check = check_path(pos, rs, "s795", hex_list(pos, "717 718"))
    assert check.ok == legal
    if not legal:
        assert check.reason.rule == "TEC 12"
    assert check_path(pos, rs, "pz1-15", hex_list(pos, "717 718")).steps[-1]["spent"] == 2


def test_lake_is_printed_prohibited_to_infantry_and_the_option_lifts_it(game):
    # the map holds the TEC's "–" (prohibited); option "1" is the step hook lifting it
    lake = game.main_map.terrain_types["lake"].move
    assert lake.lookup("infantry", "overcast") == (True, None) and lake.lookup("ski", "overcast") == (True, None)
    pos = position(game, {"s795": "717"})
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
    refused = check_path(pos, RULESET, "bf26", hex_list(pos, "709 710"))
    assert refused.reason.code.value == "zoc-to-zoc" and refused.reason.rule == "4.2.1"
    assert "giehl" in refused.reason.text
    assert check_path(pos, RULESET, "ski44", hex_list(pos, "709 710 711")).ok


def test_zoc_stop_and_leave_cost(game):
    pos = position(game, {"bf26": "1314", "giehl": "1012"}, side="soviet")
    reach = reachable(pos, RULESET, "bf26")
    h = pos.map.grid.parse("1113")                     # next to Giehl: entering it ends the move
    assert h in reach and reach.mp_left(h) == 0
    pos2 = position(game, {"bf26": "1113", "giehl": "1012"}, side="soviet")
    check = check_path(pos2, RULESET, "bf26", hex_list(pos2, "1113 1213"))
    assert check.ok and check.steps[-1]["spent"] == 3  # +2 to leave the ZOC, 1 for wooded (infantry)


def test_friendly_unit_does_not_negate_zoc_for_movement(game):
    pos = position(game, {"bf26": "1314", "bf31": "1113", "giehl": "1012"}, side="soviet")
    check = check_path(pos, RULESET, "bf26", hex_list(pos, "1314 1213 1113 1112"))
    assert not check.ok and check.reason.code.value == "zoc-stop"


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
