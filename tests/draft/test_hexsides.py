"""Hexside features read from small pictures hexforge draws: a full and a partial lake hexside
side by side (White Death's two lake kinds, drawn in the same colours and told apart only by
their shape along the side), a slope drawn over the grid line, a river beside a lake side."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PIL import ImageFilter

from known_answers import jpeg
from toolkit.draft import Palette, draft_terrain
from toolkit.draft.geometry import PlacedLayout
from toolkit.draft.hexsides import SHAPE_TS, side_shapes
from toolkit.game import HexsideFeature, HexTerrain
from toolkit.hexes import Grid, Hex, Hexside
from toolkit.io import load_game
from toolkit.render import Theme, render_map


def _small_map(game_id: str, sides: dict[tuple[tuple[int, int], str], str]):
    """The game's map cut down to a plain 8 x 7 grid of clear terrain, with ``sides`` (a hex
    and the direction of the side: a feature)."""
    base = load_game(game_id).main_map
    grid = Grid(1, 8, 1, 7)
    m = replace(base, grid=grid, hexes={}, hexsides={}, lines=[], places=[], victory=[], supply=[], edges=[],
                boxes=[], locations={}, image=None)
    plain = next(c for c, t in base.terrain_types.items() if not t.overlay and c in ("clear", "c", "open"))
    for hex in grid:
        m.hexes[hex] = HexTerrain(plain)
    for (a, direction), code in sides.items():
        side = Hexside.of(Hex(*a), grid.neighbour(Hex(*a), direction))
        m.hexsides[side] = [HexsideFeature(side, code)]
    return m


def _read(m, dpi: int, degrade=lambda image: image):
    rendered = render_map(m, dpi=dpi)
    layout = PlacedLayout(rendered.layout)
    draft = draft_terrain(m, degrade(rendered.image), layout, Palette.from_game(m, layout.size))
    return {s: code for s, (code, _) in draft.hexsides.items()}, draft


def _truth(m):
    return {s: feats[0].code for s, feats in m.hexsides.items()}


# White Death's lake hexsides: a ring of full lake sides around one hex, a ring of partial ones
# around the next, a full and a partial side meeting at a corner, and slopes (Rule 12, 13)
LAKES = {((3, 3), "N"): "lake_full", ((3, 3), "NE"): "lake_full", ((3, 3), "SE"): "lake_full",
         ((6, 3), "N"): "lake_partial", ((6, 3), "NE"): "lake_partial", ((6, 3), "SE"): "lake_partial",
         ((6, 3), "S"): "lake_partial",
         ((2, 6), "N"): "lake_full", ((2, 6), "NE"): "lake_partial",
         ((5, 6), "N"): "slope", ((5, 6), "NE"): "slope", ((7, 6), "NE"): "lake_partial"}


@pytest.fixture(scope="module")
def lakes():
    return _small_map("white-death", LAKES)


def test_full_and_partial_lake_sides_are_told_apart(lakes):
    got, draft = _read(lakes, 80)
    assert got == _truth(lakes)
    assert min(draft.side_confidence.values(), default=1.0) >= 0.5  # none listed for a person


@pytest.mark.parametrize("degradation", ["blur", "jpeg60"])
def test_lake_sides_are_told_apart_on_a_degraded_picture(lakes, degradation):
    degrade = {"blur": lambda i: i.filter(ImageFilter.GaussianBlur(1.0)), "jpeg60": jpeg}[degradation]
    got, draft = _read(lakes, 80, degrade)
    wrong = {s for s in set(got) | set(_truth(lakes)) if got.get(s) != _truth(lakes).get(s)}
    # a slope drawn over the grid line, JPEG'd, may be missed; never a lake read as the other kind
    assert not [s for s in wrong if {got.get(s), _truth(lakes).get(s)} <= {"lake_full", "lake_partial"}]
    assert len(wrong) <= 1, wrong
    assert all(draft.side_confidence.get(s, 1.0) < 0.5 for s in wrong)  # listed for a person


def test_lake_side_shapes(lakes):
    """The shapes learned from hexforge's drawing: a full lake side reaches both corners and is
    widest at its middle; a partial one lies in the middle, touching neither corner."""
    theme = Theme.default()
    sides = [(code, theme.hexside_style(kind).colour, theme.hexside_style(kind).edge, 0.11)
             for code, kind in lakes.hexside_types.items() if code.startswith("lake")]
    shapes = side_shapes(lakes, sides, 64.0, theme)
    full, partial = shapes["lake_full"], shapes["lake_partial"]
    middle = SHAPE_TS.index(0.5)
    assert full[middle] == max(full) and full[0] > 0.4 * full[middle]
    assert partial[0] == partial[-1] == 0.0 and partial[middle] > 0.6 * full[middle]
    assert full == full[::-1] and partial == partial[::-1]  # a side is read either way


# Demyansk's rivers and lake sides: a lake side meeting a river and a major river at corners
RIVERS = {((3, 3), "N"): "lake", ((3, 3), "NE"): "river", ((3, 3), "NW"): "major_river",
          ((3, 3), "SE"): "lake", ((6, 5), "N"): "river", ((6, 5), "NE"): "river",
          ((6, 5), "SE"): "major_river", ((2, 6), "N"): "lake"}


def test_a_river_beside_a_lake_side():
    m = _small_map("demyansk-shield", RIVERS)
    got, _ = _read(m, 100)
    assert got == _truth(m)
