"""Artillery support (10.2, 11.1, 18.4: B54-B57, B93), the activation range at the attack (6.0,
10.0: B32, B33) and fortification chits by their facing (15.0, 15.1, 16.0: B44, B45, B74),
through the shared assess_combat, roll_combat and apply_combat."""

from __future__ import annotations

import dataclasses

import pytest

from toolkit.errors import RulesError
from toolkit.referee import Support, Unit, apply_combat, assess_combat, position_from_scenario, roll_combat

from .helpers import RS, board, h, paint, put

D = "0605"


def _ring(pos, hex_id=D):
    return [pos.map.format(n) for n in pos.map.grid.neighbours(h(hex_id)) if n in pos.map.grid]


def _battery(pos, uid, at, rng, *, side_id="g-3art-7-btty", status=()):
    """An artillery unit with a stated range (the counters' ranges are estimated)."""
    base = pos.game.counters[side_id]
    counter = dataclasses.replace(base, id=uid, front={**base.front, "range": rng})
    unit = Unit(id=uid, counter=counter, side=base.side, hex=h(at) if at else None, status=set(status))
    pos.units[uid] = unit
    pos.touch()
    return unit


def _fight(gd, turn=2):
    """A 2Gr company (not a turn-2 reinforcement) next to a Soviet company in D, its HQ near."""
    pos = board(gd, turn=turn)
    r = _ring(pos)
    put(pos, "g-2gr-hq", "0603"); put(pos, "g-2gr-5k", r[0]); put(pos, "s-1rif-1", D)
    return pos, r


# -- artillery (10.2) -------------------------------------------------------------------------------

def test_b54_artillery_in_range_adds_its_attack_strength(gd):
    pos, r = _fight(gd)
    _battery(pos, "gun", "0105", 5)                              # 5 hexes from D: in range
    bare = assess_combat(pos, RS, ["g-2gr-5k"], h(D))
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=[Support("artillery", "attacker", unit="gun")])
    assert a.legal and a.attack == bare.attack + 6 and a.defence == bare.defence
    assert any(m.kind == "attack" and m.value == 6 and m.rule == "10.2" for m in a.modifiers)
    far = next(x for x in pos.map.grid if pos.map.grid.distance(x, h(D)) == 6)
    pos.place("gun", far)
    b = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=[Support("artillery", "attacker", unit="gun")])
    assert not b.legal and b.refusals[0].rule == "10.2" and "range of 5" in b.refusals[0].text


def test_b54_a_fired_battery_cannot_support_and_apply_flips_it(gd):
    pos, r = _fight(gd)
    _battery(pos, "gun", "0105", 5)
    sup = [Support("artillery", "attacker", unit="gun")]
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=sup)
    roll = next(x for x in (roll_combat(pos, RS, a, roll=n) for n in range(2, 13)) if x.result.text == "-")
    out = apply_combat(pos, RS, a, roll)                         # no effect: only the battery changes
    assert "fired" in out.position.unit("gun").status and "fired" not in pos.unit("gun").status
    again = assess_combat(out.position, RS, ["g-2gr-5k"], h(D), supports=sup)
    assert not again.legal and "fired" in again.refusals[0].text


def test_b56_defending_artillery_adds_attack_strength_to_the_defence(gd):
    # B56: defence 6 + artillery 4 + 3 = 13 (here the units' own values: 3 + 6 + 6)
    pos, r = _fight(gd)
    _battery(pos, "a1", "0608", 4, side_id="s-art-1-105")
    _battery(pos, "a2", "0609", 4, side_id="s-art-2-105")
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=[Support("artillery", "defender", unit="a1"),
                                                                 Support("artillery", "defender", unit="a2")])
    assert a.defence == 3 + 6 + 6 and a.legal


def test_b55_no_artillery_to_its_own_hex_but_another_may(gd):
    pos = board(gd, turn=2)
    r = _ring(pos)
    put(pos, "g-2gr-hq", "0603"); put(pos, "g-2gr-5k", r[0])
    _battery(pos, "own", D, 4, side_id="s-art-1-105")
    _battery(pos, "other", "0608", 4, side_id="s-art-2-105")
    own = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=[Support("artillery", "defender", unit="own")])
    assert not own.legal and own.refusals[0].rule == "10.2"
    other = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=[Support("artillery", "defender", unit="other")])
    assert other.legal and other.defence == 2 + 6               # the attacked battery's 2 + the other's 6


def test_b57_no_artillery_in_an_overrun_and_out_of_supply_artillery_is_fired(gd):
    pos, r = _fight(gd)
    _battery(pos, "gun", "0105", 5)
    sup = [Support("artillery", "attacker", unit="gun")]
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=sup, context={"overrun": True})
    assert not a.legal and a.refusals[0].rule == "9.4"
    pos.units["gun"].status = {"out_of_supply"}
    b = assess_combat(pos, RS, ["g-2gr-5k"], h(D), supports=sup)
    assert not b.legal and b.refusals[0].rule == "5.3"


def test_b93_the_off_map_kursk_battery_counts_from_2328_at_range_less_two(gd):
    k = position_from_scenario(gd, "kursk", turn=2)
    gun = k.unit("g-2art-4-btty")
    assert gun.hex is None and gun.box == "kursk-off-map"
    reach = gun.value("range") - 2                                # 18.4: two hexes less than printed
    grid = k.map.grid
    origin = grid.parse("2328")
    for unit in list(k.units.values()):
        if unit.hex is not None:
            k.place(unit.id, None)                                # a quiet board: only this combat
    for distance, legal in ((reach, True), (reach + 1, False)):
        target = next(x for x in sorted(grid) if grid.distance(origin, x) == distance
                      and any(n in grid and grid.distance(origin, n) == distance - 1 for n in grid.neighbours(x)))
        near = next(n for n in grid.neighbours(target) if n in grid and grid.distance(origin, n) == distance - 1)
        k.place("s-1rif-1", target)
        k.place("g-1fus-sturm", near)
        k.place("g-1fus-hq", near)
        a = assess_combat(k, RS, ["g-1fus-sturm"], target, supports=[Support("artillery", "attacker", unit=gun.id)])
        assert a.legal is legal, (distance, a.refusals)
        if not legal:
            assert a.refusals[0].rule == "10.2" and "18.4" in a.refusals[0].text


# -- activation range at the attack (6.0, 10.0) -------------------------------------------------------

def test_b32_b33_attackers_within_the_hq_range_at_the_attack(gd):
    pos, r = _fight(gd)
    reach = pos.unit("g-2gr-hq").value("command")
    assert assess_combat(pos, RS, ["g-2gr-5k"], h(D)).legal
    hq_far = next(x for x in sorted(pos.map.grid) if pos.map.grid.distance(x, h(r[0])) == reach + 1)
    pos.place("g-2gr-hq", hq_far)                                # B33: the HQ moved away before the attack
    a = assess_combat(pos, RS, ["g-2gr-5k"], h(D))
    assert not a.legal and a.refusals[0].rule == "10.0" and f"range of {reach}" in a.refusals[0].text
    hq_edge = next(x for x in sorted(pos.map.grid) if pos.map.grid.distance(x, h(r[0])) == reach)
    pos.place("g-2gr-hq", hq_edge)                               # B32: exactly at the range is in range
    assert assess_combat(pos, RS, ["g-2gr-5k"], h(D)).legal


def test_battalions_never_attack_together_and_a_division_activation(gd):
    pos, r = _fight(gd)
    put(pos, "g-2pz-hq", "0703"); put(pos, "g-2pz-5k", r[1])
    a = assess_combat(pos, RS, ["g-2gr-5k", "g-2pz-5k"], h(D))
    assert not a.legal and a.refusals[0].rule == "6.0"
    # the Division HQ activates 2Gr: range from the Division HQ (A8, option division_hq_range_from)
    far = next(x for x in sorted(pos.map.grid) if pos.map.grid.distance(x, h(r[0])) == 9)
    put(pos, "g-div-division-hq", pos.map.format(far))
    ctx = {"activating_hq": "g-div-division-hq"}
    assert not assess_combat(pos, RS, ["g-2gr-5k"], h(D), context=ctx).legal          # 9 > 8
    assert assess_combat(pos, RS.with_options(division_hq_range_from="battalion"), ["g-2gr-5k"], h(D),
                         context=ctx).legal                                             # the 2Gr HQ is near
    with pytest.raises(RulesError):
        assess_combat(pos, RS, ["g-2gr-5k"], h(D), context={"activating_hq": "g-2pz-hq"})


def test_a01_without_its_hq_one_stack_attacks_and_reinforcements_are_in_range(gd):
    pos = board(gd, turn=2)
    r = _ring(pos)
    put(pos, "g-2gr-5k", r[0]); put(pos, "g-2gr-6k", r[1]); put(pos, "s-1rif-1", D)
    a = assess_combat(pos, RS, ["g-2gr-5k", "g-2gr-6k"], h(D))
    assert not a.legal and "one stack" in a.refusals[0].text
    put(pos, "g-2gr-6k", r[0])
    assert assess_combat(pos, RS, ["g-2gr-5k", "g-2gr-6k"], h(D)).legal
    # Kursk turn 2: the 3Fus battalion enters; its units attack whatever the HQ's range (10.0 note)
    pos = board(gd, turn=2)
    put(pos, "g-3fus-hq", "1201"); put(pos, "g-3fus-9k", r[0]); put(pos, "s-1rif-1", D)
    assert assess_combat(pos, RS, ["g-3fus-9k"], h(D)).legal


# -- fortifications (15.0, 15.1, 16.0) ------------------------------------------------------------------

def _chit(pos, kind, at, *facing):
    uid = {"trench": "m-trench", "minefield": "m-minefield", "bunker": "m-bunker"}[kind]
    put(pos, uid, at, status=tuple(f"facing:{f}" for f in facing))


def test_b45_a_trench_counts_only_when_every_attacker_crosses_its_side_a_minefield_always(gd):
    pos, r = _fight(gd)
    grid = pos.map.grid
    side0 = grid.direction(h(D), h(r[0]))
    side1 = grid.direction(h(D), h(r[1]))
    _chit(pos, "trench", D, side0)
    _chit(pos, "minefield", D)
    put(pos, "g-2gr-6k", r[1])
    one = assess_combat(pos, RS, ["g-2gr-5k"], h(D))
    assert one.drm == 1 + 2                                      # both apply: the trench faces the attacker
    both = assess_combat(pos, RS, ["g-2gr-5k", "g-2gr-6k"], h(D))
    assert both.drm == 2 and any(m.rule == "15.1" and m.kind == "note" for m in both.modifiers)
    pos.units["m-trench"].status.add(f"facing:{side1}")
    assert assess_combat(pos, RS, ["g-2gr-5k", "g-2gr-6k"], h(D)).drm == 3


def test_b44_engineers_halve_each_fortification_and_terrain_drm(gd):
    # hill (its DRM on this TEC) + bunker 4 + trench 1, both facing: the pioneers halve each
    pos = board(gd, turn=2)
    r = _ring(pos)
    paint(pos, "hill", D)
    put(pos, "g-eng-hq", "0603"); put(pos, "g-eng-1k", r[0]); put(pos, "s-1rif-1", D)
    side = pos.map.grid.direction(h(D), h(r[0]))
    _chit(pos, "bunker", D, side)
    _chit(pos, "trench", D, side)
    hill = int(pos.map.terrain_types["hill"].combat["drm"])
    a = assess_combat(pos, RS, ["g-eng-1k"], h(D))
    assert a.drm == hill // 2 + 4 // 2 + 1 // 2


def test_b74_a_nullified_bunker_adds_nothing(gd):
    pos, r = _fight(gd)
    _chit(pos, "bunker", D, pos.map.grid.direction(h(D), h(r[0])))
    assert assess_combat(pos, RS, ["g-2gr-5k"], h(D)).drm == 4
    assert assess_combat(pos, RS, ["g-2gr-5k"], h(D), context={"nullified": "bunker"}).drm == 0
