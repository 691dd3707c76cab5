"""Artillery (Rule 11): support missions added to conventional fire (11 A), barrage values
(11 B.2), and observation of the barraged hex (11 B.3) with its line of sight.

Each function answers for one unit and gives a :class:`~toolkit.referee.Reason` when the rules
forbid it; the values are exact (halving beyond half range keeps fractions).
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil

from ...hexes import Hexside
from ...referee import Reason, line_of_sight
from ...referee.reasons import Code
from . import units as U
from .logistics import barrage_factor

__all__ = ["barrage_value", "observed", "observers_for", "sees", "support_value", "used"]

OBS_RANGE = 2            # 11 B.3.b
OBS_BATTALION_RANGE = 7  # 11 B.3.d
SLOPE = "slope"
HIGH = "high_ground"


def used(pos, kind: str) -> set:
    """Units marked in ``state.combat[kind]`` this impulse ("barraged", "no_defensive_fire",
    "no_assault"; cleared when the next impulse is declared)."""
    return set((pos.state.get("combat") or {}).get(kind, ()))


def _range(unit) -> int:
    return int(U.fraction(unit.counter.front.get("range", 0) or 0))


def _deployed(unit) -> bool:
    return "deployed" in unit.status


def _artillery_supplied(pos, rs, unit) -> bool:
    from .supply import artillery_supply
    got = pos.cached("white-death-artillery-supply", rs, unit.side,
                     lambda: artillery_supply(pos, rs, unit.side).supplied)
    return unit.id in got


def _not_ready(pos, unit, code, rule: str, barraged: str) -> Reason | None:
    """Why ``unit`` may not fire indirectly now: not artillery, off the map, not deployed
    (6 B.2), or it barraged this impulse (11 B.1)."""
    ids = (unit.id,)
    if not U.is_artillery(unit):
        return Reason(code, "11", f"{unit.id} is not artillery (no range and barrage factor)", unit.hex, ids)
    if unit.hex is None:
        return Reason(Code.NOT_ON_MAP, rule, f"{unit.id} is not on the map", None, ids)
    if not _deployed(unit):
        return Reason(code, rule, f"{unit.id} is not deployed (6 B.2: 1 MP)", unit.hex, ids)
    if unit.id in used(pos, "barraged"):
        return Reason(code, "11 B.1", f"{unit.id} {barraged}", unit.hex, ids)
    return None


def _in_range(pos, unit, hex, code, rule: str):
    """``(distance, range, refusal)``: indirect fire reaches its printed range (11 A.2, 11 B.2.a)."""
    fmt = pos.map.format
    dist, rng = pos.map.grid.distance(unit.hex, hex), _range(unit)
    why = None if dist <= rng else Reason(code, rule, f"{unit.id} in {fmt(unit.hex)} (range {rng}) is {dist} hexes "
                                          f"from {fmt(hex)}", unit.hex, (unit.id,))
    return dist, rng, why


def _halved(value, dist: int, rng: int, rule: str, notes: list):
    """Beyond half range the value is halved, fractions kept (11 A.2, 11 B.2.a)."""
    if 2 * dist > rng:
        notes.append((rule, f"{dist} hexes is beyond half range ({rng}): halved"))
        return value / 2
    return value


def support_value(pos, rs, unit, to_hex, *, formation: str | None, high_intensity: bool = True):
    """``(value, notes, refusal)`` of ``unit``'s support mission to the stack in ``to_hex``
    (11 A): deployed artillery within its printed range, halved beyond half range; Soviet
    artillery only for its own division or brigade (``formation``, the controlling HQ's),
    never non-divisional; support factor 1 at low intensity (15 A.4) or out of traced supply
    (15 B)."""
    ids = (unit.id,)
    refused = Code.SUPPORT_REFUSED
    why = _not_ready(pos, unit, refused, "11 A", "fired a barrage this impulse")
    if why is None and unit.side == "soviet":
        if U.marked(unit, "non-divisional") or not unit.counter.front.get("support"):
            why = Reason(refused, "11 A.1", f"{unit.id} is non-divisional: Soviet non-divisional artillery may not "
                         "fire support", unit.hex, ids)
        elif formation is not None and U.formation(unit) != formation:
            why = Reason(refused, "11 A.1", f"{unit.id} ({U.formation(unit)}) may support only stacks of its own "
                         f"division or brigade; the controlling HQ is {formation}", unit.hex, ids)
    if why is None:
        dist, rng, why = _in_range(pos, unit, to_hex, refused, "11 A.2")
    if why is not None:
        return Fraction(0), [], why
    notes = []
    factor = U.fraction(unit.counter.front.get("support", 0) or 0)
    if not high_intensity:
        factor = Fraction(1)
        notes.append(("15 A.4", "low intensity: support factor 1"))
    elif not _artillery_supplied(pos, rs, unit):
        factor = Fraction(1)
        notes.append(("15 B", "out of traced supply: support factor 1"))
    return _halved(factor * U.strength(unit), dist, rng, "11 A.2", notes), notes, None


def barrage_value(pos, rs, unit, target, *, sp_spent: int = 2):
    """``(value, notes, refusal)`` of ``unit``'s barrage on ``target`` (11 B): deployed,
    supplied (15 B) artillery within its range, barrage factor (German rockets at half value
    without 3 SP, 15 A.3) x strength, halved beyond half range."""
    why = _not_ready(pos, unit, Code.CANNOT_ATTACK, "11 B",
                     "already barraged a hex this impulse (one hex per barraging unit)")
    if why is None and not _artillery_supplied(pos, rs, unit):
        why = Reason(Code.SUPPLY_NONE, "15 B", f"{unit.id} is out of traced supply and may not barrage", unit.hex,
                     (unit.id,))
    if why is None:
        dist, rng, why = _in_range(pos, unit, target, Code.CANNOT_ATTACK, "11 B.2.a")
    if why is not None:
        return Fraction(0), [], why
    notes = []
    factor = barrage_factor(unit, sp_spent)
    if factor != U.fraction(unit.counter.front.get("barrage", 0)):
        notes.append(("15 A.3", f"rocket artillery at half value without 3 SP: factor {factor}"))
    return _halved(factor * U.strength(unit), dist, rng, "11 B.2.a", notes), notes, None


def observers_for(pos, firer) -> list:
    """Units that may observe for ``firer`` (11 B.3.a): any German unit for a German one; for
    Soviet artillery, itself, any Soviet unit for non-divisional artillery, else the units of
    its own division or brigade."""
    side = [u for u in pos.on_map(firer.side) if not u.counter.is_marker and not U.is_bunker(u)]
    if firer.side == "german":
        return side
    if U.marked(firer, "non-divisional"):
        return side
    return [u for u in side if u.id == firer.id or U.formation(u) == U.formation(firer)]


def _down_slope_blocks(pos, origin, line) -> bool:
    """11 B.3.c: a line may not be traced down across a slope hexside except from a unit
    adjacent to it."""
    m = pos.map
    for a, b in zip(line, line[1:]):
        if a == origin:
            continue
        if SLOPE in m.hexside_codes(Hexside.of(a, b)) and HIGH in m.features(a) and HIGH not in m.features(b):
            return True
    return False


def sees(pos, rs, observer, target, *, target_units=()) -> bool:
    """Whether ``observer`` observes hex ``target`` (11 B.3.b-e): two hexes, three from the high
    side of an adjacent slope traced across it or from high ground onto lower ground, one more
    to see a deployed Guards rocket regiment, seven for the observation battalion onto
    deployed Soviet artillery, only adjacent hexes in snow; the line free of town and forest
    between the ends and not down across a slope away from the observer."""
    m = pos.map
    o = observer.hex
    if o is None:
        return False
    dist = m.grid.distance(o, target)
    if dist == 0:
        return True
    if pos.current_weather == "snow":
        return dist <= 1
    reach = OBS_RANGE
    line = m.grid.line(o, target)
    if HIGH in m.features(o) and HIGH not in m.features(target):
        reach = 3
    elif len(line) > 1 and SLOPE in m.hexside_codes(Hexside.of(o, line[1])) and HIGH in m.features(o) \
            and HIGH not in m.features(line[1]):
        reach = 3
    if any(u.type == "rocket artillery" and u.side == "soviet" and "deployed" in u.status for u in target_units):
        reach += 1
    if U.marked(observer, "observation") and any(U.is_artillery(u) and u.side == "soviet" and
                                                 "deployed" in u.status for u in target_units):
        reach = max(reach, OBS_BATTALION_RANGE)
    if dist > reach:
        return False
    if not line_of_sight(pos, rs, o, target).visible:
        return False
    return not _down_slope_blocks(pos, o, line)


def observed(pos, rs, firers, target) -> tuple[bool, int, list]:
    """``(observed for all, DRM, notes)`` of a barrage by ``firers`` on ``target`` (11 B.3):
    unless every firing unit has an observer, +1 per two hexes (or part) of the farthest
    firer's range."""
    units = [u for u in pos.at(target) if not u.counter.is_marker]
    unseen = []
    for f in firers:
        if not any(sees(pos, rs, o, target, target_units=units) for o in observers_for(pos, f)):
            unseen.append(f.id)
    if not unseen:
        return True, 0, [("11 B.3", "the target is observed for every firing unit")]
    far = max(pos.map.grid.distance(f.hex, target) for f in firers)
    drm = ceil(far / 2)
    return False, drm, [("11 B.3", f"not observed for {', '.join(unseen)}: +{drm} (farthest firer {far} hexes)")]
