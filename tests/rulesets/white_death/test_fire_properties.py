"""Properties of White Death's fire distributions: every distribution sums to exactly 1, more
fire never lowers the expected loss, and the exact chain agrees with a slow literal
enumeration of every die through the roller (an independent path, die by die)."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.referee import assess_combat, roll_combat
from toolkit.referee.plugin import ruleset_config, ruleset_from_config
from toolkit.rulesets.white_death import assessment

from .helpers import clear_run, h, position

F = Fraction
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _setup(game, steps, weather="clear_frost", isolated=False, second=True):
    m = game.maps["main"]
    a, b, _ = (m.format(x) for x in clear_run(m))
    units = {"s-18g": a, "s-31g": a, "s-36g": a, "g-251-1": b}
    if second:
        units["g-251-2"] = b
    pos = position(game, units, weather=weather)
    pos.unit("g-251-1").steps = steps
    if isolated:
        pos.unit("g-251-1").status.add("isolated")
    pos.touch()
    return pos, h(game, b)


@SETTINGS
@given(points=st.fractions(min_value=0, max_value=36, max_denominator=4), steps=st.integers(1, 3),
       weather=st.sampled_from(["clear_frost", "snow", "thaw"]), isolated=st.booleans(),
       phase=st.sampled_from(["assault", "defensive"]))
def test_every_distribution_sums_to_exactly_one(game, rs, points, steps, weather, isolated, phase):
    pos, hx = _setup(game, steps, weather, isolated)
    targets = {"g-251-1": points} if phase == "assault" else {}
    a = assess_combat(pos, rs, ["s-18g", "s-31g", "s-36g"], hx, context={"fire": phase, "targets": targets})
    assert a.legal
    assert sum(a.distribution.values()) == 1
    assert all(sum(s.outcomes.values()) == 1 for s in a.shots)
    assert all(isinstance(p, Fraction) for p in a.distribution.values())


@SETTINGS
@given(low=st.fractions(min_value=0, max_value=36, max_denominator=2),
       more=st.fractions(min_value=0, max_value=36, max_denominator=2), steps=st.integers(1, 3),
       isolated=st.booleans())
def test_more_fire_never_lowers_the_expected_loss(game, rs, low, more, steps, isolated):
    pos, hx = _setup(game, steps, isolated=isolated, second=False)
    high = min(low + more, F(36))

    def expected(points):
        a = assess_combat(pos, rs, ["s-18g", "s-31g", "s-36g"], hx, context={"targets": {"g-251-1": points}})
        return a.expected_steps["defender"]
    assert expected(low) <= expected(high)


def test_more_antitank_fire_never_lowers_the_expected_loss(game, rs):
    m = game.maps["main"]
    a, b, _ = (m.format(x) for x in clear_run(m))
    pos = position(game, {"s-t184-1": a, "s-m18-t": a, "g-pz10-1": b})
    last = Fraction(-1)
    for points in range(0, 19):
        got = assess_combat(pos, rs, ["s-t184-1", "s-m18-t"], h(game, b),
                            context={"targets": {"g-pz10-1": points}}).expected_steps["defender"]
        assert got >= last
        last = got


class _Script(random.Random):
    """A Random whose randint answers from a script; asking past its end raises _Need."""

    script: list = []

    def __init__(self, seed=None):
        super().__init__(0)
        self.i = 0

    def randint(self, a, b):
        if self.i >= len(self.script):
            raise _Need
        self.i += 1
        return self.script[self.i - 1]


class _Need(Exception):
    pass


def _literal(pos, rs, a, monkeypatch) -> dict:
    """Every die sequence the roller asks for, each weighted (1/6)^n: the distribution."""
    monkeypatch.setattr(assessment.random, "Random", _Script)
    out: dict = {}
    stack = [[]]
    while stack:
        script = stack.pop()
        _Script.script = script
        try:
            rolled = roll_combat(pos, rs, a, seed=1)
        except _Need:
            stack.extend(script + [d] for d in range(1, 7))
            continue
        out[rolled.result.text] = out.get(rolled.result.text, Fraction(0)) + Fraction(1, 6 ** len(script))
    return out


def test_the_chain_agrees_with_a_literal_enumeration_of_the_dice(game, rs, monkeypatch):
    pos, hx = _setup(game, 3, weather="snow")
    a = assess_combat(pos, rs, ["s-18g", "s-31g", "s-36g"], hx, context={"targets": {"g-251-1": 24, "g-251-2": 12}})
    assert _literal(pos, rs, a, monkeypatch) == a.distribution
    # and one with tank fright: the unfired unit checks as well
    m = game.maps["main"]
    x, y, _ = (m.format(z) for z in clear_run(m))
    pos = position(game, {"g-pz10-1": x, "g-251-1": x, "s-18g": y, "s-31g": y})
    a = assess_combat(pos, rs, ["g-pz10-1", "g-251-1"], h(game, y), context={"targets": {"s-18g": 6}})
    assert any(s.kind == "morale" for s in a.shots)
    assert _literal(pos, rs, a, monkeypatch) == a.distribution


def test_the_plugin_ruleset_carries_the_fire(game, rs):
    again = ruleset_from_config(ruleset_config(rs))
    pos, hx = _setup(game, 3)
    one = assess_combat(pos, rs, ["s-18g"], hx)
    two = assess_combat(pos, again, ["s-18g"], hx)
    assert type(again).combat_model is not None and one.distribution == two.distribution
    assert again.retreat.rule == "14 B" and again.combat.crt == "conventional_fire"
