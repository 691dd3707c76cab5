"""Hex ids: where each goes (moved off bridges and water), its knock-out box and its ink."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import shapely

from ..hexes import Hex
from ._glyphs import label_box
from .fonts import font
from .theme import rgb


def _luma(colour) -> float:
    r, g, b = colour[:3]
    return (0.299 * r + 0.587 * g + 0.114 * b) / 255


class HexIdLayer:
    """The hex-id layer of :class:`~._mapdraw.MapScene` (a mixin)."""

    def hex_ids(self) -> None:
        """Where each hex id goes, its knock-out box (hex colour, painted over whatever line
        crosses there, as printed maps do) and its ink."""
        self.ids: list[tuple] = []   # per hex: (x, y, knock-out box, (ink, knock-out colour or None))
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
        self._id_text: dict[Hex, str] = {}
        self._id_shift = self._ids_moved()
        pad = max(1, round(self.px(0.012)))
        fmt = self.grid.format
        styles: dict = {}
        lumas: dict = {}
        shift = self._id_shift
        for h in self.hexes:
            cx, cy = self.centres[h]
            if h in shift:   # moved aside for a bridge
                cx, cy = cx + shift[h][0] * self.size, cy + shift[h][1] * self.size
            label = fmt(h)
            water = self.water_colour.get(h)
            ground = water or self.fills[h]
            ink = lumas.get(ground)
            if ink is None:
                ink = lumas[ground] = colour if _luma(ground) > 0.55 else self.theme.paper
            x0, y0, x1, y1 = label_box(cx, cy + dy, label, *self.id_font, anchor=self.id_anchor)
            box = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
            # nothing but the id shows in its box: a road, rail, river or shore line passing
            # there is interrupted by it (on water the box is water)
            knock = ground
            self.ids.append((cx, cy + dy, box, styles.setdefault((ink, knock), (ink, knock)), label))
            self.reserved.append((box[0] - 1, box[1] - 1, box[2] + 1, box[3] + 1))
            self.id_boxes[h] = box
            self._id_text[h] = label

    def _framed_id(self, h: Hex, k: float, shift: tuple | None = None) -> tuple:
        """The box of ``h``'s id (and its knock-out margin) as printed at ``k`` times this size,
        moved by ``shift`` (fractions of the hex size; by default where :meth:`hex_ids` put it)."""
        size, bold, family = self.id_font
        dy, pad = self._id_offset, max(1, round(self.px(0.012) * k))
        sx, sy = shift if shift is not None else self._id_shift.get(h, (0.0, 0.0))
        cx, cy = self.centres[h]
        x, y = (cx + sx * self.size) * k, (cy + dy + sy * self.size) * k
        x0, y0, x1, y1 = _extent(self._id_text.get(h) or self.grid.format(h), size * k, bold, family, self.id_anchor)
        return (x + x0 - pad - 1, y + y0 - pad - 1, x + x1 + pad + 1, y + y1 + pad + 1)

    #: Where an id a bridge would cover goes instead (fractions of the hex size; x away from
    #: the bridge first): beside it along the top of the hex, else a little lower.
    ID_MOVES = ((0.1, 0.0), (0.13, 0.03), (0.16, 0.06), (0.0, 0.08), (0.0, 0.12), (0.08, 0.1), (0.0, 0.16))

    #: Where an id water runs through goes instead: further into the hex (away from the
    #: river, lake side or shore along the hexside it sits by), then a little aside as well.
    ID_DRY_MOVES = tuple((0.0, n / 50) for n in range(1, 9)) + ((0.06, 0.08), (-0.06, 0.08), (0.1, 0.1), (-0.1, 0.1))

    def _ids_moved(self) -> dict:
        """Hexes whose id would cover a bridge deck or water (a river or lake side along the
        hexside the id sits by, a lake's shore line), with where the id goes instead: its
        knock-out box would cut a notch in the water or the bridge. A bridge sits where its
        road crosses the river, and a road crossing the top side of a hex on a flat-topped
        grid crosses it right at the id; a river along that side runs through the id's box.
        Weighed in the names' frame (the same moves at every dpi)."""
        k = self.NAME_FRAME / self.size
        F = self.NAME_FRAME
        decks = [shapely.Polygon(np.asarray(d, dtype=float) * k) for d in self.__dict__.get("bridge_decks", ())]
        water = [shapely.transform(line, lambda c: c * k).buffer(w / 2 * F)
                 for line, w in zip(self.water_lines, self.water_widths)]
        water += [shapely.transform(b, lambda c: c * k) for b in self.__dict__.get("lake_bodies", ())]
        water += [shapely.LineString(np.asarray(pts, dtype=float) * k).buffer(max(0.5, 0.009 * F))
                  for pts, _ in self.shores if len(pts) > 1]
        if not decks and not water:
            return {}
        deck_tree, water_tree = shapely.STRtree(decks), shapely.STRtree(water)
        inset = 0.02 * F   # the id stays clear of the hex's own grid lines
        # an id printed small sits up to 0.04 hex off where the frame measures it (see places)
        margin = 0.03 * F
        inward = -1.0 if self.id_anchor == "mb" else 1.0

        def clash(box) -> tuple[bool, bool]:
            on_deck = bool(len(deck_tree.query(shapely.box(*box), predicate="intersects")))
            wet = shapely.box(box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin)
            return on_deck, bool(len(water_tree.query(wet, predicate="intersects")))

        # only hexes within a hex of a deck or of water can have either under their id
        hexes = self.hexes
        at = np.asarray([self.centres[h] for h in hexes], dtype=float).reshape(-1, 2) * k
        cells = shapely.box(at[:, 0] - F, at[:, 1] - F, at[:, 0] + F, at[:, 1] + F)
        near = np.zeros(len(hexes), dtype=bool)
        for tree in (deck_tree, water_tree):
            if len(tree.geometries):
                near[np.unique(tree.query(cells, predicate="intersects")[0])] = True
        moves: dict = {}
        for n in np.flatnonzero(near):
            h = hexes[n]
            on_deck, wet = clash(self._framed_id(h, k, (0.0, 0.0)))
            if not (on_deck or wet):
                continue
            cell = shapely.Polygon(np.asarray(self.layout.corners(h), dtype=float) * k).buffer(-inset)
            if on_deck:   # aside, away from the bridge, first
                deck = decks[int(deck_tree.query(shapely.box(*self._framed_id(h, k, (0.0, 0.0))), predicate="intersects")[0])]
                away = 1.0 if self.centres[h][0] * k >= deck.centroid.x else -1.0
                order = [(sign * mx, my) for mx, my in self.ID_MOVES for sign in (away, -away)] + list(self.ID_DRY_MOVES)
            else:
                order = list(self.ID_DRY_MOVES) + [(sign * mx, my) for mx, my in self.ID_MOVES for sign in (1.0, -1.0)]
            for mx, my in order:
                box = self._framed_id(h, k, (mx, my * inward))
                if cell.contains(shapely.box(*box)) and not any(clash(box)):
                    moves[h] = (mx, my * inward)
                    break
            else:
                if on_deck:   # no spot clear of both: at least off the bridge
                    for mx, my in order:
                        box = self._framed_id(h, k, (mx, my * inward))
                        if cell.contains(shapely.box(*box)) and not clash(box)[0]:
                            moves[h] = (mx, my * inward)
                            break
        return moves


@lru_cache(maxsize=65536)
def _extent(text: str, size: float, bold: bool, family: str, anchor: str, stroke: int = 0) -> tuple:
    """The box of ``text`` round its ``anchor`` in a font of ``size`` (measured, not drawn:
    names and ids are weighed in the placing frame at a size never printed)."""
    return font(size, bold=bold, family=family).getbbox(text, anchor=anchor, stroke_width=stroke)
