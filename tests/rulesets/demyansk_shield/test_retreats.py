"""Demyansk Shield retreats (12.3, 12.4)."""

from __future__ import annotations

from toolkit.referee import Unit, load_position, retreat_options
from toolkit.rulesets import demyansk_shield as ds
from toolkit.game.map import SupplySource
from toolkit.rulesets.demyansk_shield import RULESET, make_ruleset, supply

from .helpers import DATA, H, one_source_game, position

# -- 12.3 retreats ------------------------------------------------------------------------------


def test_retreat_example_12_44():
    pos = load_position(DATA / "retreat-12-44.yaml")
    grid = pos.map.grid
    assert {grid.format(h) for h in ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"))} == \
        {"2731", "2730", "2831"}
    # unit #1 has no normal retreat but may try through the ZOC (+1 only if it has an EM box)
    assert ds.retreat_destinations(pos, RULESET, "so-1-87", H("2733")) == {}
    assert ds.zoc_retreat_possible(pos, RULESET, "so-1-87", H("2733")) is None
    assert ds.zoc_retreat_drm(pos, "so-1-87") == 0 and ds.zoc_retreat_drm(pos, "so-1-87", storm=True) == 1
    # artillery in the same spot is simply eliminated (12.43b)
    pos.units["so-231-387"] = Unit("so-231-387", pos.game.counters["so-231-387"], "soviet", hex=H("2733"))
    pos.touch()
    assert ds.zoc_retreat_possible(pos, RULESET, "so-231-387", H("2733")).rule == "12.43b"


def test_retreat_may_end_in_friendly_occupied_zoc_not_vacant(game):
    # 12.35
    pos = position(game, weather="frozen", **{"so-1-87": "2632", "ax-ss-baum": "2732", "ax-ss-kurtz": "2532",
                                              "ax-ss-kleffner": "2530"})
    ends = ds.retreat_destinations(pos, RULESET, "so-1-87", H("2632"))
    assert H("2731") not in ends   # vacant and in Axis ZOC
    pos.units["so-2-87"] = Unit("so-2-87", game.counters["so-2-87"], "soviet", hex=H("2731"))
    pos.touch()
    assert H("2731") in ds.retreat_destinations(pos, RULESET, "so-1-87", H("2632"))


def test_printed_units_cannot_retreat(game):
    pos = position(game, **{"ax-map-1": "1624"})
    assert ds.retreat_destinations(pos, RULESET, "ax-map-1") == {}   # 12.33
    assert ds.zoc_retreat_possible(pos, RULESET, "ax-map-1").rule == "12.43b"
    answer = retreat_options(pos, RULESET, ["ax-map-1"], (1, 2))   # the shared search agrees: eliminated
    assert answer.eliminated and answer.reason.rule == "12.3"


def test_17_0_combat_2_the_engineer_retreats_toward_its_source():
    # "he must retreat the engineer unit, one or two hexes as he desires, towards the Supply Source
    # that supplied this combat. The Soviet player chooses to retreat his unit to hex 1809"
    pos = load_position(DATA / "combat-17-0.yaml")
    grid = pos.map.grid
    source = supply(pos, "soviet", RULESET).paths["so-28-238"][-1]   # the source this combat traced to
    answer = retreat_options(pos, RULESET, ["so-28-238"], (1, 2))
    assert H("1809") in answer.paths
    assert all(grid.distance(h, source) <= grid.distance(H("1810"), source) for h in answer.paths)


def _ir27(game, **more):
    """Axis IR 27 on the game with one Axis source, 2036, and no road (7-hex Supply Lines)."""
    return position(game, weather="frozen", side="soviet", **more)


def test_12_37_ends_farther_from_the_source_are_dropped():
    g = one_source_game("2036")
    pos = _ir27(g, **{"ax-ir27": "2032"})                           # 4 hexes from 2036
    answer = retreat_options(pos, RULESET, ["ax-ir27"], 1)
    assert set(answer.paths) == {H("1932"), H("2033"), H("2132")}   # 4, 3 and 4 hexes away
    assert set(answer.dropped) == {H("1931"), H("2031"), H("2131")}  # 5 hexes away
    why = answer.dropped[H("2031")]
    assert why.rule == "12.37" and "farther from the Supply Source 2036 (4 -> 5 hexes)" in why.text
    assert [d["hex"] for d in answer.to_dict(pos.map.format)["dropped"]] == ["1931", "2031", "2131"]


def test_12_37_farther_and_out_of_supply_unless_no_alternate_position():
    g = one_source_game("2036")
    pos = _ir27(g, **{"ax-ir27": "2029"})                           # 7 hexes: the longest Supply Line
    answer = retreat_options(pos, RULESET, ["ax-ir27"], (1, 2))
    assert {g.main_map.format(h) for h in answer.paths} == {"1830", "1929", "1930", "2030", "2031", "2129",
                                                           "2130", "2230"}
    why = answer.dropped[H("2028")].text
    assert "(7 -> 8 hexes) and out of supply" in why
    # Soviet units close the way west: every end left is farther and out of supply, and allowed
    pos = _ir27(g, **{"ax-ir27": "2029", "so-87": "2030", "so-1-87": "1930", "so-1318": "2130"})
    answer = retreat_options(pos, RULESET, ["ax-ir27"], (1, 2))
    assert not answer.dropped and H("2028") in answer.paths and H("2027") in answer.paths


def test_12_37_option_retreat_source_any():
    # two sources 5 hexes from 2031: the supply search traced to 2036; with "any", an end not
    # farther from 2026 is as good
    g = one_source_game("2036")
    g.main_map.supply.append(SupplySource(side="axis", hexes=(H("2026"),), kind="edge"))
    pos = _ir27(g, **{"ax-ir27": "2031"})
    traced = retreat_options(pos, RULESET, ["ax-ir27"], 1)
    assert set(traced.paths) == {H("1931"), H("2032"), H("2131")}
    anyone = retreat_options(pos, make_ruleset(retreat_source="any"), ["ax-ir27"], 1)
    assert set(anyone.paths) == set(traced.paths) | {H("1930"), H("2030"), H("2130")} and not anyone.dropped


def test_12_37_out_of_supply_units_retreat_freely():
    g = one_source_game("2036")
    pos = _ir27(g, **{"ax-ir27": "2020"})                           # 16 hexes: no Supply Route
    answer = retreat_options(pos, RULESET, ["ax-ir27"], 1)
    assert len(answer.paths) == 6 and not answer.dropped


def test_retreat_toward_the_supply_source_12_37(game):
    # from 2632 (attacked from 2532) the ends are 2731, 2730 and 2831 (12.44); if the unit traced
    # to a source at 1827 for this combat, 2831 would take it farther away and is dropped
    pos = load_position(DATA / "retreat-12-44.yaml")
    ends = ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("1827"))
    assert set(ends) == {H("2731"), H("2730")}
    # when every end is farther, the retreat is still allowed ("unless no alternate position")
    assert set(ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("2036"))) == \
        {H("2731"), H("2730"), H("2831")}
