"""Terrain symbols kept clear of what is drawn over their hex: no tree stands in a lake, and a
village's blocks lie beside the road and railway through it and the victory star, not under
them."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np
import shapely

from ._lineplan import half_extent
from ._mapsymbols import TOP, VARIANTS, _clip_polygon, blocks, moved_by

#: The settlements whose blocks are moved off the lines through their hex: a village's four
#: blocks (a road and a railway beside it hid Lychkovo's); a town's nine and a city's dozens
#: still read with a few under the roads, as streets, and are read back (toolkit/draft) where
#: their drawing has them.
MOVED = ("village",)


#: Room (hex sizes) a symbol's ink keeps from the water, and a settlement's block from the
#: ink of a line and from the other blocks, where it is moved.
WATER_ROOM, LINE_ROOM, BLOCK_ROOM = 0.02, 0.025, 0.03
#: The share of a block's area under a line (or on the water) from which it is moved.
BLOCK_HIDDEN = 0.2
#: A block moved where it finds no room is tried this much smaller.
BLOCK_SHRINK = 0.75
#: The step (hex sizes) of the places tried for a block moved off a line.
_BLOCK_STEP = 0.02


@dataclass(frozen=True)
class Room:
    """What one hex's symbol keeps off: ``water`` (its ink lies on none) and ``over``, what is
    drawn over the hex (the ink of its roads and railways, a victory star): a settlement's
    blocks are moved off it to the nearest free place in the hex, so the village shows beside
    the road, not under it, and not under ``ids``, the hex's id (which moves no block: the
    symbols are drawn round where it goes).
    Both as WKB of shapely geometries, in hex sizes round the hex's centre; ``shift`` as
    :func:`sprite` takes it (the painters draw ``shift`` higher than the hex's frame)."""
    water: bytes | None
    over: bytes | None
    flat: bool
    shift: float = 0.0
    ids: bytes | None = None

    @cached_property
    def wet_area(self):
        """The water, widened by :data:`WATER_ROOM` (None without water)."""
        return shapely.from_wkb(self.water).buffer(WATER_ROOM, quad_segs=4) if self.water else None

    @cached_property
    def over_area(self):
        """What is drawn over the hex (None without)."""
        return shapely.from_wkb(self.over) if self.over else None

    def _box(self, x0: float, y0: float, x1: float, y1: float):
        return shapely.box(x0, y0 + self.shift, x1, y1 + self.shift)

    def wet(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the box (the painter's frame) reaches the water."""
        return self.wet_area is not None and self.wet_area.intersects(self._box(x0, y0, x1, y1))

    def settled(self, rects: list) -> list:
        """The blocks ``rects`` ((x, y, width, height), the painter's frame), each that would lie
        under what is drawn over the hex or on the water moved to the free place of the hex
        nearest its own, made smaller (:data:`BLOCK_SHRINK`) if only that fits, kept where it
        is if nothing does."""
        return list(_settled(self, tuple(rects)))

    def _settled(self, rects: list) -> list:
        over = self.over_area.buffer(LINE_ROOM, quad_segs=4) if self.over else None
        blocked = [g for g in (over, self.wet_area) if g is not None]
        if not blocked:
            return rects
        blocked = shapely.union_all(blocked)
        boxes = [self._box(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in rects]
        # a block a line only grazes stays: it reads as a block by the road
        under = shapely.area(shapely.intersection(self.over_area, boxes)) if self.over else 0.0
        if self.wet_area is not None:
            under = under + shapely.area(shapely.intersection(self.wet_area, boxes))
        hit = np.asarray(under) > BLOCK_HIDDEN * shapely.area(boxes)
        if not hit.any():
            return rects
        taken = [b for b, h in zip(boxes, hit) if not h]
        if self.ids:
            blocked = blocked.union(shapely.from_wkb(self.ids))
        out = list(rects)
        for n in np.flatnonzero(hit):
            x, y, w, h = rects[n]
            near = shapely.union_all(taken).buffer(BLOCK_ROOM, join_style="mitre") if taken else None
            for k in (1.0, BLOCK_SHRINK):
                at = self._free_place(x, y, w * k, h * k, blocked, near)
                if at is not None:
                    out[n] = (*at, w * k, h * k)
                    break
            taken.append(self._box(out[n][0] - out[n][2] / 2, out[n][1] - out[n][3] / 2,
                                   out[n][0] + out[n][2] / 2, out[n][1] + out[n][3] / 2))
        return out

    def dry_trees(self, trees: list) -> list:
        """The trees ``trees`` ((x, y, crown radius), the painter's frame, back rows first), each
        that would stand in the water or be cut by its shore moved to the nearest dry place of
        the hex among the others (dropped if there is none), back rows first again."""
        if self.wet_area is None:
            return trees
        # a tree's ink: its crown and its trunk below it
        boxes = [self._box(x - r, y - r, x + r, y + 1.55 * r) for x, y, r in trees]
        wet = shapely.intersects(self.wet_area, boxes)
        if not wet.any():
            return trees
        kept = [t for t, w in zip(trees, wet) if not w]
        for x, y, r in (t for t, w in zip(trees, wet) if w):
            # among the others as in the wood: crowns overlapping by a third at most
            near = shapely.union_all([shapely.Point(tx, ty + self.shift).buffer(tr * 0.35, quad_segs=4)
                                      for tx, ty, tr in kept]) if kept else None
            at = self._free_place(x, y + 0.275 * r, 2 * r, 2.55 * r, self.wet_area, near)
            if at is not None:
                kept.append((at[0], at[1] - 0.275 * r, r))
        return sorted(kept, key=lambda t: t[1])

    def _free_place(self, x, y, w, h, blocked, near):
        """The place nearest (x, y) (a grid of :data:`_BLOCK_STEP`) for a block ``w`` by ``h``
        inside the hex, below the id's room, clear of ``blocked`` and ``near``; None if none."""
        inner = _clip_polygon(self.flat)
        shapely.prepare(blocked)
        if near is not None:
            shapely.prepare(near)
        grid = np.arange(-0.5, 0.5 + 1e-9, _BLOCK_STEP)
        gx, gy = (a.ravel() for a in np.meshgrid(grid, grid))
        ok = gy - h / 2 >= TOP   # below the id's room, as every symbol
        gx, gy = gx[ok], gy[ok]
        order = np.argsort(np.hypot(gx - x, gy - y), kind="stable")
        for first in range(0, len(order), 64):   # the nearest first: most find room there
            k = order[first:first + 64]
            cx, cy = gx[k], gy[k]
            cand = shapely.box(cx - w / 2, cy - h / 2 + self.shift, cx + w / 2, cy + h / 2 + self.shift)
            free = shapely.contains(inner, cand) & ~shapely.intersects(blocked, cand)
            if near is not None:
                free &= ~shapely.intersects(near, cand)
            if free.any():
                j = int(np.argmax(free))
                return float(cx[j]), float(cy[j])
        return None


@lru_cache(maxsize=256)
def _settled(room: Room, rects: tuple) -> tuple:
    """:meth:`Room.settled`, made once (asked whether it moves anything, then drawn)."""
    return tuple(room._settled(list(rects)))


class SymbolRoom:
    """The symbols' room in :class:`~._mapdraw.MapScene` (a mixin: it reads the planned sprites,
    water and lines)."""

    def symbols_clear(self) -> None:
        """Each sprite whose hex a lake or (a village's) the lines, markers or signs reach
        made again with that hex's :class:`Room`, where that changes it: its ink off the lake,
        its blocks off what lies over them. The others stay as planned (see ``_grid_plan``)."""
        from ._mapdraw import _trimmed_sprite   # (the scene's module imports this one)

        water, over = self._water_area(), self._over()
        if water is None and not over:
            return
        S, flat, shift = self.size, self.grid.flat, self.symbol_shift
        cells = self.m.hexes
        drawn_of: dict = {}   # per terrain and features: the (code, style) drawn as sprites, a village?
        found = []   # (hex number, hex, its (code, style), has a village)
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
        under = defaultdict(list)   # per number in found: what lies over the hex (a village's)
        # (a village on a lake keeps its moved blocks off the lines too)
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
        """The numbers in ``found`` of the hexes with a village's block a fifth hidden or more
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
