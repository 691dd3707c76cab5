"""The layers of a map image, drawn in order onto one pillow image.

terrain fills -> water bodies -> terrain symbols -> grid -> hexside features -> bridges, roads
and rail -> map edges -> victory and supply markers -> hex ids -> place names.
Shapely does the geometry (merged water bodies, hexside chains, edge bands, label
placement); pillow does the pixels, vector parts anti-aliased through :class:`Canvas`.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from PIL import Image, ImageDraw
from shapely.geometry import LineString, MultiLineString, Point
from shapely.ops import linemerge, unary_union

from ..game import Game, HexsideType, LineType, Map, TerrainType
from ..hexes import Hex, Hexside, Layout
from ._mapsymbols import VARIANTS, sprite
from ._raster import Canvas, catmull_rom, chaikin, dashes, walk
from .fonts import font
from .theme import TerrainStyle, Theme, rgb

__all__ = ["draw_map", "side_colour", "EDGE_SIDES", "DOMINANT"]

#: The hexside directions that face each page edge, per orientation.
EDGE_SIDES = {
    True: {"north": {"N", "NE", "NW"}, "south": {"S", "SE", "SW"}, "west": {"NW", "SW"}, "east": {"NE", "SE"}},
    False: {"north": {"NE", "NW"}, "south": {"SE", "SW"}, "west": {"W", "NW", "SW"}, "east": {"E", "NE", "SE"}},
}

#: Overlay styles that colour a hex of open ground, not only add a symbol.
DOMINANT = ("woods", "swamp", "town", "city", "mountain")

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


class _MapPainter:
    def __init__(self, image: Image.Image, game_map: Map, layout: Layout, theme: Theme,
                 game: Game | None) -> None:
        self.image = image
        self.m = game_map
        self.layout = layout
        self.theme = theme
        self.game = game
        self.size = layout.size
        self.grid = game_map.grid
        self.hexes = self.grid.hexes()
        self.centres = {h: layout.center(h) for h in self.hexes}
        self.draw = ImageDraw.Draw(image)
        self.factor = 3 if layout.size < 64 else 2
        self.reserved: list = []   # (x0, y0, x1, y1) boxes labels must avoid (hex ids, markers)
        self.id_boxes: dict[Hex, tuple] = {}
        self.place_boxes: dict[str, tuple] = {}

    # -- helpers ---------------------------------------------------------------------------

    def px(self, frac: float) -> float:
        return frac * self.size

    def terrain_type(self, code: str) -> TerrainType:
        tt = self.m.terrain_types.get(code)
        return tt if tt is not None else TerrainType(code=code, name=code)

    def style_of(self, code: str | None) -> TerrainStyle:
        if code is None:
            clear = next((t for t in self.m.terrain_types.values()
                          if self.theme.terrain_style(t).key == "clear"), None)
            if clear is not None:
                return self.theme.terrain_style(clear)
            return TerrainStyle(key="clear", fill=rgb(self.theme.get("terrain", "clear", {}).get("fill", "#eef0d3")))
        return self.theme.terrain_style(self.terrain_type(code))

    # -- layers ----------------------------------------------------------------------------

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
            self.draw.polygon(self.layout.corners(h), fill=fill)
            if style.water is not None:
                self.water_hexes.append(h)

    def water(self) -> None:
        """Adjacent water hexes merged into one body with a rounded shore (shore line comes later)."""
        self.shores = []
        if not self.water_hexes:
            return
        by_style: dict[TerrainStyle, list[Hex]] = defaultdict(list)
        for h in self.water_hexes:
            by_style[self.style_of(self.m.terrain(h))].append(h)
        water_set = set(self.water_hexes)
        bodies = [(style, body) for style, hexes in by_style.items() for body in self._components(hexes)]
        for style, hexes in bodies:
            water = unary_union([self.layout.polygon(h) for h in hexes])
            # the shore keeps a rim of land in the water hexes next to land, with rounded
            # corners; where the water meets the map edge it runs to the hex edge
            shore_hexes = {n for h in hexes for n in self.grid.neighbours(h) if n not in water_set}
            if shore_hexes:
                land = unary_union([self.layout.polygon(h) for h in shore_hexes])
                body = water.difference(land.buffer(self.px(0.075), join_style=1))
                r = self.px(0.06)
                body = body.buffer(-r, join_style=1).buffer(r, join_style=1)      # round the capes
                body = body.buffer(r, join_style=1).buffer(-r, join_style=1).intersection(water)  # and the bays
                coast = land.buffer(self.px(0.11), join_style=1)
            else:
                body, coast = water, None
            for poly in getattr(body, "geoms", [body]):
                if poly.is_empty:
                    continue
                if poly.interiors:
                    # islands: fill through a mask so the land drawn inside stays
                    x0, y0, x1, y1 = (int(v) for v in poly.bounds)
                    mask = Image.new("L", (x1 - x0 + 2, y1 - y0 + 2), 0)
                    md = ImageDraw.Draw(mask)
                    md.polygon([(x - x0, y - y0) for x, y in poly.exterior.coords], fill=255)
                    for ring in poly.interiors:
                        md.polygon([(x - x0, y - y0) for x, y in ring.coords], fill=0)
                    self.image.paste(style.water, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
                else:
                    self.draw.polygon(list(poly.exterior.coords), fill=style.water)
                # the anti-aliased shore line hides the jagged edge of the fill
                if coast is not None:
                    line = poly.boundary.intersection(coast)
                    self.shores.append((line, style.shore or style.ink))

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

    def shorelines(self, canvas: Canvas) -> None:
        w = max(1.0, self.px(0.018))
        for line, colour in self.shores:
            merged = linemerge(line) if line.geom_type == "MultiLineString" else line
            for part in getattr(merged, "geoms", [merged]):
                if part.geom_type == "LineString" and len(part.coords) > 1:
                    canvas.line(list(part.coords), colour, w)

    def symbols(self) -> None:
        """Terrain symbols of the base terrain, then of overlay features (villages...)."""
        flat = self.grid.flat
        # symbols keep clear of the hex id: top ids push them down, bottom ids up
        self.symbol_shift = {("top", True): 0.0, ("top", False): 0.1, ("bottom", True): -0.12,
                             ("bottom", False): -0.17}.get((self.m.hex_ids, flat), 0.0)
        for h in self.hexes:
            cell = self.m.hexes.get(h)
            if cell is None:
                continue
            codes = [cell.terrain, *cell.features]
            for code in codes:
                style = self.style_of(code)
                variant = (h.col * 7 + h.row * 13) % VARIANTS
                spr = sprite(style, self.size, flat, variant, self.symbol_shift)
                if spr is None:
                    continue
                cx, cy = self.centres[h]
                half = spr.width / 2
                self.image.paste(spr, (round(cx - half), round(cy - half)), spr)

    def grid_lines(self) -> None:
        colour = rgb(self.theme.get("grid", "colour", "#4a4a44"))
        width = max(1, round(self.px(self.theme.get("grid", "width", 0.012))))
        line = self.draw.line
        grid = self.grid
        # each hexside once: four sides per hex as one polyline, the other two only on the
        # map's edge (inside, the neighbour draws them)
        if grid.flat:
            chain, extra = (5, 0, 1, 2, 3), ((3, "SE"), (4, "S"))
        else:
            chain, extra = (3, 4, 5, 0, 1), ((1, "E"), (2, "SE"))
        for h in self.hexes:
            pts = self.layout.corners(h)
            line([pts[i] for i in chain], fill=colour, width=width, joint="curve" if width > 2 else None)
            for i, direction in extra:
                if grid.neighbour(h, direction) not in grid:
                    line([pts[i], pts[(i + 1) % 6]], fill=colour, width=width)

    def hexsides(self, canvas: Canvas) -> None:
        """Rivers, lake sides, slopes and walls along chains of hexsides."""
        by_code: dict[str, list[Hexside]] = defaultdict(list)
        for side, feats in self.m.hexsides.items():
            for f in feats:
                by_code[f.code].append(side)
        # draw the widest (lake sides, major rivers) first so minor ones join on top
        kinds = sorted(by_code, key=lambda c: -self._hexside_style(c).width)
        for code in kinds:
            style = self._hexside_style(code)
            kind = self.m.hexside_types.get(code)
            segments = [self.layout.hexside_segment(s) for s in by_code[code]]
            if kind is not None and kind.bridge and style.key == "bridge":
                for side in by_code[code]:
                    water = [self._hexside_style(c) for c in self.m.hexside_codes(side)]
                    gap = max([w.width for w in water if w.water] or [0.06])
                    self._bridge(canvas, side, self.px(gap), style.colour)
                continue
            for chain in _chains(segments):
                w = max(1.0, self.px(style.width))
                pts = chaikin(chain, 2) if style.water else chain
                if style.edge is not None:
                    canvas.line(pts, style.edge, w + max(1.5, self.px(0.016)) * 2 if style.key == "river" else w + 2)
                canvas.line(pts, style.colour, w)
                if style.ticks:
                    self._ticks(canvas, chain, style.colour, w)

    def _hexside_style(self, code: str):
        kind = self.m.hexside_types.get(code)
        if kind is None:
            kind = HexsideType(code=code, name=code)
        return self.theme.hexside_style(kind)

    def _ticks(self, canvas: Canvas, chain, colour, w: float) -> None:
        length = self.px(0.07)
        for x, y, ux, uy in walk(chain, self.px(0.07), self.px(0.035)):
            nx, ny = -uy, ux
            canvas.line([(x, y), (x + nx * length, y + ny * length)], colour, max(1.0, w * 0.6), round_ends=False)

    def _bridge(self, canvas: Canvas, side: Hexside, gap: float, colour, deck=None) -> None:
        (ax, ay), (bx, by) = self.layout.center(side.a), self.layout.center(side.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        d = math.hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / d, (by - ay) / d
        nx, ny = -uy, ux
        half_len = gap / 2 + self.px(0.07)
        half_w = self.px(0.055)
        deck_pts = [(mx - ux * half_len + nx * half_w, my - uy * half_len + ny * half_w),
                    (mx + ux * half_len + nx * half_w, my + uy * half_len + ny * half_w),
                    (mx + ux * half_len - nx * half_w, my + uy * half_len - ny * half_w),
                    (mx - ux * half_len - nx * half_w, my - uy * half_len - ny * half_w)]
        canvas.polygon(deck_pts, fill=deck or self.theme.paper)
        w = max(1.0, self.px(0.016))
        flare = self.px(0.04)
        for sgn in (1, -1):
            ox, oy = nx * half_w * sgn, ny * half_w * sgn
            p0 = (mx - ux * half_len + ox, my - uy * half_len + oy)
            p1 = (mx + ux * half_len + ox, my + uy * half_len + oy)
            canvas.line([(p0[0] - ux * flare + nx * flare * sgn, p0[1] - uy * flare + ny * flare * sgn), p0, p1,
                         (p1[0] + ux * flare + nx * flare * sgn, p1[1] + uy * flare + ny * flare * sgn)],
                        colour, w)

    def lines(self, canvas: Canvas) -> None:
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
        # bridges under the lines that cross the water
        for style, kind, line in styled:
            if not kind.bridges:
                continue
            for a, b in zip(line.hexes, line.hexes[1:]):
                side = Hexside.of(a, b)
                if side in water_width:
                    deck = rgb("#3a3a3a") if style.key == "rail" else None
                    self._bridge(canvas, Hexside(a, b), self.px(water_width[side]), self.theme.ink, deck)
        # a railway that runs along a road is drawn beside it, not on top of it
        road_steps = {frozenset(pair) for style, _, line in styled if style.key != "rail"
                      for pair in zip(line.hexes, line.hexes[1:])}
        paths = [(style, catmull_rom(self._centreline(line, road_steps if style.key == "rail" else set())), line)
                 for style, kind, line in styled if len(line.hexes) > 1]
        paths = [(style, pts) for style, pts in _join_ends(paths)]
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
                for x, y, ux, uy in walk(pts, self.px(style.tie_spacing), self.px(style.tie_spacing) / 2):
                    nx, ny = -uy, ux
                    canvas.line([(x - nx * half, y - ny * half), (x + nx * half, y + ny * half)],
                                style.colour, max(1.0, w * 0.75), round_ends=False)

    def _centreline(self, line, shared: set) -> list[tuple[float, float]]:
        """Hex centres of a line, moved sideways where its steps are also steps of ``shared``."""
        pts = [self.layout.center(h) for h in line.hexes]
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

    def _edge_hexes(self, name: str) -> list[Hex]:
        cache = self.__dict__.setdefault("_edge_cache", {})
        if name not in cache:
            cache[name] = self.grid.edge_hexes(name)
        return cache[name]

    def edges(self, canvas: Canvas) -> list[tuple]:
        """Coloured bands outside friendly and supply edges; returns label data for each."""
        groups = self.edge_groups()
        if not groups:
            return []
        # the bands only touch edge hexes: subtract those, not the whole grid
        near = {h for name in ("north", "south", "west", "east") for h in self._edge_hexes(name)}
        grid_poly = unary_union([self.layout.polygon(h) for h in near])
        out = []
        flat = self.grid.flat
        width = self.px(self.theme.get("edge", "width", 0.1))
        for (edge_name, side_id, _), entry in groups.items():
            hexes = entry["hexes"] or tuple(self._edge_hexes(edge_name))
            wanted = EDGE_SIDES[flat].get(edge_name, set())
            segments = []
            for h in hexes:
                for direction, side in self.grid.hexsides(h):
                    other = side.b if side.a == h else side.a
                    if direction in wanted and other not in self.grid:
                        segments.append(LineString(self.layout.hexside_segment(side)))
            if not segments:
                continue
            # merged into chains first so the band's corners are mitred, not notched
            chains = [LineString(c) for c in _chains([list(seg.coords) for seg in segments])]
            band = unary_union([c.buffer(width, cap_style=2, join_style=2, mitre_limit=3.0) for c in chains])
            band = band.difference(grid_poly)
            colour = side_colour(side_id, self.game)
            canvas.shape(band, fill=colour, outline=_darker(colour), width=max(1.0, self.px(0.01)))
            side = self.game.side(side_id) if (self.game and side_id) else None
            name = side.name if side else (side_id or "")
            words = (["map edge"] if entry["map_edge"] else []) + (["supply source"] if entry["supply"] else [])
            text = (name + " " + " \u00b7 ".join(words)).strip().upper()
            out.append((edge_name, text, colour, band.bounds))
        return out

    def edge_labels(self, labels) -> None:
        size = self.px(self.theme.get("edge", "label_size", 0.17))
        f = font(size, bold=True, family="condensed")
        for edge_name, text, colour, (x0, y0, x1, y1) in labels:
            tw = int(self.draw.textlength(text, font=f)) + 4
            th = int(size * 1.4)
            tile = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
            ImageDraw.Draw(tile).text((tw / 2, th / 2), text, font=f, fill=_darker(colour, 0.5) + (255,),
                                      anchor="mm")
            gap = self.px(0.05)
            if edge_name in ("west", "east"):
                tile = tile.rotate(90 if edge_name == "west" else -90, expand=True)
                cy = (y0 + y1) / 2
                cx = x0 - gap - tile.width / 2 if edge_name == "west" else x1 + gap + tile.width / 2
            else:
                cx = (x0 + x1) / 2
                cy = y0 - gap - tile.height / 2 if edge_name == "north" else y1 + gap + tile.height / 2
            pos = (round(cx - tile.width / 2), round(cy - tile.height / 2))
            self.image.paste(tile, pos, tile)

    def markers(self, canvas: Canvas) -> list:
        """Victory stars and supply-source discs; returns (hex, kind, text, centre, radius)."""
        texts = []
        vic = self.theme.data.get("victory", {})
        r = self.px(vic.get("size", 0.22)) / 2
        fill = rgb(vic.get("fill", "#c8102e"))
        for v in self.m.victory:
            if v.hex not in self.centres:
                continue
            cx, cy = self.centres[v.hex]
            x, y = cx - self.px(0.28), cy - self.px(0.09)
            star = [(x + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
                     y - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
            canvas.polygon(star, fill=fill, outline=_darker(fill, 0.45), width=max(1.0, self.px(0.012)))
            self.reserved.append((x - r, y - r, x + r, y + r))
            if v.points is not None:
                texts.append((v.hex, "vp", str(v.points), (x, y + r * 0.08), r))
        sup = self.theme.data.get("supply", {})
        rs = self.px(sup.get("size", 0.17)) / 2
        for src in self.m.supply:
            if src.kind == "edge" and src.hexes and self._edge_of(src.hexes) is not None:
                continue  # drawn as an edge band
            for h in src.hexes:
                if h not in self.centres:
                    continue
                cx, cy = self.centres[h]
                x, y = cx + self.px(0.28), cy - self.px(0.09)
                colour = side_colour(src.side, self.game)
                canvas.ellipse(x, y, rs, fill=colour, outline=rgb(sup.get("outline", "#111111")),
                               width=max(1.0, self.px(0.014)))
                self.reserved.append((x - rs, y - rs, x + rs, y + rs))
                texts.append((h, "supply", "S", (x, y), rs))
        return texts

    def marker_texts(self, texts) -> None:
        vic = self.theme.data.get("victory", {})
        for _, kind, text, (x, y), r in texts:
            size = r * (0.95 if kind == "vp" else 1.25)
            colour = rgb(vic.get("text", "#ffffff")) if kind == "vp" else self.theme.ink
            self.draw.text((x, y), text, font=font(size, bold=True, family="condensed"), fill=colour, anchor="mm")

    # -- text ------------------------------------------------------------------------------

    def hex_ids(self) -> None:
        where = self.m.hex_ids
        if where == "none":
            return
        style = self.theme.data.get("hex_id", {})
        f = font(self.px(style.get("size", 0.125)), bold=style.get("bold", False),
                 family=style.get("family", "condensed"))
        colour = rgb(style.get("colour", "#333333"))
        inset = self.px(style.get("inset", 0.045))
        if self.grid.flat:
            half = self.size / 2 - inset
        else:  # below the top corner, where the hex is wide enough for the id
            half = self.layout.radius * 0.66
        anchor, dy = {"top": ("mt", -half), "bottom": ("mb", half), "centre": ("mm", 0.0)}[where]
        text = self.draw.text
        fmt = self.grid.format
        halo = max(1, round(self.px(0.012)))
        # a halo (in the hex's own colour, so invisible on the terrain) only where a line or
        # hexside feature may cross the id: stroked text costs twice as much
        busy = {h for line in self.m.lines for h in line.hexes}
        busy.update(h for side in self.m.hexsides for h in side)
        x0, y0, x1, y1 = f.getbbox(fmt(self.hexes[0]), anchor=anchor)
        for h in self.hexes:
            cx, cy = self.centres[h]
            label = fmt(h)
            fill = self.fills.get(h) or self.style_of(self.m.terrain(h)).fill
            ink = colour if _luma(fill) > 0.55 else self.theme.paper
            at = (cx, cy + dy)
            if h in busy:
                text(at, label, font=f, fill=ink, anchor=anchor, stroke_width=halo, stroke_fill=fill)
            else:
                text(at, label, font=f, fill=ink, anchor=anchor)
            # ids of one map have one width in practice; the box only steers place names
            self.reserved.append((at[0] + x0 - 1, at[1] + y0 - 1, at[0] + x1 + 1, at[1] + y1 + 1))
            self.id_boxes[h] = self.reserved[-1]

    def places(self) -> None:
        """Place names with a halo, placed where they cover no hex id and no other name."""
        style = self.theme.data.get("place", {})
        kinds = self.theme.data.get("place_sizes", {})
        colour, halo = rgb(style.get("colour", "#111111")), rgb(style.get("halo", "#ffffff"))
        reserved = np.asarray(self.reserved, dtype=float).reshape(-1, 4)
        placed: list = []
        W, H = self.image.size
        # largest places first: they get the best spots
        order = sorted(self.m.places, key=lambda p: -kinds.get(p.kind, 1.0))
        for place in order:
            if place.hex not in self.centres:
                continue
            cx, cy = self.centres[place.hex]
            base = self.px(style.get("size", 0.165)) * kinds.get(place.kind, 1.0)
            bold = place.kind in ("city", "town")
            best = None
            for shrink in (1.0, 0.88, 0.76):
                f = font(base * shrink, bold=bold, family=style.get("family", "condensed"))
                hw = max(1, round(self.px(style.get("halo_width", 0.022)) * shrink))
                for dx, dy in ((0, 0.27), (0, 0.33), (0, 0.2), (0, -0.13), (0.12, 0.27), (-0.12, 0.27)):
                    at = (cx + self.px(dx), cy + self.px(dy))
                    x0, y0, x1, y1 = self.draw.textbbox(at, place.name, font=f, anchor="mm", stroke_width=hw)
                    rect = (x0, y0, x1, y1)
                    clash = _overlap(rect, reserved) + sum(_overlap(rect, np.asarray([o])) for o in placed)
                    if x0 < 0 or y0 < 0 or x1 > W or y1 > H:
                        clash += (x1 - x0) * (y1 - y0)
                    if best is None or clash < best[0]:
                        best = (clash, at, f, hw, rect)
                    if clash == 0:
                        break
                if best[0] == 0:
                    break
            _, at, f, hw, rect = best
            placed.append(rect)
            self.place_boxes[place.name] = rect
            self.draw.text(at, place.name, font=f, fill=colour, anchor="mm", stroke_width=hw, stroke_fill=halo)


def _overlap(rect, boxes: np.ndarray) -> float:
    """Total area of ``rect`` covered by each of ``boxes`` (an N x 4 array)."""
    if not len(boxes):
        return 0.0
    w = np.minimum(rect[2], boxes[:, 2]) - np.maximum(rect[0], boxes[:, 0])
    h = np.minimum(rect[3], boxes[:, 3]) - np.maximum(rect[1], boxes[:, 1])
    return float((np.clip(w, 0, None) * np.clip(h, 0, None)).sum())


def _join_ends(paths):
    """Snap a line that ends in a hex another line passes through onto that line's curve.

    Smoothing cuts corners, so a curve passes near, not through, the centres of the hexes
    where it bends; a road ending at such a hex would otherwise stop short of the other.
    """
    curves = [LineString(pts) for _, pts, _ in paths]
    inner = [set(line.hexes[1:-1]) for _, _, line in paths]
    out = []
    for i, (style, pts, line) in enumerate(paths):
        pts = list(pts)
        for end, at in ((line.hexes[0], 0), (line.hexes[-1], -1)):
            for j, hexes in enumerate(inner):
                if j != i and end in hexes:
                    other = curves[j]
                    snapped = other.interpolate(other.project(Point(pts[at])))
                    if at == 0:
                        pts.insert(0, (snapped.x, snapped.y))
                    else:
                        pts.append((snapped.x, snapped.y))
                    break
        out.append((style, pts))
    return out


def _chains(segments) -> list[list[tuple[float, float]]]:
    """Hexside segments merged into continuous polylines (rivers follow chains of sides)."""
    if not segments:
        return []
    # round to merge end points that differ by float noise
    lines = [LineString([(round(x, 3), round(y, 3)) for x, y in seg]) for seg in segments]
    merged = linemerge(MultiLineString(lines))
    geoms = getattr(merged, "geoms", [merged])
    return [list(g.coords) for g in geoms]


def draw_map(image: Image.Image, game_map: Map, layout: Layout, theme: Theme, game: Game | None) -> dict:
    """Paint every map layer of ``game_map`` onto ``image`` (hexes placed by ``layout``).

    Returns where the text went: ``{"hex_ids": {hex: box}, "places": {name: box}}``.
    """
    p = _MapPainter(image, game_map, layout, theme, game)
    p.terrain()
    p.water()
    p.symbols()
    p.grid_lines()
    canvas = Canvas(image, p.factor)
    p.shorelines(canvas)
    p.hexsides(canvas)
    p.lines(canvas)
    edge_labels = p.edges(canvas)
    texts = p.markers(canvas)
    canvas.flush()
    p.edge_labels(edge_labels)
    p.marker_texts(texts)
    p.hex_ids()
    p.places()
    return {"hex_ids": p.id_boxes, "places": p.place_boxes}
