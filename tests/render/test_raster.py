"""The anti-aliasing canvas: operations binned in one array pass land in the tiles, with the
cover boxes, that binning them one by one gives."""

from __future__ import annotations

import random

import numpy as np
from PIL import Image

from toolkit.render._raster import Canvas


def _binned(boxes, pads, many: bool, origin=(100, 50)):
    canvas = Canvas(Image.new("RGB", (700, 300), "white"), 2, origin=origin)
    ops = [("ellipse", (0, 0, 1, 1), (0, 0, 0), None, 1) for _ in boxes]
    if many:
        canvas.add_many(ops, np.asarray(boxes, dtype=float).reshape(-1, 4), np.asarray(pads, dtype=float))
    else:
        for op, box, pad in zip(ops, boxes, pads):
            canvas.add(op, box, pad)
    return canvas._bins, canvas._boxes


def test_many_operations_are_binned_as_one_by_one():
    rng = random.Random(7)
    boxes, pads = [], []
    for _ in range(300):
        # boxes across the window, beyond every side of it, and from points to long bands
        x, y = rng.uniform(-300, 1100), rng.uniform(-200, 600)
        boxes.append((x, y, x + rng.choice([0, 3, 40, 500]), y + rng.choice([0, 5, 60, 300])))
        pads.append(rng.choice([0.0, 0.5, 4.0]))
    one_by_one, many = _binned(boxes, pads, False), _binned(boxes, pads, True)
    assert many[0] == one_by_one[0]
    assert many[1].keys() == one_by_one[1].keys()
    for key, box in one_by_one[1].items():
        assert np.allclose(many[1][key], box)


def test_operations_near_a_window_that_reach_none_of_its_tiles_bin_nothing():
    # near enough to be asked for, too far to touch a pixel (left of and above the window)
    assert _binned([(0, 0, 10, 10), (50, -300, 60, -200)], [0.0, 1.0], True) == ({}, {})


def test_a_long_edge_band_is_planned_at_any_dpi():
    # White Death's edge bands cut into tile-long slabs: GEOS's fast clip refused some of them
    # ("Invalid number of points in LinearRing found 3") at 93, 95, 102, 112, ... dpi
    from toolkit.io import load_game
    from toolkit.render import render_map
    game = load_game("white-death")
    for dpi in (93, 102, 125):
        rendered = render_map(game.maps["main"], dpi=dpi, game=game)
        assert rendered.layout.size > 0
