"""Entry zones closed by the situation (17 E, case 57), the Velikiye Luki route and air drop
(15 D, case 51) and the ice rolls of AFVs on lakes (13, case 64)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.referee import check_path
from toolkit.rulesets.white_death import air_drop_chance, entry_closed, entry_zone, ice_rolls, vl_route

from .helpers import position

RING = ["s-18g", "s-31g", "s-36g", "s-141g", "s-143g", "s-145g", "s-59g", "s-64g", "s-69g", "s-1188", "s-1190",
        "s-1192", "s-1259", "s-1261", "s-1263", "s-943", "s-945", "s-947"]


def test_entry_zones_are_the_seven_of_17_a(game):
    pos = position(game, {})
    sides = [entry_zone(pos, z)[0] for z in game.options["entry_zones"]]
    assert sides.count("soviet") == 3 and sides.count("german") == 4
    side, hexes = entry_zone(pos, "german-south")
    assert len(hexes) == 10 and all(h.row == pos.map.grid.last_row for h in hexes)      # "the ten hexes"
    with pytest.raises(RulesError, match="unknown entry zone"):
        entry_zone(pos, "german-east")


def test_case_57_the_southern_zone_closes_without_germans_south_of_the_city_east_of_the_lowatj(game):
    assert entry_closed(position(game, {"g-251-1": "2226"}), "german-south") is None
    closed = entry_closed(position(game, {"g-251-1": "0526"}), "german-south")
    assert closed.rule == "17 E"
    assert entry_closed(position(game, {"g-251-1": "0526"}), "german-southwest") is None   # 8 rows from the edge
    assert entry_closed(position(game, {"g-251-1": "0516"}), "german-southwest").rule == "17 E"
    assert entry_closed(position(game, {}), "german-west") is None


def test_case_51_the_velikiye_luki_route_and_the_air_drop(game, rs):
    m = game.maps["main"]
    assert vl_route(position(game, {"g-sich336": "1914"}), rs)
    ring = [x for x in m.grid.ring(m.grid.parse("1914"), 3) if x in m.grid]
    pos = position(game, {"g-sich336": "1914", **{u: m.format(x) for u, x in zip(RING, ring)}})
    assert len(ring) == len(RING) and not vl_route(pos, rs)
    assert air_drop_chance("clear_frost") == air_drop_chance("thaw") == Fraction(4, 6)
    assert air_drop_chance("snow") == Fraction(2, 6)


def test_case_64_ice_rolls_one_per_lake_hexside_for_afvs(game, rs):
    m = game.maps["main"]
    full = next(s for s, fs in sorted(m.hexsides.items()) if any(f.code == "lake_full" for f in fs))
    pos = position(game, {"s-m18-t": m.format(full.a), "s-18g": m.format(full.a)}, weather="snow",
                   impulse=("soviet", 10))
    path = [full.a, full.b]
    assert check_path(pos, rs, "s-m18-t", path).ok
    assert ice_rolls(pos, [pos.unit("s-m18-t")], path) == 1
    assert ice_rolls(pos, [pos.unit("s-18g")], path) == 0
    back = [full.a, full.b, full.a]
    assert ice_rolls(pos, [pos.unit("s-m18-t")], back) == 2                    # two crossings, two rolls
