"""Movement-related activity that is a referee question rather than a step cost: antitank fire
at an AFV transiting enemy ZOCs (Rule 3 A), the Brandenburg detection roll (21 B) and assaults
across or into prohibited terrain (12 A)."""

from __future__ import annotations

from fractions import Fraction

from ...errors import RulesError
from ...hexes import Hex, Hexside
from ...referee import Position, Reason, Unit, board_of, enemy_zoc_owners
from ...referee.reasons import Code
from . import units as U
from .terrain import water

OUTCOMES = ("continue", "stop", "rout")


def _zoc_units(pos: Position, rs, side: str, hex: Hex) -> list[Unit]:
    """Enemy units of ``side`` whose ZOC covers ``hex`` (the shared ZOC field, Rule 3)."""
    owners = enemy_zoc_owners(pos, rs, side)[board_of(pos.map).index[hex]]
    return [pos.units[i] for i in sorted(owners)]


def transit_fire(pos: Position, rs, afv_id: str, path: list[Hex]) -> list[tuple[Hex, list[str]]]:
    """3 A: for each hex of ``path`` the AFV leaves while in enemy ZOC, the enemy units that may
    fire antitank fire at it there: every unit whose ZOC is exited and that has an antitank
    factor (Rule 10 A), each once at this AFV ("a unit may fire at each enemy AFV unit which
    transits its ZOC"). The last hex is not exited, so it draws no fire."""
    unit = pos.units[afv_id]
    if not U.is_afv(unit):
        raise RulesError(f"{afv_id} is not an AFV unit: only AFVs transit enemy ZOCs (Rule 3 A)")
    fired: set[str] = set()
    out = []
    for a in path[:-1]:
        firers = [u.id for u in _zoc_units(pos, rs, unit.side, a)
                  if u.id not in fired and U.fraction(u.counter.front.get("at", 0)) > 0]
        if firers:
            fired.update(firers)
            out.append((a, sorted(set(firers))))
    return out


def transit_outcome(pos: Position, rs, losses: int, morale: str | None = None) -> str:
    """3 A: what becomes of an AFV after the transit fire at one exited hex: "continue", "stop"
    (movement ends in the hex being exited) or "rout" (rout effects as in defensive fire).
    ``morale`` is the MC result ("pass", "fail", "rout") the losses forced. Option
    ``afv_transit_stop``: ``failed_mc`` (the rule: only a failed MC ends the move) or
    ``any_loss`` (the UI: any loss ends it)."""
    if losses < 0 or morale not in (None, "pass", "fail", "rout"):
        raise RulesError(f"transit fire: losses must be >= 0 and morale pass, fail or rout (got {losses}, {morale!r})")
    if losses == 0:
        return "continue"
    if morale is None:
        raise RulesError("an AFV that suffers losses in transit must check morale in the hex being exited (3 A)")
    if morale == "rout":
        return "rout"
    if morale == "fail" or rs.option(pos, "afv_transit_stop") == "any_loss":
        return "stop"
    return "continue"


# -- Brandenburg commandos (21 B) ----------------------------------------------------------------

def _escorts(units: list[Unit]) -> int:
    if not any(U.marked(u, "brandenburg") for u in units):
        raise RulesError("no Brandenburg unit in the stack: only Brandenburgers pass Soviet ZOCs (21 B)")
    return sum(1 for u in units if not U.marked(u, "brandenburg"))


def brandenburg_found(pos: Position, rs, units: list[Unit], roll: int) -> bool:
    """21 B: one d6 per Soviet-ZOC hex entered, less 1 per non-Brandenburg unit in the stack; "on
    a roll of 1" they are found out and stop. Option ``brandenburg_detection``: ``at_most_1``
    (notes 12: a modified 1 or less) or ``exactly_1`` (the literal modified 1)."""
    if not 1 <= roll <= 6:
        raise RulesError(f"a d6 roll is 1-6, not {roll}")
    modified = roll - _escorts(units)
    if rs.option(pos, "brandenburg_detection") == "exactly_1":
        return modified == 1
    return modified <= 1


def brandenburg_chance(pos: Position, rs, units: list[Unit]) -> Fraction:
    """The chance the stack is found out in one Soviet-ZOC hex (21 B)."""
    return Fraction(sum(brandenburg_found(pos, rs, units, r) for r in range(1, 7)), 6)


def brandenburg_rolls(pos: Position, rs, units: list[Unit], path: list[Hex]) -> int:
    """How many detection rolls a Brandenburg stack makes along ``path``: one per hex entered
    that is in a Soviet ZOC (21 B)."""
    _escorts(units)
    return sum(1 for b in path[1:] if _zoc_units(pos, rs, "german", b))


# -- assaults and prohibited terrain (12 A) --------------------------------------------------

def _road_link(m, a: Hex, b: Hex) -> bool:
    for line in m.lines:
        if line.code != "road":
            continue
        hx = line.hexes
        if any({hx[k], hx[k + 1]} == {a, b} for k in range(len(hx) - 1)):
            return True
    return False


def assault_into_refusal(pos: Position, rs, unit: Unit, target: Hex) -> Reason | None:
    """12 A: why ``unit`` may not assault from its hex into the adjacent ``target``: across a
    prohibited hexside or into a prohibited hex ("an AFV unit (trackmobile) could only assault
    into a forest hex along a road"), or None. Barrage, support and defensive fire into the hex
    are not limited by this (12 A)."""
    m, a, fmt = pos.map, unit.hex, pos.map.format
    if a is None or not m.grid.adjacent(a, target):
        raise RulesError(f"{unit.id} may assault only into an adjacent hex, not {fmt(target)}")
    cls, weather = rs.unit_class(pos, unit), pos.current_weather
    for code in m.hexside_codes(Hexside.of(a, target)):
        tt = m.terrain_types.get(code)
        if tt is not None and tt.move and tt.move.lookup(cls, weather) == (True, None):
            return Reason(Code.PROHIBITED_HEXSIDE, "12 A", f"{unit.id} may not assault across the {code} "
                          f"hexside into {fmt(target)}: it is prohibited to {cls} units", target, (unit.id,))
    if _road_link(m, a, target):
        return None                          # along a road the hex's terrain is not entered (Rule 7)
    kinds = [m.terrain(target), *m.features(target)]
    if water(m, target):
        kinds.append(water(m, target))
    for kind in kinds:
        tt = m.terrain_types.get(kind)
        if tt is not None and tt.move and tt.move.lookup(cls, weather) == (True, None):
            return Reason(Code.PROHIBITED_TERRAIN, "12 A", f"{unit.id} may not assault into {fmt(target)} "
                          f"({kind} is prohibited to {cls} units) except along a road", target, (unit.id,))
    return None
