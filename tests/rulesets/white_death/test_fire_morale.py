"""Morale (Rule 14) and applying fire (9 D, 14 B, 14 C.1, 4): the notes' section 12 cases
"Morale" (43-48), the retreat into an overstacked hex (21) and the intrinsic garrison's end
(63), through the shared ``roll_combat`` / ``apply_combat``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import IllegalMoveError, RulesError
from toolkit.referee import apply_combat, assess_combat, roll_combat
from toolkit.rulesets.white_death.fire_apply import retreat_ends
from toolkit.rulesets.white_death.fire_tables import fire_table
from toolkit.rulesets.white_death.morale import check_odds, grade, morale_check, tank_fright
from toolkit.rulesets.white_death.shots import Shot, chain

from .helpers import clear_run, h, position

F = Fraction


def _run(game):
    m = game.maps["main"]
    return [m.format(x) for x in clear_run(m)]


def test_case_43_thresholds(game):
    assert [grade(game, 4, r) for r in (3, 4, 5, 6, 7, 9)] == ["pass", "pass", "fail", "fail", "rout", "rout"]


def test_case_44_rout_costs_a_non_afv_one_more_point_and_two_hexes(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "s-31g": a, "g-251-1": b})
    pos.unit("g-251-1").steps = 3
    att = assess_combat(pos, rs, ["s-18g", "s-31g"], h(game, b))       # 24:6 = 4:1
    # roll 3 on 4:1 is MC1; morale 4 + 1 (the MC) + a 6 = 11: a rout: 1 SP + 1 SP, two hexes
    rolled = roll_combat(pos, rs, att, roll=3, rolls={"morale g-251-1": 6})
    o = rolled.outcomes["g-251-1"]
    assert (o.check, o.lost, o.retreat) == ("rout", 2, 2)
    length, ends, zoc = retreat_ends(pos, rs, "g-251-1")
    end = sorted(e for e in ends if not zoc[e])[0]
    out = apply_combat(pos, rs, att, rolled, retreats={"defender": end})
    assert out.position.unit("g-251-1").steps == 1 and out.retreats["g-251-1"][-1] == end
    assert len(out.retreats["g-251-1"]) == 3                                # two hexes (start first)
    assert out.position.unit("g-251-1").hex == end
    with pytest.raises(IllegalMoveError) as err:                            # the owner must name the end
        apply_combat(pos, rs, att, rolled)
    assert err.value.reasons[0].rule == "14 B"


def test_case_44_an_afv_routs_without_the_extra_point(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-t184-1": a, "g-pz10-1": b})
    pos.unit("g-pz10-1").status.add("isolated")                         # +1 on its checks (14 C.3)
    att = assess_combat(pos, rs, ["s-t184-1"], h(game, b))               # AT 3 x 3 = 9 vs DV 2: 4:1
    assert att.shots[0].column_text == "4:1"
    rolled = roll_combat(pos, rs, att, roll=3, rolls={"morale g-pz10-1": 6})   # 1 SP; 6 + 1 + 1 vs 5: rout
    o = rolled.outcomes["g-pz10-1"]
    assert (o.check, o.lost, o.retreat) == ("rout", 1, 2)                 # no extra point for an AFV
    rolled = roll_combat(pos, rs, att, roll=3, rolls={"morale g-pz10-1": 5})   # 5 + 2 = 7: fail
    o = rolled.outcomes["g-pz10-1"]
    assert (o.check, o.lost, o.retreat) == ("fail", 1, 2)                 # assault fire: retreats, no extra
    rolled = roll_combat(pos, rs, att, roll=1, rolls={"morale g-pz10-1": 1})   # 2 SP of 2: no check needed
    assert rolled.outcomes["g-pz10-1"].eliminated and "morale g-pz10-1" not in rolled.dice
    miss = roll_combat(pos, rs, att, roll=6)                              # a miss: no check (14 A.1)
    assert miss.outcomes["g-pz10-1"].check is None


def test_case_44_retreat_through_zoc_costs_one_point_and_may_not_end_in_zoc(game, rs):
    a, b, c = clear_run(game.maps["main"])
    m = game.maps["main"]
    pos = position(game, {"s-18g": m.format(a), "g-251-1": m.format(b)})
    length, ends, zoc = retreat_ends(pos, rs, "g-251-1")
    assert length == 2 and ends and all(v in (0, 1) for v in zoc.values())
    zoc_hexes = {x for x in m.grid.neighbours(a) if x in m.grid}
    assert not set(ends) & zoc_hexes                                        # never ends in enemy ZOC
    # surround the defender's rear with Soviet units: every retreat ends in ZOC or is blocked
    ring = [x for x in m.grid.neighbours(b) if x in m.grid and x != a]
    units = {"s-18g": m.format(a), "g-251-1": m.format(b)}
    for i, x in enumerate(ring):
        units[["s-31g", "s-36g", "s-141g", "s-143g", "s-145g", "s-59g"][i]] = m.format(x)
    trapped = position(game, units)
    assert retreat_ends(trapped, rs, "g-251-1")[0] is None                  # eliminated instead (14 C.1)


def test_case_45_failure_by_situation(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b})
    d = assess_combat(pos, rs, ["s-18g"], h(game, b), context={"fire": "defensive"})    # 6 vs 6: 1:1
    rolled = roll_combat(pos, rs, d, roll=2, rolls={"morale s-18g": 6})               # MC; 6 vs 5: fail
    assert rolled.outcomes["s-18g"].check == "fail"
    after = apply_combat(pos, rs, d, rolled).position
    assert after.state["combat"]["no_assault"] == ["s-18g"]
    again = assess_combat(after, rs, ["s-18g"], h(game, b))
    assert not again.legal and again.refusals[0].rule == "14 B.2"
    # a defender failing against assault fire retreats two hexes, no extra point
    att = assess_combat(pos, rs, ["s-18g"], h(game, b))                             # 12:6 = 2:1
    rolled = roll_combat(pos, rs, att, roll=3, rolls={"morale g-251-1": 5})          # MC; 5 vs 4: fail
    o = rolled.outcomes["g-251-1"]
    assert (o.check, o.lost, o.retreat) == ("fail", 0, 2)


def test_case_45_barrage_failure_stops_defensive_fire(game, rs):
    pos = position(game, {"s-art-9g": "2813", "g-251-1": "2812", "g-251-2": "2812", "s-18g": "2811"})
    pos.unit("s-art-9g").status.add("deployed")
    b = assess_combat(pos, rs, ["s-art-9g"], h(game, "2812"), context={"fire": "barrage"})
    rolled = roll_combat(pos, rs, b, rolls={"barrage g-251-1": 1, "morale g-251-1": 4, "barrage g-251-2": 6},
                         roll=None)
    assert rolled.outcomes["g-251-1"].check == "fail"
    after = apply_combat(pos, rs, b, rolled).position
    assert after.state["combat"]["no_defensive_fire"] == ["g-251-1"]
    d = assess_combat(after, rs, ["s-18g"], h(game, "2812"), context={"fire": "defensive"})
    assert d.shots[0].firers == ("g-251-2",) and any(m.rule == "14 B.1" for m in d.modifiers)
    assert d.shots[0].fire == 3                               # 2 x 3, halved: isolated out here (15 C)


def test_case_46_tank_fright(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"g-pz10-1": a, "g-251-1": a, "s-18g": b})
    u = pos.unit("s-18g")
    assert tank_fright(pos, u, [pos.unit("g-pz10-1")])
    assert morale_check(pos, u, 0, fright=True).drm == 0                  # checks, unmodified
    assert morale_check(pos, u, 1, fright=True).drm == 2                  # MC1 -> +2
    att = assess_combat(pos, rs, ["g-pz10-1", "g-251-1"], h(game, b), context={"targets": {"s-18g": 2}})
    s = att.shots[0]
    assert s.fright and s.column is None and "passes" in " ".join(s.outcomes)   # below the table, still a check
    # immune: in a town, or stacked with a German antitank unit
    town = position(game, {"g-pz10-1": "1305", "s-18g": "1405"})
    assert not tank_fright(town, town.unit("s-18g"), [town.unit("g-pz10-1")])
    guns = position(game, {"s-t184-1": a, "g-251-1": b, "g-pzj183": b})
    assert not tank_fright(guns, guns.unit("g-251-1"), [guns.unit("s-t184-1")])


def test_case_47_routed_and_eliminated_units_of_the_hex_add_up(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b}, weather="snow")
    pos.unit("g-251-1").status.add("isolated")
    c = morale_check(pos, pos.unit("g-251-1"), 0, routed=1, eliminated=1, isolated=True)
    assert c.drm == 1 + 1 + 1 + 1                                          # rout, eliminated, isolated, snow
    assert {m.rule for m in c.modifiers} == {"14 C.4", "14 C.7", "14 C.3", "14 C.5"}


def test_case_47_chained_targets_carry_the_hex_count(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b, "g-251-2": b})
    table = fire_table(game, "conventional_fire")
    first = Shot(pos.unit("g-251-1"), "conventional", table, F(24), F(6), table.columns.index("4:1"))
    second = Shot(pos.unit("g-251-2"), "conventional", table, F(0), F(6), None)
    second.fright = True                                                    # checks with +0 and the hex count
    chain(pos, [first, second], "assault")
    # alone, morale 4 at +0 never routs; after the first unit routs or dies it can
    assert any("routs" in t for t in second.outcomes)
    assert sum(second.outcomes.values()) == 1


def test_case_48_bunker_immunity(game, rs):
    pos = position(game, {"s-18g": "2012", "g-251-1": "2013", "g-bunker4": "2013", "g-pz10-1": "2013"})
    pos.unit("g-bunker4").steps = 3
    assert morale_check(pos, pos.unit("g-251-1"), 3).exempt
    assert not morale_check(pos, pos.unit("g-pz10-1"), 1).exempt          # AFVs never benefit
    assert not morale_check(pos, pos.unit("g-251-1"), 1, assaulting=True).exempt
    assert morale_check(pos, pos.unit("g-bunker4"), 1).exempt             # bunkers never check
    pos.unit("g-bunker4").steps = 2
    pos.touch()
    assert not morale_check(pos, pos.unit("g-251-1"), 3).exempt
    # morale 4 at +3: 1 passes, 2-3 fail, 4-6 rout
    assert check_odds(game, morale_check(pos, pos.unit("g-251-1"), 3)) == {"pass": F(1, 6), "fail": F(1, 3),
                                                                             "rout": F(1, 2)}


def test_case_21_a_retreat_into_an_overstacked_hex_goes_on(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    pos = position(game, {"s-18g": m.format(a), "g-251-1": m.format(b)})
    length, ends, _ = retreat_ends(pos, rs, "g-251-1")
    # fill every two-hex end with a full German stack (three battalions of another division)
    units = {"s-18g": m.format(a), "g-251-1": m.format(b)}
    fillers = iter(["g-504-1", "g-504-2", "g-505-1", "g-505-2", "g-506-1", "g-506-2", "g-557-1", "g-557-2",
                    "g-557-3", "g-335-1", "g-335-2", "g-335-3", "g-76-1", "g-76-2", "g-90-1", "g-90-2",
                    "g-ss8-1", "g-ss8-2", "g-ss10-1", "g-ss10-2", "g-sr8-1", "g-sr8-2", "g-sr28-1",
                    "g-sr28-2", "g-gj138-1", "g-gj138-2", "g-gj139-1"])
    assert length == 2 and len(ends) == 9
    for end in sorted(ends):
        for _ in range(3):
            units[next(fillers)] = m.format(end)
    full = position(game, units)
    longer, ends2, _ = retreat_ends(full, rs, "g-251-1")
    assert longer == 3 and ends2 and not set(ends2) & set(ends)         # one hex more, past the full stacks


def test_case_63_the_garrison_falls_to_any_loss(game, rs):
    from toolkit.rulesets.white_death import garrison_towns
    m = game.maps["main"]
    town = sorted(garrison_towns(m))[0]
    near = next(n for n in m.grid.neighbours(town) if n in m.grid and m.terrain(n) == "clear")
    pos = position(game, {"s-18g": m.format(near), "s-31g": m.format(near)})
    a = assess_combat(pos, rs, ["s-18g", "s-31g"], town)                 # 24 vs 10: 2:1
    rolled = roll_combat(pos, rs, a, roll=1)                              # MC1: a loss
    out = apply_combat(pos, rs, a, rolled, advance=["s-18g"])
    assert out.position.state["garrisons_eliminated"] == [m.format(town)]
    assert out.advances == {"s-18g": town}                                # 9 D: into the cleared town
    held = roll_combat(pos, rs, a, roll=6)                                # no effect: it stands
    with pytest.raises(IllegalMoveError):
        apply_combat(pos, rs, a, held, advance=["s-18g"])


def test_apply_refuses_what_white_death_does_not_ask(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b})
    att = assess_combat(pos, rs, ["s-18g"], h(game, b))
    rolled = roll_combat(pos, rs, att, roll=6)
    with pytest.raises(RulesError):
        apply_combat(pos, rs, att, rolled, losses={"g-251-1": 1})
    with pytest.raises(RulesError):
        roll_combat(pos, rs, att, roll=7)
    with pytest.raises(RulesError):
        roll_combat(pos, rs, att, rolls={"morale nobody": 3})
    same = [roll_combat(pos, rs, att, seed=11).log for _ in range(2)]
    assert same[0] == same[1] and "[seed 11]" in same[0]


def test_case_27_no_target_twice_a_phase_and_one_hex_per_assault(game, rs):
    m = game.maps["main"]
    a, b, c = clear_run(m)
    pos = position(game, {"s-18g": m.format(a), "s-31g": m.format(a), "g-251-1": m.format(b),
                          "g-251-2": m.format(b)})
    first = assess_combat(pos, rs, ["s-18g"], b, context={"targets": {"g-251-1": None}})
    after = apply_combat(pos, rs, first, roll_combat(pos, rs, first, roll=6)).position
    again = assess_combat(after, rs, ["s-31g"], b, context={"targets": {"g-251-1": None}})
    assert not again.legal and "more than once per phase" in again.refusals[0].text
    rest = assess_combat(after, rs, ["s-31g"], b)                     # the default leaves g-251-1 out
    assert rest.legal and [s.unit.id for s in rest.shots] == ["g-251-2"]
    # the defensive fire of the same assault is another phase
    assert assess_combat(after, rs, ["s-18g"], b, context={"fire": "defensive"}).legal
    # s-18g assaulted b: it may not assault another hex this impulse
    other = next(x for x in m.grid.neighbours(a) if x in m.grid and x != b and m.terrain(x) == "clear")
    after.unit("g-251-2").hex = other
    after.touch()
    refused = assess_combat(after, rs, ["s-18g"], other)
    assert not refused.legal and "assaults one hex" in refused.refusals[0].text
