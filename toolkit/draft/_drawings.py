"""Hexforge's drawings of each base terrain with each set of overlays, at a picture's hex size,
read the way the picture is: what :mod:`._drawn` compares a doubtful hex with."""

from __future__ import annotations

import itertools
import math

from PIL import Image

from ..hexes import Grid, Hex
from ._cast import clip_image
from ._signs import REACH, SignFinder
from .sample import DISC, SOFTEN, WORK_SIZE, HexSampler, masked_mean

#: Overlays drawn together on one hex, at most (White Death's city hexes carry four).
MOST_OVERLAYS = 4
#: Drawings made at most (a base with sets of overlays, each way its symbols are drawn): maps
#: with many overlay types get sets of fewer overlays.
MOST_DRAWINGS = 1500
#: Copies of each drawing (hexforge draws trees, rocks and blocks a few ways).
COPIES = 3
#: Working pixels a drawing may be moved each way to register it on the picture: the map
#: rounds each symbol's place and each hex's centre to whole pixels, so a picture's symbols
#: may lie a pixel off the drawing's, which at 60 px a hex costs a block's fit.
SLACK = 1


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
        sampler = HexSampler(clip_image(rendered.image, self.clip), rendered.layout, self.map.hex_ids, sparse=True)
        self.r = sampler.r
        m = self.margin + self.slack
        pad = m + _pad(sampler.size)
        out = []
        for hex, feats in placed:
            box = sampler.box(hex)
            if box is not None:
                raw = sampler.image.crop((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad))
                soft = sampler.softened((box[0] - m, box[1] - m, box[2] + m, box[3] + m))
                out.append((feats, soft, _grain(sampler, box, sampler.disc_mask(hex, box)), raw))
        return out


def _pad(size: float) -> int:
    """The margin kept round an unsoftened drawing: what softening it again mixes in."""
    return int(math.ceil(3 * max(1.0, SOFTEN * size))) + 2


def _grain(sampler: HexSampler, box, mask) -> tuple[float, float]:
    """The hex's grain (see :class:`~toolkit.draft.sample.Look`): a hatching's angle, which the
    softened picture compared pixel by pixel no longer shows."""
    across, down, diagonal, anti = masked_mean(sampler.grain.crop(box), mask)
    return across - down, diagonal - anti
