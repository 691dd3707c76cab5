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
from toolkit.referee import assess_combat, chart_of, load_position, position_from_scenario, roll_combat, ruleset_for

ATTACK = Path(__file__).resolve().parents[1] / "data" / "combat" / "tutorial-attack.yaml"
GAMES = ("tutorial", "velikiye-luki", "demyansk-shield")


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


DATA = Path(__file__).resolve().parents[1] / "data"
POSITIONS = {"tutorial": sorted((DATA / "combat").glob("tutorial-*.yaml")),
             "velikiye-luki": sorted((DATA / "velikiye-luki").glob("*.yaml")),
             "demyansk-shield": sorted((DATA / "demyansk-shield").glob("*.yaml"))}


@pytest.mark.parametrize("name", GAMES)
def test_every_attack_of_every_side_sums_to_one(games, name):
    """Each scenario's set-up and each position file of the game: every attack by all the units
    next to an enemy hex."""
    g = games[name]
    rs = ruleset_for(g)
    checked = 0
    positions = [position_from_scenario(g, s) for s in g.scenarios] + [load_position(p) for p in POSITIONS[name]]
    for pos in positions:
        for side in pos.sides():
            for hex, ids in _attacks(pos, rs, side).items():
                a = assess_combat(pos, rs, ids, hex)
                if a.legal:
                    assert sum(a.distribution.values()) == 1, (ids, hex)
                    assert all(isinstance(p, Fraction) and p > 0 for p in a.distribution.values())
                    assert sum(a.column_distribution.values()) == 1
                    checked += 1
    assert checked


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


_LOADED = {}


def _attack_position():
    """The tutorial attack position, read once (each example works on a copy)."""
    if "pos" not in _LOADED:
        _LOADED["pos"] = load_position(ATTACK)
    return _LOADED["pos"]


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
    pos = _attack_position().copy()
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


def test_differential_d10_crt_with_a_one_sided_random_shift_and_chits():
    """The shapes later games need: a differential CRT on a d10, a random shift one side rolls on
    its own die (2d6), and a chit's DRM declared in the context; checked against a literal loop."""
    import dataclasses

    from toolkit.referee import RandomShift
    pos = load_position(ATTACK)
    g = copy.copy(pos.game)
    g.__dict__.pop("_combat_charts", None)
    g.charts = {
        "combat_results": {"kind": "differential", "dice": "d10", "columns": ["-2", "0", "+2", "+4", "+6"],
                           "rows": {"1-3": ["AE", "A1", "A1/D1", "D1", "D2"], "4-7": ["A1", "A1/D1", "D1", "D2", "DE"],
                                    "8+": ["A1/D1", "D1", "D2", "DE", "DE"]}},
        "morale": {"columns": ["elite", "line"], "rows": {r: (["+1", "0"] if r >= 9 else ["0", "-1"] if r <= 4
                                                             else ["0", "0"]) for r in range(2, 13)}},
    }
    pos.game = g
    rs = ruleset_for(g)
    rs = dataclasses.replace(rs, combat=dataclasses.replace(
        rs.combat, minimum_odds=None, below_table="first",
        random_shifts=(RandomShift("morale", chart="morale", value="morale", dice="2d6", sides=("attacker",)),)))
    for u in pos.units.values():
        u.counter = dataclasses.replace(u.counter, front={**u.counter.front, "morale": "line"})
    a = assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"),
                      context={"modifiers": [{"kind": "drm", "value": 1, "rule": "chit", "text": "Stuka chit"}]})
    assert a.legal and a.chart.kind == "differential" and a.odds == "+6" and a.drm == 1   # 10 - 3 = +7
    assert sum(a.distribution.values()) == 1 and len(a.column_distribution) == 2
    literal = {}
    chart = a.chart
    for (d10,) in product(range(1, 11), repeat=1):
        for a1, a2 in product(range(1, 7), repeat=2):
            s = -1 if a1 + a2 <= 4 else 0                      # the "line" column
            col = min(len(chart.columns) - 1, max(0, chart.columns.index("+6") + s))
            text = chart.result(d10 + 1, col).text
            literal[text] = literal.get(text, 0) + Fraction(1, 360)
    assert literal == a.distribution


def test_dice_by_the_attackers_side_and_rerolls():
    """A Victory Denied's shape (9.2, 9.4.3): the German attacker rolls a d6, the Soviet a d10
    whose 10 is rolled again, so rows 1-9 are equally likely."""
    pos = _attack_position().copy()
    g = copy.copy(pos.game)
    g.__dict__.pop("_combat_charts", None)
    rows = {r: [f"D{min(r, 9) // 3}" if r > 2 else "A1"] * 3 for r in range(1, 10)}
    g.charts = {"combat_results": {"columns": ["1-1", "2-1", "3-1"], "dice": {"red": "1d6", "blue": "d10"},
                                   "reroll": {"blue": [10]}, "rows": rows}}
    pos.game = g
    rs = ruleset_for(g)
    import dataclasses
    rs = dataclasses.replace(rs, combat=dataclasses.replace(rs.combat, minimum_odds=None))
    a = assess_combat(pos, rs, ["b-4", "b-2"], pos.map.grid.parse("0805"))
    assert a.chart.dice_for("blue") == "d10" and a.to_dict()["crt"]["reroll"] == [10]
    assert a.distribution == {"A1": Fraction(2, 9), "D1": Fraction(3, 9), "D2": Fraction(3, 9), "D3": Fraction(1, 9)}
    rolled = roll_combat(pos, rs, a, seed=3)
    assert 1 <= rolled.roll <= 9 and "d10" in rolled.log
    with pytest.raises(Exception, match="rolled again"):
        roll_combat(pos, rs, a, roll=10)
    seen = {roll_combat(pos, rs, a, seed=s).roll for s in range(60)}
    assert 10 not in seen and len(seen) == 9
