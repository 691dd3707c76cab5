"""Hexside features (rivers, streams, lake shores) read from their colour running along a hexside."""

from __future__ import annotations

import math

from ._pixels import sureness
from ._sideprofile import _across, _beside, _measure, side_reach
from ._sidemarks import GLIMPSED, MARKED, mark_strength
from ._sideshapes import SHAPE_CAP, SHAPE_RUN, _at, _run_off
from ._sidespots import _CROSSED_TS, _SIDE_TS, BRIDGE, _crossed_at, _unlabelled

#: A hexside feature needs this share of its samples to show the colour.
SIDE_SHARE = 0.6
#: A feature drawn under another (a lake side under a river) is read where its own colour shows
#: beside the other's band on at least this share of the samples in the side's middle (a river
#: alone showed it on at most 2 of 5, beside lakes and swamps; a lake under a river on 3).
BESIDE = 0.5
#: How sure a reading is of a side a name or marker covers (all but two of its samples or more)
#: where a feature shows through it.
UNDER_NAME = 0.45
#: A feature whose own colour shows on the hexside at less than this strength (in the median
#: sample) is unsure: a ford blurred (its pale middle mixed with its dark edges) looks like a stream.
FAINT = 0.6
#: A band shows a feature whole where it is at least this share of the feature's drawn width
#: (a name may cut it short elsewhere).
WHOLE = 0.9
#: A lake's band under a river may run this share of its drawn width narrower or wider than the
#: shape learned for it, for nothing: its shore wavers by up to a quarter (see
#: :func:`~toolkit.render._mapgeom.lake_body`) and the river's curve leaves the side, so the lake
#: shows more on one side of it than the other (Demyansk's Polnovo, 3004/3103). (Lake sides
#: alone are told apart by their shape: the slack would blur it.)
WAVER = 0.2
#: Two features whose readings score alike are drawn alike but for their width only where the
#: runner-up's own colour shows nearly as strongly as the reading's (in the median sample): a
#: ford's pale middle shows whole where a stream's colour shows only as the ford's middle
#: blended with its edges (0.63 at 60 px a hex).
ALIKE_STRENGTH = 0.25
#: A runner-up whose own colour shows this much more strongly than the reading's (in the median
#: sample) leaves the reading unsure however they score: a ford's pale middle shows whole where a
#: river's colour shows only as that middle blended with the ford's edges (1.0 against 0.61 on
#: Akhtyrka's ford degraded every way at once, read as the river it breaks).
STRONGER = 0.3


def read_hexside(sampler, side, sides, alphas, size, fill_a, fill_b, crossing=False, grid_rgb=(74, 74, 68),
                 shapes=None, parted=True, marks=()):
    """As :func:`_read_side`; ``marks`` are the features drawn as a mark across a river's band
    (``(code, colour, edge)``: a ford's stepping stones, see :mod:`._sidemarks`), read where a
    river is read and the mark's colour shows on its band at the side's middle (glimpsed: the
    river, unsure, the mark offered)."""
    found, seen, sure, others = _read_side(sampler, side, sides, alphas, size, fill_a, fill_b, crossing, grid_rgb,
                                           shapes, parted)
    if not marks or not found or crossing or isinstance(found[0], tuple) or side_reach(found[0], sides)[1]:
        return found, seen, sure, others
    width = next(s[3] for s in sides if s[0] == found[0])
    strength, code = max((mark_strength(sampler, side, width, mark, sampler.correction, size, (fill_a, fill_b)), code)
                         for code, mark, _ in marks)
    if strength >= MARKED:
        # the river it lies on is no runner-up: a ford breaks a river's course by nature
        return (code, found[1]), seen, sure, ()
    if strength >= GLIMPSED:
        return found, seen, min(sure, 0.4), (code,) + tuple(o for o in others if o != code)
    return found, seen, sure, others


def _read_side(sampler, side, sides, alphas, size, fill_a, fill_b, crossing=False, grid_rgb=(74, 74, 68),
               shapes=None, parted=True):
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
    widest at its middle and reaching both corners, a partial one only in the middle. A band
    a name cuts short (a river under a name's knock-out) is as wide as the feature at least.

    ``parted``: a side that a name and a bridge together hide but for two samples is read on
    those two, unsure (False: as a side under the name)."""
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
    # ... but where a bridge hides most of what a name leaves, the feature is read on the two
    # samples both leave, unsure (a river under Demyansk's name and bridge, blurred)
    few = parted and ts is not _SIDE_TS and len(clear) == 2 and not under_name(sampler, side, size)
    named = len(clear) < 3 and not few
    ts = ts if named else clear
    views: dict = {}   # the pixels across the side, read as far out as each feature reaches

    def view(code):
        key = side_reach(code, sides)
        if key not in views:
            views[key] = _across(sampler, side, ts, fill_a, fill_b, size, *key)
        return key, views[key]

    shapes = shapes or {}
    measured: dict = {}
    read = []
    for code, colour, edge, width in sides:
        body, ink = alphas[code]
        shape = shapes.get(code)
        reach, across = view(code)
        if shape is None:
            least = max(1.5, 0.4 * width * size)  # picture pixels of ink a drawn feature leaves at least
            found = _measure(across, body, ink, (colour, edge or colour), grid_rgb, sampler, [least] * len(ts))
            share = sum(1 for w, _, _, _ in found if w is not None) / len(ts)
        else:
            # features drawn alike are measured once, with the least ink the narrowest of them
            # leaves at each sample; each is then found where its own drawing leaves ink
            family = (colour, edge, reach)
            if family not in measured:
                kin = [shapes[c] for c, col, e, _ in sides if (col, e, side_reach(c, sides)) == family and c in shapes]
                least = [max(1.5, 0.4 * min(_at(k, t) for k in kin) * size) for t in ts]
                measured[family] = _measure(across, body, ink, (colour, edge or colour), grid_rgb, sampler, least)
            found = measured[family]
            expected = [w for t, (w, _, _, _) in zip(ts, found) if _at(shape, t) >= 0.5 * max(shape)]
            share = sum(1 for w in expected if w is not None) / len(expected) if expected else 0.0
        read.append((code, colour, edge, width, shape, found, share, across))
    seen, beside, scored = 0.0, {}, []
    glimpsed = []  # the features seen on the most samples (those drawn alike, all of them)
    for code, colour, edge, width, shape, found, share, across in read:
        if isinstance(code, tuple):
            # two features, one drawn over the other: read only where the one under it shows its
            # own colour beside the other's band (a lake drawn under a river, at hexforge's widths,
            # may be all but hidden by it: the side is read as the river, unsure if it fits better)
            under = next(s[1] for s in sides if s[0] == code[0])
            banded = tuple(w is not None for w, _, _, _ in found)
            key = (under, colour, edge, banded)
            if key not in beside:
                beside[key] = _beside(across, ts, 0.1 * size, under, (colour, edge or colour), sampler.correction,
                                      banded)
            hidden = beside[key] < BESIDE
        else:
            hidden = False
        inked = sum(1 for _, _, b, _ in found if b)
        # a band of the feature's ink where its own colour is blurred away (a ford's pale
        # middle between dark edges) is not the feature, but leaves the hexside unsure
        if not hidden and max(share, inked / len(ts)) >= seen:
            glimpsed = (glimpsed if max(share, inked / len(ts)) == seen else []) + [code]
            seen = max(share, inked / len(ts))
        if share < SIDE_SHARE:
            continue
        strength = _median([s for w, s, _, _ in found if w is not None])
        # (features drawn alike share one presence: the best share among them)
        presence = share if shape is None else \
            max(r[6] for r in read if (r[1], r[2]) == (colour, edge) and r[4] is not None)
        # a feature whose colour shows only faintly yields to one whose colour shows
        faint = 0.5 if strength < FAINT else 0.0
        scored.append((code, share, strength, hidden,
                       tuple(presence - _width_off(shape, width, ts, found, size, lower,
                                                   WAVER if isinstance(code, tuple) and side_reach(code, sides)[1]
                                                   else 0.0) * 4 - faint
                             for lower in (False, True))))
    best, scores, unseen = _best(scored, 0)
    # a band a name may have cut short says only that the feature is at least that wide: where
    # it is narrower there than the feature read, and as wide as another drawn in the same
    # colours where the name leaves it whole, and its widths so taken read that other, that one
    # is read, unsure (a major river under a name's knock-out read as a river)
    lower = _best(scored, 1)
    of = {r[0]: r for r in read}
    cut = best is not None and lower[0][0] != best[0] and of[best[0]][1:3] == of[lower[0][0]][1:3] \
        and _narrower(of[best[0]], ts, size, cut_only=True) and not _narrower(of[lower[0][0]], ts, size)
    if cut:
        best, scores, unseen = lower
    if best is None and few:  # nothing on the two samples: read as under the name
        return _read_side(sampler, side, sides, alphas, size, fill_a, fill_b, crossing, grid_rgb, shapes, False)
    if best is None:
        return None, seen, min(UNDER_NAME if named and seen >= SIDE_SHARE / 2 else 1.0,
                               sureness(None, seen, SIDE_SHARE)), tuple(glimpsed) if seen > 0 else ()
    if named:  # seen through a name: not read
        return None, seen, UNDER_NAME, (best[0],)
    sure, others = sureness(best[1], seen, SIDE_SHARE), []
    if few or cut:
        sure = min(sure, UNDER_NAME)
    runner = sorted(scores, key=lambda s: s[0])[-2] if len(scores) > 1 else None
    if runner is not None and runner[2] > best[3] - ALIKE_STRENGTH and \
            (best[2] - runner[0] < 0.1 or runner[2] - best[3] >= STRONGER):
        # two features drawn alike but for their width, or one whose own colour shows far more
        # strongly than the reading's (a ford blurred into the river it breaks)
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
        pale = [(share, code) for code, _, e, _, shape, found, share, _ in read
                if code != best[0] and e is not None and e == edge and shape is None and share >= SIDE_SHARE / 2
                and _median([st for w, st, _, _ in found if w is not None]) >= FAINT]
        if pale:
            share, code = max(pale)
            return (code, round(share, 3)), seen, sure, ()
    if unseen[0] > best[2]:  # its band runs like two features drawn one over the other
        sure = min(sure, 0.4)
        others.append(unseen)
    # what else it may hold, likeliest first (two features one over the other, fitting better
    # than the reading, before a feature drawn alike fitting worse)
    return best[:2], seen, sure, tuple(code for _, code in sorted(others, key=lambda o: -o[0]))


def _best(scored, by: int):
    """The best of the features ``scored`` (``(code, share, strength, hidden, scores)``) by
    their ``by``-th score: ``(code, share, score, strength)`` or None; every feature's ``(score,
    code, strength)``; and the best of those hidden (two features one over the other where the
    one under it does not show), ``(score, code)``."""
    best, scores, unseen = None, [], (-math.inf, None)
    for code, share, strength, hidden, by_score in scored:
        score = by_score[by]
        if hidden:
            unseen = max(unseen, (score, code))
            continue
        scores.append((score, code, strength))
        if best is None or score > best[2]:
            best = (code, round(share, 3), score, strength)
    return best, scores, unseen


def _width_off(shape, width: float, ts, found, size: float, lower: bool, slack: float = 0.0) -> float:
    """How far the widths ``found`` along a side run from a feature's: from its drawn ``shape``
    sample by sample where it has one (features drawn alike, told apart by their shape along the
    side), else the median from its drawn ``width`` (of the hex size). ``lower``: a band a
    name may have cut short counts only where it is wider than the feature. ``slack``: the
    share of the shape's width either way that counts for nothing (a lake's shore wavers)."""
    if shape is not None:
        return sum(max(0.0, min(SHAPE_CAP, max((w or 0.0) / size - _at(shape, t),
                                               0.0 if lower and cut else _at(shape, t) - (w or 0.0) / size))
                            - slack * _at(shape, t))
                   for t, (w, _, _, cut) in zip(ts, found)) / len(ts) + SHAPE_RUN * _run_off(shape, ts, found, lower)
    whole = [w for w, _, _, cut in found if w is not None and not (lower and cut)]
    if whole:
        return abs(_median(whole) / size - width)
    return max(0.0, _median([w for w, _, _, _ in found if w is not None]) / size - width)


def _narrower(reading, ts, size: float, cut_only: bool = False) -> bool:
    """Whether the band of a feature (``reading``, as :func:`read_hexside` measures each) is
    narrower than its drawing (under :data:`WHOLE` of it) on every sample where it was found
    (``cut_only``: on any sample a name may have cut short)."""
    _, _, _, width, shape, found, _, _ = reading
    narrow = [w < WHOLE * (width if shape is None else _at(shape, t)) * size
              for t, (w, _, _, cut) in zip(ts, found) if w is not None and (cut or not cut_only)]
    return any(narrow) if cut_only else all(narrow)


def _median(values) -> float:
    return sorted(values)[len(values) // 2] if values else 0.0


def under_name(sampler, side, size) -> bool:
    """Whether a name or marker is printed over (nearly) all of ``side``: all but two of its
    samples or more (such a side is not read, see :func:`read_hexside`)."""
    a, b = sampler.layout.hexside_segment(side)
    return len(_unlabelled(sampler, a, b, _SIDE_TS, size)) < 3
