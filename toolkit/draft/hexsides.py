"""Hexside features (rivers, streams, lake shores) read from their colour running along a hexside."""

from __future__ import annotations

import math

from ._pixels import blend_alpha, fix, sureness
from .sample import colour_distance

#: A hexside feature needs this share of its samples to show the colour.
SIDE_SHARE = 0.6
#: A feature drawn under another (a lake side under a river) is read where its own colour shows
#: beside the other's band on at least this share of the samples in the side's middle (a river
#: alone showed it on at most 2 of 5, beside lakes and swamps; a lake under a river on 3).
BESIDE = 0.5
#: A feature drawn with edges and a middle narrower than this (picture pixels) is mixed with its
#: edges by a picture's blur (a stream's middle, 2-3 pixels at 60-80 pixels a hex).
THIN = 4.0
#: How sure a reading is of a side a name or marker covers (all but two of its samples or more)
#: where a feature shows through it.
UNDER_NAME = 0.45
#: A feature whose own colour shows on the hexside at less than this strength (in the median
#: sample) is unsure: a ford blurred (its pale middle mixed with its dark edges) looks like a stream.
FAINT = 0.6
#: Two features whose readings score alike are drawn alike but for their width only where the
#: runner-up's own colour shows nearly as strongly as the reading's (in the median sample): a
#: ford's pale middle shows whole where a stream's colour shows only as the ford's middle
#: blended with its edges (0.63 at 60 px a hex).
ALIKE_STRENGTH = 0.25


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


def side_readers(game_map, theme, size: float, correction, learned=None, grid_rgb=(74, 74, 68),
                 skipped=None) -> tuple[list, dict, dict]:
    """What :func:`read_hexside` reads a map's hexside features with on a picture ``size``
    pixels a hex, needing ``correction``: ``(sides, alphas, shapes)``, the features as ``(code,
    colour, edge, width)`` (two features drawn one over the other among them, see
    :func:`side_combos`), how much of each a pixel shows (:func:`side_ink`) and the shapes of
    those drawn alike (:func:`side_shapes`). ``learned``: colours learned on the picture
    (``("side", code) -> RGB``; they win over the theme's). Bridges and features drawn like the
    grid are not read: a line for each goes to ``skipped``."""
    learned = learned or {}
    sides = []
    for code, kind in game_map.hexside_types.items():
        style = theme.hexside_style(kind)
        if kind.bridge:
            why = "bridges are not drafted"
        elif colour_distance(style.colour, grid_rgb) < 60:
            why = "drawn too like the grid lines to tell apart"
        else:
            got = learned.get(("side", code))
            sides.append((code, got or style.colour, None if got else style.edge, style.drawn_width(size) / size))
            continue
        if skipped is not None:
            skipped.append(f"hexside type {code!r}: {why}")
    # a river through a lake's narrows is read as a river of another shape (its colours the theme's)
    drawn = {s[0]: s for s in sides}
    sides += [(combo, *drawn[over][1:]) for combo, over in
              side_combos(game_map, [s for s in sides if not learned.get(("side", s[0]))], theme)]
    # a thin feature blurred shows the mix of its colour and edges (a stream's middle: a few pixels)
    blurred = {}
    for code, colour, edge, width in sides:
        style = theme.hexside_style(game_map.hexside_types[code if isinstance(code, str) else code[-1]])
        if edge is not None and style.width * size < THIN:
            blurred[code] = blurred_colour(colour, edge, max(1.0, style.width * size), width * size)
    rivals = {c for code, colour, edge, _ in sides for c in (colour, edge, blurred.get(code)) if c is not None}
    alphas = {code: side_ink(colour, edge, correction, blurred.get(code), rivals) for code, colour, edge, _ in sides}
    # features drawn alike (two lake side kinds) are told apart by their shape along the side,
    # drawn by hexforge like the palette's terrains (where their colours are the theme's, not
    # learned on the picture)
    alike = [s for s in sides if not learned.get(("side", s[0]))
             and sum(1 for o in sides if (o[1], o[2]) == (s[1], s[2])) > 1]
    shapes = side_shapes(game_map, alike, size, theme, grid_rgb) if alike else {}
    return sides, alphas, shapes


def blurred_colour(colour, edge, width: float, drawn: float):
    """The colour a feature ``width`` pixels wide in ``colour``, ``drawn`` pixels wide with its
    ``edge``, takes where blur mixes the two (None where it has no edge)."""
    if edge is None or drawn <= width:
        return None
    return tuple(round((colour[i] * width + edge[i] * (drawn - width)) / drawn) for i in range(3))


def read_hexside(sampler, side, sides, alphas, size, fill_a, fill_b, crossing=False, grid_rgb=(74, 74, 68),
                 shapes=None):
    """``(feature, share)`` drawn along ``side`` (or None), the largest share of samples any
    feature was seen on, how sure the reading is and what else the side may hold where unsure
    (features drawn alike, two features, one seen through a name). ``feature`` is a code, or a
    tuple of codes for two features drawn one over the other (see :func:`side_combos`).
    ``crossing``: the colours of the roads
    and railways crossing the side (a bridge hides the feature where they cross), or none.
    Where no feature is read, what else the side may hold is the features seen on the most
    samples (if any).

    Each pixel across the hexside is judged against the fill of the hex it lies in (a blue
    terrain beside a clear hex is not a river along their side); the drawn width is the sum
    of the pixels' share of the feature's colour across the side, which blur and JPEG keep,
    and it picks a stream from a river. Features drawn alike (``shapes``: see
    :func:`side_shapes`) are told apart by how their width runs along the side: a lake side
    widest at its middle and reaching both corners, a partial one only in the middle."""
    a, b = sampler.layout.hexside_segment(side)
    # where a road or railway crosses, its bridge hides the river (lines bend: not always at the middle)
    if crossing:
        drawn = [c for _, colour, edge, _ in sides for c in (colour, edge) if c is not None]
        at = _crossed_at(sampler, a, b, [c for c in crossing if c is not None], size, [grid_rgb] + drawn)
        ts = tuple(t for t in _CROSSED_TS if abs(t - at) >= BRIDGE - 1e-9)  # (0.5 - 0.3 < 0.2 in floats)
    else:
        ts = _SIDE_TS
    # where a name or marker is printed over the hexside, it says nothing; a side (nearly) all
    # under one is looked at through it: what shows between its letters (an id's dark digits
    # among trees, JPEG'd, looked like a partial lake) is not read, but leaves the side unsure
    clear = _unlabelled(sampler, a, b, ts, size)
    named = len(clear) < 3
    ts = ts if named else clear
    across = _across(sampler, side, ts, fill_a, fill_b, size)
    shapes = shapes or {}
    measured: dict = {}
    read = []
    for code, colour, edge, width in sides:
        body, ink = alphas[code]
        shape = shapes.get(code)
        if shape is None:
            least = max(1.5, 0.4 * width * size)  # picture pixels of ink a drawn feature leaves at least
            found = _measure(across, body, ink, (colour, edge or colour), grid_rgb, sampler, [least] * len(ts))
            widths = [w for w, _, _ in found if w is not None]
            share = len(widths) / len(ts)
        else:
            # features drawn alike are measured once, with the least ink the narrowest of them
            # leaves at each sample; each is then found where its own drawing leaves ink
            family = (colour, edge)
            if family not in measured:
                kin = [shapes[c] for c, col, e, _ in sides if (col, e) == family and c in shapes]
                least = [max(1.5, 0.4 * min(_at(k, t) for k in kin) * size) for t in ts]
                measured[family] = _measure(across, body, ink, (colour, edge or colour), grid_rgb, sampler, least)
            found = measured[family]
            expected = [w for t, (w, _, _) in zip(ts, found) if _at(shape, t) >= 0.5 * max(shape)]
            share = sum(1 for w in expected if w is not None) / len(expected) if expected else 0.0
        read.append((code, colour, edge, width, shape, found, share))
    best, seen, scores, beside, unseen = None, 0.0, [], {}, (-math.inf, None)
    glimpsed = []  # the features seen on the most samples (those drawn alike, all of them)
    for code, colour, edge, width, shape, found, share in read:
        if isinstance(code, tuple):
            # two features, one drawn over the other: read only where the one under it shows its
            # own colour beside the other's band (a lake drawn under a river, at hexforge's widths,
            # may be all but hidden by it: the side is read as the river, unsure if it fits better)
            under = next(s[1] for s in sides if s[0] == code[0])
            banded = tuple(w is not None for w, _, _ in found)
            key = (under, colour, edge, banded)
            if key not in beside:
                beside[key] = _beside(across, ts, 0.1 * size, under, (colour, edge or colour), sampler.correction,
                                      banded)
            hidden = beside[key] < BESIDE
        else:
            hidden = False
        inked = sum(1 for _, _, b in found if b)
        # a band of the feature's ink where its own colour is blurred away (a ford's pale
        # middle between dark edges) is not the feature, but leaves the hexside unsure
        if not hidden and max(share, inked / len(ts)) >= seen:
            glimpsed = (glimpsed if max(share, inked / len(ts)) == seen else []) + [code]
            seen = max(share, inked / len(ts))
        if share < SIDE_SHARE:
            continue
        strengths = [s for w, s, _ in found if w is not None]
        strength = sorted(strengths)[len(strengths) // 2]
        if shape is not None:
            # which of the features drawn alike: how far its width runs from each one's
            # drawing, sample by sample (they share one presence: the best share among them)
            off = sum(min(SHAPE_CAP, abs((w or 0.0) / size - _at(shape, t)))
                      for t, (w, _, _) in zip(ts, found)) / len(ts) + SHAPE_RUN * _run_off(shape, ts, found)
            presence = max(r[6] for r in read if (r[1], r[2]) == (colour, edge) and r[4] is not None)
        else:
            widths = [w for w, _, _ in found if w is not None]
            off, presence = abs(sorted(widths)[len(widths) // 2] / size - width), share
        # a feature whose colour shows only faintly yields to one whose colour shows
        score = presence - off * 4 - (0.5 if strength < FAINT else 0.0)
        if hidden:
            unseen = max(unseen, (score, code))
            continue
        scores.append((score, code, strength))
        if best is None or score > best[2]:
            best = (code, round(share, 3), score, strength)
    if best is None:
        return None, seen, min(UNDER_NAME if named and seen >= SIDE_SHARE / 2 else 1.0,
                               sureness(None, seen, SIDE_SHARE)), tuple(glimpsed) if seen > 0 else ()
    if named:  # seen through a name: not read
        return None, seen, UNDER_NAME, (best[0],)
    sure, others = sureness(best[1], seen, SIDE_SHARE), []
    runner = sorted(scores, key=lambda s: s[0])[-2] if len(scores) > 1 else None
    if runner is not None and best[2] - runner[0] < 0.1 and runner[2] > best[3] - ALIKE_STRENGTH:
        # two features drawn alike but for their width
        sure = min(sure, 0.4)
        others.append((runner[0], runner[1]))
    if best[3] < FAINT:  # its colour only half shows: another feature blurred (a ford's pale middle)?
        sure = min(sure, 0.4)
        # ... one drawn with the same edges whose own colour shows whole where it shows, on at
        # least half the samples a feature needs (the river's end bending in over a ford's
        # corners, blurred, hides its pale middle there): that one, unsure (not offered the
        # course's kind as a runner-up to be read again as: a ford breaks a river's course by
        # nature; the course's doubt names the river)
        edge = next(r[2] for r in read if r[0] == best[0])
        pale = [(share, code) for code, _, e, _, shape, found, share in read
                if code != best[0] and e is not None and e == edge and shape is None and share >= SIDE_SHARE / 2
                and _median([st for w, st, _ in found if w is not None]) >= FAINT]
        if pale:
            share, code = max(pale)
            return (code, round(share, 3)), seen, sure, ()
    if unseen[0] > best[2]:  # its band runs like two features drawn one over the other
        sure = min(sure, 0.4)
        others.append(unseen)
    # what else it may hold, likeliest first (two features one over the other, fitting better
    # than the reading, before a feature drawn alike fitting worse)
    return best[:2], seen, sure, tuple(code for _, code in sorted(others, key=lambda o: -o[0]))


def _median(values) -> float:
    return sorted(values)[len(values) // 2] if values else 0.0


def under_name(sampler, side, size) -> bool:
    """Whether a name or marker is printed over (nearly) all of ``side``: all but two of its
    samples or more (such a side is not read, see :func:`read_hexside`)."""
    a, b = sampler.layout.hexside_segment(side)
    return len(_unlabelled(sampler, a, b, _SIDE_TS, size)) < 3


def _unlabelled(sampler, a, b, ts, size) -> list[float]:
    """The ``ts`` along the side a-b that no name or marker covers."""
    return [t for t in ts if not sampler.labelled(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, 0.02 * size)]


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


#: Where along a hexside (from one corner, 0, to the other, 1) a feature's drawn shape is measured.
SHAPE_TS = tuple(round(0.05 * i, 2) for i in range(2, 19))
#: A sample's width off the drawing's counts at most this much (of the hex size): a symbol or
#: name touching the side at one sample does not outweigh the rest.
SHAPE_CAP = 0.12


#: The weight of how the width runs along the side, each relative to its widest (see
#: :func:`_run_off`), beside the widths themselves (a tenth: about a wide lake side's width).
SHAPE_RUN = 0.1


def _run_off(shape: tuple[float, ...], ts, found) -> float:
    """How far the measured width runs along the side from ``shape``, each relative to its
    widest sample (0..1 per sample, the mean): a picture's degradations thin or widen a band
    all along it, but a lake side reaching both corners still reaches them (a partial one does
    not), where its widths alone, thinned, come nearer the partial one's."""
    widths = [w or 0.0 for w, _, _ in found]
    drawn = [_at(shape, t) for t in ts]
    if not max(widths) or not max(drawn):
        return 0.0
    return sum(abs(w / max(widths) - d / max(drawn)) for w, d in zip(widths, drawn)) / len(ts)


def _at(shape: tuple[float, ...], t: float) -> float:
    """A shape's width at ``t`` (linear between its samples)."""
    x = (t - SHAPE_TS[0]) / (SHAPE_TS[1] - SHAPE_TS[0])
    i = min(len(shape) - 2, max(0, int(x)))
    f = min(1.0, max(0.0, x - i))
    return shape[i] * (1 - f) + shape[i + 1] * f


def _across(sampler, side, ts, fill_a, fill_b, size):
    """The pixels across ``side`` at each ``t``: ``(offset, colour, fill)`` triples, each pixel
    with the fill of the hex it lies in (where the profile ends on either side: the hex's
    commonest colour may be a symbol's), and the two fills."""
    a, b = sampler.layout.hexside_segment(side)
    ca = sampler.layout.center(side.a)
    nx, ny = -(b[1] - a[1]), b[0] - a[0]
    a_sign = 1 if (ca[0] - (a[0] + b[0]) / 2) * nx + (ca[1] - (a[1] + b[1]) / 2) * ny > 0 else -1
    reach = 0.15 * size
    corr = sampler.correction
    length = math.hypot(nx, ny) or 1.0
    out = []
    for t in ts:
        profile = sampler.profile(a, b, t, reach)
        # a hex id or name beside the side is not the hex's fill (an id's digits under the side
        # of a ford, blurred, read as a dark fill beside it)
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        fills = [(k, c) for k, c in profile if not sampler.labelled(x + nx * k / length, y + ny * k / length)]
        local_a, local_b = (_corrected(_outer(fills, sign, 0.7 * reach), corr) or fill
                            for sign, fill in ((a_sign, fill_a), (-a_sign, fill_b)))
        out.append((profile, a_sign, local_a, local_b))
    return out


def _measure(across, body, ink, colours, grid_rgb, sampler, least):
    """Per sample across the side: the feature's width there (picture pixels of its ink, or
    None where no band of its colour lies on the side), how strongly its colour shows, and
    whether a band of its ink lies there at all (``least``: per sample, the ink a drawn feature
    leaves there)."""
    near = max(1.0, 0.035 * sampler.layout.size)
    out = []
    for (profile, a_sign, local_a, local_b), least in zip(across, least):
        fills = [(k, c, local_a if k * a_sign > 0 else local_b if k * a_sign < 0 else
                  (local_a if ink(c, local_a) >= ink(c, local_b) else local_b)) for k, c in profile]
        drawn, blurred, strength = _band(fills, body, ink, near, colours, grid_rgb, sampler.correction,
                                         (local_a, local_b))
        # its width: all the feature's ink across the hexside, which blur and JPEG keep
        width = sum(min(1.0, ink(c, fill)) for _, c, fill in fills) * sampler.k if drawn * sampler.k >= least else None
        out.append((width, strength, blurred * sampler.k >= least / 2))
    return out


def side_shapes(game_map, sides, hex_px: float, theme=None, grid_rgb=(74, 74, 68)) -> dict[str, tuple[float, ...]]:
    """How each hexside feature of ``sides`` (``(code, colour, edge, width)``) is drawn along its
    side: its width (a fraction of the hex size) at each of :data:`SHAPE_TS`, read the way a
    picture's hexsides are on examples hexforge draws at ``hex_px`` (as the palette draws the
    terrains): a lake side widest at its middle and narrow at the corners, a partial lake side
    a small lake touching neither corner, a river even. Mirrored: a side is read either way.
    A ``code`` that is a tuple of codes is those features drawn on one side (see
    :func:`side_combos`), measured in the ``colour`` and ``edge`` given."""
    from dataclasses import replace

    from ..game import HexsideFeature, HexTerrain, Map
    from ..hexes import Hex, Hexside, Numbering
    from ..render import Theme, render_map
    from .sample import HexSampler

    theme = theme or Theme.default()
    codes = [code for code, _, _, _ in sides]
    drawn = {c for code in codes for c in (code if isinstance(code, tuple) else (code,))}
    bases = [t for t in game_map.terrain_types.values() if not t.overlay]
    if not codes or not bases:
        return {}
    # drawn between land hexes (hexsides of water hexes are not read)
    spacer = next((t for t in bases if theme.terrain_style(t).water is None), bases[0]).code
    per_row = 4
    rows = -(-len(codes) // per_row)
    grid = replace(game_map.grid, first_col=1, last_col=4 * per_row + 1, first_row=1, last_row=4 * rows + 2,
                    short_shifted=False, col_direction="ascending", row_direction="ascending",
                    numbering=Numbering(col_digits=4, row_digits=4))
    swatch = Map(id="sides", name="sides", grid=grid, terrain_types=dict(game_map.terrain_types),
                 hexside_types={c: game_map.hexside_types[c] for c in sorted(drawn)},
                 hex_size_inches=hex_px / 100.0, hex_ids="none")  # no id printed over a side
    for hex in grid:
        swatch.hexes[hex] = HexTerrain(spacer)
    examples: dict[str, list] = {}
    for i, code in enumerate(codes):
        row, col = divmod(i, per_row)
        centre = Hex(3 + 4 * col, 3 + 4 * row)
        near = grid.neighbours(centre)
        # two sides meeting at a corner, and a side alone
        chosen = [Hexside.of(centre, near[0]), Hexside.of(centre, near[1]), Hexside.of(centre, near[3])]
        for side in chosen:
            for c in code if isinstance(code, tuple) else (code,):
                swatch.hexsides.setdefault(side, []).append(HexsideFeature(side, c))
        examples[code] = chosen
    rendered = render_map(swatch, dpi=100, theme=theme)
    sampler = HexSampler(rendered.image, rendered.layout, "none")
    size = sampler.layout.size
    look = sampler.look(Hex(1, 1))
    fill = tuple(int(round(v)) for v in look.mode) if look is not None else (255, 255, 255)
    out = {}
    for code, colour, edge, width in sides:
        body, ink = side_ink(colour, edge, sampler.correction)
        least = max(1.5, 0.4 * width * size)
        sums = [0.0] * len(SHAPE_TS)
        for side in examples[code]:
            across = _across(sampler, side, SHAPE_TS, fill, fill, size)
            for i, (w, _, _) in enumerate(_measure(across, body, ink, (colour, edge or colour), grid_rgb,
                                                    sampler, [least] * len(SHAPE_TS))):
                sums[i] += (w or 0.0) / size
                sums[-1 - i] += (w or 0.0) / size
        n = 2 * len(examples[code])
        out[code] = tuple(round(v / n, 4) for v in sums)
    return out


def side_combos(game_map, sides, theme) -> list[tuple[tuple[str, str], str]]:
    """Two water features that may share a hexside, drawn one over the other (a river through
    a lake's narrows): ``((under, over), over)`` for each pair of ``sides`` (``(code, colour,
    edge, width)``) of a lake kind and a river kind. The map draws the wider first, so the
    river lies over the lake and the lake shows only where it is wider: read in the river's
    colours, as a river of another shape (see :func:`side_shapes`)."""
    styles = {code: theme.hexside_style(game_map.hexside_types[code]) for code, _, _, _ in sides}
    out = []
    for under, _, _, _ in sides:
        for over, _, _, _ in sides:
            if styles[under].key == "lake" and styles[over].key == "river" and styles[over].width < styles[under].width:
                out.append(((under, over), over))
    return out


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
    for t, (profile, a_sign, local_a, local_b), band in zip(ts, across, banded):
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


def _band(fills, body, ink, near: float, colours, grid_rgb, corr, locals_) -> tuple[float, float, float]:
    """The ink (in profile steps) of the band of the feature's colour lying on the hexside (or
    0), of the band of its ink there whether or not its own colour shows, and how strongly its
    own colour shows there (the most of it in one pixel, 0..1).

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
    for (k, c, fill), a in zip(fills + [(None, None, None)], inks + [0.0]):
        if a >= 0.1:  # a blurred band keeps its ink in its tails
            run += a
            p = fix(c, corr)
            if abs(k) <= near:
                peak = max(peak, min(1.0, body(c, fill)))
            on_side = on_side or (abs(k) <= near and a >= 0.35 and body(c, fill) >= 0.5
                                  and _off(p, fill, colour) < _off(p, fill, grid_rgb))
            continue
        if on_side and run > best:
            best, strongest = run, peak
        run, on_side, peak = 0.0, False, 0.0
    return best, any_, strongest


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
