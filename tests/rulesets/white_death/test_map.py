"""The map: its own ids, the places the text names, and agreement with the velikiye-luki map
(the same ground at 2.5 km a hex): every place on both lies within one of its hexes."""

from __future__ import annotations

import ast
import math
from pathlib import Path

import pytest

from toolkit.io import load_map
from toolkit.rulesets.white_death.terrain import bridges, city_hexes, garrison_towns, west_of_lowatj

from .helpers import course, position

ROOT = Path(__file__).resolve().parents[3]
#: make_map.FRAME (checked against the script below): WD hex -> km in the velikiye-luki frame.
FRAME = {"x0": -3.433, "y0": -3.417, "hex_km": 1.609344, "vl_hex_km": 2.5}
#: Places on both maps: White Death's German spelling -> the velikiye-luki map's name.
SAME_PLACES = {"Velikiye Luki": "Velikiye Luki", "Nowossokoljniki": "Novosokolniki", "Tschemosjom": "Chernosem",
               "Gorki": "Gorki", "Opukhliki": "Opukhiliki"}


def _km(h, size, x0=0.0, y0=0.0):
    return ((h.col - 1) * size * math.sqrt(3) / 2 + x0, (h.row - 1) * size + (size / 2 if h.col % 2 == 0 else 0) + y0)


def test_frame_is_the_generators():
    tree = ast.parse((ROOT / "maps/white-death/make_map.py").read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "FRAME":
            frame = {k.value: ast.literal_eval(v) if not isinstance(v, ast.Name) else None
                     for k, v in zip(node.value.keys, node.value.values)}
            assert frame["x0"] == FRAME["x0"] and frame["y0"] == FRAME["y0"] and frame["vl_hex_km"] == 2.5
            return
    raise AssertionError("FRAME not found in make_map.py")


def test_places_agree_with_the_velikiye_luki_map_within_one_of_its_hexes(game):
    wd = game.maps["main"]
    vl = load_map(str(ROOT / "maps/velikiye-luki/map.yaml"))
    vl_places = {p.name: p.hex for p in vl.places}
    checked = 0
    for p in wd.places:
        other = SAME_PLACES.get(p.name)
        if other is None:
            continue
        a = _km(p.hex, FRAME["hex_km"], FRAME["x0"], FRAME["y0"])
        b = _km(vl_places[other], FRAME["vl_hex_km"])
        assert math.dist(a, b) <= 2.5, f"{p.name} {wd.format(p.hex)} is {math.dist(a, b):.2f} km from {other}"
        checked += 1
    assert checked == len(SAME_PLACES)


def test_a_place_moved_two_velikiye_luki_hexes_would_fail():
    # the check above is not vacuous: 5 km off is more than one 2.5 km hex
    a = _km(type("H", (), {"col": 19, "row": 14})(), FRAME["hex_km"], FRAME["x0"], FRAME["y0"])
    b = _km(type("H", (), {"col": 11, "row": 10})(), 2.5)
    assert math.dist(a, b) > 2.5


def test_ids_are_the_toolkits_own_and_said_so(game):
    m = game.maps["main"]
    text = (ROOT / "maps/white-death/map.yaml").read_text()
    assert "VASSAL HexGrid" in text and m.format(m.grid.parse("0101")) == "0101"
    assert m.grid.flat and (m.grid.last_col, m.grid.last_row) == (30, 34)
    assert "one mile per hex" in m.scale


def test_velikiye_luki_city_citadel_bunkers_and_bridges(game):
    m = game.maps["main"]
    city = city_hexes(m)
    assert len(city) == 7
    bunkers = [h for h in m.hexes if "bunker" in m.features(h)]
    assert len(bunkers) == 7 and set(bunkers) <= city                         # Rule 19
    assert any(p.name == "Citadel" and p.hex in city for p in m.places)
    assert any("river" in m.features(h) for h in city)                        # on both banks
    assert len(bridges(position(game, {}))) == 4                              # Rule 20: four standing


def test_lowatj_is_a_course_of_adjacent_river_hexes_edge_to_edge(game):
    m = game.maps["main"]
    lowatj = course(m, "Lowatj")
    assert all(m.grid.adjacent(a, b) for a, b in zip(lowatj, lowatj[1:]))
    assert lowatj[0].row == 1 and lowatj[-1].row == m.grid.last_row
    assert all("river" in m.features(h) for h in lowatj)


def test_four_railroads_leave_the_west_edge_one_due_west_of_nowossokoljniki(game):
    m = game.maps["main"]
    west = [l for l in m.lines if m.line_types[l.code].rail and any(h.col == 1 for h in (l.hexes[0], l.hexes[-1]))]
    assert len(west) == 4                                                     # Rule 17 B
    now = next(p.hex for p in m.places if p.name == "Nowossokoljniki")
    assert any(abs(l.hexes[-1].row - now.row) <= 1 and l.hexes[-1].col == 1 for l in west)
    assert any(l.hexes[-1] .row <= 3 for l in west)                           # the north-west corner


@pytest.mark.parametrize("name", ["Nowossokoljniki", "Isotcha"])
def test_garrison_towns_are_rail_towns_west_of_the_lowatj(game, name):
    m = game.maps["main"]
    hex = next(p.hex for p in m.places if p.name == name)
    assert hex in garrison_towns(m) and hex in west_of_lowatj(m)
    assert not garrison_towns(m) & city_hexes(m) - west_of_lowatj(m)


def test_friendly_edges_per_side(game):
    m = game.maps["main"]
    kinds = {(s.side, s.kind, s.edge) for s in m.supply}
    assert ("soviet", "rail", "east") in kinds and ("soviet", "edge", "east") in kinds      # Rule 8, 15 B
    assert {("german", "rail", e) for e in ("west", "north", "south")} <= kinds
    se = next(s for s in m.supply if s.side == "soviet" and s.kind == "edge" and not s.edge)
    assert all(h.row == m.grid.last_row and h.col >= 26 for h in se.hexes)                # extreme south-east
