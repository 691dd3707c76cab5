"""Hexside features drawn as a mark across another's band: a ford is the river it lies on
running on unbroken, a row of stepping stones across it at the side's middle (hexforge draws
it so; a pale bar along the side read as a gap in the river). Read where the river is read and
the stones' colour shows on its band there."""

from __future__ import annotations

from ._pixels import blend_alpha

#: Where along the side (from one corner, 0, to the other, 1) the middle stone is looked for:
#: it lies on the river over a tenth of a hex along it, about 0.4 to 0.6 of the side.
MARK_TS = (0.46, 0.5, 0.54)
#: A mark is read where its colour shows over the river's at least this much (the most of it
#: in a pixel of the band, in the median sample) ...
MARKED = 0.55
#: ... and glimpsed (the side listed, the mark offered) where it shows this much.
GLIMPSED = 0.3


def mark_strength(sampler, side, river, width: float, mark, correction, size: float) -> float:
    """How strongly a mark in colour ``mark`` shows over the band of a river drawn in colour
    ``river`` and ``width`` (of the hex size, its edges included) at the middle of ``side``: in
    each of :data:`MARK_TS` not under a name or id, the most of the mark's colour blended over
    the river's in one pixel of the band; the median of those (0 where all are under labels)."""
    a, b = sampler.layout.hexside_segment(side)
    alpha = blend_alpha(mark, correction, 60.0)
    half = width * size / 2
    seen = []
    for t in MARK_TS:
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        if sampler.labelled(x, y):
            continue
        seen.append(max([min(1.0, alpha(c, river)) for k, c in sampler.profile(a, b, t, half) if abs(k) <= half] or [0.0]))
    return sorted(seen)[len(seen) // 2] if seen else 0.0
