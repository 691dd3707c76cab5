"""Hexside features drawn as a mark across another's band: a ford is the river it lies on
running on unbroken, a row of stepping stones across it at the side's middle (as hexforge
draws it: one just beyond each bank, one on the water where the river is wide enough). Read
where the river is read and the stones' colour shows on both its banks there."""

from __future__ import annotations

from ._pixels import blend_alpha

#: Where along the side (from one corner, 0, to the other, 1) the stones are looked for: they
#: lie over about 0.43 to 0.57 of it.
MARK_TS = (0.46, 0.5, 0.54)
#: A mark is read where its colour shows at least this much (see :func:`mark_strength`) ...
MARKED = 0.45
#: ... and glimpsed (the river read, unsure, the mark offered) where it shows this much. On the
#: bundled maps at 100 dpi a ford showed 0.99-1.0 clean, JPEG'd, blurred or cast, 0.29-0.5
#: degraded every way at once (Mischurin Rog's stream least), and since the canvas draws in
#: passes of codes Mischurin Rog's JPEG'd 0.18; a river's side no ford at most 0.02 clean, 0.25
#: JPEG'd, 0.33 degraded every way (a glimpse only lists the side: it is never read a ford).
GLIMPSED = 0.15
#: How far beyond the river's band (of the hex size) the stones on its banks are looked for.
BANKS = 0.12


def mark_strength(sampler, side, width: float, mark, correction, size: float, fills=()) -> float:
    """How strongly a row of stones in colour ``mark`` shows across the band of a river drawn
    ``width`` wide (of the hex size, its edges included) at the middle of ``side``, between
    hexes of ``fills``: at each of :data:`MARK_TS` not under a name or id, the lesser of the most
    of the mark's colour in one pixel over the fills beyond either bank (a stone beyond each
    bank: a road or a town beside one bank is no ford); the most of those. (A stone on the
    water is drawn only on wide rivers: not asked.)"""
    a, b = sampler.layout.hexside_segment(side)
    alpha = blend_alpha(mark, correction, 60.0)
    half = width * size / 2
    seen = []
    for t in MARK_TS:
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        if sampler.labelled(x, y):
            continue
        profile = sampler.profile(a, b, t, half + BANKS * size)
        seen.append(min(max([min(1.0, alpha(c, f)) for k, c in profile if half < k * sign for f in fills] or [0.0])
                        for sign in (1, -1)))
    return max(seen, default=0.0)
