"""Terrain symbols as small anti-aliased RGBA sprites, one set per hex size.

Each symbol is drawn at four times the size and reduced, clipped to the hex, and kept out of
the top of the hex where the hex id is printed. A few variants per symbol (chosen by hex)
keep a forest from looking stamped. Shapes differ per terrain so the map reads in greyscale.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

import shapely
from PIL import Image, ImageChops, ImageDraw, ImageFilter

from .theme import TerrainStyle

if TYPE_CHECKING:
    from ._symbolroom import Room

__all__ = ["sprite", "sign", "sign_split", "sign_tile", "symbol_reach", "moved_by", "blocks", "VARIANTS", "SIGNS",
           "SIGN_SCALE", "SETTLEMENTS"]

SS = 3          # supersampling of sprites
VARIANTS = 3    # variants of each symbol
TOP = -0.29     # symbols stay below this (fraction of the hex size from the centre): hex id room


#: The hex size (pixels) :func:`symbol_reach` measures the symbols at.
_REACH_SIZE = 240


@lru_cache(maxsize=256)
def symbol_reach(style: TerrainStyle, flat: bool, shift: float = 0.0) -> tuple[float, float, float, float] | None:
    """The box of the ink of ``style``'s symbol, every variant of it, round the hex centre
    (left, top, right, bottom, fractions of the hex size), measured at one size: the same box
    at every dpi (what a name placed beside it should keep off). None for no symbol."""
    boxes = []
    for variant in range(VARIANTS):
        spr = sprite(style, _REACH_SIZE, flat, variant, shift)
        box = spr.getchannel("A").getbbox() if spr is not None else None
        if box:
            half = spr.width / 2
            boxes.append([(v - half) / _REACH_SIZE for v in box])
    if not boxes:
        return None
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


@lru_cache(maxsize=512)
def sprite(style: TerrainStyle, size: float, flat: bool, variant: int = 0,
           shift: float = 0.0, room: Room | None = None) -> Image.Image | None:
    """The RGBA symbol of ``style`` for hexes ``size`` pixels across, centred in the sprite.

    The sprite is square, ``side = ceil(1.2 * size)`` pixels, its centre at ``side / 2``.
    ``shift`` moves the symbol down (a fraction of the hex size, negative: up) inside the
    hex, away from where the hex id is printed; the clip to the hex does not move.
    ``room``: what the symbol keeps off in its hex (see :class:`Room`).
    """
    painter = _PAINTERS.get(style.symbol or "")
    if painter is None:
        return None
    side = math.ceil(1.2 * size)
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    scale = size * SS
    c = side * SS / 2

    def P(x: float, y: float) -> tuple[float, float]:
        return c + x * scale, c + (y + shift) * scale

    def Q(x: float, y: float) -> tuple[float, float]:
        return c + x * scale, c + y * scale

    rng = random.Random(f"{style.symbol}-{variant}")
    if room is not None and painter in _ROOMY:
        painter(draw, P, scale, style, rng, room=room)
    else:
        painter(draw, P, scale, style, rng)
    # clip to the hex, slightly inset so the grid line stays clean
    mask = Image.new("L", big.size, 0)
    ImageDraw.Draw(mask).polygon([Q(x, y) for x, y in _hex_corners(flat)], fill=255)
    if room is not None and room.wet_area is not None:   # and off the water, by a hair
        for poly in getattr(room.wet_area, "geoms", [room.wet_area]):
            for k, ring in enumerate((poly.exterior, *poly.interiors)):   # an island's land kept
                ImageDraw.Draw(mask).polygon([Q(x, y) for x, y in ring.coords], fill=255 if k else 0)
    alpha = big.getchannel("A")
    big.putalpha(ImageChops.multiply(alpha, mask))
    return big.resize((side, side), Image.LANCZOS)


def _hex_corners(flat: bool) -> list[tuple[float, float]]:
    """The corners of the hex a symbol is clipped to (slightly inset, so the grid line stays
    clean), in hex sizes round its centre."""
    R = 0.5 / math.cos(math.radians(30)) * 0.94
    start = 180 if flat else 270
    return [(R * math.cos(math.radians(start + 60 * i)), R * math.sin(math.radians(start + 60 * i))) for i in range(6)]


@lru_cache(maxsize=2)
def _clip_polygon(flat: bool):
    """The hex a symbol is clipped to, as a (prepared) polygon."""
    poly = shapely.Polygon(_hex_corners(flat))
    shapely.prepare(poly)
    return poly


#: Symbols that mark a place in the hex rather than cover it, drawn as a small :func:`sign` when
#: a hex holds another such symbol (Demyansk's airfield in a town): the centre of each
#: symbol's ink in its sprite (fractions of the hex size), which becomes the sign's centre.
SIGNS = {"airfield": (0.0, 0.08), "fort": (0.0, 0.05)}
#: The size of a sign against its symbol's when it fills a hex of its own.
SIGN_SCALE = 0.5
#: Symbols of a settlement: a place a sign shares its hex with.
SETTLEMENTS = ("city", "town", "village")


def sign_split(symbols) -> tuple[int, ...]:
    """Which of a hex's symbols (the ``symbol`` of each of its terrain styles, in the hex's
    order) are drawn as a small :func:`sign` rather than a sprite: an airfield or fort in a hex
    with another such symbol or a settlement would hide it, or be hidden under it (Demyansk's
    airfield in a town). Two signs alone: the first keeps its whole symbol."""
    points = [n for n, s in enumerate(symbols) if s in SIGNS or s in SETTLEMENTS]
    if len(points) < 2:
        return ()
    signs = [n for n in points if symbols[n] in SIGNS]
    if len(signs) == len(points):
        signs = signs[1:]
    return tuple(signs)


@lru_cache(maxsize=256)
def sign(style: TerrainStyle, size: float, scale: float, halo: tuple) -> Image.Image | None:
    """The symbol of ``style`` (one of :data:`SIGNS`) at ``scale`` of its size in a hex
    ``size`` pixels across, its ink's centre at the centre of the square RGBA image, not
    clipped to a hex, with a rim of ``halo`` round it: it is drawn over the hex's other
    symbols (the blocks of a town) and stays legible there."""
    painter = _PAINTERS.get(style.symbol or "")
    if painter is None or style.symbol not in SIGNS:
        return None
    cx, cy = SIGNS[style.symbol]
    side = math.ceil(0.8 * size * scale) + 4
    big = Image.new("RGBA", (side * SS, side * SS), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    unit = size * SS
    c = side * SS / 2

    def P(x: float, y: float) -> tuple[float, float]:
        return c + (x - cx) * unit * scale, c + (y - cy) * unit * scale

    painter(draw, P, unit * scale, style, random.Random(f"{style.symbol}-sign"))
    ink = big.resize((side, side), Image.LANCZOS)
    rim = max(1, round(size * 0.02))
    alpha = ink.getchannel("A").point(lambda a: 255 if a > 24 else 0).filter(ImageFilter.MaxFilter(2 * rim + 1))
    out = Image.new("RGBA", (side, side), tuple(halo[:3]) + (0,))
    out.putalpha(alpha.filter(ImageFilter.GaussianBlur(0.6)))
    out.alpha_composite(ink)
    return out


def sign_tile(style: TerrainStyle, size: float, paper: tuple) -> Image.Image | None:
    """The sign a map ``size`` pixels a hex draws for ``style`` (see :func:`sign_split`), rimmed
    with the ``paper`` colour, its centre at the tile's: what a reader of the map looks for."""
    return sign(style, size, SIGN_SCALE, paper)


def _w(scale: float, frac: float) -> int:
    return max(1, round(scale * frac))


def _tree_stand(rng: random.Random) -> list:
    """A stand of trees: (x, y, crown radius) each, back rows first."""
    spots = []
    for row, y in enumerate((-0.2, -0.04, 0.12, 0.28)):
        half = 0.36 if row in (1, 2) else 0.25
        n = 4 if row in (1, 2) else 3
        for i in range(n):
            x = -half + 2 * half * (i + 0.5) / n + rng.uniform(-0.03, 0.03)
            spots.append((x, y + rng.uniform(-0.025, 0.025)))
    return [(x, y, 0.075 * rng.uniform(0.9, 1.12)) for x, y in spots]


def _trees(draw, P, scale, style: TerrainStyle, rng: random.Random, room: Room | None = None) -> None:
    # a stand of round-crowned trees, back rows first so crowns overlap like a wood
    trees = _tree_stand(rng)
    if room is not None:
        trees = room.dry_trees(trees)
    for x, y, r in trees:
        trunk_w = _w(scale, 0.018)
        draw.line([P(x, y + r * 0.6), P(x, y + r * 1.55)], fill=style.ink + (255,), width=trunk_w)
        x0, y0 = P(x - r, y - r)
        x1, y1 = P(x + r, y + r)
        draw.ellipse((x0, y0, x1, y1), fill=style.accent + (255,), outline=style.ink + (255,),
                     width=_w(scale, 0.014))
        # a highlight to give the crown some body
        hx0, hy0 = P(x - r * 0.55, y - r * 0.6)
        hx1, hy1 = P(x - r * 0.05, y - r * 0.15)
        draw.ellipse((hx0, hy0, hx1, hy1), fill=(255, 255, 255, 70))


def _marsh(draw, P, scale, style: TerrainStyle, rng: random.Random, room: Room | None = None) -> None:
    # tufts of reeds over short water lines, in staggered rows
    for row, y in enumerate((-0.17, 0.0, 0.17, 0.33)):
        xs = (-0.22, 0.05, 0.3) if row % 2 == 0 else (-0.3, -0.05, 0.22)
        if row == 3:
            xs = (-0.12, 0.14)
        for x in xs:
            x += rng.uniform(-0.03, 0.03)
            if room is not None and room.wet(x - 0.1, y - 0.075, x + 0.1, y + 0.045):
                continue
            draw.line([P(x - 0.1, y), P(x + 0.1, y)], fill=style.ink + (255,), width=_w(scale, 0.018))
            draw.line([P(x - 0.06, y + 0.035), P(x + 0.06, y + 0.035)], fill=style.ink + (200,),
                      width=_w(scale, 0.012))
            for dx, lean in ((-0.04, -0.02), (0.0, 0.0), (0.04, 0.02)):
                h = 0.07 if dx == 0 else 0.05
                draw.line([P(x + dx, y - 0.005), P(x + dx + lean, y - h)], fill=style.accent + (255,),
                          width=_w(scale, 0.014))


def _rocks(draw, P, scale, style: TerrainStyle, rng: random.Random, room: Room | None = None) -> None:
    # scattered angular stones of several sizes
    placed = []
    tries = 0
    while len(placed) < 16 and tries < 400:
        tries += 1
        x, y = rng.uniform(-0.36, 0.36), rng.uniform(TOP + 0.03, 0.38)
        if abs(x) > 0.43 - abs(y) * 0.3 or any(math.dist((x, y), p) < 0.1 for p in placed):
            continue
        placed.append((x, y))
        r = rng.uniform(0.018, 0.04)
        n = rng.randint(4, 6)
        a0 = rng.uniform(0, math.pi)
        pts = [P(x + r * math.cos(a0 + 2 * math.pi * k / n) * rng.uniform(0.7, 1.2),
                 y + r * math.sin(a0 + 2 * math.pi * k / n) * rng.uniform(0.7, 1.2)) for k in range(n)]
        if room is None or not room.wet(x - 1.2 * r, y - 1.2 * r, x + 1.2 * r, y + 1.2 * r):
            draw.polygon(pts, fill=style.ink + (255,))


def _hills(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    # hills as nested contour rings, the way topographic wargame maps draw high ground
    forms = [(-0.12, 0.04, 0.24, 0.16), (0.17, 0.23, 0.17, 0.11)]
    for x, y, rx, ry in forms:
        x += rng.uniform(-0.02, 0.02)
        phase = rng.uniform(0, math.tau)
        for level, k in enumerate((1.0, 0.66, 0.33)):
            pts = []
            for i in range(36):
                a = math.tau * i / 36
                wobble = 1 + 0.12 * math.sin(3 * a + phase) + 0.06 * math.sin(5 * a + 2 * phase)
                pts.append(P(x + rx * k * wobble * math.cos(a), y + ry * k * wobble * math.sin(a) - 0.02 * level))
            fill = style.accent + (255,) if level == 0 else None
            draw.polygon(pts, fill=fill)
            draw.line(pts + [pts[0]], fill=style.ink + (255,), width=_w(scale, 0.016 if level == 0 else 0.012),
                      joint="curve")


def _peaks(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    for x, y, h in ((-0.15, 0.16, 0.3), (0.14, 0.22, 0.26), (0.02, 0.05, 0.32)):
        x += rng.uniform(-0.02, 0.02)
        left, top, right = P(x - h * 0.6, y), P(x, y - h), P(x + h * 0.6, y)
        draw.polygon([left, top, right], fill=style.fill + (255,), outline=None)
        draw.polygon([top, right, P(x + h * 0.1, y)], fill=style.ink + (150,))
        draw.polygon([top, P(x - h * 0.15, y - h * 0.72), P(x + h * 0.15, y - h * 0.72)],
                     fill=style.accent + (255,))
        draw.line([left, top, right], fill=style.ink + (255,), width=_w(scale, 0.02), joint="curve")


def _rects(rng: random.Random, cells, block: float) -> list:
    """Building blocks round ``cells``: (x, y, width, height) each."""
    return [(x, y, block * rng.uniform(0.8, 1.1), block * rng.uniform(0.7, 1.0)) for x, y in cells]


def _city_blocks(rng: random.Random) -> list:
    cells = []
    step = 0.135
    for i in range(-3, 4):
        for j in range(-2, 4):
            x, y = i * step, j * step - 0.02
            if y - 0.06 < TOP or math.hypot(x, y * 1.1) > 0.43 or rng.random() < 0.12:
                continue
            cells.append((x, y))
    return _rects(rng, cells, 0.105)


def _town_blocks(rng: random.Random) -> list:
    cells = [(-0.14, -0.15), (0.02, -0.17), (0.17, -0.12), (-0.2, 0.0), (-0.05, -0.02), (0.13, 0.02),
             (-0.1, 0.15), (0.07, 0.14), (0.23, 0.14)]
    return _rects(rng, [(x + rng.uniform(-0.015, 0.015), y + rng.uniform(-0.015, 0.015)) for x, y in cells], 0.115)


def _village_blocks(rng: random.Random) -> list:
    cells = [(-0.12, -0.1), (0.1, -0.12), (-0.1, 0.08), (0.12, 0.07)]
    return _rects(rng, [(x + rng.uniform(-0.02, 0.02), y + rng.uniform(-0.02, 0.02)) for x, y in cells], 0.1)


_BLOCKS = {"city": _city_blocks, "town": _town_blocks, "village": _village_blocks}


def _settlement(draw, P, scale, style: TerrainStyle, rng: random.Random, room: Room | None = None) -> None:
    # building blocks separated by streets, dark outline and a tile-red roof colour
    rects = _BLOCKS[style.symbol](rng)
    if room is not None:
        rects = room.settled(rects)
    for x, y, w, h in rects:
        pts = [P(x - w / 2, y - h / 2), P(x + w / 2, y - h / 2), P(x + w / 2, y + h / 2), P(x - w / 2, y + h / 2)]
        draw.polygon(pts, fill=style.accent + (255,), outline=style.ink + (255,), width=_w(scale, 0.012))


def _waves(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    for x, y in ((-0.16, -0.08), (0.12, 0.0), (-0.08, 0.16), (0.18, 0.24), (-0.22, 0.3)):
        x += rng.uniform(-0.03, 0.03)
        pts = [P(x + t * 0.14, y + 0.022 * math.sin(t * math.pi * 2)) for t in [k / 12 - 0.5 for k in range(13)]]
        draw.line(pts, fill=style.ink + (255,), width=_w(scale, 0.014), joint="curve")


def _hatch(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    a = math.radians(style.hatch_angle)
    ux, uy = math.cos(a), math.sin(a)
    vx, vy = -uy, ux
    for k in range(-8, 9):
        off = k * 0.085
        cx, cy = vx * off, vy * off
        draw.line([P(cx - ux, cy - uy), P(cx + ux, cy + uy)], fill=style.ink + (160,), width=_w(scale, 0.012))


def _airfield(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    # two crossing runways with a small aircraft silhouette beside them
    w = _w(scale, 0.05)
    draw.line([P(-0.3, 0.22), P(0.26, -0.12)], fill=style.accent + (255,), width=w)
    draw.line([P(-0.24, -0.08), P(0.28, 0.2)], fill=style.accent + (255,), width=w)
    draw.line([P(-0.3, 0.22), P(0.26, -0.12)], fill=style.ink + (255,), width=_w(scale, 0.008))
    draw.line([P(-0.24, -0.08), P(0.28, 0.2)], fill=style.ink + (255,), width=_w(scale, 0.008))
    x, y = 0.0, 0.29
    body = [P(x, y - 0.075), P(x + 0.012, y + 0.06), P(x - 0.012, y + 0.06)]
    draw.polygon(body, fill=style.ink + (255,))
    draw.polygon([P(x - 0.08, y), P(x + 0.08, y), P(x + 0.08, y + 0.02), P(x - 0.08, y + 0.02)], fill=style.ink + (255,))
    draw.polygon([P(x - 0.035, y + 0.05), P(x + 0.035, y + 0.05), P(x + 0.035, y + 0.065), P(x - 0.035, y + 0.065)],
                 fill=style.ink + (255,))


def _fort(draw, P, scale, style: TerrainStyle, rng: random.Random) -> None:
    # a star fort: a bold ring with bastion teeth, the classic map sign of a fortified hex
    r_out, r_in = 0.3, 0.22
    pts = []
    for k in range(16):
        r = r_out if k % 2 == 0 else r_in
        a = math.pi * k / 8 + math.pi / 16
        pts.append(P(r * math.cos(a), 0.05 + r * math.sin(a)))
    # filled with the style's fill: a map that gives two kinds of fort colours of their own (each
    # side's printed strongpoints) draws them apart, as its players must tell them apart
    draw.polygon(pts, fill=style.fill + (255,), outline=style.ink + (255,), width=_w(scale, 0.035))


_PAINTERS = {
    "airfield": _airfield, "fort": _fort,
    "trees": _trees, "marsh": _marsh, "rocks": _rocks, "hills": _hills, "peaks": _peaks,
    "city": _settlement, "town": _settlement, "village": _settlement, "waves": _waves, "hatch": _hatch,
}
#: The painters that keep their pieces off a :class:`Room`'s water (and a settlement's blocks
#: off its lines): the others are only clipped by the water.
_ROOMY = {_trees, _marsh, _rocks, _settlement}


@lru_cache(maxsize=64)
def blocks(symbol: str, variant: int) -> tuple:
    """The blocks of a settlement's symbol (``variant``) as its painter draws them where nothing
    moves them: (x, y, width, height) each, hex sizes round the hex centre (the symbol's
    shift not added)."""
    return tuple(_BLOCKS[symbol](random.Random(f"{symbol}-{variant}")))


def moved_by(style: TerrainStyle, variant: int, room: Room) -> bool:
    """Whether ``room`` changes the symbol of ``style`` (its ``variant``) at all: most hexes a
    line or a lake reaches keep their symbol as it is, and its sprite."""
    if style.symbol == "trees":
        trees = _tree_stand(random.Random(f"{style.symbol}-{variant}"))
        return room.dry_trees(trees) != trees
    if style.symbol in _BLOCKS:
        rects = list(blocks(style.symbol, variant))
        return room.settled(rects) != rects
    reach = symbol_reach(style, room.flat, room.shift)
    return room.wet_area is not None and reach is not None and room.wet_area.intersects(shapely.box(*reach))
