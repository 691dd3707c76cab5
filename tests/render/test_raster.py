"""The anti-aliasing canvas: operations binned in one array pass land in the tiles, with the
cover boxes, that binning them one by one gives; only the parts of a tile near its operations
are supersampled, with the pixels of the whole tile supersampled."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

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


def _random_ops(canvas, rng, count=120, span=(900, 500)):
    """Lines, ties, polygons, shapes and discs of every width, over and beyond a window."""
    import shapely
    W, H = span
    for _ in range(count):
        kind = rng.choice(["line", "line", "segments", "polygon", "shape", "ellipse"])
        x, y = rng.uniform(-60, W + 60), rng.uniform(-60, H + 60)
        colour = tuple(rng.randrange(256) for _ in range(3))
        width = rng.choice([0.5, 1.0, 1.7, 3.0, 6.5])
        if kind == "line":
            pts = [(x, y)]
            for _ in range(rng.randrange(1, 30)):
                x, y = x + rng.uniform(-40, 40), y + rng.uniform(-40, 40)
                pts.append((x, y))
            canvas.line(pts, colour, width, round_ends=rng.random() < 0.5)
        elif kind == "segments":
            canvas.segments([((x + k * 7, y), (x + k * 7 + rng.uniform(-5, 5), y + 6)) for k in range(20)], colour, width)
        elif kind == "polygon":
            canvas.polygon([(x, y), (x + rng.uniform(5, 80), y + 3), (x + 10, y + rng.uniform(5, 60))],
                           fill=colour if rng.random() < 0.7 else None, outline=(0, 0, 0), width=width)
        elif kind == "shape":
            ring = shapely.Point(x, y).buffer(rng.uniform(5, 50))
            canvas.shape(ring.difference(shapely.Point(x, y).buffer(3)) if rng.random() < 0.5 else ring,
                         fill=colour, outline=(20, 20, 20), width=width)
        else:
            canvas.ellipse(x, y, rng.uniform(1, 20), fill=colour, outline=(0, 0, 0), width=width)


@pytest.mark.parametrize("factor", [1, 2, 3])
def test_enlarging_only_the_parts_near_operations_draws_the_pixels_of_whole_tiles(monkeypatch, factor):
    """A tile's operations enlarged and reduced in parts (see _parts) give exactly the pixels
    of the whole box they cover enlarged and reduced."""
    from toolkit.render import _raster

    def drawn(whole: bool) -> bytes:
        rng = random.Random(factor)
        image = Image.new("RGB", (700, 400), (230, 225, 200))
        # a ground that is not flat: a part enlarged from the wrong place shows
        ground = ImageDraw.Draw(image)
        for k in range(0, 700, 9):
            ground.line((k, 0, k + 50, 400), fill=(k % 256, 90, 140), width=2)
        canvas = Canvas(image, factor, origin=(37, 81))
        _random_ops(canvas, rng)
        if whole:
            monkeypatch.setattr(_raster, "_parts", lambda boxes, clip, factor: [clip])
        canvas.flush()
        monkeypatch.undo()
        return image.tobytes()

    assert drawn(False) == drawn(True)


@pytest.mark.parametrize("factor", [1, 2, 3])
def test_no_operation_draws_beyond_its_reach(factor):
    """Each operation alone, drawn onto a blank supersampled image, inks only pixels of the
    box it is said to reach (its box, half its width and REACH supersampled pixels): the
    parts of a tile outside every such box are neither enlarged nor reduced."""
    from toolkit.render._drawop import _CHUNK_SHIFT, _draw_op

    rng = random.Random(10 + factor)
    canvas = Canvas(Image.new("RGB", (900, 500)), factor)
    _random_ops(canvas, rng, count=200)
    f, margin = factor, 40
    for op, (x0, y0, x1, y1) in zip(canvas._ops, canvas._reach):
        bx, by = x0 - margin, y0 - margin
        crop = Image.new("RGB", ((x1 - x0 + 2 * margin) * f, (y1 - y0 + 2 * margin) * f), (255, 255, 255))
        X0, Y0 = bx * f, by * f
        _draw_op(Image.core.draw(crop.im, 0), crop.im, op, X0, Y0, np.array((X0, Y0), dtype=np.int32),
                 (X0, Y0) * _CHUNK_SHIFT)
        ys, xs = np.nonzero((np.asarray(crop) != 255).any(axis=2))
        if len(xs):
            assert x0 <= bx + xs.min() // f and bx + xs.max() // f < x1, op[0]
            assert y0 <= by + ys.min() // f and by + ys.max() // f < y1, op[0]


def test_recorded_polylines_are_the_operations_a_canvas_makes_line_by_line():
    """The recorder makes its waiting polylines into operations all at once: the same
    operations, in their places among the others and under the kind they were recorded in."""
    from toolkit.render._recorder import Recorder

    rng = random.Random(3)
    canvas, recorder = Canvas(None, 2), Recorder(2)
    kinds = []
    for n in range(60):
        kind = rng.choice([None, "linework", "bridge"])
        recorder.kind = kind
        count = rng.choice([1, 2, 3, 4, 9, 40])
        x, y = rng.uniform(0, 500), rng.uniform(0, 500)
        points = []
        for _ in range(count):   # wandering, with straight runs and repeated points
            x, y = x + rng.choice([0.0, 3.0, rng.uniform(-20, 20)]), y + rng.choice([0.0, rng.uniform(-20, 20)])
            points.append((x, y))
        if n % 3 == 0:
            points = np.asarray(points)
        width = rng.choice([0.5, 1.0, 1.6, 3.0, 7.5])
        for target in (canvas, recorder):
            target.line(points, (10, 20, n), width, round_ends=n % 2 == 0)
            if n % 7 == 0:   # other operations between the polylines
                target.polygon([(x, y), (x + 5, y), (x, y + 5)], fill=(1, 2, 3))
        kinds += [kind] * (len(canvas._ops) - len(kinds))
    recorded = recorder.items
    assert [op for op, _, _ in recorded] == canvas._ops
    assert recorder.kinds == kinds


def test_chaikin_cuts_every_corner_as_the_formula_written_out_point_by_point():
    from toolkit.render._polyline import chaikin

    def literal(points, iterations, closed):
        pts = list(points)
        for _ in range(iterations):
            if len(pts) < 3:
                return pts
            n = len(pts)
            out = [] if closed else [pts[0]]
            for i in range(n if closed else n - 1):
                (x0, y0), (x1, y1) = pts[i], pts[(i + 1) % n]
                out += [(0.75 * x0 + 0.25 * x1, 0.75 * y0 + 0.25 * y1), (0.25 * x0 + 0.75 * x1, 0.25 * y0 + 0.75 * y1)]
            pts = out if closed else out + [pts[-1]]
        return pts

    rng = random.Random(5)
    for _ in range(500):
        points = [(rng.uniform(-5000, 5000), rng.uniform(-5000, 5000)) for _ in range(rng.randint(0, 9))]
        iterations, closed = rng.randint(0, 4), rng.random() < 0.3
        assert chaikin(points, iterations, closed) == literal(points, iterations, closed)


def _tiled_and_whole(ops, boxes, pads, factor, window):
    """The pixels of ``window`` (map pixels) with ``ops`` drawn by the canvas's tiles, and
    drawn as one tile."""
    x0, y0, x1, y1 = window
    out = []
    for tile in (256, 1 << 20):
        image = Image.new("RGB", (x1 - x0, y1 - y0), "white")
        canvas = Canvas(image, factor, tile=tile, origin=(x0, y0))
        canvas.add_many(ops, boxes, pads)
        canvas.flush()
        out.append(np.asarray(image))
    return out


def test_a_line_crossing_a_half_pixel_draws_the_same_in_any_crop():
    """Pillow sums a polygon edge's crossing of a row in 32-bit floats: a crossing at a half
    pixel rounded one way in a crop whose columns are small and the other in a crop of the
    whole map (White Death's edge band at 150 dpi, 21 pixels, up to 42 grey levels)."""
    canvas = Canvas(None, 2)
    canvas.line([(1040.0, 111.0), (1005.0, 51.0)], (85, 85, 85), 1.0, round_ends=False)
    canvas.line([(705.0, 60.0), (760.0, 60.0)], (85, 85, 85), 1.0)   # one tile's crop starts here
    ops = canvas._ops
    raw, pads = np.asarray([[1005.0, 51.0, 1040.0, 111.0], [705.0, 60.0, 760.0, 60.0]]), np.asarray([0.5, 0.5])
    # windows narrow enough to be drawn as one tile in the canvas's crop (see _crops._span),
    # the line in another tile than the first
    for window in ((700, 40, 1100, 140), (640, 0, 1080, 160)):
        tiled, whole = _tiled_and_whole(ops, raw, pads, 2, window)
        assert (tiled == whole).all(), window


def test_a_bundled_map_draws_the_same_pixels_in_tiles_as_in_one():
    """White Death at 150 dpi, where tiles and one tile differed: its lines, bands and markers
    near three windows, drawn by tiles and as one tile, pixel for pixel."""
    from toolkit.io import load_game
    from toolkit.render import render_map
    game = load_game("white-death")
    scene = render_map(game.maps["main"], dpi=150, game=game).scene
    for window in ((700, 40, 1100, 200), (1750, 4100, 2250, 4260), (2800, 300, 3279, 800)):
        near = np.asarray(scene.op_index.within(window), dtype=int)
        tiled, whole = _tiled_and_whole([scene.ops[n][0] for n in near], scene.op_raw[near], scene.op_pads[near],
                                        scene.factor, window)
        assert (tiled == whole).all(), (window, np.argwhere((tiled != whole).any(axis=2))[:5].tolist())


@pytest.mark.parametrize("factor", [1, 2, 3])
def test_a_pass_draws_the_colours_of_its_layers_supersampled_and_reduced(factor):
    """Each pass draws codes that count a pixel's subpixels of each colour (see _passes.passes):
    lines, ties, polygons, shapes and discs of up to a pass's colours give the pixels their
    colours drawn at the supersampled size over the enlarged ground and reduced, within
    rounding (the premultiplied blend: a level or two)."""
    from toolkit.render import _passes
    from toolkit.render._drawop import _CHUNK_SHIFT, _draw_op

    rng = random.Random(20 + factor)
    colours = [(200, 30, 40), (20, 90, 200), (250, 250, 250), (0, 0, 0)][:len(_passes.CODES[factor][:4])]
    ground = Image.new("RGB", (300, 200), (230, 225, 200))
    paint = ImageDraw.Draw(ground)
    for k in range(0, 300, 9):   # a ground that is not flat
        paint.line((k, 0, k + 50, 200), fill=(k % 256, 90, 140), width=2)
    canvas = Canvas(ground.copy(), factor, tile=1 << 20)
    for _ in range(40):
        x, y, colour = rng.uniform(0, 300), rng.uniform(0, 200), rng.choice(colours)
        width = rng.choice([0.5, 1.0, 2.5, 6.0])
        kind = rng.choice(["line", "segments", "polygon", "ellipse"])
        if kind == "line":
            canvas.line([(x, y), (x + rng.uniform(-60, 60), y + rng.uniform(-60, 60)), (x + 30, y + 10)], colour, width)
        elif kind == "segments":
            canvas.segments([((x + k * 7, y), (x + k * 7 + 3, y + 6)) for k in range(8)], colour, width)
        elif kind == "polygon":
            canvas.polygon([(x, y), (x + 40, y + 3), (x + 10, y + 30)], fill=colour, outline=rng.choice(colours), width=width)
        else:
            canvas.ellipse(x, y, rng.uniform(2, 15), fill=colour, outline=rng.choice(colours), width=width)
    assert len(_passes.passes(canvas._ops, factor)[1]) == 1
    # the old way: the whole ground enlarged, every operation drawn in colour, reduced
    big = ground.resize((300 * factor, 200 * factor), Image.Resampling.NEAREST)
    core = Image.core.draw(big.im, 0)
    for op in canvas._ops:
        _draw_op(core, big.im, op, 0, 0, np.zeros(2, dtype=np.int32), (0, 0) * _CHUNK_SHIFT)
    expected = np.asarray(big.reduce(factor), dtype=int)
    canvas.flush()
    assert np.abs(np.asarray(canvas.image, dtype=int) - expected).max() <= 2


def test_every_choice_of_subpixels_of_a_pass_reduces_to_a_value_of_its_own():
    from toolkit.render import _passes

    for factor in (1, 2, 3, 4):
        counts = _passes._decoder(factor)   # raises if two choices reduce alike
        assert len(counts) == len({c for c in counts.values()})
        assert all(sum(c) <= factor * factor for c in counts.values())


def test_an_outline_is_drawn_in_the_pass_of_its_fill():
    """A pass holds a few colours; the run of layers that starts the next pass takes the run
    before it along when that one brought its colour: a band's outline and its fill, a road's
    casing and its fill blend as one."""
    from toolkit.render._drawop import ink
    from toolkit.render._passes import passes

    canvas = Canvas(None, 2)
    for n in range(3):   # three colours of a pass
        canvas.line([(0, n), (50, n)], (n, 0, 0), 1.0)
    canvas.polygon([(0, 0), (20, 0), (0, 20)], fill=(9, 9, 9), outline=(8, 8, 8))   # the 4th and a 5th
    canvas.line([(0, 5), (50, 5)], (8, 8, 8), 1.0)
    layers, tables = passes(canvas._ops, 2)
    fill, outline = layers[3]
    assert fill[0] == outline[0] == layers[4][0][0] == 1 and layers[2][0][0] == 0
    assert len(tables) == 2 and ink((9, 9, 9)) != ink((8, 8, 8))
