"""Movement-related activity (notes section 12): AFV transit of enemy ZOCs (Rule 3 A, case 8),
Brandenburg escorts (21 B, case 12) and assaults into prohibited terrain (12 A, case 13), each
ruling of notes 13 an option with both settings tested."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.referee import check_path, reachable
from toolkit.rulesets.white_death import (assault_into_refusal, brandenburg_chance, brandenburg_found,
                                          brandenburg_rolls, transit_fire, transit_outcome)

from .helpers import clear_run, plain, position

TEN = ("soviet", 10)


def _beside(m, a, b, c):
    """A hex next to b and to neither a nor c: a unit there puts only b in its ZOC."""
    g = m.grid
    return next(n for n in g.neighbours(b) if n in g and n not in (a, c) and not g.adjacent(n, a)
                and not g.adjacent(n, c))


def test_case_8_each_german_unit_whose_zoc_is_exited_fires_once(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    x = _beside(m, a, b, c)
    # two German AT units stacked (so the weapons company has a ZOC, Rule 3), and an observation
    # battalion with no antitank factor, which may not fire (Rule 10 A)
    units = {"s-m18-t": m.format(a), "g-pzj183": m.format(x), "g-flak": m.format(x), "g-obs17": m.format(x)}
    pos = position(game, units, impulse=TEN)
    assert check_path(pos, rs, "s-m18-t", [a, b, c]).ok          # the tank need not stop (3 A)
    assert transit_fire(pos, rs, "s-m18-t", [a, b, c]) == [(b, ["g-flak", "g-pzj183"])]
    assert transit_fire(pos, rs, "s-m18-t", [a, b]) == []          # it stops in the ZOC: nothing exited
    # "a unit may fire at each enemy AFV unit which transits its ZOC": once, however often it
    # crosses it; and an AFV starting in the ZOC draws the fire when it leaves
    assert transit_fire(pos, rs, "s-m18-t", [b, c, b, a]) == [(b, ["g-flak", "g-pzj183"])]
    with pytest.raises(RulesError):
        transit_fire(position(game, {"s-18g": m.format(a)}), rs, "s-18g", [a, b, c])


@pytest.mark.parametrize("option, loss_passed", [("failed_mc", "continue"), ("any_loss", "stop")])
def test_case_8_losses_bring_a_morale_check_a_fail_ends_the_move(game, rs, option, loss_passed):
    pos = position(game, {})
    ruled = rs.with_options(afv_transit_stop=option)
    assert transit_outcome(pos, ruled, 0) == "continue"               # no loss, no check
    assert transit_outcome(pos, ruled, 1, "pass") == loss_passed      # the rule goes on; the UI stops
    assert transit_outcome(pos, ruled, 1, "fail") == "stop"           # in the hex being exited
    assert transit_outcome(pos, ruled, 2, "rout") == "rout"           # rout effects as in defensive fire
    with pytest.raises(RulesError):
        transit_outcome(pos, ruled, 1)                                # losses force the check


def test_case_12_brandenburgers_lead_a_stack_through_soviet_zoc(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    x = _beside(m, a, b, c)
    ids = ["g-brb1", "g-251-1", "g-251-2"]
    pos = position(game, {**{i: m.format(a) for i in ids}, "s-18g": m.format(x)}, side="german",
                   impulse=("german", 10))
    stack = [pos.units[i] for i in ids]
    assert check_path(pos, rs, ids, [a, b, c]).ok                      # not found out: the stack goes on
    assert brandenburg_rolls(pos, rs, stack, [a, b, c]) == 1           # one roll for the one ZOC hex entered
    # d6 - 2 (two non-Brandenburg units); found out on a modified 1 or less: natural 1-3
    assert [brandenburg_found(pos, rs, stack, r) for r in range(1, 7)] == [True] * 3 + [False] * 3
    assert brandenburg_chance(pos, rs, stack) == Fraction(1, 2)
    alone = [pos.units["g-brb1"]]
    assert brandenburg_chance(pos, rs, alone) == Fraction(1, 6)        # "on a roll of 1"
    # without the commandos the same stack stops in the ZOC (Rule 3)
    plain_stack = position(game, {"g-251-1": m.format(a), "g-251-2": m.format(a), "s-18g": m.format(x)},
                           side="german", impulse=("german", 10))
    assert not check_path(plain_stack, rs, ["g-251-1", "g-251-2"], [a, b, c]).ok
    with pytest.raises(RulesError):
        brandenburg_found(plain_stack, rs, [plain_stack.units["g-251-1"]], 1)


def test_case_12_detection_option_exactly_one(game, rs):
    pos = position(game, {"g-brb1": "0505", "g-251-1": "0505", "g-251-2": "0505"}, side="german")
    stack = list(pos.units.values())
    literal = rs.with_options(brandenburg_detection="exactly_1")
    assert [brandenburg_found(pos, literal, stack, r) for r in range(1, 7)] == [False, False, True, False, False, False]
    assert brandenburg_chance(pos, literal, stack) == Fraction(1, 6)


def test_brandenburg_reach_goes_beyond_the_first_zoc_hex(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    x = _beside(m, a, b, c)
    pos = position(game, {"g-brb1": m.format(a), "s-18g": m.format(x)}, side="german", impulse=("german", 10))
    reach = reachable(pos, rs, "g-brb1")
    assert c in reach and reach.board.index[b] not in reach.stopped       # b is passed through, not an end


def _forest_on_road(m):
    road = next(l for l in m.lines if l.name == "Nowossokoljniki-Isotcha road")
    k = road.hexes.index(m.grid.parse("0723"))
    forest = road.hexes[k]
    assert m.terrain(forest) == "forest"
    off = next(n for n in m.grid.neighbours(forest) if n in m.grid and plain(m, n))
    return forest, road.hexes[k + 1], off


def test_case_13_a_tank_assaults_into_forest_only_along_a_road(game, rs):
    m = game.maps["main"]
    forest, on_road, off = _forest_on_road(m)
    pos = position(game, {"s-m18-t": m.format(off), "s-18g": m.format(off), "s-m34-t": m.format(on_road),
                          "g-251-1": m.format(forest)}, impulse=TEN)
    why = assault_into_refusal(pos, rs, pos.units["s-m18-t"], forest)
    assert why is not None and why.rule == "12 A" and "forest" in why.text
    assert assault_into_refusal(pos, rs, pos.units["s-m34-t"], forest) is None      # along the road
    assert assault_into_refusal(pos, rs, pos.units["s-18g"], forest) is None        # leg units may
    with pytest.raises(RulesError):
        assault_into_refusal(pos, rs, pos.units["s-m18-t"], m.grid.parse("3030"))   # not adjacent


def test_case_8_the_transit_fire_resolved(game, rs):
    from toolkit.rulesets.white_death.transit import transit_odds
    m = game.maps["main"]
    a, b, c = clear_run(m)
    x = _beside(m, a, b, c)
    units = {"s-m18-t": m.format(a), "g-pzj183": m.format(x), "g-flak": m.format(x)}
    pos = position(game, units, impulse=TEN)
    (where, firers), = transit_fire(pos, rs, "s-m18-t", [a, b, c])
    odds, shot = transit_odds(pos, rs, "s-m18-t", where, firers)
    # 8 (flak 4 x 2) + 6 (AT company 3 x 2) against the T-34 battalion's 3: 4:1 on the AT table
    assert (shot.fire, shot.defence, shot.column_text) == (14, 3, "4:1")
    assert sum(odds.values()) == 1 and set(odds) <= {"continue", "stop", "rout", "eliminated"}
    # a loss needs a check (3 A): a 1-2 costs two points, 3-5 one, a 6 misses
    assert odds["continue"] > Fraction(1, 6)                      # a miss, or a loss and a passed check
    strict, _ = transit_odds(pos, rs.with_options(afv_transit_stop="any_loss"), "s-m18-t", where, firers)
    assert strict["continue"] == Fraction(1, 6)                   # only the miss goes on (the UI's reading)
    assert odds["continue"] + odds.get("stop", 0) == strict["continue"] + strict.get("stop", 0)
