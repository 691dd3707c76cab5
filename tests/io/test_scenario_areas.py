"""Scenario files: ``area:`` on a placement is read, checked with file:line errors, and round-trips."""

from __future__ import annotations

import pytest

from tests.conftest import edit, line_of
from toolkit.errors import DataError
from toolkit.game import SetupArea
from toolkit.hexes import Hex
from toolkit.io import dump_scenario, load_game, load_scenario
from toolkit.validate import validate_game

SCEN = "scenarios/crossing.yaml"


def _name_lines(folder):
    m = folder / "map.yaml"
    edit(m, "  - feature: river\n", "  - feature: river\n    name: Kessel River\n")


def test_area_forms_are_read(game_copy):
    _name_lines(game_copy)
    s = game_copy / SCEN
    edit(s, '{hex: "0505", units: [b-1, b-hq], rule: "T.9"}',
         '{hex: "0505", units: [b-1, b-hq], area: {place: Kessel, rule: "T.9"}, estimated: "in the area"}')
    edit(s, '{hex: "0503", units: [b-2], rule: "T.9"}',
         '{hex: "0503", units: [b-2], area: {within: 2, unit: b-hq}}')
    edit(s, '{hex: "1005", units: [r-10], rule: "T.9"}',
         '{hex: "1005", units: [r-10], area: {east_of: Kessel River}}')
    edit(s, '{hex: "0903", units: [r-12], rule: "T.9"}',
         '{hex: "0903", units: [r-12], area: {hexes: "0902-1004", within: 0}}')
    game = load_game(str(game_copy))
    setup = game.scenarios["crossing"].setup
    assert setup[0].area == SetupArea(place="Kessel", source=setup[0].area.source)
    assert setup[0].area.source.rule == "T.9" and setup[0].source.estimated == "in the area"
    assert setup[1].area.unit == "b-hq" and setup[1].area.within == 2
    assert setup[4].area.side_of == ("east", "Kessel River")
    assert Hex(9, 2) in setup[6].area.hexes
    assert validate_game(game).ok


def test_areas_round_trip(game_copy, tmp_path):
    _name_lines(game_copy)
    s = game_copy / SCEN
    edit(s, '{hex: "0505", units: [b-1, b-hq], rule: "T.9"}',
         '{hex: "0505", units: [b-1, b-hq], area: {within: 1, place: Kessel, rule: "T.9"}}')
    edit(s, '{hex: "1005", units: [r-10], rule: "T.9"}',
         '{hex: "1005", units: [r-10], area: {hex: "1005", within: 3, east_of: Kessel River, estimated: "x"}}')
    game = load_game(str(game_copy))
    scen = game.scenarios["crossing"]
    out = tmp_path / "again.yaml"
    dump_scenario(scen, game.maps, str(out))
    assert load_scenario(str(out), game.maps) == scen


@pytest.mark.parametrize("area, field, problem", [
    ("{place: Kessel, hex: '0505'}", "setup[0].area.place", "one reference"),
    ("{north_of: A, south_of: B}", "setup[0].area.south_of", "one side of one line"),
    ("{within: 2}", "setup[0].area.within", "within N hexes of what"),
    ("{}", "setup[0].area.hex", "an area needs one of"),
    ("{place: Kessel, within: -1}", "setup[0].area.within", "at least 0"),
    ("{hex: '0505 0506'}", "setup[0].area.hex", "one hex"),
    ("{hexes: '99x'}", "setup[0].area.hexes", "bad hex id"),
    ("{place: Kessel, colour: red}", "setup[0].area.colour", "unknown key"),
    ("Kessel", "setup[0].area", "expected a mapping"),
    ("{place: Kessel, rule: '1', estimated: x}", "setup[0].area.estimated", "not both"),
])
def test_bad_areas_name_file_line_and_field(game_copy, area, field, problem):
    s = game_copy / SCEN
    edit(s, '{hex: "0505", units: [b-1, b-hq], rule: "T.9"}', f'{{hex: "0505", units: [b-1, b-hq], area: {area}}}')
    with pytest.raises(DataError) as exc:
        load_game(str(game_copy))
    err = exc.value
    assert err.path.endswith("crossing.yaml") and err.line == line_of(s, "area:")
    assert err.field == field and problem in err.problem


def test_an_area_without_a_chosen_hex_is_refused(game_copy):
    s = game_copy / SCEN
    edit(s, '{hex: "0505", units: [b-1, b-hq], rule: "T.9"}', '{units: [b-1, b-hq], area: {place: Kessel}}')
    with pytest.raises(DataError, match="give the hex chosen in it"):
        load_game(str(game_copy))


def test_validator_finds_a_placement_outside_its_area(game_copy):
    _name_lines(game_copy)
    s = game_copy / SCEN
    edit(s, '{hex: "0503", units: [b-2], rule: "T.9"}',
         '{hex: "0503", units: [b-2], area: {within: 1, place: Kessel, rule: "T.9"}}')
    edit(s, '{hex: "0903", units: [r-12], rule: "T.9"}', '{hex: "0903", units: [r-12], area: {west_of: Kessel River}}')
    edit(s, '{hex: "1008", units: [r-13], rule: "T.9"}', '{hex: "1008", units: [r-13], area: {place: Atlantis}}')
    report = validate_game(load_game(str(game_copy)))
    found = {(f.code, f.field, f.line) for f in report.findings}
    assert ("setup-outside-area", "setup[1].hex", line_of(s, '"0503"')) in found
    assert ("setup-outside-area", "setup[6].hex", line_of(s, '"0903"')) in found
    assert ("bad-area", "setup[7].area", line_of(s, "Atlantis")) in found
    msg = next(f.message for f in report.findings if f.field == "setup[1].hex")
    assert "0503" in msg and "within 1 hex of Kessel" in msg and "(7 legal hexes)" in msg
