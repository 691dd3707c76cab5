"""Zones of control (3.2): who exerts one and where it reaches, as hooks of the shared ZOC
search (so movement, supply and the CLI see the same zones)."""

from __future__ import annotations

from ...hexes import Hex
from ...referee import board_of, enemy_zoc
from ...referee.board import NO
from .features import active_strongpoint_owner, enemy_of, no_zoc_band


def exerts_zoc(pos, unit) -> bool:
    """Combat units other than air units (3.27); a no-ZOC band unit only while stacked with a
    unit without the band (3.24)."""
    if unit.counter.kind != "unit" or unit.type == "air" or unit.hex is None:
        return False
    if not no_zoc_band(unit):
        return True
    return any(o.side == unit.side and o.counter.kind == "unit" and o.type != "air" and not no_zoc_band(o)
               for o in pos.at(unit.hex))


def zoc_reaches(rs, pos, unit, hex: Hex) -> bool:
    """Not across a hexside prohibited to the unit's movement (3.22; with the option
    ``restricted_zoc_into_swamp``, nor into swamp its class may not enter), nor into an
    active enemy Strongpoint (3.25, 14.14)."""
    board = board_of(pos.map)
    weather = pos.current_weather
    literal = rs.options["restricted_zoc_into_swamp"]
    cls = rs.unit_class(pos, unit) if literal else "foot"
    k = board.k_of(unit.hex, hex)
    if board.side_costs(cls, weather).get(k, 0) == NO:
        return False
    j = board.index[hex]
    if literal and board.enter_costs(cls, weather)[j] == NO and board.terrain[j] != "lake":
        return False
    return active_strongpoint_owner(pos, hex) != enemy_of(unit.side)


def in_enemy_zoc(pos, rs, side: str, hex: Hex) -> bool:
    """True if ``hex`` is in the ZOC of a unit of the enemy of ``side``; every enemy combat
    unit controls its own hex (3.21, 3.24)."""
    if enemy_zoc(pos, rs, side)[board_of(pos.map).index[hex]] > 0:
        return True
    return any(o.type != "air" for o in pos.at(hex) if o.side == enemy_of(side) and o.counter.kind == "unit")
