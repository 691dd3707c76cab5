"""ZOC arrays that follow a move agree with arrays rebuilt from scratch, for every move."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from referee_oracle import random_position

from toolkit.io import load_game
from toolkit.referee import Ruleset, enemy_zoc, enemy_zoc_owners, get_ruleset, position_from_scenario, zoc_counts
from toolkit.referee.zoc import rebuilt_enemy_zoc, zoc_radius

TUTORIAL = load_game("tutorial")
DEMYANSK = load_game("demyansk-shield")


def _owners_from_scratch(pos, rs, side):
    fresh = pos.copy()
    return enemy_zoc_owners(fresh, rs, side)


def _moves(pos, rs, seed: int, count: int) -> None:
    """Move random units to random hexes (or off the map), checking after every move."""
    rnd = random.Random(seed)
    hexes = pos.map.grid.hexes()
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
