"""Roads, tracks and railways drawn as smooth curves through hex centres, and the bridges
where they cross the water."""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import replace

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.ops import unary_union

from ..game import HexsideType, LineType
from ..hexes import Hexside
from ._glyphs import _label_extent
from ._lineplan import plan_lines
from ._mapgeom import LAKE_NARROWS, Boxes, crossing, join_ends
from ._polyline import dashes, walk
from .theme import rgb

#: Points the planned curve (see _lineplan) draws for each step of a road or railway.
_SAMPLES = 10


def _bridge_ops(method):
    """A method whose canvas operations are a bridge's (the recorder's ``kind``): not
    linework a name knocks out."""
    @functools.wraps(method)
    def drawn(self, canvas, *args, **kwargs):
        kind = getattr(canvas, "kind", None)
        canvas.kind = "bridge"
        try:
            return method(self, canvas, *args, **kwargs)
        finally:
            canvas.kind = kind
    return drawn


class LineLayer:
    """The line and bridge layers of :class:`~._mapdraw.MapScene` (a mixin)."""

    def lines(self, canvas) -> None:
        """Bridges, then tracks, roads and railways as smooth curves through hex centres."""
        water_width: dict[Hexside, float] = {}
        for side, feats in self.m.hexsides.items():
            widths = [self._hexside_style(f.code) for f in feats]
            widths = [LAKE_NARROWS if s.key == "lake" else s.width for s in widths if s.water]   # (lake_body)
            if widths:
                water_width[side] = max(widths)
        styled = []
        for line in self.m.lines:
            kind = self.m.line_types.get(line.code)
            kind = kind or LineType(code=line.code, name=line.code)
            styled.append((self.theme.line_style(kind), kind, line))
        order = {"watercourse": -1, "track": 0, "secondary": 1, "road": 2, "rail": 3}
        styled.sort(key=lambda item: order.get(item[0].key, 1))
        styled = [item for item in styled if len(item[2].hexes) > 1]
        # where each runs (see _lineplan): lines that share steps drawn beside each other, ends
        # joined or kept off rivers and ids, sharp turns rounded; a first or last step another
        # line of its kind draws is left to it
        drawn, marks, hexes = plan_lines([(style, line.hexes) for style, _, line in styled], self.centres, self.grid.flat,
                                         self.layout.radius, self.size, self._id_keepout(), _SAMPLES)
        styled = [(style, kind, replace(line, hexes=tuple(hs))) for (style, kind, line), hs in zip(styled, hexes)]
        paths = [(style, pts, line) for (style, _, line), pts in zip(styled, drawn)]
        # bridges under the lines that cross the water, where the drawn line crosses the
        # drawn river (a bridge given as a hexside feature is drawn here too)
        bridged = {side for side, feats in self.m.hexsides.items()
                   for f in feats if (self.m.hexside_types.get(f.code) or HexsideType(f.code, f.code)).bridge}
        bridging = []   # (hexside, its segment, the drawn line near it, the hexes either side, railway?)
        for (style, pts, line), (_, kind, _), mark in zip(paths, styled, marks):
            drawn = None
            for i, (a, b) in enumerate(zip(line.hexes, line.hexes[1:])):
                side = Hexside.of(a, b)
                if side in water_width and (kind.bridges or side in bridged):
                    drawn = np.asarray(pts, dtype=float) if drawn is None else drawn
                    # the curve from the hex before a to the hex after b: where it crosses
                    # this side, without the rest
                    near = LineString(drawn[mark[max(0, i - 1)]:mark[min(len(mark) - 1, i + 2)] + 1])
                    bridging.append((side, self._segment(side), near, a, b, style.key == "rail"))
        water_near = self._water_near([segment for _, segment, *_ in bridging])
        crossings = []   # (hexside, where the drawn line crosses the water, its direction there, railway?)
        for (side, segment, near, a, b, rail), water in zip(bridging, water_near):
            at, direction = crossing(near, segment, self.centres[a], self.centres[b], water)
            crossings.append((side, at, direction, rail))
        self.line_plan = [(style, line.hexes) for style, _, line in paths]   # for the tests
        paths = [(style, pts) for style, pts in join_ends(paths, self.centres)]
        # and where a road or railway crosses a river drawn as a line
        water_width = dict(water_width)
        crossings += self._watercourse_crossings(paths, [kind for _, kind, _ in styled],
                                                 water_width)
        self._bridges(canvas, crossings, water_width)
        # the same points as arrays, made once for the bridges, the canvas, the markers and the names
        self.line_arrays = [np.asarray(pts, dtype=float).reshape(-1, 2) for _, pts in paths]
        self._water_hex_bridges(canvas, paths, [kind for _, kind, _ in styled])
        self.line_paths = paths   # (style, drawn points) of each line, for the tests
        for (style, _), drawn in zip(paths, self.line_arrays):   # casings first so crossing roads merge cleanly
            if style.casing is not None and style.dash is None:
                canvas.line(drawn, style.casing, self.px(style.width) + max(2.0, self.px(0.022)))
        self._tie_plan: list = []
        for (style, pts), drawn in zip(paths, self.line_arrays):
            w = max(1.0, self.px(style.width))
            if style.dash is not None:
                for dash in dashes(pts, self.px(style.dash[0]), self.px(style.dash[1])):
                    canvas.line(dash, style.colour, w)
            else:
                canvas.line(drawn, style.colour, w)
            if style.ties:   # drawn once the ids are placed (see ties)
                self._tie_plan.append((style, pts, w))

    def ties(self, canvas) -> None:
        """The railways' ties, but those that would touch an id (its knock-out box hides the
        line there; a tie just outside it reads as a mark on the id): after the ids are
        placed, with the lines' kind of canvas operation (a name knocks them out too)."""
        self.line_ties: list = []   # (style, the ties drawn) per railway, for the tests
        boxes = np.asarray(list(self.id_boxes.values()), dtype=float).reshape(-1, 4)
        index = Boxes(boxes) if len(boxes) else None
        for style, pts, w in self._tie_plan:
            half = self.px(style.ties) / 2
            steps = walk(pts, self.px(style.tie_spacing), self.px(style.tie_spacing) / 2)
            x, y, ux, uy = np.fromiter(itertools.chain.from_iterable(steps), dtype=float).reshape(-1, 4).T
            ties = np.column_stack([x + uy * half, y - ux * half, x - uy * half, y + ux * half]).reshape(-1, 2, 2)
            width = max(1.0, w * 0.75)
            if index is not None and len(ties):
                t = ties.reshape(-1, 4)   # x0, y0, x1, y1
                room = width / 2 + self.px(0.02)
                lo = np.minimum(t[:, :2], t[:, 2:]) - room
                hi = np.maximum(t[:, :2], t[:, 2:]) + room
                near = boxes[index.within((lo[:, 0].min(), lo[:, 1].min(), hi[:, 0].max(), hi[:, 1].max()))]
                touch = ((lo[:, None, 0] < near[None, :, 2]) & (hi[:, None, 0] > near[None, :, 0])
                         & (lo[:, None, 1] < near[None, :, 3]) & (hi[:, None, 1] > near[None, :, 1])).any(axis=1)
                ties = ties[~touch]
            self.line_ties.append((style, ties))
            canvas.segments(ties, style.colour, width)

    def _watercourse_crossings(self, paths, kinds, water_width: dict) -> list[tuple]:
        """Where the drawn roads and railways (that carry bridges) cross the drawn rivers of
        line type, as :meth:`_bridges` takes them: the place stands for the hexside (the river
        and the hex of the crossing: a road and a railway crossing there side by side share a
        bridge), ``water_width`` learns its width. Not where a line ends on the river, nor
        where it passes the river's own end."""
        rivers = [(n, LineString(pts), style) for n, (style, pts) in enumerate(paths)
                  if style.key == "watercourse" and len(pts) > 1]
        out: list[tuple] = []
        if not rivers:
            return out
        tree = shapely.STRtree([line for _, line, _ in rivers])
        end_room = self.px(0.15)
        for (style, pts), kind in zip(paths, kinds):
            if style.key == "watercourse" or not kind.bridges or len(pts) < 2:
                continue
            line = LineString(pts)
            ends = shapely.MultiPoint([pts[0], pts[-1]])
            for i in tree.query(line, predicate="intersects"):
                n, river, river_style = rivers[int(i)]
                hit = line.intersection(river)
                for p in getattr(hit, "geoms", [hit]):
                    if p.geom_type != "Point" or p.distance(ends) < end_room or p.distance(river.boundary) < end_room:
                        continue
                    d = line.project(p)
                    step = min(line.length, 1.0) * 0.5 + self.px(0.02)
                    p0, p1 = line.interpolate(max(0.0, d - step)), line.interpolate(min(line.length, d + step))
                    key = ("watercourse", n, self.layout.hex_at(p.x, p.y))
                    water_width[key] = river_style.width
                    out.append((key, (p.x, p.y), (p1.x - p0.x, p1.y - p0.y), style.key == "rail"))
        return out

    @_bridge_ops
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

    @_bridge_ops
    def _water_hex_bridges(self, canvas, paths, kinds) -> None:
        """A bridge from bank to bank where a road or railway (that carries bridges) crosses
        water drawn in hexes (Mischurin Rog's major river, three hexes wide): the deck follows
        the drawn line across the water and a little onto each bank, wings along both sides."""
        if not self.bodies:
            return
        bodies = self._body_polygons()
        tree = shapely.STRtree(bodies)
        # wider than a hexside's bridge: the deck shows on both sides of the road all the way
        reach, half_w = self.px(0.07), self.px(0.08)
        pieces = []   # the stretches of the lines over the water
        for (style, pts), kind, drawn in zip(paths, kinds, self.line_arrays):
            if style.key == "watercourse" or not kind.bridges or len(pts) < 2:
                continue
            line = LineString(drawn)   # from the array: the same points, made faster
            near = tree.query(line, predicate="intersects")
            if not len(near):
                continue
            water = bodies[int(near[0])] if len(near) == 1 else unary_union([bodies[int(i)] for i in near])
            wet = line.intersection(water)
            pieces += [piece for piece in getattr(wet, "geoms", [wet])
                       if piece.geom_type == "LineString" and piece.length >= self.px(0.1)]
        if not pieces:
            return
        # each span a little onto each bank, straight on (the curve's dense points thinned: the
        # deck and wings are buffers and offsets of it); each kind of shape of every span made
        # in one call
        spans = []
        for piece in shapely.simplify(np.asarray(pieces + [None], dtype=object)[:-1], self.px(0.004)):
            p = shapely.get_coordinates(piece)
            ends = []
            for a, b in ((p[0], p[1]), (p[-1], p[-2])):
                u = a - b
                ends.append(a + u / (np.hypot(*u) or 1.0) * reach)
            spans.append(np.vstack([ends[0], p, ends[1]]))
        lines = np.asarray([LineString(span) for span in spans] + [None], dtype=object)[:-1]
        decks = shapely.buffer(lines, half_w, quad_segs=4, cap_style="flat", join_style="round")
        # the deck as ids, markers and names keep off it: its wings included (in hexes, the same at every dpi)
        wholes = shapely.buffer(lines, half_w + self.px(0.02), quad_segs=4, cap_style="flat", join_style="round")
        # (16 segments a quarter circle: LineString.offset_curve's, whose wings these are)
        wings = shapely.offset_curve(np.repeat(lines, 2), np.tile([half_w, -half_w], len(lines)), quad_segs=16)
        for n, (span_pts, deck, whole) in enumerate(zip(spans, decks, wholes)):
            deck = max(getattr(deck, "geoms", [deck]), key=lambda g: g.area)
            canvas.polygon(_points(deck.exterior)[:-1], fill=self.theme.paper)
            whole = max(getattr(whole, "geoms", [whole]), key=lambda g: g.area)
            self.bridge_decks.append(_points(whole.exterior)[:-1])
            for wing in wings[2 * n:2 * n + 2]:
                self._water_hex_wing(canvas, wing, span_pts)

    def _water_hex_wing(self, canvas, wing, span_pts: np.ndarray) -> None:
        """One wing of a bridge along the span ``span_pts``: ``wing``, the span's offset to one
        side, its ends flared outwards as :meth:`_bridge` flares them."""
        if wing.is_empty or wing.geom_type != "LineString":
            return
        pts = shapely.get_coordinates(wing)
        start, end = span_pts[0], span_pts[-1]
        if np.hypot(*(pts[0] - start)) > np.hypot(*(pts[0] - end)):
            pts = pts[::-1]   # offset_curve may run the other way
        flare = self.px(0.04)
        ends = []
        for p, q, along in ((pts[0], start, span_pts[1] - start), (pts[-1], end, span_pts[-2] - end)):
            out = (p - q) / (np.hypot(*(p - q)) or 1.0)
            back = -along / (np.hypot(*along) or 1.0)
            ends.append(p + (back + out) * flare)
        wing_pts = _points(np.vstack([ends[0], pts, ends[1]]))
        canvas.line(wing_pts, self.theme.ink, max(1.0, self.px(0.016)))
        self.bridge_wings.append(wing_pts)

    @_bridge_ops
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
        self.bridge_decks.append(deck_pts)
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
            self.bridge_wings.append(wing_pts)

    def _water_near(self, segments: list) -> list[list]:
        """Per hexside of ``segments``, the drawn rivers and lake sides near it, cut to its
        neighbourhood (all in a few calls: a map has dozens of bridges)."""
        if not segments or not self.water_lines:
            return [[] for _ in segments]
        zones = shapely.buffer(shapely.linestrings(np.asarray(segments, dtype=float).reshape(-1, 2, 2)), self.size * 0.2)
        lines = np.asarray(self.water_lines + [None], dtype=object)[:-1]
        zone, line = shapely.STRtree(lines).query(zones, predicate="intersects")
        order = np.lexsort((line, zone))   # each zone's lines in their order
        zone, line = zone[order], line[order]
        cut = shapely.intersection(lines[line], zones[zone])
        out: list[list] = [[] for _ in segments]
        for n, piece in zip(zone.tolist(), cut):
            out[n].append(piece)
        return out

    def _id_keepout(self):
        """Hex -> the box its id takes where nothing moves it (None without ids): what a line's
        points keep clear of. Measured in the names' frame and scaled, so every dpi plans the
        same lines."""
        where = self.m.hex_ids
        if where == "none":
            return None
        style = self.theme.data.get("hex_id", {})
        F = self.NAME_FRAME
        font = (F * style.get("size", 0.125), style.get("bold", False), style.get("family", "condensed"))
        inset = style.get("inset", 0.045)
        half = 0.5 - inset if self.grid.flat else self.layout.radius / self.size * 0.66
        anchor, dy = {"top": ("mt", -half), "bottom": ("mb", half), "centre": ("mm", 0.0)}[where]
        k = self.size / F
        pad = 0.012 * self.size
        fmt = self.grid.format

        def box(h):
            x, y = self.centres[h]
            x0, y0, x1, y1 = _label_extent(fmt(h), *font, anchor)
            return (x + x0 * k - pad, y + dy * self.size + y0 * k - pad, x + x1 * k + pad, y + dy * self.size + y1 * k + pad)
        return box


def _points(coords) -> list[tuple[float, float]]:
    """The points of a shapely geometry, or of an n x 2 array, as a list of (x, y) tuples
    (made in one call, not point by point through shapely's coordinate sequences)."""
    if not isinstance(coords, np.ndarray):
        coords = shapely.get_coordinates(coords)
    return list(zip(coords[:, 0].tolist(), coords[:, 1].tolist()))
