"""Water on the map: water hexes merged into bodies with a rounded shore, and the hexside
features drawn along chains of hexsides (rivers, lake sides, slopes, walls)."""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.ops import linemerge, unary_union

from ..game import HexsideType, TerrainType
from ..hexes import Hex, Hexside
from ._mapgeom import Kept, chains, lake_body
from ._polyline import chaikin, walk
from .theme import TerrainStyle, rgb

#: Water bodies shaped so far, by the relative places of their water and shore hexes and the
#: hex size (see MapScene.water): pure geometry, shared by every map drawn at that size.
_WATER_SHAPES = Kept(512)


class WaterLayer:
    """The water and hexside layers of :class:`~._mapdraw.MapScene` (a mixin: it reads the
    scene's centres, layout and styles)."""

    def water(self) -> None:
        """Adjacent water hexes merged into one body with a rounded shore (shore line comes later)."""
        self.shores = []   # (points of a shore line (n x 2 array), colour)
        self.bodies: list[tuple] = []   # (colour, [rings of whole pixels (n x 2 arrays)], box)
        self.water_colour: dict[Hex, tuple] = {}
        self.banks: set[int] = set()   # the shores (by number) that are banks on the hexsides
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
            key = (water, land, scale, style.full)
            shape = shapes.get(key)
            if shape is None:
                shape = shapes.keep(key, self._water_shape(water, land, style.full))
            offset = np.asarray((x0, y0))
            for rings, (bx0, by0, bx1, by1), shore in shape:
                moved = [np.floor(ring + offset + 0.5).astype(np.int64) for ring in rings]   # snap()
                self.bodies.append((style.water, moved, (bx0 + x0, by0 + y0, bx1 + x0, by1 + y0)))
                # the anti-aliased shore line hides the jagged edge of the fill
                for part in shore:
                    if style.full:   # a bank on the hexsides: wide enough to show over the grid
                        self.banks.add(len(self.shores))
                    self.shores.append((part + offset, style.shore or style.ink))

    def _body_polygons(self) -> np.ndarray:
        """The water bodies as shapely polygons (an array in the order of :attr:`bodies`): those
        without islands, most, made in one call."""
        out = np.empty(len(self.bodies), dtype=object)
        plain = [n for n, (_, rings, _) in enumerate(self.bodies) if len(rings) == 1]
        if plain:
            shells = [self.bodies[n][1][0] for n in plain]
            out[plain] = shapely.polygons(shapely.linearrings(np.concatenate(shells).astype(float),
                                                              indices=np.repeat(np.arange(len(shells)),
                                                                                [len(s) for s in shells])))
        for n, (_, rings, _) in enumerate(self.bodies):
            if len(rings) > 1:
                out[n] = shapely.Polygon(rings[0], rings[1:])
        return out

    def _unit_corners(self) -> list[tuple[float, float]]:
        """A hex's corners as offsets from its centre, as :meth:`Layout.corners` adds them."""
        R = self.layout.radius
        start = 180 if self.grid.flat else 270
        return [(R * math.cos(math.radians(start + 60 * i)), R * math.sin(math.radians(start + 60 * i)))
                for i in range(6)]

    def _water_shape(self, water, land, full: bool = False) -> list[tuple]:
        """A water body of hexes centred at ``water`` with shore hexes at ``land`` (centre
        offsets): per polygon its rings, bounds and shore lines (arrays, same offsets).
        ``full``: the water fills its hexes, its shore the hexsides it shares with the land
        (a major river as printed maps draw a river band)."""
        def union(centres):
            polys = self._hex_polygons(centres)
            return polys[0] if len(polys) == 1 else unary_union(polys)

        body = union(water)
        coast = None
        if full and land:
            # the sides' ends snapped so the sides join into one bank per shore
            banks = shapely.line_merge(shapely.set_precision(self._shore_sides(water, land), 1e-6))
            shore = [np.asarray(part.coords) for part in getattr(banks, "geoms", [banks])
                     if part.geom_type == "LineString" and len(part.coords) > 1]
            return [(rings, poly.bounds, [s for s in shore if poly.buffer(1.0).contains(shapely.points(s)).all()])
                    for poly in getattr(body, "geoms", [body]) if poly.geom_type == "Polygon" and not poly.is_empty
                    for rings in [[np.asarray(ring.coords) for ring in (poly.exterior, *poly.interiors)]]]
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
        w, bank = max(1.0, self.px(0.018)), max(2.0, self.px(0.03))
        for n, (points, colour) in enumerate(self.shores):
            canvas.line(points, colour, bank if n in self.banks else w)

    def _hex_polygons(self, centres) -> np.ndarray:
        """Shapely polygons of hexes centred at ``centres``: the corners of :meth:`Layout.corners`,
        made in one call."""
        unit = np.asarray(self._unit_corners())
        return shapely.polygons(np.asarray(centres, dtype=float).reshape(-1, 1, 2) + unit[None])

    def hexsides(self, canvas) -> None:
        """Rivers, lake sides, slopes and walls along chains of hexsides."""
        self.water_lines: list[LineString] = []   # as drawn (smoothed): where bridges go
        self.water_widths: list[float] = []   # their drawn widths, fractions of the hex size
        self.lake_bodies: list = []   # the lakes on the hexsides, a body per run (see _lakes)
        by_code: dict[str, list[Hexside]] = defaultdict(list)
        for side, feats in self.m.hexsides.items():
            for f in feats:
                by_code[f.code].append(side)
        # a ford is the river it lies on running on unbroken, the crossing marked across it
        fords = {side: self._ford_river(side) for code in by_code if self._hexside_style(code).key == "ford"
                 for side in by_code[code]}
        for side, river in fords.items():
            by_code.setdefault(river, []).append(side)
        # draw the widest (lake sides, major rivers) first so minor ones join on top
        kinds = sorted(by_code, key=lambda c: (-self._hexside_style(c).width, c))
        for code in kinds:
            style = self._hexside_style(code)
            kind = self.m.hexside_types.get(code)
            if style.key == "ford":
                continue   # its river drawn through it, its stones over all the rivers (below)
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
            if style.key == "lake":
                self._lakes(canvas, by_code)
                continue
            for chain in chains(segments):
                w = max(1.0, self.px(style.width))
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
        for side, river in sorted(fords.items()):
            ford = self._hexside_style(next(f.code for f in self.m.hexsides[side]
                                            if self._hexside_style(f.code).key == "ford"))
            (ax, ay), (bx, by) = self.centres[side.a], self.centres[side.b]
            water = self._hexside_style(river)
            for stone in ford_stones(((ax + bx) / 2, (ay + by) / 2), (bx - ax, by - ay), water.drawn_width(self.size),
                                     max(1.0, self.px(water.width)), self.size):
                canvas.polygon(stone[0], fill=ford.colour, outline=None if stone[1] else ford.edge or ford.colour,
                               width=max(1.0, self.px(0.014)))

    def _ford_river(self, side: Hexside) -> str:
        """The river a ford lies on: the widest river along a hexside meeting it at a corner
        (``river``, the theme's, where none does)."""
        near = []
        for c in set(self.grid.neighbours(side.a)) & set(self.grid.neighbours(side.b)):
            for other in (Hexside.of(side.a, c), Hexside.of(side.b, c)):
                near += [f.code for f in self.m.hexsides.get(other, ()) if self._hexside_style(f.code).key == "river"]
        if not near:
            return "river"
        return min(near, key=lambda c: (-self._hexside_style(c).width, c))

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

    def _lakes(self, canvas, by_code) -> None:
        """The lakes on the hexsides (every lake kind's, once), with the lakes' own water and thin
        shore line, like the lakes drawn in hexes (a river is a darker line of even width with a
        dark edge): a broad body lying on each run of lake sides, as wide as its style at each
        side's middle (see :func:`lake_body`), a partial lake side a pond; where the lakes of
        two runs meet (an island's shores), one lake with one shore."""
        if self.lake_bodies:
            return   # drawn with the first lake kind
        for code in sorted(by_code):
            style = self._hexside_style(code)
            if style.key != "lake":
                continue
            kind = self.m.hexside_types.get(code)
            # a road or railway crosses on a bridge over the lake's narrows (see _maplines)
            narrows = [tuple(np.mean(self._segment(s), axis=0)) for s in by_code[code] if s in self._line_steps()]
            for chain in chains([self._segment(s) for s in sorted(by_code[code])]):
                w = max(1.0, self.px(style.width))
                self.lake_bodies.append(lake_body(chain, w / 2, kind is not None and kind.width == "minor",
                                                  narrows, self.size))
                self.water_lines.append(LineString(np.asarray(chain, dtype=float)))
                self.water_widths.append(style.width * 1.25)   # the lake's widest, its shore wavering (lake_body)
        lake = self.theme.terrain_style(TerrainType(code="lake", name="Lake"))
        canvas.shape(unary_union(self.lake_bodies), fill=lake.water or rgb("#9fc7e3"), outline=lake.shore or lake.ink,
                     width=max(1.0, self.px(0.018)))

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


#: A ford's stepping stones: how many across the river, and each one's size along the river
#: and across it (of the hex size).
FORD_STONES, STONE_ALONG, STONE_ACROSS = 3, 0.085, 0.06


def ford_stones(mid, across, river: float, core: float, size: float) -> list[tuple[list, bool]]:
    """A ford's stepping stones as polygons: a row of :data:`FORD_STONES` stones across a river
    ``river`` pixels wide (its edges included; ``core``: without them) at ``mid``, heading
    ``across`` it (any length): the outer ones just beyond its banks, those between on the water
    and a third of its core's width (where that is two pixels or more), so its colour runs on
    beside them: crossable here (a pale bar along the river read as a gap in it). ``size``: the
    hex's. Each with whether it lies on the water (drawn without an outline, which would cover
    the river's core)."""
    d = math.hypot(*across) or 1.0
    nx, ny = across[0] / d, across[1] / d
    ux, uy = -ny, nx
    along, wide = STONE_ALONG * size / 2, STONE_ACROSS * size / 2
    gap = (river / 2 + wide * 1.6) / ((FORD_STONES - 1) / 2)   # the outer ones just beyond the banks
    stones = []
    for k in range(FORD_STONES):
        off = (k - (FORD_STONES - 1) / 2) * gap
        w = wide if abs(off) > river / 2 else min(wide, core / 6)
        if w < 1.0:
            continue   # no room on the water beside it: the river's core runs on whole
        cx, cy = mid[0] + nx * off, mid[1] + ny * off
        stones.append(([(cx + ux * along * math.cos(a) + nx * w * math.sin(a),
                         cy + uy * along * math.cos(a) + ny * w * math.sin(a))
                        for a in (math.tau * i / 16 for i in range(16))], abs(off) <= river / 2))
    return stones
