"""Modules written by hand the way VASSAL's editor writes them (vassal-format.md), not by hexforge.

Grid settings hexforge never emits: a sideways grid, hOff/vOff 0, a separator, several
boards on one map, a zones-only board, pieces without prototypes, images of other sizes.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

from PIL import Image

B = "VASSAL.build."
TAB = "\t"


def png(width: int, height: int, colour=(200, 190, 160)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


def hexgrid(dx, dy, x0, y0, *, sideways=False, **numbering) -> str:
    n = {"color": "0,0,0", "first": "H", "fontSize": "9", "hDescend": "false", "hDrawOff": "0", "hLeading": "1",
         "hOff": "1", "hType": "N", "locationFormat": "$gridLocation$", "rotateText": "0", "sep": "",
         "stagger": "true", "vDescend": "false", "vDrawOff": "0", "vLeading": "1", "vOff": "1", "vType": "N",
         "visible": "true"}
    n.update(numbering)
    attrs = " ".join(f'{k}="{escape(v)}"' for k, v in sorted(n.items()))
    return (f'<{B}module.map.boardPicker.board.HexGrid color="0,0,0" cornersLegal="false" dotsVisible="false" '
            f'dx="{dx}" dy="{dy}" edgesLegal="false" sideways="{str(sideways).lower()}" snapTo="true" '
            f'visible="true" x0="{x0}" y0="{y0}">'
            f'<{B}module.map.boardPicker.board.mapgrid.HexGridNumbering {attrs}/>'
            f'</{B}module.map.boardPicker.board.HexGrid>')


def board(name: str, image: str, inner: str) -> str:
    return (f'<{B}module.map.boardPicker.Board image="{image}" name="{name}" reversible="false">{inner}'
            f'</{B}module.map.boardPicker.Board>')


def zones(*named: tuple[str, str]) -> str:
    z = "".join(f'<{B}module.map.boardPicker.board.mapgrid.Zone highlightProperty="" locationFormat="$name$" '
                f'name="{n}" path="{p}" useHighlight="false" useParentGrid="false"/>' for n, p in named)
    return f'<{B}module.map.boardPicker.board.ZonedGrid>{z}</{B}module.map.boardPicker.board.ZonedGrid>'


def vmap(name: str, boards: str, *, edge=(0, 0), extra: str = "") -> str:
    return (f'<{B}module.Map allowMultiple="false" backgroundcolor="255,255,255" buttonName="{name}" '
            f'edgeHeight="{edge[1]}" edgeWidth="{edge[0]}" launch="false" mapName="{name}" markMoved="Always">'
            f'<{B}module.map.BoardPicker title="Choose Boards">{boards}</{B}module.map.BoardPicker>'
            f'<{B}module.map.StackMetrics/><{B}module.map.PieceMover/>{extra}</{B}module.Map>')


def slot(name: str, gpid: int, text: str) -> str:
    return (f'<{B}widget.PieceSlot entryName="{escape(name)}" gpid="{gpid}" height="60" width="60">'
            f'{escape(text)}</{B}widget.PieceSlot>')


def basic(image: str, name: str, state: str = "null;0;0;") -> str:
    return f"+/null/piece;;;{image};{name}/{state}"


def module(path: Path, maps: str, palette: str, *, prototypes: str = "", sides=("Red", "Blue"),
           images: dict[str, bytes] | None = None, setups: dict[str, str] | None = None) -> Path:
    roster = "".join(f"<entry>{s}</entry>" for s in sides)
    setup_xml = "".join(f'<{B}module.PredefinedSetup file="{f}" isMenu="false" name="{n}" useFile="true"/>'
                        for n, f in ((name, f"{i}.vsav") for i, name in enumerate(setups or {})))
    xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
           f'<{B}GameModule ModuleOther1="" ModuleOther2="" VassalVersion="3.7.26" description="" name="Hand Made" '
           f'nextPieceSlotId="100" version="1.0">\n<{B}module.BasicCommandEncoder/>\n'
           f'<{B}module.PlayerRoster buttonText="Retire">{roster}</{B}module.PlayerRoster>\n{maps}\n'
           f'<{B}module.PrototypesContainer>{prototypes}</{B}module.PrototypesContainer>\n'
           f'<{B}module.PieceWindow hidden="false" text="Pieces"><{B}widget.TabWidget entryName="Counters">'
           f'{palette}</{B}widget.TabWidget></{B}module.PieceWindow>\n{setup_xml}\n'
           f'<{B}module.DiceButton name="1d6" nDice="1" nSides="6"/>\n</{B}GameModule>\n')
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("buildFile.xml", xml)
        zf.writestr("moduledata", '<?xml version="1.0" encoding="UTF-8"?><data version="1"><version>1.0</version>'
                                  '<VassalVersion>3.7.26</VassalVersion><name>Hand Made</name></data>')
        for name, data in (images or {}).items():
            zf.writestr("images/" + name, data)
        for i, (name, stream) in enumerate((setups or {}).items()):
            inner = io.BytesIO()
            with zipfile.ZipFile(inner, "w") as sz:
                sz.writestr("savedGame", stream)
            zf.writestr(f"{i}.vsav", inner.getvalue())
    return path
