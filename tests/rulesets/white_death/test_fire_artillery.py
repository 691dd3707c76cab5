"""Artillery (Rule 11): support (11 A), barrage (11 B.2) and observation (11 B.3); the notes'
section 12 cases "Artillery, barrage, observation" (33-42)."""

from __future__ import annotations

from fractions import Fraction

from toolkit.referee import Support, apply_combat, assess_combat, roll_combat
from toolkit.rulesets.white_death.artillery import barrage_value, observed, observers_for, sees, support_value
from toolkit.rulesets.white_death.fire_tables import fire_table

from .helpers import clear_run, h, position

F = Fraction
EAST = {"s-18g": "2810"}        # the east of the map: artillery there traces supply to the east edge (15 B)


def _deployed(pos, *ids):
    for uid in ids:
        pos.unit(uid).status.add("deployed")
    pos.touch()
    return pos


def test_case_33_support_range_halved_beyond_half_range(game, rs):
    pos = _deployed(position(game, {**EAST, "s-art-9g": "2814", "s-art-46g": "2815", "s-art-21g": "2819"}),
                    "s-art-9g", "s-art-46g", "s-art-21g")
    to = h(game, "2810")
    assert support_value(pos, rs, pos.unit("s-art-9g"), to, formation=None)[0] == 8      # 2 x 4 at 4 hexes
    value, notes, _ = support_value(pos, rs, pos.unit("s-art-46g"), to, formation=None)
    assert value == 4 and notes[0][0] == "11 A.2"                                       # 5 of range 8: halved
    assert support_value(pos, rs, pos.unit("s-art-21g"), to, formation=None)[2].rule == "11 A.2"
    # not deployed: no support (6 B.2); low intensity: factor 1 (15 A.4)
    pos.unit("s-art-9g").status.discard("deployed")
    pos.touch()
    assert "not deployed" in support_value(pos, rs, pos.unit("s-art-9g"), to, formation=None)[2].text
    assert support_value(pos, rs, pos.unit("s-art-46g"), to, formation=None, high_intensity=False)[0] == 2


def test_case_34_soviet_support_by_controlling_hq(game, rs):
    # 18 Gds (9 Gds RD) and 141 Gds (46 Gds RD) assault together; 9 Gds RD is named the controlling HQ
    a, b, _ = (game.maps["main"].format(x) for x in clear_run(game.maps["main"]))
    pos = _deployed(position(game, {"s-18g": a, "s-141g": a, "g-251-1": b, "s-art-9g": a, "s-art-46g": a,
                                    "s-hart": a}), "s-art-9g", "s-art-46g", "s-hart")
    pos.unit("s-art-9g").hex = pos.unit("s-art-46g").hex = pos.unit("s-hart").hex = None
    for uid, where in (("s-art-9g", "2814"), ("s-art-46g", "2814"), ("s-hart", "2814")):
        pos.unit(uid).hex = h(game, where)
    pos.unit("s-18g").hex, pos.unit("s-141g").hex, pos.unit("g-251-1").hex = h(game, "2811"), h(game, "2811"), \
        h(game, "2810")
    pos.touch()
    target = h(game, "2810")
    who = ["s-18g", "s-141g"]
    ok = assess_combat(pos, rs, who, target, supports=[Support("artillery", "attacker", unit="s-art-9g", via="s-18g")])
    assert ok.legal and ok.shots[0].fire == 24 + 8
    other = assess_combat(pos, rs, who, target,
                          supports=[Support("artillery", "attacker", unit="s-art-46g", via="s-18g")])
    assert not other.legal and other.refusals[0].rule == "11 A.1" and "9 Gds RD" in other.refusals[0].text
    unnamed = assess_combat(pos, rs, who, target, supports=[Support("artillery", "attacker", unit="s-art-9g")])
    assert not unnamed.legal and "controlling HQ" in unnamed.refusals[0].text
    nondiv = assess_combat(pos, rs, ["s-18g"], target, supports=[Support("artillery", "attacker", unit="s-hart")])
    assert not nondiv.legal and "non-divisional" in nondiv.refusals[0].text
    # 11 A.1: artillery firing support does not also fire
    alone = assess_combat(pos, rs, ["s-18g"], target, supports=[Support("artillery", "attacker", unit="s-art-9g")])
    assert alone.legal and alone.shots[0].firers == ("s-18g",)


def test_case_35_barrage_split_and_one_check_on_the_total(game, rs):
    table = fire_table(game, "barrage")
    assert (table.columns[table.column_of(F(60))], table.columns[table.column_of(F(20))]) == ("60+", "20-29")
    assert table.columns[table.column_of(F(80))] == "60+"
    pos = _deployed(position(game, {"s-art-9g": "2814", "s-art-46g": "2814", "s-art-21g": "2814",
                                    "g-251-1": "2812"}), "s-art-9g", "s-art-46g", "s-art-21g")
    arty = ["s-art-9g", "s-art-46g", "s-art-21g"]
    one = assess_combat(pos, rs, arty, h(game, "2812"), context={"fire": "barrage"})
    assert one.attack == 36 and one.shots[0].attacks == (table.column_of(F(36)),)
    two = assess_combat(pos, rs, arty, h(game, "2812"), context={"fire": "barrage", "barrage_attacks": [20, 16]})
    s = two.shots[0]
    assert len(s.attacks) == 2
    # a unit hit by both attacks loses their sum and checks morale once with that total
    cells = s.cells()
    assert sum(cells.values()) == 1 and max(c.lost for c in cells) == 2 + 2        # roll 1 on 20-29 and 15-19
    # ... capped at half the strength in the phase (11 B.2.b): 1 of 3, then 1 more on a rout
    assert max(o.lost for o in s.details.values()) == 2 and any("capped" in t for t in s.outcomes)
    assert all(text.count("passes") + text.count("fails") + text.count("routs") <= 1 for text in s.outcomes)
    bad = assess_combat(pos, rs, arty, h(game, "2812"), context={"fire": "barrage", "barrage_attacks": [20, 20]})
    assert not bad.legal and bad.refusals[0].rule == "11 B.2.a"


def test_case_36_unobserved_barrage_adds_one_per_two_hexes(game, rs):
    pos = _deployed(position(game, {"s-hart": "2815", "g-251-1": "2810"}), "s-hart")
    ok, drm, notes = observed(pos, rs, [pos.unit("s-hart")], h(game, "2810"))
    assert (ok, drm) == (False, 3) and notes[0][0] == "11 B.3"                     # 5 hexes: ceil(5/2)
    pos.unit("s-hart").hex = h(game, "2814")
    pos.touch()
    assert observed(pos, rs, [pos.unit("s-hart")], h(game, "2810"))[1] == 2           # 4 hexes
    # a Soviet rifle regiment observes for non-divisional artillery: from 2811 (next to the
    # target), not from 2812, whose line passes through the forest of 2811 (11 B.3.c)
    pos = _deployed(position(game, {"s-hart": "2814", "s-59g": "2811", "g-251-1": "2810"}), "s-hart")
    assert observed(pos, rs, [pos.unit("s-hart")], h(game, "2810"))[:2] == (True, 0)
    pos.unit("s-59g").hex = h(game, "2812")
    pos.touch()
    assert observed(pos, rs, [pos.unit("s-hart")], h(game, "2810"))[:2] == (False, 2)


def test_case_37_a_unit_that_barraged_neither_supports_nor_barrages_again(game, rs):
    pos = _deployed(position(game, {"s-art-9g": "2813", "g-251-1": "2812", "s-18g": "2811"}), "s-art-9g")
    a = assess_combat(pos, rs, ["s-art-9g"], h(game, "2812"), context={"fire": "barrage"})
    out = apply_combat(pos, rs, a, roll_combat(pos, rs, a, roll=6))
    after = out.position
    assert "s-art-9g" in after.state["combat"]["barraged"]
    again = assess_combat(after, rs, ["s-art-9g"], h(game, "2812"), context={"fire": "barrage"})
    assert not again.legal and "already barraged" in again.refusals[0].text
    support = assess_combat(after, rs, ["s-18g"], h(game, "2812"),
                            supports=[Support("artillery", "attacker", unit="s-art-9g")])
    assert not support.legal and support.refusals[0].rule == "11 B.1"
    # the next impulse forgets it (the ruleset's declare)
    rs.declare(after, 2)
    assert "combat" not in after.state


def test_case_38_unsupplied_artillery_cannot_barrage_and_supports_with_1(game, rs):
    # 2501 is eight hexes from any road or railroad (the trace is seven, 15 B)
    a, b = "2501", "2601"
    pos = _deployed(position(game, {"s-art-9g": a, "s-18g": a, "g-251-1": b}), "s-art-9g")
    art = pos.unit("s-art-9g")
    why = barrage_value(pos, rs, art, h(game, b))[2]
    assert why.rule == "15 B"
    value, notes, _ = support_value(pos, rs, art, h(game, a), formation="9 Gds RD")
    assert value == 4 and notes[0][0] == "15 B"                                     # factor 1 x 4 SP


def test_case_39_observation_ranges(game, rs):
    a, b, c = clear_run(game.maps["main"])
    m = game.maps["main"]
    pos = position(game, {"g-251-1": m.format(a), "s-18g": m.format(c)}, side="german")
    assert sees(pos, rs, pos.unit("g-251-1"), c)                                     # 2 hexes, clear
    pos.weather = "snow"
    assert not sees(pos, rs, pos.unit("g-251-1"), c)                                 # snow: adjacent only
    assert sees(pos, rs, pos.unit("g-251-1"), b)
    # high ground onto lower ground: three hexes (1209 -> 1212 over clear 1210, 1211)
    pos = position(game, {"g-251-1": "1209", "s-18g": "1212"}, side="german")
    assert all(m.terrain(h(game, x)) == "clear" and not m.features(h(game, x)) for x in ("1210", "1211", "1212"))
    assert sees(pos, rs, pos.unit("g-251-1"), h(game, "1212"))
    pos.unit("g-251-1").hex = h(game, "1210")              # off the high ground: 1212 is two hexes, 1213 three
    pos.touch()
    assert sees(pos, rs, pos.unit("g-251-1"), h(game, "1212"))
    assert not sees(pos, rs, pos.unit("g-251-1"), h(game, "1213"))
    # the 17th Observation Battalion sees deployed Soviet artillery seven hexes away
    pos = _deployed(position(game, {"g-obs17": "2810", "s-art-9g": "2817"}, side="german"), "s-art-9g")
    assert sees(pos, rs, pos.unit("g-obs17"), h(game, "2817"), target_units=[pos.unit("s-art-9g")]) \
        == _clear_line(game, "2810", "2817")
    # the deployed Guards rocket regiment is seen one hex farther: three on the flat
    pos = _deployed(position(game, {"g-251-1": m.format(a), "s-gdrkt": m.format(c)}, side="german"), "s-gdrkt")
    far = next(x for x in m.grid.neighbours(c) if x in m.grid and m.grid.distance(a, x) == 3)
    pos.unit("s-gdrkt").hex = far
    pos.touch()
    visible = sees(pos, rs, pos.unit("g-251-1"), far, target_units=[pos.unit("s-gdrkt")])
    assert visible == _clear_line(game, m.format(a), m.format(far))
    assert not sees(pos, rs, pos.unit("g-251-1"), far, target_units=[])


def _clear_line(game, a, b):
    m = game.maps["main"]
    line = m.grid.line(h(game, a), h(game, b))
    return not any(c in ("town", "forest") for x in line[1:-1] for c in (m.terrain(x), *m.features(x)))


def test_case_40_town_and_forest_block_between_but_not_at_the_ends(game, rs):
    m = game.maps["main"]
    kind = lambda x: m.terrain(h(game, x))
    assert (kind("1003"), kind("1004"), kind("1005"), kind("1006"), kind("1007")) == \
        ("forest", "clear", "forest", "forest", "forest")
    pos = position(game, {"g-251-1": "1003", "s-18g": "1005"}, side="german")
    assert sees(pos, rs, pos.unit("g-251-1"), h(game, "1005"))                       # forest to forest over clear
    pos = position(game, {"g-251-1": "1005", "s-18g": "1007"}, side="german")
    assert sees(pos, rs, pos.unit("g-251-1"), h(game, "1006"))                       # into the adjacent forest
    assert not sees(pos, rs, pos.unit("g-251-1"), h(game, "1007"))                   # through the forest of 1006


def test_case_41_soviet_observers(game, rs):
    pos = position(game, {"s-59g": "2812", "s-art-21g": "2814", "s-art-9g": "2815", "s-hart": "2816",
                          "s-18g": "2813"})
    ids = lambda f: {u.id for u in observers_for(pos, pos.unit(f))}
    assert "s-59g" in ids("s-art-21g") and "s-59g" not in ids("s-art-9g")
    assert {"s-59g", "s-18g", "s-art-9g"} <= ids("s-hart")
    assert ids("s-art-9g") == {"s-art-9g", "s-18g"}                                  # itself and its division


def test_case_42_german_rockets_at_half_value_without_3_sp(game, rs):
    pos = _deployed(position(game, {"g-werfer": "0703", "s-18g": "0705"}, side="german"), "g-werfer")
    rocket = pos.unit("g-werfer")
    rocket.steps = 2
    value, notes, why = barrage_value(pos, rs, rocket, h(game, "0705"), sp_spent=2)
    assert why is None and value == 4 and notes[0][0] == "15 A.3"                       # half of 4 x 2
    assert barrage_value(pos, rs, rocket, h(game, "0705"), sp_spent=3)[0] == 8
