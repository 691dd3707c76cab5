"""Rail movement (Rule 8): entrain for 1 MP (personnel on any rail hex, weapons and AFV units
only in a town on the railroad; reinforcements at a rail hex of their entry zone), move any
number of rail hexes along a railroad traced back to a friendly edge free of enemy units and
their ZOCs, never into an enemy ZOC, end where the unit could entrain; 25 SP a side a turn."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ...hexes import Hex
from ...referee import Position, Reason, board_of, enemy_zoc
from ...referee.reasons import Code
from ...referee.zoc import occupied
from . import units as U
from .terrain import is_town, rail_hexes


@dataclass
class RailAnswer:
    """Where a unit may go by rail this impulse (``refused`` says why not at all)."""

    unit: str
    hexes: list = field(default_factory=list)
    refused: Reason | None = None
    capacity_left: int = 0


def may_entrain_at(pos: Position, unit, hex: Hex) -> bool:
    m = pos.map
    if hex not in rail_hexes(m):
        return False
    if U.is_personnel(unit) or "entering" in unit.status:
        return True
    return is_town(m, hex)


def rail_used(pos: Position, side: str) -> int:
    return int((pos.state.get("rail_used") or {}).get(side, 0))


def _rail_links(m) -> dict:
    out: dict = {}
    for line in m.lines:
        if not m.line_types[line.code].rail:
            continue
        for a, b in zip(line.hexes, line.hexes[1:]):
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return out


def rail_edge_hexes(pos: Position, rs, side: str) -> set:
    board = board_of(pos.map)
    out = set()
    for src in pos.map.supply:
        if src.side == side and src.kind == "rail":
            out.update(src.hexes)
            if src.edge:
                out.update(board.edge_hexes(src.edge))
    return out


def rail_moves(pos: Position, rs, unit_id: str) -> RailAnswer:
    unit = pos.unit(unit_id)
    side, m = unit.side, pos.map
    ids = (unit.id,)
    fmt = m.format
    cap = int(pos.game.options.get("rail_capacity", 25))
    left = cap - rail_used(pos, side)
    ans = RailAnswer(unit.id, capacity_left=left)
    if unit.hex is None:
        ans.refused = Reason(Code.NOT_ON_MAP, "8", f"{unit.id} is not on the map", None, ids)
        return ans
    if not may_entrain_at(pos, unit, unit.hex):
        what = "a rail hex" if U.is_personnel(unit) else "a town hex on a railroad (weapons and AFV units)"
        ans.refused = Reason(Code.MODE_NOT_ALLOWED, "8", f"{unit.id} may entrain only in {what}; "
                             f"{fmt(unit.hex)} is not one", unit.hex, ids)
        return ans
    if U.strength(unit) > left:
        ans.refused = Reason(Code.MODE_NOT_ALLOWED, "8", f"{unit.id} has {U.strength(unit)} SP but only {left} of the "
                             f"{side} side's {cap} rail SP are left this turn", unit.hex, ids)
        return ans
    if rs.movement_allowance(pos, unit, rs.mode(None)) < 1:
        ans.refused = Reason(Code.NOT_ENOUGH_MP, "8", f"entraining costs 1 MP; {unit.id} has none left", unit.hex, ids)
        return ans
    board = board_of(m)
    ez = enemy_zoc(pos, rs, side)
    enemy = occupied(pos, side, True)

    def clean(h: Hex) -> bool:
        j = board.index[h]
        return not ez[j] and not enemy[j]

    if not clean(unit.hex):
        ans.refused = Reason(Code.ZOC_ENTRY, "8", f"{fmt(unit.hex)} is in an enemy ZOC: no rail movement from it",
                             unit.hex, ids)
        return ans
    links = _rail_links(m)
    seen = {unit.hex}
    todo = deque([unit.hex])
    while todo:
        h = todo.popleft()
        for n in links.get(h, ()):
            if n not in seen and clean(n):
                seen.add(n)
                todo.append(n)
    if not seen & rail_edge_hexes(pos, rs, side):
        ans.refused = Reason(Code.CUSTOM, "8", f"the railroad from {fmt(unit.hex)} cannot be traced to a friendly "
                             "edge free of enemy units and ZOCs", unit.hex, ids)
        return ans
    # "At the conclusion of rail movement the unit must be in a hex in which it could entrain"
    # (the entry-zone waiver is for entraining only)
    ans.hexes = sorted(h for h in seen if h != unit.hex and (U.is_personnel(unit) or is_town(m, h)))
    return ans
