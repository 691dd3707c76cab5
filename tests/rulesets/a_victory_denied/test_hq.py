"""HQ special rules (12; TC-24): the overrun of a lone enemy HQ by a moving combat unit (8.1.4,
12.1), HQ relocation (12.6) with the notes' ambiguity 14.4.7 as the option relocation_path, and
no attack on a lone HQ (9.0, 12.1). Hexes are picked on the estimated map by what they hold."""

from __future__ import annotations

import pytest

from toolkit.hexes import Hexside
from toolkit.referee import assess_combat, reachable, supply_trace
from toolkit.rulesets.a_victory_denied import hq_relocation, in_pocket, overrun_hq

from .helpers import plain, position


def _line(m):
    """Three plain hexes a-b-c in the middle of the map, no hexside feature between a-b and b-c,
    c not adjacent to a (b holds the HQ, c a German unit whose ZOC covers b but not a)."""
    g = m.grid
    for a in sorted(g):
        if not (20 <= a.col <= 30 and 25 <= a.row <= 35 and plain(m, a)):
            continue
        for b in g.neighbours(a):
            if b not in g or not plain(m, b) or m.hexside_codes(Hexside.of(a, b)):
                continue
            for c in g.neighbours(b):
                if c in g and c != a and not g.adjacent(a, c) and plain(m, c) and not m.hexside_codes(Hexside.of(b, c)):
                    return a, b, c
    raise AssertionError("no three plain hexes in a row")


def _pos(game, **units):
    m = game.main_map
    return position(game, {uid: m.format(h) for uid, h in units.items()})


def _literal_destinations(pos, rs, hq_side, start):
    """12.6 read literally (option ignore): every hex h with a source s such that a path of
    steps each one hex closer to s leads there (d(start,h) + d(h,s) = d(start,s) on a hex grid),
    h at least 4 away, not in enemy ZOC (next to an enemy combat unit), not enemy-occupied,
    holding no HQ, tracing supply; the nearest ones."""
    m = pos.map
    g = m.grid
    sources = [h for h in rs.supply_sources(pos, hq_side)]
    trace = supply_trace(pos, rs, hq_side, sources)
    enemy_units = [u for u in pos.on_map() if u.side not in (hq_side, None)]
    ok = {}
    for h in g:
        if g.distance(start, h) < 4 or not trace.reaches(h) or (hq_side == "german" and in_pocket(pos, h)):
            continue
        if any(u.hex == h or (u.counter.kind == "unit" and g.adjacent(u.hex, h)) for u in enemy_units):
            continue
        if any(u.counter.kind == "hq" and u.hex == h for u in pos.on_map(hq_side)):
            continue
        if any(g.distance(start, h) + g.distance(h, s) == g.distance(start, s) for s in sources):
            ok[h] = g.distance(start, h)
    best = min(ok.values())
    return sorted(h for h, d in ok.items() if d == best)


def test_tc24_a_combat_unit_overruns_a_lone_hq_by_entering_its_hex(game, rs):
    m = game.main_map
    a, b, _ = _line(m)
    pos = _pos(game, **{"s-20c": a, "g-hq-9a": b})
    assert b not in reachable(pos, rs, ["s-20c"])         # the shared search never enters an enemy hex
    r = overrun_hq(pos, rs, ["s-20c"], b)
    assert r["refused"] is None and r["hq"] == "g-hq-9a" and r["rule"] == "12.1"
    assert r["path"] == [a, b] and r["mp_left"] == 4 - 1    # 8.1.4: "simply entering": the hex's own cost
    rel = r["relocation"]
    assert rel["rule"] == "12.6" and not rel["eliminated"] and rel["from"] == b
    entered = pos.copy()
    entered.place("s-20c", b)
    entered.place("g-hq-9a", None)
    assert rel["destinations"] == _literal_destinations(entered, rs, "german", b)
    g = m.grid
    for h in rel["destinations"]:
        assert g.distance(b, h) >= 4                                             # 12.6 (1)
        path, src = rel["paths"][h], rel["sources"][h]
        assert path[0] == b and path[-1] == h and len(path) - 1 == g.distance(b, h)   # the shortest
        assert all(g.distance(y, src) == g.distance(x, src) - 1 for x, y in zip(path, path[1:]))  # same source


def test_tc24_entering_the_hq_hex_pays_its_enemy_zoc_cost(game, rs):
    a, b, c = _line(game.main_map)
    pos = _pos(game, **{"s-20c": a, "g-hq-9a": b, "g-7pz": c})
    r = overrun_hq(pos, rs, ["s-20c"], b)
    assert r["refused"] is None and r["mp_left"] == 4 - 1 - 2            # 8.2.1: +2 to enter an enemy ZOC


def test_tc24_only_a_lone_hq_and_only_by_a_combat_unit(game, rs):
    a, b, c = _line(game.main_map)
    stacked = _pos(game, **{"s-20c": a, "g-hq-9a": b, "g-7pz#2": b})
    assert overrun_hq(stacked, rs, ["s-20c"], b)["refused"].rule == "5.2"     # 5.2: not alone
    by_hq = _pos(game, **{"s-hq-22a": a, "g-hq-9a": b})
    assert overrun_hq(by_hq, rs, ["s-hq-22a"], b)["refused"].rule == "12.1"   # HQs are not combat units
    strategic = _pos(game, **{"s-20c": a, "g-hq-9a": b})
    assert overrun_hq(strategic, rs, ["s-20c"], b, mode="strategic")["refused"].rule == "8.3.1"


def test_tc24_out_of_reach_is_refused(game, rs):
    m = game.main_map
    a, b, _ = _line(m)
    far = next(h for h in sorted(m.grid) if m.grid.distance(a, h) == 6 and plain(m, h))
    pos = _pos(game, **{"s-20c": a, "g-hq-9a": far})
    r = overrun_hq(pos, rs, ["s-20c"], far)
    assert r["refused"] is not None and r["relocation"] is None


def test_tc24_a_lone_hq_cannot_be_attacked(game, rs):
    a, b, _ = _line(game.main_map)
    lone = assess_combat(_pos(game, **{"s-20c": a, "g-hq-9a": b}), rs, ["s-20c"], b)
    assert not lone.legal and any(r.rule == "12.1" for r in lone.refusals)
    stacked = assess_combat(_pos(game, **{"s-20c": a, "g-hq-9a": b, "g-5id": b}), rs, ["s-20c"], b)
    assert not any(r.rule == "12.1" for r in stacked.refusals)


def test_relocation_never_onto_another_hq(game, rs):
    a, b, _ = _line(game.main_map)
    pos = _pos(game, **{"s-20c": a, "g-hq-9a": b})
    first = hq_relocation(pos, rs, "g-hq-9a")["destinations"]
    taken = _pos(game, **{"s-20c": a, "g-hq-9a": b, "g-hq-5k": first[0]})
    assert first[0] not in hq_relocation(taken, rs, "g-hq-9a")["destinations"]       # 5.1


@pytest.mark.parametrize("option", ["ignore", "blocked"])
def test_relocation_path_option(game, rs, option):
    # notes 14.4.7: the path ignores units and ZOC (default), or may not pass enemy units or ZOC.
    # Read "blocked", the overrunning unit's own ZOC closes every first step: the HQ is eliminated.
    a, b, _ = _line(game.main_map)
    r = rs.with_options(relocation_path=option)
    over = overrun_hq(_pos(game, **{"s-20c": a, "g-hq-9a": b}), r, ["s-20c"], b)
    assert over["refused"] is None
    assert over["relocation"]["eliminated"] == (option == "blocked")
    assert (over["relocation"]["destinations"] == []) == (option == "blocked")


def test_voluntary_relocation_with_blocked_paths_avoids_enemy_zoc(game, rs):
    # 10.4: an HQ relocated in the Supply Phase; with relocation_path=blocked no path hex lies in
    # enemy ZOC or holds an enemy unit
    m = game.main_map
    a, b, c = _line(m)
    pos = _pos(game, **{"g-hq-9a": b, "s-20c": c})
    r = rs.with_options(relocation_path="blocked")
    rel = hq_relocation(pos, r, "g-hq-9a")
    assert not rel["eliminated"]
    for h in rel["destinations"]:
        assert all(not m.grid.adjacent(x, c) and x != c for x in rel["paths"][h][1:])
