"""Map images: geometry shared with toolkit.hexes, hex ids inside their own hexes, legend band."""

from __future__ import annotations

import random

import numpy as np
import pytest
from PIL import Image, ImageDraw

from toolkit.errors import BuildError, DataError
from toolkit.game import HexsideFeature, HexTerrain, Line, LineType, Map, Place, TerrainType, HexsideType
from toolkit.hexes import Grid, Hex, Hexside, Layout, Numbering
from toolkit.render import MapImage, Theme, build_map, render_map
from toolkit.render.fonts import font

MAGENTA = (255, 0, 255)


def _id_theme() -> Theme:
    """The default theme with hex ids in a colour used nowhere else, so they can be found."""
    theme = Theme.default()
    theme.data["hex_id"] = dict(theme.data["hex_id"], colour="#ff00ff")
    return theme


def _synthetic(orientation="flat", numbering=Numbering(), **grid_args) -> Map:
    grid = Grid(1, 9, 1, 7, orientation=orientation, numbering=numbering, **grid_args)
    types = {
        "o": TerrainType("o", "Open"), "f": TerrainType("f", "Forest"), "m": TerrainType("m", "Marsh"),
        "q": TerrainType("q", "Quagmire of doom"), "w": TerrainType("w", "Lake"),
        "v": TerrainType("v", "Village", overlay=True),
    }
    rng = random.Random(7)
    hexes = {h: HexTerrain(rng.choice("oofmqw"), ("v",) if rng.random() < 0.1 else ()) for h in grid}
    side = Hexside.of(Hex(3, 3), grid.neighbours(Hex(3, 3))[0])
    return Map(
        id="syn", name="Synthetic", grid=grid, terrain_types=types,
        hexside_types={"river": HexsideType("river", "River", width="major")},
        line_types={"road": LineType("road", "Road"), "rail": LineType("rail", "Railway", rail=True)},
        hexes=hexes, hexsides={side: [HexsideFeature(side, "river")]},
        lines=[Line("road", (Hex(1, 2), Hex(2, 2), Hex(3, 2), Hex(4, 2))),
               Line("rail", tuple(grid.line(Hex(1, 6), Hex(8, 2))))],
        places=[Place("Very Long Place Name", Hex(5, 4), "city")], hex_size_inches=0.6)


def _ink_mask(region: np.ndarray) -> np.ndarray:
    """Pixels at least half magenta, measured against the hex's own background colour."""
    r, g, b = region[..., 0].astype(float), region[..., 1].astype(float), region[..., 2].astype(float)
    magenta = (r + b) / 2 - g
    background = float(np.median(magenta))
    alpha = (magenta - background) / max(1.0, 255 - background)
    return alpha > 0.5


def _template(text: str, f, dx: float = 0.0, dy: float = 0.0) -> np.ndarray:
    """The ink mask of ``text`` drawn at a fractional offset (pillow honours fractions)."""
    probe = ImageDraw.Draw(Image.new("L", (1, 1)))
    x0, y0, x1, y1 = probe.textbbox((0, 0), text, font=f)
    im = Image.new("L", (x1 - x0 + 4, y1 - y0 + 4), 0)
    ImageDraw.Draw(im).text((2 - x0 + dx, 2 - y0 + dy), text, font=f, fill=255)
    mask = np.asarray(im) > 127
    ys, xs = np.nonzero(mask)
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _dilate(mask: np.ndarray) -> np.ndarray:
    padded = np.pad(mask, 1)
    out = np.zeros_like(mask)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            out |= padded[dy:dy + mask.shape[0], dx:dx + mask.shape[1]]
    return out


def _iou_map(mask: np.ndarray, tpl: np.ndarray) -> np.ndarray:
    if mask.shape[0] < tpl.shape[0] or mask.shape[1] < tpl.shape[1]:
        return np.zeros((1, 1))
    win = np.lib.stride_tricks.sliding_window_view(mask, tpl.shape)
    return (win & tpl).sum(axis=(2, 3)) / np.maximum((win | tpl).sum(axis=(2, 3)), 1)


def _best_match(mask: np.ndarray, text: str, f) -> tuple[float, tuple[int, int, int, int]]:
    """How well ``text`` matches the ink in ``mask`` (IoU) and its box (x0, y0, x1, y1).

    A coarse search with one pixel of tolerance finds the spot; an exact comparison with the
    text drawn at 32 sub-pixel offsets around it gives the score.
    """
    coarse = _iou_map(_dilate(mask), _dilate(np.pad(_template(text, f), 1)))
    r0, c0 = np.unravel_index(np.argmax(coarse), coarse.shape)
    best, where = 0.0, (0, 0, 0, 0)
    for dx in (k / 8 for k in range(8)):
        for dy in (0, 0.25, 0.5, 0.75):
            tpl = _template(text, f, dx, dy)
            rows = slice(max(0, r0 - 3), r0 + 5 + tpl.shape[0])
            cols = slice(max(0, c0 - 3), c0 + 5 + tpl.shape[1])
            iou = _iou_map(mask[rows, cols], tpl)
            r, c = np.unravel_index(np.argmax(iou), iou.shape)
            if iou[r, c] > best:
                x, y = cols.start + c, rows.start + r
                best, where = float(iou[r, c]), (x, y, x + tpl.shape[1], y + tpl.shape[0])
    return best, where


def _check_hex_ids(map_image: MapImage, theme: Theme, samples: int = 12) -> None:
    from shapely.geometry import box

    layout, grid = map_image.layout, map_image.game_map.grid
    pixels = np.asarray(map_image.image)
    f = font(theme.data["hex_id"]["size"] * layout.size, family=theme.data["hex_id"]["family"])
    hexes = grid.hexes()
    chosen = random.Random(3).sample(hexes, min(samples, len(hexes)))
    for h in chosen:
        x0, y0, x1, y1 = (int(v) for v in layout.bounds([h]))
        region = _ink_mask(pixels[y0:y1 + 1, x0:x1 + 1])
        own, (bx0, by0, bx1, by1) = _best_match(region, grid.format(h), f)
        assert own > 0.75, f"id of {grid.format(h)} not found in its hex (best match {own:.2f})"
        text_box = box(x0 + bx0, y0 + by0, x0 + bx1, y0 + by1)
        assert layout.polygon(h).contains(text_box), f"id of {grid.format(h)} sticks out of its hex"
        # the ink found is this hex's id, not a neighbour's
        for other in grid.neighbours(h)[:3]:
            worse, _ = _best_match(region, grid.format(other), f)
            assert worse < own, f"hex {grid.format(h)} looks more like {grid.format(other)}"


def test_tutorial_hex_ids_lie_inside_their_own_hexes(tutorial):
    theme = _id_theme()
    image = render_map(tutorial.main_map, dpi=150, theme=theme, game=tutorial)
    _check_hex_ids(image, theme, samples=20)


@pytest.mark.parametrize("orientation,dpi", [("flat", 200), ("pointy", 150)])
def test_synthetic_maps_hex_ids_and_geometry(orientation, dpi):
    theme = _id_theme()
    game_map = _synthetic(orientation, Numbering(col_digits=2, row_digits=2))
    image = render_map(game_map, dpi=dpi, theme=theme)
    _check_hex_ids(image, theme, samples=10)


def test_descending_numbering_ids_are_placed_by_the_shared_layout():
    theme = _id_theme()
    game_map = _synthetic("flat", col_direction="descending", shifted="odd")
    image = render_map(game_map, dpi=160, theme=theme)
    _check_hex_ids(image, theme, samples=8)


def test_layout_is_the_hexes_layout_at_the_map_size(tutorial):
    image = render_map(tutorial.main_map, dpi=300, game=tutorial)
    m = tutorial.main_map
    assert image.layout.size == pytest.approx(m.hex_size_inches * 300)
    assert image.dpi == 300 and image.image.mode == "RGB"
    margin = Theme.default().data["margin"] * 300
    expected = Layout.fit(m.grid, m.hex_size_inches * 300, margin)
    for h in m.grid:
        assert image.layout.center(h) == expected.center(h)


@pytest.mark.parametrize("grid_args", [
    dict(), dict(orientation="pointy"), dict(shifted="odd", short_shifted=True),
    dict(col_direction="descending", row_direction="descending"), dict(orientation="pointy", short_shifted=True)])
@pytest.mark.parametrize("size, margin", [(93.75, 63.0), (187.5, 126.0), (61.3, 17.7)])
def test_the_renderers_fit_is_layout_fit_and_image_size_to_the_bit(grid_args, size, margin):
    from toolkit.render.mapimage import _fit
    grid = Grid(3, 17, 2, 11, **grid_args)
    layout, area, centres = _fit(grid, size, margin)
    expected = Layout.fit(grid, size, margin)
    assert layout == expected and area == expected.image_size(margin)
    assert centres == {h: expected.center(h) for h in grid}


@pytest.mark.parametrize("grid_args", [
    dict(), dict(orientation="pointy"), dict(shifted="odd", short_shifted=True),
    dict(col_direction="descending", row_direction="descending"), dict(orientation="pointy", short_shifted=True)])
def test_the_scenes_edge_hexes_are_the_grids(grid_args):
    game_map = _synthetic(**grid_args)
    scene = render_map(game_map, dpi=60).scene
    for edge in ("north", "south", "west", "east"):
        assert scene._edge_hexes(edge) == game_map.grid.edge_hexes(edge)


def test_legend_band_lies_outside_the_hexes(tutorial):
    image = render_map(tutorial.main_map, dpi=150, game=tutorial)
    x0, y0, x1, y1 = image.layout.bounds()
    left, top, right, bottom = image.hex_area
    assert left <= x0 and top <= y0 and x1 <= right and y1 <= bottom
    width, height = image.image.size
    assert width > right or height > bottom, "no band for the legend"
    # the band holds the chart: it is not blank paper
    band = image.image.crop((right, 0, width, height)) if width > right else image.image.crop((0, bottom, width, height))
    colours = band.getcolors(1 << 20)
    assert colours is not None and len(colours) > 20


def test_terrain_is_drawn_where_the_data_puts_it(tutorial):
    # a lake hex is water at its centre, a town hex is not
    image = render_map(tutorial.main_map, dpi=150, game=tutorial)
    m = tutorial.main_map
    water = Theme.default().data["terrain"]["lake"]["water"]
    lake = next(h for h in m.grid if m.terrain(h) == "lake")
    x, y = image.layout.center(lake)
    # centre pixels may carry a wave stroke: look at a small patch
    patch = image.image.crop((int(x) - 6, int(y) + 10, int(x) + 6, int(y) + 16)).getcolors()
    dominant = max(patch)[1]
    assert dominant == tuple(int(water[i:i + 2], 16) for i in (1, 3, 5))


def test_unknown_terrain_and_missing_codes_still_render():
    game_map = _synthetic()
    game_map.hexes[Hex(2, 2)] = HexTerrain("zz")  # a code the map does not define
    del game_map.hexes[Hex(3, 3)]                  # a hex without terrain
    image = render_map(game_map, dpi=60)
    assert image.image.size[0] > 0


def test_bad_dpi_is_refused(tutorial):
    with pytest.raises(BuildError, match="dpi"):
        render_map(tutorial.main_map, dpi=0)


def test_save_writes_png_with_dpi(tutorial, tmp_path):
    image = render_map(tutorial.main_map, dpi=100, game=tutorial)
    path = image.save(tmp_path / "m.png")
    with Image.open(path) as im:
        assert im.format == "PNG"
        assert round(im.info["dpi"][0]) == 100


def test_build_map_writes_png_and_print_pdf(tutorial, tmp_path):
    messages = []
    paths = build_map(tutorial, tmp_path, messages.append)
    names = sorted(p.name for p in paths)
    assert names == ["main-a4.pdf", "main.png"]
    assert all(p.exists() and p.parent == tmp_path / "map" for p in paths)
    with Image.open(tmp_path / "map" / "main.png") as im:
        assert round(im.info["dpi"][0]) == 150
    assert messages


def test_theme_file_errors_name_the_file(tmp_path):
    bad = tmp_path / "t.yaml"
    bad.write_text("paper: [1, 2\n")
    with pytest.raises(DataError, match="t.yaml"):
        Theme.load(bad)


def test_every_bundled_map_renders():
    from toolkit.io import bundled_games, load_game

    for game_id in bundled_games():
        try:
            game = load_game(game_id)
        except DataError as exc:  # another engineer's data in progress
            pytest.skip(f"{game_id} does not load: {exc}")
        for game_map in game.maps.values():
            image = render_map(game_map, dpi=40, game=game)
            assert image.image.size[0] > image.layout.bounds()[2]


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_place_names_never_cover_a_hex_id(tutorial):
    from toolkit.io import bundled_games, load_game

    games = [tutorial]
    for game_id in bundled_games():
        if game_id != "tutorial":
            try:
                games.append(load_game(game_id))
            except DataError:
                continue
    for game in games:
        for game_map in game.maps.values():
            image = render_map(game_map, dpi=150, game=game)
            ids = image.text_boxes["hex_ids"]
            places = image.text_boxes["places"]
            assert len(ids) == len(game_map.grid)
            names = {p.name for p in game_map.places if p.hex in game_map.grid}
            # each name once per run of adjacent hexes; a second run's label is keyed "NAME HEX"
            assert names <= set(places) and all(k in names or k.rsplit(" ", 1)[0] in names for k in places)
            for name, box in places.items():
                clash = [game_map.grid.format(h) for h, b in ids.items() if _overlaps(box, b)]
                assert not clash, f"{game.id}: {name} covers hex ids {clash}"


def test_a_crowded_synthetic_map_keeps_names_off_ids():
    game_map = _synthetic()
    game_map.places = [Place(f"Name number {i}", h, "town") for i, h in enumerate(list(game_map.grid)[::4])]
    image = render_map(game_map, dpi=150)
    ids = image.text_boxes["hex_ids"]
    for name, box in image.text_boxes["places"].items():
        assert not any(_overlaps(box, b) for b in ids.values()), name


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
def test_ids_printed_at_the_bottom_are_found_in_their_hexes(orientation):
    theme = _id_theme()
    game_map = _synthetic(orientation)
    game_map.hex_ids = "bottom"
    image = render_map(game_map, dpi=170, theme=theme)
    _check_hex_ids(image, theme, samples=8)
    for h, (x0, y0, x1, y1) in image.text_boxes["hex_ids"].items():
        assert y0 > image.layout.center(h)[1], "a bottom id sits below the centre"


def test_maps_without_printed_ids_draw_none():
    game_map = _synthetic()
    game_map.hex_ids = "none"
    image = render_map(game_map, dpi=100, theme=_id_theme())
    assert image.text_boxes["hex_ids"] == {}
    assert not _ink_mask(np.asarray(image.image)).any()


def test_terrain_styles_differ_in_greyscale():
    # each well-known terrain must read without colour: compare greyscale hexes pairwise
    from toolkit.render._mapsymbols import sprite

    theme = Theme.default()
    size = 90
    tiles = {}
    for key in theme.data["terrain"]:
        style = theme.terrain_style(TerrainType(key, key))
        im = Image.new("RGB", (108, 108), style.water or style.fill)
        spr = sprite(style, size, True, 0)
        if spr is not None:
            im.paste(spr, (54 - spr.width // 2, 54 - spr.height // 2), spr)
        tiles[key] = np.asarray(im.convert("L"), dtype=float)
    keys = sorted(tiles)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            diff = np.abs(tiles[a] - tiles[b]).mean()
            assert diff > 3, f"{a} and {b} look alike in greyscale ({diff:.1f})"


def test_road_curve_passes_through_every_hex_centre_and_keeps_straight_runs_straight():
    from toolkit.render._lineplan import _smooth
    zigzag = [(0.0, 0.0), (10.0, 5.0), (20.0, 0.0), (30.0, 5.0)]
    curve = _smooth(zigzag, 10)
    for p in zigzag:
        assert min(abs(q[0] - p[0]) + abs(q[1] - p[1]) for q in curve) < 1e-9
    straight = _smooth([(0.0, 0.0), (10.0, 0.0), (20.0, 0.0), (30.0, 0.0)], 10)
    assert all(abs(y) < 1e-9 for _, y in straight)


def test_a_narrow_map_is_drawn_in_strips_as_wide_as_the_map(tutorial):
    from toolkit.render import mapimage

    narrow = render_map(tutorial.main_map, dpi=150, game=tutorial)
    assert narrow.width <= mapimage.NARROW and narrow.tile_w == narrow.width
    strips = list(narrow.strips())
    assert len(strips) == 1 and strips[0].size == narrow.size   # one tile: nothing stitched
    wide = render_map(tutorial.main_map, dpi=300, game=tutorial)
    assert wide.width > mapimage.NARROW and wide.tile_w == mapimage.TILE
    assert all(s.width == wide.width for s in wide.strips())


@pytest.mark.parametrize("dpi", [100, 150])
def test_tiles_draw_exactly_the_pixels_of_the_map_drawn_whole(tutorial, monkeypatch, dpi):
    """The tile boundaries of a wide map are invisible: the tutorial map drawn from 1024-pixel
    tiles (as a map wider than NARROW is) is pixel for pixel the map drawn as one tile, and so
    is any window of it."""
    from toolkit.render import mapimage

    whole = render_map(tutorial.main_map, dpi=dpi, game=tutorial)
    assert whole.tile_w == whole.width and whole.tile_h >= whole.height   # one tile: one drawing
    reference = whole.region((0, 0, *whole.size))
    monkeypatch.setattr(mapimage, "NARROW", 0)
    tiled = render_map(tutorial.main_map, dpi=dpi, game=tutorial)
    assert tiled.tile_w == mapimage.TILE < tiled.width
    W, H = tiled.size
    assert tiled.region((0, 0, W, H)).tobytes() == reference.tobytes()
    stitched = Image.new("RGB", (W, H))
    for y in range(0, H, 301):
        for x in range(0, W, 433):
            box = (x, y, min(W, x + 433), min(H, y + 301))
            stitched.paste(tiled.region(box), box[:2])
    assert stitched.tobytes() == reference.tobytes()


@pytest.mark.parametrize("tiles, pixels", [(99, 3 * 1024 * 256), (2, 10**9)])
def test_tiles_kept_for_later_windows_stay_within_their_budget(tutorial, monkeypatch, tiles, pixels):
    from toolkit.render import mapimage

    monkeypatch.setattr(mapimage, "NARROW", 0)
    monkeypatch.setattr(mapimage, "KEPT_TILES", tiles)
    monkeypatch.setattr(mapimage, "KEPT_PIXELS", pixels)
    image = render_map(tutorial.main_map, dpi=150, game=tutorial)
    monkeypatch.setattr(image, "tile_h", 256)
    W, H = image.size
    for y in range(0, H, 200):   # windows cut by tile edges: their tiles are kept, the oldest forgotten
        image.region((100, y, W - 100, min(H, y + 200)))
        assert image._kept == sum(t.width * t.height for t in image._tiles.values()) <= pixels
        assert len(image._tiles) <= tiles
    assert image._tiles and (len(image._tiles) == tiles or image._kept > pixels - 1024 * 256)   # full, not emptied


def test_water_shaped_for_one_map_draws_the_same_on_another():
    """Water bodies are shaped once per neighbourhood and hex size for every map: a map drawn
    after another has shaped its ponds draws the pixels it draws with nothing shaped yet."""
    from dataclasses import replace

    from toolkit.render import _mapdraw

    first = _synthetic()
    hexes = dict(first.hexes)
    for h in list(hexes)[::5]:   # other lakes and woods, some ponds in the same shapes
        hexes[h] = HexTerrain("w" if hexes[h].terrain != "w" else "f")
    second = replace(first, hexes=hexes)

    _mapdraw._WATER_SHAPES.clear()
    alone = render_map(second, dpi=150).image.tobytes()
    own = len(_mapdraw._WATER_SHAPES)
    _mapdraw._WATER_SHAPES.clear()
    render_map(first, dpi=150).image
    shaped = len(_mapdraw._WATER_SHAPES)
    after = render_map(second, dpi=150)
    assert len(_mapdraw._WATER_SHAPES) < shaped + own   # some shapes of the first map served the second
    assert after.image.tobytes() == alone
