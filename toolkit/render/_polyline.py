"""Point geometry for polylines: simplifying, sharp turns, smoothing, walking and dashing.

Pure arithmetic on map pixels (numpy and shapely, no drawing): what the canvas needs to
queue a polyline and what the map layers need to place marks and dashes along one.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Sequence

import numpy as np
import shapely

Point = tuple[float, float]

__all__ = ["Point", "chaikin", "dashes", "walk", "polyline_length"]


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


# -- for the map layers: smoothing, measuring, walking and dashing ----------------------

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
