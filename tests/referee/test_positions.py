"""Known positions with known answers ("hexperft"): every file in tests/data/positions.

Each file's ``expect:`` block gives reachable-hex counts per unit, path verdicts, MP spent and
left on given hexes (``moves``), the supplied units per side, supply statuses and stacking
violations; ``ruleset:`` changes fields of the game ruleset's parts for the file (e.g.
``{zoc: {enter_cost: "1/2"}}``, ``{modes: {rail: {line_rate: "1/4"}}}``). On a count mismatch
the test prints a "divide": the unit's reachable hexes with MP left and the previous hex, next
to the oracle's.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from referee_oracle import oracle_reach

from toolkit.referee import (MovementMode, check_path, check_stacking, get_ruleset, load_position,
                             reachable, ruleset_for, supply_status)

DATA = Path(__file__).resolve().parents[1] / "data"
#: the referee's own positions, and the game positions whose generic checks (paths, supply,
#: stacking) run here; tests/rulesets checks their game-specific keys
POSITIONS = sorted((DATA / "positions").glob("*.yaml")) + sorted((DATA / "velikiye-luki").glob("*.yaml"))


def _divide(pos, rs, uid) -> str:
    fmt = pos.map.format
    reach = reachable(pos, rs, uid)
    oracle = oracle_reach(pos, rs, [uid])
    lines = [f"{uid}: engine {len(reach)}, oracle {len(oracle)}"]
    for h in sorted(set(reach.hexes()) | set(oracle)):
        mine = f"{reach.mp_left(h)} left via {fmt(reach.path(h)[-2])}" if h in reach else "-"
        lines.append(f"  {fmt(h)}  engine: {mine:24s} oracle: {oracle.get(h, '-')}")
    return "\n".join(lines)


def _value(v):
    """A field value as written in ``expect.ruleset``: "1/2" is a Fraction, a list a tuple."""
    if isinstance(v, str) and v.replace("/", "", 1).lstrip("-").isdigit():
        return Fraction(v)
    return tuple(v) if isinstance(v, list) else v


def _variant(rs, spec: dict):
    """``rs`` with the part fields of ``spec`` changed (``modes`` adds or replaces modes)."""
    parts = {name: replace(getattr(rs, name), **{k: _value(v) for k, v in fields.items()})
             for name, fields in spec.items() if name != "modes"}
    if "modes" in spec:
        movement = parts.get("movement", rs.movement)
        modes = {name: MovementMode(name=name, **{k: _value(v) for k, v in fields.items()})
                 for name, fields in spec["modes"].items()}
        parts["movement"] = replace(movement, modes={**movement.modes, **modes})
    return replace(rs, name=f"{rs.name}-variant", **parts)


@pytest.mark.parametrize("path", POSITIONS, ids=[p.stem for p in POSITIONS])
def test_position(path):
    pos = load_position(path)
    rs = ruleset_for(pos.game)
    expect = pos.expect
    if "ruleset" in expect:
        rs = _variant(rs, expect["ruleset"])
    assert expect, f"{path.name} has no expect: block"
    grid = pos.map.grid
    answers = {}

    def oracle(units, mode=None):
        """The oracle's reach, worked out once a test (``reach`` and ``perft`` ask for the same units)."""
        key = (tuple(units), mode)
        if key not in answers:
            answers[key] = oracle_reach(pos, rs, list(units), mode)
        return answers[key]

    for uid, count in expect.get("reach", {}).items():
        assert len(reachable(pos, rs, uid)) == count, _divide(pos, rs, uid)
        assert len(oracle([uid])) == count, _divide(pos, rs, uid)
    for side, total in expect.get("perft", {}).items():
        counts = {u.id: len(reachable(pos, rs, u.id)) for u in pos.on_map(side) if not u.counter.is_marker}
        assert sum(counts.values()) == total, f"{side}: {counts}"
        for uid, count in counts.items():     # the divide, unit by unit, against the oracle
            assert len(oracle([uid])) == count, _divide(pos, rs, uid)
    for case in expect.get("moves", []):
        reach = reachable(pos, rs, case["units"], case.get("mode"))
        known = oracle(case["units"], case.get("mode"))
        if "count" in case:
            assert len(reach) == len(known) == case["count"], (case, len(reach), len(known))
        if "hex" not in case:
            continue
        h = grid.parse(case["hex"])
        assert (h in reach) == (h in known) == case.get("reachable", True), (case, reach.to_dict())
        if h in reach:
            assert reach.cost(h) == known[h][0], (case, known[h])
            got = {"cost": str(reach.cost(h)), "mp_left": str(reach.mp_left(h)),
                   "stops": reach.board.index[h] in reach.stopped}
            assert {k: got[k] for k in got if k in case} == {k: case[k] for k in got if k in case}, case
    for case in expect.get("paths", []):
        hexes = [grid.parse(h) for h in case["path"].split()]
        ruleset = rs.with_options(**case["options"]) if case.get("options") else rs
        check = check_path(pos, ruleset, case["units"], hexes, case.get("mode"))
        assert check.ok == case["legal"], (case, check.reason)
        if not case["legal"]:
            assert check.reason.code.value == case["code"], (case, check.reason)
            assert check.failed_step == case["step"], (case, check.reason)
            assert check.reason.rule, "every refusal cites a rule"
        last = check.steps[-1] if check.steps else None
        if "spent" in case:
            assert str(last["spent"]) == case["spent"], (case, check.steps)
        if "mp_left" in case:
            assert str(last["mp_left"]) == case["mp_left"], (case, check.steps)
    for side, units in expect.get("supplied", {}).items():
        assert sorted(supply_status(pos, rs, side).supplied) == sorted(units), side
    if "status" in expect:
        result = supply_status(pos, rs, pos.side)
        assert {u: result.status[u] for u in expect["status"]} == expect["status"]
    if "stacking" in expect:
        found = check_stacking(pos, rs)
        assert len(found) == expect["stacking"], found
        if "stacking_hexes" in expect:
            assert sorted(pos.map.format(r.hex) for r in found) == sorted(expect["stacking_hexes"])


def test_every_position_file_is_used():
    assert len([p for p in POSITIONS if p.parent.name == "positions"]) >= 10
    assert get_ruleset("tutorial").name == "tutorial"
