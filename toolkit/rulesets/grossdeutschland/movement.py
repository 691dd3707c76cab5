"""The Grossdeutschland say on one step: the Terrain Chart's H and ALL cells (9.0), and no move
across a river into an enemy ZOC without a bridge (8.0)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...hexes import Hexside
from ...referee import Reason, Step
from ...referee.reasons import Code

#: Hexside features a unit may not cross into an enemy ZOC (8.0) unless a bridge is there.
WATER = ("river", "canal")


def ma_share(pos, cls: str, hex) -> str | None:
    """"H" or "ALL" when the Terrain Chart prices ``hex`` for class ``cls`` as a share of the MA."""
    terrain = pos.map.terrain_types.get(pos.map.terrain(hex))
    if terrain is None or not terrain.move_ma:
        return None
    weather = pos.current_weather or "*"
    for key in (f"{cls}/{weather}", cls, f"*/{weather}", "*"):
        if key in terrain.move_ma:
            return terrain.move_ma[key]
    return None


def step_rule(rs, pos, units, step: Step) -> Step | Reason:
    ids = tuple(u.id for u in units)
    fmt = pos.map.format
    if step.prohibited is not None:
        return step.prohibited
    codes = pos.map.hexside_codes(Hexside.of(step.a, step.b))
    if step.zoc_to and any(c in WATER for c in codes) and not any(
            pos.map.hexside_types[c].bridge for c in codes if c in pos.map.hexside_types):
        return Reason(Code.ZOC_ENTRY, "8.0", f"may not cross the river between {fmt(step.a)} and {fmt(step.b)} "
                      f"into an enemy ZOC: no bridge there", step.b, ids)
    if step.used_line:
        return step                                   # 9.2: the road rate disregards the other terrain
    extra = Fraction(0)
    for unit in units:
        share = ma_share(pos, rs.unit_class(pos, unit), step.b)
        if share == "ALL":
            if not step.first:
                return Reason(Code.NOT_ENOUGH_MP, "9.0", f"{unit.id} must begin its move adjacent to "
                              f"{fmt(step.b)} to spend its whole allowance (ALL) entering it", step.b, ids)
            extra = max(extra, rs.printed_ma(pos, unit))
        elif share == "H":
            extra = max(extra, rs.h_cost(pos, unit))
    if not extra:
        return step
    return dataclasses.replace(step, cost=step.cost + extra)
