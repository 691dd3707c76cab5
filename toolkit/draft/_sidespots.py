"""Where along a hexside its feature is read: clear of the names and markers printed over it, and
either side of the bridge where a road or railway crosses it."""

from __future__ import annotations

from ._pixels import fix
from .sample import LABEL_PAD, colour_distance


def _unlabelled(sampler, a, b, ts, size) -> list[float]:
    """The ``ts`` along the side a-b that no name or marker covers."""
    return [t for t in ts if not sampler.labelled(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, LABEL_PAD * size)]


#: Where along a side its feature is read (away from the corners, where the sides meeting it lie).
_SIDE_TS = (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
#: Where along a side a road or railway crosses is looked for, and the side read around it.
_CROSSED_TS = tuple(round(0.05 * i, 2) for i in range(3, 18))
#: A bridge hides a side's feature this far along it (of the side's length) either side of
#: where its line crosses (hexforge draws its deck and wings about 0.1 of the hex size across).
BRIDGE = 0.2


def _crossed_at(sampler, a, b, colours, size, others) -> float:
    """Where along the side a-b (0..1) roads or railways of ``colours`` cross it: the middle of
    the samples showing their colour on the side (nearer it than any of ``others``: the grid
    line's, the hexside features'), else the side's middle (where they cross unbent)."""
    hits = []
    for t in _CROSSED_TS if colours else ():
        for _, c in sampler.profile(a, b, t, 0.03 * size):
            p = fix(c, sampler.correction)
            near = min(colour_distance(p, line) for line in colours)
            if near < _LINE_NEAR and all(near < colour_distance(p, o) for o in others):
                hits.append(t)
                break
    return (hits[0] + hits[-1]) / 2 if hits else 0.5


#: Levels within which a pixel on a side is a road's or railway's colour.
_LINE_NEAR = 45.0
