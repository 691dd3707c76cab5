"""Print PDFs: sheets that overlap, cover the whole map, and a PDF any reader can open."""

from __future__ import annotations

import re

import pytest

from toolkit.errors import BuildError
from toolkit.render import render_map
from toolkit.render.tiles import PAPERS, plan_sheets, print_pdf


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
