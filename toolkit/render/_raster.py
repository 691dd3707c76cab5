"""Anti-aliased vector drawing on large pillow images: the canvas, its tiles and their flush.

Pillow draws lines and polygons without anti-aliasing. :class:`Canvas` collects vector
operations and draws them tile by tile, in passes of a few colours (see ``_passes.passes``): in
each tile, each pass draws its operations at ``factor`` times the resolution into a one-byte
crop, each colour in a code of its own, only in the parts near them (a box or a few, see
``_crops._parts``); a box filter reduces the codes to each pixel's count of subpixels of each colour,
a table makes that its premultiplied colour and cover, and pillow lays it over the tile. So
memory stays at one tile, the supersampled area follows the lines (not the map), untouched
pixels stay as they are, and a pass gives the pixels its layers would give drawn in colour
on the tile enlarged and reduced (to a level or two), at a quarter of the bytes and with no
enlarging. One operation is drawn by ``_drawop._draw_op``; :class:`~._recorder.Recorder`
records operations to replay into any window; ``_polyline`` holds the point geometry.

Coordinates are map pixels; the image may be any window of the map (``origin`` is the map
pixel of its top-left corner). Every coordinate is rounded to whole (supersampled) pixels
in map space before it is shifted into the window, and each tile is drawn with a margin that
is thrown away, so a window draws exactly the pixels the whole map would: pillow truncates
towards zero and rounds half away from zero, which is not the same on both sides of a
window's edge. Each tile is drawn at the right end of a crop 8,192 supersampled pixels wide,
its columns all of one power of two (see ``_crops._span``), so pillow's float arithmetic rounds the
same in every tile.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from typing import Iterable, Sequence

import numpy as np
import shapely
from PIL import Image

from ._crops import _parts, _spare, _span
from ._drawop import _CHUNK_SHIFT, _draw_op, ink
from ._passes import passes
from ._polyline import Point, _box, _sharp_vertices, _simplify

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


__all__ = ["Canvas", "PAD", "snap"]


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


def _last_tile(size: int, tile: int) -> int:
    """Index of the last tile along a side of ``size`` pixels: a sliver under a quarter
    tile joins the tile before it."""
    last = max(0, (size - 1) // tile)
    if last and size - last * tile < tile // 4:
        last -= 1
    return last
