"""Demyansk Shield combat results applied (12.2-12.5): the 17.0 No Retreat roll and the 12.38
example first, then positions isolating the attacker-first order, No Retreat eligibility and
failure, 12.25, and the retreat/advance limits (12.33 over-stacking, 12.52, 12.56, 12.57)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolkit.errors import DataError, IllegalMoveError, RulesError
from toolkit.referee import (Code, Support, Unit, advance_options, apply_combat, assess_combat, load_position,
                             retreat_options, roll_combat)
from toolkit.referee.combat_chart import parse_result
from toolkit.referee.combat_options import no_retreat_table, roll_no_retreat
from toolkit.rulesets.demyansk_shield import RULESET as DS

from .helpers import DATA, H, one_source_game, position


def _17_0():
    pos = load_position(DATA / "combat-17-0.yaml")
    c = pos.game.counters
    for uid in ("so-air-1", "ax-air-b1"):
        pos.units[uid] = Unit(uid, c[uid], c[uid].side, box="air")
    pos.touch()
    return pos


ATTACKERS = ["so-87", "so-1-87", "so-1318", "so-1-1318", "so-2-87"]
#: 17.0: "the Soviet player chooses which support to make not available [...] He chooses the
#: artillery unit" (12.23a)
ARTILLERY = {"special": {"attacker": "artillery"}}


def _combat_1(pos):
    a = assess_combat(pos, DS, ATTACKERS, H("1811"),
                      supports=[Support("artillery", "attacker", unit="so-231-387"),
                                Support("air", "attacker", unit="so-air-1"),
                                Support("air", "defender", unit="ax-air-b1")])
    r = roll_combat(pos, DS, a, roll=6)
    assert r.result.text == "A1*/DR"
    return a, r


def _add(pos, where):
    for uid, h in where:
        c = pos.game.counters[uid]
        pos.units[uid] = Unit(uid, c, c.side, hex=H(h))
    pos.touch()


# -- the worked examples ---------------------------------------------------------------------------


def test_17_0_combat_1_no_retreat_passes_with_a_step_loss():
    # "The Axis player attempts a No Retreat [...] rolls a 5, +1 for the printed Strongpoint = 6:
    # passed, with a step loss": III/26 is reduced and stays in 1811; the Soviet loses 1318(-)
    pos = _17_0()
    a, r = _combat_1(pos)
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": 5})
    t = o.no_retreat["defender"]
    assert (t.roll, t.drm, t.modified, t.outcome, t.steps, t.rule) == (5, 1, 6, "pass", 1, "12.42")
    assert o.position.unit("ax-iii26").hex == H("1811") and o.position.unit("ax-iii26").steps == 1
    assert o.losses == {"so-1318": 1, "ax-iii26": 1} and o.retreats == {}
    assert any("No Retreat (rule 12.42): 5 +1" in line and "stays" in line for line in o.log)
    # the attacker's loss is logged before the defender's part (12.21: the attacker first)
    assert [i for i, line in enumerate(o.log) if "so-1318 loses" in line or "No Retreat" in line] == [1, 2]


def test_17_0_a_one_step_defender_is_eliminated_and_the_soviet_may_advance():
    # "If III/26 had been one-step, it would be eliminated and a Soviet unit could advance"
    pos = _17_0()
    a, r = _combat_1(pos)                 # the example's odds; then III/26 with one step left
    pos.unit("ax-iii26").steps = 1
    pos.touch()
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": 5}, advance=["so-87"])
    assert o.eliminated == ["ax-iii26"] and o.position.unit("so-87").hex == H("1811")


def test_12_38_no_attacker_left_no_defender_retreat():
    # A one-step unit attacks two steps at 1-3; roll 1: A1/DR; the attacker is removed, so "the
    # defender is not required to retreat"
    pos = load_position(DATA / "combat-12-38.yaml")
    a = assess_combat(pos, DS, ["so-1-1318"], H("1608"))
    assert (a.ratio, a.column) == ("1:3", "1-3")
    r = roll_combat(pos, DS, a, roll=1)
    assert r.result.text == "A1/DR"
    o = apply_combat(pos, DS, a, r)
    assert o.eliminated == ["so-1-1318"] and o.position.unit("ax-iii26").hex == H("1608")
    assert o.retreats == {} and any("rule 12.38" in line for line in o.log)
    with pytest.raises(IllegalMoveError, match="does not retreat"):      # a named retreat does not fit
        apply_combat(pos, DS, a, r, retreats={"defender": H("1709")})


def test_17_0_special_result_the_soviet_chooses_his_artillery():
    # "He chooses the artillery unit and turns it over to its Fired side [...] The air unit remains
    # active. The Axis air unit also remains active since the asterisk applied only to the Soviet"
    pos = _17_0()
    a, r = _combat_1(pos)
    o = apply_combat(pos, DS, a, r, losses={"so-1318": 1}, no_retreat={"defender": 5}, choices=ARTILLERY)
    after = o.position
    assert "fired" in after.unit("so-231-387").status
    assert "flown" not in after.unit("so-air-1").status and "flown" not in after.unit("ax-air-b1").status
    assert "so-231-387 is fired (artillery special result, rule 12.23)" in o.log
    assert not pos.unit("so-231-387").status                          # the position given is untouched


def test_17_0_combat_2_no_special_result_both_air_units_stay_active():
    # "No Special Result, so both air units stay active" (AR: no asterisk)
    pos = _17_0()
    a = assess_combat(pos, DS, "so-28-238", H("1910"), supports=[Support("air", "attacker", unit="so-air-1"),
                                                                      Support("air", "defender", unit="ax-air-b1")])
    r = roll_combat(pos, DS, a, roll=3)
    o = apply_combat(pos, DS, a, r, retreats={"attacker": H("1809")})
    assert not o.position.unit("so-air-1").status and not o.position.unit("ax-air-b1").status
    with pytest.raises(IllegalMoveError) as exc:                     # no asterisk: nothing to choose
        apply_combat(pos, DS, a, r, retreats={"attacker": H("1809")}, choices={"special": {"attacker": "air"}})
    assert exc.value.reasons[0].rule == "12.23" and "no special result" in str(exc.value)


# -- positions isolating each rule -----------------------------------------------------------------


def test_12_38_a_surviving_attacker_makes_the_defender_retreat():
    pos = load_position(DATA / "combat-12-38.yaml")
    _add(pos, [("so-1-87", "1507")])
    a = assess_combat(pos, DS, ["so-1-1318", "so-1-87"], H("1608"))
    r = next(roll_combat(pos, DS, a, roll=n) for n in range(1, 7)
             if roll_combat(pos, DS, a, roll=n).result.text == "A1/DR")
    with pytest.raises(IllegalMoveError, match="the defender must choose"):
        apply_combat(pos, DS, a, r, losses={"so-1-87": 1})


def test_no_retreat_needs_an_eligible_hex():
    # 17.0 combat 2: "The engineer is not eligible for No Retreat, so it must retreat"
    pos = _17_0()
    a = assess_combat(pos, DS, "so-28-238", H("1910"), supports=[Support("air", "attacker", unit="so-air-1"),
                                                                      Support("air", "defender", unit="ax-air-b1")])
    r = roll_combat(pos, DS, a, roll=3)
    assert r.result.text == "AR"
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, retreats={"attacker": H("1809")}, no_retreat={"attacker": 6})
    assert exc.value.reasons[0].rule == "12.42b" and "so-28-238" in exc.value.reasons[0].text
    with pytest.raises(IllegalMoveError, match="defender does not retreat on AR"):
        apply_combat(pos, DS, a, r, retreats={"attacker": H("1809")}, no_retreat={"defender": 6})


def test_no_retreat_failed_the_units_retreat():
    pos = _17_0()
    a, r = _combat_1(pos)
    with pytest.raises(IllegalMoveError, match="name the end hex"):      # a fail: the retreat is due
        apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": 1})
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": 1},
                     retreats={"defender": H("1912")})
    assert o.no_retreat["defender"].outcome == "fail" and o.position.unit("ax-iii26").hex == H("1912")
    # without a die the roll comes from the combat's seed: the same seed, the same roll
    drawn = roll_no_retreat(pos, DS, "defender", pos.units_of(["ax-iii26"]), seed=r.seed)
    assert drawn == roll_no_retreat(pos, DS, "defender", pos.units_of(["ax-iii26"]), seed=r.seed)
    kw = {"retreats": {"defender": H("1912")}} if not drawn.passed else {}
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": None}, **kw)
    assert o.no_retreat["defender"] == drawn
    with pytest.raises(RulesError, match="1 to 6, not 7"):
        apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, no_retreat={"defender": 7})


def test_the_no_retreat_table_is_estimated_data_with_the_known_cell():
    game = _17_0().game
    rows = no_retreat_table(game, "retreat_options")
    assert (4, 6, "pass", 1) in rows                                  # 17.0: a final 6 passes with a loss
    assert "estimated" in game.charts["retreat_options"]
    broken = replace(game, charts={**game.charts, "retreat_options": {"rows": {"1-6": "hold"}}})
    with pytest.raises(DataError, match="not pass, fail"):
        no_retreat_table(broken, "retreat_options")


def test_12_25_reduced_attacker_loss():
    # the defender (2 steps) loses more steps than it has: the attacker loses one step fewer
    pos = load_position(DATA / "combat-12-38.yaml")
    _add(pos, [("so-1318", "1507")])
    a = assess_combat(pos, DS, ["so-1-1318", "so-1318"], H("1608"))
    r = roll_combat(pos, DS, a, roll=1)
    cell = parse_result("A2/D3", retreat=(1, 2))                     # no such cell on the estimated CRT
    a.results[cell.text] = cell
    r = replace(r, result=cell)
    o = apply_combat(pos, DS, a, r, losses={"so-1318": 1})
    assert o.eliminated == ["ax-iii26"] and o.losses == {"ax-iii26": 2, "so-1318": 1}
    assert any("rule 12.25" in line for line in o.log)


def test_12_33_a_retreat_ending_over_the_stacking_limit_eliminates():
    pos = _17_0()
    _add(pos, [("ax-ir27", "1912"), ("ax-ir48", "1912"), ("ax-ir89", "1912"), ("ax-ew", "1912")])   # 7 points
    a, r = _combat_1(pos)
    answer = retreat_options(pos, DS, ["ax-iii26"], (1, 2), from_hex=H("1811"))
    assert H("1912") in answer.overstacked and answer.overstacked[H("1912")].rule == "12.33"
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, losses={"so-1318": 1}, retreats={"defender": H("1912")})
    assert o.eliminated == ["ax-iii26"] and "12.33" in " ".join(o.log)
    assert o.position.unit("ax-ir27").hex == H("1912")


def test_12_37_apply_combat_refuses_a_retreat_away_from_the_source():
    # IR 27 in 2032, 4 hexes from the one Axis source 2036, attacked from 2132; DR on a 1
    g = one_source_game("2036")
    pos = position(g, weather="frozen", side="soviet", **{"ax-ir27": "2032", "so-87": "2132", "so-1-87": "2132"})
    a = assess_combat(pos, DS, ["so-87", "so-1-87"], H("2032"))
    r = roll_combat(pos, DS, a, roll=1)
    assert r.result.text == "DR"
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, retreats={"defender": H("2031")})
    why = exc.value.reasons[0]
    assert (why.code, why.rule, why.hex) == (Code.RETREAT_ILLEGAL, "12.37", H("2031"))
    assert "farther from the Supply Source 2036 (4 -> 5 hexes)" in why.text
    with pytest.raises(IllegalMoveError) as exc:                     # the ends 12.37 leaves, by length
        apply_combat(pos, DS, a, r)
    assert "retreat 1 hex(es); or retreat 2 hex(es) (ax-ir27 from 2032 to one of 1833 1933)" in str(exc.value)
    assert apply_combat(pos, DS, a, r, retreats={"defender": H("1932")}).position.unit("ax-ir27").hex == H("1932")
    assert apply_combat(pos, DS, a, r, retreats={"defender": H("1933")}).position.unit("ax-ir27").hex == H("1933")


def test_12_52_one_soviet_unit_advances_from_each_attacking_hex():
    pos = _17_0()
    a, r = _combat_1(pos)                 # the example's odds; then III/26 with one step left
    pos.unit("ax-iii26").steps = 1
    pos.touch()
    kw = dict(losses={"so-1318": 1}, no_retreat={"defender": 5})
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, choices=ARTILLERY, advance=["so-87", "so-1-87"], **kw)   # both from 1710
    assert exc.value.reasons[0].code == Code.ADVANCE_ILLEGAL and "only 1 unit(s) of the soviet" in str(exc.value)
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, advance=["so-87", "so-2-87"], **kw)  # one from 1710, one from 1810
    assert {o.advances["so-87"], o.advances["so-2-87"]} == {H("1811")}


def test_12_56_and_12_57_advance_limits():
    pos = _17_0()
    _add(pos, [("ax-ir27", "1711"), ("ax-ir48", "1711"), ("ax-ir89", "1711"), ("ax-ir6", "1711")])
    del pos.units["ax-iii26"]
    pos.touch()
    # four regiments of 2 points: 8 > 7 at the end of the advance (12.56); three may go
    assert advance_options(pos, DS, ["ax-ir27", "ax-ir48", "ax-ir89", "ax-ir6"], H("1811")) == []
    assert advance_options(pos, DS, ["ax-ir27", "ax-ir48", "ax-ir89"], H("1811")) == [H("1811")]
    _add(pos, [("so-231-387", "1710")])
    assert advance_options(pos, DS, ["so-231-387"], H("1811")) == []   # 12.57: artillery never


def test_12_23a_with_both_kinds_the_owner_chooses_and_must_choose():
    pos = _17_0()
    a, r = _combat_1(pos)
    kw = dict(losses={"so-1318": 1}, no_retreat={"defender": 5})
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, **kw)
    why = exc.value.reasons[0]
    assert (why.code, why.rule) == (Code.COMBAT_CHOICE, "12.23")
    assert "artillery (so-231-387) or air (so-air-1)" in why.text
    o = apply_combat(pos, DS, a, r, choices={"special": {"attacker": "air"}}, **kw)
    assert "flown" in o.position.unit("so-air-1").status and not o.position.unit("so-231-387").status
    with pytest.raises(IllegalMoveError, match="not 'armor'"):
        apply_combat(pos, DS, a, r, choices={"special": {"attacker": "armor"}}, **kw)
    with pytest.raises(RulesError, match="not axis"):
        apply_combat(pos, DS, a, r, choices={"special": {"axis": "air"}}, **kw)


def test_12_23a_the_choices_are_offered_as_the_rules_name_them():
    # "All participating air units are turned to Flown [13.14]; or All participating artillery
    # units are turned to Fired [10.41]": the attacker is asked, the defender (no "*") is not
    from toolkit.referee import special_choices
    pos = _17_0()
    a, r = _combat_1(pos)
    asks = special_choices(DS, a, r.result)
    assert list(asks) == ["attacker"]
    assert [o.to_dict() for o in asks["attacker"]] == [
        {"kind": "artillery", "units": ["so-231-387"], "status": "fired", "rule": "10.41",
         "text": "all participating artillery units are turned to Fired"},
        {"kind": "air", "units": ["so-air-1"], "status": "flown", "rule": "13.14",
         "text": "all participating air units are turned to Flown"}]
    for option in asks["attacker"]:          # each option is what spend_supports then does
        o = apply_combat(pos, DS, a, r, losses={"so-1318": 1}, no_retreat={"defender": 5},
                         choices={"special": {"attacker": option.kind}})
        assert {uid for uid in ("so-231-387", "so-air-1", "ax-air-b1")
                if o.position.unit(uid).status & {"fired", "flown"}} == set(option.units)


def test_12_23bc_one_kind_or_none_is_not_asked():
    from toolkit.referee import special_choices
    pos = _17_0()
    for supports in ([Support("air", "attacker", unit="so-air-1")], []):
        a = assess_combat(pos, DS, ATTACKERS, H("1811"), supports=supports)
        assert special_choices(DS, a, _starred(pos, a).result) == {}
    a, _ = _combat_1(pos)                     # both kinds: asked on every roll with a "*", on no other
    asked = {n: bool(special_choices(DS, a, roll_combat(pos, DS, a, roll=n).result)) for n in range(1, 7)}
    starred = {n: "*" in roll_combat(pos, DS, a, roll=n).result.text for n in range(1, 7)}
    assert asked == starred and asked[6] and not all(asked.values())


def test_12_23b_one_kind_taking_part_is_spent_without_a_choice():
    pos = _17_0()
    a = assess_combat(pos, DS, ATTACKERS, H("1811"), supports=[Support("air", "attacker", unit="so-air-1")])
    r = _starred(pos, a)
    o = apply_combat(pos, DS, a, r, losses={"so-1318": 1}, no_retreat={"defender": 5})
    assert "flown" in o.position.unit("so-air-1").status
    with pytest.raises(IllegalMoveError, match="falls on air without a choice"):
        apply_combat(pos, DS, a, r, losses={"so-1318": 1}, no_retreat={"defender": 5},
                     choices={"special": {"attacker": "artillery"}})


def test_12_23c_no_support_taking_part_no_effect():
    pos = _17_0()
    a = assess_combat(pos, DS, ATTACKERS, H("1811"))
    r = _starred(pos, a)
    o = apply_combat(pos, DS, a, r, losses={"so-1318": 1}, no_retreat={"defender": 5})
    assert any("special result has no effect" in line and "12.23" in line for line in o.log)
    assert not any(u.status & {"fired", "flown"} for u in o.position.units.values())


def test_supports_without_an_asterisk_stay_available():
    # 13.11: an air unit flies as many missions as it likes until a Special Result turns it to
    # Flown; artillery is Fired only by one (10.41): a combat without "*" spends neither
    pos = _17_0()
    a = assess_combat(pos, DS, ATTACKERS, H("1811"),
                      supports=[Support("artillery", "attacker", unit="so-231-387"),
                                Support("air", "attacker", unit="so-air-1")])
    r = next(x for x in (roll_combat(pos, DS, a, roll=n) for n in range(1, 7)) if "*" not in x.result.text)
    o = apply_combat(pos, DS, a, r, **_simple(pos, a, r))
    assert not o.position.unit("so-231-387").status and not o.position.unit("so-air-1").status


def _starred(pos, a):
    """``a`` rolled on 6 and read as A1*/DR (the 17.0 cell) whatever its column."""
    r = roll_combat(pos, DS, a, roll=6)
    cell = parse_result("A1*/DR", retreat=(1, 2))
    a.results[cell.text] = cell
    return replace(r, result=cell)


def _simple(pos, a, r):
    """Choices that fit any result of the 17.0 attack: losses from the largest units, III/26
    standing by No Retreat or retreating to 1912."""
    kw = {}
    if r.result.attacker.steps:
        kw["losses"] = {"so-1318": 1} if r.result.attacker.steps == 1 else {"so-1318": 1, "so-1-1318": 1}
    if r.result.defender.retreat:
        kw["retreats"] = {"defender": H("1912")}
    return kw


# -- 12.43-12.44 retreat through an enemy ZOC -------------------------------------------------------


def _12_44(unit="so-1318"):
    """The 12.44 example's unit #1 in 2733 (every neighbour Axis-held or in Axis ZOC), here a
    two-step unit, attacked by the Axis units in 2732 and 2834, with a roll giving DR."""
    pos = load_position(DATA / "retreat-12-44.yaml")
    del pos.units["so-1-87"]
    _add(pos, [(unit, "2733")])
    a = assess_combat(pos, DS, ["ax-ss-baum", "ax-ss-bochmann"], H("2733"))
    r = next(x for x in (roll_combat(pos, DS, a, roll=n) for n in range(1, 7)) if x.result.text == "DR")
    return pos, a, r


def test_12_44_the_surrounded_unit_passes_loses_a_step_and_goes_on():
    # "It can, however, retreat if it passes the Retreat Options Table. If it passes, it must
    # retreat two hexes and to a hex not in an enemy ZOC or occupied by a friendly unit. It also
    # loses one step"
    pos, a, r = _12_44()
    o = apply_combat(pos, DS, a, r)                                    # no attempt declared: eliminated
    assert o.eliminated == ["so-1318"]
    o = apply_combat(pos, DS, a, r, zoc_retreat={"defender": 6}, retreats={"defender": H("2932")})
    assert o.zoc_retreat["defender"].outcome == "pass" and o.zoc_retreat["defender"].rule == "12.43"
    assert o.position.unit("so-1318").hex == H("2932") and o.position.unit("so-1318").steps == 1
    assert o.retreats["so-1318"] == [H("2733"), H("2833"), H("2932")] and o.losses == {"so-1318": 1}
    # 2632 holds a friendly unit: a legal end too; 2834 is Axis-held: never
    assert apply_combat(pos, DS, a, r, zoc_retreat={"defender": 6},
                        retreats={"defender": H("2632")}).position.unit("so-1318").hex == H("2632")
    with pytest.raises(IllegalMoveError):
        apply_combat(pos, DS, a, r, zoc_retreat={"defender": 6}, retreats={"defender": H("2834")})


def test_12_44_a_failed_roll_eliminates():
    pos, a, r = _12_44()
    o = apply_combat(pos, DS, a, r, zoc_retreat={"defender": 1}, retreats={"defender": H("2932")})
    assert o.zoc_retreat["defender"].outcome == "fail" and o.eliminated == ["so-1318"]
    assert any("failed the retreat through an enemy ZOC" in line for line in o.log)


def test_12_43_only_without_a_normal_retreat_and_not_for_artillery():
    pos = load_position(DATA / "retreat-12-44.yaml")                  # unit #2 in 2632 retreats normally
    a = assess_combat(pos, DS, ["ax-ss-kurtz"], H("2632"))
    r = next(x for x in (roll_combat(pos, DS, a, roll=n) for n in range(1, 7)) if x.result.text == "DR")
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, zoc_retreat={"defender": 6}, retreats={"defender": H("2731")})
    assert exc.value.reasons[0].rule == "12.43" and "a normal retreat exists" in str(exc.value)
    pos, a, r = _12_44("so-231-387")                                  # artillery: simply eliminated (12.43b)
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, zoc_retreat={"defender": 6}, retreats={"defender": H("2932")})
    assert exc.value.reasons[0].rule == "12.43b"
    assert apply_combat(pos, DS, a, r).eliminated == ["so-231-387"]


# -- 12.32 a retreat from an Entry hex into the friendly Map Box ------------------------------------


def _entry(game=None, **more):
    """IR 27 on 2036, an Entry hex of the AGN box, attacked from 2035 at 1-1 (a 1 is DR)."""
    from toolkit.io import load_game
    g = game or load_game("demyansk-shield")
    pos = position(g, weather="frozen", side="soviet",
                   **{"ax-ir27": "2036", "so-87": "2035", "so-1-87": "2035", **more})
    a = assess_combat(pos, DS, ["so-87", "so-1-87"], H("2036"))
    r = roll_combat(pos, DS, a, roll=1)
    assert r.result.text == "DR"
    return pos, a, r


def test_12_32_a_unit_on_an_entry_hex_retreats_into_its_map_box():
    # "A unit can retreat from a Map Box Entry hex directly into the adjacent friendly Map Box
    # (without the requirement to cross any hexes)"
    pos, a, r = _entry()
    o = apply_combat(pos, DS, a, r, retreats={"defender": "agn"}, advance=["so-87"])
    unit = o.position.unit("ax-ir27")
    assert (unit.hex, unit.box) == (None, "agn") and o.boxes == {"ax-ir27": "agn"}
    assert "ax-ir27 retreat from 2036 into the agn box (rule 12.32)" in o.log
    assert o.position.unit("so-87").hex == H("2036") and o.losses == {}        # the hex is vacated
    with pytest.raises(IllegalMoveError) as exc:                      # one more choice for the owner
        apply_combat(pos, DS, a, r)
    assert "box:agn" in str(exc.value) and "1936 2136 box:agn" in str(exc.value)
    with pytest.raises(IllegalMoveError) as exc:                      # not another box
        apply_combat(pos, DS, a, r, retreats={"defender": "nwf"})
    assert exc.value.reasons[0].rule == "12.32" and "only into agn" in str(exc.value)


def test_12_32_with_no_hex_to_retreat_to_the_box_is_taken():
    # 1936 and 2136 held by Soviet units: no retreat on the map; the box is the one way out
    pos, a, r = _entry(**{"so-1318": "1936", "so-1-1318": "2136"})
    answer = retreat_options(pos, DS, ["ax-ir27"], (1, 2))
    assert not answer.paths and answer.boxes == ("agn",) and not answer.eliminated   # the box is an end
    o = apply_combat(pos, DS, a, r)
    assert o.boxes == {"ax-ir27": "agn"} and not o.eliminated


def test_12_32_only_from_an_entry_hex_and_into_the_units_own_box():
    pos, a, r = _entry()
    assert DS.retreat_boxes(pos, pos.units_of(["ax-ir27"])) == ["agn"]
    pos.unit("ax-ir27").hex = H("2035")                               # not an Entry hex
    assert DS.retreat_boxes(pos, pos.units_of(["ax-ir27"])) == []
    # a yellow (Valday) Soviet unit on an NWF Entry hex: not its box (9.32, 9.33)
    from toolkit.io import load_game
    g = load_game("demyansk-shield")
    soviet = position(g, weather="frozen", **{"so-87": "1010"})
    assert soviet.unit("so-87").counter.front["box"] == "yellow"
    assert DS.retreat_boxes(soviet, soviet.units_of(["so-87"])) == []
    soviet.unit("so-87").hex = H("1601")
    assert DS.retreat_boxes(soviet, soviet.units_of(["so-87"])) == ["valday"]


# -- 11.42 Retreat Before Combat and 12.41 one retreat option ---------------------------------------


def _rbc(defender="ax-aa12", weather="frozen", roll=4, attackers=("so-87", "so-1-87")):
    """A recon unit (Exploitation Movement box) in 2032 attacked from 2132 at 1-1; ``roll`` 4: AR."""
    g = one_source_game("2036")
    side = "axis" if defender.startswith("so-") else "soviet"
    pos = position(g, weather=weather, side=side, **{defender: "2032", **{u: "2132" for u in attackers}})
    a = assess_combat(pos, DS, list(attackers), H("2032"))
    return pos, a, roll_combat(pos, DS, a, roll=roll)


def test_11_42_a_pass_retreats_and_there_is_no_combat():
    # "If the unit (or group) passes, it retreats and there is no combat [...] Attacking units can
    # advance to occupy the now vacant hex"; the retreat follows 12.3: one or two hexes
    pos, a, r = _rbc()
    assert r.result.text == "AR"                                   # not applied: no combat
    o = apply_combat(pos, DS, a, r, before_combat={"defender": 4}, retreats={"defender": H("1933")},
                     advance=["so-87"])
    t = o.before_combat
    assert (t.roll, t.drm, t.outcome, t.steps, t.rule) == (4, 0, "pass", 0, "11.42")
    assert o.position.unit("ax-aa12").hex == H("1933") and o.retreats["ax-aa12"] == [H("2032"), H("1932"), H("1933")]
    assert o.position.unit("so-87").hex == H("2032") and o.position.unit("so-1-87").hex == H("2132")
    assert o.losses == {} and "no combat: the CRT roll (AR) is not applied (rule 11.42)" in o.log
    assert o.to_dict(pos.map.format)["before_combat"]["outcome"] == "pass"
    with pytest.raises(IllegalMoveError, match="name the end hex"):  # the retreat is the owner's to name
        apply_combat(pos, DS, a, r, before_combat={"defender": 4})
    # 12.37 holds for it too: 2031 is farther from the source
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, before_combat={"defender": 4}, retreats={"defender": H("2031")})
    assert exc.value.reasons[0].rule == "12.37"


def test_11_42_a_fail_defends_the_declared_combat():
    pos, a, r = _rbc(roll=1)
    assert r.result.text == "DR"
    o = apply_combat(pos, DS, a, r, before_combat={"defender": 3}, retreats={"defender": H("1932")})
    assert o.before_combat.outcome == "fail" and o.position.unit("ax-aa12").hex == H("1932")
    assert "defender tries Retreat Before Combat (rule 11.42): 3: fail; it defends" in o.log
    # without a die the roll comes from the combat's seed, the same each time
    one = apply_combat(pos, DS, a, r, before_combat={"defender": None}, retreats={"defender": H("1932")})
    assert one.before_combat == apply_combat(pos, DS, a, r, before_combat={"defender": None},
                                             retreats={"defender": H("1932")}).before_combat


def test_12_41_only_one_retreat_option_in_a_combat():
    pos, a, r = _rbc(roll=1)
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, before_combat={"defender": 3}, no_retreat={"defender": 6})
    why = exc.value.reasons[0]
    assert (why.code, why.rule) == (Code.COMBAT_CHOICE, "12.41") and "only one retreat option" in why.text


def test_11_42_who_may_try_it():
    pos, a, r = _rbc(defender="ax-ir27")                            # no Exploitation Movement box
    with pytest.raises(IllegalMoveError) as exc:
        apply_combat(pos, DS, a, r, before_combat={"defender": 6})
    assert exc.value.reasons[0].rule == "11.42" and "no Exploitation Movement box" in str(exc.value)
    axis = ("ax-ir27", "ax-ir48")
    pos, a, r = _rbc(defender="so-ski-1", weather="dry", attackers=axis)   # 11.42e: no ski units in Mud or Dry
    with pytest.raises(IllegalMoveError, match="ski unit so-ski-1 may not Retreat Before Combat in Dry"):
        apply_combat(pos, DS, a, r, before_combat={"defender": 6})
    pos, a, r = _rbc(defender="so-ski-1", weather="frozen", attackers=axis)
    assert apply_combat(pos, DS, a, r, before_combat={"defender": 6}, retreats={"defender": H("1932")}) \
        .position.unit("so-ski-1").hex == H("1932")
    with pytest.raises(RulesError, match="the defender's"):
        apply_combat(pos, DS, a, r, before_combat={"attacker": 6})


def test_11_42_on_several_defender_hexes_is_not_refereed():
    # "Roll only once per hex": the referee takes Retreat Before Combat in one-hex combats only
    g = one_source_game("2036")
    pos = position(g, weather="frozen", side="soviet",
                   **{"ax-aa12": "2032", "ax-aa30-30": "2131", "so-87": "2132", "so-1-87": "2132"})
    a = assess_combat(pos, DS, ["so-87", "so-1-87"], [H("2032"), H("2131")])
    r = roll_combat(pos, DS, a, roll=4)
    with pytest.raises(IllegalMoveError, match="only in a combat on one hex"):
        apply_combat(pos, DS, a, r, before_combat={"defender": 6})


# -- property: a No Retreat roll against the table read literally -----------------------------------


@settings(max_examples=20, deadline=None)
@given(die=st.integers(1, 6), steps=st.integers(1, 2))
def test_no_retreat_follows_the_table_row_by_row(die, steps):
    # 17.0 combat 1 with III/26 at 1 or 2 steps: the modified roll (die + 1, printed Strongpoint)
    # is looked up in charts.retreat_options read here row by row; a pass keeps III/26 in 1811 with
    # the row's steps lost on top of the CRT's none, a fail leaves the retreat to be named
    pos = _17_0()
    a, r = _combat_1(pos)
    pos.unit("ax-iii26").steps = steps
    pos.touch()
    rows = pos.game.charts["retreat_options"]["rows"]
    cell = next(v for k, v in rows.items() if _in_row(str(k), die + 1))
    outcome, _, extra = str(cell).partition("/")
    kw = dict(losses={"so-1318": 1}, no_retreat={"defender": die})
    if outcome == "fail":
        with pytest.raises(IllegalMoveError, match="name the end hex"):
            apply_combat(pos, DS, a, r, choices=ARTILLERY, **kw)
        return
    o = apply_combat(pos, DS, a, r, choices=ARTILLERY, **kw)
    lost = int(extra or 0)
    if lost >= steps:
        assert o.eliminated == ["ax-iii26"]
    else:
        assert o.position.unit("ax-iii26").hex == H("1811") and o.position.unit("ax-iii26").steps == steps - lost


def _in_row(label: str, roll: int) -> bool:
    if label.endswith("+"):
        return roll >= int(label[:-1])
    low, _, high = label.partition("-")
    return int(low) <= roll <= int(high or low)


# -- 10.42, 10.22: artillery Fired by the combat itself ----------------------------------------------


def test_10_42_rocket_artillery_is_fired_after_each_use():
    # "Rocket artillery is turned to Fired after each use; Special Results do not apply to them"
    g = one_source_game("2036")
    pos = position(g, weather="frozen", side="soviet",
                   **{"ax-ir27": "2032", "so-87": "2132", "so-1-87": "2132", "so-rkt-1": "2233"})
    a = assess_combat(pos, DS, ["so-87", "so-1-87", "so-rkt-1"], H("2032"))
    assert a.legal, a.refusals
    r = roll_combat(pos, DS, a, roll=1)
    o = apply_combat(pos, DS, a, r, retreats={"defender": H("1933")})
    assert "fired" in o.position.unit("so-rkt-1").status and "so-rkt-1 is fired (10.42, rocket artillery after each " \
        "use)" in o.log
    again = assess_combat(o.position, DS, ["so-87", "so-rkt-1"], H("1933"))
    assert not again.legal and any(x.rule == "10.42" for x in again.refusals)


def test_10_22_artillery_attacked_alone_is_fired_whatever_the_result():
    g = one_source_game("2036")
    pos = position(g, weather="frozen", side="soviet", **{"ax-ar12": "2032", "so-87": "2132", "so-1-87": "2132"})
    a = assess_combat(pos, DS, ["so-87", "so-1-87"], H("2032"))
    r = next(x for x in (roll_combat(pos, DS, a, roll=n) for n in range(1, 7)) if x.result.text == "AR")
    o = apply_combat(pos, DS, a, r, retreats={"attacker": H("2233")})
    assert o.position.unit("ax-ar12").hex == H("2032") and "fired" in o.position.unit("ax-ar12").status
    assert "ax-ar12 is fired (10.22, artillery attacked alone)" in o.log
    # with a non-artillery unit in the hex it is not (10.23)
    pos = position(g, weather="frozen", side="soviet",
                   **{"ax-ar12": "2032", "ax-ir27": "2032", "so-87": "2132", "so-1-87": "2132"})
    a = assess_combat(pos, DS, ["so-87", "so-1-87"], H("2032"))
    r = next(x for x in (roll_combat(pos, DS, a, roll=n) for n in range(1, 7)) if x.result.text == "AR")
    assert "fired" not in apply_combat(pos, DS, a, r, retreats={"attacker": H("2233")}).position.unit("ax-ar12").status
