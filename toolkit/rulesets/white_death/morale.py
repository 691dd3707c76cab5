"""Morale checks (Rule 14): the die-roll modifiers a unit checks with, and the exact chance it
passes, fails or routs.

A check is one d6 plus the DRMs against the unit's printed morale: up to the morale passes,
one or two above fails, three or more above routs (14). What a failure does depends on the
fire that caused it (14 B): after a barrage the unit may not fire defensively, after defensive
fire it may not assault, after assault fire it retreats two hexes; a rout costs a non-AFV unit
one more strength point and retreats it two hexes whatever the fire.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...referee.combat_chart import dice_distribution
from ...referee.combat_strength import Modifier
from . import units as U
from .fire_tables import morale_limits
from .terrain import is_town

__all__ = ["CHECKS", "MoraleCheck", "bunker_shields", "check_odds", "morale_check", "tank_fright"]

CHECKS = ("pass", "fail", "rout")
#: what a failed check does after each kind of fire (14 B.1-3)
FAIL_EFFECT = {"barrage": "may not fire defensive fire this impulse (14 B.1)",
               "defensive": "may not assault (14 B.2)",
               "assault": "retreats two hexes (14 B.3)",
               "transit": "ends its movement (3 A)"}


@dataclass(frozen=True)
class MoraleCheck:
    """A unit's check: the ``drm`` and its ``modifiers`` (each cited), or ``exempt`` (a bunker
    shields the unit, 14 C.6; bunkers never check) with the reason."""

    unit: str
    morale: int
    drm: int
    modifiers: tuple[Modifier, ...]
    exempt: str | None = None


def bunker_shields(pos, unit, assaulting: bool) -> bool:
    """14 C.6, 19: a non-AFV unit in a hex with a bunker of at least 3 strength points, not
    assaulting out of it, never checks morale."""
    if U.is_afv(unit) or assaulting or unit.hex is None:
        return False
    return any(U.is_bunker(b) and b.side == unit.side and U.strength(b) >= 3 for b in pos.at(unit.hex))


def tank_fright(pos, unit, assaulting_units) -> bool:
    """14 C.2: a defender vulnerable to tank fright assaulted by a stack with an enemy AFV.
    Immune: German AFV, antitank and heavy antiaircraft units (mark ``tank-fright-immune``),
    every unit stacked with one of them, every unit in a town."""
    if not any(U.is_afv(a) and a.side != unit.side for a in assaulting_units):
        return False
    if unit.hex is None or is_town(pos.map, unit.hex):
        return False
    return not any(U.marked(u, "tank-fright-immune") and u.side == unit.side for u in pos.at(unit.hex))


def morale_check(pos, unit, base: int, *, fright: bool = False, isolated: bool = False, routed: int = 0,
                 eliminated: int = 0, assaulting: bool = False, base_text: str = "") -> MoraleCheck:
    """The check ``unit`` takes with the fire's DRM ``base`` (n of MC n, or the points lost)
    and the 14 C modifiers: tank fright one level worse, isolation +1 (15 C), +1 per unit of
    the hex already routed or eliminated this phase, +1 in snow for a non-AFV unit outside a
    town; a shielding bunker exempts it (14 C.6)."""
    morale = int(U.fraction(unit.counter.front.get("morale", 0)))
    if U.is_bunker(unit):
        return MoraleCheck(unit.id, morale, 0, (), "bunkers never check morale (14 C.6)")
    if bunker_shields(pos, unit, assaulting):
        return MoraleCheck(unit.id, morale, 0, (), "a bunker of 3 or more strength points shields it (14 C.6, 19)")
    mods = []
    if base:
        mods.append(Modifier("drm", base, "14 A", base_text or f"+{base} from the fire", unit.hex, (unit.id,)))
    if fright:
        mods.append(Modifier("drm", 1, "14 C.2", "tank fright: one level worse", unit.hex, (unit.id,)))
    if isolated:
        mods.append(Modifier("drm", 1, "14 C.3", "isolated", unit.hex, (unit.id,)))
    if routed:
        mods.append(Modifier("drm", routed, "14 C.4", f"{routed} unit(s) of the hex routed this phase",
                             unit.hex, (unit.id,)))
    if eliminated:
        mods.append(Modifier("drm", eliminated, "14 C.7", f"{eliminated} unit(s) of the hex eliminated this phase",
                             unit.hex, (unit.id,)))
    if pos.current_weather == "snow" and not U.is_afv(unit) and unit.hex is not None \
            and not is_town(pos.map, unit.hex):
        mods.append(Modifier("drm", 1, "14 C.5", "snow, not in a town", unit.hex, (unit.id,)))
    # tank fright's "one level worse": no check becomes a check at +0, MC n becomes n + 1
    drm = sum(int(m.value) for m in mods) - (1 if fright and not base else 0)
    if fright and not base:
        mods[0] = Modifier("drm", 0, "14 C.2", "tank fright: a check it would not have taken, unmodified",
                           unit.hex, (unit.id,))
    return MoraleCheck(unit.id, morale, drm, tuple(mods))


def check_odds(game, check: MoraleCheck) -> dict[str, Fraction]:
    """``{"pass", "fail", "rout"} -> probability`` of ``check`` (exact; sums to 1)."""
    if check.exempt:
        return {"pass": Fraction(1)}
    ok, bad = morale_limits(game)
    out = {k: Fraction(0) for k in CHECKS}
    for roll, p in dice_distribution("1d6").items():
        out[grade(game, check.morale, roll + check.drm, (ok, bad))] += p
    return {k: v for k, v in out.items() if v}


def grade(game, morale: int, modified: int, limits=None) -> str:
    """"pass", "fail" or "rout" for a modified roll against ``morale`` (14)."""
    ok, bad = limits or morale_limits(game)
    if modified <= morale + ok:
        return "pass"
    if modified <= morale + bad:
        return "fail"
    return "rout"
