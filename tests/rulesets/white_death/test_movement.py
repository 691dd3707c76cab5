"""Movement (Rules 3, 6, 7, 12 A, 13, 16, 20, 22, p.35): the section-12 cases 1-7, 9-11, 58, 63-65,
and positions built to isolate each rule on the estimated map."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.referee import check_path, reachable
from toolkit.rulesets.white_death.terrain import bank, bridges, water

from .helpers import clear_run, course, plain, plain_river_hexes, position

TEN = ("soviet", 10)


def _fmt(game, *hexes):
    return [game.maps["main"].format(x) for x in hexes]


def _costs(check):
    return [s["cost"] for s in check.steps]


def _creek_run(m):
    """A plain hex X, three consecutive creek hexes c1-c3 (creek only), and a plain hex Y off c3."""
    for line in (l for l in m.lines if l.code == "river" and l.name != "Lowatj"):
        hx = line.hexes
        for k in range(len(hx) - 2):
            run = hx[k:k + 3]
            if any(set(m.features(c)) != {"creek"} for c in run):
                continue
            near = lambda c: [n for n in m.grid.neighbours(c) if n in m.grid and plain(m, n) and n not in hx]
            xs, ys = near(run[0]), near(run[2])
            if xs and ys:
                return xs[0], run, ys[0]
    raise AssertionError("no creek run")


def test_case_1_creek_draft_one_in_one_along_two_plus_the_next_hex_out(game, rs):
    m = game.maps["main"]
    x, run, y = _creek_run(m)
    pos = position(game, {"s-art-9g": m.format(x)}, impulse=TEN)
    check = check_path(pos, rs, "s-art-9g", [x, *run, y])
    assert check.ok, check.reason
    clear_draft = 2                                                  # the TEC's clear cost for draft
    assert _costs(check) == [1, 1, 1, 2 + clear_draft]


def test_case_2_road_rate_only_when_moving_along_the_road(game, rs):
    m = game.maps["main"]
    road = next(l for l in m.lines if l.name == "Nowossokoljniki-Isotcha road")
    k = road.hexes.index(m.grid.parse("0723"))
    forest, after = road.hexes[k], road.hexes[k + 1]
    off = next(n for n in m.grid.neighbours(forest) if n in m.grid and plain(m, n))
    pos = position(game, {"s-18g": m.format(off)}, impulse=TEN)
    check = check_path(pos, rs, "s-18g", [off, forest, after])
    assert check.ok, check.reason
    assert _costs(check) == [2, Fraction(1, 2)]                      # forest, then the road rate


def test_case_3_a_road_does_not_negate_a_river_a_bridge_does(game, rs):
    m = game.maps["main"]
    pos = position(game, {}, impulse=TEN)
    standing = bridges(pos)
    for line in (l for l in m.lines if l.code in ("road", "rail")):
        for k in range(1, len(line.hexes) - 1):
            r = line.hexes[k]
            a, b = line.hexes[k - 1], line.hexes[k + 1]
            if water(m, r) == "river" and not water(m, a) and not water(m, b) and not m.features(a) \
                    and not m.features(b):
                pos = position(game, {"s-18g": m.format(a)}, impulse=TEN)
                check = check_path(pos, rs, "s-18g", [a, r, b])
                assert check.ok, check.reason
                if r in standing:
                    assert _costs(check) == [Fraction(1, 2), Fraction(1, 2)]
                else:
                    assert _costs(check) == [2, 1 + Fraction(1, 2)]  # river leg 2 in, 1 out + the road
                return
    raise AssertionError("no road crossing")


def test_a_bridge_blown_restores_the_river_and_a_built_one_negates_it(game, rs):
    m = game.maps["main"]
    pos = position(game, {}, impulse=TEN)
    hexes = [h for h in course(m, "Lowatj") if "bridge" in m.features(h)]
    assert len(bridges(pos)) == 4
    blown = position(game, {}, impulse=TEN, bridges={"blown": [m.format(hexes[0])], "built": ["1425"]})
    assert hexes[0] not in bridges(blown) and m.grid.parse("1425") in bridges(blown)


def test_cases_4_and_6_entering_enemy_zoc_stops_even_with_friends_there(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    enemy = next(n for n in m.grid.neighbours(c) if n in m.grid and n != b and not m.grid.adjacent(n, b)
                 and not m.grid.adjacent(n, a))
    pos = position(game, {"s-18g": m.format(a), "g-251-1": m.format(enemy), "s-1188": m.format(c)}, impulse=TEN)
    reach = reachable(pos, rs, "s-18g")
    assert c in reach and reach.mp_left(c) == 0                      # stops with MP unused
    check = check_path(pos, rs, "s-18g", [a, b, c, next(n for n in m.grid.neighbours(c) if n not in (b, enemy))])
    assert not check.ok and check.reason.rule == "3"


def test_case_5_leaving_a_zoc_costs_one_more_and_zoc_to_zoc_ends_the_move(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    enemy = next(n for n in m.grid.neighbours(a) if n in m.grid and n != b and not m.grid.adjacent(n, c)
                 and not m.grid.adjacent(n, b))
    pos = position(game, {"s-18g": m.format(a), "g-251-1": m.format(enemy)}, impulse=TEN)
    check = check_path(pos, rs, "s-18g", [a, b, c])
    assert check.ok and _costs(check)[0] == 1 + 1                    # clear + 1 to leave the ZOC
    both = next(n for n in m.grid.neighbours(enemy) if n in m.grid and m.grid.adjacent(n, a) and n != b)
    reach = reachable(pos, rs, "s-18g")
    if both in reach:
        assert reach.mp_left(both) == 0


def test_case_7_an_unstacked_german_weapons_company_has_no_zoc(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    beside = next(n for n in m.grid.neighbours(b) if n in m.grid and not m.grid.adjacent(n, a) and n not in (a, c))
    pos = position(game, {"s-18g": m.format(a), "g-pzj183": m.format(beside)}, impulse=TEN)
    assert reachable(pos, rs, "s-18g").mp_left(b) > 0
    pos = position(game, {"s-18g": m.format(a), "g-pzj183": m.format(beside), "g-251-1": m.format(beside)},
                   impulse=TEN)
    assert reachable(pos, rs, "s-18g").mp_left(b) == 0


def test_3a_afvs_and_case_9_ski_units_need_not_stop(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    beside = next(n for n in m.grid.neighbours(b) if n in m.grid and not m.grid.adjacent(n, a) and n not in (a, c))
    for unit in ("s-m18-t", "s-b44-1"):
        pos = position(game, {unit: m.format(a), "g-251-1": m.format(beside)}, impulse=TEN)
        check = check_path(pos, rs, unit, [a, b, c])
        assert check.ok, (unit, check.reason)
        assert _costs(check)[1] == 1 + 1                            # +1 for the ZOC exited
    pos = position(game, {"s-b44-1": m.format(a), "g-ski1": m.format(beside)}, impulse=TEN)
    assert not check_path(pos, rs, "s-b44-1", [a, b, c]).ok         # an enemy ski unit's ZOC stops


def test_case_10_weapons_units_enter_enemy_zoc_only_with_personnel_there(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    beside = next(n for n in m.grid.neighbours(b) if n in m.grid and not m.grid.adjacent(n, a) and n not in (a, c))
    pos = position(game, {"g-pzj183": m.format(a), "s-18g": m.format(beside)}, side="german",
                   impulse=("german", 5))
    check = check_path(pos, rs, "g-pzj183", [a, b])
    assert not check.ok and check.reason.rule == "3 C"
    pos = position(game, {"g-pzj183": m.format(a), "s-18g": m.format(beside), "g-251-1": m.format(b)},
                   side="german", impulse=("german", 5))
    assert check_path(pos, rs, "g-pzj183", [a, b]).ok


def test_case_11_and_63_never_into_an_enemy_hex_nor_a_garrisoned_rail_town(game, rs):
    m = game.maps["main"]
    town = next(p.hex for p in m.places if p.name == "Isotcha")
    start = next(n for n in m.grid.neighbours(town) if n in m.grid and not m.features(n))
    pos = position(game, {"s-18g": m.format(start)}, impulse=TEN)
    assert town not in reachable(pos, rs, "s-18g")
    check = check_path(pos, rs, "s-18g", [start, town])
    assert check.reason.rule == "p.35"
    pos = position(game, {"s-18g": m.format(start)}, impulse=TEN, garrisons_eliminated=[m.format(town)])
    assert town in reachable(pos, rs, "s-18g")
    pos = position(game, {"s-18g": m.format(start), "g-pol1": m.format(town)}, impulse=TEN)
    assert check_path(pos, rs, "s-18g", [start, town]).reason.rule == "6 A"


def _far_river(game):
    m = game.maps["main"]
    std = bridges(position(game, {}))
    return max(plain_river_hexes(m), key=lambda t: min(m.grid.distance(t[0], b) for b in std))


def test_case_65_in_thaw_draft_units_leave_a_river_hex_on_the_bank_they_entered(game, rs):
    m = game.maps["main"]
    r, left, right = _far_river(game)
    other_left = next(n for n in m.grid.neighbours(r) if n in m.grid and n != left and plain(m, n)
                      and __import__("toolkit.rulesets.white_death.terrain", fromlist=["bank"]).bank(m, r, n) == "left")
    thaw = position(game, {"s-art-9g": m.format(left)}, weather="thaw", impulse=TEN)
    check = check_path(thaw, rs, "s-art-9g", [left, r, right])
    assert not check.ok and check.reason.rule == "16 B"
    assert check_path(thaw, rs, "s-art-9g", [left, r, other_left]).ok
    assert right not in reachable(thaw, rs, "s-art-9g")
    assert r in reachable(thaw, rs, "s-art-9g") and other_left in reachable(thaw, rs, "s-art-9g")
    frozen = position(game, {"s-art-9g": m.format(left)}, weather="clear_frost", impulse=TEN)
    assert check_path(frozen, rs, "s-art-9g", [left, r, right]).ok
    assert right in reachable(frozen, rs, "s-art-9g")
    leg = position(game, {"s-18g": m.format(left)}, weather="thaw", impulse=TEN)
    assert check_path(leg, rs, "s-18g", [left, r, right]).ok     # leg and ski units are not restricted


def test_the_thaw_search_agrees_with_the_path_check(game, rs):
    m = game.maps["main"]
    r, left, _ = _far_river(game)
    pos = position(game, {"s-art-9g": m.format(left)}, weather="thaw", impulse=("soviet", 8))
    reach = reachable(pos, rs, "s-art-9g")
    for hx in reach.hexes():
        check = check_path(pos, rs, "s-art-9g", reach.path(hx))
        assert check.ok, (m.format(hx), check.reason)
        assert sum(_costs(check)) == reach.cost(hx)


def test_swamps_close_to_vehicles_in_thaw_and_open_when_frozen(game, rs):
    m = game.maps["main"]
    sw = next(x for x in m.hexes if m.terrain(x) == "swamp" and not m.features(x)
              and any(n in m.grid and plain(m, n) for n in m.grid.neighbours(x)))
    start = next(n for n in m.grid.neighbours(sw) if n in m.grid and plain(m, n))
    for weather, ok in (("thaw", False), ("clear_frost", True), ("snow", True)):
        pos = position(game, {"s-m18-t": m.format(start)}, weather=weather, impulse=TEN)
        assert check_path(pos, rs, "s-m18-t", [start, sw]).ok is ok, weather


def test_case_64_full_lake_hexsides_closed_in_thaw(game, rs):
    m = game.maps["main"]
    side = next(s for s, fs in sorted(m.hexsides.items()) if any(f.code == "lake_full" for f in fs)
                and set(m.features(s.a)) == set(m.features(s.b)) == set() and m.terrain(s.a) == m.terrain(s.b) == "clear")
    for weather, ok in (("thaw", False), ("snow", True)):
        pos = position(game, {"s-m18-t": m.format(side.a)}, weather=weather, impulse=TEN)
        assert check_path(pos, rs, "s-m18-t", [side.a, side.b]).ok is ok


def test_case_58_and_rule_22_garrisons(game, rs):
    from toolkit.referee import position_from_scenario
    pos = position_from_scenario(game, "purkayev", turn=1)
    for uid in ("g-sich591", "g-pol1", "g-sich336"):
        assert reachable(pos, rs, uid).refused.rule == "22"
    assert not reachable(pos, rs, "g-251-1").refused                            # not a named garrison
    assert reachable(pos, rs.with_options(garrison_units="all"), "g-251-1").refused.rule == "22"
    pos = position_from_scenario(game, "purkayev", turn=2)
    assert not reachable(pos, rs, "g-sich591").refused                          # released on turn 2
    reach = reachable(pos, rs, "g-sich336")
    from toolkit.rulesets.white_death import city_hexes
    assert reach.hexes() and set(reach.hexes()) <= city_hexes(pos.map)         # moves in the city only
    pos.state["vl_released"] = True
    pos.touch()
    assert not set(reachable(pos, rs, "g-sich336").hexes()) <= city_hexes(pos.map)


@pytest.mark.parametrize("option, chances", [("widening", [1, 2, 3, 4, 5, 6]), ("capped", [1, 2, 3, 3, 3, 3])])
def test_vl_garrison_release_chance(game, rs, option, chances):
    pos = position(game, {})
    r = rs.with_options(vl_release=option)
    assert [r.vl_release_chance(pos, t) for t in range(2, 8)] == [Fraction(c, 6) for c in chances]


def _literal_reach(pos, rs, uid, start):
    """Every hex a legal path reaches, by walking every path step by step (slow, literal)."""
    m = pos.map
    out, todo = set(), [[start]]
    while todo:
        path = todo.pop()
        for n in m.grid.neighbours(path[-1]):
            if n not in m.grid or n in path:
                continue
            check = check_path(pos, rs, uid, [*path, n])
            if check.ok:
                out.add(n)
                todo.append([*path, n])
    return out


@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("weather", ["thaw", "clear_frost"])
def test_the_search_against_every_path_by_a_river(game, rs, k, weather):
    m = game.maps["main"]
    r, left, _ = plain_river_hexes(m)[k]
    pos = position(game, {"s-art-9g": m.format(left)}, weather=weather, impulse=("soviet", 7))
    got = set(reachable(pos, rs, "s-art-9g").hexes())
    assert got == _literal_reach(pos, rs, "s-art-9g", left)
    across = {x for x in got if x not in (r,) and m.grid.adjacent(x, r) and bank(m, r, x) == "right"}
    assert bool(across) is (weather != "thaw")           # 7 MP cross only when the river is frozen
