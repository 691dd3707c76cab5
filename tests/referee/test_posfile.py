"""Positions: from a scenario, from a file, and back to a file."""

from __future__ import annotations

import pytest

from toolkit.errors import DataError
from toolkit.io import load_game
from toolkit.referee import dump_position, load_position, position_from_scenario, position_to_dict

GAME = load_game("tutorial")


def H(text):
    return GAME.main_map.grid.parse(text)


def test_scenario_setup_and_reinforcements_by_turn():
    first = position_from_scenario(GAME, "crossing")
    assert first.turn == 1 and first.side == "red" and first.weather == "clear"
    assert first.units["b-1"].hex == H("0505") and "b-4" not in first.units
    third = position_from_scenario(GAME, "crossing", turn=3)
    assert third.weather == "mud"
    assert third.units["b-4"].hex == H("0105") and third.units["r-16"].hex == H("1205")


def test_round_trip(tmp_path):
    pos = position_from_scenario(GAME, "crossing", turn=3)
    pos.units["b-1"].steps = 1
    pos.units["b-1"].status = {"out_of_supply"}
    pos.units["b-1"].supply = 1
    pos.units["b-3"].moved = True
    pos.units["b-3"].mode = "road"
    pos.place("b-2", None, box="eliminated")
    path = tmp_path / "p.yaml"
    dump_position(pos, path)
    back = load_position(path)
    assert position_to_dict(back) == position_to_dict(pos)
    assert back.units["b-1"].reduced and back.units["b-2"].box == "eliminated"


def test_file_on_top_of_a_scenario(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text('game: tutorial\nscenario: crossing\nturn: 2\nremove: [r-12]\n'
                    'units:\n  b-1: {hex: "0606"}\n')
    pos = load_position(path)
    assert "r-12" not in pos.units and pos.units["b-1"].hex == H("0606") and "b-4" in pos.units


@pytest.mark.parametrize("body, field", [
    ('units:\n  b-1: {hex: "9999"}\n', "units.b-1.hex"),
    ('units:\n  zz: {hex: "0101"}\n', "units.zz.counter"),
    ('units:\n  b-1: {hex: "0101", colour: red}\n', "units.b-1.colour"),
    ('units:\n  b-1: {hex: "0101", steps: 5}\n', "units.b-1.steps"),
    ('weather: snow\nunits: {}\n', "weather"),
    ('side: green\n', "side"),
    ('units:\n  b-1: {box: nowhere}\n', "units.b-1.box"),
])
def test_bad_files_name_file_line_and_field(tmp_path, body, field):
    path = tmp_path / "bad.yaml"
    path.write_text("game: tutorial\n" + body)
    with pytest.raises(DataError) as err:
        load_position(path)
    assert field in str(err.value) and "bad.yaml" in str(err.value)
