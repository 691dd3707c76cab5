"""VV 6.4, who takes the first loss: the worked examples of 6.5.2 (Combat 1: "the largest unit";
Combat 2: "an armoured step", the German free to lose Meyer), then positions isolating the
armoured rule, its armoured-bonus exception and the tie, and a property against the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import IllegalMoveError
from toolkit.referee import Code, Support, Unit, apply_combat, assess_combat, load_position, roll_combat
from toolkit.rulesets.velikiye_luki import RULESET as VV

DATA = Path(__file__).resolve().parents[2] / "data"


def H(pos, text):
    return pos.map.grid.parse(text)


def _place(pos, where):
    for uid, h in where:
        c = pos.game.counters[uid]
        pos.units[uid] = Unit(uid, c, c.side, hex=H(pos, h))
    pos.touch()


@pytest.fixture(scope="module")
def combat_1():
    pos = load_position(DATA / "velikiye-luki" / "retreat-combat-1.yaml")
    _place(pos, [("mrl38g", "1309"), ("hq-83", "1009")])
    a = assess_combat(pos, VV, ["df357", "rc27", "bm18-2m"], H(pos, "1109"),
                      supports=[Support("mrl", "attacker", unit="mrl38g"),
                                Support("artillery", "defender", points=1, via="hq-83")])
    r = roll_combat(pos, VV, a, roll=4, rolls={"attacker quality": 3, "defender quality": 4})
    assert r.result.text == "1/R2"
    return pos, a, r


def _combat_2(german_armour="g3-185"):
    """Combat 2's 1010 (Meyer + an armoured unit) attacked by 357 DF and the tank regiment 34 RC
    (no armoured bonus); the quality and combat rolls of the example give 1/1."""
    pos = load_position(DATA / "velikiye-luki" / "retreat-combat-2.yaml")
    for uid in ("dfg46", "rc34", "df257", "g3-185"):
        del pos.units[uid]
    _place(pos, [("df357", "1110"), ("rc34", "1110"), (german_armour, "1010"), ("hq-5g", "1211"),
                 ("hq-3c", "1312")])
    a = assess_combat(pos, VV, ["df357", "rc34"], H(pos, "1010"),
                      supports=[Support("artillery", "attacker", 1, via="hq-5g"),
                                Support("air", "attacker", 1, via="hq-3c")])
    rolls = [roll_combat(pos, VV, a, roll=n, rolls={"attacker quality": 6, "defender quality": 3})
             for n in range(1, 7)]
    r = rolls[3] if german_armour == "g3-185" else next(r for r in rolls if r.result.text == "1/1")
    assert r.result.text == "1/1"                                    # the example's roll of 4
    return pos, a, r


# -- the worked examples (6.5.2) --------------------------------------------------------------------


def test_combat_1_the_largest_unit_loses_without_asking(combat_1):
    # "The Soviet loses a combat step on the largest unit: the 357th division" (3 steps; 27 RC and
    # 18/2M have 2): the referee applies it when the player names no loss
    pos, a, r = combat_1
    o = apply_combat(pos, VV, a, r, retreats={"defender": [H(pos, h) for h in ("1008", "909", "808")]})
    assert o.losses == {"df357": 1} and o.position.unit("df357").steps == 2


@pytest.mark.parametrize("unit", ["rc27", "bm18-2m"])
def test_combat_1_a_smaller_unit_may_not_take_the_first_loss(combat_1, unit):
    pos, a, r = combat_1
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, VV, a, r, losses={unit: 1},
                     retreats={"defender": [H(pos, h) for h in ("1008", "909", "808")]})
    reason = exc.value.reasons[0]
    assert (reason.code, reason.rule, reason.units) == (Code.COMBAT_CHOICE, "6.4", (unit,))
    assert "first loss must be taken by df357" in reason.text and "most important unit in steps (3)" in reason.text


def test_combat_2_the_soviet_loses_an_armoured_step():
    # "The Soviet loses an armoured step": armour on both sides and 34 RC has no armoured bonus
    pos, a, r = _combat_2()
    o = apply_combat(pos, VV, a, r, losses={"meyer": 1})
    assert o.losses == {"meyer": 1, "rc34": 1}                      # 34 RC picked without asking
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, VV, a, r, losses={"meyer": 1, "df357": 1})
    reason = exc.value.reasons[0]
    assert reason.rule == "6.4" and "must be taken by rc34" in reason.text and "armoured" in reason.text


def test_combat_2_the_german_may_lose_meyer_thanks_to_the_armoured_bonus():
    # "The German player could take a loss on the infantry unit (the bonus does not require an
    # armoured loss)": 3/185 has the bonus, so the most-steps rule applies, and Meyer and 3/185
    # tie at two steps: the owner's choice, asked for when not given
    pos, a, r = _combat_2()
    for unit in ("meyer", "g3-185"):
        assert apply_combat(pos, VV, a, r, losses={unit: 1}).losses[unit] == 1
    with pytest.raises(IllegalMoveError, match="the defender must choose which units lose 1 step"):
        apply_combat(pos, VV, a, r)


# -- positions isolating each part of the rule (notes TC-RES-07) ------------------------------------


def test_armour_without_the_bonus_takes_the_first_loss_on_both_sides():
    # German armour without the bonus (Pz 8/29/12) with Meyer, against Soviet armour + infantry
    pos, a, r = _combat_2("pz8-29-12")
    o = apply_combat(pos, VV, a, r)                                   # both losses are forced
    assert o.losses == {"pz8-29-12": 1, "rc34": 1}
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, VV, a, r, losses={"meyer": 1})
    assert exc.value.reasons[0].rule == "6.4" and "pz8-29-12" in exc.value.reasons[0].text


def test_no_enemy_armour_means_the_most_steps_rule():
    # the same stack attacked by infantry only: armour is not on both sides
    pos, a, r = _combat_2("pz8-29-12")
    assert VV.first_loss(pos, "defender", pos.units_of(["meyer", "pz8-29-12"]), pos.units_of(["df357"]))[1:] == \
        ("6.4", "the first loss is taken by the most important unit in steps (2)")
    ids, rule, _ = VV.first_loss(pos, "attacker", pos.units_of(["df357", "rc34"]), pos.units_of(["meyer"]))
    assert ids == ["df357"] and rule == "6.4"


def test_every_armoured_unit_with_the_bonus_waives_the_armoured_rule():
    pos, _, _ = _combat_2()
    german = pos.units_of(["meyer", "g3-185"])
    soviet = pos.units_of(["df357", "rc34"])
    assert VV.first_loss(pos, "defender", german, soviet)[0] == ["meyer", "g3-185"]      # 2 steps each
    assert VV.first_loss(pos, "attacker", soviet, german)[0] == ["rc34"]


def test_an_anti_tank_unit_counts_and_the_dot_does_not():
    pos, _, _ = _combat_2("pz8-29-12")
    _place(pos, [("at171", "1110")])
    soviet = pos.units_of(["df357", "at171"])
    german = pos.units_of(["meyer", "pz8-29-12"])
    assert VV.first_loss(pos, "attacker", soviet, german)[0] == ["at171"]
    # Meyer's anti-tank dot makes it infantry with anti-tank capacity (6.2.4), not an anti-tank unit
    assert VV.first_loss(pos, "attacker", soviet, pos.units_of(["meyer"]))[0] == ["df357"]


# -- property: the most-steps rule, literally -------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(steps=st.tuples(st.integers(1, 3), st.integers(1, 2), st.integers(1, 2)), pick=st.integers(0, 2))
def test_the_first_loss_is_accepted_exactly_on_a_unit_with_the_most_steps(combat_1, steps, pick):
    # Combat 1's 1/R2 (no German armour) with the attackers' steps varied: the Soviet losing its
    # one step on unit ``pick`` is legal iff no other attacker has more steps left (6.4, "the
    # most important unit in terms of steps"); the result is the example's, applied to the
    # varied position
    pos, a, r = combat_1
    pos = pos.copy()
    ids = ["df357", "rc27", "bm18-2m"]
    for uid, n in zip(ids, steps):
        pos.unit(uid).steps = n
    pos.touch()
    retreat = {"defender": [H(pos, h) for h in ("1008", "909", "808")]}
    unit = ids[pick]
    if steps[pick] == max(steps):
        assert apply_combat(pos, VV, a, r, losses={unit: 1}, retreats=retreat).losses[unit] == 1
    else:
        with pytest.raises(IllegalMoveError) as exc:
            apply_combat(pos, VV, a, r, losses={unit: 1}, retreats=retreat)
        assert exc.value.reasons[0].rule == "6.4"
    if steps.count(max(steps)) == 1:                     # one largest unit: applied without asking
        o = apply_combat(pos, VV, a, r, retreats=retreat)
        assert o.losses == {ids[steps.index(max(steps))]: 1}


# -- 6.4: the mandatory retreat converted to a loss (notes TC-RES-06) -------------------------------


def _retreat_result():
    """Combat 2's stack (Meyer, quality B, with 3/185) on a -/R: a mandatory one-hex retreat."""
    pos, a, _ = _combat_2()
    r = roll_combat(pos, VV, a, roll=6, rolls={"attacker quality": 3, "defender quality": 1})
    assert r.result.text == "-/R"
    return pos, a, r


def test_quality_b_converts_the_mandatory_retreat_into_a_loss_for_the_stack():
    # "For a unit of quality A or B, the mandatory retreat can be converted to a loss. In this
    # case, if units of lesser quality are stacked with this unit, they do not retreat either."
    pos, a, r = _retreat_result()
    o = apply_combat(pos, VV, a, r, losses={"meyer": 1})
    assert o.retreats == {} and o.losses == {"meyer": 1}
    assert {o.position.unit(u).hex for u in ("meyer", "g3-185")} == {H(pos, "1010")}
    with pytest.raises(IllegalMoveError, match="the defender must choose"):   # retreat or lose: the owner's
        apply_combat(pos, VV, a, r)
    o = apply_combat(pos, VV, a, r, retreats={"defender": H(pos, "910")}, losses={"g3-185": 1})
    assert o.retreats["meyer"][-1] == H(pos, "910")                  # or retreat, a step lost in the ZOC


def test_quality_c_must_retreat_unless_in_a_city_or_village():
    pos, _, _ = _combat_2()
    for uid in ("meyer", "g3-185"):
        del pos.units[uid]
    _place(pos, [("s343", "1010")])                                  # quality C, clear terrain
    assert VV.retreat_to_loss(pos, "defender", pos.units_of(["s343"])) is None
    a = assess_combat(pos, VV, ["df357", "rc34"], H(pos, "1010"))
    r = next(x for x in (roll_combat(pos, VV, a, roll=n, rolls={"attacker quality": q, "defender quality": 1})
                         for q in range(1, 7) for n in range(1, 7)) if x.result.text == "-/R")
    o = apply_combat(pos, VV, a, r, losses={"s343": 1})               # the step is its retreat's ZOC step
    assert o.retreats["s343"][-1] == H(pos, "910") and o.losses == {"s343": 1}
    village = next(h for h in sorted(pos.map.grid) if "village" in {pos.map.terrain(h), *pos.map.features(h)})
    pos.unit("s343").hex = village
    pos.touch()
    assert VV.retreat_to_loss(pos, "defender", pos.units_of(["s343"])) == "6.4"
