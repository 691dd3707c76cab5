"""Combat in play: the referee's assessment of a proposed attack (odds, shifts with their
rules, the distribution of results) and the seeded roll, recorded as a ``combat`` event.

The referee's combat part (``assess_combat`` / ``roll_combat`` of :mod:`toolkit.referee`) does
the work; this module checks the sequence of play (attacks happen in a combat phase, by the
phasing side, once per defending hex and attacking unit) and keeps the roll replayable: the
seed of each roll is fixed by the game's seed and the event number.
"""

from __future__ import annotations

from ..errors import RulesError
from ..hexes import Hex
from . import sequence
from .session import Refusal, Session, refuse

__all__ = ["combat_available", "assess", "roll", "replay_combat"]


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
    """The referee's assessment, after the sequence-of-play checks (refused with reasons)."""
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
    return assess_combat(pos, session.rs, [u.id for u in units], defender, supports=tuple(supports))


def roll(session: Session, attacker_ids: list[str], defender: Hex, supports=()) -> dict:
    """Assess and roll the attack with the session's next seed; the event records the roll."""
    assessment = assess(session, attacker_ids, defender, supports)
    if not assessment.legal:
        raise refuse(*assessment.refusals)
    _, roll_combat = _referee()
    seed = session.roll_seed()
    rolled = roll_combat(session.pos, session.rs, assessment, seed=seed)
    data = rolled.to_dict()
    event = {"type": "combat", "attackers": list(assessment.attackers), "defender": session.fmt(defender),
             "defenders": list(getattr(assessment, "defenders", ())), "supports": [list(s) for s in supports],
             "odds": assessment.odds, "column": data.get("column"), "seed": seed, "dice": data.get("dice"),
             "result": _result_text(data.get("result")), "effects": data.get("result"), "log": data.get("log")}
    return session.record(event)


def _result_text(result) -> str | None:
    if isinstance(result, dict):
        return result.get("text")
    return None if result is None else str(result)


def replay_combat(session: Session, event: dict) -> dict:
    """Replay a recorded combat: the same attack rolled with the same seed (checked by the caller)."""
    from .session import event_ids
    grid = session.pos.map.grid
    raw = event.get("supports", [])
    if not isinstance(raw, list) or not all(isinstance(s, list) for s in raw):
        raise RulesError(f"supports: expected a list of [kind, side, points], found {raw!r}")
    supports = [tuple(s) for s in raw]
    defender = grid.parse(event_ids(event, "defender", one=True)[0])
    assessment = assess(session, event_ids(event, "attackers"), defender, supports)
    if not assessment.legal:
        raise refuse(*assessment.refusals)
    if session.roll_seed() != event.get("seed"):
        raise RulesError(f"the recorded seed {event.get('seed')!r} is not this game's seed for event "
                         f"{len(session.events) + 1}")
    return roll(session, event_ids(event, "attackers"), defender, supports)
