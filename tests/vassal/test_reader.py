"""Reading modules and saves back, and refusing hostile or malformed files with clear errors."""

import io
import zipfile

import pytest

from toolkit.errors import DataError, UnsafeInputError
from toolkit.vassal import inspect


def _rewrite(src, dst, changes: dict, extra: dict | None = None):
    """Copy a zip, replacing entries (bytes or None to drop) and adding ``extra``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename in changes:
                if changes[info.filename] is not None:
                    zout.writestr(info.filename, changes[info.filename])
            else:
                zout.writestr(info, zin.read(info))
        for name, data in (extra or {}).items():
            zout.writestr(name, data)
    return dst


def test_module_reads_back_grids_prototypes_and_setups(built):
    game, path = built("tutorial")
    report = inspect(path)
    assert report["kind"] == "module" and report["name"] == game.name
    hex_map = report["maps"][0]["boards"][0]
    assert hex_map["grid"]["attributes"]["sideways"] == "false"
    assert "Unit" in report["prototypes"] and "blue side" in report["prototypes"]
    assert report["setups"][0]["name"] == game.scenario().name


def test_a_save_alone_and_with_its_module(built, tmp_path):
    _, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".vsav"))
        (tmp_path / "s.vsav").write_bytes(zf.read(name))
    alone = inspect(tmp_path / "s.vsav")
    assert alone["kind"] == "save" and alone["starts"]
    assert all("location" not in p for p in alone["pieces"])
    b1 = next(p for p in alone["pieces"] if p["properties"].get("UnitId") == "b-1")
    assert b1["properties"]["Side"] == "blue"  # prototypes are expanded in the save
    full = inspect(tmp_path / "s.vsav", module=path)
    by_unit = {p["properties"]["UnitId"]: p for p in full["pieces"]}
    assert by_unit["b-1"]["location"] == by_unit["b-1"]["hex"] == "0505"
    assert by_unit["b-4"]["zone"] == "Turn 2" and "hex" not in by_unit["b-4"]


def test_missing_prototype_image_and_cdata_are_reported(built, tmp_path):
    _, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        xml = zf.read("buildFile.xml")
    start = xml.index(b"<VASSAL.build.module.PrototypeDefinition description=\"\" name=\"Unit\"")
    end = xml.index(b"</VASSAL.build.module.PrototypeDefinition>", start) + len(b"</VASSAL.build.module.PrototypeDefinition>")
    broken = xml[:start] + xml[end:]
    report = inspect(_rewrite(path, tmp_path / "m.vmod", {"buildFile.xml": broken, "images/c_b-1.png": None}))
    problems = "\n".join(report["problems"])
    assert "prototype 'Unit' does not exist" in problems
    assert "c_b-1.png" in problems
    no_moved = inspect(_rewrite(path, tmp_path / "n.vmod", {"images/moved.png": None}))["problems"]
    assert no_moved and all("moved.png" in p for p in no_moved)
    no_chart = inspect(_rewrite(path, tmp_path / "t.vmod", {"images/chart_1.png": None}))["problems"]
    assert no_chart == ["chart 'Terrain Effects Chart': image 'chart_1.png' is not in images/"]
    cdata = xml.replace(b"<VASSAL.build.module.Chatter/>", b"<VASSAL.build.module.Chatter><![CDATA[x]]></VASSAL.build.module.Chatter>")
    assert any("CDATA" in p for p in inspect(_rewrite(path, tmp_path / "c.vmod", {"buildFile.xml": cdata}))["problems"])


def test_setup_without_end_save_is_reported(built, tmp_path):
    from toolkit.vassal.savegame import vsav_bytes
    _, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".vsav"))
    bad = vsav_bytes(["begin_save"], description="x", module_name="x", module_version="1")
    report = inspect(_rewrite(path, tmp_path / "m.vmod", {name: bad}))
    assert any("end_save" in p for p in report["problems"])


def _zip(tmp_path, entries: dict, name="x.vmod"):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for entry, data in entries.items():
            zf.writestr(entry, data)
    return path


@pytest.mark.parametrize("entry", ["../evil.txt", "/etc/evil", "images/../../evil", "C:/evil", "a\\..\\..\\b"])
def test_path_traversal_is_refused(tmp_path, entry):
    path = _zip(tmp_path, {"buildFile.xml": b"<a/>", entry: b"x"})
    with pytest.raises(UnsafeInputError, match="outside the archive"):
        inspect(path)


def test_zip_bomb_is_refused(tmp_path):
    path = _zip(tmp_path, {"buildFile.xml": b"<a/>", "images/big.png": b"\0" * (8 * 1024 * 1024)})
    with pytest.raises(UnsafeInputError, match="zip bomb"):
        inspect(path)


def test_nested_save_bomb_is_refused(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", b"a" * (4 * 1024 * 1024))
    xml = (b'<VASSAL.build.GameModule name="x"><VASSAL.build.module.PredefinedSetup file="s.vsav" '
           b'isMenu="false" name="S" useFile="true"/></VASSAL.build.GameModule>')
    path = _zip(tmp_path, {"buildFile.xml": xml, "s.vsav": inner.getvalue()})
    with pytest.raises(UnsafeInputError, match="zip bomb"):
        inspect(path)


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<VASSAL.build.GameModule name="&lol2;"/>"""


def test_entity_expansion_and_external_entities_are_refused(tmp_path):
    with pytest.raises(UnsafeInputError, match="DOCTYPE"):
        inspect(_zip(tmp_path, {"buildFile.xml": BILLION_LAUGHS}))
    xxe = b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>'
    with pytest.raises(UnsafeInputError):
        inspect(_zip(tmp_path, {"buildFile.xml": xxe}, name="y.vmod"))


@pytest.mark.parametrize("entries, message", [
    ({"buildFile.xml": b"<VASSAL.build.GameModule"}, "malformed XML"),
    ({"readme.txt": b"hello"}, "not a VASSAL module"),
    ({"buildFile.xml": b"<a/>", "moduledata": b"<data"}, "malformed XML"),
])
def test_malformed_modules_have_clear_errors(tmp_path, entries, message):
    with pytest.raises(DataError, match=message):
        inspect(_zip(tmp_path, entries))


def test_not_a_zip_and_missing_file(tmp_path):
    (tmp_path / "a.vmod").write_text("hello")
    with pytest.raises(DataError, match="not a zip"):
        inspect(tmp_path / "a.vmod")
    with pytest.raises(DataError, match="not found"):
        inspect(tmp_path / "missing.vmod")


def test_garbage_piece_and_save_stream_are_problems_not_crashes(tmp_path):
    xml = (b'<VASSAL.build.GameModule name="x" nextPieceSlotId="1"><VASSAL.build.widget.PieceSlot entryName="p" '
           b'gpid="1">garbage</VASSAL.build.widget.PieceSlot></VASSAL.build.GameModule>')
    report = inspect(_zip(tmp_path, {"buildFile.xml": xml, "moduledata": b"<data/>"}))
    assert any("does not decode" in p for p in report["problems"])
    assert any("nextPieceSlotId" in p for p in report["problems"])
    no_basic = xml.replace(b">garbage<", b">+/null/mark;A/x<")
    report = inspect(_zip(tmp_path, {"buildFile.xml": no_basic, "moduledata": b"<data/>"}, name="b.vmod"))
    assert "piece slot 'p': the innermost trait is not a BasicPiece" in report["problems"]
    save = _zip(tmp_path, {"savedGame": b"!VCSK2aZZZZ"}, name="g.vsav")
    with pytest.raises(DataError, match="corrupt"):
        inspect(save)


def test_compound_commands_nested_as_vassal_writes_them(tmp_path):
    from toolkit.vassal.encoding import ESC, add_piece, encode
    from toolkit.vassal.pieces import basic_piece
    from toolkit.vassal.savegame import obfuscate
    piece = add_piece("p1", [basic_piece("a.png", "A", map_id="M", x=1, y=2)])
    # a compound command is its own encoding followed by its (possibly compound) sub-commands
    inner = encode([piece, encode(["+/s1/stack/M;1;2;p1;@@0", "end_save"], ESC)], ESC)
    stream = encode(["begin_save", inner], ESC)
    assert "\\\x1b" in stream  # nesting escapes ESC
    path = _zip(tmp_path, {"savedGame": obfuscate(stream)}, name="n.vsav")
    report = inspect(path)
    assert report["starts"] and [p["name"] for p in report["pieces"]] == ["A"]
    assert report["stacks"] == [{"id": "s1", "map": "M", "pieces": ["p1"]}] and report["problems"] == []


def test_a_layer_whose_images_and_level_names_differ_is_reported(built, tmp_path):
    _, path = built("tutorial")
    with zipfile.ZipFile(path) as zf:
        xml = zf.read("buildFile.xml")
    broken = xml.replace(b"c_b-1.png,c_b-1_back.png;,+ (reduced);", b"c_b-1.png,c_b-1_back.png;+ (reduced);", 1)
    assert broken != xml
    problems = inspect(_rewrite(path, tmp_path / "m.vmod", {"buildFile.xml": broken}))["problems"]
    assert any("2 images but 1 level names" in p for p in problems)
