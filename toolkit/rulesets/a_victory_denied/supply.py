"""Supply (10): isolation traced for both sides, the Soviet player's choice of German units Out
of Supply as a referee question, and strengths under those statuses (10.3, 1.3, 9.3.1)."""

from __future__ import annotations

from fractions import Fraction
from math import floor

from ...referee import Position, SupplyResult, Unit, supply_status
from .ruleset import in_pocket


def isolation(pos: Position, rs, side: str) -> SupplyResult:
    """Which combat units of ``side`` are Isolated (10.2): no supply line of any length to a
    friendly source, through no enemy unit, no enemy ZOC without a friendly unit or HQ, no
    unbridged major river. No German unit is isolated on turn 1 (10.2.4)."""
    result = supply_status(pos, rs, side)
    if side == "german" and pos.turn == 1:
        for uid in list(result.unsupplied):
            result.unsupplied.discard(uid)
            result.supplied.add(uid)
            result.status[uid] = "supplied"
            result.reasons.pop(uid, None)
    return result


def oos_candidates(pos: Position, count: int, *, pocket: bool = False) -> dict:
    """The referee question of 10.1.2: the Soviet player marks ``count`` German combat units Out
    of Supply (the Turn Track's number, not in the text). Candidates are every German combat
    unit on the map, those in the Minsk Pocket only with ``pocket`` (option pocket_units, notes
    14.4.10 and 14.4.22); none on turn 1 (10.1.3)."""
    if count < 0:
        raise ValueError("the number of units to mark is not negative")
    candidates = sorted(u.id for u in pos.on_map("german")
                        if u.counter.kind == "unit" and (pocket or not in_pocket(pos, u.hex)))
    if pos.turn == 1:
        count = 0
    return {"rule": "10.1", "question": f"Soviet player: choose {min(count, len(candidates))} German combat units "
            "to mark Out of Supply (previous markers were removed; the same units may be chosen again)",
            "choose": min(count, len(candidates)), "candidates": candidates}


def _halvings(pos: Position, rs, unit: Unit, role: str, across_river: bool) -> int:
    n = 0
    if role == "attack" and "out_of_supply" in unit.status:
        n += 1                                             # 10.3.2
    if "isolated" in unit.status:
        n += 1                                             # 10.3.3
    if n == 2 and rs.option(pos, "oos_and_isolated") == "once":
        n = 1
    if role == "attack" and across_river:
        n += 1                                             # 9.3.1, cumulative with supply
    return n


def effective_strength(pos: Position, rs, unit_ids, role: str, across_river=()) -> int:
    """Total attack or defence of units in one hex: units with the same modifiers are added
    before halving, each group rounded down once (1.3, 9.3.1)."""
    if role not in ("attack", "defence"):
        raise ValueError("role is 'attack' or 'defence'")
    groups: dict[int, Fraction] = {}
    for uid in unit_ids:
        unit = pos.unit(uid)
        value = unit.value(role)
        if value is None:
            value = unit.value("combat", 0) or 0          # 2.2.2: one strength for both

        n = _halvings(pos, rs, unit, role, uid in set(across_river))
        groups[n] = groups.get(n, Fraction(0)) + Fraction(value)
    return sum(floor(total / 2 ** n) for n, total in groups.items())
