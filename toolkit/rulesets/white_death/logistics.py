"""Supply points (Rule 15 A, D): what an impulse's operations cost, the pools kept as position
state (``state.supply_points``: ``soviet``, ``german`` and ``vl``, the separate Velikiye Luki
marker), and the one point that lets Velikiye Luki ignore isolation for a turn (15 D.2)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...errors import RulesError
from ...referee import Position, Unit
from . import units as U
from .impulses import budget_of
from .terrain import city_hexes

POOLS = ("soviet", "german", "vl")


def impulse_cost(side: str, assaults: bool, barrage: bool, rockets_full: bool = False) -> int:
    """15 A.1-3: SP the phasing side spends for its impulse: 1 for any assaults, 2 for a barrage
    (assaults included), 3 for a German barrage with rockets at full value; nothing otherwise."""
    if rockets_full and side != "german":
        raise RulesError("only the German player buys full-value rocket barrages (15 A.3)")
    if rockets_full and not barrage:
        raise RulesError("a rocket barrage is a barrage: set barrage too (15 A.3)")
    if rockets_full:
        return 3
    if barrage:
        return 2
    return 1 if assaults else 0


def defence_cost(pos: Position, rs, high_intensity: bool, hexes_defended: int = 1) -> int:
    """15 A.4: SP the non-phasing side spends for high-intensity defensive support; low
    intensity is free. Option ``support_charge``: ``impulse`` (the rule: 1 SP lets "all
    artillery units" fire) or ``hex`` (the UI asks per defended hex)."""
    if not high_intensity:
        return 0
    if rs.option(pos, "support_charge") == "hex":
        return max(1, hexes_defended)
    return 1


def support_factor(unit: Unit, high_intensity: bool) -> Fraction:
    """15 A.4: the support factor an artillery unit uses: its own at high intensity, 1 at low."""
    return U.fraction(unit.counter.front.get("support", 0)) if high_intensity else Fraction(1)


def barrage_factor(unit: Unit, sp_spent: int) -> Fraction:
    """15 A.3: German rocket artillery fires at half its barrage factor (fraction kept) unless
    3 SP were spent for the impulse."""
    full = U.fraction(unit.counter.front.get("barrage", 0))
    if unit.side == "german" and U.marked(unit, "rocket") and sp_spent < 3:
        return full / 2
    return full


def pools(pos: Position) -> dict:
    """The supply-point pools; before anything is recorded, 2 German and 2 Velikiye Luki points
    on turn 1 (15 D.1) and none for the Soviet (its schedule is missing, notes 13.1)."""
    got = pos.state.get("supply_points")
    if got is None:
        return {"soviet": 0, "german": 2, "vl": 2} if (pos.turn or 1) == 1 else {p: 0 for p in POOLS}
    return {p: int(got.get(p, 0)) for p in POOLS}


def spend(pos: Position, pool: str, sp: int) -> None:
    """Take ``sp`` points from ``pool``; refused (nothing changed) when the pool is short."""
    if pool not in POOLS:
        raise RulesError(f"unknown supply pool {pool!r}; the pools are {', '.join(POOLS)}")
    have = pools(pos)
    if sp > have[pool]:
        raise RulesError(f"the {pool} pool has {have[pool]} supply points, {sp} needed (15 A, D)")
    have[pool] -= sp
    pos.state["supply_points"] = have
    pos.touch()


def waive_vl_isolation(pos: Position) -> None:
    """15 D.2: at the start of a turn the German player spends 1 VL point so the troops in the
    city avoid the effects of isolation this turn (``state.vl_waiver``: the turn)."""
    if budget_of(pos).impulses:
        raise RulesError("the Velikiye Luki isolation waiver is bought at the beginning of a turn, before "
                         "the first impulse (15 D.2)")
    spend(pos, "vl", 1)
    pos.state["vl_waiver"] = pos.turn
    pos.touch()


@dataclass(frozen=True)
class Isolation:
    """What isolation does to one unit (15 C; 14 C.3; 18)."""

    isolated: bool
    factor: Fraction        # AT and conventional factors multiplied by this (fractions kept)
    morale_drm: int         # added to its morale checks
    replacements: bool      # may take replacements (18)


def isolation_effects(pos: Position, rs, unit: Unit, isolated: bool) -> Isolation:
    """The effects on ``unit`` given whether it is isolated (:func:`.supply.isolation`): halved
    factors, +1 MC, no replacements; a German unit in Velikiye Luki under this turn's waiver
    keeps its factors and morale but still takes no replacements (15 D.2, 18; case 52)."""
    waived = unit.side == "german" and pos.state.get("vl_waiver") == pos.turn and unit.hex in city_hexes(pos.map)
    if waived:
        return Isolation(isolated, Fraction(1), 0, False)
    if isolated:
        return Isolation(True, Fraction(1, 2), 1, False)
    return Isolation(False, Fraction(1), 0, True)


def fire_pools(pos: Position, side: str, unit_ids) -> list[str]:
    """The pools that pay for an operation of ``unit_ids``: the side's, and for German units in
    Velikiye Luki the city's own (15 D.2: its troops are a separate entity for supply points)."""
    if side != "german":
        return [side]
    city = city_hexes(pos.map)
    where = {"vl" if pos.unit(u).hex in city else "german" for u in unit_ids if pos.unit(u).hex is not None}
    return sorted(where) or ["german"]


def charge_fire(pos: Position, rs, a, barrage_sp: int, log: list) -> None:
    """Take from the pools in ``pos.state`` the supply points an applied fire ``a`` adds to its
    impulse's cost (15 A): the phasing side's assaults 1, a barrage 2, a German rocket barrage at
    full value 3 (each a level for the impulse: what it paid already is not paid again), and the
    non-phasing side's high-intensity defensive support 1 an impulse (option ``support_charge``
    "hex": 1 a defended hex). ``state.combat["supply_paid"]`` remembers the impulse's payments
    (cleared with ``state.combat`` when the next impulse is declared). A short pool is refused
    (RulesError) and nothing is charged; a position recording no pools is charged nothing (the
    Soviet schedule is missing), which the log says."""
    if "supply_points" not in pos.state:
        log.append("no supply points charged: the position records no pools (state.supply_points, 15 A)")
        return
    combat = pos.state.setdefault("combat", {})
    paid = dict(combat.get("supply_paid") or {})
    charges = []
    if a.fire == "barrage":
        level = impulse_cost(a.side, assaults=False, barrage=True, rockets_full=barrage_sp >= 3)
        why = "15 A.3, rocket barrage at full value" if barrage_sp >= 3 else "15 A.2, barrage"
    else:
        level, why = impulse_cost(a.side, assaults=True, barrage=False), "15 A.1, assault"
    for pool in fire_pools(pos, a.side, a.attackers):
        charges.append((pool, pool, level, why))
    high = [s.unit for s in a.supports if s.kind == "artillery" and s.unit and s.side == "defender"]
    if a.fire == "defensive" and high:
        other = next((pos.unit(u).side for u in high), None)
        per_hex = rs.option(pos, "support_charge") == "hex"
        for pool in fire_pools(pos, other, a.defenders):
            key = f"support {pool}" + (f" {pos.map.format(a.defender_hex)}" if per_hex else "")
            charges.append((pool, key, defence_cost(pos, rs, True), "15 A.4, high-intensity defensive support"))
    due: dict[str, int] = {}
    for pool, key, level, why in charges:
        extra = level - int(paid.get(key, 0))
        if extra > 0:
            due[pool] = due.get(pool, 0) + extra
    have = pools(pos)
    short = [f"the {p} pool has {have[p]} supply points, {n} needed (15 A, D)" for p, n in due.items() if n > have[p]]
    if short:
        raise RulesError("; ".join(short))
    for pool, key, level, why in charges:
        extra = level - int(paid.get(key, 0))
        if extra > 0:
            before = pools(pos)[pool]
            spend(pos, pool, extra)
            paid[key] = level
            log.append(f"{pool} pays {extra} supply point(s) ({why}): {before} -> {before - extra}")
    combat["supply_paid"] = paid
    pos.touch()
