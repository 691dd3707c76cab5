"""Print PDFs of a map, tiled on A4 or Letter with overlap and alignment marks.

A map larger than a page is cut into sheets that overlap by a strip; registration marks in
each strip sit at the same map position on both sheets, and a dashed line marks where to
trim one sheet before laying it over its neighbour. The margin names each sheet and its
neighbours. A sheet that would show nothing of the map (the paper beside a short legend) is
not printed; the others keep their names in the grid of sheets. Pages are drawn and written one at a time (lossless, Flate) so memory stays at one
page, whatever the size of the map.
"""

from __future__ import annotations

import math
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw

from ..errors import BuildError
from ..io import atomic_path
from .fonts import font
from .mapimage import MapImage

__all__ = ["PAPERS", "Sheet", "plan_sheets", "printed_sheets", "print_pdf"]

#: Paper sizes in inches (portrait).
PAPERS = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}

_ROWS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Sheet:
    """One printed page: the map pixels ``box`` it shows and its place in the grid of sheets."""

    row: int
    col: int
    box: tuple[int, int, int, int]

    @property
    def name(self) -> str:
        return f"{_ROWS[self.row % 26]}{self.col + 1}"


def plan_sheets(image_size: tuple[int, int], dpi: int, paper: str = "a4", *, margin: float = 0.45,
                overlap: float = 0.5) -> tuple[bool, list[Sheet], tuple[int, int]]:
    """Cut an image into overlapping sheets: ``(landscape, sheets, page pixel size)``.

    ``margin`` (printer's unprintable border plus labels) and ``overlap`` are in inches. The
    orientation needing fewer sheets wins (portrait on a tie).
    """
    if paper not in PAPERS:
        raise BuildError(f"unknown paper {paper!r}; expected one of {', '.join(PAPERS)}")
    W, H = image_size
    best = None
    for landscape in (False, True):
        pw_in, ph_in = PAPERS[paper][::-1] if landscape else PAPERS[paper]
        aw, ah = round((pw_in - 2 * margin) * dpi), round((ph_in - 2 * margin) * dpi)
        ov = round(overlap * dpi)
        nx = 1 if W <= aw else math.ceil((W - ov) / (aw - ov))
        ny = 1 if H <= ah else math.ceil((H - ov) / (ah - ov))
        if best is None or nx * ny < best[0]:
            best = (nx * ny, landscape, nx, ny, aw, ah, ov, (round(pw_in * dpi), round(ph_in * dpi)))
    _, landscape, nx, ny, aw, ah, ov, page = best
    # equal sheets rather than full ones and a sliver
    tw = math.ceil((W + (nx - 1) * ov) / nx)
    th = math.ceil((H + (ny - 1) * ov) / ny)
    sheets = []
    for r in range(ny):
        for c in range(nx):
            x0 = c * (tw - ov)
            y0 = r * (th - ov)
            sheets.append(Sheet(r, c, (x0, y0, min(W, x0 + tw), min(H, y0 + th))))
    return landscape, sheets, page


def printed_sheets(map_image: MapImage, sheets: list[Sheet], overlap: int) -> list[Sheet]:
    """The sheets worth printing: those that show something of the map (:meth:`MapImage.inked`)
    that no printed neighbour shows in the strip they share (``overlap`` pixels)."""
    kept = {(s.row, s.col): s for s in sheets if map_image.inked(s.box)}
    # last first: a sheet whose only ink lies in the strip it shares with a printed neighbour
    # adds nothing (its neighbour, still printed, shows that ink)
    for (row, col), sheet in sorted(kept.items(), reverse=True):
        x0, y0, x1, y1 = sheet.box
        x0 += overlap if (row, col - 1) in kept else 0
        x1 -= overlap if (row, col + 1) in kept else 0
        y0 += overlap if (row - 1, col) in kept else 0
        y1 -= overlap if (row + 1, col) in kept else 0
        if not map_image.inked((x0, y0, x1, y1)):
            del kept[(row, col)]
    return [s for s in sheets if (s.row, s.col) in kept]


def print_pdf(map_image: MapImage, path: str | os.PathLike, paper: str = "a4", *,
              overlap: float = 0.5, margin: float = 0.45, title: str | None = None,
              progress: Callable[[str], None] | None = None) -> Path:
    """Write ``map_image`` as a print PDF tiled on ``paper`` (``a4`` or ``letter``) at its DPI.

    Each page draws only its own part of the map (:meth:`MapImage.region`), so memory stays
    at one page whatever the size of the map; ``progress`` hears of each page. A sheet that
    would show nothing of the map is left out (:func:`printed_sheets`)."""
    dpi = map_image.dpi
    landscape, planned, (pw, ph) = plan_sheets(map_image.size, dpi, paper, margin=margin, overlap=overlap)
    title = title or map_image.game_map.name
    nx = max(s.col for s in planned) + 1
    ny = max(s.row for s in planned) + 1
    sheets = printed_sheets(map_image, planned, round(overlap * dpi)) or planned[:1]
    grid = _SheetGrid(nx, ny, {(s.row, s.col) for s in sheets}, [s.name for s in planned if s not in sheets])
    path = Path(path)
    with atomic_path(str(path)) as tmp:
        with open(tmp, "wb") as fh:
            writer = _PdfWriter(fh, len(sheets))
            for n, sheet in enumerate(sheets):
                if progress is not None and len(sheets) > 1:
                    progress(f"map {map_image.game_map.id}: page {n + 1} of {len(sheets)} ({sheet.name})")
                page = _page(map_image, sheet, (pw, ph), dpi, margin, overlap, grid, n, title)
                writer.add_page(page, pw * 72 / dpi, ph * 72 / dpi)
                del page
            writer.close()
    return path


@dataclass(frozen=True)
class _SheetGrid:
    """The grid of sheets a map was cut into: its size, the sheets printed (row, col) and the
    names of those left out."""

    nx: int
    ny: int
    printed: set
    blank: list


def _page(map_image: MapImage, sheet: Sheet, page_size, dpi: int, margin: float, overlap: float,
          grid: _SheetGrid, number: int, title: str) -> Image.Image:
    pw, ph = page_size
    nx, ny = grid.nx, grid.ny
    page = Image.new("RGB", (pw, ph), "white")
    m = round(margin * dpi)
    x0, y0, x1, y1 = sheet.box
    crop = map_image.region(sheet.box)
    page.paste(crop, (m, m))
    del crop
    draw = ImageDraw.Draw(page)
    thin = max(1, round(dpi / 150))
    ink = (0, 0, 0)
    ov = round(overlap * dpi)
    w, h = x1 - x0, y1 - y0
    # crop marks at the corners of the printed area
    L = round(0.2 * dpi)
    for cx, cy in ((m, m), (m + w, m), (m, m + h), (m + w, m + h)):
        sx = -1 if cx == m else 1
        sy = -1 if cy == m else 1
        draw.line((cx + sx * 4, cy, cx + sx * L, cy), fill=ink, width=thin)
        draw.line((cx, cy + sy * 4, cx, cy + sy * L), fill=ink, width=thin)
    # overlap strips: registration marks (shared by both sheets) and the trim line
    mark_r = round(0.09 * dpi)

    def reg(px: float, py: float) -> None:
        draw.ellipse((px - mark_r, py - mark_r, px + mark_r, py + mark_r), outline=ink, width=thin)
        draw.line((px - mark_r * 1.6, py, px + mark_r * 1.6, py), fill=ink, width=thin)
        draw.line((px, py - mark_r * 1.6, px, py + mark_r * 1.6), fill=ink, width=thin)

    def dashed(p0, p1) -> None:
        (ax, ay), (bx, by) = p0, p1
        length = math.hypot(bx - ax, by - ay)
        step = 0.08 * dpi
        n = int(length // step)
        for k in range(0, n, 2):
            t0, t1 = k / n, min(1.0, (k + 1) / n)
            draw.line((ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                      fill=ink, width=thin)

    # only towards a printed neighbour: nothing is laid over the side of a sheet left out
    strips_x = _strips(x0, x1, ov, (sheet.row, sheet.col - 1) in grid.printed, (sheet.row, sheet.col + 1) in grid.printed)
    strips_y = _strips(y0, y1, ov, (sheet.row - 1, sheet.col) in grid.printed, (sheet.row + 1, sheet.col) in grid.printed)
    for sx0, sx1 in strips_x:
        mx = m + (sx0 + sx1) / 2 - x0
        dashed((mx, m), (mx, m + h))
        for fy in (0.2, 0.5, 0.8):
            reg(mx, m + h * fy)
    for sy0, sy1 in strips_y:
        my = m + (sy0 + sy1) / 2 - y0
        dashed((m, my), (m + w, my))
        for fx in (0.2, 0.5, 0.8):
            reg(m + w * fx, my)
    # labels in the margin: this sheet and its neighbours
    f = font(0.13 * dpi, bold=True, family="condensed")
    small = font(0.11 * dpi, family="condensed")
    total = len(grid.printed)
    draw.text((m + L, m / 2), f"{title}  \u2014  sheet {sheet.name}, page {number + 1} of {total} ({ny} \u00d7 {nx})",
              font=f, fill=ink, anchor="lm")
    names = {(-1, 0): "\u2191 ", (1, 0): "\u2193 ", (0, -1): "\u2190 ", (0, 1): "\u2192 "}
    for (dr, dc), arrow in names.items():
        r, c = sheet.row + dr, sheet.col + dc
        if (r, c) not in grid.printed:
            continue
        other = f"{arrow}{_ROWS[r % 26]}{c + 1}"
        if dr == -1:
            draw.text((m + w, m / 2), other, font=small, fill=ink, anchor="rm")
        elif dr == 1:
            draw.text((m + w / 2, m + h + m / 2), other, font=small, fill=ink, anchor="mm")
        elif dc == -1:
            draw.text((m / 2, m + h / 2), other.strip(), font=small, fill=ink, anchor="mm")
        else:
            draw.text((min(pw - m / 2, m + w + m / 2), m + h / 2), other.strip(), font=small, fill=ink, anchor="mm")
    if total > 1:
        blank = (f" Sheet{'s' if len(grid.blank) > 1 else ''} {', '.join(grid.blank)}: blank, not printed."
                 if grid.blank else "")
        draw.text((m, ph - m / 2), f"Trim along the dashed line and lay over the next sheet, matching the "
                                   f"\u2295 marks; overlap {overlap:g} in.{blank}", font=small, fill=ink, anchor="lm")
    return page


def _strips(lo: int, hi: int, ov: int, before: bool, after: bool) -> list[tuple[int, int]]:
    """The overlap strips (map coordinates) on a sheet: at its low side if a printed sheet
    lies ``before`` it, at its high side if one lies ``after`` it."""
    out = []
    if before:
        out.append((lo, lo + ov))
    if after:
        out.append((hi - ov, hi))
    return out


class _PdfWriter:
    """A minimal PDF writer: one full-page RGB image per page, written as it comes."""

    def __init__(self, fh, pages: int) -> None:
        self.fh = fh
        self.offsets: dict[int, int] = {}
        self.n_pages = pages
        self.page_ids: list[int] = []
        self.next_id = 3  # 1: catalog, 2: pages
        self._write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")

    def _write(self, data: bytes) -> None:
        self.fh.write(data)

    def _obj(self, obj_id: int, body: bytes, stream: bytes | None = None) -> None:
        self.offsets[obj_id] = self.fh.tell()
        self._write(f"{obj_id} 0 obj\n".encode() + body)
        if stream is not None:
            self._write(b"\nstream\n" + stream + b"\nendstream")
        self._write(b"\nendobj\n")

    def add_page(self, image: Image.Image, width_pt: float, height_pt: float) -> None:
        img_id, content_id, page_id = self.next_id, self.next_id + 1, self.next_id + 2
        self.next_id += 3
        data = zlib.compress(image.tobytes(), 6)
        self._obj(img_id, (f"<< /Type /XObject /Subtype /Image /Width {image.width} /Height {image.height} "
                           f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                           f"/Length {len(data)} >>").encode(), data)
        content = f"q {width_pt:.3f} 0 0 {height_pt:.3f} 0 0 cm /Im0 Do Q".encode()
        self._obj(content_id, f"<< /Length {len(content)} >>".encode(), content)
        self._obj(page_id, (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width_pt:.3f} {height_pt:.3f}] "
                            f"/Resources << /XObject << /Im0 {img_id} 0 R >> >> /Contents {content_id} 0 R >>").encode())
        self.page_ids.append(page_id)

    def close(self) -> None:
        kids = " ".join(f"{p} 0 R" for p in self.page_ids)
        self._obj(1, b"<< /Type /Catalog /Pages 2 0 R >>")
        self._obj(2, f"<< /Type /Pages /Kids [{kids}] /Count {len(self.page_ids)} >>".encode())
        xref = self.fh.tell()
        count = self.next_id
        lines = [f"xref\n0 {count}\n", "0000000000 65535 f \n"]
        for i in range(1, count):
            lines.append(f"{self.offsets.get(i, 0):010d} 00000 n \n" if i in self.offsets else "0000000000 65535 f \n")
        self._write("".join(lines).encode())
        self._write(f"trailer\n<< /Size {count} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
