"""Geometry helpers of the map planner: a coarse spatial index, boxes, and the shapes of
lines (row runs, crossings, joined ends, hexside chains)."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import shapely
from shapely.geometry import LineString, MultiLineString, Point, Polygon
from shapely.ops import linemerge, substring, unary_union

__all__ = ["Bins", "Boxes", "Kept", "LAKE_NARROWS", "chains", "crossing", "join_ends", "lake_body", "line_class", "line_cover", "meets", "overlap", "straighten"]


class Bins:
    """A coarse spatial index: item numbers by the cells of ``cell`` pixels their boxes touch."""

    def __init__(self, cell: int = 512) -> None:
        self.cell = cell
        self.bins: dict[tuple[int, int], list[int]] = defaultdict(list)

    def add(self, index: int, box) -> None:
        c = self.cell
        x0, y0, x1, y1 = box
        for bx in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for by in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                self.bins[(bx, by)].append(index)

    def query(self, box) -> list[int]:
        """Item numbers whose cells meet ``box``, in the order they were added."""
        c = self.cell
        x0, y0, x1, y1 = box
        out: set[int] = set()
        for bx in range(math.floor(x0 / c), math.floor(x1 / c) + 1):
            for by in range(math.floor(y0 / c), math.floor(y1 / c) + 1):
                out.update(self.bins.get((bx, by), ()))
        return sorted(out)



class Kept(dict):
    """Pure geometry by key (a layout and what it is made of), shared by every map drawn at
    that layout; beyond ``most`` entries the oldest go first."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def keep(self, key, value):
        """Store ``value`` under ``key`` and return it."""
        self[key] = value
        while len(self) > self.most:
            try:
                del self[next(iter(self))]
            except (KeyError, RuntimeError, StopIteration):   # changed meanwhile by another thread's render
                break
        return value


class Boxes:
    """Boxes (N x 4: left, top, right, bottom) found by the windows they meet: sorted by their
    top edge, a window looks only at the band of boxes that can reach it."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes
        self.order = np.argsort(boxes[:, 1], kind="stable")
        self.tops = boxes[self.order, 1]
        self.tallest = float((boxes[:, 3] - boxes[:, 1]).max()) if len(boxes) else 0.0

    def within(self, box) -> list[int]:
        """Numbers of the boxes that overlap ``box``, in order (a window draws only what
        reaches into it)."""
        lo = np.searchsorted(self.tops, box[1] - self.tallest, side="left")
        hi = np.searchsorted(self.tops, box[3], side="left")
        near = self.order[lo:hi]
        b = self.boxes[near]
        keep = (b[:, 0] < box[2]) & (box[0] < b[:, 2]) & (b[:, 1] < box[3]) & (box[1] < b[:, 3])
        return np.sort(near[keep]).tolist()

def _rows(rows, count: int, width: int, dtype=float) -> np.ndarray:
    """``count`` tuples of ``width`` numbers as a ``count`` x ``width`` array (``np.asarray`` of
    a list of tuples, the same numbers several times faster)."""
    return np.fromiter(itertools.chain.from_iterable(rows), dtype=dtype, count=count * width).reshape(count, width)


def meets(a, b) -> bool:
    """True if the boxes ``a`` and ``b`` (left, top, right, bottom) overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def overlap(rect, boxes) -> float:
    """Total area of ``rect`` covered by each of ``boxes`` (left, top, right, bottom rows; a
    list or an N x 4 array: the few near a label are cheaper one by one than as arrays)."""
    if isinstance(boxes, np.ndarray):
        boxes = boxes.tolist()
    x0, y0, x1, y1 = rect
    total = 0.0
    for bx0, by0, bx1, by1 in boxes:
        if bx0 < x1 and x0 < bx1 and by0 < y1 and y0 < by1:   # (most do not meet: no call for them)
            w, h = min(x1, bx1) - max(x0, bx0), min(y1, by1) - max(y0, by0)
            if w > 0 and h > 0:
                total += w * h
    return total


def line_cover(rect, rows) -> float:
    """Ink of lines under ``rect``: per segment (rows of x0, y0, x1, y1, its width and its
    bounds grown by half its width) the length of it inside ``rect`` grown by half its width,
    times that width (clipped by Liang-Barsky); the bounds skip those that cannot reach
    ``rect``. Plain Python: the few near a label are cheaper one by one than as arrays."""
    total = 0.0
    rx0, ry0, rx1, ry1 = rect
    for x0, y0, x1, y1, w, bx0, by0, bx1, by1 in rows:
        if not (bx0 < rx1 and bx1 > rx0 and by0 < ry1 and by1 > ry0):
            continue
        h = w / 2
        dx, dy = x1 - x0, y1 - y0
        t0, t1 = 0.0, 1.0
        for p, q in ((-dx, x0 - (rx0 - h)), (dx, rx1 + h - x0), (-dy, y0 - (ry0 - h)), (dy, ry1 + h - y0)):
            if p == 0:
                if q < 0:   # parallel to this edge and outside it
                    t1 = -1.0
                    break
            elif p < 0:
                t0 = max(t0, q / p)
            else:
                t1 = min(t1, q / p)
        if t1 > t0:
            total += (t1 - t0) * math.hypot(dx, dy) * w
    return total


def straighten(flat: bool, pts: list, radius: float) -> list:
    """Along a row of a flat-topped grid the hex centres zigzag by half a hex; a line through
    them would wave. Each point of such a run moves onto the run's middle level (a quarter
    hex from its centre, well inside the hex), where a straight line crosses every shared
    hexside at its middle; but for an end hex where the line goes on along a diagonal."""
    if not flat or len(pts) < 3:
        return list(pts)
    dx, dy = 1.5 * radius, math.sqrt(3) / 2 * radius
    tol = radius * 1e-6 + 1e-9

    def row(step) -> bool:
        return abs(abs(step[0]) - dx) < tol and abs(abs(step[1]) - dy) < tol

    def same(a, b) -> bool:
        return abs(a[0] - b[0]) < tol and abs(a[1] - b[1]) < tol

    def sharp(a, b) -> bool:
        return a[0] * b[0] + a[1] * b[1] < -0.4 * math.hypot(*a) * math.hypot(*b)

    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:])]
    out = list(pts)
    i = 0
    while i < len(steps):
        j = i
        while (j + 1 < len(steps) and row(steps[j]) and row(steps[j + 1])
               and (steps[j + 1][0] > 0) == (steps[j][0] > 0) and (steps[j + 1][1] > 0) != (steps[j][1] > 0)):
            j += 1
        if j > i:   # steps i..j alternate: hexes i..j+1 run along a row
            mean = (pts[i][1] + pts[i + 1][1]) / 2
            # an end hex where a straight diagonal goes on (the two steps before the run, or
            # after it, the same as its first, or last, step) stays on its centre, the
            # diagonal's: moved onto the row's level it would be a kink the curve waves round
            # (Mischurin Rog's Main Bridge road); left there, the line leaves the row in a
            # gentle bend. One such step is a corner, not a diagonal: the hex moves
            first = i + 1 if i > 1 and same(steps[i - 1], steps[i]) and same(steps[i - 2], steps[i]) else i
            last = j if j + 2 < len(steps) and same(steps[j + 1], steps[j]) and same(steps[j + 2], steps[j]) else j + 1
            # an end hex where the line comes in or goes on at a sharp turn (120 degrees) stays
            # on its centre too: moved, the turn would be a quarter hex from the hexside, under
            # the id of a flat grid's top (Mischurin Rog 1040)
            if i > 0 and sharp(steps[i - 1], steps[i]):
                first = max(first, i + 1)
            if j + 1 < len(steps) and sharp(steps[j], steps[j + 1]):
                last = min(last, j)
            for k in range(first, last + 1):
                out[k] = (pts[k][0], mean)
            i = j + 1
        else:
            i += 1
    return out


def crossing(pts, segment, a, b, water=()):
    """Where the drawn line ``pts`` crosses the drawn ``water`` of a hexside (else the straight
    hexside ``segment``), and its direction there; the middle of the side and the line between
    the centres ``a``, ``b`` if it crosses neither."""
    line = pts if isinstance(pts, LineString) else LineString(np.asarray(pts, dtype=float))
    (sx0, sy0), (sx1, sy1) = segment
    mid = Point((sx0 + sx1) / 2, (sy0 + sy1) / 2)
    points = []
    for target in (*water, LineString(segment)):
        hit = line.intersection(target)
        points = [g for g in getattr(hit, "geoms", [hit]) if g.geom_type == "Point"] if not hit.is_empty else []
        if points:
            break
    if not points:
        return (mid.x, mid.y), (b[0] - a[0], b[1] - a[1])
    p = min(points, key=lambda g: g.distance(mid))
    d = line.project(p)
    step = max(1e-3, min(line.length, 1.0) * 0.5)
    p0, p1 = line.interpolate(max(0.0, d - step)), line.interpolate(min(line.length, d + step))
    direction = (p1.x - p0.x, p1.y - p0.y)
    if direction == (0.0, 0.0):
        direction = (b[0] - a[0], b[1] - a[1])
    return (p.x, p.y), direction


def join_ends(paths, centres=None):
    """Make a line that ends in a hex another line of its kind (road or railway) passes
    through, or ends in too, meet that line there.

    Smoothing cuts corners and a row is straightened off its hex centres, so a curve passes
    near, not through, the centres of the hexes where it bends; a road ending at such a hex
    would stop short of the other, or run past it and double back (a hook). The end is cut
    where the line meets the other (or extended to its nearest point); two lines ending in one
    hex meet where the one moved off the hex centre ends. ``centres`` (hex -> pixel) tells
    which ends were moved; without it only the first rule applies.
    """
    curves = [LineString(np.asarray(pts, dtype=float)) for _, pts, _ in paths]
    inner = [set(line.hexes[1:-1]) for _, _, line in paths]
    ends: dict = defaultdict(list)
    for i, (style, pts, line) in enumerate(paths):
        ends[line.hexes[0]].append((tuple(pts[0]), _rail(style)))
        ends[line.hexes[-1]].append((tuple(pts[-1]), _rail(style)))
    out = []
    for i, (style, pts, line) in enumerate(paths):
        # as Python floats: the ties and dashes walk these points in Python (numpy scalars
        # are several times slower there), the same numbers
        xy = np.asarray(pts, dtype=float).reshape(-1, 2)
        pts = list(zip(xy[:, 0].tolist(), xy[:, 1].tolist()))
        for end, at in ((line.hexes[0], 0), (line.hexes[-1], -1)):
            # roads join roads and railways railways (a railway drawn beside a road is no
            # place for a road to end, a river no place for either)
            j = next((j for j, hexes in enumerate(inner) if j != i and end in hexes
                      and _rail(paths[j][0]) == _rail(style)), None)
            if j is not None:
                reach = _spacing(line, centres) / 2 if centres is not None else 0.0
                pts = _meet(pts, at, curves[j], reach)
            elif centres is not None and end in centres:
                c = centres[end]
                moved = [p for p, rail in ends[end] if rail == _rail(style) and math.dist(p, c) > 0.5]
                if moved and math.dist(pts[at], c) <= 0.5:
                    pts = _meet(pts, at, Point(min(moved, key=lambda p: math.dist(p, pts[at]))), 0.0)
        out.append((style, pts))
    return out


def line_class(key: str) -> str:
    """Lines that meet and join each other: rivers drawn as lines, railways, and roads of
    every kind (a road never ends on a river, nor on a railway beside it)."""
    return {"watercourse": "water", "rail": "rail"}.get(key, "road")


def _rail(style) -> str:
    return line_class(getattr(style, "key", None))


def _spacing(line, centres) -> float:
    """The distance between the centres of a line's first two hexes (a hex's width)."""
    a, b = (centres.get(h) for h in line.hexes[:2])
    return math.dist(a, b) if a and b else 0.0


def _meet(pts: list, at: int, other, reach: float) -> list:
    """``pts`` with its end (``at`` 0 or -1) cut or extended to meet ``other`` (a curve or a
    point): where it crosses ``other`` within ``reach`` of the end, else at the point of
    ``other`` nearest the end."""
    line = LineString(np.asarray(pts, dtype=float))
    tip = Point(pts[at])
    target = None
    if reach > 0 and other.geom_type != "Point":
        hit = line.intersection(other)
        near = [g for g in getattr(hit, "geoms", [hit]) if g.geom_type == "Point" and g.distance(tip) <= reach]
        if near:
            target = min(near, key=lambda g: g.distance(tip))
    if target is None:
        target = other if other.geom_type == "Point" else other.interpolate(other.project(tip))
    d = line.project(target)
    if at == -1:
        kept = list(substring(line, 0, d).coords) if d > 0 else [pts[0]]
        return kept + [(target.x, target.y)] if kept[-1] != (target.x, target.y) else kept
    kept = list(substring(line, d, line.length).coords) if d < line.length else [pts[-1]]
    return [(target.x, target.y)] + kept if kept[0] != (target.x, target.y) else kept


#: A full lake hexside's width at a hex corner, against its widest (at the side's middle): a
#: run of lake sides is one lake, narrower where its sides meet but never pinched to a river.
LAKE_CORNER = 0.5
#: A partial lake hexside (a pond): the stretch of the side it lies on, and its width against
#: a full lake side's widest.
POND_SPAN, POND_WIDTH = (0.2, 0.8), 0.8
#: Where a road or railway crosses a lake hexside the lake narrows to this width (of the hex
#: size) for its bridge, over :data:`NARROWS_SPAN` of the side either way from the middle: a
#: bridge over a lake's narrows, as wide as one over a major river (one spanning the broad
#: lake would be half a hex long).
LAKE_NARROWS, NARROWS_SPAN = 0.12, 0.22


def lake_body(chain, half: float, partial: bool = False, narrows=(), size: float = 0.0):
    """The water of lake hexsides along ``chain`` (hex corners, one hexside between each two),
    drawn as printed maps draw a lake on a hexside: a broad body of water lying on the side and
    reaching into both hexes (``half`` either side at its widest), its shore irregular. A run of
    full lake sides is one lake whose shore follows them, widest at each side's middle and
    :data:`LAKE_CORNER` of that where its sides meet (far wider than any river: never a band
    of even width); a partial lake side is a pond in the middle of the side, touching neither
    corner. The shore's waver is seeded by where the side lies in hexes (``half`` as the
    unit), so every dpi draws the same shores. ``narrows``: the middles of the sides a road or
    railway crosses, where the lake narrows to :data:`LAKE_NARROWS` of the hex ``size``."""
    c = 0.0 if partial else LAKE_CORNER
    n = 16
    parts = []
    for (ax, ay), (bx, by) in zip(chain, chain[1:]):
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        seed = round((ax + bx) / half) * 7919 + round((ay + by) / half) * 104729
        phases = [(seed % p) / p * math.tau for p in (997, 991, 983, 977)]
        lo, hi = POND_SPAN if partial else (0.0, 1.0)
        top = POND_WIDTH if partial else 1.0
        crossed = any(math.hypot((ax + bx) / 2 - x, (ay + by) / 2 - y) < 0.05 * length for x, y in narrows)
        sides = []
        for sign, (p1, p2) in ((1, phases[:2]), (-1, phases[2:])):
            pts = []
            for k in range(n + 1):
                u = k / n
                t = lo + (hi - lo) * u
                bulge = math.sin(math.pi * u)
                # a pond is round-ended (an ellipse); a full side swells from its corners; the
                # shore wavers by up to a quarter, not at the corners, so the sides of a run join
                swell = math.sqrt(max(0.0, bulge)) if partial else c + (1 - c) * bulge
                waver = 1 + bulge * (0.15 * math.sin(math.tau * u * 1.5 + p1) + 0.08 * math.sin(math.tau * u * 3.5 + p2))
                h = half * top * swell * waver
                if crossed:   # narrowing smoothly to the bridge's width about the middle
                    k = min(1.0, abs(t - 0.5) / NARROWS_SPAN)
                    h = min(h, LAKE_NARROWS * size / 2 + (h - LAKE_NARROWS * size / 2) * k * k * (3 - 2 * k))
                pts.append((ax + dx * t + sign * nx * h, ay + dy * t + sign * ny * h))
            sides.append(pts)
        ring = sides[0] + sides[1][::-1]
        parts.append(Polygon(ring).buffer(0))
    if not partial:   # round joints where hexsides meet
        parts += [Point(p).buffer(half * c, quad_segs=8) for p in chain]
    body = unary_union(parts)
    r = half * 0.3
    return body.buffer(r, quad_segs=6).buffer(-r, quad_segs=6) if not body.is_empty else body


def chains(segments) -> list[list[tuple[float, float]]]:
    """Hexside segments merged into continuous polylines (rivers follow chains of sides)."""
    if not segments:
        return []
    # round to merge end points that differ by float noise
    rounded = [[(round(x, 3), round(y, 3)) for x, y in seg] for seg in segments]
    if all(len(seg) == 2 for seg in rounded):   # hexsides: one call for all
        # the numbers as one flat run (np.asarray of nested lists is slow)
        flat = np.fromiter(itertools.chain.from_iterable(itertools.chain.from_iterable(rounded)), dtype=float, count=4 * len(rounded))
        lines = list(shapely.linestrings(flat.reshape(-1, 2, 2)))
    else:
        lines = [LineString(seg) for seg in rounded]
    merged = linemerge(MultiLineString(lines))
    geoms = getattr(merged, "geoms", [merged])
    return [list(g.coords) for g in geoms]
