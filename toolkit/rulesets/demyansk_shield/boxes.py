"""Entering the map from a Map Box (9.3)."""

from __future__ import annotations

from fractions import Fraction

from ...hexes import Hex
from ...referee import Reason, board_of, reachable
from ...referee.board import NO
from ...referee.reasons import Code
from .features import BOX_OF_COLOUR, enemy_combat_unit_at, road_hex
from .zoc import in_enemy_zoc



def entry_box(unit) -> str:
    """The Map Box a unit enters from: AGN for the Axis, the box of its colour for the Soviet (9.33)."""
    if unit.side == "axis":
        return "agn"
    return BOX_OF_COLOUR.get(unit.counter.front.get("box"), "nwf")


def reachable_from_box(pos, rs, unit_ids, mode: str | None = None):
    """Hexes units in a Map Box can reach entering through its Entry hexes (9.35a).

    Returns ``(reach, refusals)``: ``reach`` maps each reachable hex to the MP left, and
    ``refusals`` the Entry hexes that may not be used, with the reason. The Entry hex is the
    first hex entered and costs its terrain (or the road rate if a road leaves the map there);
    an Entry hex holding an enemy combat unit may not be used; the move stops in an enemy ZOC.
    """
    units = pos.units_of(unit_ids)
    boxes = {u.box for u in units}
    if len(boxes) != 1 or None in boxes:
        raise ValueError("units entering together must all be in one Map Box")
    box_id = boxes.pop()
    box = pos.map.box(box_id)
    side = units[0].side
    ids = tuple(u.id for u in units)
    refusals: dict[Hex, Reason] = {}
    wrong = [u for u in units if entry_box(u) != box_id]
    if wrong or box is None or not box.entry:
        why = Reason(Code.CUSTOM, "9.32", f"{ids[0]} may enter only from the {entry_box(units[0]).upper()} box",
                     None, ids)
        return {}, {None: why}
    weather = pos.current_weather
    board = board_of(pos.map)
    out: dict[Hex, Fraction] = {}
    for h in box.entry:
        if enemy_combat_unit_at(pos, side, h):
            refusals[h] = Reason(Code.ENEMY_OCCUPIED, "9.35a",
                                 f"entry hex {pos.map.format(h)} holds an enemy combat unit",
                                 h, ids)
            continue
        classes = {rs.unit_class(pos, u) for u in units}
        costs = [board.enter_costs(c, weather, rs.movement.feature_costs)[board.index[h]] for c in classes]
        if NO in costs:
            refusals[h] = Reason(Code.PROHIBITED_TERRAIN, "9.35a", f"entry hex {pos.map.format(h)} is prohibited "
                                 f"terrain now", h, ids)
            continue
        cost = Fraction(max(costs), board.scale)
        if road_hex(pos, h) and not in_enemy_zoc(pos, rs, side, h):
            road = pos.map.line_types["road"].move.lookup("foot", weather)[1]
            cost = min(cost, Fraction(road))   # entering along the road (9.35a)
        trial = pos.copy()
        for u in units:
            trial.units[u.id].hex, trial.units[u.id].box = h, None
            trial.units[u.id].status.add(f"entry_cost_{str(cost).replace('/', '_')}")
        trial.touch()
        ma = min(rs.movement_allowance(trial, trial.units[u.id], rs.mode(mode)) for u in units)
        if ma < 0 or min(rs.movement_allowance(pos, u, rs.mode(mode)) for u in units) < cost:
            refusals[h] = Reason(Code.NOT_ENOUGH_MP, "9.35a", f"entry hex {pos.map.format(h)} costs {cost} MP",
                                 h, ids)
            continue
        left = Fraction(0) if in_enemy_zoc(pos, rs, side, h) else ma
        out[h] = max(out.get(h, Fraction(-1)), left)
        if left > 0:
            reach = reachable(trial, rs, list(ids), mode)
            for g in reach.hexes():
                out[g] = max(out.get(g, Fraction(-1)), reach.mp_left(g))
    return out, refusals

