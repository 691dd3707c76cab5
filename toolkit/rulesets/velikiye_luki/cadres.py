"""Cadres (1.7): a Soviet division's detached regiment and its last step, and how a reduced
division and a cadre stack as one division (5.1)."""

from __future__ import annotations

from ...errors import RulesError
from ...hexes import Hex
from ...referee import Position, Unit


def is_cadre(unit: Unit) -> bool:
    """True for a cadre counter (1.7)."""
    return unit.counter.id.startswith("cadre")


def cadre_attached(pos: Position, unit: Unit) -> bool:
    """True if this cadre pairs with a reduced Soviet division in its hex (1.7: with it, the
    division counts as a full one); each reduced division takes one cadre, lowest ids first."""
    here = pos.at(unit.hex)
    reduced = sum(1 for u in here if u.side == unit.side and u.counter.size == "XX" and u.reduced)
    cadres = sorted(u.id for u in here if u.side == unit.side and is_cadre(u))
    return unit.id in cadres[:reduced]


def _new_cadre(pos: Position, quality: str, hex: Hex) -> str:
    counter_id = f"cadre-{str(quality).lower()}"
    counter = pos.game.counters.get(counter_id)
    if counter is None:
        raise RulesError(f"there is no quality-{quality} cadre counter ({counter_id}) for 1.7")
    n = 1
    while (counter_id if n == 1 else f"{counter_id}#{n}") in pos.units:
        n += 1
    uid = counter_id if n == 1 else f"{counter_id}#{n}"
    pos.units[uid] = Unit(id=uid, counter=counter, side=counter.side, hex=hex)
    pos.touch()
    return uid


def _division(pos: Position, unit_id: str, rule: str) -> Unit:
    unit = pos.unit(unit_id)
    if unit.side != "soviet" or unit.counter.size != "XX" or unit.counter.steps != 3:
        raise RulesError(f"{unit_id} is not a three-step Soviet infantry division ({rule})")
    if unit.hex is None:
        raise RulesError(f"{unit_id} is not on the map ({rule})")
    if unit.moved:
        raise RulesError(f"{unit_id} has moved: this is done at the beginning of its movement ({rule})")
    return unit


def split_division(pos: Position, division_id: str) -> str:
    """1.7.2: a full-strength Soviet division detaches a regiment at the start of its move: it
    is flipped to its reduced side and a cadre of its quality joins it in its hex (0 MP).
    Returns the cadre's unit id."""
    unit = _division(pos, division_id, "1.7.2")
    if unit.reduced:
        raise RulesError(f"{division_id} is not at full strength and cannot detach a regiment (1.7.2)")
    unit.steps -= 1
    return _new_cadre(pos, unit.value("quality"), unit.hex)


def reintegrate(pos: Position, division_id: str, cadre_id: str) -> None:
    """1.7.3: a reduced division takes back a cadre of equal or better quality in its hex at the
    start of its move: it returns to full strength and the cadre leaves the map."""
    unit = _division(pos, division_id, "1.7.3")
    cadre = pos.unit(cadre_id)
    if not is_cadre(cadre):
        raise RulesError(f"{cadre_id} is not a cadre (1.7.3)")
    if unit.steps != unit.counter.steps - 1:
        raise RulesError(f"{division_id} must be on its reduced side to take back a cadre (1.7.3)")
    if cadre.hex != unit.hex:
        raise RulesError(f"{cadre_id} is not in {division_id}'s hex (1.7.3)")
    if str(cadre.value("quality")) > str(unit.value("quality")):        # "A" is the best
        raise RulesError(f"{cadre_id} (quality {cadre.value('quality')}) is worse than {division_id} "
                         f"(quality {unit.value('quality')}): 1.7.3 needs equal or better")
    unit.steps += 1
    del pos.units[cadre_id]
    pos.touch()


def lose_step(pos: Position, unit_id: str) -> str | None:
    """One step lost (1.3, 1.7.1): flip, or for a three-step division on its back replace it
    by a cadre of the same quality (returns the cadre's id); a last step eliminates."""
    unit = pos.unit(unit_id)
    if unit.counter.steps == 3 and unit.side == "soviet" and unit.steps == 2:
        hex = unit.hex
        del pos.units[unit_id]
        pos.touch()
        return _new_cadre(pos, unit.value("quality"), hex)
    unit.steps -= 1
    if unit.steps <= 0:
        unit.steps = 0
        pos.place(unit_id, None, "eliminated")
    else:
        pos.touch()
    return None

