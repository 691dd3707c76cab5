"""Opportunity fire as a referee question (11.4): who may fire at a unit or stack as it enters a
hex, and at which of its units. The fire itself (hit and casualty rolls, 11.3) is combat's.

"A direct ranged fire unit may conduct one direct ranged fire attack each time an enemy unit or
stack enters any hex within the printed hex range of that direct ranged fire unit" (11.4), "if
observable and within range": the firer has a black triangle (``fire_range``), the hex is
within it (the firer's hex not counted, the target's counted) and in its line of sight (11.3,
:func:`.sight.sees`). No direct fire at Night (13.2), in fog or storm (14.1), nor by a unit out
of supply (5.3). Only movement draws it: a unit advancing after combat never (11.4), a unit
that does not move never (11.4), a dismount "does not in-and-of-itself" (9.5), a debark does
(9.6); a retreat not by default (option ``op_fire_retreats``, the notes' ruling A27). A unit
pinned by direct fire may not attack "per 10.1" (11.3 note): it is not barred from direct fire.
"""

from __future__ import annotations

from ...errors import RulesError
from ...hexes import Hex
from .ruleset import HQ_TYPES, NIGHT, OUT_OF_SUPPLY, RIDING, time_of_day
from .sight import sees

#: 13.2, 14.1 (11.3 note): no direct ranged fire in these weathers.
NO_FIRE_WEATHER = ("foggy", "stormy")
#: How the target enters the hex: the kinds of movement 11.4, 9.5, 9.6 and A27 speak of.
HOW = ("move", "debark", "dismount", "advance", "retreat", "stay")


def opportunity_fire(rs, pos, mover_ids, hex: Hex, how: str = "move") -> tuple[list[tuple[str, int]], str | None]:
    """The enemy units that may fire at the units ``mover_ids`` entering ``hex`` (``how``: one
    of :data:`HOW`), as ``[(firer id, range)]`` nearest first, and why none may when the list
    is empty for a reason that holds for every firer (None otherwise)."""
    if how not in HOW:
        raise RulesError(f"opportunity fire: how the target enters must be one of {', '.join(HOW)}, not {how!r}")
    movers = pos.units_of(mover_ids)
    if not movers:
        raise RulesError("opportunity fire needs the moving units")
    if how == "advance":
        return [], "11.4: a unit advancing after combat may not be the target of opportunity fire"
    if how == "stay":
        return [], "11.4: an enemy unit that does not move is never subject to opportunity fire"
    if how == "dismount":
        return [], "9.5: a dismount within a hex does not in-and-of-itself provoke opportunity fire"
    if how == "retreat" and not rs.option(pos, "op_fire_retreats"):
        return [], "A27 (option op_fire_retreats): a retreat is not movement that draws opportunity fire"
    if time_of_day(pos) == NIGHT:
        return [], "13.2: no direct ranged fire is permitted during Night game turns"
    if pos.current_weather in NO_FIRE_WEATHER:
        return [], f"14.1: no direct ranged fire is permitted in {pos.current_weather} weather"
    side = movers[0].side
    grid = pos.map.grid
    found = []
    for unit in pos.on_map():
        if unit.side in (side, None) or unit.counter.is_marker or unit.counter.kind == "chit":
            continue
        reach = unit.value("fire_range")
        if not isinstance(reach, int) or reach <= 0 or unit.status & set(OUT_OF_SUPPLY):
            continue                                             # no black triangle; 5.3
        distance = grid.distance(unit.hex, hex)
        if distance > reach or not sees(pos, rs, unit.hex, hex).visible:
            continue
        found.append((unit.id, distance))
    found.sort(key=lambda f: (f[1], f[0]))
    return found, None


def fire_targets(rs, pos, hex: Hex, mover_ids) -> list[str]:
    """The units an opportunity fire at the stack entering ``hex`` may pick (11.4): any one of
    the moving units, but "an HQ unit may not be chosen ... unless it is the only unit in that
    hex"; a Leg unit riding a Tracked unit is not targeted, only its carrier (9.5)."""
    movers = pos.units_of(mover_ids)
    there = {u.id for u in pos.at(hex) if not u.counter.is_marker and u.counter.kind != "chit"}
    alone = len(there | {u.id for u in movers}) <= 1
    return [u.id for u in movers if (alone or u.type not in HQ_TYPES)
            and not (RIDING in u.status and rs.carrier(pos, u) is not None)]
