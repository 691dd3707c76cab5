"""Positions read from saves and written back: every bundled scenario round-trips exactly."""

import zipfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import position_from_scenario
from toolkit.vassal.commands import parse, read_stream
from toolkit.vassal.encoding import ESC, Trait, add_piece, decode, encode, parse_add_piece, split_chain
from toolkit.vassal.positions import position_commands, stream_table, table_position, write_position
from toolkit.vassal import inspect
from toolkit.vassal.vlog import read_game
from vassal_fakes import BUNDLED
from vassal_logs import zip_stream

SCENARIOS = [(g, s) for g in BUNDLED for s in load_game(g).scenarios]


def _read(binding, path):
    return read_game(binding, path).end


@pytest.mark.parametrize("game_id,scenario", SCENARIOS)
def test_every_bundled_scenario_round_trips(bound, tmp_path, game_id, scenario):
    binding = bound(game_id)
    pos = position_from_scenario(binding.game, scenario)
    path = write_position(pos, binding, tmp_path / "p.vsav")
    back = _read(binding, path)
    assert back.position == pos
    assert not back.unknown and not back.off and not back.problems
    # read as `vassal inspect` reads a save: pieces decode, prototypes and images exist, the game starts
    report = inspect(path, module=binding.where)
    assert report["problems"] == [] and report["starts"]


def test_state_vassal_cannot_show_travels_in_persistent_properties(bound, tmp_path):
    binding = bound("velikiye-luki")
    game = binding.game
    pos = position_from_scenario(game, turn=2)
    pos.phase, pos.weather, pos.side = "German movement", "overcast", "german"
    three = next(u for u in pos.units.values() if u.counter.steps == 3 and u.hex is not None)
    three.steps = 1                       # the cadre face (rule 1.7.1)
    two = next(u for u in pos.units.values() if u.counter.steps == 2 and u.hex is not None)
    two.steps, two.moved, two.supply, two.mode = 1, True, 2, "strategic"
    two.status = {"out_of_supply", "isolated"}
    pos.touch()
    back = _read(binding, write_position(pos, binding, tmp_path / "p.vsav"))
    assert back.position == pos
    assert back.position.units[three.id].steps == 1 and back.position.phase == "German movement"


def test_a_flip_made_in_vassal_wins_over_the_written_steps(bound, tmp_path):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    commands = position_commands(binding, pos)
    # the player flipped b-1 (two steps) in VASSAL: its Layer shows level 2, hfSteps still says 2
    flipped = [_edit(c, lambda t: Trait(t.type, "2") if t.id == "emb2;" else t) if "hfUnit;b-1;" in c else c
               for c in commands]
    assert flipped != commands
    path = tmp_path / "f.vsav"
    path.write_bytes(zip_stream(encode(flipped, ESC), module=binding.info["name"], version=binding.info["version"]))
    back = _read(binding, path).position
    assert back.units["b-1"].steps == 1 and back.units["b-2"].steps == 2


def test_boxes_turn_track_and_dead_pile(bound, tmp_path):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    pos.units["b-2"].hex, pos.units["b-2"].box = None, "blue-reserve"
    pos.units["b-5"].hex, pos.units["b-5"].box = None, "eliminated"
    pos.touch()
    back = _read(binding, write_position(pos, binding, tmp_path / "b.vsav")).position
    assert back.units["b-2"].box == "blue-reserve" and back.units["b-5"].box == "eliminated"
    # the scenario's own setup keeps b-4 on the turn 2 box: waiting, not in the position
    with zipfile.ZipFile(binding.where) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".vsav"))
        (tmp_path / "setup.vsav").write_bytes(zf.read(name))
    setup = _read(binding, tmp_path / "setup.vsav")
    assert setup.waiting == {"b-4": 2, "r-16": 3, "turn": 1}    # reinforcements and the turn marker
    assert "b-4" not in setup.position.units
    assert setup.position.units["b-1"].hex == Hex(5, 5)


def test_unknown_and_off_grid_pieces_are_reported_not_guessed(bound, tmp_path):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    commands = position_commands(binding, pos)
    text = encode(commands, ESC)
    map_name = next(iter(binding.maps))
    stray = _edit(commands[1], lambda t: Trait(t.type, t.state.replace(commands[1].split("hfUnit;")[1].split(";")[0],
                                                                      "no-such-unit"))
                  if t.id == "mark;" and "UnitId" in t.type else t, "zz1")

    def far(t):
        state = decode(t.state, ";")
        return Trait(t.type, encode([state[0], -900, -900, *state[3:]], ";")) if t.id == "piece;" else t

    text = encode(commands[:-1] + [stray, _edit(commands[2], far, "zz2")] + commands[-1:], ESC)
    path = tmp_path / "u.vsav"
    path.write_bytes(zip_stream(text, module=binding.info["name"], version=binding.info["version"]))
    back = _read(binding, path)
    assert [p["why"] for p in back.unknown] == ["UnitId 'no-such-unit' is no counter of game tutorial"]
    assert len(back.off) == 1 and "off the hex grid" in back.off[0]["why"]
    assert back.position.units.keys() == pos.units.keys()   # the copies did not become units


def _edit(command, change, new_id=None):
    """An AddPiece command with each trait passed through ``change`` (and a new piece id)."""
    piece_id, type_text, state = parse_add_piece(command)
    return add_piece(new_id or piece_id, [change(t) for t in split_chain(type_text, state)])


def test_table_of_a_stream_keeps_unit_ids_stable(bound):
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    stream = parse(encode(position_commands(binding, pos), ESC), "x")
    table = stream_table(binding, stream, "x")
    first = table_position(binding, table, stream.setup)
    again = table_position(binding, table, stream.setup, ids=first.pieces)
    assert first.pieces == again.pieces and set(first.pieces.values()) == set(pos.units)
    text, _ = read_stream("x", zip_stream(encode(position_commands(binding, pos), ESC), module="m", version="1"))
    assert text.startswith("begin_save")


def test_pieces_in_a_deck_are_listed_apart(bound, tmp_path):
    # Deck.getType's 13th field is the deck name; Deck.getState is map;x;y;faceDown;id1,id2
    binding = bound("tutorial")
    pos = position_from_scenario(binding.game)
    commands = position_commands(binding, pos)
    chit = _edit(commands[1], lambda t: t, "chit1")
    deck = "+/" + encode(["cup1", "deck;" + encode(["true", "", 40, 40, "Always", "Always", "false", "false",
                                                     "false", "", "", "", "Reserve cup"], ";"),
                          encode(["Turn track and boxes", 30, 30, "true", "chit1"], ";")], "/")
    path = tmp_path / "d.vsav"
    path.write_bytes(zip_stream(encode(commands[:-1] + [chit, deck] + commands[-1:], ESC),
                                module=binding.info["name"], version=binding.info["version"]))
    back = _read(binding, path)
    assert list(back.decks.values()) == ["Reserve cup"] and not back.off
    assert back.position == pos


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_position_round_trips(bound, tmp_path, data):
    """Units anywhere on the map or in a box, any steps, status, moved flag: written and read back equal."""
    binding = bound("velikiye-luki")
    game = binding.game
    pos = position_from_scenario(game)
    hexes = sorted(pos.map.grid)
    boxes = [b.id for b in pos.map.boxes]
    for unit in pos.units.values():
        where = data.draw(st.sampled_from(["hex", "hex", "hex", "box"]))
        if where == "hex" or not boxes:
            unit.hex, unit.box = data.draw(st.sampled_from(hexes)), None
        else:
            unit.hex, unit.box = None, data.draw(st.sampled_from(boxes))
        unit.steps = data.draw(st.integers(1, unit.counter.steps))
        unit.moved = data.draw(st.booleans())
        unit.status = set(data.draw(st.lists(st.sampled_from(["out_of_supply", "isolated", "fired"]), max_size=2)))
        unit.supply = data.draw(st.integers(0, 3))
    pos.turn = data.draw(st.integers(1, 11))
    pos.phase = data.draw(st.sampled_from(list(game.turn_phases)))
    pos.touch()
    path = write_position(pos, binding, tmp_path / "h.vsav")
    assert _read(binding, path).position == pos


def test_a_module_with_decks_binds_and_round_trips(game_copy, tmp_path):
    from test_decks import DECKS
    from toolkit.vassal import ModuleBinding, build_module
    from vassal_fakes import FAKES

    with open(game_copy / "game.yaml", "a", encoding="utf-8") as f:
        f.write(DECKS)
    game = load_game(str(game_copy))
    [module] = build_module(game, tmp_path / "m", lambda m: None, dpi=40, **FAKES)
    binding = ModuleBinding(game, module)
    pos = position_from_scenario(game)
    back = _read(binding, write_position(pos, binding, tmp_path / "p.vsav"))
    assert back.position == pos and not back.off and not back.unknown


def test_a_save_without_hexforges_line_is_read_on_the_map_its_units_are_on(bound, tmp_path):
    # the module's own set-ups carry no hexforge header: the position is of the busiest map
    binding = bound("grossdeutschland")
    game = binding.game
    with zipfile.ZipFile(binding.where) as zf:
        for scenario in game.scenarios.values():
            name = f"setup_{scenario.id}.vsav"
            (tmp_path / name).write_bytes(zf.read(name))
            back = _read(binding, tmp_path / name)
            assert back.position.map_id == (scenario.map or next(iter(game.maps))) and not back.off
