"""Combat applied with apply_combat on A Victory Denied: the HQ rules of combat (12.2 no step
loss and relocation when its stack is gone, 12.3 retreat with the stack), overruns by a
retreating or advancing unit (9.5.7, 9.6.4, 12.1, 12.6) with the owner's relocation as a
choice, and where eliminated units go (9.4.2)."""

from __future__ import annotations

import copy

import pytest

from toolkit.errors import IllegalMoveError
from toolkit.referee import apply_combat, assess_combat, retreat_options, roll_combat
from toolkit.rulesets.a_victory_denied import hq_relocation

from .helpers import position

CENTRE = "1537"


def _setup(game):
    g = copy.deepcopy(game)
    m = g.main_map
    x = m.grid.parse(CENTRE)
    ring = [n for n in m.grid.neighbours(x) if n in m.grid]
    return g, x, ring


def _at(g, units, **state):
    m = g.main_map
    return position(g, {u: m.format(h) for u, h in units.items()}, side="soviet", **state)


def _roll(pos, rs, a, text):
    return next(r for r in (roll_combat(pos, rs, a, roll=n) for n in range(1, 10)) if r.result.text == text)


def test_12_2_the_hq_never_loses_a_step_and_relocates_when_its_stack_is_gone(game, rs):
    g, x, ring = _setup(game)
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[1], "g-31id": x, "g-hq-9a": x}, **{"g-31id": {"steps": 1}})
    a = assess_combat(pos, rs, ["s-20c", "s-45c"], x)
    assert a.legal and "g-hq-9a" in a.defenders and a.defence == pos.unit("g-31id").value("combat")
    roll = _roll(pos, rs, a, "D2R")                          # two steps: the corps' one and the HQ's
    ends = hq_relocation(pos.copy(), rs, "g-hq-9a", x)["destinations"]
    assert len(ends) > 1
    with pytest.raises(IllegalMoveError) as err:
        apply_combat(pos, rs, a, roll)
    assert err.value.reasons[0].rule == "12.6" and "relocate:g-hq-9a=" in str(err.value)
    out = apply_combat(pos, rs, a, roll, choices={"relocate": {"g-hq-9a": ends[0]}})
    assert out.position.unit("g-31id").hex is None and out.position.unit("g-hq-9a").hex == ends[0]
    assert "g-hq-9a" not in out.eliminated and "g-hq-9a" not in out.losses
    with pytest.raises(IllegalMoveError, match="12.6"):
        apply_combat(pos, rs, a, roll, choices={"relocate": {"g-hq-9a": x}})


def test_12_2_a_step_taken_from_the_hq_is_refused_and_12_3_it_retreats_with_the_stack(game, rs):
    g, x, ring = _setup(game)
    pos = _at(g, {"s-20c": ring[0], "s-45c": ring[1], "g-31id": x, "g-hq-9a": x})
    a = assess_combat(pos, rs, ["s-20c", "s-45c"], x)
    roll = _roll(pos, rs, a, "D1R")
    end = retreat_options(pos, rs, ["g-31id", "g-hq-9a"], 1).hexes()[0]
    with pytest.raises(IllegalMoveError, match="12.2"):
        apply_combat(pos, rs, a, roll, losses={"g-hq-9a": 1}, retreats={"defender": end})
    out = apply_combat(pos, rs, a, roll, losses={"g-31id": 1}, retreats={"defender": end})
    assert out.position.unit("g-hq-9a").hex == out.position.unit("g-31id").hex == end


def test_9_5_7_a_retreat_into_a_lone_hq_relocates_it(game, rs):
    g, x, ring = _setup(game)
    pos = _at(g, {"s-20c": ring[0], "g-31id": x})
    a = assess_combat(pos, rs, ["s-20c"], x)
    end = retreat_options(pos, rs, ["g-31id"], 1).hexes()[0]
    pos = _at(g, {"s-20c": ring[0], "g-31id": x, "s-hq-16a": end})
    a = assess_combat(pos, rs, ["s-20c"], x)
    roll = _roll(pos, rs, a, "DR")
    answer = retreat_options(pos, rs, ["g-31id"], 1)
    assert answer.overruns.get(end) == ["s-hq-16a"]
    entered = pos.copy()
    entered.place("g-31id", end)
    ends = hq_relocation(entered, rs, "s-hq-16a", end)["destinations"]
    out = apply_combat(pos, rs, a, roll, retreats={"defender": end}, choices={"relocate": {"s-hq-16a": ends[-1]}})
    assert out.position.unit("g-31id").hex == end and out.position.unit("s-hq-16a").hex == ends[-1]
    assert any("overrun by g-31id retreating" in line for line in out.log)


def test_9_6_4_an_advance_into_a_lone_hq_relocates_it(game, rs):
    g, x, ring = _setup(game)
    grid = g.main_map.grid
    second = next(n for n in grid.neighbours(x) if n in grid and not grid.adjacent(n, ring[0]) and n != ring[0])
    pos = _at(g, {"s-kv1b": ring[0], "g-31id": x, "g-hq-9a": second})
    pos.units["g-31id"].steps = 1
    a = assess_combat(pos, rs, ["s-kv1b"], x)
    roll = _roll(pos, rs, a, "D1R") if "D1R" in a.distribution else _roll(pos, rs, a, "D2R")
    entered = pos.copy()
    entered.place("g-31id", None)
    entered.place("s-kv1b", second)
    ends = hq_relocation(entered, rs, "g-hq-9a", second)["destinations"]
    out = apply_combat(pos, rs, a, roll, advance={"s-kv1b": second}, choices={"relocate": {"g-hq-9a": ends[0]}})
    assert out.position.unit("s-kv1b").hex == second and out.position.unit("g-hq-9a").hex == ends[0]


@pytest.mark.parametrize("uid, status, box", [("s-20c", (), "soviet-reserve"), ("s-20c", ("isolated",), None),
                                              ("s-1mrd", (), "elite-cup"), ("s-pvo1", (), None),
                                              ("g-3pz", (), "eliminated-motorised"), ("g-31id", (), None)])
def test_9_4_2_eliminated_units_go_where_the_rule_sends_them(game, rs, uid, status, box):
    g, x, ring = _setup(game)
    side = "german" if uid.startswith("s-") else "soviet"
    firer = "g-3pz" if side == "german" else "s-20c"
    pos = _at(g, {uid: x, firer: ring[0]})
    pos.units[uid].status = set(status)
    pos.units[uid].steps = 1
    attacker = [u for u in pos.units if u != uid][0]
    kind = "bomber" if side == "german" else "art"
    a = assess_combat(pos, rs, [attacker], x, context={"fixed": kind})
    roll = next(r for r in (roll_combat(pos, rs, a, roll=n) for n in range(1, 7)) if r.result.defender.steps)
    out = apply_combat(pos, rs, a, roll)                      # a one-step unit: every loss eliminates it
    unit = out.position.unit(uid)
    assert unit.hex is None and unit.box == box and any("9.4.2" in line for line in out.log)


def test_12_4_an_hq_advances_with_its_stack_at_the_attackers_option(game, rs):
    g, x, ring = _setup(game)
    grid = g.main_map.grid
    second = next(n for n in grid.neighbours(x) if n in grid and not grid.adjacent(n, ring[0]) and n != ring[0])
    pos = _at(g, {"s-kv1b": ring[0], "s-hq-16a": ring[0], "g-31id": x, "s-20c": ring[1], "s-hq-20a": ring[1]})
    pos.units["g-31id"].steps = 1
    a = assess_combat(pos, rs, ["s-kv1b", "s-20c"], x)
    roll = _roll(pos, rs, a, "D1R") if "D1R" in a.distribution else _roll(pos, rs, a, "D2R")
    out = apply_combat(pos, rs, a, roll, advance={"s-kv1b": second, "s-20c": x},
                       choices={"advance": {"s-hq-16a": g.main_map.format(second)}})    # two hexes with the KV
    assert out.position.unit("s-hq-16a").hex == second and out.advances["s-hq-16a"] == second
    assert any("(12.4)" in line for line in out.log)
    kept = apply_combat(pos, rs, a, roll, advance={"s-kv1b": second})                   # optional: it stays
    assert kept.position.unit("s-hq-16a").hex == ring[0]
    for advance, hqs, text in [
            ({"s-kv1b": second}, {"s-hq-16a": x}, "into a hex one of them advanced to"),   # not where its stack went
            ({"s-20c": x}, {"s-hq-16a": x}, "none of s-kv1b advanced"),                    # its stack did not advance
            ({"s-kv1b": x, "s-20c": x}, {"s-hq-20a": x, "s-hq-16a": x}, "one HQ a hex")]:
        with pytest.raises(IllegalMoveError, match="12.4") as exc:
            apply_combat(pos, rs, a, roll, advance=advance, choices={"advance": hqs})
        assert text in str(exc.value)
    lone = _at(g, {"s-kv1b": ring[0], "g-31id": x, "s-hq-16a": ring[2]})
    lone.units["g-31id"].steps = 1
    b = assess_combat(lone, rs, ["s-kv1b"], x)
    with pytest.raises(IllegalMoveError, match="no attacking combat unit stood with it"):
        apply_combat(lone, rs, b, _roll(lone, rs, b, roll.result.text), advance={"s-kv1b": x},
                     choices={"advance": {"s-hq-16a": x}})


def _dr(pos, rs, a, length):
    """A roll of ``a`` whose defender result is a bare retreat of ``length`` hexes (no steps)."""
    for n in range(1, 7):                                     # the German d6
        r = roll_combat(pos, rs, a, roll=n)
        if r.result.defender.retreat == (length,) and not r.result.defender.steps and r.result.attacker.empty:
            return r
    pytest.skip(f"no bare DR{length} on column {a.column} of the (estimated) CRT")


def _pvo_position(g, x, ring, pvos, other):
    units = {p.rstrip("*"): x for p in pvos}
    if other:
        units[other] = x
    units.update({"g-3pz": ring[0], "g-7pz": ring[1]})
    pos = _at(g, units)
    pos.side = "german"
    for p in pvos:
        if p.endswith("*"):
            pos.units[p.rstrip("*")].steps = 1
    return pos


@pytest.mark.parametrize("pvos, other, losses, lost, retreats", [
    (["s-pvo1"], "s-20c", {"s-pvo1": 1}, {"s-pvo1": 1}, False),          # full PVO + corps, DR: PVO flips
    (["s-pvo1*"], "s-20c", None, {}, True),                             # reduced PVO + corps, DR: corps retreats
])
def test_tc17_9_5_2_a_dr_on_pvo_units_applied(game, rs, pvos, other, losses, lost, retreats):
    g, x, ring = _setup(game)
    pos = _pvo_position(g, x, ring, pvos, other)
    a = assess_combat(pos, rs, ["g-3pz", "g-7pz"], x)
    roll = _dr(pos, rs, a, 1)
    kwargs = {"losses": losses} if losses else {}
    if retreats:
        kwargs["retreats"] = {"defender": retreat_options(pos, rs, [other], 1).hexes()[0]}
    out = apply_combat(pos, rs, a, roll, **kwargs)
    assert out.losses == lost
    for p in pvos:
        assert out.position.unit(p.rstrip("*")).hex in (x, None)               # never retreats
    if other:
        assert (out.position.unit(other).hex != x) == retreats
    assert any("9.5.2" in line for line in out.log)


@pytest.mark.parametrize("pvos, other, text, steps, staying", [
    (["s-pvo1"], "s-20c", "DR", 1, ()),            # TC-17 row 1: a single PVO takes a step, the corps ignores it
    (["s-pvo1"], "s-20c", "DR2", 2, ()),           # row 2: two steps
    (["s-pvo1", "s-pvo2"], None, "DR2", 2, ()),    # row 3: one each (check_pvo_losses)
    (["s-pvo1*"], "s-20c", "DR2", 1, ()),          # row 4: the reduced PVO eliminated, the corps unaffected
    (["s-pvo1*"], "s-20c", "DR", 0, ("s-pvo1",)),  # row 5: the DR goes to the corps
    (["s-pvo1"], "s-20c", "D2R2", 4, ()),          # the result's own steps stay: 2 + 2
    (["s-pvo1*"], None, "DR", 1, ()),              # a lone reduced PVO loses its step (notes 9.9 inference)
])
def test_tc17_9_5_2_the_conversion_of_each_row(game, rs, pvos, other, text, steps, staying):
    from toolkit.referee.combat_chart import parse_result
    from toolkit.rulesets.a_victory_denied.retreat import convert_result
    g, x, ring = _setup(game)
    pos = _pvo_position(g, x, ring, pvos, other)
    a = assess_combat(pos, rs, ["g-3pz", "g-7pz"], x)
    result, left, note = convert_result(rs, pos, a, parse_result(text))
    assert left == staying and "9.5.2" in note
    if staying:
        assert result.defender.retreat == (1,) and not result.defender.steps
    else:
        assert result.defender.retreat == () and result.defender.steps == steps


def test_9_5_2_the_pvo_step_is_not_given_to_another_unit(game, rs):
    g, x, ring = _setup(game)
    pos = _at(g, {"s-pvo1": x, "s-20c": x, "g-3pz": ring[0], "g-7pz": ring[1]})
    pos.side = "german"
    a = assess_combat(pos, rs, ["g-3pz", "g-7pz"], x)
    roll = _dr(pos, rs, a, 1)
    with pytest.raises(IllegalMoveError, match="9.5.2"):
        apply_combat(pos, rs, a, roll, losses={"s-20c": 1})
    two = _pvo_position(g, x, ring, ["s-pvo1", "s-pvo2"], None)
    b = assess_combat(two, rs, ["g-3pz", "g-7pz"], x)

    from types import SimpleNamespace

    from toolkit.referee.combat_chart import parse_result
    from toolkit.rulesets.a_victory_denied.retreat import check_pvo_losses
    taken_by_one = SimpleNamespace(roll=SimpleNamespace(result=parse_result("DR2")), losses={"s-pvo1": 2})
    with pytest.raises(IllegalMoveError, match="one step each"):          # a DR2 on two PVO: one step each
        check_pvo_losses(two, taken_by_one, b)
