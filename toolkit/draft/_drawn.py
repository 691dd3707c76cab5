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

import itertools
import math

from PIL import Image, ImageChops, ImageFilter, ImageStat

from ..hexes import Grid, Hex
from ._cast import clip_image
from ._signs import REACH, SignFinder
from .sample import DISC, GRAIN_STEPS, SOFTEN, WORK_SIZE, HexSampler, _look

#: Overlays drawn together on one hex, at most (White Death's city hexes carry four).
MOST_OVERLAYS = 4
#: Drawings made at most (a base with sets of overlays, each way its symbols are drawn): maps
#: with many overlay types get sets of fewer overlays.
MOST_DRAWINGS = 1500
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
#: Copies of each drawing (hexforge draws trees, rocks and blocks a few ways).
COPIES = 3
#: Working pixels a drawing may be moved each way to register it on the picture: the map
#: rounds each symbol's place and each hex's centre to whole pixels, so a picture's symbols
#: may lie a pixel off the drawing's, which at 60 px a hex costs a block's fit.
SLACK = 1
#: The drawings (best first, by their fit unmoved) that are tried moved by up to SLACK.
REGISTERED = 4


def overlay_sets(overlays: list[str], most: int = MOST_OVERLAYS, bases: int = 1) -> list[tuple[str, ...]]:
    """Every set of up to ``most`` overlays, in the map's order (fewer when that would make
    more than :data:`MOST_DRAWINGS` drawings on ``bases`` bases)."""
    while most > 1 and bases * COPIES * sum(math.comb(len(overlays), k) for k in range(most + 1)) > MOST_DRAWINGS:
        most -= 1
    return [s for k in range(most + 1) for s in itertools.combinations(overlays, k)]


class Drawings:
    """Hexforge's drawings of each base terrain with each set of overlays, at the picture's hex
    size, read the way the picture is (softened, at the working scale), made per base as needed.

    A set the map draws with a small sign (an airfield in a town) is drawn without the sign;
    :func:`compare` lays the sign where the picture shows it."""

    def __init__(self, game_map, hex_px: float, theme=None, clip=None) -> None:
        from ..render import Theme, sign_split, sign_tile

        self.map = game_map
        self.clip = clip  # where the picture's colour cast clips it (see _cast.clip_levels)
        self.hex_px = hex_px
        self.theme = theme = theme or Theme.default()
        self.overlays = [t.code for t in game_map.terrain_types.values() if t.overlay]
        bases = [t for t in game_map.terrain_types.values() if not t.overlay]
        self.sets = overlay_sets(self.overlays, bases=max(1, len(bases)))
        self._styles = {code: theme.terrain_style(t) for code, t in game_map.terrain_types.items()}
        self._split = sign_split
        #: The sign each terrain type is drawn as beside a town (picture pixels), where it has one.
        self.tiles = {code: tile for code, style in self._styles.items()
                      if (tile := sign_tile(style, hex_px, theme.paper)) is not None}
        self.crops: dict[str, list] = {}
        self.signed: dict[str, list] = {}
        self.r = None
        self._finders: dict = {}
        # the working scale's hex and disc (as HexSampler makes them) and the margin round the
        # disc a sign's footprint may reach
        k = max(1, int(hex_px // WORK_SIZE))
        size = hex_px / k
        reach = REACH * size + max((max(t.size) for t in self.tiles.values()), default=0) / k / 2 + 1
        #: Working pixels kept round each drawing's disc, where a sign may lie.
        self.margin = max(0, int(math.ceil(reach - max(3, int(DISC * size))))) if self.tiles else 0
        #: ... and :data:`SLACK` more round it, to move the drawing by.
        self.slack = SLACK

    def of(self, base: str) -> list[tuple[tuple[str, ...], Image.Image, tuple[float, float], Image.Image]]:
        """``(overlays, softened crop, grain, unsoftened crop)`` of every drawing of ``base``
        without a sign (each set, each copy); the crops keep :attr:`margin` and :attr:`slack`
        round the disc's box, the unsoftened one what softening mixes in too."""
        known = self.crops.get(base)
        if known is None:
            known = self.crops[base] = self._draw(base)
        return known

    def with_signs(self, base: str) -> list[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
        """``(overlays, the overlays drawn as symbols, the overlays drawn as signs)`` of every set
        the map draws on ``base`` with a sign."""
        self.of(base)
        return self.signed[base]

    def signs_of(self, codes: tuple[str, ...]) -> tuple[str, ...]:
        """The codes of a hex's terrain and overlays that the map draws as small signs (as
        :func:`toolkit.render.sign_split` says, codes drawn alike going together)."""
        styles = [self._styles[c] for c in codes]
        signs = [styles[n] for n in self._split([s.symbol for s in styles])]
        return tuple(c for c, s in zip(codes, styles) if s in signs)

    def finder(self, sampler: HexSampler) -> SignFinder:
        """The search for this map's signs on the picture ``sampler`` reads."""
        finder = self._finders.get(id(sampler))
        if finder is None:
            finder = self._finders[id(sampler)] = SignFinder(sampler, self.tiles)
        return finder

    def _draw(self, base: str) -> list:
        from ..game import Map
        from ..game.map import HexTerrain
        from ..render import render_map

        plain, signed = [], []
        for feats in self.sets:
            signs = self.signs_of((base,) + feats)
            if signs and base not in signs:
                signed.append((feats, tuple(f for f in feats if f not in signs), signs))
            else:
                plain.append(feats)
        self.signed[base] = [s for s in signed if s[1] in plain]
        per_row = 3 * COPIES
        cells = len(plain) * COPIES
        rows = math.ceil(cells / per_row)
        grid = Grid(1, 2 * per_row + 1, 1, 2 * rows + 1)
        swatch = Map(id="drawings", name="drawings", grid=grid, terrain_types=dict(self.map.terrain_types),
                     hex_size_inches=self.hex_px / 100.0, hex_ids=self.map.hex_ids)
        spacer = next(t.code for t in self.map.terrain_types.values() if not t.overlay)
        for hex in grid:
            swatch.hexes[hex] = HexTerrain(spacer)
        placed = []
        for i in range(cells):
            row, col = divmod(i, per_row)
            # two columns apart: the copies of a set take each of the renderer's symbol variants
            hex = Hex(2 + 2 * col, 2 + 2 * row)
            feats = plain[i // COPIES]
            swatch.hexes[hex] = HexTerrain(base, feats)
            placed.append((hex, feats))
        rendered = render_map(swatch, dpi=100, theme=self.theme)
        sampler = HexSampler(clip_image(rendered.image, self.clip), rendered.layout, self.map.hex_ids)
        self.r = sampler.r
        m = self.margin + self.slack
        pad = m + _pad(sampler.size)
        out = []
        for hex, feats in placed:
            box = sampler.box(hex)
            if box is not None:
                raw = sampler.image.crop((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad))
                soft = sampler.soft.crop((box[0] - m, box[1] - m, box[2] + m, box[3] + m))
                out.append((feats, soft, _grain(sampler, box, sampler.disc_mask(hex, box)), raw))
        return out


def _pad(size: float) -> int:
    """The margin kept round an unsoftened drawing: what softening it again mixes in."""
    return int(math.ceil(3 * max(1.0, SOFTEN * size))) + 2


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
    across, down, diagonal, anti = ImageStat.Stat(grain, mask).mean
    return soft, (across - down, diagonal - anti)


def _grain(sampler: HexSampler, box, mask) -> tuple[float, float]:
    """The hex's grain (see :class:`~toolkit.draft.sample.Look`): a hatching's angle, which the
    softened picture compared pixel by pixel no longer shows."""
    across, down, diagonal, anti = ImageStat.Stat(sampler.grain.crop(box), mask).mean
    return across - down, diagonal - anti


def _lut(correction) -> list[int]:
    gain, offset = correction
    return [min(255, max(0, int(round(v * gain[c] + offset[c])))) for c in range(3) for v in range(256)]


def _farthest_channel(image: Image.Image) -> Image.Image:
    r, g, b = image.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)


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


def _explained(seen: Image.Image, line_colours, fill) -> Image.Image:
    """What each pixel of ``seen`` costs at most: the cap, or its distance from a line's colour
    (or the line's colour blended with the ``fill``, as its softened edge is) and the price."""
    other = Image.new("L", seen.size, CAP)
    for colour in line_colours:
        for share, price in BLENDS:
            mixed = tuple(int(round(f + share * (c - f))) for c, f in zip(colour, fill))
            lut = [min(255, v + price) for v in range(256)]
            flat = Image.new("RGB", seen.size, mixed)
            other = ImageChops.darker(other, _farthest_channel(ImageChops.difference(seen, flat)).point(lut))
    return other


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
        return ImageStat.Stat(d, mask).mean[0]
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
        fits = [ImageStat.Stat(d, foot).mean[0] for _, d, _, _ in weighed]
        with_ = [f for (key, _, _, _), f in zip(weighed, fits) if code in key[1]]
        without = [f for (key, _, _, _), f in zip(weighed, fits) if code not in key[1]]
        if with_ and without and min(with_) < SIGN_SEEN * min(without):
            signs.append(foot)
            mask = ImageChops.lighter(mask, foot)
    best: dict = {}
    for key, d, extra, _ in weighed:
        cost = ImageStat.Stat(d, mask).mean[0] + extra + sum(SIGN_WEIGHT * ImageStat.Stat(d, f).mean[0] for f in signs)
        if cost < best.get(key, math.inf):
            best[key] = cost
    return sorted((c, k) for k, c in best.items())


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
            return ImageStat.Stat(ImageChops.darker(_farthest_channel(ImageChops.difference(here, drawn)), cap),
                                  foot).mean[0]
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
        return min(ImageStat.Stat(ImageChops.darker(_farthest_channel(ImageChops.difference(seen, c.crop(frame))),
                                                    other), mask).mean[0] for c in copies)
    plain = fit(alone)
    return tuple(next(iter(set(f) - have)) for f, copies in groups.items() if fit(copies) + PER_OVERLAY < plain)
