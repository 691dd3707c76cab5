"""Air Transport (7.1) and the Soviet Airdrop (7.2)."""

from __future__ import annotations

from fractions import Fraction

from ...hexes import Hex
from ...referee import Reason
from ...referee.reasons import Code
from .features import AIRFIELD_MARKER, NON_ACTIVE, markers_at, active_strongpoint_owner
from .supply import controls_airfield
from .zoc import in_enemy_zoc

def air_transport(pos, rs, unit_ids, airfield: Hex, storm: bool = False) -> Reason | None:
    """None if Axis units in the AGN box may be flown to ``airfield`` this Air Transport Phase
    (7.11-7.17): from GT5, not in Mud or Storm, at most 2 stacking points of infantry, engineer or
    Untried units, to a friendly airfield not in an enemy ZOC nor under construction, within
    stacking limits."""
    units = pos.units_of(unit_ids)
    ids = tuple(u.id for u in units)
    where = pos.map.format(airfield)
    if (pos.turn or 0) < 5:
        return Reason(Code.CUSTOM, "7.15", "air transport begins on GT5", airfield, ids)
    if pos.current_weather == "mud" or storm:
        return Reason(Code.CUSTOM, "7.16", "no air transport in Mud or Storm", airfield, ids)
    for u in units:
        if u.side != "axis" or u.box != "agn":
            return Reason(Code.CUSTOM, "7.11", f"{u.id} is not an Axis unit in the AGN box", airfield, ids)
        if u.type not in ("infantry", "engineer") and u.counter.back_kind != "untried":
            return Reason(Code.CUSTOM, "7.14", f"{u.id} ({u.type}) may not be air transported", airfield, ids)
    points = sum((rs.stack_points(pos, u) for u in units), Fraction(0))
    if points > 2:
        return Reason(Code.CUSTOM, "7.13", f"{points} stacking points exceed the 2 of one Air Transport Phase",
                      airfield, ids)
    markers = markers_at(pos, airfield, AIRFIELD_MARKER)
    printed = "airfield" in pos.map.features(airfield)
    if not printed and not markers:
        return Reason(Code.CUSTOM, "7.11", f"{where} is not an airfield", airfield, ids)
    if not printed and all(set(m.status) & set(NON_ACTIVE) for m in markers):
        return Reason(Code.CUSTOM, "7.17", f"the airfield at {where} is under construction", airfield, ids)
    if not controls_airfield(pos, rs, airfield, "axis"):
        return Reason(Code.CUSTOM, "7.11", f"the airfield at {where} is not friendly", airfield, ids)
    if in_enemy_zoc(pos, rs, "axis", airfield):
        return Reason(Code.CUSTOM, "7.11", f"the airfield at {where} is in an enemy ZOC", airfield, ids)
    there = sum((rs.stack_points(pos, o) for o in pos.at(airfield) if o.side == "axis"), Fraction(0))
    if there + points > (rs.stacking.limit or 0):
        return Reason(Code.STACKING_LIMIT, "7.11", f"flying in would overstack {where}", airfield, ids)
    return None


def airdrop(pos, rs, unit_id: str, hex: Hex, storm: bool = False) -> Reason | None:
    """None if the Soviet Airdrop unit may drop on ``hex`` (7.22-7.23): from GT5, not in Storm,
    from the Valday box, onto a hex with no enemy unit or active Strongpoint, not in enemy ZOC."""
    unit = pos.unit(unit_id)
    ids = (unit.id,)
    where = pos.map.format(hex)
    if unit.type != "parachute" or unit.counter.back_kind != "marker":   # its back is the Airdrop mode (3.45)
        return Reason(Code.CUSTOM, "7.21", f"{unit.id} is not the Airdrop unit", hex, ids)
    if (pos.turn or 0) < 5 or storm:
        return Reason(Code.CUSTOM, "7.22", "Airdrop is allowed from GT5 and not in Storm", hex, ids)
    if unit.box != "valday":
        return Reason(Code.CUSTOM, "7.23a", f"{unit.id} must start in the Valday box", hex, ids)
    if any(o.side == "axis" and o.counter.kind == "unit" for o in pos.at(hex)) or active_strongpoint_owner(pos, hex):
        return Reason(Code.CUSTOM, "7.23b", f"{where} holds an enemy unit or an active Strongpoint", hex, ids)
    if in_enemy_zoc(pos, rs, "soviet", hex):
        return Reason(Code.CUSTOM, "7.23b", f"{where} is in an enemy ZOC", hex, ids)
    return None

