"""Demyansk Shield: the game data, the ruleset and stacking (3.3)."""

from __future__ import annotations

import pytest

from toolkit.referee import (Code, Unit, check_stacking, position_from_scenario, ruleset_for)
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

from .helpers import H, position

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


def test_campaign_starts_before_the_pocket_closes(game):
    # GT1 is 23 January 1942; the pocket closed in February: Demyansk still traces to the map edge
    pos = position_from_scenario(game, "scenario-1")
    assert not ds.demyansk_surrounded(pos)
    assert ds.supply(pos, "axis").unsupplied == set()
