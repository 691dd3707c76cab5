"""Line of sight and command range: services a ruleset can use."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulesError
from ..hexes import Hex
from .position import Position
from .reasons import Code, Reason
from .ruleset import Ruleset


@dataclass
class Sight:
    """Whether ``target`` is seen from ``origin``; ``blocked_by`` names the blocking hex."""

    origin: Hex
    target: Hex
    visible: bool
    hexes: list[Hex]
    blocked_by: Hex | None = None
    reason: Reason | None = None


def _blocks(pos: Position, hex: Hex) -> bool:
    types = pos.map.terrain_types
    codes = [pos.map.terrain(hex), *pos.map.features(hex)]
    return any(c in types and types[c].blocks_los for c in codes)


def line_of_sight(pos: Position, rs: Ruleset, origin: Hex, target: Hex) -> Sight:
    """Line of sight between two hex centres: blocked by intermediate hexes whose terrain or
    features block it (end hexes never block). Where the line runs along a hexside, the two
    hexes on either side are compared as :attr:`LosRules.along_hexside` says."""
    grid = pos.map.grid
    for h in (origin, target):
        if h not in grid:
            raise RulesError(f"hex {pos.map.format(h)} is not on the map")
    los = rs.los
    if los.max_range is not None and grid.distance(origin, target) > los.max_range:
        reason = Reason(Code.LOS_BLOCKED, los.rule, f"{pos.map.format(target)} is beyond the range of "
                        f"{los.max_range}", target)
        return Sight(origin, target, False, [], None, reason)
    a = grid.line(origin, target, nudge=1)
    b = grid.line(origin, target, nudge=-1)
    first = next((h for h in a[1:-1] if _blocks(pos, h)), None)
    second = next((h for h in b[1:-1] if _blocks(pos, h)), None)
    if a == b or los.along_hexside == "either":
        blocker = first or second
    else:  # "both": the line is blocked only if both sides of the hexside are
        blocker = first if (first and second) else None
    hexes = list(dict.fromkeys(a + b))
    if blocker is None:
        return Sight(origin, target, True, hexes)
    reason = Reason(Code.LOS_BLOCKED, los.rule, f"line of sight from {pos.map.format(origin)} to "
                    f"{pos.map.format(target)} is blocked at {pos.map.format(blocker)}", blocker)
    return Sight(origin, target, False, hexes, blocker, reason)


def command_range(pos: Position, rs: Ruleset, hq_id: str, radius: int | None = None) -> list[str]:
    """Ids of the HQ's side's units within its command range (terrain, enemy and ZOC ignored).

    The radius is ``radius``, else :attr:`CommandRules.radius`, else the HQ counter's printed
    ``range_value``; with ``same_formation`` only units of the HQ's formation count.
    """
    c = rs.command
    hq = pos.unit(hq_id)
    if hq.hex is None:
        raise RulesError(f"{hq_id} is not on the map")
    r = radius if radius is not None else c.radius
    if r is None:
        r = hq.value(c.range_value)
    if not isinstance(r, int):
        raise RulesError(f"{hq_id} has no command range (no {c.range_value!r} value and none given)")
    grid = pos.map.grid
    out = []
    for u in pos.on_map(hq.side):
        if u.id == hq_id or u.counter.is_marker:
            continue
        if c.same_formation and u.counter.formation != hq.counter.formation:
            continue
        if grid.distance(hq.hex, u.hex) <= r:
            out.append(u.id)
    return sorted(out)
