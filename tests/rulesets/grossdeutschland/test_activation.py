"""The chit-pull order as referee state (2.4, 2.5, 3.4, 6.0): notes 13.A A01 and 13.B B24,
B32-B37, with options A8, A10 and A11 both ways."""

from __future__ import annotations

import random

import pytest

from toolkit.rulesets.grossdeutschland import Activation, ActivationError, chits_of

from .helpers import RS, board, h, put


def test_the_cup_holds_both_sides_chits(gd):
    pos = board(gd)
    chits = chits_of(pos)
    assert len(chits) == 26 and "chit-g-1gr" in chits and "chit-s-hvy" in chits
    act = Activation.for_turn(pos, RS)
    drawn = [act.draw(pos, rng=random.Random(3)) for _ in range(26)]
    assert sorted(drawn) == sorted(chits) and act.over
    with pytest.raises(ActivationError, match="cup is empty"):
        act.draw(pos)


def test_b36_an_eliminated_battalion_leaves_the_cup(gd):
    act = Activation.for_turn(board(gd), RS, eliminated=("3Pz",))
    assert "chit-g-3pz" not in act.cup and len(act.cup) == 25


def test_b32_activation_range_ignores_terrain_and_enemies(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0505")                     # range 4 (estimated)
    put(pos, "g-1gr-1k", "0905")                     # 4 hexes away
    put(pos, "g-1gr-2k", "1005")                     # 5 hexes away
    put(pos, "s-1rif-1", "0705")                     # an enemy between
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    assert act.may_activate(pos, RS, "g-1gr-1k") is None
    why = act.may_activate(pos, RS, "g-1gr-2k")
    assert why.rule == "6.0" and "beyond its activation range of 4" in why.text
    assert act.may_activate(pos, RS, "g-1gr-hq") is None


def test_b24_only_the_drawn_battalion_moves(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0505")
    put(pos, "g-1gr-1k", "0506")
    put(pos, "g-2gr-5k", "0506")
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    assert act.may_activate(pos, RS, "g-1gr-1k") is None
    assert "belongs to battalion 2Gr" in act.may_activate(pos, RS, "g-2gr-5k").text


def test_a01_without_its_hq_a_battalion_moves_one_stack_then_the_division_hq_moves_it_all(gd):
    pos = board(gd, scenario="kursk")
    put(pos, "g-1gr-1k", "0505")
    put(pos, "g-1gr-2k", "0505")
    put(pos, "g-1gr-3k", "0808")
    put(pos, "g-div-division-hq", "0606")
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    act.activate(pos, RS, "g-1gr-1k")
    act.activate(pos, RS, "g-1gr-2k")
    why = act.may_activate(pos, RS, "g-1gr-3k")
    assert why.rule == "2.4" and "only the stack in 0505" in why.text
    # the owner passes instead on the next try: a fresh turn where 1Gr is passed first
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    act.pass_(pos)
    act.draw(pos, "chit-g-div")
    act.choose(pos, RS, "1Gr")
    assert all(act.may_activate(pos, RS, u) is None for u in ("g-1gr-1k", "g-1gr-2k", "g-1gr-3k"))


@pytest.mark.parametrize("allowed", [True, False])
def test_b34_division_hq_and_a_passed_battalion_option(gd, allowed):
    """A10: a battalion that passed may be activated by the Division HQ (default) or not."""
    rs = RS.with_options(passed_by_division=allowed)
    pos = board(gd)
    for uid, at in (("g-1gr-hq", "0505"), ("g-2gr-hq", "0707"), ("g-div-division-hq", "0606")):
        put(pos, uid, at)
    act = Activation.for_turn(pos, rs)
    act.draw(pos, "chit-g-2gr")
    act.activate(pos, rs, "g-2gr-hq")
    act.draw(pos, "chit-g-1gr")
    act.pass_(pos)
    act.draw(pos, "chit-g-div")
    with pytest.raises(ActivationError, match="already been activated"):
        act.choose(pos, rs, "2Gr")
    if allowed:
        act.choose(pos, rs, "1Gr")
        assert act.battalion == "1Gr"
    else:
        with pytest.raises(ActivationError, match="passed"):
            act.choose(pos, rs, "1Gr")


def test_b35_no_unit_is_activated_twice(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0505")
    put(pos, "g-1gr-1k", "0506")
    put(pos, "g-div-division-hq", "0606")
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-div")
    act.choose(pos, RS, "1Gr")
    act.activate(pos, RS, "g-1gr-1k")
    act.draw(pos, "chit-g-1gr")                     # its own chit later: the battalion is done
    assert act.battalion is None
    assert "no battalion is activated" in act.may_activate(pos, RS, "g-1gr-1k").text


@pytest.mark.parametrize("measure, in_range", [("division", True), ("battalion", False)])
def test_division_hq_range_option(gd, measure, in_range):
    """A8: the Division HQ's activation is measured from the Division HQ (default) or the
    battalion's own HQ."""
    rs = RS.with_options(division_hq_range_from=measure)
    pos = board(gd)
    put(pos, "g-1gr-hq", "0101")
    put(pos, "g-1gr-1k", "0909")                     # far from its HQ, 1 hex from the Division HQ
    put(pos, "g-div-division-hq", "0908")
    act = Activation.for_turn(pos, rs)
    act.draw(pos, "chit-g-div")
    act.choose(pos, rs, "1Gr")
    assert (act.may_activate(pos, rs, "g-1gr-1k") is None) is in_range


def test_reinforcements_are_always_in_range(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0101")
    put(pos, "g-1gr-1k", None)                       # not yet on the map: enters this turn
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    assert act.may_activate(pos, RS, "g-1gr-1k") is None


def test_b37_akhtyrka_soviet_preselects_three(gd):
    pos = board(gd, scenario="akhtyrka", side="soviet")
    act = Activation.for_turn(pos, RS, preselected=["chit-s-rcn", "chit-s-2tk", "chit-s-1mot"])
    assert act.draw(pos, "chit-s-2tk") == "chit-s-2tk"                      # in the order he likes
    with pytest.raises(ActivationError, match="pre-selected chits"):
        act.draw(pos, "chit-g-1gr")
    assert act.draw(pos) == "chit-s-rcn" and act.draw(pos) == "chit-s-1mot"
    rest = act.draw(pos, rng=random.Random(1))
    assert rest not in ("chit-s-rcn", "chit-s-2tk", "chit-s-1mot")
    with pytest.raises(ActivationError, match="pre-select 3"):
        Activation.for_turn(pos, RS, preselected=["chit-s-rcn", "chit-s-2tk", "chit-s-1mot", "chit-s-at"])
    with pytest.raises(ActivationError, match="only soviet pre-selects"):
        Activation.for_turn(pos, RS, preselected=["chit-g-1gr"])


@pytest.mark.parametrize("turns, allowed", [("first", False), ("every", True)])
def test_a11_preselection_on_later_turns(gd, turns, allowed):
    rs = RS.with_options(preselect_turns=turns)
    pos = board(gd, scenario="kursk", turn=2)
    if allowed:
        assert Activation.for_turn(pos, rs, preselected=["chit-g-2pz"]).side_first == ["chit-g-2pz"]
    else:
        with pytest.raises(ActivationError, match="first turn only"):
            Activation.for_turn(pos, rs, preselected=["chit-g-2pz"])


def test_b33_range_counts_again_at_the_attack(gd):
    pos = board(gd)
    put(pos, "g-1gr-hq", "0505")
    put(pos, "g-1gr-1k", "0705")                     # 2 hexes away
    act = Activation.for_turn(pos, RS)
    act.draw(pos, "chit-g-1gr")
    act.activate(pos, RS, "g-1gr-1k")
    act.activate(pos, RS, "g-1gr-hq")
    assert act.may_attack(pos, RS, "g-1gr-1k") is None
    pos.place("g-1gr-hq", h("0105"))                  # the HQ moves away: 6 hexes, range 4
    why = act.may_attack(pos, RS, "g-1gr-1k")
    assert why.rule == "10.0" and "at the time of the attack" in why.text
    assert act.may_attack(pos, RS, "g-1gr-hq") is None                 # the HQ is never out of its own range
