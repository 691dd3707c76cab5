"""Terrain symbols kept clear of what is drawn over their hex: no tree stands in a lake, and a
village's blocks lie beside the road and railway through it and the victory star, not under
them."""

from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import LineString

from ._lineplan import half_extent
from ._mapsymbols import SETTLEMENTS, VARIANTS, Room


class SymbolRoom:
    """The symbols' room in :class:`~._mapdraw.MapScene` (a mixin: it reads the planned sprites,
    water and lines)."""

    def symbols_clear(self) -> None:
        """Each sprite whose hex the water or (a settlement's) the lines, markers or signs
        reach, made again with that hex's :class:`Room`: its ink off the water, its blocks off
        what lies over them. The others stay as planned (see ``_grid_plan``)."""
        from ._mapdraw import _trimmed_sprite   # (the scene's module imports this one)

        water, ink = self._water_area(), self._over()
        if water is None and not ink:
            return
        ink_tree = shapely.STRtree(ink) if ink else None
        corners = np.asarray(self._unit_corners())
        S, flat, shift = self.size, self.grid.flat, self.symbol_shift
        cells = self.m.hexes
        for n, entries in list(self.sprites.items()):
            h = self.hexes[n]
            cell = cells.get(h)
            if cell is None or h in self.water_colour:
                continue   # a water hex's own symbol (waves) lies on its water
            centre = np.asarray(self.centres[h])
            hex_poly = shapely.Polygon(corners + centre)
            wet = water.intersection(hex_poly) if water is not None and water.intersects(hex_poly) else None
            lines = None
            if ink_tree is not None:
                near = ink_tree.query(hex_poly, predicate="intersects")
                if len(near):
                    lines = shapely.union_all([ink[i] for i in near]).intersection(hex_poly)
            if wet is None and lines is None:
                continue
            variant = (h.col * 7 + h.row * 13) % VARIANTS
            out = []
            codes = self._signs_apart((cell.terrain, *cell.features))[0]
            for code in codes:
                style = self.style_of(code)
                line_part = lines if style.symbol in SETTLEMENTS else None
                if wet is None and line_part is None:
                    room = None
                else:
                    box = self.id_boxes.get(h)
                    ids = _framed(shapely.box(*box), centre, S) if box is not None and line_part is not None else None
                    room = Room(_framed(wet, centre, S), _framed(line_part, centre, S), flat, shift, ids)
                cut = _trimmed_sprite(style, S, flat, variant, shift, room)
                if cut[0] is not None:
                    half = cut[3]
                    x, y = round(centre[0] - half) + cut[1], round(centre[1] - half) + cut[2]
                    out.append((cut[0], (x, y, x + cut[4], y + cut[5])))
            self.sprites[n] = out
        self._sprite_boxes = [(n, *box) for n, entries in self.sprites.items() for _, box in entries]

    def _water_area(self):
        """The lakes on the hexsides, which reach into the land hexes on both sides (a river
        on a hexside, narrow, is drawn over the symbols' clipped edge); None without any."""
        lakes = list(getattr(self, "lake_bodies", ()))
        if not lakes:
            return None
        area = shapely.union_all(lakes)
        shapely.prepare(area)
        return area

    def _over(self) -> list:
        """What is drawn over the symbols: the ink of each road, track and railway (its ties and
        casing included), each victory star, supply disc and sign."""
        ink = [LineString(pts).buffer(half_extent(style) * self.size) for style, pts in self.line_paths
               if style.key != "watercourse" and len(pts) > 1]
        boxes = list(self.marker_boxes) + [(x, y, x + tile.width, y + tile.height) for tile, (x, y) in self.signs]
        return ink + [shapely.box(*b) for b in boxes]


def _framed(geom, centre, size: float) -> bytes | None:
    """``geom`` (map pixels) as WKB in hex sizes round ``centre``; None if empty or None."""
    if geom is None or geom.is_empty:
        return None
    return shapely.to_wkb(shapely.transform(geom, lambda c: (c - centre) / size))
