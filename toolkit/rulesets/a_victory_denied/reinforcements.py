"""German reinforcements and Minsk Pocket releases entering the map (11.1.2): from off the map
into the entry hex (3106 for the 9th Army, 3902 for the 3rd Panzer Group, 2704 for the 2nd
Panzer Group's released units) at the strategic road rate, then on by strategic movement in the
same Movement Segment.

Two cases the text leaves open (notes 14.4.14-15): an entry hex where strategic movement is not
allowed (in enemy ZOC, next to an enemy unit or enemy-controlled Victory Hex) is refused with
that reason, for a human ruling; a motorised unit (a motorised HQ) cannot use strategic movement
and moves normally after paying its entry (estimated).
"""

from __future__ import annotations

from fractions import Fraction

from ...errors import RulesError
from ...hexes import Hex
from ...referee import Position, Reach, Reason, board_of, reachable
from ...referee.reasons import Code
from .movement import strategic_blocker
from .ruleset import is_motorised

ENTERING = "entering"   # status of a unit entering this move: its entry already paid


def entry_moves(pos: Position, rs, unit_id: str, entry: Hex) -> Reach:
    """Where ``unit_id`` can get this Movement Segment by entering the map at ``entry``."""
    if entry not in pos.map.grid:
        raise RulesError(f"entry hex {entry} is not on the map")
    p = pos.copy()
    unit = p.units.get(unit_id)
    if unit is None:
        raise RulesError(f"no unit {unit_id!r} in the position")
    unit.hex, unit.box = entry, None
    unit.status = set(unit.status) | {ENTERING}
    p.touch()
    fmt = p.map.format
    blocker = strategic_blocker(p, unit.side, entry)
    if blocker is not None:
        why = Reason(Code.MODE_NOT_ALLOWED, "11.1.2", f"{unit_id} cannot continue by strategic movement from "
                     f"{fmt(entry)}: {fmt(blocker[0])} {blocker[1]} (8.3.1; the text does not say what happens: "
                     "a human ruling, notes 14.4.14)", entry, (unit_id,))
        return Reach((unit_id,), entry, Fraction(0), board_of(p.map), refused=why)
    return reachable(p, rs, unit_id, mode=None if is_motorised(unit) else "strategic")


def entry_cost(pos: Position, rs, unit, entry: Hex) -> Fraction:
    """What entering costs: the strategic road rate (11.1.2), or the terrain for a motorised unit."""
    if not is_motorised(unit):
        return Fraction(rs.option(pos, "strategic_cost"))
    board = board_of(pos.map)
    cost = board.enter_costs(rs.unit_class(pos, unit), pos.current_weather, rs.movement.feature_costs)
    return board.to_mp(cost[board.index[entry]])
