"""Fonts shipped with the package (DejaVu, free licence in fonts/LICENSE-DejaVu.txt).

Shipping them keeps rendering identical on every machine, with or without system fonts.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).with_name("fonts")

_FILES = {
    ("sans", False): "DejaVuSans.ttf",
    ("sans", True): "DejaVuSans-Bold.ttf",
    ("condensed", False): "DejaVuSansCondensed.ttf",
    ("condensed", True): "DejaVuSansCondensed-Bold.ttf",
    ("serif", False): "DejaVuSerif.ttf",
    ("serif-italic", False): "DejaVuSerif-Italic.ttf",
}


@lru_cache(maxsize=256)
def font(size: float, *, bold: bool = False, family: str = "sans") -> ImageFont.FreeTypeFont:
    """A TrueType font of ``size`` pixels. ``family``: sans, condensed, serif, serif-italic."""
    name = _FILES.get((family, bold)) or _FILES[(family, False)]
    return ImageFont.truetype(str(FONT_DIR / name), size=max(1, round(size)))
