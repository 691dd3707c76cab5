"""Rail movement (Rule 8; cases 14-17), traced supply and isolation (15 B, 15 C; cases 38, 53)
with the isolation-edges option, and bridges built and blown (Rule 20; case 66)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.rulesets.white_death import (artillery_supply, blow_bridge, bridges, build_bridge, isolation,
                                          rail_moves)
from toolkit.rulesets.white_death.terrain import is_town, rail_hexes

from .helpers import plain_river_hexes, position

SOVIET_UNITS = ["s-18g", "s-31g", "s-36g", "s-141g", "s-143g", "s-145g", "s-59g", "s-64g", "s-69g", "s-1188",
                "s-1190", "s-1192"]
GERMAN_UNITS = ["g-251-1", "g-251-2", "g-251-3", "g-257-1", "g-257-2", "g-257-3", "g-277-1", "g-277-2",
                "g-277-3", "g-504-1", "g-504-2", "g-505-1"]


def _line(m, name):
    return next(l.hexes for l in m.lines if l.name == name)


def _mid_rail(m):
    """A non-town hex in the middle of the Rzhev railroad (Velikiye Luki to the east edge)."""
    line = _line(m, "Velikiye Luki-Rzhev railroad")
    k = len(line) // 2
    return line, k


def test_case_14_where_units_may_entrain_and_end(game, rs):
    m = game.maps["main"]
    line, k = _mid_rail(m)
    hx = line[k]
    assert not is_town(m, hx)
    pos = position(game, {"s-m18-1": m.format(hx), "s-m18-t": m.format(hx)}, impulse=("soviet", 3))
    ans = rail_moves(pos, rs, "s-m18-1")
    assert ans.refused is None and line[0] in ans.hexes and line[-1] in ans.hexes
    assert rail_moves(pos, rs, "s-m18-t").refused.rule == "8"             # an AFV off a town
    town = line[0]                                                        # Velikiye Luki
    pos = position(game, {"s-m18-t": m.format(town)}, impulse=("soviet", 3))
    ans = rail_moves(pos, rs, "s-m18-t")
    assert ans.refused is None and ans.hexes and all(is_town(m, x) for x in ans.hexes)


def test_case_15_the_line_must_trace_to_a_friendly_edge_free_of_enemy_zoc(game, rs):
    m = game.maps["main"]
    line, k = _mid_rail(m)
    hx = line[k]

    def beside(x):
        return next(n for n in m.grid.neighbours(x) if n in m.grid and n not in line and not
                    any(m.grid.adjacent(n, y) for y in (hx,)))
    east = beside(line[k + 2])
    pos = position(game, {"s-m18-1": m.format(hx), "g-251-1": m.format(east)}, impulse=("soviet", 3))
    ans = rail_moves(pos, rs, "s-m18-1")
    assert ans.refused is None and line[-1] not in ans.hexes and line[k + 2] not in ans.hexes   # via the city
    west = beside(line[k - 2])
    pos = position(game, {"s-m18-1": m.format(hx), "g-251-1": m.format(east), "g-251-2": m.format(west)},
                   impulse=("soviet", 3))
    assert rail_moves(pos, rs, "s-m18-1").refused.rule == "8"


def test_case_16_rail_capacity_of_25_sp_a_turn(game, rs):
    pos = position(game, {"s-art-9g": "1914", "s-m18-1": "1914"}, impulse=("soviet", 3), rail_used={"soviet": 22})
    assert "rail SP" in rail_moves(pos, rs, "s-art-9g").refused.text      # 22 + 4 > 25
    assert rail_moves(pos, rs, "s-m18-1").refused is None                 # 22 + 3 = 25


def test_case_17_a_reinforcement_entrains_at_a_rail_hex_of_its_entry_zone(game, rs):
    m = game.maps["main"]
    line, k = _mid_rail(m)
    edge = line[-1]
    assert not is_town(m, edge) and edge in rail_hexes(m)
    pos = position(game, {"s-art-9g": m.format(edge)}, impulse=("soviet", 3))
    assert rail_moves(pos, rs, "s-art-9g").refused is not None
    pos.units["s-art-9g"].status.add("entering")
    ans = rail_moves(pos, rs, "s-art-9g")
    assert ans.refused is None and all(is_town(m, x) for x in ans.hexes)


def test_entraining_needs_an_mp(game, rs):
    m = game.maps["main"]
    line, k = _mid_rail(m)
    pos = position(game, {"s-m18-1": m.format(line[k])}, impulse=("soviet", 3), spent={"s-m18-1": 3})
    assert rail_moves(pos, rs, "s-m18-1").refused.rule == "8"


def _ring(m, centre, radius, ids):
    ring = [x for x in m.grid.ring(centre, radius) if x in m.grid]
    return {u: m.format(x) for u, x in zip(ids, ring)}


def test_case_53_isolation_by_enemy_units_and_zocs(game, rs):
    m = game.maps["main"]
    centre = m.grid.parse("1020")
    units = {"g-ski1": "1020", **_ring(m, centre, 2, SOVIET_UNITS)}
    pos = position(game, units)
    assert "g-ski1" not in isolation(pos, rs, "german").supplied
    assert isolation(pos, rs, "german").status["g-ski1"] == "isolated"
    half = {k: v for k, v in units.items() if k not in SOVIET_UNITS[:6]}    # half the ring gone: a way out
    assert "g-ski1" in isolation(position(game, half), rs, "german").supplied


@pytest.mark.parametrize("option, supplied", [("supply", True), ("rail", False)])
def test_isolation_edges_option_for_the_extreme_south_east(game, rs, option, supplied):
    m = game.maps["main"]
    corner = m.grid.parse("2834")
    pos = position(game, {"s-18g": "2834", **_ring(m, corner, 2, GERMAN_UNITS)})
    result = isolation(pos, rs.with_options(isolation_edges=option), "soviet")
    assert ("s-18g" in result.supplied) is supplied


def test_case_38_artillery_traces_seven_hexes_to_a_road_running_to_a_friendly_edge(game, rs):
    m = game.maps["main"]
    lines = {x for l in m.lines if l.code in ("road", "rail") for x in l.hexes}
    near = next(x for x in m.hexes if x.col > 20 and not m.features(x) and m.grid.distance(x, m.grid.parse("2512")) == 3)
    pos = position(game, {"s-art-9g": m.format(near)})
    assert "s-art-9g" in artillery_supply(pos, rs, "soviet").supplied
    far = m.grid.parse("2501")                                            # 8 hexes from the nearest road
    assert min(m.grid.distance(far, y) for y in lines) == 8
    pos = position(game, {"s-art-9g": "2501"})
    assert "s-art-9g" not in artillery_supply(pos, rs, "soviet").supplied   # the edge alone is not enough
    pos = position(game, {"s-art-9g": "2501"})
    assert "s-art-9g" in isolation(pos, rs, "soviet").supplied             # but it is not isolated


def test_artillery_supply_is_cut_by_enemy_zoc_on_the_road(game, rs):
    m = game.maps["main"]
    pos = position(game, {"s-art-9g": "1914", **_ring(m, m.grid.parse("1914"), 3, GERMAN_UNITS)})
    assert "s-art-9g" not in artillery_supply(pos, rs, "soviet").supplied
    pos = position(game, {"s-art-9g": "1914"})
    assert "s-art-9g" in artillery_supply(pos, rs, "soviet").supplied


def test_case_66_bridges_built_once_and_blown(game, rs):
    m = game.maps["main"]
    r, _, _ = plain_river_hexes(m)[0]
    pos = position(game, {"s-eng1": m.format(r), "s-18g": m.format(r)}, impulse=("soviet", 4))
    with pytest.raises(RulesError, match="cannot build"):
        build_bridge(pos, rs, "s-18g")
    build_bridge(pos, rs, "s-eng1")
    assert r in bridges(pos) and pos.state["spent"]["s-eng1"] == "1"
    r2 = plain_river_hexes(m)[1][0]
    pos.place("s-eng1", r2)
    with pytest.raises(RulesError, match="one bridge"):
        build_bridge(pos, rs, "s-eng1")
    std = sorted(bridges(position(game, {})))[0]
    gpos = position(game, {"g-bau": m.format(std), "g-251-1": m.format(std)}, side="german", impulse=("german", 2))
    with pytest.raises(RulesError, match="cannot destroy"):
        blow_bridge(gpos, rs, "g-251-1")
    blow_bridge(gpos, rs, "g-bau")
    assert std not in bridges(gpos) and len(bridges(gpos)) == 3
    gpos.place("g-bau", sorted(bridges(gpos))[0])
    gpos.state["spent"]["g-bau"] = "2"
    gpos.touch()
    with pytest.raises(RulesError, match="needs 1 more MP"):
        blow_bridge(gpos, rs, "g-bau")


def test_bridges_survive_a_position_file(game, rs, tmp_path):
    from toolkit.referee import dump_position, load_position
    m = game.maps["main"]
    r, _, _ = plain_river_hexes(m)[0]
    pos = position(game, {"s-eng1": m.format(r)}, impulse=("soviet", 4))
    build_bridge(pos, rs, "s-eng1")
    dump_position(pos, tmp_path / "p.yaml")
    back = load_position(tmp_path / "p.yaml", game)
    assert bridges(back) == bridges(pos) and back.state["spent"] == {"s-eng1": "1"}
    assert Fraction(back.state["spent"]["s-eng1"]) == 1
