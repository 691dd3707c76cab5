"""The impulse budget (Rule 5; notes cases 54-56) and moves priced from the impulse's MP (6 A)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.errors import RulesError
from toolkit.referee import reachable
from toolkit.referee.posfile import dump_position, load_position
from toolkit.rulesets.white_death import Budget, budget_of

from .helpers import clear_run, position


def test_case_54_alternation_then_the_side_with_mp_left_goes_on():
    b = Budget()
    assert b.next_side() == "soviet"                       # the Soviet always takes the first impulse
    b = b.declare("soviet", 4)
    assert b.next_side() == "german"
    b = b.declare("german", 10)
    assert b.left == {"soviet": 6, "german": 0}
    b = b.declare("soviet", 3)
    assert b.next_side() == "soviet"                       # the German is out: Soviet impulses in a row
    b = b.declare("soviet", 3)
    assert b.next_side() is None                           # TURN
    assert b.new_turn().left == {"soviet": 10, "german": 10}


@pytest.mark.parametrize("side, mp, why", [
    ("german", 3, "the soviet side's impulse"), ("soviet", 0, "1 to 10"), ("soviet", 11, "1 to 10"),
])
def test_bad_declarations(side, mp, why):
    with pytest.raises(RulesError, match=why):
        Budget().declare(side, mp)


def test_a_side_cannot_spend_more_than_it_has_left():
    b = Budget().declare("soviet", 8).declare("german", 2)
    with pytest.raises(RulesError, match="only 2 MP left"):
        b.declare("soviet", 3)


def test_case_55_soviet_assault_minimum():
    b = Budget().declare("soviet", 5).declare("german", 1)
    assert b.declare("soviet", 2).may_assault("soviet") is not None        # 2 of 5 left
    assert b.declare("soviet", 3).may_assault("soviet") is None
    last = Budget().declare("soviet", 8).declare("german", 1).declare("soviet", 2)
    assert last.may_assault("soviet") is None                              # 2 = all remaining
    assert Budget().declare("soviet", 1).declare("german", 1).may_assault("german") is None


def test_case_56_reinforcements_after_a_full_first_impulse_come_next_turn():
    b = Budget().declare("soviet", 1).declare("german", 10)
    assert b.reinforcements_turn("german", 4) == 5
    b = Budget().declare("soviet", 1).declare("german", 6)
    assert b.reinforcements_turn("german", 4) == 4


def test_a_unit_may_spend_the_impulses_mp_and_the_budget_drops_by_it(game, rs):
    a, b, c = clear_run(game.maps["main"])
    fmt = game.maps["main"].format
    pos = position(game, {"s-18g": fmt(a)}, impulse=("soviet", 1))
    reach = reachable(pos, rs, "s-18g")
    assert reach.ma == 1 and b in reach and c not in reach                 # 1 MP: one clear hex
    pos = position(game, {"s-18g": fmt(a)}, impulse=("soviet", 2))
    assert c in reachable(pos, rs, "s-18g")
    assert budget_of(pos).left["soviet"] == 8


def test_before_a_declaration_moves_show_what_the_side_could_still_declare(game, rs):
    a, _, _ = clear_run(game.maps["main"])
    pos = position(game, {"s-18g": game.maps["main"].format(a), "g-251-1": "0101"})
    pos.state["impulses"] = Budget().declare("soviet", 7).declare("german", 2).to_state()
    pos.state["impulses"]["impulses"] = [["soviet", 7]]                    # the German impulse not yet declared
    pos.touch()
    assert reachable(pos, rs, "g-251-1").ma == 8
    assert reachable(pos, rs, "s-18g").ma == 7                             # the impulse in progress


def test_mp_spent_in_the_impulse_are_gone(game, rs):
    a, _, _ = clear_run(game.maps["main"])
    pos = position(game, {"s-18g": game.maps["main"].format(a)}, impulse=("soviet", 4), spent={"s-18g": "5/2"})
    assert reachable(pos, rs, "s-18g").ma == Fraction(3, 2)


def test_the_budget_round_trips_through_a_position_file(game, tmp_path):
    pos = position(game, {"s-18g": "2520"}, impulse=("soviet", 4))
    dump_position(pos, tmp_path / "p.yaml")
    back = load_position(tmp_path / "p.yaml", game)
    assert budget_of(back) == budget_of(pos) and budget_of(back).left["soviet"] == 6


def test_a_bad_budget_in_a_position_is_a_rules_error(game):
    pos = position(game, {}, impulses={"left": {"soviet": 12}})
    with pytest.raises(RulesError, match="0 to 10"):
        budget_of(pos)


@pytest.mark.parametrize("value, cost", [("1", 1), ("0", 0)])
def test_pass_cost_option(game, rs, value, cost):
    assert rs.with_options(pass_cost=value).pass_cost(position(game, {})) == cost


def test_soviet_assault_minimum_option(game, rs):
    unit_reading = rs.with_options(soviet_assault_minimum="unit")
    pos = position(game, {"s-18g": "2520"})
    pos.state["impulses"] = Budget().declare("soviet", 5).declare("german", 1).declare("soviet", 2).to_state()
    pos.touch()
    assert rs.assault_refusal(pos, pos.unit("s-18g")) is not None          # default: 2 of 5 is too small
    assert unit_reading.assault_refusal(pos, pos.unit("s-18g")) is None    # the unit has all its 2 MP
    pos.state["impulses"] = Budget().declare("soviet", 5).to_state()
    pos.state["spent"] = {"s-18g": 3}
    pos.touch()
    assert rs.assault_refusal(pos, pos.unit("s-18g")) is None              # a 5-MP impulse may assault
    assert unit_reading.assault_refusal(pos, pos.unit("s-18g")) is not None   # the unit kept only 2


def _literal_next(history, left):
    """Rule 5 read literally: Soviet first; then the other side, unless it has no MP left, in which
    case the side with MP goes again; nobody when both are out."""
    if left["soviet"] == 0 and left["german"] == 0:
        return None
    if not history:
        return "soviet" if left["soviet"] else "german"
    other = "german" if history[-1] == "soviet" else "soviet"
    return other if left[other] else history[-1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=10), max_size=25))
def test_the_budget_against_a_literal_reading_of_rule_5(sizes):
    b, left, history = Budget(), {"soviet": 10, "german": 10}, []
    for mp in sizes:
        side = _literal_next(history, left)
        assert b.next_side() == side
        if side is None:
            break
        mp = min(mp, left[side])
        b = b.declare(side, mp)
        left[side] -= mp
        history.append(side)
        assert b.left == left and sum(m for s, m in b.impulses if s == side) == 10 - left[side]


def test_17c_a_reinforcement_pays_for_its_map_edge_hex(game, rs):
    m = game.maps["main"]
    edge = next(x for x in m.grid.edge_hexes("east") if m.terrain(x) == "forest" and not m.features(x))
    pos = position(game, {"s-18g": m.format(edge)}, impulse=("soviet", 4))
    assert reachable(pos, rs, "s-18g").ma == 4
    pos.units["s-18g"].status.add("entering")
    pos.touch()
    assert reachable(pos, rs, "s-18g").ma == 4 - 2                          # forest costs leg units 2


def test_a_bad_impulse_in_a_position_names_it(game):
    pos = position(game, {}, impulses={"impulses": [["soviet", 4], ["finn", 2]]})
    with pytest.raises(RulesError, match=r"impulses\[1\]"):
        budget_of(pos)
