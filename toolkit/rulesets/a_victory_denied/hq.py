"""HQ special rules as referee questions: the overrun of a lone enemy HQ by a moving combat
unit (8.1.4, 12.1) and HQ relocation (12.6), which an overrun, the loss of an HQ's stack (12.2)
and the Supply Phase (10.4) call for.

An overrun is not part of the shared movement search (which never enters an enemy hex): "the
HQ is simply relocated when the combat unit enters the HQ's hex", so from the moment of entry
the hex is empty. :func:`overrun_hq` therefore asks the shared search on the position with that
HQ lifted: the unit pays the hex's own cost (terrain, rivers, enemy ZOC; the HQ exerts none,
6.1) and nothing more, and may move on (no stop is written). Strategic movement may not come
next to an enemy HQ (8.3.1), so it never overruns."""

from __future__ import annotations

from ...hexes import Hex
from ...referee import Position, Reason, board_of, reachable, supply_trace
from ...referee.reasons import Code
from ...referee.zoc import enemy_zoc, occupied
from .ruleset import in_pocket


def _sources(pos: Position, rs, side: str) -> list[Hex]:
    out = []
    for item in rs.supply_sources(pos, side):
        if isinstance(item, Hex):
            out.append(item)
        elif getattr(item, "trace", False):
            out.extend(item.hexes)
    return sorted(set(out))


def lone_hq(pos: Position, side: str, hex: Hex):
    """The enemy HQ alone on ``hex`` (no enemy combat unit with it), or None."""
    enemy = [u for u in pos.at(hex) if u.side not in (side, None) and not u.counter.is_marker]
    if len(enemy) == 1 and enemy[0].counter.kind == "hq":
        return enemy[0]
    return None


def hq_relocation(pos: Position, rs, hq_id: str, from_hex: Hex | None = None) -> dict:
    """Where the HQ ``hq_id`` may be relocated (12.6). The destination is at least 4 hexes from
    ``from_hex`` (default: the HQ's hex), not in enemy ZOC, able to trace a supply line (10.2.2),
    and a legal stack for an HQ (5.1-5.2: no enemy, no other HQ; German HQs never in the Minsk
    Pocket, 14). The path is the shortest possible with each hex closer to the same friendly
    supply source: every step lowers the hex distance to one source, and the answer is the
    qualifying hexes nearest ``from_hex`` along such paths, over every source (the owner picks).
    Option ``relocation_path`` (notes 14.4.7): ``ignore`` (default) measures the path ignoring
    units and ZOC; ``blocked`` lets no hex of the path hold an enemy unit or lie in enemy ZOC.
    No destination: the HQ is eliminated."""
    hq = pos.unit(hq_id)
    if hq.counter.kind != "hq":
        raise ValueError(f"{hq_id} is not an HQ")
    start = from_hex if from_hex is not None else hq.hex
    if start is None:
        raise ValueError(f"{hq_id} is not on the map and no hex to relocate from was given")
    side, grid = hq.side, pos.map.grid
    lifted = pos.copy()
    lifted.place(hq_id, None)
    sources = _sources(lifted, rs, side)
    trace = supply_trace(lifted, rs, side, sources)
    ezoc = enemy_zoc(lifted, rs, side)
    enemy = occupied(lifted, side, True)
    index = board_of(pos.map).index
    blocked_path = rs.option(pos, "relocation_path") == "blocked"

    def passable(h: Hex) -> bool:
        return not blocked_path or not (enemy[index[h]] or ezoc[index[h]])

    def qualifies(h: Hex) -> bool:
        if grid.distance(start, h) < 4 or ezoc[index[h]] or enemy[index[h]] or not trace.reaches(h):
            return False
        if any(u.counter.kind == "hq" for u in lifted.at(h)):
            return False                                         # 5.1: never two HQs
        return not (side == "german" and in_pocket(pos, h))     # 14

    best: dict[Hex, dict] = {}
    for src in sources:
        # breadth first from the start, each step one hex closer to ``src``
        prev: dict[Hex, Hex | None] = {start: None}
        frontier, steps = [start], 0
        found: list[Hex] = []
        while frontier and not found:
            steps += 1
            nxt = []
            for h in frontier:
                d = grid.distance(h, src)
                for n in grid.neighbours(h):
                    if n in grid and n not in prev and grid.distance(n, src) == d - 1 and passable(n):
                        prev[n] = h
                        nxt.append(n)
            found = [h for h in nxt if qualifies(h)]
            frontier = nxt
        for h in found:
            path = [h]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            entry = best.get(h)
            if entry is None or steps < entry["length"]:
                best[h] = {"length": steps, "source": src, "path": path[::-1]}
    if best:
        shortest = min(e["length"] for e in best.values())
        best = {h: e for h, e in best.items() if e["length"] == shortest}
    return {"rule": "12.6", "hq": hq_id, "from": start, "eliminated": not best,
            "destinations": sorted(best), "paths": {h: e["path"] for h, e in best.items()},
            "sources": {h: e["source"] for h, e in best.items()}}


def overrun_hq(pos: Position, rs, unit_ids, hex: Hex, mode: str | None = None) -> dict:
    """May the moving combat unit(s) ``unit_ids`` overrun the lone enemy HQ on ``hex`` by
    entering it (8.1.4, 12.1)? Returns ``{"rule", "hq", "refused", "path", "mp_left",
    "relocation"}``: ``refused`` is a :class:`Reason` or None; on success ``path`` and ``mp_left``
    are the move to ``hex`` with the HQ lifted (its MP cost is the hex's own; the move may go
    on), and ``relocation`` the HQ's fate (:func:`hq_relocation`)."""
    ids = tuple(unit_ids)
    if not ids:
        raise ValueError("no unit to move")
    units = pos.units_of(ids)
    out = {"rule": "12.1", "hq": None, "refused": None, "path": [], "mp_left": None, "relocation": None}
    fmt = pos.map.format(hex)
    side = units[0].side
    for u in units:
        if u.counter.kind != "unit":
            out["refused"] = Reason(Code.CANNOT_MOVE, "12.1", f"{u.id} is not a combat unit: only combat units "
                                    "overrun an HQ", hex, ids)
            return out
    hq = lone_hq(pos, side, hex)
    if hq is None:
        out["refused"] = Reason(Code.ENEMY_OCCUPIED, "5.2", f"{fmt} does not hold a lone enemy HQ: only a lone "
                                "HQ is overrun", hex, ids)
        return out
    out["hq"] = hq.id
    if mode == "strategic":
        out["refused"] = Reason(Code.MODE_NOT_ALLOWED, "8.3.1", "strategic movement may not move adjacent to an enemy "
                                f"HQ, so it never overruns {hq.id} at {fmt}", hex, ids)
        return out
    lifted = pos.copy()
    lifted.place(hq.id, None)
    reach = reachable(lifted, rs, ids, mode)
    if reach.refused is not None:
        out["refused"] = reach.refused
        return out
    if hex not in reach:
        out["refused"] = Reason(Code.CUSTOM, "8.1.2", f"{', '.join(ids)} cannot reach {fmt} this move "
                                "(MP, terrain, rivers or ZOC)", hex, ids)
        return out
    out["path"], out["mp_left"] = reach.path(hex), reach.mp_left(hex)
    entered = pos.copy()                  # the instant of entry: the unit(s) on the HQ's hex
    for uid in ids:
        entered.place(uid, hex)
    out["relocation"] = hq_relocation(entered, rs, hq.id, hex)
    return out


def _relocate(pos: Position, rs, hq_id: str, from_hex: Hex, chosen, log: list, why: str) -> None:
    """Relocate ``hq_id`` on ``pos`` (12.6) to the owner's ``chosen`` hex (a hex or its text), or
    the only destination; none: eliminated. Several and none chosen: IllegalMoveError."""
    from ...errors import IllegalMoveError
    answer = hq_relocation(pos, rs, hq_id, from_hex)
    fmt = pos.map.format
    hq = pos.unit(hq_id)
    if answer["eliminated"]:
        hq.hex = None
        log.append(f"{hq_id} cannot be relocated ({why}): eliminated (12.6)")
        return
    ends = answer["destinations"]
    if chosen is not None:
        chosen = _parse(pos, chosen, f"relocate:{hq_id}")
    if chosen is None and len(ends) == 1:
        chosen = ends[0]
    if chosen not in ends:
        what = (f"{fmt(chosen)} is not a relocation hex" if chosen is not None else "its owner must choose where")
        reason = Reason(Code.COMBAT_CHOICE, "12.6", f"{hq_id} is relocated ({why}): {what}; it may go to "
                        f"{' '.join(fmt(h) for h in ends)} (choice relocate:{hq_id}=HEX)", from_hex, (hq_id,))
        raise IllegalMoveError(str(reason), [reason])
    hq.hex = chosen
    log.append(f"{hq_id} relocated {fmt(from_hex)} -> {fmt(chosen)} ({why}; 12.6)")


def _parse(pos, text, what: str):
    if isinstance(text, Hex):
        return text
    from ...errors import HexforgeError, RulesError
    try:
        return pos.map.grid.parse(str(text))
    except HexforgeError as exc:
        raise RulesError(f"{what}={text}: not a hex of the map ({exc})") from None


def advance_hqs(before: Position, outcome, assessment, chosen: dict) -> None:
    """12.4: an HQ stacked with attacking combat units at the start of the combat may advance with
    them, at the attacker's option (``chosen``: HQ id -> hex, ``--choice advance:HQ=HEX``): it
    ends in a hex one of those units advanced to (two hexes with motorised units that advanced
    two), and never where another friendly HQ stands (5.1). Edits ``outcome``."""
    from ...errors import IllegalMoveError
    pos = outcome.position
    fmt = pos.map.format
    for hq_id, where in chosen.items():
        hq = before.unit(hq_id)
        goal = _parse(pos, where, f"advance:{hq_id}")

        def refuse(text: str):
            reason = Reason(Code.ADVANCE_ILLEGAL, "12.4", f"{hq_id} may not advance to {fmt(goal)}: {text}", goal,
                            (hq_id,))
            raise IllegalMoveError(str(reason), [reason])
        if hq.counter.kind != "hq" or hq.side != assessment.side or hq.hex is None:
            refuse(f"it is not an HQ of the attacker ({assessment.side}) on the map")
        mates = [u.id for u in before.at(hq.hex) if u.id in assessment.attackers and u.counter.kind == "unit"]
        if not mates:
            refuse(f"no attacking combat unit stood with it in {fmt(hq.hex)} at the start of the combat")
        ends = sorted({outcome.advances[m] for m in mates if m in outcome.advances})
        if goal not in ends:
            refuse("an HQ advances only with the combat units of its stack, into a hex one of them advanced to ("
                   + (" ".join(fmt(h) for h in ends) or f"none of {', '.join(mates)} advanced") + ")")
        if any(u.counter.kind == "hq" and u.side == hq.side and u.id != hq_id for u in pos.at(goal)):
            refuse("another friendly HQ is there (5.1: one HQ a hex)")
        pos.unit(hq_id).hex = goal
        pos.touch()
        outcome.advances[hq_id] = goal
        outcome.log.append(f"{hq_id} advances with its stack {fmt(hq.hex)} -> {fmt(goal)} (12.4)")


def after_combat(rs, before: Position, outcome, assessment, choices: dict) -> None:
    """The HQ rules of combat on an applied outcome (``apply_combat``'s hook): an HQ never loses
    a step (12.2: taking one from it when a combat unit of its side still had steps is refused);
    it retreats with its stack (12.3, done by the shared retreat); it is relocated when every
    combat unit stacked with it is eliminated (12.2), and when a retreating or advancing enemy
    unit enters its hex while it stands alone (9.5.7, 9.6.4, 12.1). ``choices["relocate"]``
    maps an HQ to the hex its owner relocates it to (:func:`hq_relocation`); ``choices["advance"]``
    an attacking HQ to the hex it advances to with its stack (12.4, :func:`advance_hqs`)."""
    from ...errors import IllegalMoveError
    from .fixed import FIXED
    pos = outcome.position
    if outcome.advances and assessment.ratio.split(" ")[0] in FIXED:       # "art 3-1": no unit attacked
        reason = Reason(Code.ADVANCE_ILLEGAL, "13.2", "no advance after an artillery, rocket or bomber attack",
                        assessment.defender_hex, tuple(outcome.advances))
        raise IllegalMoveError(str(reason), [reason])
    chosen = dict(choices.get("relocate") or {})
    advance_hqs(before, outcome, assessment, dict(choices.get("advance") or {}))
    involved = [u for u in (*assessment.attackers, *assessment.defenders)]
    hqs = [uid for uid in involved if before.unit(uid).counter.kind == "hq"]
    for uid in hqs:
        start = before.unit(uid).hex
        mates = [u.id for u in before.at(start) if u.side == before.unit(uid).side and u.counter.kind == "unit"
                 and u.id in involved]
        survivors = [m for m in mates if pos.unit(m).hex is not None]
        if uid in outcome.losses:
            if survivors:
                reason = Reason(Code.COMBAT_CHOICE, "12.2", f"{uid} is an HQ: it never loses a step; the combat "
                                f"units ({', '.join(mates)}) take the losses", start, (uid,))
                raise IllegalMoveError(str(reason), [reason])
            del outcome.losses[uid]                          # 12.2: not eliminated by combat
            if uid in outcome.eliminated:
                outcome.eliminated.remove(uid)
            unit = pos.unit(uid)
            unit.hex, unit.box, unit.steps = start, None, before.unit(uid).steps
            outcome.retreats.pop(uid, None)
        if mates and not survivors:
            unit = pos.unit(uid)
            unit.hex = start
            outcome.retreats.pop(uid, None)
            lifted = pos.copy()
            _relocate(lifted, rs, uid, start, chosen.get(uid), outcome.log, "its stack was eliminated")
            unit.hex = lifted.unit(uid).hex
    moves = [(uid, path[1:]) for uid, path in outcome.retreats.items()]
    moves += [(uid, [h]) for uid, h in outcome.advances.items()]
    for uid, hexes in moves:
        mover = pos.unit(uid)
        if mover.hex is None or mover.counter.kind != "unit":
            continue                                       # 9.5.7: eliminated on entering: no overrun
        for h in hexes:
            hq = lone_hq(before, mover.side, h)
            if hq is None or pos.unit(hq.id).hex != h:
                continue
            entered = pos.copy()
            entered.place(uid, h)
            _relocate(entered, rs, hq.id, h, chosen.get(hq.id), outcome.log,
                      f"overrun by {uid} {'retreating' if uid in outcome.retreats else 'advancing'}")
            pos.unit(hq.id).hex = entered.unit(hq.id).hex
