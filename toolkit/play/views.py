"""What the page is shown, as JSON-ready dicts: the board, the position, "Where", a hex's
terrain and costs, and the overlays (enemy ZOC, supply, line of sight, command ranges).

Everything here is asked of the referee on the session's current position; hexes are printed
ids and MP are exact fractions as strings ("5/2").
"""

from __future__ import annotations

from ..charts import combat_text
from ..errors import IllegalMoveError, RulesError
from ..hexes import Hex, Layout
from ..referee import (command_range, end_stacking, enemy_zoc, line_of_sight, reachable,
                       supply_status)
from ..referee.board import board_of
from ..referee.steps import fmt_mp
from . import sequence
from .combat import after_combat, combat_available
from .session import Session

__all__ = ["prepare", "board_view", "position_view", "where_view", "hex_view", "zoc_view", "supply_view",
           "los_view", "command_view", "parse_hex"]


def parse_hex(session: Session, text: str) -> Hex:
    """A printed hex id of the current map; :class:`RulesError` if malformed or off the map."""
    grid = session.pos.map.grid
    try:
        hex = grid.parse(str(text))
    except Exception as exc:
        raise RulesError(f"bad hex {text!r}: {exc}") from None
    if hex not in grid:
        raise RulesError(f"hex {text} is not on map {session.pos.map_id}")
    return hex


def prepare(session: Session) -> None:
    """Build what every "Where" of this position needs (the compiled board, each side's enemy
    ZOC) when the position changes, so that selecting a unit only runs the search."""
    pos = session.pos
    board_of(pos.map)
    for side in pos.sides():
        enemy_zoc(pos, session.rs, side)
        # one search per side fills the per-position caches the ruleset's hooks keep
        unit = next((u for u in pos.on_map(side) if not u.counter.is_marker), None)
        if unit is not None:
            reachable(pos, session.rs, unit.id)


def board_view(session: Session, layout: Layout, image_size: tuple[int, int], counter_px: int) -> dict:
    """What does not change during play: the map's hexes in image pixels, sides, boxes,
    turns, the sequence of play and the movement modes."""
    pos, game = session.pos, session.game
    m = pos.map
    scen = game.scenarios.get(pos.scenario) if pos.scenario else None
    return {
        "game": {"id": game.id, "name": game.name, "ruleset": session.rs.name},
        "sides": [{"id": s.id, "name": s.name, "colour": s.colour, "text": s.text_colour} for s in game.sides],
        "map": {"id": m.id, "name": m.name, "width": image_size[0], "height": image_size[1],
                "flat": m.grid.flat, "radius": layout.radius, "size": layout.size, "counter": counter_px,
                "hexes": [[m.format(h), *(round(c, 2) for c in layout.center(h))] for h in m.grid]},
        "boxes": [{"id": b.id, "name": b.name, "side": b.side} for b in m.boxes],
        "turns": [{"number": t.number, "date": t.date, "weather": t.weather} for t in (scen.turns if scen else [])],
        "scenario": {"id": scen.id, "name": scen.name, "victory": scen.victory} if scen else None,
        "arrivals": {str(t): ", ".join(u for r in scen.reinforcements if r.turn == t for u in r.units)
                     for t in sorted({r.turn for r in scen.reinforcements})} if scen else {},
        "sequence": [{"side": s, "phase": p} for s, p in sequence.stages(game, session.first_side)],
        "modes": sorted(session.rs.movement.modes),
        "combat": combat_available(session),
        "supports": [{"kind": k, "rule": r.rule, "sides": list(r.sides), "max_points": r.max_points,
                      "unit_types": list(r.unit_types), "shift": r.shift, "spent": r.spent_status,
                      "off_map": r.range_value is None}
                     for k, r in sorted(session.rs.combat.supports.items())] if combat_available(session) else [],
        "weathers": list(m.weathers),
    }


def position_view(session: Session) -> dict:
    """The position now: stage, weather, every unit, the event log and what may be done."""
    pos = session.pos
    fmt = pos.map.format
    rs = session.rs
    units = []
    for u in pos.units.values():
        units.append({
            "id": u.id, "counter": u.counter.id, "name": u.counter.name, "side": u.side, "type": u.type,
            "marker": u.counter.is_marker, "hex": fmt(u.hex) if u.hex is not None else None, "box": u.box,
            "steps": u.steps, "full": u.counter.steps, "reduced": u.reduced, "status": sorted(u.status),
            "moved": u.moved, "ma": fmt_mp(rs.movement_allowance(pos, u, rs.mode(None))),
            "eliminated": u.hex is None and u.box is None,
        })
    stage = session.stage
    return {
        "stage": stage.to_dict(), "weather": pos.current_weather,
        "movement": sequence.is_movement(stage.phase), "combat": sequence.is_combat(stage.phase),
        "units": units, "events": session.events, "pending": len(session.pending),
        "can_undo": session.can_undo(), "seed": session.seed,
        "after_combat": after_combat(session) if combat_available(session) else None,
    }


def where_view(session: Session, unit_ids: list[str], mode: str | None = None) -> dict:
    """"Where": every hex the units can reach with the MP left on arrival and the cheapest
    path, whether the move may end there (stacking), and why the units may not move now."""
    pos, rs = session.pos, session.rs
    reach = reachable(pos, rs, unit_ids, mode)
    fmt = pos.map.format
    names: dict = {}

    def name(h):   # each hex id formatted once: paths share most of their hexes
        text = names.get(h)
        if text is None:
            text = names[h] = fmt(h)
        return text

    movers = pos.units_of(unit_ids)
    stopped = {reach.board.hexes[i] for i in reach.stopped}
    entries = []
    for h in reach.hexes():
        entry = {"hex": name(h), "mp_left": fmt_mp(reach.mp_left(h)), "cost": fmt_mp(reach.cost(h)),
                 "stops": h in stopped, "path": [name(p) for p in reach.path(h)]}
        why = end_stacking(pos, rs, movers, h, mode)
        entry["can_end"] = why is None
        if why is not None:
            entry["why_not"] = why.to_dict(fmt)
        entries.append(entry)
    data = {"units": list(reach.units), "start": name(reach.start) if reach.start else None,
            "ma": fmt_mp(reach.ma), "count": len(reach),
            "refused": reach.refused.to_dict(fmt) if reach.refused else None, "hexes": entries}
    data["blocked"] = None
    try:
        session._ready()
        session._movers(unit_ids)
    except IllegalMoveError as exc:
        data["blocked"] = exc.reasons[0].to_dict(pos.map.format)
    return data


def _cost(table, unit_class: str, weather: str) -> str | None:
    found, cost = table.lookup(unit_class, weather)
    if not found:
        return None             # the chart gives none (a feature: the hex's other terrain counts)
    return "prohibited" if cost is None else fmt_mp(cost)


def hex_view(session: Session, hex: Hex, unit_ids: list[str] | None = None) -> dict:
    """A hex's terrain, features, hexsides and lines with their TEC costs for the selected
    unit's movement class (the map's first class when none is selected) in the weather now."""
    pos, rs = session.pos, session.rs
    m = pos.map
    fmt = m.format
    unit = pos.unit(unit_ids[0]) if unit_ids else None
    unit_class = rs.unit_class(pos, unit) if unit else m.unit_classes[0]
    weather = pos.current_weather
    tt = m.terrain_types

    def terrain(code):
        t = tt.get(code)
        return {"code": code, "name": t.name if t else code, "cost": _cost(t.move, unit_class, weather) if t else "?",
                "combat": combat_text(t.combat) if t else ""}

    sides = []
    for direction, side in m.grid.hexsides(hex):
        codes = m.hexside_codes(side)
        if not codes:
            continue
        other = side.b if side.a == hex else side.a
        sides.append({"direction": direction, "to": fmt(other) if other in m.grid else None,
                      "features": [{"code": c, "name": m.hexside_types[c].name if c in m.hexside_types else c,
                                    "cost": _cost(m.hexside_types[c].move, unit_class, weather)
                                    if c in m.hexside_types else "?"} for c in codes]})
    lines = sorted({ln.code for ln in m.lines if hex in ln.hexes})
    place = m.place_at(hex)
    victory = [v for v in m.victory if v.hex == hex]
    ez = enemy_zoc(pos, rs, unit.side if unit else pos.side)[board_of(m).index[hex]]
    return {
        "hex": fmt(hex), "class": unit_class, "weather": weather,
        "terrain": terrain(m.terrain(hex)) if m.terrain(hex) else None,
        "features": [terrain(c) for c in m.features(hex)],
        "hexsides": sides,
        "lines": [{"code": c, "name": m.line_types[c].name if c in m.line_types else c,
                   "cost": _cost(m.line_types[c].move, unit_class, weather) if c in m.line_types else "?"}
                  for c in lines],
        "place": {"name": place.name, "kind": place.kind} if place else None,
        "victory": [{"points": v.points, "side": v.side} for v in victory],
        "units": [u.id for u in pos.at(hex)],
        "enemy_zoc": ez,
    }


def zoc_view(session: Session, side: str) -> dict:
    """Hexes in the ZOC of ``side``'s enemies (what ``side``'s units must respect)."""
    pos = session.pos
    _side(session, side)
    board = board_of(pos.map)
    counts = enemy_zoc(pos, session.rs, side)
    return {"side": side, "rule": session.rs.zoc.rule,
            "hexes": [pos.map.format(board.hexes[i]) for i, c in enumerate(counts) if c]}


def supply_view(session: Session, side: str) -> dict:
    """Supply of ``side`` now: the hexes supply reaches, the supply road, each unit's status
    and line to its source, and the reason for each unsupplied unit."""
    pos = session.pos
    _side(session, side)
    fmt = pos.map.format
    result = supply_status(pos, session.rs, side)
    data = result.to_dict(fmt)
    data["reached"] = sorted(fmt(h) for h in result.reached)
    data["road"] = sorted(fmt(h) for h in result.road)
    data["rule"] = session.rs.supply.rule
    return data


def los_view(session: Session, a: Hex, b: Hex) -> dict:
    pos = session.pos
    fmt = pos.map.format
    sight = line_of_sight(pos, session.rs, a, b)
    return {"from": fmt(a), "to": fmt(b), "visible": sight.visible, "hexes": [fmt(h) for h in sight.hexes],
            "blocked_by": fmt(sight.blocked_by) if sight.blocked_by else None,
            "reason": sight.reason.to_dict(fmt) if sight.reason else None, "rule": session.rs.los.rule}


def command_view(session: Session, side: str) -> dict:
    """Each HQ of ``side`` on the map: its radius, the hexes within it and the units in range."""
    pos, rs = session.pos, session.rs
    _side(session, side)
    fmt = pos.map.format
    grid = pos.map.grid
    out = []
    for u in pos.on_map(side):
        if u.type not in rs.command.hq_types:
            continue
        radius = rs.command.radius if rs.command.radius is not None else u.value(rs.command.range_value)
        if not isinstance(radius, int):
            out.append({"hq": u.id, "hex": fmt(u.hex), "radius": None, "hexes": [], "units": [],
                        "note": f"no {rs.command.range_value!r} value printed on {u.id}"})
            continue
        out.append({"hq": u.id, "hex": fmt(u.hex), "radius": radius,
                    "hexes": [fmt(h) for h in grid.within(u.hex, radius) if h in grid],
                    "units": command_range(pos, rs, u.id)})
    return {"side": side, "rule": rs.command.rule, "hqs": out}


def _side(session: Session, side: str) -> None:
    if side not in session.pos.sides():
        raise RulesError(f"unknown side {side!r}; the game has {', '.join(session.pos.sides())}")
