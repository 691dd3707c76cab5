"""Broken data files: every one raises a DataError that names the file, the line and the field.

The files live in tests/data/broken/; each row below says what the message must name.
"""

from __future__ import annotations

import pytest

from datafiles import BROKEN
from toolkit.errors import DataError
from toolkit.io import load_counters, load_map

# file, line (None: the whole file), field (None: no field applies), words the problem must contain
MAPS = [
    ("bad-yaml.yaml", 8, None, "invalid YAML"),
    ("wrong-type.yaml", 6, "hex_size", "expected a number, found text 'big'"),
    ("unknown-key.yaml", 5, "terrain_types.clear.colr", "unknown key; expected one of"),
    ("duplicate-key.yaml", 4, None, "duplicate key 'name' (first on line 2)"),
    ("empty.yaml", None, None, "no data"),
    ("nul-byte.yaml", 2, None, "NUL byte"),
    ("invalid-utf8.yaml", 2, None, "not UTF-8"),
    ("huge-number.yaml", 7, "victory[0].points", "expected at most 1,000,000,000"),
    ("billion-laughs.yaml", 5, None, "anchors and aliases are not allowed"),
    ("bad-hex.yaml", 7, "places[0].hex", "bad hex id '0799x': expected CCRR"),
    ("bad-cost.yaml", 5, "terrain_types.clear.move.*", "expected a cost such as 1, 1/2, +1 or P; found 'lots'"),
    ("unknown-class.yaml", 6, "terrain_types.clear.move.tank", "unknown unit class 'tank'"),
    ("rows-wrong.yaml", 9, "terrain[0].rows.02", "expected a line of terrain codes"),
    ("columns-key.yaml", 7, "terrain[0].columns", "key 'first' is not a number"),
    ("missing-name.yaml", 1, "name", "required field is missing"),
    ("grid-columns.yaml", 3, "grid.columns", "expected [first, last]"),
    ("grid-digits.yaml", 3, "grid", "column 120 does not fit"),
    ("hexside-twice.yaml", 10, "hexsides[1].sides", "given 'river' twice (first on line 9)"),
    ("bad-hexside.yaml", 7, "hexsides[0].sides", "must be written 'HEX/HEX' or 'HEX:DIRECTION'"),
    ("deep.yaml", 2, None, "nested too deeply"),
    ("python-tag.yaml", 1, None, "unsupported YAML tag"),
    ("not-a-mapping.yaml", 1, None, "expected a mapping"),
]

COUNTERS = [
    ("counters-too-many-cells.csv", 3, None, "5 cells but the header has 4 columns"),
    ("counters-duplicate-id.csv", 4, "id", "duplicate counter id 'b-1' (first on line 2)"),
    ("counters-huge-number.csv", 2, "attack", "out of range"),
    ("counters-bad-steps.csv", 2, "steps", "expected a whole number from 1 to 20, found 'two'"),
    ("counters-missing-name.csv", 2, "name", "required value is empty"),
    ("counters-unterminated-quote.csv", 3, None, "bad CSV"),
    ("counters-bad-header.csv", 1, None, "column 'name' appears twice"),
    ("counters-empty.csv", None, None, "file is empty"),
    ("binary-junk.csv", 4, None, "NUL byte"),
]


def check(error: DataError, name: str, line, field, words: str) -> None:
    message = str(error)
    assert error.path.endswith(name) and message.startswith(error.path)
    assert error.line == line
    assert error.field == field
    assert words in error.problem
    if line is not None:
        assert f"{name}:{line}: " in message
    if field is not None:
        assert f" {field}: " in message
    assert "\n" not in message and len(message) < 400  # one readable line


@pytest.mark.parametrize("name, line, field, words", MAPS, ids=[m[0] for m in MAPS])
def test_broken_map_files(name, line, field, words):
    with pytest.raises(DataError) as info:
        load_map(str(BROKEN / name))
    check(info.value, name, line, field, words)


@pytest.mark.parametrize("name, line, field, words", COUNTERS, ids=[c[0] for c in COUNTERS])
def test_broken_counter_files(name, line, field, words):
    with pytest.raises(DataError) as info:
        load_counters(str(BROKEN / name))
    check(info.value, name, line, field, words)


def test_every_fixture_is_listed():
    listed = {m[0] for m in MAPS + COUNTERS}
    present = {p.name for p in BROKEN.iterdir() if p.suffix in (".yaml", ".csv")}
    assert present == listed


@pytest.mark.parametrize("text, field, words", [
    ("hex_size: .nan", "hex_size", "expected a number from"),
    ("hex_size: 1e999", "hex_size", "expected a number, found text"),
    ("north: sideways", "north", "expected one of down, left, right, up"),
    ("terrain_types: {clear: {name: C, move: {'*': .inf}}}", "terrain_types.clear.move.*", "finite"),
    ("terrain_types: {clear: {name: C, move: {'*': 123456789012345678901234567890}}}",
     "terrain_types.clear.move.*", "outside 0..1000"),
    ("terrain_types: {clear: {name: C, move: {'*': '1/0'}}}", "terrain_types.clear.move.*", "found '1/0'"),
    ("terrain_types: {clear: {name: C, move: {'*': 1}, rule: '3.1', estimated: guess}}",
     "terrain_types.clear.estimated", "either cited (rule) or estimated"),
    ("grid2: {}", "grid2", "unknown key"),
    ("places: [{name: X, hex: '0101', hexx: '0102'}]", "places[0].hexx", "unknown key"),
    ("supply: [{side: blue}]", "supply[0].hexes", "needs hexes or an edge"),
    ("terrain: [{hex: '0101'}]", "terrain[0].terrain", "no terrain yet"),
    ("terrain: [{legend: {c: clear}}]", "terrain[0]", "needs rows, columns, hexes or hex"),
    ("terrain: [{hexes: '0101-9999999'}]", "terrain[0].hexes", "bad hex id"),
    ("victory: [{hex: ['0101', '0102']}]", "victory[0].hex", "must be text"),
    ("lines: [{type: road, hexes: {a: 1}}]", "lines[0].hexes", "expected hex ids"),
    ("edges: [{edge: up}]", "edges[0].edge", "expected one of east, north, south, west"),
    ("grid: 5", "grid", "expected a mapping"),
    ("weathers: [clear, 'mud/x']", "weathers", "must not contain '/' or '*'"),
    ("unit_classes: [foot, foot]", "unit_classes", "listed twice"),
    ("terrain_types: {'a+b': {name: X}}", "terrain_types.a+b", "must be one word"),
])
def test_broken_map_fields(tmp_path, text, field, words):
    base = "id: x\nname: X\ngrid: {columns: [1, 4], rows: [1, 4]}\n"
    if text.startswith("grid:"):
        base = "id: x\nname: X\n"
    path = tmp_path / "map.yaml"
    path.write_text(base + text + "\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_map(str(path))
    error = info.value
    assert error.path == str(path) and error.line == len(base.splitlines()) + 1
    assert error.field == field
    assert words in error.problem


def test_missing_and_unreadable_files(tmp_path):
    with pytest.raises(DataError, match="file not found"):
        load_map(str(tmp_path / "absent.yaml"))
    with pytest.raises(DataError, match="is a directory"):
        load_map(str(tmp_path))


def test_oversized_file_is_refused_before_reading(tmp_path, monkeypatch):
    from toolkit.io import _source

    monkeypatch.setattr(_source, "MAX_FILE_BYTES", 100)
    path = tmp_path / "big.yaml"
    path.write_text("id: x\n" + "# padding\n" * 20, encoding="utf-8")
    with pytest.raises(DataError, match="limited to 100"):
        load_map(str(path))
