"""Map files: load -> dump -> load gives the same map, for the tutorial and generated maps."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datafiles import ROOT
from toolkit.errors import DataError
from toolkit.game import (Box, HexsideFeature, HexsideType, HexTerrain, Line, LineType, Map, MapEdge, Place,
                          Source, SupplySource, TerrainType, VictoryHex)
from toolkit.game.provenance import UNSOURCED
from toolkit.game.terrain import CostTable
from toolkit.hexes import Grid, Hex, Hexside, Numbering
from toolkit.io import dump_map, load_map

TUTORIAL_MAP = ROOT / "maps" / "tutorial" / "map.yaml"


def round_trip(m: Map, folder: Path) -> Map:
    path = folder / "map.yaml"
    dump_map(m, str(path))
    return load_map(str(path))


def test_tutorial_map_round_trips(tmp_path):
    first = load_map(str(TUTORIAL_MAP))
    second = round_trip(first, tmp_path)
    assert second == first
    assert round_trip(second, tmp_path / "again") == first


def test_tutorial_map_contents():
    m = load_map(str(TUTORIAL_MAP))
    assert len(m.grid) == 120 and len(m.hexes) == 120
    assert m.terrain(Hex(5, 5)) == "town"
    assert m.features(Hex(11, 5)) == ("village",)  # the single-hex block adds a village to clear
    assert m.hexside_codes(Hexside.of(Hex(6, 1), Hex(7, 1))) == ["river"]
    assert m.terrain_types["swamp"].move.lookup("mech", "clear") == (True, None)
    assert m.terrain_types["clear"].move.lookup("mech", "mud")[1] == 2
    assert m.line_types["road"].move.lookup("foot", "clear")[1] * 2 == 1
    assert m.place_at(Hex(5, 5)).name == "Kessel"
    assert m.locations[("places", 0)][1] > 1  # every datum remembers its line


def test_dump_is_atomic_and_leaves_no_temporary_files(tmp_path):
    m = load_map(str(TUTORIAL_MAP))
    dump_map(m, str(tmp_path / "map.yaml"))
    assert [p.name for p in tmp_path.iterdir()] == ["map.yaml"]


def test_dump_failure_keeps_the_old_file(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("old", encoding="utf-8")
    m = load_map(str(TUTORIAL_MAP))
    m.hexes[Hex(1, 1)] = HexTerrain(terrain=object())  # cannot be written as YAML
    with pytest.raises(Exception):
        dump_map(m, str(path))
    assert path.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["map.yaml"]


def test_compact_and_single_hex_forms(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("""
id: m
name: M
grid: {columns: [1, 3], rows: [1, 3], numbering: {pad: false}}
terrain_types:
  clear: {name: Clear, move: {"*": 1}}
  woods: {name: Woods, move: {"*": 2}, estimated: "looks wooded on the box art"}
  town: {name: Town, overlay: true}
terrain:
  - {hexes: "101-303", terrain: clear, rule: "2.1"}
  - {columns: {2: "woods - woods"}, estimated: "guess"}
  - {hex: 303, features: [town], rule: "2.2"}
hexsides:
  - {feature: stream, sides: "101/102 202:N 303:nw"}
lines:
  - {type: road, hexes: [101, 201, 301]}
""", encoding="utf-8")
    m = load_map(str(path))
    assert m.terrain(Hex(2, 1)) == "woods" and m.terrain(Hex(2, 2)) == "clear"
    assert m.hexes[Hex(2, 3)].source == Source(estimated="guess")
    assert m.hexes[Hex(3, 3)] == HexTerrain("clear", ("town",), Source(rule="2.2"))
    assert m.terrain_types["woods"].source.is_estimated
    assert set(m.hexsides) == {Hexside.of(Hex(1, 1), Hex(1, 2)), Hexside.of(Hex(2, 2), Hex(2, 1)),
                               Hexside.of(Hex(3, 3), Hex(2, 2))}
    assert m.lines[0].hexes == (Hex(1, 1), Hex(2, 1), Hex(3, 1))
    assert round_trip(m, tmp_path / "out") == m


def test_ranges_are_rectangles_clipped_to_the_grid(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text('id: m\nname: M\ngrid: {columns: [1, 16], rows: [1, 20]}\n'
                    'supply: [{side: red, hexes: "1606-1615 0101"}, {side: red, hexes: "1519-1722"}]\n',
                    encoding="utf-8")
    m = load_map(str(path))
    assert m.supply[0].hexes == tuple(Hex(16, r) for r in range(6, 16)) + (Hex(1, 1),)
    assert m.supply[1].hexes == (Hex(15, 19), Hex(15, 20), Hex(16, 19), Hex(16, 20))


# -- generated maps -------------------------------------------------------------------------

SOURCES = [UNSOURCED, Source(rule="8.1"), Source(estimated="read off the box art")]
GRID_KINDS = [
    {}, {"shifted": "odd"}, {"orientation": "pointy"}, {"short_shifted": True},
    {"col_direction": "descending", "row_direction": "descending"},
    {"numbering": Numbering(pad=False)}, {"numbering": Numbering(col_alpha=True)},
    {"numbering": Numbering(order="rowcol", separator=".")},
]


@st.composite
def maps(draw) -> Map:
    kind = draw(st.sampled_from(GRID_KINDS))
    cols, rows = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    grid = Grid(1, cols, 1, rows, **kind)
    cells = grid.hexes()
    costs = CostTable({("*", "*"): draw(st.sampled_from([1, 2, None])), ("mech", "mud"): 3})
    m = Map(id="gen", name="Generated", grid=grid, weathers=("clear", "mud"), unit_classes=("foot", "mech"))
    m.terrain_types = {code: TerrainType(code, code.title(), costs, source=draw(st.sampled_from(SOURCES)))
                       for code in ("clear", "woods")}
    m.terrain_types["town"] = TerrainType("town", "Town", overlay=True)
    m.hexside_types = {"river": HexsideType("river", "River", costs, width="major", blocks_supply=True),
                       "stream": HexsideType("stream", "Stream", costs)}
    m.line_types = {"road": LineType("road", "Road", CostTable({("*", "*"): 0.5}))}
    for hex in cells:
        if draw(st.integers(0, 9)):  # some hexes stay without terrain
            features = ("town",) if draw(st.booleans()) else ()
            m.hexes[hex] = HexTerrain(draw(st.sampled_from(["clear", "woods"])), features,
                                      draw(st.sampled_from(SOURCES)))
    for hex in draw(st.lists(st.sampled_from(cells), max_size=6, unique=True)):
        for other in grid.neighbours(hex)[:2]:
            side = Hexside.of(hex, other)
            codes = draw(st.sets(st.sampled_from(["river", "stream"]), min_size=1))
            m.hexsides[side] = [HexsideFeature(side, c, draw(st.sampled_from(SOURCES))) for c in sorted(codes)]
    path = [draw(st.sampled_from(cells))]
    for _ in range(draw(st.integers(1, 6))):
        path.append(draw(st.sampled_from(grid.neighbours(path[-1]))))
    m.lines = [Line("road", tuple(path), draw(st.sampled_from([None, "Old road"])), draw(st.sampled_from(SOURCES)))]
    m.places = [Place("Town", cells[0], "city", draw(st.sampled_from(SOURCES)))]
    m.victory = [VictoryHex(cells[-1], draw(st.sampled_from([None, 3])), draw(st.sampled_from([None, "red"])))]
    m.supply = [SupplySource("red", edge="east", kind="edge", turns=(None, 5)),
                SupplySource("blue", hexes=tuple(cells[:2]), kind="hex", note="depot")]
    m.edges = [MapEdge("west", "blue", (cells[0],), "friendly edge")]
    m.boxes = [Box("reserve", "Reserve", "blue", (cells[0],), "held back")]
    return m


@settings(max_examples=40)
@given(maps())
def test_generated_maps_round_trip(m):
    # m.hexes holds Fraction-free costs and sorted hexside features, as a loaded map does
    with tempfile.TemporaryDirectory() as tmp:
        loaded = round_trip(m, Path(tmp))
        assert loaded == _normalised(m)
        assert round_trip(loaded, Path(tmp) / "again") == loaded


def _normalised(m: Map) -> Map:
    """``m`` as the loader builds it: costs as fractions."""
    from fractions import Fraction

    def table(t: CostTable) -> CostTable:
        return CostTable({k: None if v is None else Fraction(v).limit_denominator(12) for k, v in t.costs.items()})

    for types in (m.terrain_types, m.hexside_types, m.line_types):
        for code, kind in list(types.items()):
            types[code] = type(kind)(**{**kind.__dict__, "move": table(kind.move)})
    return m


def test_a_map_file_naming_a_missing_block_type_is_an_error(tmp_path):
    path = tmp_path / "map.yaml"
    path.write_text("id: m\nname: M\ngrid: {columns: [1, 3], rows: [1, 3]}\nterrain: {rows: {}}\n",
                    encoding="utf-8")
    with pytest.raises(DataError, match="terrain: expected a list"):
        load_map(str(path))


def test_dumped_files_are_compact_and_quote_ids(tmp_path):
    m = load_map(str(TUTORIAL_MAP))
    dump_map(m, str(tmp_path / "map.yaml"))
    text = (tmp_path / "map.yaml").read_text(encoding="utf-8")
    assert "  columns: [1, 12]\n" in text
    assert "    move: {foot: 2, mech: 3}\n" in text
    assert "    '08': clear swamp" in text  # ids and row keys stay text for any YAML reader
    assert "{name: Brook, hex: '0608', kind: village, rule: T.2}" in text
