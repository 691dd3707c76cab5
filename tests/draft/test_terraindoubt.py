"""The terrain readers' doubts, on hand-made readings (no picture drawn): a hex unlike its peers,
two kinds drawn alike, an overlay read where a line crosses, a hole in a region; and neighbours
that agree with a reading, which explain a narrow margin away."""

from __future__ import annotations

from dataclasses import replace

from doubt_cases import LOW, least_sure, palette_of, reading
from toolkit.draft._terraindoubt import HOLE, PEERS, UNLIKE, covers, hex_doubts
from toolkit.hexes import Grid, Hex


def test_a_hex_unlike_its_peers_is_listed_naming_what_it_was_read_as():
    palette = palette_of({("clear", ()): (238, 232, 200), ("rough", ()): (200, 180, 140)})
    readings = {Hex(1, r): reading(distance=2.0 + r % 3) for r in range(1, PEERS + 5)}
    readings[Hex(2, 1)] = reading(distance=40.0)  # a symbol the palette does not draw
    doubts = hex_doubts(readings, palette)
    assert least_sure(doubts[Hex(2, 1)]) < LOW
    unlike = next(d for d in doubts[Hex(2, 1)] if d.reader == "terrain unlike its peers")
    assert unlike.candidates == ("clear", "rough")
    assert all(least_sure(doubts[h]) >= LOW for h in readings if h != Hex(2, 1))
    few = {Hex(1, 1): reading(distance=2.0), Hex(1, 2): reading(distance=40.0)}  # too few peers to judge by
    assert all(d.reader != "terrain unlike its peers" for ds in hex_doubts(few, palette).values() for d in ds)


def test_two_kinds_drawn_alike_are_listed_naming_both():
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("strongpoint",)): (90, 90, 90),
                          ("clear", ("soviet_strongpoint",)): (90, 90, 91)})
    doubts = hex_doubts({Hex(1, 1): reading(features=("strongpoint",)), Hex(1, 2): reading()}, palette)
    alike = next(d for d in doubts[Hex(1, 1)] if d.reader == "drawn alike")
    assert alike.confidence < LOW and alike.candidates == ("clear+strongpoint", "clear+soviet_strongpoint")
    assert least_sure(doubts[Hex(1, 2)]) >= LOW


def test_an_overlay_read_where_a_line_crosses_is_listed_but_no_overlay_there_is_not():
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("village",)): (236, 228, 196)})  # a symbol
    doubts = hex_doubts({Hex(1, 1): reading(features=("village",), in_context=True),
                         Hex(1, 2): reading(in_context=True), Hex(1, 3): reading(features=("village",))}, palette)
    assert least_sure(doubts[Hex(1, 1)]) < LOW
    assert least_sure(doubts[Hex(1, 2)]) >= LOW and least_sure(doubts[Hex(1, 3)]) >= LOW


def test_an_overlay_covering_the_hex_read_where_a_line_crosses_is_listed_only_by_its_margin():
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("woods",)): (120, 170, 90),
                          ("clear", ("village",)): (236, 228, 196)})
    assert covers(palette) == {("clear", ("woods",))}  # woods change the ring; a village's symbol does not
    doubts = hex_doubts({Hex(1, 1): reading(features=("woods",), in_context=True),
                         Hex(1, 2): reading(features=("woods",), in_context=True, features_sure=0.4)}, palette)
    by_line = [d for d in doubts[Hex(1, 1)] if d.reader == "overlay by a line"]
    assert by_line and by_line[0].confidence >= LOW  # doubted by the reader's margin alone
    assert least_sure(doubts[Hex(1, 2)]) < LOW


def test_no_overlay_read_away_from_roads_is_doubted_half_as_much():
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("village",)): (200, 60, 60)})
    readings = {Hex(1, 1): reading(features_sure=0.3), Hex(1, 2): reading(features=("village",), features_sure=0.3),
                Hex(1, 3): reading(features_sure=0.3, in_context=True)}
    doubts = hex_doubts(readings, palette)
    assert least_sure(doubts[Hex(1, 1)]) >= LOW  # between clear and a village, read clear: not listed
    assert least_sure(doubts[Hex(1, 2)]) < LOW and least_sure(doubts[Hex(1, 3)]) < LOW


def test_a_hex_missing_the_overlay_of_the_region_around_it_is_listed():
    grid = Grid(1, 5, 1, 5)
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("pocket",)): (200, 190, 220)})
    middle = Hex(3, 3)

    def holes(around: int, features=()):
        readings = {h: reading(features=("pocket",) if h in grid.neighbours(middle)[:around] else ()) for h in grid}
        readings[middle] = reading(features=features)
        return [d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "overlay around it"]

    assert holes(HOLE)[0].confidence < LOW and holes(HOLE)[0].candidates == ("clear", "clear+pocket")
    assert not holes(HOLE - 1)  # the region's edge
    # a city's fill hides the pocket's hatching: one fewer neighbour will do
    city = holes(HOLE - 1, ("city",))
    assert city and city[0].candidates == ("clear+city", "clear+city+pocket")
    assert not holes(HOLE - 2, ("city",))


def test_an_overlay_reading_every_neighbour_agrees_with_is_not_listed_for_a_narrow_margin():
    grid = Grid(1, 5, 1, 5)
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("pocket",)): (200, 190, 220)})
    middle = Hex(3, 3)

    def overlay_doubt(inside: int):
        readings = {h: reading(features=("pocket",) if h in grid.neighbours(middle)[:inside] else ()) for h in grid}
        # a faint hatching: read inside the pocket by a narrow margin over no pocket
        readings[middle] = replace(reading(features=("pocket",), features_sure=0.3), features_runner=())
        return next(d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "overlay").confidence

    assert overlay_doubt(6) >= LOW  # inside the pocket, as all its neighbours are
    assert overlay_doubt(4) < LOW  # at its edge: the margin decides
    # a village missed by a narrow margin: no neighbour has one either, but villages are no region
    readings = {h: reading(features=("village",) if h == Hex(1, 1) else ()) for h in grid}
    readings[middle] = replace(reading(features_sure=0.1, in_context=True), features_runner=("village",))
    assert least_sure(hex_doubts(readings, palette, grid)[middle]) < LOW


def test_a_hex_unlike_its_peers_and_unlike_every_neighbour_is_listed():
    grid = Grid(1, 6, 1, 6)
    palette = palette_of({("clear", ()): (238, 232, 200), ("hill", ()): (214, 190, 140),
                          ("village", ()): (200, 161, 121)})
    readings = {h: reading(distance=0.5) for h in grid}
    villages = [Hex(1, 1), Hex(1, 2), Hex(6, 6), Hex(6, 5)] + [Hex(c, 6) for c in range(1, 5)] + [Hex(5, 1), Hex(6, 1)]
    for h in villages:
        readings[h] = reading("village", distance=4.0)
    assert len(villages) >= PEERS
    middle = Hex(3, 3)
    # a hill's contours, compressed, read as a village's fill: further than its peers, but not by much
    readings[middle] = reading("village", distance=8.0 + UNLIKE * 0.8)
    for n in grid.neighbours(middle)[:2]:
        readings[n] = reading("hill")
    doubts = hex_doubts(readings, palette, grid)[middle]
    assert next(d for d in doubts if d.reader == "terrain unlike its peers").confidence >= LOW
    lone = next(d for d in doubts if d.reader == "terrain unlike its peers and neighbours")
    assert lone.confidence < LOW and lone.candidates[:1] == ("village",) and "hill" in lone.candidates
    readings[grid.neighbours(middle)[3]] = reading("village", distance=4.0)  # a village two hexes wide
    assert least_sure(hex_doubts(readings, palette, grid)[middle]) >= LOW


def test_a_terrain_reading_all_six_neighbours_share_is_not_listed_for_a_narrow_margin():
    grid = Grid(1, 5, 1, 5)
    palette = palette_of({("rough", ()): (200, 180, 140), ("hill", ()): (206, 184, 142)})
    middle = Hex(3, 3)

    def terrain_doubt(rough_around: int):
        readings = {h: reading("rough" if h in grid.neighbours(middle)[:rough_around] else "hill") for h in grid}
        readings[middle] = reading("rough", base_sure=0.2)  # a colour cast leaves rough and hill close
        return next(d for d in hex_doubts(readings, palette, grid)[middle] if d.reader == "terrain").confidence

    assert terrain_doubt(6) >= LOW  # inside a rough region
    assert terrain_doubt(5) < LOW  # at its edge: the margin decides
