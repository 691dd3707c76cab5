"""One canvas operation drawn with pillow's drawing core on a crop, and colours packed for it.

The canvas (see ``_raster``) queues operations as tuples of whole supersampled pixels;
:func:`_draw_op` draws one of them, moved into a crop, in its colours or in one pass's code
(see ``_passes``).
"""

from __future__ import annotations

from operator import sub as _sub

import numpy as np
from PIL import Image, ImageDraw

__all__ = ["ink"]


#: Points a crop's ``shift`` (see :func:`_draw_op`) moves in plain Python; longer rings use numpy.
_CHUNK_SHIFT = 32


def _draw_op(core, crop, op: tuple, X0: int, Y0: int, off: np.ndarray, shift: tuple = (), left: int = 0,
             layer: tuple | None = None) -> None:
    """Draw one operation with pillow's drawing ``core`` on the image core ``crop``; ``X0,
    Y0``: the crop's top-left corner in supersampled map pixels (``off``: the same as an
    int32 array, ``shift``: as ``(X0, Y0)`` repeated, both made once per crop); ``left``:
    the crop's first column that is read (see ``_crops._span``). ``layer``: only that layer
    of it, in its code (see ``_passes.passes``); without it, all of it in its colours."""
    kind = op[0]
    if layer is not None:
        part, code = layer[1], layer[2]
    if kind == "line":
        _, points, c, w, round_ends, joints = op
        if layer is not None:
            c = code
        # flat whole numbers moved into the crop (plain Python: cheaper than arrays for pieces)
        flat = list(map(_sub, points, shift if len(points) <= len(shift) else (X0, Y0) * (len(points) // 2)))
        core.draw_lines(flat, c, w)
        if w > 2:
            # discs as _dot draws them, inline (a map draws thousands)
            ellipse, lo, span = core.draw_ellipse, w // 2, w - 1
            # only the joints and round ends near this crop (a long piece crosses several);
            # a disc drawn twice in one colour draws the same pixels
            W, H = crop.size
            L = left - w - lo
            last = len(flat) // 2 - 1
            for i in (*joints, *((0,) if round_ends[0] else ()), *((last,) if round_ends[1] else ())):
                x, y = flat[2 * i] - lo, flat[2 * i + 1] - lo
                if L < x < W + w - lo and -w - lo < y < H + w - lo:
                    ellipse((x, y, x + span, y + span), c, 1)
        return
    if kind == "segments":
        _, points, c, w = op
        if layer is not None:
            c = code
        flat = list(map(_sub, points, shift if len(points) <= len(shift) else (X0, Y0) * (len(points) // 2)))
        line = core.draw_lines
        for i in range(0, len(flat), 4):
            line(flat[i:i + 4], c, w)
        return
    if kind == "ellipse":
        _, (x0, y0, x1, y1), fill, outline, w = op
        box = (x0 - X0, y0 - Y0, x1 - X0, y1 - Y0)
        if layer is None:   # as ImageDraw.ellipse does it
            fill_ink = ink(fill) if fill is not None else None
            outline_ink = ink(outline) if outline is not None and ink(outline) != fill_ink and w != 0 else None
        else:
            fill_ink, outline_ink = (code if part == "fill" else None), (code if part == "outline" else None)
        if fill_ink is not None:
            core.draw_ellipse(box, fill_ink, 1)
        if outline_ink is not None:
            core.draw_ellipse(box, outline_ink, 0, w)
        return
    if kind == "polygon":
        _, points, fill, outline, w = op
    else:
        _, rings, fill, outline, w, joints = op
        fill, outline = (None if fill is None else ink(fill)), (None if outline is None else ink(outline))
    if layer is not None:
        fill, outline = (code if part == "fill" else None), (code if part == "outline" else None)
    if kind == "polygon":
        flat = list(map(_sub, points, shift if len(points) <= len(shift) else (X0, Y0) * (len(points) // 2)))
        if fill is not None:
            core.draw_polygon(flat, fill, 1)
        if outline is not None:
            core.draw_lines(flat + flat[:2], outline, w)
            if w > 2:
                for i in range(0, len(flat), 2):
                    _dot(core, flat[i], flat[i + 1], w, outline)
        return

    def tr(points) -> list:
        if len(points) * 2 <= len(shift):   # short rings: cheaper than an array subtraction
            return list(map(_sub, points.ravel().tolist(), shift))
        return (points - off).ravel().tolist()

    if fill is not None and len(rings) == 1:
        core.draw_polygon(tr(rings[0]), fill, 1)
    elif fill is not None:
        # holes: a mask over the shape's own box only
        outer = rings[0] - off
        bx0 = max(0, int(outer[:, 0].min()))
        by0 = max(0, int(outer[:, 1].min()))
        bx1 = min(crop.size[0], int(outer[:, 0].max()) + 2)
        by1 = min(crop.size[1], int(outer[:, 1].max()) + 2)
        if bx1 > bx0 and by1 > by0:
            mask = Image.new("L", (bx1 - bx0, by1 - by0), 0)
            mdraw = ImageDraw.Draw(mask)
            corner = np.array((bx0, by0), dtype=np.int32)
            mdraw.polygon((outer - corner).ravel().tolist(), fill=255)
            for hole in rings[1:]:
                mdraw.polygon((hole - off - corner).ravel().tolist(), fill=0)
            crop.paste(fill, (bx0, by0, bx1, by1), mask.im)
    if outline is not None:
        for ring, ring_joints in zip(rings, joints):
            flat = tr(ring)
            core.draw_lines(flat, outline, w)
            for i in ring_joints:
                _dot(core, flat[2 * i], flat[2 * i + 1], w, outline)


def _dot(core, x: int, y: int, width: int, c: int) -> None:
    """A disc of diameter ``width`` centred on the whole pixel ``(x, y)`` (integer box), in
    the packed colour ``c`` on pillow's drawing core."""
    lo = width // 2
    core.draw_ellipse((x - lo, y - lo, x - lo + width - 1, y - lo + width - 1), c, 1)


_INK: dict = {}
_PROBE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


def ink(colour) -> int:
    """``colour`` packed for pillow's drawing core on an RGB image (what ImageDraw does on
    every call; drawing through the core with it skips that)."""
    if isinstance(colour, list):
        colour = tuple(colour)
    packed = _INK.get(colour)
    if packed is None:
        packed = _INK[colour] = _PROBE._getink(colour)[0]
    return packed
