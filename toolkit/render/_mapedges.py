"""Map edges: coloured bands outside friendly and supply edges, and their labels."""

from __future__ import annotations

from functools import lru_cache

import shapely
from PIL import Image, ImageDraw
from shapely.geometry import LineString
from shapely.ops import unary_union

from ..game import Game
from ..hexes import Hex, Hexside
from ._mapgeom import Kept, chains
from .fonts import font
from .theme import rgb

#: The hexside directions that face each page edge, per orientation.
EDGE_SIDES = {
    True: {"north": {"N", "NE", "NW"}, "south": {"S", "SE", "SW"}, "west": {"NW", "SW"}, "east": {"NE", "SE"}},
    False: {"north": {"NE", "NW"}, "south": {"SE", "SW"}, "west": {"W", "NW", "SW"}, "east": {"E", "NE", "SE"}},
}

#: The edge bands shaped so far, by layout, hexes, directions and width (see
#: EdgeLayer._edge_band): pure geometry, shared by every map drawn at that layout.
_EDGE_BANDS = Kept(64)

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


def _darker(colour, k: float = 0.55):
    return tuple(int(c * k) for c in colour)


class EdgeLayer:
    """The map-edge layer of :class:`~._mapdraw.MapScene` (a mixin)."""

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

    def _lines(self) -> tuple[dict[Hex, tuple[int, int]], frozenset]:
        """Line coordinates of every hex (see :meth:`Grid.to_lines`), and the set of them."""
        return grid_lines(self.grid)

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

    def edges(self, canvas) -> list[tuple]:
        """Coloured bands outside friendly and supply edges; returns label data for each."""
        groups = self.edge_groups()
        if not groups:
            return []
        out = []
        flat = self.grid.flat
        width = self.px(self.theme.get("edge", "width", 0.1))
        # a band along a whole edge first, a band along listed hexes over it: White Death's
        # German rail supply along the whole south edge hid the Soviet stretch of it
        for (edge_name, side_id, _), entry in sorted(groups.items(), key=lambda item: item[0][2] is not None):
            hexes = entry["hexes"] or tuple(self._edge_hexes(edge_name))
            band = self._edge_band(tuple(hexes), frozenset(EDGE_SIDES[flat].get(edge_name, ())), width)
            if band is None:
                continue
            colour = side_colour(side_id, self.game)
            canvas.shape(band, fill=colour, outline=_darker(colour), width=max(1.0, self.px(0.01)))
            side = self.game.side(side_id) if (self.game and side_id) else None
            name = side.name if side else (side_id or "")
            words = (["map edge"] if entry["map_edge"] else []) + (["supply source"] if entry["supply"] else [])
            text = (name + " " + " \u00b7 ".join(words)).strip().upper()
            out.append((edge_name, text, colour, band.bounds))
        return out

    def _edge_band(self, hexes: tuple, wanted: frozenset, width: float):
        """The band ``width`` wide along the sides of ``hexes`` facing off the map in the
        directions ``wanted``, outside the hexes (None if no such side). Pure geometry of the
        grid at this layout: shaped once, then shared by every map of the grid drawn at that
        size (as the water bodies are)."""
        key = (self.layout, hexes, wanted, width)
        if key in _EDGE_BANDS:
            return _EDGE_BANDS[key]
        lines_of, occupied = self._lines()
        steps = [(da, dd) for name, da, dd in self.grid.directions if name in wanted]
        segments = []
        for h in hexes:
            a, d = lines_of.get(h) or self.grid.to_lines(h)
            for da, dd in steps:
                if (a + da, d + dd) not in occupied:   # the side faces off the map
                    other = self.grid.from_lines(a + da, d + dd)
                    segments.append(self.layout.hexside_segment(Hexside.of(h, other)))
        band = None
        if segments:
            # merged into chains first so the band's corners are mitred, not notched
            lines = [LineString(c) for c in chains(segments)]
            band = unary_union([c.buffer(width, cap_style=2, join_style=2, mitre_limit=3.0) for c in lines])
            band = band.difference(self._hexes_under(band, hexes))
        return _EDGE_BANDS.keep(key, band)

    def _hexes_under(self, band, hexes):
        """The union of the hexes ``band`` overlaps: a band along ``hexes`` reaches at most
        their neighbours, so only those are tested and merged, not the whole grid's rim."""
        near = sorted({n for h in hexes for n in (h, *self.grid.neighbours(h)) if n in self.centres})
        polys = self._hex_polygons([self.centres[h] for h in near])
        # the band prepared: each hex is then weighed against it in a few steps, not against
        # every one of its edges (the same answers)
        shapely.prepare(band)
        return unary_union(polys[shapely.intersects(band, polys)])

    def edge_labels(self, labels) -> list[tuple]:
        """The edge labels as sprites with the map pixel of their top-left corner. Labels of one
        side along one page edge do not overlap: one that says no more than another it meets
        is dropped, the others are moved apart along the edge."""
        size = self.px(self.theme.get("edge", "label_size", 0.17))
        gap = self.px(0.05)
        placed = []   # (edge, colour, words, tile, centre)
        for edge_name, text, colour, (x0, y0, x1, y1) in labels:
            turn = {"west": 90, "east": -90}.get(edge_name, 0)
            tile = _label_tile(text, size, tuple(colour), turn)
            if edge_name in ("west", "east"):
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


@lru_cache(maxsize=8)
def grid_lines(grid) -> tuple[dict[Hex, tuple[int, int]], frozenset]:
    """Line coordinates of every hex of ``grid`` and the set of them, shared by every map of
    that grid (read only)."""
    lines = {h: grid.to_lines(h) for h in grid.hexes()}
    return lines, frozenset(lines.values())


@lru_cache(maxsize=256)
def _label_tile(text: str, size: float, colour: tuple, turn: int) -> Image.Image:
    """An edge label's sprite (RGBA), turned ``turn`` degrees; made once per text, size and
    colour (a map's few labels are the same at every render of it)."""
    f = font(size, bold=True, family="condensed")
    tw = int(ImageDraw.Draw(Image.new("RGB", (1, 1))).textlength(text, font=f)) + 4
    th = int(size * 1.4)
    tile = Image.new("RGBA", (tw, th), (0, 0, 0, 0))
    ImageDraw.Draw(tile).text((tw / 2, th / 2), text, font=f, fill=_darker(colour, 0.5) + (255,), anchor="mm")
    return tile.rotate(turn, expand=True) if turn else tile
