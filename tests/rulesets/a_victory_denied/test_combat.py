"""Combat on the shared CombatRules: rounding (1.3, TC-01, TC-02), odds columns (9.3.2, TC-03),
shifts and legality (9.3.3-9.3.7, TC-04 to TC-08), the dice of each side (9.2, 9.4.3) and the
artillery count (13.2). Positions are built on a copy of the map around a quiet clear hex, with
the terrain and river hexsides each test needs."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from toolkit.game import HexsideFeature
from toolkit.game.map import HexTerrain
from toolkit.hexes import Hexside
from toolkit.referee import assess_combat, chart_of
from toolkit.rulesets.a_victory_denied import art_attacks, halve, quarter

from .helpers import position

CENTRE = "1537"     # quiet ground: no river, road or town within 3 hexes
COLUMNS = ["1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]


def _board(game, terrain="clear", features=(), rivers=()):
    """A copy of ``game`` whose CENTRE hex is ``terrain`` with ``features``, and a minor river on
    the hexsides to the neighbours numbered ``rivers``; returns (game, centre, neighbours)."""
    g = copy.deepcopy(game)
    m = g.main_map
    x = m.grid.parse(CENTRE)
    ring = [n for n in m.grid.neighbours(x) if n in m.grid]
    m.hexes[x] = HexTerrain(terrain, tuple(features))
    for i in rivers:
        side = Hexside.of(x, ring[i])
        m.hexsides[side] = [HexsideFeature(side, "minor_river")]
    return g, x, ring


def _at(g, units, side="soviet", turn=3, **state):
    m = g.main_map
    return position(g, {u: m.format(h) for u, h in units.items()}, side=side, turn=turn, **state)


def test_tc01_rounding_is_down():
    assert halve(5) == 2 and quarter(3) == 0 and halve(1) == 0


@pytest.mark.parametrize("attack, defence, column", [(15, 5, "3-1"), (26, 9, "2-1"), (12, 7, "1.5-1"),
                                                    (18, 13, "1-1"), (25, 2, "10-1")])
def test_tc03_ratios_round_down_to_a_column(game, attack, defence, column):
    chart = chart_of(game)
    assert chart.columns[chart.column_of(Fraction(attack), Fraction(defence))] == column


def test_tc02_tc04_the_combat_ratio_example(game, rs):
    # 9.3 example: KVI across a river 3 -> 1, 45th Corps across a river 3 -> 1, KVI 3: 5 vs 2,
    # 2-1; in a city 1-1. Units of two hexes are halved each on its own (TC-02), not together.
    g, x, ring = _board(game, rivers=(0, 1))
    pos = _at(g, {"s-kv1a": ring[0], "s-45c": ring[1], "s-kv1b": ring[2], "g-3pz": x})
    a = assess_combat(pos, rs, ["s-kv1a", "s-45c", "s-kv1b"], x)
    assert (a.attack, a.defence, a.odds, a.column, a.legal) == (5, 2, "2-1", "2-1", True)
    assert sum(a.distribution.values()) == 1
    g, x, ring = _board(game, features=("city",), rivers=(0, 1))
    pos = _at(g, {"s-kv1a": ring[0], "s-45c": ring[1], "s-kv1b": ring[2], "g-3pz": x})
    a = assess_combat(pos, rs, ["s-kv1a", "s-45c", "s-kv1b"], x)
    assert a.column == "1-1" and [(m.value, m.rule) for m in a.modifiers if m.kind == "shift"] == [(-2, "9.3")]


def test_tc02_a_stack_is_added_before_halving(game, rs):
    # two 3s in one hex across one river: (3 + 3) / 2 = 3, not 1 + 1 (1.3, 9.3.1)
    g, x, ring = _board(game, rivers=(0,))
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[0], "g-3pz": x})
    assert assess_combat(pos, rs, ["s-20c", "s-45c"], x).attack == 3


def test_tc05_tc06_woods_and_stuka_cap_at_10_1(game, rs):
    # 24 against 2 in woods: 10-1, 9-1 after the woods, 10-1 with a Stuka (9.3.6 example)
    g, x, ring = _board(game, terrain="woods")
    units = {"g-3pz": ring[0], "g-4pz": ring[1], "g-10pz": ring[2], "s-kv1a": x}
    pos = _at(g, units, side="german", **{"s-kv1a": {"steps": 1}})
    pos.units["s-kv1a"].status = set()
    a = assess_combat(pos, rs, ["g-3pz", "g-4pz", "g-10pz"], x)
    assert a.defence == pos.units["s-kv1a"].value("defence")
    base = chart_of(g).column_of(a.attack, a.defence)
    assert a.column == COLUMNS[base - 1]
    s = assess_combat(pos, rs, ["g-3pz", "g-4pz", "g-10pz"], x, context={"stuka": "attack"})
    assert s.column == COLUMNS[min(base + 1, 10)]
    assert any(m.rule == "9.3.4" for m in s.modifiers)


def test_tc07_legality_is_checked_after_terrain_before_other_shifts(game, rs):
    # 3 against 3 in a city: 1-1, two left for the city: no attack even with turn 1 and a Stuka
    g, x, ring = _board(game, features=("city",))
    pos = _at(g, {"g-31id": ring[0], "s-20c": x}, side="german", turn=1)
    a = assess_combat(pos, rs, ["g-31id"], x, context={"stuka": "attack"})
    assert not a.legal and a.refusals[0].rule == "9.3.6" and a.distribution == {}
    # 6 against 3 in a city: 2-1, city 1-1 (legal), Stuka 2-1, turn 1 two right: 4-1 (TC-07)
    pos = _at(g, {"g-31id": ring[0], "g-34id": ring[1], "s-20c": x}, side="german", turn=1)
    a = assess_combat(pos, rs, ["g-31id", "g-34id"], x, context={"stuka": "attack"})
    assert (a.odds, a.column, a.legal) == ("2-1", "4-1", True)
    # below 1-1 before any shift
    g, x, ring = _board(game)
    pos = _at(g, {"s-45c": ring[0], "g-10mot": x}, side="soviet")
    a = assess_combat(pos, rs, ["s-45c"], x)
    assert not a.legal and a.refusals[0].rule == "9.3.2"


def test_tc08_zero_defence_is_10_1_without_terrain(game, rs):
    # a reduced 1-strength defender isolated: 1/2 rounds to 0; 10-1 despite the city (9.3.7)
    g, x, ring = _board(game, features=("city",))
    pos = _at(g, {"g-31id": ring[0], "s-20c": x}, side="german", **{"s-20c": {"steps": 1}})
    pos.units["s-20c"].status = {"isolated"}
    a = assess_combat(pos, rs, ["g-31id"], x)
    assert a.defence == 0 and a.legal and a.column == "10-1"
    assert any(m.rule == "9.3.7" for m in a.modifiers)


def test_timoshenko_and_defensive_stuka(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[1], "g-3pz": x})
    assert assess_combat(pos, rs, ["s-20c", "s-45c"], x).column == "3-1"
    assert assess_combat(pos, rs, ["s-20c", "s-45c"], x, context={"timoshenko": True}).column == "4-1"
    low = _at(g, {"s-20c": ring[0], "g-3pz": x})
    a = assess_combat(low, rs, ["s-20c"], x, context={"stuka": "defence"})
    assert a.odds == "1.5-1" and a.column == "1-1"         # clamped at 1-1 (estimated: no lower column)


def test_the_attackers_die_by_side(game, rs):
    # 9.2: German d6, rows 1-6; Soviet d10, rows 1-9, a 10 rolled again (9.4.3, estimated)
    g, x, ring = _board(game)
    ger = _at(g, {"g-31id": ring[0], "s-20c": x}, side="german")
    a = assess_combat(ger, rs, ["g-31id"], x)
    chart = chart_of(g)
    col = chart.columns.index(a.column)
    literal: dict = {}
    for roll in range(1, 7):
        code = chart.result(roll, col).text
        literal[code] = literal.get(code, 0) + Fraction(1, 6)
    assert a.distribution == literal
    sov = _at(g, {"s-20c": ring[0], "g-31id": x})
    b = assess_combat(sov, rs, ["s-20c"], x)
    literal = {}
    for roll in range(1, 10):
        code = chart.result(roll, col).text
        literal[code] = literal.get(code, 0) + Fraction(1, 9)
    assert b.distribution == literal and sum(b.distribution.values()) == 1


def test_dice_and_artillery():
    assert art_attacks(5) == 2 and art_attacks(1) == 0 and art_attacks(6) == 3      # TC-48
    with pytest.raises(ValueError):
        art_attacks(7)


def _literal_column(attack: int, defence: int):
    """The column by listing every column's lowest ratio (a slow, literal reading of 9.3.2)."""
    lowest = [(1, 1), (3, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]
    best = None
    for i, (a, d) in enumerate(lowest):
        if attack * d >= a * defence:
            best = i
    return best


@given(st.integers(0, 200), st.integers(1, 60))
def test_odds_match_a_literal_reading(attack, defence):
    chart = _chart()
    assert chart.column_of(Fraction(attack), Fraction(defence)) == _literal_column(attack, defence)


_CHART = []


def _chart():
    if not _CHART:
        from toolkit.io import load_game
        _CHART.append(chart_of(load_game("a-victory-denied")))
    return _CHART[0]


def test_the_estimated_crt_reads_as_the_shared_combat_engine_reads_charts(game):
    chart = chart_of(game)
    assert chart.columns == COLUMNS and chart.dice_for("german") == "1d6" and chart.dice_for("soviet") == "d10"
    assert chart.rerolls_for("soviet") == (10,) and chart.rerolls_for("german") == ()
    cited = chart.result(3, COLUMNS.index("4-1"))                   # 9.4.3 example: 4-1, roll 3 = DR
    assert cited.defender.retreat == (1,) and cited.defender.steps == 0 and cited.attacker.steps == 0
    big = chart.result(6, COLUMNS.index("10-1"))
    assert big.defender.steps == 4 and big.defender.retreat == (2,)
    assert len(chart.rows) == 9                                      # the Soviet d10 reads rows 1-9
