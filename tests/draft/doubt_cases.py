"""Hand-made readings for the doubt tests (no picture drawn): a draft with given links, terrain
readings, a palette of flat colours, a river's course, a feature or a line glimpsed on a hexside."""

from __future__ import annotations

from toolkit.draft.doubt import Doubt, Reading
from toolkit.draft.draft import Draft, HexDraft
from toolkit.draft.palette import Palette
from toolkit.draft.sample import Look
from toolkit.hexes import Grid, Hex, Hexside

LOW = 0.5
#: A line seen on 0.7 of its steps across a flat fill, not found.
LINE_GLIMPSE = (None, 0.7, False)


def draft_with(grid: Grid, links: dict) -> Draft:
    """A draft of clear hexes with ``links`` (``(hex, hex) -> {line: share of its steps}``)."""
    draft = Draft(hexes={h: HexDraft(("clear", ()), 1.0) for h in grid})
    draft.links = {Hexside.of(a, b): codes for (a, b), codes in links.items()}
    return draft


def reading(base="clear", features=(), distance=1.0, f_distance=1.0, **kw) -> Reading:
    """A terrain reading, sure of itself unless told otherwise."""
    return Reading(base, kw.pop("base_sure", 0.95), distance, "rough", tuple(features), kw.pop("features_sure", 0.95),
                   f_distance, (), **kw)


def palette_of(colours: dict) -> Palette:
    """A palette of one flat colour per terrain."""
    palette = Palette()
    for terrain, colour in colours.items():
        palette.add(terrain, Look(colour, 1.0, colour, (0.0, 0.0, 0.0)))
    return palette


def least_sure(doubts) -> float:
    return min(d.confidence for d in doubts)


def river_course(grid: Grid) -> list[Hexside]:
    """A river down the hexsides between columns 3 and 4, side after side."""
    course = [Hexside.of(Hex(3, 2), Hex(4, 2)), Hexside.of(Hex(4, 2), Hex(3, 3)), Hexside.of(Hex(3, 3), Hex(4, 3)),
              Hexside.of(Hex(4, 3), Hex(3, 4)), Hexside.of(Hex(3, 4), Hex(4, 4))]
    assert all(grid.adjacent(s.a, s.b) for s in course)
    return course


def glimpse(draft: Draft, side: Hexside, reader: str, evidence: tuple, sure: float) -> None:
    """A hexside feature (``reader`` ``hexside``) or a line (``line``) seen on part of ``side`` but
    not found (``evidence``: as its reader writes it), doubted ``sure``."""
    draft.side_doubts[side] = [Doubt(reader, sure, ("no feature" if reader == "hexside" else "no line",), side, evidence)]
    draft.side_confidence[side] = sure
