"""Movement as the ruleset's step hook: the Minsk Pocket (14), unbridged major rivers (8.1.3),
major rivers between two enemy ZOCs (8.2.2) and strategic movement (8.3.1)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...hexes import Hex, Hexside
from ...referee import Position, Reason, Step, Unit, board_of
from ...referee.board import NO
from ...referee.reasons import Code

MAJOR = "major_river"
POCKET = "minsk_pocket"
VP_CHIT = "vp chit"


def has_vp_chit(pos: Position, hex: Hex) -> bool:
    """True if a VP chit lies on ``hex`` (a Victory Hex with a chit is Soviet-controlled, 16.2)."""
    return any(u.type == VP_CHIT for u in pos.at(hex))


def enemy_controlled_victory(pos: Position, side: str, hex: Hex) -> bool:
    """8.3.1: for a Soviet unit a Victory Hex without a VP chit, for a German one a Victory Hex with one."""
    if not any(v.hex == hex for v in pos.map.victory):
        return False
    return has_vp_chit(pos, hex) == (side == "german")


def bridged(pos: Position, side: Hexside) -> bool:
    """A river hexside crossed by a road is bridged (2.1.3)."""
    # the compiled board's line links: Map.line_links() rebuilds them on every call
    board = board_of(pos.map)
    return board.k_of(side.a, side.b) in board.line_codes


def unbridged_major(pos: Position, a: Hex, b: Hex) -> bool:
    side = Hexside.of(a, b)
    return MAJOR in pos.map.hexside_codes(side) and not bridged(pos, side)


def starts_by_major_river(pos: Position, hex: Hex) -> bool:
    """True if ``hex`` borders an unbridged major river hexside."""
    return any(n in pos.map.grid and unbridged_major(pos, hex, n) for n in pos.map.grid.neighbours(hex))


def strategic_blocker(pos: Position, side: str, hex: Hex) -> tuple[Hex, str] | None:
    """Why strategic movement may not enter ``hex`` (8.3.1): a neighbour holding an enemy unit or
    HQ, or an enemy-controlled Victory Hex on or next to it; ``(hex, what)`` or None."""
    grid = pos.map.grid
    if enemy_controlled_victory(pos, side, hex):
        return hex, "is an enemy-controlled Victory Hex"
    for n in grid.neighbours(hex):
        if n not in grid:
            continue
        if any(u.side not in (side, None) and u.counter.kind in ("unit", "hq") for u in pos.at(n)):
            return n, "holds an enemy unit"
        if enemy_controlled_victory(pos, side, n):
            return n, "is an enemy-controlled Victory Hex"
    return None


def step_rule(rs, pos: Position, units: list[Unit], step: Step) -> Step | Reason:
    ids = tuple(u.id for u in units)
    fmt = pos.map.format
    side = units[0].side
    if side == "german" and POCKET in pos.map.features(step.b):
        return Reason(Code.PROHIBITED_TERRAIN, "14", f"German units may never move into the Minsk Pocket "
                      f"({fmt(step.b)})", step.b, ids)
    hexside = Hexside.of(step.a, step.b)
    major = MAJOR in pos.map.hexside_codes(hexside)
    if major and step.zoc_from and step.zoc_to:
        return Reason(Code.CUSTOM, "8.2.2", f"may not cross the major river from {fmt(step.a)} to {fmt(step.b)}: "
                      "both hexes are in enemy ZOC (bridged or not, friendly units or not)", step.b, ids)
    if step.prohibited is not None:
        if not (major and step.prohibited.code is Code.PROHIBITED_HEXSIDE and not bridged(pos, hexside)):
            return step.prohibited
        loose = rs.option(pos, "major_river_crossing") == "start_adjacent"
        start = units[0].hex
        if not (step.first or (loose and starts_by_major_river(pos, start))):
            how = ("from a hex next to the river where the move started" if loose
                   else "as the first hex of a move that starts next to it")
            return Reason(Code.PROHIBITED_HEXSIDE, "8.1.3", f"the unbridged major river between {fmt(step.a)} and "
                          f"{fmt(step.b)} may only be crossed {how} (option major_river_crossing)", step.b, ids)
        enter = _enter_cost(rs, pos, units, step.b)
        if enter is None:
            return Reason(Code.PROHIBITED_TERRAIN, "8.1.2", f"{fmt(step.b)} cannot be entered", step.b, ids)
        return dataclasses.replace(step, cost=step.cost + enter, stop=True, prohibited=None)
    if step.mode.name == "strategic":
        blocker = strategic_blocker(pos, side, step.b)
        if blocker is not None:
            return Reason(Code.MODE_NOT_ALLOWED, "8.3.1", f"strategic movement may not enter {fmt(step.b)}: "
                          f"{fmt(blocker[0])} {blocker[1]}", step.b, ids)
        rate = Fraction(rs.option(pos, "strategic_cost"))
        if step.used_line and step.line is not None and rate != step.line:
            return dataclasses.replace(step, cost=step.cost - step.line + rate, line=rate)
    return step


def _enter_cost(rs, pos: Position, units: list[Unit], hex: Hex) -> Fraction | None:
    """MP to enter ``hex`` by terrain alone, the highest of the moving units' classes."""
    board = board_of(pos.map)
    j = board.index[hex]
    worst = None
    for cls in {rs.unit_class(pos, u) for u in units}:
        cost = board.enter_costs(cls, pos.current_weather, rs.movement.feature_costs)[j]
        if cost == NO:
            return None
        worst = cost if worst is None else max(worst, cost)
    return board.to_mp(worst)
