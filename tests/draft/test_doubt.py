"""What makes a reading doubtful, on hand-made readings (no picture drawn): a road that stops
inside the map, two like-coloured lines read on one step, a gap in a river's course, a hexside
profile whose ink is no drawn feature (a scan's halo beside a grid line, a hatching stroke, the
neighbour's fill); and what explains a doubt away (a line's ink, neighbours that agree)."""

from __future__ import annotations

from dataclasses import replace

from toolkit.draft.doubt import KIND_BREAK, LINE_END, kind_breaks, line_ends
from toolkit.draft.draft import Draft, HexDraft
from toolkit.draft.hexsides import _band, side_ink
from toolkit.hexes import Grid, Hex, Hexside

LOW = 0.5
IDENTITY = ((1.0, 1.0, 1.0), (0.0, 0.0, 0.0))
CLEAR = (238, 232, 200)
GRID = (74, 74, 68)
STREAM, EDGE = (59, 125, 192), (31, 79, 128)


def _draft(grid: Grid, links: dict) -> Draft:
    draft = Draft(hexes={h: HexDraft(("clear", ()), 1.0) for h in grid})
    draft.links = {Hexside.of(a, b): codes for (a, b), codes in links.items()}
    return draft


def _line_ends(grid: Grid, links: dict) -> dict:
    draft = _draft(grid, links)
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
    draft = _draft(grid, links)
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
    grid = Grid(1, 7, 1, 7)
    draft = _draft(grid, {})
    # a river down the hexsides between columns 3 and 4
    course = [Hexside.of(Hex(3, 2), Hex(4, 2)), Hexside.of(Hex(4, 2), Hex(3, 3)), Hexside.of(Hex(3, 3), Hex(4, 3)),
              Hexside.of(Hex(4, 3), Hex(3, 4)), Hexside.of(Hex(3, 4), Hex(4, 4))]
    for side in course:
        assert grid.adjacent(side.a, side.b)
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


# -- the terrain readers' doubts ---------------------------------------------------------------

def _reading(base="clear", features=(), distance=1.0, f_distance=1.0, **kw):
    from toolkit.draft.doubt import Reading

    return Reading(base, kw.pop("base_sure", 0.95), distance, "rough", tuple(features), kw.pop("features_sure", 0.95),
                   f_distance, (), **kw)


def _palette(colours: dict):
    from toolkit.draft.palette import Palette
    from toolkit.draft.sample import Look

    palette = Palette()
    for terrain, colour in colours.items():
        palette.add(terrain, Look(colour, 1.0, colour, (0.0, 0.0, 0.0)))
    return palette


def _confidence(doubts):
    return min(d.confidence for d in doubts)


def test_a_hex_unlike_its_peers_is_listed_naming_what_it_was_read_as():
    from toolkit.draft.doubt import PEERS, hex_doubts

    palette = _palette({("clear", ()): (238, 232, 200), ("rough", ()): (200, 180, 140)})
    readings = {Hex(1, r): _reading(distance=2.0 + r % 3) for r in range(1, PEERS + 5)}
    readings[Hex(2, 1)] = _reading(distance=40.0)  # a symbol the palette does not draw
    doubts = hex_doubts(readings, palette)
    assert _confidence(doubts[Hex(2, 1)]) < LOW
    unlike = next(d for d in doubts[Hex(2, 1)] if d.reader == "terrain unlike its peers")
    assert unlike.candidates == ("clear", "rough")
    assert all(_confidence(doubts[h]) >= LOW for h in readings if h != Hex(2, 1))
    few = {Hex(1, 1): _reading(distance=2.0), Hex(1, 2): _reading(distance=40.0)}  # too few peers to judge by
    assert all(d.reader != "terrain unlike its peers" for ds in hex_doubts(few, palette).values() for d in ds)


def test_two_kinds_drawn_alike_are_listed_naming_both():
    from toolkit.draft.doubt import hex_doubts

    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("strongpoint",)): (90, 90, 90),
                        ("clear", ("soviet_strongpoint",)): (90, 90, 91)})
    doubts = hex_doubts({Hex(1, 1): _reading(features=("strongpoint",)), Hex(1, 2): _reading()}, palette)
    alike = next(d for d in doubts[Hex(1, 1)] if d.reader == "drawn alike")
    assert alike.confidence < LOW and alike.candidates == ("clear+strongpoint", "clear+soviet_strongpoint")
    assert _confidence(doubts[Hex(1, 2)]) >= LOW


def test_an_overlay_read_where_a_line_crosses_is_listed_but_no_overlay_there_is_not():
    from toolkit.draft.doubt import hex_doubts

    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("village",)): (236, 228, 196)})  # a symbol
    doubts = hex_doubts({Hex(1, 1): _reading(features=("village",), in_context=True),
                         Hex(1, 2): _reading(in_context=True), Hex(1, 3): _reading(features=("village",))}, palette)
    assert _confidence(doubts[Hex(1, 1)]) < LOW
    assert _confidence(doubts[Hex(1, 2)]) >= LOW and _confidence(doubts[Hex(1, 3)]) >= LOW


def test_an_overlay_covering_the_hex_read_where_a_line_crosses_is_listed_only_by_its_margin():
    from toolkit.draft.doubt import covers, hex_doubts

    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("woods",)): (120, 170, 90),
                        ("clear", ("village",)): (236, 228, 196)})
    assert covers(palette) == {("clear", ("woods",))}  # woods change the ring; a village's symbol does not
    doubts = hex_doubts({Hex(1, 1): _reading(features=("woods",), in_context=True),
                         Hex(1, 2): _reading(features=("woods",), in_context=True, features_sure=0.4)}, palette)
    by_line = [d for d in doubts[Hex(1, 1)] if d.reader == "overlay by a line"]
    assert by_line and by_line[0].confidence >= LOW  # doubted by the reader's margin alone
    assert _confidence(doubts[Hex(1, 2)]) < LOW


def test_a_line_seen_on_part_of_its_course_is_doubted_only_near_the_share_it_needs():
    from toolkit.draft.doubt import line_sureness, side_sureness

    assert line_sureness(None, 0.0) == 1.0 and line_sureness(1.0, 1.0) == 1.0
    # the more of a line was seen the less sure its absence: on a sharp picture from nine tenths
    # of what it needs on a flat fill, among trees (whose dark strokes look like lines) only
    # when it nearly was found; on a soft one from about two thirds
    assert line_sureness(None, 0.6) >= LOW > line_sureness(None, 0.7)
    assert line_sureness(None, 0.7, textured=True) >= LOW > line_sureness(None, 0.84, textured=True)
    assert line_sureness(None, 0.5, soft=True) < LOW and line_sureness(None, 0.6, True, soft=True) < LOW
    assert line_sureness(0.75, 0.75) < LOW <= line_sureness(0.9, 0.9)  # a third found on 0.8 are wrong
    assert line_sureness(0.85, 0.85, textured=True) < LOW  # found on just the share it needs
    # a hexside feature found on few more samples than it needs is even odds at most
    assert side_sureness(0.7, 0.9, 0.6) < LOW <= side_sureness(0.9, 0.9, 0.6)
    assert side_sureness(None, 0.3, 0.6) == 0.3


def test_a_listed_hex_says_which_readings_doubt_it_and_what_else_it_could_be():
    from toolkit.draft.doubt import Doubt, explain

    side = Hexside.of(Hex(3, 4), Hex(4, 4))
    doubts = (Doubt("overlay by a line", 0.4, ("clear+village", "clear+town")), Doubt("hexside", 0.45, ("river", "stream"), side),
              Doubt("hexside", 0.45, ("river", "stream"), side), Doubt("terrain", 0.9, ("clear", "rough")))
    assert explain(doubts, 0.5, lambda s: f"{s.a.col}{s.a.row}/{s.b.col}{s.b.row}") == \
        "overlay by a line: clear+village or clear+town; hexside 34/44: river or stream"


def test_a_hex_missing_the_overlay_of_the_region_around_it_is_listed():
    from toolkit.draft.doubt import HOLE, hex_doubts

    grid = Grid(1, 5, 1, 5)
    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("pocket",)): (200, 190, 220)})
    middle = Hex(3, 3)

    def holes(around: int, features=()):
        readings = {h: _reading(features=("pocket",) if h in grid.neighbours(middle)[:around] else ()) for h in grid}
        readings[middle] = _reading(features=features)
        return [d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "overlay around it"]

    assert holes(HOLE)[0].confidence < LOW and holes(HOLE)[0].candidates == ("clear", "clear+pocket")
    assert not holes(HOLE - 1)  # the region's edge
    # a city's fill hides the pocket's hatching: one fewer neighbour will do
    city = holes(HOLE - 1, ("city",))
    assert city and city[0].candidates == ("clear+city", "clear+city+pocket")
    assert not holes(HOLE - 2, ("city",))


def test_on_a_soft_picture_a_line_half_seen_among_trees_is_doubted_again():
    from toolkit.draft.doubt import Doubt, line_sureness, resoften, soft_lines

    grid = Grid(1, 7, 1, 7)
    column = [Hex(4, r) for r in range(1, 8)]
    sharp = {(a, b): {"rail": 1.0} for a, b in zip(column, column[1:])}
    assert not soft_lines(_draft(grid, sharp).links)
    soft = {**sharp, (column[0], column[1]): {"rail": 0.9}}  # a link of six seen on fewer than all its steps
    draft = _draft(grid, soft)
    assert soft_lines(draft.links)
    side = Hexside.of(Hex(2, 2), Hex(2, 3))
    evidence = (None, 0.7, True)  # a rail among trees, seen crossing, lost in one hex
    draft.side_doubts[side] = [Doubt("line", line_sureness(*evidence), ("no line",), side, evidence)]
    assert draft.side_doubts[side][0].confidence >= LOW
    resoften(draft)
    assert draft.side_doubts[side][0].confidence < LOW and draft.side_confidence[side] < LOW


def test_a_terrain_mismatch_says_why_the_picture_is_unsure():
    from toolkit.draft.against import mismatch_findings, mismatches
    from toolkit.draft.doubt import Doubt
    from toolkit.io import load_game

    game_map = load_game("tutorial").main_map
    hex = next(iter(game_map.grid))
    data = (game_map.terrain(hex), tuple(game_map.features(hex)))
    other = ("clear" if data[0] != "clear" else "woods", ())
    draft = Draft(hexes={hex: HexDraft(other, 0.2, data, 1.0, (Doubt("drawn alike", 0.2, ("+".join((other[0],) + other[1]), "x")),))})
    found = mismatches(game_map, draft)
    assert [m.hex for m in found] == [hex] and found[0].why == f"drawn alike: {other[0]} or x"
    message = mismatch_findings(game_map, found, "scan.png")[0].message
    assert message.endswith(f"(confidence 0.20; drawn alike: {other[0]} or x)")


def test_no_overlay_read_away_from_roads_is_doubted_half_as_much():
    from toolkit.draft.doubt import hex_doubts

    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("village",)): (200, 60, 60)})
    readings = {Hex(1, 1): _reading(features_sure=0.3), Hex(1, 2): _reading(features=("village",), features_sure=0.3),
                Hex(1, 3): _reading(features_sure=0.3, in_context=True)}
    doubts = hex_doubts(readings, palette)
    assert _confidence(doubts[Hex(1, 1)]) >= LOW  # between clear and a village, read clear: not listed
    assert _confidence(doubts[Hex(1, 2)]) < LOW and _confidence(doubts[Hex(1, 3)]) < LOW


def test_a_line_stopping_before_a_glimpsed_step_lists_the_hex_beyond_that_step_too():
    # a minor road lost under a hex id and a name where it meets a road: its last step seen on
    # part of its course, the step after it not at all
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(4, 10)]
    links = {(a, b): {"minor_road": 1.0} for a, b in zip(column, column[1:])}
    draft = _draft(grid, links)
    glimpse = {Hexside.of(Hex(4, 4), Hex(4, 3))}
    assert Hex(4, 2) not in line_ends(grid, draft.links, draft.hexes)
    doubted = line_ends(grid, draft.links, draft.hexes, glimpse)
    assert {Hex(4, 4), Hex(4, 3), Hex(4, 2)} <= set(doubted)
    assert Hex(4, 1) not in doubted  # one glimpsed step is followed, not a whole unread course


def _river(grid):
    # a river down the hexsides between columns 3 and 4
    course = [Hexside.of(Hex(3, 2), Hex(4, 2)), Hexside.of(Hex(4, 2), Hex(3, 3)), Hexside.of(Hex(3, 3), Hex(4, 3)),
              Hexside.of(Hex(4, 3), Hex(3, 4)), Hexside.of(Hex(3, 4), Hex(4, 4))]
    assert all(grid.adjacent(s.a, s.b) for s in course)
    return course


def test_a_hexside_course_with_one_side_missing_lists_that_side():
    from toolkit.draft.doubt import course_gaps

    grid = Grid(1, 7, 1, 7)
    course = _river(grid)
    every = {Hexside.of(h, o) for h in grid for o in grid.neighbours(h)}
    hexsides = {side: ("river", 1.0) for side in course}
    assert course_gaps(grid, hexsides, every) == {}
    del hexsides[course[2]]  # the river drawn as a curve into the hex beside the side: missed
    gaps = course_gaps(grid, hexsides, every)
    assert list(gaps) == [course[2]] and gaps[course[2]].candidates == ("no feature", "river")
    assert gaps[course[2]].confidence < LOW
    del hexsides[course[0]]  # where a course just starts (a source), nothing is missing
    assert list(course_gaps(grid, {s: v for s, v in hexsides.items() if s != course[1]}, every)) == []



def _two_regions(west: str):
    """A 9 x 9 map read as ``west`` in columns 1-5 and clear beyond: the grid, the readings,
    every side, an empty draft, and the sides within each region (sorted)."""
    grid = Grid(1, 9, 1, 9)
    readings = {h: _reading(base=west if h.col <= 5 else "clear") for h in grid}
    every = {Hexside.of(h, o) for h in grid for o in grid.neighbours(h)}
    inside = sorted((s for s in every if s.a.col <= 5 and s.b.col <= 5), key=lambda s: (s.a, s.b))
    outside = sorted((s for s in every if s.a.col > 5 and s.b.col > 5), key=lambda s: (s.a, s.b))
    return grid, readings, every, _draft(grid, {}), inside, outside

def test_a_hexside_sighting_common_among_like_sides_is_the_fill_not_a_feature():
    from toolkit.draft.doubt import EXPLAINED, Doubt, common_sightings, side_sureness

    grid, readings, every, draft, water, dry = _two_regions("river_fill")

    def glimpse(side, partly):
        sure = side_sureness(None, 0.3, 0.6)
        draft.side_doubts[side] = [Doubt("hexside", sure, ("no feature",), side, (None, partly))]
        draft.side_confidence[side] = sure
    for side in water[::3]:  # a compressed water fill glimpsed as ink along a third of its sides
        glimpse(side, 0.6)
    glimpse(dry[0], 0.6)  # a stream missed along one side among clear hexes
    common_sightings(draft, readings, every)
    assert draft.side_confidence[water[0]] == EXPLAINED >= LOW
    assert draft.side_confidence[dry[0]] < LOW


def test_a_stroke_glimpsed_beside_a_line_found_on_a_neighbouring_step_is_that_line():
    from toolkit.draft.doubt import EXPLAINED, Doubt, explained_glimpses, line_sureness

    grid = Grid(1, 7, 1, 7)
    a = Hex(4, 4)
    c, b, far = grid.neighbours(a)[0], grid.neighbours(a)[1], grid.neighbours(a)[3]
    assert grid.adjacent(b, c) and not grid.adjacent(far, c)
    draft = _draft(grid, {(a, c): {"road": 1.0}})  # a curved road from A to C passes B's corner

    def glimpse(side):
        evidence = (None, 0.7, False)
        draft.side_doubts[side] = [Doubt("line", line_sureness(*evidence), ("no line",), side, evidence)]
        draft.side_confidence[side] = draft.side_doubts[side][0].confidence
    glimpse(Hexside.of(a, b))
    glimpse(Hexside.of(a, far))  # a stroke with no line found beside it: a line may be missed there
    assert draft.side_confidence[Hexside.of(a, b)] < LOW and draft.side_confidence[Hexside.of(a, far)] < LOW
    explained_glimpses(grid, draft)
    assert draft.side_confidence[Hexside.of(a, b)] == EXPLAINED >= LOW
    assert draft.side_confidence[Hexside.of(a, far)] < LOW


def test_a_hex_a_line_crosses_or_runs_past_unlike_its_peers_by_the_lines_ink_is_not_listed():
    from toolkit.draft.doubt import PASSING, PEERS, judge

    grid = Grid(1, 6, 1, 6)
    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("village",)): (236, 228, 196)})
    readings = {h: _reading(distance=1.0) for h in grid}
    middle = Hex(3, 3)
    a = grid.neighbours(middle)[0]
    b = next(n for n in grid.neighbours(middle) if grid.adjacent(n, a))
    assert len(readings) >= PEERS
    readings[middle] = _reading(distance=PASSING / 2)  # a road's ink across its ring

    def listed(links):
        draft = _draft(grid, links)
        return judge(grid, draft, readings, palette)[middle][0] < LOW
    assert listed({})
    assert not listed({(a, b): {"road": 1.0}})  # the road runs between two of its neighbours
    readings[middle] = _reading(distance=PASSING / 2, crossed=True)  # a line seen crossing into it
    assert not listed({})
    readings[middle] = _reading(f_distance=PASSING / 2, crossed=True)  # its ink across the centre
    assert not listed({})
    readings[middle] = _reading(distance=PASSING * 2)  # more than a line's ink
    assert listed({(a, b): {"road": 1.0}})


def test_an_overlay_reading_every_neighbour_agrees_with_is_not_listed_for_a_narrow_margin():
    from toolkit.draft.doubt import hex_doubts

    grid = Grid(1, 5, 1, 5)
    palette = _palette({("clear", ()): (238, 232, 200), ("clear", ("pocket",)): (200, 190, 220)})
    middle = Hex(3, 3)

    def overlay_doubt(inside: int):
        readings = {h: _reading(features=("pocket",) if h in grid.neighbours(middle)[:inside] else ()) for h in grid}
        # a faint hatching: read inside the pocket by a narrow margin over no pocket
        readings[middle] = replace(_reading(features=("pocket",), features_sure=0.3), features_runner=())
        return next(d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "overlay").confidence

    assert overlay_doubt(6) >= LOW  # inside the pocket, as all its neighbours are
    assert overlay_doubt(4) < LOW  # at its edge: the margin decides
    # a village missed by a narrow margin: no neighbour has one either, but villages are no region
    readings = {h: _reading(features=("village",) if h == Hex(1, 1) else ()) for h in grid}
    readings[middle] = replace(_reading(features_sure=0.1, in_context=True), features_runner=("village",))
    assert _confidence(hex_doubts(readings, palette, grid)[middle]) < LOW


def test_a_hex_unlike_its_peers_and_unlike_every_neighbour_is_listed():
    from toolkit.draft.doubt import PEERS, UNLIKE, hex_doubts

    grid = Grid(1, 6, 1, 6)
    palette = _palette({("clear", ()): (238, 232, 200), ("hill", ()): (214, 190, 140),
                        ("village", ()): (200, 161, 121)})
    readings = {h: _reading(distance=0.5) for h in grid}
    villages = [Hex(1, 1), Hex(1, 2), Hex(6, 6), Hex(6, 5)] + [Hex(c, 6) for c in range(1, 5)] + [Hex(5, 1), Hex(6, 1)]
    for h in villages:
        readings[h] = _reading("village", distance=4.0)
    assert len(villages) >= PEERS
    middle = Hex(3, 3)
    # a hill's contours, compressed, read as a village's fill: further than its peers, but not by much
    readings[middle] = _reading("village", distance=8.0 + UNLIKE * 0.8)
    for n in grid.neighbours(middle)[:2]:
        readings[n] = _reading("hill")
    doubts = hex_doubts(readings, palette, grid)[middle]
    assert next(d for d in doubts if d.reader == "terrain unlike its peers").confidence >= LOW
    lone = next(d for d in doubts if d.reader == "terrain unlike its peers and neighbours")
    assert lone.confidence < LOW and lone.candidates[:1] == ("village",) and "hill" in lone.candidates
    readings[grid.neighbours(middle)[3]] = _reading("village", distance=4.0)  # a village two hexes wide
    assert _confidence(hex_doubts(readings, palette, grid)[middle]) >= LOW


def test_a_terrain_reading_all_six_neighbours_share_is_not_listed_for_a_narrow_margin():
    from toolkit.draft.doubt import hex_doubts

    grid = Grid(1, 5, 1, 5)
    palette = _palette({("rough", ()): (200, 180, 140), ("hill", ()): (206, 184, 142)})
    middle = Hex(3, 3)

    def terrain_doubt(rough_around: int):
        readings = {h: _reading("rough" if h in grid.neighbours(middle)[:rough_around] else "hill") for h in grid}
        readings[middle] = _reading("rough", base_sure=0.2)  # a colour cast leaves rough and hill close
        return next(d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "terrain").confidence

    assert terrain_doubt(6) >= LOW  # inside a rough region
    assert terrain_doubt(5) < LOW  # at its edge: the margin decides


def test_a_line_glimpsed_across_many_like_sides_is_the_fills_strokes():
    from toolkit.draft.doubt import Doubt, common_sightings, line_sureness

    grid, readings, every, draft, forest, clear = _two_regions("forest")

    def glimpse(side):
        evidence = (None, 0.7, False)
        draft.side_doubts[side] = [Doubt("line", line_sureness(*evidence), ("no line",), side, evidence)]
        draft.side_confidence[side] = draft.side_doubts[side][0].confidence
    for side in forest[::4]:  # a forest's dark strokes seen as a line across a quarter of its sides
        glimpse(side)
    glimpse(clear[0])  # a road lost on a flat fill
    common_sightings(draft, readings, every)
    assert draft.side_confidence[forest[0]] >= LOW
    assert draft.side_confidence[clear[0]] < LOW


def test_a_hexside_doubt_shared_by_its_whole_course_is_the_pictures_but_a_lone_one_is_listed():
    from toolkit.draft.doubt import Doubt, course_doubts

    grid = Grid(1, 7, 1, 7)
    course = _river(grid)

    def drafted(unsure_sides):
        draft = _draft(grid, {})
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


def test_on_a_sharp_picture_a_line_stopping_short_is_followed_straight_on_only_where_a_stroke_shows():
    grid = Grid(1, 7, 1, 9)
    column = [Hex(4, r) for r in range(5, 10)]
    links = {(a, b): {"minor_road": 1.0} for a, b in zip(column, column[1:])}  # stops in 0405
    draft = _draft(grid, links)
    on = Hexside.of(Hex(4, 5), Hex(4, 4))
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes)  # no telling what was seen
    assert Hex(4, 4) not in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links))
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links) | {on})
    # a road running on where the minor road stops: the two may share its course
    draft.links[on] = {"road": 1.0}
    assert Hex(4, 4) in line_ends(grid, draft.links, draft.hexes, sighted=set(draft.links))
