"""Game folders and scenario files: round trips, finding games, and broken game data."""

from __future__ import annotations


import pytest

from datafiles import ROOT, edit, line_of
from toolkit.errors import DataError
from toolkit.hexes import Hex
from toolkit.io import dump_game, dump_scenario, game_path, load_game, load_scenario

TUTORIAL = ROOT / "counters" / "tutorial"


def test_tutorial_game_round_trips(tmp_path, tutorial):
    written = dump_game(tutorial, str(tmp_path / "copy"))
    again = load_game(str(written))
    assert again == tutorial
    assert again.root != tutorial.root  # where it lives is not part of the game
    rewritten = load_game(str(dump_game(again, str(tmp_path / "copy2"))))
    assert rewritten == tutorial


def test_tutorial_game_contents(tutorial):
    assert [s.id for s in tutorial.sides] == ["blue", "red"]
    assert tutorial.main_map.id == "main" and len(tutorial.counters) == 16
    scenario = tutorial.scenario()
    assert scenario.id == "crossing" and len(scenario.turns) == 6
    assert [scenario.weather(n) for n in range(1, 7)] == ["clear", "clear", "mud", "mud", "clear", "clear"]
    assert scenario.reinforcements[1].entry == (Hex(12, 5), Hex(12, 6), Hex(12, 7))
    assert tutorial.locations[("counter", "b-1")][1] == 4
    assert scenario.locations[("setup", 0)][1] > 1


def test_scenario_round_trips(tmp_path, tutorial):
    scenario = tutorial.scenario("crossing")
    dump_scenario(scenario, tutorial.maps, str(tmp_path / "s.yaml"))
    assert load_scenario(str(tmp_path / "s.yaml"), tutorial.maps) == scenario


def test_games_are_found_by_id_folder_or_file():
    assert game_path("tutorial") == game_path(str(TUTORIAL)) == game_path(str(TUTORIAL / "game.yaml"))
    with pytest.raises(DataError, match="no game 'nonesuch'"):
        game_path("nonesuch")


SCENARIO_BREAKS = [
    ('{1-2: clear, 3-4: mud, 5-6: clear}', '{1-2: clear, 3-9: mud}', "weather:", "turns.weather.3-9",
     "turn 7 is outside turns 1-6"),
    ('{1-2: clear, 3-4: mud, 5-6: clear}', '{first: clear}', "weather:", "turns.weather.first",
     "must be a turn or a range"),
    ('count: 6', 'count: 5', "dates:", "turns.dates", "expected 5 dates"),
    ('{1-2: clear, 3-4: mud, 5-6: clear}', '{1-2: clear, 4-3: mud}', "weather:", "turns.weather.4-3",
     "must be a turn or a range"),
    ('count: 6', 'count: 100000', "count:", "turns.count", "at most 1,000"),
    ('{hex: "0503", units: [b-2], rule: "T.9"}', '{units: [b-2], rule: "T.9"}', "units: [b-2]", "setup[1].hex",
     "needs a hex"),
    ('{hex: "0503", units: [b-2], rule: "T.9"}', '{hex: "0503 0504", units: [b-2]}', "units: [b-2]",
     "setup[1].hex", "use 'hexes'"),
    ('{hex: "0503", units: [b-2], rule: "T.9"}', '{hex: "0503", units: []}', "hex: \"0503\"", "setup[1].units",
     "at least one counter"),
    ('{hex: "0503", units: [b-2], rule: "T.9"}', '{hex: "0503", units: [b-2], facing: N}', "facing",
     "setup[1].facing", "unknown key"),
    ('{turn: 2, side: blue', '{turn: two, side: blue', "turn: two", "reinforcements[0].turn", "whole number"),
    ('{turn: 2, side: blue', '{side: blue', "side: blue, units: [b-4]", "reinforcements[0].turn",
     "required field is missing"),
    ('map: main', 'map: east', "map: east", "map", "unknown map 'east'"),
]


@pytest.mark.parametrize("old, new, marker, field, words", SCENARIO_BREAKS, ids=[b[3] for b in SCENARIO_BREAKS])
def test_broken_scenarios(game_copy, old, new, marker, field, words):
    path = game_copy / "scenarios" / "crossing.yaml"
    edit(path, old, new)
    with pytest.raises(DataError) as info:
        load_game(str(game_copy))
    error = info.value
    assert error.path == str(path)
    assert error.field == field and words in error.problem
    assert error.line == line_of(path, marker)


GAME_BREAKS = [
    ("maps:\n  main: map.yaml", "maps:\n  east: map.yaml", "maps", "has id 'main', but game.yaml names it 'east'"),
    ("year: 2026", "year: 20266", "year", "at most 3,000"),
    ("year: 2026", "yaer: 2026", "yaer", "unknown key"),
    ("  - {id: red, name: Red,", "  - {id: red,", "sides[1].name", "required field is missing"),
    ("counter_style:\n  size: 0.625", "counter_style:\n  size: 9", "counter_style.size", "from 0.25 to 3.0"),
    ("scenarios: [scenarios/crossing.yaml]", "scenarios: [scenarios/crossing.yaml, scenarios/crossing.yaml]",
     "scenarios", "two scenario files have the id 'crossing'"),
]


@pytest.mark.parametrize("old, new, field, words", GAME_BREAKS, ids=[b[2] for b in GAME_BREAKS])
def test_broken_game_files(game_copy, old, new, field, words):
    path = game_copy / "game.yaml"
    edit(path, old, new)
    with pytest.raises(DataError) as info:
        load_game(str(game_copy))
    error = info.value
    assert error.path == str(path) and error.field == field and words in error.problem
    assert error.line is not None and error.line > 1


def test_errors_in_a_game_name_the_file_they_are_in(game_copy):
    (game_copy / "counters.csv").write_bytes(b"id,name\n\xff\xfe\n")
    with pytest.raises(DataError) as info:
        load_game(str(game_copy))
    assert info.value.path == str(game_copy / "counters.csv") and info.value.line == 2
    edit(game_copy / "game.yaml", "counters: counters.csv", "counters: missing.csv")
    with pytest.raises(DataError, match="missing.csv: file not found"):
        load_game(str(game_copy))
