"""Properties of combat on every bundled game and on random monotone CRTs: the probabilities of
every attack sum to exactly 1, more attack strength never lowers the column, and a shift in the
attacker's favour never lowers the expected defender loss on a monotone CRT."""

from __future__ import annotations

import copy
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.io import load_game
from toolkit.referee import assess_combat, chart_of, load_position, position_from_scenario, ruleset_for

ATTACK = Path(__file__).resolve().parents[1] / "data" / "combat" / "tutorial-attack.yaml"
GAMES = ("tutorial",)   # the other games join as they are wired (step 3)


@pytest.fixture(scope="module")
def games():
    return {g: load_game(g) for g in GAMES}


def _attacks(pos, rs, side):
    """Every attack of ``side``: each enemy hex with every adjacent friendly unit attacking."""
    grid = pos.map.grid
    by_hex = {}
    for u in pos.on_map(side):
        if u.counter.is_marker:
            continue
        for n in grid.neighbours(u.hex):
            if any(e.side not in (side, None) and not e.counter.is_marker for e in pos.at(n)):
                by_hex.setdefault(n, []).append(u.id)
    return by_hex


@pytest.mark.parametrize("name", GAMES)
def test_every_attack_of_every_side_sums_to_one(games, name):
    g = games[name]
    rs = ruleset_for(g)
    checked = 0
    for scenario in g.scenarios:
        pos = position_from_scenario(g, scenario)
        for side in pos.sides():
            for hex, ids in _attacks(pos, rs, side).items():
                a = assess_combat(pos, rs, ids, hex)
                if a.legal:
                    assert sum(a.distribution.values()) == 1, (scenario, ids, hex)
                    assert all(isinstance(p, Fraction) and p > 0 for p in a.distribution.values())
                    assert sum(a.column_distribution.values()) == 1
                    checked += 1
    assert checked or name == "tutorial"


@pytest.mark.parametrize("name", GAMES)
@given(attack=st.integers(0, 60), extra=st.integers(1, 20), defence=st.integers(1, 30))
@settings(max_examples=60)
def test_more_attack_never_lowers_the_column(games, name, attack, extra, defence):
    chart = chart_of(games[name], ruleset_for(games[name]).combat.crt)
    low, high = chart.column_of(attack, defence), chart.column_of(attack + extra, defence)
    assert low is None or (high is not None and high >= low)


def _defender_steps(result, totals=3):
    d = result.defender
    return totals if d.eliminated else min(totals, d.steps + d.requirements)


def _monotone(chart) -> bool:
    n = len(chart.columns)
    for _, _, cells in chart.rows:
        if any(_defender_steps(cells[i]) > _defender_steps(cells[i + 1]) for i in range(n - 1)):
            return False
    return True


@st.composite
def monotone_charts(draw):
    """A random CRT whose defender losses never fall from one column to the next."""
    n_cols, n_rows = draw(st.integers(2, 7)), draw(st.integers(1, 6))
    rows = {}
    for r in range(1, n_rows + 1):
        steps = sorted(draw(st.lists(st.integers(0, 3), min_size=n_cols, max_size=n_cols)))
        attacker = draw(st.lists(st.integers(0, 2), min_size=n_cols, max_size=n_cols))
        rows[r] = [f"A{a}/D{d}" if d < 3 else f"A{a}/DE" for a, d in zip(attacker, steps)]
    columns = [f"{i + 1}-1" for i in range(n_cols)]
    return {"columns": columns, "dice": draw(st.sampled_from(["1d6", "d10", "2d6"])), "rows": rows}


@given(chart=monotone_charts(), shift=st.integers(-4, 4))
@settings(max_examples=80)
def test_attacker_shift_never_lowers_expected_defender_loss(chart, shift):
    pos = load_position(ATTACK)
    g = copy.copy(pos.game)
    g.__dict__.pop("_combat_charts", None)
    g.charts = {"combat_results": chart}
    pos.game = g
    rs = ruleset_for(g)
    pos.units["r-13"].steps = 2
    before = assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"),
                           context={"modifiers": [{"kind": "shift", "value": shift}]})
    after = assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"),
                          context={"modifiers": [{"kind": "shift", "value": shift + 1}]})
    assert sum(before.distribution.values()) == 1 == sum(after.distribution.values())
    assert after.expected_steps["defender"] >= before.expected_steps["defender"]


def test_the_tutorial_crt_is_monotone_and_shifts_help_the_attacker(games):
    g = games["tutorial"]
    chart = chart_of(g)
    assert _monotone(chart)
    pos = load_position(ATTACK)
    rs = ruleset_for(g)
    losses = [assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"),
                            context={"modifiers": [{"kind": "shift", "value": s}]}).expected_steps["defender"]
              for s in range(-4, 5)]
    assert losses == sorted(losses) and losses[0] < losses[-1]


def test_distribution_matches_a_plain_loop_over_the_dice(games):
    # the referee's sum against a literal enumeration of every die face
    pos = load_position(ATTACK)
    rs = ruleset_for(pos.game)
    a = assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"))
    chart = a.chart
    col = chart.columns.index(a.column)
    literal = {}
    for (face,) in product(range(1, 7), repeat=1):
        text = chart.result(face + a.drm, col).text
        literal[text] = literal.get(text, 0) + Fraction(1, 6)
    assert literal == a.distribution
