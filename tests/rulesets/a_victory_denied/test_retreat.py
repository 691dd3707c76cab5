"""Retreat (9.5) and advance after combat (9.6) on the shared retreat_options / advance_options:
the worked examples (9.5 retreat example TC-12, 9.6 advance example TC-14), then positions for
each rule (TC-13 motorised exception, 9.5.3 ranking, 9.5.5 stacking, 9.5.6 major rivers, 9.5.7
and 9.6.4 overruns, 9.5.2 PVO), then the ends against a literal reading of 9.5 (a property).
Positions are built on a copy of the map around a quiet clear hex (CENTRE, as test_combat)."""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from toolkit.errors import RulesError
from toolkit.game import HexsideFeature, Line
from toolkit.game.map import HexTerrain
from toolkit.hexes import Hexside
from toolkit.referee import advance_options, forget_board, next_retreat_hexes, retreat_options
from toolkit.referee.zoc import enemy_zoc
from toolkit.rulesets.a_victory_denied.hq import _sources

from .helpers import position

CENTRE = "1537"     # quiet ground: no river, road or town within 3 hexes


def _board(game, rivers=(), features=None):
    """A copy of ``game`` with an unbridged major river between CENTRE and the neighbours
    numbered ``rivers``, and ``features`` {hex: (features)}; (game, centre, neighbours)."""
    g = copy.deepcopy(game)
    m = g.main_map
    x = m.grid.parse(CENTRE)
    ring = [n for n in m.grid.neighbours(x) if n in m.grid]
    for i in rivers:
        side = Hexside.of(x, ring[i])
        m.hexsides[side] = [HexsideFeature(side, "major_river")]
    for h, fs in (features or {}).items():
        m.hexes[h] = HexTerrain(m.terrain(h), tuple(fs))
    return g, x, ring


def _at(g, units, side="soviet", turn=3):
    m = g.main_map
    return position(g, {u: m.format(h) for u, h in units.items()}, side=side, turn=turn)


def _west(pos, rs, side, hexes):
    """The hexes nearest ``side``'s supply sources (German: the west edge)."""
    grid = pos.map.grid
    sources = _sources(pos, rs, side)
    near = {h: min(grid.distance(h, s) for s in sources) for h in hexes}
    best = min(near.values())
    return [h for h in hexes if near[h] == best]


# -- the worked examples -----------------------------------------------------------------------------

def test_tc12_the_retreat_example_into_the_city_in_zoc_losing_a_step(game, rs):
    # Three Soviet units next to the German unit; its three empty neighbours are all in Soviet ZOC;
    # the city is the one closer to a German supply source: it retreats there and loses a step.
    g, x, ring = _board(game)
    grid = g.main_map.grid
    sources = _sources(_at(g, {}), rs, "german")

    def near(h):
        return min(grid.distance(h, s) for s in sources)

    for soviet in itertools.combinations(ring, 3):
        empty = [n for n in ring if n not in soviet]
        closer = [n for n in empty if near(n) < near(x)]
        if len(closer) == 1 and all(any(grid.adjacent(n, s) for s in soviet) for n in empty):
            break
    else:
        raise AssertionError("no such ring")
    g.main_map.hexes[closer[0]] = HexTerrain(g.main_map.terrain(closer[0]), ("city",))
    pos = _at(g, {"s-kv1a": soviet[0], "s-45c": soviet[1], "s-kv1b": soviet[2], "g-31id": x})
    answer = retreat_options(pos, rs, ["g-31id"], 1)
    assert answer.hexes() == closer and answer.losses[closer[0]] == 1


def test_tc14_the_advance_example(game, rs):
    # KVI-A attacked across the unbridged major river: the attacked hex only; KVI-B (motorised,
    # no river): the attacked hex then any second hex but not across the major river nor into the
    # German unit's hex; 45th Corps and an elite infantry (non-motorised): the attacked hex only.
    g, x, ring = _board(game, rivers=(0,))
    grid = g.main_map.grid
    german_at = next(n for n in grid.neighbours(x) if n in grid and n not in ring[:3])
    pos = _at(g, {"s-kv1a": ring[0], "s-45c": ring[1], "s-kv1b": ring[2], "g-31id": german_at})
    assert advance_options(pos, rs, ["s-kv1a"], x) == [x]
    assert advance_options(pos, rs, ["s-45c"], x) == [x]
    second = advance_options(pos, rs, ["s-kv1b"], x)
    assert second[0] == x and german_at not in second and ring[0] not in second
    assert set(second[1:]) == {n for n in grid.neighbours(x) if n in grid} - {german_at, ring[0], ring[2]}


# -- one rule at a time --------------------------------------------------------------------------------

def test_tc13_motorised_germans_into_a_german_held_zoc_hex_lose_nothing(game, rs):
    g, x, ring = _board(game)
    # every neighbour of x but one is Soviet-held; the free one is in Soviet ZOC and holds a German unit
    free = ring[0]
    units = {f"s-{i}": h for i, h in zip(("20c", "45c", "kv1a", "kv1b", "32c"), ring[1:])}
    units.update({"g-3pz": x, "g-10mot": free})
    pos = _at(g, units)
    assert retreat_options(pos, rs, ["g-3pz"], 1).losses == {free: 0}
    del pos.units["g-3pz"]
    pos.units["g-31id"] = position(g, {"g-31id": g.main_map.format(x)}).units["g-31id"]
    pos.touch()
    assert retreat_options(pos, rs, ["g-31id"], 1).losses == {free: 1}


def test_9_5_3_fewest_zoc_hexes_first_then_closer_to_supply(game, rs):
    g, x, ring = _board(game)
    grid = g.main_map.grid
    pos = _at(g, {"g-31id": x})
    free = retreat_options(pos, rs, ["g-31id"], 1).hexes()
    assert free == _west(pos, rs, "german", [n for n in grid.neighbours(x) if n in grid])     # (1): closer
    # a Soviet unit whose ZOC covers the western hexes: the retreat takes a hex out of ZOC even if not closer
    west = free[0]
    far = next(n for n in grid.neighbours(west) if n in grid and grid.distance(n, x) == 2)
    pos = _at(g, {"g-31id": x, "s-20c": far})
    ez = enemy_zoc(pos, rs, "german")
    from toolkit.referee import board_of
    bi = board_of(pos.map).index
    answer = retreat_options(pos, rs, ["g-31id"], 1)
    assert all(answer.losses[h] == 0 and not ez[bi[h]] for h in answer.hexes())


def test_9_5_5_an_overstacked_end_carries_the_retreat_one_more_hex(game, rs):
    g, x, ring = _board(game)
    grid = g.main_map.grid
    pos = _at(g, {"g-31id": x})
    west = retreat_options(pos, rs, ["g-31id"], 1).hexes()
    assert len(west) >= 1
    units = {"g-31id": x}
    for i, h in enumerate(west):                              # every best end holds two German units
        units[f"g-34id#{i}a"] = h
        units[f"g-35id#{i}b"] = h
    pos = position(g, {u: g.main_map.format(h) for u, h in units.items()})
    answer = retreat_options(pos, rs, ["g-31id"], 1)
    assert answer.lengths == (2,) and all(grid.distance(x, e) == 2 for e in answer.hexes())
    assert all(answer.paths[e][1] in west for e in answer.hexes())


def test_9_5_6_major_rivers(game, rs):
    # an unbridged major river is crossed on the first hex of a retreat (the unit starts next to it)
    g, x, ring = _board(game, rivers=(0,))
    grid = g.main_map.grid
    pos = _at(g, {"g-31id": x})
    assert ring[0] in next_retreat_hexes(pos, rs, ["g-31id"], [x], ranked=False)
    # not when both banks are in enemy ZOC, friendly units or not
    beyond = next(n for n in grid.neighbours(ring[0]) if n in grid and grid.distance(n, x) == 2)
    behind = next(n for n in grid.neighbours(x) if n in grid and grid.distance(n, ring[0]) == 2)
    pos = _at(g, {"g-31id": x, "s-20c": beyond, "s-45c": behind, "g-34id": ring[0]})
    assert ring[0] not in next_retreat_hexes(pos, rs, ["g-31id"], [x], ranked=False)
    # nor on a later hex: from ring[1] across a river to one of its neighbours
    g, x, ring = _board(game)
    m = g.main_map
    nxt = next(n for n in grid.neighbours(ring[1]) if n in grid and grid.distance(n, x) == 2)
    side = Hexside.of(ring[1], nxt)
    m.hexsides[side] = [HexsideFeature(side, "major_river")]
    pos = _at(g, {"g-31id": x})
    assert nxt not in next_retreat_hexes(pos, rs, ["g-31id"], [x, ring[1]], ranked=False)
    assert all(Hexside.of(p[1], p[2]) != side for p in retreat_options(pos, rs, ["g-31id"], 2).paths.values())
    # a bridge (a road over it) lets the second hex cross
    m.lines.append(Line("road", (ring[1], nxt)))
    forget_board(m)
    pos.touch()
    assert nxt in next_retreat_hexes(pos, rs, ["g-31id"], [x, ring[1]], ranked=False)


def test_9_5_7_a_retreat_overruns_a_lone_hq_and_9_5_2_pvo_never_retreat(game, rs):
    g, x, ring = _board(game)
    pos = _at(g, {"g-31id": x})
    end = retreat_options(pos, rs, ["g-31id"], 1).hexes()[0]
    pos = _at(g, {"g-31id": x, "s-hq-16a": end})
    answer = retreat_options(pos, rs, ["g-31id"], 1)
    assert end in answer.hexes() and answer.overruns[end] == ["s-hq-16a"]
    assert answer.to_dict(g.main_map.format)["ends"][answer.hexes().index(end)]["overruns"] == ["s-hq-16a"]
    pvo = _at(g, {"s-pvo1": x})
    with pytest.raises(RulesError, match="9.5.2"):
        retreat_options(pvo, rs, ["s-pvo1"], 1)
    assert advance_options(_at(g, {"s-pvo1": ring[0]}), rs, ["s-pvo1"], x) == []


def test_9_6_4_an_advance_overruns_a_lone_hq(game, rs):
    g, x, ring = _board(game)
    grid = g.main_map.grid
    second = next(n for n in grid.neighbours(x) if n in grid and n != ring[0] and not grid.adjacent(n, ring[0]))
    pos = _at(g, {"s-kv1b": ring[0], "g-hq-9a": second})
    assert second in advance_options(pos, rs, ["s-kv1b"], x)


# -- property: the ends of 9.5 read literally --------------------------------------------------------------

def _literal(pos, rs, unit, length):
    """Every path of ``length`` hexes, each next to the last and farther from the start, on the
    map, not holding an enemy combat unit; ranked by (steps lost in enemy ZOC: hexes next to an
    enemy combat unit, unless a motorised German enters a German-held hex; not every hex closer
    to a supply source; more than two German combat units at the end); the best ends."""
    grid = pos.map.grid
    side = unit.side
    sources = _sources(pos, rs, side)
    enemies = [u for u in pos.on_map() if u.side != side and u.counter.kind == "unit"]
    friends = [u for u in pos.on_map(side) if u.id != unit.id and u.counter.kind == "unit"]
    start = unit.hex

    def near(h):
        return min(grid.distance(h, s) for s in sources)

    ranked = {}
    for path in itertools.product(*[[h for h in grid if grid.distance(start, h) == k] for k in range(1, length + 1)]):
        full = (start, *path)
        if any(not grid.adjacent(a, b) for a, b in zip(full, full[1:])):
            continue
        if any(e.hex == h for e in enemies for h in path):
            continue
        lost = sum(1 for h in path if any(grid.adjacent(e.hex, h) for e in enemies)
                   and not (unit.counter.unit_class == "motorised" and any(f.hex == h for f in friends)))
        closer = all(near(b) < near(a) for a, b in zip(full, full[1:]))
        over = sum(1 for f in friends if f.hex == path[-1]) + 1 > 2
        ranked[full] = (lost, not closer, over)
    if not ranked:
        return set(), None
    best = min(ranked.values())
    return {p[-1] for p, k in ranked.items() if k == best}, best


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 17), max_size=4, unique=True), st.lists(st.integers(0, 17), max_size=3, unique=True),
       st.sampled_from(["g-31id", "g-3pz"]), st.sampled_from([1, 2]))
def test_retreat_ends_match_a_literal_reading(game, rs, soviet, german, mover, length):
    g = game
    m = g.main_map
    x = m.grid.parse(CENTRE)
    area = sorted(h for h in m.grid if 1 <= m.grid.distance(x, h) <= 2)
    units = {mover: x}
    for i in soviet:
        units[f"s-20c#{i}"] = area[i]
    for i in german:
        if area[i] not in units.values():
            units[f"g-34id#{i}"] = area[i]
    pos = position(g, {u: m.format(h) for u, h in units.items()})
    ends, best = _literal(pos, rs, pos.unit(mover), length)
    answer = retreat_options(pos, rs, [mover], length)
    if best is None:
        assert answer.eliminated
        return
    if best[2]:                                               # 9.5.5: carried on past an overstacked end
        assert answer.lengths[0] > length or answer.eliminated
        return
    assert set(answer.hexes()) == ends
    assert all(answer.losses[e] == best[0] for e in answer.hexes())
