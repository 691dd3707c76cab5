"""Place names: one label per name and group of hexes, in the spot that hides nothing and
covers the least road, rail and river, weighed in a frame of a fixed hex size."""

from __future__ import annotations

import math

import numpy as np

from ._glyphs import text_box, text_sprite
from ._mapgeom import Bins, Boxes, line_cover, overlap
from ._mapids import _extent
from ._mapsymbols import symbol_reach
from ._raster import snap
from .theme import rgb


class NameLayer:
    """The place-name layer of :class:`~._mapdraw.MapScene` (a mixin)."""

    #: Where a place name may go around one of its hexes, nearest first to the spot under the
    #: town symbol: (dx, dy, side), fractions of the hex size from the centre. Side 0: the
    #: name's middle there (up to a little over half a hex aside); side 1 or -1: the name
    #: starts there and runs off to the right, or ends there coming from the left, as a map
    #: names a town at a crowded junction.
    NAME_SPOTS = tuple(sorted(
        [(dx / 20, dy / 20, 0) for dx in range(-12, 13, 3) for dy in range(-9, 12, 2)]
        + [(side * k, dy / 20, side) for side in (1, -1) for k in (0.3, 0.45) for dy in range(-5, 8, 2)],
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
        runs = self._labelled_places()
        if not runs:
            return
        k = self.NAME_FRAME / self.size   # map pixels -> frame pixels
        unit = self.NAME_FRAME
        # what a name must not hide: ids, markers, signs, bridges and edge labels (found by their box
        # on the map, weighed by their box in the frame)
        boxes = [b for b in (*self.marker_boxes, *self.sign_boxes)]
        boxes += [(min(x for x, _ in d), min(y for _, y in d), max(x for x, _ in d), max(y for _, y in d))
                  for d in self.bridge_decks]
        boxes += [(x, y, x + tile.width, y + tile.height) for tile, (x, y) in self.edge_tiles]
        boxes = np.asarray(boxes, dtype=float).reshape(-1, 4)
        near = Boxes(np.concatenate([self.id_box_array.reshape(-1, 4), boxes]))
        # the same boxes in the frame (every id's at once: a few numpy calls, not a few per name),
        # with a margin: text measured at another size is a pixel or two wider
        margin = 0.03 * self.NAME_FRAME
        framed = np.concatenate([self._framed_all(k) if self.ids else np.zeros((0, 4)), boxes * k])
        framed += (-margin, -margin, margin, margin)

        def hard(area) -> list:
            return framed[near.within(area)].tolist()

        # the terrain symbols (woods, marsh, hills, other towns' blocks): a name goes over open
        # ground rather than hide them, as a cartographer names a town beside a wood
        # by the box of their ink (a marsh's or rough ground's dots reach down most of the hex),
        # measured at one size: the same box at every dpi
        with_symbol = [n for n, sprites in self.sprites.items() if sprites]
        sym_hexes = [self.hexes[n] for n in with_symbol]
        reach: dict[tuple, int] = {}   # per terrain and features: its row of boxes
        boxes_by_codes: list = []
        rows = []
        cells = self.m.hexes
        for h in sym_hexes:
            cell = cells[h]
            codes = (cell.terrain, *cell.features)
            row = reach.get(codes)
            if row is None:
                boxes_of = [symbol_reach(self.style_of(c), self.grid.flat, self.symbol_shift)
                            for c in self._signs_apart(codes)[0]]
                boxes_of = np.asarray([b for b in boxes_of if b is not None], dtype=float).reshape(-1, 4)
                row = reach[codes] = len(boxes_by_codes)
                boxes_by_codes.append(np.concatenate([boxes_of[:, :2].min(axis=0), boxes_of[:, 2:].max(axis=0)])
                                      if len(boxes_of) else np.zeros(4))
            rows.append(row)
        # each hex's box in the frame, all at once (the same arithmetic, hex by hex the same numbers)
        at = self.centre_array[with_symbol].reshape(-1, 2) * k
        sym_boxes = (np.asarray(boxes_by_codes, dtype=float).reshape(-1, 4)[rows] * unit
                     + np.column_stack([at, at]) if rows else np.zeros((0, 4)))
        sym_index = Boxes(sym_boxes)
        segments, widths, wet, along_sides = self._name_obstacles(k)
        half_w = widths / 2
        seg_boxes = np.column_stack([np.minimum(segments[:, 0], segments[:, 2]) - half_w,
                                     np.minimum(segments[:, 1], segments[:, 3]) - half_w,
                                     np.maximum(segments[:, 0], segments[:, 2]) + half_w,
                                     np.maximum(segments[:, 1], segments[:, 3]) + half_w])
        seg_index = Boxes(seg_boxes)
        seg_rows = np.column_stack([segments, widths, seg_boxes])   # as line_cover takes them
        placed: list = []   # frame boxes of the names placed so far
        placed_bins = Bins(cell=round(unit * 2))
        W, H = self.extent[0] * k, self.extent[1] * k
        # largest places first: they get the best spots
        for run in sorted(runs, key=lambda run: -kinds.get(run[0].kind, 1.0)):
            place = run[0]
            run_hexes = [p.hex for p in run]
            scale = style.get("size", 0.165) * kinds.get(place.kind, 1.0)   # font size, in hexes
            bold = place.kind in ("city", "town")
            best = None   # ((hidden area, cost, rank), hex, spot, shrink, frame box, hides a symbol, lines' ink)
            free = False   # a spot that hides nothing and covers no line was found
            shrink_cost = 0.0   # what a smaller name costs (see SHRINK_COST)
            # the built-up hexes that are the town's own (the symbols a settlement's name may cover)
            own = self._built_up(run_hexes) if place.kind in self.SETTLEMENTS else None
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
                    # as rows of Python numbers: each spot weighs them one by one
                    rows = seg_rows[lines].tolist()
                    side_rows = [row for row, sided in zip(rows, along_sides[lines].tolist()) if sided]
                    water = [row[:4] for row, w in zip(rows, wet[lines].tolist()) if w]
                    symbols = sym_boxes[[n for n in sym_index.within(farea) if sym_hexes[n] not in own]].tolist() \
                        if own is not None else []
                    for rank, (dx, dy, side) in enumerate(self.NAME_SPOTS):
                        x, y = fx + dx * unit + side * half, fy + dy * unit
                        rect = (x + ex0, y + ey0, x + ex1, y + ey1)
                        clash = overlap(rect, local)
                        if rect[0] < 0 or rect[1] < 0 or rect[2] > W or rect[3] > H:
                            clash += (rect[2] - rect[0]) * (rect[3] - rect[1])
                        # the ink of lines under the name against the distance from the best
                        # spot: half a hex aside is worth a road crossing the name
                        cover = line_cover(rect, rows) if clash == 0 else 0.0
                        if cover and side_rows:   # a river under a name weighs more than a road
                            cover += (self.WATER_WEIGHT - 1.0) * line_cover(rect, side_rows)
                        if clash == 0 and symbols:
                            cover += _symbol_cost(rect, symbols, self.SYMBOL_WEIGHT, self.SYMBOL_MOST, self.SYMBOL_EXCESS)
                        if clash == 0 and water and _crosses((fx, fy), (min(max(fx, rect[0]), rect[2]),
                                                                           min(max(fy, rect[1]), rect[3])), water,
                                                                  0.15 * unit):
                            cover += self.ACROSS / self.LINE_WEIGHT * unit ** 2   # across a river from its town
                        # rounded: spots either side of a town cost the same but for float noise,
                        # which must not pick a side differently at another dpi
                        cost = (clash, round(cover * self.LINE_WEIGHT + math.hypot(dx, dy - 0.25) * (0.15 * unit) ** 2
                                             + (1.0 - shrink) * shrink_cost, 3), rank)
                        if best is None or cost < best[0]:
                            hides = clash == 0 and bool(symbols) and _symbol_cost(rect, symbols, 0.0, self.SYMBOL_MOST, 1.0) > 0
                            best = (cost, hex, (dx, dy, side), shrink, rect, hides, cover)
                        if clash == 0 and cover == 0:
                            free = True   # the nearest spot that covers nothing
                            break
                    if free:
                        break
                if best[0][0] == 0 and not best[5]:
                    if best[6] <= self.SHRINK_AFTER * unit ** 2:
                        break   # a smaller name only to hide no id, marker or name, nor too much of a symbol
                    shrink_cost = self.SHRINK_COST * unit ** 2   # or to lie over less line, if that spares enough
            _, hex, (dx, dy, side), shrink, frame_rect, *_ = best
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

    #: What the ink of the lines under a name weighs against its distance from its usual spot
    #: (the lines are knocked out under the lettering: a road crossing it costs two thirds of a hex).
    LINE_WEIGHT = 1.0

    #: What the ink of a river or lake side along the hexsides under a name weighs against a
    #: road's: knocked out under the lettering, a road still reads whole, a river no longer shows
    #: which hexside it runs along (Velikiye Luki's "Luki" over the Lovat beside the town). A
    #: river drawn as a line through the hexes (White Death's) weighs as a road: crossed by a
    #: name like one, it still shows which hexes it runs through.
    WATER_WEIGHT = 6.0

    #: The lines' ink under the best spot for a name (in the frame's hexes squared) beyond which
    #: a smaller name is tried: a road or railway crossing it is about 0.015 to 0.025, one
    #: lying along it or a river under it more (Velikiye Luki's name over the road east out of
    #: the town, 0.077: at 0.76 of its size it crosses only the railway, 0.019).
    SHRINK_AFTER = 0.035

    #: What a name smaller by a tenth of its size costs, in the frame's hexes squared (against
    #: the lines' ink under it): it must spare more than a road crossing to be worth it.
    SHRINK_COST = 0.2

    #: What a frame pixel of terrain symbol under a name weighs against the lines' ink: a name
    #: wholly over a wood's trees costs about what moving it most of a hex does.
    SYMBOL_WEIGHT = 0.04

    #: The part of a neighbour's symbol (of the box of its ink) a name may cover at the weight
    #: above: the edge of a wood or of a town's blocks, the symbol still reads whole (Novosokolniki
    #: beside its woods covers 0.09); beyond it each frame pixel costs :attr:`SYMBOL_EXCESS` more,
    #: and a smaller name is tried (Demyansk, hemmed in by its ids, roads and river, covered 0.31
    #: of the rough ground beside it).
    SYMBOL_MOST = 0.12

    #: What a frame pixel of symbol covered beyond :attr:`SYMBOL_MOST` costs: five times the
    #: pixels within it, a road's ink under the name about as much as a tenth of the symbol.
    SYMBOL_EXCESS = 1.0

    #: The places whose name keeps off the symbols next door (a hill's or a bridge's name lies
    #: on or by its feature whatever is round it).
    SETTLEMENTS = frozenset({"city", "town", "village", "hamlet"})

    #: What a name across a river from its town costs, in the frame's hexes squared (the
    #: distance of the name from its usual spot weighs 0.0225 a hex).
    ACROSS = 0.25

    #: How far beyond its letters and their halo (a fraction of the font size) a name knocks
    #: out the linework under it: enough to close the gaps between the letters.
    KNOCKOUT = 0.24

    def name_knockouts(self) -> list[tuple]:
        """Per name with roads, railways, rivers or hexside lines under its lettering: the box
        of its knock-out and the mask (the letters grown by :attr:`KNOCKOUT` of the font size)
        inside which the map is drawn without them, as a printed map breaks a line under the
        lettering of a name rather than print the name over it."""
        work = np.flatnonzero(self.linework)
        if not len(work) or not self.place_list:
            return []
        raw, pads = self.op_raw[work], self.op_pads[work]
        out = []
        for at, name, size, bold, family, _, hw, _, _ in self.place_list:
            tile, dx, dy = text_sprite(name, size, bold, family, (0, 0, 0), "mm", hw + max(1, round(size * self.KNOCKOUT)))
            x0, y0 = snap(at[0]) + dx, snap(at[1]) + dy
            x1, y1 = x0 + tile.width, y0 + tile.height
            if ((raw[:, 0] - pads < x1) & (x0 < raw[:, 2] + pads) & (raw[:, 1] - pads < y1) & (y0 < raw[:, 3] + pads)).any():
                out.append(((x0, y0, x1, y1), tile.getchannel("A")))
        return out

    def _name_obstacles(self, k: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The drawn roads, railways, rivers and lake sides as segments (x0, y0, x1, y1 rows),
        their widths, at ``k`` times this size, whether each is water and whether it is water
        along the hexsides (a river or lake side, not a river drawn as a line through the
        hexes): what a name should not lie along (nor lie beyond, for water)."""
        parts, widths, wet, sides = [], [], [], []
        lines = [(pts,   # a railway as wide as its ties
                  self.px(max(style.width, style.ties or 0.0)) + (self.px(0.022) if style.casing is not None else 0.0),
                  style.key == "watercourse", False)
                 for (style, _), pts in zip(self.line_paths, self.line_arrays)]
        lines += [(np.asarray(line.coords, dtype=float).reshape(-1, 2), self.px(0.05), True, True)
                  for line in self.water_lines]
        for p, w, water, side in lines:
            p = p * k
            parts.append(np.hstack([p[:-1], p[1:]]))
            widths.append(np.full(len(p) - 1, w * k))
            wet.append(np.full(len(p) - 1, water))
            sides.append(np.full(len(p) - 1, side))
        if not parts:
            return np.zeros((0, 4)), np.zeros(0), np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
        return np.concatenate(parts), np.concatenate(widths), np.concatenate(wet), np.concatenate(sides)

    def _built_up(self, hexes) -> set:
        """``hexes`` and the built-up hexes (a city's, town's or village's symbol) joined to them
        that name no place of their own as great: the town whose name may lie over them
        (Velikiye Luki is drawn over eight hexes, one named a city, one its Citadel)."""
        rank = {"city": 3, "town": 2, "village": 1}
        mine_hexes = set(hexes)
        mine = max((rank.get(p.kind, 0) for p in self.m.places if p.hex in mine_hexes), default=0)
        # a lesser place inside the town (Velikiye Luki's Citadel) is the town's too
        named = {place.hex for place in self.m.places if rank.get(place.kind, 0) >= mine}
        out, todo = set(hexes), list(hexes)
        while todo:
            for n in self.m.grid.neighbours(todo.pop()):
                cell = self.m.hexes.get(n)
                if n in out or n in named or cell is None:
                    continue
                if any(self.style_of(code).symbol in self.BUILT_UP for code in (cell.terrain, *cell.features)):
                    out.add(n)
                    todo.append(n)
        return out

    #: The symbols of a built-up hex.
    BUILT_UP = frozenset({"city", "town", "village"})

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


def _symbol_cost(rect, symbols: list, weight: float, most: float, excess: float) -> float:
    """What a name in ``rect`` costs for the symbols (boxes) it covers: ``weight`` a pixel
    covered, ``excess`` more a pixel beyond the part ``most`` of a symbol."""
    x0, y0, x1, y1 = rect
    total = 0.0
    for bx0, by0, bx1, by1 in symbols:
        if not (bx0 < x1 and x0 < bx1 and by0 < y1 and y0 < by1):   # (most do not meet: no call for them)
            continue
        w, h = min(x1, bx1) - max(x0, bx0), min(y1, by1) - max(y0, by0)
        if w > 0 and h > 0:
            total += w * h * weight + max(0.0, w * h - most * (bx1 - bx0) * (by1 - by0)) * excess
    return total


def _crosses(p, q, segments, skip: float = 0.0) -> bool:
    """Whether the segment from ``p`` to ``q`` crosses any of ``segments`` (x0, y0, x1, y1
    rows), its first ``skip`` left out (a river drawn through the middle of a town's hex passes
    through ``p`` itself: which side of it the name lies is not a crossing)."""
    (px, py), (qx, qy) = p, q
    length = math.hypot(qx - px, qy - py)
    if length <= skip:
        return False
    px, py = px + (qx - px) * skip / length, py + (qy - py) * skip / length

    def side(x0, y0, x1, y1, x, y) -> int:
        v = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0)
        return 1 if v > 0 else -1 if v < 0 else 0

    return any(side(px, py, qx, qy, ax, ay) * side(px, py, qx, qy, bx, by) < 0
               and side(ax, ay, bx, by, px, py) * side(ax, ay, bx, by, qx, qy) < 0
               for ax, ay, bx, by in segments)
