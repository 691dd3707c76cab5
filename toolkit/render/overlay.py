"""Referee overlays on a rendered map: shaded hexes, paths, marks, labels and a caption.

``overlay`` never changes the :class:`MapImage`; it returns a new image. Hexes are placed by
the map's own layout, so an overlay lines up with the map, the VASSAL board and the referee.
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from PIL import Image, ImageColor, ImageDraw

from ..errors import HexError
from ..hexes import Hex
from ._raster import Canvas
from .fonts import font
from .mapimage import MapImage

__all__ = ["overlay", "MARKS", "PATH_COLOURS"]

#: Mark kinds drawn as symbols; any other text is drawn as a small badge.
MARKS = ("cross", "x", "circle", "ring", "dot", "square", "star", "flag")

#: Colours given to successive paths when none is chosen.
PATH_COLOURS = ("#d0208c", "#1f5fd0", "#e07000", "#0f8f4f", "#7a2fbf")

Colour = str | tuple


def overlay(map_image: MapImage, *, shade: Mapping[Hex, Colour] | None = None,
            labels: Mapping[Hex, str] | None = None, paths: Sequence[Sequence[Hex]] | None = None,
            marks: Mapping[Hex, str] | None = None, legend: str | None = None,
            opacity: float = 0.45, path_colours: Sequence[Colour] = PATH_COLOURS,
            mark_colour: Colour = "#c8102e") -> Image.Image:
    """A copy of ``map_image.image`` with the referee's annotations drawn on it.

    ``shade`` tints hexes (a colour name, ``#rrggbb``, or an RGB/RGBA tuple whose alpha
    overrides ``opacity``); ``labels`` writes short text (e.g. MP left) in hexes; ``paths``
    draws each hex sequence centre to centre with an arrowhead; ``marks`` puts a symbol on
    hexes (one of :data:`MARKS`, otherwise the text in a badge); ``legend`` is a caption
    boxed in the top-left corner. Hexes off the map raise :class:`HexError`.
    """
    image = map_image.image.copy()
    layout = map_image.layout
    grid = layout.grid
    size = layout.size

    def centre(h: Hex) -> tuple[float, float]:
        if h not in grid:
            raise HexError(f"overlay: hex {_name(grid, h)} is not on map {map_image.game_map.id}")
        return layout.center(h)

    for h, colour in (shade or {}).items():
        centre(h)
        rgb, alpha = _colour(colour, opacity)
        _shade(image, layout.corners(h), rgb, alpha)

    canvas = Canvas(image, 3 if size < 160 else 2)
    for i, path in enumerate(paths or []):
        pts = [centre(h) for h in path]
        colour, _ = _colour(path_colours[i % len(path_colours)], 1.0)
        _path(canvas, pts, colour, size)
    for h, kind in (marks or {}).items():
        x, y = centre(h)
        colour, _ = _colour(mark_colour, 1.0)
        _mark(canvas, kind, x, y, size, colour)
    canvas.flush()

    draw = ImageDraw.Draw(image)
    for h, kind in (marks or {}).items():
        if kind.lower() not in MARKS:
            x, y = centre(h)
            draw.text((x, y), kind, font=font(size * 0.17, bold=True, family="condensed"),
                      fill="white", anchor="mm")
    for h, text in (labels or {}).items():
        x, y = centre(h)
        draw.text((x, y + size * 0.02), str(text), font=font(size * 0.26, bold=True, family="condensed"),
                  fill=(20, 20, 20), anchor="mm", stroke_width=max(1, round(size * 0.03)),
                  stroke_fill=(255, 255, 255))
    if legend:
        _caption(draw, legend, size)
    return image


def _name(grid, h) -> str:
    try:
        return grid.format(h)
    except HexError:
        return str(tuple(h))


def _colour(colour: Colour, opacity: float) -> tuple[tuple[int, int, int], float]:
    if isinstance(colour, (tuple, list)):
        rgb = tuple(int(c) for c in colour[:3])
        alpha = colour[3] / 255 if len(colour) > 3 else opacity
    else:
        value = ImageColor.getrgb(colour)
        rgb = value[:3]
        alpha = value[3] / 255 if len(value) > 3 else opacity
    return rgb, max(0.0, min(1.0, alpha))  # type: ignore[return-value]


def _shade(image: Image.Image, corners, rgb, alpha: float) -> None:
    # blend only the hex's bounding box: memory stays small on a print-size map
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    box = (max(0, math.floor(min(xs))), max(0, math.floor(min(ys))),
           min(image.width, math.ceil(max(xs)) + 1), min(image.height, math.ceil(max(ys)) + 1))
    if box[2] <= box[0] or box[3] <= box[1]:
        return
    mask = Image.new("L", (box[2] - box[0], box[3] - box[1]), 0)
    ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in corners], fill=round(255 * alpha))
    image.paste(Image.new("RGB", mask.size, rgb), box[:2], mask)


def _path(canvas: Canvas, pts: list, colour, size: float) -> None:
    w = size * 0.06
    if len(pts) == 1:
        canvas.ellipse(*pts[0], size * 0.09, fill=colour, outline=(255, 255, 255), width=max(1.0, size * 0.015))
        return
    canvas.line(pts, (255, 255, 255), w + max(2.0, size * 0.03))
    # stop the line short of the arrowhead's tip
    (x0, y0), (x1, y1) = pts[-2], pts[-1]
    d = math.hypot(x1 - x0, y1 - y0) or 1.0
    ux, uy = (x1 - x0) / d, (y1 - y0) / d
    head = size * 0.22
    body = pts[:-1] + [(x1 - ux * head * 0.8, y1 - uy * head * 0.8)]
    canvas.line(body, colour, w)
    nx, ny = -uy, ux
    tip = (x1 - ux * size * 0.08, y1 - uy * size * 0.08)
    base = (tip[0] - ux * head, tip[1] - uy * head)
    arrow = [tip, (base[0] + nx * head * 0.5, base[1] + ny * head * 0.5),
             (base[0] - nx * head * 0.5, base[1] - ny * head * 0.5)]
    canvas.polygon(arrow, fill=colour, outline=(255, 255, 255), width=max(1.0, size * 0.015))
    canvas.ellipse(*pts[0], size * 0.07, fill=colour, outline=(255, 255, 255), width=max(1.0, size * 0.015))


def _mark(canvas: Canvas, kind: str, x: float, y: float, size: float, colour) -> None:
    k = kind.lower()
    r = size * 0.3
    w = max(2.0, size * 0.05)
    white = (255, 255, 255)
    if k in ("cross", "x"):
        for sx in (1, -1):
            canvas.line([(x - r, y - r * sx), (x + r, y + r * sx)], white, w + max(2.0, size * 0.03))
        for sx in (1, -1):
            canvas.line([(x - r, y - r * sx), (x + r, y + r * sx)], colour, w)
    elif k in ("circle", "ring"):
        canvas.ellipse(x, y, r * 1.15, outline=white, width=w + max(2.0, size * 0.03))
        canvas.ellipse(x, y, r * 1.15, outline=colour, width=w)
    elif k == "dot":
        canvas.ellipse(x, y, size * 0.1, fill=colour, outline=white, width=max(1.0, size * 0.015))
    elif k == "square":
        sq = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
        canvas.polygon(sq, outline=white, width=w + max(2.0, size * 0.03))
        canvas.polygon(sq, outline=colour, width=w)
    elif k == "star":
        star = [(x + (r if i % 2 == 0 else r * 0.45) * math.sin(math.pi * i / 5),
                 y - (r if i % 2 == 0 else r * 0.45) * math.cos(math.pi * i / 5)) for i in range(10)]
        canvas.polygon(star, fill=colour, outline=white, width=max(1.0, size * 0.015))
    elif k == "flag":
        canvas.line([(x - r * 0.4, y + r), (x - r * 0.4, y - r)], (30, 30, 30), max(1.0, size * 0.025))
        canvas.polygon([(x - r * 0.4, y - r), (x + r * 0.7, y - r * 0.6), (x - r * 0.4, y - r * 0.2)], fill=colour)
    else:  # text badge; the text itself is drawn after the canvas is flushed
        width = size * (0.12 + 0.09 * len(kind))
        h = size * 0.13
        canvas.polygon([(x - width / 2, y - h), (x + width / 2, y - h), (x + width / 2, y + h), (x - width / 2, y + h)],
                       fill=colour, outline=white, width=max(1.0, size * 0.015))


def _caption(draw: ImageDraw.ImageDraw, text: str, size: float) -> None:
    f = font(max(10, size * 0.16), family="condensed")
    lines = text.splitlines() or [text]
    pad = size * 0.08
    widths = [draw.textlength(line, font=f) for line in lines]
    line_h = f.size * 1.25
    x0, y0 = pad, pad
    x1, y1 = x0 + max(widths) + 2 * pad, y0 + line_h * len(lines) + 2 * pad
    draw.rectangle((x0, y0, x1, y1), fill=(255, 255, 255), outline=(30, 30, 30), width=max(1, round(size * 0.015)))
    for i, line in enumerate(lines):
        draw.text((x0 + pad, y0 + pad + i * line_h), line, font=f, fill=(20, 20, 20))

