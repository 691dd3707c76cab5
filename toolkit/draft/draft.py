"""Drafting a map's terrain from a picture, and applying the draft to the map data.

Each hex is read (:class:`~toolkit.draft.sample.HexSampler`) and given the terrain of the
nearest palette example, with a confidence from how much nearer that example is than the
best example of any other terrain. A scan's colour cast is taken out by fitting, per
channel, a gain and offset from the hexes the first pass was sure of to their terrains'
palette looks, then reading again. Hexsides are found by their feature's colour running
along them; roads and railways by their colour crossing from centre to centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from PIL import Image

from ..game import HexsideFeature, HexTerrain, Line, Map, Source
from ..hexes import Hex, Hexside
from .palette import Palette, Terrain
from .sample import ID_BAND, HexSampler, Look, colour_distance

__all__ = ["Draft", "HexDraft", "draft_terrain", "apply_draft", "LOW_CONFIDENCE"]

#: Hexes drafted with less confidence than this are listed for a person to decide.
LOW_CONFIDENCE = 0.5
#: A hexside or line feature needs this share of its samples to show the colour.
SIDE_SHARE = 0.6
LINE_SHARE = 0.75
#: ... and this share where trees or marsh symbols (dark strokes of every colour) fill the hex.
TEXTURED_SHARE = 0.85
#: A hex whose look spreads more than this (trees, marsh symbols) is "textured" (woods drawn
#: by the default theme spread about 9).
TEXTURED = 8.0


@dataclass(frozen=True)
class HexDraft:
    """A hex's reading: its terrain, how sure the whole reading is (terrain, and the hexsides
    and lines around it), the next-best terrain, and how sure its hexsides and lines are."""

    terrain: Terrain
    confidence: float
    runner_up: Terrain | None = None
    sides_confidence: float = 1.0


@dataclass
class Draft:
    """What a picture shows, hex by hex; ``missing`` hexes were not wholly on the picture."""

    hexes: dict[Hex, HexDraft] = field(default_factory=dict)
    hexsides: dict[Hexside, tuple[str, float]] = field(default_factory=dict)
    #: Roads and railways across a hexside: line code -> the share of samples that saw it.
    links: dict[Hexside, dict[str, float]] = field(default_factory=dict)
    missing: list[Hex] = field(default_factory=list)
    correction: tuple = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    skipped: list[str] = field(default_factory=list)
    #: How sure the hexside and line readings across a hexside are, where less than sure.
    side_confidence: dict[Hexside, float] = field(default_factory=dict)

    def low(self, threshold: float = LOW_CONFIDENCE) -> list[Hex]:
        return sorted(h for h, d in self.hexes.items() if d.confidence < threshold)


def _correction(looks: dict[Hex, Look], bases: dict[Hex, tuple], palette: Palette) -> tuple:
    """Per-channel gain and offset taking the picture's fills to the palette's, fitted on the
    hexes the last pass was sure of. A cast scales and shifts channels; with two or more
    terrains of different fills both are fitted (least squares, then again without the fifth
    of hexes that fit worst: the misread), with one only a gain (the median ratio)."""
    sure = [h for h, b in bases.items() if b[1] >= 0.3] or list(bases)
    targets = {code: palette.vector_of(code) for code in {bases[h][0] for h in sure}}
    gains, offsets = [], []
    for c in range(3):
        pairs = [(looks[h].mode[c], targets[bases[h][0]][c] / 2.0) for h in sure]  # Look.vector weighs the fill twice
        fit = _affine(pairs) if len(targets) >= 2 else None
        if fit is None:
            ratios = sorted(y / max(1.0, x) for x, y in pairs)
            fit = (ratios[len(ratios) // 2] if ratios else 1.0, 0.0)
        gains.append(min(1.4, max(0.7, fit[0])))
        offsets.append(min(40.0, max(-40.0, fit[1])))
    return tuple(gains), tuple(offsets)


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


def _first_correction(raw: dict[Hex, Look], palette: Palette) -> tuple:
    """The starting correction: none, or the cast that makes the picture's commonest fill one of
    the palette's fills, whichever leaves the hexes nearest their palette examples."""
    identity = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    candidates = [identity]
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
        bases = {h: palette.classify_base(look.corrected(*correction), h) for h, look in raw.items()}
        cost = _cost(bases)
        if best is None or cost < best[2] * (0.98 if correction is not identity else 1.0):
            best = (correction, bases, cost)
    return best


def _cost(bases: dict[Hex, tuple]) -> float:
    """How unsure the reading is: one less the mean confidence (a wrong cast leaves hexes
    between palette examples; the right one puts them on examples)."""
    return 1.0 - sum(b[1] for b in bases.values()) / max(1, len(bases))


def _compose(first: tuple, second: tuple) -> tuple:
    (g1, o1), (g2, o2) = first, second
    return tuple(a * b for a, b in zip(g1, g2)), tuple(b * o + p for b, o, p in zip(g2, o1, o2))


def draft_terrain(game_map: Map, image: Image.Image, layout, palette: Palette, *, theme=None,
                  rounds: int = 2, labels=()) -> Draft:
    """Read every hex of ``game_map`` on ``image`` placed by ``layout`` (see :mod:`.geometry`).

    ``labels`` are boxes on the picture where names and markers are printed (see
    :func:`~toolkit.draft.geometry.drawn_labels`): terrain, hexsides and lines are read around them."""
    from ..render import Theme

    theme = theme or Theme.default()
    sampler = HexSampler(image, layout, game_map.hex_ids, labels)
    draft = Draft()
    raw: dict[Hex, Look] = {}
    for hex in game_map.grid:
        look = sampler.look(hex)
        if look is None:
            draft.missing.append(hex)
        else:
            raw[hex] = look
    correction, bases, cost = _first_correction(raw, palette)
    for _ in range(rounds if len({t[0] for t in palette.terrains}) > 1 and not palette.native else 0):
        looks = {h: look.corrected(*correction) for h, look in raw.items()}
        trial = _compose(correction, _correction(looks, bases, palette))
        trial_bases = {h: palette.classify_base(look.corrected(*trial), h) for h, look in raw.items()}
        trial_cost = _cost(trial_bases)
        if trial_cost >= cost * 0.98:  # a clean picture needs no correction; keep only what helps
            break
        correction, bases, cost = trial, trial_bases, trial_cost
    draft.correction = correction
    draft.hexes = {h: HexDraft((b[0], ()), b[1], None) for h, b in bases.items()}
    crossed = _features(game_map, sampler, draft, raw, theme, palette)
    towards: dict[Hex, list[Hex]] = {}
    for side in draft.links:
        towards.setdefault(side.a, []).append(side.b)
        towards.setdefault(side.b, []).append(side.a)
    patterns = {}
    for hex, base in bases.items():
        away = tuple(towards.get(hex, ()))
        if away:  # read again without the road or railway crossing the ring
            ring = sampler.look(hex, "ring", away)
            if ring is not None:
                base = palette.classify_base(ring.corrected(*correction), hex)
                bases[hex] = base
        links = tuple(sorted((code, game_map.grid.direction(hex, o))
                             for o in away for code in draft.links[Hexside.of(hex, o)]))
        patterns[hex] = (base[0], links)
    if palette.drawn:  # only hexes a road or railway crosses need their overlays drawn in context
        palette.draw_contexts(game_map, {p for p in patterns.values() if p[1]}, sampler.layout.size,
                               theme)
    for hex, base in bases.items():
        centre = sampler.look(hex, "centre")
        ring = sampler.look(hex, "ring", tuple(towards.get(hex, ())))
        features, f_conf, runner = (), 1.0, None
        if centre is not None and ring is not None:
            centre, ring = centre.corrected(*correction), ring.corrected(*correction)
            if patterns[hex] in palette.context:
                features, f_conf, _, runner = palette.classify_in_context(patterns[hex], ring, centre)
            else:
                features, f_conf, _, runner = palette.classify_features(base[0], ring, centre, hex)
        if (patterns[hex][1] or hex in crossed) and (features or runner):
            # an overlay read where a road or railway crosses the hex (or may: a line seen on
            # part of its course, broken by an id's knock-out or a name): the drawing in
            # context matches the roads' course only roughly, so a person should look
            f_conf *= 0.5
        # a hex is only as sure as the rivers and roads read along and across its sides
        sides_sure = min((draft.side_confidence.get(Hexside.of(hex, o), 1.0) for o in game_map.grid.neighbours(hex)
                          if o in bases), default=1.0)
        confidence = min(base[1], f_conf, sides_sure)
        runner_up = ((base[3], ()) if base[1] <= f_conf and base[3] is not None
                     else (base[0], runner) if runner is not None else None)
        draft.hexes[hex] = HexDraft((base[0], tuple(features)), round(confidence, 3), runner_up,
                                    round(sides_sure, 3))
    return draft


def _fix(colour, correction) -> tuple[float, float, float]:
    gain, offset = correction
    return tuple(colour[i] * gain[i] + offset[i] for i in range(3))


def _blend_alpha(target, correction, contrast: float = 40.0):
    """A pixel on a drawn line is the line's colour blended with the fill around it (antialiasing,
    blur, JPEG): ``alpha(colour, fill)`` is how far along the segment fill -> line the pixel lies
    (0 when it lies off that segment, or the line's colour is too near the fill to be seen)."""
    seen: dict = {}

    def alpha(colour, fill) -> float:
        key = (colour, fill)
        known = seen.get(key)
        if known is None:
            p = _fix(colour, correction)
            v = [target[i] - fill[i] for i in range(3)]
            w = [p[i] - fill[i] for i in range(3)]
            vv = sum(x * x for x in v)
            known = 0.0
            if vv >= contrast * contrast:
                a = sum(x * y for x, y in zip(v, w)) / vv
                residual = colour_distance(p, [fill[i] + a * v[i] for i in range(3)])
                if a > 0 and residual <= 20 + 0.12 * math.sqrt(vv):
                    known = a
            seen[key] = known
        return known
    return alpha


def _ink(colour, edge, correction):
    """``(body, ink)``: how much of a pixel is a feature's own colour, and how much is the
    feature drawn in ``colour`` with a darker ``edge`` (or None) at all."""
    # a hexside feature is read against the fills either side: a pale one (a lake side) beside
    # a fill of nearly its colour (swamp) cannot be told from the fill's own symbols, blurred
    body = _blend_alpha(colour, correction, 60.0)
    if edge is None:
        return body, body
    rim = _blend_alpha(edge, correction, 60.0)
    return body, lambda c, fill: max(body(c, fill), rim(c, fill))


def _blend_matcher(target, correction):
    """``match(colour, fill)``: the pixel is at least 40% the line's colour over ``fill`` (see
    :func:`_blend_alpha`)."""
    alpha = _blend_alpha(target, correction)
    return lambda colour, fill: alpha(colour, fill) >= 0.4


def _features(game_map: Map, sampler: HexSampler, draft: Draft, raw: dict[Hex, Look], theme,
              palette: Palette) -> set[Hex]:
    """Hexsides and links into ``draft``; returns the hexes a line may cross (seen on at least
    half its samples between them and a neighbour, found or not)."""
    crossed: set[Hex] = set()
    grid = game_map.grid
    size = sampler.layout.size  # picture pixels (runs answer in picture pixels too)
    water = {code for code, t in game_map.terrain_types.items() if theme.terrain_style(t).water is not None}
    grid_colour = theme.get("grid", "colour", "#4a4a44")
    from ..render.theme import rgb
    grid_rgb = rgb(grid_colour)
    sides = []
    for code, kind in game_map.hexside_types.items():
        style = theme.hexside_style(kind)
        if kind.bridge:
            draft.skipped.append(f"hexside type {code!r}: bridges are not drafted")
        elif colour_distance(style.colour, grid_rgb) < 60:
            draft.skipped.append(f"hexside type {code!r}: drawn too like the grid lines to tell apart")
        else:  # a colour learned on the picture wins over the theme's
            learned = palette.strokes.get(("side", code))
            sides.append((code, learned or style.colour, None if learned else style.edge,
                           style.drawn_width(size) / size))
    lines = []
    for code, kind in game_map.line_types.items():
        style, learned = theme.line_style(kind), palette.strokes.get(("line", code))
        lines.append((code, learned or style.colour, None if learned else style.casing))
    matchers = {code: _blend_matcher(colour, draft.correction) for code, colour, _ in lines}
    sampler.correction = draft.correction
    alphas = {code: _ink(colour, edge, draft.correction) for code, colour, edge, _ in sides}
    fill = {h: tuple(int(round(v)) for v in _fix(look.mode, draft.correction)) for h, look in raw.items()}
    # how textured each terrain is drawn (its palette spread; Look.vector weighs spread 0.15)
    texture = {t[0]: sum(palette.vector_of(t[0])[6:9]) / 3 / 0.15 for t in palette.terrains}
    seen: set[Hexside] = set()
    pending: list = []
    for hex in draft.hexes:
        for other in grid.neighbours(hex):
            if other not in draft.hexes:
                continue
            side = Hexside.of(hex, other)
            if side in seen:
                continue
            seen.add(side)
            sure, crossing = 1.0, False
            if lines:
                textured = any(texture[draft.hexes[h].terrain[0]] > TEXTURED for h in (hex, other))
                found, partly = _link(sampler, hex, other, lines, matchers, size, fill[hex], fill[other], textured)
                if found:
                    draft.links[side] = found
                if partly >= 0.5:
                    crossed.update((hex, other))
                if not found:
                    shifted, moved = _shifted_link(sampler, hex, other, lines, matchers, size, fill[hex],
                                                   fill[other])
                    if shifted:
                        pending.append((side, shifted, moved))
                crossing = bool(found) or partly >= 0.5
                sure = _sureness(min(found.values()) if found else None, partly,
                                 TEXTURED_SHARE if textured else LINE_SHARE)
            if sides and draft.hexes[hex].terrain[0] not in water and draft.hexes[other].terrain[0] not in water:
                found, partly, side_sure = _hexside(sampler, side, sides, alphas, size, fill[hex], fill[other],
                                                    crossing, grid_rgb)
                sure = min(sure, side_sure)
                if found:
                    draft.hexsides[side] = found
            if sure < 1.0:
                draft.side_confidence[side] = round(sure, 3)
    # a step found with one end moved to a row's level only where that hex's line runs on
    linked = {h for side in draft.links for h in (side.a, side.b)}
    for side, found, moved in pending:
        if moved in linked:
            draft.links[side] = found
    return crossed


def _sureness(found: float | None, seen: float, needed: float) -> float:
    """How sure a hexside or line reading is: a feature found on all its samples, or seen on
    none, is sure (1); one found just at the share ``needed``, or seen on most samples but
    not enough, is not (about 0.5 and below)."""
    if found is not None:
        return 1.0 if needed >= 1.0 else 0.5 + 0.5 * (found - needed) / (1.0 - needed)
    return 1.0 - 0.76 * min(1.0, seen / needed)


def _hexside(sampler, side, sides, alphas, size, fill_a, fill_b, crossing=False, grid_rgb=(74, 74, 68)):
    """``(feature, share)`` drawn along ``side`` (or None), the largest share of samples any
    feature was seen on, and how sure the reading is. ``crossing``: a line crosses the side.

    Each pixel across the hexside is judged against the fill of the hex it lies in (a blue
    terrain beside a clear hex is not a river along their side); the drawn width is the sum
    of the pixels' share of the feature's colour across the side, which blur and JPEG keep,
    and it picks a stream from a river."""
    a, b = sampler.layout.hexside_segment(side)
    ca = sampler.layout.center(side.a)
    nx, ny = -(b[1] - a[1]), b[0] - a[0]
    a_sign = 1 if (ca[0] - (a[0] + b[0]) / 2) * nx + (ca[1] - (a[1] + b[1]) / 2) * ny > 0 else -1
    # where a road or railway crosses, a bridge hides the middle of a river
    ts = (0.15, 0.2, 0.25, 0.3, 0.7, 0.75, 0.8, 0.85) if crossing else (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
    near = max(1.0, 0.035 * size)
    # where a name or marker is printed over the hexside, it says nothing
    ts = [t for t in ts if not sampler.labelled(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, 0.02 * size)]
    if not ts:
        return None, 0.0, 1.0
    reach = 0.15 * size
    profiles = [sampler.profile(a, b, t, reach) for t in ts]
    # the fill either side where the profile ends (the hex's commonest colour may be a symbol's)
    corr = sampler.correction
    locals_ = [tuple(_corrected(_outer(profile, sign, 0.7 * reach), corr) or fill
                     for sign, fill in ((a_sign, fill_a), (-a_sign, fill_b))) for profile in profiles]
    best, seen, scores = None, 0.0, []
    for code, colour, edge, width in sides:
        body, ink = alphas[code]
        widths = []
        for profile, (local_a, local_b) in zip(profiles, locals_):
            fills = [(k, c, local_a if k * a_sign > 0 else local_b if k * a_sign < 0 else
                      (local_a if ink(c, local_a) >= ink(c, local_b) else local_b)) for k, c in profile]
            # a river drawn along the hexside covers it; a hex id or a symbol beside it does not;
            # a grid line blurred into a dark fill is not a slope
            if any(abs(k) <= near and body(c, fill) >= 0.5
                   and _off(_fix(c, corr), fill, colour) < _off(_fix(c, corr), fill, grid_rgb)
                   for k, c, fill in fills):
                widths.append(sum(min(1.0, ink(c, fill)) for _, c, fill in fills) * sampler.k)
        share = len(widths) / len(ts)
        seen = max(seen, share)
        if share >= SIDE_SHARE:
            drawn = sorted(widths)[len(widths) // 2] / size
            score = share - abs(drawn - width) * 4
            scores.append(score)
            if best is None or score > best[2]:
                best = (code, round(share, 3), score)
    if best is None:
        return None, seen, _sureness(None, seen, SIDE_SHARE)
    sure = _sureness(best[1], seen, SIDE_SHARE)
    runner = sorted(scores)[-2] if len(scores) > 1 else None
    if runner is not None and best[2] - runner < 0.1:  # two features drawn alike but for their width
        sure = min(sure, 0.4)
    return best[:2], seen, sure


def _corrected(colour, correction):
    """A picture colour after the colour correction, in whole levels (None stays None)."""
    return None if colour is None else tuple(int(round(v)) for v in _fix(colour, correction))


def _off(colour, fill, target) -> float:
    """How far ``colour`` lies from every blend of ``fill`` and ``target``."""
    v = [target[i] - fill[i] for i in range(3)]
    vv = sum(x * x for x in v) or 1.0
    a = min(1.0, max(0.0, sum((colour[i] - fill[i]) * v[i] for i in range(3)) / vv))
    return colour_distance(colour, [fill[i] + a * v[i] for i in range(3)])


def _outer(profile, sign: int, beyond: float):
    """The median colour of a profile's pixels more than ``beyond`` pixels out on side ``sign``."""
    out = [c for k, c in profile if k * sign > beyond]
    if not out:
        return None
    return tuple(sorted(c[i] for c in out)[len(out) // 2] for i in range(3))


def _link(sampler, hex, other, lines, matchers, size, fill_a, fill_b, textured=False):
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


def _shifted_link(sampler, hex, other, lines, matchers, size, fill_a, fill_b) -> tuple[dict, Hex | None]:
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
        profiles = [[_fix(c, sampler.correction) for _, c in sampler.profile(a, b, t, 0.1 * size)]
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


def _paths(links: set[Hexside]) -> list[list[Hex]]:
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


def apply_draft(game_map: Map, draft: Draft, picture: str, *, keep: bool = False) -> Map:
    """A copy of the map whose terrain, hexsides and lines are the draft, each marked estimated.

    ``keep`` keeps hexes the draft could not read (off the picture) as they were.
    """
    m = replace(game_map, hexes=dict(game_map.hexes) if keep else {}, hexsides={}, lines=[],
                locations={})
    for hex, d in sorted(draft.hexes.items()):
        # confidences in tenths, so the terrain file keeps a few blocks, not one per hex
        note = f"drafted from {picture}, confidence {int(d.confidence * 10) / 10:.1f}"
        m.hexes[hex] = HexTerrain(d.terrain[0], d.terrain[1], Source(estimated=note))
    for side, (code, share) in sorted(draft.hexsides.items()):
        source = Source(estimated=f"drafted from {picture}, confidence {int(share * 10) / 10:.1f}")
        m.hexsides[side] = [HexsideFeature(side, code, source)]
    by_code: dict[str, set[Hexside]] = {}
    shares: dict[str, float] = {}
    for side, codes in draft.links.items():
        for code, share in codes.items():
            by_code.setdefault(code, set()).add(side)
            shares[code] = min(share, shares.get(code, 1.0))
    for code, links in sorted(by_code.items()):
        share = shares[code]
        for path in _paths(links):
            m.lines.append(Line(code, tuple(path), source=Source(
                estimated=f"drafted from {picture}, confidence at least {share:.2f}")))
    return m
