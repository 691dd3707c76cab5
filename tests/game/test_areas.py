"""Set-up areas: references, ``within``, and the side of a named hexside line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import edit
from toolkit.game import AreaError, SetupArea, area_hexes, on_side
from toolkit.hexes import Hex
from toolkit.io import load_game


@pytest.fixture
def game(game_copy):
    """The tutorial game with its stream and river named as lines."""
    m = game_copy / "map.yaml"
    edit(m, "  - feature: stream\n", "  - feature: stream\n    name: Mill Brook\n")
    edit(m, "  - feature: river\n", "  - feature: river\n    name: Kessel River\n")
    return load_game(str(game_copy))


def h(text):
    return Hex(int(text[:2]), int(text[2:]))


def test_place_hex_and_listed_hexes(game):
    m = game.maps["main"]
    assert area_hexes(SetupArea(place="Kessel"), m) == {h("0505")}
    assert area_hexes(SetupArea(hex=h("0303")), m) == {h("0303")}
    assert area_hexes(SetupArea(hexes=(h("0101"), h("0202"))), m) == {h("0101"), h("0202")}


def test_within_counts_rings_like_the_rulebook(game):
    m = game.maps["main"]
    one = area_hexes(SetupArea(place="Kessel", within=1), m)
    assert one == {h("0505")} | set(m.grid.neighbours(h("0505")))
    two = area_hexes(SetupArea(hex=h("0505"), within=2), m)
    assert len(two) == 19 and all(m.grid.distance(h("0505"), x) <= 2 for x in two)


def test_terrain_area_includes_overlay_features(game):
    m = game.maps["main"]
    villages = area_hexes(SetupArea(terrain="village"), m)
    assert villages == {h("0503"), h("0608"), h("1105")}
    assert h("0505") in area_hexes(SetupArea(terrain="town"), m)


def test_within_a_unit_measures_from_where_it_stands(game):
    m = game.maps["main"]
    area = SetupArea(unit="b-hq", within=1)
    assert area_hexes(area, m, {"b-hq": h("0808")}) == {h("0808")} | set(m.grid.neighbours(h("0808")))
    with pytest.raises(AreaError, match="b-hq"):
        area_hexes(area, m, {})


def test_north_of_a_stream_that_runs_part_way(game):
    m = game.maps["main"]
    north = area_hexes(SetupArea(side_of=("north", "Mill Brook")), m)
    # the brook runs along the south sides of 0103, 0203, 0303 and the sides around 0304, 0504
    assert {h("0101"), h("0103"), h("0203"), h("0303"), h("0403"), h("0503")} <= north
    assert not {h("0104"), h("0204"), h("0304"), h("0504"), h("0601"), h("1201")} & north
    south = area_hexes(SetupArea(side_of=("south", "Mill Brook")), m)
    assert h("0104") in south and h("0103") not in south and h("0810") not in south


def test_east_and_west_of_a_river(game):
    m = game.maps["main"]
    west = area_hexes(SetupArea(side_of=("west", "Kessel River")), m)
    east = area_hexes(SetupArea(side_of=("east", "Kessel River")), m)
    # the river stops at 0610/0710: rays from the low row 10 of even columns pass below its end
    low_end = {x for x in m.grid if x.row == 10 and x.col % 2 == 0}
    assert east == {x for x in m.grid if x.col >= 7} - low_end
    assert west == {x for x in m.grid if x.col <= 6} - low_end


def test_side_of_cuts_a_reference(game):
    m = game.maps["main"]
    area = SetupArea(hex=h("0505"), within=2, side_of=("west", "Kessel River"))
    assert area_hexes(area, m) == {x for x in m.grid.within(h("0505"), 2) if x.col <= 6}
    assert h("0705") not in area_hexes(area, m)


def test_unknown_names_say_what_the_map_has(game):
    m = game.maps["main"]
    with pytest.raises(AreaError, match="no place named 'Nowhere'.*Kessel"):
        area_hexes(SetupArea(place="Nowhere"), m)
    with pytest.raises(AreaError, match="no hexside line named 'Volga'"):
        area_hexes(SetupArea(side_of=("north", "Volga")), m)
    with pytest.raises(AreaError, match="no terrain 'glacier'"):
        area_hexes(SetupArea(terrain="glacier"), m)


def test_describe():
    assert SetupArea(place="Luchanio").describe() == "any hex of Luchanio"
    assert SetupArea(place="Luchanio", within=1).describe() == "within 1 hex of Luchanio"
    assert SetupArea(hex=h("2743"), within=3).describe(lambda x: f"{x.col:02d}{x.row:02d}") == \
        "within 3 hexes of hex 2743"
    assert SetupArea(side_of=("north", "Pena River")).describe() == "any hex north of Pena River"


def _north_literal(m, hex, sides):
    """Slow reference: walk south down the column counting the named sides crossed."""
    crossings, at = 0, hex
    while True:
        below = Hex(at.col, at.row + 1)
        if below not in m.grid:
            return crossings % 2 == 1
        crossings += m.grid.hexside(at, below) in sides
        at = below


@given(st.integers(1, 12), st.integers(1, 10))
def test_north_of_matches_walking_down_the_column(col, row):
    game = _named_tutorial()
    m = game.maps["main"]
    sides = {s for s, fs in m.hexsides.items() if any(f.name == "Mill Brook" for f in fs)}
    assert on_side(m, Hex(col, row), "north", "Mill Brook") == _north_literal(m, Hex(col, row), sides)


_CACHE = {}


def _named_tutorial():
    """The tutorial map with its stream named, built once for the property test."""
    if "game" not in _CACHE:
        import dataclasses

        from tests.conftest import ROOT
        game = load_game(str(ROOT / "counters" / "tutorial"))
        m = game.maps["main"]
        for side, features in m.hexsides.items():
            m.hexsides[side] = [dataclasses.replace(f, name="Mill Brook") if f.code == "stream" else f
                                for f in features]
        _CACHE["game"] = game
    return _CACHE["game"]
