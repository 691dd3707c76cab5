"""Movement (8, TC-19 to TC-25): costs by class, rivers, ZOC costs, strategic movement, the
Minsk Pocket and PVO units. Hexes are picked on the estimated map by what they hold, so each
test isolates its rule; the options of the notes' ambiguities are tested both ways."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.hexes import Hexside
from toolkit.referee import check_path, reachable

from .helpers import plain, position, river_sides


def _clear_pair_over(m, code, bridged):
    """Two clear hexes (no road, no feature) across a hexside of ``code``, and a third clear hex
    beyond the second, across no river."""
    for side in river_sides(m, code, bridged):
        a, b = side
        for x, y in ((a, b), (b, a)):
            if not (plain(m, x) and plain(m, y)):
                continue
            for c in m.grid.neighbours(y):
                if c in m.grid and c != x and not m.grid.adjacent(c, x) and plain(m, c) \
                        and not m.hexside_codes(Hexside.of(y, c)):
                    return x, y, c
    raise AssertionError(f"no {code} crossing between clear hexes")


def _enemy_next_to(m, target, avoid):
    """A clear hex next to ``target`` and not next to any hex of ``avoid``."""
    for n in m.grid.neighbours(target):
        if n in m.grid and plain(m, n) and all(n != a and not m.grid.adjacent(n, a) for a in avoid):
            return n
    raise AssertionError("no hex for the enemy unit")


def test_tc19_mechanised_corps_across_a_minor_river_then_into_zoc(game, rs):
    m = game.main_map
    a, b, c = _clear_pair_over(m, "minor_river", bridged=False)
    enemy = _enemy_next_to(m, c, [a, b])
    pos = position(game, {"s-20m": m.format(a), "g-45id": m.format(enemy)})
    check = check_path(pos, rs, ["s-20m"], [a, b, c])
    assert check.ok, check.reason
    assert [s["cost"] for s in check.steps] == [3, 3]           # 1 + 2 (minor river), 1 + 2 (enter ZOC)


def test_tc19_non_motorised_pays_one_for_a_minor_river(game, rs):
    m = game.main_map
    a, b, c = _clear_pair_over(m, "minor_river", bridged=False)
    pos = position(game, {"s-45c": m.format(a)})
    assert check_path(pos, rs, ["s-45c"], [a, b]).steps[0]["cost"] == 2


def test_tc19_leaving_and_entering_zoc_is_cumulative(game, rs):
    m = game.main_map
    # a woods hex next to a clear start, both next to one German unit (8.2.1)
    for w in m.grid:
        if m.terrain(w) != "woods" or m.features(w):
            continue
        for a in m.grid.neighbours(w):
            if a not in m.grid or not plain(m, a) or m.hexside_codes(Hexside.of(a, w)):
                continue
            for e in m.grid.neighbours(w):
                if e in m.grid and e != a and m.grid.adjacent(e, a) and plain(m, e):
                    pos = position(game, {"s-23m": m.format(a), "g-45id": m.format(e), "s-45c": m.format(a)})
                    # 23rd Mech: woods 2 + leave 2 + enter 2 = 6
                    assert check_path(pos, rs, ["s-23m"], [a, w]).steps[0]["cost"] == 6
                    # a corps pays 1 + 2 + 2 = 5, more than its MA of 4: it cannot enter (8.1.2)
                    refused = check_path(pos, rs, ["s-45c"], [a, w])
                    assert not refused.ok and refused.reason.code.value == "not-enough-mp"
                    # 45th Corps from outside the ZOC into the woods in it: 1 + 2 = 3
                    out = next((o for o in m.grid.neighbours(w) if o in m.grid and plain(m, o)
                                and not m.grid.adjacent(o, e) and o != e
                                and not m.hexside_codes(Hexside.of(o, w))), None)
                    if out is None:
                        continue
                    pos = position(game, {"s-45c": m.format(out), "g-45id": m.format(e)})
                    assert check_path(pos, rs, ["s-45c"], [out, w]).steps[0]["cost"] == 3
                    return
    raise AssertionError("no woods hex for the example")


def test_tc20_tc21_strategic_movement_is_for_non_motorised_units_out_of_zoc(game, rs):
    m = game.main_map
    road = next(l for l in m.lines if l.name == "Smolensk-Roslavl-Bryansk road")
    start = road.hexes[3]
    pos = position(game, {"s-20m": m.format(start), "s-45c": m.format(start)})
    refused = reachable(pos, rs, ["s-20m"], mode="strategic").refused
    assert refused is not None and refused.rule == "8.3.1"
    pos = position(game, {"s-45c": m.format(start), "g-45id": m.format(_enemy_next_to(m, start, []))})
    refused = reachable(pos, rs, ["s-45c"], mode="strategic").refused
    assert refused is not None and refused.rule == "8.3.1"


def _quiet_road(m, length):
    """``length`` consecutive hexes of one road, clear of victory hexes and their neighbours."""
    victory = {v.hex for v in m.victory}
    for line in m.lines:
        for i in range(len(line.hexes) - length):
            stretch = line.hexes[i:i + length]
            if all(h not in victory and not any(n in victory for n in m.grid.neighbours(h)) for h in stretch) \
                    and all(m.grid.adjacent(x, y) for x, y in zip(stretch, stretch[1:])):
                return stretch
    raise AssertionError("no quiet road")


@pytest.mark.parametrize("cost", ["1/2", "1/3"])
def test_tc19_strategic_movement_along_the_road_at_the_optional_cost(game, rs, cost):
    m = game.main_map
    road = _quiet_road(m, 6)
    pos = position(game, {"s-63c": m.format(road[0])})
    check = check_path(pos, rs.with_options(strategic_cost=cost), ["s-63c"], road, mode="strategic")
    assert check.ok, check.reason
    assert {s["cost"] for s in check.steps} == {Fraction(cost)}
    # the default reads 1/2 (the worked example and 11.1.2)
    assert check_path(pos, rs, ["s-63c"], road[:3], mode="strategic").steps[0]["cost"] == Fraction(1, 2)


def test_tc19_strategic_movement_stops_short_of_enemies_and_enemy_victory_hexes(game, rs):
    m = game.main_map
    road = _quiet_road(m, 6)
    ahead = road[4]
    enemy = next(n for n in m.grid.neighbours(ahead) if n in m.grid and n not in road
                 and not any(m.grid.adjacent(n, h) for h in road[:3]))
    pos = position(game, {"s-63c": m.format(road[0]), "g-hq-9a": m.format(enemy)})    # an HQ counts too
    check = check_path(pos, rs, ["s-63c"], road[:5], mode="strategic")
    assert not check.ok and check.reason.rule == "8.3.1" and check.failed_step == 4
    # a Victory Hex beside the road: enemy-controlled without a chit for a Soviet unit (8.3.1)
    spas = m.grid.parse("3336")
    line = next(l for l in m.lines if spas in l.hexes)
    i = line.hexes.index(spas)
    stretch = list(line.hexes[i + 2:i + 5])[::-1] + [line.hexes[i + 1]]   # ends next to Spas Demensk
    start = stretch[0]
    pos = position(game, {"s-63c": m.format(start)})
    check = check_path(pos, rs, ["s-63c"], stretch, mode="strategic")
    assert not check.ok and "Victory Hex" in check.reason.text
    pos = position(game, {"s-63c": m.format(start), "vp-minor1": "3336"})   # the chit is there: Soviet
    assert check_path(pos, rs, ["s-63c"], stretch, mode="strategic").ok


def test_tc22_unbridged_major_river_first_hex_then_stop(game, rs):
    m = game.main_map
    a, b, c = _clear_pair_over(m, "major_river", bridged=False)
    pos = position(game, {"s-45c": m.format(a)})
    check = check_path(pos, rs, ["s-45c"], [a, b])
    assert check.ok and check.steps[0]["cost"] == 1
    assert not check_path(pos, rs, ["s-45c"], [a, b, c]).ok           # must stop after crossing
    # reaching the river after moving first: refused by default, allowed by the looser option
    back = next(n for n in m.grid.neighbours(a) if n in m.grid and n != b and plain(m, n)
                and not m.hexside_codes(Hexside.of(n, a)) and not m.grid.adjacent(n, b))
    pos = position(game, {"s-45c": m.format(back)})
    refused = check_path(pos, rs, ["s-45c"], [back, a, b])
    loose = rs.with_options(major_river_crossing="start_adjacent")
    starts_by_river = any(n in m.grid and "major_river" in m.hexside_codes(Hexside.of(back, n))
                          and Hexside.of(back, n) not in m.line_links() for n in m.grid.neighbours(back))
    assert not refused.ok and refused.reason.rule == "8.1.3"
    assert check_path(pos, loose, ["s-45c"], [back, a, b]).ok == starts_by_river
    pos = position(game, {"s-45c": m.format(a)})
    assert check_path(pos, loose, ["s-45c"], [a, b]).ok


def test_tc23_no_major_river_crossing_between_two_enemy_zocs_even_bridged(game, rs):
    m = game.main_map
    for a, b in river_sides(m, "major_river", bridged=True):
        for x, y in ((a, b), (b, a)):
            enemies = [n for n in m.grid.neighbours(x) if n in m.grid and n != y and m.grid.adjacent(n, y)
                       and not m.features(n)]
            if enemies:
                pos = position(game, {"s-45c": m.format(x), "g-45id": m.format(enemies[0])})
                check = check_path(pos, rs, ["s-45c"], [x, y])
                assert not check.ok and check.reason.rule == "8.2.2"
                pos = position(game, {"s-45c": m.format(x)})
                assert check_path(pos, rs, ["s-45c"], [x, y]).ok          # no ZOC: the bridge carries it
                return
    raise AssertionError("no bridged major river for the test")


def test_tc25_pvo_never_moves(game, rs):
    pos = position(game, {"s-pvo1": "3627"})
    refused = reachable(pos, rs, ["s-pvo1"]).refused
    assert refused is not None and refused.rule == "8.1.6"


def test_tc53_german_units_never_enter_the_minsk_pocket(game, rs):
    m = game.main_map
    pos = position(game, {"g-5id": "3106"}, side="german")
    check = check_path(pos, rs, ["g-5id"], [m.grid.parse("3106"), m.grid.parse("3105")])
    assert not check.ok and check.reason.rule == "14"
    assert all("minsk_pocket" not in m.features(h) for h in reachable(pos, rs, ["g-5id"]).hexes())


@pytest.mark.parametrize("option, both", [("cumulative", 2), ("once", 5)])
def test_halved_movement_allowance_rounds_down(game, rs, option, both):
    # 10.3.2-10.3.3 with 1.3: a 5 MA halved is 2; a 10 MA Out of Supply and Isolated is
    # quartered to 2 (notes 14.4.3, default) or halved once to 5 (option oos_and_isolated)
    pos = position(game, {"g-7pz": "3919", "g-102id": "3106"}, side="german",
                   **{"g-7pz": {"status": {"out_of_supply", "isolated"}}, "g-102id": {"status": {"isolated"}}})
    r = rs.with_options(oos_and_isolated=option)
    assert reachable(pos, r, ["g-102id"]).ma == 2
    assert reachable(pos, r, ["g-7pz"]).ma == both


@pytest.mark.parametrize("cost, ma", [("1/2", Fraction(9, 2)), ("1/3", Fraction(14, 3))])
def test_tc46_a_9th_army_reinforcement_enters_3106_by_strategic_movement(game, rs, cost, ma):
    from toolkit.referee import Unit
    from toolkit.rulesets.a_victory_denied import entry_moves
    m = game.main_map
    entry = m.grid.parse("3106")
    pos = position(game, {}, side="german", turn=1)
    pos.units["g-102id"] = Unit(id="g-102id", counter=game.counters["g-102id"], side="german", box="off-map-9th-army")
    reach = entry_moves(pos, rs.with_options(strategic_cost=cost), "g-102id", entry)
    assert reach.refused is None and reach.ma == ma                     # 5 MP less the entry hex's road rate
    road = next(line for line in m.lines if entry in line.hexes).hexes
    assert set(reach.hexes()) <= {h for line in m.lines for h in line.hexes}    # along roads only
    assert road[road.index(entry) + 1] in reach.hexes()
    # an entry hex next to a Soviet unit: strategic movement is impossible, left to a human ruling
    pos.units["s-45c"] = Unit(id="s-45c", counter=game.counters["s-45c"], side="soviet", hex=m.grid.parse("3107"))
    pos.touch()
    refused = entry_moves(pos, rs, "g-102id", entry).refused
    assert refused is not None and refused.rule == "11.1.2" and "14.4.14" in refused.text
