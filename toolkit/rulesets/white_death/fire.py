"""Who fires, at whom, with what value (Rules 9, 10, 12, 19, 21 A; p.35).

Conventional fire (9) hits personnel and weapons units, antitank fire (10) only AFVs. A unit's
value is its factor times its remaining strength (9 C.1, 10 C.1), halved when isolated (15 C),
doubled for close-combat units in or assaulting into a town or forest (21 A) and for fire down
a slope hexside (12 B); fractions are kept. A target's defence value is the Terrain Effects
Chart's for its class (P, L, H) in the best terrain of its hex (9 C.2, 12), a bunker's only
while a bunker stands there and not for units assaulting out of it (12 D); an AFV's is printed,
one less in or assaulting into a town or forest (12 C).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...game.counters import Counter
from ...hexes import Hex, Hexside
from ...referee import Position, Reason, Unit
from ...referee.combat_strength import Modifier
from ...referee.reasons import Code
from . import units as U
from .logistics import isolation_effects
from .terrain import garrison_holds

__all__ = ["Firer", "Target", "defence_value", "fire_value", "garrison_unit", "isolated_units", "GARRISON"]

GARRISON = "garrison"
CLOSE_TERRAIN = ("town", "forest")


@dataclass
class Target:
    """One unit fired at: the table (``conventional`` or ``antitank``), its defence value with
    the modifiers behind it, and the fire value allocated to it."""

    unit: Unit
    kind: str
    defence: Fraction
    modifiers: list[Modifier] = field(default_factory=list)
    fire: Fraction = Fraction(0)
    firers: tuple[str, ...] = ()


@dataclass
class Firer:
    """One firing unit: its conventional and antitank values against each target hex."""

    unit: Unit
    conventional: dict = field(default_factory=dict)
    antitank: dict = field(default_factory=dict)
    modifiers: list[Modifier] = field(default_factory=list)


def garrison_unit(pos: Position, hex: Hex) -> Unit | None:
    """p.35: the intrinsic garrison of a rail town west of the Lowatj while it stands, as a
    German personnel unit of one strength point, combat factor 4 (game.yaml
    ``charts.intrinsic_garrison``); None elsewhere."""
    if not garrison_holds(pos, hex):
        return None
    data = pos.game.charts.get("intrinsic_garrison") or {}
    front = {"conv": data.get("conv", 4), "at": data.get("at", 0), "defence": data.get("defence", "P"),
             "morale": data.get("morale", 4), "strength": 1}
    counter = Counter(id=GARRISON, side="german", name="Intrinsic garrison", type=GARRISON, front=front, steps=1)
    return Unit(id=f"{GARRISON}@{pos.map.format(hex)}", counter=counter, side="german", hex=hex, steps=1)


def is_garrison(unit: Unit) -> bool:
    return unit.type == GARRISON


def isolated_units(pos: Position, rs, side: str) -> set:
    """Ids of ``side``'s units isolated now (15 C; computed, or marked ``isolated``)."""
    def build():
        from .supply import isolation
        got = isolation(pos, rs, side)
        return set(got.unsupplied) | {u.id for u in pos.on_map(side) if "isolated" in u.status}
    return pos.cached("white-death-isolated", rs, side, build)


def _codes(pos: Position, hex: Hex) -> list[str]:
    m = pos.map
    return [c for c in (m.terrain(hex), *m.features(hex)) if c]


def _close_terrain(pos: Position, hex: Hex | None) -> str | None:
    if hex is None:
        return None
    return next((c for c in _codes(pos, hex) if c in CLOSE_TERRAIN), None)


def _down_slope(pos: Position, a: Hex, b: Hex) -> bool:
    m = pos.map
    if a is None or b is None or not m.grid.adjacent(a, b):
        return False
    return "slope" in m.hexside_codes(Hexside.of(a, b)) and "high_ground" in m.features(a) \
        and "high_ground" not in m.features(b)


def _factor(unit: Unit, kind: str) -> Fraction:
    if U.is_bunker(unit):
        return Fraction(1)                        # 19: an assumed factor of 1 for both
    return U.fraction(unit.counter.front.get("conv" if kind == "conventional" else "at", 0) or 0)


def fire_value(pos: Position, rs, unit: Unit, kind: str, *, assaulting: bool, target_hex: Hex,
               assault_hex: Hex, isolated: bool) -> tuple[Fraction, list[Modifier], str | None]:
    """``(value, modifiers, why not)`` of ``unit``'s ``kind`` fire ("conventional" or
    "antitank") at a target in ``target_hex``; ``assaulting`` for the phasing side's assault
    fire (``assault_hex`` is the hex under assault)."""
    raw = unit.counter.front.get("conv", "") if kind == "conventional" else None
    if assaulting and raw is not None and str(raw).startswith("*"):
        return Fraction(0), [], f"{unit.id}'s conventional factor {raw} fires only defensively (9 A)"
    if assaulting and kind == "antitank" and not U.is_afv(unit):
        return Fraction(0), [], f"{unit.id} is not an AFV: only assaulting AFVs fire antitank (10 A)"
    if assaulting and U.is_bunker(unit):
        return Fraction(0), [], f"{unit.id} is a bunker: bunkers fire only defensively (19)"
    factor = _factor(unit, kind)
    if factor <= 0:
        return Fraction(0), [], None
    value = factor * U.strength(unit)
    mods: list[Modifier] = []
    table = "conventional" if kind == "conventional" else "antitank"
    if isolated:
        eff = isolation_effects(pos, rs, unit, True)
        if eff.factor != 1:
            mods.append(Modifier("attack", value * (eff.factor - 1), "15 C",
                                 f"{unit.id} is isolated: {table} value {value} x 1/2", unit.hex, (unit.id,),
                                 "fire"))
            value *= eff.factor
    if U.marked(unit, "close-combat"):
        where = _close_terrain(pos, unit.hex) or (_close_terrain(pos, assault_hex) if assaulting else None)
        if where:
            mods.append(Modifier("attack", value, "21 A", f"{unit.id} is a close-combat unit "
                                 f"{'in' if _close_terrain(pos, unit.hex) else 'assaulting into'} {where}: "
                                 f"{table} value x 2", unit.hex, (unit.id,), "fire"))
            value *= 2
    if _down_slope(pos, unit.hex, target_hex):
        mods.append(Modifier("attack", value, "12 B", f"{unit.id} fires down a slope hexside: {table} value x 2",
                             unit.hex, (unit.id,), "fire"))
        value *= 2
    return value, mods, None


def defence_value(pos: Position, unit: Unit, kind: str, *, assault_hex: Hex | None,
                  assaulting: bool) -> tuple[Fraction, list[Modifier]]:
    """``(defence value, modifiers)`` of ``unit`` as a target of ``kind`` fire; ``assaulting``
    when the target is an assaulting unit (defensive fire), ``assault_hex`` the hex assaulted."""
    m = pos.map
    fmt = m.format
    if kind == "antitank":
        dv = Fraction(U.defence_class(unit))
        mods = []
        where = _close_terrain(pos, unit.hex) or (_close_terrain(pos, assault_hex) if assaulting else None)
        if where:
            how = "in" if _close_terrain(pos, unit.hex) else "assaulting into"
            mods.append(Modifier("defence", -1, "12 C", f"{unit.id} is an AFV {how} {where}: defence {dv} - 1",
                                 unit.hex, (unit.id,), "target"))
            dv -= 1
        return max(dv, Fraction(0)), mods
    cls = U.defence_class(unit)
    bunker = any(U.is_bunker(b) and b.side == unit.side and U.strength(b) > 0 for b in pos.at(unit.hex)) \
        and not assaulting
    best, best_code = None, None
    for code in _codes(pos, unit.hex):
        t = m.terrain_types.get(code)
        table = (t.combat.get("defence") if t is not None else None)
        if not isinstance(table, dict) or cls not in table:
            continue
        if code == "bunker" and not bunker:
            continue
        value = Fraction(table[cls])
        if best is None or value > best:
            best, best_code = value, code
    if best is None:
        raise_missing(pos, unit, cls)
    name = m.terrain_types[best_code].name.lower()
    rule = "12 D" if (assaulting and "bunker" in _codes(pos, unit.hex)) else "9 C.2, 12"
    text = f"{unit.id} ({cls}) in {fmt(unit.hex)}: defence {best} ({name}, the best terrain of the hex)"
    if rule == "12 D":
        text += "; assaulting out of a bunker hex it has the town's value"
    return best, [Modifier("note", 0, rule, text, unit.hex, (unit.id,), "target")]


def raise_missing(pos: Position, unit: Unit, cls: str):
    from ...errors import DataError
    raise DataError(f"no defence value for class {cls!r} in the terrain of {pos.map.format(unit.hex)} "
                    f"({', '.join(_codes(pos, unit.hex))}): add it to the TEC's combat.defence",
                    path=f"map {pos.map_id} of game {pos.game.id}", field="terrain_types.*.combat.defence")


def eligible_target(unit: Unit, kind: str) -> str | None:
    """Why ``unit`` may not be a target of ``kind`` fire (9 B, 10 B; bunkers only lose
    strength to barrages, 19), or None."""
    if U.is_bunker(unit):
        return f"{unit.id} is a bunker: bunkers lose strength only to barrages (19)"
    if kind == "conventional" and U.is_afv(unit):
        return f"{unit.id} is an AFV: AFVs are never fired at by conventional fire (9 B)"
    if kind == "antitank" and not U.is_afv(unit):
        return f"{unit.id} is not an AFV: only AFVs are fired at by antitank fire (10 B)"
    return None


def refuse(rule: str, text: str, hex=None, units=()) -> Reason:
    return Reason(Code.CANNOT_ATTACK, rule, text, hex, tuple(units))
