"""ZOC arrays that follow a move agree with arrays rebuilt from scratch, for every move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from referee_oracle import random_position

from toolkit.io import load_game
from toolkit.referee import (Ruleset, Unit, board_of, enemy_zoc, enemy_zoc_owners, get_ruleset, position_from_scenario,
                             zoc_counts)
from toolkit.referee.zoc import rebuilt_enemy_zoc, zoc_radius
from toolkit.rulesets.grossdeutschland.bridges import bridged
from toolkit.rulesets.velikiye_luki.city import encircled, velikiye_luki_hexes

TUTORIAL = load_game("tutorial")
DEMYANSK = load_game("demyansk-shield")
GAMES = {g: load_game(g) for g in ("velikiye-luki", "grossdeutschland", "a-victory-denied")}


def _owners_from_scratch(pos, rs, side):
    fresh = pos.copy()
    return enemy_zoc_owners(fresh, rs, side)


def _moves(pos, rs, seed: int, count: int, hexes=None, fixed=()) -> None:
    """Move random units to random ``hexes`` (default: the whole map) or off the map,
    checking after every move; units in ``fixed`` never move, they may only be eliminated."""
    rnd = random.Random(seed)
    hexes = hexes or pos.map.grid.hexes()
    ids = sorted(pos.units)
    sides = pos.sides()
    for side in sides:   # warm the caches, so the moves below update them
        enemy_zoc(pos, rs, side)
        enemy_zoc_owners(pos, rs, side)
        zoc_counts(pos, rs, side)
    for _ in range(count):
        uid = rnd.choice(ids)
        before = {side: list(enemy_zoc(pos, rs, side)) for side in sides}
        handed_out = {side: enemy_zoc(pos, rs, side) for side in sides}
        if uid in fixed:
            if rnd.random() < 0.1:
                pos.place(uid, None, "eliminated")
            continue
        if rnd.random() < 0.1:
            pos.place(uid, None, "eliminated")
        else:
            pos.place(uid, rnd.choice(hexes))
        for side in sides:
            assert enemy_zoc(pos, rs, side) == rebuilt_enemy_zoc(pos, rs, side), f"after moving {uid}"
            assert enemy_zoc_owners(pos, rs, side) == _owners_from_scratch(pos, rs, side)
            # arrays handed out before the move still describe the old position
            assert handed_out[side] == before[side]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31))
def test_incremental_zoc_equals_rebuilt_on_random_moves(seed):
    pos, _ = random_position(TUTORIAL, seed)
    _moves(pos, get_ruleset("tutorial"), seed, 25)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31))
def test_incremental_zoc_with_hooks_that_look_at_neighbours(seed):
    # Demyansk's ZOC depends on the unit's stack and on strongpoints in the hex it enters
    rs = get_ruleset("demyansk-shield")
    assert zoc_radius(rs) == 1
    pos = position_from_scenario(DEMYANSK)
    _moves(pos, rs, seed, 30)


@pytest.mark.parametrize("game_id, radius", [("velikiye-luki", 2), ("grossdeutschland", 1), ("a-victory-denied", 0)])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_each_games_declared_radius_follows_moves_exactly(game_id, radius, seed):
    # VL: the Festung's ZOC follows the encirclement (4.2.2, 7.6); GD: the bridge markers next
    # to a unit (8.0, 12.0); AVD (6.1): a ZOC depends on its unit alone. The Festungs never move
    # (1.6), they may be eliminated.
    rs = get_ruleset(game_id)
    assert zoc_radius(rs) == radius
    pos = position_from_scenario(GAMES[game_id])
    fixed = {u.id for u in pos.units.values() if u.type == "fortress"}
    _moves(pos, rs, seed, 20, fixed=fixed)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**31))
def test_the_festungs_zoc_follows_the_encirclement_as_units_come_and_go(seed):
    # the Soviets ring the city as 7.1 and 7.2 ask, one ring hex held only by the ZOC of a unit
    # two hexes from the city: when it leaves, the encirclement breaks and the Festung's ZOC
    # comes back; then units move in and out of the ring and around it
    rs = get_ruleset("velikiye-luki")
    pos = position_from_scenario(GAMES["velikiye-luki"])
    grid = pos.map.grid
    (city,) = velikiye_luki_hexes(pos)
    ring = grid.neighbours(city)   # clockwise
    assert len(ring) == 6
    fixed = {u.id for u in pos.units.values() if u.type == "fortress"}
    for u in pos.on_map():
        if u.id not in fixed and grid.distance(u.hex, city) <= 3:
            pos.place(u.id, None, "eliminated")
    soviets = sorted((u for u in pos.units.values() if u.side == "soviet" and u.counter.kind == "unit"),
                     key=lambda u: u.id)
    divisions = [u for u in soviets if u.counter.size == "XX"]
    armour = next(u for u in soviets if u.type == "armour" and u.counter.size in ("III", "X"))
    others = [u for u in soviets if u not in divisions[:2] and u is not armour]
    for u in (*divisions[:2], armour):   # 7.2's force, stacked opposite the gap
        pos.place(u.id, ring[3])

    def out_of(h):   # the hex beyond ``h`` that touches no other ring hex
        return next(n for n in grid.neighbours(h) if grid.distance(n, city) == 2
                    and sum(r in grid.neighbours(n) for r in ring) == 1)

    for u, h in zip(others, (ring[0], ring[1], ring[5])):
        pos.place(u.id, out_of(h))
    assert encircled(pos, rs)
    for side in pos.sides():
        enemy_zoc(pos, rs, side)   # cached, to be followed from here on
    pos.place(others[0].id, grid.hexes()[0])
    assert not encircled(pos, rs)
    for side in pos.sides():
        assert enemy_zoc(pos, rs, side) == rebuilt_enemy_zoc(pos, rs, side)
    pos.place(others[0].id, out_of(ring[0]))
    assert encircled(pos, rs)
    for side in pos.sides():
        assert enemy_zoc(pos, rs, side) == rebuilt_enemy_zoc(pos, rs, side)
    near = sorted(h for h in grid.within(city, 3) if h != city)
    _moves(pos, rs, seed, 30, hexes=near, fixed=fixed)


def test_a_blown_bridge_marker_takes_the_zoc_off_the_bridge_next_to_it():
    # 8.0, 12.0: a ZOC crosses a river over a standing bridge, not over a blown one; the
    # marker is placed in the hex on one bank, the unit whose ZOC it stops stands on the other
    rs = get_ruleset("grossdeutschland")
    game = GAMES["grossdeutschland"]
    pos = position_from_scenario(game)
    grid = pos.map.grid
    index = board_of(pos.map).index
    for side in sorted(s for s, feats in pos.map.hexsides.items() if any(f.code == "river" for f in feats)):
        if not bridged(pos, side.a, side.b):
            continue
        for u in pos.on_map():
            if grid.distance(u.hex, side.a) <= 2 or grid.distance(u.hex, side.b) <= 2:
                pos.place(u.id, None, "eliminated")
        soviet = next(u for u in pos.units.values() if u.side == "soviet" and u.counter.kind == "unit"
                      and rs.exerts_zoc(pos, u))
        pos.place(soviet.id, side.b)
        if enemy_zoc(pos, rs, "german")[index[side.a]]:
            break
    else:
        pytest.fail("no bridged river hexside the Soviet ZOC crosses")
    marker = Unit("m-blown-bridge", game.counters["m-blown-bridge"], None,
                  status={f"facing:{grid.direction(side.a, side.b)}"})
    pos.units[marker.id] = marker
    pos.touch()
    for s in pos.sides():
        enemy_zoc(pos, rs, s)   # cached, to be followed
    pos.place(marker.id, side.a)
    assert not enemy_zoc(pos, rs, "german")[index[side.a]]
    for s in pos.sides():
        assert enemy_zoc(pos, rs, s) == rebuilt_enemy_zoc(pos, rs, s)


def test_a_move_updates_the_cached_arrays_instead_of_rebuilding():
    pos = position_from_scenario(TUTORIAL)
    rs = get_ruleset("tutorial")
    enemy_zoc(pos, rs, "blue")
    field = pos._cache[("zoc-field", id(rs), frozenset(pos.enemies_of("blue")))][1]
    uid = next(u.id for u in pos.on_map() if u.side != "blue")
    pos.place(uid, pos.map.grid.hexes()[0])
    assert pos._cache[("zoc-field", id(rs), frozenset(pos.enemies_of("blue")))][1] is field


def test_hooks_that_do_not_say_how_far_they_look_are_rebuilt():
    class Global(Ruleset):
        def exerts_zoc(self, pos, unit):
            return len(pos.on_map()) > 1 and super().exerts_zoc(pos, unit)

    rs = Global(name="global", zoc=get_ruleset("tutorial").zoc)
    assert zoc_radius(rs) is None
    pos = position_from_scenario(TUTORIAL)
    enemy_zoc(pos, rs, "blue")
    uid = next(u.id for u in pos.on_map() if u.side != "blue")
    pos.place(uid, pos.map.grid.hexes()[0])
    assert not any(k[0] == "zoc-field" for k in pos._cache)
    assert enemy_zoc(pos, rs, "blue") == rebuilt_enemy_zoc(pos, rs, "blue")
