"""Stacking (Rule 4): battalion equivalents for the German, whole brigades or set pairs for the
Soviet, one engineer brigade free. The German rule's text lost one alternative (notes 6): the
option ``german_stacking`` picks the notes' reconstruction or the literal surviving clause."""

from __future__ import annotations

from fractions import Fraction
from itertools import chain

from ...hexes import Hex
from ...referee import Position, Reason, Unit
from ...referee.reasons import Code
from . import units as U


def _is_company(u: Unit) -> bool:
    return U.size(u) == "I" or (u.side == "german" and U.is_afv(u))


def battalion_equivalents(units: list[Unit]) -> Fraction:
    """Rule 4 A: a battalion counter is 1, any two companies 1, all the companies of one
    battalion together 1 ("Several German battalions consist of four companies")."""
    total = Fraction(0)
    companies: dict[str, list[Unit]] = {}
    for u in units:
        if _is_company(u):
            companies.setdefault(U.battalion_of(u), []).append(u)
        elif U.size(u) == "III":
            total += 3
        else:
            total += 1
    for parent, members in companies.items():
        whole = sum(1 for c in members) >= 4
        total += 1 if whole else Fraction(len(members), 2)
    return total


def german_refusal(units: list[Unit], reading: str) -> str | None:
    """Why these German units may not stack (None if they may); ``reading`` is the option."""
    companies = [u for u in units if _is_company(u)]
    for extra in chain([None], companies):
        rest = [u for u in units if u is not extra]
        be = battalion_equivalents(rest)
        same = len({U.formation(u) for u in rest}) <= 1
        if reading == "literal":
            if be <= 3 and same:
                return None
        elif be <= 3 or (be <= 4 and same):
            return None
    be = battalion_equivalents(units)
    if reading == "literal":
        return (f"{be} battalion equivalents: the German may stack three battalion equivalents of one division "
                "or brigade plus one company (Rule 4 A as printed; option german_stacking=literal)")
    return (f"{be} battalion equivalents: the German may stack three battalion equivalents, or four of one "
            "division or brigade, plus one company in either case (Rule 4 A, notes' reconstruction)")


def _brigade(u: Unit) -> bool:
    return U.formation(u).endswith("Bde")


def soviet_refusal(units: list[Unit]) -> str | None:
    """Rule 4 B: all the units of one brigade; or two non-divisional artillery units; or one
    regiment and one battalion; any one engineer brigade may be added to any of these."""
    engineers = [u for u in units if u.type == "engineer" and U.size(u) == "X"]
    for extra in chain([None], engineers[:1]):
        rest = [u for u in units if u is not extra]
        if not rest:
            return None
        forms = {U.formation(u) for u in rest}
        if len(forms) == 1 and all(_brigade(u) for u in rest):
            return None
        if len(rest) <= 2 and all(U.marked(u, "non-divisional") for u in rest):
            return None
        regiments = [u for u in rest if U.size(u) == "III"]
        battalions = [u for u in rest if U.size(u) in ("II", "") and u not in regiments]
        if len(regiments) <= 1 and len(battalions) <= 1 and len(regiments) + len(battalions) == len(rest):
            return None
    return ("the Soviet may stack all the units of one brigade, or two non-divisional artillery units, or one "
            "regiment and one battalion, plus any one engineer brigade (Rule 4 B)")


def stack_rule(rs, pos: Position, hex: Hex, side: str | None, units: list[Unit]) -> Reason | None:
    real = [u for u in units if not u.counter.is_marker and not U.is_bunker(u)]
    if not real:
        return None
    if side == "german":
        why = german_refusal(real, rs.option(pos, "german_stacking"))
    elif side == "soviet":
        why = soviet_refusal(real)
    else:
        why = None
    if why is None:
        return None
    return Reason(Code.STACKING_COMPOSITION, "4", f"{pos.map.format(hex)}: {why}", hex, tuple(u.id for u in real))
