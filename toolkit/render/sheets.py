"""Printable counter sheets (PDF) and the counters build step.

Physical sizes are exact: the page resolution is chosen so that a counter is a whole number of
pixels (a 5/8" counter asked at 300 DPI is drawn 188 px at 300.8 DPI), and pillow writes each
page with that resolution, so the PDF places every counter at exactly its size in inches.

Fronts and backs alternate page by page for double-sided printing. A back page mirrors the
front's columns (flip on the long edge), so each back lands behind its front; ``duplex_offset``
shifts the backs to correct a printer's misregistration, which the calibration page measures.
Bleed extends each counter's background past its cut line; crop marks sit in the margins, never
on the art.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Callable, Iterator

from PIL import Image, ImageDraw

from ..errors import BuildError, DataError
from ..game import Counter, Game
from ..io import atomic_path
from .counters import render_counter, render_face
from .fonts import font

#: paper sizes in inches (portrait)
PAPERS = {"a4": (210 / 25.4, 297 / 25.4), "letter": (8.5, 11.0)}
#: counter sizes by their usual names, in inches
SIZES = {"1/2": 0.5, "9/16": 0.5625, "5/8": 0.625, "3/4": 0.75, "1": 1.0}
#: size of the per-counter PNGs of the VASSAL export
PIECE_PX = 75

Progress = Callable[[str], None]


@dataclass(frozen=True)
class SheetSpec:
    """How to print: counter size, paper, resolution, margins, bleed, duplex and copies."""

    size_in: float = 0.625
    paper: str = "a4"
    dpi: int = 300
    margin_in: float = 0.5
    bleed_in: float = 0.0625
    duplex: bool = True
    duplex_offset: tuple[float, float] = (0.0, 0.0)
    copies: int = 1
    crop_marks: bool = True
    calibration: bool = False
    page_per_side: bool = False

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise DataError(f"unknown paper {self.paper!r}; expected one of {', '.join(PAPERS)}", field="paper")
        if not 0.2 <= self.size_in <= 3.0:
            raise DataError(f"counter size {self.size_in} in is outside 0.2 to 3 in", field="size")
        if not 72 <= self.dpi <= 1200:
            raise DataError(f"resolution {self.dpi} DPI is outside 72 to 1200", field="dpi")
        if not 0 <= self.bleed_in <= 0.25:
            raise DataError(f"bleed {self.bleed_in} in is outside 0 to 0.25 in", field="bleed")
        if not 0.1 <= self.margin_in <= 2.0:
            raise DataError(f"margin {self.margin_in} in is outside 0.1 to 2 in", field="margin")
        if not 1 <= self.copies <= 100:
            raise DataError(f"copies {self.copies} is outside 1 to 100", field="copies")
        if any(abs(v) > 0.5 for v in self.duplex_offset):
            raise DataError(f"duplex offset {self.duplex_offset} is more than 0.5 in", field="duplex-offset")

    @property
    def counter_px(self) -> int:
        """Counter side in pixels: a whole number, nearest to size x dpi."""
        return max(8, round(self.size_in * self.dpi))

    @property
    def resolution(self) -> float:
        """Page resolution (pixels per inch) that makes ``counter_px`` exactly ``size_in``."""
        return self.counter_px / self.size_in

    def px(self, inches: float) -> int:
        return round(inches * self.resolution)

    @property
    def bleed_px(self) -> int:
        return self.px(self.bleed_in)

    @property
    def cell_px(self) -> int:
        """Pitch of the counter grid: the counter plus its bleed on both sides."""
        return self.counter_px + 2 * self.bleed_px

    @property
    def page_px(self) -> tuple[int, int]:
        w, h = PAPERS[self.paper]
        return self.px(w), self.px(h)

    @property
    def grid(self) -> tuple[int, int]:
        """Columns and rows of counters that fit inside the margins."""
        w, h = self.page_px
        usable_w = w - 2 * self.px(self.margin_in)
        usable_h = h - 2 * self.px(self.margin_in) - self.px(0.2)   # room for the heading
        cols, rows = usable_w // self.cell_px, usable_h // self.cell_px
        if cols < 1 or rows < 1:
            raise DataError(f"a {self.size_in} in counter does not fit on {self.paper} inside "
                            f"{self.margin_in} in margins", field="size")
        return cols, rows

    @property
    def origin(self) -> tuple[int, int]:
        """Top-left pixel of the grid on a front page; centred across, below the heading."""
        w, h = self.page_px
        cols, rows = self.grid
        used_h = rows * self.cell_px
        top = self.px(self.margin_in) + self.px(0.2)
        top += (h - 2 * self.px(self.margin_in) - self.px(0.2) - used_h) // 2
        return (w - cols * self.cell_px) // 2, top


@dataclass
class SheetPage:
    """One front page: ``slots[row][col]`` holds a counter or None; ``title`` names its groups."""

    title: str
    slots: list[list[Counter | None]] = field(default_factory=list)

    @property
    def columns_used(self) -> int:
        return max((c + 1 for c, _, _ in self.placed()), default=0)

    def placed(self) -> Iterator[tuple[int, int, Counter]]:
        for r, row in enumerate(self.slots):
            for c, counter in enumerate(row):
                if counter is not None:
                    yield c, r, counter


def parse_size(text: str | float) -> float:
    """A counter size in inches from ``5/8``, ``0.625``, ``5/8"``, ``16mm``."""
    raw = str(text).strip().lower().rstrip('"').removesuffix("in").strip()
    try:
        if raw.endswith("mm"):
            return float(raw[:-2]) / 25.4
        if raw in SIZES:
            return SIZES[raw]
        return float(Fraction(raw))
    except (ValueError, ZeroDivisionError):
        raise DataError(f"cannot read counter size {text!r}: expected inches such as 5/8, 0.625 or 16mm",
                        field="size") from None


def parse_offset(text: str) -> tuple[float, float]:
    """A duplex offset ``X,Y`` in inches (positive X moves backs right, positive Y down)."""
    try:
        x, y = (float(part) for part in str(text).split(","))
    except ValueError:
        raise DataError(f"cannot read duplex offset {text!r}: expected X,Y in inches such as 0.02,-0.01",
                        field="duplex-offset") from None
    return x, y


def plan_pages(game: Game, spec: SheetSpec) -> list[SheetPage]:
    """Lay out every copy of every counter, grouped by side and then by formation.

    Counters of one formation stay on one row when they fit in one; sides are separated by an
    empty row, or start on new pages with ``spec.page_per_side``. Page titles name the sides.
    """
    cols, rows = spec.grid
    pages: list[SheetPage] = []
    names: list[list[str]] = []          # side names on each page, for its title
    row: list[Counter | None] = []

    def flush(side_name: str) -> None:
        nonlocal row
        if not row:
            return
        if not pages or len(pages[-1].slots) >= rows:
            pages.append(SheetPage(title=""))
            names.append([])
        pages[-1].slots.append(row + [None] * (cols - len(row)))
        if side_name not in names[-1]:
            names[-1].append(side_name)
        row = []

    for side_name, formations in _groups(game):
        if pages and pages[-1].slots:
            if spec.page_per_side or len(pages[-1].slots) + 2 > rows:
                pages.append(SheetPage(title=""))
                names.append([])
            else:
                pages[-1].slots.append([None] * cols)   # an empty row between sides
        for formation_counters in formations:
            copies = [c for counter in formation_counters for c in [counter] * (counter.count * spec.copies)]
            # a formation that fits on one row is not split over two
            if row and len(copies) <= cols and len(row) + len(copies) > cols:
                flush(side_name)
            for counter in copies:
                row.append(counter)
                if len(row) == cols:
                    flush(side_name)
        flush(side_name)
    for page, sides in zip(pages, names):
        page.title = f"{game.name}: {' / '.join(sides)}"
    return pages


def _groups(game: Game) -> list[tuple[str, list[list[Counter]]]]:
    """``(side name, [counters of each formation])`` in the game's side order, markers last."""
    order = {side.id: i for i, side in enumerate(game.sides)}
    by_side: dict[str | None, dict[str, list[Counter]]] = {}
    for counter in game.counters.values():
        key = counter.formation or ("Markers" if counter.kind == "marker" else
                                    "Chits" if counter.kind == "chit" else "Other units")
        by_side.setdefault(counter.side, {}).setdefault(key, []).append(counter)
    groups = []
    for side in sorted(by_side, key=lambda s: (s is None, order.get(s, len(order)), s or "")):
        name = game.side(side).name if side and game.side(side) else (side or "Markers")
        groups.append((name, list(by_side[side].values())))
    return groups


def render_page(game: Game, spec: SheetSpec, page: SheetPage, *, back: bool = False,
                cache: dict | None = None) -> Image.Image:
    """A front page, or its back (columns mirrored, shifted by the duplex offset)."""
    w, h = spec.page_px
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    gx, gy = spec.origin
    cell = spec.cell_px
    dx, dy = (spec.px(spec.duplex_offset[0]), spec.px(spec.duplex_offset[1])) if back else (0, 0)
    cache = {} if cache is None else cache
    for c, r, counter in page.placed():
        key = (counter.id, back)
        art = cache.get(key)
        if art is None:
            art = render_face(game, counter, spec.counter_px, back=back, bleed=spec.bleed_px)
            cache[key] = art
        x = gx + c * cell
        if back:
            x = w - x - cell
        image.paste(art, (x + dx, gy + r * cell + dy))
    if not back:
        _heading(draw, spec, page.title)
        if spec.crop_marks:
            _crop_marks(draw, spec, len(page.slots), page.columns_used)
    return image


def _heading(draw: ImageDraw.ImageDraw, spec: SheetSpec, title: str) -> None:
    size = spec.px(0.13)
    draw.text((spec.px(spec.margin_in), spec.px(spec.margin_in * 0.6)), title, fill="#333333",
              font=font(size, family="condensed"), anchor="lm")
    note = f'{spec.size_in:.4g}" counters on {spec.paper.upper()}: print at 100 % (actual size)'
    if spec.duplex:
        note += ", double-sided, flip on long edge"
    draw.text((spec.page_px[0] - spec.px(spec.margin_in), spec.px(spec.margin_in * 0.6)), note,
              fill="#666666", font=font(size * 0.8, family="condensed"), anchor="rm")


def cut_lines(spec: SheetSpec, rows: int, cols: int | None = None) -> tuple[list[int], list[int]]:
    """Pixel positions of the vertical and horizontal cut lines of a front page's grid."""
    gx, gy = spec.origin
    cols = spec.grid[0] if cols is None else cols
    b, n, cell = spec.bleed_px, spec.counter_px, spec.cell_px
    xs = sorted({gx + c * cell + b for c in range(cols)} | {gx + c * cell + b + n for c in range(cols)})
    ys = sorted({gy + r * cell + b for r in range(rows)} | {gy + r * cell + b + n for r in range(rows)})
    return xs, ys


def _crop_marks(draw: ImageDraw.ImageDraw, spec: SheetSpec, rows: int, cols: int) -> None:
    """Short lines in the margins extending every cut line; they stop short of the art."""
    if rows == 0 or cols == 0:
        return
    gx, gy = spec.origin
    cell = spec.cell_px
    xs, ys = cut_lines(spec, rows, cols)
    left, right = gx, gx + cols * cell
    top, bottom = gy, gy + rows * cell
    gap, length = spec.px(1 / 32), spec.px(0.18)
    width = max(1, spec.px(0.006))
    for x in xs:
        draw.line([(x, top - gap - length), (x, top - gap)], fill="black", width=width)
        draw.line([(x, bottom + gap), (x, bottom + gap + length)], fill="black", width=width)
    for y in ys:
        draw.line([(left - gap - length, y), (left - gap, y)], fill="black", width=width)
        draw.line([(right + gap, y), (right + gap + length, y)], fill="black", width=width)


def calibration_pages(spec: SheetSpec) -> tuple[Image.Image, Image.Image]:
    """A front with a cross at the page centre and a back with scales where the cross falls.

    Print both double-sided, hold the sheet to the light and read, on the back, the scale
    marks that the front's lines show through at: they are the ``--duplex-offset X,Y`` to use
    (positive X moves the backs right as seen on the back page, positive Y moves them down).
    """
    w, h = spec.page_px
    cx, cy = w // 2, h // 2
    inch = spec.px(1.0)
    lw = max(1, spec.px(0.006))
    big, small, tiny = font(spec.px(0.16), bold=True), font(spec.px(0.11)), font(spec.px(0.075))
    front = Image.new("RGB", (w, h), "white")
    fd = ImageDraw.Draw(front)
    fd.line([(cx, cy - 2 * inch), (cx, cy + 2 * inch)], fill="black", width=lw)
    fd.line([(cx - 2 * inch, cy), (cx + 2 * inch, cy)], fill="black", width=lw)
    lines = ["DUPLEX CALIBRATION: FRONT",
             "Print this page and the next double-sided, flipping on the long edge, at 100 % (actual size).",
             "Hold the sheet to the light and look at the back: the scale marks that this cross shows",
             "through at are the offset. Pass them as --duplex-offset X,Y (inches), then print again."]
    for i, text in enumerate(lines):
        fd.text((cx, spec.px(1.2 + 0.22 * i)), text, fill="black", font=big if i == 0 else small, anchor="mm")
    back = Image.new("RGB", (w, h), "white")
    bd = ImageDraw.Draw(back)
    bd.text((w // 2, spec.px(1.2)), "DUPLEX CALIBRATION: BACK (read the offset here)", fill="black", font=big,
            anchor="mm")
    # where the front's lines fall on a perfectly registered back page: columns mirror
    bx = w - cx
    x_scale_y = cy + inch              # the X scale crosses the front's vertical line
    y_scale_x = w - (cx + inch)        # the Y scale crosses the front's horizontal line
    for k in range(-12, 13):           # 1/32 in steps to +-3/8 in
        v = k / 32
        tick = spec.px(0.14 if k % 4 == 0 else 0.09 if k % 2 == 0 else 0.05)
        x = bx + spec.px(v)
        bd.line([(x, x_scale_y - tick), (x, x_scale_y + tick)], fill="black", width=lw)
        y = cy + spec.px(v)
        bd.line([(y_scale_x - tick, y), (y_scale_x + tick, y)], fill="black", width=lw)
        if k % 4 == 0:
            label = "0" if k == 0 else f"{'+' if k > 0 else '-'}{Fraction(abs(k), 32)}"
            # labels alternate between two rows so neighbours never overlap
            row = 0.24 if k % 8 == 0 else 0.4
            bd.text((x, x_scale_y + spec.px(row)), label, fill="black", font=tiny, anchor="mm")
            bd.text((y_scale_x + spec.px(0.35), y), label, fill="black", font=small, anchor="mm")
    bd.text((bx, x_scale_y + spec.px(0.6)), "X offset (in)", fill="black", font=small, anchor="mm")
    bd.text((y_scale_x, cy - spec.px(0.55)), "Y offset (in)", fill="black", font=small, anchor="mm")
    return front, back


def write_sheets(game: Game, spec: SheetSpec, path: Path, progress: Progress = lambda m: None) -> Path:
    """Write the counter sheets of ``game`` as one PDF (fronts and backs interleaved if duplex)."""
    pages = plan_pages(game, spec)
    if not pages:
        raise BuildError(f"{game.id} has no counters to print")
    cache: dict = {}

    def images() -> Iterator[Image.Image]:
        if spec.calibration:
            yield from calibration_pages(spec)
        for i, page in enumerate(pages, 1):
            progress(f"counters: sheet page {i}/{len(pages)} ({spec.paper})")
            yield render_page(game, spec, page, cache=cache)
            if spec.duplex:
                yield render_page(game, spec, page, back=True, cache=cache)

    save_pdf(images(), Path(path), spec.resolution, title=f"{game.name} counters")
    return Path(path)


def save_pdf(pages: Iterator[Image.Image], path: Path, resolution: float, *, title: str = "") -> None:
    """Write page images into one PDF at ``resolution`` pixels per inch, a page at a time.

    Pages are appended one by one so that memory holds one page, not the whole sheet set.
    """
    with atomic_path(str(path)) as tmp:
        first = True
        for page in pages:
            page.save(tmp, "PDF", resolution=resolution, append=not first, quality=92, title=title or None)
            first = False
        if first:
            raise BuildError(f"no pages to write into {path}")


def write_piece_images(game: Game, folder: Path, px: int = PIECE_PX, progress: Progress = lambda m: None
                       ) -> list[Path]:
    """``<id>-front.png`` and ``<id>-back.png`` of every counter at ``px`` pixels."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for counter in game.counters.values():
        for back in (False, True):
            path = folder / f"{_safe(counter.id)}-{'back' if back else 'front'}.png"
            with atomic_path(str(path)) as tmp:
                render_counter(game, counter, back=back, px=px).save(tmp, "PNG", optimize=False)
            written.append(path)
    progress(f"counters: {len(written)} piece images at {px} px")
    return written


def _safe(counter_id: str) -> str:
    safe = "".join(ch if ch.isalnum() or ch in "-_.+" else "_" for ch in counter_id)
    if not safe.strip("."):
        raise DataError(f"counter id {counter_id!r} cannot name a file")
    return safe


def build_counters(game: Game, out_dir: Path, progress: Progress = lambda m: None) -> list[Path]:
    """The counters build step: piece PNGs (75 px and print DPI) and A4 and Letter sheets."""
    out_dir = Path(out_dir)
    size = game.counter_style.size_inches
    written = write_piece_images(game, out_dir / "counters", PIECE_PX, progress)
    spec = SheetSpec(size_in=size)
    written += write_piece_images(game, out_dir / "counters" / f"{spec.dpi}dpi", spec.counter_px, progress)
    for paper in PAPERS:
        path = out_dir / "sheets" / f"{game.id}-counters-{paper}.pdf"
        path.parent.mkdir(parents=True, exist_ok=True)
        written.append(write_sheets(game, replace(spec, paper=paper), path, progress))
    return written


__all__ = ["PAPERS", "SIZES", "SheetPage", "SheetSpec", "build_counters", "calibration_pages", "cut_lines",
           "parse_offset", "parse_size", "plan_pages", "render_page", "save_pdf", "write_piece_images",
           "write_sheets"]
