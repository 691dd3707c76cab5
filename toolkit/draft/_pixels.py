"""How much of a picture's pixel is a drawn feature's colour, after the colour correction (and
the correction as a lookup table for whole images)."""

from __future__ import annotations

import math

from PIL import Image, ImageChops

from .sample import colour_distance


def fix(colour, correction) -> tuple[float, float, float]:
    gain, offset = correction
    return colour[0] * gain[0] + offset[0], colour[1] * gain[1] + offset[1], colour[2] * gain[2] + offset[2]


def blend_alpha(target, correction, contrast: float = 40.0):
    """A pixel on a drawn line is the line's colour blended with the fill around it (antialiasing,
    blur, JPEG): ``alpha(colour, fill)`` is how far along the segment fill -> line the pixel lies
    (0 when it lies off that segment, or the line's colour is too near the fill to be seen)."""
    seen: dict = {}

    def alpha(colour, fill) -> float:
        key = (colour, fill)
        known = seen.get(key)
        if known is None:
            p = fix(colour, correction)
            v = [target[i] - fill[i] for i in range(3)]
            w = [p[i] - fill[i] for i in range(3)]
            vv = sum(x * x for x in v)
            known = 0.0
            if vv >= contrast * contrast:
                a = sum(x * y for x, y in zip(v, w)) / vv
                residual = colour_distance(p, [fill[i] + a * v[i] for i in range(3)])
                if a > 0 and residual <= 20 + 0.12 * math.sqrt(vv):
                    known = a
            seen[key] = known
        return known
    return alpha


def sureness(found: float | None, seen: float, needed: float) -> float:
    """How sure a hexside or line reading is: a feature found on all its samples, or seen on
    none, is sure (1); one found just at the share ``needed``, or seen on most samples but
    not enough, is not (about 0.5 and below)."""
    if found is not None:
        return 1.0 if needed >= 1.0 else 0.5 + 0.5 * (found - needed) / (1.0 - needed)
    return 1.0 - 0.76 * min(1.0, seen / needed)


def _lut(correction) -> list[int]:
    gain, offset = correction
    return [min(255, max(0, int(round(v * gain[c] + offset[c])))) for c in range(3) for v in range(256)]


def _farthest_channel(image: Image.Image) -> Image.Image:
    r, g, b = image.split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b)

