"""Fixed-column attacks (13.2 artillery 3-1 and rocket 7-1, 13.3 bomber 8-1: TC-48 and the
notes' 9.11), and the Minsk +1 on Soviet attacks (14.0, TC-11), through assess_combat,
roll_combat and apply_combat; each distribution checked against the CRT read roll by roll."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from toolkit.errors import IllegalMoveError, RulesError
from toolkit.game.map import HexTerrain
from toolkit.referee import apply_combat, assess_combat, chart_of, roll_combat

from .helpers import position

CENTRE = "1537"
COLUMNS = ["1-1", "1.5-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1", "9-1", "10-1"]


def _board(game, terrain=None, features=()):
    g = copy.deepcopy(game)
    m = g.main_map
    x = m.grid.parse(CENTRE)
    if terrain or features:
        m.hexes[x] = HexTerrain(terrain or m.terrain(x), tuple(features))
    return g, x, [n for n in m.grid.neighbours(x) if n in m.grid]


def _at(g, units, turn=3, side="soviet"):
    return position(g, {u: g.main_map.format(h) for u, h in units.items()}, side=side, turn=turn)


def _literal(game, column: str, retreats=True) -> dict:
    """The d6 read on ``column`` of the CRT, the attacker's part dropped (and the retreat)."""
    chart = chart_of(game)
    col = COLUMNS.index(column)
    out: dict = {}
    for roll in range(1, 7):
        r = chart.result(roll, col)
        d = r.defender
        if not retreats:
            d = type(d)(**{**d.__dict__, "retreat": ()})
        key = (d.steps, d.retreat)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6)
    return out


def _by_effect(a) -> dict:
    out: dict = {}
    for text, p in a.distribution.items():
        d = a.results[text].defender
        assert a.results[text].attacker.empty
        out[(d.steps, d.retreat)] = out.get((d.steps, d.retreat), Fraction(0)) + p
    return out


def test_13_2_artillery_on_3_1_with_the_terrain_shifts_a_d6_attacker_results_ignored(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": ring[0], "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art"})
    assert a.legal and a.column == "3-1" and a.dice == "1d6" and sum(a.distribution.values()) == 1
    assert _by_effect(a) == _literal(g, "3-1")
    g, x, ring = _board(game, features=("city",))
    pos = _at(g, {"s-20c": ring[0], "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art"})
    assert a.column == "1.5-1" and _by_effect(a) == _literal(g, "1.5-1")          # a city: two left
    rocket = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "rocket"})
    assert rocket.column == "5-1"


def test_13_2_who_may_spot_and_not_on_turn_1(game, rs):
    g, x, ring = _board(game)
    grid = g.main_map.grid
    two = next(h for h in grid if grid.distance(h, x) == 2)
    pos = _at(g, {"s-20c": two, "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art"})
    assert not a.legal and a.refusals[0].rule == "13.2"
    g.main_map.hexes[two] = HexTerrain("hill")                    # two hexes from a unit on a hill
    assert assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art"}).legal
    hq = _at(g, {"s-hq-16a": ring[0], "g-31id": x})              # an HQ next to the hex spots too
    assert assess_combat(hq, rs, ["s-hq-16a"], x, context={"fixed": "art"}).legal
    first = _at(g, {"s-20c": ring[0], "g-31id": x}, turn=1)
    assert assess_combat(first, rs, ["s-20c"], x, context={"fixed": "art"}).refusals[0].rule == "13.1"
    lone = _at(g, {"s-20c": ring[0], "g-hq-9a": x})
    assert assess_combat(lone, rs, ["s-20c"], x, context={"fixed": "art"}).refusals[0].rule == "13.2"
    with pytest.raises(RulesError):
        assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "mortar"})


def test_13_3_the_bomber_on_8_1_takes_steps_only_and_no_advance(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": x, "g-3pz": ring[0]}, side="german")
    a = assess_combat(pos, rs, ["g-3pz"], x, context={"fixed": "bomber"})
    assert a.legal and a.column == "8-1" and _by_effect(a) == _literal(g, "8-1", retreats=False)
    assert all(not r.defender.retreat for r in a.results.values())
    roll = roll_combat(pos, rs, a, roll=6)
    assert "1d6" in roll.log and roll.column == "8-1" and roll.result.defender.steps >= 2
    out = apply_combat(pos, rs, a, roll)                         # the 2-step corps is eliminated
    assert out.position.unit("s-20c").hex is None and out.losses == {"s-20c": 2}
    with pytest.raises(IllegalMoveError, match="13.2"):
        apply_combat(pos, rs, a, roll, advance=["g-3pz"])


def test_tc11_the_minsk_plus_1_reads_rows_2_to_9_evenly(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[1], "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c", "s-45c"], x, context={"minsk": True})
    assert a.drm == 1 and a.dice == "d8" and any(m.rule == "14.0" for m in a.modifiers)
    chart = chart_of(g)
    col = chart.columns.index(a.column)
    literal: dict = {}
    for natural in range(1, 11):
        if natural + 1 >= 10:                                    # 9 or 10: an elite unit, roll again
            continue
        text = chart.result(natural + 1, col).text
        literal[text] = literal.get(text, Fraction(0)) + Fraction(1, 8)
    assert a.distribution == literal
    german = _at(g, {"g-31id": ring[0], "s-20c": x}, side="german")
    assert assess_combat(german, rs, ["g-31id"], x, context={"minsk": True}).drm == 0
    art = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art", "minsk": True})
    assert art.drm == 0 and art.dice == "1d6"                     # ART rolls are not modified (TC-11)


def test_the_emitted_plugin_carries_retreats_and_fixed_attacks(rs):
    import json

    from toolkit.referee.plugin import ruleset_config, ruleset_from_config
    back = ruleset_from_config(json.loads(json.dumps(ruleset_config(rs))))
    assert back == rs and back.retreat == rs.retreat and back.retreat.enemy_zoc == "loss"
    assert hasattr(back, "fixed_attack") and hasattr(back, "retreat_search") and hasattr(back, "after_combat")


def test_9_1_1_only_activated_units_attack(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[1], "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c", "s-45c"], x, context={"activated": ["s-20c"]})
    assert not a.legal and a.refusals[0].rule == "9.1.1" and a.refusals[0].units == ("s-45c",)
    assert assess_combat(pos, rs, ["s-20c"], x, context={"activated": ["s-20c"]}).legal
