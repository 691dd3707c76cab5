"""Combat (10.0-10.8, 13.1-13.2, 14.1, 16.0) through the shared assess_combat: the worked cases
of the notes' 13.A/13.B (A10, A11, A19, B38-B44), supply halvings (5.3), and the dice."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from toolkit.referee import assess_combat, chart_of, roll_combat

from .helpers import RS, board, h, paint, put, road, side_feature

D = "0605"


def _ring(pos, hex_id=D):
    return [pos.map.format(n) for n in pos.map.grid.neighbours(h(hex_id)) if n in pos.map.grid]


def _literal(chart, column, dice: str, drm: int) -> dict:
    """The distribution by listing every face of every die, the net roll held to 2-12 (10.1 step 6)."""
    n = int(dice[0])
    counts = Counter()
    for faces in product(range(1, 7), repeat=n):
        counts[chart.result(max(2, min(12, sum(faces) + drm)), chart.columns.index(column)).text] += 1
    return {k: Fraction(v, 6 ** n) for k, v in counts.items()}


@pytest.mark.parametrize("attack, defence, column", [(12, 4, "3-1"), (13, 4, "3-1"), (30, 5, "5-1"), (2, 9, "1-4"),
                                                    (4, 9, "1-3"), (7, 5, "1-1")])
def test_b38_a10_odds_round_in_the_defenders_favour(gd, attack, defence, column):
    chart = chart_of(gd)
    i = chart.column_of(Fraction(attack), Fraction(defence))
    if i is None:                                   # below 1-4: read at 1-4 (10.1 note)
        assert RS.combat.below_table == "first"
        i = 0
    assert chart.columns[i] == column


@pytest.mark.parametrize("column, roll, result", [("3-1", 7, "DC"), ("1-1", 7, "-"), ("1-4", 12, "AE"),
                                                  ("5-1", 2, "DE"), ("2-1", 9, "AR"), ("1-2", 2, "DD"),
                                                  ("4-1", 10, "-"), ("1-4", 4, "-")])
def test_b39_crt_lookups(gd, column, roll, result):
    chart = chart_of(gd)
    assert chart.result(roll, chart.columns.index(column)).text == result


def test_a10_seven_against_five_is_1_1_on_2d6(gd):
    pos = board(gd)
    r = _ring(pos)
    put(pos, "g-1gr-1k", r[0]); put(pos, "g-1gr-schwr", r[1])
    put(pos, "s-1rif-at", D); put(pos, "s-1rif-2", D, steps=1)
    a = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-schwr"], h(D))
    assert (a.attack, a.defence, a.odds, a.column, a.drm, a.legal) == (7, 5, "1-1", "1-1", 0, True)
    assert a.distribution == _literal(chart_of(gd), "1-1", "2d6", 0)
    assert a.to_dict()["crt"]["dice"] == "2d6"


def test_a11_river_into_a_hill_adds_both_and_b41_only_when_all_cross(gd):
    pos = board(gd)
    r = _ring(pos)
    paint(pos, "hill", D)
    side_feature(pos, "river", f"{r[0]}/{D}", f"{r[1]}/{D}")
    put(pos, "g-1gr-1k", r[0]); put(pos, "g-1gr-2k", r[1]); put(pos, "s-1rif-1", D)
    a = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-2k"], h(D))
    river, hill = pos.map.hexside_types["river"].combat["drm"], pos.map.terrain_types["hill"].combat["drm"]
    assert a.drm == int(river) + int(hill) == 5
    put(pos, "g-1gr-3k", r[2])                                   # B41: one attacker not across the river
    b = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-2k", "g-1gr-3k"], h(D))
    assert b.drm == int(hill)
    assert b.distribution == _literal(chart_of(gd), b.column, "2d6", b.drm)    # B40: the net roll held to 2-12


def test_b42_a_bridge_gives_plus_1_instead_of_the_river_and_3d6(gd):
    pos = board(gd)
    r = _ring(pos)
    side_feature(pos, "river", f"{r[0]}/{D}", f"{r[1]}/{D}")
    road(pos, r[0], D)                                           # a road over the river: a bridge (9.1)
    put(pos, "g-1gr-1k", r[0]); put(pos, "g-1gr-2k", r[1]); put(pos, "s-1rif-1", D)
    a = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-2k"], h(D))
    assert a.drm == 1 and a.dice == "3d6"
    assert {m.rule for m in a.modifiers if m.kind == "drm"} <= {"9.1", "10.1", "10.8"}
    assert a.distribution == _literal(chart_of(gd), a.column, "3d6", 1)
    roll = roll_combat(pos, RS, a, seed=7)
    assert 3 <= roll.roll <= 18 and "3d6" in roll.log


def test_a_blown_bridge_gives_the_river_back_and_2d6(gd):
    """12.0: a blown bridge makes the crossing what it was without the bridge, so 10.8's +1 and
    10.1 step 6's 3d6 give way to the river's DRM and the chart's 2d6."""
    pos = board(gd)
    r = _ring(pos)
    side_feature(pos, "river", f"{r[0]}/{D}", f"{r[1]}/{D}")
    road(pos, r[0], D)
    put(pos, "g-1gr-1k", r[0]); put(pos, "g-1gr-2k", r[1]); put(pos, "s-1rif-1", D)
    put(pos, "m-blown-bridge", r[0], status=(f"facing:{pos.map.grid.direction(h(r[0]), h(D))}",))
    a = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-2k"], h(D))
    assert a.drm == int(pos.map.hexside_types["river"].combat["drm"]) and a.dice in (None, "2d6")   # None: the chart's own
    assert not any(m.rule == "10.8" for m in a.modifiers)


def test_b44_engineers_halve_each_terrain_drm(gd):
    pos = board(gd)
    r = _ring(pos)
    paint(pos, "city", D)                                        # city DRM (estimated +2 on this TEC)
    put(pos, "g-1gr-pioneer", r[0]); put(pos, "s-1rif-1", D)
    city = int(pos.map.terrain_types["city"].combat["drm"])
    a = assess_combat(pos, RS, ["g-1gr-pioneer"], h(D))
    assert a.drm == city // 2 and any(m.rule == "16.0" for m in a.modifiers)
    put(pos, "g-1gr-1k", r[1])
    del pos.units["g-1gr-pioneer"]
    pos.touch()
    assert assess_combat(pos, RS, ["g-1gr-1k"], h(D)).drm == city


def test_a19_night_rolls_3d6_without_the_evening_plus_1(gd):
    night, evening = board(gd, turn=4), board(gd, turn=3)          # kursk: 10th Night, 10th Evening
    for pos in (night, evening):
        r = _ring(pos)
        put(pos, "g-1gr-1k", r[0]); put(pos, "s-1rif-1", D)
    n = assess_combat(night, RS, ["g-1gr-1k"], h(D))
    e = assess_combat(evening, RS, ["g-1gr-1k"], h(D))
    assert (n.dice, n.drm) == ("3d6", 0) and (e.dice, e.drm) == (None, 1)
    assert n.distribution == _literal(chart_of(gd), n.column, "3d6", 0)
    assert sum(n.distribution.values()) == 1


def test_weather_drm(gd):
    pos = board(gd, weather="snowy")
    r = _ring(pos)
    put(pos, "g-1gr-1k", r[0]); put(pos, "s-1rif-1", D)
    a = assess_combat(pos, RS, ["g-1gr-1k"], h(D))
    assert a.drm == 3 and any(m.rule == "14.1" for m in a.modifiers)


def test_supply_halvings_round_their_own_way(gd):
    # 5.3: Low Supply halves attack rounded up; Out of Supply halves attack and defence rounded down
    pos = board(gd)
    r = _ring(pos)
    put(pos, "g-1gr-1k", r[0], status=("low_supply",)); put(pos, "g-1gr-schwr", r[0], status=("low_supply",))
    put(pos, "s-1rif-1", D, status=("out_of_supply",))
    a = assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-schwr"], h(D))
    assert (a.attack, a.defence) == (4, 1)                       # ceil(7 / 2), floor(3 / 2)
    for u in ("g-1gr-1k", "g-1gr-schwr"):
        pos.units[u].status = {"out_of_supply"}
    pos.touch()
    assert assess_combat(pos, RS, ["g-1gr-1k", "g-1gr-schwr"], h(D)).attack == 3


def test_hqs_and_pinned_units_do_not_attack(gd):
    pos = board(gd)
    r = _ring(pos)
    put(pos, "g-1gr-hq", r[0]); put(pos, "g-1gr-1k", r[1], status=("pinned",)); put(pos, "s-1rif-1", D)
    a = assess_combat(pos, RS, ["g-1gr-hq", "g-1gr-1k"], h(D))
    assert not a.legal and {x.rule for x in a.refusals} >= {"10.0", "5.3, 11.3"}
