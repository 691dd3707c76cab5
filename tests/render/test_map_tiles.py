"""Print PDFs: sheets that overlap, cover the whole map, and a PDF any reader can open."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PIL import ImageDraw

from toolkit.errors import BuildError
from toolkit.io import load_game
from toolkit.render import render_map
from toolkit.render.tiles import PAPERS, plan_sheets, print_pdf, printed_sheets


def test_a_small_image_fits_one_sheet():
    landscape, sheets, page = plan_sheets((500, 700), 150, "a4")
    assert len(sheets) == 1 and sheets[0].box == (0, 0, 500, 700) and not landscape
    assert page == (round(8.27 * 150), round(11.69 * 150))


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_large_images_are_cut_into_overlapping_sheets_that_cover_it(paper):
    dpi, overlap = 100, 0.5
    size = (3000, 2300)
    landscape, sheets, (pw, ph) = plan_sheets(size, dpi, paper, overlap=overlap, margin=0.45)
    assert len(sheets) > 1
    for s in sheets:
        x0, y0, x1, y1 = s.box
        assert x1 - x0 <= pw - 2 * 0.45 * dpi + 1 and y1 - y0 <= ph - 2 * 0.45 * dpi + 1
    points = [(x, y) for x in range(0, size[0], 37) for y in range(0, size[1], 37)] + [(size[0] - 1, size[1] - 1)]
    for x, y in points:
        assert any(b[0] <= x < b[2] and b[1] <= y < b[3] for b in (s.box for s in sheets)), (x, y)
    by_pos = {(s.row, s.col): s.box for s in sheets}
    for (r, c), box in by_pos.items():
        if (r, c + 1) in by_pos:
            assert box[2] - by_pos[(r, c + 1)][0] == round(overlap * dpi)
        if (r + 1, c) in by_pos:
            assert box[3] - by_pos[(r + 1, c)][1] == round(overlap * dpi)
    assert len({s.name for s in sheets}) == len(sheets)


def test_orientation_with_fewer_sheets_wins():
    # wide and short: landscape needs fewer sheets
    landscape, sheets, page = plan_sheets((1500, 1000), 150, "letter")
    assert landscape and page[0] > page[1]


def test_unknown_paper_is_refused():
    with pytest.raises(BuildError, match="paper"):
        plan_sheets((10, 10), 150, "a3")


def test_print_pdf_writes_one_page_per_sheet(tutorial, tmp_path):
    image = render_map(tutorial.main_map, dpi=150, game=tutorial)
    path = print_pdf(image, tmp_path / "m.pdf", paper="letter")
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    _, sheets, _ = plan_sheets(image.image.size, 150, "letter")
    assert len(re.findall(rb"/Type /Page ", data)) == len(sheets)
    assert re.search(rb"/Count %d" % len(sheets), data)
    # every xref offset points at its object
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    table = data[xref:].split(b"trailer")[0].split(b"\n")[2:]
    for number, row in enumerate(table):
        if row.endswith(b" n "):
            offset = int(row[:10])
            assert data[offset:].startswith(b"%d 0 obj" % number)


@pytest.mark.parametrize("game_id, map_id, paper, blank", [("white-death", "main", "a4", ["E4"]),
                                                          ("white-death", "main", "letter", ["E3", "F3"]),
                                                          ("grossdeutschland", "kursk", "a4", ["B4"])])
def test_sheets_that_show_nothing_of_the_map_are_not_printed(game_id, map_id, paper, blank, tmp_path):
    # White Death's legend is narrower than its map: the last sheet of the A4 PDF was blank
    # paper; Kursk's last sheet held only the overlap strip of the sheet above it
    game = load_game(game_id)
    image = render_map(game.maps[map_id], dpi=150, game=game)
    _, planned, _ = plan_sheets(image.size, 150, paper)
    ov = round(0.5 * 150)
    kept = printed_sheets(image, planned, ov)
    assert [s.name for s in planned if s not in kept] == blank
    whole = np.asarray(image.image)
    paper_colour = np.asarray(image.scene.theme.paper, dtype=whole.dtype)
    names = {(s.row, s.col) for s in kept}
    for s in planned:
        x0, y0, x1, y1 = s.box
        if s not in kept:   # nothing there but paper, or what a printed neighbour shows
            x0 += ov if (s.row, s.col - 1) in names else 0
            x1 -= ov if (s.row, s.col + 1) in names else 0
            y0 += ov if (s.row - 1, s.col) in names else 0
            y1 -= ov if (s.row + 1, s.col) in names else 0
        inked = bool((whole[y0:y1, x0:x1] != paper_colour).any())
        assert inked == (s in kept), s.name
    data = print_pdf(image, tmp_path / "m.pdf", paper=paper).read_bytes()
    assert len(re.findall(rb"/Type /Page ", data)) == len(kept) == len(planned) - len(blank)


def test_a_sheet_beside_a_blank_one_names_no_neighbour_and_marks_no_strip_there(monkeypatch):
    from toolkit.render import tiles
    game = load_game("white-death")
    image = render_map(game.main_map, dpi=100, game=game)
    _, planned, (pw, ph) = plan_sheets(image.size, 100, "a4")
    kept = printed_sheets(image, planned, 50)
    (blank,) = [s for s in planned if s not in kept]
    printed = {(s.row, s.col) for s in kept}
    grid = tiles._SheetGrid(max(s.col for s in planned) + 1, max(s.row for s in planned) + 1, printed, [blank.name])
    texts, marks = [], []
    real_text, real_ellipse = ImageDraw.ImageDraw.text, ImageDraw.ImageDraw.ellipse
    monkeypatch.setattr(ImageDraw.ImageDraw, "text",
                        lambda self, xy, text, *a, **k: (texts.append(text), real_text(self, xy, text, *a, **k)))
    monkeypatch.setattr(ImageDraw.ImageDraw, "ellipse",
                        lambda self, *a, **k: (marks.append(a), real_ellipse(self, *a, **k)))
    for n, sheet in enumerate(kept):
        texts.clear()
        marks.clear()
        tiles._page(image, sheet, (pw, ph), 100, 0.45, 0.5, grid, n, "t")
        assert f"page {n + 1} of {len(kept)}" in texts[0]
        neighbours = [(sheet.row + dr, sheet.col + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))]
        # a label and three registration marks for each printed neighbour, none for the blank sheet
        assert not any(t[0] in "\u2190\u2191\u2192\u2193" and t.endswith(blank.name) for t in texts), sheet.name
        assert len(marks) == 3 * sum(1 for rc in neighbours if rc in printed), sheet.name
        assert any(f"Sheet {blank.name}: blank, not printed" in t for t in texts)
