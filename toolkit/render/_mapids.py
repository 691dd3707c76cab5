"""Hex ids: where each goes (moved off bridges and water), its knock-out box and its ink."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely

from ..hexes import Hex
from ._glyphs import _label_extent
from ._mapgeom import Kept, _rows
from .fonts import font
from .theme import rgb


#: The hexes' cells and id rooms in the names' frame, by layout (see HexIdLayer._id_cells and
#: _id_rooms): pure geometry, shared by every map drawn at that layout.
_ID_GEOMETRY = Kept(16)


def _luma(colour) -> float:
    r, g, b = colour[:3]
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


class HexIdLayer:
    """The hex-id layer of :class:`~._mapdraw.MapScene` (a mixin)."""

    def hex_ids(self) -> None:
        """Where each hex id goes, its knock-out box (hex colour, painted over whatever line
        crosses there, as printed maps do) and its ink."""
        self.ids: list[tuple] = []   # per hex: (x, y, knock-out box, (ink, knock-out colour or None))
        self.id_box_array = np.zeros((0, 4))   # the same boxes as rows of an array
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
        text = grid_labels(self.grid)
        self._id_labels = labels = tuple(map(text.__getitem__, self.hexes))   # in the order of hexes
        self._id_shift = self._ids_moved()
        pad = max(1, round(self.px(0.012)))
        hexes, shift = self.hexes, self._id_shift
        # every id's place and box in arrays: the arithmetic of label_box (snapped anchor plus
        # the label's extent), hex by hex the same numbers
        at = self.centre_array.copy()   # in the order of hexes
        for h, (sx, sy) in shift.items():   # moved aside for a bridge or water
            n = self._hex_number(h)
            cx, cy = at[n]
            at[n] = (cx + sx * self.size, cy + sy * self.size)
        size, bold, family = self.id_font
        extent = _label_extents(labels, size, bold, family, self.id_anchor)
        ys = at[:, 1] + dy
        anchors = np.floor(np.column_stack([at[:, 0], ys]) + 0.5).astype(np.int64)   # snap()
        boxes = np.tile(anchors, 2) + extent + (-pad, -pad, pad, pad)
        self.id_box_array = boxes.astype(float)   # for the hexes' extents (see MapScene._hex_extents)
        boxes = list(zip(*(column.tolist() for column in boxes.T)))   # tuples straight from the columns
        self.id_boxes.update(zip(hexes, boxes))
        water, fills, paper = self.water_colour, self.fills, self.theme.paper
        grounds = [water.get(h) or fills[h] for h in hexes]
        # nothing but the id shows in its box: a road, rail, river or shore line passing there
        # is interrupted by it (on water the box is water)
        styles = {ground: (colour if _luma(ground) > 0.55 else paper, ground) for ground in set(grounds)}
        self.ids = list(zip(at[:, 0].tolist(), ys.tolist(), boxes, map(styles.__getitem__, grounds), labels))

    def _framed_all(self, k: float) -> np.ndarray:
        """:meth:`_framed_ids` of every hex where its id went (moved by :meth:`_ids_moved`), in
        the order of :attr:`hexes`: made once (the markers and the names weigh them)."""
        framed = self.__dict__.get("_framed")
        if framed is None or framed[0] != k:
            shifts = np.zeros((len(self.hexes), 2))
            for h, shift in self._id_shift.items():
                shifts[self._hex_number(h)] = shift
            framed = self._framed = (k, self._framed_numbers(np.arange(len(self.hexes)), k, shifts))
        return framed[1]

    def _hex_number(self, h: Hex) -> int:
        """Where ``h`` is in :attr:`hexes`."""
        numbers = self.__dict__.get("_hex_numbers")
        if numbers is None:
            numbers = self._hex_numbers = {h: n for n, h in enumerate(self.hexes)}
        return numbers[h]

    #: Where an id a bridge would cover goes instead (fractions of the hex size; x away from
    #: the bridge first): beside it along the top of the hex, else a little lower.
    ID_MOVES = ((0.1, 0.0), (0.13, 0.03), (0.16, 0.06), (0.0, 0.08), (0.0, 0.12), (0.08, 0.1), (0.0, 0.16),
                (0.0, 0.2), (0.0, 0.24))   # below a railway's bridge drawn along the row (White Death 0716)

    #: Where an id water runs through goes instead: further into the hex (away from the
    #: river, lake side or shore along the hexside it sits by), then a little aside as well,
    #: then beside a river drawn down the middle of the hex.
    ID_DRY_MOVES = tuple((0.0, n / 50) for n in range(1, 9)) + ((0.06, 0.08), (-0.06, 0.08), (0.1, 0.1), (-0.1, 0.1),
                                                              (0.22, 0.2), (-0.22, 0.2), (0.22, 0.24), (-0.22, 0.24))

    #: Where an id goes when nothing above is clear of the water, the bridges and the roads (a
    #: long bridge through the top of its hex, Mischurin Rog 4147; a road down the middle of a
    #: hex a river crosses at the top): down below the bridge, then lower beside the road.
    ID_LOW_MOVES = ((0.0, 0.3), (0.0, 0.36), (0.0, 0.42), (0.0, 0.48), (0.24, 0.3), (-0.24, 0.3),
                    (0.24, 0.38), (-0.24, 0.38), (0.24, 0.46), (-0.24, 0.46))

    #: How many of an id's first moves are weighed before the rest (see :meth:`_ids_moved`):
    #: they settle most ids.
    ID_FIRST = 6

    def _id_orders(self, inward: float) -> dict:
        """Every move an id may make, in the order tried, as a moves x 2 array per kind of id:
        one a bridge covers (key: 1.0 or -1.0, the side away from the bridge first), one
        water runs through (key None); each ends with the low moves. ``inward``: -1 for ids
        at the bottom of their hex (the moves go up)."""
        def order(moves):
            return np.asarray([(mx, my * inward) for mx, my in list(moves) + list(self.ID_LOW_MOVES)], dtype=float)

        aside = {away: [(sign * mx, my) for mx, my in self.ID_MOVES for sign in (away, -away)] for away in (1.0, -1.0)}
        return {1.0: order(aside[1.0] + list(self.ID_DRY_MOVES)), -1.0: order(aside[-1.0] + list(self.ID_DRY_MOVES)),
                None: order(list(self.ID_DRY_MOVES) + [(sign * mx, my) for mx, my in self.ID_MOVES
                                                        for sign in (1.0, -1.0)])}

    def _ids_moved(self) -> dict:
        """Hexes whose id would cover a bridge deck or water (a river or lake side along the
        hexside the id sits by, a lake's shore line, a river drawn as a line down the middle of
        the hex), with where the id goes instead: its
        knock-out box would cut a notch in the water or the bridge. A bridge sits where its
        road crosses the river, and a road crossing the top side of a hex on a flat-topped
        grid crosses it right at the id; a river along that side runs through the id's box.
        Weighed in the names' frame (the same moves at every dpi)."""
        k = self.NAME_FRAME / self.size
        F = self.NAME_FRAME
        decks = []
        if self.bridge_decks:   # all in one call (a map has dozens)
            corners = np.concatenate([np.asarray(d, dtype=float) for d in self.bridge_decks]) * k
            rings = np.repeat(np.arange(len(self.bridge_decks)), [len(d) for d in self.bridge_decks])
            decks = list(shapely.polygons(shapely.linearrings(corners, indices=rings)))
        # each kind of water shaped in one call (a map has dozens of rivers and shores)
        water = []
        if self.water_lines:
            lines = shapely.transform(np.asarray(self.water_lines, dtype=object), lambda c: c * k)
            water += list(shapely.buffer(lines, np.asarray(self.water_widths, dtype=float) / 2 * F))
        water += [shapely.transform(b, lambda c: c * k) for b in self.__dict__.get("lake_bodies", ())]
        shores = [np.asarray(pts, dtype=float) * k for pts, _ in self.shores if len(pts) > 1]
        if shores:
            lines = shapely.linestrings(np.concatenate(shores), indices=np.repeat(np.arange(len(shores)),
                                                                                  [len(p) for p in shores]))
            water += list(shapely.buffer(lines, max(0.5, 0.009 * F)))
        # a river drawn as a line runs down the middle of its hexes, through the id at their
        # top: knocked out there, it would read as a dashed line (White Death's watercourses)
        water += [shapely.LineString(np.asarray(pts, dtype=float) * k).buffer(style.width / 2 * F)
                  for style, pts in self.__dict__.get("line_paths", ()) if style.key == "watercourse" and len(pts) > 1]
        if not decks and not water:
            return {}
        deck_array = np.asarray(decks + [None], dtype=object)[:-1]
        deck_tree = shapely.STRtree(deck_array)
        # the water (a few long shapes of thousands of points) prepared: each box is then
        # weighed against it in a few steps, not against every point
        water = np.asarray(water + [None], dtype=object)[:-1]
        shapely.prepare(water)
        inset = 0.02 * F   # the id stays clear of the hex's own grid lines
        # an id printed small sits up to 0.04 hex off where the frame measures it (see places)
        margin = 0.03 * F
        inward = -1.0 if self.id_anchor == "mb" else 1.0

        # only hexes within a hex of a deck or of water can have either under their id: the
        # decks and the water meeting each hex's cell (a box a hex across round its centre)
        hexes = self.hexes
        at = self.centre_array * k   # in the order of hexes
        cells, cell_tree = self._id_cells(k)
        deck_parts = _Parts(*deck_tree.query(cells, predicate="intersects"), len(hexes)) if decks else None
        water_parts = (_Parts(*cell_tree.query(water, predicate="intersects")[::-1], len(hexes))
                       if len(water) else None)

        def clash(boxes: np.ndarray, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """Per box (rows of an N x 4 array) of the id of the hex ``owners`` (numbers of
            :attr:`hexes`): does it meet a deck, and water (with the margin)? A box is weighed
            against the parts meeting its hex's cell (an id and its moves lie inside it: a few
            parts, not every one whose bounds reach the box), one reaching out of the cell (an
            id too big for the cell) against all of them."""
            on_deck, wet = np.zeros(len(boxes), dtype=bool), np.zeros(len(boxes), dtype=bool)
            if not len(boxes):
                return on_deck, wet
            x0, y0, x1, y1 = boxes.T
            shapes = shapely.box(x0, y0, x1, y1)
            grown = shapely.box(x0 - margin, y0 - margin, x1 + margin, y1 + margin)
            cx, cy = at[owners].T
            out = np.flatnonzero((x0 - margin < cx - F) | (x1 + margin > cx + F) | (y0 - margin < cy - F)
                                 | (y1 + margin > cy + F))
            if decks:
                box, part = deck_parts.of(owners)
                on_deck[box[shapely.intersects(shapes[box], deck_array[part])]] = True
                if len(out):
                    on_deck[out[deck_tree.query(shapes[out], predicate="intersects")[0]]] = True
            if len(water):
                box, part = water_parts.of(owners)
                wet[box[shapely.intersects(water[part], grown[box])]] = True
                if len(out):
                    wet[out[shapely.STRtree(grown[out]).query(water, predicate="intersects")[1]]] = True
            return on_deck, wet

        numbers = np.flatnonzero((deck_parts.count if decks else 0) + (water_parts.count if len(water) else 0))
        boxes = self._framed_numbers(numbers, k, np.zeros((len(numbers), 2)))
        on_deck, wet = clash(boxes, numbers)
        hit = on_deck | wet
        numbers, boxes, on_deck = numbers[hit], boxes[hit], on_deck[hit]
        if not len(numbers):
            return {}
        # every hex's moves in its order (the low ones last), as an N x moves x 2 array
        orders = []
        for n, box, deck_hit in zip(numbers.tolist(), boxes, on_deck.tolist()):
            if deck_hit:   # aside, away from the bridge, first
                deck = decks[int(deck_tree.query(shapely.box(*box), predicate="intersects")[0])]
                orders.append(1.0 if self.centres[hexes[n]][0] * k >= deck.centroid.x else -1.0)
            else:
                orders.append(None)
        kinds = self._id_orders(inward)
        orders = np.stack([kinds[key] for key in orders])
        # weighed in stages, the nearest moves first: most ids find a clear spot among the
        # first few, and only the others weigh the rest of their moves (a hex's first clear
        # move and its fallbacks below are the same as with every move weighed: a hex with no
        # clear spot yet weighs every later stage)
        shape = orders.shape[:2]
        off_deck, dry, clear = np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool), np.zeros(shape, dtype=bool)
        main = 2 * len(self.ID_MOVES) + len(self.ID_DRY_MOVES)   # then the low moves
        for a, b in ((0, self.ID_FIRST), (self.ID_FIRST, main), (main, shape[1])):
            todo = np.flatnonzero(~(off_deck & dry & clear).any(axis=1))
            if not len(todo):
                break
            weighed = self._weigh_moves(numbers[todo], orders[todo, a:b], k, inset, clash)
            for into, part in zip((off_deck, dry, clear), weighed):
                into[todo, a:b] = part
        moves: dict = {}
        for j, n in enumerate(numbers.tolist()):
            good = np.flatnonzero(off_deck[j] & dry[j] & clear[j])
            if not len(good):   # no spot clear of the roads as well: the road knocked out under it
                good = np.flatnonzero(off_deck[j] & dry[j])
            if not len(good) and on_deck[j]:   # no spot clear of both: at least off the bridge
                good = np.flatnonzero(off_deck[j])
            if len(good):
                mx, my = orders[j, good[0]].tolist()
                moves[hexes[n]] = (mx, my)
        return moves

    def _weigh_moves(self, numbers: np.ndarray, orders: list, k: float, inset: float, clash) -> tuple:
        """For the hexes ``numbers`` (of :attr:`hexes`) and each one's moves (``orders``, an N x
        moves x 2 array): whether each move stays inside the hex off the bridges, off the water,
        and clear of the roads and railways (N x moves arrays of bools)."""
        F = self.NAME_FRAME
        tried = orders.shape[1]
        shifts = orders.reshape(-1, 2)
        moved = self._framed_numbers(numbers, k, shifts, tried)
        rooms = self._id_rooms(numbers, k, inset)
        inside = shapely.contains(np.repeat(rooms, tried), shapely.box(*moved.T))
        # only a move inside the hex is weighed against the decks and water
        off_deck, dry = np.zeros(len(moved), dtype=bool), np.zeros(len(moved), dtype=bool)
        within = np.flatnonzero(inside)
        deck_hit, wet = clash(moved[within], np.repeat(numbers, tried)[within])
        off_deck[within], dry[within] = ~deck_hit, ~wet
        # the roads and railways: a moved id goes where none runs if it can (one staying in its
        # row knocks out the line under it, as printed maps do; one moved into the hex would
        # cut the line in the middle of the hex); each width's lines asked about the boxes at
        # once, only about the moves clear of the water and the bridges
        clear = off_deck & dry
        ask = np.flatnonzero(clear)
        reach: dict[float, list] = {}
        for (style, _), pts in zip(self.__dict__.get("line_paths", ()), self.__dict__.get("line_arrays", ())):
            if style.key != "watercourse" and len(pts) > 1:
                reach.setdefault((max(style.width, style.ties or 0.0) / 2 + 0.011) * F, []).append(pts)
        if reach and len(ask):
            x0, y0, x1, y1 = moved[ask].T
            tree = shapely.STRtree(shapely.box(x0, y0, x1, y1))
            for distance, paths in reach.items():
                lines = [shapely.LineString(pts * k) for pts in paths]
                clear[ask[tree.query(lines, predicate="dwithin", distance=distance)[1]]] = False
        return off_deck.reshape(-1, tried), dry.reshape(-1, tried), clear.reshape(-1, tried)

    def _id_cells(self, k: float) -> tuple[np.ndarray, shapely.STRtree]:
        """Each hex's cell in the frame ``k`` (a box a hex across round its centre, in the order
        of :attr:`hexes`) and a tree over them: made once per layout (see :data:`_ID_GEOMETRY`)."""
        key = ("cells", self.layout, k)
        if key not in _ID_GEOMETRY:
            F = self.NAME_FRAME
            at = self.centre_array * k
            cells = shapely.box(at[:, 0] - F, at[:, 1] - F, at[:, 0] + F, at[:, 1] + F)
            _ID_GEOMETRY.keep(key, (cells, shapely.STRtree(cells)))
        return _ID_GEOMETRY[key]

    def _id_rooms(self, numbers: np.ndarray, k: float, inset: float) -> np.ndarray:
        """Where in each of the hexes ``numbers`` an id may go (its hex ``inset`` in, in the
        frame ``k``), prepared (each is asked about every move of its hex); made once per hex
        and layout (see :data:`_ID_GEOMETRY`: the later stages of the search, and other maps
        of the grid, ask about hexes the first asked about)."""
        key = ("rooms", self.layout, k, inset)
        made = _ID_GEOMETRY.get(key)
        if made is None:
            made = _ID_GEOMETRY.keep(key, np.full(len(self.hexes), None, dtype=object))
        new = np.unique(numbers[np.equal(made[numbers], None)])
        if len(new):
            # each hex's corners as Layout.corners makes them (its centre plus the same offsets)
            corners = self.centre_array[new, None, :] + np.asarray(self._unit_corners())[None]
            made[new] = shapely.buffer(shapely.polygons(corners * k), -inset)
            shapely.prepare(made[new])
        return made[numbers]

    def _framed_ids(self, hexes: list[Hex], k: float, shifts: np.ndarray, each: int = 1) -> np.ndarray:
        """The boxes of the ids of ``hexes`` (and their knock-out margins) as printed at ``k``
        times this size, each moved by ``each`` rows of ``shifts`` in turn (fractions of the hex
        size, an N * each x 2 array), as rows of an N * each x 4 array."""
        return self._framed_numbers(np.fromiter(map(self._hex_number, hexes), dtype=np.int64, count=len(hexes)),
                                    k, shifts, each)

    def _framed_numbers(self, numbers: np.ndarray, k: float, shifts: np.ndarray, each: int = 1) -> np.ndarray:
        """:meth:`_framed_ids` of the hexes ``numbers`` (of :attr:`hexes`)."""
        dy, pad = self._id_offset, max(1, round(self.px(0.012) * k))
        at, extents = self.centre_array[numbers], self._frame_extents(k)[numbers]
        if each > 1:
            at, extents = np.repeat(at, each, axis=0), np.repeat(extents, each, axis=0)
        x = (at[:, 0] + shifts[:, 0] * self.size) * k
        y = (at[:, 1] + dy + shifts[:, 1] * self.size) * k
        return np.column_stack([x + extents[:, 0] - pad - 1, y + extents[:, 1] - pad - 1,
                                x + extents[:, 2] + pad + 1, y + extents[:, 3] + pad + 1])

    def _frame_extents(self, k: float) -> np.ndarray:
        """Per hex (rows in the order of :attr:`hexes`), the box of its id round its anchor in
        a font ``k`` times the id's size."""
        size, bold, family = self.id_font
        return _extents(self._id_labels, size * k, bold, family, self.id_anchor)


class _Parts:
    """The parts (decks or water) meeting each hex's cell, from the pairs a tree query gives
    (hex numbers, part numbers), grouped by hex."""

    def __init__(self, hexes: np.ndarray, parts: np.ndarray, count: int) -> None:
        order = np.lexsort((parts, hexes))
        self.parts = parts[order]
        self.count = np.bincount(hexes, minlength=count)
        self.start = np.cumsum(self.count) - self.count

    def of(self, owners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every (box, part) pair of boxes whose hexes are ``owners``: the box numbers and the
        part numbers, as two arrays."""
        count = self.count[owners]
        box = np.repeat(np.arange(len(owners)), count)
        offset = np.arange(len(box)) - np.repeat(np.cumsum(count) - count, count)
        return box, self.parts[np.repeat(self.start[owners], count) + offset]


@lru_cache(maxsize=8)
def grid_labels(grid) -> dict[Hex, str]:
    """Every hex's printed id on ``grid``, shared by every map of that grid (read only)."""
    return {h: grid.format(h) for h in grid.hexes()}


@lru_cache(maxsize=8)
def _label_extents(labels: tuple, size: float, bold: bool, family: str, anchor: str) -> np.ndarray:
    """The :func:`_label_extent` of each of ``labels`` as rows of an array (read only): a
    map's ids measured once for every map of its grid at that size."""
    rows = _rows((_label_extent(label, size, bold, family, anchor) for label in labels), len(labels), 4, np.int64)
    rows.flags.writeable = False
    return rows


@lru_cache(maxsize=8)
def _extents(labels: tuple, size: float, bold: bool, family: str, anchor: str) -> np.ndarray:
    """The :func:`_extent` of each of ``labels`` as rows of an array (read only): the ids of
    every map of a grid weighed in the names' frame (see NameLayer.places) measured once."""
    rows = _rows((_extent(label, size, bold, family, anchor) for label in labels), len(labels), 4)
    rows.flags.writeable = False
    return rows


@lru_cache(maxsize=65536)
def _extent(text: str, size: float, bold: bool, family: str, anchor: str, stroke: int = 0) -> tuple:
    """The box of ``text`` round its ``anchor`` in a font of ``size`` (measured, not drawn:
    names and ids are weighed in the placing frame at a size never printed)."""
    return font(size, bold=bold, family=family).getbbox(text, anchor=anchor, stroke_width=stroke)
