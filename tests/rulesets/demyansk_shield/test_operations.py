"""Demyansk Shield operations: the 2GRC exit (5.34), air transport and Airdrop (7.1, 7.2)."""

from __future__ import annotations

from toolkit.referee import Code, Unit
from toolkit.rulesets import demyansk_shield as ds
from toolkit.rulesets.demyansk_shield import RULESET

from .helpers import H, position

# -- 5.34, 7.1 and 7.2 ------------------------------------------------------------------------------


def test_2grc_exit(game):
    # 1 MP to leave at 4027 or 4031, full strength only; strategic movement may be used (5.34)
    pos = position(game, weather="dry", side="soviet", turn=5, **{"so-2grc-2": "3731", "so-2grc-3": "3531"})
    assert ds.grc_exit(pos, RULESET, "so-2grc-2") is None                # 3 road hexes, 1 MP left
    assert ds.grc_exit(pos, RULESET, "so-2grc-3").code == Code.NOT_ENOUGH_MP   # 5 road hexes, MA 4
    assert ds.grc_exit(pos, RULESET, "so-2grc-3", "strategic") is None   # MA 6 leaves 1 MP
    pos.units["so-2grc-2"].steps = 1
    assert ds.grc_exit(pos, RULESET, "so-2grc-2").rule == "5.34"
    pos.units["so-180"] = Unit("so-180", game.counters["so-180"], "soviet", hex=H("3731"))
    pos.touch()
    assert "not a 2GRC unit" in ds.grc_exit(pos, RULESET, "so-180").text


def test_air_transport(game):
    pos = position(game, weather="frozen", turn=5, **{"ax-ir27": "box:agn", "ax-pi-12": "box:agn",
                                                      "ax-pz203": "box:agn"})
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2711")) is None               # 2 points of infantry
    assert ds.air_transport(pos, RULESET, ["ax-ir27", "ax-pi-12"], H("2711")).rule == "7.13"
    assert ds.air_transport(pos, RULESET, "ax-pz203", H("2711")).rule == "7.14"
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2710")).rule == "7.11"        # not an airfield
    assert ds.air_transport(pos, RULESET, "ax-ir27", H("2711"), storm=True).rule == "7.16"
    early = position(game, weather="frozen", turn=4, **{"ax-ir27": "box:agn"})
    assert ds.air_transport(early, RULESET, "ax-ir27", H("2711")).rule == "7.15"
    zoc = position(game, weather="frozen", turn=5, **{"ax-ir27": "box:agn", "so-1-87": "2710", "ax-ir48": "2711"})
    assert ds.air_transport(zoc, RULESET, "ax-ir27", H("2711")).rule == "7.11"        # in an enemy ZOC


def test_airdrop(game):
    pos = position(game, weather="frozen", side="soviet", turn=5, **{"so-204abn": "box:valday", "ax-ir27": "2711"})
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2415")) is None
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2711")).rule == "7.23b"   # enemy unit
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2710")).rule == "7.23b"   # enemy ZOC
    assert ds.airdrop(pos, RULESET, "so-204abn", H("1811")).rule == "7.23b"   # active Strongpoint
    assert ds.airdrop(pos, RULESET, "so-204abn", H("2415"), storm=True).rule == "7.22"


def test_2grc_delay_examples_5_34():
    # required by the end of GT5 (roll 3), historically completed in GT6: 6 VP lost
    assert ds.grc_penalty("scenario-3", 5, 6) == {"vp": -6}
    # never completed: GT5, 6, 7 and the GT8 Recovery Phase: the maximum of 24 VP
    assert ds.grc_penalty("scenario-3", 5, None) == {"vp": -24}
    # on time, or never required
    assert ds.grc_penalty("scenario-3", 5, 5) == {"vp": 0} and ds.grc_penalty("scenario-3", None, None) == {"vp": 0}
    # Scenario 1: one more victory location per turn of delay
    assert ds.grc_penalty("scenario-1", 5, 6) == {"locations_needed": 6}
