"""The one-byte crop a canvas tile is drawn in, and the parts of it that are drawn.

One spare crop serves every tile (:func:`_spare`), its width a power of two the tile lies at
the right end of (:func:`_span`); only the parts near a tile's operations (:func:`_parts`) are
cleared, drawn, reduced and laid over the tile.
"""

from __future__ import annotations

import threading

from PIL import Image


#: The least width of a tile's crop (supersampled pixels), a power of two (see _span): twice
#: the widest tile of the map's canvases (1,024 pixels, a sliver of 255 and the margins, at 3x).
SPAN = 1 << 13

_SPARE = threading.local()


def _spare(width: int, height: int):
    """A crop (pillow's image core, one byte a pixel) at least ``width`` x ``height``, kept
    for every tile of every canvas of the thread: a new one is cleared first, at the cost of
    its pixels (each part of a tile is cleared before it is drawn on, the rest never read)."""
    crop = getattr(_SPARE, "crop", None)
    if crop is None or crop.size[0] != width or crop.size[1] < height:
        crop = _SPARE.crop = Image.core.new("L", (width, height))
    return crop


def _span(width: int) -> int:
    """The width of the crop a tile ``width`` supersampled pixels wide is drawn in, at its
    right end. Pillow fills polygons (wide lines too) row by row from edges kept in 32-bit
    floats: a row's crossing is the edge's start column plus a fraction, summed in floats, so
    how it rounds (and whether a crossing at a half pixel lands on one side or the other)
    depends on how large the column is, not on the map. With every drawn column in the same
    power of two, [SPAN / 2, SPAN), the sum keeps the same fraction wherever the crop lies
    (its start columns are whole, the float spacing far finer than a pixel): every tile
    draws the same pixels wherever it lies, so any window draws the pixels of the whole map.
    (Crops of columns from 0 rounded crossings at a half pixel one way or the other by where
    the crop began: a few pixels a map, up to 42 grey levels.) A canvas of wider tiles (a
    test's one tile over a whole map) draws in a wider crop, and may round a few apart."""
    span = SPAN
    while width > span // 2:
        span *= 2
    return span


#: What a part of a tile costs beyond its pixels (pillow's calls and the Python around them), as
#: supersampled pixels cleared, reduced and laid over the tile (the bench's instructions: 2% more
#: at 1,000 and at 16,000, 3% at 250).
_PART_COST = 4000


def _parts(boxes, clip: tuple[int, int, int, int], factor: int) -> list[tuple[int, int, int, int]]:
    """Whole-pixel boxes within ``clip`` that together cover ``boxes`` (those of a tile's
    operations), for the least clearing, reducing and laying over: boxes join while one box around them
    costs less than separate ones (two crossing bands stay two, a road and its casing one).
    They do not overlap (a pixel laid over the tile twice would blend twice): where two
    would, the later one is cut into the pieces outside the earlier."""
    cost = _PART_COST / (factor * factor)
    cx0, cy0, cx1, cy1 = clip
    parts: list[tuple[int, int, int, int]] = []
    for x0, y0, x1, y1 in boxes:
        # (plain comparisons, not min and max: this runs for every operation in every tile)
        b0, b1, b2, b3 = x0 if x0 > cx0 else cx0, y0 if y0 > cy0 else cy0, x1 if x1 < cx1 else cx1, y1 if y1 < cy1 else cy1
        if b0 >= b2 or b1 >= b3:
            continue
        k = 0
        while k < len(parts):   # join the first part it pays to join; the grown box tries the others again
            c0, c1, c2, c3 = parts[k]
            u0, u1 = b0 if b0 < c0 else c0, b1 if b1 < c1 else c1
            u2, u3 = b2 if b2 > c2 else c2, b3 if b3 > c3 else c3
            if (u2 - u0) * (u3 - u1) <= (b2 - b0) * (b3 - b1) + (c2 - c0) * (c3 - c1) + cost:
                del parts[k]
                b0, b1, b2, b3, k = u0, u1, u2, u3, 0
            else:
                k += 1
        parts.append((b0, b1, b2, b3))
    if len(parts) == 1:
        return parts
    apart: list[tuple[int, int, int, int]] = []
    for part in parts:
        pieces = [part]
        for other in apart:
            pieces = [piece for p in pieces for piece in _cut(p, other)]
        apart += pieces
    return apart


def _cut(box: tuple[int, int, int, int], hole: tuple[int, int, int, int]) -> list[tuple[int, int, int, int]]:
    """``box`` without ``hole``: itself, or up to four boxes around the hole."""
    b0, b1, b2, b3 = box
    h0, h1, h2, h3 = hole
    if h0 >= b2 or b0 >= h2 or h1 >= b3 or b1 >= h3:
        return [box]
    out = []
    if b1 < h1:
        out.append((b0, b1, b2, h1))
    if h3 < b3:
        out.append((b0, h3, b2, b3))
    y0, y1 = max(b1, h1), min(b3, h3)
    if b0 < h0:
        out.append((b0, y0, h0, y1))
    if h2 < b2:
        out.append((h2, y0, b2, y1))
    return out
