"""Bridges as position state (Rule 20): the four standing at the start, those built by the four
Soviet engineer brigades and the one German bridging battalion (one each a game), those blown
by engineer or construction units; each costs the unit one more MP in the river hex."""

from __future__ import annotations

from ...errors import RulesError
from ...referee import Position
from . import units as U
from .terrain import RIVER, bridges, water


def _spend(pos: Position, rs, unit, mp=1) -> None:
    left = rs.movement_allowance(pos, unit, rs.mode(None))
    if left < mp:
        raise RulesError(f"{unit.id} needs {mp} more MP in {pos.map.format(unit.hex)} and has {left} (Rule 20)")
    spent = pos.state.setdefault("spent", {})
    from fractions import Fraction
    spent[unit.id] = str(Fraction(str(spent.get(unit.id, 0))) + mp)


def build_bridge(pos: Position, rs, unit_id: str) -> None:
    """Rule 20: a bridge-building unit in a river hex spends 1 MP; once a game per unit."""
    unit = pos.unit(unit_id)
    m = pos.map
    if not U.marked(unit, "bridge-builder"):
        raise RulesError(f"{unit.id} cannot build bridges: only the four Soviet engineer brigades and the German "
                         "bridging battalion may (Rule 20)")
    if unit.hex is None or water(m, unit.hex) != RIVER:
        raise RulesError(f"{unit.id} must be in a river hex to build a bridge (Rule 20)")
    if unit.hex in bridges(pos):
        raise RulesError(f"{m.format(unit.hex)} already has a bridge")
    data = pos.state.setdefault("bridges", {})
    if unit.id in data.get("builders", []):
        raise RulesError(f"{unit.id} has already built its one bridge this game (Rule 20)")
    _spend(pos, rs, unit)
    fmt = m.format(unit.hex)
    data["built"] = [*data.get("built", []), fmt]
    data["blown"] = [h for h in data.get("blown", []) if h != fmt]
    data["builders"] = [*data.get("builders", []), unit.id]
    pos.touch()


def blow_bridge(pos: Position, rs, unit_id: str) -> None:
    """Rule 20: an engineer or construction unit on a bridge hex spends 1 MP to destroy it."""
    unit = pos.unit(unit_id)
    m = pos.map
    if unit.type not in ("engineer", "construction", "bridge") and not U.marked(unit, "demolition"):
        raise RulesError(f"{unit.id} cannot destroy bridges: only engineer or construction units may (Rule 20)")
    if unit.hex is None or unit.hex not in bridges(pos):
        raise RulesError(f"{unit.id} is not on a bridge hex (Rule 20)")
    _spend(pos, rs, unit)
    fmt = m.format(unit.hex)
    data = pos.state.setdefault("bridges", {})
    data["built"] = [h for h in data.get("built", []) if h != fmt]
    data["blown"] = [*data.get("blown", []), fmt]
    pos.touch()
