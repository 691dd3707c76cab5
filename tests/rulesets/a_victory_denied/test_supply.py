"""Supply and isolation (10, TC-34 to TC-38), stacking (5, TC-41) and ZOC (6, TC-26).

Isolation is traced on copies of the real map with a ring of river hexsides drawn around one
hex, so the only way out is the bridge the test puts there (TC-34's 62nd Corps, TC-36)."""

from __future__ import annotations

import copy

import pytest

from toolkit.game import HexsideFeature, Line
from toolkit.hexes import Hexside
from toolkit.referee import check_stacking, enemy_zoc, board_of
from toolkit.rulesets.a_victory_denied import effective_strength, isolation, oos_candidates

from .helpers import position

CENTRE = "1537"     # quiet ground south-east of Bryansk: no river, road or town within 3 hexes


def _moated(game, bridge_to: int | None):
    """A copy of the game whose hex CENTRE is ringed by major river hexsides, one of them
    bridged by a road towards its neighbour number ``bridge_to``."""
    g = copy.deepcopy(game)
    m = g.main_map
    x = m.grid.parse(CENTRE)
    ring = [n for n in m.grid.neighbours(x) if n in m.grid]
    for n in ring:
        side = Hexside.of(x, n)
        m.hexsides[side] = [f for f in m.hexsides.get(side, []) if f.code != "minor_river"] or []
        if not any(f.code == "major_river" for f in m.hexsides[side]):
            m.hexsides[side].append(HexsideFeature(side, "major_river"))
    m.lines = [line for line in m.lines if x not in line.hexes]
    if bridge_to is not None:
        m.lines.append(Line("road", (x, ring[bridge_to])))
    return g, x, ring


def test_tc36_an_unbridged_major_river_blocks_supply(game, rs):
    g, x, ring = _moated(game, None)
    pos = position(g, {"s-45c": CENTRE})
    result = isolation(pos, rs, "soviet")
    assert "s-45c" in result.unsupplied and result.status["s-45c"] == "isolated"


def test_tc34_a_bridge_into_enemy_zoc_needs_a_friendly_unit(game, rs):
    g, x, ring = _moated(game, 0)
    m = g.main_map
    y = ring[0]
    enemy = next(n for n in m.grid.neighbours(y) if n in m.grid and n != x and not m.grid.adjacent(n, x))
    # the 62nd Corps: its only way out crosses the bridge into a hex in German ZOC: isolated
    pos = position(g, {"s-62c": CENTRE, "g-45id": m.format(enemy)})
    assert isolation(pos, rs, "soviet").status["s-62c"] == "isolated"
    # a Soviet unit (or HQ) in that hex negates the ZOC for the supply line (10.2.2)
    for friend in ("s-32c", "s-hq-20a"):
        pos = position(g, {"s-62c": CENTRE, "g-45id": m.format(enemy), friend: m.format(y)})
        assert isolation(pos, rs, "soviet").status["s-62c"] == "supplied", friend
    # no German: the bridge carries the line
    pos = position(g, {"s-62c": CENTRE})
    assert isolation(pos, rs, "soviet").status["s-62c"] == "supplied"


def _surround(m, centre):
    """German units on every other neighbour: the rest are in their ZOC (TC-34's PVO)."""
    ring = [m.grid.neighbour(centre, d[0]) for d in m.grid.directions]     # clockwise
    return ring[0::2], ring[1::2]


def test_tc34_a_surrounded_pvo_is_isolated_unless_a_friend_holds_a_zoc_hex(game, rs):
    m = game.main_map
    c = m.grid.parse(CENTRE)
    germans, gaps = _surround(m, c)
    units = {"s-pvo1": CENTRE, **{f"g-45id#{i}": m.format(h) for i, h in enumerate(germans)}}
    pos = position(game, units)
    assert isolation(pos, rs, "soviet").status["s-pvo1"] == "isolated"
    pos = position(game, {**units, "s-32c": m.format(gaps[0])})       # the elite traces through the 32nd
    result = isolation(pos, rs, "soviet")
    assert result.status["s-pvo1"] == "supplied" and result.status["s-32c"] == "supplied"


def test_tc35_the_gomel_source_is_ignored_after_turn_4(game, rs):
    m = game.main_map
    gomel = m.grid.parse("1517")
    germans, _ = _surround(m, gomel)
    units = {"s-32c": "1517", **{f"g-45id#{i}": m.format(h) for i, h in enumerate(germans)}}
    assert isolation(position(game, units, turn=4), rs, "soviet").status["s-32c"] == "supplied"
    assert isolation(position(game, units, turn=5), rs, "soviet").status["s-32c"] == "isolated"


def test_no_german_unit_is_isolated_on_turn_1(game, rs):
    m = game.main_map
    c = m.grid.parse(CENTRE)
    ring = [m.grid.neighbour(c, d[0]) for d in m.grid.directions]
    units = {"g-45id": CENTRE, **{f"s-45c#{i}": m.format(h) for i, h in enumerate(ring[0::2])}}
    assert isolation(position(game, units, side="german", turn=2), rs, "german").status["g-45id"] == "isolated"
    assert isolation(position(game, units, side="german", turn=1), rs, "german").status["g-45id"] == "supplied"


def test_hqs_are_never_isolated(game, rs):
    m = game.main_map
    g, x, ring = _moated(game, None)
    pos = position(g, {"s-hq-20a": CENTRE})
    assert "s-hq-20a" not in isolation(pos, rs, "soviet").status


def test_tc37_out_of_supply_is_the_soviet_players_choice(game, rs):
    pos = position(game, {"g-7pz": "3919", "g-161id": "3108", "g-31id": "3003", "g-hq-9a": "3207"}, turn=3)
    q = oos_candidates(pos, 2)
    assert q["choose"] == 2 and q["candidates"] == ["g-161id", "g-7pz"]       # no HQ, none in the pocket
    assert oos_candidates(position(game, {"g-7pz": "3919"}, turn=1), 3)["choose"] == 0    # 10.1.3
    # a panzer 9-2-10 out of supply: attack 4, defence 2 (10.3.2)
    pos = position(game, {"g-7pz": "3919"}, **{"g-7pz": {"status": {"out_of_supply"}}})
    assert effective_strength(pos, rs, ["g-7pz"], "attack") == 4
    assert effective_strength(pos, rs, ["g-7pz"], "defence") == 2


def test_tc38_isolated_units_halve_attack_and_defence(game, rs):
    pos = position(game, {"s-45c": "3030", "s-32c": "3030"}, **{"s-45c": {"status": {"isolated"}}})
    assert effective_strength(pos, rs, ["s-45c"], "attack") == 1
    assert effective_strength(pos, rs, ["s-45c"], "defence") == 1
    pos.units["s-32c"].status = {"isolated"}
    assert effective_strength(pos, rs, ["s-45c", "s-32c"], "defence") == 3          # added, then halved (1.3)
    # across a river and isolated: quartered (9.3.1: cumulative with supply)
    assert effective_strength(pos, rs, ["s-45c"], "attack", across_river=["s-45c"]) == 0


@pytest.mark.parametrize("option, attack", [("cumulative", 2), ("once", 4)])
def test_oos_and_isolated_together_is_an_option(game, rs, option, attack):
    pos = position(game, {"g-7pz": "3919"}, **{"g-7pz": {"status": {"out_of_supply", "isolated"}}})
    assert effective_strength(pos, rs.with_options(oos_and_isolated=option), ["g-7pz"], "attack") == attack


@pytest.mark.parametrize("units, legal", [
    (["g-7pz", "g-45id", "g-hq-9a"], True),            # 2 combat units + 1 HQ (5.1)
    (["s-1mrd", "s-45c"], True),                       # red + tan (5.3)
    (["s-1mrd", "s-172id"], True),                     # red + red
    (["s-45c", "s-hq-20a"], True),                     # a lone tan unit and an HQ
    (["s-45c", "s-32c"], False),                       # tan + tan
    (["g-7pz", "g-45id", "g-161id"], False),           # 3 combat units
    (["g-hq-9a", "g-hq-5k"], False),                   # 2 HQs
    (["g-7pz", "s-45c"], False),                       # German and Soviet together (5.2)
    (["s-pvo1", "s-pvo2", "s-hq-16a"], True),          # PVO are red
])
def test_tc41_stacking(game, rs, units, legal):
    pos = position(game, {u: "3030" for u in units})
    assert (check_stacking(pos, rs) == []) == legal


def test_tc26_combat_units_exert_zoc_across_major_rivers_hqs_none(game, rs):
    g, x, ring = _moated(game, None)
    board = board_of(g.main_map)
    pos = position(g, {"s-45c": CENTRE})
    ez = enemy_zoc(pos, rs, "german")
    assert all(ez[board.index[n]] for n in ring)                               # 6.1, across the river
    pos = position(g, {"s-hq-20a": CENTRE})
    ez = enemy_zoc(pos, rs, "german")
    assert not any(ez[board.index[n]] for n in ring)
