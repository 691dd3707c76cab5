"""The validator: one broken copy of the tutorial game per finding code, each finding checked for
its severity, file, line and field."""

from __future__ import annotations

import copy

import pytest

from datafiles import ROOT, edit, line_of
from toolkit.game import HexsideFeature, HexTerrain
from toolkit.hexes import Hex, Hexside
from toolkit.io import load_game
from toolkit.validate import CODES, ERROR, WARNING, format_report, validate_game, validate_map

TUTORIAL = ROOT / "counters" / "tutorial"
B1 = "b-1,blue,1st,unit,infantry,III,1st Div,foot,2,1,reduced"


HEXSIDES = "hexsides:\n"
LINES = "lines:\n"
TYPES = "hexside_types:\n"
LINE_TYPES = "line_types:\n"
TERRAIN = "terrain:\n"
SETUP = "setup:\n"
REINF = "reinforcements:\n"

# file, old text, new text, code, field, marker (a fragment of the line the finding names; None: no line)
CASES = [
    ("map.yaml", TERRAIN, TERRAIN + '  - {hex: "1311", terrain: clear}\n', "hex-off-grid", "terrain", "1311"),
    ("map.yaml", '"05": "r . . . t', '"05": "r . . . x', "unknown-terrain", "terrain", '"05"'),
    ("map.yaml", '"05": "r . . . t', '"05": "r . . . v', "overlay-as-base", "terrain", '"05"'),
    ("map.yaml", '"05": "r . . . t', '"05": "r . . . -', "hex-without-terrain", "terrain", None),
    ("map.yaml", "woods:   {name: Woods, move: {foot: 2, mech: 3}", "woods:   {name: Woods, move: {foot: 2}",
     "tec-gap", "terrain_types.woods.move", "woods:   {"),
    ("map.yaml", "terrain_types:\n", 'terrain_types:\n  marsh: {name: Marsh, move: {"*": 2}}\n', "unused-terrain",
     "terrain_types.marsh", "marsh:"),
    ("map.yaml", HEXSIDES, HEXSIDES + '  - {feature: canal, sides: "0101/0102"}\n', "unknown-hexside", "hexsides",
     "canal"),
    ("map.yaml", HEXSIDES, HEXSIDES + '  - {feature: stream, sides: "0101/0303"}\n', "hexside-not-adjacent",
     "hexsides", "0101/0303"),
    ("map.yaml", TYPES, TYPES + '  canal: {name: Canal, move: {"*": 2}, width: major}\n', "hexside-conflict",
     "hexsides", "feature: river"),
    ("map.yaml", TYPES, TYPES + '  bridge: {name: Bridge, move: {"*": 0}, bridge: true}\n', "bridge-over-nothing",
     "hexsides", "feature: bridge"),
    ("map.yaml", TYPES, TYPES + '  ford: {name: Ford, move: {"*": 1}}\n', "unused-hexside", "hexside_types.ford",
     "ford:"),
    ("map.yaml", LINES, LINES + '  - {type: canal, hexes: "0101 0102"}\n', "unknown-line", "lines[0].type",
     "type: canal"),
    ("map.yaml", LINES, LINES + '  - {type: road, hexes: "0101"}\n', "short-line", "lines[0].hexes", '"0101"}'),
    ("map.yaml", LINES, LINES + '  - {type: road, hexes: "0101 0301"}\n', "line-gap", "lines[0].hexes",
     "0101 0301"),
    ("map.yaml", LINES, LINES + '  - {type: road, hexes: "0112 0111"}\n', "hex-off-grid", "lines[0].hexes",
     "0112 0111"),
    ("map.yaml", LINE_TYPES, LINE_TYPES + '  track: {name: Track, move: {"*": 1}, bridges: false}\n',
     "line-crosses-impassable", "lines[0].hexes", "0105 0205"),
    ("map.yaml", LINE_TYPES, LINE_TYPES + '  path: {name: Path, move: {foot: 1}}\n', "line-tec-gap",
     "line_types.path.move", "path:"),
    ("map.yaml", LINE_TYPES, LINE_TYPES + '  canal: {name: Canal, move: {"*": 1}}\n', "unused-line",
     "line_types.canal", "canal:"),
    ("map.yaml", "places:\n", 'places:\n  - {name: Far, hex: "1501"}\n', "hex-off-grid", "places[0]", "Far"),
    ("map.yaml", "boxes:\n", "boxes:\n  - {id: eliminated, name: Dead}\n", "duplicate-id", "boxes[2].id",
     "id: eliminated, name: Eliminated"),
    ("map.yaml", "{side: red, edge: east", "{side: green, edge: east", "unknown-side", "supply[1].side", "green"),
    ("counters.csv", B1, "b-1,,1st,unit,infantry,III,1st Div,foot,2,1,reduced", "missing-side", "b-1.side", "b-1,"),
    ("counters.csv", B1, "b-1,blue,1st,unit,infantry,III,1st Div,,2,1,reduced", "missing-class", "b-1.class",
     "b-1,"),
    ("counters.csv", B1, "b-1,blue,1st,unit,infantry,III,1st Div,hover,2,1,reduced", "unknown-class", "b-1.class",
     "b-1,"),
    ("counters.csv", B1, "b-1,green,1st,unit,infantry,III,1st Div,foot,2,1,reduced", "unknown-side", "b-1.side",
     "b-1,"),
    ("counters.csv", B1, "b-1,blue,1st,unit,infantry,III,1st Div,foot,2,1,none", "steps-without-back",
     "b-1.back_kind", "b-1,"),
    ("scenarios/crossing.yaml", "units: [b-2]", "units: [b-99]", "unknown-counter", "setup[1].units", "b-99"),
    ("scenarios/crossing.yaml", '{hex: "0503", units: [b-2]', '{box: nowhere, units: [b-2]', "unknown-box",
     "setup[1].box", "nowhere"),
    ("scenarios/crossing.yaml", '{hex: "0503", units: [b-2]', '{hex: "1411", units: [b-2]', "hex-off-grid",
     "setup[1].hex", "1411"),
    ("scenarios/crossing.yaml", "3-4: mud", "3-4: snow", "unknown-weather", "turns.weather", "turns:"),
    ("scenarios/crossing.yaml", "{turn: 2, side: blue", "{turn: 9, side: blue", "turn-out-of-range",
     "reinforcements[0].turn", "turn: 9"),
    ("scenarios/crossing.yaml", 'units: [b-4], entry: "0105",', "units: [b-4],", "no-entry", "reinforcements[0]",
     "units: [b-4]"),
    ("scenarios/crossing.yaml", "units: [b-2]", "units: [b-1]", "counter-overused", "setup", None),
    ("game.yaml", "options:", "decks:\n  - {id: cup, name: Cup, box: eliminated, counters: [oos], send_to: bin}\noptions:",
     "unknown-deck", "decks[0].send_to", "{id: cup"),
    ("scenarios/crossing.yaml", "units: [b-2], rule", "units: [b-2], area: {within: 1, place: Dorn}, rule",
     "setup-outside-area", "setup[1].hex", "Dorn"),
    ("scenarios/crossing.yaml", "units: [b-2], rule", "units: [b-2], area: {place: Nowhere}, rule",
     "bad-area", "setup[1].area", "Nowhere"),
    ("scenarios/crossing.yaml", "side: blue, units: [b-4]", "side: blue, units: [r-16]", "wrong-side",
     "reinforcements[0].units", "units: [r-16]"),
    ("scenarios/crossing.yaml", "side: blue, units: [b-4]", "side: green, units: [b-4]", "unknown-side",
     "reinforcements[0].side", "green"),
    ("scenarios/crossing.yaml", "first_side: red", "first_side: purple", "unknown-side", "first_side", "purple"),
    ("scenarios/crossing.yaml", "id: crossing", "id: 'cross;ing'", "bad-id", "id", None),
]

# Extra edits some cases need so that exactly the intended problem is present.
SETUP_EDITS = {
    "line-crosses-impassable": [
        ("map.yaml", TYPES, TYPES + '  cliff: {name: Cliff, move: {"*": P}, width: line}\n'),
        ("map.yaml", HEXSIDES, HEXSIDES + '  - {feature: cliff, sides: "0105/0205"}\n'),
        ("map.yaml", LINES, LINES + '  - {type: track, hexes: "0105 0205"}\n'),
    ],
    "hexside-conflict": [("map.yaml", HEXSIDES, HEXSIDES + '  - {feature: canal, sides: "0601/0701"}\n')],
    "bridge-over-nothing": [("map.yaml", HEXSIDES, HEXSIDES + '  - {feature: bridge, sides: "0101/0102"}\n')],
    "line-tec-gap": [("map.yaml", LINES, LINES + '  - {type: path, hexes: "0101 0102"}\n')],
}


# Findings an edit may cause besides its own: a type nobody uses any more, and so on.
SIDE_EFFECTS = {"unused-terrain", "unused-hexside", "unused-line", "hex-without-terrain", "bridge-over-nothing"}
SIDE_EFFECTS_OF = {"wrong-side": {"counter-overused"}}  # every red counter is already placed


@pytest.mark.parametrize("file, old, new, code, field, marker", CASES, ids=[f"{c[3]}:{c[4]}" for c in CASES])
def test_each_finding(game_copy, file, old, new, code, field, marker):
    path = game_copy / file
    for extra_file, extra_old, extra_new in SETUP_EDITS.get(code, []):
        edit(game_copy / extra_file, extra_old, extra_new)
    edit(path, old, new)
    report = validate_game(load_game(str(game_copy)))
    found = [f for f in report.findings if f.code == code and f.field == field]
    assert found, f"no {code} finding on {field}: {[f.format() for f in report.findings]}"
    finding = found[0]
    assert finding.severity == CODES[code]
    assert finding.file == str(path)
    assert finding.line == (line_of(path, marker) if marker else None)
    assert finding.message and finding.format().startswith(str(path))
    # the edit introduced this problem and nothing unrelated
    others = {f.code for f in report.findings} - {code}
    assert others <= SIDE_EFFECTS | SIDE_EFFECTS_OF.get(code, set())
    if CODES[code] == ERROR:
        assert not report.ok


def test_every_code_is_exercised():
    assert {case[3] for case in CASES} == set(CODES)
    assert set(CODES.values()) == {ERROR, WARNING}


def test_the_tutorial_is_clean(tutorial):
    report = validate_game(tutorial)
    assert report.findings == [] and report.ok
    assert report.provenance["counters"] == {"total": 16, "cited": 16, "estimated": 0, "unsourced": 0}
    assert report.provenance["map main: hexes"]["total"] == 120
    assert format_report(report).endswith("tutorial: 0 errors, 0 warnings: clean")


def test_provenance_counts_estimates(tutorial):
    game = copy.deepcopy(tutorial)
    m = game.main_map
    from toolkit.game import Source

    m.hexes[Hex(1, 1)] = HexTerrain("clear", (), Source(estimated="read off a photo"))
    m.hexes[Hex(1, 2)] = HexTerrain("clear", ())
    del m.hexes[Hex(1, 3)]
    counts = validate_game(game).provenance["map main: hexes"]
    assert counts == {"total": 120, "cited": 117, "estimated": 1, "unsourced": 1, "missing": 1}
    text = format_report(validate_game(game))
    assert "120 total, 117 cited, 1 estimated (1%), 1 unsourced, 1 missing" in text


def test_model_edits_without_file_lines_still_name_the_file(tutorial):
    game = copy.deepcopy(tutorial)
    m = game.main_map
    side = Hexside.of(Hex(1, 1), Hex(5, 5))
    m.hexsides[side] = [HexsideFeature(side, "stream")]
    report = validate_game(game)
    finding = next(f for f in report.findings if f.code == "hexside-not-adjacent")
    assert finding.file == game.files["maps"]["main"] and finding.line is None


def test_validate_map_alone(tutorial):
    report = validate_map(tutorial.main_map, "map.yaml")
    assert report.ok and report.provenance["hexes"]["cited"] == 120


def test_report_as_dict_has_a_stable_schema(tutorial):
    game = copy.deepcopy(tutorial)
    game.main_map.hexes[Hex(1, 1)] = HexTerrain("lava")
    data = validate_game(game).to_dict()
    assert set(data) == {"game", "ok", "errors", "warnings", "findings", "provenance"}
    assert data["ok"] is False and data["errors"] == 1 and data["warnings"] == 0
    assert set(data["findings"][0]) == {"severity", "code", "message", "file", "line", "field"}


def test_a_line_without_any_rates_is_deliberate(game_copy):
    # A railway that only carries bridges (Demyansk Shield 8.36b) has no movement rates at all:
    # that is a choice, not a gap in the chart.
    edit(game_copy / "map.yaml", LINE_TYPES, LINE_TYPES + "  spur: {name: Spur, bridges: true}\n")
    edit(game_copy / "map.yaml", "lines:\n", 'lines:\n  - {type: spur, hexes: "0101 0102"}\n')
    report = validate_game(load_game(str(game_copy)))
    assert report.findings == []
