"""A doubtful hex compared pixel by pixel with hexforge's drawing of each terrain it may be.

The palette's looks (:mod:`.palette`) sum a hex up in a few numbers and hold one overlay at most:
two or three overlays on one hex (a village in woods, a town with an airfield, a town on a river
with a bunker and a bridge), or a road crossing a village's blocks in their colours, leave the
hex between examples. For such hexes the picture is laid over hexforge's drawing of every base
terrain with every set of overlays (each way its symbols are drawn), softened alike, and the
drawing that differs least wins. A pixel that a road, railway or watercourse of the map could
have painted may be explained by that line instead, at a price: a line crossing the hex costs
every drawing alike, and cannot pass for a symbol it does not cover.

An airfield or fort sharing its hex with a town is drawn by the map as a small sign wherever
the hex has room (see :mod:`._signs`): such a drawing is the hex's other symbols drawn by
hexforge with the sign laid where the picture shows it best, softened after.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageChops, ImageFilter

from ..hexes import Hex
from ._drawings import Drawings, _grain, _pad
from ._pixels import _farthest_channel, _lut
from .sample import GRAIN_STEPS, SOFTEN, HexSampler, masked_mean

#: A pixel's difference from a drawing counts no more than this (grey levels, the largest channel):
#: a name or a marker the drawing lacks costs every drawing alike.
CAP = 90
#: What a pixel costs when a line explains it instead of the drawing: ``(share of the line's
#: colour blended with the fill, price)``. Below a village block's distance from a road of like
#: colour (about 20), so that a road over the blocks' places favours no drawing.
BLENDS = ((1.0, 8), (0.7, 10), (0.45, 12))
#: What each overlay of a drawing costs (grey levels of the mean difference): of two drawings
#: that fit alike, the one with fewer overlays (a symbol must show to be read).
PER_OVERLAY = 1.5
#: What a difference in grain costs (per grey level of the grain; hatchings differ by 10-20).
GRAIN_COST = 0.3
#: How much a sign's footprint counts besides the hex: its mean difference times this.
SIGN_WEIGHT = 0.5
#: ... where the drawings with a sign fit its footprint this much better (the share of the
#: difference left) than those without.
SIGN_SEEN = 0.5
#: The drawings (best first, by their fit unmoved) that are tried moved by up to SLACK.
REGISTERED = 4


def _signed(raw: Image.Image, tiles, size: float, margin: int, mask=None) -> tuple[Image.Image, tuple[float, float]]:
    """A drawing with signs laid on it: the unsoftened crop ``raw`` (see :meth:`Drawings.of`),
    each ``(tile, (left, top))`` pasted (working pixels from the disc's box), softened as the
    picture is; returns the softened crop (with ``margin``) and its grain over the disc ``mask``
    (none without a mask)."""
    pad = _pad(size) + margin
    laid = raw.copy()
    for tile, (left, top) in tiles:
        laid.paste(tile, (left + pad, top + pad), tile)
    blurred = laid.filter(ImageFilter.GaussianBlur(max(1.0, SOFTEN * size)))
    soft = blurred.crop((pad - margin, pad - margin, laid.width - pad + margin, laid.height - pad + margin))
    if mask is None:
        return soft, (0.0, 0.0)
    grey = laid.convert("L")
    grain = Image.merge("CMYK", [ImageChops.difference(grey, ImageChops.offset(grey, -dx, -dy))
                                 for dx, dy in GRAIN_STEPS]).crop((pad, pad, laid.width - pad, laid.height - pad))
    across, down, diagonal, anti = masked_mean(grain, mask)
    return soft, (across - down, diagonal - anti)


def _explained(seen: Image.Image, line_colours, fill) -> Image.Image:
    """What each pixel of ``seen`` costs at most: the cap, or its distance from a line's colour
    (or the line's colour blended with the ``fill``, as its softened edge is) and the price."""
    pixels = np.asarray(seen).astype(np.int16)
    other = np.full(pixels.shape[:2], CAP, dtype=np.int16)
    for colour in line_colours:
        for share, price in BLENDS:
            # (the blend's channels held within 0..255, as a picture of it would be)
            mixed = np.clip([int(round(f + share * (c - f))) for c, f in zip(colour, fill)], 0, 255)
            # the largest channel's difference, and the price (255 at most)
            far = np.abs(pixels - mixed.astype(np.int16)).max(axis=2)
            np.minimum(other, np.minimum(far + price, 255), out=other)
    return Image.fromarray(other.astype(np.uint8), "L")


def compare(sampler: HexSampler, drawings: Drawings, hex: Hex, bases, correction, line_colours, fill,
            towards: tuple[Hex, ...] = ()):
    """``[(cost, (base, overlays)), ...]`` best first: how far the picture at ``hex`` (colour
    corrected) lies from each drawing of each of ``bases`` (the best copy of each, and
    :data:`PER_OVERLAY` for each overlay), or None when the hex is not wholly on the picture or
    the drawings are read at another size. ``fill`` is the hex's printed fill (corrected): a
    line's edge is its colour blended with the fill. ``towards``: the neighbours a road or
    railway read on the picture runs to (its strokes are grain too: the grain is read beside them)."""
    box = sampler.box(hex)
    if box is None:
        return None
    identity = correction == ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
    lut = None if identity else _lut(correction)
    disc = sampler.disc_mask(hex, box)
    grain = _grain(sampler, box, sampler.disc_mask(hex, box, towards) if towards else disc)
    # where each sign of the map fits best in the hex; the picture is compared a margin round the
    # disc too, where a sign placed off the centre reaches (see the footprints below)
    m = drawings.margin
    finder = drawings.finder(sampler) if drawings.tiles else None
    spots = {}
    for code in drawings.tiles if finder is not None else ():
        found = finder.find(hex, code, correction, lut)
        if found is not None:
            spots[code] = found
    wide = (box[0] - m, box[1] - m, box[2] + m, box[3] + m)
    if m and (wide[0] < 0 or wide[1] < 0 or wide[2] > sampler.soft.width or wide[3] > sampler.soft.height):
        wide = None
    shift = 0 if wide is None else m
    if wide is None:
        mask = disc
    else:
        mask = Image.new("L", (wide[2] - wide[0], wide[3] - wide[1]), 0)
        mask.paste(disc, (m, m), disc)
        box = wide
    # each sign's footprint at the spot where it fits best
    footprints = {}
    for code, ((left, top), _) in spots.items():
        foot = Image.new("L", mask.size, 0)
        foot.paste(255, (left + shift, top + shift), finder.templates[code].mask)
        if foot.getbbox():
            footprints[code] = foot
    seen = sampler.soft.crop(box)
    if lut is not None:
        seen = seen.point(lut)
    other = _explained(seen, line_colours, fill)
    # where the picture's frame lies in a drawing's crop (which keeps the sign margin and the
    # slack round the disc's box), unmoved
    at = drawings.slack + (m if wide is None else 0)

    def fit(drawn, dx: int = 0, dy: int = 0) -> Image.Image:
        moved = drawn.crop((at + dx, at + dy, at + dx + seen.width, at + dy + seen.height))
        return ImageChops.darker(_farthest_channel(ImageChops.difference(seen, moved)), other)

    weighed = []   # (key, the differences, what the key costs besides, the drawing)

    def weigh(key, drawn, drawn_grain) -> bool:
        if drawn.size != (seen.width + 2 * at, seen.height + 2 * at):
            return False
        weighed.append([key, fit(drawn), PER_OVERLAY * len(key[1]) + GRAIN_COST * math.dist(grain, drawn_grain),
                        drawn])
        return True

    for base in bases:
        drawn_plain: dict = {}
        for feats, drawn, drawn_grain, raw in drawings.of(base):
            if not weigh((base, feats), drawn, drawn_grain):
                return None
            drawn_plain.setdefault(feats, []).append(raw)
        # a set drawn with signs: its other symbols, each sign where the picture shows it best
        for feats, kept, signs in drawings.with_signs(base):
            if all(code in spots for code in signs):
                laid = [(finder.templates[code].tile, spots[code][0]) for code in signs]
                for raw in drawn_plain.get(kept, ()):
                    weigh((base, feats), *_signed(raw, laid, sampler.size, m + drawings.slack, sampler.masks["disc"]))
    # the drawings that fit best, each moved where it fits best (a pixel either way)
    def mean(d) -> float:
        return masked_mean(d, mask)[0]
    means = [mean(d) + extra for _, d, extra, _ in weighed]
    order = dict.fromkeys(weighed[n][0] for n in sorted(range(len(weighed)), key=means.__getitem__))
    near = set(list(order)[:REGISTERED])
    moves = [(dx, dy) for dx in range(-drawings.slack, drawings.slack + 1)
             for dy in range(-drawings.slack, drawings.slack + 1) if dx or dy]
    for n, entry in enumerate(weighed):
        if entry[0] in near:
            for dx, dy in moves:
                d = fit(entry[3], dx, dy)
                if (cost := mean(d)) < means[n] - entry[2]:
                    entry[1], means[n] = d, cost + entry[2]
    # a sign's footprint counts where the drawings with it fit there much better than those
    # without it do: a sign is a small part of the hex, and there they differ most
    signs = []
    for code, foot in footprints.items():
        fits = [masked_mean(d, foot)[0] for _, d, _, _ in weighed]
        with_ = [f for (key, _, _, _), f in zip(weighed, fits) if code in key[1]]
        without = [f for (key, _, _, _), f in zip(weighed, fits) if code not in key[1]]
        if with_ and without and min(with_) < SIGN_SEEN * min(without):
            signs.append(foot)
            mask = ImageChops.lighter(mask, foot)
    best: dict = {}
    for key, d, extra, _ in weighed:
        cost = masked_mean(d, mask)[0] + extra + sum(SIGN_WEIGHT * masked_mean(d, f)[0] for f in signs)
        if cost < best.get(key, math.inf):
            best[key] = cost
    return sorted((c, k) for k, c in best.items())

