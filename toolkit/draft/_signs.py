"""Small signs found wherever the map placed them in a hex.

A map draws an airfield or fort that shares its hex with a town (or with another such symbol)
as a small rimmed sign, placed like a marker wherever the hex has room clear of its roads,
rivers and id: not at a fixed spot. To read one, the sign's template (hexforge's drawing of it
at the picture's hex size, softened as the picture is) is slid over the hex, and the spot where
the picture differs least from it is where the sign is, if anywhere. The spot found is then
used to draw each candidate terrain with its sign there (see :mod:`._drawn`), and how much
better the sign explains the spot than the hex's fill does says whether a sign is there at all.
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
#: A sign is seen where it explains the spot this much better than the hex's fill does (the
#: share of the fill's difference from the sign that remains at the spot found).
SEEN = 0.5


class SignTemplate:
    """One sign at the picture's working scale: its RGBA tile, the tile softened as the
    picture is (over the sign's own rim colour), and the mask of its inside (where softening
    mixes in nothing from around it)."""

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
        self.array = np.asarray(self.soft, dtype=np.float64)
        weights = np.asarray(inside, dtype=np.float64) / 255.0
        self.weights = weights / max(1.0, weights.sum())
        self._spectra: dict = {}

    def costs(self, area: np.ndarray) -> np.ndarray:
        """How far ``area`` (height x width x RGB) lies from the sign with its tile's top-left at
        each pixel (rows, columns; the spots where the tile fits): the root mean square of the
        channels' differences over the sign's inside. Every spot at once, by Fourier transforms
        (numpy: some 2,500 spots a hex of a few hundred pixels each, in a few milliseconds)."""
        height, width = area.shape[:2]
        shape = (height, width)
        spectra = self._spectra.get(shape)
        if spectra is None:
            w = self.weights
            spectra = self._spectra[shape] = (
                np.conj(np.fft.rfft2(w, s=shape)),
                [np.conj(np.fft.rfft2(w * self.array[:, :, c], s=shape)) for c in range(3)],
                float((w[:, :, None] * self.array ** 2).sum()))
        fw, fwt, tt = spectra
        total = np.full(shape, tt)
        for c in range(3):
            a = area[:, :, c]
            total += np.fft.irfft2(np.fft.rfft2(a * a) * fw, s=shape)
            total -= 2.0 * np.fft.irfft2(np.fft.rfft2(a) * fwt[c], s=shape)
        fits = total[:height - self.h + 1, :width - self.w + 1]
        return np.sqrt(np.maximum(fits, 0.0) / 3.0)


class SignFinder:
    """Finds each sign kind of a map in a hex of one picture (see the module's docstring)."""

    def __init__(self, sampler: HexSampler, tiles: dict[str, Image.Image]) -> None:
        self.sampler = sampler
        soften = max(1.0, SOFTEN * sampler.size)
        self.templates = {code: SignTemplate(tile, sampler.k, soften) for code, tile in tiles.items()}
        self._found: dict = {}
        self._corrected: dict = {}

    def _picture(self, hex: Hex, correction, lut) -> tuple[np.ndarray, int, int] | None:
        """The softened picture around the hex (colour corrected) as signed integers, and its
        top-left (working pixels)."""
        key = (hex, correction)
        if key not in self._corrected:
            s = self.sampler
            cx, cy = s._at(*s.layout.center(hex))
            half = int(REACH * s.size) + max(max(t.w, t.h) for t in self.templates.values()) // 2 + 1
            x0, y0 = int(round(cx)) - half, int(round(cy)) - half
            w, h = s.soft.size
            crop = s.soft.crop((max(0, x0), max(0, y0), min(w, x0 + 2 * half + 1), min(h, y0 + 2 * half + 1)))
            if lut is not None:
                crop = crop.point(lut)
            self._corrected[key] = (np.asarray(crop, dtype=np.float64), max(0, x0), max(0, y0))
        return self._corrected[key]

    def find(self, hex: Hex, code: str, correction=None, lut=None) -> tuple[tuple[int, int], float, float] | None:
        """Where sign ``code`` fits best in ``hex``: ``(top-left of its tile in working pixels
        from the hex's box (:meth:`HexSampler.box`), how far the picture lies from the sign
        there, how far the hex's fill does)``, differences in grey levels of the largest
        channel over the sign's inside; None off the picture."""
        key = (hex, code, correction)
        if key in self._found:
            return self._found[key]
        s = self.sampler
        box = s.box(hex)
        if box is None:
            self._found[key] = None
            return None
        t = self.templates[code]
        area, ox, oy = self._picture(hex, correction, lut)
        cx, cy = (int(round(v)) for v in s._at(*s.layout.center(hex)))
        costs = t.costs(area)
        # only spots within REACH of the centre
        ys, xs = np.mgrid[0:costs.shape[0], 0:costs.shape[1]]
        dx, dy = xs + ox + t.w // 2 - cx, ys + oy + t.h // 2 - cy
        reach = REACH * s.size
        costs[dx * dx + dy * dy > reach * reach] = np.inf
        j, i = np.unravel_index(int(np.argmin(costs)), costs.shape)
        if not np.isfinite(costs[j, i]):
            self._found[key] = None
            return None
        look = s.look(hex)
        fill = [int(round(v)) for v in (look.mode if look is not None else (255, 255, 255))]
        if lut is not None:
            fill = [lut[256 * n + v] for n, v in enumerate(fill)]
        fill = np.asarray(fill, dtype=np.float64)
        plain = float(np.sqrt((((t.array - fill) ** 2).mean(axis=-1) * t.weights).sum()))
        found = ((int(i) + ox - box[0], int(j) + oy - box[1]), float(costs[j, i]), plain)
        self._found[key] = found
        return found

    def seen(self, hex: Hex, code: str, correction=None, lut=None) -> bool:
        """True if sign ``code`` shows in ``hex``: it explains its best spot much better than
        the hex's fill would."""
        found = self.find(hex, code, correction, lut)
        return found is not None and found[1] <= SEEN * found[2]
