"""Retreats and advances after combat, on the movement board.

A retreat is a short walk of simple paths over the compiled board (:mod:`.board`): each hex
entered must be open to every retreating unit's movement class (terrain and hexsides,
lines letting units through as they do for movement), free of enemy units, placed as
:class:`~toolkit.referee.parts.RetreatRules` says relative to the hex the units retreat from,
and either out of enemy ZOC, friendly-held, or paid for with a step. A ruleset's
``retreat_priority`` hook narrows each step to the best-ranked hexes (VV 6.5.1), and
``may_retreat_into`` can lift or add a terrain prohibition.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import RulesError
from ..hexes import Hex
from .board import NO, board_of
from .position import Position, Unit
from .reasons import Code, Reason
from .zoc import enemy_zoc

__all__ = ["RetreatAnswer", "advance_options", "end_stacking_reason", "enemy_at", "may_retreat_across",
           "next_retreat_hexes", "plain_advance_options", "plain_retreat_options", "retreat_boxes", "retreat_options",
           "retreat_step_loss", "retreating_units", "zoc_retreat_options"]


@dataclass
class RetreatAnswer:
    """Where retreating units may end: ``paths`` (end hex -> the path, start first) and the steps
    each path costs in enemy ZOC (``losses``). ``eliminated`` with ``reason`` when there is no
    legal retreat."""

    units: tuple[str, ...]
    start: Hex | None
    origin: Hex | None
    lengths: tuple[int, ...]
    paths: dict = field(default_factory=dict)
    losses: dict = field(default_factory=dict)
    eliminated: bool = False
    reason: Reason | None = None
    #: end hex -> why ending there breaks the stacking rules (``RetreatRules.stacking_end``
    #: "eliminate": the retreating units are eliminated there; "phase": reported for the phase end)
    overstacked: dict = field(default_factory=dict)
    #: end hex -> why a ruleset's ``retreat_search`` dropped an end the search found (Demyansk
    #: 12.37: farther from the supply source while a nearer end exists)
    dropped: dict = field(default_factory=dict)
    #: Map Boxes the units may retreat straight into, crossing no hex, whatever the length (the
    #: ruleset's ``retreat_boxes``, Demyansk 12.32); ends like the hexes of ``paths``
    boxes: tuple[str, ...] = ()

    def hexes(self) -> list[Hex]:
        """The hexes the retreat may end in, in map order."""
        return sorted(self.paths)

    def to_dict(self, fmt) -> dict:
        return {"units": list(self.units), "start": fmt(self.start) if self.start else None,
                "from": fmt(self.origin) if self.origin else None, "lengths": list(self.lengths),
                "eliminated": self.eliminated, "reason": self.reason.to_dict(fmt) if self.reason else None,
                "ends": [{"hex": fmt(h), "path": [fmt(p) for p in self.paths[h]], "losses": self.losses[h],
                          "stacking": self.overstacked[h].to_dict(fmt) if h in self.overstacked else None}
                         for h in self.hexes()],
                "boxes": list(self.boxes),
                "dropped": [{"hex": fmt(h), "reason": r.to_dict(fmt)} for h, r in sorted(self.dropped.items())]}


def retreating_units(pos: Position, unit_ids) -> list[Unit]:
    """The units of ``unit_ids``, all on the map in one hex; RulesError naming the one that is not."""
    units = pos.units_of(unit_ids)
    if not units:
        raise RulesError("no retreating unit given")
    if any(u.hex is None for u in units):
        off = next(u for u in units if u.hex is None)
        raise RulesError(f"{off.id} is not on the map")
    if len({u.hex for u in units}) > 1:
        raise RulesError("retreating units must start in one hex")
    return units


def enemy_at(pos, rs, side, h) -> bool:
    """Whether a unit of ``side``'s enemy stands in ``h`` (markers and the ruleset's
    ``retreat.ignore_types`` do not count)."""
    ignore = rs.retreat.ignore_types
    return any(u.side not in (side, None) and not u.counter.is_marker and u.type not in ignore for u in pos.at(h))


def _friend_at(pos, side, movers, h) -> bool:
    return any(u.side == side and u.id not in movers and not u.counter.is_marker for u in pos.at(h))


def may_retreat_across(pos: Position, rs, units: list[Unit], a: Hex, b: Hex) -> bool:
    """True if every retreating unit may go from ``a`` into ``b`` (terrain and hexside)."""
    hooked = rs.may_retreat_into(pos, units, a, b)
    if hooked is not None:
        return hooked
    board = board_of(pos.map)
    weather = pos.current_weather
    k = board.k_of(a, b)
    if k is None:
        return False
    for cls in {rs.unit_class(pos, u) for u in units}:
        if board.enter_costs(cls, weather, rs.movement.feature_costs)[board.index[b]] == NO \
                and k not in board.line_codes:
            return False
        if board.side_costs(cls, weather, rs.movement.bridges_ignore_hexsides).get(k, 0) == NO:
            return False
    return True


def retreat_step_loss(pos: Position, rs, units: list[Unit], h: Hex) -> int | None:
    """Steps lost entering ``h``: 0, 1 (a vacant enemy-ZOC hex under ``enemy_zoc="loss"``), or
    None when the hex may not be entered (``"forbidden"``). A ruleset's ``retreat_loss(pos,
    units, h)`` method decides first unless it returns ``NotImplemented`` (A Victory Denied 9.5.4:
    a German motorised unit entering a hex that holds a German unit loses nothing)."""
    custom = getattr(rs, "retreat_loss", None)
    if custom is not None:
        lost = custom(pos, units, h)
        if lost is not NotImplemented:
            return lost
    r = rs.retreat
    side = units[0].side
    board = board_of(pos.map)
    if not enemy_zoc(pos, rs, side)[board.index[h]]:
        return 0
    if r.friendly_negates and _friend_at(pos, side, {u.id for u in units}, h):
        return 0
    return {"forbidden": None, "loss": 1}.get(r.enemy_zoc, 0)


def stacking_end_mode(rs) -> str:
    """``RetreatRules.stacking_end`` as "forbidden", "eliminate" or "phase"."""
    mode = rs.retreat.stacking_end
    return {True: "forbidden", False: "phase", None: "phase"}.get(mode, mode)


def end_stacking_reason(pos: Position, rs, units: list[Unit], h: Hex) -> Reason | None:
    """Why ``units`` (retreating or advancing together) ending in ``h`` break the stacking
    rules there, citing ``RetreatRules.stacking_rule``, else the stacking rule; None when they
    do not (a violation the hex already had without them does not count)."""
    from .stacking import stack_reasons
    ids = {u.id for u in units}
    side = units[0].side
    others = [u for u in pos.at(h) if u.id not in ids]
    had = {x.code for x in stack_reasons(pos, rs, h, others) if x.code != Code.STACKING_ENEMY}
    for x in stack_reasons(pos, rs, h, others + list(units)):
        if x.code != Code.STACKING_ENEMY and x.code not in had and \
                (not x.units or any(u in pos.units and pos.units[u].side == side for u in x.units)):
            return Reason(x.code, rs.retreat.stacking_rule or x.rule, x.text, h, tuple(sorted(ids)))
    return None


def next_retreat_hexes(pos: Position, rs, unit_ids, path: list[Hex], origin: Hex | None = None,
                       ranked: bool = True) -> list[Hex]:
    """The hexes the next step of a retreat along ``path`` (start first) may enter: open,
    placed as ``RetreatRules.away`` says, and (``ranked``) best-ranked by the ruleset's
    ``retreat_priority``."""
    units = retreating_units(pos, unit_ids)
    side = units[0].side
    origin = origin or path[0]
    grid = pos.map.grid
    here = path[-1]
    away = rs.retreat.away
    out = []
    for n in grid.neighbours(here):
        if n in path or n not in grid or enemy_at(pos, rs, side, n):
            continue
        if away == "farther" and grid.distance(origin, n) <= grid.distance(origin, here):
            continue
        if away == "not-nearer" and grid.distance(origin, n) < grid.distance(origin, here):
            continue
        if not may_retreat_across(pos, rs, units, here, n) or retreat_step_loss(pos, rs, units, n) is None:
            continue
        out.append(n)
    keys = {h: rs.retreat_priority(pos, units, h, path) for h in out} if ranked else {}
    if out and ranked and all(k is not None for k in keys.values()):
        best = min(keys.values())
        out = [h for h in out if keys[h] == best]
    return out


def retreat_options(pos: Position, rs, unit_ids, length, *, from_hex: Hex | None = None) -> RetreatAnswer:
    """Where ``unit_ids`` (one hex) may end a retreat of ``length`` hexes (an int, or the
    lengths the owner may choose among), retreating away from ``from_hex`` (default their hex).
    Each end keeps one path (the first found with the fewest ZOC losses). A ruleset with a
    ``retreat_search(pos, unit_ids, length, from_hex)`` method answers instead (a game whose
    retreat picks among whole paths, A Victory Denied 9.5.3); it may call
    :func:`plain_retreat_options`. ``boxes`` lists the Map Boxes the ruleset's ``retreat_boxes``
    opens (:func:`retreat_boxes`); units with a box to go to are not ``eliminated``."""
    custom = getattr(rs, "retreat_search", None)
    if custom is not None:
        answer = custom(pos, unit_ids, length, from_hex=from_hex)
    else:
        answer = plain_retreat_options(pos, rs, unit_ids, length, from_hex=from_hex)
    answer.boxes = tuple(retreat_boxes(pos, rs, unit_ids))
    if answer.boxes and answer.eliminated:
        answer.eliminated, answer.reason = False, None
    return answer


def retreat_boxes(pos: Position, rs, unit_ids) -> list[str]:
    """The Map Boxes ``unit_ids`` (one stack) may retreat straight into from their hex: the
    ruleset's ``retreat_boxes(pos, units)`` hook (Demyansk 12.32: from an Entry hex into its
    friendly Map Box); none without the hook."""
    hook = getattr(rs, "retreat_boxes", None)
    return list(hook(pos, pos.units_of(unit_ids))) if hook is not None else []


def plain_retreat_options(pos: Position, rs, unit_ids, length, *, from_hex: Hex | None = None) -> RetreatAnswer:
    """:func:`retreat_options` without the ruleset's ``retreat_search``."""
    units = retreating_units(pos, unit_ids)
    lengths = tuple(sorted({int(x) for x in ((length,) if isinstance(length, int) else length)}))
    if not lengths or lengths[0] < 1:
        raise RulesError(f"a retreat is at least one hex, not {length!r}")
    start = units[0].hex
    ids = tuple(u.id for u in units)
    answer = RetreatAnswer(ids, start, from_hex or start, lengths)
    r = rs.retreat
    frontier = [([start], 0)]
    for step in range(1, lengths[-1] + 1):
        nxt = []
        for path, lost in frontier:
            for n in next_retreat_hexes(pos, rs, ids, path, answer.origin):
                nxt.append((path + [n], lost + retreat_step_loss(pos, rs, units, n)))
        if step in lengths:
            for path, lost in nxt:
                end = path[-1]
                if end in answer.paths and answer.losses[end] <= lost:
                    continue
                over = end_stacking_reason(pos, rs, units, end)
                if over is not None:
                    if stacking_end_mode(rs) == "forbidden":
                        continue
                    answer.overstacked[end] = over
                answer.paths[end] = path
                answer.losses[end] = lost
        frontier = nxt
    if not answer.paths:
        answer.eliminated = True
        answer.reason = Reason(Code.RETREAT_BLOCKED, r.rule, f"no legal retreat of {' or '.join(map(str, lengths))} "
                               f"hex(es) from {pos.map.format(start)}: the retreating units are eliminated",
                               start, ids)
    return answer


def zoc_retreat_options(pos: Position, rs, unit_ids, *, from_hex: Hex | None = None) -> RetreatAnswer:
    """Where ``unit_ids`` may end a retreat through an enemy ZOC (``RetreatRules.zoc_retreat_rule``,
    Demyansk 12.43-12.44): two hexes, the first a vacant enemy-ZOC hex the normal retreat may not
    enter, the second one it may end in; ``losses`` is the step the first hex costs. Asked when
    :func:`retreat_options` finds no legal retreat."""
    import dataclasses
    units = retreating_units(pos, unit_ids)
    relaxed = dataclasses.replace(rs, retreat=dataclasses.replace(rs.retreat, enemy_zoc="allowed"))
    answer = retreat_options(pos, relaxed, unit_ids, 2, from_hex=from_hex)
    out = RetreatAnswer(answer.units, answer.start, answer.origin, (2,))
    for end, path in answer.paths.items():
        if retreat_step_loss(pos, rs, units, path[1]) is None and retreat_step_loss(pos, rs, units, end) is not None:
            out.paths[end] = path
            out.losses[end] = 1
            if end in answer.overstacked:
                out.overstacked[end] = answer.overstacked[end]
    if not out.paths:
        out.eliminated = True
        out.reason = Reason(Code.RETREAT_BLOCKED, rs.retreat.zoc_retreat_rule or rs.retreat.rule,
                            f"no retreat through an enemy ZOC from {pos.map.format(answer.start)} either: the "
                            "retreating units are eliminated", answer.start, answer.units)
    return out


def advance_options(pos: Position, rs, unit_ids, vacated_hex: Hex, *, path: list[Hex] | None = None,
                    hexes: int | None = None) -> list[Hex]:
    """Hexes ``unit_ids`` may advance into after combat: the ``vacated_hex`` (next to them), then
    along the defeated units' retreat ``path`` (vacated hex first) up to ``hexes`` hexes when
    ``RetreatRules.advance`` is "retreat", stopping where the rules stop an advance in enemy ZOC.
    The hexes must be empty of enemy units and open to the advancing units' movement. A ruleset
    with an ``advance_search(pos, unit_ids, vacated_hex, path, hexes)`` method answers instead
    (a second hex in any direction, Grossdeutschland 10.6, A Victory Denied 9.6); it may call
    :func:`plain_advance_options`."""
    custom = getattr(rs, "advance_search", None)
    if custom is not None:
        return custom(pos, unit_ids, vacated_hex, path=path, hexes=hexes)
    return plain_advance_options(pos, rs, unit_ids, vacated_hex, path=path, hexes=hexes)


def plain_advance_options(pos: Position, rs, unit_ids, vacated_hex: Hex, *, path: list[Hex] | None = None,
                          hexes: int | None = None) -> list[Hex]:
    """:func:`advance_options` without the ruleset's ``advance_search``."""
    units = retreating_units(pos, unit_ids)
    r = rs.retreat
    grid = pos.map.grid
    side = units[0].side
    start = units[0].hex
    if not grid.adjacent(start, vacated_hex) or enemy_at(pos, rs, side, vacated_hex) \
            or not may_retreat_across(pos, rs, units, start, vacated_hex) or any(u.type in r.no_advance_types for u in units):
        return []
    if r.advance == "retreat":
        limit = max(1, hexes if hexes is not None else len(path or [vacated_hex]))
    else:
        limit = max(1, int(r.advance))
    route = list(path or [vacated_hex])
    if route[0] != vacated_hex:
        route = [vacated_hex, *route]
    board = board_of(pos.map)
    ez = enemy_zoc(pos, rs, side)
    free = r.advance_ignore_zoc_classes
    stops_at = r.advance_zoc_stop
    out, zocs, here = [], 0, start
    for h in route[:limit]:
        if enemy_at(pos, rs, side, h) or not grid.adjacent(here, h) or not may_retreat_across(pos, rs, units, here, h):
            break
        out.append(h)
        if stops_at is not None and ez[board.index[h]] and not all(rs.unit_class(pos, u) in free for u in units):
            zocs += 1
            if zocs >= stops_at:
                break
        here = h
    if advance_checks_stacking(rs):
        out = [h for h in out if end_stacking_reason(pos, rs, units, h) is None]
    return out


def advance_checks_stacking(rs) -> bool:
    """Whether an advance may not end over the stacking limit: ``RetreatRules.advance_stacking``,
    else checked when ``StackingRules.when`` checks a move's end ("move", "always")."""
    if rs.retreat.advance_stacking is not None:
        return bool(rs.retreat.advance_stacking)
    return rs.stacking.when in ("move", "always")
