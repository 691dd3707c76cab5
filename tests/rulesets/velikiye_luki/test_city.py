"""Velikiye Luki: the encirclement and the Festung's ZOC (4.2.2, 7.1, 7.2, 7.6)."""

from __future__ import annotations

from toolkit.referee import zoc_counts
from toolkit.rulesets.velikiye_luki import RULESET, encircled, encirclement

from .helpers import position


# -- Velikiye Luki -------------------------------------------------------------------------


def test_festung_zoc_depends_on_encirclement(game):
    ring = {"dfg9": "1007", "df357": "1109", "rc36": "1207", "festung-east": "1108", "festung-west": "1108"}
    pos = position(game, ring, side="soviet")
    index = {h: i for i, h in enumerate(pos.map.grid.hexes())}
    assert encircled(pos, RULESET)
    assert zoc_counts(pos, RULESET, "german")[index[pos.map.grid.parse("1107")]] == 0
    broken = dict(ring)
    broken["rc36"] = "1306"                              # the ring opens at 1207
    pos2 = position(game, broken, side="soviet")
    assert not encircled(pos2, RULESET)
    assert any("1207" in why for why in encirclement(pos2, RULESET))
    assert zoc_counts(pos2, RULESET, "german")[index[pos.map.grid.parse("1107")]] == 2
