"""Two overlays drawn as tints a few levels apart, told apart by the picture's own groups.

Some maps draw two overlays alike but for a slight tint: White Death's creek and high ground
are both hatched at 45 degrees over clear ground, in inks whose blend with the fill differs by
2-3 levels a channel. A colour correction fitted across the whole picture is rarely that exact
under a cast and JPEG (a flat fill and a hatching shift differently), so reading each hex
against the palette alone can put all of them on one side. The hexes themselves stay tightly
grouped (within a level of each other), and a cast keeps the order of two colours this close:
where the hexes read as either kind fall in two groups along the line between the two tints,
the groups take the two kinds in the order the palette draws them.
"""

from __future__ import annotations

import math
from ..hexes import Hex
from .sample import Look

#: Two kinds are tints of each other when their fills lie this far apart (levels) at most ...
TINT = 8.0
#: ... at least this far (nearer, a picture cannot show them apart) ...
TINT_LEAST = 1.0
#: ... their hatchings' grain and their other numbers differ by no more than this (look-vector
#: units, over the grain's weight: levels of grain), and each is drawn over the whole hex (its
#: centre within this of its ring: not a symbol in the middle).
ALIKE_OTHER = 3.0
EVEN = 20.0
#: ... and each an overlay whose fill lies this far (levels) from its base terrain's at least.
OVER = 5.0
#: A hex whose fill lies further than this (levels) from the line through the two tints is not
#: judged by the groups (something else covers it).
OFF_LINE = 8.0
#: Two groups: at least this many hexes each, this many times their spread apart, and apart by
#: this share of the palette's two tints at least (and by less than its multiple).
GROUP = 2
APART = 3.0
SHARE = (0.4, 2.5)
#: How far (in the palette's separations) each group may lie from the tint it is given.
REACH = 1.5


def tint_pairs(palette) -> list[tuple[tuple, tuple, tuple[float, float, float]]]:
    """``(kind, kind, fill of each)``: pairs of terrains (one base, an overlay each) the palette
    draws as tints of each other."""
    rings: dict[tuple, list] = {}
    centres: dict[tuple, list] = {}
    for terrain, ring, centre in palette.examples:
        rings.setdefault(terrain, []).append(ring)
        centres.setdefault(terrain, []).append(centre)
    mean = {t: [sum(c) / len(vs) for c in zip(*vs)] for t, vs in rings.items()}
    even = {t: math.hypot(*[sum(c) / len(vs) for c in zip(*vs)]) <= EVEN for t, vs in centres.items()}
    kinds = list(mean)
    out = []
    for i, a in enumerate(kinds):
        for b in kinds[i + 1:]:
            va, vb = mean[a], mean[b]
            plain = mean.get((a[0], ()))
            if (a[0] != b[0] or len(a[1]) != 1 or len(b[1]) != 1 or plain is None or len(va) != len(vb)
                    or not (even[a] and even[b])):
                continue
            # each drawn over the ring (a hatching), not a symbol in the middle the ring hardly shows
            if min(math.dist(va[:3], plain[:3]), math.dist(vb[:3], plain[:3])) / 2.0 < OVER:
                continue
            fill = math.dist(va[:3], vb[:3]) / 2.0  # Look.vector weighs the fill twice
            grain = math.dist(va[10:], vb[10:]) / 1.5
            other = math.dist(va[3:10], vb[3:10])
            if TINT_LEAST <= fill <= TINT and grain <= ALIKE_OTHER and other <= ALIKE_OTHER:
                out.append((a, b, (tuple(v / 2.0 for v in va[:3]), tuple(v / 2.0 for v in vb[:3]))))
    return out


def settle(readings: dict, rings: dict[Hex, Look], palette) -> dict[Hex, tuple[tuple, float, tuple]]:
    """``hex -> (terrain, sureness, the other kind)`` for every hex of a pair of tints (see
    :func:`tint_pairs`) that the picture shows in two groups; ``readings``: hex -> terrain
    read, ``rings``: hex -> its ring's look after the colour correction."""
    out: dict = {}
    pairs = tint_pairs(palette)
    counted = [t for a, b, _ in pairs for t in (a, b)]
    for a, b, (fa, fb) in pairs:
        if counted.count(a) > 1 or counted.count(b) > 1:
            continue  # a kind tinted like two others: no order to go by
        span = math.dist(fa, fb)
        u = tuple((y - x) / span for x, y in zip(fa, fb))
        pa, pb = _along(fa, u), _along(fb, u)
        seen = []
        for hex, terrain in readings.items():
            if terrain not in (a, b) or hex not in rings:
                continue
            fill = rings[hex].mode
            p = _along(fill, u)
            foot = tuple(x + (p - pa) * d for x, d in zip(fa, u))
            if math.dist(fill, foot) <= OFF_LINE:
                seen.append((p, hex))
        split = _two_groups(sorted(seen), span)
        if split is None:
            continue
        low, high, threshold, spread = split
        if abs(_mean(low) - pa) > REACH * span + 1.0 or abs(_mean(high) - pb) > REACH * span + 1.0:
            continue
        for group, kind, other in ((low, a, b), (high, b, a)):
            for p, hex in group:
                sure = min(1.0, 0.5 + 0.5 * abs(p - threshold) / max(0.5, 2.0 * spread))
                out[hex] = (kind, round(sure, 3), other)
    return out


def _along(colour, u) -> float:
    return sum(c * d for c, d in zip(colour, u))


def _mean(group) -> float:
    return sum(p for p, _ in group) / len(group)


def _spread(group) -> float:
    m = _mean(group)
    return math.sqrt(sum((p - m) ** 2 for p, _ in group) / len(group))


def _two_groups(seen: list, span: float):
    """``(low group, high group, threshold, larger spread)`` where the sorted ``(p, hex)`` fall
    in two groups clearly apart (Otsu's split, then checked), else None."""
    n = len(seen)
    if n < 2 * GROUP:
        return None
    best = None
    total = sum(p for p, _ in seen)
    left = 0.0
    for k in range(1, n):
        left += seen[k - 1][0]
        ml, mr = left / k, (total - left) / (n - k)
        score = k * (n - k) * (mr - ml) ** 2
        if best is None or score > best[0]:
            best = (score, k)
    k = best[1]
    low, high = seen[:k], seen[k:]
    if len(low) < GROUP or len(high) < GROUP:
        return None
    spread = max(_spread(low), _spread(high), 0.25)
    gap = high[0][0] - low[-1][0]
    apart = _mean(high) - _mean(low)
    if gap < APART * spread or not SHARE[0] * span <= apart <= SHARE[1] * span:
        return None
    return low, high, (low[-1][0] + high[0][0]) / 2.0, spread
