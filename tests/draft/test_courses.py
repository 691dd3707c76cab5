"""Hexside features read again once every side was read, on hand-made drafts (no picture drawn):
a course hidden under a name or glimpsed through a blur, a kind that breaks its course, a
feature barely found where the fills' grain shows it along many like sides."""

from __future__ import annotations

from doubt_cases import LOW, draft_with, river_course
from toolkit.draft._courses import HIDDEN_RUN, course_kinds, fills_grain, hidden_courses
from toolkit.draft._sidedoubt import COMMON, SIDE_PEERS
from toolkit.draft._sureness import Doubt
from toolkit.hexes import Grid, Hexside


def _river(hidden: dict, kind="river"):
    """A river down the hexsides between columns 3 and 4 with the sides ``hidden`` (index ->
    what was glimpsed there, None under a name) read without it; the grid, the draft, the course."""
    grid = Grid(1, 7, 1, 7)
    course = river_course(grid)
    draft = draft_with(grid, {})
    draft.hexsides = {side: (kind, 1.0) for i, side in enumerate(course) if i not in hidden}
    return grid, draft, course, {course[i]: seen for i, seen in hidden.items()}


def test_a_side_of_a_course_under_a_name_is_read_as_the_course_and_listed():
    grid, draft, course, hidden = _river({2: None})
    hidden_courses(grid, draft, hidden)
    assert draft.hexsides[course[2]][0] == "river"
    assert draft.side_confidence[course[2]] < LOW
    assert [d.candidates for d in draft.side_doubts[course[2]]] == [("river", "no feature")]


def test_a_run_of_glimpsed_sides_between_two_ends_of_a_course_is_read_as_the_course():
    assert HIDDEN_RUN == 2
    grid, draft, course, hidden = _river({1: ("river",), 2: ("minor_river", "river")})
    hidden_courses(grid, draft, hidden)
    assert {draft.hexsides[course[1]][0], draft.hexsides[course[2]][0]} == {"river"}
    grid, draft, course, hidden = _river({1: ("river",), 2: ("river",), 3: ("river",)})  # too long a run
    hidden_courses(grid, draft, hidden)
    assert not set(hidden) & set(draft.hexsides)


def test_a_side_glimpsed_as_another_kind_or_at_a_courses_end_is_not_read_as_the_course():
    grid, draft, course, hidden = _river({2: ("ford",)})  # a ford among rivers is no river
    hidden_courses(grid, draft, hidden)
    assert course[2] not in draft.hexsides
    grid, draft, course, hidden = _river({0: ("river",)})  # the course starts there (a source)
    hidden_courses(grid, draft, hidden)
    assert course[0] not in draft.hexsides


def test_a_kind_breaking_its_course_is_read_as_the_runner_up_that_fits_it():
    grid, draft, course, _ = _river({})
    draft.hexsides[course[0]] = ("lake", 1.0)  # a lake's shore meets the river at one end
    draft.hexsides[course[1]] = ("major_river", 1.0)  # a river through the lake's narrows, blurred
    draft.side_doubts[course[1]] = [Doubt("hexside", 0.4, ("major_river", "lake and river"), course[1])]
    course_kinds(grid, draft, {course[1]: (("lake", "river"),)})
    assert draft.hexsides[course[1]][0] == "river" and draft.more_hexsides[course[1]] == ("lake",)
    assert draft.side_doubts[course[1]][0].candidates == ("lake and river", "major_river")
    # a runner-up the course does not have is no better
    draft.hexsides[course[3]] = ("major_river", 1.0)
    course_kinds(grid, draft, {course[3]: ("stream",)})
    assert draft.hexsides[course[3]][0] == "major_river"


def test_a_feature_barely_found_where_like_sides_often_glimpse_it_is_the_fills_grain():
    grid = Grid(1, 9, 1, 9)
    draft = draft_with(grid, {})
    for h in grid:  # a band of river-fill hexes down columns 1-5
        draft.hexes[h] = type(draft.hexes[h])(("river_fill" if h.col <= 5 else "clear", ()), 1.0)
    every = sorted({Hexside.of(h, o) for h in grid for o in grid.neighbours(h)}, key=lambda s: (s.a, s.b))
    water = [s for s in every if s.a.col <= 5 and s.b.col <= 5]
    dry = [s for s in every if s.a.col > 5 and s.b.col > 5]
    assert len(water) >= SIDE_PEERS
    often = water[1::int(1 / COMMON) // 2]  # a ford glimpsed along twice the share that explains it
    glimpsed = {s: (("ford",), 0.4) if s in often else ((), 0.0) for s in every}
    found = {water[0]: ("ford", 0.714), dry[0]: ("ford", 0.714), water[-1]: ("ford", 1.0)}
    for side in found:
        del glimpsed[side]
        draft.side_doubts[side] = [Doubt("hexside", 0.38, ("ford",), side, (found[side][1], 0.9))]
    draft.hexsides = dict(found)
    fills_grain(draft, glimpsed)
    assert water[0] not in draft.hexsides  # barely found among many like glimpses: the grain
    assert draft.side_confidence[water[0]] < LOW  # still listed
    assert draft.hexsides[dry[0]][0] == "ford"  # no glimpses among clear hexes: a ford
    assert draft.hexsides[water[-1]][0] == "ford"  # found along all its samples: a ford
