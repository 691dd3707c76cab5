"""Anti-aliased vector drawing on large pillow images, and small polyline helpers.

Pillow draws lines and polygons without anti-aliasing. :class:`Canvas` collects vector
operations and draws them tile by tile, in passes of a few colours (see :func:`passes`): in
each tile, each pass draws its operations at ``factor`` times the resolution into a one-byte
crop, each colour in a code of its own, only in the parts near them (a box or a few, see
``_parts``); a box filter reduces the codes to each pixel's count of subpixels of each colour,
a table makes that its premultiplied colour and cover, and pillow lays it over the tile. So
memory stays at one tile, the supersampled area follows the lines (not the map), untouched
pixels stay as they are, and a pass gives the pixels its layers would give drawn in colour
on the tile enlarged and reduced (to a level or two), at a quarter of the bytes and with no
enlarging.

Coordinates are map pixels; the image may be any window of the map (``origin`` is the map
pixel of its top-left corner). Every coordinate is rounded to whole (supersampled) pixels
in map space before it is shifted into the window, and each tile is drawn with a margin that
is thrown away, so a window draws exactly the pixels the whole map would: pillow truncates
towards zero and rounds half away from zero, which is not the same on both sides of a
window's edge. Each tile is drawn at the right end of a crop 8,192 supersampled pixels wide,
its columns all of one power of two (see ``_span``), so pillow's float arithmetic rounds the
same in every tile.
"""

from __future__ import annotations

import itertools
import math
import threading
from bisect import bisect_left, bisect_right
from operator import sub as _sub
from functools import lru_cache
from typing import Iterable, Sequence

import numpy as np
import shapely
from PIL import Image, ImageDraw

Point = tuple[float, float]

#: Points per piece of a long polyline.
_CHUNK = 12

#: How far (in supersampled pixels) a polyline may move when points that lie almost on a
#: straight line between their neighbours are dropped: under the half pixel snapping moves
#: every point anyway, so the drawn line looks the same with far fewer segments to fill.
_TOLERANCE = 0.25

#: Pixels drawn around each tile and thrown away (see the module docstring).
PAD = 2

#: The side of a canvas's tiles (pixels): each tile an operation crosses draws it again and
#: costs a few calls of its own (1,024 against 512: 2.5% fewer instructions painting a 150 dpi map).
TILE = 1024

#: The length of the slabs a long shape is filled in (see Canvas.shape): so many pixels of the
#: map whatever the tile, so a shape has the same seams in every canvas.
SLAB = 128

#: How far past its box (its points and half its width) an operation may draw, in supersampled
#: pixels: snapping its points and pillow's own rounding of wide lines, polygons and discs reach
#: up to 1.75 (measured on every bundled map at 72 to 200 dpi). Only the pixels this near an
#: operation are drawn, reduced and laid over the tile (see Canvas.flush).
REACH = 3


def snap(v: float) -> int:
    """Round to a whole pixel the same way wherever the window is (half up)."""
    return math.floor(v + 0.5)

__all__ = ["Canvas", "Recorder", "PAD", "ink", "snap", "chaikin", "dashes", "walk", "polyline_length"]


class Canvas:
    """Vector operations queued for anti-aliased drawing onto ``image`` (RGB) by tiles.

    Operations are kept in supersampled whole pixels of the map (``factor`` times the map's
    pixels), snapped when they are queued."""

    def __init__(self, image: Image.Image | None, factor: int = 3, tile: int = TILE,
                 origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.factor = max(1, int(factor))
        self.tile = tile
        self.origin = origin
        self._ops: list[tuple] = []
        self._bins: dict[tuple[int, int], list[int]] = {}
        self._boxes: dict[tuple[int, int], list[float]] = {}   # per tile: the box its ops cover
        self._reach: list[tuple[int, int, int, int]] = []   # per op: the pixels it may draw in (see REACH)
        self._layers: tuple | None = None   # the ops' passes, when given with them (see add_many)
        # the last tile of a row or column takes a sliver left at the image's edge (a window
        # of 1024 pixels and a margin would end in tiles of 4 pixels, each a full round)
        self._last = (_last_tile(image.size[0], tile), _last_tile(image.size[1], tile)) if image else (1 << 30,) * 2

    # -- queueing --------------------------------------------------------------------------

    def _snap(self, points) -> np.ndarray:
        """Points as an (n, 2) array of whole supersampled pixels (compact: a monster map
        holds hundreds of thousands of them)."""
        return np.floor(np.asarray(points, dtype=float).reshape(-1, 2) * self.factor + 0.5).astype(np.int32)

    def _bin(self, boxes: Iterable[tuple[float, float, float, float]], pad: float) -> None:
        index = len(self._ops) - 1
        t = self.tile
        ox, oy = self.origin
        boxes = list(boxes)
        r = pad + REACH / self.factor
        self._reach.append((math.floor(min(b[0] for b in boxes) - ox - r), math.floor(min(b[1] for b in boxes) - oy - r),
                            math.ceil(max(b[2] for b in boxes) - ox + r), math.ceil(max(b[3] for b in boxes) - oy + r)))
        pad += PAD + 1
        seen: set[tuple[int, int]] = set()
        for x0, y0, x1, y1 in boxes:
            x0, x1, y0, y1 = x0 - ox - pad, x1 - ox + pad, y0 - oy - pad, y1 - oy + pad
            lx, ly = self._last
            for tx in range(max(0, min(lx, int(x0 // t))), min(lx, int(x1 // t)) + 1):
                for ty in range(max(0, min(ly, int(y0 // t))), min(ly, int(y1 // t)) + 1):
                    key = (tx, ty)
                    if key not in seen:
                        seen.add(key)
                        self._bins.setdefault(key, []).append(index)
                    cover = self._boxes.get(key)
                    if cover is None:
                        self._boxes[key] = [x0, y0, x1, y1]
                    else:
                        cover[0], cover[1] = min(cover[0], x0), min(cover[1], y0)
                        cover[2], cover[3] = max(cover[2], x1), max(cover[3], y1)

    def line(self, points: Sequence[Point], fill, width: float, *, round_ends: bool = True) -> None:
        """A polyline of ``width`` pixels with round joints (and round ends)."""
        if len(points) < 2:
            return
        exact = _simplify(np.asarray(points, dtype=float).reshape(-1, 2), _TOLERANCE / self.factor)
        w = max(1, round(width * self.factor))
        snapped = self._snap(exact)
        sharp = list(_sharp_vertices(snapped, w)) if w > 2 else []
        self._pieces(exact, snapped, fill, w, width, round_ends, sharp)

    def _pieces(self, exact: np.ndarray, snapped: np.ndarray, fill, w: int, width: float, round_ends: bool,
                sharp: Sequence[int]) -> None:
        """Queue a polyline (``exact`` map pixels, ``snapped`` to the supersampled grid) as
        short overlapping pieces, so a tile only draws what crosses it; two shared points make
        every vertex an inner vertex of some piece (``sharp``: the vertices that get a disc)."""
        n = len(exact)
        xs, ys = exact[:, 0].tolist(), exact[:, 1].tolist()
        # flat whole numbers and the packed ink: what the drawing core takes, made once per line
        flat, c = snapped.ravel().tolist(), ink(fill)
        step = _CHUNK
        starts = range(0, max(1, n - 2), step) if n > step + 2 else [0]
        for k in starts:
            end = min(n, k + step + 2)
            if end - k < 2:
                continue
            first, last = k == 0, k + step + 2 >= n
            near = sharp[bisect_right(sharp, k):bisect_left(sharp, end - 1)] if sharp else ()
            joints = tuple([i - k for i in near]) if near else ()
            self._ops.append(("line", flat[2 * k:2 * end], c, w, (round_ends and first, round_ends and last), joints))
            px, py = xs[k:end], ys[k:end]
            self._bin([(min(px), min(py), max(px), max(py))], width / 2)

    def segments(self, pairs: Sequence[tuple[Point, Point]], fill, width: float) -> None:
        """Short separate straight strokes with square ends (rail ties, slope ticks), queued
        a few at a time: the same pixels as one :meth:`line` each, far fewer operations."""
        w = max(1, round(width * self.factor))
        if not len(pairs):
            return
        pts = np.asarray(pairs, dtype=float).reshape(-1, 2)
        snapped = self._snap(pts)
        starts = np.arange(0, len(pts), 16)
        lo, hi = np.minimum.reduceat(pts, starts).tolist(), np.maximum.reduceat(pts, starts).tolist()
        c = ink(fill)
        for k, (x0, y0), (x1, y1) in zip(starts.tolist(), lo, hi):
            self._ops.append(("segments", snapped[k:k + 16].ravel().tolist(), c, w))
            self._bin([(x0, y0, x1, y1)], width / 2)

    def polygon(self, points: Sequence[Point], fill=None, outline=None, width: float = 1) -> None:
        """A filled and/or outlined polygon."""
        self._ops.append(("polygon", self._snap(points).ravel().tolist(), None if fill is None else ink(fill),
                          None if outline is None else ink(outline), max(1, round(width * self.factor))))
        self._bin([_box(points)], width / 2)

    def shape(self, geom, fill=None, outline=None, width: float = 1) -> None:
        """A shapely Polygon or MultiPolygon, holes included."""
        if geom.is_empty:
            return
        polys = list(getattr(geom, "geoms", [geom]))
        w = max(1, round(width * self.factor))
        for poly in polys:
            if poly.geom_type != "Polygon" or poly.is_empty:
                continue
            x0, y0, x1, y1 = poly.bounds
            t = SLAB
            if max(x1 - x0, y1 - y0) <= 2 * t:
                rings = [self._snap(poly.exterior.coords)] + [self._snap(r.coords) for r in poly.interiors]
                joints = [_sharp_vertices(r, w) if w > 2 else () for r in rings]
                self._ops.append(("shape", rings, fill, outline, w, joints))
                self._bin([poly.bounds], width / 2)
                continue
            # a long shape (a band along a map edge): filled in slabs a tile long and outlined
            # in pieces, so each tile fills and strokes only what crosses it, not the whole shape
            if fill is not None:
                along = 0 if x1 - x0 >= y1 - y0 else 1
                lo, hi = (x0, x1) if along == 0 else (y0, y1)
                for a in range(math.floor(lo / t) * t, math.ceil(hi), t):
                    box = (a, y0 - 1, a + t, y1 + 1) if along == 0 else (x0 - 1, a, x1 + 1, a + t)
                    try:
                        piece = shapely.clip_by_rect(poly, *box)
                    except shapely.errors.GEOSException:  # GEOS's fast clip fails on some near-degenerate rings
                        piece = shapely.make_valid(poly).intersection(shapely.box(*box))
                    self.shape(piece, fill, None, width)
            if outline is not None:
                for ring in (poly.exterior, *poly.interiors):
                    exact = np.asarray(ring.coords, dtype=float)
                    snapped = self._snap(exact)
                    self._pieces(exact, snapped, outline, w, width, False, _sharp_vertices(snapped, w) if w > 2 else ())

    def ellipse(self, cx: float, cy: float, r: float, fill=None, outline=None, width: float = 1) -> None:
        f = self.factor
        x0, y0, x1, y1 = (math.floor(v * f + 0.5) for v in (cx - r, cy - r, cx + r, cy + r))
        self._ops.append(("ellipse", (x0, y0, x1, y1), fill, outline, max(1, round(width * self.factor))))
        self._bin([(cx - r, cy - r, cx + r, cy + r)], 0)

    def add(self, op: tuple, box: tuple[float, float, float, float], pad: float) -> None:
        """Queue an operation recorded elsewhere (see :class:`Recorder`), with its box."""
        self._ops.append(op)
        self._bin([box], pad)

    def add_many(self, ops: Sequence[tuple], boxes: np.ndarray, pads: np.ndarray,
                 passes: tuple[list, list] | None = None) -> None:
        """:meth:`add` for many operations at once (``boxes``: N x 4, ``pads``: N), binned
        into the same tiles with the same cover boxes, in one pass of array arithmetic.
        ``passes``: the operations' layers and the passes' tables, as :func:`passes` made them
        for a list these operations were taken from in order (a map's: then every window
        draws in the same passes); without it, the canvas's own operations are put in passes."""
        self._layers = passes if passes is not None and not self._ops else None
        if self._ops or not len(ops):
            for op, box, pad in zip(ops, boxes.tolist(), pads.tolist()):
                self.add(op, box, pad)
            return
        self._ops.extend(ops)
        t = self.tile
        ox, oy = self.origin
        lx, ly = self._last
        r = pads + REACH / self.factor
        self._reach.extend(zip(*(np.floor(v).astype(np.int64).tolist() for v in (boxes[:, 0] - ox - r, boxes[:, 1] - oy - r)),
                               *(np.ceil(v).astype(np.int64).tolist() for v in (boxes[:, 2] - ox + r, boxes[:, 3] - oy + r))))
        p = pads + (PAD + 1)
        x0, x1 = boxes[:, 0] - ox - p, boxes[:, 2] - ox + p
        y0, y1 = boxes[:, 1] - oy - p, boxes[:, 3] - oy + p
        # the tiles each box reaches (as _bin: clamped to the last tile, none left of the first)
        tx0 = np.clip(np.floor(x0 / t), 0, lx).astype(np.int64)
        tx1 = np.minimum(lx, np.floor(x1 / t)).astype(np.int64)
        ty0 = np.clip(np.floor(y0 / t), 0, ly).astype(np.int64)
        ty1 = np.minimum(ly, np.floor(y1 / t)).astype(np.int64)
        nx, ny = np.maximum(tx1 - tx0 + 1, 0), np.maximum(ty1 - ty0 + 1, 0)
        counts = nx * ny
        if not counts.sum():
            return   # near the window, but reaching none of its tiles
        op = np.repeat(np.arange(len(ops)), counts)
        k = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        tx = tx0[op] + k // ny[op]
        ty = ty0[op] + k % ny[op]
        key = tx * (ly + 1) + ty
        order = np.argsort(key, kind="stable")            # each tile's operations keep their order
        key, op = key[order], op[order]
        starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
        cover = np.stack([np.minimum.reduceat(x0[op], starts), np.minimum.reduceat(y0[op], starts),
                          np.maximum.reduceat(x1[op], starts), np.maximum.reduceat(y1[op], starts)], axis=1)
        ops_of = np.split(op, starts[1:])
        for kk, members, box in zip(key[starts].tolist(), ops_of, cover.tolist()):
            self._bins[divmod(kk, ly + 1)] = members.tolist()
            self._boxes[divmod(kk, ly + 1)] = box

    # -- drawing ---------------------------------------------------------------------------

    def flush(self) -> None:
        """Draw every queued operation onto the image, then forget them."""
        f, t = self.factor, self.tile
        W, H = self.image.size
        ox, oy = self.origin
        self.image.load()
        core = self.image.im
        reach, ops = self._reach, self._ops
        layers, luts = self._layers or passes(ops, f)
        for (tx, ty), indices in sorted(self._bins.items()):
            # the box the tile's operations cover (they draw nothing outside their boxes,
            # which are padded)
            cx0, cy0, cx1, cy1 = self._boxes[(tx, ty)]
            right = W if tx == self._last[0] else (tx + 1) * t
            bottom = H if ty == self._last[1] else (ty + 1) * t
            x0, y0 = max(tx * t, math.floor(cx0)), max(ty * t, math.floor(cy0))
            x1, y1 = min(W, right, math.ceil(cx1)), min(H, bottom, math.ceil(cy1))
            if x0 >= x1 or y0 >= y1:
                continue
            # a margin around the tile, drawn and thrown away: pixels at a crop's edge are
            # where pillow's rounding differs from one window to another
            bx0, by0 = max(0, x0 - PAD), max(0, y0 - PAD)
            w, h = min(W, x1 + PAD) - bx0, min(H, y1 + PAD) - by0
            # Only the parts of the tile near its operations are drawn and reduced (a road and
            # a railway crossing it: two bands, not the square around both). The crop keeps the
            # tile's corner (pillow rounds edges from a drawing's corner: the same corner, the
            # same pixels); the rest of it is left over from earlier tiles, drawn on and never
            # read. One spare crop for every tile (see _spare); drawing clips at its edges, so
            # a larger one draws the same pixels.
            # the tile lies at the right end of a crop SPAN wide, its columns in [SPAN / 2, SPAN)
            # whatever the tile (see _span)
            span = _span(w * f)
            left = span - w * f
            crop = _spare(span, h * f)
            draw = Image.core.draw(crop, 0)
            X0, Y0 = (ox + bx0) * f - left, (oy + by0) * f
            off = np.array((X0, Y0), dtype=np.int32)
            shift = (X0, Y0) * _CHUNK_SHIFT
            # the tile's layers, pass by pass (a pass's layers are consecutive)
            groups: list = []
            for i in indices:
                for layer in layers[i]:
                    if groups and groups[-1][0] == layer[0]:
                        groups[-1][1].append((i, layer))
                    else:
                        groups.append((layer[0], [(i, layer)]))
            clip = (x0, y0, x1, y1)
            for number, members in groups:
                parts = _parts([reach[i] for i, _ in members], clip, f)
                boxes = [(left + (a0 - bx0) * f, (b0 - by0) * f, left + (a1 - bx0) * f, (b1 - by0) * f)
                         for a0, b0, a1, b1 in parts]
                for inner in boxes:
                    crop.paste(0, inner)
                for i, layer in members:
                    _draw_op(draw, crop, ops[i], X0, Y0, off, shift, left, layer)
                lut = luts[number]
                for part, inner in zip(parts, boxes):
                    # each pixel's count of subpixels of each colour, made its premultiplied
                    # colour and cover, laid over the tile
                    mixed = (crop.reduce((f, f), inner) if f > 1 else crop.crop(inner)).point(lut, "RGBa")
                    core.paste(mixed, part, mixed)
        self._ops.clear()
        self._layers = None
        self._bins.clear()
        self._boxes.clear()
        self._reach.clear()


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


#: The codes a pass's colours draw in, per factor: every choice of a pixel's subpixels among
#: them (and the ground) sums, and so reduces, to a value of its own (see :func:`_decoder`).
#: At 1x nothing is summed: any 255 codes.
CODES = {1: tuple(range(1, 256)), 2: (13, 30, 101, 123), 3: (9, 90)}


def passes(ops: Sequence[tuple], factor: int) -> tuple[list[tuple], list[list[int]]]:
    """The layers of ``ops`` (an operation's fill and its outline) in passes, each drawn in
    one crop of codes: per operation its layers as ``(pass, part, code)`` (part: "fill",
    "outline" or None for the whole operation), and per pass the table that makes a reduced
    code a premultiplied colour and cover.

    Each colour of a pass draws a code of :data:`CODES`, so the box filter's sum of a pixel's
    subpixels says how many are of each colour, and a later layer overwrites an earlier one
    as it would in colour: a pass draws exactly what its layers would draw in colour at the
    supersampled size, reduced. A pass holds 4 colours at 2x, 2 at 3x, 1 at more, 255 at 1x;
    passes follow the operations' order, so they are the same in every window (where the
    edges of two passes fall in one pixel, the later blends over the earlier's blend, in every
    window alike)."""
    codes = CODES.get(factor, (factor * factor,))
    room = len(codes)
    drawn = [_layers(op) for op in ops]
    # runs of layers of one colour, in order: (colour, [(operation, layer)])
    runs: list[tuple[int, list]] = []
    for i, mine in enumerate(drawn):
        for k, (_, c) in enumerate(mine):
            if runs and runs[-1][0] == c:
                runs[-1][1].append((i, k))
            else:
                runs.append((c, [(i, k)]))
    # each run's pass: a pass takes runs while their colours fit; a run that does not fit
    # starts the next pass with the run before it if that one brought its colour (an outline
    # and its fill, a road and its casing, a deck and its river stay in one pass)
    number = [0] * len(runs)
    colours: list[list[int]] = [[]]
    first: dict[int, int] = {}   # the pass's colours: the run that brought each
    for r, (c, _) in enumerate(runs):
        if c not in first and len(first) == room:
            prev = runs[r - 1][0]
            if first.get(prev) == r - 1 and len(first) > 1 and room > 1:
                colours[-1].remove(prev)
                colours.append([prev])
                first = {prev: r - 1}
                number[r - 1] = len(colours) - 1
            else:
                colours.append([])
                first = {}
        if c not in first:
            first[c] = r
            colours[-1].append(c)
        number[r] = len(colours) - 1
    layers: list[list] = [[None] * len(mine) for mine in drawn]
    for (c, members), n in zip(runs, number):
        code = codes[colours[n].index(c)]
        for i, k in members:
            layers[i][k] = (n, drawn[i][k][0], code)
    return [tuple(mine) for mine in layers], [_table(c, factor) for c in colours]


@lru_cache(maxsize=8)
def _decoder(factor: int) -> dict[int, tuple[int, ...]]:
    """Per reduced value of a pass's crop, how many of the pixel's subpixels are of each code
    of :data:`CODES`: found by reducing every choice with pillow itself (its rounding)."""
    codes = CODES.get(factor, (factor * factor,))
    f2 = factor * factor
    if factor == 1:
        return {0: (0,) * len(codes)} | {code: tuple(int(j == i) for j in range(len(codes))) for i, code in enumerate(codes)}
    choices = [c for c in itertools.product(range(f2 + 1), repeat=len(codes)) if sum(c) <= f2]
    block = Image.new("L", (factor * len(choices), factor), 0)
    for n, counts in enumerate(choices):
        values = [code for code, k in zip(codes, counts) for _ in range(k)]
        for k, value in enumerate(values):
            block.putpixel((n * factor + k % factor, k // factor), value)
    reduced = list(block.reduce(factor).tobytes())
    if len(set(reduced)) != len(reduced):
        raise AssertionError(f"codes {codes} do not reduce apart at {factor}x")
    return dict(zip(reduced, choices))


@lru_cache(maxsize=1024)
def _table_cached(colours: tuple, factor: int) -> tuple:
    f2 = factor * factor
    rgb = [(c & 255, (c >> 8) & 255, (c >> 16) & 255) for c in colours]
    out = [[0] * 256 for _ in range(4)]
    for v, counts in _decoder(factor).items():
        mix = [(k, c) for k, c in zip(counts, rgb) if k]
        cover = sum(k for k, _ in mix)
        for ch in range(3):
            out[ch][v] = (2 * sum(k * c[ch] for k, c in mix) + f2) // (2 * f2)
        out[3][v] = (2 * 255 * cover + f2) // (2 * f2)
    return tuple(out[0] + out[1] + out[2] + out[3])


def _table(colours: list[int], factor: int) -> list[int]:
    """The table that makes a pass's reduced codes premultiplied RGBa (see :func:`passes`)."""
    return list(_table_cached(tuple(colours), factor))


def _layers(op: tuple) -> list[tuple[str | None, int]]:
    """What ``op`` draws, in order: ``(part, packed colour)``, part "fill", "outline" or None
    (the whole operation, of one colour)."""
    kind = op[0]
    if kind in ("line", "segments"):
        return [(None, op[2])]
    if kind == "ellipse":
        fill, outline, w = op[2], op[3], op[4]
        fill_ink = ink(fill) if fill is not None else None
        out = [("fill", fill_ink)] if fill_ink is not None else []
        if outline is not None and ink(outline) != fill_ink and w != 0:   # as ImageDraw.ellipse
            out.append(("outline", ink(outline)))
        return out
    fill, outline = op[2], op[3]
    if kind == "shape":
        fill, outline = (None if fill is None else ink(fill)), (None if outline is None else ink(outline))
    return [(part, c) for part, c in (("fill", fill), ("outline", outline)) if c is not None]


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


class Recorder(Canvas):
    """Collects canvas operations with their boxes, to be replayed into any window later
    (:meth:`Canvas.add` on a canvas of the same ``factor``). Each operation is noted with the
    :attr:`kind` set when it was recorded (what the planner calls it: linework, a bridge).

    Polylines are kept in their place and made into operations all together when
    :attr:`items` is read: simplified, snapped and searched for sharp vertices in a few calls
    for all of them (a map has hundreds of shores, rivers and bridge wings: a call or two each
    cost more than their points), the same numbers as :meth:`Canvas.line` makes line by line."""

    def __init__(self, factor: int) -> None:
        super().__init__(None, factor)
        self.kind: str | None = None
        self._entries: list = []   # (op, box, pad) per operation, None where a polyline waits
        self._kinds: list[str | None] = []
        self._waiting: list[tuple] = []   # (points, fill, width, round_ends) of those polylines

    @property
    def items(self) -> list[tuple[tuple, tuple, float]]:
        """Every operation recorded so far, in order: (op, box, pad)."""
        self._settle()
        return self._entries

    @property
    def kinds(self) -> list[str | None]:
        """The :attr:`kind` each of :attr:`items` was recorded under."""
        self._settle()
        return self._kinds

    def line(self, points: Sequence[Point], fill, width: float, *, round_ends: bool = True) -> None:
        if len(points) >= 2:
            self._waiting.append((points, fill, width, round_ends))
            self._entries.append(None)
            self._kinds.append(self.kind)

    def _bin(self, boxes, pad: float) -> None:
        op = self._ops.pop()
        for box in boxes:
            self._entries.append((op, tuple(box), pad))
            self._kinds.append(self.kind)

    def _settle(self) -> None:
        """Make the waiting polylines into operations, each in its place."""
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        entries, kinds = self._entries, self._kinds
        first = entries.index(None)
        self._entries, self._kinds = [], []   # each polyline's pieces land here, in turn
        ends = []
        widths = [max(1, round(width * self.factor)) for _, _, width, _ in waiting]
        for (_, fill, width, round_ends), w, (exact, snapped, sharp) in zip(
                waiting, widths, _prepared([p for p, *_ in waiting], widths, self.factor)):
            self._pieces(exact, snapped, fill, w, width, round_ends, sharp)
            ends.append(len(self._entries))
        pieces, out, out_kinds = self._entries, entries[:first], kinds[:first]
        k = start = 0
        for entry, kind in zip(entries[first:], kinds[first:]):
            if entry is None:
                out += pieces[start:ends[k]]
                out_kinds += [kind] * (ends[k] - start)
                start = ends[k]
                k += 1
            else:
                out.append(entry)
                out_kinds.append(kind)
        self._entries, self._kinds = out, out_kinds


def _prepared(lines: list, widths: list[int], factor: int) -> list[tuple[np.ndarray, np.ndarray, list[int]]]:
    """What :meth:`Canvas.line` makes of each polyline of ``lines`` (``widths``: in
    supersampled pixels): its simplified points, snapped, and its sharp vertices; the same
    arithmetic on all the lines' points at once."""
    arrays = [np.asarray(p, dtype=float).reshape(-1, 2) for p in lines]
    counts = [len(a) for a in arrays]
    long = [i for i, n in enumerate(counts) if n >= 3]
    if long:   # _simplify, every line in one call
        geoms = shapely.linestrings(np.concatenate([arrays[i] for i in long]),
                                    indices=np.repeat(np.arange(len(long)), [counts[i] for i in long]))
        kept, index = shapely.get_coordinates(shapely.simplify(geoms, _TOLERANCE / factor, preserve_topology=False),
                                              return_index=True)
        ends = np.cumsum(np.bincount(index, minlength=len(long))).tolist()
        for i, start, end in zip(long, [0] + ends, ends):
            arrays[i] = kept[start:end]
            counts[i] = end - start
    exact = np.concatenate(arrays)
    snapped = np.floor(exact * factor + 0.5).astype(np.int32)   # Canvas._snap
    starts = [0]
    for n in counts:
        starts.append(starts[-1] + n)
    # _sharp_vertices of every line at once: a vertex inside its line (the steps before and
    # after it both its line's) is sharp where the turn passes its width's limit
    sharp_at: list[list[int]] = [[] for _ in lines]
    if len(exact) >= 3 and any(w > 2 for w in widths):
        p = snapped.astype(float)
        steps = p[1:] - p[:-1]
        lengths = np.hypot(steps[:, 0], steps[:, 1])
        a, b, na, nb = steps[:-1], steps[1:], lengths[:-1], lengths[1:]
        ok = (na > 0) & (nb > 0)
        cos = np.where(ok, (a * b).sum(axis=1) / np.where(ok, na * nb, 1.0), 1.0)
        # each vertex's limit; none at the ends of a line, nor on a line too thin for joints
        limit = np.repeat(np.asarray([_notch_limit(w) if w > 2 else -2.0 for w in widths]), counts)
        first, n = np.asarray(starts[:-1]), np.asarray(counts)
        limit[first[n > 0]] = -2.0
        limit[(first + n - 1)[n > 0]] = -2.0
        at = (np.flatnonzero(cos < limit[1:-1]) + 1).tolist()
        line = 0
        for vertex in at:   # in order: each line's after the last's
            while vertex >= starts[line + 1]:
                line += 1
            sharp_at[line].append(vertex - starts[line])
    return [(exact[s:e], snapped[s:e], sharp) for s, e, sharp in zip(starts, starts[1:], sharp_at)]


def _last_tile(size: int, tile: int) -> int:
    """Index of the last tile along a side of ``size`` pixels: a sliver under a quarter
    tile joins the tile before it."""
    last = max(0, (size - 1) // tile)
    if last and size - last * tile < tile // 4:
        last -= 1
    return last


#: Points a crop's ``shift`` (see :func:`_draw_op`) moves in plain Python; longer rings use numpy.
_CHUNK_SHIFT = 32


def _draw_op(core, crop, op: tuple, X0: int, Y0: int, off: np.ndarray, shift: tuple = (), left: int = 0,
             layer: tuple | None = None) -> None:
    """Draw one operation with pillow's drawing ``core`` on the image core ``crop``; ``X0,
    Y0``: the crop's top-left corner in supersampled map pixels (``off``: the same as an
    int32 array, ``shift``: as ``(X0, Y0)`` repeated, both made once per crop); ``left``:
    the crop's first column that is read (see _span). ``layer``: only that layer of it, in its
    code (see :func:`passes`); without it, all of it in its colours."""
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


@lru_cache(maxsize=256)
def _notch_limit(width: float) -> float:
    # the notch at a turn of angle a is about width/2 * sin(a/2): keep it under half a pixel
    return math.cos(min(math.pi / 2, 2 * math.asin(min(1.0, 1.0 / max(1.0, width)))))


def _sharp_vertices(pts, width: float) -> tuple[int, ...]:
    """Indices of inner vertices where a wide line turns enough to leave a visible notch."""
    p = np.asarray(pts, dtype=float)
    if len(p) < 3:
        return ()
    # each step and its length once: a step is the outgoing one of a vertex, the incoming of the next
    steps = p[1:] - p[:-1]
    lengths = np.hypot(steps[:, 0], steps[:, 1])
    a, b, na, nb = steps[:-1], steps[1:], lengths[:-1], lengths[1:]
    ok = (na > 0) & (nb > 0)
    cos = np.where(ok, (a * b).sum(axis=1) / np.where(ok, na * nb, 1.0), 1.0)
    return tuple((np.nonzero(cos < _notch_limit(width))[0] + 1).tolist())


def _simplify(points: np.ndarray, tolerance: float) -> np.ndarray:
    """``points`` without the ones that lie within ``tolerance`` of the line through the
    points kept around them (Douglas-Peucker; ends kept). A smooth road of ten points a hex
    drawn straight along a row becomes two points."""
    if len(points) < 3:
        return points
    return shapely.get_coordinates(shapely.simplify(shapely.linestrings(points), tolerance,
                                                    preserve_topology=False))


def _box(points: Sequence[Point]) -> tuple[float, float, float, float]:
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)




# -- polyline helpers ----------------------------------------------------------------------

def chaikin(points: Sequence[Point], iterations: int = 3, closed: bool = False) -> list[Point]:
    """Chaikin corner cutting: a smooth curve that keeps the end points.

    The midpoint of every original segment stays on the curve, so a road smoothed this way
    still crosses each hexside at its middle (where bridges are drawn).
    """
    pts = list(points)
    if iterations < 1 or len(pts) < 3:
        return pts
    p = np.asarray(pts, dtype=float).reshape(-1, 2)
    for _ in range(iterations):
        if len(p) < 3:
            break
        # every segment's two cuts at once: 0.75 a + 0.25 b and 0.25 a + 0.75 b, point by point
        # the same arithmetic as written out per point
        a, b = (p, np.roll(p, -1, axis=0)) if closed else (p[:-1], p[1:])
        cuts = np.empty((2 * len(a), 2))
        cuts[0::2] = 0.75 * a + 0.25 * b
        cuts[1::2] = 0.25 * a + 0.75 * b
        p = cuts if closed else np.concatenate([p[:1], cuts, p[-1:]])
    return list(map(tuple, p.tolist()))


def polyline_length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in zip(points, points[1:]))


def walk(points: Sequence[Point], spacing: float, offset: float = 0.0):
    """Yield ``(x, y, ux, uy)`` every ``spacing`` pixels along a polyline (unit direction)."""
    if spacing <= 0:
        return
    next_at = offset
    travelled = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg == 0:
            continue
        ux, uy = (x1 - x0) / seg, (y1 - y0) / seg
        while next_at <= travelled + seg:
            s = next_at - travelled
            yield x0 + ux * s, y0 + uy * s, ux, uy
            next_at += spacing
        travelled += seg


def dashes(points: Sequence[Point], on: float, off: float) -> list[list[Point]]:
    """Split a polyline into dashes of ``on`` pixels separated by gaps of ``off``."""
    out: list[list[Point]] = []
    current: list[Point] = []
    drawing, left = True, on
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        seg = math.hypot(x1 - x0, y1 - y0)
        pos = 0.0
        if drawing and not current:
            current = [(x0, y0)]
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t)
            if drawing:
                current.append(p)
                out.append(current)
                current = []
            else:
                current = [p]
            drawing = not drawing
            left = on if drawing else off
        left -= seg - pos
        if drawing:
            current.append((x1, y1))
    if drawing and len(current) > 1:
        out.append(current)
    return out
