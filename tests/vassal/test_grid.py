"""The VASSAL hex-grid port against VASSAL's own answers, and derived grids against our ids."""

import itertools
import json
from pathlib import Path

import pytest

from toolkit.hexes import Grid, Layout, Numbering
from toolkit.io import load_game
from toolkit.vassal.grid import VassalHexGrid, derive_grid, raw_index

ORACLE = Path(__file__).parent.parent / "data" / "vassal" / "vassal-hexgrid-oracle.jsonl"
MAPS = Path(__file__).resolve().parents[2] / "maps"


def _oracle():
    with ORACLE.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.mark.parametrize("config", _oracle(), ids=lambda c: f"{c['HexGrid']['dx']}")
def test_port_reproduces_every_oracle_answer(config):
    board = config["board"]
    grid = VassalHexGrid.from_attributes(config["HexGrid"], config["HexGridNumbering"],
                                         board["image_width"], board["image_height"])
    mismatches = []
    for p in config["points"]:
        snapped = grid.snap(p["x"], p["y"])
        got = (snapped, grid.raw(*snapped), grid.label(*snapped), grid.label(p["x"], p["y"]))
        want = ((p["sx"], p["sy"]), (p["rawcol"], p["rawrow"]), p["loc"], p["locRaw"])
        if got != want:
            mismatches.append((p, got))
    assert len(config["points"]) == 1000
    assert mismatches == []


def _check_every_hex(layout: Layout, width: int, height: int) -> VassalHexGrid:
    vgrid = derive_grid(layout, width, height)
    for hex in layout.grid:
        hex_id = layout.grid.format(hex)
        centre = vgrid.centre(*raw_index(layout, hex))
        assert vgrid.label(*centre) == hex_id, (hex_id, centre)
        ours = tuple(round(v) for v in layout.center(hex))
        assert abs(ours[0] - centre[0]) <= 2 and abs(ours[1] - centre[1]) <= 2
        assert vgrid.snap(*ours) == centre, hex_id
        assert vgrid.snapped_label(*ours) == hex_id
        assert vgrid.label(*ours) == hex_id
    return vgrid


def test_tutorial_map_every_hex_is_named_by_its_id():
    game = load_game("tutorial")
    for game_map in game.maps.values():
        for size in (94.0, 75.0, 61.3):
            layout = Layout.fit(game_map.grid, size, margin=size * 0.4)
            width, height = layout.image_size(margin=size * 0.4)
            _check_every_hex(layout, width + 300, height)  # a legend band on the right


GAMES = sorted(p.parent.name for p in (MAPS.parent / "counters").glob("*/game.yaml"))


@pytest.mark.parametrize("game_id", GAMES)
def test_every_bundled_map_every_hex(game_id):
    game = load_game(game_id)
    assert game.maps
    for game_map in game.maps.values():
        for dpi in (150, 100):
            size = game_map.hex_size_inches * dpi
            layout = Layout.fit(game_map.grid, size, margin=size * 0.6)
            width, height = layout.image_size(margin=size * 0.6)
            _check_every_hex(layout, width, height)


def test_tutorial_map_with_the_real_map_renderer():
    mapimage = pytest.importorskip("toolkit.render.mapimage")
    game = load_game("tutorial")
    rendered = mapimage.render_map(game.main_map, dpi=60, game=game)
    _check_every_hex(rendered.layout, rendered.image.width, rendered.image.height)


SYNTHETIC = [
    dict(orientation=o, shifted=s, col_direction=cd, row_direction=rd)
    for o, s, cd, rd in itertools.product(("flat", "pointy"), ("even", "odd"),
                                          ("ascending", "descending"), ("ascending", "descending"))
]
NUMBERINGS = [
    Numbering(),
    Numbering(pad=False),
    Numbering(order="rowcol", col_digits=3, row_digits=2),
    Numbering(col_alpha=True, row_digits=2),
    Numbering(order="rowcol", col_alpha=True, separator="-"),
    Numbering(separator=".", col_digits=2, row_digits=3),
]


@pytest.mark.parametrize("shape", SYNTHETIC, ids=lambda d: "-".join(d.values()))
@pytest.mark.parametrize("numbering", NUMBERINGS, ids=lambda n: n.describe)
@pytest.mark.parametrize("first", [(1, 1), (0, 0), (3, 6), (10, 15)])
def test_synthetic_grids(shape, numbering, first):
    fc, fr = first
    if numbering.col_alpha:
        fc = max(fc, 1)  # letters start at A = 1
    grid = Grid(fc, fc + 13, fr, fr + 8, numbering=numbering, **shape)
    layout = Layout.fit(grid, 57.3, margin=11)
    width, height = layout.image_size(margin=11)
    _check_every_hex(layout, width, height + 120)


def test_unpadded_vv_style_ids():
    grid = Grid(1, 17, 1, 20, shifted="even", short_shifted=True, numbering=Numbering(pad=False))
    layout = Layout.fit(grid, 80.0, margin=30)
    vgrid = _check_every_hex(layout, *layout.image_size(margin=30))
    centre = vgrid.centre(*raw_index(layout, grid.parse("717")))
    assert vgrid.label(*centre) == "717"
    assert vgrid.label(*vgrid.centre(*raw_index(layout, grid.parse("1109")))) == "1109"
    assert vgrid.h_leading == 0 and vgrid.v_leading == 1


def test_attributes_round_trip():
    grid = Grid(1, 12, 1, 10, orientation="pointy", row_direction="descending")
    layout = Layout.fit(grid, 64.0, margin=20)
    vgrid = derive_grid(layout, 900, 800)
    again = VassalHexGrid.from_attributes(vgrid.hexgrid_attributes(), vgrid.numbering_attributes(), 900, 800)
    assert again == vgrid
    assert vgrid.hexgrid_attributes()["sideways"] == "true"
    assert "." not in vgrid.hexgrid_attributes()["x0"]


from hypothesis import given, settings, strategies as st


@settings(max_examples=60, deadline=None)
@given(size=st.floats(18.0, 240.0), margin=st.floats(0.0, 90.0), band=st.integers(0, 400),
       orientation=st.sampled_from(["flat", "pointy"]), shifted=st.sampled_from(["even", "odd"]),
       cols=st.sampled_from(["ascending", "descending"]), rows=st.sampled_from(["ascending", "descending"]),
       first=st.tuples(st.integers(0, 30), st.integers(0, 30)), pad=st.booleans())
def test_any_layout_every_hex(size, margin, band, orientation, shifted, cols, rows, first, pad):
    fc, fr = first
    grid = Grid(fc, fc + 9, fr, fr + 7, orientation=orientation, shifted=shifted, col_direction=cols,
                row_direction=rows, numbering=Numbering(pad=pad))
    layout = Layout.fit(grid, size, margin=margin)
    width, height = layout.image_size(margin=margin)
    _check_every_hex(layout, width + band, height + band // 2)
