"""Demyansk Shield zones of control and infiltration (3.2, 8.2, 9.2)."""

from __future__ import annotations

import pytest

from toolkit.referee import Code, Unit, check_path, load_position
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

from .helpers import DATA, H, costs, hexes, position

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
