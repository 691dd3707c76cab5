"""The 2nd Guards Rifle Corps exit (5.34) and what a late exit costs (19.14a3)."""

from __future__ import annotations

from ...referee import Reason, reachable
from ...referee.reasons import Code

GRC_EXITS = ("4027", "4031")   # 5.34a


def grc_exit(pos, rs, unit_id: str, mode: str | None = None) -> Reason | None:
    """None if a 2GRC unit can leave the map this move: reach 4027 or 4031 with 1 MP left (or
    start there), at full strength (5.34). Strategic movement may be used; supply is not needed."""
    unit = pos.unit(unit_id)
    ids = (unit.id,)
    if unit.counter.formation != "2GRC":
        return Reason(Code.CUSTOM, "5.34", f"{unit.id} is not a 2GRC unit", unit.hex, ids)
    if unit.reduced:
        return Reason(Code.CUSTOM, "5.34", f"{unit.id} must be at full strength to exit", unit.hex, ids)
    exits = [pos.map.grid.parse(h) for h in GRC_EXITS]
    reach = reachable(pos, rs, unit.id, mode)
    if reach.refused:
        return reach.refused
    ma = reach.ma
    if unit.hex in exits and ma >= 1:
        return None
    if any(h in reach and reach.mp_left(h) >= 1 for h in exits):
        return None
    return Reason(Code.NOT_ENOUGH_MP, "5.34", f"{unit.id} cannot reach 4027 or 4031 with 1 MP left to exit",
                  unit.hex, ids)



def grc_delay_turns(required_by: int | None, completed_in: int | None) -> int:
    """Turns the 2GRC exit was late (5.34b): counted from the turn the 2GRC Table required it
    through GT8 when it never completes (the GT8 Recovery Phase counts too)."""
    if required_by is None:
        return 0
    last = 8 if completed_in is None else completed_in - 1
    return max(0, min(last, 8) - required_by + 1)


def grc_penalty(scenario: str, required_by: int | None, completed_in: int | None) -> dict:
    """What a late 2GRC exit costs: Scenario 3 loses 6 VP per turn; Scenario 1 needs one more
    victory location per turn (5.34b, 19.14a3)."""
    late = grc_delay_turns(required_by, completed_in)
    if scenario == "scenario-1":
        return {"locations_needed": 5 + late}
    return {"vp": -6 * late}
