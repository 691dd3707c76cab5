"""A picture's colour cast: fitted without the channels it clips, the palette's drawings clipped
alike, and nothing done to a picture without a cast (toolkit/draft/_cast.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from known_answers import cast
from toolkit.draft import Palette, draft_terrain
from toolkit.draft._cast import IDENTITY, clip_levels, first_correction, refine
from toolkit.draft.geometry import PlacedLayout
from toolkit.draft.sample import HexSampler, Look
from toolkit.game import HexTerrain
from toolkit.hexes import Grid, Numbering
from toolkit.io import load_game
from toolkit.render import render_map

#: The known answers' cast (R x1.06 + 8, G x0.97, B x0.88) and the correction undoing it.
UNDO = ((1 / 1.06, 1 / 0.97, 1 / 0.88), (-8 / 1.06, 0.0, 0.0))
CREEK, HIGH = ("clear", ("creek",)), ("clear", ("high_ground",))


def _forward(colour):
    """What the known answers' cast makes of a printed colour (clipped at 255)."""
    r, g, b = colour
    return min(255.0, r * 1.06 + 8), g * 0.97, b * 0.88


@pytest.fixture(scope="module")
def white_death():
    """A small map with White Death's terrain: clear (whose fill the cast lifts past white in red),
    forest and swamp, and rows of creek and high ground (hatchings of one angle, two tints a few
    levels apart) on clear ground."""
    source = load_game("white-death").main_map
    grid = Grid(1, 10, 1, 6, numbering=Numbering(col_digits=2))
    m = replace(source, grid=grid, hexes={}, hexsides={}, lines=[], places=[], victory=[], supply=[],
                edges=[], boxes=[], locations={}, image=None)
    for hex in grid:
        col, row = hex.col, hex.row
        if col <= 2:
            terrain = HexTerrain("forest")
        elif col >= 9:
            terrain = HexTerrain("swamp")
        elif row == 2 and 3 <= col <= 7:
            terrain = HexTerrain(*CREEK)
        elif row == 4 and 3 <= col <= 6:
            terrain = HexTerrain(*HIGH)
        else:
            terrain = HexTerrain("clear")
        m.hexes[hex] = terrain
    rendered = render_map(m, dpi=80)
    return m, rendered, PlacedLayout(rendered.layout), Palette.from_game(m, rendered.layout.size)


def _fill(palette, terrain):
    vs = [v for t, v, _ in palette.examples if t == terrain]
    return [sum(v[c] for v in vs) / len(vs) / 2.0 for c in range(3)]  # Look.vector weighs the fill twice


def test_no_cast_clips_nothing_and_leaves_the_palette_alone(white_death):
    m, rendered, layout, palette = white_death
    assert clip_levels(IDENTITY) is None
    assert palette.through(IDENTITY) is palette
    # a correction that keeps 0..255 within 0..255 clips nothing either
    assert clip_levels(((1.1, 1.0, 1.2), (0.0, 0.0, -5.0))) is None
    draft = draft_terrain(m, rendered.image, layout, palette)
    # (a fit may move the correction off the identity by a fraction of a level, as before clipping
    # was modelled)
    gain, offset = draft.correction
    assert all(abs(v * gain[c] + offset[c] - v) < 1.0 for c in range(3) for v in (0, 128, 255))
    assert clip_levels(draft.correction) is None and palette.through(draft.correction) is palette
    assert clip_levels(draft.terrain_correction) is None
    assert all(d.terrain == (m.terrain(h), m.features(h)) for h, d in draft.hexes.items())


def test_the_palette_is_clipped_where_the_cast_clips_the_picture(white_death):
    _, _, _, palette = white_death
    lo, hi = clip_levels(UNDO)
    assert hi[0] == pytest.approx(247 / 1.06) and hi[1:] == (255.0, 255.0) and lo == (0.0, 0.0, 0.0)
    seen = palette.through(UNDO)
    assert seen is not palette and seen.clip == (lo, hi)
    assert palette.through(UNDO) is seen  # read once per cast
    clear, clipped = _fill(palette, ("clear", ())), _fill(seen, ("clear", ()))
    assert clear[0] > hi[0] and clipped[0] == pytest.approx(round(hi[0]), abs=0.01)
    assert clipped[1:] == pytest.approx(clear[1:], abs=0.01)
    # a hatching over the clipped fill reads darker in red: its fill between the lines is clipped,
    # its lines are not
    for terrain in (CREEK, HIGH):
        assert _fill(palette, terrain)[0] - 4 < _fill(seen, terrain)[0] < _fill(palette, terrain)[0] - 1
    # the forest's fill lies well below the clip: unchanged
    assert _fill(seen, ("forest", ())) == pytest.approx(_fill(palette, ("forest", ())), abs=0.01)


def test_a_cast_that_clips_is_fitted_from_the_channels_it_does_not_clip(white_death):
    """Clear's red is clipped at 255 on the cast picture: the fit undoes the cast though a
    straight line through clear's clipped red could not."""
    m, rendered, layout, palette = white_death
    sampler = HexSampler(cast(rendered.image), layout, m.hex_ids)
    raw = {hex: sampler.look(hex) for hex in m.grid}
    raw = {hex: look for hex, look in raw.items() if look is not None}
    assert max(look.mode[0] for look in raw.values()) == 255
    correction, bases, _ = refine(raw, first_correction(raw, palette), palette, 2)
    assert all(b[0] == m.terrain(h) for h, b in bases.items())
    gain, offset = correction
    for c, level in ((0, 140.0), (0, 200.0), (0, 240.0), (1, 230.0), (2, 180.0)):
        want = level * UNDO[0][c] + UNDO[1][c]
        assert level * gain[c] + offset[c] == pytest.approx(want, abs=3.0)


def test_a_cast_with_clipping_is_undone_on_a_small_map(white_death):
    m, rendered, layout, palette = white_death
    draft = draft_terrain(m, cast(rendered.image), layout, palette)
    hi = clip_levels(draft.terrain_correction)[1]
    assert hi[0] < 238  # clear's red (238 printed) is clipped on the picture: the palette's too
    wrong = [m.grid.format(h) for h, d in draft.hexes.items() if d.terrain != (m.terrain(h), m.features(h))]
    assert wrong == []


def test_looks_of_a_picture_are_not_changed_by_the_palette_clip(white_death):
    """The palette is clipped; the picture is read as it is (its own clip is the cast's)."""
    m, rendered, layout, palette = white_death
    hex = m.grid.parse("0302")
    before = HexSampler(rendered.image, layout).look(hex)
    palette.through(UNDO)
    assert HexSampler(rendered.image, layout).look(hex) == before

