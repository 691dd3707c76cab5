"""Roads and railways read from a picture hexforge did not draw: a pointy-topped grid, a road
that bends far from the hex centres, a railway run beside the centres, a road that passes
near a hexside without crossing it (drawn here with pillow, not with hexforge's renderer)."""

from __future__ import annotations

import math

import pytest
from PIL import Image, ImageDraw, ImageFilter

from toolkit.draft._strokes import CRISP, FAINT, FLOOR, INK, WEAKEST, Strength
from toolkit.draft._linepaths import line_paths
from toolkit.draft.lines import LinkReader
from toolkit.draft.sample import HexSampler
from toolkit.hexes import Grid, Hex, Hexside, Layout

FILL = (236, 230, 205)
ROAD = (150, 70, 30)
RAIL = (30, 30, 30)
LINES = [("road", ROAD, None), ("rail", RAIL, None)]
SIZE = 60.0


def _grid_picture(grid=None, size=(560, 480)):
    grid = grid or Grid(1, 7, 1, 6, orientation="pointy")
    layout = Layout(grid, SIZE, (60.0, 60.0))
    image = Image.new("RGB", size, FILL)
    draw = ImageDraw.Draw(image)
    for hex in grid:
        corners = layout.corners(hex)
        draw.line(corners + corners[:1], fill=(90, 90, 90), width=1)
    return grid, layout, image, draw


def _bezier(p0, p1, p2, n=40):
    return [((1 - t) ** 2 * p0[0] + 2 * t * (1 - t) * p1[0] + t * t * p2[0],
             (1 - t) ** 2 * p0[1] + 2 * t * (1 - t) * p1[1] + t * t * p2[1]) for t in (i / n for i in range(n + 1))]


def _rail(draw, points, width=2, tie=7, spacing=8):
    draw.line(points, fill=RAIL, width=width)
    walked = 0.0
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = math.hypot(x1 - x0, y1 - y0)
        if not length:
            continue
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        while walked <= length:
            x, y = x0 + ux * walked, y0 + uy * walked
            draw.line([(x - uy * tie / 2, y + ux * tie / 2), (x + uy * tie / 2, y - ux * tie / 2)], fill=RAIL, width=1)
            walked += spacing
        walked -= length


def _read(image, layout, a, b):
    sampler = HexSampler(image, layout, "none")
    reader = LinkReader(sampler, LINES, ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0)))
    return reader.read(a, b, FILL, FILL)[0]


@pytest.fixture(scope="module")
def drawn():
    grid, layout, image, draw = _grid_picture()
    h = {name: Hex(c, r) for name, (c, r) in {"a": (2, 2), "b": (3, 2), "c": (2, 4), "d": (3, 4), "e": (5, 2),
                                                  "f": (5, 3), "g": (6, 5), "x": (6, 2)}.items()}
    # a road from a to b bowed far to one side: it crosses their side near a corner, a sixth
    # of a hex off the straight course between their centres
    ca, cb = layout.center(h["a"]), layout.center(h["b"])
    mid = ((ca[0] + cb[0]) / 2, (ca[1] + cb[1]) / 2 - 0.36 * SIZE)
    draw.line(_bezier(ca, mid, cb), fill=ROAD, width=5, joint="curve")
    # a railway from c to d a fifth of a hex below their centres
    cc, cd = layout.center(h["c"]), layout.center(h["d"])
    _rail(draw, [(cc[0] - 10, cc[1] + 0.2 * SIZE), (cd[0] + 10, cd[1] + 0.2 * SIZE)])
    # a road through e, from x, that turns away before the side it shares with f
    ce, cx = layout.center(h["e"]), layout.center(h["x"])
    draw.line([cx, ce, (ce[0] - 0.45 * SIZE, ce[1] + 0.05 * SIZE)], fill=ROAD, width=5, joint="curve")
    # a road that runs along g's side with its neighbour below, inside g
    cg = layout.center(h["g"])
    below = layout.center(Hex(6, 6)) if Hex(6, 6) in grid else None
    assert below is not None
    side_y = (cg[1] + below[1]) / 2
    draw.line([(cg[0] - 0.3 * SIZE, side_y - 0.12 * SIZE), (cg[0] + 0.3 * SIZE, side_y - 0.12 * SIZE)], fill=ROAD,
              width=5)
    return layout, image, h


def test_a_bent_road_is_found_where_it_crosses_the_side(drawn):
    layout, image, h = drawn
    assert set(_read(image, layout, h["a"], h["b"])) == {"road"}


def test_a_railway_off_the_centres_is_found(drawn):
    layout, image, h = drawn
    assert set(_read(image, layout, h["c"], h["d"])) == {"rail"}


def test_a_road_that_does_not_cross_a_side_is_no_link(drawn):
    layout, image, h = drawn
    assert set(_read(image, layout, h["x"], h["e"])) == {"road"}
    assert _read(image, layout, h["e"], h["f"]) == {}  # it turns away inside e
    g = h["g"]
    assert _read(image, layout, g, Hex(g.col, g.row + 1)) == {}  # it runs along the side


def test_nothing_is_read_where_nothing_is_drawn(drawn):
    layout, image, h = drawn
    assert _read(image, layout, Hex(1, 5), Hex(1, 6)) == {}


def test_links_join_into_paths_that_stop_at_forks():
    a, b, c, d, e = Hex(1, 1), Hex(1, 2), Hex(1, 3), Hex(1, 4), Hex(2, 3)
    links = {Hexside.of(a, b), Hexside.of(b, c), Hexside.of(c, d), Hexside.of(c, e)}
    paths = line_paths(links)
    steps = [Hexside.of(p, q) for path in paths for p, q in zip(path, path[1:])]
    assert sorted(steps) == sorted(links)  # every link once
    assert all(c not in path[1:-1] for path in paths)  # c is a fork: paths end there
    assert sorted(len(p) for p in paths) == [2, 2, 3]


# -- faint lines: a picture that shows a line at part of its colour ---------------------------

IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))


def _mix(colour, share):
    return tuple(round(f + share * (c - f)) for f, c in zip(FILL, colour))


def _faint_line(draw, points, core=0.45, flank=0.25):
    """A thin line as blur leaves it: under half its colour at its middle, a quarter beside."""
    draw.line(points, fill=_mix(RAIL, flank), width=3)
    draw.line(points, fill=_mix(RAIL, core), width=1)


def test_a_line_is_judged_by_how_strongly_the_picture_shows_it():
    crisp = Strength(0.97).thresholds()
    assert crisp == (FLOOR, FAINT, INK)  # a crisp picture: the defaults
    floor, faint, ink = Strength(0.45).thresholds()
    assert floor == pytest.approx(FLOOR / 2) and faint == pytest.approx(FAINT / 2) and ink == pytest.approx(INK / 2)
    assert Strength(0.1).thresholds()[1] == pytest.approx(FAINT * WEAKEST)  # never below, noise would pass


def test_a_faint_railway_is_found_once_its_strength_is_known():
    grid, layout, image, draw = _grid_picture()
    for row in (2, 4):
        _faint_line(draw, [layout.center(Hex(1, row)), layout.center(Hex(7, row))])
    sampler = HexSampler(image, layout, "none")
    steps = [(Hex(c, r), Hex(c + 1, r)) for r in (2, 4) for c in range(1, 7)]
    plain = LinkReader(sampler, LINES, IDENTITY)
    assert all(plain.read(a, b, FILL, FILL)[0] == {} for a, b in steps)  # too faint for a crisp picture's eye
    told = LinkReader(sampler, LINES, IDENTITY, {1: Strength(0.45)})
    assert all(set(told.read(a, b, FILL, FILL)[0]) == {"rail"} for a, b in steps)
    # ... and still nothing where nothing is drawn, or across a side the line runs beside
    assert all(told.read(Hex(c, 3), Hex(c + 1, 3), FILL, FILL)[0] == {} for c in range(1, 7))
    assert all(told.read(Hex(c, 2), Hex(c, 3), FILL, FILL)[0] == {} for c in range(2, 7))


def test_a_blurred_railway_teaches_its_strength():
    grid, layout, image, draw = _grid_picture()
    for row in (2, 4, 6):
        _rail(draw, [layout.center(Hex(1, row)), layout.center(Hex(7, row))])
    steps = [(Hex(c, r), Hex(c + 1, r)) for r in (2, 4, 6) for c in range(1, 7)]
    crisp = LinkReader(HexSampler(image, layout, "none"), LINES, IDENTITY)
    assert all(set(crisp.read(a, b, FILL, FILL)[0]) == {"rail"} for a, b in steps)
    assert crisp.learned()[1].thresholds() == (FLOOR, FAINT, INK)  # seen crisp: read as before
    soft = LinkReader(HexSampler(image.filter(ImageFilter.GaussianBlur(2.0)), layout, "none"), LINES, IDENTITY)
    for a, b in steps:
        soft.read(a, b, FILL, FILL)
    strength = soft.learned()[1]
    assert 0.3 < strength.peak < CRISP  # blur spread it to about half its colour
    again = LinkReader(soft.sampler, LINES, IDENTITY, soft.learned())
    assert all(again.read(a, b, FILL, FILL)[0] == {"rail": 1.0} for a, b in steps)
    assert all(again.read(Hex(c, 3), Hex(c + 1, 3), FILL, FILL)[0] == {} for c in range(1, 7))


def test_a_railway_touching_a_roads_casing_is_found_beside_it():
    grid, layout, image, draw = _grid_picture()
    casing = (60, 20, 16)
    a, b = layout.center(Hex(2, 3)), layout.center(Hex(6, 3))
    # a thin road (3 pixels, a pixel of casing each side, the upper one faint as antialiasing
    # leaves it) with a railway a pixel wide right against its lower casing
    draw.line([a, b], fill=ROAD, width=3)
    draw.line([(a[0], a[1] - 2), (b[0], b[1] - 2)], fill=_mix(casing, 0.5), width=1)
    draw.line([(a[0], a[1] + 2), (b[0], b[1] + 2)], fill=casing, width=1)
    draw.line([(a[0], a[1] + 3), (b[0], b[1] + 3)], fill=RAIL, width=1)
    sampler = HexSampler(image, layout, "none")
    reader = LinkReader(sampler, [("road", ROAD, casing), ("rail", RAIL, None)], IDENTITY)
    for c in range(2, 6):
        assert set(reader.read(Hex(c, 3), Hex(c + 1, 3), FILL, FILL)[0]) == {"road", "rail"}, c
    assert reader.read(Hex(2, 4), Hex(3, 4), FILL, FILL)[0] == {}


# -- names and ids: a stroke is hidden only where it would be ---------------------------------

def _along(layout, a, b, t, off=0.0):
    """The point a fraction ``t`` of the way from a's centre to b's, ``off`` pixels aside."""
    (ax, ay), (bx, by) = layout.center(a), layout.center(b)
    d = math.hypot(bx - ax, by - ay)
    return ax + t * (bx - ax) - off * (by - ay) / d, ay + t * (by - ay) + off * (bx - ax) / d


def _label(draw, box):
    draw.rectangle(box, fill=(250, 250, 250))
    draw.text((box[0] + 1, box[1]), "0303", fill=(90, 90, 90))


def test_a_name_beside_where_a_road_would_run_hides_nothing():
    """A road that ends just short of a hexside, beside a name printed in the next hex (a
    town's name moved off its hex, an id): nothing hides where it would run on, so it ends
    there; a name printed over where it would run on leaves it found, but only just."""
    grid, layout, image, draw = _grid_picture()
    a, b = Hex(2, 3), Hex(3, 3)
    draw.line([layout.center(a), _along(layout, a, b, 0.47)], fill=ROAD, width=5)
    x0, y0 = _along(layout, a, b, 0.5, 6)
    x1, y1 = _along(layout, a, b, 1.0, 14)
    beside = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    _label(draw, beside)
    sampler = HexSampler(image, layout, "none", [beside])
    assert LinkReader(sampler, LINES, IDENTITY).read(a, b, FILL, FILL)[0] == {}
    # the same road under a name that covers its course into b
    grid, layout, image, draw = _grid_picture()
    draw.line([layout.center(a), layout.center(b)], fill=ROAD, width=5)
    x0, y0 = _along(layout, a, b, 0.5, -9)
    x1, y1 = _along(layout, a, b, 1.0, 9)
    over = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    _label(draw, over)
    found = LinkReader(HexSampler(image, layout, "none", [over]), LINES, IDENTITY).read(a, b, FILL, FILL)[0]
    assert set(found) == {"road"} and found["road"] < 1.0  # found, and unsure


def test_a_road_through_symbols_is_followed_past_an_id_on_its_course():
    """Where symbols fill a hex (trees) a stroke must run on unbroken from where it was last
    seen; the stretch hidden under an id printed on its course does not count as broken."""
    grid, layout, image, draw = _grid_picture()
    a, b = Hex(2, 3), Hex(3, 3)
    draw.line([layout.center(a), layout.center(b)], fill=ROAD, width=5)
    x0, y0 = _along(layout, a, b, 0.56, -8)
    x1, y1 = _along(layout, a, b, 0.8, 8)
    box = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    _label(draw, box)
    reader = LinkReader(HexSampler(image, layout, "none", [box]), LINES, IDENTITY)
    assert set(reader.read(a, b, FILL, FILL, textured=True)[0]) == {"road"}


# -- a line under another ---------------------------------------------------------------------

MAIN, MAIN_CASING = (184, 50, 42), (59, 20, 16)      # hexforge's road ...
MINOR, MINOR_CASING = (217, 138, 43), (74, 42, 12)   # ... and minor road: like colours
ROADS = [("road", MAIN, MAIN_CASING), ("minor_road", MINOR, MINOR_CASING)]


def _roads_on_one_course(blurred=False):
    """A road from a through b to c, and a minor road under it from a to b, drawn the way
    hexforge draws them (casings first, the road over the minor road): the minor road shows
    beside the road in a and runs in under it just past the side into b."""
    grid, layout, image, draw = _grid_picture()
    a, b, c = Hex(2, 3), Hex(3, 3), Hex(4, 3)
    minor = [_along(layout, a, b, 0.0, 4), _along(layout, a, b, 0.55, 4), _along(layout, a, b, 0.8, 0),
             layout.center(b)]
    road = [layout.center(a), layout.center(c)]
    draw.line(minor, fill=MINOR_CASING, width=6)
    draw.line(road, fill=MAIN_CASING, width=7)
    draw.line(minor, fill=MINOR, width=4)
    draw.line(road, fill=MAIN, width=5)
    if blurred:
        image = image.filter(ImageFilter.GaussianBlur(1.0))
    return LinkReader(HexSampler(image, layout, "none"), ROADS, IDENTITY), (a, b, c)


def test_a_minor_road_showing_beside_the_road_over_it_is_found():
    reader, (a, b, c) = _roads_on_one_course()
    assert set(reader.read(a, b, FILL, FILL)[0]) == {"road", "minor_road"}
    assert set(reader.read(b, c, FILL, FILL)[0]) == {"road"}  # wholly under the road: not invented


def test_a_blurred_roads_edge_is_not_a_minor_road():
    reader, (a, b, c) = _roads_on_one_course(blurred=True)
    assert set(reader.read(b, c, FILL, FILL)[0]) == {"road"}


# -- towns, corners and blocks: what is drawn beside a line -----------------------------------

BLOCK, BLOCK_EDGE = (183, 75, 59), (148, 71, 60)   # a town's block: a red like the road's


def _road(draw, points, casing=MAIN_CASING):
    """A road as hexforge draws one at 80 dpi: a 4-pixel core, a pixel of dark casing each side."""
    draw.line(points, fill=casing, width=6)
    draw.line(points, fill=MAIN, width=4)


def _block(draw, x, y, size=6):
    draw.rectangle((x, y, x + size - 1, y + size - 1), fill=BLOCK, outline=BLOCK_EDGE)


def test_a_railway_beside_a_road_through_a_towns_blocks_is_found():
    """A railway drawn against a road's casing (the two merge into one dark edge), on through a
    town whose blocks touch it and hide it at the town's middle: a person sees both lines
    cross both sides; the road's casing alone, blocks against it, is no railway."""
    grid, layout, image, draw = _grid_picture()
    a, b, c = Hex(2, 3), Hex(3, 3), Hex(4, 3)
    road = [layout.center(a), layout.center(c)]
    _road(draw, road)
    _rail(draw, [(x, y + 4) for x, y in road], width=2, tie=6, spacing=7)
    bx, by = layout.center(b)
    # blocks against the railway's far side, the road's near one, and over the railway
    for dx, dy in ((-30, 6), (-22, 6), (-14, 6), (-6, 6), (6, 6), (14, 6), (22, 6), (-20, -10), (10, -10), (-3, 2)):
        _block(draw, bx + dx, by + dy)
    # the same road and town two rows below, without the railway
    d, e, f = Hex(2, 5), Hex(3, 5), Hex(4, 5)
    alone = [layout.center(d), layout.center(f)]
    _road(draw, alone)
    ex, ey = layout.center(e)
    for dx, dy in ((-26, 3), (-14, 3), (-2, 3), (10, 3), (-20, -9), (10, -9)):
        _block(draw, ex + dx, ey + dy)
    reader = LinkReader(HexSampler(image, layout, "none"), [("road", MAIN, MAIN_CASING), ("rail", RAIL, None)],
                        IDENTITY)
    assert set(reader.read(a, b, FILL, FILL)[0]) == {"road", "rail"}
    assert set(reader.read(b, c, FILL, FILL)[0]) == {"road", "rail"}
    assert set(reader.read(d, e, FILL, FILL)[0]) == {"road"}
    assert set(reader.read(e, f, FILL, FILL)[0]) == {"road"}


@pytest.mark.parametrize("shift", [0, 1, 3])
def test_a_roads_antialiased_casing_is_no_railway(shift):
    """A road drawn smooth (antialiased, as hexforge draws), crossing a hexside aslant a
    fraction of a pixel off the pixel grid: its casing shows a pixel wide on one side and as
    two half-dark pixels on the other; the wider edge is the casing's fringe (red-brown, not
    a railway's grey), not a railway beside the road."""
    grid, layout, image, draw = _grid_picture()
    big = image.resize((image.width * 4, image.height * 4))
    pen = ImageDraw.Draw(big)
    route = [Hex(1, 5), Hex(2, 4), Hex(3, 4)]
    points = [tuple(4 * v + shift for v in layout.center(h)) for h in route]  # shift: quarter pixels
    pen.line(points, fill=MAIN_CASING, width=24, joint="curve")
    pen.line(points, fill=MAIN, width=16, joint="curve")
    image.paste(big.reduce(4))
    draw = ImageDraw.Draw(image)
    for hex in grid:  # the grid over it, crisp
        corners = layout.corners(hex)
        draw.line(corners + corners[:1], fill=(90, 90, 90), width=1)
    reader = LinkReader(HexSampler(image, layout, "none"), [("road", MAIN, MAIN_CASING), ("rail", RAIL, None)],
                        IDENTITY)
    for a, b in zip(route, route[1:]):
        assert set(reader.read(a, b, FILL, FILL)[0]) == {"road"}


def test_a_railway_through_a_hex_corner_under_an_id_is_found():
    """A railway crossing a hexside just beside a corner and running on under the next hex's
    id, printed at the top of the hex, just below its top side: where the id hides the
    railway, that side's grid line (as dark as a railway) is not taken for it; it is found
    across the side it crosses, and not across the sides it passes by."""
    grid, layout, image, draw = _grid_picture(Grid(1, 5, 1, 5, orientation="flat"), (420, 420))
    b = Hex(3, 3)
    a = next(o for o in grid.neighbours(b) if grid.direction(b, o) == "NW")
    (bx, by), r = layout.center(b), layout.radius
    top = by - SIZE / 2                  # b's top side
    y = top + 10                         # the railway runs ten pixels below it, from a's middle
    draw.line([(layout.center(a)[0] - 10, y), (bx + r, y)], fill=RAIL, width=2)
    box = (bx - r / 2 + 2, top + 2, bx + 4, top + 13)   # b's id over the railway
    _label(draw, box)
    reader = LinkReader(HexSampler(image, layout, "none", [box]), LINES, IDENTITY)
    assert set(reader.read(a, b, FILL, FILL)[0]) == {"rail"}
    for o in grid.neighbours(b):
        if o != a:
            assert reader.read(b, o, FILL, FILL)[0] == {}, o


def test_a_row_of_blocks_by_a_name_is_no_road():
    """A town's blocks in a row reaching a hexside, the next hex's name printed over part of
    where a road would run on: nothing of a stroke shows in that hex, so no road crosses."""
    grid, layout, image, draw = _grid_picture()
    a, b = Hex(2, 3), Hex(3, 3)
    (ax, ay), (bx, _) = layout.center(a), layout.center(b)
    mid = (ax + bx) / 2
    for x in range(int(ax), int(mid) - 3, 9):
        _block(draw, x, ay - 3)
    box = (mid + 5, ay - 10, mid + 16, ay + 10)
    _label(draw, box)
    reader = LinkReader(HexSampler(image, layout, "none", [box]), [("road", MAIN, MAIN_CASING), ("rail", RAIL, None)],
                        IDENTITY)
    assert reader.read(a, b, FILL, FILL)[0] == {}


# -- pale strokes: a stroke much fainter than its line's sure strokes -------------------------

def test_a_stroke_much_paler_than_a_crisp_lines_is_not_that_line():
    """On a picture that shows the railway crisp (its sure strokes wholly its colour), a grey
    stroke at three fifths of its colour (a thin river JPEG greyed) is not the railway: seen,
    not found. Read before the railway's strength is known, it passes."""
    grid, layout, image, draw = _grid_picture()
    for row in (2, 4):
        _rail(draw, [layout.center(Hex(1, row)), layout.center(Hex(7, row))])
    draw.line([layout.center(Hex(1, 6)), layout.center(Hex(7, 6))], fill=_mix(RAIL, 0.6), width=3)
    sampler = HexSampler(image, layout, "none")
    first = LinkReader(sampler, LINES, IDENTITY)
    steps = [(Hex(c, r), Hex(c + 1, r)) for r in (2, 4) for c in range(1, 7)]
    assert all(set(first.read(a, b, FILL, FILL)[0]) == {"rail"} for a, b in steps)
    pale = [(Hex(c, 6), Hex(c + 1, 6)) for c in range(1, 7)]
    assert all(set(first.read(a, b, FILL, FILL)[0]) == {"rail"} for a, b in pale)
    told = LinkReader(sampler, LINES, IDENTITY, first.learned())
    assert told.learned() == {} and 1 not in told.faint  # crisp: the thresholds are a crisp picture's
    assert all(set(told.read(a, b, FILL, FILL)[0]) == {"rail"} for a, b in steps)
    for a, b in pale:
        found, seen = told.read(a, b, FILL, FILL)
        assert found == {} and seen > 0.5  # glimpsed: left for a person


def test_a_faint_lines_pale_stroke_is_found_only_just():
    """On a picture that shows the railway faint (blurred to 0.7 of its colour), a stroke at
    0.42 of it (a blurred contour of a like hue) passes the lowered thresholds but is found
    only just, for a person to decide; the railway's own strokes stay sure."""
    grid, layout, image, draw = _grid_picture()
    for row in (2, 4):
        _faint_line(draw, [layout.center(Hex(1, row)), layout.center(Hex(7, row))], core=0.7, flank=0.35)
    _faint_line(draw, [layout.center(Hex(1, 6)), layout.center(Hex(7, 6))], core=0.42, flank=0.34)
    told = LinkReader(HexSampler(image, layout, "none"), LINES, IDENTITY, {1: Strength(0.7)})
    assert all(told.read(Hex(c, 2), Hex(c + 1, 2), FILL, FILL)[0] == {"rail": 1.0} for c in range(1, 7))
    from toolkit.draft.lines import LINE_SHARE
    for c in range(1, 7):
        found = told.read(Hex(c, 6), Hex(c + 1, 6), FILL, FILL)[0]
        assert found == {"rail": LINE_SHARE}, found  # found, never sure


# -- a bridge over water hexes ------------------------------------------------------------------

WATER = (159, 199, 227)
PAPER = (243, 239, 225)


def _decked_road(between, width=60):
    """A road along row 3 (hexforge's colours, with its casing) between two thin dark strokes
    7 pixels either side, with ``between`` filling the band they edge, over water hexes."""
    grid, layout, image, draw = _grid_picture()
    for hex in grid:
        draw.polygon(layout.corners(hex), fill=WATER, outline=(90, 90, 90))
    a, b = layout.center(Hex(1, 3)), layout.center(Hex(7, 3))
    draw.line([a, b], fill=between, width=15)
    for off in (-7, 7):
        draw.line([(a[0], a[1] + off), (b[0], b[1] + off)], fill=RAIL, width=1)
    _road(draw, [a, b])
    return layout, image


@pytest.mark.parametrize("between, codes", [(PAPER, {"road"}), (WATER, {"road", "rail"})])
def test_a_decks_parapets_are_no_railway(between, codes):
    """A road over the water on a deck of its own colour, edged by a dark parapet each side:
    the deck is the road, its parapets no railway; two railways beside a road, the water
    between them, are railways."""
    layout, image = _decked_road(between)
    reader = LinkReader(HexSampler(image, layout, "none"), [ROADS[0], ("rail", RAIL, None)], IDENTITY)
    for c in range(1, 6):
        assert set(reader.read(Hex(c, 3), Hex(c + 1, 3), WATER, WATER)[0]) == codes, c


def test_a_road_bridged_over_water_hexes_is_read_as_the_road():
    """Known answer: a road along a row of lake hexes, which hexforge draws on a bridge from
    bank to bank (a deck with a parapet each side), rendered and drafted: every step is the
    road, none a railway, none left for a person."""
    from dataclasses import replace

    from toolkit.draft import Palette, draft_terrain
    from toolkit.draft.geometry import PlacedLayout, drawn_labels
    from toolkit.game import HexTerrain, Line
    from toolkit.io import load_game
    from toolkit.render import render_map

    tutorial = load_game("tutorial").main_map
    rows = ["rrrrrr", "rrrrrr", "rcrrrr", "cllllc", "llclcl"]  # rough, clear, lake: row 4 the lake
    grid = Grid(1, 6, 1, len(rows))
    m = replace(tutorial, grid=grid, hexsides={}, places=[], victory=[], supply=[], edges=[], boxes=[], locations={},
                hexes={Hex(c, r): HexTerrain({"r": "rough", "c": "clear", "l": "lake"}[code], ())
                       for r, row in enumerate(rows, 1) for c, code in enumerate(row, 1)},
                lines=[Line("road", tuple(Hex(c, 4) for c in range(1, 7)))])
    rendered = render_map(m, dpi=150)
    layout = PlacedLayout(rendered.layout)
    draft = draft_terrain(m, rendered.image, layout, Palette.from_game(m, layout.size),
                          labels=drawn_labels(m, layout))
    assert {side: set(codes) for side, codes in draft.links.items()} == \
        {side: set(codes) for side, codes in m.line_links().items()}
    assert not any(draft.side_confidence.get(side, 1.0) < 0.5 for side in m.line_links())


# -- a road bending under an id, a road blurred over woods ------------------------------------

def test_a_road_bending_under_an_id_is_followed_where_it_leaves_the_id():
    """A road up from the hex below bends under the hex's id, printed at the top of the hex,
    and leaves it on the id's far side, nearly level, to cross the side into the next hex
    just below its corner (A Victory Denied's road 2716-2816-2817 into Mogilev): followed
    from that side, straight on past the id finds nothing; the road is found where it leaves
    the id's box, and no road is read across the top side, straight on from the bend."""
    grid, layout, image, draw = _grid_picture(Grid(1, 5, 1, 5, orientation="flat"), (420, 420))
    b = Hex(3, 3)
    around = {grid.direction(b, o): o for o in grid.neighbours(b)}
    bx, by = layout.center(b)
    box = (bx - 10, by - 26, bx + 11, by - 17)   # b's id
    draw.line([layout.center(around["S"]), (bx - 2, by - 10), (bx, by - 21), (bx + 40, by - 22),
               layout.center(around["NE"])], fill=ROAD, width=5, joint="curve")
    _label(draw, box)
    reader = LinkReader(HexSampler(image, layout, "none", [box]), LINES, IDENTITY)
    assert set(reader.read(b, around["S"], FILL, FILL)[0]) == {"road"}
    assert set(reader.read(b, around["NE"], FILL, FILL)[0]) == {"road"}
    for way in ("N", "NW", "SE", "SW"):
        assert reader.read(b, around[way], FILL, FILL)[0] == {}, way


WOODS, TREE, UNDERGROWTH = (127, 178, 106), (60, 118, 52), (168, 197, 150)   # hexforge's woods


def _woods(draw, layout, hexes):
    """Woods the way hexforge draws them: a pale ground under circles of the woods' green, each
    outlined dark."""
    for h in hexes:
        draw.polygon(layout.corners(h), fill=UNDERGROWTH, outline=(90, 90, 90))
    for h in hexes:
        cx, cy = layout.center(h)
        for k in range(14):
            dx, dy = (k * 37) % 43 - 21, (k * 23) % 41 - 20
            draw.ellipse((cx + dx - 5, cy + dy - 5, cx + dx + 5, cy + dy + 5), fill=WOODS, outline=TREE, width=1)


def test_a_thin_road_blurred_over_woods_is_found():
    """A thin road (a 3-pixel core in a 1-pixel casing, as at 100 dpi) through woods, blurred
    and compressed: where the trees make a stroke prove it runs on unbroken, its red is mixed
    half with its dark casing all along, off any blend of the woods' green and red alone; that
    mix is the road's ink there. Trees alone are no road."""
    from known_answers import jpeg

    grid, layout, image, draw = _grid_picture()
    woods = [Hex(c, r) for c in range(2, 6) for r in range(2, 5)]
    _woods(draw, layout, woods)
    a, b, c = Hex(2, 2), Hex(3, 3), Hex(3, 4)
    draw.line([layout.center(a), layout.center(c)], fill=MAIN_CASING, width=5)
    draw.line([layout.center(a), layout.center(c)], fill=MAIN, width=3)
    picture = jpeg(image.filter(ImageFilter.GaussianBlur(0.8)))
    reader = LinkReader(HexSampler(picture, layout, "none"), [("road", MAIN, MAIN_CASING)], IDENTITY)
    assert set(reader.read(a, b, WOODS, WOODS, textured=True)[0]) == {"road"}
    assert set(reader.read(b, c, WOODS, WOODS, textured=True)[0]) == {"road"}
    for o in grid.neighbours(b):
        if o in woods and o not in (a, c):
            assert reader.read(b, o, WOODS, WOODS, textured=True)[0] == {}, o
    assert reader.read(Hex(4, 3), Hex(5, 3), WOODS, WOODS, textured=True)[0] == {}
