"""Printable sheets: exact physical sizes, bleed, crop marks, duplex mirroring, copies, files."""

from __future__ import annotations

import dataclasses
import io

import pytest
from PIL import Image, ImageChops, ImageColor, PdfParser

from toolkit.cli import main
from toolkit.errors import DataError
from toolkit.game import Counter
from toolkit.render import build_counters
from toolkit.render.sheets import (PAPERS, SIZES, SheetSpec, calibration_pages, cut_lines, parse_offset, parse_size,
                                   plan_pages, render_page, write_sheets)


def _pdf_pages(path):
    """(MediaBox width, height in points, page image) of each page, read with pillow's PDF parser."""
    pdf = PdfParser.PdfParser(str(path))
    try:
        pages = []
        for ref in pdf.pages:
            page = pdf.read_indirect(ref)
            _, _, width, height = page[b"MediaBox"]
            stream = pdf.read_indirect(page[b"Resources"][b"XObject"][b"image"])
            assert stream.dictionary.Filter == b"DCTDecode"
            image = Image.open(io.BytesIO(bytes(stream.buf)))
            image.load()
            pages.append((float(width), float(height), image))
        return pages
    finally:
        pdf.close()


def _one_counter_game(game, **changes):
    counter = dataclasses.replace(game.counters["b-1"], **changes)
    return dataclasses.replace(game, counters={counter.id: counter})


@pytest.mark.parametrize("text, inches", [("5/8", 0.625), ("0.625", 0.625), ('5/8"', 0.625), ("9/16", 0.5625),
                                          ("1", 1.0), ("3/4in", 0.75), ("16mm", 16 / 25.4), (0.5, 0.5)])
def test_parse_size(text, inches):
    assert parse_size(text) == pytest.approx(inches)


@pytest.mark.parametrize("text", ["", "five", "1/0", "5/8/2"])
def test_parse_size_rejects_nonsense(text):
    with pytest.raises(DataError, match="cannot read counter size"):
        parse_size(text)


def test_parse_offset():
    assert parse_offset("0.02,-0.01") == (0.02, -0.01)
    with pytest.raises(DataError, match="duplex offset"):
        parse_offset("0.02")


@pytest.mark.parametrize("size", sorted(SIZES.values()) + [0.6, 0.7])
@pytest.mark.parametrize("dpi", [150, 300, 600])
def test_counter_pixels_are_exactly_the_size_in_inches(size, dpi):
    spec = SheetSpec(size_in=size, dpi=dpi)
    assert spec.counter_px / spec.resolution == pytest.approx(size, abs=1e-12)
    assert abs(spec.resolution - dpi) / dpi < 0.02     # near the asked resolution


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_pdf_counter_measures_five_eighths_of_an_inch(tutorial, tmp_path, paper):
    spec = SheetSpec(size_in=0.625, paper=paper, bleed_in=0, duplex=False)
    path = write_sheets(tutorial, spec, tmp_path / "s.pdf")
    width_pt, height_pt, page = _pdf_pages(path)[0]
    paper_w, paper_h = PAPERS[paper]
    assert width_pt / 72 == pytest.approx(paper_w, abs=0.01) and height_pt / 72 == pytest.approx(paper_h, abs=0.01)
    inch_per_px = width_pt / 72 / page.width
    # read the first row of art off the page image: counters abut, so the run of the side colour
    # across the row is a whole number of counters
    gx, gy = spec.origin
    row_y = gy + spec.counter_px // 2 + 5
    blue = ImageColor.getrgb(tutorial.side("blue").colour)
    xs = [x for x in range(page.width) if sum(abs(a - b) for a, b in zip(page.getpixel((x, row_y)), blue)) < 30]
    first_left = min(xs)
    assert first_left == pytest.approx(gx, abs=2)
    used = sum(1 for c in plan_pages(tutorial, spec)[0].slots[0] if c is not None)
    run = max(xs) - first_left + 1
    assert run == pytest.approx(used * spec.counter_px, abs=3)
    assert run / used * inch_per_px == pytest.approx(0.625, abs=0.003)
    # and the arithmetic of the PDF itself is exact
    assert spec.counter_px * inch_per_px == pytest.approx(0.625, abs=1e-6)


def test_pdf_interleaves_fronts_and_backs_and_adds_calibration(tutorial, tmp_path):
    spec = SheetSpec(calibration=True)
    pages = _pdf_pages(write_sheets(tutorial, spec, tmp_path / "s.pdf"))
    assert len(pages) == 2 + 2 * len(plan_pages(tutorial, spec))


def test_backs_are_mirrored_and_shifted_by_the_offset(tutorial):
    game = _one_counter_game(tutorial)
    page = plan_pages(game, SheetSpec())[0]
    for offset in ((0.0, 0.0), (0.05, -0.02)):
        spec = SheetSpec(duplex_offset=offset, crop_marks=False)
        w, _ = spec.page_px
        gx, gy = spec.origin
        top = gy - 10                            # below the heading
        front = render_page(game, spec, page).crop((0, top, w, spec.page_px[1]))
        back = render_page(game, spec, page, back=True).crop((0, top, w, spec.page_px[1]))
        fx0, fy0, fx1, fy1 = ImageChops.invert(front.convert("L")).getbbox()
        bx0, by0, bx1, by1 = ImageChops.invert(back.convert("L")).getbbox()
        dx, dy = spec.px(offset[0]), spec.px(offset[1])
        assert (bx0, bx1) == (w - fx1 + dx, w - fx0 + dx)
        assert (by0, by1) == (fy0 + dy, fy1 + dy)


def test_bleed_extends_art_past_the_cut_lines_and_crop_marks_stay_off_the_art(tutorial):
    game = _one_counter_game(tutorial, count=3)
    spec = SheetSpec(bleed_in=0.0625)
    page = plan_pages(game, spec)[0]
    with_marks = render_page(game, spec, page)
    without = render_page(game, dataclasses.replace(spec, crop_marks=False), page)
    xs, ys = cut_lines(spec, rows=1, cols=3)
    assert len(xs) == 6 and len(ys) == 2
    blue = ImageColor.getrgb(tutorial.side("blue").colour)
    mid_y = (ys[0] + ys[1]) // 2
    b = spec.bleed_px
    # just outside the first counter's left cut line is still the counter's background
    assert with_marks.getpixel((xs[0] - b // 2, mid_y)) == blue
    # the crop marks changed pixels only outside the art (the grid's bleed box)
    gx, gy = spec.origin
    art = (gx, gy, gx + 3 * spec.cell_px, gy + spec.cell_px)
    diff = ImageChops.difference(with_marks, without).convert("L")
    x0, y0, x1, y1 = diff.getbbox()
    heading_bottom = spec.px(spec.margin_in)
    marks = diff.crop((0, heading_bottom, diff.width, diff.height))
    assert marks.getbbox() is not None
    inside_art = diff.crop(art)
    assert inside_art.getbbox() is None
    # every cut line has its crop marks in line with it
    for x in xs:
        assert with_marks.getpixel((x, gy - spec.px(0.1)))[0] < 100
    for y in ys:
        assert with_marks.getpixel((gx - spec.px(0.1), y))[0] < 100


def test_copies_grouping_and_rows(tutorial):
    spec = SheetSpec(copies=2)
    pages = plan_pages(tutorial, spec)
    placed = [counter for page in pages for _, _, counter in page.placed()]
    assert len(placed) == 2 * sum(c.count for c in tutorial.counters.values())
    assert len(pages) == 1 and pages[0].title.endswith("Blue / Red / Markers")
    rows = pages[0].slots
    sides = [{c.side for c in row if c is not None} for row in rows]
    assert all(len(s) <= 1 for s in sides)                      # a row never mixes sides
    for before, after in zip(sides, sides[1:]):
        assert not (before and after and before != after)       # an empty row between sides
    # a formation that fits on one row is kept on one row
    cols = spec.grid[0]
    small = {c.formation for c in tutorial.counters.values()
             if sum(2 * d.count for d in tutorial.counters.values() if d.formation == c.formation) <= cols}
    for formation in small - {None}:
        assert sum(1 for row in rows if any(c is not None and c.formation == formation for c in row)) == 1


def test_page_per_side(tutorial):
    pages = plan_pages(tutorial, SheetSpec(page_per_side=True))
    assert [p.title.split(": ")[-1] for p in pages] == ["Blue", "Red", "Markers"]
    for page in pages:
        assert len({c.side for _, _, c in page.placed()}) == 1


@pytest.mark.parametrize("change, problem", [({"paper": "a3"}, "unknown paper"), ({"size_in": 4}, "outside"),
                                             ({"dpi": 20}, "outside"), ({"copies": 0}, "outside"),
                                             ({"duplex_offset": (0.6, 0)}, "more than")])
def test_bad_specs_are_refused(change, problem):
    with pytest.raises(DataError, match=problem):
        SheetSpec(**change)


def test_calibration_pages_mark_the_centre(tutorial):
    spec = SheetSpec()
    front, back = calibration_pages(spec)
    w, h = spec.page_px
    assert front.getpixel((w // 2, h // 2 + spec.px(1.5)))[0] < 100      # the cross's vertical line
    assert back.getpixel((w - w // 2, h // 2 + spec.px(1.0)))[0] < 100   # the zero tick behind it


def test_build_counters_writes_pieces_and_sheets(tutorial, tmp_path):
    files = build_counters(tutorial, tmp_path, lambda message: None)
    names = {p.relative_to(tmp_path).as_posix() for p in files}
    for counter_id in tutorial.counters:
        assert f"counters/{counter_id}-front.png" in names and f"counters/{counter_id}-back.png" in names
    assert {"sheets/tutorial-counters-a4.pdf", "sheets/tutorial-counters-letter.pdf"} <= names
    assert Image.open(tmp_path / "counters" / "b-1-front.png").size == (75, 75)
    assert all(p.exists() for p in files)
    assert not [p for p in tmp_path.rglob(".tmp-*")]


def test_cli_writes_sheets_and_rejects_bad_input(tmp_path, capsys):
    with pytest.raises(SystemExit) as done:
        main(["counters", "tutorial", "--size", "1/2", "--paper", "letter", "--simplex", "--out", str(tmp_path)])
    assert done.value.code == 0
    assert (tmp_path / "sheets" / "tutorial-counters-letter.pdf").exists()
    assert Image.open(tmp_path / "counters" / "300dpi" / "b-1-front.png").size == (150, 150)
    for bad in (["--size", "huge"], ["--duplex-offset", "x"], ["--copies", "0"], ["--bleed", "2"],
                ["--layout", "nope"]):
        with pytest.raises(SystemExit) as done:
            main(["counters", "tutorial", "--out", str(tmp_path / "bad"), *bad])
        assert done.value.code == 2
        assert "Traceback" not in capsys.readouterr().err


def test_a_counter_id_that_cannot_name_a_file_is_refused(tutorial, tmp_path):
    game = dataclasses.replace(tutorial, counters={"..": Counter(id="..", side="blue", name="x")})
    with pytest.raises(DataError, match="cannot name a file"):
        build_counters(game, tmp_path, lambda m: None)
