"""Logs read into events, and every malformed or hostile save/log refused with a clear error."""

import io
import zipfile

import pytest

from toolkit.errors import DataError, UnsafeInputError
from toolkit.hexes import Hex
from toolkit.referee import position_from_scenario
from toolkit.vassal.encoding import ESC, encode
from toolkit.vassal.positions import position_commands
from toolkit.vassal.savegame import obfuscate
from toolkit.vassal.vlog import read_game
from vassal_logs import LogBuilder, zip_stream


@pytest.fixture()
def tutorial(bound):
    binding = bound("tutorial")
    return binding, position_from_scenario(binding.game)


def _file(tmp_path, data, name="x.vsav"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_log_is_read_into_moves_flips_dice_chat_and_undo(tutorial, tmp_path):
    binding, pos = tutorial
    log = LogBuilder(binding, pos)
    log.move(["b-2"], Hex(6, 3)).roll("1d6", 5).flip("b-1", 1).chat("your turn")
    log.move(["b-1", "b-hq"], Hex(5, 4)).move(["b-3"], Hex(7, 8)).undo()
    record = read_game(binding, _file(tmp_path, log.bytes(), "t.vlog"))
    kinds = [(e.action, e.kind) for e in record.events]
    assert kinds == [(1, "move"), (2, "dice"), (3, "flip"), (4, "chat"), (5, "move"), (6, "move"), (7, "undo")]
    first, dice, flip, chat, stack, undone, undo = record.events
    assert first.units == ("b-2",) and first.start.hex == Hex(5, 3) and first.end.hex == Hex(6, 3)
    assert first.player == "Alice" and first.before.units["b-2"].hex == Hex(5, 3)   # the PLAYER id, named
    assert record.start.players == {"Alice": "red"}
    assert dice.die == "1d6" and dice.dice == (5,) and dice.player == "Alice"
    assert flip.units == ("b-1",) and flip.levels == (1, 2) and flip.steps == (2, 1)
    assert chat.text == "<Alice> - your turn"
    assert sorted(stack.units) == ["b-1", "b-hq"] and stack.before.units["b-1"].steps == 1
    assert undone.undone and not stack.undone and undo.units == ("b-3",)
    assert record.end.position.units["b-3"].hex == Hex(6, 8)        # the undo put it back
    assert record.end.position.units["b-2"].moved                    # Mark-when-moved was set


def test_a_save_without_actions_has_no_events(tutorial, tmp_path):
    binding, pos = tutorial
    record = read_game(binding, _file(tmp_path, LogBuilder(binding, pos).bytes()))
    assert not record.is_log and record.start.position == record.end.position == pos


def _stream(binding, pos):
    return encode(position_commands(binding, pos), ESC)


def _zip(entries: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("case,error,words", [
    ("other module", DataError, "save of module 'Another game'"),
    ("other version", DataError, "version '0.9' of module"),
    ("vassal 3.8", DataError, "VASSAL 3.8.0"),
    ("vassal 3.4", DataError, "VASSAL 3.4.2"),
    ("bad obfuscation", DataError, "bad obfuscation"),
    ("bad utf-8", DataError, "bad obfuscation or encoding"),
    ("unknown command", DataError, "command 12 is unknown: 'HACK<TAB>rm -rf /'"),
    ("no begin_save", DataError, "does not start with begin_save"),
    ("no end_save", DataError, "no end_save"),
    ("bad move", DataError, "does not decode"),
    ("bad change", DataError, "trait states for a piece of"),
    ("deep nesting", UnsafeInputError, "nest more than 50 deep"),
    ("not a zip", DataError, "not a zip archive"),
    ("no savedGame", DataError, "no savedGame entry"),
    ("a module", DataError, "this is a VASSAL module"),
    ("path traversal", UnsafeInputError, "path traversal"),
    ("zip bomb", UnsafeInputError, "zip bomb"),
    ("xml bomb", UnsafeInputError, "DOCTYPE"),
    ("encrypted", DataError, "encrypted"),
])
def test_malformed_saves_and_logs_are_refused_clearly(tutorial, tmp_path, case, error, words):
    binding, pos = tutorial
    name, version = binding.info["name"], binding.info["version"]
    text = _stream(binding, pos)
    good = LogBuilder(binding, pos).move(["b-2"], Hex(6, 3))
    piece = next(iter(good.table.pieces))
    data = {
        "other module": lambda: zip_stream(text, module="Another game", version=version),
        "other version": lambda: zip_stream(text, module=name, version="0.9"),
        "vassal 3.8": lambda: zip_stream(text, module=name, version=version, vassal="3.8.0"),
        "vassal 3.4": lambda: zip_stream(text, module=name, version=version, vassal="3.4.2"),
        "bad obfuscation": lambda: _zip({"savedGame": b"!VCSK2axyz", "savedata": b"<data/>"}),
        "bad utf-8": lambda: _zip({"savedGame": b"begin_save\xff\xfe"}),
        "unknown command": lambda: zip_stream(encode(["begin_save"] + ["CHAT x"] * 10 + ["HACK\trm -rf /", "end_save"],
                                                     ESC), module=name, version=version),
        "no begin_save": lambda: zip_stream(encode(["end_save"], ESC), module=name, version=version),
        "no end_save": lambda: zip_stream(encode(["begin_save", "CHAT hi"], ESC), module=name, version=version),
        "bad move": lambda: zip_stream(good.text() + ESC + encode(["LOG\tM/x/map/one/2/null/null/0/0/null/p"], ESC),
                                       module=name, version=version),
        "bad change": lambda: zip_stream(good.text() + ESC + encode([f"LOG\tD/{piece}/1\t2"], ESC),
                                         module=name, version=version),
        "deep nesting": lambda: zip_stream(_nested(60), module=name, version=version),
        "not a zip": lambda: b"this is not a zip file",
        "no savedGame": lambda: _zip({"savedata": b"<data/>"}),
        "a module": lambda: open(binding.where, "rb").read(),
        "path traversal": lambda: _zip({"savedGame": obfuscate(text), "../../evil": b"x"}),
        "zip bomb": lambda: _zip({"savedGame": b"\0" * (4 * 1024 * 1024)}),
        "xml bomb": lambda: _zip({"savedGame": obfuscate(text), "savedata":
                                  b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
                                  b"<data>&b;</data>"}),
        "encrypted": lambda: _encrypted(),
    }[case]()
    path = _file(tmp_path, data)
    with pytest.raises(error) as info:
        read_game(binding, path)
    assert words in str(info.value) and str(path) in str(info.value)


def _nested(depth: int) -> str:
    text = "CHAT deep"
    for _ in range(depth):
        text = encode(["", text], ESC)
    return encode(["begin_save", text, "end_save"], ESC)


def _encrypted() -> bytes:
    data = bytearray(_zip({"savedGame": b"begin_save"}))
    # set the "encrypted" flag bit in the local and central headers
    for marker in (b"PK\x03\x04", b"PK\x01\x02"):
        at = data.index(marker)
        offset = 6 if marker == b"PK\x03\x04" else 8
        data[at + offset] |= 1
    return bytes(data)


def test_a_log_without_savedata_is_read_with_a_warning(tutorial, tmp_path):
    binding, pos = tutorial
    record = read_game(binding, _file(tmp_path, _zip({"savedGame": _stream(binding, pos).encode()})))
    assert record.warnings and "cannot be checked" in record.warnings[0]
    assert record.end.position == pos


def test_command_count_and_stream_size_limits(tutorial, tmp_path, monkeypatch):
    from toolkit.vassal import commands
    binding, pos = tutorial
    path = _file(tmp_path, zip_stream(_stream(binding, pos), module=binding.info["name"],
                                      version=binding.info["version"]))
    monkeypatch.setattr(commands, "MAX_COMMANDS", 10)
    with pytest.raises(UnsafeInputError, match="more than 10 commands"):
        read_game(binding, path)
    monkeypatch.setattr(commands, "MAX_COMMANDS", 1_000_000)
    monkeypatch.setattr(commands, "MAX_STREAM_CHARS", 1000)
    with pytest.raises(UnsafeInputError, match="holds more bytes than it declares or than the limit"):
        read_game(binding, path)


def test_a_stack_of_missing_pieces_is_a_problem_not_a_crash(tutorial, tmp_path):
    binding, pos = tutorial
    commands = position_commands(binding, pos)
    text = encode(commands[:-1] + ["+/ghost/stack/Kessel Crossing;10;10;nobody;@@0"] + commands[-1:], ESC)
    record = read_game(binding, _file(tmp_path, zip_stream(text, module=binding.info["name"],
                                                           version=binding.info["version"])))
    assert record.end.problems == ["stack ghost holds piece nobody that does not exist"]
    assert record.end.position == pos


def test_vassal_3_7_keeps_the_module_name_in_a_copy_of_moduledata(tutorial, tmp_path):
    # SaveMetaData writes version/VassalVersion/dateSaved/description; copyModuleMetadata adds the
    # module's own moduledata entry, where File > Open reads the module's name
    from toolkit.vassal.savegame import metadata_xml
    binding, pos = tutorial
    savedata = metadata_xml(root_children=[("version", binding.info["version"]), ("VassalVersion", "3.7.26"),
                                           ("dateSaved", "1"), ("description", "")])
    text = obfuscate(_stream(binding, pos))
    good = _zip({"savedGame": text, "savedata": savedata, "moduledata": binding.moduledata})
    assert read_game(binding, _file(tmp_path, good, "a.vsav")).end.position == pos
    other = binding.moduledata.replace(f"<name>{binding.info['name']}</name>".encode(), b"<name>Other</name>")
    assert other != binding.moduledata
    with pytest.raises(DataError, match="save of module 'Other'"):
        read_game(binding, _file(tmp_path, _zip({"savedGame": text, "savedata": savedata, "moduledata": other}),
                                 "b.vsav"))


def test_written_positions_carry_the_modules_moduledata(tutorial, tmp_path):
    from toolkit.vassal import write_position
    binding, pos = tutorial
    path = write_position(pos, binding, tmp_path / "w.vsav")
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["moduledata", "savedGame", "savedata"]
        assert zf.read("moduledata") == binding.moduledata
