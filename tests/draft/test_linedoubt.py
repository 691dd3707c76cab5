"""How sure the roads and railways read on a picture are, on hand-made drafts (no picture
drawn): a road that stops inside the map, two like-coloured lines read on one step, a line seen
on part of its course, a picture whose lines show softly, a stroke a line beside it explains."""

from __future__ import annotations

from doubt_cases import LINE_GLIMPSE, LOW, draft_with, glimpse
from toolkit.draft._linedoubt import LINE_END, explained_glimpses, line_ends, line_sureness, resoften, soft_lines
from toolkit.draft._sureness import EXPLAINED, Doubt
from toolkit.hexes import Grid, Hex, Hexside


def _line_ends(grid: Grid, links: dict) -> dict[Hex, float]:
    draft = draft_with(grid, links)
    return line_ends(grid, draft.links, draft.hexes)


def test_a_road_stopping_inside_the_map_lists_its_end_and_where_it_would_run_on():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    broken = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:]) if (a.row, b.row) != (4, 5)}
    doubted = _line_ends(grid, broken)
    assert doubted == {Hex(4, 4): LINE_END, Hex(4, 5): LINE_END}  # both broken ends; the map's edges are not ends
    whole = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    assert _line_ends(grid, whole) == {}


def test_a_line_stopping_where_another_runs_on_lists_that_lines_next_hexes():
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(1, 10)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    # a minor road up from the bottom, missed where it runs beside the road from 0406 on
    for a, b in zip(column[5:], column[6:]):
        links[(a, b)]["minor_road"] = 1.0
    del links[(Hex(4, 6), Hex(4, 7))]["minor_road"]
    doubted = _line_ends(grid, links)
    assert {Hex(4, 7), Hex(4, 6), Hex(4, 5)} <= set(doubted)  # the end, straight on, and the road on from there


def test_a_line_stopping_on_another_line_lists_that_lines_next_hexes():
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(1, 10)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    joins = grid.neighbours(Hex(4, 5))[1]  # a minor road comes in from the side and stops on the road
    links[(joins, Hex(4, 5))] = {"minor_road": 1.0}
    doubted = _line_ends(grid, links)
    assert {Hex(4, 5), Hex(4, 4), Hex(4, 6)} <= set(doubted)  # it may run on beside the road either way


def test_a_line_stopping_beside_a_glimpsed_stroke_lists_the_hex_across_it():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 5)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    draft = draft_with(grid, links)
    turn = grid.neighbours(Hex(4, 4))[1]  # the road turns off here, seen on part of its course only
    assert turn != Hex(4, 5) and turn != Hex(4, 3)
    assert turn not in line_ends(grid, draft.links, draft.hexes)
    assert turn in line_ends(grid, draft.links, draft.hexes, {Hexside.of(Hex(4, 4), turn)})


def test_a_line_stopping_beside_the_maps_edge_lists_the_edge_hexes_beside_it():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(2, r) for r in range(3, 8)]  # up column 2, turning off to the edge unread
    doubted = _line_ends(grid, {(a, b): {"rail": 1.0} for a, b in zip(column, column[1:])})
    edge = [n for n in grid.neighbours(Hex(2, 3)) if n.col == 1]
    assert edge and set(edge) <= set(doubted)


def test_a_spur_lists_its_tip_and_the_hex_it_leaves():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    links[(Hex(4, 4), grid.neighbours(Hex(4, 4))[1])] = {"road": 1.0}
    doubted = _line_ends(grid, links)
    assert Hex(4, 4) in doubted and grid.neighbours(Hex(4, 4))[1] in doubted


def test_two_like_lines_on_one_step_seen_on_fewer_than_all_samples_are_listed():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    links = {(a, b): {"road": 1.0} for a, b in zip(column, column[1:])}
    links[(Hex(4, 3), Hex(4, 4))] = {"road": 1.0, "minor_road": 0.75}
    assert {Hex(4, 3), Hex(4, 4)} <= set(_line_ends(grid, links))


def test_a_line_stopping_before_a_glimpsed_step_lists_the_hex_beyond_that_step_too():
    # a minor road lost under a hex id and a name where it meets a road: its last step seen on
    # part of its course, the step after it not at all
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(4, 10)]
    links = {(a, b): {"minor_road": 1.0} for a, b in zip(column, column[1:])}
    draft = draft_with(grid, links)
    glimpse = {Hexside.of(Hex(4, 4), Hex(4, 3))}
    assert Hex(4, 2) not in line_ends(grid, draft.links, draft.hexes)
    doubted = line_ends(grid, draft.links, draft.hexes, glimpse)
    assert {Hex(4, 4), Hex(4, 3), Hex(4, 2)} <= set(doubted)
    assert Hex(4, 1) not in doubted  # one glimpsed step is followed, not a whole unread course


def test_on_a_sharp_picture_a_line_stopping_short_is_followed_straight_on_only_where_a_stroke_shows():
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(5, 10)]
    links = {(a, b): {"minor_road": 1.0} for a, b in zip(column, column[1:])}  # stops in 0405
    draft = draft_with(grid, links)
    on = Hexside.of(Hex(4, 5), Hex(4, 4))
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes)  # no telling what was seen
    assert Hex(4, 4) not in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links))
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links) | {on})
    # a road running on where the minor road stops: the two may share its course
    draft.links[on] = {"road": 1.0}
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links))


def test_a_line_seen_on_part_of_its_course_is_doubted_only_near_the_share_it_needs():
    assert line_sureness(None, 0.0) == 1.0 and line_sureness(1.0, 1.0) == 1.0
    # the more of a line was seen the less sure its absence: on a sharp picture from nine tenths
    # of what it needs on a flat fill, among trees (whose dark strokes look like lines) only
    # when it nearly was found; on a soft one from about two thirds
    assert line_sureness(None, 0.6) >= LOW > line_sureness(None, 0.7)
    assert line_sureness(None, 0.7, textured=True) >= LOW > line_sureness(None, 0.84, textured=True)
    assert line_sureness(None, 0.5, soft=True) < LOW and line_sureness(None, 0.6, True, soft=True) < LOW
    assert line_sureness(0.75, 0.75) < LOW <= line_sureness(0.9, 0.9)  # a third found on 0.8 are wrong
    assert line_sureness(0.85, 0.85, textured=True) < LOW  # found on just the share it needs


def test_on_a_soft_picture_a_line_half_seen_among_trees_is_doubted_again():
    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    sharp = {(a, b): {"rail": 1.0} for a, b in zip(column, column[1:])}
    assert not soft_lines(draft_with(grid, sharp).links)
    soft = {**sharp, (column[0], column[1]): {"rail": 0.9}}  # a link of six seen on fewer than all its steps
    draft = draft_with(grid, soft)
    assert soft_lines(draft.links)
    side = Hexside.of(Hex(2, 2), Hex(2, 3))
    evidence = (None, 0.7, True)  # a rail among trees, seen crossing, lost in one hex
    draft.side_doubts[side] = [Doubt("line", line_sureness(*evidence), ("no line",), side, evidence)]
    assert draft.side_doubts[side][0].confidence >= LOW
    resoften(draft)
    assert draft.side_doubts[side][0].confidence < LOW and draft.side_confidence[side] < LOW


def test_a_stroke_glimpsed_beside_a_line_found_on_a_neighbouring_step_is_that_line():
    grid = Grid(1, 7, 1, 7)
    a = Hex(4, 4)
    c, b, far = grid.neighbours(a)[0], grid.neighbours(a)[1], grid.neighbours(a)[3]
    assert grid.adjacent(b, c) and not grid.adjacent(far, c)
    draft = draft_with(grid, {(a, c): {"road": 1.0}})  # a curved road from A to C passes B's corner
    glimpse(draft, Hexside.of(a, b), "line", LINE_GLIMPSE, line_sureness(*LINE_GLIMPSE))
    # a stroke with no line found beside it: a line may be missed there
    glimpse(draft, Hexside.of(a, far), "line", LINE_GLIMPSE, line_sureness(*LINE_GLIMPSE))
    assert draft.side_confidence[Hexside.of(a, b)] < LOW and draft.side_confidence[Hexside.of(a, far)] < LOW
    explained_glimpses(grid, draft)
    assert draft.side_confidence[Hexside.of(a, b)] == EXPLAINED >= LOW
    assert draft.side_confidence[Hexside.of(a, far)] < LOW
