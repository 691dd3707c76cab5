"""Terrain data checked against a picture of the map: the draft used the other way round.

Every hex whose data (base terrain and overlays) differs from what the picture shows is a
``terrain-mismatch`` finding (an error; it exists only with ``validate --against``, so it is
not one of the validator's own codes) with the hex, the data's terrain, the picture's and the
confidence; :func:`mismatch_overlay` marks them on the picture.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from ..game import Map
from ..hexes import Hex
from ..validate import ERROR, Finding
from .doubt import explain
from .draft import LOW_CONFIDENCE, Draft
from .palette import terrain_name

__all__ = ["Mismatch", "mismatches", "mismatch_findings", "mismatch_overlay"]


@dataclass(frozen=True)
class Mismatch:
    hex: Hex
    data: tuple[str, tuple[str, ...]] | None
    image: tuple[str, tuple[str, ...]]
    confidence: float
    #: Why the picture's reading is unsure, and what else it could be (empty when it is sure).
    why: str = ""


def mismatches(game_map: Map, draft: Draft, palette=None) -> list[Mismatch]:
    """Hexes whose data differs from the picture (hexes with no data count as differing).

    With a palette read from the data itself, a hex whose terrain no other hex shows cannot be
    judged (it is its terrain's only example) and is left out.
    """
    others: dict = {}
    if palette is not None:
        for (terrain, _, _), source in zip(palette.examples, palette.sources):
            others.setdefault(terrain, set()).add(source)
    out = []
    for hex, d in sorted(draft.hexes.items()):
        cell = game_map.hexes.get(hex)
        data = (cell.terrain, tuple(cell.features)) if cell else None
        if data is not None and palette is not None and others.get(data, set()) <= {hex}:
            continue
        if data is None or data[0] != d.terrain[0] or set(data[1]) != set(d.terrain[1]):
            out.append(Mismatch(hex, data, d.terrain, d.confidence,
                                explain(d.doubts, LOW_CONFIDENCE, game_map.grid.format_hexside)))
    return out


def mismatch_findings(game_map: Map, found: list[Mismatch], picture: str) -> list[Finding]:
    fmt = game_map.grid.format
    file = game_map.locations.get("file", (None, None))[0]
    findings = []
    for m in found:
        where = game_map.locations.get(("hex", m.hex), (file, None))
        data = terrain_name(m.data) if m.data else "no terrain"
        findings.append(Finding(ERROR, "terrain-mismatch",
                                f"hex {fmt(m.hex)}: the data says {data}, {picture} shows {terrain_name(m.image)} "
                                f"(confidence {m.confidence:.2f}{'; ' + m.why if m.why else ''})", where[0], where[1],
                                f"terrain.{fmt(m.hex)}"))
    return findings


def _short(terrain) -> str:
    """A label that fits a hex: ``clear+vil`` for clear with a village."""
    return "+".join([terrain[0][:8]] + [f[:3] for f in terrain[1]])


def mismatch_overlay(image: Image.Image, layout, game_map: Map, found: list[Mismatch], caption: str) -> Image.Image:
    """The picture with each mismatched hex tinted (red when the picture is sure, amber when not)
    and labelled with what the picture shows."""
    from ..render import overlay

    shade = {m.hex: ("#d0102e" if m.confidence >= LOW_CONFIDENCE else "#f0a000") for m in found}
    labels = {m.hex: _short(m.image) for m in found}
    picture = _Picture(image.convert("RGB"), layout, game_map)
    return overlay(picture, shade=shade, labels=labels, legend=caption, opacity=0.5)


@dataclass
class _Picture:
    """What :func:`~toolkit.render.overlay` reads of a map image, for a picture hexforge did not draw."""

    image: Image.Image
    layout: object
    game_map: Map
