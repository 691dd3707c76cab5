"""The Soviet 10 (9.4.3) modelled exactly by elite_distribution: the worked example (TC-09: 2-1,
an elite infantry drawn and stacked with KVI-B, 8:2 = 4-1, a 3 is DR), a full stack or an empty
cup reading row 9 (TC-10), the Minsk +1 drawing on a natural 9 (TC-11); each against the d10
read roll by roll."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.referee import Unit, chart_of
from toolkit.rulesets.a_victory_denied.elite import cup_units, elite_distribution

from .test_fixed import _at, _board


def _only_in_cup(pos, keep: tuple[str, ...]):
    """Put every Elite Cup counter but ``keep`` in the Soviet Reserve (out of the cup)."""
    for cid in pos.game.decks[[d.id for d in pos.game.decks].index("elite-cup")].counters:
        if cid not in keep and cid not in pos.units:
            pos.units[cid] = Unit(cid, pos.game.counters[cid], "soviet", box="soviet-reserve")
    return pos


def _add(out, part, p):
    for k, v in part.items():
        out[k] = out.get(k, Fraction(0)) + p * v


def _rows(chart, column, rows, p=Fraction(1, 10)) -> dict:
    out: dict = {}
    for r in rows:
        _add(out, {chart.result(r, chart.columns.index(column)).text: Fraction(1)}, p)
    return out


def test_tc09_the_worked_example_draws_an_elite_infantry_to_4_1(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"g-3pz": x, "s-kv1b": ring[0], "s-20c": ring[1], "s-45c": ring[2]})
    pos.units["s-20c"].steps = pos.units["s-45c"].steps = 1           # 3 + 1 + 1 = 5 against 2: 2-1
    _only_in_cup(pos, ("s-100id",))
    assert cup_units(pos) == ["s-100id"]
    answer = elite_distribution(pos, rs, ["s-kv1b", "s-20c", "s-45c"], x)
    chart = chart_of(g)
    assert answer["column"] == "2-1" and answer["draw"] == Fraction(1, 10)
    assert chart.result(3, chart.columns.index("4-1")).text == "DR"   # the example's re-roll of 3 (cited cell)
    literal = _rows(chart, "2-1", range(1, 10))                        # 1-9 on 2-1
    _add(literal, _rows(chart, "4-1", range(1, 10)), Fraction(1, 10))  # a 10: 8:2 = 4-1, rolled again
    _add(literal, _rows(chart, "4-1", [9]), Fraction(1, 10))           # another 10: the cup is empty: row 9
    assert answer["distribution"] == literal and sum(literal.values()) == 1


def test_tc10_a_full_stack_or_an_empty_cup_reads_row_9(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"g-3pz": x, "s-kv1a": ring[0], "s-kv1b": ring[0]})  # red + red: no room for a third unit
    _only_in_cup(pos, ("s-100id", "s-127id"))
    chart = chart_of(g)
    a = elite_distribution(pos, rs, ["s-kv1a", "s-kv1b"], x)
    literal = _rows(chart, a["column"], range(1, 10))
    _add(literal, _rows(chart, a["column"], [9]), Fraction(1))
    assert a["distribution"] == literal
    empty = _only_in_cup(_at(g, {"g-3pz": x, "s-kv1b": ring[0]}), ())
    assert cup_units(empty) == [] and elite_distribution(empty, rs, ["s-kv1b"], x)["draw"] == 0
    b = elite_distribution(empty, rs, ["s-kv1b"], x)
    lit = _rows(chart, b["column"], range(1, 10))
    _add(lit, _rows(chart, b["column"], [9]), Fraction(1))
    assert b["distribution"] == lit


def test_tc11_under_the_minsk_plus_1_a_natural_9_draws_too(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"g-3pz": x, "s-kv1b": ring[0]})
    _only_in_cup(pos, ("s-100id",))
    chart = chart_of(g)
    a = elite_distribution(pos, rs, ["s-kv1b"], x, context={"minsk": True})
    assert a["draw"] == Fraction(2, 10) and a["column"] == "1.5-1"     # 3:2
    literal = _rows(chart, "1.5-1", range(2, 10))                        # naturals 1-8 + 1
    after = _rows(chart, "3-1", range(2, 10))                            # 6:2 with the infantry
    _add(after, _rows(chart, "3-1", [9], Fraction(1)), Fraction(2, 10))  # 9 or 10 again: the cup is empty
    _add(literal, after, Fraction(2, 10))
    assert a["distribution"] == literal


def test_9_4_3_only_the_soviet_attacker_draws(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"s-20c": x, "g-3pz": ring[0]}, side="german")
    with pytest.raises(RulesError, match="9.4.3"):
        elite_distribution(pos, rs, ["g-3pz"], x)


def test_tc09_rolled_a_10_draws_the_infantry_stacks_it_and_a_3_is_dr(game, rs):
    from toolkit.referee import apply_combat, retreat_options
    from toolkit.rulesets.a_victory_denied.elite import roll_elite
    g, x, ring = _board(game)
    pos = _at(g, {"g-3pz": x, "s-kv1b": ring[0], "s-20c": ring[1], "s-45c": ring[2]})
    pos.units["s-20c"].steps = pos.units["s-45c"].steps = 1
    _only_in_cup(pos, ("s-100id",))
    out = roll_elite(pos, rs, ["s-kv1b", "s-20c", "s-45c"], x, rolls=[10, 3], place={"s-100id": ring[0]})
    assert out["drawn"] == ["s-100id"] and out["position"].unit("s-100id").hex == ring[0]
    assert out["assessment"].column == "4-1" and out["assessment"].ratio == "8:2"
    assert out["roll"].result.text == "DR" and "9.4.3" in out["log"][0]
    assert "s-100id" not in pos.units or pos.unit("s-100id").hex is None           # the input is untouched
    work = out["position"]
    end = retreat_options(work, rs, ["g-3pz"], 1).hexes()[0]
    applied = apply_combat(work, rs, out["assessment"], out["roll"], retreats={"defender": end})
    assert applied.position.unit("g-3pz").hex == end and applied.position.unit("s-100id").hex == ring[0]
    with pytest.raises(RulesError, match="9.4.3"):                                 # only with an attacker
        roll_elite(_only_in_cup(_at(g, {"g-3pz": x, "s-kv1b": ring[0]}), ("s-100id",)), rs, ["s-kv1b"], x,
                   rolls=[10, 3], place={"s-100id": ring[3]})
    full = _only_in_cup(_at(g, {"g-3pz": x, "s-kv1a": ring[0], "s-kv1b": ring[0]}), ("s-100id",))
    stuck = roll_elite(full, rs, ["s-kv1a", "s-kv1b"], x, rolls=[10], place={"s-100id": ring[0]})
    assert stuck["drawn"] == [] and "cannot be stacked" in stuck["log"][0]        # red + red: row 9


def test_tc10_rolled_a_10_with_an_empty_cup_reads_row_9(game, rs):
    from toolkit.rulesets.a_victory_denied.elite import roll_elite
    g, x, ring = _board(game)
    pos = _only_in_cup(_at(g, {"g-3pz": x, "s-kv1b": ring[0]}), ())
    out = roll_elite(pos, rs, ["s-kv1b"], x, rolls=[10])
    chart = chart_of(g)
    assert out["drawn"] == [] and "row 9" in out["log"][0]
    assert out["roll"].result.text == chart.result(9, chart.columns.index(out["assessment"].column)).text
    seeded = roll_elite(_only_in_cup(_at(g, {"g-3pz": x, "s-kv1b": ring[0]}), ("s-100id", "s-127id")), rs,
                        ["s-kv1b"], x, seed=7)
    again = roll_elite(_only_in_cup(_at(g, {"g-3pz": x, "s-kv1b": ring[0]}), ("s-100id", "s-127id")), rs,
                       ["s-kv1b"], x, seed=7)
    assert seeded["log"] == again["log"] and seeded["drawn"] == again["drawn"]    # replayable from the seed
