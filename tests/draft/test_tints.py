"""Two overlays drawn as tints a few levels apart, told apart by the picture's own groups
(toolkit/draft/_tints.py)."""

from __future__ import annotations

from known_answers import blur, cast, jpeg
from test_cast import CREEK, HIGH, _fill, white_death  # noqa: F401 (a fixture)
from toolkit.draft import Palette, draft_terrain
from toolkit.draft._tints import settle, tint_pairs
from toolkit.draft.sample import Look
from toolkit.hexes import Hex
from toolkit.io import load_game


def _look(colour) -> Look:
    return Look(tuple(colour), 0.9, tuple(colour), (1.0, 1.0, 1.0))


def test_tints_are_the_hatchings_of_one_angle_in_two_inks(white_death):
    _, _, _, palette = white_death
    pairs = {frozenset((a, b)) for a, b, _ in tint_pairs(palette)}
    assert frozenset((CREEK, HIGH)) in pairs
    # a symbol in the middle (a town), another angle of hatching (a river's) or a plain fill is no tint
    for a, b in pairs:
        assert a[0] == b[0] and len(a[1]) == len(b[1]) == 1
        assert {a[1][0], b[1][0]} <= {"creek", "high_ground"}
    tutorial = load_game("tutorial").main_map
    assert tint_pairs(Palette.from_game(tutorial, 64.0)) == []


def _groups(palette, places, shift=0.0):
    """Readings (all high ground) and rings: a hex at each of ``places`` along the line from the
    creek's tint (0) to high ground's (1), all moved ``shift`` of the way on (a correction a few
    levels off)."""
    creek, high = _fill(palette, CREEK), _fill(palette, HIGH)
    rings, readings = {}, {}
    for i, t in enumerate(places):
        rings[Hex(1, i + 1)] = _look([c + (t + shift) * (h - c) for c, h in zip(creek, high)])
        readings[Hex(1, i + 1)] = HIGH
    return readings, rings


def test_two_groups_take_the_two_tints_in_the_palette_order(white_death):
    _, _, _, palette = white_death
    # every hex moved one tint's way: all nearest high ground's tint
    readings, rings = _groups(palette, [0.0, 0.05, -0.05, 0.02, -0.02, 0.0, 1.0, 1.05, 0.95, 1.0], shift=1.0)
    settled = settle(readings, rings, palette)
    assert [settled[Hex(1, n)][0] for n in range(1, 11)] == [CREEK] * 6 + [HIGH] * 4
    assert all(sure > 0.9 and other in (CREEK, HIGH) and other != terrain
               for terrain, sure, other in settled.values())


def test_one_group_or_groups_run_together_leave_the_reading_alone(white_death):
    _, _, _, palette = white_death
    readings, rings = _groups(palette, [1.0, 1.05, 0.95, 1.02, 0.98, 1.0, 1.01, 0.99])
    assert settle(readings, rings, palette) == {}
    # hexes spread evenly from one tint to the other: no two groups to go by
    readings, rings = _groups(palette, [k / 9 for k in range(10)])
    assert settle(readings, rings, palette) == {}
    # a single hex of the other tint is no group
    readings, rings = _groups(palette, [0.0] + [1.0] * 8)
    assert settle(readings, rings, palette) == {}
    # two groups much nearer than the palette's two tints: not these two kinds
    readings, rings = _groups(palette, [0.0] * 5 + [0.2] * 5)
    assert settle(readings, rings, palette) == {}


def test_creek_and_high_ground_under_blur_cast_and_jpeg(white_death):
    """On the small map blurred, cast (clear's red clipped) and saved as JPEG, the correction
    leaves the creek's tint nearest high ground's drawing; the two groups on the picture put
    each right."""
    m, rendered, layout, palette = white_death
    draft = draft_terrain(m, jpeg(cast(blur(rendered.image))), layout, palette)
    wrong = [m.grid.format(h) for h, d in draft.hexes.items() if d.terrain != (m.terrain(h), m.features(h))]
    assert wrong == []
