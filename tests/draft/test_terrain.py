"""Base terrain and overlays read from small pictures, each built to isolate one way of telling
terrains apart: the grain of a hatching, a symbol drawn several ways, two kinds of fort."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import Image, ImageDraw

from known_answers import blur, cast, jpeg, score
from toolkit.draft import Palette, draft_terrain
from toolkit.draft import sample as sample_module
from toolkit.draft.geometry import PlacedLayout
from toolkit.draft.sample import HexSampler
from toolkit.game import HexTerrain, Line
from toolkit.hexes import Grid, Numbering
from toolkit.io import load_game
from toolkit.render import Theme, render_map


def _small_map(game_id: str, cells: list[tuple], cols: int = 9, rows: int = 6, base: str = "clear"):
    """A ``cols`` x ``rows`` map with a game's terrain types: ``(col, row, terrain, features)`` on
    ``base`` elsewhere."""
    source = load_game(game_id).main_map
    grid = Grid(1, cols, 1, rows, numbering=Numbering(col_digits=2))
    m = replace(source, grid=grid, hexes={}, hexsides={}, lines=[], places=[], victory=[], supply=[],
                edges=[], boxes=[], locations={}, image=None)
    for hex in grid:
        m.hexes[hex] = HexTerrain(base)
    for col, row, terrain, features in cells:
        m.hexes[grid.parse(f"{col:02d}{row:02d}")] = HexTerrain(terrain, tuple(features))
    return m


def _draft(m, degrade=lambda image: image, dpi=80):
    rendered = render_map(m, dpi=dpi)
    layout = PlacedLayout(rendered.layout)
    return draft_terrain(m, degrade(rendered.image), layout, Palette.from_game(m, layout.size))


def test_grain_tells_lines_across_from_lines_down():
    """Stripes running down change across (x) and not down (y); stripes at 45 degrees change
    along one diagonal and not the other."""
    from toolkit.hexes import Layout

    grid = Grid(1, 1, 1, 1)
    layout = Layout(grid, size=60, origin=(60, 60))
    pictures = {}
    for name, step in (("down", (1, 0)), ("across", (0, 1)), ("diagonal", (1, 1))):
        image = Image.new("RGB", (120, 120), (238, 240, 211))
        draw = ImageDraw.Draw(image)
        for k in range(-40, 40):
            o = 6 * k
            if name == "down":
                draw.line((60 + o, 0, 60 + o, 120), fill=(60, 90, 120))
            elif name == "across":
                draw.line((0, 60 + o, 120, 60 + o), fill=(60, 90, 120))
            else:
                draw.line((o, 0, o + 120, 120), fill=(60, 90, 120))
        pictures[name] = HexSampler(image, layout).look(grid.parse("0101"))
    assert pictures["down"].grain[0] > 10 > abs(pictures["down"].grain[1])
    assert pictures["across"].grain[0] < -10
    assert pictures["diagonal"].grain[1] < -10 and abs(pictures["diagonal"].grain[0]) < 5  # (1, 1) runs along


@pytest.fixture(scope="module")
def hatched():
    """White Death's hatched overlays on clear ground (creek at 45 degrees, river at 90, bridge at
    135), all given one colour so that only the angle of their hatching tells them apart (high
    ground, hatched at 45 degrees too, left out)."""
    m = _small_map("white-death", [(c, r, "clear", (code,)) for r in (2, 4) for c, code in
                                   ((2, "creek"), (4, "river"), (6, "bridge"), (8, "creek"), (3, "bridge"),
                                    (5, "creek"), (7, "river"))])
    m.terrain_types = {c: t for c, t in m.terrain_types.items() if c != "high_ground"}
    for code in ("creek", "river", "bridge"):
        m.terrain_types[code] = replace(m.terrain_types[code], colour="#6aa6d6")
    return m


@pytest.mark.parametrize("degrade", [lambda i: i, lambda i: jpeg(cast(blur(i)))], ids=["clean", "blur+cast+jpeg"])
def test_hatchings_of_one_colour_are_told_apart_by_their_angle(hatched, degrade):
    draft = _draft(hatched, degrade)
    assert not score(hatched, draft).wrong_terrain


def test_without_the_grain_hatchings_of_one_colour_are_confused(hatched, monkeypatch):
    from toolkit.draft import draft as draft_module

    # the looks' reader alone (a hatching's lines, compared pixel by pixel with drawings, show
    # their angle too)
    monkeypatch.setattr(sample_module, "GRAIN_WEIGHT", 0.0)
    monkeypatch.setattr(draft_module, "REDRAW_BELOW", 0.0)
    draft = _draft(hatched)
    assert score(hatched, draft).wrong_terrain  # the test above isolates the grain


def test_a_road_through_rough_ground_is_not_a_village():
    """Rough ground's rocks are drawn three ways (by column and row); a road runs through every
    kind. The palette's drawings in context must show each way, or a village is read where the
    rocks differ from the one drawn (Demyansk Shield 1604, 1607)."""
    m = _small_map("demyansk-shield", [(c, 5, "clear", ("village",)) for c in (3, 7)], cols=10, rows=7,
                   base="rough")
    for col in (2, 5, 8):
        m.lines.append(Line("road", tuple(h for h in m.grid if h.col == col)))
    draft = _draft(m, dpi=100)
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]


def test_the_two_kinds_of_printed_strongpoint_are_told_apart():
    """Demyansk Shield's Axis and Soviet strongpoints: each side uses only its own (14.11), so the
    map draws the Soviet ones filled brick red and the draft reads each kind back."""
    cells = [(2, 2, "clear", ("strongpoint",)), (4, 3, "clear", ("soviet_strongpoint",)),
             (6, 2, "rough", ("soviet_strongpoint",)), (8, 3, "hill", ("strongpoint",)),
             (3, 5, "hill", ("soviet_strongpoint",)), (7, 5, "clear", ("strongpoint",))]
    m = _small_map("demyansk-shield", cells)
    theme = Theme.default()
    kinds = [theme.terrain_style(m.terrain_types[c]) for c in ("strongpoint", "soviet_strongpoint")]
    assert kinds[0].symbol == kinds[1].symbol == "fort" and kinds[0].fill != kinds[1].fill
    assert not score(m, _draft(m, dpi=100)).wrong_terrain
    # blurred, cast and compressed, an Axis strongpoint on clear may pass for a village (listed),
    # never for a Soviet one, nor the other way round
    degraded = _draft(m, lambda i: jpeg(cast(blur(i))), dpi=100)
    for col, row, terrain, features in cells:
        other = {"strongpoint": "soviet_strongpoint", "soviet_strongpoint": "strongpoint"}[features[0]]
        assert other not in degraded.hexes[m.grid.parse(f"{col:02d}{row:02d}")].terrain[1]


def test_a_palette_file_gives_the_colours_to_read(tmp_path):
    m = _small_map("tutorial", [(c, r, "woods", ()) for c, r in ((2, 2), (5, 3), (7, 5))])
    m.terrain_types = {c: t for c, t in m.terrain_types.items() if c in ("clear", "woods")}
    theme = Theme.default()
    path = tmp_path / "palette.yaml"
    path.write_text("".join(f'{code}: "#{"".join(f"{v:02x}" for v in theme.terrain_style(t).fill)}"\n'
                            for code, t in m.terrain_types.items()))
    rendered = render_map(m, dpi=80)
    layout = PlacedLayout(rendered.layout)
    draft = draft_terrain(m, rendered.image, layout, Palette.from_file(path, m))
    assert not score(m, draft).wrong_base



def test_overlay_sets_shrink_on_maps_with_many_overlays():
    from toolkit.draft._drawings import MOST_DRAWINGS, COPIES, overlay_sets

    assert overlay_sets(["a", "b"]) == [(), ("a",), ("b",), ("a", "b")]
    many = [f"o{i}" for i in range(12)]
    sets = overlay_sets(many, bases=4)
    assert 4 * COPIES * len(sets) <= MOST_DRAWINGS and max(map(len, sets)) >= 2
    assert all(list(s) == sorted(s, key=many.index) for s in sets)  # in the map's order


@pytest.mark.parametrize("degrade", [lambda i: i, blur], ids=["clean", "blur"])
def test_two_and_three_overlays_on_one_hex(degrade):
    """A village in woods, a town with an airfield, woods with a village and an airfield (Demyansk
    Shield 1712, 2711, 2912): the palette's looks hold one overlay; the drawings hold every set."""
    cells = [(2, 2, "clear", ("woods", "village")), (5, 2, "clear", ("town", "airfield")),
             (8, 2, "clear", ("woods", "village", "airfield")), (3, 5, "rough", ("woods", "village")),
             (6, 5, "clear", ("village",)), (8, 5, "clear", ("woods",))]
    m = _small_map("demyansk-shield", cells)
    draft = _draft(m, degrade, dpi=100)
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]
    # the comparison's own doubt reaches the listing's evidence
    assert any(d.reader == "drawing" for d in draft.hexes[m.grid.parse("0805")].doubts
               + draft.hexes[m.grid.parse("0802")].doubts)


def test_a_town_on_a_river_with_a_bunker_and_a_bridge():
    """White Death's city: a town, a river (hatched at 90 degrees), a bunker and a bridge (hatched
    at 135 degrees) on one hex, beside a town with a bunker and a river with a bridge."""
    cells = [(3, 3, "clear", ("town", "river", "bunker", "bridge")), (5, 3, "clear", ("town", "bunker")),
             (7, 3, "clear", ("river", "bridge")), (4, 5, "clear", ("town", "river", "bunker"))]
    m = _small_map("white-death", cells)
    draft = _draft(m)
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]


def test_a_road_beside_a_railway_through_open_ground_is_no_village():
    """A road and a railway side by side (Demyansk Shield 1524, 1622, 1718): their red and black
    fill the centre where a village's blocks would be; a pixel of a line's colour is the line's."""
    m = _small_map("demyansk-shield", [(3, 3, "clear", ("village",)), (7, 4, "clear", ("village",))], cols=9,
                   rows=7)
    for col in (3, 5, 7):
        path = tuple(h for h in m.grid if h.col == col)
        m.lines.append(Line("road", path))
        m.lines.append(Line("rail", path))
    draft = _draft(m, dpi=100)
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]


def test_creek_and_high_ground_blurred():
    """White Death's creek and high ground: both hatched at 45 degrees, in close colours, a
    watercourse drawn through the creek. Blurred, the hatching's grain fades alike: the drawing
    laid over the hex still tells the colours of the two hatchings apart."""
    cells = [(c, r, "clear", ("creek",)) for c, r in ((2, 2), (3, 2), (4, 3), (5, 3))]
    cells += [(c, r, "clear", ("high_ground",)) for c, r in ((7, 2), (8, 2), (7, 5), (3, 5))]
    m = _small_map("white-death", cells)
    m.lines.append(Line("river", tuple(m.grid.parse(t) for t in ("0102", "0202", "0302", "0403", "0503", "0603"))))
    draft = _draft(m, blur)
    result = score(m, draft)
    assert not result.wrong_terrain, [(m.grid.format(h), draft.hexes[h].terrain) for h in result.wrong_terrain]
