"""Combat in play: the referee's assessment of a proposed attack (odds, shifts with their
rules, the distribution of results) and the seeded roll, recorded as a ``combat`` event; then
the retreats the result calls for (``retreat_options``) and the advance into the vacated hex
(``advance_options``), each an event.

The referee's combat part (``assess_combat`` / ``roll_combat`` of :mod:`toolkit.referee`) does
the work; this module checks the sequence of play (attacks happen in a combat phase, by the
phasing side, once per defending hex and attacking unit) and keeps the roll replayable: the
seed of each roll is fixed by the game's seed and the event number.
"""

from __future__ import annotations

from ..errors import IllegalMoveError, RulesError
from ..hexes import Hex
from . import sequence
from .session import Refusal, Session, refuse

__all__ = ["combat_available", "assess", "roll", "replay_combat", "after_combat", "retreat", "advance",
           "supports_of", "spent_statuses"]


def _referee():
    try:
        from ..referee import assess_combat, roll_combat
    except ImportError:
        return None
    return assess_combat, roll_combat


def combat_available(session: Session) -> bool:
    """The referee has a combat part and this game's ruleset uses it."""
    return _referee() is not None and getattr(session.rs, "combat", None) is not None


def _attacked(session: Session) -> tuple[set, set]:
    """Units that attacked and hexes attacked in the current phase."""
    units, hexes = set(), set()
    for event in reversed(session.events):
        if event["type"] == "phase":
            break
        if event["type"] == "combat":
            units.update(event["attackers"])
            hexes.add(event["defender"])
    return units, hexes


def assess(session: Session, attacker_ids: list[str], defender: Hex, supports=()):
    """The referee's assessment, after the sequence-of-play checks (refused with reasons).
    ``supports`` are ``(kind, side, points, unit, via)`` tuples (see :func:`supports_of`)."""
    if not combat_available(session):
        raise RulesError(f"the referee has no combat rules for {session.game.id}")
    session._ready()
    pos = session.pos
    units = pos.units_of(attacker_ids)
    if not units:
        raise RulesError("no attacking unit given")
    if not sequence.is_combat(pos.phase):
        raise refuse(Refusal("not-combat-phase", f"attacks are made in a combat phase; this is the {pos.phase} phase",
                             units=tuple(attacker_ids)))
    done_units, done_hexes = _attacked(session)
    for u in units:
        if pos.side is not None and u.side != pos.side:
            raise refuse(Refusal("not-phasing-side", f"{u.id} is a {u.side} unit; only {pos.side} units attack "
                                 f"in the {pos.phase} phase", units=(u.id,)))
        if u.id in done_units:
            raise refuse(Refusal("already-attacked", f"{u.id} has attacked this phase", units=(u.id,)))
    if session.fmt(defender) in done_hexes:
        raise refuse(Refusal("already-attacked", f"{session.fmt(defender)} has been attacked this phase",
                             hex=defender))
    assess_combat, _ = _referee()
    return assess_combat(pos, session.rs, [u.id for u in units], defender, supports=tuple(supports_of(list(supports))))


def supports_of(raw) -> list[tuple]:
    """Supports as ``(kind, side, points, unit, via)`` tuples from the page's objects or the
    saved lists; :class:`RulesError` naming what is malformed."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise RulesError(f"supports: expected a list, found {raw!r}")
    out = []
    for item in raw:
        if isinstance(item, dict):
            item = [item.get("kind"), item.get("side", "attacker"), item.get("points", 1), item.get("unit"),
                    item.get("via")]
        if not isinstance(item, (list, tuple)) or not 1 <= len(item) <= 5:
            raise RulesError(f"supports: expected [kind, side, points, unit, via], found {item!r}")
        kind, side, points, unit, via = (list(item) + ["attacker", 1, None, None][len(item) - 1:])[:5]
        if not isinstance(kind, str) or side not in ("attacker", "defender") \
                or not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 99 \
                or not all(x is None or isinstance(x, str) for x in (unit, via)):
            raise RulesError(f"supports: malformed support {item!r}")
        out.append((kind, side, points, unit or None, via or None))
    return out


def spent_statuses(rs) -> set[str]:
    """The statuses supports leave on the units that gave them ("fired")."""
    kinds = getattr(getattr(rs, "combat", None), "supports", None) or {}
    return {k.spent_status for k in kinds.values() if getattr(k, "spent_status", None)}


def roll(session: Session, attacker_ids: list[str], defender: Hex, supports=(), special=None) -> dict:
    """Assess and roll the attack with the session's next seed; the event records the roll,
    and units that gave support are marked spent as the referee's ``spend_supports`` says (by
    every use, or only by a special result: ``special`` names, role -> kind, the support a
    special result spends where several took part; without it such a roll is refused, saying
    which to choose, and the same seed rolls the same result again)."""
    from ..referee import special_choices, spend_supports
    supports = supports_of(list(supports))
    assessment = assess(session, attacker_ids, defender, supports)
    if not assessment.legal:
        raise refuse(*assessment.refusals)
    _, roll_combat = _referee()
    seed = session.roll_seed()
    rolled = roll_combat(session.pos, session.rs, assessment, seed=seed)
    data = rolled.to_dict()
    new = session.pos.copy()
    try:
        spent = spend_supports(new, session.rs, assessment, rolled.result, special)
    except IllegalMoveError as exc:
        asks = special_choices(session.rs, assessment, rolled.result)
        if asks:
            exc.choice = _choice_view(session, assessment, rolled, data, asks)
        raise
    event = {"type": "combat", "attackers": list(assessment.attackers), "defender": session.fmt(defender),
             "defenders": list(getattr(assessment, "defenders", ())), "supports": [list(s) for s in supports],
             "odds": assessment.odds, "column": data.get("column"), "seed": seed, "dice": data.get("dice"),
             "result": _result_text(data.get("result")), "effects": data.get("result"),
             "log": data.get("log"), "supports_spent": spent}
    if special:
        event["special"] = dict(special)
    return session.record(event, new)


def _choice_view(session: Session, assessment, rolled, data: dict, asks: dict) -> dict:
    """What the page asks when a roll's special result needs its owner's choice: the roll (the
    same seed rolls it again), and per role the owning side and the options as the rules name
    them; the answer goes back as the roll's ``special`` (role -> kind)."""
    defenders = [session.pos.units[u].side for u in getattr(assessment, "defenders", ()) if u in session.pos.units]
    sides = {"attacker": assessment.side or session.pos.side, "defender": defenders[0] if defenders else None}
    return {"rule": session.rs.combat.special_rule, "result": _result_text(data.get("result")),
            "dice": data.get("dice"), "column": data.get("column"), "seed": rolled.seed,
            "roles": {role: {"side": sides.get(role), "options": [o.to_dict() for o in options]}
                      for role, options in asks.items()}}


def _result_text(result) -> str | None:
    if isinstance(result, dict):
        return result.get("text")
    return None if result is None else str(result)


def replay_combat(session: Session, event: dict) -> dict:
    """Replay a recorded combat: the same attack rolled with the same seed (checked by the caller)."""
    from .session import event_ids
    grid = session.pos.map.grid
    supports = supports_of(event.get("supports", []))
    defender = grid.parse(event_ids(event, "defender", one=True)[0])
    assessment = assess(session, event_ids(event, "attackers"), defender, supports)
    if not assessment.legal:
        raise refuse(*assessment.refusals)
    if session.roll_seed() != event.get("seed"):
        raise RulesError(f"the recorded seed {event.get('seed')!r} is not this game's seed for event "
                         f"{len(session.events) + 1}")
    return roll(session, event_ids(event, "attackers"), defender, supports, event.get("special"))


def _last_combat(session: Session) -> dict | None:
    """The latest combat of the current phase (retreats and advances follow it)."""
    for event in reversed(session.events):
        if event["type"] == "phase":
            return None
        if event["type"] == "combat":
            return event
    return None


def _since(session: Session, combat: dict, kind: str) -> list[dict]:
    return [e for e in session.events if e["n"] > combat["n"] and e["type"] == kind]


def after_combat(session: Session) -> dict | None:
    """What the latest combat still calls for: per side ("attacker", "defender") the units,
    their hex and the retreat lengths, with the referee's retreat options; and the advance."""
    combat = _last_combat(session)
    if combat is None or not isinstance(combat.get("effects"), dict):
        return None
    pos, rs, fmt = session.pos, session.rs, session.fmt
    from ..referee import advance_options, retreat_options
    done = {u for e in _since(session, combat, "retreat") for u in e["units"]}
    out = {"combat": combat["n"], "retreats": [], "advance": None}
    for role, ids in (("attacker", combat["attackers"]), ("defender", combat.get("defenders", []))):
        effect = combat["effects"].get(role) or {}
        lengths = effect.get("retreat") or []
        extra = effect.get("requirements") or 0
        if lengths and extra:   # each requirement is a step or one more hex of retreat, the owner's choice
            lengths = sorted({n + k for n in lengths for k in range(extra + 1)})
        left = [pos.units[u] for u in ids if u in pos.units and u not in done and pos.units[u].hex is not None]
        by_hex: dict = {}
        for u in left:
            by_hex.setdefault(u.hex, []).append(u.id)
        for hex, units in by_hex.items():
            if not lengths:
                continue
            answer = retreat_options(pos, rs, units, tuple(lengths), from_hex=hex)
            out["retreats"].append({
                "role": role, "units": units, "hex": fmt(hex), "lengths": list(lengths), "requirements": extra,
                "ends": {fmt(h): {"path": [fmt(x) for x in p], "losses": answer.losses[h]} for h, p in answer.paths.items()},
                "boxes": [{"id": b, "name": getattr(pos.map.box(b), "name", b), "rule": rs.retreat.box_rule}
                          for b in answer.boxes],
                "eliminated": answer.eliminated, "reason": answer.reason.to_dict(fmt) if answer.reason else None})
    defender = session.pos.map.grid.parse(combat["defender"])
    vacated = not any(u.side != session.pos.side and not u.counter.is_marker for u in pos.at(defender))
    advanced = _since(session, combat, "advance")
    if vacated and not advanced and not out["retreats"]:
        movers = [u for u in combat["attackers"] if u in pos.units and pos.units[u].hex is not None]
        groups: dict = {}
        for uid in movers:
            groups.setdefault(pos.units[uid].hex, []).append(uid)
        path = _retreat_path(session, combat)
        out["advance"] = {"vacated": combat["defender"], "groups": [
            {"units": ids, "hex": fmt(h), "to": [fmt(x) for x in advance_options(pos, rs, ids, defender, path=path)]}
            for h, ids in groups.items()]}
    return out


def _retreat_path(session: Session, combat: dict):
    grid = session.pos.map.grid
    for e in _since(session, combat, "retreat"):
        if set(e["units"]) & set(combat.get("defenders", [])) and e.get("path"):
            return [grid.parse(h) for h in e["path"]]
    return None


def retreat(session: Session, unit_ids: list[str], dest: Hex | None, box: str | None = None) -> dict:
    """Retreat units of the latest combat to ``dest`` (one of the referee's ends) or into
    ``box`` (a Map Box the referee opens, Demyansk 12.32), or, when the referee finds no
    retreat, eliminate them."""
    session._ready()
    state = after_combat(session)
    fmt = session.fmt
    entry = next((r for r in (state or {}).get("retreats", []) if set(unit_ids) == set(r["units"])), None)
    if entry is None:
        raise refuse(Refusal("no-retreat-due", f"{', '.join(unit_ids)}: no retreat is due from the latest combat",
                             units=tuple(unit_ids)))
    new = session.pos.copy()
    if entry["eliminated"] and dest is not None:
        raise refuse(Refusal("retreat-not-allowed", f"{entry['reason']['text']} (rule {entry['reason']['rule']})",
                             rule=entry["reason"]["rule"], hex=dest, units=tuple(unit_ids)))
    if entry["eliminated"]:
        for uid in unit_ids:
            new.units[uid].hex, new.units[uid].box = None, None
        event = {"type": "retreat", "units": list(unit_ids), "path": [], "eliminated": True,
                 "reason": entry["reason"]}
        return session._push(new, {**event, **session.stage.to_dict()})
    if box is not None:
        if box not in [b["id"] for b in entry["boxes"]] or dest is not None:
            raise refuse(Refusal("retreat-not-allowed", f"{', '.join(unit_ids)} may not retreat into the {box} box; "
                                 f"the referee allows {', '.join(b['id'] for b in entry['boxes']) or 'no box'}",
                                 units=tuple(unit_ids)))
        for uid in unit_ids:
            new.units[uid].hex, new.units[uid].box = None, box
        new.touch()
        event = {"type": "retreat", "units": list(unit_ids), "path": [entry["hex"]], "box": box, "losses": 0,
                 "eliminated": False}
        return session._push(new, {**event, **session.stage.to_dict()})
    end = fmt(dest) if dest is not None else None
    if end not in entry["ends"]:
        raise refuse(Refusal("retreat-not-allowed", f"{end} is not a legal end of this retreat; the referee "
                             f"allows {', '.join(sorted(entry['ends']))}", hex=dest, units=tuple(unit_ids)))
    for uid in unit_ids:
        new.units[uid].hex = dest
    event = {"type": "retreat", "units": list(unit_ids), "path": entry["ends"][end]["path"],
             "losses": entry["ends"][end]["losses"], "eliminated": False}
    return session._push(new, {**event, **session.stage.to_dict()})


def advance(session: Session, unit_ids: list[str], dest: Hex) -> dict:
    """Advance attackers of the latest combat into ``dest`` (one of the referee's hexes)."""
    session._ready()
    state = after_combat(session)
    group = next((g for g in ((state or {}).get("advance") or {}).get("groups", [])
                  if set(unit_ids) <= set(g["units"])), None)
    if group is None:
        raise refuse(Refusal("no-advance", "no advance is open: the latest combat's hex is not vacated, its "
                             "retreats are not done, or these units did not attack it", units=tuple(unit_ids)))
    to = session.fmt(dest)
    if to not in group["to"]:
        raise refuse(Refusal("advance-not-allowed", f"{to} is not open to this advance; the referee allows "
                             f"{', '.join(group['to']) or 'none'}", hex=dest, units=tuple(unit_ids)))
    new = session.pos.copy()
    for uid in unit_ids:
        new.units[uid].hex = dest
    path = group["to"][:group["to"].index(to) + 1]
    return session._push(new, {"type": "advance", "units": list(unit_ids), "path": [group["hex"], *path],
                               **session.stage.to_dict()})
