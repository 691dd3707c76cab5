"""Applying a rolled White Death fire to a position: strength points lost, eliminations (the
intrinsic garrison recorded in ``state.garrisons_eliminated``), the two-hex retreats of failed
and routed units (14 B, 14 C.1), the impulse's restrictions (``state.combat``: units that
barraged, that may not fire defensively or may not assault), and the advance into a cleared
hex (9 D, 10 E, 14 B.3) through the shared ``advance_options``; the supply points the fire adds to
its impulse's cost are taken from the pools the position records (15 A,
:func:`~.logistics.charge_fire`).

A retreat is two hexes, each farther from the hex left, through enemy ZOC at the cost of one
strength point however many it crosses; one ending in enemy ZOC, or over the stacking limit,
goes on hex by hex (4, 14 C.1); with no legal end the unit is eliminated. The owner names the
end hex (``retreats``: "attacker"/"defender" -> hex or path, or start hex -> end) when there is
a choice.
"""

from __future__ import annotations

from ...errors import IllegalMoveError, RulesError
from ...hexes import Hex
from ...referee import CombatOutcome, Reason, advance_options, end_stacking, retreat_options
from ...referee.board import board_of
from ...referee.reasons import Code
from ...referee.zoc import enemy_zoc

__all__ = ["apply", "retreat_ends", "MAX_RETREAT"]

MAX_RETREAT = 6           # hexes a retreat may be extended to (4, 14 C.1) before the unit is eliminated
ELIMINATED_BOX = "eliminated"


def _refuse(code, rule, text, hex=None, units=()):
    reason = Reason(code, rule, text, hex, tuple(units))
    return IllegalMoveError(str(reason), [reason])


def retreat_ends(pos, rs, uid: str):
    """``(length, {end: path}, {end: ZOC points})`` of a retreat of ``uid`` (14 B, 14 C.1, 4):
    two hexes, longer while every end is in enemy ZOC or over the stacking limit; ``(None,
    {}, {})`` when no retreat up to :data:`MAX_RETREAT` hexes ends legally."""
    unit = pos.unit(uid)
    board = board_of(pos.map)
    zoc = enemy_zoc(pos, rs, unit.side)
    for length in range(2, MAX_RETREAT + 1):
        answer = retreat_options(pos, rs, [uid], length)
        ends = {h: p for h, p in answer.paths.items() if not zoc[board.index[h]] and not _overstacked(pos, rs, unit, h)}
        if ends:
            return length, ends, {h: min(1, answer.losses[h]) for h in ends}
        if not answer.paths and length > 2:
            break
    return None, {}, {}


def _overstacked(pos, rs, unit, hex) -> bool:
    """4: the retreating unit would break the stacking limit at ``hex``."""
    from ...referee import stack_reasons
    there = [u for u in pos.at(hex) if u.id != unit.id] + [unit]
    return bool(stack_reasons(pos, rs, hex, there))


def _choice(retreats, role, start):
    where = (retreats or {}).get(role)
    if isinstance(where, dict):
        return where.get(start)
    return where


def _eliminate(pos, out, uid, why):
    unit = pos.unit(uid)
    box = ELIMINATED_BOX if pos.map.box(ELIMINATED_BOX) is not None else None
    out.losses[uid] = out.losses.get(uid, 0) + unit.steps
    out.eliminated.append(uid)
    unit.hex, unit.box = None, box
    out.log.append(f"{uid} eliminated: {why}" + (f" (to box {box})" if box else " (off the map)"))
    pos.touch()


def _mark(pos, kind, uid):
    combat = pos.state.setdefault("combat", {})
    got = combat.setdefault(kind, [])
    if uid not in got:
        got.append(uid)


def _retreat(pos, rs, out, uid, role, retreats):
    unit = pos.unit(uid)
    start = unit.hex
    fmt = pos.map.format
    length, ends, zoc = retreat_ends(pos, rs, uid)
    if length is None:
        _eliminate(pos, out, uid, f"no legal retreat from {fmt(start)} (14 C.1)")
        return
    want = _choice(retreats, role, start)
    path = None
    if isinstance(want, (list, tuple)) and not isinstance(want, Hex):
        path = [start, *[h for h in want if h != start]]
        want = path[-1]
    if want is None:
        if len(ends) > 1:
            raise _refuse(Code.COMBAT_CHOICE, "14 B", f"{uid} retreats {length} hexes from {fmt(start)}: name the end "
                          f"hex (--retreat {role}=HEX), one of {' '.join(fmt(h) for h in sorted(ends))}", start, [uid])
        want = next(iter(ends))
    if want not in ends or (path is not None and path != ends[want] and len(path) != len(ends[want])):
        raise _refuse(Code.RETREAT_ILLEGAL, "14 B", f"{uid} may not end its retreat of {length} hexes from "
                      f"{fmt(start)} in {fmt(want)}; it may end in {' '.join(fmt(h) for h in sorted(ends))}",
                      want, [uid])
    route = ends[want]
    unit.hex = want
    pos.touch()
    out.retreats[uid] = list(route)
    out.log.append(f"{uid} retreats {' '.join(fmt(h) for h in route)}")
    if zoc[want]:
        if unit.steps <= 1:
            _eliminate(pos, out, uid, "its last strength point lost retreating through enemy ZOC (14 C.1)")
        else:
            unit.steps -= 1
            out.losses[uid] = out.losses.get(uid, 0) + 1
            out.log.append(f"{uid} loses 1 SP retreating through enemy ZOC (14 C.1)")


def apply(pos, rs, a, roll, *, losses=None, retreats=None, advance=None) -> CombatOutcome:
    """Apply ``roll`` (a :class:`~.assessment.FireRoll` of ``a``) to a copy of ``pos``."""
    if not a.legal:
        raise RulesError("the fire is not legal: " + "; ".join(str(r) for r in a.refusals))
    if losses:
        raise RulesError("White Death losses fall on the unit fired at (9 C.4, 10 C.3, 11 B.2.b): "
                         "there is no --loss to choose")
    for role in (retreats or {}):
        if role not in ("attacker", "defender"):
            raise RulesError(f"a retreat is for the attacker or the defender, not {role!r}")
    work = pos.copy()
    out = CombatOutcome(work, roll, log=[roll.log])
    fmt = work.map.format
    role = a.fired_at
    for uid, o in roll.outcomes.items():
        if uid.startswith("garrison@"):
            if o.eliminated:
                gone = work.state.setdefault("garrisons_eliminated", [])
                gone.append(uid.split("@", 1)[1])
                out.eliminated.append(uid)
                out.losses[uid] = 1
                out.log.append(f"the intrinsic garrison of {uid.split('@', 1)[1]} is eliminated (p.35)")
            continue
        unit = work.unit(uid)
        if o.eliminated:
            _eliminate(work, out, uid, o.text)
            continue
        if o.lost:
            unit.steps -= o.lost
            out.losses[uid] = out.losses.get(uid, 0) + o.lost
            out.log.append(f"{uid} loses {o.lost} SP ({unit.steps + o.lost} -> {unit.steps}): {o.text}")
            work.touch()
        if o.retreat:
            _retreat(work, rs, out, uid, role, retreats)
        elif o.check in ("fail", "rout") and a.fire == "defensive":
            _mark(work, "no_assault", uid)
            out.log.append(f"{uid} may not assault this impulse (14 B.2)")
        elif o.check in ("fail", "rout") and a.fire == "barrage":
            _mark(work, "no_defensive_fire", uid)
            out.log.append(f"{uid} may not fire defensively this impulse (14 B.1)")
    if a.fire == "barrage":
        for uid in a.attackers:
            _mark(work, "barraged", uid)
    else:                             # a unit assaults one hex; no target is fired at twice a phase (9 C.3)
        assaults = work.state.setdefault("combat", {}).setdefault("assaults", {})
        for uid in a.attackers:
            assaults[uid] = fmt(a.defender_hex)
        for uid in roll.outcomes:
            if not uid.startswith("garrison@"):
                _mark(work, f"fired_{a.fire}", uid)
    unused = [r for r in (retreats or {}) if not any(u in out.retreats for u in roll.outcomes)]
    if unused:
        raise _refuse(Code.RETREAT_ILLEGAL, "14 B", f"no unit retreats on this roll: --retreat {unused[0]} is not used")
    _advance(work, rs, a, out, advance)
    from .assessment import barrage_choices
    from .logistics import charge_fire
    charge_fire(work, rs, a, barrage_choices(a.context)[0], out.log)
    return out


def _advance(pos, rs, a, out, advance) -> None:
    """9 D, 10 E, 14 B.3: assaulting units may move into the hex cleared of defenders."""
    if not advance:
        return
    ids = list(advance) if not isinstance(advance, str) else [advance]
    hx = a.defender_hex
    fmt = pos.map.format
    if a.fire != "assault":
        raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", "only assaulting units advance, after assault fire", hx, ids)
    from .fire import garrison_unit
    held = [u.id for u in pos.at(hx) if u.side != a.side and not u.counter.is_marker]
    if held or garrison_unit(pos, hx) is not None:
        raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", f"{fmt(hx)} is not cleared of defenders "
                      f"({', '.join(held) or 'the intrinsic garrison'})", hx, ids)
    for uid in ids:
        if uid not in a.attackers:
            raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", f"{uid} did not assault: only assaulting units advance", None,
                          [uid])
        if isinstance(advance, dict) and advance[uid] not in (None, hx):
            raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", f"{uid} may advance only into the vacated hex {fmt(hx)}",
                          advance[uid], [uid])
        unit = pos.unit(uid)
        if unit.hex is None or uid in out.retreats:
            raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", f"{uid} was eliminated or retreated", unit.hex, [uid])
        if hx not in advance_options(pos, rs, [uid], hx):
            raise _refuse(Code.ADVANCE_ILLEGAL, "9 D", f"{uid} in {fmt(unit.hex)} may not enter {fmt(hx)}",
                          hx, [uid])
    movers = pos.units_of(ids)
    why = end_stacking(pos, rs, movers, hx)
    if why is not None:
        raise _refuse(Code.ADVANCE_ILLEGAL, "14 B.3", f"the advance breaks the stacking limit: {why.text}", hx, ids)
    for uid in ids:
        start = pos.unit(uid).hex
        pos.unit(uid).hex = hx
        out.advances[uid] = hx
        out.log.append(f"{uid} advances {fmt(start)} -> {fmt(hx)}")
    pos.touch()
