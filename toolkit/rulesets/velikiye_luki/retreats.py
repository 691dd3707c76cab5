"""Retreats (6.5.1): the priorities, the step lost per enemy ZOC entered without a friendly
unit (4.3), and elimination when no hex is open, on the referee's shared retreat search
(:mod:`toolkit.referee.combat_retreat`, ``RetreatRules(enemy_zoc="loss")``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import RulesError
from ...hexes import Hex
from ...referee import Position, Reason, Ruleset, Unit, next_retreat_hexes, retreat_step_loss
from ...referee.reasons import Code
from .movement import MECH, enemy_zoc_at

FRIENDLY_EDGE = {"german": -1, "soviet": +1}   # 6.5.1: west for the German, east for the Soviet


@dataclass
class RetreatCheck:
    """The verdict on a retreat path: legal or the first bad step, and the steps lost in ZOC."""

    units: tuple[str, ...]
    path: list[Hex]
    losses: int = 0
    reason: Reason | None = None
    failed_step: int | None = None
    eliminated: bool = False
    steps: list = field(default_factory=list)     # {"hex", "zoc", "loss"}

    @property
    def ok(self) -> bool:
        return self.reason is None


def retreat_priority(pos: Position, rs: Ruleset, units: list[Unit], h: Hex) -> tuple:
    """Lower is better: (in an enemy ZOC not cancelled by a friend, columns from the friendly
    edge, minus the distance to the nearest enemy unit): the three priorities of 6.5.1."""
    side = units[0].side
    movers = {u.id for u in units}
    friends = [u for u in pos.at(h) if u.side == side and u.id not in movers and u.counter.kind != "marker"]
    in_zoc = bool(enemy_zoc_at(pos, rs, side, h)) and not friends
    towards = -FRIENDLY_EDGE[side] * h.col
    enemies = [u.hex for u in pos.on_map() if u.side not in (side, None) and u.counter.kind == "unit"]
    nearest = min((pos.map.grid.distance(h, e) for e in enemies), default=99)
    return (int(in_zoc), towards, -nearest)


def may_retreat_into(pos: Position, rs: Ruleset, units: list[Unit], h: Hex) -> bool | None:
    """The lake of TEC 12 under the ``lake_infantry`` option; None elsewhere (the map decides)."""
    if pos.map.terrain(h) == "lake":
        return rs.option(pos, "lake_infantry") != "prohibited" or all(rs.unit_class(pos, u) == MECH for u in units)
    return None


def retreat_options(pos: Position, rs: Ruleset, unit_ids, path: list[Hex] | None = None) -> list[Hex]:
    """The hexes the next retreat step may enter after ``path`` (the start hex first): those
    open to the units that rank best by the priorities of 6.5.1. Empty: eliminated."""
    units = pos.units_of(unit_ids)
    return next_retreat_hexes(pos, rs, [u.id for u in units], list(path or [units[0].hex]))


def check_retreat(pos: Position, rs: Ruleset, unit_ids, path: list[Hex]) -> RetreatCheck:
    """Check a retreat ``path`` (hexes after the start hex, or starting with it) under 6.5.1.

    Each step must enter an open hex (not enemy-occupied, not impassable) that ranks best by
    the priorities; a step into an enemy ZOC without a friendly unit costs the stack one step
    (4.3). If no hex is open the stack is eliminated (``eliminated``, with the reason).
    """
    units = pos.units_of(unit_ids)
    ids = tuple(u.id for u in units)
    start = units[0].hex
    if any(u.hex != start for u in units):
        raise RulesError("retreating units must start in one hex")
    path = list(path)
    if path and path[0] == start:
        path = path[1:]
    result = RetreatCheck(ids, [start, *path])
    fmt = pos.map.format
    walked = [start]
    for n, h in enumerate(path, start=1):
        choices = next_retreat_hexes(pos, rs, ids, walked)
        if not choices:
            result.eliminated = True
            result.reason = Reason(Code.CUSTOM, "6.5.1", f"no hex is open to retreat from {fmt(walked[-1])}: "
                                   "the retreating units are eliminated", walked[-1], ids)
        elif h not in choices:
            result.reason = Reason(Code.CUSTOM, "6.5.1", _why_not(pos, rs, units, walked, h, choices), h, ids)
        if result.reason is not None:
            result.failed_step = n
            return result
        loss = retreat_step_loss(pos, rs, units, h)
        result.losses += loss
        result.steps.append({"hex": h, "zoc": bool(enemy_zoc_at(pos, rs, units[0].side, h)), "loss": loss})
        walked.append(h)
    if not path and not next_retreat_hexes(pos, rs, ids, walked):
        result.eliminated = True
        result.reason = Reason(Code.CUSTOM, "6.5.1", f"no hex is open to retreat from {fmt(start)}: the "
                               "retreating units are eliminated", start, ids)
    return result


def _why_not(pos, rs, units, walked, h, choices) -> str:
    fmt = pos.map.format
    if h not in pos.map.grid or not pos.map.grid.adjacent(walked[-1], h):
        return f"{fmt(h)} is not next to {fmt(walked[-1])}"
    if h in walked:
        return f"the retreat may not go back into {fmt(h)}"
    if any(u.side not in (units[0].side, None) and not u.counter.is_marker for u in pos.at(h)):
        return f"{fmt(h)} holds an enemy unit"
    if h not in next_retreat_hexes(pos, rs, [u.id for u in units], walked, ranked=False):
        return f"{fmt(h)} is impassable to the retreating units"
    better = ", ".join(fmt(c) for c in choices)
    return f"the retreat priorities (outside enemy ZOC, towards the friendly edge, away from the enemy) " \
           f"lead to {better}, not {fmt(h)}"
