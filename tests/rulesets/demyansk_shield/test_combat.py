"""Demyansk Shield combat: odds, shifts and support (11-13, 17.0)."""

from __future__ import annotations

import pytest

from toolkit.referee import check_stacking, load_position
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset

from .helpers import DATA, H, hexes, position

# -- 11-13 combat and 17.0 ------------------------------------------------------------------------


def test_odds_rounding_11_52():
    assert [ds.initial_odds(10, d) for d in (2, 3, 4, 5, 6)] == ["5-1", "3-1", "5-2", "2-1", "3-2"]
    assert ds.initial_odds(2, 3) == "1-2" and ds.initial_odds(3, 3) == "1-1" and ds.initial_odds(9, 3) == "3-1"


def test_odds_above_8_1_start_at_8_1():
    assert ds.final_column(24, 2, -2) == ("6-1", 0)   # 11.52 note: 12-1 starts at 8-1, 2L -> 6-1
    assert ds.support_shifts(3) == 2 and ds.support_shifts(1) == 1 and ds.support_shifts(0) == 0


def test_shift_cap_and_below_1_3():
    assert ds.final_column(10, 2, 5) == ds.final_column(10, 2, 3)   # net shift capped at 3
    assert ds.final_column(1, 3, -1) == ("1-3", 1)                   # 12.12: 1-3 and +1 on the die


@pytest.mark.parametrize("minimum,allowed", [("1-3", False), ("1-4", True)])
def test_minimum_odds_option(minimum, allowed):
    # 11.17/11.31 (1-3) vs 12.12 (1-4): 1 against 4
    rs = make_ruleset(minimum_odds=minimum)
    assert (ds.attack_allowed(1, 4, rs) is None) is allowed
    assert ds.attack_allowed(1, 3, rs) is None


def test_cas_example_13_2():
    # Soviet 1 defensive point first; Axis 0, 1 or 3 points -> 1L, none, 1R
    assert [ds.support_shifts(a) - ds.support_shifts(1) for a in (0, 1, 3)] == [-1, 0, 1]


def test_comprehensive_example_17_0():
    pos = load_position(DATA / "combat-17-0.yaml")
    assert check_stacking(pos, RULESET) == []
    assert ds.in_enemy_zoc(pos, RULESET, "soviet", H("1810"))        # 1910's ZOC reaches 1810 (11.15a)
    assert not pos.map.grid.adjacent(H("1710"), H("1910"))
    attackers = ["so-87", "so-1-87", "so-1318", "so-1-1318", "so-2-87"]
    attack = sum(pos.unit(u).value("attack") for u in attackers)
    defence = pos.unit("ax-iii26").value("defence")
    assert (attack, defence) == (9, 3)
    # artillery at 1609 is in range (computed 3; the text says "four hexes", range 4 covers both)
    assert pos.map.grid.distance(H("1609"), H("1811")) == 3
    assert ds.artillery_may_fire(pos, RULESET, "so-231-387", [H("1811")]) is None
    assert ds.bomber_may_support(pos, [H("1811")])                       # Strongpoint (13.25)
    support = ds.support_shifts(2 + 1) - ds.support_shifts(1)           # 2R - 1L = 1R
    strongpoint = -1                                                     # 14.21
    assert ds.final_column(attack, defence, support + strongpoint) == ("3-1", 0)
    assert ds.no_retreat_drm(pos, "ax-iii26") == 1                       # 12.42c: printed Strongpoint
    # combat 2: the engineer alone, 2 vs 3; air 1 vs 1; the Strongpoint shift gives 1-3
    assert ds.initial_odds(2, 3) == "1-2"
    assert ds.final_column(2, 3, ds.support_shifts(1) - ds.support_shifts(1) - 1) == ("1-3", 0)
    # the engineer retreats to 1809 (adjacent to 1810, away from 1910)
    pos.units["so-28-238"].hex = H("1810")
    pos.touch()
    assert H("1809") in ds.retreat_destinations(pos, RULESET, "so-28-238", H("1910"))
    # in the second Operation 231+387 is Fired (10.41)
    pos.units["so-231-387"].status.add("fired")
    assert ds.artillery_may_fire(pos, RULESET, "so-231-387", [H("1811")]).rule == "10.13b"


@pytest.mark.parametrize("adjacent_ok", [True, False])
def test_artillery_in_enemy_zoc_option(game, adjacent_ok):
    # 10.13e vs 10.32: artillery next to the defender may support an attack on it (option)
    rs = make_ruleset(artillery_in_zoc_supports_adjacent=adjacent_ok)
    pos = position(game, weather="frozen", side="soviet", turn=9, **{"so-231-387": "1710", "so-1318": "1710",
                                                                     "ax-iii26": "1811"})
    assert (ds.artillery_may_fire(pos, rs, "so-231-387", [H("1811")]) is None) is adjacent_ok


def test_hexside_benefit_examples_11_22(game):
    pos = position(game, weather="dry", side="soviet", **{"so-180": "1824", "ax-ir27": "1923", "ax-ir48": "1924"})
    # A: defenders in 1923 and 1924, attackers in 1824 -> the major-river benefit
    assert ds.major_river_benefit(pos, {H("1824"): ["so-180"]}, hexes("1923 1924"))
    # B: defender in 1824, attackers in 1923 and 1924 -> none
    pos = position(game, weather="dry", **{"ax-ir27": "1923", "ax-ir48": "1924", "so-180": "1824"})
    assert not ds.major_river_benefit(pos, {H("1923"): ["ax-ir27"], H("1924"): ["ax-ir48"]}, [H("1824")])


def test_odds_halving_3_51():
    assert ds.halved_attack([5], [3, 2]) == 7                     # TC-SUP-05
    assert ds.halved_attack([], [1]) == 0                          # reduced to zero: cancelled (3.51d)


def test_no_defender_retreat_without_a_surviving_attacker_12_38():
    # a one-step attacker at 1-3 rolls 1: A1/DR; the attacker is eliminated, the defender stays
    assert ds.final_column(1, 3, 0) == ("1-3", 0)
    assert not ds.defender_must_retreat(True, attackers_left=0)
    assert ds.defender_must_retreat(True, attackers_left=1)
