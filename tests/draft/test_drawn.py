"""Hexes compared with hexforge's drawings of what they may be (toolkit/draft/_drawn.py): the
lines crossing a hex explained through their casings, the fill read off them, each drawing
registered on the picture to the pixel, an overlay the looks miss sending a hex to the
drawings; and the bundled maps' hexes these decided."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageChops

from toolkit.draft import _drawings
from toolkit.draft._drawings import Drawings
from toolkit.draft._drawn import compare
from toolkit.draft._lineinks import line_inks, printed_fill
from toolkit.draft._shown import overlays_shown
from toolkit.draft.geometry import PlacedLayout, drawn_labels
from toolkit.draft.sample import HexSampler, colour_distance
from toolkit.game import HexTerrain, Line, VictoryHex
from toolkit.hexes import Grid, Hexside, Numbering
from toolkit.io import load_game
from toolkit.render import Theme, render_map

IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))


def _small_map(game_id: str, cells, cols: int = 8, rows: int = 6):
    source = load_game(game_id).main_map
    grid = Grid(1, cols, 1, rows, numbering=Numbering(col_digits=2))
    m = replace(source, grid=grid, hexes={h: HexTerrain("clear") for h in grid}, hexsides={}, lines=[], places=[],
                victory=[], supply=[], edges=[], boxes=[], locations={}, image=None)
    for at, terrain, features in cells:
        m.hexes[grid.parse(at)] = HexTerrain(terrain, tuple(features))
    return m


def _towards(m, hex):
    return tuple(o for o in m.grid.neighbours(hex) if Hexside.of(hex, o) in m.line_links())


def _margin(m, sampler, drawings, at: str) -> float:
    """How much worse the best drawing of another set of overlays fits ``at`` than its own."""
    hex = m.grid.parse(at)
    inks = line_inks(m, Theme.default())
    ranked = compare(sampler, drawings, hex, (m.terrain(hex),), IDENTITY, inks,
                     printed_fill(sampler, hex, IDENTITY, inks), _towards(m, hex))
    truth = set(m.features(hex))
    own = next(c for c, (_, feats) in ranked if set(feats) == truth)
    return next(c for c, (_, feats) in ranked if set(feats) != truth) - own


def test_a_citys_fill_is_read_off_its_roads():
    """A city crossed by six roads shows more road than fill: a line's edge blends with the
    fill under it, the city's, not the roads' red."""
    m = _small_map("a-victory-denied", [("0403", "clear", ("city",))])
    centre = m.grid.parse("0403")
    m.lines.extend(Line("road", (centre, o)) for o in m.grid.neighbours(centre))
    rendered = render_map(m, dpi=100)
    sampler = HexSampler(rendered.image, PlacedLayout(rendered.layout), m.hex_ids)
    city = Theme.default().terrain_style(m.terrain_types["city"]).fill
    road = Theme.default().line_style(m.line_types["road"]).colour
    assert colour_distance(sampler.look(centre).mode, road) < colour_distance(sampler.look(centre).mode, city)
    fill = printed_fill(sampler, centre, IDENTITY, line_inks(m, Theme.default()))
    assert colour_distance(fill, city) < 20 < 60 < colour_distance(fill, road)   # (softened among its blocks)


def test_a_roads_casing_mixed_with_its_colour_is_its_ink():
    m = load_game("a-victory-denied").main_map
    road = Theme.default().line_style(m.line_types["road"])
    inks = line_inks(m, Theme.default())
    assert road.colour in inks and road.casing in inks
    mixed = tuple(round(k + 0.5 * (c - k)) for c, k in zip(road.colour, road.casing))
    assert any(colour_distance(mixed, ink) <= 1 for ink in inks)


@pytest.mark.parametrize("moved", [(1, 1), (-1, 0)])
def test_a_drawing_is_registered_on_the_picture_to_the_pixel(moved, monkeypatch):
    """The map rounds each symbol's place and each hex's centre to whole pixels: a picture's
    town blocks among trees may lie a pixel off hexforge's drawing of them, which at 48 px a hex
    costs the blocks' fit. Each drawing that fits well is tried a pixel either way."""
    m = _small_map("white-death", [("0303", "forest", ("town",)), ("0503", "forest", ("town",))])
    rendered = render_map(m, dpi=80)
    sampler = HexSampler(ImageChops.offset(rendered.image, *moved), PlacedLayout(rendered.layout), m.hex_ids)
    assert all(_margin(m, sampler, Drawings(m, rendered.layout.size), at) > 1.0 for at in ("0303", "0503"))
    if moved == (1, 1):   # unregistered, the town is read with a river's or a creek's hatching
        monkeypatch.setattr(_drawings, "SLACK", 0)
        assert _margin(m, sampler, Drawings(m, rendered.layout.size), "0303") < 0


def test_a_village_among_trees_sends_its_hex_to_the_drawings():
    """The palette's looks hold one overlay: a village in woods, half under a victory star,
    looks like the woods. Its drawing with the village fits better than without."""
    m = _small_map("demyansk-shield", [("0403", "clear", ("woods", "village")), ("0503", "clear", ("woods",))])
    m.lines.append(Line("road", (m.grid.parse("0403"), m.grid.parse("0404"))))
    m.victory.append(VictoryHex(m.grid.parse("0403"), 5))
    rendered = render_map(m, dpi=100)
    layout = PlacedLayout(rendered.layout)
    sampler = HexSampler(rendered.image, layout, m.hex_ids, drawn_labels(m, layout))
    drawings, inks = Drawings(m, layout.size), line_inks(m, Theme.default())

    def shown(at):
        hex = m.grid.parse(at)
        return overlays_shown(sampler, drawings, hex, ("clear", ("woods",)), IDENTITY, inks,
                              printed_fill(sampler, hex, IDENTITY, inks))
    assert shown("0403") == ("village",)
    assert shown("0503") == ()


@pytest.mark.parametrize("game_id, at", [("a-victory-denied", "3627"), ("a-victory-denied", "3919"),
                                         ("white-death", "0526"), ("demyansk-shield", "2711"),
                                         ("demyansk-shield", "3004")])
def test_the_bundled_maps_crowded_hexes(game_id, at):
    """Known answers: Smolensk and Vitebsk (cities under five or six roads and a star, read as
    a town in a city, as Moscow), Isotcha (a town among trees with a road's end and railways,
    read with a river's hatching), Demyansk (a town with its airfield's sign beside a supply
    disc) and Polnovo (a village among trees under a star) fit their own drawings best."""
    from known_answers import MAPS

    dpi = next(d for g, _, d in MAPS if g == game_id)
    game = load_game(game_id)
    m = game.main_map
    rendered = render_map(m, dpi=dpi, game=game)
    layout = PlacedLayout(rendered.layout)
    sampler = HexSampler(rendered.image, layout, m.hex_ids, drawn_labels(m, layout, game=game))
    assert _margin(m, sampler, Drawings(m, layout.size), at) > 0
