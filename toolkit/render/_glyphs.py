"""Text as cached sprites: each text, font and colour is rasterised once, then pasted.

Pasting a cached sprite at a whole-pixel position is many times faster than asking FreeType
again, and it draws the same pixels wherever the target window of the map is. Hex ids, all
different texts, are built from cached single characters instead. :class:`GlyphDraw` draws the
legend's text from cached masks: the same pixels as ``ImageDraw.text``, FreeType asked once.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from ._drawop import ink
from ._raster import snap
from .fonts import font

__all__ = ["text_sprite", "text_box", "paste_text", "paste_label", "label_box", "label_layout",
           "label_tiles", "GlyphDraw"]


@lru_cache(maxsize=4096)
def text_sprite(text: str, size: float, bold: bool, family: str, fill: tuple, anchor: str = "mm",
                stroke: int = 0, stroke_fill: tuple | None = None) -> tuple[Image.Image, int, int]:
    """``(RGBA sprite, dx, dy)``: the text drawn so that pasting the sprite at ``(x + dx,
    y + dy)`` puts the text's ``anchor`` on the whole pixel ``(x, y)``."""
    f = font(size, bold=bold, family=family)
    x0, y0, x1, y1 = f.getbbox(text, anchor=anchor, stroke_width=stroke)
    tile = Image.new("RGBA", (max(1, x1 - x0), max(1, y1 - y0)), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((-x0, -y0), text, font=f, fill=tuple(fill) + (255,), anchor=anchor,
                              stroke_width=stroke, stroke_fill=None if stroke_fill is None else tuple(stroke_fill) + (255,))
    return tile, x0, y0


def text_box(x: float, y: float, *args, **kwargs) -> tuple[int, int, int, int]:
    """The pixel box :func:`paste_text` covers for the same arguments."""
    tile, dx, dy = text_sprite(*args, **kwargs)
    px, py = snap(x) + dx, snap(y) + dy
    return px, py, px + tile.width, py + tile.height


def paste_text(image: Image.Image, origin: tuple[int, int], x: float, y: float, *args, **kwargs) -> None:
    """Paste the cached sprite of a text anchored at map pixel ``(x, y)`` into a window of the
    map whose top-left map pixel is ``origin``."""
    tile, dx, dy = text_sprite(*args, **kwargs)
    image.paste(tile, (snap(x) + dx - origin[0], snap(y) + dy - origin[1]), tile)


@lru_cache(maxsize=8192)
def _glyph(ch: str, size: float, bold: bool, family: str) -> tuple[Image.Image, int, int, float]:
    """A piece of text (a character or two) as an L mask, its offset from the baseline
    origin, and its advance."""
    f = font(size, bold=bold, family=family)
    x0, y0, x1, y1 = f.getbbox(ch, anchor="ls")
    mask = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), ch, font=f, fill=255, anchor="ls")
    return mask, x0, y0, f.getlength(ch)


@lru_cache(maxsize=64)
def _metrics(size: float, bold: bool, family: str) -> tuple[int, int]:
    return font(size, bold=bold, family=family).getmetrics()


@lru_cache(maxsize=4096)
def _label_layout(text: str, size: float, bold: bool, family: str, anchor: str):
    """Whole-pixel positions of the pieces of ``text`` (pairs of characters: ids like
    "0412" share their column and row halves) relative to the anchor point."""
    ascent, descent = _metrics(size, bold, family)
    pieces = [text[i:i + 2] for i in range(0, len(text), 2)]
    glyphs = [_glyph(p, size, bold, family) for p in pieces]
    advance = sum(g[3] for g in glyphs)
    baseline = {"t": ascent, "b": -descent, "m": (ascent - descent) / 2}[anchor[1]]
    x = {"l": 0.0, "m": -advance / 2, "r": -advance}[anchor[0]]
    out = []
    for mask, gx, gy, adv in glyphs:
        out.append((mask.im, snap(x) + gx, snap(baseline) + gy, mask.width, mask.height))
        x += adv
    return tuple(out)


def label_layout(text: str, size: float, bold: bool, family: str, anchor: str = "mm") -> tuple:
    """What :func:`paste_label` pastes for ``text`` anchored at ``(0, 0)``: ``(mask core, x, y,
    width, height)`` per piece (cached)."""
    return _label_layout(text, size, bold, family, anchor)


@lru_cache(maxsize=8192)
def label_tiles(text: str, size: float, bold: bool, family: str, anchor: str, fill: tuple,
                ground: tuple) -> tuple | None:
    """:func:`label_layout` with each piece's mask already pasted in ``fill`` over ``ground``
    (RGB cores to copy as they are): a label over a knock-out box of ``ground`` is then
    copied, not blended through its masks, with the same pixels (cached). None if two pieces
    overlap (a small font): the second would cover the first's ink with its ground."""
    layout = _label_layout(text, size, bold, family, anchor)
    for k, (_, x, y, w, h) in enumerate(layout):
        if any(x < x1 + w1 and x1 < x + w and y < y1 + h1 and y1 < y + h for _, x1, y1, w1, h1 in layout[:k]):
            return None
    pieces = [text[i:i + 2] for i in range(0, len(text), 2)]
    return tuple((_knocked_piece(p, size, bold, family, fill, ground), x, y, w, h)
                 for p, (_, x, y, w, h) in zip(pieces, layout))


@lru_cache(maxsize=4096)
def _knocked_piece(piece: str, size: float, bold: bool, family: str, fill: tuple, ground: tuple):
    """The mask of a piece of text pasted in ``fill`` onto a tile of ``ground`` (pillow's core),
    exactly as :func:`paste_label` pastes it onto that colour."""
    mask = _glyph(piece, size, bold, family)[0]
    tile = Image.new("RGB", mask.size, tuple(ground))
    tile.im.paste(ink(fill), (0, 0, mask.width, mask.height), mask.im)
    return tile.im


@lru_cache(maxsize=4096)
def _label_extent(text: str, size: float, bold: bool, family: str, anchor: str) -> tuple[int, int, int, int]:
    parts = _label_layout(text, size, bold, family, anchor)
    return (min(p[1] for p in parts), min(p[2] for p in parts),
            max(p[1] + p[3] for p in parts), max(p[2] + p[4] for p in parts))


def label_box(x: float, y: float, text: str, size: float, bold: bool, family: str,
              anchor: str = "mm") -> tuple[int, int, int, int]:
    """The pixel box of the characters :func:`paste_label` draws."""
    x0, y0, x1, y1 = _label_extent(text, size, bold, family, anchor)
    X, Y = snap(x), snap(y)
    return X + x0, Y + y0, X + x1, Y + y1


def paste_label(image: Image.Image, origin: tuple[int, int], x: float, y: float, text: str, size: float,
                bold: bool, family: str, fill, anchor: str = "mm") -> None:
    """Short text (hex ids) pasted piece by piece from the glyph cache."""
    X, Y = snap(x) - origin[0], snap(y) - origin[1]
    core = image.im
    for mask, gx, gy, w, h in _label_layout(text, size, bold, family, anchor):
        core.paste(fill, (X + gx, Y + gy, X + gx + w, Y + gy + h), mask)


@lru_cache(maxsize=1024)   # a legend draws a few dozen texts: masks of many maps and sizes, a few MB
def _text_mask(font: ImageFont.FreeTypeFont, text: str, anchor: str, start: tuple[float, float], ink: int):
    """``font.getmask2`` as ``ImageDraw.text`` calls it for one line of text in an RGB image."""
    return font.getmask2(text, "L", None, None, None, 0, anchor, ink, start, stroke_filled=True)


class GlyphDraw:
    """An ``ImageDraw`` whose plain one-line text is drawn from cached masks (FreeType renders
    each text, font, anchor and sub-pixel start once, then the mask is reused by every render
    of the same legend): exactly what ``ImageDraw.text`` draws. Everything else is the
    wrapped draw's."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self._draw = draw

    def text(self, xy, text, fill=None, font=None, anchor=None, **kwargs) -> None:
        d = self._draw
        if kwargs or not isinstance(text, str) or "\n" in text or not isinstance(font, ImageFont.FreeTypeFont) \
                or d.fontmode != "L":
            return d.text(xy, text, fill=fill, font=font, anchor=anchor, **kwargs)
        ink, fill_ink = d._getink(fill)   # as ImageDraw.text picks its ink
        ink = fill_ink if ink is None else ink
        if ink is None:
            return None
        x, y = xy
        mask, (dx, dy) = _text_mask(font, text, anchor or "la", (math.modf(x)[0], math.modf(y)[0]), ink)
        d.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, ink)
        return None

    def __getattr__(self, name):
        return getattr(self._draw, name)
