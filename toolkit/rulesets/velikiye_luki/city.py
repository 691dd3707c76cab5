"""The city of Velikiye Luki: its hexes and the Soviet encirclement (7.1, 7.2) that switches
the Festung counters' ZOC off (4.2.2, 7.6)."""

from __future__ import annotations

from ...hexes import Hex
from ...referee import Position, Ruleset, board_of, zoc_counts
from .movement import MECH

ARMOUR_TYPES = ("armour", "mechanised", "flame", "assault gun")


def velikiye_luki_hexes(pos: Position) -> list[Hex]:
    """The city's hexes: where the Festung counters stand, else the place named Velikiye Luki."""
    hexes = sorted({u.hex for u in pos.on_map("german") if u.type == "fortress"})
    if hexes:
        return hexes
    return [p.hex for p in pos.map.places if p.name == "Velikiye Luki"]


def encirclement(pos: Position, rs: Ruleset) -> list[str]:
    """Why Velikiye Luki is not encircled (empty list: it is), per 7.1 and 7.2.

    Encircled: every hex next to the city holds a Soviet unit or lies in a Soviet ZOC with no
    German unit in it (7.1), and the Soviet units next to the city include two fusilier
    divisions or the equivalent (a division counts 3, an infantry regiment or brigade 2: "two
    divisions or three regiments or brigades") plus an armoured regiment or brigade (7.2).
    """
    city = velikiye_luki_hexes(pos)
    if not city:
        return ["Velikiye Luki is not on this map"]
    grid = pos.map.grid
    ring = sorted({n for h in city for n in grid.neighbours(h)} - set(city))
    soviet_zoc = zoc_counts(pos, rs, "soviet")
    board = board_of(pos.map)
    problems = []
    infantry, armour, seen = 0, 0, set()
    for h in ring:
        here = [u for u in pos.at(h) if u.counter.kind == "unit"]
        soviets = [u for u in here if u.side == "soviet"]
        germans = [u for u in here if u.side == "german"]
        if not soviets and (germans or not soviet_zoc[board.index[h]]):
            problems.append(f"{pos.map.format(h)} is neither held by a Soviet unit nor in a Soviet ZOC free of "
                            "German units (7.1)")
        for u in soviets:
            if u.id in seen:
                continue
            seen.add(u.id)
            cls = rs.unit_class(pos, u)
            if u.type in ARMOUR_TYPES and u.counter.size in ("III", "X"):
                armour += 1
            elif cls != MECH and u.counter.size == "XX":
                infantry += 3
            elif cls != MECH and u.counter.size in ("III", "X") and u.type in ("infantry", "ski"):
                infantry += 2
    if infantry < 6:
        problems.append("fewer than two fusilier divisions or three infantry regiments/brigades next to the city (7.2)")
    if armour < 1:
        problems.append("no armoured regiment or brigade next to the city (7.2)")
    return problems


def encircled(pos: Position, rs: Ruleset) -> bool:
    """True while the Soviet encirclement of Velikiye Luki is in effect (7.1, 7.2)."""
    return pos.cached("vl-encircled", rs, None, lambda: not encirclement(pos, rs))
