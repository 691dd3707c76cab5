"""Saved-game streams: order of commands, obfuscation and the zip."""

import io
import zipfile

import pytest

from toolkit.vassal.encoding import ESC, decode
from toolkit.vassal.pieces import basic_piece
from toolkit.vassal.savegame import Setup, Stack, deobfuscate, obfuscate, setup_commands, vsav_bytes


def test_obfuscation_matches_vassal_form_and_round_trips():
    data = obfuscate("begin_save", key=0x2A)
    assert data.startswith(b"!VCSK2a")
    assert data[7:9] == f"{ord('b') ^ 0x2A:02x}".encode()
    assert deobfuscate(data) == "begin_save"
    assert deobfuscate(obfuscate("ünïcode\x1bend_save")) == "ünïcode\x1bend_save"


def test_plain_streams_are_accepted():
    assert deobfuscate(b"begin_save\x1bend_save") == "begin_save\x1bend_save"


def test_corrupt_obfuscation_is_a_value_error():
    with pytest.raises(ValueError):
        deobfuscate(b"!VCSK2azz")


def test_setup_commands_add_pieces_before_stacks_and_end_with_end_save():
    piece = [basic_piece("a.png", "A", map_id="Main Map", x=30, y=210, gpid=4)]
    setup = Setup([Stack("Main Map", 30, 210, 0, [piece, piece])], [("Main Map", "Board0")])
    commands = setup_commands(setup, prefix="p")
    assert commands[0] == "begin_save" and commands[-1] == "end_save"
    assert commands[1].startswith("+/p1/piece;") and commands[2].startswith("+/p2/")
    assert commands[3] == "+/ps1/stack/Main Map;30;210;p1;p2;@@0"
    assert commands[4] == "Main MapBoardPicker\tBoard0\t0\t0"


def test_vsav_zip_holds_saved_game_and_metadata():
    data = vsav_bytes(["begin_save", "end_save"], description="S", module_name="M", module_version="1")
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert sorted(zf.namelist()) == ["savedGame", "savedata"]
        assert decode(deobfuscate(zf.read("savedGame")), ESC) == ["begin_save", "end_save"]
        assert b"<VassalVersion>3.7.26</VassalVersion>" in zf.read("savedata")
