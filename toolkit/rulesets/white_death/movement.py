"""Movement as White Death's step hook and its own search: river and creek hexes with enter and
leave costs (Rule 7), no road through an unbridged river (7, 20), the same-side exit of river
hexes in thaw (16 B), weapons units and enemy ZOC (3 C), AFV, ski and Brandenburg ZOC (3 A, 3 B,
21 B), the intrinsic garrisons (p.35) and the Velikiye Luki garrison (22)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from heapq import heappop, heappush

from ...hexes import Hex
from ...referee import Position, Reach, Reason, Step, Unit, board_of
from ...referee.board import NO
from ...referee.movement import move_start, moving_units, plain_reachable
from ...referee.reasons import Code
from ...referee.steps import priced
from . import units as U
from .terrain import CREEK, RIVER, along, bank, bridges, city_hexes, garrison_holds, water


def leave_cost(rs, pos: Position, units: list[Unit], kind: str) -> Fraction:
    """The second number of a river or creek cost (Rule 7): the highest of the movers' classes."""
    table = (pos.game.options.get("leave_costs") or {}).get(kind, {})
    return max((Fraction(str(table.get(rs.unit_class(pos, u), 0))) for u in units), default=Fraction(0))


def water_cost(rs, pos: Position, units: list[Unit], kind: str) -> Fraction | None:
    """The first number of a river or creek cost (the TEC in map.yaml), highest of the movers."""
    table = pos.map.terrain_types[kind].move
    worst = Fraction(0)
    for u in units:
        _, cost = table.lookup(rs.unit_class(pos, u), pos.current_weather)
        if cost is None:
            return None
        worst = max(worst, Fraction(cost))
    return worst


def hex_cost(rs, pos: Position, units: list[Unit], hex: Hex) -> Fraction:
    """What the shared chart charges to enter ``hex`` off any line (highest of the movers)."""
    board = board_of(pos.map)
    j = board.index[hex]
    worst = Fraction(0)
    for cls in {rs.unit_class(pos, u) for u in units}:
        c = board.enter_costs(cls, pos.current_weather, rs.movement.feature_costs)[j]
        if c != NO:
            worst = max(worst, board.to_mp(c))
    return worst


def entry_cost(rs, pos: Position, unit: Unit) -> Fraction:
    """17 C: what a reinforcement pays to appear in its map-edge hex (the hex's terrain, or its
    river or creek's first number)."""
    kind = water(pos.map, unit.hex)
    if kind:
        cost = water_cost(rs, pos, [unit], kind)
        return Fraction(0) if cost is None else cost
    return hex_cost(rs, pos, [unit], unit.hex)


def _enemy_ski_next_to(pos: Position, side: str, hex: Hex) -> bool:
    for n in pos.map.grid.neighbours(hex):
        if n in pos.map.grid and any(u.side not in (side, None) and u.counter.unit_class == "ski" for u in pos.at(n)):
            return True
    return False


def step_rule(rs, pos: Position, units: list[Unit], step: Step) -> Step | Reason:
    m, ids, fmt = pos.map, tuple(u.id for u in units), pos.map.format
    a, b = step.a, step.b
    side = units[0].side
    # Rule 22: an unreleased Velikiye Luki garrison moves freely inside the city only
    if any(rs.vl_confined(pos, u) for u in units) and b not in city_hexes(m):
        return Reason(Code.CUSTOM, "22", f"the Velikiye Luki garrison may not leave the city until released "
                      f"({fmt(b)} is outside it)", b, ids)
    # p.35: a rail town west of the Lowatj holds an intrinsic garrison until it is eliminated
    if side == "soviet" and garrison_holds(pos, b) and not any(u.side == "german" for u in pos.at(b)):
        return Reason(Code.ENEMY_OCCUPIED, "p.35", f"{fmt(b)} holds an intrinsic German garrison: it must be "
                      "eliminated before a Soviet unit may enter", b, ids)
    if step.prohibited is not None:
        return step.prohibited
    # Rule 3 C: weapons units never enter an enemy ZOC unless a personnel or AFV unit is there
    if step.zoc_to and all(U.is_weapons(u) for u in units):
        escort = [u for u in [*pos.at(b), *units] if u.side == side and (U.is_personnel(u) or U.is_afv(u))]
        if not escort:
            return Reason(Code.ZOC_ENTRY, "3 C", f"weapons units may not enter the enemy ZOC at {fmt(b)} "
                          "unless a personnel or AFV unit is also in the hex", b, ids)
    cost, stop = step.cost, step.stop
    standing = bridges(pos)
    wa, wb = water(m, a), water(m, b)
    # Rule 7: a river or creek hex costs its own first number, whatever else is in it; a road
    # negates all other terrain but a river: only a bridge negates that (Rule 7, 20)
    road_in = step.used_line and (wb == CREEK or b in standing)
    if wb and not road_in:
        enter = water_cost(rs, pos, units, wb)
        if enter is None:
            return Reason(Code.PROHIBITED_TERRAIN, "7", f"{fmt(b)} ({wb}) is prohibited to these units", b, ids)
        if step.used_line and step.terrain is None:
            return Reason(Code.PROHIBITED_TERRAIN, "7, 20", f"{fmt(b)} may be entered only by its bridge", b, ids)
        off_road = cost - step.line + step.terrain if step.used_line else cost
        cost = off_road - hex_cost(rs, pos, units, b) + enter
    # Rule 7: leaving the watercourse costs its second number, unless the unit follows a road
    # out of a creek hex or out of a bridged river hex (both then count as road hexes)
    on_road = step.used_line and (wa == CREEK or a in standing)
    if wa and not along(m, a, b) and not on_road:
        cost += leave_cost(rs, pos, units, wa)
    if stop and step.zoc_to:
        if all(U.is_afv(u) for u in units):
            stop = False                      # 3 A: AFVs need not stop (exit fire: activity.transit_fire)
        elif all(rs.unit_class(pos, u) == "ski" for u in units) and not _enemy_ski_next_to(pos, side, b):
            stop = False                      # 3 B: ski units stop only in an enemy ski unit's ZOC
        elif side == "german" and any(U.marked(u, "brandenburg") for u in units):
            stop = False                      # 21 B: a Brandenburg stack goes on unless found out (a roll)
    if cost != step.cost or stop != step.stop:
        return dataclasses.replace(step, cost=cost, stop=stop)
    return step


# -- the same-side exit of river hexes in thaw (Rule 16 B) ------------------------------------

def thaw_restricted(rs, pos: Position, units: list[Unit]) -> bool:
    return pos.current_weather == "thaw" and any(rs.unit_class(pos, u) in U.THAW_RIVER_CLASSES for u in units)


def _bank_step(pos: Position, standing: set, a: Hex, b: Hex, held: str | None) -> tuple[bool, str | None]:
    """(allowed, bank held after the step) for a restricted unit holding ``held``."""
    m = pos.map
    ra = water(m, a) == RIVER and a not in standing
    rb = water(m, b) == RIVER and b not in standing
    if ra and rb and along(m, a, b):
        return True, held
    if ra and held is not None and bank(m, a, b) not in (held, None):
        return False, None
    if rb:
        return True, bank(m, b, a)
    return True, None


def path_refusal(rs, pos: Position, units: list[Unit], path: list[Hex]):
    """(Reason, step) if a restricted unit leaves a river hex on the other bank in thaw."""
    if not thaw_restricted(rs, pos, units):
        return None
    standing, held = bridges(pos), None
    for n, (a, b) in enumerate(zip(path, path[1:]), start=1):
        ok, held = _bank_step(pos, standing, a, b, held)
        if not ok:
            fmt = pos.map.format
            return Reason(Code.PROHIBITED_HEXSIDE, "16 B", f"in thaw, track, wheel and draft units may cross a river "
                          f"only at a bridge: leaving {fmt(a)} for {fmt(b)} is the other bank from where the unit "
                          f"entered", b, tuple(u.id for u in units)), n
    return None


def reachable(rs, pos: Position, unit_ids, mode: str | None = None) -> Reach:
    """The shared search, or in thaw for track, wheel and draft units a search that carries the
    bank each unit entered a river hex from (so it leaves on that bank, Rule 16 B)."""
    units = moving_units(pos, unit_ids)
    if not thaw_restricted(rs, pos, units):
        return plain_reachable(pos, rs, unit_ids, mode)
    m = rs.mode(mode)
    start, why = move_start(pos, units, m, rs)
    ids = tuple(u.id for u in units)
    from ...referee import board_of
    if why is not None:
        return Reach(ids, start, Fraction(0), board_of(pos.map), refused=why)
    return priced(pos, rs, units, m, lambda ctx: _banked(ctx, start, ids))


_BANKS = (None, "left", "right")


def _banked(ctx, start: Hex, ids) -> Reach:
    board, pos = ctx.board, ctx.pos
    n = board.n
    s = board.index[start]
    reach = Reach(ids, start, ctx.ma, board, spent={s: 0}, prev={s: -1})
    standing = bridges(pos)
    # node = i + n * (bank index + 3 * stopped)
    best = {s: 0}
    prev = {s: -1}
    heap = [(0, s)]
    while heap:
        g, node = heappop(heap)
        if g != best[node]:
            continue
        i, held = node % n, _BANKS[(node // n) % 3]
        for k, j in board.nb[i]:
            if j == s:
                continue
            ok, nheld = _bank_step(pos, standing, board.hexes[i], board.hexes[j], held)
            if not ok:
                continue
            got = ctx.step(i, k, j, g, s)
            if isinstance(got, Reason):
                continue
            ng, stop = got
            nxt = j + n * (_BANKS.index(nheld) + 3 * stop)
            if ng < best.get(nxt, ng + 1):
                best[nxt] = ng
                prev[nxt] = node
                if not stop:
                    heappush(heap, (ng, nxt))
    reach.prev = prev
    goes: dict = {}
    ends: dict = {}
    for node, g in best.items():
        i = node % n
        table = ends if node // n >= 3 else goes
        if i not in table or g < best[table[i]]:
            table[i] = node
    for i, node in {**ends, **goes}.items():
        reach.spent[i] = best[node]
        reach.entry[i] = node
        if i not in goes:
            reach.stopped.add(i)
    reach.stopped.discard(s)
    return reach
