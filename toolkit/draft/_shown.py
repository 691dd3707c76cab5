"""What a picture shows in a hex besides its reading: the signs and overlays that, laid on
hexforge's drawing of the reading, fit the picture better than the drawing alone."""

from __future__ import annotations

import math

from PIL import Image, ImageChops, ImageFilter

from ..hexes import Hex
from ._drawings import Drawings, _pad
from ._drawn import PER_OVERLAY, SIGN_SEEN, _explained
from ._pixels import _farthest_channel, _lut
from .sample import SOFTEN, HexSampler, masked_mean


def signs_shown(sampler: HexSampler, drawings: Drawings, hex: Hex, terrain, correction, line_colours,
                fill) -> tuple[str, ...]:
    """The signs the picture shows in ``hex`` that its reading ``terrain`` (base, overlays)
    lacks: each that, laid on hexforge's drawing of the reading where it fits best, fits the
    picture over its footprint much better than the drawing alone (see :data:`SIGN_SEEN`; a
    pixel a road, railway or watercourse explains costs both alike, as in :func:`compare`)."""
    base, feats = terrain
    box = sampler.box(hex)
    m = drawings.margin
    if not drawings.tiles or box is None or drawings.signs_of((base,) + tuple(feats)):
        return ()
    wide = (box[0] - m, box[1] - m, box[2] + m, box[3] + m)
    if wide[0] < 0 or wide[1] < 0 or wide[2] > sampler.soft.width or wide[3] > sampler.soft.height:
        return ()
    copies = [(soft, raw) for f, soft, _, raw in drawings.of(base) if f == tuple(feats)]
    if not copies:
        return ()
    lut = None if correction == ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)) else _lut(correction)
    seen = sampler.soft.crop(wide)
    if lut is not None:
        seen = seen.point(lut)
    finder = drawings.finder(sampler)
    shown = []
    for code, t in finder.templates.items():
        found = finder.find(hex, code, correction, lut) if code not in feats else None
        if found is None:
            continue
        # the footprint's square (in the wide crop), and the drawings there
        (left, top), _ = found
        x0, y0 = max(0, left + m), max(0, top + m)
        x1, y1 = min(seen.width, left + m + t.w), min(seen.height, top + m + t.h)
        if x1 <= x0 or y1 <= y0:
            continue
        square = (x0, y0, x1, y1)
        foot = Image.new("L", (x1 - x0, y1 - y0), 0)
        foot.paste(t.mask, (left + m - x0, top + m - y0))
        if not foot.getbbox():
            continue
        here = seen.crop(square)
        cap = _explained(here, line_colours, fill)

        def fit(drawn: Image.Image) -> float:
            return masked_mean(ImageChops.darker(_farthest_channel(ImageChops.difference(here, drawn)), cap), foot)[0]
        pad, e = _pad(sampler.size), drawings.slack
        alone = with_sign = math.inf
        for soft, raw in copies:
            # (the drawings keep the slack round the wide crop; raw keeps pad more than soft)
            alone = min(alone, fit(soft.crop((x0 + e, y0 + e, x1 + e, y1 + e))))
            laid = raw.crop((x0 + e, y0 + e, x1 + e + 2 * pad, y1 + e + 2 * pad))
            laid.paste(t.tile, (left + m - x0 + pad, top + m - y0 + pad), t.tile)
            laid = laid.filter(ImageFilter.GaussianBlur(max(1.0, SOFTEN * sampler.size)))
            with_sign = min(with_sign, fit(laid.crop((pad, pad, pad + x1 - x0, pad + y1 - y0))))
        if with_sign < SIGN_SEEN * alone:
            shown.append(code)
    return tuple(shown)


def overlays_shown(sampler: HexSampler, drawings: Drawings, hex: Hex, terrain, correction, line_colours,
                   fill) -> tuple[str, ...]:
    """The overlays the picture shows in ``hex`` besides those of its reading ``terrain`` (base
    and at least one overlay): each whose drawing with the reading's overlays fits the picture's
    disc better than the reading's drawing alone by more than an overlay costs
    (:data:`PER_OVERLAY`; a pixel a line explains costs both alike, as in :func:`compare`). The
    palette's looks hold one overlay at most: a village among woods' trees, half under a victory
    star, leaves the hex's look the woods'."""
    base, feats = terrain
    box = sampler.box(hex)
    if box is None or not feats:
        return ()
    have = set(feats)
    groups: dict[tuple[str, ...], list] = {}
    for f, soft, _, _ in drawings.of(base):
        if set(f) == have or (len(f) == len(feats) + 1 and have < set(f)):
            groups.setdefault(f, []).append(soft)
    alone = groups.pop(tuple(feats), None) or groups.pop(next((f for f in groups if set(f) == have), None), None)
    if not alone or not groups:
        return ()
    seen = sampler.soft.crop(box)
    if correction != ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)):
        seen = seen.point(_lut(correction))
    other = _explained(seen, line_colours, fill)
    mask = sampler.disc_mask(hex, box)
    at = drawings.margin + drawings.slack
    frame = (at, at, at + seen.width, at + seen.height)

    def fit(copies) -> float:
        return min(masked_mean(ImageChops.darker(_farthest_channel(ImageChops.difference(seen, c.crop(frame))),
                                                 other), mask)[0] for c in copies)
    plain = fit(alone)
    return tuple(next(iter(set(f) - have)) for f, copies in groups.items() if fit(copies) + PER_OVERLAY < plain)
