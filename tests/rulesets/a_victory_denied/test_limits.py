"""Combat limits carried in the position's state (limits.py): one attack per unit and per hex in
a Combat Segment (9.1.1, 9.1.4), the ART chit's attacks and one artillery attack a hex a turn
(TC-48, 13.2), the rocket (TC-49) and the bomber (TC-50) once a game, the Stuka counters and
their recovery (TC-51, 13.3). Each limit is written by apply_combat and read by assess_combat."""

from __future__ import annotations

from toolkit.errors import IllegalMoveError, RulesError
from toolkit.referee import Unit, apply_combat, assess_combat, dump_position, load_position, roll_combat
from toolkit.rulesets.a_victory_denied.limits import return_stuka

from .test_fixed import _at, _board


def _apply(pos, rs, a):
    """Apply the first roll of ``a`` that needs no owner's choice (the limits do not depend on it)."""
    for n in range(1, 11):
        try:
            return apply_combat(pos, rs, a, roll_combat(pos, rs, a, roll=n)).position
        except (IllegalMoveError, RulesError) as exc:         # a choice to make, or a roll off the die
            last = exc
    raise AssertionError(f"no roll applies without a choice: {last}")


def _two_targets(game):
    """Two German units in hexes next to each other, three Soviet attackers around them."""
    g, x, ring = _board(game)
    grid = g.main_map.grid
    y = ring[0]
    free = [h for h in ring[1:] if grid.distance(h, y) == 1]
    return g, x, y, free


def test_9_1_1_a_unit_attacks_once_a_segment_and_9_1_4_a_hex_once(game, rs):
    g, x, y, free = _two_targets(game)
    pos = _at(g, {"g-31id": x, "g-34id": y, "s-20c": free[0], "s-45c": free[1]})
    first = assess_combat(pos, rs, ["s-20c"], x)
    assert first.legal
    after = _apply(pos, rs, first)
    if after.unit("s-20c").hex is None:                       # an A1 took the attacker: the hex limit still holds
        after.unit("s-20c").hex = free[0]
    again = assess_combat(after, rs, ["s-20c"], y)            # the same unit on another hex (9.1.1)
    assert not again.legal and [r.rule for r in again.refusals] == ["9.1.1"]
    assert again.refusals[0].units == ("s-20c",)
    if after.unit("g-31id").hex != x:                         # it retreated or fell: one stands there again
        after.unit("g-31id").hex, after.unit("g-31id").steps = x, 2
    hexed = assess_combat(after, rs, ["s-45c"], x)            # another unit on the attacked hex (9.1.4)
    assert not hexed.legal and [r.rule for r in hexed.refusals] == ["9.1.4"]
    assert assess_combat(after, rs, ["s-45c"], y).legal       # a fresh unit on a fresh hex
    assert assess_combat(pos, rs, ["s-20c"], y).legal         # the position before the attack: no record


def test_9_1_the_record_resets_with_a_new_segment_and_round_trips(game, rs, tmp_path):
    g, x, y, free = _two_targets(game)
    pos = _at(g, {"g-31id": x, "g-34id": y, "s-20c": free[0]})
    pos.phase = "combat"
    after = _apply(pos, rs, assess_combat(pos, rs, ["s-20c"], x, context={"chit": "c-16a"}))
    after.unit("s-20c").hex = free[0]
    assert not assess_combat(after, rs, ["s-20c"], y, context={"chit": "c-16a"}).legal
    assert assess_combat(after, rs, ["s-20c"], y, context={"chit": "c-20a"}).legal      # the next chit
    nxt = after.copy()
    nxt.turn += 1
    assert assess_combat(nxt, rs, ["s-20c"], y, context={"chit": "c-16a"}).legal        # the next turn
    dump_position(after, tmp_path / "p.yaml")
    back = load_position(tmp_path / "p.yaml", g)
    assert back.state == after.state
    assert not assess_combat(back, rs, ["s-20c"], y, context={"chit": "c-16a"}).legal


def test_tc48_the_art_roll_gives_the_attacks_and_a_hex_once_a_turn(game, rs):
    g, x, y, free = _two_targets(game)
    far = next(h for h in g.main_map.grid if g.main_map.grid.distance(h, x) == 4 and
               all(n in g.main_map.grid for n in g.main_map.grid.neighbours(h)))
    spot = next(n for n in g.main_map.grid.neighbours(far))
    pos = _at(g, {"g-31id": x, "g-34id": y, "g-26id": far, "s-20c": free[0], "s-45c": spot})
    one = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art", "art_roll": 1})
    assert not one.legal and one.refusals[0].rule == "13.2" and "0 artillery" in one.refusals[0].text
    a = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art", "art_roll": 5})     # 5 // 2 = 2 attacks
    assert a.legal
    pos = _apply(pos, rs, a)
    same = assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "art"})
    assert not same.legal and "already attacked by artillery" in same.refusals[0].text
    assert not assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "rocket"}).legal       # TC-49: nor rockets
    other = assess_combat(pos, rs, ["s-20c"], y, context={"fixed": "art", "art_roll": 3})    # not this turn's die
    assert not other.legal and "was 5" in other.refusals[0].text
    pos = _apply(pos, rs, assess_combat(pos, rs, ["s-20c"], y, context={"fixed": "art"}))  # the second (same spotter)
    third = assess_combat(pos, rs, ["s-45c"], far, context={"fixed": "art"})
    assert not third.legal and "2 were made" in third.refusals[0].text
    nxt = pos.copy()
    nxt.turn += 1
    assert assess_combat(nxt, rs, ["s-20c"], x, context={"fixed": "art", "art_roll": 2}).legal


def test_tc49_tc50_the_rocket_and_the_bomber_once_a_game(game, rs):
    g, x, y, free = _two_targets(game)
    pos = _at(g, {"g-31id": x, "g-34id": y, "s-20c": free[0]})
    pos.units["m-rocket"] = Unit("m-rocket", g.counters["m-rocket"], "soviet", box="soviet-unplayed")
    pos = _apply(pos, rs, assess_combat(pos, rs, ["s-20c"], x, context={"fixed": "rocket"}))
    assert pos.unit("m-rocket").box is None and pos.unit("m-rocket").hex is None           # removed from play
    nxt = pos.copy()
    nxt.turn += 1
    late = assess_combat(nxt, rs, ["s-20c"], y, context={"fixed": "rocket"})
    assert not late.legal and "once a game" in late.refusals[0].text
    g, x, ring = _board(game)
    ger = _at(g, {"s-20c": x, "s-45c": ring[1], "g-3pz": ring[0]}, side="german")
    ger.units["m-bomber"] = Unit("m-bomber", g.counters["m-bomber"], "german", box="luftwaffe")
    wrong = assess_combat(ger, rs, ["g-3pz"], x, context={"fixed": "bomber", "chit": "c-2pzg"})
    assert not wrong.legal and "Air Power" in wrong.refusals[0].text
    a = assess_combat(ger, rs, ["g-3pz"], x, context={"fixed": "bomber", "chit": "c-air"})
    after = _apply(ger, rs, a)
    assert after.unit("m-bomber").box is None
    nxt = after.copy()
    nxt.turn += 2
    twice = assess_combat(nxt, rs, ["g-3pz"], ring[1], context={"fixed": "bomber"})
    assert not twice.legal and twice.refusals[0].rule == "13.3"


def test_tc51_stukas_are_spent_and_one_comes_back_on_the_air_power_chit(game, rs):
    g, x, ring = _board(game)
    grid = g.main_map.grid
    y = next(h for h in ring[1:] if grid.distance(h, ring[0]) == 1)
    pos = _at(g, {"s-20c": x, "s-45c": y, "g-3pz": ring[0]}, side="german", turn=3)
    for n in (1, 2):
        pos.units[f"m-stuka#{n}"] = Unit(f"m-stuka#{n}", g.counters["m-stuka"], "german", box="luftwaffe")
    assert assess_combat(pos, rs, ["g-3pz"], x, context={"stuka": "attack"}).legal
    pos = _apply(pos, rs, assess_combat(pos, rs, ["g-3pz"], x, context={"stuka": "attack", "chit": "c-2pzg"}))
    assert sum(u.box == "luftwaffe" for u in pos.units.values() if u.counter.id == "m-stuka") == 1
    pos.unit("m-stuka#2").box = None                           # the second used elsewhere
    if pos.unit("g-3pz").hex is None:
        pos.unit("g-3pz").hex = ring[0]
    none = assess_combat(pos, rs, ["g-3pz"], y, context={"stuka": "attack", "chit": "c-3pzg"})
    assert not none.legal and none.refusals[0].rule == "13.3"
    assert assess_combat(pos, rs, ["g-3pz"], y, context={"chit": "c-3pzg"}).legal           # without a Stuka
    assert return_stuka(pos) == "m-stuka#1" and return_stuka(pos) == "m-stuka#2" and return_stuka(pos) is None
    assert assess_combat(pos, rs, ["g-3pz"], y, context={"stuka": "attack", "chit": "c-3pzg"}).legal
