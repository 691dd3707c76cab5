"""Drafting terrain from hexforge's own render of the bundled maps (known answers), clean and
degraded the way a scan is (JPEG, blur, a colour cast, 2% scale and half a degree of turn).

A hex is right when its terrain, its overlays, its hexside features and the roads and railways
across its sides are all right; every wrong hex must be listed for a person (low confidence).
The measured table for every bundled map is in docs/from-a-module.md (bench/draft_accuracy.py)."""

from __future__ import annotations

import pytest

from known_answers import picture, run, score
from toolkit.draft import Palette, apply_draft, draft_terrain
from toolkit.draft.geometry import drawn_labels
from toolkit.io import load_game
from toolkit.render import render_map

DPI = 120


@pytest.fixture(scope="module")
def tutorial():
    game = load_game("tutorial")
    return game, render_map(game.main_map, dpi=DPI, game=game)


@pytest.fixture(scope="module")
def clean_draft(tutorial):
    game, rendered = tutorial
    return run(game, "main", DPI, "clean", rendered)[0]


def test_clean_render_gives_back_every_hex(tutorial, clean_draft):
    game, rendered = tutorial
    m = game.main_map
    result = score(m, clean_draft)
    assert not result.wrong_terrain  # the village of Dorn under its name, the town of Kessel under a road
    assert result.sides == (28, 0, 0)  # every river and stream, the two under bridges too
    assert result.links == (26, 0, 0)  # every road and railway step, under names and bridges too
    assert result.accuracy == 1.0, result.wrong
    assert not clean_draft.missing
    assert clean_draft.correction[0] == (1.0, 1.0, 1.0)  # a clean picture needs no colour correction
    assert result.listed <= 0.1 * result.hexes  # few right hexes asked about (4%)


@pytest.mark.parametrize("degradation", ["jpeg60", "blur", "cast", "scan"])
def test_a_degraded_render_is_still_read(tutorial, degradation):
    game, rendered = tutorial
    draft, result = run(game, "main", DPI, degradation, rendered)
    assert result.accuracy >= 0.95, result.wrong
    assert result.links[1:] == (0, 0), result.links  # no road or railway missed or invented
    assert not result.unflagged  # a person is asked about each wrong hex
    assert result.listed <= 0.15 * result.hexes  # ... without asking about everything (2-6%)


def test_a_scan_is_registered_by_two_hexes(tutorial):
    from known_answers import scan
    from toolkit.draft import placed_layout

    game, rendered = tutorial
    m = game.main_map
    turned, land = scan(rendered.image)
    hexes = list(m.grid)
    refs = {h: tuple(round(v) for v in land(*rendered.layout.center(h))) for h in (hexes[0], hexes[-1])}
    layout = placed_layout(m, refs=refs, use_board=False)
    for h in hexes[::17]:  # the grid lands where the scan put each hex (within a pixel or two)
        x, y = land(*rendered.layout.center(h))
        cx, cy = layout.center(h)
        assert abs(cx - x) < 2 and abs(cy - y) < 2
    # and so do the names hexforge printed: the box of "Kessel" holds its dark ink on the scan
    labels = drawn_labels(m, layout, game=game)
    x0, y0, x1, y1 = rendered.text_boxes["places"]["Kessel"]
    (ax, ay), (bx, by) = land(x0, y0), land(x1, y1)
    assert any(abs(box[0] - ax) < 3 and abs(box[1] - ay) < 3 and abs(box[2] - bx) < 3 and abs(box[3] - by) < 3
               for box in labels)
    crop = turned.convert("L").crop(tuple(round(v) for v in (ax, ay, bx, by)))
    assert crop.getextrema()[0] < 80


def test_names_and_markers_are_read_around(tutorial):
    """Without the boxes where names and markers are printed, a name over a village hides it
    (names 0.3 of a hex high, about twice the default theme's: the default ones find room beside
    the tutorial's villages, and at 0.25 the drafter reads the villages between the letters).
    Drafted in the window 0406-0810 of the map (25 of its 120 hexes), around Brook (0608), the
    one village its name hides: drafted whole, the blind draft misses the same two hexes (0509,
    0608) and the seeing one none, as here."""
    from known_answers import window
    from toolkit.render import Theme

    game, _ = tutorial
    full = game.main_map
    theme = Theme.default()
    theme.data["place"] = {**theme.data.get("place", {}), "size": 0.3}
    rendered = render_map(full, dpi=DPI, game=game, theme=theme)
    image, layout = picture(full, rendered, "clean")
    m = window(full, (4, 8), (6, 10))
    blind = draft_terrain(m, image, layout, Palette.from_game(m, layout.size))
    labels = drawn_labels(full, layout, game=game, theme=theme)
    seeing = draft_terrain(m, image, layout, Palette.from_game(m, layout.size), labels=labels)
    brook = full.grid.parse("0608")
    assert brook in score(m, blind).wrong  # the village under its name, missed without the boxes
    assert len(score(m, seeing).wrong) < len(score(m, blind).wrong)


def test_applied_draft_is_estimated_and_round_trips(tutorial, clean_draft, tmp_path):
    from toolkit.io import dump_map, load_map

    game, rendered = tutorial
    m = game.main_map
    draft = clean_draft
    drafted = apply_draft(m, draft, "map.png")
    assert all(c.source.is_estimated and "drafted from map.png" in c.source.estimated for c in drafted.hexes.values())
    assert all("confidence" in c.source.estimated for c in drafted.hexes.values())
    dump_map(drafted, str(tmp_path / "map.yaml"))
    again = load_map(str(tmp_path / "map.yaml"))
    assert again.hexes == drafted.hexes and again.lines == drafted.lines
    assert set(again.hexsides) == set(drafted.hexsides)
