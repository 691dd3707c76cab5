"""Velikiye Luki combat (6, 7.6, 8.3, 10, 12, 13.2.3): the worked Combat 1 and Combat 2 of 6.5.2,
the odds examples of 6.3, the column limits, quality, terrain, supports, and the rules that
shift columns, each isolated on a position of the real map."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.game.map import HexsideFeature, HexTerrain
from toolkit.io import load_game
from toolkit.referee import Code, Support, Unit, assess_combat, chart_of, load_position, roll_combat
from toolkit.rulesets.velikiye_luki import RULESET

from .helpers import ROOT, position

DATA = ROOT / "tests" / "data" / "velikiye-luki"


def H(pos, text):
    return pos.map.grid.parse(text)


def add(pos, uid, hex_id, **state):
    c = pos.game.counters[uid.split("#")[0]]
    pos.units[uid] = Unit(uid, c, c.side, hex=H(pos, hex_id))
    for k, v in state.items():
        setattr(pos.units[uid], k, v)
    pos.touch()


def shifts(a):
    return {(m.rule, int(m.value)) for m in a.modifiers if m.kind == "shift"}


# -- 6.3 odds and limits --------------------------------------------------------------------------


def test_odds_examples_6_3(game):
    chart = chart_of(game)
    col = lambda a, d: chart.columns[chart.column_of(a, d)]   # noqa: E731
    assert [col(13, 7), col(15, 4), col(15, 3), col(10, 8)] == ["3/2", "3/1", "5/1", "1/1"]
    assert col(5, 12) == "1/3" and chart.column_of(3, 10) is None   # below 1/3: read at 1/3 (ruling)


def test_final_column_stays_within_1_3_and_8_1(game):
    pos = position(game, {"s343": "1109", "df357": "1209", "rc27": "1209", "bm18-2m": "1208"})
    rs = RULESET.with_options(mech_corps_limit=True)
    base = assess_combat(pos, rs, ["df357", "rc27", "bm18-2m"], H(pos, "1109"))
    assert base.odds == "5/1" and base.column == "6/1"        # infantry + armour
    up = assess_combat(pos, rs, ["df357", "rc27", "bm18-2m"], H(pos, "1109"),
                       context={"modifiers": [{"kind": "shift", "value": 5}]})
    assert up.column == "8/1" and set(up.column_distribution) == {"7/1", "8/1"} or up.column == "8/1"
    down = assess_combat(pos, rs, ["df357"], H(pos, "1109"), context={"modifiers": [{"kind": "shift", "value": -9}]})
    assert down.column == "1/3" and sum(down.distribution.values()) == 1


def test_quality_6_2_8(game):
    # attacker quality B rolls 5 (+1), defender quality C rolls 1 (-2): net +3 (TC-CBT-03)
    pos = position(game, {"s343": "1109", "bm18-2m": "1208"})
    a = assess_combat(pos, RULESET, "bm18-2m", H(pos, "1109"))
    assert a.odds == "3/2" and a.column == "2/1"               # 5:3, mechanised brigade +1 (1.5, 6.2.3)
    r = roll_combat(pos, RULESET, a, roll=1, rolls={"attacker quality": 5, "defender quality": 1})
    assert r.column == "5/1" and r.result.text == "-/1"        # 2/1 moved three columns right
    assert [n["column"] for n in a.random] == ["B", "C"]
    assert sum(a.column_distribution.values()) == 1 and len(a.column_distribution) > 1


# -- 6.5.2 worked combats -------------------------------------------------------------------------


def test_combat_1(game):
    pos = load_position(DATA / "retreat-combat-1.yaml")
    add(pos, "mrl38g", "1309")
    add(pos, "hq-83", "1009")
    a = assess_combat(pos, RULESET, ["df357", "rc27", "bm18-2m"], H(pos, "1109"),
                      supports=[Support("mrl", "attacker", unit="mrl38g"),
                                Support("artillery", "defender", points=1, via="hq-83")])
    assert a.legal and (a.attack, a.defence, a.odds) == (15, 3, "5/1")
    assert shifts(a) == {("6.2.3", 1), ("1.5", 1), ("6.2.7", -1)} and a.column == "6/1"
    assert sum(a.distribution.values()) == 1
    r = roll_combat(pos, RULESET, a, roll=4, rolls={"attacker quality": 3, "defender quality": 4})
    assert (r.column, r.result.text) == ("6/1", "1/R2")
    assert r.result.defender.retreat == (1,) and r.result.defender.requirements == 2
    assert r.result.attacker.requirements == 1


def test_combat_2(game):
    pos = load_position(DATA / "retreat-combat-2.yaml")
    for uid in ("dfg46", "rc34", "df257"):
        del pos.units[uid]
    add(pos, "df357", "1110")
    add(pos, "rc34", "1110")
    add(pos, "hq-5g", "1211")
    add(pos, "hq-3c", "1312")
    a = assess_combat(pos, RULESET, ["df357", "rc34"], H(pos, "1010"),
                      supports=[Support("artillery", "attacker", 1, via="hq-5g"),
                                Support("air", "attacker", 1, via="hq-3c")])
    assert a.legal and (a.attack, a.defence, a.odds) == (10, 8, "1/1")
    assert sorted(shifts(a)) == sorted({("6.2.3", 1), ("6.2.3", -1), ("6.2.4", -1), ("6.2.5", -1),
                                        ("6.2.7", 1), ("10.1", 1)})
    assert a.column == "1/1"
    r = roll_combat(pos, RULESET, a, roll=4, rolls={"attacker quality": 6, "defender quality": 3})
    assert (r.column, r.result.text) == ("3/2", "1/1")


# -- 6.2.1 terrain --------------------------------------------------------------------------------


def _terrain_game(terrain="clear", features=(), river=False):
    g = load_game(str(ROOT / "counters" / "velikiye-luki"))
    m = g.main_map
    h = m.grid.parse("1109")
    m.hexes[h] = HexTerrain(terrain, tuple(features), m.hexes[h].source)
    if river:
        side = m.grid.hexside(m.grid.parse("1209"), h)
        m.hexsides[side] = [HexsideFeature(side, "minor_river")]
    return g


@pytest.mark.parametrize("terrain,features,river,attackers,expected", [
    ("wooded", (), True, ["df357"], -2),                   # wooded behind a minor river (6.2.1 example)
    ("wooded", (), True, ["df357", "bm18-2m"], -2),        # one attacker across the river: its penalty
    ("wooded", ("village",), False, ["df357"], -1),        # village + wooded: the better, not both
    ("clear", ("city",), False, ["df357"], -2),
    ("clear", (), False, ["df357"], 0),
])
def test_terrain_shifts_6_2_1(terrain, features, river, attackers, expected):
    g = _terrain_game(terrain, features, river)
    pos = position(g, {"s343": "1109", "df357": "1209", "bm18-2m": "1208"})
    a = assess_combat(pos, RULESET, attackers, H(pos, "1109"))
    assert sum(int(m.value) for m in a.modifiers if m.kind == "shift" and m.rule and m.rule.startswith("TEC")) \
        == expected


# -- 6.2.x combined arms, concentric, 7.6 -----------------------------------------------------------


def test_engineers_in_a_village_6_2_6(game):
    g = _terrain_game("clear", ("village",))
    pos = position(g, {"s343": "1109", "df357": "1209"})
    eng = next(c.id for c in g.counters.values() if c.type == "engineer" and c.side == "soviet")
    add(pos, eng, "1209")
    a = assess_combat(pos, RULESET, ["df357", eng], H(pos, "1109"))
    assert ("6.2.6", 1) in shifts(a)


def test_concentric_attack_6_2_8(game):
    # the hexes north and south of the defender: their zones of control cover the whole ring
    pos = position(game, {"s343": "0506", "df357": "0505", "df257": "0507"})
    assert ("6.2.8", 1) not in shifts(assess_combat(pos, RULESET, "df357", H(pos, "0506")))
    assert ("6.2.8", 1) in shifts(assess_combat(pos, RULESET, ["df357", "df257"], H(pos, "0506")))


def test_divisional_integrity_and_the_2m_limit(game):
    pos = position(game, {"s343": "0506", "m76-20m": "0505", "m90-20m": "0505"}, side="german")
    del pos.units["s343"]
    add(pos, "bf31", "0506")
    a = assess_combat(pos, RULESET, ["m76-20m", "m90-20m"], H(pos, "0506"))
    assert ("6.2.2", 1) in shifts(a)                            # both 20M regiments (TC-SPC-08)
    assert ("6.2.2", 1) not in shifts(assess_combat(pos, RULESET, "m76-20m", H(pos, "0506")))
    pos = position(game, {"s343": "0506", "bm18-2m": "0505", "bm34-2m": "0505", "bm43-2m": "0507"})
    three = ["bm18-2m", "bm34-2m", "bm43-2m"]
    refused = assess_combat(pos, RULESET, three, H(pos, "0506"))
    assert not refused.legal and refused.refusals[0].rule == "13.2.3"
    free = assess_combat(pos, RULESET.with_options(mech_corps_limit=False), three, H(pos, "0506"))
    assert free.legal and ("6.2.2", 1) in shifts(free)


# -- supports (1.4, 1.5, 6.2.7, 10.1) --------------------------------------------------------------


def test_support_caps_and_hqs(game):
    pos = position(game, {"s343": "1109", "df357": "1209", "hq-5g": "1211", "hq-2m": "1310", "mrl38g": "1309",
                          "hq-83": "1009"})
    target = H(pos, "1109")
    three = assess_combat(pos, RULESET, "df357", target, supports=[Support("artillery", "attacker", 3, via="hq-5g")])
    assert not three.legal and "at most 2" in three.refusals[0].text
    two_air = assess_combat(pos, RULESET, "df357", target, supports=[Support("air", "attacker", 2, via="hq-5g")])
    assert not two_air.legal
    full = assess_combat(pos, RULESET, "df357", target, supports=[
        Support("mrl", "attacker", unit="mrl38g"), Support("artillery", "attacker", 2, via="hq-5g"),
        Support("air", "attacker", 1, via="hq-5g")])
    assert full.legal and sum(int(m.value) for m in full.modifiers if m.rule in ("1.5", "6.2.7", "10.1")) == 4
    nohq = assess_combat(pos, RULESET, "df357", target, supports=[Support("artillery", "attacker", 1)])
    assert not nohq.legal and nohq.refusals[0].rule == "1.4"
    colour = assess_combat(pos, RULESET, "df357", target, supports=[Support("artillery", "attacker", 1, via="hq-2m")])
    assert not colour.legal and "colour" in colour.refusals[0].text
    pos.units["mrl38g"].status.add("fired")
    once = assess_combat(pos, RULESET, "df357", target, supports=[Support("mrl", "attacker", unit="mrl38g")])
    assert not once.legal and once.refusals[0].code == Code.SUPPORT_REFUSED


# -- 8.3 supply -------------------------------------------------------------------------------------


def test_isolated_and_unsupplied_8_3(game):
    pos = position(game, {"s343": "1109", "bm18-2m": "1208"}, **{"bm18-2m": {"status": {"isolated"}}})
    a = assess_combat(pos, RULESET, "bm18-2m", H(pos, "1109"))
    assert a.attack == 3                                       # 5 halved, rounded up
    pos.units["bm18-2m"].status = {"unsupplied"}
    assert assess_combat(pos, RULESET, "bm18-2m", H(pos, "1109")).refusals[0].code == Code.CANNOT_ATTACK
    pos.units["bm18-2m"].status = set()
    pos.units["s343"].status = {"unsupplied"}
    assert assess_combat(pos, RULESET, "bm18-2m", H(pos, "1109")).defence == 2   # 3 halved, rounded up


def test_expected_steps_count_requirements(game):
    pos = position(game, {"s343": "1109", "df357": "1209", "rc27": "1209", "bm18-2m": "1208"})
    a = assess_combat(pos, RULESET, ["df357", "rc27", "bm18-2m"], H(pos, "1109"))
    total = Fraction(0)
    for text, p in a.distribution.items():
        r = a.results[text]
        total += p * min(2, r.defender.requirements)           # S 343 has 2 steps
    assert a.expected_steps["defender"] == total


# -- 6.5.2 advance after combat ---------------------------------------------------------------------


def test_advance_after_combat_1_6_5_2(game):
    # S 343 retreated 1008 909 808; "357 ... could have continued to 1008" (infantry stop in the
    # second ZoC: the Festung's in 1109 and 1008), the armoured and mechanised units go 3 hexes
    from toolkit.referee import advance_options
    pos = load_position(DATA / "retreat-combat-1.yaml")
    pos.place("s343", H(pos, "808"))
    path = [H(pos, h) for h in ("1109", "1008", "909", "808")]
    infantry = advance_options(pos, RULESET, "df357", H(pos, "1109"), path=path, hexes=3)
    assert [pos.map.format(h) for h in infantry] == ["1109", "1008"]
    mech = advance_options(pos, RULESET, "bm18-2m", H(pos, "1109"), path=path, hexes=3)
    assert [pos.map.format(h) for h in mech] == ["1109", "1008", "909"]
