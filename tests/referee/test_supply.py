"""Supply: one search from the sources agrees with one search per unit; paths; the ladder."""

from __future__ import annotations

from dataclasses import fields, replace

from hypothesis import given, settings
from hypothesis import strategies as st
from referee_oracle import random_position

from toolkit.game import SupplySource
from toolkit.hexes import Hexside
from toolkit.io import load_game
from toolkit.referee import (Code, Position, Ruleset, Source, SupplyRules, Unit, apply_supply, get_ruleset,
                             position_from_scenario, reachable, supply_per_unit, supply_status, supply_trace)

GAME = load_game("tutorial")
RS = get_ruleset("tutorial")


def H(text):
    return GAME.main_map.grid.parse(text)


def _with_sources(pos):
    pos.map.supply = [SupplySource(side="blue", edge="west"), SupplySource(side="red", edge="east")]
    pos.touch()
    return pos


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31), st.sampled_from([None, 2, 4]))
def test_multi_source_agrees_with_per_unit_search(seed, length):
    pos, _ = random_position(GAME, seed)
    _with_sources(pos)
    rs = replace(RS, supply=replace(RS.supply, max_length=length))
    for side in ("blue", "red"):
        assert supply_status(pos, rs, side).supplied == supply_per_unit(pos, rs, side)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31))
def test_traced_paths_are_legal_supply_lines(seed):
    pos, _ = random_position(GAME, seed)
    _with_sources(pos)
    result = supply_status(pos, RS, "blue")
    grid = pos.map.grid
    west = set(grid.edge_hexes("west"))
    for uid in result.supplied:
        path = result.paths[uid]
        assert path[0] == pos.units[uid].hex and path[-1] in west
        for a, b in zip(path, path[1:]):
            assert grid.adjacent(a, b)
            side = Hexside.of(a, b)
            if "river" in pos.map.hexside_codes(side):
                assert side in pos.map.line_links(), "a river is crossed only on a bridge"


def test_scenario_start_everyone_in_supply():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    for side in ("blue", "red"):
        result = supply_status(pos, RS, side)
        assert not result.unsupplied and result.supplied == {u.id for u in pos.on_map(side)}


def test_length_limit_counts_hexes_from_the_unit():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    rs = replace(RS, supply=replace(RS.supply, max_length=3))
    result = supply_status(pos, rs, "blue")
    # b-2 at 0503 is four hexes from column 01; b-5 at 0404 is three
    assert "b-2" in result.unsupplied and "b-5" in result.supplied
    assert len(result.paths["b-5"]) == 4
    assert result.reasons["b-2"].code is Code.SUPPLY_NONE and result.reasons["b-2"].rule == "T.7"


def test_road_stage_reaches_further_than_the_overland_limit():
    pos = position_from_scenario(load_game("tutorial"), "crossing", turn=1)
    pos.map.supply = [SupplySource(side="blue", hexes=(H("0105"),))]
    pos.touch()
    overland = replace(RS, supply=replace(RS.supply, max_length=1, road_lines=()))
    by_road = replace(RS, supply=replace(RS.supply, max_length=1, road_lines=("road",)))
    # b-1 stands on the Kessel road at 0505, four hexes from the source at 0105
    assert "b-1" in supply_status(pos, overland, "blue").unsupplied
    assert "b-1" in supply_status(pos, by_road, "blue").supplied


def test_one_road_break():
    game = load_game("tutorial")
    m = game.main_map
    m.supply = [SupplySource(side="blue", hexes=(H("0105"),))]
    # cut the Kessel road into two lines with a one-hex gap of road-less hexside between 0305 and 0405
    kessel = m.lines[0]
    hexes = kessel.hexes
    cut = hexes.index(H("0305"))
    m.lines[0] = replace(kessel, hexes=hexes[:cut + 1])
    m.lines.append(replace(kessel, hexes=hexes[cut + 1:]))
    pos = position_from_scenario(game, "crossing", turn=1)
    base = replace(RS.supply, max_length=0, road_lines=("road",))
    none = replace(RS, name="no-break", supply=replace(base, road_breaks=0))
    one = replace(RS, name="one-break", supply=replace(base, road_breaks=1))
    assert "b-1" in supply_status(pos, none, "blue").unsupplied
    assert "b-1" in supply_status(pos, one, "blue").supplied


def test_ladder_and_apply_supply():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    pos.place("r-10", H("0804"))
    pos.place("r-13", H("0807"))
    pos.place("b-1", H("0706"))
    result = supply_status(pos, RS, "blue")
    assert result.status["b-1"] == "out_of_supply"
    apply_supply(pos, RS, result)
    assert pos.units["b-1"].status == {"out_of_supply"} and pos.units["b-1"].supply == 1
    assert reachable(pos, RS, "b-1").refused is None
    apply_supply(pos, RS, supply_status(pos, RS, "blue"))
    assert pos.units["b-1"].status == {"isolated"}
    refused = reachable(pos, RS, "b-1").refused
    assert refused.code is Code.CANNOT_MOVE and refused.rule == "T.7"
    pos.place("b-1", H("0606"))
    apply_supply(pos, RS, supply_status(pos, RS, "blue"))
    assert pos.units["b-1"].status == set() and pos.units["b-1"].supply == 0


def test_source_units_and_turn_limits():
    pos = position_from_scenario(load_game("tutorial"), "crossing", turn=1)
    rs = Ruleset(name="hq-supply", supply=SupplyRules(source_types=("hq",), max_length=2))
    pos.map.supply = [SupplySource(side="blue", edge="west", turns=(5, None))]
    pos.touch()
    result = supply_status(pos, rs, "blue")
    assert {"b-1", "b-hq", "b-2", "b-5"} <= result.supplied      # within 2 of the HQ at 0505
    assert "b-3" in result.unsupplied                             # 0608 is 3 away; edge inactive


# -- the hooks a game's supply rules use (one search for the CLI and the game) ---------------


def _units(**units):
    pos = Position(game=GAME, map_id="main", side="blue", turn=1, weather="clear")
    for uid, hex in units.items():
        uid = uid.replace("_", "-")
        pos.units[uid] = Unit(uid, GAME.counters[uid], GAME.counters[uid].side, H(hex))
    pos.touch()
    return pos


class _Depots(Ruleset):
    """No map sources: a depot at 0101 serving the units named in the context, and a fort at
    1005 serving only the units standing on it."""

    def supply_sources(self, pos, side, context=None):
        wanted = set((context or {}).get("served", ()))
        return [Source((H("0101"),), serves=lambda u: u.id in wanted, kind="depot"),
                Source((H("1005"),), trace=False, kind="fort")]


def test_source_groups_serve_only_some_units():
    rs = _Depots(name="depots", supply=replace(RS.supply, max_length=3))
    pos = _units(b_1="0103", b_2="0202", b_3="1005", b_4="1004")
    result = supply_status(pos, rs, "blue", {"served": ["b-1"]})
    assert result.supplied == {"b-1", "b-3"} and result.unsupplied == {"b-2", "b-4"}
    assert result.source == {"b-1": H("0101"), "b-3": H("1005")}
    assert result.paths["b-3"] == [H("1005")]
    assert supply_status(pos, rs, "blue").supplied == {"b-3"}   # no context: the depot serves nobody


def test_supply_blocks_and_needs_supply_hooks():
    class Cut(type(RS)):
        def supply_blocks(self, pos, side, hex):
            return hex.col == 3              # a line no supply may cross (west edge source)

        def needs_supply(self, pos, unit):
            return unit.type != "artillery" and super().needs_supply(pos, unit)

    cut = Cut(**{f.name: getattr(RS, f.name) for f in fields(RS)})
    pos = _units(b_1="0505", b_5="0504", b_2="0202")
    assert supply_status(pos, RS, "blue").supplied == {"b-1", "b-2", "b-5"}
    result = supply_status(pos, cut, "blue")
    assert result.supplied == {"b-2"} and result.unsupplied == {"b-1"}    # b-5 is not judged
    assert "b-5" not in result.status


def test_supply_trace_reaches_a_blocked_end_but_carries_no_further():
    pos = _units(b_1="0303", r_10="0305")
    trace = supply_trace(pos, RS, "blue", [H("0103")])
    assert trace.reaches(H("0304")) and not trace.carries(H("0304"))   # r-10's ZOC
    assert trace.carries(H("0303")) and trace.path(H("0303"))[-1] == H("0103")
