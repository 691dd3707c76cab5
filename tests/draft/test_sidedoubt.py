"""Hexside features judged along their courses, on hand-made drafts (no picture drawn): a kind
that breaks its course, a gap in a course, a doubt the whole course shares, and sightings common
to the sides between hexes read alike (the fills' own grain)."""

from __future__ import annotations

from doubt_cases import LINE_GLIMPSE, LOW, draft_with, glimpse, reading, river_course
from toolkit.draft._linedoubt import line_sureness
from toolkit.draft._sidedoubt import KIND_BREAK, common_sightings, course_doubts, course_gaps, kind_breaks, side_sureness
from toolkit.draft._sureness import EXPLAINED, Doubt
from toolkit.hexes import Grid, Hexside


def test_a_hexside_feature_breaking_its_course_is_listed_with_both_kinds():
    grid = Grid(1, 7, 1, 7)
    draft = draft_with(grid, {})
    course = river_course(grid)
    draft.hexsides = {side: ("river", 1.0) for side in course}
    assert kind_breaks(grid, draft.hexsides) == {}
    draft.hexsides[course[2]] = ("major_river", 1.0)  # one side read wider than its course
    doubts = kind_breaks(grid, draft.hexsides)
    assert list(doubts) == [course[2]]
    assert doubts[course[2]].confidence == KIND_BREAK and doubts[course[2]].candidates == ("major_river", "river")
    draft.hexsides[course[3]] = ("major_river", 1.0)  # where a river widens, both kinds meet: no break
    assert kind_breaks(grid, draft.hexsides) == {}
    draft.hexsides[course[3]] = ("lake", 1.0)  # a lake's shore meets the course: still a break
    assert kind_breaks(grid, draft.hexsides)[course[2]].candidates == ("major_river", "lake", "river")


def test_a_hexside_course_with_one_side_missing_lists_that_side():
    grid = Grid(1, 7, 1, 7)
    course = river_course(grid)
    every = {Hexside.of(h, o) for h in grid for o in grid.neighbours(h)}
    hexsides = {side: ("river", 1.0) for side in course}
    assert course_gaps(grid, hexsides, every) == {}
    del hexsides[course[2]]  # the river drawn as a curve into the hex beside the side: missed
    gaps = course_gaps(grid, hexsides, every)
    assert list(gaps) == [course[2]] and gaps[course[2]].candidates == ("no feature", "river")
    assert gaps[course[2]].confidence < LOW
    del hexsides[course[0]]  # where a course just starts (a source), nothing is missing
    assert list(course_gaps(grid, {s: v for s, v in hexsides.items() if s != course[1]}, every)) == []


def test_a_hexside_doubt_shared_by_its_whole_course_is_the_pictures_but_a_lone_one_is_listed():
    grid = Grid(1, 7, 1, 7)
    course = river_course(grid)

    def drafted(unsure_sides):
        draft = draft_with(grid, {})
        draft.hexsides = {side: ("stream", 1.0) for side in course}
        for side in unsure_sides:  # found along all its samples, the reader unsure of its kind
            draft.side_doubts[side] = [Doubt("hexside", 0.4, ("stream",), side, (1.0, 1.0))]
            draft.side_confidence[side] = 0.4
        course_doubts(grid, draft)
        return draft
    blurred = drafted(course)  # a blur over the whole course: every side alike
    assert blurred.side_confidence[course[2]] >= LOW
    assert blurred.side_confidence[course[0]] < LOW  # where the course stops there is no telling
    ford = drafted([course[2]])  # a ford's pale middle among a stream's sure sides
    assert ford.side_confidence[course[2]] < LOW


def _two_regions(west: str):
    """A 9 x 9 map read as ``west`` in columns 1-5 and clear beyond: the grid, the readings,
    every side, an empty draft, and the sides within each region (sorted)."""
    grid = Grid(1, 9, 1, 9)
    readings = {h: reading(base=west if h.col <= 5 else "clear") for h in grid}
    every = {Hexside.of(h, o) for h in grid for o in grid.neighbours(h)}
    inside = sorted((s for s in every if s.a.col <= 5 and s.b.col <= 5), key=lambda s: (s.a, s.b))
    outside = sorted((s for s in every if s.a.col > 5 and s.b.col > 5), key=lambda s: (s.a, s.b))
    return grid, readings, every, draft_with(grid, {}), inside, outside


def _common_sightings(west: str, reader: str, evidence: tuple, sure: float, every: int) -> tuple[float, float]:
    """A glimpse on every ``every``-th side inside a region read ``west`` and on one side among
    clear hexes beyond it, judged by :func:`common_sightings`: how sure the region's first side
    and the lone one are then."""
    grid, readings, sides, draft, inside, outside = _two_regions(west)
    for side in inside[::every] + outside[:1]:
        glimpse(draft, side, reader, evidence, sure)
    common_sightings(draft, readings, sides)
    return draft.side_confidence[inside[0]], draft.side_confidence[outside[0]]


def test_a_hexside_sighting_common_among_like_sides_is_the_fill_not_a_feature():
    # a compressed water fill glimpsed as ink along a third of its sides, a stream missed along
    # one side among clear hexes
    water, dry = _common_sightings("river_fill", "hexside", (None, 0.6), side_sureness(None, 0.3, 0.6), 3)
    assert water == EXPLAINED >= LOW > dry


def test_a_line_glimpsed_across_many_like_sides_is_the_fills_strokes():
    # a forest's dark strokes seen as a line across a quarter of its sides, a road lost on a flat fill
    forest, clear = _common_sightings("forest", "line", LINE_GLIMPSE, line_sureness(*LINE_GLIMPSE), 4)
    assert forest >= LOW > clear


def test_a_hexside_feature_found_on_few_more_samples_than_it_needs_is_even_odds_at_most():
    assert side_sureness(0.7, 0.9, 0.6) < LOW <= side_sureness(0.9, 0.9, 0.6)
    assert side_sureness(None, 0.3, 0.6) == 0.3
