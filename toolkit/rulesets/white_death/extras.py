"""The smaller rules of White Death that are questions, not moves: entry zones closed by the
situation (17 E), the Velikiye Luki supply route and air drop (15 D), the ice rolls of AFVs
crossing lake hexsides (13)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...errors import RulesError
from ...hexes import Hex, Hexside
from ...referee import Position, Reason, supply_trace
from ...referee.reasons import Code
from . import units as U
from .terrain import city_hexes, west_of_lowatj

LAKES = ("lake_full", "lake_partial")


def entry_zone(pos: Position, zone: str) -> tuple[str, list[Hex]]:
    """(side, hexes) of an entry zone of game.yaml ``options.entry_zones`` (17 A)."""
    zones = pos.game.options.get("entry_zones") or {}
    if zone not in zones:
        raise RulesError(f"unknown entry zone {zone!r}; the zones are {', '.join(zones)}")
    data = zones[zone]
    return data["side"], [pos.map.grid.parse(h) for h in str(data["hexes"]).split()]


def entry_closed(pos: Position, zone: str) -> Reason | None:
    """Why German reinforcements may not appear in ``zone`` now (17 E), or None (open)."""
    side, hexes = entry_zone(pos, zone)
    german = [u for u in pos.on_map("german") if not u.counter.is_marker and not U.is_bunker(u)]
    m = pos.map
    if zone == "german-south":
        city = city_hexes(m)
        south_of_city = max(h.row for h in city)
        west = west_of_lowatj(m)
        if not any(u.hex.row > south_of_city and u.hex not in west and u.hex not in city for u in german):
            return Reason(Code.CUSTOM, "17 E", "no German unit south of Velikiye Luki and east of the Lowatj: "
                          "the Southern Entry Zone is closed", None, ())
    if zone == "german-southwest":
        last = m.grid.last_row
        if not any(last - u.hex.row <= 10 for u in german):
            return Reason(Code.CUSTOM, "17 E", "no German unit within ten hexes of the southern map edge: the "
                          "Southwestern Entry Zone is closed", None, ())
    return None


def vl_route(pos: Position, rs) -> bool:
    """15 D.1: a supply route can be traced from some hex of the city to a German friendly edge
    (the isolation trace, notes' reading), so Velikiye Luki receives its supply points."""
    iso = dataclasses.replace(rs, supply=dataclasses.replace(rs.supply, source_kinds=("edge",)))
    sources = [h for h in iso.supply_sources(pos, "german") if isinstance(h, Hex)]
    trace = supply_trace(pos, iso, "german", sources)
    return any(trace.reaches(h) for h in city_hexes(pos.map))


def air_drop_chance(weather: str) -> Fraction:
    """15 D.1: each air-dropped point reaches Velikiye Luki on 1-4, 1-2 in snow (case 51)."""
    return Fraction(2, 6) if weather == "snow" else Fraction(4, 6)


def ice_rolls(pos: Position, units, path: list[Hex]) -> int:
    """13: the d6 rolls (1 = lose 1 SP) an AFV unit makes crossing lake hexsides along ``path``:
    one per lake hexside crossed, full or partial (case 64); none for other units."""
    if not any(U.is_afv(u) for u in units):
        return 0
    rolls = 0
    for a, b in zip(path, path[1:]):
        codes = pos.map.hexside_codes(Hexside.of(a, b))
        if any(c in LAKES for c in codes):
            rolls += 1
    return rolls
