"""Retreat toward the HQ (10.5: B50-B52) and advance after combat (10.6: B53) on the shared
retreat_options / advance_options, and a DR applied with apply_combat; every hex of a retreat
checked against a literal reading of 10.5 (a property over random boards)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from toolkit.referee import advance_options, apply_combat, assess_combat, board_of, retreat_options, roll_combat
from toolkit.referee.zoc import enemy_zoc

from .helpers import RS, board, h, paint, put

D = "0605"


def test_b51_dr_two_hexes_each_closer_to_the_battalion_hq(gd):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-hq", "0609"); put(pos, "s-1rif-1", D)
    ends = retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    grid = pos.map.grid
    assert ends and all(grid.distance(e, h("0609")) == grid.distance(h(D), h("0609")) - 2 for e in ends)
    assert h("0607") in ends
    for path in retreat_options(pos, RS, ["s-1rif-1"], 2).paths.values():
        assert [grid.distance(x, h("0609")) for x in path] == [4, 3, 2]


def test_b50_only_hexes_in_enemy_zoc_eliminate_even_with_friends_there(gd):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-hq", "0609"); put(pos, "s-1rif-1", D)
    put(pos, "g-2gr-5k", "0607")                                 # its ZOC covers every hex closer to 0609
    grid = pos.map.grid
    closer = [n for n in grid.neighbours(h(D)) if grid.distance(n, h("0609")) < grid.distance(h(D), h("0609"))]
    index = board_of(pos.map).index
    assert closer and all(enemy_zoc(pos, RS, "soviet")[index[n]] for n in closer)
    answer = retreat_options(pos, RS, ["s-1rif-1"], 2)
    assert answer.eliminated and answer.reason.rule == "10.5"
    put(pos, "s-1rif-2", pos.map.format(closer[0]))               # a friend there does not negate the ZOC
    assert retreat_options(pos, RS, ["s-1rif-1"], 2).eliminated


def test_b52_no_hq_on_the_map_any_legal_path(gd):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-1", D)
    free = retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    put(pos, "s-1rif-hq", "0609")
    toward = retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    assert set(toward) < set(free)
    grid = pos.map.grid
    assert all(grid.distance(h(D), e) <= 2 for e in free) and len(free) > len(toward)


def test_division_hq_when_the_battalion_hq_is_gone_and_option_either(gd):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-1", D); put(pos, "s-div-division-hq", "0601")
    ends = retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    assert ends == [h("0603")]                                   # straight toward the Division HQ
    put(pos, "s-1rif-hq", "0609")
    assert h("0603") not in retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    either = RS.with_options(retreat_toward="either")
    both = retreat_options(pos, either, ["s-1rif-1"], 2).hexes()
    assert h("0603") in both and h("0607") in both


def test_b53_tracked_units_advance_a_second_hex_leg_units_stop(gd):
    pos = board(gd, turn=2)
    put(pos, "g-2pz-5k", "0604"); put(pos, "g-2gr-5k", "0604")
    put(pos, "s-1rif-1", "0708")                                 # an enemy further on: ZOC is ignored
    leg = advance_options(pos, RS, ["g-2gr-5k"], h(D))
    tracked = advance_options(pos, RS, ["g-2pz-5k"], h(D))
    assert leg == [h(D)]
    assert tracked[0] == h(D) and h("0606") in tracked and h("0604") not in tracked
    paint(pos, "forest", "0606")                                 # NA to Tracked units (9.1): not entered
    if pos.map.terrain_types["forest"].move.lookup("tracked", "sunny")[1] is None:
        assert h("0606") not in advance_options(pos, RS, ["g-2pz-5k"], h(D))


def test_a_dr_applied_retreats_the_defender_toward_its_hq(gd):
    pos = board(gd, turn=2)
    put(pos, "g-2gr-hq", "0603"); put(pos, "g-2gr-5k", "0604"); put(pos, "s-1rif-1", D)
    put(pos, "s-1rif-hq", "0609")
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D))
    roll = next(x for x in (roll_combat(pos, RS, a, roll=n) for n in range(2, 13)) if x.result.text == "DR")
    ends = retreat_options(pos, RS, ["s-1rif-1"], 2).hexes()
    out = apply_combat(pos, RS, a, roll, retreats={"defender": ends[0]}, advance=["g-2gr-5k"])
    assert out.position.unit("s-1rif-1").hex == ends[0] and out.position.unit("g-2gr-5k").hex == h(D)


def _literal_ends(pos, unit, hq, length):
    """Every simple path of ``length`` steps: each hex next to the last, closer to ``hq``, open
    to the unit, not enemy-held, not in enemy ZOC (10.5, 8.0), within stacking at the end."""
    from toolkit.referee.combat_retreat import may_retreat_across
    grid = pos.map.grid
    ez = enemy_zoc(pos, RS, unit.side)
    index = board_of(pos.map).index
    ends = set()

    def walk(path):
        if len(path) == length + 1:
            ends.add(path[-1])
            return
        here = path[-1]
        for n in grid.neighbours(here):
            if n not in grid or n in path or ez[index[n]]:
                continue
            if any(u.side != unit.side and not u.counter.is_marker for u in pos.at(n)):
                continue
            if grid.distance(n, hq) >= grid.distance(here, hq) or not may_retreat_across(pos, RS, [unit], here, n):
                continue
            walk(path + [n])
    walk([unit.hex])
    return ends


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["0204", "0307", "0508", "0709", "0803", "0906", "0402", "0110", "1007"]),
                max_size=3, unique=True),
       st.sampled_from(["0109", "0610", "1201", "0101", "1110"]))
def test_retreat_ends_match_a_literal_reading(gd, enemies, hq_at):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-1", D); put(pos, "s-1rif-hq", hq_at)
    for i, at in enumerate(enemies):
        put(pos, "g-2gr-5k", at, copy=f"#{i}")
    got = set(retreat_options(pos, RS, ["s-1rif-1"], 2).hexes())
    assert got == _literal_ends(pos, pos.unit("s-1rif-1"), h(hq_at), 2)


def test_the_emitted_plugin_carries_support_and_retreat():
    import json

    from toolkit.referee.plugin import ruleset_config, ruleset_from_config
    back = ruleset_from_config(json.loads(json.dumps(ruleset_config(RS))))
    assert back == RS and back.retreat.rule == "10.5" and back.combat.supports["artillery"].adds == "strength"
    assert type(back).advance_search is type(RS).advance_search


def test_b48_the_hq_is_not_the_casualty_while_a_company_can_be(gd):
    import pytest

    from toolkit.errors import IllegalMoveError
    pos = board(gd, turn=2)
    put(pos, "g-2gr-hq", "0603"); put(pos, "g-2gr-5k", "0604"); put(pos, "s-1rif-1", D); put(pos, "s-1rif-hq", D)
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D))
    roll = next(x for x in (roll_combat(pos, RS, a, roll=n) for n in range(2, 13)) if x.result.text == "DC")
    with pytest.raises(IllegalMoveError, match="10.4"):
        apply_combat(pos, RS, a, roll, losses={"s-1rif-hq": 1})
    out = apply_combat(pos, RS, a, roll, losses={"s-1rif-1": 1})
    assert out.position.unit("s-1rif-1").steps == 1 and out.position.unit("s-1rif-hq").hex == h(D)


def test_an_hq_in_the_retreating_stack_is_not_the_one_to_come_closer_to(gd):
    pos = board(gd, turn=2)
    put(pos, "s-1rif-1", D); put(pos, "s-1rif-hq", D); put(pos, "s-div-division-hq", "0601")
    answer = retreat_options(pos, RS, ["s-1rif-1", "s-1rif-hq"], 2)
    assert answer.hexes() == [h("0603")]                        # toward the Division HQ, with its HQ
    del pos.units["s-div-division-hq"]
    pos.touch()
    assert len(retreat_options(pos, RS, ["s-1rif-1", "s-1rif-hq"], 2).hexes()) > 1    # no HQ left: any legal


def _riding(gd):
    pos = board(gd, turn=2, side="soviet")
    put(pos, "s-1rif-hq", "0603"); put(pos, "s-1rif-1", "0604"); put(pos, "g-2pz-hq", "0609")
    put(pos, "g-2pz-5k", D); put(pos, "g-1gr-1k", D, status={"riding_tanks"})
    return pos


def _rolled(pos, a, text):
    return next(x for x in (roll_combat(pos, RS, a, roll=n) for n in range(2, 13)) if x.result.text == text)


def test_9_5_the_riders_defence_is_ignored(gd):
    pos = _riding(gd)
    alone = _riding(gd)
    del alone.units["g-1gr-1k"]
    alone.touch()
    a = assess_combat(pos, RS, ["s-1rif-1"], h(D))
    assert a.defence == assess_combat(alone, RS, ["s-1rif-1"], h(D)).defence == pos.unit("g-2pz-5k").value("defence")


def test_9_5_a_dc_on_the_carrier_depletes_the_rider_too(gd):
    pos = _riding(gd)
    a = assess_combat(pos, RS, ["s-1rif-1"], h(D))
    out = apply_combat(pos, RS, a, _rolled(pos, a, "DC"))                  # the carrier is the one target
    assert out.losses == {"g-2pz-5k": 1, "g-1gr-1k": 1}                    # "in addition to the other depletion"
    assert out.position.unit("g-1gr-1k").steps == 1 and any("(9.5)" in line for line in out.log)


def test_9_5_the_rider_retreats_with_its_carrier_and_dies_with_it(gd):
    pos = _riding(gd)
    a = assess_combat(pos, RS, ["s-1rif-1"], h(D))
    end = retreat_options(pos, RS, ["g-2pz-5k"], 2).hexes()[0]
    out = apply_combat(pos, RS, a, _rolled(pos, a, "DR"), retreats={"defender": end})
    assert out.position.unit("g-1gr-1k").hex == end == out.position.unit("g-2pz-5k").hex
    assert out.retreats["g-1gr-1k"] == out.retreats["g-2pz-5k"]
    pos.unit("g-2pz-5k").steps = 1
    out = apply_combat(pos, RS, a, _rolled(pos, a, "DC"))
    assert out.position.unit("g-2pz-5k").hex is None and out.position.unit("g-1gr-1k").steps == 1
    pos.unit("g-1gr-1k").steps = 1
    out = apply_combat(pos, RS, a, _rolled(pos, a, "DC"))
    assert out.position.unit("g-1gr-1k").hex is None and "g-1gr-1k" in out.eliminated
