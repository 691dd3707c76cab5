"""Referee overlays: shading, paths, marks and labels drawn on a copy, aligned with the hexes."""

from __future__ import annotations

import pytest

from toolkit.errors import HexError
from toolkit.hexes import Hex
from toolkit.render import overlay, render_map


@pytest.fixture(scope="module")
def rendered(tutorial):
    return render_map(tutorial.main_map, dpi=100, game=tutorial)


def _at(image, layout, h, dx=0.0, dy=0.0):
    x, y = layout.center(h)
    return image.getpixel((round(x + dx * layout.size), round(y + dy * layout.size)))


def test_overlay_returns_a_copy(rendered):
    before = rendered.image.tobytes()
    out = overlay(rendered, shade={Hex(2, 2): "red"})
    assert out is not rendered.image and out.size == rendered.image.size
    assert rendered.image.tobytes() == before


def test_shading_tints_only_the_shaded_hex(rendered):
    layout = rendered.layout
    out = overlay(rendered, shade={Hex(2, 6): (0, 0, 255), Hex(4, 6): (255, 0, 0, 255)})
    # a point between the centre and the id, away from symbols
    before = _at(rendered.image, layout, Hex(2, 6), 0.3, 0.1)
    after = _at(out, layout, Hex(2, 6), 0.3, 0.1)
    assert after[2] > before[2] and after[0] < before[0]
    assert _at(out, layout, Hex(4, 6), 0.3, 0.1) == (255, 0, 0)  # opaque tuple alpha
    assert _at(out, layout, Hex(3, 6), 0.3, 0.1) == _at(rendered.image, layout, Hex(3, 6), 0.3, 0.1)


def test_paths_run_through_hex_centres(rendered):
    layout = rendered.layout
    out = overlay(rendered, paths=[[Hex(2, 9), Hex(3, 9), Hex(4, 9), Hex(5, 9)]], path_colours=["#00c000"])
    (x0, y0), (x1, y1) = layout.center(Hex(3, 9)), layout.center(Hex(4, 9))
    r, g, b = out.getpixel((round((x0 + x1) / 2), round((y0 + y1) / 2)))
    assert g > 150 and r < 80 and b < 80


def test_marks_and_labels_change_the_marked_hexes(rendered):
    layout = rendered.layout
    marks = {Hex(9, 2): "x", Hex(10, 2): "ring", Hex(11, 2): "OOS", Hex(9, 9): "dot"}
    out = overlay(rendered, marks=marks, labels={Hex(3, 3): "4"}, legend="Reach of 2/7 (MP left)")
    for h in marks:
        box = [round(v) for v in layout.bounds([h])]
        assert out.crop(box).tobytes() != rendered.image.crop(box).tobytes(), f"no mark on {h}"
    box = [round(v) for v in layout.bounds([Hex(3, 3)])]
    assert out.crop(box).tobytes() != rendered.image.crop(box).tobytes()
    assert out.crop((0, 0, 40, 20)).tobytes() != rendered.image.crop((0, 0, 40, 20)).tobytes()


def test_hexes_off_the_map_are_refused(rendered):
    with pytest.raises(HexError, match="not on map"):
        overlay(rendered, shade={Hex(40, 40): "red"})
    with pytest.raises(HexError):
        overlay(rendered, paths=[[Hex(1, 1), Hex(0, 1)]])
