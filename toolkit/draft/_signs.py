"""Small signs found wherever the map placed them in a hex.

A map draws an airfield or fort that shares its hex with a town (or with another such symbol)
as a small rimmed sign, placed like a marker wherever the hex has room clear of its roads,
rivers and id: not at a fixed spot. To read one, the sign's template (hexforge's drawing of it
at the picture's hex size, softened as the picture is) is slid over the hex, and the spot where
the picture differs least from it is where the sign is, if anywhere. The spot found is then
used to draw each candidate terrain with its sign there (see :mod:`._drawn`): whether the sign
is there at all is for the drawings to say.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageFilter

from ..hexes import Hex
from .sample import SOFTEN, HexSampler

#: How far from the hex's centre a sign's centre is looked for (a fraction of the hex size):
#: the renderer keeps a sign's disc (0.15) and a margin inside the hex (inradius 0.5).
REACH = 0.4


def _fast(n: int) -> int:
    """The least length at least ``n`` whose only factors are 2, 3 and 5 (a quick transform)."""
    while True:
        m = n
        for p in (2, 3, 5):
            while m % p == 0:
                m //= p
        if m == 1:
            return n
        n += 1


class SignTemplate:
    """One sign at the picture's working scale: its RGBA tile, the tile softened as the
    picture is (over the sign's own rim colour), and the mask of its inside (where softening
    mixes in little from around it)."""

    def __init__(self, tile: Image.Image, k: int, soften: float) -> None:
        if k > 1:
            tile = tile.reduce(k)
        self.tile = tile
        alpha = tile.getchannel("A")
        flat = Image.new("RGB", tile.size, tile.getpixel((0, 0))[:3])
        flat.paste(tile, (0, 0), tile)
        self.soft = flat.filter(ImageFilter.GaussianBlur(soften))
        inside = alpha.point(lambda a: 255 if a >= 200 else 0).filter(ImageFilter.MinFilter(3))
        if not inside.getbbox():
            inside = alpha.point(lambda a: 255 if a >= 128 else 0)
        self.mask = inside
        self.w, self.h = tile.size
        #: The box of the sign's ink in its tile.
        self.ink = alpha.point(lambda a: 255 if a >= 128 else 0).getbbox() or (0, 0, self.w, self.h)
        self.array = np.asarray(self.soft, dtype=np.float64)
        weights = np.asarray(inside, dtype=np.float64) / 255.0
        self.weights = weights / max(1.0, weights.sum())
        self._spectra: dict = {}

    def costs(self, spectra, shape: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
        """How far a picture lies from the sign with its tile's top-left at each pixel (rows,
        columns; the spots where the tile fits in ``size``): the root mean square of the
        channels' differences over the sign's inside. ``spectra`` are the transforms of each
        channel of the picture and of its square (see :meth:`SignFinder._picture`), at the
        transform's ``shape``. Every spot at once (numpy: some 2,500 spots a hex of a few
        hundred pixels each, in a few milliseconds)."""
        mine = self._spectra.get(shape)
        if mine is None:
            w = self.weights
            mine = self._spectra[shape] = (
                np.conj(np.fft.rfft2(w, s=shape)),
                np.stack([np.conj(np.fft.rfft2(w * self.array[:, :, c], s=shape)) for c in range(3)]),
                float((w[:, :, None] * self.array ** 2).sum()))
        fw, fwt, tt = mine
        plain, squares = spectra
        total = tt + np.fft.irfft2(squares * fw - 2.0 * (plain * fwt).sum(axis=0), s=shape)
        fits = total[:size[0] - self.h + 1, :size[1] - self.w + 1]
        return np.sqrt(np.maximum(fits, 0.0) / 3.0)


class SignFinder:
    """Finds each sign kind of a map in a hex of one picture (see the module's docstring)."""

    def __init__(self, sampler: HexSampler, tiles: dict[str, Image.Image]) -> None:
        self.sampler = sampler
        soften = max(1.0, SOFTEN * sampler.size)
        self.templates = {code: SignTemplate(tile, sampler.k, soften) for code, tile in tiles.items()}
        self._found: dict = {}
        self._pictures: dict = {}

    def _picture(self, hex: Hex, correction, lut):
        """The softened picture around the hex (colour corrected): its top-left (working
        pixels), its size, the transform's shape and the transforms of its channels (summed:
        the three together) and of their squares (summed)."""
        key = (hex, correction)
        if key not in self._pictures:
            s = self.sampler
            cx, cy = s._at(*s.layout.center(hex))
            half = int(REACH * s.size) + max(max(t.w, t.h) for t in self.templates.values()) // 2 + 1
            x0, y0 = max(0, int(round(cx)) - half), max(0, int(round(cy)) - half)
            w, h = s.soft.size
            crop = s.soft.crop((x0, y0, min(w, int(round(cx)) + half + 1), min(h, int(round(cy)) + half + 1)))
            if lut is not None:
                crop = crop.point(lut)
            area = np.asarray(crop, dtype=np.float64)
            size = area.shape[:2]
            shape = (_fast(size[0]), _fast(size[1]))
            plain = np.stack([np.fft.rfft2(area[:, :, c], s=shape) for c in range(3)])
            squares = np.fft.rfft2((area * area).sum(axis=2), s=shape)
            self._pictures[key] = (x0, y0, size, shape, (plain, squares))
        return self._pictures[key]

    def find(self, hex: Hex, code: str, correction=None, lut=None) -> tuple[tuple[int, int], float] | None:
        """Where sign ``code`` fits best in ``hex``, within :data:`REACH` of its centre and off
        the picture's names and markers: ``(top-left of its tile in working pixels from the
        hex's box (:meth:`HexSampler.box`), how far the picture lies from the sign there)`` (the
        root mean square of the channels' differences over the sign's inside, the picture
        corrected by ``lut``: ``correction``'s table); None off the picture."""
        key = (hex, code, correction)
        if key in self._found:
            return self._found[key]
        s = self.sampler
        box = s.box(hex)
        if box is None:
            self._found[key] = None
            return None
        t = self.templates[code]
        ox, oy, size, shape, spectra = self._picture(hex, correction, lut)
        costs = t.costs(spectra, shape, size)
        cx, cy = (int(round(v)) for v in s._at(*s.layout.center(hex)))
        ys, xs = np.mgrid[0:costs.shape[0], 0:costs.shape[1]]
        dx, dy = xs + ox + t.w // 2 - cx, ys + oy + t.h // 2 - cy
        reach = REACH * s.size
        costs[dx * dx + dy * dy > reach * reach] = np.inf
        # nor over a name or marker printed on the picture (a map keeps its signs off them; a
        # star or a supply disc is as compact as a sign)
        mx, my = t.w // 2, t.h // 2
        for lx0, ly0, lx1, ly1 in s.labels_near((ox, oy, ox + size[1], oy + size[0])):
            x0, x1 = max(0, int(math.ceil(lx0 - ox - mx))), int(math.floor(lx1 - ox - mx))
            y0, y1 = max(0, int(math.ceil(ly0 - oy - my))), int(math.floor(ly1 - oy - my))
            if x1 >= x0 and y1 >= y0:
                costs[y0:y1 + 1, x0:x1 + 1] = np.inf
        j, i = np.unravel_index(int(np.argmin(costs)), costs.shape)
        found = None
        if np.isfinite(costs[j, i]):
            found = ((int(i) + ox - box[0], int(j) + oy - box[1]), float(costs[j, i]))
        self._found[key] = found
        return found
