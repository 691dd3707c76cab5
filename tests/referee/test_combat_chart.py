"""The CRT as data: dice, result codes, row and column labels, odds and differential tables,
and clear errors for malformed charts."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from toolkit.errors import DataError
from toolkit.referee import chart_of, dice_distribution
from toolkit.referee.combat_chart import SideResult, parse_result, shift_distribution


@pytest.mark.parametrize("dice,low,high,count", [("1d6", 1, 6, 6), ("d10", 1, 10, 10), ("2d6", 2, 12, 11),
                                                 ("3d6", 3, 18, 16)])
def test_dice_distributions_are_exact(dice, low, high, count):
    dist = dice_distribution(dice)
    assert sum(dist.values()) == 1 and min(dist) == low and max(dist) == high and len(dist) == count


def test_dice_known_values():
    assert dice_distribution("2d6")[7] == Fraction(1, 6)
    assert dice_distribution("3d6")[10] == Fraction(27, 216)
    assert dice_distribution("d10")[3] == Fraction(1, 10)
    with pytest.raises(ValueError, match="NdS"):
        dice_distribution("two dice")


def test_result_codes():
    vv = parse_result("1/R2", numbers="requirements", sides="positional")
    assert vv.attacker == SideResult(requirements=1) and vv.defender == SideResult(retreat=(1,), requirements=2)
    assert parse_result("-/-", "requirements", "positional").defender.empty
    assert parse_result("R2/-", "requirements", "positional").attacker == SideResult(retreat=(1,), requirements=2)
    ds = parse_result("A1*/DR", retreat=(1, 2))
    assert ds.attacker == SideResult(steps=1, special=True) and ds.defender == SideResult(retreat=(1, 2))
    assert parse_result("D1R2").defender == SideResult(steps=1, retreat=(2,))
    assert parse_result("DE").defender.eliminated and parse_result("EX").attacker.exchange
    assert parse_result("NE").attacker.empty and parse_result("NE").defender.empty
    with pytest.raises(ValueError, match="A or D"):
        parse_result("Q2")


def _game_with(tutorial, **chart):
    g = copy.copy(tutorial)
    g.__dict__.pop("_combat_charts", None)
    g.charts = {"combat_results": chart}
    return g


def test_differential_chart_and_row_labels(tutorial):
    g = _game_with(tutorial, kind="differential", dice="2d6", columns=["-2", "0", "+3"],
                   rows={"<=4": ["AE", "A1", "DR"], "5-9": ["A1", "DR", "D1"], "10+": ["DR", "D1", "DE"]})
    chart = chart_of(g)
    assert chart.kind == "differential" and chart.bounds == [-2, 0, 3]
    assert chart.column_of(5, 9) is None and chart.column_of(5, 7) == 0 and chart.column_of(9, 7) == 1
    assert chart.column_of(20, 7) == 2
    assert [chart.result(r, 1).text for r in (2, 4, 5, 9, 10, 12, 15)] == ["A1", "A1", "DR", "DR", "D1", "D1", "D1"]
    assert chart.result(0, 0).text == "AE"                       # below the table reads the first row


def test_odds_labels(tutorial):
    g = _game_with(tutorial, columns=["1:2", "1-1", "3/2", "2:1"], rows={1: ["A1", "NE", "DR", "D1"]})
    chart = chart_of(g)
    assert chart.bounds == [Fraction(1, 2), 1, Fraction(3, 2), 2] and chart.kind == "odds"
    assert chart.column_of(3, 0) == 3                            # no defence: the last column


@pytest.mark.parametrize("chart,field", [
    ({"columns": ["1-1", "2-1"], "rows": {1: ["A1"]}}, "must have 2 results"),
    ({"columns": ["2-1", "1-1"], "rows": {1: ["A1", "D1"]}}, "increasing"),
    ({"columns": ["1-1"], "rows": {"one": ["A1"]}}, "not a roll"),
    ({"columns": ["1-1"], "rows": {1: ["Z9"]}}, "row 1"),
    ({"columns": ["1-1"], "dice": "2d", "rows": {1: ["A1"]}}, "NdS"),
    ({"rows": {1: ["A1"]}}, "columns are missing"),
])
def test_malformed_charts_name_the_file_and_field(tutorial, chart, field):
    with pytest.raises(DataError, match=field) as info:
        chart_of(_game_with(tutorial, **chart))
    assert "game.yaml" in str(info.value) and "charts.combat_results" in str(info.value)


def test_missing_chart_is_a_data_error(tutorial):
    g = copy.copy(tutorial)
    g.__dict__.pop("_combat_charts", None)
    g.charts = {}
    with pytest.raises(DataError, match="no combat results table"):
        chart_of(g)


def test_shift_distribution_convolves():
    out = shift_distribution([{0: Fraction(1, 2), 1: Fraction(1, 2)}, {0: Fraction(1, 2), -1: Fraction(1, 2)}])
    assert out == {-1: Fraction(1, 4), 0: Fraction(1, 2), 1: Fraction(1, 4)}


def test_unit_results_of_grossdeutschland_10_4():
    from toolkit.referee.combat import _steps
    assert parse_result("DC").defender == SideResult(steps=1)          # casualties: one step
    assert parse_result("DD").defender == SideResult(units=1)          # decimated: one unit
    assert parse_result("AP").attacker == SideResult(half_units=True)  # pulverized: half the units
    assert parse_result("AE").attacker.eliminated and parse_result("-").defender.empty
    steps = {"attacker": [1, 2, 2], "defender": [1, 2]}
    assert _steps(parse_result("DD"), "defender", steps) == 1          # the owner loses his smallest unit
    assert _steps(parse_result("AP"), "attacker", steps) == 1          # half of 3 units = 1, the smallest
    assert _steps(parse_result("DE"), "defender", steps) == 3
    assert _steps(parse_result("EX"), "attacker", steps) == 3          # as many steps as the defender lost


def test_the_grossdeutschland_crt_reads(tmp_path):
    from toolkit.io import load_game
    try:
        g = load_game("grossdeutschland")
    except Exception:          # the game is another branch's; without it there is nothing to read
        pytest.skip("grossdeutschland is not bundled here")
    chart = chart_of(g)
    assert chart.dice == "2d6" and chart.result(2, 0).defender == SideResult(steps=1)
