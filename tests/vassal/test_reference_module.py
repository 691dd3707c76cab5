"""The reader on a module in the form the reference's engine-verified examples use (§3.1, §4.5, §6.2).

The board, grid, prototype and piece strings are those VASSAL 3.7.26 loaded with 0 warnings; the
engine put the setup's pieces at 0104 and 0306, so inspect must say the same.
"""

import io
import zipfile

from PIL import Image

from toolkit.vassal import inspect
from toolkit.vassal.encoding import ESC, TAB, add_piece, encode
from toolkit.vassal.pieces import basic_piece, layer, marker, prototype
from toolkit.vassal.savegame import obfuscate

UNIT = ("+/null/delete;Delete;68,130;\treport;70\\,130;$location$: $newPieceName$ flipped;;;;false\\\tpiece;;;;/"
        "\t-1\\\tnull;0;0;;0")

BUILD = f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.26" description="t" name="HexTest" nextPieceSlotId="20" version="0.1">
  <VASSAL.build.module.BasicCommandEncoder/>
  <VASSAL.build.module.Map mapName="Main Map" edgeHeight="0" edgeWidth="0">
    <VASSAL.build.module.map.BoardPicker>
      <VASSAL.build.module.map.boardPicker.Board image="map.png" name="Board0" reversible="false">
        <VASSAL.build.module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" dx="51.96" dy="60.0" edgesLegal="false" sideways="false" snapTo="true" visible="true" x0="30" y0="30">
          <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering color="0,0,0" first="H" fontSize="9" hDescend="false" hDrawOff="0" hLeading="1" hOff="1" hType="N" locationFormat="$gridLocation$" rotateText="0" sep="" stagger="true" vDescend="false" vDrawOff="0" vLeading="1" vOff="1" vType="N" visible="true"/>
        </VASSAL.build.module.map.boardPicker.board.HexGrid>
      </VASSAL.build.module.map.boardPicker.Board>
    </VASSAL.build.module.map.BoardPicker>
  </VASSAL.build.module.Map>
  <VASSAL.build.module.PrototypesContainer>
    <VASSAL.build.module.PrototypeDefinition description="" name="Unit">{UNIT}</VASSAL.build.module.PrototypeDefinition>
  </VASSAL.build.module.PrototypesContainer>
  <VASSAL.build.module.PieceWindow text="Pieces">
    <VASSAL.build.widget.PieceSlot entryName="1st Inf" gpid="1" height="48" width="48">SLOT</VASSAL.build.widget.PieceSlot>
  </VASSAL.build.module.PieceWindow>
  <VASSAL.build.module.PredefinedSetup file="scenario1.vsav" isMenu="false" name="Scenario 1" useFile="true"/>
</VASSAL.build.GameModule>
"""


def _piece(side, x=0, y=0, map_id=None):
    return [prototype("Unit"), marker({"Side": side}), layer(["inf_front.png", "inf_back.png"], ["", "+ (reduced)"]),
            basic_piece("inf_front.png", "1st Inf", map_id=map_id, x=x, y=y)]


def test_engine_verified_positions_read_back(tmp_path):
    commands = ["begin_save", add_piece("p1", _piece("Allied", 30, 210, "Main Map")),
                add_piece("p2", _piece("Axis", 133, 330, "Main Map")),
                "+/sp1/stack/Main Map;30;210;p1;@@0", "+/sp2/stack/Main Map;133;330;p2;@@0",
                f"Main MapBoardPicker{TAB}Board0{TAB}0{TAB}0", "end_save"]
    save = io.BytesIO()
    with zipfile.ZipFile(save, "w") as zf:
        zf.writestr("savedGame", obfuscate(encode(commands, ESC), key=0x5C))
    image = io.BytesIO()
    Image.new("RGB", (800, 600)).save(image, "PNG")
    slot = add_piece(None, _piece("Allied")).replace("&", "&amp;").replace("<", "&lt;")
    path = tmp_path / "hextest.vmod"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", BUILD.replace("SLOT", slot))
        zf.writestr("moduledata", "<data version=\"1\"><VassalVersion>3.7.26</VassalVersion><name>HexTest</name></data>")
        for name in ("map.png", "inf_front.png", "inf_back.png"):
            zf.writestr(f"images/{name}", image.getvalue())
        zf.writestr("scenario1.vsav", save.getvalue())
    report = inspect(path)
    assert report["problems"] == []
    pieces = {p["id"]: p for p in report["setups"][0]["pieces"]}
    assert (pieces["p1"]["hex"], pieces["p2"]["hex"]) == ("0104", "0306")
    assert pieces["p2"]["properties"]["Side"] == "Axis"
    assert "report;" in pieces["p1"]["traits"] and "delete;" in pieces["p1"]["traits"]
    assert report["pieces"][0]["name"] == "1st Inf" and report["pieces"][0]["gpid"] == "1"
