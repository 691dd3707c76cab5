"""Stacking: check one hex or the whole map against the ruleset's policy."""

from __future__ import annotations

from fractions import Fraction

from ..hexes import Hex
from .position import Position, Unit
from .reasons import Code, Reason
from .ruleset import Ruleset


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else str(x)


def _fits(counts: dict[str, int], recipe: dict) -> bool:
    spare = dict(recipe)
    for cat, n in counts.items():
        if cat in spare:
            take = min(n, spare[cat])
            spare[cat] -= take
            n -= take
        if n:
            if spare.get("*", 0) < n:
                return False
            spare["*"] -= n
    return True


def stack_reasons(pos: Position, rs: Ruleset, hex: Hex, units: list[Unit],
                  mode: str | None = None) -> list[Reason]:
    """Why ``units`` may not stand together on ``hex`` (empty list: they may)."""
    s = rs.stacking
    fmt = pos.map.format
    out: list[Reason] = []
    real = [u for u in units if not u.counter.is_marker]
    sides = sorted({u.side for u in real if u.side})
    if len(sides) > 1 and not s.enemy_together:
        out.append(Reason(Code.STACKING_ENEMY, s.rule, f"units of {' and '.join(sides)} share {fmt(hex)}",
                          hex, tuple(u.id for u in real)))
    for side in sides or [None]:
        mine = [u for u in real if u.side == side]
        counted = [(u, rs.stack_points(pos, u)) for u in mine]
        counted = [(u, p) for u, p in counted if p]
        total = sum((p for _, p in counted), Fraction(0))
        limit = rs.stacking_limit(pos, hex, side, mode)
        if limit is not None and total > limit:
            ids = tuple(u.id for u, _ in counted)
            how = f" for units moving in {mode} mode" if mode else ""
            out.append(Reason(Code.STACKING_LIMIT, s.rule,
                              f"{fmt(hex)} holds {_fmt(total)} stacking points of {side or 'units'} "
                              f"({', '.join(ids)}); the limit{how} is {_fmt(limit)}", hex, ids))
        if s.compositions:
            members = [u for u, p in counted] if counted else []
            counts: dict[str, int] = {}
            for u in members:
                cat = rs.stack_category(pos, u)
                counts[cat] = counts.get(cat, 0) + 1
            if members and not any(_fits(counts, r) for r in s.compositions):
                what = ", ".join(f"{n} x {c}" for c, n in sorted(counts.items()))
                out.append(Reason(Code.STACKING_COMPOSITION, s.composition_rule or s.rule,
                                  f"{fmt(hex)} holds {what}, which is not an allowed stack",
                                  hex, tuple(u.id for u in members)))
        if mine:
            why = rs.stack_rule(pos, hex, side, mine)
            if why is not None:
                out.append(why)
    return out


def check_stacking(pos: Position, rs: Ruleset, hex: Hex | None = None,
                   modes: dict[str, str] | None = None) -> list[Reason]:
    """Stacking violations on ``hex`` or, without it, on every hex of the map.

    ``modes`` maps unit ids to the movement mode they used (their limit may be lower); by
    default a unit's own ``mode`` is used. Units in boxes never stack.
    """
    occ = pos.occupancy()
    hexes = [hex] if hex is not None else sorted(occ)
    out: list[Reason] = []
    for h in hexes:
        units = occ.get(h, [])
        if not units:
            continue
        mode_of = {u.id: (modes or {}).get(u.id, u.mode) for u in units}
        used = {m for m in mode_of.values() if m}
        # the strictest mode any unit there moved in sets the limit for the hex
        mode = min(used, key=lambda m: rs.stacking_limit(pos, h, None, m) or 10**9) if used else None
        out.extend(stack_reasons(pos, rs, h, units, mode))
    return out
