"""A hexside's pixels: how much of each is a feature's ink, the pixels across the side with the
fill of the hex each lies in, and the band of a feature's colour among them."""

from __future__ import annotations

import math

from ._pixels import blend_alpha, fix
from .sample import colour_distance


def side_ink(colour, edge, correction, blurred=None, rivals=()):
    """``(body, ink)``: how much of a pixel is a feature's own colour, and how much is the
    feature drawn in ``colour`` with a darker ``edge`` (or None) at all.

    ``blurred``: the colour a thin feature's middle takes where a picture's blur mixes it with
    its edges (see :func:`blurred_colour`); a pixel nearer a blend of it with the fill than of
    any colour of ``rivals`` (the other features' colours, edges and blurred colours) shows the
    feature's own colour that much (a blurred ford's pale middle is its own, not a stream's)."""
    # a hexside feature is read against the fills either side: a pale one (a lake side) beside
    # a fill of nearly its colour (swamp) cannot be told from the fill's own symbols, blurred
    body = blend_alpha(colour, correction, 60.0)
    if edge is None:
        return body, body
    rim = blend_alpha(edge, correction, 60.0)
    ink = lambda c, fill: max(body(c, fill), rim(c, fill))  # noqa: E731
    if blurred is None:
        return body, ink
    mixed = blend_alpha(blurred, correction, 60.0)
    rivals = [r for r in rivals if r not in (colour, edge, blurred)]
    seen: dict = {}

    def own(c, fill) -> float:
        a = body(c, fill)
        if a >= 0.5:
            return a
        m = min(1.0, mixed(c, fill))
        if m <= a:
            return a
        known = seen.get((c, fill))
        if known is None:
            p = fix(c, correction)
            off = _off(p, fill, blurred)
            known = seen[(c, fill)] = a if any(_off(p, fill, r) <= off for r in rivals) else m
        return known
    return own, ink


#: How far either side of a hexside (of the hex size) its pixels are read: beyond a feature's
#: band, where the hex's own fill shows.
REACH = 0.15


def side_reach(code, sides) -> tuple[float, tuple]:
    """How far either side of a hexside (of the hex size) a feature is read, and the colours
    of the broad water it lies in (none): a lake drawn on the side reaches a sixth of a hex or
    more into each hex, so its side is read out to its whole width, and the water of a
    neighbouring side's lake there is no fill. ``code`` is a feature's code or a tuple of codes
    (two features drawn one over the other: a river over a lake's narrows); ``sides`` are the
    features as ``(code, colour, edge, width)``."""
    parts = code if isinstance(code, tuple) else (code,)
    broad = [s for s in sides if s[0] in parts and s[3] > REACH]
    if not broad:
        return REACH, ()
    return max(s[3] for s in broad), tuple(s[1] for s in broad)


def _across(sampler, side, ts, fill_a, fill_b, size, reach: float = REACH, water=()):
    """The pixels across ``side`` at each ``t``: ``(offset, colour, fill)`` triples, each pixel
    with the fill of the hex it lies in (where the profile ends on either side, ``reach`` of
    the hex size from the side: the hex's commonest colour may be a symbol's; where it ends in
    a lake's ``water``, the hex's), the two fills, and the offsets a name or marker covers."""
    a, b = sampler.layout.hexside_segment(side)
    ca = sampler.layout.center(side.a)
    nx, ny = -(b[1] - a[1]), b[0] - a[0]
    a_sign = 1 if (ca[0] - (a[0] + b[0]) / 2) * nx + (ca[1] - (a[1] + b[1]) / 2) * ny > 0 else -1
    reach = reach * size
    corr = sampler.correction
    length = math.hypot(nx, ny) or 1.0
    out = []
    for t in ts:
        profile = sampler.profile(a, b, t, reach)
        # a hex id or name beside the side is not the hex's fill (an id's digits under the side
        # of a ford, blurred, read as a dark fill beside it)
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        named = [k for k, _ in profile if sampler.labelled(x + nx * k / length, y + ny * k / length)]
        fills = [(k, c) for k, c in profile if k not in named]
        local_a, local_b = (_fill(_corrected(_outer(fills, sign, 0.7 * reach), corr), fill, water)
                            for sign, fill in ((a_sign, fill_a), (-a_sign, fill_b)))
        out.append((profile, a_sign, local_a, local_b, named))
    return out


def _fill(local, fill, water):
    """The fill read where a profile ends (``local``), or the hex's ``fill`` where none was read
    or it is a lake's ``water``."""
    if local is None or any(colour_distance(local, w) < 2 * _FILL_NEAR for w in water):
        return fill
    return local


def _measure(across, body, ink, colours, grid_rgb, sampler, least):
    """Per sample across the side: the feature's width there (picture pixels of its ink, or
    None where no band of its colour lies on the side), how strongly its colour shows, whether
    a band of its ink lies there at all (``least``: per sample, the ink a drawn feature leaves
    there), and whether the band ends within :data:`KNOCKOUT` of a name or marker (which may
    have cut it short: a name knocks out the linework under its letters)."""
    size = sampler.layout.size
    near = max(1.0, 0.035 * size)
    out = []
    for (profile, a_sign, local_a, local_b, named), least in zip(across, least):
        fills = [(k, c, local_a if k * a_sign > 0 else local_b if k * a_sign < 0 else
                  (local_a if ink(c, local_a) >= ink(c, local_b) else local_b)) for k, c in profile]
        drawn, blurred, strength, ends = _band(fills, body, ink, near, colours, grid_rgb, sampler.correction,
                                               (local_a, local_b))
        # its width: all the feature's ink across the hexside, which blur and JPEG keep
        width = sum(min(1.0, ink(c, fill)) for _, c, fill in fills) * sampler.k if drawn * sampler.k >= least else None
        reach = KNOCKOUT * size
        cut = width is not None and any(ends[0] - reach <= k < ends[0] or ends[1] < k <= ends[1] + reach
                                        for k in named)
        out.append((width, strength, blurred * sampler.k >= least / 2, cut))
    return out


#: How near a name (of the hex size, beyond the box of its letters and halo) a feature's band
#: may have been cut short by it: hexforge knocks the linework out under a name's letters grown
#: by a quarter of its font size (2-3 pixels at 60 a hex).
KNOCKOUT = 0.05


def _beside(across, ts, reach, under, over, corr, banded) -> float:
    """The share of the samples in the middle of a side (away from the features of the sides
    meeting it at its corners) where a feature drawn under another (a lake under a river:
    ``under`` its colour, ``over`` the other's colour and edge) shows its own colour within
    ``reach`` of the side beside the other's band: a pixel more than half of it, nearer a blend
    of it with the fill than any blend of the other's colours. Only the samples where the
    other's band shows (``banded``) tell: where a bridge hides the river, its deck's greys
    beside a line's dark stroke are no lake."""
    alpha = blend_alpha(under, corr, 60.0)
    shows = middle = 0
    for t, (profile, a_sign, local_a, local_b, _), band in zip(ts, across, banded):
        if not 0.25 < t < 0.75 or not band:
            continue
        middle += 1
        for k, c in profile:
            fill = local_a if k * a_sign > 0 else local_b
            if fill is None or abs(k) > reach:
                continue
            p = fix(c, corr)
            if alpha(c, fill) >= 0.5 and _off(p, fill, under) + _FILL_NEAR / 2 < min(_off(p, fill, o) for o in over):
                shows += 1
                break
    # (two or fewer, the rest under a bridge or a name, tell nothing: a lake side meeting a
    # bridged river at its corner showed beside both)
    return shows / middle if middle > 2 else 0.0


def _band(fills, body, ink, near: float, colours, grid_rgb, corr, locals_) -> tuple[float, float, float, tuple]:
    """The ink (in profile steps) of the band of the feature's colour lying on the hexside (or
    0), of the band of its ink there whether or not its own colour shows, how strongly its
    own colour shows there (the most of it in one pixel, 0..1), and the offsets of the band's
    first and last pixels (None where there is no band).

    A feature drawn along a hexside is one band across it, covering the hexside: its own
    colour within ``near`` of it, its edges beside. A stray pixel (a scan's halo beside a grid
    line, a hatching stroke, a symbol) is no band; a pixel of either hex's own fill or a blend
    of both at the hexside (the two fills meet there, blurred, or a pixel off on a turned scan)
    is no ink, unless it lies nearer a blend of the feature's colour; nor is a grid line,
    blurred into the fill, nearer the grid's colour than the feature's (``colours``: its own and
    its edge's), but where the feature is drawn over the grid line its share of the blend is."""
    colour = colours[0]
    differ = colour_distance(locals_[0], locals_[1]) > 2 * _FILL_NEAR
    inks = []
    for k, c, fill in fills:
        p = fix(c, corr)
        # (a blend of the feature's colour with a fill may pass near a blend of the two fills)
        if differ and abs(k) <= near and \
                _off(p, locals_[0], locals_[1]) < min([_FILL_NEAR] + [_off(p, fill, f) for f in colours]):
            inks.append(0.0)
        elif _off(p, fill, grid_rgb) < min(_off(p, fill, f) for f in colours):
            # a thin feature drawn over the grid line shares its pixels: the feature's part of a
            # blend of the two (a grid line alone, or blurred into the fill, is none)
            inks.append(_unmix(p, fill, grid_rgb, colour) if abs(k) <= near else 0.0)
        else:
            inks.append(min(1.0, ink(c, fill)))
    any_ = run = 0.0
    touches = False
    for (k, _, _), a in zip(fills + [(0, None, None)], inks + [0.0]):
        if a >= 0.35:  # ink without the feature's colour: its core only (hatching lies close by)
            run += a
            touches = touches or abs(k) <= near
            continue
        if touches:
            any_ = max(any_, run)
        run, touches = 0.0, False
    best = run = strongest = peak = 0.0
    on_side = False
    ends = span = None
    for (k, c, fill), a in zip(fills + [(None, None, None)], inks + [0.0]):
        if a >= 0.1:  # a blurred band keeps its ink in its tails
            run += a
            span = (k, k) if span is None else (span[0], k)
            p = fix(c, corr)
            if abs(k) <= near:
                peak = max(peak, min(1.0, body(c, fill)))
            on_side = on_side or (abs(k) <= near and a >= 0.35 and body(c, fill) >= 0.5
                                  and _off(p, fill, colour) < _off(p, fill, grid_rgb))
            continue
        if on_side and run > best:
            best, strongest, ends = run, peak, span
        run, on_side, peak, span = 0.0, False, 0.0, None
    return best, any_, strongest, ends


#: Levels within which a pixel is a hex's own fill.
_FILL_NEAR = 20.0


def _corrected(colour, correction):
    """A picture colour after the colour correction, in whole levels (None stays None)."""
    return None if colour is None else tuple(int(round(v)) for v in fix(colour, correction))


def _off(colour, fill, target) -> float:
    """How far ``colour`` lies from every blend of ``fill`` and ``target``."""
    v = [target[i] - fill[i] for i in range(3)]
    vv = sum(x * x for x in v) or 1.0
    a = min(1.0, max(0.0, sum((colour[i] - fill[i]) * v[i] for i in range(3)) / vv))
    return colour_distance(colour, [fill[i] + a * v[i] for i in range(3)])


def _unmix(colour, fill, grid, target) -> float:
    """The share of ``target`` in ``colour`` taken as a blend of ``fill``, ``grid`` and ``target``
    (least squares; 0 when no such blend comes near it)."""
    p = [colour[i] - fill[i] for i in range(3)]
    g = [grid[i] - fill[i] for i in range(3)]
    t = [target[i] - fill[i] for i in range(3)]
    gg, tt, gt = sum(x * x for x in g), sum(x * x for x in t), sum(x * y for x, y in zip(g, t))
    pg, pt = sum(x * y for x, y in zip(p, g)), sum(x * y for x, y in zip(p, t))
    det = gg * tt - gt * gt
    if det < 1e-6 * (gg * tt or 1.0):
        return 0.0
    x, y = (pg * tt - pt * gt) / det, (pt * gg - pg * gt) / det
    residual = math.sqrt(sum((p[i] - x * g[i] - y * t[i]) ** 2 for i in range(3)))
    return min(1.0, max(0.0, y)) if residual < _FILL_NEAR + 0.12 * math.sqrt(tt) else 0.0


def _outer(profile, sign: int, beyond: float):
    """The median colour of a profile's pixels more than ``beyond`` pixels out on side ``sign``."""
    out = [c for k, c in profile if k * sign > beyond]
    if not out:
        return None
    return tuple(sorted(c[i] for c in out)[len(out) // 2] for i in range(3))
