"""AA against a blue Airstrike or Strafing chit (10.7): the chance each AA or Flak unit of the
other side nullifies it (2d6, 3d6 for "Lt", greater than its distance to the combat hex) and the
combat's distribution with the chit's DRM in force only while it stands, against a literal
count of the dice."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from toolkit.errors import RulesError
from toolkit.referee import assess_combat
from toolkit.rulesets.grossdeutschland.air import air_chance, air_distribution

from .helpers import RS, board, h, put

D = "0605"


def _over(n_dice: int, distance: int) -> Fraction:
    """Literal: the share of the 6**n throws whose total is greater than ``distance``."""
    throws = list(product(range(1, 7), repeat=n_dice))
    return Fraction(sum(1 for t in throws if sum(t) > distance), len(throws))


def _fight(gd):
    pos = board(gd, turn=2)
    put(pos, "g-2gr-hq", "0603"); put(pos, "g-2gr-5k", "0604"); put(pos, "s-1rif-1", D); put(pos, "s-1rif-hq", "0609")
    return pos


def test_10_7_each_aa_unit_of_the_other_side_rolls_against_its_distance(gd):
    pos = _fight(gd)
    put(pos, "s-at-lt-aa", "0608")                                   # Lt AA, 3 hexes away: 3d6 > 3
    put(pos, "g-2gr-flak", "0602")                                   # the drawer's own Flak does not roll
    answer = air_chance(pos, "ev-g-blue-airstrike", h(D))
    assert [r["unit"] for r in answer["rolls"]] == ["s-at-lt-aa"]
    assert answer["rolls"][0]["dice"] == "3d6" and answer["rolls"][0]["distance"] == 3
    assert answer["stands"] == 1 - _over(3, 3) == Fraction(1, 216)
    soviet = air_chance(pos, "ev-s-blue-strafing", h(D))             # a Soviet chit: the German Flak rolls 2d6
    flak = soviet["rolls"][0]
    assert flak["unit"] == "g-2gr-flak" and flak["dice"] == "2d6" and soviet["stands"] == 1 - _over(2, flak["distance"])


def test_10_7_several_aa_units_each_roll_and_none_far_enough_away(gd):
    pos = _fight(gd)
    put(pos, "s-at-lt-aa", "0608")
    put(pos, "g-2gr-flak", "1205")
    assert air_chance(pos, "ev-s-blue-airstrike", h(D))["stands"] == 1 - _over(2, 6)
    none = _fight(gd)
    assert air_chance(none, "ev-g-blue-airstrike", h(D)) == {"stands": 1, "rolls": []}
    with pytest.raises(RulesError, match="10.7"):
        air_chance(none, "ev-g-blue-accurate-fire", h(D))


def test_10_7_the_distribution_mixes_the_chit_standing_and_nullified(gd):
    pos = _fight(gd)
    put(pos, "s-at-lt-aa", "1205")                                   # far: 3d6 > 6 most of the time
    answer = air_distribution(pos, RS, ["g-2gr-5k"], h(D), "ev-g-blue-airstrike", -2)
    q = 1 - _over(3, 6)
    assert answer["stands"] == q
    base = assess_combat(pos, RS, ["g-2gr-5k"], h(D)).distribution
    hit = assess_combat(pos, RS, ["g-2gr-5k"], h(D), context={"modifiers": [{"kind": "drm", "value": -2}]}).distribution
    literal = {t: q * hit.get(t, 0) + (1 - q) * base.get(t, 0) for t in set(base) | set(hit)}
    assert answer["distribution"] == {t: p for t, p in literal.items() if p}
    assert sum(answer["distribution"].values()) == 1
