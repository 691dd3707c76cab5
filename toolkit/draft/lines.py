"""Roads and railways read from their colour crossing a hexside from centre to centre, and
joined into paths."""

from __future__ import annotations

import math

from ..hexes import Hex, Hexside
from ._pixels import blend_alpha, fix
from .sample import ID_BAND, colour_distance

#: A line needs this share of its samples to show its colour ...
LINE_SHARE = 0.75
#: ... and this share where trees or marsh symbols (dark strokes of every colour) fill the hex.
TEXTURED_SHARE = 0.85


def blend_matcher(target, correction):
    """``match(colour, fill)``: the pixel is at least 40% the line's colour over ``fill`` (see
    :func:`blend_alpha`)."""
    alpha = blend_alpha(target, correction)
    return lambda colour, fill: alpha(colour, fill) >= 0.4


def read_link(sampler, hex, other, lines, matchers, size, fill_a, fill_b, textured=False):
    """``({line code: share of samples}, largest share any code was seen on)`` for the step
    from ``hex`` to ``other``."""
    a, b = sampler.layout.center(hex), sampler.layout.center(other)
    found, seen = _link_along(sampler, a, b, lines, matchers, size, fill_a, fill_b, textured)
    if abs(b[0] - a[0]) > abs(b[1] - a[1]) > 1e-9:
        # a step along a row of a flat-topped grid: the renderer draws a line running on along
        # the row level at the two centres' middle height (render._mapgeom.straighten)
        mid = (a[1] + b[1]) / 2
        level, seen_level = _link_along(sampler, (a[0], mid), (b[0], mid), lines, matchers, size, fill_a, fill_b,
                                        textured, (a, b))
        seen = max(seen, seen_level)
        found = _merge(found, level, lines)
    return found, seen


def _merge(one: dict, two: dict, lines) -> dict:
    """Lines found on two courses of a step. A code seen on one course only, in the colour of
    the casing of a road seen on the other only, is that road's edge, not a line of its own
    (a railway beside a road is found on the road's own course, beside it)."""
    casings = {code: casing for code, _, casing in lines if casing is not None}
    colours = {code: colour for code, colour, _ in lines}
    out = {}
    for mine, other in ((one, two), (two, one)):
        for code, share in mine.items():
            edge = any(k in other and k not in mine and colour_distance(colours[code], casing) < 80
                       for k, casing in casings.items())
            if not edge:
                out[code] = max(share, out.get(code, 0.0))
    return out


def shifted_link(sampler, hex, other, lines, matchers, size, fill_a, fill_b) -> tuple[dict, Hex | None]:
    """Where a run along a row ends or turns, the renderer moved one end of a step to the row's
    level and left the other at its centre: the line codes seen with one end a quarter hex up
    or down (as clear as a line among symbols must be), and the hex whose end moved."""
    a, b = sampler.layout.center(hex), sampler.layout.center(other)
    if not abs(b[0] - a[0]) > abs(b[1] - a[1]) > 1e-9:
        return {}, None
    q = abs(b[1] - a[1]) / 2
    for da, db in ((q, 0), (-q, 0), (0, q), (0, -q)):
        ends = (a[0], a[1] + da), (b[0], b[1] + db)
        found, _ = _link_along(sampler, *ends, lines, matchers, size, fill_a, fill_b, True, (a, b))
        if found:
            return found, hex if da else other
    return {}, None


def _clear(sampler, centre, p, margin: float) -> bool:
    """True if picture point ``p`` lies in the hex centred at ``centre`` at least ``margin`` (a
    fraction of the hex size) inside its edges, and outside the band where its id is printed
    (the id's knock-out box breaks a line there, and its ink is as dark as a railway)."""
    layout = sampler.layout
    angle = getattr(layout, "angle", 0.0)
    c, s = math.cos(angle), math.sin(angle)
    vx, vy = p[0] - centre[0], p[1] - centre[1]
    lx, ly = (c * vx + s * vy) / layout.size, (-s * vx + c * vy) / layout.size
    u, v = (lx, ly) if layout.grid.flat else (ly, lx)  # flat-topped: edges above and below
    if max(abs(v), abs(0.866 * u) + abs(0.5 * v)) > 0.5 - margin:
        return False
    if sampler.labels:  # where names, ids and markers are printed is known
        return not sampler.labelled(*p, 0.05 * layout.size)
    band = ID_BAND
    if sampler.hex_ids == "top":
        return ly > -band
    if sampler.hex_ids == "bottom":
        return ly < band
    if sampler.hex_ids == "centre":
        return abs(ly) > 0.1 or abs(lx) > 0.2
    return True


def _link_along(sampler, a, b, lines, matchers, size, fill_a, fill_b, textured, centres=None):
    """The line code (and the share of samples that saw it) drawn on the segment ``a``-``b``
    (``centres``: the two hexes' centres when the segment does not run through them), or None;
    and the largest share of samples any line code was seen on.

    Samples and the probes beside them are taken only where they are clear of the hexes'
    edges (grid lines) and id bands (see :func:`_clear`)."""
    ca, cb = centres or (a, b)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * 0.2 * size, dx / length * 0.2 * size
    probes = []
    for t, fill, centre in [(t, fill_a, ca) for t in (0.15, 0.2, 0.25, 0.3, 0.35, 0.4)] + \
            [(t, fill_b, cb) for t in (0.6, 0.65, 0.7, 0.75, 0.8, 0.85)]:
        at = (a[0] + dx * t, a[1] + dy * t)
        if not _clear(sampler, centre, at, 0.08):
            continue
        beside = [k for k in (-1.4, -0.8, 0.8, 1.4)
                  if _clear(sampler, centre, (at[0] + k * nx, at[1] + k * ny), 0.1)]
        probes.append((t, fill, beside))
    if not probes:
        return {}, 0.0
    found, seen = {}, 0.0
    needed = TEXTURED_SHARE if textured else LINE_SHARE
    for code, colour, casing in lines:
        match = matchers[code]
        hits = 0
        beside_hits = beside_count = 0
        for t, fill, beside_ks in probes:
            def test(c, fill=fill):
                return match(c, fill)
            [(n, near)] = sampler.runs(a, b, (t,), 0.1 * size, test)
            # in symbols (trees, marsh) the line must lie on its drawn course
            if not n or near > (0.05 if textured else 0.07) * size:
                continue
            # a line is a thin stroke, not the texture of the hex: beside it the colour is gone
            beside = [sampler.runs((a[0] + k * nx, a[1] + k * ny), (b[0] + k * nx, b[1] + k * ny), (t,),
                                   0.04 * size, test)[0][0] for k in beside_ks]
            beside_hits += sum(1 for n in beside if n)
            beside_count += len(beside)
            if textured or sum(1 for n in beside if n) <= 1:
                hits += 1
        seen = max(seen, hits / len(probes))  # (a line seen among symbols leaves the reading unsure)
        if textured and beside_hits > 0.35 * max(1, beside_count):
            hits = 0  # trees or marsh symbols of the line's colour everywhere, not a line
        share = hits / len(probes)
        # symbols (trees, marsh) hold strokes of every colour: there the line must show nearly
        # everywhere; and a line is only found on three probes or more (where names and ids
        # hide the rest, a line glimpsed leaves the hexes unsure)
        if share >= needed and len(probes) >= 3:
            found[code] = round(share, 3)
    if len(found) > 1:
        # lines of like colours (a road and a minor road) both accept the one drawn: keep the
        # one whose own colour is drawn there (the nearest pixel to it, probe by probe)
        colours = {code: colour for code, colour, _ in lines}
        profiles = [[fix(c, sampler.correction) for _, c in sampler.profile(a, b, t, 0.1 * size)]
                    for t, _, _ in probes]
        misfit = {code: sum(min((colour_distance(c, colours[code]) for c in p), default=0.0) for p in profiles)
                  for code in found}
        for code in sorted(found, key=misfit.get):
            if code not in found:
                continue
            for other in [o for o in found if o != code and colour_distance(colours[o], colours[code]) < 150]:
                del found[other]
    # a road's dark casing looks like a railway: a railway with it is drawn beside it
    for code, colour, casing in lines:
        if code not in found or casing is None:
            continue
        for other, other_colour, _ in lines:
            if other != code and other in found and colour_distance(other_colour, casing) < 80:
                match = matchers[other]
                # on one side all along (a road that bends crosses both sides in turn)
                share = max(sum(1 for t, fill, _ in probes
                                if _beside(sampler, a, b, t, side * 0.11 * size, 0.03 * size,
                                           lambda c, f=fill: match(c, f))) for side in (-1, 1)) / len(probes)
                if share >= needed:
                    found[other] = round(share, 3)
                else:
                    del found[other]
    return found, seen


def _beside(sampler, a, b, t, offset, reach, test) -> bool:
    """True if ``test`` accepts a pixel ``offset`` pixels beside the segment a-b at ``t`` (along
    the normal (-dy, dx); negative: the other side)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * offset, dx / length * offset
    return bool(sampler.runs((a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny), (t,), reach, test)[0][0])


def line_paths(links: set[Hexside]) -> list[list[Hex]]:
    """Links joined into paths: each path stops where the network forks or ends."""
    adjacent: dict[Hex, set[Hex]] = {}
    for side in links:
        adjacent.setdefault(side.a, set()).add(side.b)
        adjacent.setdefault(side.b, set()).add(side.a)
    used: set[Hexside] = set()
    paths = []
    starts = sorted(h for h, n in adjacent.items() if len(n) != 2) + sorted(adjacent)
    for start in starts:
        for nxt in sorted(adjacent[start]):
            if Hexside.of(start, nxt) in used:
                continue
            path = [start, nxt]
            used.add(Hexside.of(start, nxt))
            while len(adjacent[path[-1]]) == 2:
                step = next((n for n in sorted(adjacent[path[-1]]) if Hexside.of(path[-1], n) not in used), None)
                if step is None:
                    break
                used.add(Hexside.of(path[-1], step))
                path.append(step)
            paths.append(path)
    return paths
