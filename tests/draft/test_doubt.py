"""A draft's doubts combined hex by hex (:func:`judge`) and said to a person (:func:`explain`), on
hand-made readings (no picture drawn): why a hex is listed, what explains a look unlike its
peers' (a line's ink), and a terrain mismatch that says why the picture is unsure."""

from __future__ import annotations

from doubt_cases import LOW, draft_with, palette_of, reading
from toolkit.draft.doubt import PASSING, PEERS, Doubt, explain, judge
from toolkit.draft.draft import Draft, HexDraft
from toolkit.hexes import Grid, Hex, Hexside


def test_a_listed_hex_says_which_readings_doubt_it_and_what_else_it_could_be():
    side = Hexside.of(Hex(3, 4), Hex(4, 4))
    doubts = (Doubt("overlay by a line", 0.4, ("clear+village", "clear+town")), Doubt("hexside", 0.45, ("river", "stream"), side),
              Doubt("hexside", 0.45, ("river", "stream"), side), Doubt("terrain", 0.9, ("clear", "rough")))
    assert explain(doubts, 0.5, lambda s: f"{s.a.col}{s.a.row}/{s.b.col}{s.b.row}") == \
        "overlay by a line: clear+village or clear+town; hexside 34/44: river or stream"


def test_a_terrain_mismatch_says_why_the_picture_is_unsure():
    from toolkit.draft.against import mismatch_findings, mismatches
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


def test_a_hex_a_line_crosses_or_runs_past_unlike_its_peers_by_the_lines_ink_is_not_listed():
    grid = Grid(1, 6, 1, 6)
    palette = palette_of({("clear", ()): (238, 232, 200), ("clear", ("village",)): (236, 228, 196)})
    readings = {h: reading(distance=1.0) for h in grid}
    middle = Hex(3, 3)
    a = grid.neighbours(middle)[0]
    b = next(n for n in grid.neighbours(middle) if grid.adjacent(n, a))
    assert len(readings) >= PEERS
    readings[middle] = reading(distance=PASSING / 2)  # a road's ink across its ring

    def listed(links):
        draft = draft_with(grid, links)
        return judge(grid, draft, readings, palette)[middle][0] < LOW
    assert listed({})
    assert not listed({(a, b): {"road": 1.0}})  # the road runs between two of its neighbours
    readings[middle] = reading(distance=PASSING / 2, crossed=True)  # a line seen crossing into it
    assert not listed({})
    readings[middle] = reading(f_distance=PASSING / 2, crossed=True)  # its ink across the centre
    assert not listed({})
    readings[middle] = reading(distance=PASSING * 2)  # more than a line's ink
    assert listed({(a, b): {"road": 1.0}})
