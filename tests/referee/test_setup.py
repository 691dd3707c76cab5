"""``hexforge referee setup``: the legal hexes of a set-up entry, and a whole set-up checked."""

from __future__ import annotations

import json

import pytest

from tests.conftest import edit
from toolkit.cli import main
from toolkit.errors import RulesError
from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import check_setup, legal_setup_hexes, position_from_scenario, setup_entries


@pytest.fixture
def folder(game_copy):
    edit(game_copy / "map.yaml", "  - feature: river\n", "  - feature: river\n    name: Kessel River\n")
    s = game_copy / "scenarios/crossing.yaml"
    edit(s, '{hex: "0505", units: [b-1, b-hq], rule: "T.9"}',
         '{hex: "0505", units: [b-1, b-hq], area: {place: Kessel, rule: "T.9"}}')
    edit(s, '{hex: "0503", units: [b-2], rule: "T.9"}',
         '{hex: "0503", units: [b-2], area: {within: 2, unit: b-hq, rule: "T.9"}}')
    edit(s, '{hex: "1005", units: [r-10], rule: "T.9"}',
         '{hex: "1005", units: [r-10], area: {east_of: Kessel River, rule: "T.9"}}')
    return game_copy


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(["referee", "setup", *args])
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_entries_number_copies_like_positions(folder):
    scen = load_game(str(folder)).scenarios["crossing"]
    ids = [e.unit for e in setup_entries(scen)]
    assert ids[:3] == ["b-1", "b-hq", "b-2"]


def test_legal_hexes_follow_the_unit_an_area_is_measured_from(folder):
    game = load_game(str(folder))
    pos = position_from_scenario(game, "crossing")
    entry, legal = legal_setup_hexes(pos, "b-2")
    assert entry.rule == "T.9" and legal == frozenset(pos.map.grid.within(Hex(5, 5), 2))
    pos.place("b-hq", Hex(2, 2))
    _, moved = legal_setup_hexes(pos, "b-2")
    assert moved == frozenset(pos.map.grid.within(Hex(2, 2), 2))
    assert not check_setup(position_from_scenario(game, "crossing"))
    # b-hq left Kessel, and b-2 is now more than 2 hexes from it
    found = check_setup(pos)
    assert [(r.units, r.hex) for r in found] == [(("b-hq",), Hex(2, 2)), (("b-2",), Hex(5, 3))]
    assert found[0].code.value == "setup-area" and found[0].rule == "T.9"


def test_a_unit_with_no_set_up_entry_is_refused(folder):
    pos = position_from_scenario(load_game(str(folder)), "crossing")
    with pytest.raises(RulesError, match="does not set up 'b-4'"):
        legal_setup_hexes(pos, "b-4")


def test_cli_lists_and_checks(folder, capsys, tmp_path):
    code, out, _ = run(capsys, "r-10", "-g", str(folder))
    assert code == 0 and out.startswith("r-10 sets up any hex east of Kessel River [rule T.9]: 57 hexes")
    code, out, _ = run(capsys, "b-hq", "-g", str(folder), "--json")
    data = json.loads(out)
    assert data["command"] == "setup" and data["hexes"] == ["0505"] and data["area"] == "any hex of Kessel"
    code, out, _ = run(capsys, "-g", str(folder))
    assert code == 0 and out.strip() == "every unit sets up inside its area"
    pos = tmp_path / "pos.yaml"
    pos.write_text(f"game: {folder}\nscenario: crossing\nunits:\n  r-10: {{hex: '0605'}}\n", encoding="utf-8")
    code, out, _ = run(capsys, "-p", str(pos), "--json")
    data = json.loads(out)
    assert code == 1 and not data["ok"] and data["violations"][0]["units"] == ["r-10"]
    assert data["violations"][0]["hex"] == "0605"


def test_cli_bad_input_exits_2(folder, capsys):
    code, _, err = run(capsys, "nobody", "-g", str(folder))
    assert code == 2 and "does not set up 'nobody'" in err
