"""What makes a reading doubtful, on hand-made readings (no picture drawn): a road that stops
inside the map, two like-coloured lines read on one step, and a hexside profile whose ink is
no drawn feature (a scan's halo beside a grid line, a hatching stroke, the neighbour's fill)."""

from __future__ import annotations

from toolkit.draft.draft import LINE_END, Draft, HexDraft, _line_ends
from toolkit.draft.hexsides import _band, side_ink
from toolkit.hexes import Grid, Hex, Hexside

IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
CLEAR = (238, 232, 200)
GRID = (74, 74, 68)
STREAM, EDGE = (59, 125, 192), (31, 79, 128)


def _draft(grid: Grid, links: dict) -> Draft:
    draft = Draft(hexes={h: HexDraft(("clear", ()), 1.0) for h in grid})
    draft.links = {Hexside.of(a, b): codes for (a, b), codes in links.items()}
    return draft


def test_a_road_stopping_inside_the_map_lists_its_end_and_where_it_would_run_on():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    broken = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:]) if (a.row, b.row) != (4, 5)}
    doubted = _line_ends(grid, _draft(grid, broken))
    assert doubted == {Hex(4, 4): LINE_END, Hex(4, 5): LINE_END}  # both broken ends; the map's edges are not ends
    whole = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    assert _line_ends(grid, _draft(grid, whole)) == {}


def test_a_spur_lists_its_tip_and_the_hex_it_leaves():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    links[(Hex(4, 4), grid.neighbours(Hex(4, 4))[1])] = {"road": 1.0}
    doubted = _line_ends(grid, _draft(grid, links))
    assert Hex(4, 4) in doubted and grid.neighbours(Hex(4, 4))[1] in doubted


def test_two_like_lines_on_one_step_seen_on_fewer_than_all_samples_are_listed():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    links[(Hex(4, 3), Hex(4, 4))] = {"road": 1.0, "minor_road": 0.75}
    assert {Hex(4, 3), Hex(4, 4)} <= set(_line_ends(grid, _draft(grid, links)))


def _profile(colours, fill=CLEAR):
    return [(k - len(colours) // 2, c, fill) for k, c in enumerate(colours)]


def _stream_band(colours, locals_=(CLEAR, CLEAR)):
    body, ink = side_ink(STREAM, EDGE, IDENTITY)
    return _band(_profile(colours), body, ink, 2.0, (STREAM, EDGE), GRID, IDENTITY, locals_)


def test_a_stream_drawn_on_the_hexside_is_one_band_of_its_colour():
    drawn, inked, strength = _stream_band([CLEAR] * 4 + [EDGE, STREAM, STREAM, EDGE] + [CLEAR] * 4)
    assert drawn >= 3.5 and inked >= 3.5 and strength == 1.0


def test_a_grid_line_and_its_halo_are_no_feature():
    halo = (131, 187, 237)  # a sharpened or resampled scan brightens the fill beside a dark line
    fill = (110, 154, 192)
    body, ink = side_ink((169, 211, 238), EDGE, IDENTITY)  # a ford: pale with dark edges
    profile = _profile([fill] * 5 + [GRID, halo] + [fill] * 5, fill)
    drawn, inked, _ = _band(profile, body, ink, 2.0, ((169, 211, 238), EDGE), GRID, IDENTITY, (fill, fill))
    assert drawn < 1.5 and inked < 1.5


def test_where_two_fills_meet_their_blend_is_no_ink():
    blue = (127, 178, 221)  # a river terrain's fill beside clear: no stream along their side
    colours = [blue] * 6 + [(180, 205, 210)] + [CLEAR] * 5
    profile = [(k - 6, c, blue if k < 6 else CLEAR) for k, c in enumerate(colours)]
    body, ink = side_ink(STREAM, EDGE, IDENTITY)
    drawn, inked, _ = _band(profile, body, ink, 2.0, (STREAM, EDGE), GRID, IDENTITY, (blue, CLEAR))
    assert drawn == 0.0 and inked < 1.0


def test_a_hexside_feature_breaking_its_course_is_listed_with_both_kinds():
    from toolkit.draft.draft import KIND_BREAK, _side_kinds

    grid = Grid(1, 7, 1, 7)
    draft = _draft(grid, {})
    # a river down the hexsides between columns 3 and 4
    course = [Hexside.of(Hex(3, 2), Hex(4, 2)), Hexside.of(Hex(4, 2), Hex(3, 3)), Hexside.of(Hex(3, 3), Hex(4, 3)),
              Hexside.of(Hex(4, 3), Hex(3, 4)), Hexside.of(Hex(3, 4), Hex(4, 4))]
    for side in course:
        assert grid.adjacent(side.a, side.b)
    draft.hexsides = {side: ("river", 1.0) for side in course}
    assert _side_kinds(grid, draft) == {}
    draft.hexsides[course[2]] = ("major_river", 1.0)  # one side read wider than its course
    doubts = _side_kinds(grid, draft)
    assert list(doubts) == [course[2]]
    assert doubts[course[2]].confidence == KIND_BREAK and doubts[course[2]].candidates == ("major_river", "river")
    draft.hexsides[course[3]] = ("major_river", 1.0)  # where a river widens, both kinds meet: no break
    assert _side_kinds(grid, draft) == {}
    draft.hexsides[course[3]] = ("lake", 1.0)  # a lake's shore meets the course: still a break
    assert _side_kinds(grid, draft)[course[2]].candidates == ("major_river", "lake", "river")
