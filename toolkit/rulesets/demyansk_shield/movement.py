"""Movement (8.0, 9.1, 9.2, 8.4) as hooks: what the shared parts cannot price.

- woods adds to the other terrain (8.31): ``feature_costs="add"`` in the parts;
- a road may not be used to enter an enemy ZOC; the unit pays the other terrain but not woods,
  and heavy units pay the road on swamp (8.36c);
- an engineer takes 1 MP off a river crossing next to it and lets heavy units cross a major
  river in Dry/Mud (8.33b, 8.35b); heavy units may not leave swamp off road in Dry/Mud (8.35a);
- +1 MP into an active enemy Strongpoint (14.13); no infiltration into one (9.23);
- strategic movement only along a friendly Supply Road (9.1); Supply Shortages (6.53),
  Receiving Replacements (15.23), exploitation conditions (8.42-8.44).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...referee import Reason, Ruleset, Step, board_of
from ...referee.reasons import Code
from .features import WET, active_strongpoint_owner, adjacent_enemy, enemy_of, in_play_area, is_heavy, road_hex
from .supply import supply_road


def movement_allowance(ma: Fraction, unit) -> Fraction:
    """``ma`` (the shared parts' allowance) less Supply Shortages (6.53) and the MP spent on a
    Map Box Entry hex (9.35a)."""
    if "shortage" in unit.status:
        ma -= 2
    for s in unit.status:
        if s.startswith("entry_cost_"):
            ma -= Fraction(s[len("entry_cost_"):].replace("_", "/"))
    return max(ma, Fraction(0))


def can_move(rs: Ruleset, pos, unit, mode) -> Reason | None:
    """Why ``unit`` may not start a move in ``mode`` beyond the shared checks (else None)."""
    weather = pos.current_weather
    ids = (unit.id,)
    if unit.value("movement", 0) == 0:
        return Reason(Code.CANNOT_MOVE, "8.0", f"{unit.id} is printed on the map (MA 0) and cannot move",
                      unit.hex, ids)
    if (is_heavy(unit) and weather in WET and unit.hex is not None and pos.map.terrain(unit.hex) == "swamp"
            and not road_hex(pos, unit.hex)):
        return Reason(Code.CANNOT_MOVE, "8.35a", f"{unit.id} ({unit.type}) is on swamp without a road in "
                      f"{weather} weather and cannot move until it is Frozen", unit.hex, ids)
    if mode.name == "strategic":
        for s, rule, what in (("shortage", "6.53", "is under Supply Shortages"),
                              ("air_transported", "7.11", "arrived by air transport this phase"),
                              ("receiving_replacements", "15.23", "is receiving replacements")):
            if s in unit.status:
                return Reason(Code.MODE_NOT_ALLOWED, rule, f"{unit.id} {what}: no strategic movement",
                              unit.hex, ids)
        if adjacent_enemy(pos, unit):
            return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{unit.id} begins adjacent to an enemy combat unit: "
                          f"no strategic movement", unit.hex, ids)
        if unit.hex not in supply_road(pos, rs, unit.side):
            return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{unit.id} at {pos.map.format(unit.hex)} is not on a "
                          f"friendly Supply Road", unit.hex, ids)
    if mode.name == "exploitation":
        if not unit.counter.front.get("em"):
            return Reason(Code.MODE_NOT_ALLOWED, "8.42a", f"{unit.id} has no Exploitation Movement box",
                          unit.hex, ids)
        if unit.type == "ski" and weather != "frozen":
            return Reason(Code.MODE_NOT_ALLOWED, "8.44", f"ski unit {unit.id} may exploit only in Frozen "
                          f"weather", unit.hex, ids)
        if "enemy_rbc" in unit.status:
            return Reason(Code.MODE_NOT_ALLOWED, "8.43", f"{unit.id} attacked a hex that Retreated Before "
                          f"Combat: no exploitation", unit.hex, ids)
    return None


def may_infiltrate(unit) -> bool:
    """Printed MA 7+ (9.22), not while Receiving Replacements (15.23)."""
    if "receiving_replacements" in unit.status:
        return False
    return Fraction(unit.counter.front.get("movement", 0) or 0) >= 7


def step_rule(rs: Ruleset, pos, units, step: Step) -> Step | Reason:
    """The Demyansk Shield say on one step (module docstring)."""
    if step.prohibited is not None:
        return step
    board = board_of(pos.map)
    side = units[0].side
    weather = pos.current_weather
    ids = tuple(u.id for u in units)
    fmt = pos.map.format
    k = board.k_of(step.a, step.b)
    heavy = any(is_heavy(u) for u in units)
    enemy_sp = active_strongpoint_owner(pos, step.b) == enemy_of(side)
    cost, stop = step.cost, step.stop
    if step.mode.name == "strategic":
        if enemy_sp:
            return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"strategic movement may not enter the active enemy "
                          f"Strongpoint at {fmt(step.b)}", step.b, ids)
        if step.b not in supply_road(pos, rs, side):
            return Reason(Code.MODE_NOT_ALLOWED, "9.11", f"{fmt(step.b)} is not part of a friendly Supply Road",
                          step.b, ids)
    if step.infiltration and enemy_sp:
        return Reason(Code.ZOC_TO_ZOC, "9.23", f"infiltration may not enter the active enemy Strongpoint at "
                      f"{fmt(step.b)}", step.b, ids)
    # 8.36c: no road rate into an enemy ZOC: the other terrain, without woods; heavy units
    # on a road onto swamp in Dry/Mud pay the road
    if step.used_line and step.zoc_to and not (heavy and weather in WET and pos.map.terrain(step.b) == "swamp"):
        if step.terrain is None:
            return Reason(Code.PROHIBITED_TERRAIN, "8.36c", f"the road may not be used to enter the enemy ZOC at "
                          f"{fmt(step.b)} and its terrain is prohibited", step.b, ids)
        cost = _cost_without_woods(pos, rs, units, k, board.index[step.b])
    # 8.35a: heavy units may not leave swamp off road in Dry/Mud
    if heavy and weather in WET and pos.map.terrain(step.a) == "swamp" and not step.used_line:
        return Reason(Code.PROHIBITED_TERRAIN, "8.35a", f"{ids[0]} may leave swamp at {fmt(step.a)} only along a "
                      f"road in {weather} weather", step.b, ids)
    rivers = [c for c in board.side_codes.get(k, ()) if c in ("river", "major_river")]
    if rivers and k not in board.bridged:
        engineer = _engineer_at(pos, side, (step.a, step.b), units)
        if "major_river" in rivers and heavy and weather in WET and not engineer:
            return Reason(Code.PROHIBITED_HEXSIDE, "8.35b", f"{ids[0]} may cross the unbridged major river into "
                          f"{fmt(step.b)} in {weather} weather only with an engineer there", step.b, ids)
        crossing = max(board.side_costs(rs.unit_class(pos, u), weather).get(k, 0) for u in units)
        if engineer and not step.used_line and crossing > 0:
            cost -= min(Fraction(1), board.to_mp(crossing))   # 8.33b: one MP off the crossing
            if any(u.type == "engineer" for u in units):
                stop = True   # an engineer that crosses at the reduced cost ceases movement
    if not in_play_area(pos, step.b):
        return Reason(Code.OFF_MAP, "19.22", f"{fmt(step.b)} is outside this scenario's map area", step.b, ids)
    if enemy_sp:
        cost += 1   # 14.13
    if step.infiltration:
        cost = step.cost   # 9.21: infiltration spends every MP whatever the terrain
    if cost == step.cost and stop == step.stop:
        return step
    return dataclasses.replace(step, cost=cost, stop=stop)


def _engineer_at(pos, side, hexes, movers) -> bool:
    for h in hexes:
        for u in pos.at(h):
            if u.side == side and u.type == "engineer":
                return True
    return any(u.type == "engineer" for u in movers)


def _cost_without_woods(pos, rs, units, k, j) -> Fraction:
    # 8.36c: woods "cease to be a movement obstacle" for a unit leaving the road into an enemy ZOC
    board = board_of(pos.map)
    weather = pos.current_weather
    worst = 0
    for cls in {rs.unit_class(pos, u) for u in units}:
        worst = max(worst, board.enter_costs(cls, weather, "ignore")[j]
                    + max(0, board.side_costs(cls, weather).get(k, 0)))
    return board.to_mp(worst)
