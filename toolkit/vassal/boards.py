"""Images the module needs besides the renderers': the boxes board and the chart windows.

The boxes board is one VASSAL map holding the turn track (a box per turn, where
reinforcements wait unless their data names an off-map box) and the game's off-map boxes;
each box is a Zone, so a piece in it reports the box's name as its location. Charts are the
Terrain Effects Chart (its text from :mod:`toolkit.charts`, as on the printed map) and the
game's own tables, drawn from the game data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PIL import Image, ImageDraw

from ..charts import tec
from ..game import Game
from ..render.fonts import font
from .pieces import plain_text, unique_name

__all__ = ["Zone", "BoxBoard", "boxes_board", "turn_zone", "dead_pile_zone", "chart_images", "moved_image",
           "deck_back_image"]

_INK = (30, 30, 30)
_PAPER = (246, 242, 230)
_LINE = (90, 90, 90)
_TITLE_H = 22   # the name band at the top of every box


@dataclass(frozen=True)
class Zone:
    """A rectangular zone: name, board-local bounds ``(x0, y0, x1, y1)`` and its box id."""

    name: str
    bounds: tuple[int, int, int, int]
    box: str | None = None
    turn: int | None = None

    @property
    def centre(self) -> tuple[int, int]:
        """Where VASSAL's SendToLocation puts a piece: ``r.x + r.width / 2`` (integer maths)."""
        x0, y0, x1, y1 = self.bounds
        return x0 + (x1 - x0) // 2, y0 + (y1 - y0) // 2

    def spot(self, index: int, count: int) -> tuple[int, int]:
        """The ``index``-th of ``count`` points spread along the box's diagonal, below its title."""
        if count <= 1:
            return self.centre
        x0, y0, x1, y1 = self.bounds
        inset = min((x1 - x0) // 4, (y1 - y0 - _TITLE_H) // 4)
        left, top, right, bottom = x0 + inset, y0 + _TITLE_H + inset, x1 - inset, y1 - inset
        return (left + (right - left) * index // (count - 1), top + (bottom - top) * index // (count - 1))

    @property
    def path(self) -> str:
        """The Zone ``path`` attribute: ``x,y;x,y;...``."""
        x0, y0, x1, y1 = self.bounds
        return ";".join(f"{x},{y}" for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


@dataclass
class BoxBoard:
    image: Image.Image
    zones: list[Zone]


def turn_zone(turn: int) -> str:
    return f"Turn {turn}"


def dead_pile_zone(game: Game) -> tuple[str, str | None]:
    """The zone that receives eliminated units: the game's own box if it has one."""
    for game_map in game.maps.values():
        for box in game_map.boxes:
            if re.search(r"elim|dead|destroyed|lost", f"{box.id} {box.name}", re.I):
                return box.name, box.id
    return "Dead pile", None


def boxes_board(game: Game, turns: int, px: int, captions: dict[int, str] | None = None) -> BoxBoard:
    """Draw the turn track and the off-map boxes; return the image and its zones.

    ``captions`` are printed under a turn's name (its date and weather, for instance).
    """
    captions = captions or {}
    box_w, box_h = int(px * 1.9), int(px * 1.9) + 26
    gap, margin, head = 10, 20, 40
    per_row = max(1, min(turns, 10))
    boxes = [(b.name, b.id) for m in game.maps.values() for b in m.boxes]
    dead_name, dead_id = dead_pile_zone(game)
    if dead_id is None:
        boxes.append((dead_name, None))
    big_w = int(px * 2.8)
    big_per_row = max(1, (per_row * (box_w + gap)) // (big_w + gap))
    track_rows = -(-turns // per_row) if turns else 0
    box_rows = -(-len(boxes) // big_per_row) if boxes else 0
    width = max(margin * 2 + per_row * (box_w + gap), margin * 2 + big_per_row * (big_w + gap), 400)
    height = margin + (head + track_rows * (box_h + gap) if turns else 0) + head + box_rows * (box_h + gap) + margin
    image = Image.new("RGB", (width, height), _PAPER)
    draw = ImageDraw.Draw(image)
    title, label = font(22, bold=True), font(14, bold=True)
    zones: list[Zone] = []
    used: set[str] = set()
    y = margin
    if turns:
        draw.text((margin, y), "Turn track", font=title, fill=_INK)
        y += head
        for i in range(turns):
            x = margin + (i % per_row) * (box_w + gap)
            yy = y + (i // per_row) * (box_h + gap)
            used.add(turn_zone(i + 1))
            zones.append(_box(draw, turn_zone(i + 1), (x, yy, x + box_w, yy + box_h), label, turn=i + 1))
            if captions.get(i + 1):
                small = font(12)
                draw.text((x + 5, yy + 25), _fit(draw, captions[i + 1], small, box_w - 8), font=small, fill=_LINE)
        y += track_rows * (box_h + gap)
    draw.text((margin, y), "Off-map boxes", font=title, fill=_INK)
    y += head
    for i, (name, box_id) in enumerate(boxes):
        x = margin + (i % big_per_row) * (big_w + gap)
        yy = y + (i // big_per_row) * (box_h + gap)
        name = unique_name(plain_text(name), used)  # zone names must be unique on the board
        zones.append(_box(draw, name, (x, yy, x + big_w, yy + box_h), label, box=box_id))
    return BoxBoard(image, zones)


def _box(draw: ImageDraw.ImageDraw, name: str, bounds, label_font, *, box=None, turn=None) -> Zone:
    x0, y0, x1, y1 = bounds
    draw.rectangle(bounds, outline=_LINE, width=2, fill=(255, 255, 255))
    draw.rectangle((x0, y0, x1, y0 + _TITLE_H), fill=(220, 214, 196), outline=_LINE, width=2)
    text = _fit(draw, name, label_font, x1 - x0 - 8)
    draw.text((x0 + 5, y0 + 3), text, font=label_font, fill=_INK)
    return Zone(name, bounds, box=box, turn=turn)


def _fit(draw, text: str, fnt, width: int) -> str:
    while text and draw.textlength(text, font=fnt) > width:
        text = text[:-2] + "…" if len(text) > 2 else ""
    return text


def moved_image(size: int = 18) -> Image.Image:
    """The small 'moved' flag MovementMarkable draws on a piece that has moved."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((1, 1, size - 2, size - 2), fill=(255, 205, 0, 255), outline=(60, 60, 60, 255), width=2)
    fnt = font(size * 0.6, bold=True)
    draw.text((size / 2, size / 2), "M", font=fnt, fill=(40, 40, 40, 255), anchor="mm")
    return image


def deck_back_image(name: str, px: int, colour: str | None = None) -> Image.Image:
    """The face every counter of a face-down deck shows: a plain counter with the deck's name."""
    image = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    fill = colour or "#8a8170"
    draw.rounded_rectangle((0, 0, px - 1, px - 1), radius=max(2, px // 12), fill=fill, outline=_INK, width=2)
    words, lines = plain_text(name).split(), []
    fnt = font(max(8, px // 7), bold=True)
    for word in words:  # greedy wrap inside the counter
        if lines and draw.textlength(f"{lines[-1]} {word}", font=fnt) <= px - 8:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(_fit(draw, word, fnt, px - 8))
    step = fnt.size + 2
    top = px / 2 - step * (len(lines) - 1) / 2
    ink = _INK if _light(fill) else (250, 250, 250)
    for i, line in enumerate(lines[:4]):
        draw.text((px / 2, top + i * step), line, font=fnt, fill=ink, anchor="mm")
    return image


def _light(colour: str) -> bool:
    r, g, b = (int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4))
    return 0.299 * r + 0.587 * g + 0.114 * b > 140


# -- charts ------------------------------------------------------------------------------------

def _table(title: str, header: list[str], rows: list[list[str]], note: str | None = None) -> Image.Image:
    head_font, cell_font, title_font = font(15, bold=True), font(15), font(22, bold=True)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    widths = [0] * len(header)
    for row in [header] + rows:
        for i, cell in enumerate(row[:len(header)]):
            f = head_font if row is header else cell_font
            widths[i] = max(widths[i], int(measure.textlength(str(cell), font=f)) + 16)
    row_h, pad = 26, 16
    width = max(sum(widths) + 2 * pad, int(measure.textlength(title, font=title_font)) + 2 * pad)
    height = pad + 36 + row_h * (len(rows) + 1) + pad + (24 if note else 0)
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.text((pad, pad), title, font=title_font, fill=_INK)
    y = pad + 36
    for r, row in enumerate([header] + rows):
        x = pad
        if r == 0:
            draw.rectangle((pad, y, pad + sum(widths), y + row_h), fill=(220, 214, 196))
        elif r % 2 == 0:
            draw.rectangle((pad, y, pad + sum(widths), y + row_h), fill=(245, 243, 236))
        for i, cell in enumerate(row[:len(header)]):
            draw.text((x + 8, y + 4), str(cell), font=head_font if r == 0 else cell_font, fill=_INK)
            x += widths[i]
        y += row_h
    draw.rectangle((pad, pad + 36, pad + sum(widths), y), outline=_LINE, width=1)
    if note:
        draw.text((pad, y + 6), note, font=font(12), fill=_LINE)
    return image


_SUFFIX = {"terrain": "", "feature": " (feature)", "hexside": " (hexside)", "line": " (along)"}


def _tec(game: Game) -> Image.Image | None:
    """The Terrain Effects Chart of every map, from :func:`toolkit.charts.tec` (as on the map)."""
    chart = tec(game.maps.values())
    if not chart.rows:
        return None
    header = ["Terrain"] + [c.label for c in chart.columns] + ["Combat", "Rule"]
    rows = [[r.name + _SUFFIX[r.kind], *r.costs, r.combat, r.rule or "est."] for r in chart.rows]
    return _table("Terrain Effects Chart", header, rows, chart.note)


_META = ("rule", "title", "estimated", "note", "source")


def _cells(row) -> list[str]:
    return [str(c) for c in row] if isinstance(row, (list, tuple)) else [str(row)]


def _pad(header: list[str], rows: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    width = max([len(header)] + [len(r) for r in rows])
    return header + [""] * (width - len(header)), [r + [""] * (width - len(r)) for r in rows]


def _blocks(value) -> tuple[list[tuple[str, list[str], list[list[str]]]], list[str]]:
    """Chart data as tables ``(subtitle, header, rows)`` and note lines.

    Understood forms: ``{columns, rows}`` (rows a list or a mapping of row label to cells),
    a list of rows (the first is the header), a mapping of mappings (a grid), a mapping of
    values (two columns); other values become notes.
    """
    if isinstance(value, list):
        if value and all(isinstance(r, (list, tuple)) for r in value):
            header, rows = _pad(_cells(value[0]), [_cells(r) for r in value[1:]])
            return [("", header, rows)], []
        return [("", [""], [[str(v)] for v in value])], []
    if not isinstance(value, dict):
        return [], [str(value)]
    if "rows" in value:
        rows_data = value["rows"]
        header = [str(c) for c in value.get("columns", [])]
        if isinstance(rows_data, dict):
            rows = [[str(k)] + _cells(row) for k, row in rows_data.items()]
            header = [str(value.get("row_label", ""))] + header
        else:
            rows = [_cells(row) for row in rows_data]
        header, rows = _pad(header, rows)
        notes = [f"{k}: {v}" for k, v in value.items() if k not in ("rows", "columns", "row_label") + _META]
        return [("", header, rows)], notes
    items = {k: v for k, v in value.items() if k not in _META}
    if items and all(isinstance(v, dict) and not any(isinstance(x, (dict, list)) for x in v.values())
                     for v in items.values()):
        cols: list[str] = []
        for v in items.values():
            cols += [str(k) for k in v if str(k) not in cols]
        return [("", [""] + cols, [[str(k)] + [str(v.get(c, v.get(_num(c), ""))) for c in cols]
                                   for k, v in items.items()])], []
    blocks, notes, scalars = [], [], []
    for k, v in items.items():
        if isinstance(v, (dict, list)):
            sub_blocks, sub_notes = _blocks(v)
            blocks += [(str(k) if not t else f"{k}: {t}", h, r) for t, h, r in sub_blocks]
            notes += [f"{k}: {n}" for n in sub_notes]
        else:
            scalars.append([str(k), str(v)])
    if scalars and not blocks:
        return [("", ["", ""], scalars)], notes
    return blocks, notes + [f"{k}: {v}" for k, v in scalars]


def _num(text: str):
    try:
        return int(text)
    except ValueError:
        return text


def _stack(images: list[Image.Image]) -> Image.Image:
    width = max(i.width for i in images)
    out = Image.new("RGB", (width, sum(i.height for i in images)), (255, 255, 255))
    y = 0
    for image in images:
        out.paste(image, (0, y))
        y += image.height
    return out


def _chart_image(title: str, value) -> Image.Image | None:
    blocks, notes = _blocks(value)
    if not blocks and not notes:
        return None
    rule = value.get("rule") if isinstance(value, dict) else None
    heading = f"{title} (rule {rule})" if rule else title
    parts = []
    for i, (subtitle, header, rows) in enumerate(blocks):
        name = heading if i == 0 else subtitle
        if i == 0 and subtitle:
            name = f"{heading} - {subtitle}"
        parts.append(_table(name, header, rows))
    if notes:
        parts.append(_notes(heading if not parts else "", notes))
    return _stack(parts)


def _notes(title: str, lines: list[str]) -> Image.Image:
    fnt, title_font = font(15), font(22, bold=True)
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    lines = [line if len(line) <= 110 else line[:107] + "..." for line in lines]
    width = max([int(measure.textlength(line, font=fnt)) for line in lines] + [200]) + 32
    top = 52 if title else 8
    image = Image.new("RGB", (width, top + 22 * len(lines) + 12), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    if title:
        draw.text((16, 16), title, font=title_font, fill=_INK)
    for i, line in enumerate(lines):
        draw.text((16, top + 22 * i), line, font=fnt, fill=_INK)
    return image


def chart_images(game: Game) -> list[tuple[str, Image.Image]]:
    """``(chart name, image)`` for the TEC and for each table in the game's ``charts``."""
    out: list[tuple[str, Image.Image]] = []
    tec = _tec(game)
    if tec is not None:
        out.append(("Terrain Effects Chart", tec))
    for name, value in game.charts.items():
        title = str(value.get("title", "")) if isinstance(value, dict) else ""
        title = title or str(name).replace("_", " ").capitalize()
        image = _chart_image(title, value)
        if image is not None:
            out.append((title, image))
    return out
