"""Map images: ``render_map`` plans a game map at a DPI, ``build_map`` writes a game's maps.

The hexes sit in a playing area with a margin (map-edge labels live there); the legend (the
Terrain Effects Chart) and title block sit in a band to the right of it, or below a wide
map, never over a hex. Hex centres in image pixels are exactly ``MapImage.layout.center``.

A :class:`MapImage` is a plan, not pixels: :meth:`MapImage.region` draws any rectangle on
its own, :meth:`MapImage.save` writes a PNG strip by strip and the print PDF is drawn page by
page, so memory follows the strip or page, not the map. ``MapImage.image`` draws the whole
map in memory, for maps small enough to hold.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from pathlib import Path
from typing import Callable, Iterator

import numpy as np
from PIL import Image, ImageChops, ImageDraw

from ..errors import BuildError
from ..game import Game, Map
from ..hexes import Layout
from ..io import atomic_path
from ._glyphs import GlyphDraw
from ._mapdraw import MapScene
from ._maplegend import LegendPlan, plan_legend
from ._pngstream import write_png
from ._raster import Canvas
from .theme import Theme

__all__ = ["MapImage", "render_map", "build_map", "MAX_PIXELS", "MAX_STREAM_PIXELS", "STRIP_PIXELS", "TILE",
           "NARROW"]

#: The largest map drawn whole in memory (``MapImage.image``; about 1.5 GB of RGB).
MAX_PIXELS = 500_000_000
#: The largest map written at all (strips and pages keep memory small; this keeps a typo in
#: the DPI from writing for hours).
MAX_STREAM_PIXELS = 12_000_000_000
#: Pixels of one strip (one row of tiles: the tiles' height is chosen per map so that a strip of
#: any width holds about this many; about 48 MB of RGB).
STRIP_PIXELS = 16_000_000
#: Width of the tiles every window of a map is drawn from; their height is the map's
#: ``MapImage.tile_h`` (from TILE_H_MIN to TILE_H, a multiple of 64).
TILE = 1024
TILE_H = 1024
TILE_H_MIN = 128
#: A map up to this wide is drawn in tiles as wide as the map (``MapImage.tile_w``; as high as
#: a strip): a strip is then one tile, drawn straight into the image the PNG writer gets.
NARROW = 4096
#: Tiles cut by a window's edge kept for the next window (at most 3 MB each of a wide map)...
KEPT_TILES = 32
#: ...and at most this many pixels of them (a narrow map's tiles are strips: up to 64 MB each).
KEPT_PIXELS = 32 * TILE * TILE_H

Progress = Callable[[str], None]


class MapImage:
    """A planned map: its layout, DPI and size, drawn on demand (whole, or any rectangle).

    ``hex_area`` is the (left, top, right, bottom) pixel box of the playing area (hexes plus
    margin); the legend band lies outside it. ``text_boxes`` says where hex ids, place
    names and victory and supply markers go (the drafter reads around them).
    """

    def __init__(self, scene: MapScene, legend: LegendPlan, legend_origin: tuple[int, int],
                 size: tuple[int, int], dpi: int, hex_area: tuple[int, int, int, int]) -> None:
        self.scene = scene
        self.layout: Layout = scene.layout
        self.game_map: Map = scene.m
        self.dpi = dpi
        self.size = size
        self.hex_area = hex_area
        self.text_boxes = {"hex_ids": scene.id_boxes, "places": scene.place_boxes, "markers": scene.marker_boxes}
        self._legend = legend
        self._blocks: list[tuple[tuple[int, int, int, int], object]] = []
        x, y0 = legend_origin
        for column in legend.columns:
            y = y0
            for block in column:
                self._blocks.append(((x, y, x + legend.col_width, y + block.height), block))
                y += block.height
            x += legend.col_width
        self._block_images: OrderedDict = OrderedDict()
        self._tiles: OrderedDict = OrderedDict()
        self._image: Image.Image | None = None
        self._kept = 0   # pixels in self._tiles
        # tiles low enough that one row of them (a strip) holds about STRIP_PIXELS: memory
        # then follows that budget, not the map's width; fixed per map, so every window of
        # this map is drawn from the same tiles. A narrow map's strip is a single tile: no
        # copying tiles into strips, and its pixels are those of the map drawn whole in one go
        # (pillow's polygon edges, computed in single precision from the drawing's origin, put
        # a rare stray or missing pixel of a hex fill in other places for another origin)
        if size[0] <= NARROW:
            self.tile_w = max(1, size[0])
            self.tile_h = max(TILE_H_MIN, STRIP_PIXELS // self.tile_w // 64 * 64)
        else:
            self.tile_w = TILE
            self.tile_h = max(TILE_H_MIN, min(TILE_H, STRIP_PIXELS // size[0] // 64 * 64))

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    @property
    def image(self) -> Image.Image:
        """The whole map as one RGB image (drawn once; refused above :data:`MAX_PIXELS`)."""
        if self._image is None:
            w, h = self.size
            if w * h > MAX_PIXELS:
                raise BuildError(f"map {self.game_map.id} at {self.dpi} dpi is {w} x {h} pixels, too many to hold "
                                 f"in memory at once (more than {MAX_PIXELS:,}); write it with save() or as a "
                                 "print PDF, which draw it in strips and pages")
            self._image = self.region((0, 0, w, h))
        return self._image

    def region(self, box: tuple[int, int, int, int]) -> Image.Image:
        """The pixels of ``box`` (left, top, right, bottom), drawn on their own: exactly the
        same pixels as that part of the whole map.

        The map is drawn in fixed tiles (``tile_w`` x ``tile_h`` pixels), each always with the
        same origin: pillow computes edges in single precision from the drawing's own origin,
        so only a drawing made from the same origin gives the same pixels. A window that is
        exactly one tile is that tile (a strip of a narrow map: nothing copied)."""
        x0, y0, x1, y1 = (int(v) for v in box)
        if self._image is not None:
            return self._image.crop((x0, y0, x1, y1))
        tw, th = self.tile_w, self.tile_h
        W, H = self.size
        out = None
        for ty in range(y0 // th, (y1 - 1) // th + 1):
            for tx in range(x0 // tw, (x1 - 1) // tw + 1):
                # the last tiles of a row or column end with the map
                tile_box = (tx * tw, ty * th, min(W, (tx + 1) * tw), min(H, (ty + 1) * th))
                whole = x0 <= tile_box[0] and tile_box[2] <= x1 and y0 <= tile_box[1] and tile_box[3] <= y1
                tile = self._tiles.get((tx, ty))
                if tile is None:
                    tile = self._tile(tile_box)
                    if tile_box == (x0, y0, x1, y1):
                        return tile   # drawn for this window alone: the caller may keep it
                    if not whole:
                        # a tile cut by the window's edge is kept a while: the next page
                        # (pages overlap) or window likely needs the rest of it
                        self._keep((tx, ty), tile)
                else:
                    self._tiles.move_to_end((tx, ty))
                if out is None:
                    out = Image.new("RGB", (x1 - x0, y1 - y0), None)   # every pixel comes from a tile
                out.paste(tile, (tile_box[0] - x0, tile_box[1] - y0))
        return out if out is not None else Image.new("RGB", (x1 - x0, y1 - y0))   # an empty window

    def inked(self, box: tuple[int, int, int, int]) -> bool:
        """Whether anything of the map is drawn in ``box`` (left, top, right, bottom): a hex
        (its fill, grid, symbols, id), a line, band or marker, a name, an edge label or the ink
        of a legend block; found from the plan, without drawing the map (a legend block is
        drawn once to find its ink). A print sheet that shows none of it is left out."""
        x0, y0, x1, y1 = box
        if x1 <= x0 or y1 <= y0:
            return False
        scene = self.scene
        hx0, hy0, hx1, hy1 = self.hex_area
        if x0 < hx1 and hx0 < x1 and y0 < hy1 and hy0 < y1:
            if scene.hex_index.within(box):
                return True
            raw, pads = scene.op_raw, scene.op_pads
            if len(raw) and bool(((raw[:, 0] - pads < x1) & (x0 < raw[:, 2] + pads)
                                  & (raw[:, 1] - pads < y1) & (y0 < raw[:, 3] + pads)).any()):
                return True
            rects = [(x, y, x + tile.width, y + tile.height) for tile, (x, y) in scene.edge_tiles]
            rects += [place[-1] for place in scene.place_list]
            if any(a < x1 and x0 < c and b < y1 and y0 < d for a, b, c, d in rects):
                return True
        for (bx0, by0, _, _), block in self._blocks:
            ink = self._block_ink(block)
            if ink is not None and ink[0] + bx0 < x1 and x0 < ink[2] + bx0 and ink[1] + by0 < y1 and y0 < ink[3] + by0:
                return True
        return False

    def _block_ink(self, block) -> tuple[int, int, int, int] | None:
        """The box of a legend block's ink within the block (None if it draws nothing)."""
        inks = self.__dict__.setdefault("_block_inks", {})
        if id(block) not in inks:
            image = self._block_image(block)
            paper = Image.new("RGB", image.size, self.scene.theme.paper)
            inks[id(block)] = ImageChops.difference(image, paper).getbbox()
        return inks[id(block)]

    def _keep(self, key: tuple[int, int], tile: Image.Image) -> None:
        """Keep a tile for later windows, forgetting the oldest beyond :data:`KEPT_TILES` tiles
        or :data:`KEPT_PIXELS` pixels."""
        self._tiles[key] = tile
        self._kept += tile.width * tile.height
        while (len(self._tiles) > KEPT_TILES or self._kept > KEPT_PIXELS) and len(self._tiles) > 1:
            _, old = self._tiles.popitem(last=False)
            self._kept -= old.width * old.height

    def _tile(self, tile_box: tuple[int, int, int, int]) -> Image.Image:
        x0, y0, x1, y1 = tile_box
        scene = self.scene
        buf = Image.new("RGB", (x1 - x0, y1 - y0), scene.theme.paper)
        hx0, hy0, hx1, hy1 = self.hex_area
        if x0 < hx1 and y0 < hy1:
            scene.paint(buf, (x0, y0))
        for (bx0, by0, bx1, by1), block in self._blocks:
            if bx0 < x1 and x0 < bx1 and by0 < y1 and y0 < by1:
                buf.paste(self._block_image(block), (bx0 - x0, by0 - y0))
        return buf

    def _block_image(self, block) -> Image.Image:
        """One legend block drawn on its own (a few kept: strips cross them in turn)."""
        key = id(block)
        image = self._block_images.get(key)
        if image is None:
            image = Image.new("RGB", (self._legend.col_width, block.height), self.scene.theme.paper)
            canvas = Canvas(image, 3)
            block.paint(image, GlyphDraw(ImageDraw.Draw(image)), canvas, 0, 0)
            canvas.flush()
            self._block_images[key] = image
            while len(self._block_images) > 4:
                self._block_images.popitem(last=False)
        else:
            self._block_images.move_to_end(key)
        return image

    def strips(self, progress: Progress | None = None, pixels: int = STRIP_PIXELS) -> Iterator[Image.Image]:
        """The whole map as horizontal strips of about ``pixels`` pixels, top to bottom."""
        w, h = self.size
        rows = max(1, pixels // max(1, w) // self.tile_h) * self.tile_h
        count = -(-h // rows)
        for n, y in enumerate(range(0, h, rows)):
            if progress is not None and count > 1:
                progress(f"map {self.game_map.id}: strip {n + 1} of {count} ({w} x {h} px)")
            yield self.region((0, y, w, min(h, y + rows)))

    def write_png(self, fh, progress: Progress | None = None, level: int = 6) -> None:
        """Write the map as a PNG to the binary file ``fh``, strip by strip."""
        if self._image is not None:
            write_png(fh, self.size, [self._image], dpi=self.dpi, level=level)
        else:
            write_png(fh, self.size, self.strips(progress), dpi=self.dpi, level=level)

    def save(self, path: str | os.PathLike, progress: Progress | None = None) -> Path:
        """Write the image (PNG, in strips, unless the suffix says otherwise) with its DPI, atomically."""
        path = Path(path)
        with atomic_path(str(path)) as tmp:
            if path.suffix.lower() in ("", ".png"):
                with open(tmp, "wb") as fh:
                    self.write_png(fh, progress)
            else:
                self.image.save(tmp, format=Image.registered_extensions().get(path.suffix.lower()),
                                dpi=(self.dpi, self.dpi))
        return path


def render_map(game_map: Map, *, dpi: int = 150, theme: Theme | None = None,
               game: Game | None = None) -> MapImage:
    """Plan ``game_map`` at ``dpi``: hexes ``game_map.hex_size_inches * dpi`` pixels across."""
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not 20 <= dpi <= 1200:
        raise BuildError(f"map {game_map.id}: dpi must be a whole number from 20 to 1200, not {dpi!r}")
    theme = theme or Theme.default()
    size = game_map.hex_size_inches * dpi
    margin = theme.data.get("margin", 0.42) * dpi
    layout, (area_w, area_h), centres = _fit(game_map.grid, size, margin)
    plan, _ = plan_legend(game_map, game, theme, dpi, area_w, area_h)
    if plan.right:
        width, height = area_w + plan.width, max(area_h, plan.height)
        origin = (area_w, 0)
    else:
        width, height = max(area_w, plan.width), area_h + plan.height
        origin = (0, area_h)
    if width * height > MAX_STREAM_PIXELS:
        raise BuildError(f"map {game_map.id} at {dpi} dpi would be {width} x {height} pixels, "
                         f"more than {MAX_STREAM_PIXELS:,}; use a lower --dpi")
    scene = MapScene(game_map, layout, theme, game, (width, height), centres)
    return MapImage(scene, plan, origin, (width, height), dpi, (0, 0, area_w, area_h))


def _fit(grid, size: float, margin: float):
    """``Layout.fit(grid, size, margin)``, its ``image_size(margin)`` and the centre of every
    hex, the same numbers without the corners of every hex twice (a monster map has tens of
    thousands): rounding is monotonic, so the extreme corner is the extreme centre plus the
    extreme corner offset."""
    probe = Layout(grid, size)
    hexes = grid.hexes()
    # Layout.center of every hex from the origin, as arrays: the same operations in the same
    # order (a * line_spacing, d * size / 2), so the same numbers to the bit
    lines = np.array([grid.to_lines(h) for h in hexes], dtype=float).reshape(-1, 2)
    along, across = 0.0 + lines[:, 0] * probe.line_spacing, 0.0 + lines[:, 1] * probe.size / 2
    xs, ys = (along, across) if grid.flat else (across, along)
    R = probe.radius
    start = 180 if grid.flat else 270
    ux = [R * math.cos(math.radians(start + 60 * i)) for i in range(6)]
    uy = [R * math.sin(math.radians(start + 60 * i)) for i in range(6)]
    x_lo, x_hi, y_lo, y_hi = float(xs.min()), float(xs.max()), float(ys.min()), float(ys.max())
    layout = Layout(grid, size, (margin - (x_lo + min(ux)), margin - (y_lo + min(uy))))
    ox, oy = layout.origin
    x0, y0 = (ox + x_lo) + min(ux), (oy + y_lo) + min(uy)
    x1, y1 = (ox + x_hi) + max(ux), (oy + y_hi) + max(uy)
    area = math.ceil(x1 - min(x0, 0) + margin), math.ceil(y1 - min(y0, 0) + margin)
    return layout, area, dict(zip(hexes, zip((ox + xs).tolist(), (oy + ys).tolist())))


def build_map(game: Game, out_dir: Path, progress: Callable[[str], None]) -> list[Path]:
    """Write each map of ``game`` as out_dir/map/<id>.png (150 dpi) and a tiled A4 print PDF."""
    from .tiles import print_pdf

    folder = Path(out_dir) / "map"
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for game_map in game.maps.values():
        progress(f"map {game_map.id}: rendering at 150 dpi")
        image = render_map(game_map, dpi=150, game=game)
        written.append(image.save(folder / f"{game_map.id}.png", progress))
        progress(f"map {game_map.id}: print PDF on A4 at 300 dpi")
        printable = render_map(game_map, dpi=300, game=game)
        written.append(print_pdf(printable, folder / f"{game_map.id}-a4.pdf", paper="a4", progress=progress))
    return written
