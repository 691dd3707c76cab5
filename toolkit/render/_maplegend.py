"""The legend band of a map: title block, Terrain Effects Chart, map symbols, off-map boxes.

The band is made of blocks of one column width; they flow into columns beside a tall map or
below a wide one (``plan_legend`` picks whichever wastes less paper). Swatches use the same
styles and sprites as the map, at the map's own hex size, so the chart matches what is drawn.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from PIL import Image, ImageChops, ImageDraw

from ..charts import tec
from ..game import Game, HexsideType, Map, TerrainType
from ._mapdraw import DOMINANT, side_colour
from ._mapgeom import lake_body
from ._mapwater import ford_stones
from ._mapsymbols import sprite
from ._polyline import dashes, walk
from ._raster import Canvas
from .fonts import font
from .theme import Theme, rgb

__all__ = ["LegendPlan", "plan_legend", "legend_text_extents"]

@dataclass
class _Block:
    height: int
    paint: Callable[[Image.Image, ImageDraw.ImageDraw, Canvas, int, int], None]


@dataclass
class LegendPlan:
    """Where the legend goes: ``right`` of the playing area or below it, and its size."""

    right: bool
    width: int
    height: int
    columns: list[list[_Block]]
    col_width: int


class _Legend:
    def __init__(self, game_map: Map, game: Game | None, theme: Theme, dpi: int) -> None:
        self.m, self.game, self.theme, self.dpi = game_map, game, theme, dpi
        lg = theme.data.get("legend", {})
        self.lg = lg
        self.pt = dpi / 72
        self.hex = game_map.hex_size_inches * dpi
        self.pad = round(0.12 * dpi)
        self.text_f = font(lg.get("text_size", 8) * self.pt, family="condensed")
        self.bold_f = font(lg.get("text_size", 8) * self.pt, bold=True, family="condensed")
        self.head_f = font(lg.get("heading_size", 10) * self.pt, bold=True, family="sans")
        self.title_f = font(lg.get("title_size", 20) * self.pt, family="serif")
        self.row_h = max(round(lg.get("swatch", 0.34) * dpi * 1.02), round(self.text_f.size * 1.9))
        self.swatch = round(lg.get("swatch", 0.34) * dpi)
        self.ink = theme.ink
        self.rule = rgb(lg.get("rule", "#7a7466"))
        self._columns()

    def tw(self, text: str, f) -> int:
        return _text_width(text, f)

    # -- the chart's columns ---------------------------------------------------------------

    def _columns(self) -> None:
        self.tec = tec([self.m])
        cols = self.tec.columns
        self.cost_cols = [(c.unit_class, c.weather) for c in cols]
        self.by_weather = any(c.by_weather for c in cols)
        names = [r.name for r in self.tec.rows]
        self.name_w = max([self.tw(n, self.text_f) for n in names] + [round(0.7 * self.dpi)]) + self.pad // 2
        self.cost_w = max(round(0.36 * self.dpi), max(self.tw(c, self.bold_f) for c, _ in self.cost_cols)
                          + self.pad // 2)
        combats = [r.combat for r in self.tec.rows if r.kind != "line"]
        self.combat_w = min(round(1.3 * self.dpi), max([self.tw(c, self.text_f) for c in combats]
                                                       + [self.tw("Combat", self.bold_f)]))
        self.inset = self._swatch_reach() + 1
        # the row stripes hold the swatches (inset by how far the widest reaches out of its
        # square) and the combat column (after its gap): nothing pokes out of them
        inner = (self.swatch + 2 * self.inset + self.pad // 2 + self.name_w + len(cols) * self.cost_w
                 + self.pad // 3 + self.combat_w)
        self.width = max(round(self.lg.get("width", 3.5) * self.dpi), inner + 2 * self.pad)

    def _swatch_reach(self) -> int:
        """Pixels the chart's widest swatch reaches beyond its square on either side (a
        flat-topped hex is wider than it is tall, a wide river's round ends stick out)."""
        s = self.swatch
        rows = [("terrain" if r.kind == "feature" else r.kind, r.data) for r in self.tec.rows]
        scratch = Image.new("RGB", (3 * s, 2 * s), self.theme.paper)
        canvas = Canvas(scratch, 3)   # as the legend is drawn (see MapImage)
        for kind, t in rows:
            self._swatch(scratch, canvas, kind, t, 1.5 * s, s)
        canvas.flush()
        box = ImageChops.difference(scratch, Image.new("RGB", scratch.size, self.theme.paper)).getbbox()
        return 0 if box is None else max(0, s - box[0], box[2] - 2 * s)

    # -- blocks ----------------------------------------------------------------------------

    def blocks(self) -> list[_Block]:
        out = [self.title_block(), self.tec_block()]
        symbols = self.symbols_block()
        if symbols:
            out.append(symbols)
        if self.m.boxes:
            out.append(self.boxes_block())
        return out

    def title_block(self) -> _Block:
        m, g = self.m, self.game
        title = g.name if g else m.name
        lines = []
        if g and m.name and m.name.lower() not in g.name.lower():
            lines.append((m.name, self.bold_f))
        facts = []
        if m.scale:
            facts.append(f"Scale: {m.scale}")
        facts.append(f"Hex: {m.hex_size_inches:g} in across flats")
        # every line wraps clear of the north arrow (a long scale or provenance line would overflow the frame)
        text_w = self.width - 2 * self.pad - self.swatch
        joined = "  \u00b7  ".join(facts)
        lines += [(joined, self.text_f)] if self.tw(joined, self.text_f) <= text_w else [(f, self.text_f) for f in facts]
        if g and (g.publisher or g.year):
            lines.append((" ".join(str(x) for x in (g.publisher, g.year) if x), self.text_f))
        estimated = sum(1 for cell in m.hexes.values() if cell.source.is_estimated)
        if m.hexes:
            if estimated:
                lines.append((f"Terrain of {estimated} of {len(m.hexes)} hexes is estimated "
                              "(the rulebook gives no map)", self.text_f))
        lines = [(part, f) for text, f in lines for part in self._wrap(text, text_w, f)]
        title_f = self.title_f
        while self.tw(title, title_f) > self.width - 2 * self.pad - self.swatch and title_f.size > 8:
            title_f = font(title_f.size * 0.9, family="serif")
        line_h = round(self.text_f.size * 1.45)
        height = self.pad * 2 + round(title_f.size * 1.3) + line_h * len(lines) + self.pad // 2

        def paint(image, draw, canvas, x, y):
            w = self.width - 2 * self.pad
            x0, y0 = x + self.pad // 2, y + self.pad // 2
            draw.rectangle((x0, y0, x0 + w + self.pad, y0 + height - self.pad), outline=self.ink,
                           width=max(2, round(self.pt * 1.5)))
            draw.rectangle((x0 + 4, y0 + 4, x0 + w + self.pad - 4, y0 + height - self.pad - 4),
                           outline=self.ink, width=1)
            # the text belongs inside the inner frame, left of the north arrow
            frame = (x0 + 4, y0 + 4, x + self.width - self.pad - self.swatch + 1, y0 + height - self.pad - 4)
            cy = y + self.pad
            _framed(draw, frame, (x + self.pad, cy), title, font=title_f, fill=self.ink)
            cy += round(title_f.size * 1.3)
            for text, f in lines:
                _framed(draw, frame, (x + self.pad, cy), text, font=f, fill=self.ink)
                cy += line_h
            self._north_arrow(canvas, draw, x + self.width - self.pad - self.swatch // 2,
                              y + self.pad + self.text_f.size + self.swatch // 2)
        return _Block(height, paint)

    def _north_arrow(self, canvas: Canvas, draw, cx: float, cy: float) -> None:
        angle = {"up": 0, "right": 90, "down": 180, "left": 270}.get(self.m.north, 0)
        r = self.swatch * 0.42
        a = math.radians(angle)

        def rot(dx, dy):
            return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)
        canvas.polygon([rot(0, -r), rot(r * 0.38, r * 0.55), rot(0, r * 0.25)], fill=self.ink)
        canvas.polygon([rot(0, -r), rot(-r * 0.38, r * 0.55), rot(0, r * 0.25)], fill=self.theme.paper,
                       outline=self.ink, width=max(1, self.pt * 0.6))
        nx, ny = rot(0, -r - self.text_f.size * 0.7)
        draw.text((nx, ny), "N", font=self.bold_f, fill=self.ink, anchor="mm")

    def tec_block(self) -> _Block:
        rows = [("terrain" if r.kind == "feature" else r.kind, r.data, r.name, r.costs, r.combat)
                for r in self.tec.rows]
        head_h = round(self.head_f.size * 1.6)
        sub_h = round(self.bold_f.size * 1.35) * (2 if self.by_weather else 1)
        height = self.pad + head_h + sub_h + len(rows) * self.row_h + self.pad // 2
        notes = self._wrap(self.tec.note, self.width - 2 * self.pad)
        height += round(self.text_f.size * (0.6 + 1.3 * len(notes)))

        def paint(image, draw, canvas, x, y):
            x0 = x + self.pad
            cy = y + self.pad
            draw.text((x0, cy), "TERRAIN EFFECTS CHART", font=self.head_f, fill=self.ink)
            cy += head_h
            cx = x0 + self.swatch + 2 * self.inset + self.pad // 2
            draw.text((cx, cy), "Terrain", font=self.bold_f, fill=self.ink)
            col_x = cx + self.name_w
            multi = sub_h > round(self.bold_f.size * 1.35)
            for i, (cls, w) in enumerate(self.cost_cols):
                mx = col_x + i * self.cost_w + self.cost_w / 2
                draw.text((mx, cy), "all" if cls == "*" else cls, font=self.bold_f, fill=self.ink, anchor="ma")
                if multi:
                    draw.text((mx, cy + sub_h / 2), w, font=self.text_f, fill=self.ink, anchor="ma")
            comb_x = col_x + len(self.cost_cols) * self.cost_w + self.pad // 3
            draw.text((comb_x, cy), "Combat", font=self.bold_f, fill=self.ink)
            cy += sub_h
            draw.line((x0, cy - 3, x + self.width - self.pad, cy - 3), fill=self.rule, width=max(1, round(self.pt * 0.7)))
            for i, (kind, t, name, cells, combat) in enumerate(rows):
                if i % 2:
                    draw.rectangle((x0, cy, x + self.width - self.pad, cy + self.row_h - 1), fill=_tint(self.theme.paper))
                mid = cy + self.row_h / 2
                self._swatch(image, canvas, kind, t, x0 + self.inset + self.swatch / 2, mid)
                draw.text((cx, mid), name, font=self.text_f, fill=self.ink, anchor="lm")
                for j, cell in enumerate(cells):
                    draw.text((col_x + j * self.cost_w + self.cost_w / 2, mid), cell, font=self.bold_f,
                              fill=self.ink, anchor="mm")
                self._cell_text(draw, comb_x, mid, combat)
                cy += self.row_h
            for i, line in enumerate(notes):
                draw.text((x0, cy + self.text_f.size * (0.4 + 1.3 * i)), line, font=self.text_f, fill=self.ink)
        return _Block(height, paint)

    def _wrap(self, text: str, width: int, f=None) -> list[str]:
        """Greedy word wrap of ``text`` in the legend's text font (or ``f``)."""
        f = f or self.text_f
        lines: list[str] = []
        for word in text.split(" "):
            if lines and self.tw(lines[-1] + " " + word, f) <= width:
                lines[-1] += " " + word
            else:
                lines.append(word)
        return lines

    def _cell_text(self, draw, x: float, mid: float, text: str) -> None:
        """Text in the combat column: one line, else wrapped on two, shrunk only if it must."""
        f = self.text_f
        lines = [text]
        if self.tw(text, f) > self.combat_w:
            words = text.split(" ")
            splits = [[" ".join(words[:cut]), " ".join(words[cut:])] for cut in range(1, len(words))]
            if splits:
                lines = min(splits, key=lambda pair: max(self.tw(t, f) for t in pair))
        while max(self.tw(t, f) for t in lines) > self.combat_w and f.size > 7:
            f = font(f.size - 1, family="condensed")
        step = f.size * 1.1
        y = mid - step * (len(lines) - 1) / 2
        for t in lines:
            draw.text((x, y), t, font=f, fill=self.ink, anchor="lm")
            y += step

    def _swatch(self, image, canvas: Canvas, kind: str, t, cx: float, cy: float) -> None:
        s = self.swatch
        flat = self.m.grid.flat
        R = s / math.sqrt(3)
        start = 180 if flat else 270
        corners = [(cx + R * math.cos(math.radians(start + 60 * i)), cy + R * math.sin(math.radians(start + 60 * i)))
                   for i in range(6)]
        draw = ImageDraw.Draw(image)
        if kind == "terrain":
            style = self.theme.terrain_style(t)
            base = style
            if t.overlay and style.key not in DOMINANT:
                clear = next((x for x in self.m.terrain_types.values() if not x.overlay), None)
                base = self.theme.terrain_style(clear) if clear else style
            draw.polygon(corners, fill=base.water or base.fill)
            spr = sprite(style, s, flat, 0)
            if spr is not None:
                image.paste(spr, (round(cx - spr.width / 2), round(cy - spr.height / 2)), spr)
            canvas.polygon(corners, outline=rgb(self.theme.get("grid", "colour", "#444")), width=max(1, self.pt * 0.6))
            return
        scale = self.hex  # widths as on the map
        x0, x1 = cx - s / 2, cx + s / 2
        if kind == "hexside":
            style = self.theme.hexside_style(t)
            w = max(1.0, style.width * scale)
            if style.key == "bridge":
                # a bridge over a short stretch of river, as on the map
                river = rgb(self.theme.get("hexsides", "river", {}).get("colour", "#3b7dc0"))
                rw = 0.06 * scale
                canvas.line([(cx, cy - s / 2), (cx, cy + s / 2)], river, rw)
                hw, hl = 0.055 * scale, rw / 2 + 0.07 * scale
                canvas.polygon([(cx - hl, cy - hw), (cx + hl, cy - hw), (cx + hl, cy + hw), (cx - hl, cy + hw)],
                               fill=self.theme.paper)
                for sgn in (1, -1):
                    y = cy + sgn * hw
                    f = 0.04 * scale
                    canvas.line([(cx - hl - f, y + sgn * f), (cx - hl, y), (cx + hl, y), (cx + hl + f, y + sgn * f)],
                                style.colour, max(1.0, 0.016 * scale))
                return
            if style.key == "ford":   # stepping stones across a short stretch of river, as on the map
                river = self.theme.hexside_style(HexsideType(code="river", name="River", width="minor"))
                canvas.line([(x0, cy), (x1, cy)], river.edge or river.colour, river.drawn_width(scale))
                canvas.line([(x0, cy), (x1, cy)], river.colour, max(1.0, river.width * scale))
                for stone in ford_stones((cx, cy), (0.0, 1.0), river.drawn_width(scale), max(1.0, river.width * scale),
                                         scale):
                    canvas.polygon(stone[0], fill=style.colour, outline=None if stone[1] else style.edge or style.colour,
                                   width=max(1.0, 0.014 * scale))
                return
            if style.key == "lake":   # a lake along the side, as on the map
                lake = self.theme.terrain_style(TerrainType(code="lake", name="Lake"))
                body = lake_body([(x0, cy), (x1, cy)], w / 2, t.width == "minor")
                canvas.shape(body, fill=lake.water or style.colour, outline=lake.shore or lake.ink,
                             width=max(1.0, 0.018 * scale))
                return
            if style.edge is not None:
                canvas.line([(x0, cy), (x1, cy)], style.edge, w + 2)
            canvas.line([(x0, cy), (x1, cy)], style.colour, w)
            if style.ticks:
                for x, y, ux, uy in walk([(x0, cy), (x1, cy)], 0.07 * scale, 0.035 * scale):
                    canvas.line([(x, y), (x, y + 0.07 * scale)], style.colour, max(1.0, w * 0.6), round_ends=False)
            return
        style = self.theme.line_style(t)
        w = max(1.0, style.width * scale)
        pts = [(x0, cy), (x1, cy)]
        if style.casing is not None and style.dash is None:
            canvas.line(pts, style.casing, w + max(2.0, 0.022 * scale))
        if style.dash:
            for d in dashes(pts, style.dash[0] * scale, style.dash[1] * scale):
                canvas.line(d, style.colour, w)
        else:
            canvas.line(pts, style.colour, w)
        if style.ties:
            half = style.ties * scale / 2
            for x, y, ux, uy in walk(pts, style.tie_spacing * scale, style.tie_spacing * scale / 2):
                canvas.line([(x, y - half), (x, y + half)], style.colour, max(1.0, w * 0.75), round_ends=False)

    def symbols_block(self) -> _Block | None:
        m = self.m
        items: list[tuple[str, Callable]] = []
        if m.victory:
            pts = sorted({v.points for v in m.victory if v.points is not None})
            label = "Victory hex (VP shown)" if pts else "Victory hex"
            items.append((label, lambda canvas, draw, cx, cy: self._star(canvas, draw, cx, cy)))
        sources = {s.side for s in m.supply if s.hexes and s.kind != "edge"}
        for side in sorted(sources):
            colour = side_colour(side, self.game)
            items.append((f"{self._side_name(side)} supply source",
                          lambda canvas, draw, cx, cy, c=colour: self._disc(canvas, draw, cx, cy, c)))
        edge_sides = {e.side for e in m.edges if e.side} | {s.side for s in m.supply if s.edge or s.kind == "edge"}
        for side in sorted(edge_sides):
            colour = side_colour(side, self.game)
            items.append((f"{self._side_name(side)} map edge / supply edge",
                          lambda canvas, draw, cx, cy, c=colour: canvas.polygon(
                              [(cx - self.swatch / 2, cy - self.swatch * 0.14), (cx + self.swatch / 2, cy - self.swatch * 0.14),
                               (cx + self.swatch / 2, cy + self.swatch * 0.14), (cx - self.swatch / 2, cy + self.swatch * 0.14)],
                              fill=c, outline=tuple(int(v * 0.55) for v in c), width=1)))
        if m.hex_ids != "none":
            sample = m.grid.format(next(iter(m.grid)))
            items.append(("Hex id (column, row)", lambda canvas, draw, cx, cy, s=sample: draw.text(
                (cx, cy), s, font=font(self.theme.get("hex_id", "size", 0.125) * self.hex, family="condensed"),
                fill=rgb(self.theme.get("hex_id", "colour", "#333")), anchor="mm")))
        if not items:
            return None
        head_h = round(self.head_f.size * 1.6)
        height = self.pad + head_h + len(items) * self.row_h + self.pad // 2

        def paint(image, draw, canvas, x, y):
            x0 = x + self.pad
            draw.text((x0, y + self.pad), "MAP SYMBOLS", font=self.head_f, fill=self.ink)
            cy = y + self.pad + head_h
            for label, painter in items:
                mid = cy + self.row_h / 2
                painter(canvas, draw, x0 + self.swatch / 2, mid)
                draw.text((x0 + self.swatch + self.pad // 2, mid), label, font=self.text_f, fill=self.ink, anchor="lm")
                cy += self.row_h
        return _Block(height, paint)

    def _side_name(self, side_id: str) -> str:
        side = self.game.side(side_id) if self.game else None
        return side.name if side else side_id

    def _star(self, canvas, draw, cx, cy) -> None:
        vic = self.theme.data.get("victory", {})
        r = vic.get("size", 0.22) * self.hex / 2
        fill = rgb(vic.get("fill", "#c8102e"))
        star = [(cx + (r if k % 2 == 0 else r * 0.45) * math.sin(math.pi * k / 5),
                 cy - (r if k % 2 == 0 else r * 0.45) * math.cos(math.pi * k / 5)) for k in range(10)]
        canvas.polygon(star, fill=fill, outline=tuple(int(c * 0.45) for c in fill), width=1)

    def _disc(self, canvas, draw, cx, cy, colour) -> None:
        r = self.theme.get("supply", "size", 0.17) * self.hex / 2
        canvas.ellipse(cx, cy, r, fill=colour, outline=self.ink, width=1)

    def boxes_block(self) -> _Block:
        bx = self.lg.get("box", {})
        bw = min(self.width - 2 * self.pad, round(bx.get("width", 2.0) * self.dpi))
        head_h = round(self.head_f.size * 1.6)
        gap = self.pad // 2
        line_h = round(self.text_f.size * 1.3)
        name_h = round(self.bold_f.size * 1.25)
        boxes = []
        for b in self.m.boxes:
            # the box's name and notes fit inside it: both wrap, and a box grows to hold them
            names = self._wrap(b.name.upper(), bw - self.pad, self.bold_f)
            band_h = round(self.bold_f.size * 0.35) + name_h * len(names)
            notes = []
            if b.entry:
                notes.append("Enters at " + ", ".join(self.m.grid.format(h) for h in b.entry))
            if b.note:
                notes.append(b.note)
            lines = [line for n in notes for line in self._wrap(n, bw - self.pad)]
            bh = max(round(bx.get("height", 0.9) * self.dpi),
                     band_h + round(self.text_f.size * 0.4) + line_h * len(lines) + self.pad // 2)
            boxes.append((b, names, band_h, lines, bh))
        # side by side as many as the column holds (a wide chart makes a wide column: White
        # Death's 25 boxes ran down one narrow file, ten print pages of empty paper beside them)
        per_row = max(1, (self.width - 2 * self.pad + gap) // (bw + gap))
        rows = [boxes[i:i + per_row] for i in range(0, len(boxes), per_row)]
        heights = [max(bh for *_, bh in row) for row in rows]
        height = self.pad + head_h + sum(h + gap for h in heights) + self.pad // 2

        def paint(image, draw, canvas, x, y):
            draw.text((x + self.pad, y + self.pad), "OFF-MAP BOXES", font=self.head_f, fill=self.ink)
            top = y + self.pad + head_h
            for n, (b, names, band_h, lines, bh) in enumerate(boxes):
                x0 = x + self.pad + (n % per_row) * (bw + gap)
                cy = top + sum(h + gap for h in heights[:n // per_row])
                colour = side_colour(b.side, self.game) if b.side else rgb("#dddddd")
                frame = (x0, cy, x0 + bw, cy + bh)
                draw.rectangle(frame, fill=rgb(bx.get("fill", "#ffffff")),
                               outline=rgb(bx.get("outline", "#222222")), width=max(2, round(self.pt)))
                draw.rectangle((x0, cy, x0 + bw, cy + band_h), fill=colour, outline=rgb(bx.get("outline", "#222222")),
                               width=max(2, round(self.pt)))
                for k, name in enumerate(names):
                    _framed(draw, frame, (x0 + self.pad // 2, cy + band_h / 2 + (k - (len(names) - 1) / 2) * name_h),
                            name, font=self.bold_f, fill=self.ink, anchor="lm")
                ty = cy + band_h + self.text_f.size * 0.4
                for line in lines:
                    _framed(draw, frame, (x0 + self.pad // 2, ty), line, font=self.text_f, fill=self.ink)
                    ty += line_h
        return _Block(height, paint)


_PROBE = ImageDraw.Draw(Image.new("RGB", (1, 1)))


@lru_cache(maxsize=8192)
def _text_width(text: str, f) -> int:
    """Whole pixels ``text`` advances in font ``f`` (measured once per text and font: every
    render of a legend weighs the same words)."""
    return math.ceil(_PROBE.textlength(text, font=f))


def _framed(draw, frame, xy, text, **kwargs) -> None:
    """Text that belongs inside ``frame`` (a box drawn in the panel): a measuring draw notes it."""
    if isinstance(draw, _Measuring):
        draw.text(xy, text, frame=frame, **kwargs)
    else:
        draw.text(xy, text, **kwargs)


def _tint(colour, k: float = 0.955):
    return tuple(int(c * k) for c in colour)


def _flow(blocks: list[_Block], limit: int) -> list[list[_Block]]:
    columns: list[list[_Block]] = [[]]
    used = 0
    for b in blocks:
        if columns[-1] and used + b.height > limit:
            columns.append([])
            used = 0
        columns[-1].append(b)
        used += b.height
    return columns


def plan_legend(game_map: Map, game: Game | None, theme: Theme, dpi: int,
                area_w: int, area_h: int) -> tuple[LegendPlan, "_Legend"]:
    """Lay the legend out beside or below a playing area of ``area_w`` x ``area_h`` pixels."""
    legend = _Legend(game_map, game, theme, dpi)
    blocks = legend.blocks()
    tallest = max(b.height for b in blocks)
    total = sum(b.height for b in blocks)
    cw = legend.width
    # beside: columns as tall as the map; below: as few rows as fit the map's width
    cols_r = _flow(blocks, max(area_h, tallest))
    right = LegendPlan(True, cw * len(cols_r), max(area_h, max(sum(b.height for b in c) for c in cols_r)), cols_r, cw)
    per_row = max(1, area_w // cw)
    limit = max(tallest, math.ceil(total / per_row))
    cols_b = _flow(blocks, limit)
    below = LegendPlan(False, max(area_w, cw * len(cols_b)), max(sum(b.height for b in c) for c in cols_b), cols_b, cw)
    area_right = (area_w + right.width) * max(area_h, right.height)
    area_below = max(area_w, below.width) * (area_h + below.height)
    return (right if area_right <= area_below else below), legend


class _Measuring:
    """An ImageDraw that also notes the box of every text it draws."""

    def __init__(self, draw: ImageDraw.ImageDraw) -> None:
        self._draw = draw
        self.boxes: list[tuple[str, tuple]] = []

    def text(self, xy, text, fill=None, font=None, anchor=None, frame=None, **kwargs):
        box = self._draw.textbbox(xy, text, font=font, anchor=anchor, stroke_width=kwargs.get("stroke_width", 0))
        self.boxes.append((text, box, frame))
        return self._draw.text(xy, text, fill=fill, font=font, anchor=anchor, **kwargs)

    def __getattr__(self, name):
        return getattr(self._draw, name)


def legend_text_extents(plan: LegendPlan, theme: Theme) -> list[tuple[str, tuple, tuple]]:
    """``(text, box, frame)`` for every text of the legend, each block painted on its own
    panel; ``frame`` is the box the text belongs in (an off-map box, a chart column, else the
    whole panel): what a test measures to prove nothing overflows."""
    out = []
    for column in plan.columns:
        for block in column:
            image = Image.new("RGB", (plan.col_width, block.height), theme.paper)
            draw = _Measuring(ImageDraw.Draw(image))
            block.paint(image, draw, Canvas(image, 1), 0, 0)
            out.extend((text, box, frame or (0, 0, *image.size)) for text, box, frame in draw.boxes)
    return out
