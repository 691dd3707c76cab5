"""A picture's colour cast: found from the hexes, taken out of the picture's looks, and put into
the palette's where the picture clips.

A scan or a photo scales and shifts each channel (``v * g + o``); the correction undoing it is
``v * gain + offset`` per channel, fitted from the hexes a pass was sure of to their terrains'
palette looks. A cast that lifts a light fill past white clips it at 255: every printed colour
beyond shows as 255, and no correction of the picture can tell them apart again. So the fit
leaves clipped channels out (they say only that the printed colour lies beyond), and the
palette's drawings are clipped where the picture is (:func:`clip_image`) before their looks are
read: a hatching over a fill that clipped then reads on the palette as it does on the picture
(its fill between the lines at the limit, its lines not).
"""

from __future__ import annotations

import math

from PIL import Image

from .sample import Look

IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
#: A picture's channel this near 0 or 255 may be clipped: left out of the fit.
CLIPPED = 3
#: A hex pairs in the fit with its plain terrain's example where that is within this many times
#: the nearest example's distance (and a unit), else with the nearest where every example so
#: near has the same median colour, within :data:`SAME_FILL` levels.
TELLS = 1.3
SAME_FILL = 2.0
#: A correction whose limits lie this near 0 and 255 clips nothing.
NO_CLIP = 0.5


def clip_levels(correction) -> tuple[tuple[float, ...], tuple[float, ...]] | None:
    """``(lowest, highest)`` level per channel, in the palette's terms, that the picture can show
    after ``correction`` (the correction of picture levels 0 and 255), or None when every level
    shows (no cast, or one that clips nothing of 0..255)."""
    gain, offset = correction
    ends = [sorted((offset[c], 255.0 * gain[c] + offset[c])) for c in range(3)]
    lo = tuple(max(0.0, a) for a, _ in ends)
    hi = tuple(min(255.0, b) for _, b in ends)
    if all(v <= NO_CLIP for v in lo) and all(v >= 255.0 - NO_CLIP for v in hi):
        return None
    return lo, hi


def clip_image(image: Image.Image, levels) -> Image.Image:
    """``image`` (RGB) with each channel held within ``levels`` (see :func:`clip_levels`)."""
    if levels is None:
        return image
    lo, hi = levels
    lut = [min(int(round(hi[c])), max(int(round(lo[c])), v)) for c in range(3) for v in range(256)]
    return image.convert("RGB").point(lut)


def clip_colour(colour, levels) -> tuple[float, float, float]:
    """``colour`` held within ``levels`` (see :func:`clip_levels`)."""
    if levels is None:
        return tuple(colour)
    lo, hi = levels
    return tuple(min(hi[c], max(lo[c], colour[c])) for c in range(3))


def first_correction(raw: dict, palette, clipped: bool = True) -> tuple:
    """``(correction, bases, cost)`` to start from: none, or the cast that makes the picture's
    commonest fill one of the palette's fills, whichever leaves the hexes nearest their
    palette examples (``bases``: hex -> the palette's reading). ``clipped``: judged against the
    palette as the picture shows it (see :func:`classify`)."""
    candidates = [IDENTITY]
    if raw and not palette.native:  # a palette read on this picture has its colours already
        bins: dict = {}
        for look in raw.values():
            bins.setdefault(tuple(int(v) >> 4 for v in look.mode), []).append(look.mode)
        common = max(bins.values(), key=len)
        seen = tuple(sum(c) / len(common) for c in zip(*common))
        for code in dict.fromkeys(t[0] for t in palette.terrains):
            fill = [v / 2.0 for v in palette.vector_of(code)[:3]]  # Look.vector weighs the fill twice
            gains = tuple(min(1.4, max(0.7, f / max(1.0, s))) for f, s in zip(fill, seen))
            candidates.append((gains, (0.0, 0.0, 0.0)))
    best = None
    for correction in candidates:
        bases = classify(raw, correction, palette, clipped)
        cost = _cost(bases)
        if best is None or cost < best[2] * (0.98 if correction is not IDENTITY else 1.0):
            best = (correction, bases, cost)
    return best


def refine(raw: dict, start: tuple, palette, rounds: int, clipped: bool = True) -> tuple:
    """``(correction, bases, cost)`` after up to ``rounds`` fits from ``start`` (see
    :func:`first_correction`); a fit is kept only where it leaves the reading surer.

    ``clipped`` (the terrain's correction): clipped channels left out of the fit, the medians
    and the fills fitted alike, each hex against its nearest example, the palette clipped where
    the picture is. Else (the correction the line and hexside readers judge their inks by):
    every hex's fill against its terrain's plain fill, clipped or not, so that a fill the cast
    clipped is corrected back to its printed level."""
    correction, bases, cost = start
    for _ in range(rounds if len({t[0] for t in palette.terrains}) > 1 and not palette.native else 0):
        looks = {h: look.corrected(*correction) for h, look in raw.items()}
        trials = []
        if clipped:
            seen = palette.through(correction)
            # the medians and the fills fitted alike: whichever leaves the reading surer
            fits = [fit(looks, bases, seen, raw, stat) for stat in ("median", "mode")]
        else:
            fits = [fit_plain(looks, bases, palette)]
        for i, step in enumerate(fits):
            trial = _compose(correction, step)
            trial_bases = classify(raw, trial, palette, clipped)
            trials.append((_cost(trial_bases), i, trial, trial_bases))
        trial_cost, _, trial, trial_bases = min(trials, key=lambda t: t[:2])
        if trial_cost >= cost * 0.98:  # a clean picture needs no correction; keep only what helps
            break
        correction, bases, cost = trial, trial_bases, trial_cost
    return correction, bases, cost


def classify(raw: dict, correction, palette, clipped: bool = True) -> dict:
    """Each hex's base reading (see :meth:`~toolkit.draft.palette.Palette.classify_base`) on
    the picture after ``correction``, against the palette as the picture shows it (``clipped``)
    or as printed."""
    seen = palette.through(correction) if clipped else palette
    return {h: seen.classify_base(look.corrected(*correction), h) for h, look in raw.items()}


def fit(looks: dict, bases: dict, palette, raw: dict | None = None, stat: str = "median") -> tuple:
    """Per-channel gain and offset taking the picture's colours (``looks``, as corrected so far)
    to the palette's, fitted on the hexes the last pass was sure of, each against the nearest
    example of its base (a creek's tint over clear ground is not clear's fill). A cast scales
    and shifts channels; with two or more colours both are fitted (least squares, then again
    without the fifth of hexes that fit worst: the misread), with one only a gain (the median
    ratio). ``stat``: the looks' colour fitted, ``median`` (a per-channel cast, clipped or not,
    maps a median to the median, where a textured terrain's commonest colour moves between
    bins) or ``mode`` (the printed fill, as a blur leaves it). A channel clipped on the ``raw``
    picture (near 0 or 255) is left out."""
    sure = [h for h, b in bases.items() if b[1] >= 0.3] or list(bases)
    by_base: dict = {}
    for terrain, ring, _ in palette.examples:
        by_base.setdefault(terrain[0], []).append((not terrain[1], ring))
    targets = {}
    for h in sure:
        v = looks[h].vector()
        ranked = sorted((math.dist(v, ex), plain, _colour(ex, stat)) for plain, ex in by_base[bases[h][0]])
        near = [(plain, m) for d, plain, m in ranked if d <= TELLS * ranked[0][0] + 1.0]
        plain = [m for p, m in near if p]
        # the plain terrain where it is about as near as any (most hexes carry no overlay), else
        # the nearest where the palette tells its colour plainly: where examples of other colours
        # lie nearly as near (two tints a few levels apart: a creek's hatching, high ground's),
        # the fit would be pulled towards the wrong one
        if plain:
            targets[h] = plain[0]
        elif all(math.dist(m, near[0][1]) <= SAME_FILL for _, m in near):
            targets[h] = near[0][1]
    sure = [h for h in sure if h in targets] or sure
    for h in sure:
        targets.setdefault(h, _colour(palette.vector_of(bases[h][0]), stat))
    gains, offsets = [], []
    for c in range(3):
        kept = [h for h in sure if raw is None or CLIPPED < getattr(raw[h], stat)[c] < 255 - CLIPPED]
        pairs = [(getattr(looks[h], stat)[c], targets[h][c]) for h in kept]
        gain, offset = _channel_fit(pairs, len({targets[h] for h in kept}) >= 2)
        gains.append(gain)
        offsets.append(offset)
    return tuple(gains), tuple(offsets)


def fit_plain(looks: dict, bases: dict, palette) -> tuple:
    """Per-channel gain and offset taking the picture's fills (``looks``, as corrected so far)
    to their terrains' plain fills on the palette, clipped or not, fitted as :func:`fit` does."""
    sure = [h for h, b in bases.items() if b[1] >= 0.3] or list(bases)
    targets = {code: palette.vector_of(code) for code in {bases[h][0] for h in sure}}
    gains, offsets = [], []
    for c in range(3):
        pairs = [(looks[h].mode[c], targets[bases[h][0]][c] / 2.0) for h in sure]  # Look.vector weighs the fill twice
        gain, offset = _channel_fit(pairs, len(targets) >= 2)
        gains.append(gain)
        offsets.append(offset)
    return tuple(gains), tuple(offsets)


def _channel_fit(pairs: list[tuple[float, float]], colours: bool) -> tuple[float, float]:
    """One channel's gain and offset from (picture, palette) pairs: a straight line where the
    pairs hold two colours or more (``colours``), else the median ratio with no offset; bounded
    to what a print's or a scan's cast does."""
    fitted = _affine(pairs) if colours else None
    if fitted is None:
        ratios = sorted(y / max(1.0, x) for x, y in pairs)
        fitted = (ratios[len(ratios) // 2] if ratios else 1.0, 0.0)
    return min(1.4, max(0.7, fitted[0])), min(40.0, max(-40.0, fitted[1]))


def _colour(vector, stat: str) -> tuple[float, float, float]:
    """The mode or median colour of a look's vector (see :meth:`~toolkit.draft.sample.Look.vector`)."""
    if stat == "mode":
        return tuple(v / 2.0 for v in vector[:3])
    return tuple(v / 0.25 for v in vector[3:6])


def _affine(pairs: list[tuple[float, float]]) -> tuple[float, float] | None:
    """``(gain, offset)`` of ``y = gain * x + offset`` by least squares, refitted without the
    worst fifth; None when the x values do not spread enough to fit a gain."""
    for _ in range(2):
        n = len(pairs)
        if n < 4:
            return None
        mx, my = sum(x for x, _ in pairs) / n, sum(y for _, y in pairs) / n
        sxx = sum((x - mx) ** 2 for x, _ in pairs)
        if sxx < 100.0 * n:  # fills within a few levels of each other: no gain to fit
            return None
        gain = sum((x - mx) * (y - my) for x, y in pairs) / sxx
        offset = my - gain * mx
        pairs = sorted(pairs, key=lambda p: abs(p[1] - gain * p[0] - offset))[:max(4, n * 4 // 5)]
    return gain, offset


def _cost(bases: dict) -> float:
    """How unsure the reading is: one less the mean confidence (a wrong cast leaves hexes
    between palette examples; the right one puts them on examples)."""
    return 1.0 - sum(b[1] for b in bases.values()) / max(1, len(bases))


def _compose(first: tuple, second: tuple) -> tuple:
    (g1, o1), (g2, o2) = first, second
    return tuple(a * b for a, b in zip(g1, g2)), tuple(b * o + p for b, o, p in zip(g2, o1, o2))


def clip_look(look: Look, levels) -> Look:
    """A look of flat printed colours (a palette file's) as a picture clipped at ``levels`` shows it."""
    if levels is None:
        return look
    return Look(clip_colour(look.mode, levels), look.share, clip_colour(look.median, levels), look.spread,
                look.grain)
