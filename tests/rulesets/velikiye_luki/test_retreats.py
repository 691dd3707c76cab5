"""Velikiye Luki: the worked examples in tests/data/velikiye-luki, for their encirclement and
retreat keys (6.5.1); tests/referee/test_positions.py checks their paths, supply and stacking."""

from __future__ import annotations

import pytest

from toolkit.referee import load_position, ruleset_for
from toolkit.rulesets.velikiye_luki import check_retreat, encircled, encirclement, retreat_options

from .helpers import POSITIONS, hex_list


# -- the position files: worked examples and isolated rules ----------------------------------


@pytest.mark.parametrize("path", POSITIONS, ids=[p.stem for p in POSITIONS])
def test_position_file(path):
    pos = load_position(path)
    rs = ruleset_for(pos.game)
    expect = pos.expect
    assert expect, f"{path.name} has no expect: block"
    fmt = pos.map.format
    # paths, supply, statuses and stacking: tests/referee/test_positions.py runs these files too
    if "encircled" in expect:
        assert encircled(pos, rs) == expect["encircled"], encirclement(pos, rs)
    for uid, hexes in expect.get("retreat_options", {}).items():
        assert sorted(fmt(h) for h in retreat_options(pos, rs, uid)) == sorted(hexes.split())
    for case in expect.get("retreats", []):
        check = check_retreat(pos, rs, case["units"], hex_list(pos, case["path"]))
        assert check.ok == case["legal"], (case, check.reason)
        if case["legal"]:
            assert check.losses == case["losses"], (case, check.steps)
        else:
            assert check.reason.rule == "6.5.1"
            if "step" in case:
                assert check.failed_step == case["step"], (case, check.reason)
        assert check.eliminated == case.get("eliminated", False)
