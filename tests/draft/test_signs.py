"""Small signs (an airfield or fort sharing its hex with a town) read wherever the map placed
them: the renderer puts a sign where its hex has room clear of roads and markers, not at a
fixed spot."""

from __future__ import annotations

from dataclasses import replace

import pytest

from known_answers import blur, score
from toolkit.draft import Palette, draft_terrain
from toolkit.draft._drawings import Drawings
from toolkit.draft._shown import signs_shown
from toolkit.draft._signs import SignFinder
from toolkit.draft.geometry import PlacedLayout
from toolkit.draft.sample import HexSampler
from toolkit.game import HexTerrain, Line
from toolkit.hexes import Grid, Numbering
from toolkit.io import load_game
from toolkit.render import Theme, render_map, sign_tile


def _small_map(game_id: str, cells, cols: int = 8, rows: int = 6):
    source = load_game(game_id).main_map
    grid = Grid(1, cols, 1, rows, numbering=Numbering(col_digits=2))
    m = replace(source, grid=grid, hexes={h: HexTerrain("clear") for h in grid}, hexsides={}, lines=[], places=[],
                victory=[], supply=[], edges=[], boxes=[], locations={}, image=None)
    for col, row, terrain, features in cells:
        m.hexes[grid.parse(f"{col:02d}{row:02d}")] = HexTerrain(terrain, tuple(features))
    return m


def _pushed(m, at: str):
    """Roads through ``at`` from three sides: its sign is pushed off its usual spot."""
    grid = m.grid
    h = grid.parse(at)
    column = tuple(x for x in grid if x.col == h.col)
    m.lines.append(Line("road", column))
    m.lines.append(Line("road", tuple(grid.line(h, grid.parse(f"{1:02d}{h.row + 1:02d}")))))
    return m


@pytest.fixture(scope="module")
def airfield_map():
    """Demyansk Shield's town with an airfield (2711) and its wooded village with one (2912),
    roads through both."""
    m = _small_map("demyansk-shield", [(4, 3, "clear", ("town", "airfield")),
                                        (6, 4, "clear", ("woods", "village", "airfield")),
                                        (2, 5, "clear", ("woods",)), (7, 2, "clear", ("village",))])
    return _pushed(_pushed(m, "0403"), "0604")


def _finder(m, image, rendered):
    theme = Theme.default()
    sampler = HexSampler(image, PlacedLayout(rendered.layout), m.hex_ids)
    tiles = {code: sign_tile(theme.terrain_style(t), rendered.layout.size, theme.paper)
             for code, t in m.terrain_types.items()}
    return sampler, SignFinder(sampler, {c: t for c, t in tiles.items() if t is not None})


@pytest.mark.parametrize("degrade", [lambda i: i, blur], ids=["clean", "blur"])
def test_a_sign_is_found_where_the_map_placed_it(airfield_map, degrade):
    m = airfield_map
    rendered = render_map(m, dpi=100)
    scene = rendered.scene
    sampler, finder = _finder(m, degrade(rendered.image), rendered)
    size = rendered.layout.size
    assert len(scene.sign_hexes) == 2
    for (h, _), (x0, y0, x1, y1) in zip(scene.sign_hexes, scene.sign_boxes):
        cx, cy = rendered.layout.center(h)
        # off the usual spot (0, 0.24 of the hex below the centre)
        assert abs((x0 + x1) / 2 - cx) + abs((y0 + y1) / 2 - cy - 0.24 * size) > 0.1 * size
        (left, top), _ = finder.find(h, "airfield")
        box = sampler.box(h)
        t = finder.templates["airfield"]
        assert abs(box[0] + left + t.w / 2 - (x0 + x1) / 2) <= 1.5
        assert abs(box[1] + top + t.h / 2 - (y0 + y1) / 2) <= 1.5


@pytest.mark.parametrize("degrade", [lambda i: i, blur], ids=["clean", "blur"])
def test_a_sign_the_reading_lacks_shows(airfield_map, degrade):
    """Laid on the drawing of a reading without it, where it fits best, the sign fits the
    picture much better than that drawing alone; a hex without a sign shows none."""
    m = airfield_map
    rendered = render_map(m, dpi=100)
    image = degrade(rendered.image)
    sampler = HexSampler(image, PlacedLayout(rendered.layout), m.hex_ids)
    drawings = Drawings(m, rendered.layout.size)
    road = Theme.default().line_style(m.line_types["road"])
    colours = [road.colour] + ([road.casing] if road.casing else [])
    identity = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))

    def shown(at, terrain):
        h = m.grid.parse(at)
        return signs_shown(sampler, drawings, h, terrain, identity, colours, sampler.look(h).mode)
    assert "airfield" in shown("0403", ("clear", ("town",)))
    assert "airfield" in shown("0604", ("clear", ("woods",)))   # the village missed too
    assert shown("0403", ("clear", ("town", "airfield"))) == ()
    for at in ("0702", "0205", "0101", "0402"):   # a village, woods, clear, a road
        h = m.grid.parse(at)
        assert shown(at, (m.terrain(h), m.features(h))) == ()


@pytest.mark.parametrize("degrade", [lambda i: i, blur], ids=["clean", "blur"])
def test_a_sign_placed_off_centre_is_read_right(airfield_map, degrade):
    m = airfield_map
    rendered = render_map(m, dpi=100)
    layout = PlacedLayout(rendered.layout)
    draft = draft_terrain(m, degrade(rendered.image), layout, Palette.from_game(m, layout.size))
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]


def test_forts_beside_towns_are_read_right():
    """White Death's city: bunkers as signs in town hexes with roads and a railway through them,
    beside towns without one."""
    cells = [(3, 3, "clear", ("town", "bunker")), (4, 3, "clear", ("town",)), (5, 4, "clear", ("town", "bunker")),
             (6, 3, "clear", ("town",)), (3, 5, "clear", ("town", "river", "bunker"))]
    m = _pushed(_pushed(_small_map("white-death", cells), "0303"), "0504")
    m.lines.append(Line("rail", tuple(m.grid.line(m.grid.parse("0101"), m.grid.parse("0806")))))
    rendered = render_map(m, dpi=80)
    assert len(rendered.scene.sign_hexes) == 3
    layout = PlacedLayout(rendered.layout)
    draft = draft_terrain(m, rendered.image, layout, Palette.from_game(m, layout.size))
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]


@pytest.mark.parametrize("degrade", [lambda i: i, blur], ids=["clean", "blur"])
def test_a_sign_whose_rim_meets_a_marker_is_found(airfield_map, degrade):
    """A crowded hex (Demyansk: four roads, a river, a victory star and a supply disc) has no
    spot clear for its sign: the map puts it where it is clearest, its rim over the disc. A sign
    is looked for off the markers by its centre, not by its whole tile."""
    m = airfield_map
    rendered = render_map(m, dpi=100)
    scene = rendered.scene
    (h, _), (x0, y0, x1, y1) = scene.sign_hexes[0], scene.sign_boxes[0]
    t = _finder(m, rendered.image, rendered)[1].templates["airfield"]
    # a marker's box over the lower rim of the sign's ink, clear of its centre
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    marker = (cx - 5, cy + (t.ink[3] - t.h / 2) - 3, cx + 5, cy + (t.ink[3] - t.h / 2) + 7)
    sampler = HexSampler(degrade(rendered.image), PlacedLayout(rendered.layout), m.hex_ids, [marker])
    finder = SignFinder(sampler, {"airfield": sign_tile(Theme.default().terrain_style(m.terrain_types["airfield"]),
                                                        rendered.layout.size, Theme.default().paper)})
    (left, top), _ = finder.find(h, "airfield")
    box = sampler.box(h)
    assert abs(box[0] + left + t.w / 2 - cx) <= 1.5
    assert abs(box[1] + top + t.h / 2 - cy) <= 1.5
