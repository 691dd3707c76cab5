"""Set-up areas as referee questions: the legal hexes of a set-up entry, and a whole set-up
checked against its scenario's areas.

Units are named as in :func:`~toolkit.referee.position.position_from_scenario`: a counter's
id, ``counter#2`` for its second copy. An area "within N hexes of a unit" is measured from
where that unit stands in the position being checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RulesError
from ..game import AreaError, Placement, Scenario, area_hexes
from ..hexes import Hex
from .position import Position
from .reasons import Code, Reason


@dataclass(frozen=True)
class SetupEntry:
    """One unit of a scenario's set-up and the placement (with its area) that sets it up."""

    unit: str
    placement: Placement
    index: int

    @property
    def rule(self) -> str | None:
        area = self.placement.area
        source = area.source if area is not None else self.placement.source
        return source.rule


def setup_entries(scenario: Scenario) -> list[SetupEntry]:
    """Every unit the set-up places, with the unit ids a position gives the copies."""
    seen: dict[str, int] = {}
    out = []
    for i, p in enumerate(scenario.setup):
        for counter_id in p.units:
            seen[counter_id] = seen.get(counter_id, 0) + 1
            uid = counter_id if seen[counter_id] == 1 else f"{counter_id}#{seen[counter_id]}"
            out.append(SetupEntry(uid, p, i))
    return out


def _on_this_map(pos: Position, scenario: Scenario, entry: SetupEntry) -> bool:
    return (entry.placement.map or scenario.map) == pos.map_id


def _unit_hexes(pos: Position) -> dict[str, Hex]:
    return {uid: u.hex for uid, u in pos.units.items() if u.hex is not None}


def legal_setup_hexes(pos: Position, unit: str) -> tuple[SetupEntry, frozenset[Hex]]:
    """The set-up entry of ``unit`` in the position's scenario and the hexes it may set up on:
    its area, or its listed hex(es) when it has none. Refuses a unit the set-up does not place."""
    scenario = _scenario(pos)
    for entry in setup_entries(scenario):
        if entry.unit == unit:
            break
    else:
        raise RulesError(f"scenario {scenario.id} does not set up {unit!r} (reinforcements and boxes have no area)")
    p = entry.placement
    if p.box or not _on_this_map(pos, scenario, entry):
        raise RulesError(f"{unit} sets up {'in box ' + p.box if p.box else 'on map ' + str(p.map)}, not on a hex of "
                         f"map {pos.map_id}")
    if p.area is None:
        return entry, frozenset(p.hexes or (p.hex,))
    try:
        return entry, area_hexes(p.area, pos.map, _unit_hexes(pos))
    except AreaError as exc:
        raise RulesError(f"{unit}: {exc}") from None


def check_setup(pos: Position) -> list[Reason]:
    """Every unit of the position's scenario set-up that stands outside its area (or is not on
    the map at all), with the rule the area cites."""
    scenario = _scenario(pos)
    hexes = _unit_hexes(pos)
    fmt = pos.map.format
    found = []
    for entry in setup_entries(scenario):
        p = entry.placement
        if p.box or not _on_this_map(pos, scenario, entry) or (p.area is None and not p.hexes):
            continue
        where = p.area.describe(fmt) if p.area is not None else "hexes " + " ".join(fmt(h) for h in p.hexes)
        at = hexes.get(entry.unit)
        if at is None:
            found.append(Reason(Code.NOT_ON_MAP, entry.rule, f"{entry.unit} is not on the map; it sets up {where}",
                                None, (entry.unit,)))
            continue
        _, legal = legal_setup_hexes(pos, entry.unit)
        if at not in legal:
            found.append(Reason(Code.SETUP_AREA, entry.rule, f"{entry.unit} on {fmt(at)} is outside its set-up area: "
                                f"{where}", at, (entry.unit,)))
    return found


def _scenario(pos: Position) -> Scenario:
    if pos.scenario is None or pos.scenario not in pos.game.scenarios:
        raise RulesError("a set-up check needs a position of a scenario (give --scenario, or 'scenario:' in the file)")
    return pos.game.scenarios[pos.scenario]
