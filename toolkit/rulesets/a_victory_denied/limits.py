"""Combat limits kept in ``Position.state`` (plain data, written by ``--apply``): one attack per
unit and per hex in a Combat Segment (9.1.1, 9.1.4), the ART chit's number of attacks and one
artillery or rocket attack a hex a turn (13.2), the rocket and the bomber once a game (13.2,
13.3), and the Stuka counters (13.3).

A Combat Segment follows each activation (a drawn chit); it is named by the position's turn and
phase, the attacking side and the context's ``chit`` (the drawn chit's id): a record whose
segment differs from the attack's is an earlier segment's and counts for nothing, so the limits
reset at each new segment without a separate step. Without ``chit`` two chits of one side in
one turn and phase share a segment: give it once a side draws a second chit.

The Stuka counters are the position's ``m-stuka`` units: available in the ``luftwaffe`` box
(3.12), set aside (off the map, no box) once used, one put back when the Air Power chit is drawn
(:func:`return_stuka`). A position that holds no Stuka counter (a hand-built one) is not
checked for them. The bomber (``m-bomber``) and the rocket (``m-rocket``) leave play when used.
"""

from __future__ import annotations

from ...referee import Reason
from ...referee.reasons import Code

SEGMENT = "combat_segment"
FIXED_STATE = "fixed_attacks"
STUKA, BOMBER, ROCKET = "m-stuka", "m-bomber", "m-rocket"
AIRFIELDS = "luftwaffe"


def segment_key(pos, side: str, context: dict) -> list:
    """The Combat Segment an attack of ``side`` belongs to (module docstring)."""
    return [pos.turn, side, pos.phase, context.get("chit")]


def _segment(pos, side: str, context: dict) -> dict:
    key = segment_key(pos, side, context)
    rec = pos.state.get(SEGMENT) or {}
    if rec.get("key") != key:
        return {"key": key, "units": [], "hexes": []}
    return {"key": key, "units": list(rec.get("units") or []), "hexes": list(rec.get("hexes") or [])}


def segment_refusals(pos, combat) -> list[Reason]:
    """9.1.1: a unit that already attacked this segment; 9.1.4: a hex already attacked."""
    side = combat.attackers[0].side
    rec = _segment(pos, side, combat.context)
    out = []
    again = [u.id for u in combat.attackers if u.id in rec["units"]]
    if again:
        out.append(Reason(Code.CANNOT_ATTACK, "9.1.1", f"{', '.join(again)} already attacked in this Combat Segment: "
                          "an activated unit participates in only one attack a segment", combat.defender_hex,
                          tuple(again)))
    if pos.map.format(combat.defender_hex) in rec["hexes"]:
        out.append(Reason(Code.CANNOT_ATTACK, "9.1.4", f"{pos.map.format(combat.defender_hex)} was already attacked "
                          "in this Combat Segment: a hex is attacked only once a segment (units attacking it "
                          "together are one combat)", combat.defender_hex, tuple(u.id for u in combat.attackers)))
    return out


def _air(pos, counter_id: str) -> list:
    return [u for u in pos.units.values() if u.counter.id == counter_id]


def stuka_refusals(pos, side: str, context: dict, hex) -> list[Reason]:
    """13.3: a Stuka is played from the Luftwaffe Airfields box (when the position holds them)."""
    stuka = context.get("stuka")
    if stuka is None or (stuka == "attack") != (side == "german"):
        return []
    stukas = _air(pos, STUKA)
    if stukas and not any(u.box == AIRFIELDS and u.hex is None for u in stukas):
        return [Reason(Code.CANNOT_ATTACK, "13.3", "no Stuka counter in the Luftwaffe Airfields box: a used Stuka "
                       "is set aside until an Air Power chit puts one back", hex)]
    return []


def _fixed(pos) -> dict:
    rec = dict(pos.state.get(FIXED_STATE) or {})
    if rec.get("turn") != pos.turn:                 # 13.2: the artillery limits are per turn
        rec = {"turn": pos.turn, "used_rocket": rec.get("used_rocket"), "used_bomber": rec.get("used_bomber")}
    rec.setdefault("hexes", [])
    rec.setdefault("art", 0)
    return rec


def fixed_refusals(pos, kind: str, context: dict, hex) -> list[Reason]:
    """13.2: as many artillery attacks as half the ART chit's d6 (``context["art_roll"]``, once
    a turn), one artillery or rocket attack a hex a turn, the rocket once a game; 13.3: the
    bomber once a game, on the Air Power chit (when ``context["chit"]`` is given)."""
    from .combat import art_attacks
    rec = _fixed(pos)
    fmt = pos.map.format(hex)
    out = []
    if kind in ("art", "rocket") and fmt in rec["hexes"]:
        out.append(Reason(Code.CANNOT_ATTACK, "13.2", f"{fmt} was already attacked by artillery or rockets this turn",
                          hex))
    if kind == "art":
        roll = context.get("art_roll", rec.get("art_roll"))
        if rec.get("art_roll") is not None and context.get("art_roll") not in (None, rec["art_roll"]):
            out.append(Reason(Code.CANNOT_ATTACK, "13.2", f"the ART chit's die this turn was {rec['art_roll']}, not "
                              f"{context['art_roll']}", hex))
        elif roll is not None:
            if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 6:
                from ...errors import RulesError
                raise RulesError(f"art_roll is the ART chit's d6, 1-6, not {roll!r}")
            if rec["art"] >= art_attacks(roll):
                out.append(Reason(Code.CANNOT_ATTACK, "13.2", f"the ART chit's {roll} gives {art_attacks(roll)} "
                                  f"artillery attack(s) this turn and {rec['art']} were made", hex))
    if kind == "rocket" and (rec.get("used_rocket") is not None or
                             (_air(pos, ROCKET) and all(u.hex is None and u.box is None for u in _air(pos, ROCKET)))):
        out.append(Reason(Code.CANNOT_ATTACK, "13.2", "the rocket attack is made once a game and was made", hex))
    if kind == "bomber":
        bombers = _air(pos, BOMBER)
        if rec.get("used_bomber") is not None or (bombers and not any(u.box == AIRFIELDS for u in bombers)):
            out.append(Reason(Code.CANNOT_ATTACK, "13.3", "the Bomber is used once a game and was used", hex))
        chit = context.get("chit")
        if chit is not None and chit != "c-air":
            out.append(Reason(Code.CANNOT_ATTACK, "13.3", f"the Bomber attacks only when the Air Power chit is drawn, "
                              f"not {chit}", hex))
    return out


def record(before, outcome, assessment) -> None:
    """Write what the applied combat used into ``outcome.position.state`` (``after_combat``)."""
    from .fixed import FIXED
    pos = outcome.position
    context = assessment.context
    kind = context.get("fixed")
    if context.get("stuka") is not None and any(m.rule.startswith("9.3.4") for m in assessment.modifiers
                                                if m.rule):
        ready = [u for u in _air(pos, STUKA) if u.box == AIRFIELDS and u.hex is None]
        if ready:
            ready[0].box = None
            outcome.log.append(f"{ready[0].id} used: set aside (13.3)")
    if kind in FIXED:
        rec = _fixed(pos)
        if kind in ("art", "rocket"):
            rec["hexes"] = [*rec["hexes"], pos.map.format(assessment.defender_hex)]
        if kind == "art":
            rec["art"] += 1
            if context.get("art_roll") is not None:
                rec["art_roll"] = context["art_roll"]
        else:
            rec[f"used_{kind}"] = pos.turn
            for u in _air(pos, ROCKET if kind == "rocket" else BOMBER)[:1]:
                u.hex, u.box = None, None
                outcome.log.append(f"{u.id} removed from play (13.2, 13.3: once a game)")
        pos.state[FIXED_STATE] = rec
        return
    rec = _segment(pos, assessment.side, context)
    rec["units"] = [*rec["units"], *(u for u in assessment.attackers if u not in rec["units"])]
    rec["hexes"] = [*rec["hexes"], pos.map.format(assessment.defender_hex)]
    pos.state[SEGMENT] = rec


def return_stuka(pos) -> str | None:
    """13.3: when the Air Power chit is drawn one used Stuka goes back to the Luftwaffe Airfields
    box. Edits ``pos``; the id of the Stuka put back, or None when none was used."""
    for u in _air(pos, STUKA):
        if u.hex is None and u.box is None:
            u.box = AIRFIELDS
            pos.touch()
            return u.id
    return None
