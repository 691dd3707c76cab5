"""Demyansk Shield retreats (12.3, 12.4)."""

from __future__ import annotations

from toolkit.referee import Unit, load_position, retreat_options
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET

from .helpers import DATA, H, position

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


def test_retreat_toward_the_supply_source_12_37(game):
    # from 2632 (attacked from 2532) the ends are 2731, 2730 and 2831 (12.44); if the unit traced
    # to a source at 1827 for this combat, 2831 would take it farther away and is dropped
    pos = load_position(DATA / "retreat-12-44.yaml")
    ends = ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("1827"))
    assert set(ends) == {H("2731"), H("2730")}
    # when every end is farther, the retreat is still allowed ("unless no alternate position")
    assert set(ds.retreat_destinations(pos, RULESET, "so-2-87", H("2632"), source=H("2036"))) == \
        {H("2731"), H("2730"), H("2831")}
