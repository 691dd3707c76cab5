"""The tutorial's combat and retreat rules (docs/tutorial-rules.md T.10, T.11), rule by rule,
with the rulebook's own examples and arithmetic."""

from __future__ import annotations

from fractions import Fraction

import pytest

from toolkit.game.map import HexTerrain
from toolkit.io import load_game
from toolkit.referee import Code, Position, Support, Unit, assess_combat, chart_of, roll_combat
from toolkit.rulesets.tutorial import RULESET as RS


@pytest.fixture(scope="module")
def game():
    return load_game("tutorial")


def H(pos, text):
    return pos.map.grid.parse(text)


def position(game, weather="clear", **units):
    """``unit_id="HHHH"`` or ``unit_id=("HHHH", {"status": [...], "steps": n})``."""
    pos = Position(game=game, map_id="main", weather=weather, side="red", turn=1)
    for uid, where in units.items():
        extra = {}
        if isinstance(where, tuple):
            where, extra = where
        cid = uid.split("__")[0]
        unit = Unit(uid, game.counters[cid], game.counters[cid].side, hex=pos.map.grid.parse(where))
        unit.status |= set(extra.get("status", ()))
        if "steps" in extra:
            unit.steps = extra["steps"]
        pos.units[uid] = unit
    return pos


def test_t10_odds_examples_round_in_the_defenders_favour(game):
    chart = chart_of(game)
    assert chart.columns[chart.column_of(13, 7)] == "3-2"      # 1.86 -> 3-2
    assert chart.columns[chart.column_of(15, 4)] == "3-1"      # 3.75 -> 3-1
    assert chart.columns[chart.column_of(40, 3)] == "6-1"      # above 6-1 reads 6-1
    assert chart.column_of(2, 5) is None                        # below 1-2


def test_t10_river_halving_adds_the_units_first(game):
    # T.10: "a 5 and a 4 both across the river give 9 halved = 4"
    pos = position(game, **{"b-3": "0604", "b-1": "0605", "r-10": "0705"})
    a = assess_combat(pos, RS, ["b-3", "b-1"], H(pos, "0705"))
    assert a.legal and a.attack == 4 and a.defence == 5 and a.odds == "1-2"
    halving = [m for m in a.modifiers if m.kind == "attack"]
    assert len(halving) == 1 and halving[0].value == -5 and halving[0].rule == "T.4"


def test_t10_stream_takes_one_from_each_unit_across(game):
    pos = position(game, **{"b-2": "0504", "r-12": "0503"})
    a = assess_combat(pos, RS, "b-2", H(pos, "0503"))
    assert a.attack == 3                                        # 4 - 1 across the stream (T.4)
    assert a.defence == 3                                       # 2 + village +1 (T.3)
    assert a.odds == "1-1"


def test_t10_best_terrain_bonus_only(game):
    g = load_game("tutorial")
    m = g.main_map
    h = m.grid.parse("0403")
    m.hexes[h] = HexTerrain("woods", ("village",), m.hexes[h].source)
    pos = position(g, **{"b-1": "0402", "r-10": "0403"})
    a = assess_combat(pos, RS, "b-1", h)
    assert a.defence == 6                                        # 5 + 1, not + 2


def test_t10_town_defence_and_hq(game):
    pos = position(game, **{"b-1": "0505", "b-hq": "0505", "r-10": "0605", "r-11": "0604"})
    a = assess_combat(pos, RS, ["r-10", "r-11"], H(pos, "0505"))
    assert (a.attack, a.defence, a.odds) == (8, 4 + 1 + 2, "1-1")   # the HQ defends with 1, the town +2
    hq = assess_combat(pos, RS, "b-hq", H(pos, "0605"))
    assert not hq.legal and hq.refusals[0].code == Code.CANNOT_ATTACK


def test_t10_supply_statuses(game):
    pos = position(game, **{"r-10": ("0605", {"status": ["out_of_supply"]}),
                            "r-11": ("0604", {"status": ["out_of_supply"]}), "b-1": "0505"})
    a = assess_combat(pos, RS, ["r-10", "r-11"], H(pos, "0505"))
    assert a.attack == 4                                          # 8 halved together
    pos.units["r-11"].status = {"isolated"}
    a = assess_combat(pos, RS, ["r-10", "r-11"], H(pos, "0505"))
    assert not a.legal and any(r.code == Code.CANNOT_ATTACK and "isolated" in r.text for r in a.refusals)
    pos = position(game, **{"b-1": ("0505", {"status": ["isolated"]}), "b-2": ("0505", {"status": ["isolated"]}),
                            "r-10": "0605"})
    a = assess_combat(pos, RS, "r-10", H(pos, "0505"))
    assert a.defence == 4 + 2                                     # (4 + 4) halved, then the town's +2


def test_t10_below_1_2_is_refused(game):
    pos = position(game, **{"r-12": "0604", "b-1": "0505"})
    a = assess_combat(pos, RS, "r-12", H(pos, "0505"))
    assert not a.legal and a.refusals[0].code == Code.ODDS_TOO_LOW and a.refusals[0].rule == "T.10"
    assert a.distribution == {}


def test_t10_artillery_support(game):
    pos = position(game, **{"r-10": "0605", "r-11": "0604", "r-15": "0905", "b-1": "0505", "b-5": "0404"})
    target = H(pos, "0505")
    plain = assess_combat(pos, RS, ["r-10", "r-11"], target)
    both = assess_combat(pos, RS, ["r-10", "r-11"], target,
                         supports=[Support("artillery", "attacker", unit="r-15"),
                                   Support("artillery", "defender", unit="b-5")])
    assert both.shift == 0 and both.column == plain.column
    right = assess_combat(pos, RS, ["r-10", "r-11"], target, supports=[Support("artillery", unit="r-15")])
    assert right.shift == 1 and right.column == "3-2"
    src = [m for m in right.modifiers if m.kind == "shift"][0]
    assert src.hex == H(pos, "0905") and src.units == ("r-15",) and src.rule == "T.10"
    # out of range (5 hexes) / fired / the wrong side
    pos.units["r-15"].hex = H(pos, "1105")
    far = assess_combat(pos, RS, ["r-10", "r-11"], target, supports=[Support("artillery", unit="r-15")])
    assert not far.legal and far.refusals[0].code == Code.SUPPORT_REFUSED and "range 5" in far.refusals[0].text
    pos.units["r-15"].hex = H(pos, "0905")
    pos.units["r-15"].status.add("fired")
    assert not assess_combat(pos, RS, ["r-10", "r-11"], target, supports=[Support("artillery", unit="r-15")]).legal
    wrong = assess_combat(pos, RS, ["r-10", "r-11"], target, supports=[Support("artillery", unit="b-5")])
    assert "not on the attacker's side" in wrong.refusals[0].text


def test_t10_at_most_two_artillery_per_side(game):
    pos = position(game, **{"r-10": "0605", "b-1": "0505", "b-5": "0404", "b-5__2": "0405", "b-5__3": "0406"})
    sup = [Support("artillery", "defender", unit=u) for u in ("b-5", "b-5__2", "b-5__3")]
    a = assess_combat(pos, RS, "r-10", H(pos, "0505"), supports=sup)
    assert not a.legal and "at most 2" in a.refusals[0].text


def test_t10_distribution_and_expected_steps(game):
    # 10 against 3 in the open: 3-1; results AR DR DR D1R D1R D2R
    pos = position(game, **{"b-4": "0705", "b-2": "0804", "r-13": "0805"})
    a = assess_combat(pos, RS, ["b-4", "b-2"], H(pos, "0805"))
    assert a.column == "3-1" and sum(a.distribution.values()) == 1
    assert a.distribution == {"AR": Fraction(1, 6), "DR": Fraction(1, 3), "D1R": Fraction(1, 3),
                              "D2R": Fraction(1, 6)}
    assert a.expected_steps == {"attacker": 0, "defender": Fraction(2, 3)}


def test_t10_mud_subtracts_one_from_the_die(game):
    pos = position(game, weather="mud", **{"r-10": "0404", "r-11": "0604", "b-2": "0504"})
    a = assess_combat(pos, RS, ["r-10", "r-11"], H(pos, "0504"))
    assert a.drm == -1 and a.column == "2-1"
    # a 1 and a 2 both read the 1 row (A1); 3 -> row 2 (AR) ... 6 -> row 5 (D1R)
    assert a.distribution == {"A1": Fraction(1, 3), "AR": Fraction(1, 6), "DR": Fraction(1, 3),
                              "D1R": Fraction(1, 6)}


def test_roll_is_seeded_and_logged(game):
    pos = position(game, **{"b-4": "0705", "b-2": "0804", "r-13": "0805"})
    a = assess_combat(pos, RS, ["b-4", "b-2"], H(pos, "0805"))
    first = roll_combat(pos, RS, a, seed=7)
    assert roll_combat(pos, RS, a, seed=7).log == first.log and "[seed 7]" in first.log
    six = roll_combat(pos, RS, a, roll=6)
    assert six.result.text == "D2R" and six.column == "3-1" and six.result.defender.steps == 2
    assert "b-4,b-2 -> 0805 (r-13)" in six.log and ": D2R" in six.log
    with pytest.raises(Exception, match="not 7"):
        roll_combat(pos, RS, a, roll=7)


# -- T.11 retreats and advances -----------------------------------------------------------------

from toolkit.referee import advance_options, retreat_options  # noqa: E402


def _fmt(pos, hexes):
    return sorted(pos.map.format(h) for h in hexes)


def test_t11_retreat_farther_from_the_attacked_hex(game):
    # r-10 in the open at 0903, attacked from 0803: every neighbour except the lake-free ones
    pos = position(game, **{"b-1": "0803", "r-10": "0903"})
    one = retreat_options(pos, RS, "r-10", 1)
    assert not one.eliminated and one.origin == H(pos, "0903")
    # the neighbours: 0803 holds the enemy, 0802 and 0904 are vacant hexes in its ZOC
    assert _fmt(pos, one.hexes()) == ["0902", "1002", "1003"]
    two = retreat_options(pos, RS, "r-10", 2)
    assert all(pos.map.grid.distance(H(pos, "0903"), h) == 2 for h in two.hexes())
    assert all(two.losses[h] == 0 for h in two.hexes())


def test_t11_enemy_zoc_is_open_only_with_a_friend(game):
    pos = position(game, **{"b-1": "0803", "r-10": "0903", "r-12": "0802"})
    assert "0802" in _fmt(pos, retreat_options(pos, RS, "r-10", 1).hexes())   # friendly-held ZOC hex
    pos = position(game, **{"b-1": "0803", "r-10": "0903", "r-12": "0802", "r-11": "0802"})
    assert "0802" not in _fmt(pos, retreat_options(pos, RS, "r-10", 1).hexes())   # 3 units: over the limit


def test_t11_no_retreat_eliminates(game):
    pos = position(game, **{"b-4": "0705", "b-2": "0804", "r-13": "0805"})   # lakes at 0806 and 0906
    answer = retreat_options(pos, RS, "r-13", (1, 2))
    assert answer.eliminated and answer.reason.code == Code.RETREAT_BLOCKED and answer.reason.rule == "T.11"


def test_t11_mech_may_not_retreat_across_the_river(game):
    pos = position(game, **{"b-3": "0604", "r-14": "0504"})
    assert _fmt(pos, retreat_options(pos, RS, "b-3", 1).hexes()) == ["0605"]   # 0704, 0705: river (T.4)
    pos = position(game, **{"b-3": "0605", "r-14": "0505"})
    assert "0705" in _fmt(pos, retreat_options(pos, RS, "b-3", 1).hexes())     # over the road bridge (T.5)


def test_t11_advance_into_the_vacated_hex_only(game):
    pos = position(game, **{"b-1": "0803"})
    assert advance_options(pos, RS, "b-1", H(pos, "0903"), path=[H(pos, "0903"), H(pos, "1003")]) == [H(pos, "0903")]
    assert advance_options(pos, RS, "b-1", H(pos, "1005")) == []   # not adjacent
