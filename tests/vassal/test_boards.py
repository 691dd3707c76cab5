"""The boxes board and the charts drawn from game data."""

from PIL import Image

from toolkit.vassal.boards import _blocks, boxes_board, chart_images, dead_pile_zone


def test_boxes_board_has_a_zone_per_turn_and_box_with_unique_names(tutorial):
    board = boxes_board(tutorial, 6, 40)
    names = [z.name for z in board.zones]
    assert names[:6] == [f"Turn {n}" for n in range(1, 7)]
    assert {"Blue reserve", "Eliminated units"} <= set(names)
    assert len(names) == len(set(names))
    for zone in board.zones:
        x0, y0, x1, y1 = zone.bounds
        assert 0 <= x0 < x1 <= board.image.width and 0 <= y0 < y1 <= board.image.height
        assert zone.path.count(";") == 3


def test_dead_pile_is_the_games_eliminated_box(tutorial):
    assert dead_pile_zone(tutorial) == ("Eliminated units", "eliminated")


def test_tec_lists_every_terrain_with_costs(tutorial):
    charts = chart_images(tutorial)
    assert charts[0][0] == "Terrain Effects Chart"
    assert isinstance(charts[0][1], Image.Image) and charts[0][1].width > 300


def test_chart_data_forms():
    crt = {"rule": "6.3", "columns": ["1/1", "2/1"], "rows": {"1": ["A", "B"], "2": ["C", "D"]}}
    blocks, notes = _blocks(crt)
    assert blocks == [("", ["", "1/1", "2/1"], [["1", "A", "B"], ["2", "C", "D"]])] and notes == []
    grid = {"rule": "10", "soviet": {"clear": 3, "mud": 1}, "german": {"clear": 2}}
    assert _blocks(grid)[0] == [("", ["", "clear", "mud"], [["soviet", "3", "1"], ["german", "2", ""]])]
    mixed = {"rolls": {"1": "clear", "2": "mud"}, "first_turn": "clear"}
    blocks, notes = _blocks(mixed)
    assert blocks == [("rolls", ["", ""], [["1", "clear"], ["2", "mud"]])] and notes == ["first_turn: clear"]


def test_spots_spread_inside_a_box_below_its_title(tutorial):
    board = boxes_board(tutorial, 3, 40)
    zone = next(z for z in board.zones if z.box == "blue-reserve")
    x0, y0, x1, y1 = zone.bounds
    assert zone.spot(0, 1) == zone.centre
    spots = [zone.spot(i, 4) for i in range(4)]
    assert len(set(spots)) == 4 and spots == sorted(spots)
    assert all(x0 < x < x1 and y0 + 22 < y < y1 for x, y in spots)
