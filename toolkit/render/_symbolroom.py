"""Terrain symbols kept clear of what is drawn over their hex: no tree stands in a lake, and a
village's blocks lie beside the road and railway through it and the victory star, not under
them."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import shapely

from ._lineplan import half_extent
from ._mapsymbols import BLOCK_HIDDEN, VARIANTS, Room, blocks, moved_by

#: The settlements whose blocks are moved off the lines through their hex: a village's four
#: blocks (a road and a railway beside it hid Lychkovo's); a town's nine and a city's dozens
#: still read with a few under the roads, as streets, and are read back (toolkit/draft) where
#: their drawing has them.
MOVED = ("village",)


class SymbolRoom:
    """The symbols' room in :class:`~._mapdraw.MapScene` (a mixin: it reads the planned sprites,
    water and lines)."""

    def symbols_clear(self) -> None:
        """Each sprite whose hex a lake or (a settlement's) the lines, markers or signs reach
        made again with that hex's :class:`Room`, where that changes it: its ink off the lake,
        its blocks off what lies over them. The others stay as planned (see ``_grid_plan``)."""
        from ._mapdraw import _trimmed_sprite   # (the scene's module imports this one)

        water, over = self._water_area(), self._over()
        if water is None and not over:
            return
        S, flat, shift = self.size, self.grid.flat, self.symbol_shift
        cells = self.m.hexes
        drawn_of: dict = {}   # per terrain and features: the (code, style) drawn as sprites, a settlement?
        found = []   # (hex number, hex, its (code, style), has a settlement)
        for n, entries in self.sprites.items():
            h = self.hexes[n]
            cell = cells.get(h)
            if not entries or cell is None or h in self.water_colour:
                continue   # a water hex's own symbol (waves) lies on its water
            key = (cell.terrain, *cell.features)
            known = drawn_of.get(key)
            if known is None:
                drawn = [(c, self.style_of(c)) for c in self._signs_apart(key)[0]]
                known = drawn_of[key] = (drawn, any(style.symbol in MOVED for _, style in drawn))
            drawn, settled = known
            if settled or water is not None:
                found.append((n, h, drawn, settled))
        if not found:
            return
        centres = np.asarray([self.centres[h] for _, h, _, _ in found], dtype=float).reshape(-1, 2)
        polys = shapely.polygons(centres[:, None, :] + np.asarray(self._unit_corners())[None])
        wet_at = shapely.intersects(water, polys) if water is not None else np.zeros(len(found), dtype=bool)
        under = defaultdict(list)   # per number in found: what lies over the hex (a settlement's)
        # (a settlement on a lake keeps its moved blocks off the lines too)
        settling = sorted(set(self._hidden_blocks(found, centres, over) if over else ())
                          | {k for k, f in enumerate(found) if f[3] and wet_at[k]})
        if settling and over:
            for i, j in shapely.STRtree(over).query(polys[settling], predicate="intersects").T.tolist():
                under[settling[i]].append(over[j])
        changed = False
        for k, (n, h, drawn, _) in enumerate(found):
            if not wet_at[k] and k not in under:
                continue
            poly, centre = polys[k], centres[k]
            wet = _framed(water.intersection(poly), centre, S) if wet_at[k] else None
            lines = _framed(shapely.union_all(under[k]).intersection(poly), centre, S) if k in under else None
            box = self.id_boxes.get(h)
            ids = _framed(shapely.box(*box), centre, S) if lines is not None and box is not None else None
            variant = (h.col * 7 + h.row * 13) % VARIANTS
            rooms = [Room(wet, lines, flat, shift, ids) if style.symbol in MOVED else Room(wet, None, flat, shift)
                     for _, style in drawn]
            rooms = [room if (room.water or room.over) and moved_by(style, variant, room) else None
                     for room, (_, style) in zip(rooms, drawn)]
            if not any(rooms):
                continue
            out = []
            for (_, style), room in zip(drawn, rooms):
                cut = _trimmed_sprite(style, S, flat, variant, shift, room)
                if cut[0] is not None:
                    x, y = round(centre[0] - cut[3]) + cut[1], round(centre[1] - cut[3]) + cut[2]
                    out.append((cut[0], (x, y, x + cut[4], y + cut[5])))
            self.sprites[n] = out
            changed = True
        if changed:
            self._sprite_boxes = [(n, *box) for n, entries in self.sprites.items() for _, box in entries]

    def _hidden_blocks(self, found, centres, over) -> list:
        """The numbers in ``found`` of the hexes with a settlement block a fifth hidden or more
        by what lies ``over`` the map, as :meth:`Room.settled` finds them (all at once, with
        what overlaps counted twice: never fewer)."""
        S, shift = self.size, self.symbol_shift
        rects, owner = [], []
        for k, (_, h, drawn, settled) in enumerate(found):
            if settled:
                variant = (h.col * 7 + h.row * 13) % VARIANTS
                for _, style in drawn:
                    if style.symbol in MOVED:
                        rects += blocks(style.symbol, variant)
                        owner += [k] * len(blocks(style.symbol, variant))
        if not rects:
            return []
        r = np.asarray(rects, dtype=float)
        at = centres[owner]
        x0, y0 = at[:, 0] + (r[:, 0] - r[:, 2] / 2) * S, at[:, 1] + (r[:, 1] - r[:, 3] / 2 + shift) * S
        boxes = shapely.box(x0, y0, x0 + r[:, 2] * S, y0 + r[:, 3] * S)
        i, j = shapely.STRtree(over).query(boxes, predicate="intersects")
        hidden = np.zeros(len(boxes))
        np.add.at(hidden, i, shapely.area(shapely.intersection(boxes[i], np.asarray(over, dtype=object)[j])))
        hit = hidden > BLOCK_HIDDEN * shapely.area(boxes)
        return sorted({owner[n] for n in np.flatnonzero(hit)})

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
        kept = [(style, pts) for (style, _), pts in zip(self.line_paths, self.line_arrays)
                if style.key != "watercourse" and len(pts) > 1]
        ink = []
        if kept:   # made in one call each, as LineString(pts).buffer(half) makes them one by one
            lines = shapely.linestrings(np.concatenate([pts for _, pts in kept]),
                                        indices=np.repeat(np.arange(len(kept)), [len(pts) for _, pts in kept]))
            ink = list(shapely.buffer(lines, [half_extent(style) * self.size for style, _ in kept], quad_segs=16))
        boxes = list(self.marker_boxes) + [(x, y, x + tile.width, y + tile.height) for tile, (x, y) in self.signs]
        return ink + [shapely.box(*b) for b in boxes]


def _framed(geom, centre, size: float) -> bytes | None:
    """``geom`` (map pixels) as WKB in hex sizes round ``centre``; None if empty or None."""
    if geom is None or geom.is_empty:
        return None
    return shapely.to_wkb(shapely.transform(geom, lambda c: (c - centre) / size))
