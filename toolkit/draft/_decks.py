"""A bridge over water drawn as a deck: a band of its own colour (the paper's, not the water's)
carrying the road, edged along both sides by a thin dark parapet. On a printed map the deck
is the road; its parapets, dark like a railway and running with the road, are no line of
their own (a railway drawn beside a road has the hex's fill between them, and no twin on the
road's other side).
"""

from __future__ import annotations

import math

from ._pixels import fix
from .sample import colour_distance

#: Across a stroke, the deck is looked for this far (of the distance between hex centres)
#: either side: a deck is a road's width and a little more each side (0.08 of a hex).
REACH = 0.25
#: The parapet on the road's other side lies where this one's mirror does, give or take this
#: share of their distance from the road (at least a pixel and a half).
MIRROR = 0.2
#: The deck's colour lies at least this far (RGB levels) from the hex's fill (a deck over the
#: water), and the deck's two sides this near each other's.
OFF_FILL = 30.0
ALIKE = 60.0
#: A stroke is a parapet when the deck shows beside it at this share of the points looked at.
SHARE = 0.5
#: Points along a stroke looked at (spread along it: enough to tell, few enough to be cheap).
POINTS = 6


def parapet(reader, trails, index: int, dist: float) -> bool:
    """True if the stroke of line ``index`` followed along ``trails`` (``(points with their
    heading, fill, centre of the hex they lie in)`` per hex) is a bridge's parapet: on most
    points looked at, beside it runs a stroke of another line (the road the deck carries) and
    beyond that, as far again, a stroke like it (the other parapet), with the deck's own colour
    between, the same both sides and not the hex's fill. ``reader``: the
    :class:`~._strokes.StrokeReader`; ``dist``: between neighbouring centres (working pixels)."""
    points = [(p, fill, centre) for trail, fill, centre in trails for p in trail]
    if not points:
        return False
    if len(points) > POINTS:
        points = [points[round(i * (len(points) - 1) / (POINTS - 1))] for i in range(POINTS)]
    reach = max(4, int(math.ceil(REACH * dist)))
    decked = 0
    for n, ((x, y, wx, wy), fill, centre) in enumerate(points):
        if decked + len(points) - n < SHARE * len(points):
            return False  # (too few points left to make the share)
        decked += _decked(reader, x, y, (wx, wy), index, fill, centre, reach)
    return decked >= SHARE * len(points)


def _decked(reader, x, y, way, index: int, fill, centre, reach: int) -> bool:
    """True if at working point (x, y) on a stroke of line ``index`` heading ``way`` the stroke
    is one edge of a deck (see :func:`parapet`)."""
    px, py = -way[1], way[0]
    points = [(x + k * px, y + k * py) for k in range(-reach, reach + 1)]
    found, _ = reader.runs(points, fill, centre, way)
    # the stroke itself: its colour where it was followed (a pixel either way: a thin dark line
    # beside the road's casing may be taken into the casing's run)
    own_share, own_mid = max((_share(reader, points[k], way, index, fill), k) for k in (reach - 1, reach, reach + 1))
    if own_share < reader.limits[index][0]:
        return False
    own_first = own_last = own_mid
    for side in (-1, 1):
        beyond = sorted((r for r in found if (r[0] > own_mid if side > 0 else r[1] < own_mid)),
                        key=lambda r: abs((r[0] + r[1]) / 2 - own_mid))
        if not beyond:
            continue
        road = beyond[0]  # the nearest stroke that way: what the deck carries
        road_mid = (road[0] + road[1]) / 2
        mirror = 2 * road_mid - own_mid
        tol = max(1.5, MIRROR * abs(road_mid - own_mid))
        # the other parapet: this line's colour where this one's mirror lies (a thin dark line
        # at the edge of the water may show as a blend only: its colour at the floor share)
        span = [k for k in range(int(math.ceil(mirror - tol)), int(math.floor(mirror + tol)) + 1)
                if 0 <= k < len(points) and not (road[0] <= k <= road[1])]
        shares = [(_share(reader, points[k], way, index, fill), k) for k in span]
        twin_share, twin = max(shares, default=(0.0, None))
        if twin is None or twin_share < reader.limits[index][0]:
            continue
        # the deck between: pixels of its own colour, the same each side, not the fill
        near = (own_last, road[0]) if side > 0 else (road[1], own_first)
        far = (road[1], twin) if side > 0 else (twin, road[0])
        decks = [_mean(reader, points, fill, a, b) for a, b in (near, far)]
        # ... and outside the parapet, as far again, the fill (the water the deck spans)
        gap = abs(near[1] - near[0])
        outside = (own_first - gap, own_first) if side > 0 else (own_last, own_last + gap)
        decks.append(_mean(reader, points, fill, max(-1, outside[0]), min(len(points), outside[1])))
        if None in decks:
            continue
        if all(colour_distance(d, fill) >= OFF_FILL for d in decks[:2]) and colour_distance(*decks[:2]) <= ALIKE \
                and colour_distance(decks[2], fill) < OFF_FILL:
            return True
    return False


def _share(reader, point, way, index: int, fill) -> float:
    """The most of line ``index``'s colour at ``point`` or a pixel either way along ``way``."""
    x, y = point
    pixels = (reader.sampler.pixel(x, y), reader.sampler.pixel(x - way[0], y - way[1]),
              reader.sampler.pixel(x + way[0], y + way[1]))
    return max((reader.share(c, fill, index) for c in pixels if c is not None), default=0.0)


def _mean(reader, points, fill, after: float, before: float):
    """The mean colour (corrected) of ``points`` strictly between run ends ``after`` and
    ``before`` that are no line's colour (a casing's or a parapet's blended edge is not the
    deck), or None where there are none."""
    picked = [reader.sampler.pixel(*points[k]) for k in range(int(math.floor(after)) + 1, int(math.ceil(before)))]
    picked = [fix(c, reader.correction) for c in picked if c is not None and reader.label(c, fill)[0] < 0]
    if not picked:
        return None
    return tuple(sum(c[i] for c in picked) / len(picked) for i in range(3))
