"""The layers of a map image: planned once in map pixels, painted into any window.

terrain fills -> water bodies -> terrain symbols -> grid -> hexside features -> bridges, roads
and rail -> map edges -> victory and supply markers -> hex ids -> place names.
Shapely does the geometry (merged water bodies, hexside chains, edge bands, label
placement) once, in :class:`MapScene`; pillow paints the pixels of one window at a time
(:meth:`MapScene.paint`), vector parts anti-aliased through :class:`Canvas`, text pasted
from the glyph cache. Memory follows the window, not the map.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections import OrderedDict, defaultdict
from functools import lru_cache

import numpy as np

from PIL import Image, ImageDraw
import shapely
from shapely.geometry import LineString
from shapely.ops import linemerge, unary_union

from ..game import Game, HexsideType, LineType, Map, TerrainType
from ..hexes import Hex, Hexside, Layout
from ._mapgeom import Bins, chains, crossing, join_ends, lake_body, line_cover, meets, overlap, straighten
from ._mapsymbols import VARIANTS, sprite
from ._glyphs import label_box, label_layout, paste_text, text_box
from ._raster import Canvas, Recorder, catmull_rom, chaikin, dashes, ink, walk
from .fonts import font
from .theme import TerrainStyle, Theme, rgb

__all__ = ["MapScene", "draw_map", "side_colour", "EDGE_SIDES", "DOMINANT"]

#: The hexside directions that face each page edge, per orientation.
EDGE_SIDES = {
    True: {"north": {"N", "NE", "NW"}, "south": {"S", "SE", "SW"}, "west": {"NW", "SW"}, "east": {"NE", "SE"}},
    False: {"north": {"NE", "NW"}, "south": {"SE", "SW"}, "west": {"W", "NW", "SW"}, "east": {"E", "NE", "SE"}},
}

#: Overlay styles that colour a hex of open ground, not only add a symbol.
DOMINANT = ("woods", "swamp", "town", "city", "mountain")

#: Points :func:`catmull_rom` draws for each step of a road or railway.
_SAMPLES = 10

#: Water bodies shaped so far, by the relative places of their water and shore hexes and the
#: hex size (see MapScene.water): pure geometry, shared by every map drawn at that size.
_WATER_SHAPES: OrderedDict = OrderedDict()
_WATER_SHAPES_KEPT = 512

_SIDE_PALETTE = ["#6f9fd8", "#d8716f", "#8fbf6f", "#d8b35f", "#a98fd0", "#5fbfbf"]


def side_colour(side_id: str | None, game: Game | None):
    """The colour of a side from the game's data, else a stable colour from a small palette."""
    if side_id and game is not None:
        side = game.side(side_id)
        if side is not None:
            return rgb(side.colour)
    if not side_id:
        return rgb("#9a9a9a")
    return rgb(_SIDE_PALETTE[sum(map(ord, side_id)) % len(_SIDE_PALETTE)])


def _luma(colour) -> float:
    r, g, b = colour[:3]
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


def _darker(colour, k: float = 0.55):
    return tuple(int(c * k) for c in colour)


class MapScene:
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
        self.reserved: list = []   # (x0, y0, x1, y1) boxes labels must avoid (hex ids, markers)
        self.id_boxes: dict[Hex, tuple] = {}
        self.place_boxes: dict[str, tuple] = {}
        self._probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
        self.terrain()
        self.water()
        self.symbols_plan()
        self._grid_plan()
        rec = Recorder(self.factor)
        self.shorelines(rec)
        self.hexsides(rec)
        self.lines(rec)
        edge_labels = self.edges(rec)
        self.hex_ids()   # before the markers: a star or disc keeps off its hex's id
        self.marker_list = self.markers(rec)
        self.ops = rec.items
        self.op_boxes = np.asarray([(b[0] - p - 4, b[1] - p - 4, b[2] + p + 4, b[3] + p + 4)
                                    for _, b, p in self.ops], dtype=float).reshape(-1, 4)
        self.op_index = _Boxes(self.op_boxes)
        self.op_raw = np.asarray([b for _, b, _ in self.ops], dtype=float).reshape(-1, 4)
        self.op_pads = np.asarray([p for _, _, p in self.ops], dtype=float)
        self.edge_tiles = self.edge_labels(edge_labels)
        self.places()
        self.hex_boxes = self._hex_extents()
        self.hex_index = _Boxes(self.hex_boxes)

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
        for h in self.hexes:
            style = self.style_of(self.m.terrain(h))
            fill = style.fill
            if style.key == "clear" or style.symbol is None:
                # a wood, marsh or town given as an overlay on open ground colours the hex
                for code in self.m.features(h):
                    over = self.style_of(code)
                    if over.key in DOMINANT:
                        fill = over.fill
            self.fills[h] = fill
            if style.water is not None:
                self.water_hexes.append(h)

    def water(self) -> None:
        """Adjacent water hexes merged into one body with a rounded shore (shore line comes later)."""
        self.shores = []   # (points of a shore line (n x 2 array), colour)
        self.bodies: list[tuple] = []   # (colour, [rings of whole pixels (n x 2 arrays)], box)
        self.water_colour: dict[Hex, tuple] = {}
        if not self.water_hexes:
            return
        by_style: dict[TerrainStyle, list[Hex]] = defaultdict(list)
        for h in self.water_hexes:
            by_style[self.style_of(self.m.terrain(h))].append(h)
        water_set = set(self.water_hexes)
        bodies = [(style, body) for style, hexes in by_style.items() for body in self._components(hexes)]
        shapes = _WATER_SHAPES
        scale = (self.size, self.layout.radius, self.grid.flat)
        for style, hexes in bodies:
            for h in hexes:
                self.water_colour[h] = style.water
            shore_hexes = {n for h in hexes for n in self.grid.neighbours(h) if n not in water_set}
            # the shape depends only on where the water and shore hexes lie relative to each
            # other, and on the hex size: a pond or lake repeated over the map (or met on
            # another map of that size) is shaped once, then moved
            x0, y0 = self.centres[hexes[0]]
            water = tuple(sorted((round(x - x0, 6), round(y - y0, 6)) for x, y in map(self.centres.get, hexes)))
            land = tuple(sorted((round(x - x0, 6), round(y - y0, 6))
                                for x, y in map(self.centres.get, shore_hexes)))
            key = (water, land, scale)
            shape = shapes.get(key)
            if shape is None:
                shape = shapes[key] = self._water_shape(water, land)
                while len(shapes) > _WATER_SHAPES_KEPT:   # the oldest go first
                    try:
                        shapes.popitem(last=False)
                    except KeyError:   # emptied meanwhile by another thread's render
                        break
            offset = np.asarray((x0, y0))
            for rings, (bx0, by0, bx1, by1), shore in shape:
                moved = [np.floor(ring + offset + 0.5).astype(np.int64) for ring in rings]   # snap()
                self.bodies.append((style.water, moved, (bx0 + x0, by0 + y0, bx1 + x0, by1 + y0)))
                # the anti-aliased shore line hides the jagged edge of the fill
                for part in shore:
                    self.shores.append((part + offset, style.shore or style.ink))

    def _unit_corners(self) -> list[tuple[float, float]]:
        """A hex's corners as offsets from its centre, as :meth:`Layout.corners` adds them."""
        R = self.layout.radius
        start = 180 if self.grid.flat else 270
        return [(R * math.cos(math.radians(start + 60 * i)), R * math.sin(math.radians(start + 60 * i)))
                for i in range(6)]

    def _water_shape(self, water, land) -> list[tuple]:
        """A water body of hexes centred at ``water`` with shore hexes at ``land`` (centre
        offsets): per polygon its rings, bounds and shore lines (arrays, same offsets)."""
        def union(centres):
            polys = self._hex_polygons(centres)
            return polys[0] if len(polys) == 1 else unary_union(polys)

        body = union(water)
        coast = None
        # the shore keeps a rim of land in the water hexes next to land, with rounded
        # corners; where the water meets the map edge it runs to the hex edge
        if land:
            whole = body
            # within a rim's width of the land is within it of the hexsides water and land
            # share (the land lies beyond them): buffering those few sides gives the same
            # shape as buffering the land hexes, several times faster
            ground = self._shore_sides(water, land)
            q = 6   # segments a quarter circle: round enough for corners this small
            body = whole.difference(ground.buffer(self.px(0.075), quad_segs=q, join_style=1))
            r = self.px(0.06)
            body = body.buffer(-r, q, join_style=1).buffer(r, q, join_style=1)      # round the capes
            body = body.buffer(r, q, join_style=1).buffer(-r, q, join_style=1).intersection(whole)  # and the bays
            coast = ground.buffer(self.px(0.11), quad_segs=q, join_style=1)
        out = []
        for poly in getattr(body, "geoms", [body]):
            if poly.is_empty or poly.geom_type != "Polygon":
                continue
            rings = [np.asarray(ring.coords) for ring in (poly.exterior, *poly.interiors)]
            shore = []
            if coast is not None:
                line = poly.boundary.intersection(coast)
                merged = linemerge(line) if line.geom_type == "MultiLineString" else line
                shore = [np.asarray(part.coords) for part in getattr(merged, "geoms", [merged])
                         if part.geom_type == "LineString" and len(part.coords) > 1]
            out.append((rings, poly.bounds, shore))
        return out

    def _shore_sides(self, water, land):
        """The hexsides between hexes centred at ``water`` and at ``land`` (centre offsets),
        merged into lines."""
        w = np.asarray(water, dtype=float).reshape(-1, 1, 2)
        g = np.asarray(land, dtype=float).reshape(1, -1, 2)
        d = g - w
        dist = np.hypot(d[..., 0], d[..., 1])
        i, j = np.nonzero(np.abs(dist - self.size) < self.size * 1e-3)   # neighbours
        a, b = w[i, 0], g[0, j]
        mid, step = (a + b) / 2, b - a
        length = np.hypot(step[:, 0], step[:, 1])[:, None]
        half = np.stack([-step[:, 1], step[:, 0]], axis=1) / length * (self.layout.radius / 2)
        segments = np.stack([mid - half, mid + half], axis=1)
        return shapely.line_merge(shapely.multilinestrings(list(shapely.linestrings(segments))))

    def _components(self, hexes: list[Hex]) -> list[list[Hex]]:
        """Connected groups of ``hexes`` (one water body each: small geometry, fast buffers)."""
        left = set(hexes)
        out = []
        while left:
            seed = left.pop()
            group, todo = [seed], [seed]
            while todo:
                for n in self.grid.neighbours(todo.pop()):
                    if n in left:
                        left.remove(n)
                        group.append(n)
                        todo.append(n)
            out.append(sorted(group))
        return out

    def shorelines(self, canvas) -> None:
        w = max(1.0, self.px(0.018))
        for points, colour in self.shores:
            canvas.line(points, colour, w)

    def symbols_plan(self) -> None:
        flat = self.grid.flat
        # symbols keep clear of the hex id: top ids push them down, bottom ids up
        self.symbol_shift = {("top", True): 0.0, ("top", False): 0.1, ("bottom", True): -0.12,
                             ("bottom", False): -0.17}.get((self.m.hex_ids, flat), 0.0)

    def hexsides(self, canvas) -> None:
        """Rivers, lake sides, slopes and walls along chains of hexsides."""
        self.water_lines: list[LineString] = []   # as drawn (smoothed): where bridges go
        self.water_widths: list[float] = []   # their drawn widths, fractions of the hex size
        by_code: dict[str, list[Hexside]] = defaultdict(list)
        for side, feats in self.m.hexsides.items():
            for f in feats:
                by_code[f.code].append(side)
        # draw the widest (lake sides, major rivers) first so minor ones join on top
        kinds = sorted(by_code, key=lambda c: (-self._hexside_style(c).width, c))
        for code in kinds:
            style = self._hexside_style(code)
            kind = self.m.hexside_types.get(code)
            segments = [self._segment(s) for s in sorted(by_code[code])]
            if kind is not None and kind.bridge and style.key == "bridge":
                for side in sorted(by_code[code]):
                    if side in self._line_steps():
                        continue   # drawn where the road crosses (see lines)
                    water = [self._hexside_style(c) for c in self.m.hexside_codes(side)]
                    gap = max([w.width for w in water if w.water] or [0.06])
                    (ax, ay), (bx, by) = self.centres[side.a], self.centres[side.b]
                    self._bridge(canvas, ((ax + bx) / 2, (ay + by) / 2), (bx - ax, by - ay), self.px(gap),
                                 style.colour)
                continue
            for chain in chains(segments):
                w = max(1.0, self.px(style.width))
                if style.key == "lake":
                    self._lake_side(canvas, chain, w, kind is not None and kind.width == "minor")
                    self.water_lines.append(LineString(np.asarray(chain, dtype=float)))
                    self.water_widths.append(style.width * 1.25)   # the lakes' widest (see _lake_side)
                    continue
                pts = chaikin(chain, 2) if style.water else chain
                if style.water:
                    self.water_lines.append(LineString(np.asarray(pts, dtype=float)))
                    # at the names' frame size: the same at every dpi (the edge has a floor in pixels)
                    self.water_widths.append(style.drawn_width(self.NAME_FRAME) / self.NAME_FRAME)
                if style.edge is not None:
                    canvas.line(pts, style.edge, style.drawn_width(self.size))
                canvas.line(pts, style.colour, w)
                if style.ticks:
                    self._ticks(canvas, chain, style.colour, w)

    def _segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """``Layout.hexside_segment(side)`` from the planned centres (the same arithmetic,
        without working out both centres again)."""
        a, b = self.centres.get(side.a), self.centres.get(side.b)
        if a is None or b is None:
            return self.layout.hexside_segment(side)
        (ax, ay), (bx, by) = a, b
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy)
        half = self.layout.radius / 2
        ux, uy = -dy / length * half, dx / length * half
        return (mx - ux, my - uy), (mx + ux, my + uy)

    def _line_steps(self) -> set:
        """The hexsides some road, track or railway crosses."""
        steps = self.__dict__.get("_steps")
        if steps is None:
            steps = self._steps = {Hexside.of(a, b) for line in self.m.lines for a, b in zip(line.hexes, line.hexes[1:])}
        return steps

    def _lake_side(self, canvas, chain, w: float, partial: bool = False) -> None:
        """Lakes along hexsides, with the lakes' own water and thin shore line, like the lakes
        drawn in hexes (a river is a darker line of even width with a dark edge): each side a
        lake widest at its middle (see :func:`lake_body`); a partial lake side a small lake."""
        lake = self.theme.terrain_style(TerrainType(code="lake", name="Lake"))
        water = lake.water or rgb("#9fc7e3")
        shore = lake.shore or lake.ink
        body = lake_body(chain, w / 2 * 1.25, partial)
        self.__dict__.setdefault("lake_bodies", []).append(body)
        canvas.shape(body, fill=water, outline=shore, width=max(1.0, self.px(0.018)))

    def _hexside_style(self, code: str):
        cache = self.__dict__.setdefault("_side_styles", {})
        if code not in cache:
            kind = self.m.hexside_types.get(code)
            if kind is None:
                kind = HexsideType(code=code, name=code)
            cache[code] = self.theme.hexside_style(kind)
        return cache[code]

    def _ticks(self, canvas, chain, colour, w: float) -> None:
        length = self.px(0.07)
        canvas.segments([((x, y), (x - uy * length, y + ux * length))
                         for x, y, ux, uy in walk(chain, self.px(0.07), self.px(0.035))], colour, max(1.0, w * 0.6))

    def _bridges(self, canvas, crossings, water_width: dict) -> None:
        """A bridge where each line crosses the water. Lines that cross one hexside side by side
        (a railway drawn beside its road) share one bridge wide enough for both, not two decks
        and their wings on top of each other; a railway alone gets a dark deck."""
        groups: list[list] = []
        for side, at, direction, rail in crossings:
            d = math.hypot(*direction) or 1.0
            u = (direction[0] / d, direction[1] / d)
            for group in groups:
                s0, at0, u0, _ = group[0]
                if s0 == side and abs(u[0] * u0[0] + u[1] * u0[1]) > 0.94 and math.dist(at, at0) < self.px(0.3):
                    group.append((side, at, u if u[0] * u0[0] + u[1] * u0[1] > 0 else (-u[0], -u[1]), rail))
                    break
            else:
                groups.append([(side, at, u, rail)])
        bridges = []   # (hexside, centre, direction, normal, deck colour, half width)
        for group in groups:
            side = group[0][0]
            ux = sum(u[0] for _, _, u, _ in group) / len(group)
            uy = sum(u[1] for _, _, u, _ in group) / len(group)
            mx = sum(at[0] for _, at, _, _ in group) / len(group)
            my = sum(at[1] for _, at, _, _ in group) / len(group)
            d = math.hypot(ux, uy) or 1.0
            nx, ny = -uy / d, ux / d
            across = [(at[0] - mx) * nx + (at[1] - my) * ny for _, at, _, _ in group]
            mid = (min(across) + max(across)) / 2
            deck = rgb("#3a3a3a") if all(rail for *_, rail in group) else None
            bridges.append((side, (mx + nx * mid, my + ny * mid), (ux / d, uy / d), (nx, ny), deck,
                            self.px(0.055) + (max(across) - min(across)) / 2))
        # lines crossing one hexside close together at an angle (Velikiye Luki's road and
        # railway) keep a bridge each, joined into one: no wings between them, one deck under both
        wings = [[True, True] for _ in bridges]
        for i, (side, (ax, ay), _, (anx, any_), _, aw) in enumerate(bridges):
            for j in range(i + 1, len(bridges)):
                other, (bx, by), _, (bnx, bny), _, bw = bridges[j]
                if other != side or math.dist((ax, ay), (bx, by)) > aw + bw + self.px(0.1):
                    continue
                wings[i][0 if (bx - ax) * anx + (by - ay) * any_ > 0 else 1] = False
                wings[j][0 if (ax - bx) * bnx + (ay - by) * bny > 0 else 1] = False
                half = self.px(water_width[side]) / 2 + self.px(0.07)
                corners = [(cx + ux * sl * half + nx * sw * w, cy + uy * sl * half + ny * sw * w)
                           for (cx, cy), (ux, uy), (nx, ny), w in (((ax, ay), bridges[i][2], (anx, any_), aw),
                                                                   ((bx, by), bridges[j][2], (bnx, bny), bw))
                           for sl in (1, -1) for sw in (1, -1)]
                canvas.shape(shapely.MultiPoint(corners).convex_hull, fill=self.theme.paper)
        for (side, at, direction, _, deck, half_w), keep in zip(bridges, wings):
            self._bridge(canvas, at, direction, self.px(water_width[side]), self.theme.ink, deck, half_w, keep)

    def _bridge(self, canvas, at, direction, gap: float, colour, deck=None, half_w: float | None = None,
                wings=(True, True)) -> None:
        """A bridge centred on ``at``, its deck along ``direction`` (where the road runs),
        ``half_w`` either side of it (by default as wide as one road), with the wings of
        ``wings`` (left, right of the deck)."""
        mx, my = at
        d = math.hypot(*direction) or 1.0
        ux, uy = direction[0] / d, direction[1] / d
        nx, ny = -uy, ux
        half_len = gap / 2 + self.px(0.07)
        half_w = self.px(0.055) if half_w is None else half_w
        deck_pts = [(mx - ux * half_len + nx * half_w, my - uy * half_len + ny * half_w),
                    (mx + ux * half_len + nx * half_w, my + uy * half_len + ny * half_w),
                    (mx + ux * half_len - nx * half_w, my + uy * half_len - ny * half_w),
                    (mx - ux * half_len - nx * half_w, my - uy * half_len - ny * half_w)]
        canvas.polygon(deck_pts, fill=deck or self.theme.paper)
        self.__dict__.setdefault("bridge_decks", []).append(deck_pts)
        w = max(1.0, self.px(0.016))
        flare = self.px(0.04)
        for sgn, wing in zip((1, -1), wings):
            if not wing:
                continue
            ox, oy = nx * half_w * sgn, ny * half_w * sgn
            p0 = (mx - ux * half_len + ox, my - uy * half_len + oy)
            p1 = (mx + ux * half_len + ox, my + uy * half_len + oy)
            wing_pts = [(p0[0] - ux * flare + nx * flare * sgn, p0[1] - uy * flare + ny * flare * sgn), p0, p1,
                        (p1[0] + ux * flare + nx * flare * sgn, p1[1] + uy * flare + ny * flare * sgn)]
            canvas.line(wing_pts, colour, w)
            self.__dict__.setdefault("bridge_wings", []).append(wing_pts)

    def lines(self, canvas) -> None:
        """Bridges, then tracks, roads and railways as smooth curves through hex centres."""
        water_width: dict[Hexside, float] = {}
        for side, feats in self.m.hexsides.items():
            widths = [self._hexside_style(f.code) for f in feats]
            widths = [s.width for s in widths if s.water]
            if widths:
                water_width[side] = max(widths)
        styled = []
        for line in self.m.lines:
            kind = self.m.line_types.get(line.code)
            kind = kind or LineType(code=line.code, name=line.code)
            styled.append((self.theme.line_style(kind), kind, line))
        order = {"track": 0, "secondary": 1, "road": 2, "rail": 3}
        styled.sort(key=lambda item: order.get(item[0].key, 1))
        # a railway that runs along a road is drawn beside it, not on top of it
        road_steps = {frozenset(pair) for style, _, line in styled if style.key != "rail"
                      for pair in zip(line.hexes, line.hexes[1:])}
        paths = [(style, catmull_rom(self._centreline(line, road_steps if style.key == "rail" else set()), _SAMPLES), line)
                 for style, kind, line in styled if len(line.hexes) > 1]
        # bridges under the lines that cross the water, where the drawn line crosses the
        # drawn river (a bridge given as a hexside feature is drawn here too)
        bridged = {side for side, feats in self.m.hexsides.items()
                   for f in feats if (self.m.hexside_types.get(f.code) or HexsideType(f.code, f.code)).bridge}
        crossings = []   # (hexside, where the drawn line crosses the water, its direction there, railway?)
        for (style, pts, line), (_, kind, _) in zip(paths, [s for s in styled if len(s[2].hexes) > 1]):
            drawn = None
            for i, (a, b) in enumerate(zip(line.hexes, line.hexes[1:])):
                side = Hexside.of(a, b)
                if side in water_width and (kind.bridges or side in bridged):
                    segment = self._segment(side)
                    drawn = np.asarray(pts, dtype=float) if drawn is None else drawn
                    # the curve from the hex before a to the hex after b (catmull_rom draws
                    # _SAMPLES points a step): where it crosses this side, without the rest
                    near = LineString(drawn[max(0, _SAMPLES * (i - 1)):_SAMPLES * (i + 2) + 1])
                    at, direction = crossing(near, segment, self.centres[a], self.centres[b],
                                              self._water_near(segment))
                    crossings.append((side, at, direction, style.key == "rail"))
        self._bridges(canvas, crossings, water_width)
        paths = [(style, pts) for style, pts in join_ends(paths, self.centres)]
        self.line_paths = paths   # (style, drawn points) of each line, for the tests
        for style, pts in paths:   # casings first so crossing roads merge cleanly
            if style.casing is not None and style.dash is None:
                canvas.line(pts, style.casing, self.px(style.width) + max(2.0, self.px(0.022)))
        for style, pts in paths:
            w = max(1.0, self.px(style.width))
            if style.dash is not None:
                for dash in dashes(pts, self.px(style.dash[0]), self.px(style.dash[1])):
                    canvas.line(dash, style.colour, w)
            else:
                canvas.line(pts, style.colour, w)
            if style.ties:
                half = self.px(style.ties) / 2
                canvas.segments([((x + uy * half, y - ux * half), (x - uy * half, y + ux * half))
                                 for x, y, ux, uy in walk(pts, self.px(style.tie_spacing), self.px(style.tie_spacing) / 2)],
                                style.colour, max(1.0, w * 0.75))

    def _water_near(self, segment) -> list:
        """The drawn rivers and lake sides near a hexside, cut to its neighbourhood."""
        zone = LineString(segment).buffer(self.size * 0.2)
        lines = self.__dict__.get("_water_array")
        if lines is None or len(lines) != len(self.water_lines):
            lines = self._water_array = np.asarray(self.water_lines, dtype=object)
        near = lines[shapely.intersects(lines, zone)]
        return list(shapely.intersection(near, zone)) if len(near) else []

    def _centreline(self, line, shared: set) -> list[tuple[float, float]]:
        """Hex centres of a line, straightened along rows of a flat-topped grid, and moved
        sideways where its steps are also steps of ``shared``."""
        pts = straighten(self.grid.flat, [self.centres[h] for h in line.hexes], self.layout.radius)
        if not shared:
            return pts
        steps = [frozenset(pair) in shared for pair in zip(line.hexes, line.hexes[1:])]
        out = []
        shift = self.px(0.11)
        for i, (x, y) in enumerate(pts):
            on = (i > 0 and steps[i - 1]) or (i < len(steps) and steps[i])
            if not on:
                out.append((x, y))
                continue
            (ax, ay), (bx, by) = pts[max(0, i - 1)], pts[min(len(pts) - 1, i + 1)]
            d = math.hypot(bx - ax, by - ay) or 1.0
            out.append((x - (by - ay) / d * shift, y + (bx - ax) / d * shift))
        return out

    # -- edges and markers -----------------------------------------------------------------

    def edge_groups(self) -> dict:
        """Friendly edges and edge supply sources, one entry per (page edge, side, hexes)."""
        groups: dict[tuple, dict] = {}

        def entry(edge_name, side, hexes):
            key = (edge_name, side, frozenset(hexes) if hexes else None)
            return groups.setdefault(key, {"edge": edge_name, "side": side, "hexes": tuple(hexes or ()),
                                           "map_edge": False, "supply": False})

        for edge in self.m.edges:
            # listed hexes say which page edge is meant (a map whose north is not up names
            # edges by the game's compass)
            page_edge = (self._edge_of(edge.hexes) if edge.hexes else None) or edge.edge
            entry(page_edge, edge.side, edge.hexes)["map_edge"] = True
        for src in self.m.supply:
            if src.edge:
                entry(src.edge, src.side, ())["supply"] = True
            elif src.kind == "edge" and src.hexes:
                name = self._edge_of(src.hexes)
                if name is not None:
                    entry(name, src.side, src.hexes)["supply"] = True
        return groups

    def _edge_of(self, hexes) -> str | None:
        """The page edge that holds most of ``hexes`` (None if they are not on an edge)."""
        best, count = None, 0
        for name in ("north", "south", "west", "east"):
            on = len(set(hexes) & set(self._edge_hexes(name)))
            if on > count:
                best, count = name, on
        return best if count * 2 >= len(hexes) else None

    def _lines(self) -> dict[Hex, tuple[int, int]]:
        """Line coordinates of every hex (see :meth:`Grid.to_lines`), and the set of them."""
        if "_line_coords" not in self.__dict__:
            lines = {h: self.grid.to_lines(h) for h in self.hexes}
            self._line_coords = (lines, set(lines.values()))
        return self._line_coords

    def _edge_hexes(self, name: str) -> list[Hex]:
        """``Grid.edge_hexes(name)``, from one table of line coordinates for all four edges."""
        cache = self.__dict__.setdefault("_edge_cache", {})
        if name not in cache:
            lines, occupied = self._lines()
            flat = self.grid.flat
            across = ("west", "east") if flat else ("north", "south")
            along = {"north": "N", "south": "S"} if flat else {"west": "W", "east": "E"}
            if name in across:
                wanted = 0 if name == across[0] else max(a for a, _ in occupied)
                cache[name] = [h for h in self.hexes if lines[h][0] == wanted]
            elif name in along:
                da, dd = next((da, dd) for n, da, dd in self.grid.directions if n == along[name])
                cache[name] = [h for h in self.hexes if (lines[h][0] + da, lines[h][1] + dd) not in occupied]
            else:
                cache[name] = self.grid.edge_hexes(name)   # its error names the edge
        return cache[name]

    def _hex_polygons(self, centres) -> np.ndarray:
        """Shapely polygons of hexes centred at ``centres``: the corners of :meth:`Layout.corners`,
        made in one call."""
        unit = np.asarray(self._unit_corners())
        return shapely.polygons(np.asarray(centres, dtype=float).reshape(-1, 1, 2) + unit[None])

    def edges(self, canvas) -> list[tuple]:
        """Coloured bands outside friendly and supply edges; returns label data for each."""
        groups = self.edge_groups()
        if not groups:
            return []
        out = []
        flat = self.grid.flat
        width = self.px(self.theme.get("edge", "width", 0.1))
        lines_of, occupied = self._lines()
        # a band along a whole edge first, a band along listed hexes over it: White Death's
        # German rail supply along the whole south edge hid the Soviet stretch of it
        for (edge_name, side_id, _), entry in sorted(groups.items(), key=lambda item: item[0][2] is not None):
            hexes = entry["hexes"] or tuple(self._edge_hexes(edge_name))
            wanted = EDGE_SIDES[flat].get(edge_name, set())
            steps = [(da, dd) for name, da, dd in self.grid.directions if name in wanted]
            segments = []
            for h in hexes:
                a, d = lines_of.get(h) or self.grid.to_lines(h)
                for da, dd in steps:
                    if (a + da, d + dd) not in occupied:   # the side faces off the map
                        other = self.grid.from_lines(a + da, d + dd)
                        segments.append(self.layout.hexside_segment(Hexside.of(h, other)))
            if not segments:
                continue
            # merged into chains first so the band's corners are mitred, not notched
            lines = [LineString(c) for c in chains(segments)]
            band = unary_union([c.buffer(width, cap_style=2, join_style=2, mitre_limit=3.0) for c in lines])
            band = band.difference(self._hexes_under(band, hexes))
            colour = side_colour(side_id, self.game)
            canvas.shape(band, fill=colour, outline=_darker(colour), width=max(1.0, self.px(0.01)))
            side = self.game.side(side_id) if (self.game and side_id) else None
            name = side.name if side else (side_id or "")
            words = (["map edge"] if entry["map_edge"] else []) + (["supply source"] if entry["supply"] else [])
            text = (name + " " + " \u00b7 ".join(words)).strip().upper()
            out.append((edge_name, text, colour, band.bounds))
        return out

    def _hexes_under(self, band, hexes):
        """The union of the hexes ``band`` overlaps: a band along ``hexes`` reaches at most
        their neighbours, so only those are tested and merged, not the whole grid's rim."""
        near = sorted({n for h in hexes for n in (h, *self.grid.neighbours(h)) if n in self.centres})
        polys = self._hex_polygons([self.centres[h] for h in near])
        return unary_union(polys[shapely.intersects(polys, band)])

    def edge_labels(self, labels) -> list[tuple]:
        """The edge labels as sprites with the map pixel of their top-left corner. Labels of one
        side along one page edge do not overlap: one that says no more than another it meets
        is dropped, the others are moved apart along the edge."""
        size = self.px(self.theme.get("edge", "label_size", 0.17))
        f = font(size, bold=True, family="condensed")
        gap = self.px(0.05)
        placed = []   # (edge, colour, words, tile, centre)
        for edge_name, text, colour, (x0, y0, x1, y1) in labels:
            tw = int(self._probe.textlength(text, font=f)) + 4
            th = int(size * 1.4)
            tile = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
            ImageDraw.Draw(tile).text((tw / 2, th / 2), text, font=f, fill=_darker(colour, 0.5) + (255,),
                                      anchor="mm")
            if edge_name in ("west", "east"):
                tile = tile.rotate(90 if edge_name == "west" else -90, expand=True)
                cy = (y0 + y1) / 2
                cx = x0 - gap - tile.width / 2 if edge_name == "west" else x1 + gap + tile.width / 2
            else:
                cx = (x0 + x1) / 2
                cy = y0 - gap - tile.height / 2 if edge_name == "north" else y1 + gap + tile.height / 2
            placed.append((edge_name, colour, set(text.replace("\u00b7", " ").split()), tile, [cx, cy]))
        # drop a label whose words another label of its side on the same edge already says
        placed = [a for i, a in enumerate(placed)
                  if not any(j != i and b[0] == a[0] and b[1] == a[1] and a[2] <= b[2] and (a[2] < b[2] or j < i)
                             for j, b in enumerate(placed))]
        for edge_name in ("north", "south", "west", "east"):
            self._spread([p for p in placed if p[0] == edge_name], 1 if edge_name in ("west", "east") else 0, gap)
        return [(tile, (round(c[0] - tile.width / 2), round(c[1] - tile.height / 2))) for _, _, _, tile, c in placed]

    def _spread(self, along: list, axis: int, gap: float) -> None:
        """Move labels on one page edge apart along it (``axis`` 0: x, 1: y), in place, keeping
        them on the map where the map is long enough."""
        if len(along) < 2:
            return
        along.sort(key=lambda p: p[4][axis])
        length = [(p[3].width, p[3].height)[axis] for p in along]
        for i in range(1, len(along)):   # push forward
            least = along[i - 1][4][axis] + (length[i - 1] + length[i]) / 2 + gap
            along[i][4][axis] = max(along[i][4][axis], least)
        corners = self.corner_px[..., axis]
        end = corners.max() + corners.min()   # the playing area: the hexes and the margin round them
        over = along[-1][4][axis] + length[-1] / 2 - end
        if over > 0:   # pulled back from the far end of the map
            along[-1][4][axis] -= over
            for i in range(len(along) - 2, -1, -1):
                most = along[i + 1][4][axis] - (length[i + 1] + length[i]) / 2 - gap
                along[i][4][axis] = min(along[i][4][axis], most)

    def markers(self, canvas) -> list:
        """Victory stars and supply-source discs, each at the spot of its hex nearest its usual
        one (a star left of the town, a disc right) that keeps off the roads, railways, rivers,
        bridges and the hex id; returns (text, x, y, size, colour) to print."""
        texts = []
        self.marker_boxes: list[tuple] = []   # where the stars and discs are (the drafter masks them)
        vic = self.theme.data.get("victory", {})
        r = self.px(vic.get("size", 0.22)) / 2
        fill = rgb(vic.get("fill", "#c8102e"))
        vp_ink = rgb(vic.get("text", "#ffffff"))
        taken: list = []   # (hex, centre, radius) of the markers placed so far
        for v in self.m.victory:
            if v.hex not in self.centres:
                continue
            x, y = self._marker_spot(v.hex, (-0.28, -0.09), vic.get("size", 0.22) / 2, taken)
            star = [(x + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
                     y - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
            canvas.polygon(star, fill=fill, outline=_darker(fill, 0.45), width=max(1.0, self.px(0.012)))
            self.reserved.append((x - r, y - r, x + r, y + r))
            self.marker_boxes.append((x - r, y - r, x + r, y + r))
            if v.points is not None:
                texts.append((str(v.points), x, y + r * 0.08, r * 0.95, vp_ink))
        sup = self.theme.data.get("supply", {})
        rs = self.px(sup.get("size", 0.17)) / 2
        for src in self.m.supply:
            if src.kind == "edge" and src.hexes and self._edge_of(src.hexes) is not None:
                continue  # drawn as an edge band
            for h in src.hexes:
                if h not in self.centres:
                    continue
                x, y = self._marker_spot(h, (0.28, -0.09), sup.get("size", 0.17) / 2, taken)
                colour = side_colour(src.side, self.game)
                canvas.ellipse(x, y, rs, fill=colour, outline=rgb(sup.get("outline", "#111111")),
                               width=max(1.0, self.px(0.014)))
                self.reserved.append((x - rs, y - rs, x + rs, y + rs))
                self.marker_boxes.append((x - rs, y - rs, x + rs, y + rs))
                texts.append(("S", x, y, rs * 1.25, self.theme.ink))
        return texts

    #: Where in its hex a marker may go (fractions of the hex size from the centre): a grid
    #: fine enough to slip between the roads of a junction.
    MARKER_GRID = np.asarray([(dx / 50, dy / 50) for dx in range(-25, 26) for dy in range(-22, 23)], dtype=float)

    #: Spots weighed at a time, nearest the usual spot first.
    MARKER_BATCH = 128

    def _marker_obstacles(self, k: float) -> tuple[list, list, shapely.STRtree]:
        """What a marker keeps off, in the names' frame, made once per render (a map has
        hundreds of lines and bridges, dozens of markers): the roads, railways and rivers as
        curves with their half widths (a fraction of the hex size), then the lake bodies and
        the bridge decks with their wings as shapes (half width None); and a tree over them."""
        if "_obstacles" not in self.__dict__:
            F = self.NAME_FRAME
            drawn, halves = [], []
            for style, line in self.line_paths:
                drawn.append(LineString(np.asarray(line, dtype=float) * k))
                halves.append(max(style.width, style.ties or 0.0) / 2 + (0.011 if style.casing is not None else 0.0))
            for line, width in zip(self.water_lines, self.water_widths):
                drawn.append(shapely.transform(line, lambda c: c * k))
                halves.append(width / 2)
            for body in self.__dict__.get("lake_bodies", ()):
                drawn.append(shapely.transform(body, lambda c: c * k))
                halves.append(None)
            for deck in self.__dict__.get("bridge_decks", ()):
                drawn.append(shapely.Polygon(np.asarray(deck, dtype=float) * k).buffer(0.04 * F, join_style=2))
                halves.append(None)
            self._obstacles = (drawn, halves, shapely.STRtree(drawn))
        return self._obstacles

    def _marker_spot(self, h: Hex, usual: tuple[float, float], radius: float, taken: list) -> tuple[float, float]:
        """Where the marker of ``radius`` (a fraction of the hex size) goes in ``h``: the spot
        nearest ``usual`` whose disc, with a margin, lies inside the hex and clear of the drawn
        roads, railways, rivers, lake sides, bridges, ids and the markers placed so far (the
        clearest spot if none is clear). Weighed in the names' frame: the same spot at every dpi."""
        F = self.NAME_FRAME
        k = F / self.size
        cx, cy = self.centres[h]
        fx, fy = cx * k, cy * k
        need = (radius + 0.025) * F
        zone = shapely.box(fx - F, fy - F, fx + F, fy + F)
        drawn, halves, tree = self._marker_obstacles(k)
        shapes = [drawn[i] if halves[i] is None else drawn[i].intersection(zone).buffer(halves[i] * F)
                  for i in sorted(tree.query(zone, predicate="intersects"))]
        # ids measured at the frame's size, grown as the names grow them (at a small size the
        # printed id sits up to 0.04 hex lower)
        shapes += [shapely.box(*self._framed_id(n, k)).buffer(0.03 * F, join_style=2)
                   for n in (h, *self.grid.neighbours(h)) if n in self.id_boxes]
        shapes += [shapely.Point(x * k, y * k).buffer(rt * F) for _, (x, y), rt in taken]
        shapes = [g for g in shapes if g.intersects(zone)]
        cell = shapely.Polygon(np.asarray(self.layout.corners(h), dtype=float) * k)
        room = cell.buffer(-(radius + 0.02) * F)
        obstacles = unary_union(shapes) if shapes else None
        # nearest the usual spot first, a batch at a time: most markers find room near it
        spots, clearest, best = _marker_spots(usual), (-1.0, None), None
        for start in range(0, len(spots), self.MARKER_BATCH):
            batch = spots[start:start + self.MARKER_BATCH]
            pts = shapely.points(fx + batch[:, 0] * F, fy + batch[:, 1] * F)
            inside = np.flatnonzero(shapely.contains(room, pts))
            if not len(inside):
                continue
            if obstacles is None:
                best = batch[inside[0]]
                break
            clear = shapely.distance(pts[inside], obstacles)
            free = np.flatnonzero(clear >= need)
            if len(free):
                best = batch[inside[free[0]]]
                break
            if clear.max() > clearest[0]:
                clearest = (float(clear.max()), batch[inside[int(np.argmax(clear))]])
        if best is None:
            best = clearest[1]
        if best is None:   # no spot inside the hex
            return cx + usual[0] * self.size, cy + usual[1] * self.size
        dx, dy = best
        at = (cx + float(dx) * self.size, cy + float(dy) * self.size)
        taken.append((h, at, radius))
        return at

    # -- text ------------------------------------------------------------------------------

    def hex_ids(self) -> None:
        """Where each hex id goes, its knock-out box (hex colour, painted over whatever line
        crosses there, as printed maps do) and its ink."""
        self.ids: list[tuple] = []   # per hex: (x, y, knock-out box, (ink, knock-out colour or None))
        where = self.m.hex_ids
        if where == "none":
            return
        style = self.theme.data.get("hex_id", {})
        self.id_font = (self.px(style.get("size", 0.125)), style.get("bold", False), style.get("family", "condensed"))
        colour = rgb(style.get("colour", "#333333"))
        inset = self.px(style.get("inset", 0.045))
        if self.grid.flat:
            half = self.size / 2 - inset
        else:  # below the top corner, where the hex is wide enough for the id
            half = self.layout.radius * 0.66
        self.id_anchor, dy = {"top": ("mt", -half), "bottom": ("mb", half), "centre": ("mm", 0.0)}[where]
        self._id_offset = dy
        self._id_text: dict[Hex, str] = {}
        self._id_shift = self._ids_moved()
        pad = max(1, round(self.px(0.012)))
        fmt = self.grid.format
        styles: dict = {}
        lumas: dict = {}
        shift = self._id_shift
        for h in self.hexes:
            cx, cy = self.centres[h]
            if h in shift:   # moved aside for a bridge
                cx, cy = cx + shift[h][0] * self.size, cy + shift[h][1] * self.size
            label = fmt(h)
            water = self.water_colour.get(h)
            ground = water or self.fills[h]
            ink = lumas.get(ground)
            if ink is None:
                ink = lumas[ground] = colour if _luma(ground) > 0.55 else self.theme.paper
            x0, y0, x1, y1 = label_box(cx, cy + dy, label, *self.id_font, anchor=self.id_anchor)
            box = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
            # nothing but the id shows in its box: a road, rail, river or shore line passing
            # there is interrupted by it (on water the box is water)
            knock = ground
            self.ids.append((cx, cy + dy, box, styles.setdefault((ink, knock), (ink, knock)), label))
            self.reserved.append((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1))
            self.id_boxes[h] = box
            self._id_text[h] = label

    #: Where a place name may go around one of its hexes, nearest first to the spot under the
    #: town symbol: (dx, dy, side), fractions of the hex size from the centre. Side 0: the
    #: name's middle there (up to a little over half a hex aside); side 1 or -1: the name
    #: starts there and runs off to the right, or ends there coming from the left, as a map
    #: names a town at a crowded junction.
    NAME_SPOTS = tuple(sorted(
        [(dx / 20, dy / 20, 0) for dx in range(-12, 13, 3) for dy in range(-9, 12, 2)]
        + [(side * k, dy / 20, side) for side in (1, -1) for k in (0.3, 0.45) for dy in range(-5, 8, 4)],
        key=lambda s: (round(math.hypot(s[0], s[1] - 0.25), 6), abs(s[2]), abs(s[0]), s)))

    #: The hex size (pixels) of the frame names are placed in: the same spots at every dpi.
    NAME_FRAME = 240.0

    def places(self) -> None:
        """Place names with a halo, each where it covers no hex id, marker, bridge, edge label
        or other name and as little road, rail and river as the spots around its hexes allow.

        The spots are weighed in a frame of a fixed hex size (:attr:`NAME_FRAME`: the map's
        geometry scaled, the text measured at that size), so a map names its places in the
        same spots at every dpi; only the chosen spot is then measured at this one."""
        style = self.theme.data.get("place", {})
        kinds = self.theme.data.get("place_sizes", {})
        colour, halo = rgb(style.get("colour", "#111111")), rgb(style.get("halo", "#ffffff"))
        family = style.get("family", "condensed")
        self.place_list: list[tuple] = []
        self.reserved = []   # the placing below reads the ids, markers and bridges themselves
        runs = self._labelled_places()
        if not runs:
            return
        k = self.NAME_FRAME / self.size   # map pixels -> frame pixels
        # what a name must not hide: ids, markers, bridges and edge labels (found by their box
        # on the map, weighed by their box in the frame)
        items = [("id", h) for h in self.id_boxes] + [("box", b) for b in self.marker_boxes]
        items += [("box", (min(x for x, _ in d), min(y for _, y in d), max(x for x, _ in d), max(y for _, y in d)))
                  for d in self.__dict__.get("bridge_decks", ())]
        items += [("box", (x, y, x + tile.width, y + tile.height)) for tile, (x, y) in self.edge_tiles]
        near = _Boxes(np.asarray([self.id_boxes[item] if kind == "id" else item for kind, item in items],
                                 dtype=float).reshape(-1, 4))
        framed: dict[int, tuple] = {}
        margin = 0.03 * self.NAME_FRAME

        def hard(area) -> list:
            numbers = near.within(area)
            for n in numbers:
                if n not in framed:
                    kind, item = items[n]
                    x0, y0, x1, y1 = self._framed_id(item, k) if kind == "id" else (v * k for v in item)
                    # with a margin: text measured at another size is a pixel or two wider
                    framed[n] = (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
            return [framed[n] for n in numbers]

        segments, widths = self._name_obstacles(k)
        half_w = widths / 2
        seg_boxes = np.column_stack([np.minimum(segments[:, 0], segments[:, 2]) - half_w,
                                     np.minimum(segments[:, 1], segments[:, 3]) - half_w,
                                     np.maximum(segments[:, 0], segments[:, 2]) + half_w,
                                     np.maximum(segments[:, 1], segments[:, 3]) + half_w])
        seg_index = _Boxes(seg_boxes)
        unit = self.NAME_FRAME
        placed: list = []   # frame boxes of the names placed so far
        placed_bins = Bins(cell=round(unit * 2))
        W, H = self.extent[0] * k, self.extent[1] * k
        # largest places first: they get the best spots
        for run in sorted(runs, key=lambda run: -kinds.get(run[0].kind, 1.0)):
            place = run[0]
            scale = style.get("size", 0.165) * kinds.get(place.kind, 1.0)   # font size, in hexes
            bold = place.kind in ("city", "town")
            best = None   # ((hidden area, lines' ink + distance, rank), hex, spot, shrink, frame box)
            free = False   # a spot that hides nothing and covers no line was found
            for shrink in (1.0, 0.88, 0.76):
                hw = max(1, round(unit * style.get("halo_width", 0.022) * shrink))
                ex0, ey0, ex1, ey1 = _extent(place.name, unit * scale * shrink, bold, family, "mm", hw)
                half = (ex1 - ex0) / 2
                for hex in (p.hex for p in run):          # the middle of the run first
                    cx, cy = self.centres[hex]
                    reach = 2 * half / unit + 1.0   # hexes either side a name at any spot may cover
                    area = (cx - reach * self.size, cy - 1.5 * self.size, cx + reach * self.size, cy + 1.5 * self.size)
                    fx, fy = cx * k, cy * k
                    farea = (fx - reach * unit, fy - 1.5 * unit, fx + reach * unit, fy + 1.5 * unit)
                    others = [placed[n] for n in placed_bins.query(farea)]
                    local = hard(area) + others
                    lines = seg_index.within(farea)
                    segs, ws, sbs = segments[lines], widths[lines], seg_boxes[lines]
                    for rank, (dx, dy, side) in enumerate(self.NAME_SPOTS):
                        x, y = fx + dx * unit + side * half, fy + dy * unit
                        rect = (x + ex0, y + ey0, x + ex1, y + ey1)
                        clash = overlap(rect, local)
                        if rect[0] < 0 or rect[1] < 0 or rect[2] > W or rect[3] > H:
                            clash += (rect[2] - rect[0]) * (rect[3] - rect[1])
                        # the ink of lines under the name against the distance from the best
                        # spot: half a hex aside is worth a road crossing the name
                        cover = line_cover(rect, segs, ws, sbs) if clash == 0 else 0.0
                        cost = (clash, cover + math.hypot(dx, dy - 0.25) * (0.15 * unit) ** 2, rank)
                        if best is None or cost < best[0]:
                            best = (cost, hex, (dx, dy, side), shrink, rect)
                        if clash == 0 and cover == 0:
                            free = True   # the nearest spot that covers nothing
                            break
                    if free:
                        break
                if best[0][0] == 0:
                    break   # a smaller name only to hide no symbol, never only to dodge a line
            _, hex, (dx, dy, side), shrink, frame_rect = best
            placed_bins.add(len(placed), frame_rect)
            placed.append(frame_rect)
            # the chosen spot at this dpi
            size = self.px(scale) * shrink
            hw = max(1, round(self.px(style.get("halo_width", 0.022)) * shrink))
            x0, _, x1, _ = text_box(0, 0, place.name, size, bold, family, colour, "mm", hw, halo)
            cx, cy = self.centres[hex]
            at = (cx + self.px(dx) + side * (x1 - x0) / 2, cy + self.px(dy))
            rect = text_box(at[0], at[1], place.name, size, bold, family, colour, "mm", hw, halo)
            key = place.name if place.name not in self.place_boxes else f"{place.name} {self.m.format(place.hex)}"
            self.place_boxes[key] = rect
            self.place_list.append((at, place.name, size, bold, family, colour, hw, halo, rect))

    def _framed_id(self, h: Hex, k: float, shift: tuple | None = None) -> tuple:
        """The box of ``h``'s id (and its knock-out margin) as printed at ``k`` times this size,
        moved by ``shift`` (fractions of the hex size; by default where :meth:`hex_ids` put it)."""
        size, bold, family = self.id_font
        dy, pad = self._id_offset, max(1, round(self.px(0.012) * k))
        sx, sy = shift if shift is not None else self._id_shift.get(h, (0.0, 0.0))
        cx, cy = self.centres[h]
        x, y = (cx + sx * self.size) * k, (cy + dy + sy * self.size) * k
        x0, y0, x1, y1 = _extent(self._id_text.get(h) or self.grid.format(h), size * k, bold, family, self.id_anchor)
        return (x + x0 - pad - 1, y + y0 - pad - 1, x + x1 + pad + 1, y + y1 + pad + 1)

    #: Where an id a bridge would cover goes instead (fractions of the hex size; x away from
    #: the bridge first): beside it along the top of the hex, else a little lower.
    ID_MOVES = ((0.1, 0.0), (0.13, 0.03), (0.16, 0.06), (0.0, 0.08), (0.0, 0.12), (0.08, 0.1), (0.0, 0.16))

    #: Where an id water runs through goes instead: further into the hex (away from the
    #: river, lake side or shore along the hexside it sits by), then a little aside as well.
    ID_DRY_MOVES = tuple((0.0, n / 50) for n in range(1, 9)) + ((0.06, 0.08), (-0.06, 0.08), (0.1, 0.1), (-0.1, 0.1))

    def _ids_moved(self) -> dict:
        """Hexes whose id would cover a bridge deck or water (a river or lake side along the
        hexside the id sits by, a lake's shore line), with where the id goes instead: its
        knock-out box would cut a notch in the water or the bridge. A bridge sits where its
        road crosses the river, and a road crossing the top side of a hex on a flat-topped
        grid crosses it right at the id; a river along that side runs through the id's box.
        Weighed in the names' frame (the same moves at every dpi)."""
        k = self.NAME_FRAME / self.size
        F = self.NAME_FRAME
        decks = [shapely.Polygon(np.asarray(d, dtype=float) * k) for d in self.__dict__.get("bridge_decks", ())]
        water = [shapely.transform(line, lambda c: c * k).buffer(w / 2 * F)
                 for line, w in zip(self.water_lines, self.water_widths)]
        water += [shapely.transform(b, lambda c: c * k) for b in self.__dict__.get("lake_bodies", ())]
        water += [shapely.LineString(np.asarray(pts, dtype=float) * k).buffer(max(0.5, 0.009 * F))
                  for pts, _ in self.shores if len(pts) > 1]
        if not decks and not water:
            return {}
        deck_tree, water_tree = shapely.STRtree(decks), shapely.STRtree(water)
        inset = 0.02 * F   # the id stays clear of the hex's own grid lines
        # an id printed small sits up to 0.04 hex off where the frame measures it (see places)
        margin = 0.03 * F
        inward = -1.0 if self.id_anchor == "mb" else 1.0

        def clash(box) -> tuple[bool, bool]:
            on_deck = bool(len(deck_tree.query(shapely.box(*box), predicate="intersects")))
            wet = shapely.box(box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)
            return on_deck, bool(len(water_tree.query(wet, predicate="intersects")))

        # only hexes within a hex of a deck or of water can have either under their id
        hexes = self.hexes
        at = np.asarray([self.centres[h] for h in hexes], dtype=float).reshape(-1, 2) * k
        cells = shapely.box(at[:, 0] - F, at[:, 1] - F, at[:, 0] + F, at[:, 1] + F)
        near = np.zeros(len(hexes), dtype=bool)
        for tree in (deck_tree, water_tree):
            if len(tree.geometries):
                near[np.unique(tree.query(cells, predicate="intersects")[0])] = True
        moves: dict = {}
        for n in np.flatnonzero(near):
            h = hexes[n]
            on_deck, wet = clash(self._framed_id(h, k, (0.0, 0.0)))
            if not (on_deck or wet):
                continue
            cell = shapely.Polygon(np.asarray(self.layout.corners(h), dtype=float) * k).buffer(-inset)
            if on_deck:   # aside, away from the bridge, first
                deck = decks[int(deck_tree.query(shapely.box(*self._framed_id(h, k, (0.0, 0.0))), predicate="intersects")[0])]
                away = 1.0 if self.centres[h][0] * k >= deck.centroid.x else -1.0
                order = [(sign * mx, my) for mx, my in self.ID_MOVES for sign in (away, -away)] + list(self.ID_DRY_MOVES)
            else:
                order = list(self.ID_DRY_MOVES) + [(sign * mx, my) for mx, my in self.ID_MOVES for sign in (1.0, -1.0)]
            for mx, my in order:
                box = self._framed_id(h, k, (mx, my * inward))
                if cell.contains(shapely.box(*box)) and not any(clash(box)):
                    moves[h] = (mx, my * inward)
                    break
            else:
                if on_deck:   # no spot clear of both: at least off the bridge
                    for mx, my in order:
                        box = self._framed_id(h, k, (mx, my * inward))
                        if cell.contains(shapely.box(*box)) and not clash(box)[0]:
                            moves[h] = (mx, my * inward)
                            break
        return moves

    def _name_obstacles(self, k: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
        """The drawn roads, railways, rivers and lake sides as segments (x0, y0, x1, y1 rows)
        and their widths, at ``k`` times this size: what a name should not lie along."""
        parts, widths = [], []
        lines = [(np.asarray(pts, dtype=float).reshape(-1, 2),
                  self.px(style.width) + (self.px(0.022) if style.casing is not None else 0.0))
                 for style, pts in self.line_paths]
        lines += [(np.asarray(line.coords, dtype=float).reshape(-1, 2), self.px(0.05)) for line in self.water_lines]
        for p, w in lines:
            p = p * k
            parts.append(np.hstack([p[:-1], p[1:]]))
            widths.append(np.full(len(p) - 1, w * k))
        if not parts:
            return np.zeros((0, 4)), np.zeros(0)
        return np.concatenate(parts), np.concatenate(widths)

    def _labelled_places(self) -> list[list]:
        """The places to name, one run per name and group of adjacent hexes (a town drawn over
        several hexes is named once, as printed maps do), each run ordered from its middle out:
        the label goes on the first of its hexes where it covers nothing. Hexes of a name that
        touch a hex of another place between them belong to one run: a city ringed round its
        own downtown is one city."""
        grid, by_name = self.m.grid, {}
        for place in self.m.places:
            if place.hex in self.centres:
                by_name.setdefault(place.name, []).append(place)
        named = {place.hex: place.name for place in self.m.places}
        runs = []
        for name, places in by_name.items():
            left = list(places)
            while left:
                run, edge = [left.pop(0)], 0
                while edge < len(run):        # grow the run by adjacency, also across other places
                    at = run[edge].hex
                    reach = {at} | {n for n in grid.neighbours(at) if named.get(n, name) != name}
                    near = [p for p in left if any(grid.adjacent(p.hex, r) for r in reach)]
                    run += near
                    left = [p for p in left if p not in near]
                    edge += 1
                mx = sum(self.centres[p.hex][0] for p in run) / len(run)
                my = sum(self.centres[p.hex][1] for p in run) / len(run)
                # in hexes, rounded: two hexes as near the middle tie at every dpi (by float
                # noise Kursk's Kalinovka was named from one at 96 and 122 dpi, another at 150)
                runs.append(sorted(run, key=lambda p: (round(math.hypot(self.centres[p.hex][0] - mx,
                                                                        self.centres[p.hex][1] - my) / self.size, 6),
                                                       run.index(p))))
        return runs

    def _hex_extents(self) -> np.ndarray:
        """Per hex, the box of every pixel its fill, grid lines, symbols and id may touch."""
        lo, hi = self.corner_px.min(axis=1), self.corner_px.max(axis=1)
        reach = self.grid_style[1] + 2
        boxes = np.concatenate([lo - reach, hi + reach], axis=1).astype(float)
        parts = [np.asarray(self._sprite_boxes, dtype=float).reshape(-1, 5)]
        if self.ids:   # (hex number, id box and a margin of 2), made as arrays
            ids = np.asarray([box for _, _, box, _, _ in self.ids], dtype=float).reshape(-1, 4)
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

    def paint(self, image: Image.Image, origin: tuple[int, int]) -> None:
        """Draw the part of the map that falls in ``image``, whose top-left pixel is map
        pixel ``origin`` (whole pixels)."""
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
        canvas.add_many([self.ops[n][0] for n in near], self.op_raw[near], self.op_pads[near])
        canvas.flush()
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
                if knock is not None:
                    paste(ink(knock), (x0 - ox, y0 - oy, x1 - ox, y1 - oy))
                c = ink(colour)
                X, Y = floor(x + 0.5) - ox, floor(y + 0.5) - oy   # snap()
                for mask, gx, gy, w, h in label_layout(label, size, bold, family, anchor):
                    paste(c, (X + gx, Y + gy, X + gx + w, Y + gy + h), mask)
        for at, name, size, bold, family, colour, hw, halo, rect in self.place_list:
            if meets(rect, box):
                paste_text(image, origin, at[0], at[1], name, size, bold, family, colour, "mm", hw, halo)

    def _grid_plan(self) -> None:
        """Whole-pixel corners of each hex, its grid polylines and its symbol sprites."""
        colour = rgb(self.theme.get("grid", "colour", "#4a4a44"))
        width = max(1, round(self.px(self.theme.get("grid", "width", 0.012))))
        self.grid_style = (colour, width)
        grid = self.grid
        # each hexside once: four sides per hex as one polyline, the other two only on the
        # map's edge (inside, the neighbour draws them)
        if grid.flat:
            chain, extra = (5, 0, 1, 2, 3), ((3, "SE"), (4, "S"))
        else:
            chain, extra = (3, 4, 5, 0, 1), ((1, "E"), (2, "SE"))
        # corners as offsets from the centre, computed once (Layout.corners per hex is slow);
        # one compact array for every hex (a monster map has tens of thousands)
        cx, cy = self.layout.center(self.hexes[0])
        unit = np.asarray([(x - cx, y - cy) for x, y in self.layout.corners(self.hexes[0])])
        # the centres are in the order of self.hexes (see __init__)
        centres = np.asarray(list(self.centres.values()), dtype=float).reshape(-1, 1, 2)
        self.corner_px = np.floor(centres + unit[None] + 0.5).astype(np.int32)
        self.grid_chain = list(chain)
        self.grid_extra: dict[int, list[tuple[int, int]]] = {}
        cols = [h.col for h in self.hexes]
        rows = [h.row for h in self.hexes]
        c0, c1, r0, r1 = min(cols), max(cols), min(rows), max(rows)
        on_grid = self.centres   # every hex of the grid
        for n, h in enumerate(self.hexes):
            # only a hex near the grid's border can miss a neighbour (short columns included)
            if not (c0 < h.col < c1 and r0 + 1 < h.row < r1 - 1):
                missing = [(i, (i + 1) % 6) for i, direction in extra if grid.neighbour(h, direction) not in on_grid]
                if missing:
                    self.grid_extra[n] = missing
        inks: dict = {}
        self.fill_inks = [inks[f] if f in inks else inks.setdefault(f, ink(f)) for f in map(self.fills.__getitem__, self.hexes)]
        flat = grid.flat
        self.sprites: dict[int, list] = {}
        self._sprite_boxes: list[tuple] = []   # (hex number, box) of each sprite, for _hex_extents
        trimmed: dict[tuple, tuple] = {}   # each sprite cut to its ink: pasting clear pixels is wasted work
        cells, centres, boxes, sprites = self.m.hexes, self.centres, self._sprite_boxes, self.sprites
        for n, h in enumerate(self.hexes):
            cell = cells.get(h)
            if cell is None:
                continue
            variant = (h.col * 7 + h.row * 13) % VARIANTS
            for code in (cell.terrain, *cell.features):
                cut = trimmed.get((code, variant))
                if cut is None:
                    cut = trimmed[(code, variant)] = _trimmed_sprite(self.style_of(code), self.size, flat, variant,
                                                                     self.symbol_shift)
                if cut[0] is not None:
                    cx, cy = centres[h]
                    half = cut[3]
                    x, y = round(cx - half) + cut[1], round(cy - half) + cut[2]
                    box = (x, y, x + cut[4], y + cut[5])
                    sprites.setdefault(n, []).append((cut[0], box))   # pillow's core: pasted as is
                    boxes.append((n, *box))

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


@lru_cache(maxsize=512)
def _trimmed_sprite(style: TerrainStyle, size: float, flat: bool, variant: int, shift: float) -> tuple:
    """The symbol :func:`sprite` makes, cut to its ink (pasting clear pixels is wasted work) and
    premultiplied (pillow pastes it through its alpha twice as fast, pixels within one level of
    255 of the straight alpha paste), as pillow's core: ``(core, left, top, half the sprite's
    side, width, height)``, or Nones for a style without a symbol. Made once per symbol and size."""
    spr = sprite(style, size, flat, variant, shift)
    box = spr.getchannel("A").getbbox() if spr is not None else None
    if not box:
        return (None,) * 6
    return spr.crop(box).convert("RGBa").im, box[0], box[1], spr.width / 2, box[2] - box[0], box[3] - box[1]


class _Boxes:
    """Boxes (N x 4: left, top, right, bottom) found by the windows they meet: sorted by their
    top edge, a window looks only at the band of boxes that can reach it."""

    def __init__(self, boxes: np.ndarray) -> None:
        self.boxes = boxes
        self.order = np.argsort(boxes[:, 1], kind="stable")
        self.tops = boxes[self.order, 1]
        self.tallest = float((boxes[:, 3] - boxes[:, 1]).max()) if len(boxes) else 0.0

    def within(self, box) -> list[int]:
        """Numbers of the boxes that overlap ``box``, in order (a window draws only what
        reaches into it)."""
        lo = np.searchsorted(self.tops, box[1] - self.tallest, side="left")
        hi = np.searchsorted(self.tops, box[3], side="left")
        near = self.order[lo:hi]
        b = self.boxes[near]
        keep = (b[:, 0] < box[2]) & (box[0] < b[:, 2]) & (b[:, 1] < box[3]) & (box[1] < b[:, 3])
        return np.sort(near[keep]).tolist()


def draw_map(image: Image.Image, game_map: Map, layout: Layout, theme: Theme, game: Game | None) -> dict:
    """Paint every map layer of ``game_map`` onto ``image`` (hexes placed by ``layout``).

    Returns where the text went: ``{"hex_ids": {hex: box}, "places": {name: box}}``.
    """
    scene = MapScene(game_map, layout, theme, game, image.size)
    scene.paint(image, (0, 0))
    return {"hex_ids": scene.id_boxes, "places": scene.place_boxes}


@lru_cache(maxsize=65536)
def _extent(text: str, size: float, bold: bool, family: str, anchor: str, stroke: int = 0) -> tuple:
    """The box of ``text`` round its ``anchor`` in a font of ``size`` (measured, not drawn:
    names and ids are weighed in the placing frame at a size never printed)."""
    return font(size, bold=bold, family=family).getbbox(text, anchor=anchor, stroke_width=stroke)


@lru_cache(maxsize=8)
def _marker_spots(usual: tuple[float, float]) -> np.ndarray:
    """The usual spot, then every spot of :attr:`MapScene.MARKER_GRID`, nearest it first
    (ties in a fixed order)."""
    spots = np.vstack([np.asarray([usual], dtype=float), MapScene.MARKER_GRID])
    order = np.lexsort((spots[:, 1], spots[:, 0], np.round(np.hypot(spots[:, 0] - usual[0], spots[:, 1] - usual[1]), 9)))
    return spots[order]
