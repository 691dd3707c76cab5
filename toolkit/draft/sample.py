"""Reading a picture hex by hex: what a hex's inside looks like, and whether a colour runs along
a segment (a river along a hexside, a road from centre to centre).

A hex is read in a disc around its centre that stays clear of the hex edges (grid lines,
rivers) and of the band where the hex id is printed; its look is the mean, median and
spread of each channel there (counted on arrays: no per-pixel Python). The
median shrugs off a road, a name or a unit symbol crossing the disc; the spread tells a
textured terrain (trees, marsh) from a flat one of the same mean.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from ..hexes import Hex

__all__ = ["Look", "HexSampler", "colour_distance", "masked_mean"]

#: Ring radii, the centre disc and the id band, as fractions of the hex size (flat-to-flat).
DISC = 0.36
CENTRE = 0.19
ID_BAND = 0.27
#: Width of the strip masked out along a road or railway, as a fraction of the hex size.
STRIP = 0.12
#: Blur applied before looks are taken, as a fraction of the hex size.
SOFTEN = 0.03
#: How far around a printed name, id or marker its lettering may hide a line or feature, as a
#: fraction of the hex size (its halo).
LABEL_PAD = 0.02


@dataclass(frozen=True)
class Look:
    """How a hex looks (0..255 per channel): its commonest colour (the printed fill, whatever
    names, markers or roads cover), that colour's share of the area, and the median and
    standard deviation of each channel, and its grain: how much more the picture changes across
    than along each direction (hatching drawn at 45 degrees and at 90 degrees differ there)."""

    mode: tuple[float, float, float]
    share: float
    median: tuple[float, float, float]
    spread: tuple[float, float, float]
    grain: tuple[float, float] = (0.0, 0.0)

    def vector(self) -> tuple[float, ...]:
        # the printed fill leads; the rest tells textures and symbols apart
        return (tuple(2.0 * m for m in self.mode) + tuple(0.25 * m for m in self.median)
                + tuple(0.15 * s for s in self.spread) + (15.0 * self.share,)
                + tuple(GRAIN_WEIGHT * g for g in self.grain))

    def corrected(self, gain: tuple[float, ...], offset: tuple[float, ...]) -> "Look":
        """The look after a per-channel colour correction ``v * gain + offset``."""
        def fix(v):
            return tuple(v[i] * gain[i] + offset[i] for i in range(3))
        scale = sum(abs(g) for g in gain) / 3
        return Look(fix(self.mode), self.share, fix(self.median),
                    tuple(self.spread[i] * abs(gain[i]) for i in range(3)),
                    tuple(g * scale for g in self.grain))


_SHIFT = 4          # colours are binned by their top 4 bits per channel to find the commonest
#: Levels either side of the commonest bin's mean that still count as the fill.
_NEAR = 12
#: Pictures are read at a working scale where a hex is about this many pixels across.
WORK_SIZE = 45
#: One-pixel steps the grain compares a picture with itself across: (1, 0), (0, 1), and the
#: two diagonals. A line pattern hardly changes along its lines and changes much across them.
GRAIN_STEPS = ((1, 0), (0, 1), (1, 1), (1, -1))
#: The grain's weight in a look's vector (grey levels of difference; a light hatching is 10-20).
GRAIN_WEIGHT = 1.5


def _look(crop: Image.Image, mask: Image.Image, grain: Image.Image | None = None) -> Look:
    """The look of ``crop`` (RGB) where ``mask`` (L) is set, its grain read on ``grain`` (four
    bands, see :class:`HexSampler`)."""
    return _look_of(np.asarray(crop), np.asarray(mask) != 0, None if grain is None else np.asarray(grain))


def _look_of(pixels: np.ndarray, inside: np.ndarray, grain: np.ndarray | None = None) -> Look:
    """:func:`_look` on arrays: ``pixels`` (h, w, 3) uint8, ``inside`` (h, w) bool, ``grain``
    (h, w, 4) uint8 or None. Counts and sums are whole numbers, each mean one division, each
    median the middle value: the numbers pillow's ImageStat gives, without its per-level loops."""
    chosen = pixels[inside].astype(np.int64)          # (n, 3): the masked pixels
    total = len(chosen)
    g = (0.0, 0.0)
    if grain is not None:
        if total:
            across, down, diagonal, anti = (int(v) / total for v in grain[inside].sum(axis=0, dtype=np.int64))
        else:
            across = down = diagonal = anti = 0
        g = (across - down, diagonal - anti)
    if not total:
        # (what ImageStat gives for no pixels: the median at the top level, no spread)
        return Look((255, 255, 255), 0.0, (255.0, 255.0, 255.0), (0.0, 0.0, 0.0), g)
    sums = [int(v) for v in chosen.sum(axis=0)]
    squares = [int(v) for v in (chosen * chosen).sum(axis=0)]
    # the median: pillow's first level whose running count passes half the pixels
    middle = np.partition(chosen, total // 2, axis=0)[total // 2]
    median = tuple(float(v) for v in middle)
    spread = tuple(math.sqrt((squares[c] - sums[c] ** 2 / total) / total) for c in range(3))
    # the commonest colour bin (top bits per channel; ties to the highest bin, as max of
    # (count, colour) takes them)
    binned = chosen >> _SHIFT
    keys = (binned[:, 0] << (2 * (8 - _SHIFT))) | (binned[:, 1] << (8 - _SHIFT)) | binned[:, 2]
    counts = np.bincount(keys)
    n = int(counts.max())
    commonest = int(np.flatnonzero(counts == n)[-1])
    # the mean of the pixels in the commonest bin
    hit = chosen[keys == commonest]
    first = [int(v) / n for v in hit.sum(axis=0)]
    # the fill's own pixels: those near the mean of the commonest bin, in whichever bins they
    # fall (a fill on a bin's border, as a colour cast may put it, splits across two)
    centres = np.array([int(round(v)) for v in first], dtype=np.int64)
    near = chosen[(np.abs(chosen - centres) <= _NEAR).all(axis=1)]
    count = len(near)
    mode = tuple(int(v) / count for v in near.sum(axis=0)) if count else tuple(first)
    return Look(mode, max(n, count) / total, median, spread, g)


def masked_mean(image: Image.Image, mask: Image.Image) -> list[float]:
    """The mean of each band of ``image`` where ``mask`` is set (0 over no pixels): pillow's
    ``ImageStat.Stat(image, mask).mean`` (a whole-number sum divided once), counted on arrays."""
    pixels = np.asarray(image)
    chosen = pixels[np.asarray(mask) != 0]
    n = len(chosen)
    sums = chosen.sum(axis=0, dtype=np.int64)
    return [int(v) / n if n else 0 for v in (sums.reshape(-1) if pixels.ndim == 3 else (sums,))]


def colour_distance(a, b) -> float:
    if len(a) == 3 and len(b) == 3:  # (a colour: the same sum, without a generator's cost)
        return math.sqrt(sum(((a[0] - b[0]) ** 2, (a[1] - b[1]) ** 2, (a[2] - b[2]) ** 2)))
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class HexSampler:
    """Samples one RGB picture with a layout (anything with ``center``, ``size``, ``grid``)."""

    def __init__(self, image: Image.Image, layout, hex_ids: str = "top", labels=(), sparse: bool = False) -> None:
        """``sparse``: only some hexes of the picture will be read (a palette's drawings, one hex
        in four or six): the picture is then softened box by box as they are read, not whole."""
        image = image.convert("RGB") if image.mode != "RGB" else image
        self.layout = layout
        # big hexes are read on a reduced copy (a box filter: what a coarser scan would give)
        self.k = max(1, int(layout.size // WORK_SIZE))
        self.image = image.reduce(self.k) if self.k > 1 else image
        self.size = layout.size / self.k
        self.r = max(3, int(DISC * self.size))
        self.hex_ids = hex_ids
        #: The colour correction found for the picture (``v * gain + offset`` per channel).
        self.correction = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
        self.masks = {region: self._mask(region, ()) for region in ("ring", "centre", "disc")}
        # boxes (picture pixels) where names and markers are printed: read around them
        self.labels = [tuple(v / self.k for v in box) for box in labels]
        self._cell = max(8.0, self.size)
        self._buckets: dict = {}
        for n, (x0, y0, x1, y1) in enumerate(self.labels):
            for i in range(int(x0 // self._cell), int(x1 // self._cell) + 1):
                for j in range(int(y0 // self._cell), int(y1 // self._cell) + 1):
                    self._buckets.setdefault((i, j), []).append(n)
        self.pixels = self.image.load()
        self._width, self._height = self.image.size
        # every picture (and every palette drawing) is softened the same way before its looks are
        # taken: a scan's own blur then changes little
        self._blur = ImageFilter.GaussianBlur(max(1.0, SOFTEN * self.size))
        # how far the blur reaches (pillow's: three box passes, a running sum of whole numbers, so
        # a box softened with this margin round it has the pixels of the whole picture softened)
        self._reach = 3 * (int(self._blur.radius) + 2)
        self._soft_image: Image.Image | None = None
        self._soft_boxes: dict = {}
        if not sparse:
            self._soften_whole()
        # the grain is read on the unsoftened picture (a hatching's fine lines stay): how much
        # each pixel differs from its neighbour one step away, per step (one band per step). Not
        # blurred: a blurred scan's hatching would then read too faint beside the palette's
        grey = self.image.convert("L")
        self.grain = Image.merge("CMYK", [ImageChops.difference(grey, ImageChops.offset(grey, -dx, -dy))
                                          for dx, dy in GRAIN_STEPS])
        # (as an array, for the looks)
        self._grain = np.asarray(self.grain)

    @property
    def soft(self) -> Image.Image:
        """The picture softened (a Gaussian blur of :data:`SOFTEN`), made at first use."""
        if self._soft_image is None:
            self._soften_whole()
        return self._soft_image

    def _soften_whole(self) -> None:
        self._soft_image = self.image.filter(self._blur)
        self._soft = np.asarray(self._soft_image)
        self._soft_boxes.clear()

    def softened(self, box) -> Image.Image:
        """``soft.crop(box)``; where the picture is softened box by box (``sparse``), only this box is."""
        if self._soft_image is not None or not self._inside(box):
            return self.soft.crop(box)
        return Image.fromarray(self._soft_at(box), "RGB")

    def _inside(self, box) -> bool:
        w, h = self.image.size
        return 0 <= box[0] <= box[2] <= w and 0 <= box[1] <= box[3] <= h

    def _soft_at(self, box) -> np.ndarray:
        """The softened picture in ``box`` (wholly on the picture) as an array."""
        x0, y0, x1, y1 = box
        if self._soft_image is not None:
            return self._soft[y0:y1, x0:x1]
        known = self._soft_boxes.get(box)
        if known is None:
            # the box and a margin the blur's reach wide (short of the picture's edges, where the
            # blur repeats the edge pixels alike), softened; then the box cut out of it
            w, h = self.image.size
            m = self._reach
            wide = (max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m))
            part = np.asarray(self.image.crop(wide).filter(self._blur))
            known = self._soft_boxes[box] = part[y0 - wide[1]:y1 - wide[1], x0 - wide[0]:x1 - wide[0]]
        return known

    def _mask(self, region: str, towards: tuple[tuple[float, float], ...]) -> Image.Image:
        r = self.r
        mask = Image.new("L", (2 * r + 1, 2 * r + 1), 0)
        draw = ImageDraw.Draw(mask)
        inner = max(1, int(CENTRE * self.size))
        if region in ("ring", "disc"):
            draw.ellipse((0, 0, 2 * r, 2 * r), fill=255)
            if region == "ring":
                draw.ellipse((r - inner, r - inner, r + inner, r + inner), fill=0)
            band = int(ID_BAND * self.size)
            if self.hex_ids == "top":
                draw.rectangle((0, 0, 2 * r, r - band), fill=0)
            elif self.hex_ids == "bottom":
                draw.rectangle((0, r + band, 2 * r, 2 * r), fill=0)
        else:
            draw.ellipse((r - inner, r - inner, r + inner, r + inner), fill=255)
        for dx, dy in towards:  # a road or railway leaving the hex: not terrain
            draw.line((r, r, r + dx, r + dy), fill=0, width=max(1, int(STRIP * self.size)))
        return mask

    def look(self, hex: Hex, region: str = "ring", towards: tuple[Hex, ...] = ()) -> Look | None:
        """The look of the hex's ring (or ``centre``), or None when it is not wholly on the picture.

        ``towards`` are neighbours a road or railway runs to: a strip towards each is left out.
        """
        box = self.box(hex)
        if box is None:
            return None
        mask = self._mask(region, self._vectors(hex, towards)) if towards else self.masks[region]
        mask = self._unlabelled(mask, box)
        # (the centre's grain is not used: see palette._overlay_vector)
        x0, y0, x1, y1 = box
        return _look_of(self._soft_at(box), np.asarray(mask) != 0,
                        self._grain[y0:y1, x0:x1] if region == "ring" else None)

    def box(self, hex: Hex) -> tuple[int, int, int, int] | None:
        """The square (working pixels) around the hex's disc, or None when it is not wholly on the picture."""
        cx, cy = self._at(*self.layout.center(hex))
        x0, y0 = int(round(cx)) - self.r, int(round(cy)) - self.r
        w, h = self.image.size
        if x0 < 0 or y0 < 0 or x0 + 2 * self.r + 1 > w or y0 + 2 * self.r + 1 > h:
            return None
        return x0, y0, x0 + 2 * self.r + 1, y0 + 2 * self.r + 1

    def disc_mask(self, hex: Hex, box, towards: tuple[Hex, ...] = ()) -> Image.Image:
        """The whole disc of the hex at ``box`` (ring and centre) less the id band and names (and
        a strip towards each of the neighbours ``towards``)."""
        return self._unlabelled(self._mask("disc", self._vectors(hex, towards)) if towards else self.masks["disc"],
                                box)

    def _vectors(self, hex: Hex, towards) -> tuple[tuple[float, float], ...]:
        """From the hex's centre to each neighbour's in ``towards`` (working pixels)."""
        cx, cy = self._at(*self.layout.center(hex))
        out = []
        for other in towards:
            ox, oy = self._at(*self.layout.center(other))
            out.append((ox - cx, oy - cy))
        return tuple(out)

    def _unlabelled(self, mask: Image.Image, box) -> Image.Image:
        near = self.labels_near(box)
        if not near:
            return mask
        # a name or marker over the hex is not its terrain (unless it covers nearly all of it)
        x0, y0 = box[:2]
        masked = mask.copy()
        draw = ImageDraw.Draw(masked)
        for lx0, ly0, lx1, ly1 in near:
            draw.rectangle((lx0 - x0, ly0 - y0, lx1 - x0, ly1 - y0), fill=0)
        if int(np.asarray(masked).sum(dtype=np.int64)) >= 0.2 * int(np.asarray(mask).sum(dtype=np.int64)):
            return masked
        return mask

    def labels_near(self, box) -> list:
        """The boxes of the names, ids and markers printed over the picture (working pixels)
        meeting ``box``."""
        if not self.labels:
            return []
        x0, y0, x1, y1 = box
        found = set()
        for i in range(int(x0 // self._cell), int(x1 // self._cell) + 1):
            for j in range(int(y0 // self._cell), int(y1 // self._cell) + 1):
                found.update(self._buckets.get((i, j), ()))
        return [self.labels[n] for n in sorted(found)
                if self.labels[n][0] <= x1 and self.labels[n][2] >= x0 and self.labels[n][1] <= y1
                and self.labels[n][3] >= y0]

    def labelled(self, x: float, y: float, pad: float = 1.0) -> bool:
        """True if picture point (x, y) lies under a name or marker (within ``pad`` picture pixels)."""
        if not self.labels:
            return False
        x, y, pad = x / self.k, y / self.k, pad / self.k
        # (labels_near's search, stopping at the first box met: called for many points a picture)
        x0, y0, x1, y1 = x - pad, y - pad, x + pad, y + pad
        labels, cell = self.labels, self._cell
        for i in range(int(x0 // cell), int(x1 // cell) + 1):
            for j in range(int(y0 // cell), int(y1 // cell) + 1):
                for n in self._buckets.get((i, j), ()):
                    lx0, ly0, lx1, ly1 = labels[n]
                    if lx0 <= x1 and lx1 >= x0 and ly0 <= y1 and ly1 >= y0:
                        return True
        return False

    def _at(self, x: float, y: float) -> tuple[float, float]:
        """A picture point at the working scale."""
        return x / self.k, y / self.k

    def pixel(self, x: float, y: float):
        xi, yi = int(round(x)), int(round(y))
        if 0 <= xi < self._width and 0 <= yi < self._height:
            return self.pixels[xi, yi]
        return None

    def profile(self, a: tuple[float, float], b: tuple[float, float], t: float, reach: float):
        """The pixels across the segment a-b at fraction ``t``, within ``reach`` picture pixels:
        ``(offset, colour)`` pairs, offsets in picture pixels along the normal (-dy, dx)."""
        a, b = self._at(*a), self._at(*b)
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        px, py = a[0] + dx * t, a[1] + dy * t
        steps = max(1, int(reach / self.k))
        out = []
        for k in range(-steps, steps + 1):
            colour = self.pixel(px + nx * k, py + ny * k)
            if colour is not None:
                out.append((k * self.k, colour))
        return out
