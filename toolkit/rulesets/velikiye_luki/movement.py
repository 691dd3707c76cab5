"""Movement (3, 4.2-4.4, TEC) as the ruleset's step hook: the road/rail rate of mechanised
units (3.2), the options of the rulebook's conflicts (mechanised road cost, bridge surcharge,
lakes for infantry), and ski infiltration (4.4) lifting the shared "same-unit" ZOC-to-ZOC
refusal (4.2.1)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...hexes import Hex, Hexside
from ...referee import Position, Reason, Step, Unit, board_of, enemy_zoc_owners
from ...referee.board import NO
from ...referee.reasons import Code

MECH = "mechanised"


def enemy_zoc_at(pos: Position, rs, side: str | None, hex: Hex) -> frozenset:
    """The enemy units (of ``side``'s enemies) whose ZOC covers ``hex`` (4.1)."""
    i = board_of(pos.map).index.get(hex)
    return frozenset() if i is None else enemy_zoc_owners(pos, rs, side)[i]


def is_infantry(rs, pos: Position, unit: Unit) -> bool:
    """Infantry in the sense of 4.4: a non-mechanised combat unit (ski, infantry, cadre, Festung)."""
    return rs.unit_class(pos, unit) != MECH


def step_rule(rs, pos: Position, units: list[Unit], step: Step) -> Step | Reason:
    """The Velikiye Luki say on one step (module docstring)."""
    ids = tuple(u.id for u in units)
    fmt = pos.map.format
    stop, terrain, why = step.stop, step.terrain, step.prohibited
    if why is not None and why.code is Code.ZOC_TO_ZOC and all(rs.unit_class(pos, u) == "ski" for u in units):
        # 4.4: ski units infiltrate enemy infantry; they are stopped only by the ZOC of a unit
        # they were not in
        side = units[0].side
        before, after = enemy_zoc_at(pos, rs, side, step.a), enemy_zoc_at(pos, rs, side, step.b)
        shared = before & after
        if not all(is_infantry(rs, pos, pos.units[e]) for e in shared):
            return Reason(Code.ZOC_TO_ZOC, "4.4", f"may not move directly from {fmt(step.a)} to {fmt(step.b)}: "
                          f"both are in the ZOC of {', '.join(sorted(shared))}; ski units infiltrate enemy "
                          f"infantry only", step.b, ids)
        why, stop = None, bool(after - before)
    if why is not None and why.code is Code.ZOC_TO_ZOC:
        return why
    if terrain is None and pos.map.terrain(step.b) == "lake":
        if rs.option(pos, "lake_infantry") == "prohibited":
            return Reason(Code.PROHIBITED_TERRAIN, "TEC 12", f"infantry may not enter the lake at {fmt(step.b)} "
                          "(the TEC prints '–'; option lake_infantry)", step.b, ids)
        terrain, why = _lake_cost(rs, pos, units, step), None
    base = _terrain_or_line(rs, pos, units, step, terrain)
    if base is None:
        return why or Reason(Code.PROHIBITED_TERRAIN, "TEC", f"{fmt(step.b)} cannot be entered", step.b, ids)
    cost = base + (2 if step.zoc_from else 0)                         # 4.2.1: +2 MP to leave
    if (rs.option(pos, "bridge_mechanised") == "plus1" and any(rs.unit_class(pos, u) == MECH for u in units)
            and "bridge" in pos.map.hexside_codes(Hexside.of(step.a, step.b))):
        cost += 1                                                     # TEC 9 as printed
    if cost == step.cost and stop == step.stop and step.prohibited is None:
        return step
    return dataclasses.replace(step, cost=cost, stop=stop, prohibited=None)


def _lake_cost(rs, pos: Position, units: list[Unit], step: Step) -> Fraction | None:
    """A lake under option ``lake_infantry="1"``: 1 MP for the classes the TEC's "–" refuses,
    the printed cost for the others (mechanised 2), plus the hexside, the highest of the stack."""
    board = board_of(pos.map)
    weather = pos.current_weather
    k, j = board.k_of(step.a, step.b), board.index[step.b]
    worst = 0
    for cls in {rs.unit_class(pos, u) for u in units}:
        enter = board.enter_costs(cls, weather, rs.movement.feature_costs)[j]
        side = board.side_costs(cls, weather, rs.movement.bridges_ignore_hexsides).get(k, 0)
        if side == NO:
            return None
        worst = max(worst, (board.scaled(1) if enter == NO else enter) + side)
    return board.to_mp(worst)


def _terrain_or_line(rs, pos: Position, units: list[Unit], step: Step, terrain: Fraction | None) -> Fraction | None:
    """The cheaper of the terrain cost and the road/rail rate this stack may use (3.2)."""
    codes = _line_codes(pos.map).get(Hexside.of(step.a, step.b), ())
    line = _line_rate(rs, pos, units, step.b, codes) if codes else None
    options = [c for c in (terrain, line) if c is not None]
    return min(options) if options else None


def _line_rate(rs, pos: Position, units: list[Unit], entering: Hex, codes) -> Fraction | None:
    moving = {u.id for u in units}
    mech_moving = sum(1 for u in units if rs.unit_class(pos, u) == MECH)
    mech_there = any(u.id not in moving and u.side == units[0].side and not u.counter.is_marker
                     and u.counter.kind == "unit" and rs.unit_class(pos, u) == MECH
                     for u in pos.at(entering))
    weather = pos.current_weather
    worst = Fraction(0)
    for unit in units:
        cls = rs.unit_class(pos, unit)
        if cls == MECH and (mech_moving > 1 or mech_there):
            return None      # 3.2: stacked with, or crossing, another mechanised unit
        best = None
        for code in codes:
            if cls == MECH and code == "road":
                rate = Fraction(rs.option(pos, "mech_road_cost"))
            else:
                found, rate = pos.map.line_types[code].move.lookup(cls, weather)
                if not found or rate is None:
                    continue
            best = rate if best is None else min(best, Fraction(rate))
        if best is None:
            return None
        worst = max(worst, Fraction(best))
    return worst


_LINES: dict[int, tuple] = {}


def _line_codes(game_map) -> dict[Hexside, tuple[str, ...]]:
    entry = _LINES.get(id(game_map))
    if entry is None or entry[0] is not game_map:
        links = {side: tuple(dict.fromkeys(codes)) for side, codes in game_map.line_links().items()}
        entry = (game_map, links)
        _LINES[id(game_map)] = entry
    return entry[1]
