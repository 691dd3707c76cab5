"""Victory stars and supply-source discs, each in the spot of its hex nearest its usual one
that keeps off the lines, water, bridges and the hex id."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry import LineString

from ..hexes import Hex
from ._mapedges import _darker, side_colour
from ._mapsymbols import SIGN_SCALE, sign
from .theme import rgb


class MarkerLayer:
    """The marker layer of :class:`~._mapdraw.MapScene` (a mixin)."""

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
        sup = self.theme.data.get("supply", {})
        rs = self.px(sup.get("size", 0.17)) / 2
        # every marker's hex, usual spot and radius (a fraction of the hex size), in the order
        # they are placed: what each keeps off but the markers placed before it is shaped for
        # all of them at once
        stars = [v for v in self.m.victory if v.hex in self.centres]
        discs = [(src, h) for src in self.m.supply
                 if not (src.kind == "edge" and src.hexes and self._edge_of(src.hexes) is not None)   # an edge band
                 for h in src.hexes if h in self.centres]
        signs = [(h, style, tile) for h, style in self.__dict__.get("sign_hexes", ())
                 for tile in [sign(style, self.size, self.SIGN_SCALE, self.theme.paper)] if tile is not None]
        wanted = ([(v.hex, (-0.28, -0.09), vic.get("size", 0.22) / 2) for v in stars]
                  + [(h, (0.28, -0.09), sup.get("size", 0.17) / 2) for _, h in discs]
                  + [(h, (0.0, 0.24), self.SIGN_SCALE * 0.3) for h, _, _ in signs])
        spots = self._place_markers(wanted)
        for v, (x, y) in zip(stars, spots):
            star = [(x + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
                     y - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
            canvas.polygon(star, fill=fill, outline=_darker(fill, 0.45), width=max(1.0, self.px(0.012)))
            self.marker_boxes.append((x - r, y - r, x + r, y + r))
            if v.points is not None:
                texts.append((str(v.points), x, y + r * 0.08, r * 0.95, vp_ink))
        for (src, h), (x, y) in zip(discs, spots[len(stars):]):
            colour = side_colour(src.side, self.game)
            canvas.ellipse(x, y, rs, fill=colour, outline=rgb(sup.get("outline", "#111111")),
                           width=max(1.0, self.px(0.014)))
            self.marker_boxes.append((x - rs, y - rs, x + rs, y + rs))
            texts.append(("S", x, y, rs * 1.25, self.theme.ink))
        # the small signs of an airfield or fort sharing its hex with a town (see _signs_apart),
        # below the middle of the hex, clear of the roads, the markers and the id
        self.signs: list[tuple] = []   # (RGBA image, its top-left map pixel)
        self.sign_boxes: list[tuple] = []   # where the signs are (names keep off them)
        for (h, style, tile), (x, y) in zip(signs, spots[len(stars) + len(discs):]):
            left, top = round(x - tile.width / 2), round(y - tile.height / 2)
            self.signs.append((tile, (left, top)))
            half = self.px(self.SIGN_SCALE * 0.3)
            self.sign_boxes.append((x - half, y - half, x + half, y + half))
        return texts

    #: The size of a sign against its symbol's when it fills a hex of its own.
    SIGN_SCALE = SIGN_SCALE

    #: Where in its hex a marker may go (fractions of the hex size from the centre): a grid
    #: fine enough to slip between the roads of a junction.
    MARKER_GRID = np.asarray([(dx / 50, dy / 50) for dx in range(-25, 26) for dy in range(-22, 23)], dtype=float)

    #: Spots weighed at a time, nearest the usual spot first.
    MARKER_BATCH = 128

    def _marker_obstacles(self, k: float) -> tuple[np.ndarray, np.ndarray, shapely.STRtree]:
        """What a marker keeps off, in the names' frame, made once per render (a map has
        hundreds of lines and bridges, dozens of markers): the roads, railways and rivers as
        curves with their half widths (a fraction of the hex size), then the lake bodies and
        the bridge decks with their wings as shapes (half width NaN); and a tree over them."""
        if "_obstacles" not in self.__dict__:
            F = self.NAME_FRAME
            drawn, halves = [], []
            for (style, _), line in zip(self.line_paths, self.line_arrays):
                drawn.append(LineString(line * k))
                halves.append(max(style.width, style.ties or 0.0) / 2 + (0.011 if style.casing is not None else 0.0))
            for line, width in zip(self.water_lines, self.water_widths):
                drawn.append(shapely.transform(line, lambda c: c * k))
                halves.append(width / 2)
            for body in self.__dict__.get("lake_bodies", ()):
                drawn.append(shapely.transform(body, lambda c: c * k))
                halves.append(None)
            decks = self.bridge_decks
            square = [d for d in decks if len(d) == 4]   # a bridge over a hexside
            if square:   # all in one call (a map has hundreds)
                drawn += list(shapely.buffer(shapely.polygons(np.asarray(square, dtype=float).reshape(-1, 4, 2) * k),
                                             0.04 * F, join_style="mitre"))
            long = [shapely.Polygon(np.asarray(d, dtype=float) * k).buffer(0.04 * F, join_style="mitre")
                    for d in decks if len(d) != 4]   # across water hexes, along the road
            drawn += long
            halves += [None] * (len(square) + len(long))
            drawn = np.asarray(drawn + [None], dtype=object)[:-1]
            self._obstacles = (drawn, np.asarray([np.nan if h is None else h for h in halves], dtype=float),
                               shapely.STRtree(drawn))
        return self._obstacles

    def _place_markers(self, wanted: list[tuple]) -> list[tuple[float, float]]:
        """Where each marker of ``wanted`` ((hex, usual spot, radius) in turn) goes: see
        :meth:`_marker_spot`. What a marker keeps off in its hex but the markers placed before
        it (the lines, water, bridges and ids round it) and the room it has there are shaped
        for all of them at once, each kind of shape in one call."""
        if not wanted:
            return []
        F = self.NAME_FRAME
        k = F / self.size
        at = np.asarray([self.centres[h] for h, _, _ in wanted], dtype=float) * k
        zones = shapely.box(at[:, 0] - F, at[:, 1] - F, at[:, 0] + F, at[:, 1] + F)
        drawn, halves, tree = self._marker_obstacles(k)
        # the obstacles near each zone, in the order of the tree's numbers
        zone, near = tree.query(zones, predicate="intersects")
        order = np.lexsort((near, zone))
        zone, near = zone[order], near[order]
        shapes = drawn[near]
        lines = np.flatnonzero(~np.isnan(halves[near]))
        if len(lines):
            shapes[lines] = shapely.buffer(shapely.intersection(shapes[lines], zones[zone[lines]]),
                                           halves[near[lines]] * F)
        # ids measured at the frame's size, grown as the names grow them (at a small size the
        # printed id sits up to 0.04 hex lower)
        around = [[self._hex_number(n) for n in (h, *self.grid.neighbours(h)) if n in self.id_boxes]
                  for h, _, _ in wanted]
        ids = self._framed_all(k)[[n for numbers in around for n in numbers]] if self.ids else np.zeros((0, 4))
        id_shapes = shapely.buffer(shapely.box(*ids.T), 0.03 * F, join_style="mitre")
        id_owner = np.repeat(np.arange(len(wanted)), [len(numbers) for numbers in around])
        # the room in each hex (its cell shrunk by the marker's radius and a margin; 16 segments
        # a quarter circle, as a geometry's own buffer makes it)
        cells = shapely.polygons(np.asarray([self.layout.corners(h) for h, _, _ in wanted], dtype=float) * k)
        rooms = shapely.buffer(cells, [-(radius + 0.02) * F for _, _, radius in wanted], quad_segs=16)
        taken: list = []   # (hex, centre, radius) of the markers placed so far
        return [self._marker_spot(h, usual, radius, taken, zones[n],
                                  np.concatenate([shapes[zone == n], id_shapes[id_owner == n]]), rooms[n])
                for n, (h, usual, radius) in enumerate(wanted)]

    def _marker_spot(self, h: Hex, usual: tuple[float, float], radius: float, taken: list, zone, shapes: np.ndarray,
                     room) -> tuple[float, float]:
        """Where the marker of ``radius`` (a fraction of the hex size) goes in ``h``: the spot
        nearest ``usual`` whose disc, with a margin, lies inside the hex (``room``, the cell
        shrunk by the radius) and clear of the drawn roads, railways, rivers, lake sides,
        bridges and ids (``shapes``, those reaching ``zone``: a box a hex across round the
        hex) and the markers placed so far (``taken``, this one added to it; the clearest spot
        if none is clear). Weighed in the names' frame: the same spot at every dpi."""
        F = self.NAME_FRAME
        k = F / self.size
        cx, cy = self.centres[h]
        fx, fy = cx * k, cy * k
        need = (radius + 0.025) * F
        # the markers placed so far whose discs may reach the zone (the rest, most of a map's,
        # would be dropped below anyway: not grown for nothing)
        close = [(xy, rt) for _, xy, rt in taken
                 if abs(xy[0] * k - fx) <= (1 + rt) * F + 1 and abs(xy[1] * k - fy) <= (1 + rt) * F + 1]
        if close:
            at = np.asarray([xy for xy, _ in close], dtype=float)
            rt = np.asarray([rt for _, rt in close], dtype=float)
            shapes = np.concatenate([shapes, shapely.buffer(shapely.points(at[:, 0] * k, at[:, 1] * k), rt * F)])
        shapes = shapes[shapely.intersects(shapes, zone)]
        spots, clearest, best = _marker_spots(usual), (-1.0, None), None
        # most markers stay at their usual spot: it is weighed first against each obstacle on
        # its own (the distance to their union below is the least of these distances); only a
        # spot clear by more than a hair (1e-6 hex: far above the union's rounding) is taken
        # here, any other is left to the search below
        usual_at = shapely.points(fx + spots[0, 0] * F, fy + spots[0, 1] * F)
        if shapely.contains(room, usual_at) and (
                not len(shapes) or float(shapely.distance(usual_at, shapes).min()) >= need + 1e-6 * F):
            best = spots[0]
        obstacles = shapely.union_all(shapes) if len(shapes) and best is None else None
        # nearest the usual spot first, a batch at a time: most markers find room near it
        for start in range(0, len(spots) if best is None else 0, self.MARKER_BATCH):
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


@lru_cache(maxsize=8)
def _marker_spots(usual: tuple[float, float]) -> np.ndarray:
    """The usual spot, then every spot of :attr:`MarkerLayer.MARKER_GRID`, nearest it first
    (ties in a fixed order)."""
    spots = np.vstack([np.asarray([usual], dtype=float), MarkerLayer.MARKER_GRID])
    order = np.lexsort((spots[:, 1], spots[:, 0], np.round(np.hypot(spots[:, 0] - usual[0], spots[:, 1] - usual[1]), 9)))
    return spots[order]
