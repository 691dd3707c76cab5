"""The colours a map's roads, railways and hexside features may paint a pixel with, and a hex's
printed fill where their softened edges blend into it."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageStat

from ..hexes import Hex
from ._pixels import _farthest_channel, _lut
from .sample import HexSampler, _look


#: Shares of a line's colour mixed with its casing (a river's with its banks) that also explain
#: a pixel: softened, a road a few pixels wide shows its colour darkened by its casing.
CASED = (0.75, 0.5)


def line_inks(game_map, theme) -> list[tuple[int, int, int]]:
    """The colours the map's roads, railways and hexside features may paint a pixel with: each
    one's colour and casing (or edge), and the two mixed (see :data:`CASED`)."""
    inks = []
    styles = [(s.colour, s.casing) for s in map(theme.line_style, game_map.line_types.values())]
    styles += [(s.colour, s.edge) for s in map(theme.hexside_style, game_map.hexside_types.values())]
    for colour, casing in styles:
        inks += [tuple(colour)] + ([tuple(casing)] if casing else [])
        if casing:
            inks += [tuple(int(round(k + share * (c - k))) for c, k in zip(colour, casing)) for share in CASED]
    return list(dict.fromkeys(inks))


#: A pixel nearer than this to a line's ink (grey levels, the largest channel) is not taken for
#: the hex's fill.
INKED = 30


def printed_fill(sampler: HexSampler, hex: Hex, correction, line_colours) -> tuple[float, float, float] | None:
    """The hex's printed fill (colour corrected), where a line's softened edge blends: the
    commonest colour of its disc among the pixels no road, railway or watercourse of the map
    could have painted (a city's five roads cover more of it than its fill shows); None off the
    picture."""
    box = sampler.box(hex)
    if box is None:
        return None
    crop = sampler.soft.crop(box)
    if correction != ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)):
        crop = crop.point(_lut(correction))
    mask = sampler.disc_mask(hex, box)
    away = mask
    if line_colours:
        inked = None
        for colour in line_colours:
            near = _farthest_channel(ImageChops.difference(crop, Image.new("RGB", crop.size, tuple(colour))))
            inked = near if inked is None else ImageChops.darker(inked, near)
        clear = ImageChops.multiply(mask, inked.point([0] * (INKED + 1) + [255] * (255 - INKED)))
        if ImageStat.Stat(clear).sum[0] >= 0.1 * ImageStat.Stat(mask).sum[0]:
            away = clear
    return _look(crop, away).mode
