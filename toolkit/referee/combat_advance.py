"""The attacker's advance after combat, applied to the position a combat left.

:func:`apply_advance` is the last step of :func:`~toolkit.referee.apply_combat`: the units the
owner names move into the hex(es) the defender vacated, or along the defender's retreat path
where the game allows (:func:`~toolkit.referee.advance_options`), within
``RetreatRules.advance_per_hex``, never of ``no_advance_types``, and within the stacking limit
when the game checks it at an advance's end (``advance_stacking``).
:func:`occupiers` answers the question 12.38's ``retreat_needs_occupier`` asks first.
"""

from __future__ import annotations

from ..hexes import Hex
from .combat_retreat import advance_checks_stacking, advance_options, end_stacking_reason
from .reasons import Code, refusal

__all__ = ["apply_advance", "occupiers"]


def occupiers(pos, rs, attackers, outcome) -> list[str]:
    """Attacking units left that could occupy the defender hex: of ``attackers``, those on the
    map, not retreated in ``outcome``, not of ``RetreatRules.no_advance_types``."""
    return [u for u in attackers if pos.unit(u).hex is not None
            and u not in outcome.retreats and pos.unit(u).type not in rs.retreat.no_advance_types]


def _targets(advance) -> dict:
    """unit id -> the hex named (None: the vacated hex), from an id, a list of ids or a dict."""
    if isinstance(advance, dict):
        return dict(advance)
    return {u: None for u in ([advance] if isinstance(advance, str) else advance)}


def apply_advance(rs, assessment, outcome, advance) -> None:
    """Advance the attacking units ``advance`` names (ids, or unit id -> hex) in
    ``outcome.position``, recording each in ``outcome.advances`` and the log; an advance the
    rules refuse raises :class:`~toolkit.errors.IllegalMoveError` citing the rule."""
    if not advance:
        return
    pos, a, fmt = outcome.position, assessment, outcome.position.map.format
    rule = rs.retreat.advance_rule or rs.retreat.rule
    targets = _targets(advance)
    vacated = [h for h in (a.defender_hexes or (a.defender_hex,))
               if not any(u.side != a.side and u.side is not None and not u.counter.is_marker for u in pos.at(h))]
    if not vacated:
        raise refusal(Code.ADVANCE_ILLEGAL, rule, f"no advance: {fmt(a.defender_hex)} is still held by the defender",
                      a.defender_hex, tuple(targets))
    groups = _groups(pos, rs, a, outcome, targets, rule)
    paths = {}
    for uid, path in outcome.retreats.items():
        if uid in a.defenders:
            paths.setdefault(path[0], path)
    for start, ids in groups.items():
        for uid in ids:
            goal = targets[uid]
            if goal is None:
                if len(vacated) > 1:
                    raise refusal(Code.ADVANCE_ILLEGAL, rule, f"several hexes were vacated: name the hex {uid} "
                                  f"advances into ({' '.join(fmt(h) for h in vacated)})", None, (uid,))
                goal = vacated[0]
            allowed = []
            for hx in vacated:
                path = paths.get(hx, [hx])
                allowed += advance_options(pos, rs, [uid], hx, path=path, hexes=max(1, len(path) - 1))
            if goal not in allowed:
                raise refusal(Code.ADVANCE_ILLEGAL, rule, f"{uid} in {fmt(start)} may not advance into {fmt(goal)}; "
                              f"it may advance into {' '.join(fmt(h) for h in dict.fromkeys(allowed)) or 'no hex'}",
                              goal, (uid,))
            targets[uid] = goal
    if advance_checks_stacking(rs):
        for goal in dict.fromkeys(targets.values()):
            movers = pos.units_of([u for u, g in targets.items() if g == goal])
            over = end_stacking_reason(pos, rs, movers, goal)
            if over is not None:
                raise refusal(Code.ADVANCE_ILLEGAL, over.rule if rs.retreat.advance_stacking is None else rule,
                              f"the advance of {', '.join(u.id for u in movers)} would end over the stacking limit: "
                              f"{over.text}", goal, tuple(u.id for u in movers))
    for uid, goal in targets.items():
        start = pos.unit(uid).hex
        pos.unit(uid).hex = goal
        outcome.advances[uid] = goal
        outcome.log.append(f"{uid} advances {fmt(start)} -> {fmt(goal)}")
    pos.touch()


def _groups(pos, rs, a, outcome, targets, rule) -> dict[Hex, list[str]]:
    """The advancing units by the hex they attacked from; each checked as one that may advance
    (it attacked, is on the map, did not retreat, may advance) and ``advance_per_hex`` kept."""
    groups: dict[Hex, list[str]] = {}
    for uid in targets:
        unit = pos.unit(uid)
        if uid not in a.attackers:
            raise refusal(Code.ADVANCE_ILLEGAL, rule, f"{uid} did not attack: only the attacking units advance",
                          unit.hex, (uid,))
        if unit.hex is None:
            raise refusal(Code.ADVANCE_ILLEGAL, rule, f"{uid} was eliminated and cannot advance", None, (uid,))
        if uid in outcome.retreats:
            raise refusal(Code.ADVANCE_ILLEGAL, rule, f"{uid} retreated and cannot advance", unit.hex, (uid,))
        if unit.type in rs.retreat.no_advance_types:
            raise refusal(Code.ADVANCE_ILLEGAL, rule, f"{uid} is {unit.type}: it never advances after combat",
                          unit.hex, (uid,))
        groups.setdefault(unit.hex, []).append(uid)
    for start, ids in groups.items():
        side = pos.unit(ids[0]).side
        most = rs.retreat.advance_per_hex.get(side)
        if most is not None and len(ids) > most:
            raise refusal(Code.ADVANCE_ILLEGAL, rule, f"only {most} unit(s) of the {side} may advance from one "
                          f"attacking hex; {', '.join(ids)} are all in {pos.map.format(start)}", start, tuple(ids))
    return groups
