"""Conventional and antitank fire (Rules 9, 10, 12, 19, 21 A, p.35): the notes' section 12
cases "Fire, odds and losses" (22-32) and the intrinsic garrison (63), each on a position
built on the estimated map to isolate the rule, through the shared ``assess_combat``."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.errors import RulesError
from toolkit.referee import assess_combat
from toolkit.rulesets.white_death.fire import defence_value, fire_value
from toolkit.rulesets.white_death.fire_tables import FireResult, fire_table
from toolkit.rulesets.white_death.shots import Shot, check_for, outcome_of

from .helpers import clear_run, h, position

F = Fraction


def _run(game):
    m = game.maps["main"]
    return [m.format(x) for x in clear_run(m)]


def _shot(a, uid):
    return next(s for s in a.shots if s.unit.id == uid)


def test_case_22_odds_round_in_the_defenders_favour(game):
    table = fire_table(game, "conventional_fire")
    assert table.columns[table.column_of(F(29), F(10))] == "2:1"          # 2.9 -> 2:1 (9 C.3)
    assert table.columns[table.column_of(F(30), F(10))] == "3:1"
    assert table.column_of(F(4), F(10)) is None                              # below 1:2: no effect (ruled)
    assert table.result(1, None) == FireResult("-")


def test_case_22_in_play_29_fire_points_at_a_town_defender_read_2_to_1(game, rs):
    # 29 of the 36 points of three regiments on a personnel unit in a town (DV 10, estimated)
    pos = position(game, {"s-18g": "1305", "s-31g": "1305", "s-36g": "1305", "g-251-1": "1405"})
    a = assess_combat(pos, rs, ["s-18g", "s-31g", "s-36g"], h(game, "1405"), context={"targets": {"g-251-1": 29}})
    s = _shot(a, "g-251-1")
    assert (s.fire, s.defence, s.column_text) == (29, 10, "2:1") and a.legal


def test_case_23_personnel_in_clear_defend_with_6(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b})
    dv, mods = defence_value(pos, pos.unit("g-251-1"), "conventional", assault_hex=h(game, b), assaulting=False)
    assert dv == 6 and mods[0].rule == "9 C.2, 12"


def test_case_24_half_strength_cap_keeps_the_full_drm(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b})
    shot = Shot(pos.unit("g-251-1"), "conventional", fire_table(game, "conventional_fire"))
    cell = FireResult("MC3", 3, True)
    o = outcome_of(pos, shot, cell, "pass", "assault")
    assert o.lost == 1 and "capped at half of 3" in o.text                   # floor(3/2) (notes 13.2)
    assert check_for(pos, shot, cell, 0, 0).drm == 3                        # the DRM is not reduced
    pos.unit("g-251-1").steps = 1                                           # strength 1: MC 1 eliminates
    assert outcome_of(pos, shot, FireResult("MC1", 1, True), None, "assault").eliminated


def test_case_25_fire_value_isolation_close_combat_and_slope(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b})
    u = pos.unit("s-18g")
    u.steps = 4                                                             # factor 2 x strength 4
    kw = dict(assaulting=True, target_hex=h(game, b), assault_hex=h(game, b))
    assert fire_value(pos, rs, u, "conventional", isolated=False, **kw)[0] == 8
    value, mods, _ = fire_value(pos, rs, u, "conventional", isolated=True, **kw)
    assert value == 4 and mods[0].rule == "15 C"
    # a close-combat engineer brigade (factor 2, 4 SP) assaulting into the town of 1405: x 2 (21 A)
    pos = position(game, {"s-eng1": "1305", "g-251-1": "1405"})
    kw = dict(assaulting=True, target_hex=h(game, "1405"), assault_hex=h(game, "1405"))
    assert fire_value(pos, rs, pos.unit("s-eng1"), "conventional", isolated=False, **kw)[0] == 16
    assert fire_value(pos, rs, pos.unit("s-eng1"), "conventional", isolated=True, **kw)[0] == 8
    # firing down the slope from the high ground of 1209 into 1208: x 2 (12 B); not up it
    pos = position(game, {"s-18g": "1209", "g-251-1": "1208"})
    down = fire_value(pos, rs, pos.unit("s-18g"), "conventional", assaulting=True, target_hex=h(game, "1208"),
                      assault_hex=h(game, "1208"), isolated=False)
    assert down[0] == 24 and down[1][-1].rule == "12 B"
    pos = position(game, {"s-18g": "1208", "g-251-1": "1209"})
    up = fire_value(pos, rs, pos.unit("s-18g"), "conventional", assaulting=True, target_hex=h(game, "1209"),
                    assault_hex=h(game, "1209"), isolated=False)
    assert up[0] == 12


def test_case_26_antitank_fractions_are_kept_before_summing(game, rs):
    # two Soviet regiments of AT 1/2 at strength 3 defend a town; a German tank company of DV 2
    # assaulting into the town has DV 1 (12 C): 3/2 + 3/2 = 3 against 1 is 3:1
    pos = position(game, {"s-18g": "1405", "s-31g": "1405", "g-pz10-1": "1305", "g-251-1": "1305"},
                  side="german")
    for uid in ("s-18g", "s-31g"):
        pos.unit(uid).steps = 3
    a = assess_combat(pos, rs, ["g-pz10-1", "g-251-1"], h(game, "1405"), context={"fire": "defensive"})
    s = _shot(a, "g-pz10-1")
    assert (s.kind, s.fire, s.defence, s.column_text) == ("antitank", 3, 1, "3:1")
    assert any(m.rule == "12 C" for m in s.modifiers)


def test_case_27_weapons_units_after_every_personnel_unit_and_never_at_higher_odds(game, rs):
    a, b, _ = _run(game)
    units = {"s-18g": a, "s-31g": a, "g-251-1": b, "g-251-2": b, "g-ar183-1": b}
    pos = position(game, units)
    attackers = ["s-18g", "s-31g"]
    bad = assess_combat(pos, rs, attackers, h(game, b), context={"targets": {"g-251-1": 12, "g-ar183-1": 8}})
    assert not bad.legal and "every personnel unit" in bad.refusals[0].text and bad.refusals[0].rule == "9 C.3"
    # personnel at 12:6 = 2:1 and 6:6; the artillery (H, DV 4) at 12:4 = 3:1 would be higher odds
    higher = assess_combat(pos, rs, attackers, h(game, b),
                           context={"targets": {"g-251-1": 12, "g-251-2": 6, "g-ar183-1": 6}})
    assert not higher.legal and "higher odds" in higher.refusals[0].text
    ok = assess_combat(pos, rs, attackers, h(game, b),
                       context={"targets": {"g-251-1": 12, "g-251-2": 8, "g-ar183-1": 4}})
    assert ok.legal
    # the default allocation shares the fire by defence value: every target at the same odds
    auto = assess_combat(pos, rs, attackers, h(game, b))
    ratios = {s.unit.id: s.fire / s.defence for s in auto.shots}
    assert auto.legal and len(set(ratios.values())) == 1 and sum(s.fire for s in auto.shots) == 24
    over = assess_combat(pos, rs, attackers, h(game, b), context={"targets": {"g-251-1": 20, "g-251-2": 8}})
    assert not over.legal and "beyond the pool" in over.refusals[0].text


def test_case_28_afvs_only_take_antitank_fire_and_only_afvs_do(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "g-pz10-1": b, "g-251-1": b})
    got = assess_combat(pos, rs, ["s-18g"], h(game, b))
    assert [s.unit.id for s in got.shots] == ["g-251-1"] and got.shots[0].fire == 12   # its AT adds nothing
    named = assess_combat(pos, rs, ["s-18g"], h(game, b), context={"targets": {"g-pz10-1": None}})
    assert not named.legal and named.refusals[0].rule == "10 A"              # infantry fire no AT in assault
    tanks = assess_combat(position(game, {"s-t184-1": a, "g-pz10-1": b, "g-251-1": b}), rs, ["s-t184-1"], h(game, b))
    assert {s.unit.id: s.kind for s in tanks.shots} == {"g-pz10-1": "antitank", "g-251-1": "conventional"}
    # a bunker is never fired at by conventional or antitank fire (19: barrages only)
    pos = position(game, {"s-18g": "2012", "g-bunker1": "2013", "g-251-1": "2013"})
    bunker = assess_combat(pos, rs, ["s-18g"], h(game, "2013"), context={"targets": {"g-bunker1": None}})
    assert not bunker.legal and bunker.refusals[0].rule == "9 B"


def test_case_29_t70_defends_with_1_in_a_town(game, rs):
    pos = position(game, {"s-t184-2": "1405", "g-pz10-1": "1305"}, side="german")
    t70 = pos.unit("s-t184-2")
    assert defence_value(pos, t70, "antitank", assault_hex=h(game, "1405"), assaulting=False)[0] == 1
    a, b, _ = _run(game)
    pos = position(game, {"s-t184-2": a, "g-pz10-1": b})
    assert defence_value(pos, pos.unit("s-t184-2"), "antitank", assault_hex=h(game, b), assaulting=True)[0] == 2
    pos = position(game, {"s-t184-2": "1305", "g-251-1": "1405"})            # assaulting into the town
    assert defence_value(pos, pos.unit("s-t184-2"), "antitank", assault_hex=h(game, "1405"),
                         assaulting=True)[0] == 1


def test_case_30_a_weapons_unit_fires_antitank_or_conventional(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-18g": a, "s-t184-1": a, "g-pzj183": b, "g-251-1": b})
    d = assess_combat(pos, rs, ["s-18g", "s-t184-1"], h(game, b), context={"fire": "defensive"})
    # the AT company fires its 3 x 2 at the tank, not its *1 conventional; the infantry both
    assert _shot(d, "s-t184-1").fire == 6 + F(3, 2) and _shot(d, "s-18g").fire == 6
    d = assess_combat(pos, rs, ["s-18g", "s-t184-1"], h(game, b),
                      context={"fire": "defensive", "weapons_fire": {"g-pzj183": "conventional"}})
    assert _shot(d, "s-t184-1").fire == F(3, 2) and _shot(d, "s-18g").fire == 8


def test_case_31_asterisk_factors_fire_only_defensively(game, rs):
    a, b, _ = _run(game)
    pos = position(game, {"s-art-9g": a, "s-18g": a, "g-251-1": b})
    assault = assess_combat(pos, rs, ["s-art-9g", "s-18g"], h(game, b))
    assert assault.shots[0].fire == 12 and any(m.rule == "9 A" for m in assault.modifiers)
    pos = position(game, {"g-251-1": a, "s-art-9g": b, "s-18g": b}, side="german")
    defence = assess_combat(pos, rs, ["g-251-1"], h(game, b), context={"fire": "defensive"})
    assert defence.shots[0].fire == 4 + 12                                   # *1 x 4 + 2 x 6


def test_case_32_the_best_terrain_of_the_hex_and_bunkers(game, rs):
    pos = position(game, {"s-18g": "1815", "g-251-1": "1814"})               # town + river (+ bunker hex)
    g = pos.unit("g-251-1")
    assert defence_value(pos, g, "conventional", assault_hex=h(game, "1814"), assaulting=False)[0] == 10
    pos = position(game, {"s-18g": "1815", "g-251-1": "1814", "g-bunker4": "1814"})
    assert defence_value(pos, pos.unit("g-251-1"), "conventional", assault_hex=None, assaulting=False)[0] == 12
    # 12 D: assaulting out of the bunker hex, the town's value
    assert defence_value(pos, pos.unit("g-251-1"), "conventional", assault_hex=h(game, "1815"),
                         assaulting=True)[0] == 10


def test_case_49_bunker_fires_its_strength_defensively_only(game, rs):
    pos = position(game, {"s-18g": "2012", "s-t184-1": "2012", "g-bunker4": "2013", "g-251-1": "2013"})
    pos.unit("g-bunker4").steps = 7
    d = assess_combat(pos, rs, ["s-18g", "s-t184-1"], h(game, "2013"), context={"fire": "defensive"})
    assert _shot(d, "s-t184-1").fire == 7 + F(3, 2)                         # AT value 7 (19)
    assert _shot(d, "s-18g").fire == 7 + 6
    with_bunker = assess_combat(pos.copy(), rs, ["g-bunker4"], h(game, "2012"))
    assert not with_bunker.legal and with_bunker.refusals[0].rule == "19"


def test_case_63_intrinsic_garrison(game, rs):
    from toolkit.rulesets.white_death import garrison_towns
    m = game.maps["main"]
    town = sorted(garrison_towns(m))[0]
    near = next(n for n in m.grid.neighbours(town) if n in m.grid and m.terrain(n) == "clear")
    pos = position(game, {"s-18g": m.format(near)})
    a = assess_combat(pos, rs, ["s-18g"], town)
    s = a.shots[0]
    assert s.unit.id == f"garrison@{m.format(town)}" and s.defence == m.terrain_types["town"].combat["defence"]["P"]
    assert all(o.eliminated for t, o in s.details.items() if o.lost)        # any loss eliminates it
    # defensive fire of the garrison: factor 4 x 1 SP
    d = assess_combat(pos, rs, ["s-18g"], town, context={"fire": "defensive"})
    assert d.shots[0].fire == 4
    pos.state["garrisons_eliminated"] = [m.format(town)]
    gone = assess_combat(pos, rs, ["s-18g"], town)
    assert not gone.legal and gone.refusals[0].code.value == "no-defender"


def test_refusals_and_bad_input(game, rs):
    a, b, c = _run(game)
    pos = position(game, {"s-18g": a, "g-251-1": b, "s-31g": c})
    friendly = assess_combat(pos, rs, ["s-31g"], h(game, a))
    assert not friendly.legal and friendly.refusals[0].code.value == "no-defender"
    pos2 = position(game, {"s-18g": a, "g-251-1": b, "s-31g": c})
    pos2.unit("g-251-1").hex = h(game, c)
    pos2.unit("s-31g").hex = h(game, b)
    pos2.touch()
    far = assess_combat(pos2, rs, ["s-18g"], h(game, c))                  # c is two hexes from a
    assert not far.legal and far.refusals[0].rule == "6 B.3"
    with pytest.raises(RulesError):
        assess_combat(pos, rs, ["s-18g"], h(game, b), context={"fire": "sniping"})
    with pytest.raises(RulesError):
        assess_combat(pos, rs, ["s-18g"], h(game, b), context={"targets": {"nobody": None}})
    assert assess_combat(pos, rs, ["s-31g", "s-18g"], h(game, b)).legal     # from two hexes


def test_case_13_no_assault_into_prohibited_terrain_but_fire_into_it(game, rs):
    # a tank battalion may not assault the forest of 0901 from 0801 (no road): 12 A
    pos = position(game, {"s-t184-1": "0801", "s-18g": "0801", "g-251-1": "0901"})
    tank = assess_combat(pos, rs, ["s-t184-1"], h(game, "0901"))
    assert not tank.legal and tank.refusals[0].rule == "12 A"
    assert assess_combat(pos, rs, ["s-18g"], h(game, "0901")).legal
    # the defenders' fire into 0801 is not limited, and the forest's defence value counts
    d = assess_combat(pos, rs, ["s-18g"], h(game, "0901"), context={"fire": "defensive"})
    assert d.legal
    assert assess_combat(pos, rs, ["s-18g"], h(game, "0901")).shots[0].defence == 9   # P in forest (estimated)


def test_case_55_the_assault_needs_the_impulse_minimum(game, rs):
    a, b, _ = _run(game)
    units = {"s-18g": a, "g-251-1": b}
    small = position(game, units, impulse=("soviet", 2))             # 2 of 10 MP: no assault (5)
    refused = assess_combat(small, rs, ["s-18g"], h(game, b))
    assert not refused.legal and refused.refusals[0].rule == "5"
    assert assess_combat(position(game, units, impulse=("soviet", 3)), rs, ["s-18g"], h(game, b)).legal
    german = position(game, units, side="german", impulse=("german", 1))
    wrong = assess_combat(german, rs, ["s-18g"], h(game, b))
    assert not wrong.legal                                            # not the Soviet's impulse
