"""Supply (6.0) through the shared supply search: the sources and what blocks a Supply
Route, plus the victory conditions that are supply questions (16.14, 19.24).

A Supply Route is a Supply Line of at most 7 hexes to a source or to a Supply Road leading to
one, with one road break (6.21-6.23; the :class:`SupplyRules` of the ruleset); enemy units,
enemy ZOC without a friendly unit and active enemy Strongpoints block it (6.22, 6.24).
"""

from __future__ import annotations

from ...hexes import Hex
from ...referee import Source, SupplyResult, supply_status, supply_trace, zoc_counts
from ...referee.board import board_of
from .features import (active_strongpoint_owner, airfields, enemy_of, in_play_area,
                       printed_strongpoint_owner)

MAP_EDGE_SOURCES = ("1032", "1836", "2036")   # 16.14


def controls_airfield(pos, rs, hex: Hex, side: str) -> bool:
    """3.12 control from a snapshot: the occupant, else an uncontested ZOC, else its owner (Axis)."""
    occupants = {u.side for u in pos.at(hex) if not u.counter.is_marker and u.side}
    if occupants:
        return side in occupants
    i = board_of(pos.map).index[hex]
    mine = zoc_counts(pos, rs, side)[i] > 0
    theirs = zoc_counts(pos, rs, enemy_of(side))[i] > 0
    if mine != theirs:
        return mine
    return side == "axis"


def map_sources(pos, rs, side: str) -> dict[Hex, str]:
    """Map supply sources of ``side`` active now -> kind (6.31, 16.14, 19.23)."""
    out: dict[Hex, str] = {}
    scen = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    extra = set((scen.options.get("scenario_supply_sources") or []) if scen else [])
    for src in pos.map.supply:
        if src.side != side or not src.active(pos.turn):
            continue
        if src.kind == "scenario-2" and not extra:
            continue   # 2219 and 2518 are sources in Scenario 2 only (19.23)
        if src.kind == "airfield":
            continue   # airfields are groups of their own with their limits (6.33)
        for h in src.hexes:
            out[h] = src.kind
    return out


def sources(rs, pos, side: str, context: dict) -> list:
    """The ruleset's supply sources: a non-destroyed printed Strongpoint for the units on it
    (6.34), the map sources, friendly airfields for every Axis unit and for Soviet
    parachute/Abn units (6.33), and the constructed airfield for the defending units
    (``context["defending"]``) only (6.35; option ``constructed_airfield_limited``)."""
    def airborne_ok(unit) -> bool:
        return side == "axis" or unit.type == "parachute" or "Abn" in unit.counter.name

    defending = set(context.get("defending", ()))
    limited_opt = rs.options["constructed_airfield_limited"]
    strongpoints = tuple(h for h, c in pos.map.hexes.items() if c.features
                         and printed_strongpoint_owner(pos, h) == side)
    friendly = [(h, kind) for h, kind in airfields(pos) if controls_airfield(pos, rs, h, side)]
    full = tuple(h for h, kind in friendly if kind == "printed" or not limited_opt)
    limited = tuple(h for h, kind in friendly if kind == "constructed" and limited_opt)
    out: list = [Source(strongpoints, trace=False, kind="strongpoint")]
    out += list(map_sources(pos, rs, side))
    if full:
        out.append(Source(full, serves=airborne_ok, kind="airfield"))
    if limited:
        out.append(Source(limited, serves=lambda u: u.id in defending and airborne_ok(u),
                          kind="constructed airfield"))
    return out


def supply_blocks(pos, side: str, hex: Hex) -> bool:
    """An active enemy Strongpoint (6.22, 14.12) and the map outside the scenario's area
    (19.22) block a Supply Route."""
    return not in_play_area(pos, hex) or active_strongpoint_owner(pos, hex) == enemy_of(side)


def supply(pos, side: str | None = None, rs=None, defending: frozenset | set = frozenset()) -> SupplyResult:
    """Supply of ``side``'s on-map units now, judged at the moment of combat (6.13, 6.41):
    the shared search with this game's sources; ``defending`` are the units defending in the
    combat being resolved (the constructed airfield supplies only them, 6.35)."""
    if rs is None:
        from .ruleset import RULESET as rs
    return supply_status(pos, rs, side or pos.side or "axis", {"defending": frozenset(defending)})


def supply_road(pos, rs, side: str) -> set[Hex]:
    """The hexes of ``side``'s friendly Supply Road network (9.11), cached per position."""
    return pos.cached("ds-supply-road", rs, side, lambda: supply(pos, side, rs).road)


def traces_to_map_edge(pos, hex: Hex, rs=None) -> bool:
    """True if an Axis Supply Route runs from ``hex`` to an Axis map-edge source (16.14):
    airfields and Strongpoints do not count."""
    if rs is None:
        from .ruleset import RULESET as rs
    edge = [pos.map.grid.parse(h) for h in MAP_EDGE_SOURCES]
    return supply_trace(pos, rs, "axis", edge).carries(hex)


def demyansk_surrounded(pos, rs=None) -> bool:
    """16.14: Demyansk 2711 is still under Axis control but traces no Axis Supply Route to a
    map-edge source. Control from a snapshot: not Soviet-occupied (3.12)."""
    demyansk = pos.map.grid.parse("2711")
    if any(u.side == "soviet" and u.counter.kind == "unit" for u in pos.at(demyansk)):
        return False
    return not traces_to_map_edge(pos, demyansk, rs)


def bruckenschlag_won(pos, rs=None) -> bool:
    """19.24: an Axis Supply Route joins a west map-edge source to 2219 or 2518."""
    return any(traces_to_map_edge(pos, pos.map.grid.parse(h), rs) for h in ("2219", "2518"))
