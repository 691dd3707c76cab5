"""Line of sight (11.2, 11.3) and fog of war (1.1).

A line runs from hex centre to hex centre, at most 10 hexes (the observer's hex not counted).
An intermediate hex of blocking terrain (the chart's black triangle: ``blocks_los``) blocks
it; along a hexside it is blocked only when the hexes on both sides block; the end hexes
never block (a line may be traced *into* blocking terrain). A unit on a peak (red triangle) is
not obstructed by blocking terrain directly adjacent to its peak; the line is reciprocal, so
the exemption is applied at either end (ruled; 11.2 speaks of the unit on the peak). Units
never block. Fog of war: an enemy stack may be inspected along such a line from any friendly
unit on the map, never in a hex with a fortification, and always once it has fought.
"""

from __future__ import annotations

from ...errors import RulesError
from ...hexes import Hex
from ...referee import Reason, Sight
from ...referee.reasons import Code

PEAK = "peak"
FORTIFICATIONS = ("trench", "minefield", "dragons teeth", "bunker")


def _blocks(m, hex: Hex) -> bool:
    types = m.terrain_types
    return any(c in types and types[c].blocks_los for c in (m.terrain(hex), *m.features(hex)))


def _exempt(m, ends: tuple[Hex, Hex], hex: Hex) -> bool:
    """Blocking terrain adjacent to a peak at either end of the line does not obstruct it."""
    return any(PEAK in m.features(e) and m.grid.adjacent(e, hex) for e in ends)


def sees(pos, rs, origin: Hex, target: Hex) -> Sight:
    """Whether a unit in ``origin`` sees ``target`` (observation, direct fire, inspection)."""
    m = pos.map
    grid = m.grid
    for h in (origin, target):
        if h not in grid:
            raise RulesError(f"hex {m.format(h)} is not on the map")
    limit = rs.los.max_range
    if limit is not None and grid.distance(origin, target) > limit:
        return Sight(origin, target, False, [], None,
                     Reason(Code.LOS_BLOCKED, "11.2", f"{m.format(target)} is more than {limit} hexes from "
                            f"{m.format(origin)}", target))
    ends = (origin, target)

    def first_block(line):
        return next((h for h in line[1:-1] if _blocks(m, h) and not _exempt(m, ends, h)), None)

    a = grid.line(origin, target, nudge=1)
    b = grid.line(origin, target, nudge=-1)
    one, two = first_block(a), first_block(b)
    blocker = (one or two) if a == b else (one if one and two else None)   # along a hexside: both must block
    hexes = list(dict.fromkeys(a + b))
    if blocker is None:
        return Sight(origin, target, True, hexes)
    return Sight(origin, target, False, hexes, blocker,
                 Reason(Code.LOS_BLOCKED, "11.2", f"line of sight from {m.format(origin)} to {m.format(target)} "
                        f"is blocked at {m.format(blocker)}", blocker))


def inspectable(pos, rs, side: str, revealed=frozenset()) -> dict[Hex, bool]:
    """For every hex holding enemy units of ``side``: may ``side`` inspect the stack there (1.1)?

    ``revealed`` holds ids of enemy units that fought and must be shown wherever they are."""
    occupied = pos.occupancy()
    friends = {u.hex for u in pos.on_map(side) if not u.counter.is_marker and u.counter.kind != "chit"}
    out = {}
    for hex, units in occupied.items():
        enemies = [u for u in units if u.side not in (side, None) and not u.counter.is_marker]
        if not enemies:
            continue
        if any(u.id in revealed for u in enemies):
            out[hex] = True
            continue
        if any(u.counter.is_marker and u.type in FORTIFICATIONS for u in units):
            out[hex] = False                                  # 1.1: never inside a fortification
            continue
        out[hex] = any(sees(pos, rs, f, hex).visible for f in friends)
    return out
