"""Combat arithmetic: rounding (1.3, TC-01, TC-02), odds columns (9.3.2, TC-03), shifts and
legality (9.3.3-9.3.7, TC-04 to TC-08), dice (9.2) and artillery count (13.2)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from toolkit.rulesets.a_victory_denied import (COLUMNS, art_attacks, attack_die, combat_column, halve, odds_column,
                                               quarter, stack_strength)


def test_tc01_rounding_is_down():
    assert halve(5) == 2 and quarter(3) == 0 and halve(1) == 0


def test_tc02_stacks_are_added_before_halving():
    assert stack_strength([3], 1) == 1
    assert stack_strength([3, 3], 1) == 3                 # one hex: (3 + 3) / 2
    assert stack_strength([3], 1) + stack_strength([3], 1) == 2   # two hexes
    assert stack_strength([9], 2) == 2                    # river and supply halvings cumulate: a quarter


@pytest.mark.parametrize("attack, defence, column", [(15, 5, "3-1"), (26, 9, "2-1"), (12, 7, "1.5-1"),
                                                    (18, 13, "1-1"), (25, 2, "10-1")])
def test_tc03_ratios_round_down_to_a_column(attack, defence, column):
    assert COLUMNS[odds_column(attack, defence)] == column


def test_tc04_the_combat_ratio_example():
    # KVI across a river 3 -> 1, 45th Corps across a river 3 -> 1, KVI 3: 5 vs 2 (9.3 example)
    attack = stack_strength([3], 1) + stack_strength([3], 1) + 3
    assert combat_column(attack, 2).column == "2-1"
    assert combat_column(attack, 2, terrain_shifts=2).column == "1-1"     # in a city


def test_tc05_tc06_woods_and_stuka_cap_at_10_1():
    r = combat_column(24, 2, terrain_shifts=1, stuka="attack")
    assert r.legal and r.odds == "10-1" and r.column == "10-1"
    assert combat_column(24, 2, terrain_shifts=1).column == "9-1"


def test_tc07_legality_is_checked_after_terrain_before_other_shifts():
    assert not combat_column(3, 2, terrain_shifts=2, turn1_german=True, stuka="attack").legal
    assert combat_column(4, 2, terrain_shifts=2).column == "1-1"
    assert combat_column(4, 2, terrain_shifts=2, turn1_german=True).column == "2-1"
    assert combat_column(4, 2, terrain_shifts=2, turn1_german=True, stuka="attack").column == "4-1"
    assert not combat_column(2, 3).legal


def test_tc08_zero_defence_is_10_1_without_terrain():
    r = combat_column(1, halve(1), terrain_shifts=2)
    assert r.legal and r.column == "10-1"


def test_timoshenko_and_defensive_stuka():
    assert combat_column(6, 2, timoshenko=True).column == "4-1"
    assert combat_column(3, 2, stuka="defence").column == "1-1"     # clamped (estimated)


def test_dice_and_artillery():
    assert attack_die("german") == 6 and attack_die("soviet") == 10
    assert art_attacks(5) == 2 and art_attacks(1) == 0 and art_attacks(6) == 3      # TC-48
    with pytest.raises(ValueError):
        art_attacks(7)


def _literal_column(attack: int, defence: int):
    """The column by listing every column's lowest ratio (a slow, literal reading of 9.3.2)."""
    lowest = [(1, 1), (3, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1), (9, 1), (10, 1)]
    best = None
    for i, (a, d) in enumerate(lowest):
        if attack * d >= a * defence:
            best = i
    return best


@given(st.integers(0, 200), st.integers(1, 60))
def test_odds_match_a_literal_reading(attack, defence):
    assert odds_column(attack, defence) == _literal_column(attack, defence)


def test_the_estimated_crt_reads_as_the_shared_combat_engine_reads_charts(game):
    from fractions import Fraction

    from toolkit.referee.combat_chart import chart_of
    chart = chart_of(game)
    assert chart.columns == list(COLUMNS) and chart.dice == "1d6"
    for attack, defence in [(15, 5), (26, 9), (12, 7), (18, 13), (25, 2), (1, 2)]:
        assert chart.column_of(Fraction(attack), Fraction(defence)) == odds_column(attack, defence)
    cited = chart.result(3, COLUMNS.index("4-1"))                   # 9.4.3 example: 4-1, roll 3 = DR
    assert cited.defender.retreat == (1,) and cited.defender.steps == 0 and cited.attacker.steps == 0
    big = chart.result(6, COLUMNS.index("10-1"))
    assert big.defender.steps == 4 and big.defender.retreat == (2,)
    assert len(chart.rows) == 9                                      # the Soviet d10 reads rows 1-9
