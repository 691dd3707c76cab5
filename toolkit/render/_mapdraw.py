"""The layers of a map image: planned once in map pixels, painted into any window.

terrain fills -> water bodies -> terrain symbols -> grid -> hexside features -> bridges, roads
and rail -> map edges -> victory and supply markers -> hex ids -> place names.
Shapely does the geometry (merged water bodies, hexside chains, edge bands, label
placement) once, in :class:`MapScene`; pillow paints the pixels of one window at a time
(:meth:`MapScene.paint`), vector parts anti-aliased through :class:`Canvas`, text pasted
from the glyph cache. Memory follows the window, not the map.

This module holds the scene, its terrain, symbols and grid, and the painting; each other
layer is planned by a mixin of its own module: water and hexsides (``_mapwater``), lines and
bridges (``_maplines``), map edges (``_mapedges``), markers (``_mapmarkers``), hex ids
(``_mapids``), place names (``_mapnames``).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from functools import lru_cache

import numpy as np

from PIL import Image, ImageDraw

from ..game import Game, Map, TerrainType
from ..hexes import Hex, Layout
from ._drawop import ink
from ._glyphs import label_layout, label_tiles, paste_text
from ._mapedges import EDGE_SIDES, EdgeLayer, grid_lines, side_colour
from ._mapgeom import Boxes, _rows, meets
from ._mapids import HexIdLayer
from ._maplines import LineLayer
from ._mapmarkers import MarkerLayer
from ._mapnames import NameLayer
from ._mapsymbols import VARIANTS, sign_split, sprite
from ._mapwater import _WATER_SHAPES, WaterLayer  # noqa: F401 (the shapes kept: tests empty them here)
from ._passes import passes
from ._raster import Canvas
from ._recorder import Recorder
from ._symbolroom import SymbolRoom
from .theme import TerrainStyle, Theme, rgb

__all__ = ["MapScene", "draw_map", "side_colour", "EDGE_SIDES", "DOMINANT"]

#: Overlay styles that colour a hex of open ground, not only add a symbol.
DOMINANT = ("woods", "swamp", "town", "city", "mountain")


class MapScene(WaterLayer, LineLayer, EdgeLayer, MarkerLayer, HexIdLayer, NameLayer, SymbolRoom):
    """Everything a map image shows, planned once in map pixels; :meth:`paint` draws any
    window of it. Two windows that overlap draw the same pixels where they overlap, so a map
    drawn in strips or pages is pixel for pixel the map drawn whole."""

    def __init__(self, game_map: Map, layout: Layout, theme: Theme, game: Game | None,
                 extent: tuple[int, int], centres: dict[Hex, tuple[float, float]] | None = None) -> None:
        self.m = game_map
        self.extent = extent
        self.layout = layout
        self.theme = theme
        self.game = game
        self.size = layout.size
        self.grid = game_map.grid
        # the centres come in the grid's order (see mapimage._fit): no second walk of the grid
        self.hexes = list(centres) if centres else self.grid.hexes()
        self.centres = centres or {h: layout.center(h) for h in self.hexes}
        self.factor = 3 if layout.size < 64 else 2
        self.id_boxes: dict[Hex, tuple] = {}
        self.place_boxes: dict[str, tuple] = {}
        # what the bridges draw (hexside ones with the hexsides, the rest with the lines), for
        # the ids, markers and names to keep off: each deck's and wing's points
        self.bridge_decks: list[list[tuple]] = []
        self.bridge_wings: list[list[tuple]] = []
        self.terrain()
        self.water()
        self.symbols_plan()
        self._grid_plan()
        rec = Recorder(self.factor)
        self.shorelines(rec)
        # the ops of rivers, hexside lines, roads and railways (the bridges are the recorder's
        # "bridge"): a name knocks them out under its lettering (see NameLayer.knockouts)
        rec.kind = "linework"
        self.hexsides(rec)
        self.lines(rec)
        rec.kind = None
        edge_labels = self.edges(rec)
        self.hex_ids()   # before the markers: a star or disc keeps off its hex's id
        rec.kind = "linework"
        self.ties(rec)   # the railways' ties, off the ids placed
        rec.kind = None
        self.marker_list = self.markers(rec)
        self.symbols_clear()   # the symbols off the lakes, a village's blocks off the lines and markers
        self.ops = rec.items
        self.linework = np.asarray([kind == "linework" for kind in rec.kinds], dtype=bool)
        self.op_raw = _rows((b for _, b, _ in self.ops), len(self.ops), 4)
        self.op_pads = np.asarray([p for _, _, p in self.ops], dtype=float)
        raw, pads = self.op_raw, self.op_pads
        self.op_boxes = np.column_stack([raw[:, 0] - pads - 4, raw[:, 1] - pads - 4,
                                         raw[:, 2] + pads + 4, raw[:, 3] + pads + 4]).reshape(-1, 4)
        self.op_index = Boxes(self.op_boxes)
        self.edge_tiles = self.edge_labels(edge_labels)
        self.places()
        self.knockouts = self.name_knockouts()
        self._knockout_bases: dict[int, Image.Image] = {}
        self.hex_boxes = self._hex_extents()
        self.hex_index = Boxes(self.hex_boxes)

    # -- helpers ---------------------------------------------------------------------------

    def px(self, frac: float) -> float:
        return frac * self.size

    def terrain_type(self, code: str) -> TerrainType:
        tt = self.m.terrain_types.get(code)
        return tt if tt is not None else TerrainType(code=code, name=code)

    def style_of(self, code: str | None) -> TerrainStyle:
        styles = self.__dict__.setdefault("_styles", {})
        style = styles.get(code)
        if style is None:
            style = styles[code] = self._style_of(code)
        return style

    def _style_of(self, code: str | None) -> TerrainStyle:
        if code is None:
            clear = next((t for t in self.m.terrain_types.values()
                          if self.theme.terrain_style(t).key == "clear"), None)
            if clear is not None:
                return self.theme.terrain_style(clear)
            return TerrainStyle(key="clear", fill=rgb(self.theme.get("terrain", "clear", {}).get("fill", "#eef0d3")))
        return self.theme.terrain_style(self.terrain_type(code))

    # -- planning: layers in map pixels ----------------------------------------------------

    def terrain(self) -> None:
        """Base terrain fills; water hexes get their shore colour, the water body comes next."""
        self.water_hexes: list[Hex] = []
        self.fills: dict[Hex, tuple] = {}
        ground: dict = {}   # per terrain and features: the fill, and whether it is water
        cells = self.m.hexes
        for h in self.hexes:
            cell = cells.get(h)
            key = (cell.terrain, cell.features) if cell else (None, ())
            fill, water = ground.get(key) or ground.setdefault(key, self._ground(*key))
            self.fills[h] = fill
            if water:
                self.water_hexes.append(h)

    def _ground(self, terrain: str | None, features: tuple) -> tuple[tuple, bool]:
        """The fill of a hex of ``terrain`` and ``features``, and whether it is water."""
        style = self.style_of(terrain)
        fill = style.fill
        if style.key == "clear" or style.symbol is None:
            # a wood, marsh or town given as an overlay on open ground colours the hex
            for code in features:
                over = self.style_of(code)
                if over.key in DOMINANT:
                    fill = over.fill
        return fill, style.water is not None

    def symbols_plan(self) -> None:
        flat = self.grid.flat
        # symbols keep clear of the hex id: top ids push them down, bottom ids up
        self.symbol_shift = {("top", True): 0.0, ("top", False): 0.1, ("bottom", True): -0.12,
                             ("bottom", False): -0.17}.get((self.m.hex_ids, flat), 0.0)

    def _hex_extents(self) -> np.ndarray:
        """Per hex, the box of every pixel its fill, grid lines, symbols and id may touch."""
        corners = np.ascontiguousarray(self.corner_px.transpose(1, 0, 2))   # (reduced along its first axis: 4x faster)
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        reach = self.grid_style[1] + 2
        boxes = np.concatenate([lo - reach, hi + reach], axis=1).astype(float)
        parts = [_rows(self._sprite_boxes, len(self._sprite_boxes), 5)]
        if self.ids:   # (hex number, id box and a margin of 2), made as arrays
            ids = self.id_box_array
            parts.append(np.column_stack([np.arange(len(ids), dtype=float), ids + (-2, -2, 2, 2)]))
        p = np.concatenate(parts)
        if len(p):
            n = p[:, 0].astype(int)
            np.minimum.at(boxes[:, 0], n, p[:, 1])
            np.minimum.at(boxes[:, 1], n, p[:, 2])
            np.maximum.at(boxes[:, 2], n, p[:, 3])
            np.maximum.at(boxes[:, 3], n, p[:, 4])
        return boxes

    # -- painting a window -----------------------------------------------------------------

    def paint(self, image: Image.Image, origin: tuple[int, int], bare: bool = False) -> None:
        """Draw the part of the map that falls in ``image``, whose top-left pixel is map
        pixel ``origin`` (whole pixels); ``bare``: without the linework a name knocks out,
        nor the names (what shows through a knock-out)."""
        ox, oy = origin
        box = (ox, oy, ox + image.width, oy + image.height)
        draw = ImageDraw.Draw(image)
        order = self.hex_index.within(box)

        local = self.corner_px[order] - np.asarray(origin, dtype=np.int32) if order else None
        polygon = draw.draw.draw_polygon
        fills = self.fill_inks
        if order:
            for n, flat in zip(order, local.reshape(len(order), -1).tolist()):   # terrain fills
                polygon(flat, fills[n], 1)
        # water bodies
        for colour, rings, bounds in self.bodies:
            if not meets(bounds, (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)):
                continue
            if len(rings) == 1:
                draw.polygon((rings[0] - (ox, oy)).ravel().tolist(), fill=colour)
                continue
            # islands: fill through a mask so the land drawn inside stays
            mx0, my0 = max(0, math.floor(bounds[0]) - ox - 2), max(0, math.floor(bounds[1]) - oy - 2)
            mx1, my1 = min(image.width, math.ceil(bounds[2]) - ox + 3), min(image.height, math.ceil(bounds[3]) - oy + 3)
            if mx1 <= mx0 or my1 <= my0:
                continue
            mask = Image.new("L", (mx1 - mx0, my1 - my0), 0)
            md = ImageDraw.Draw(mask)
            for k, ring in enumerate(rings):
                md.polygon((ring - (ox + mx0, oy + my0)).ravel().tolist(), fill=255 if k == 0 else 0)
            image.paste(colour, (mx0, my0, mx1, my1), mask)
        # terrain symbols
        core = image.im
        sprites = self.sprites
        for n in order:
            for spr, (x0, y0, x1, y1) in sprites.get(n, ()):
                core.paste(spr, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), spr)
        if order:
            self._grid_lines(draw, local, order)
        # anti-aliased vector layers: shores, hexsides, bridges, roads, edges, markers
        canvas = Canvas(image, self.factor, origin=origin)
        near = self.op_index.within(box)
        if bare:
            near = [n for n in near if not self.linework[n]]
        layers, tables = self._passes()
        canvas.add_many([self.ops[n][0] for n in near], self.op_raw[near], self.op_pads[near],
                        ([layers[n] for n in near], tables))
        canvas.flush()
        for tile, (x, y) in self.signs:
            if meets((x, y, x + tile.width, y + tile.height), box):
                image.paste(tile, (x - ox, y - oy), tile)
        for tile, (x, y) in self.edge_tiles:
            image.paste(tile, (x - ox, y - oy), tile)
        for text, x, y, size, colour in self.marker_list:
            if abs(x - (box[0] + box[2]) / 2) < image.width / 2 + size * 4 and \
                    abs(y - (box[1] + box[3]) / 2) < image.height / 2 + size * 4:
                paste_text(image, origin, x, y, text, size, True, "condensed", colour)
        # hex ids over a knock-out box of the hex's colour
        if self.ids:
            # as paste_label does it, inline (a map has thousands of ids)
            size, bold, family = self.id_font
            anchor, paste, floor = self.id_anchor, core.paste, math.floor
            for n in order:
                x, y, (x0, y0, x1, y1), (colour, knock), label = self.ids[n]
                X, Y = floor(x + 0.5) - ox, floor(y + 0.5) - oy   # snap()
                if knock is not None:
                    paste(ink(knock), (x0 - ox, y0 - oy, x1 - ox, y1 - oy))
                    # the box is of one colour under the id: its pieces come ready inked on it
                    tiles = label_tiles(label, size, bold, family, anchor, colour, knock)
                    if tiles is not None:
                        for tile, gx, gy, w, h in tiles:
                            paste(tile, (X + gx, Y + gy, X + gx + w, Y + gy + h))
                        continue
                c = ink(colour)
                for mask, gx, gy, w, h in label_layout(label, size, bold, family, anchor):
                    paste(c, (X + gx, Y + gy, X + gx + w, Y + gy + h), mask)
        if bare:
            return
        # under the names that lie over roads, rails or rivers, the map without them
        for n, (kbox, mask) in enumerate(self.knockouts):
            if meets(kbox, box):
                base = self._knockout_bases.get(n)
                if base is None:   # drawn from the knock-out's own corner: the same in every window
                    base = Image.new("RGB", (kbox[2] - kbox[0], kbox[3] - kbox[1]), self.theme.paper)
                    self.paint(base, kbox[:2], bare=True)
                    self._knockout_bases[n] = base
                image.paste(base, (kbox[0] - ox, kbox[1] - oy), mask)
        for at, name, size, bold, family, colour, hw, halo, rect in self.place_list:
            if meets(rect, box):
                paste_text(image, origin, at[0], at[1], name, size, bold, family, colour, "mm", hw, halo)

    def _passes(self) -> tuple[list, list]:
        """The passes the canvas draws the map's operations in (see ``_passes.passes``): made
        from all of them once, so every window draws in the same passes."""
        made = self.__dict__.get("_op_passes")
        if made is None:
            made = self._op_passes = passes([op for op, *_ in self.ops], self.factor)
        return made

    def _grid_plan(self) -> None:
        """Whole-pixel corners of each hex, its grid polylines and its symbol sprites."""
        colour = rgb(self.theme.get("grid", "colour", "#4a4a44"))
        width = max(1, round(self.px(self.theme.get("grid", "width", 0.012))))
        self.grid_style = (colour, width)
        grid = self.grid
        # each hexside once: four sides per hex as one polyline, the other two only on the
        # map's edge (inside, the neighbour draws them)
        chain = (5, 0, 1, 2, 3) if grid.flat else (3, 4, 5, 0, 1)
        # corners as offsets from the centre, computed once (Layout.corners per hex is slow);
        # one compact array for every hex (a monster map has tens of thousands)
        cx, cy = self.layout.center(self.hexes[0])
        unit = np.asarray([(x - cx, y - cy) for x, y in self.layout.corners(self.hexes[0])])
        # the centres are in the order of self.hexes (see __init__)
        self.centre_array = _rows(self.centres.values(), len(self.centres), 2)
        self.corner_px = np.floor(self.centre_array[:, None, :] + unit[None] + 0.5).astype(np.int32)
        self.grid_chain = list(chain)
        self.grid_extra = _border_sides(grid)   # the hexes are in the grid's order (see __init__)
        inks: dict = {}
        self.fill_inks = [inks[f] if f in inks else inks.setdefault(f, ink(f)) for f in map(self.fills.__getitem__, self.hexes)]
        flat = grid.flat
        self.sprites: dict[int, list] = {}
        self._sprite_boxes: list[tuple] = []   # (hex number, box) of each sprite, for _hex_extents
        cells, centres, boxes, sprites = self.m.hexes, self.centres, self._sprite_boxes, self.sprites
        self.sign_hexes: list[tuple] = []   # (hex, style) of the symbols drawn as a small sign (see markers)
        # per terrain, features and variant: the sprites drawn (each cut to its ink: pasting
        # clear pixels is wasted work) and the styles drawn as signs
        drawn: dict[tuple, tuple] = {}
        for n, h in enumerate(self.hexes):
            cell = cells.get(h)
            if cell is None:
                continue
            variant = (h.col * 7 + h.row * 13) % VARIANTS
            key = (cell.terrain, cell.features, variant)
            plan = drawn.get(key)
            if plan is None:
                codes, signs = self._signs_apart((cell.terrain, *cell.features))
                cuts = [_trimmed_sprite(self.style_of(code), self.size, flat, variant, self.symbol_shift)
                        for code in codes]
                plan = drawn[key] = ([cut for cut in cuts if cut[0] is not None], signs)
            cuts, signs = plan
            for style in signs:
                self.sign_hexes.append((h, style))
            if cuts:
                cx, cy = centres[h]
                for core, left, top, half, width, height in cuts:
                    x, y = round(cx - half) + left, round(cy - half) + top
                    box = (x, y, x + width, y + height)
                    sprites.setdefault(n, []).append((core, box))   # pillow's core: pasted as is
                    boxes.append((n, *box))

    def _signs_apart(self, codes: tuple) -> tuple[tuple, tuple]:
        """The codes of a hex drawn as sprites, and the styles drawn as a small sign instead:
        an airfield or fort in a hex with another such symbol or a settlement (Demyansk's
        airfield in a town) would hide it, or be hidden under it, so it becomes a sign placed
        like a marker, clear of the roads (see :meth:`markers`)."""
        styles = [self.style_of(code) for code in codes]
        signs = [styles[n] for n in sign_split([s.symbol for s in styles])]
        return tuple(c for c, s in zip(codes, styles) if s not in signs), tuple(signs)

    def _grid_lines(self, draw, local, order) -> None:
        colour, width = self.grid_style
        colour = ink(colour)
        line = draw.draw.draw_lines
        lo = width // 2
        pieces = local[:, self.grid_chain, :].reshape(len(order), -1).tolist()
        # the sides only hexes on the grid's border draw (order is sorted); all in one colour,
        # so drawn after the others, the same pixels
        for n, sides in self.grid_extra.items():
            k = bisect_left(order, n)
            if k < len(order) and order[k] == n:
                pieces += [[*local[k, i].tolist(), *local[k, j].tolist()] for i, j in sides]
        for flat in pieces:
            line(flat, colour, width)
            if width > 2:   # round joints (whole-pixel discs, the same in every window)
                for x, y in zip(flat[::2], flat[1::2]):
                    draw.draw.draw_ellipse((x - lo, y - lo, x - lo + width - 1, y - lo + width - 1), colour, 1)


@lru_cache(maxsize=8)
def _border_sides(grid) -> dict[int, list[tuple[int, int]]]:
    """Per hex on the border of ``grid`` (its number in ``grid.hexes()``) with no neighbour
    across one of the two sides its grid polyline leaves to the neighbours (see
    :meth:`MapScene._grid_plan`), those sides (as pairs of corners): the same for every map
    of that grid (read only)."""
    extra = ((3, "SE"), (4, "S")) if grid.flat else ((1, "E"), (2, "SE"))
    hexes = grid.hexes()
    cols = [h.col for h in hexes]
    rows = [h.row for h in hexes]
    c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
    # a neighbour is on the grid if its line coordinates are a hex's (as Grid.neighbour
    # finds it, without a call per hex and direction)
    lines_of, occupied = grid_lines(grid)
    steps = [(i, da, dd) for i, direction in extra for name, da, dd in grid.directions if name == direction]
    out: dict[int, list[tuple[int, int]]] = {}
    for n, h in enumerate(hexes):
        # only a hex near the grid's border can miss a neighbour (short columns included)
        if not (c0 < h.col < c1 and r0 + 1 < h.row < r1 - 1):
            a, d = lines_of[h]
            missing = [(i, (i + 1) % 6) for i, da, dd in steps if (a + da, d + dd) not in occupied]
            if missing:
                out[n] = missing
    return out


@lru_cache(maxsize=512)
def _trimmed_sprite(style: TerrainStyle, size: float, flat: bool, variant: int, shift: float, room=None) -> tuple:
    """The symbol :func:`sprite` makes, cut to its ink (pasting clear pixels is wasted work) and
    premultiplied (pillow pastes it through its alpha twice as fast, pixels within one level of
    255 of the straight alpha paste), as pillow's core: ``(core, left, top, half the sprite's
    side, width, height)``, or Nones for a style without a symbol. Made once per symbol and size."""
    spr = sprite(style, size, flat, variant, shift, room)
    box = spr.getchannel("A").getbbox() if spr is not None else None
    if not box:
        return (None,) * 6
    return spr.crop(box).convert("RGBa").im, box[0], box[1], spr.width / 2, box[2] - box[0], box[3] - box[1]


def draw_map(image: Image.Image, game_map: Map, layout: Layout, theme: Theme, game: Game | None) -> dict:
    """Paint every map layer of ``game_map`` onto ``image`` (hexes placed by ``layout``).

    Returns where the text went: ``{"hex_ids": {hex: box}, "places": {name: box}}``.
    """
    scene = MapScene(game_map, layout, theme, game, image.size)
    scene.paint(image, (0, 0))
    return {"hex_ids": scene.id_boxes, "places": scene.place_boxes}
