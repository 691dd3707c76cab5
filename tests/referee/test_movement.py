"""Movement: the search against a brute-force oracle, path checks and their reasons."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import RulesError
from toolkit.hexes import Hex
from toolkit.io import load_game
from toolkit.referee import (Code, MovementMode, Ruleset, Step, check_path, get_ruleset, position_from_scenario,
                             reachable)
from toolkit.referee.board import board_of

from referee_oracle import oracle_reach, random_position

GAME = load_game("tutorial")
RS = get_ruleset("tutorial")


def H(text: str) -> Hex:
    return GAME.main_map.grid.parse(text)


def _engine(pos, ids):
    reach = reachable(pos, RS, ids)
    return {h: (reach.cost(h), reach.board.index[h] in reach.stopped) for h in reach.hexes()}


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**31))
def test_reachable_matches_brute_force_on_random_maps(seed):
    pos, mover = random_position(GAME, seed)
    ids = [mover] + (["b-4"] if "b-4" in pos.units else [])
    assert _engine(pos, ids) == oracle_reach(pos, RS, ids)


ZOC_VARIANTS = st.fixed_dictionaries({
    "stop": st.booleans(),
    "enter_cost": st.sampled_from([0, 1, 2]),
    "leave_cost": st.sampled_from([0, 1, 2]),
    "zoc_to_zoc": st.sampled_from(["allowed", "forbidden", "one-hex", "same-unit"]),
    "infiltration_min_ma": st.sampled_from([None, 6]),
})


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**31), ZOC_VARIANTS, st.booleans())
def test_zoc_variants_and_minimum_move_match_brute_force(seed, zoc, minimum):
    pos, mover = random_position(GAME, seed)
    rs = replace(RS, name="variant", zoc=replace(RS.zoc, **zoc),
                 movement=replace(RS.movement, minimum_move=minimum))
    ids = [mover] + (["b-4"] if "b-4" in pos.units else [])
    reach = reachable(pos, rs, ids)
    got = {h: (reach.cost(h), reach.board.index[h] in reach.stopped) for h in reach.hexes()}
    assert got == oracle_reach(pos, rs, ids)
    for h in reach.hexes():   # and every cheapest path passes the step-by-step check
        check = check_path(pos, rs, ids, reach.path(h))
        assert check.ok, check.reason


FRACTIONS = st.sampled_from([0, 1, Fraction(1, 2), Fraction(1, 4), Fraction(2, 3), Fraction(3, 5), Fraction(5, 7)])


class _Surcharge(Ruleset):
    """A step hook adding ``extra(a, b)`` MP to every step (exact fractions of any size)."""

    extra = None

    def step_rule(self, pos, units, step):
        return replace(step, cost=step.cost + self.extra(step.a, step.b))


def _extra(denominator: int):
    return lambda a, b: Fraction((a.col * 3 + b.row * 5) % 4, denominator)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**31), st.booleans(), FRACTIONS, FRACTIONS, st.booleans(),
       st.sampled_from([None, Fraction(1, 4), Fraction(2, 5), Fraction(3, 7)]), st.booleans(),
       st.sampled_from([None, 2, 3, 11]), st.sampled_from([1, Fraction(1, 2), Fraction(2, 3)]),
       st.sampled_from(["down", "up", "exact"]))
def test_fractional_ruleset_costs_match_brute_force(seed, whole, enter, leave, stop, rate, road_only,
                                                     hook, factor, rounding):
    """ZOC enter/leave costs, a mode's line rate and MA factor, a status factor and step-hook
    costs finer than the map's own costs (issue 11) are all exact: search, oracle and path check
    agree."""
    pos, mover = random_position(GAME, seed, whole=whole)
    ids = [mover] + (["b-4"] if "b-4" in pos.units else [])
    for uid in ids:
        if seed % 3 == 0:
            pos.units[uid].status.add("tired")
    pos.touch()
    mode = MovementMode(name="fast", line_rate=rate, road_only=road_only and rate is not None,
                        ma_factor=factor, round=rounding)
    movement = replace(RS.movement, status_ma={"tired": Fraction(2, 3)}, status_ma_round=rounding,
                       modes={"fast": mode})
    parts = dict(name="fractional", movement=movement, zoc=replace(RS.zoc, enter_cost=enter, leave_cost=leave, stop=stop),
                 stacking=RS.stacking, supply=RS.supply)
    if hook is None:
        rs, extra = Ruleset(**parts), None
    else:
        rs, extra = _Surcharge(**parts), _extra(hook)
        rs.extra = extra
    for m in (None, "fast"):
        reach = reachable(pos, rs, ids, m)
        got = {h: (reach.cost(h), reach.board.index[h] in reach.stopped) for h in reach.hexes()}
        assert got == oracle_reach(pos, rs, ids, m, extra)
        for h in reach.hexes():
            check = check_path(pos, rs, ids, reach.path(h), m)
            assert check.ok, check.reason
            assert check.steps[-1]["spent"] == reach.cost(h)


def test_a_hook_cost_finer_than_the_scale_reruns_at_a_finer_scale():
    class Sevenths(Ruleset):
        def step_rule(self, pos, units, step):
            return replace(step, cost=step.cost + Fraction(1, 7))

    rs = Sevenths(name="sevenths", movement=RS.movement, zoc=RS.zoc)
    pos = position_from_scenario(GAME, "crossing", turn=1)
    pos.place("b-3", H("0108"))
    reach = reachable(pos, rs, "b-3")
    assert reach.cost(H("0608")) == Fraction(5, 3) + Fraction(5, 7)
    assert reach.board.scale % 42 == 0 and board_of(pos.map).scale == 6
    check = check_path(pos, rs, "b-3", [H("0108"), H("0208"), H("0308")])
    assert check.steps[-1]["spent"] == Fraction(2, 3) + Fraction(2, 7)


@pytest.mark.parametrize("bad, match", [(0.5, "int or a Fraction"), (Fraction(-1, 2), "less than 0")])
def test_a_hook_cost_that_is_not_exact_mp_is_refused(bad, match):
    class Bad(Ruleset):
        def step_rule(self, pos, units, step):
            return replace(step, cost=bad)

    pos = position_from_scenario(GAME, "crossing", turn=1)
    with pytest.raises(RulesError, match=match):
        reachable(pos, Bad(name="bad", movement=RS.movement, zoc=RS.zoc), "b-1")


def test_board_scaled_never_rounds():
    board = board_of(GAME.main_map)
    assert board.scaled(Fraction(5, 6)) == 5
    with pytest.raises(RulesError, match="finer"):
        board.scaled(Fraction(1, 4))
    finer = board.at_scale(12)
    assert finer.scaled(Fraction(1, 4)) == 3 and finer.nb is board.nb and finer.to_mp(3) == Fraction(1, 4)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31))
def test_cheapest_path_is_legal_and_costs_what_reach_says(seed):
    pos, mover = random_position(GAME, seed)
    reach = reachable(pos, RS, mover)
    for h in reach.hexes():
        check = check_path(pos, RS, mover, reach.path(h))
        assert check.ok, check.reason
        assert check.steps[-1]["spent"] == reach.cost(h)


def test_scenario_reach_matches_oracle_for_every_unit():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    for unit in pos.on_map():
        assert _engine(pos, [unit.id]) == oracle_reach(pos, RS, [unit.id]), unit.id


def test_hook_override_switches_to_the_generic_search_with_the_same_answer():
    class Same(Ruleset):
        def step_rule(self, pos, units, step: Step):
            return step

    same = Same(name="same", movement=RS.movement, zoc=RS.zoc, stacking=RS.stacking, supply=RS.supply)
    pos = position_from_scenario(GAME, "crossing", turn=1)
    for unit in pos.on_map():
        a, b = reachable(pos, RS, unit.id), reachable(pos, same, unit.id)
        assert (a.spent, a.stopped) == (b.spent, b.stopped)


def test_hook_can_refuse_and_reprice_steps():
    class NoTowns(Ruleset):
        def step_rule(self, pos, units, step):
            if pos.map.terrain(step.b) == "town":
                return step  # leave towns alone
            step.cost = step.cost * 2
            return step

    doubled = NoTowns(name="x", movement=RS.movement, zoc=RS.zoc)
    pos = position_from_scenario(GAME, "crossing", turn=1)
    check = check_path(pos, doubled, "b-2", [H("0503"), H("0403")])
    assert check.ok and check.steps[0]["cost"] == 2


def test_mp_are_exact_fractions():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    pos.place("b-3", H("0108"))
    reach = reachable(pos, RS, "b-3")
    # railway 1/3 a hex from 0108: five hexes along it cost exactly 5/3
    assert reach.cost(H("0608")) == Fraction(5, 3)
    assert reach.mp_left(H("0608")) == 8 - Fraction(5, 3)


def test_path_reports_first_illegal_step_with_rule_hex_and_unit():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    check = check_path(pos, RS, "b-3", [H("0607"), H("0707")])
    assert not check.ok and check.failed_step == 2
    assert check.reason.code is Code.PROHIBITED_HEXSIDE
    assert check.reason.rule == "T.4" and check.reason.hex == H("0707") and check.reason.units == ("b-3",)


def test_path_must_be_adjacent_steps():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    check = check_path(pos, RS, "b-1", [H("0505"), H("0507")])
    assert check.reason.code is Code.NOT_ADJACENT


def test_unknown_unit_and_unit_off_map():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    with pytest.raises(RulesError, match="no unit"):
        reachable(pos, RS, "nope")
    pos.place("b-1", None, box="eliminated")
    assert reachable(pos, RS, "b-1").refused.code is Code.NOT_ON_MAP


def test_stack_must_start_together():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    assert reachable(pos, RS, ["b-1", "b-2"]).refused.code is Code.STACK_SPLIT


def test_unknown_mode_is_an_error():
    pos = position_from_scenario(GAME, "crossing", turn=1)
    with pytest.raises(RulesError, match="no movement mode"):
        reachable(pos, RS, "b-1", mode="warp")


def test_a_hook_may_end_the_move_per_step_and_the_search_stays_exact():
    class TownsStopOffRoad(Ruleset):
        """Entering a town off the road ends the move; along the road it does not."""

        def step_rule(self, pos, units, step):
            if pos.map.terrain(step.b) == "town" and not step.used_line:
                step.stop = True
            return step

    rs = TownsStopOffRoad(name="towns-stop", movement=RS.movement, zoc=RS.zoc)
    pos = position_from_scenario(GAME, "crossing", turn=1)
    pos.place("b-2", H("0404"))
    pos.place("b-1", H("0101"))
    pos.place("b-hq", H("0101"))
    reach = reachable(pos, rs, "b-2")
    kessel = H("0505")
    # straight into Kessel costs 1 but ends the move; via 0405 and the road it costs 3/2 and
    # the move goes on, so 0605 costs 3/2 + 1/2 along the road
    assert reach.cost(kessel) == Fraction(3, 2) and reach.mp_left(kessel) == Fraction(5, 2)
    assert reach.path(kessel) == [H("0404"), H("0405"), kessel]
    assert reach.cost(H("0605")) == 2
    assert check_path(pos, rs, "b-2", [H("0404"), kessel, H("0605")]).reason.code is Code.MOVE_ENDED
