"""The Grossdeutschland say on one step: blown bridges and pontoons (12.0, 12.1, :mod:`.bridges`),
the Terrain Chart's H and ALL cells (9.0), no move across a river into an enemy ZOC without a
bridge (8.0), German rafts (9.7), and the MP a fortification chit adds when its hex is entered
through its green hexside (15.2; a minefield from every side).

A fortification chit is a marker of type trench, minefield, dragons teeth or bunker in the hex;
its facing is a status ``facing:N`` (one per green hexside, compass names of the grid) in the
position. Its costs come from the game's ``charts.fortifications.move`` ("+1/+1/NA" for Leg,
Tracked, Wheeled); no road negates them (15.2).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

from ...hexes import Hexside
from ...referee import Reason, Step
from ...referee.reasons import Code
from .bridges import bridged, crossing_rule

#: Hexside features a unit may not cross into an enemy ZOC (8.0) unless a bridge is there.
WATER = ("river", "canal")


def ma_share(pos, cls: str, hex) -> str | None:
    """"H" or "ALL" when the Terrain Chart prices ``hex`` for class ``cls`` as a share of the MA."""
    terrain = pos.map.terrain_types.get(pos.map.terrain(hex))
    if terrain is None or not terrain.move_ma:
        return None
    weather = pos.current_weather or "*"
    for key in (f"{cls}/{weather}", cls, f"*/{weather}", "*"):
        if key in terrain.move_ma:
            return terrain.move_ma[key]
    return None


def step_rule(rs, pos, units, step: Step) -> Step | Reason:
    ids = tuple(u.id for u in units)
    fmt = pos.map.format
    crossed = crossing_rule(rs, pos, units, step)         # 12.0, 12.1: blown bridges, pontoons
    if isinstance(crossed, Reason):
        return crossed
    step = crossed or step
    if step.prohibited is not None:
        return step.prohibited
    codes = pos.map.hexside_codes(Hexside.of(step.a, step.b))
    if step.zoc_to and any(c in WATER for c in codes) and not bridged(pos, step.a, step.b):
        return Reason(Code.ZOC_ENTRY, "8.0", f"may not cross the river between {fmt(step.a)} and {fmt(step.b)} "
                      f"into an enemy ZOC: no bridge there", step.b, ids)
    extra = Fraction(0)
    for marker, costs in _fortifications(pos, step):
        for unit in units:
            cell = costs[_CLASSES.index(rs.unit_class(pos, unit))]
            if cell is None:
                return Reason(Code.PROHIBITED_TERRAIN, "15.2", f"{unit.id} may not enter {fmt(step.b)} through the "
                              f"{marker.counter.name} there (NA)", step.b, ids)
            extra = max(extra, rs.h_cost(pos, unit) if cell == "H" else cell)
    if step.used_line:                                # 9.2: the road rate disregards the other terrain
        return dataclasses.replace(step, cost=step.cost + extra) if extra else step
    extra -= _rafted(rs, pos, units, step, codes)
    fort, extra = extra, Fraction(0)
    for unit in units:
        share = ma_share(pos, rs.unit_class(pos, unit), step.b)
        if share == "ALL":
            if not step.first:
                return Reason(Code.NOT_ENOUGH_MP, "9.0", f"{unit.id} must begin its move adjacent to "
                              f"{fmt(step.b)} to spend its whole allowance (ALL) entering it", step.b, ids)
            extra = max(extra, rs.printed_ma(pos, unit))
        elif share == "H":
            extra = max(extra, rs.h_cost(pos, unit))
    if not extra + fort:
        return step
    return dataclasses.replace(step, cost=step.cost + extra + fort)


_CLASSES = ("leg", "tracked", "wheeled")
#: Hexside features whose MP a raft cancels for German Leg units (9.7).
RAFTED = ("ford", "stream", "canal", "river")


def _rafted(rs, pos, units, step, codes) -> Fraction:
    """9.7: the MP of a ford, stream, canal or river a German Leg unit crosses, when a German
    Raft unit (mark ``raft``) is adjacent to that hexside (in or next to either of its hexes)."""
    water = [c for c in codes if c in RAFTED and c in pos.map.hexside_types]
    if not water or bridged(pos, step.a, step.b) or any(u.side != "german" or rs.unit_class(pos, u) != "leg" for u in units):
        return Fraction(0)
    grid = pos.map.grid
    near = {step.a, step.b} | set(grid.neighbours(step.a)) & set(grid.neighbours(step.b))
    if not any("raft" in u.counter.marks and u.side == "german" for h in near for u in pos.at(h)):
        return Fraction(0)
    weather = pos.current_weather or "*"
    total = Fraction(0)
    for code in water:
        found, cost = pos.map.hexside_types[code].move.lookup("leg", weather)
        total += cost or 0
    return total
OMNIDIRECTIONAL = ("minefield",)


def _fortifications(pos, step):
    """(marker, (Leg, Tracked, Wheeled) cost) of each fortification entered through its green
    side on this step; a cost is MP, "H" or None (NA)."""
    table = (pos.game.charts.get("fortifications") or {}).get("move") or {}
    found = []
    side = None
    for unit in pos.at(step.b):
        if not unit.counter.is_marker or unit.type not in table:
            continue
        if unit.type not in OMNIDIRECTIONAL:
            side = side or pos.map.grid.direction(step.b, step.a)
            if f"facing:{side}" not in unit.status:
                continue
        found.append((unit, tuple(_cell(c) for c in str(table[unit.type]).split("/"))))
    return found


def _cell(text: str):
    text = text.strip().lstrip("+")
    if text.upper() == "NA":
        return None
    if text.upper() == "H":
        return "H"
    return Fraction(text)


def debark(rs, pos, unit_id: str, spent=0) -> Reason | None:
    """9.6: a Wheeled unit that has spent at most half its printed MA this activation (``spent``)
    debarks, spending half its MA in its hex, and is a Leg unit with MA 4 from then on (a
    ``debarked`` status). Returns why not, or None (and sets the status)."""
    unit = pos.unit(unit_id)
    ids = (unit_id,)
    if unit.counter.unit_class != "wheeled" or "debarked" in unit.status:
        return Reason(Code.CUSTOM, "9.6", f"only a Wheeled unit debarks; {unit_id} is "
                      f"{'already debarked' if 'debarked' in unit.status else unit.counter.unit_class}", unit.hex, ids)
    if "pinned" in unit.status:
        return Reason(Code.CANNOT_MOVE, "9.6", f"{unit_id} is pinned and may not debark", unit.hex, ids)
    half = Fraction(unit.value("movement", 0) or 0) / 2
    if Fraction(spent) > half:
        return Reason(Code.NOT_ENOUGH_MP, "9.6", f"{unit_id} has moved {spent} MP, more than half its MA: too late "
                      f"to debark this activation", unit.hex, ids)
    unit.status.add("debarked")
    pos.touch()
    return None


def reembark(rs, pos, unit_id: str, debarked_this_activation: bool = False) -> Reason | None:
    """9.6: a debarked unit re-embarks in a later activation, unless pinned or out of supply
    (Low supply does not stop it). Returns why not, or None (and clears the status)."""
    unit = pos.unit(unit_id)
    ids = (unit_id,)
    if "debarked" not in unit.status:
        return Reason(Code.CUSTOM, "9.6", f"{unit_id} is not debarked", unit.hex, ids)
    if debarked_this_activation:
        return Reason(Code.CUSTOM, "9.6", f"{unit_id} debarked in this activation: it may not re-embark in it",
                      unit.hex, ids)
    if "pinned" in unit.status:
        return Reason(Code.CANNOT_MOVE, "9.6", f"{unit_id} is pinned and may not re-embark", unit.hex, ids)
    if unit.status & {"out_of_supply", "step_loss"}:
        return Reason(Code.CUSTOM, "9.6", f"{unit_id} is out of supply and may not re-embark", unit.hex, ids)
    from .ruleset import RIDING
    unit.status.discard("debarked")
    unit.status.discard(RIDING)          # 9.6: "once a unit is re-embarked, it is immediately considered dismounted"
    pos.touch()
    return None


def riders(rs, pos, carrier) -> list:
    """The Leg units riding the Tracked unit ``carrier`` (9.5)."""
    from .ruleset import RIDING
    if carrier.hex is None:
        return []
    return [u for u in pos.at(carrier.hex) if RIDING in u.status and u.id != carrier.id
            and (host := rs.carrier(pos, u)) is not None and host.id == carrier.id]


def pin(rs, pos, unit_id: str) -> list[str]:
    """A hit pins ``unit_id`` (11.3, 11.4: the ``pinned`` status, which halts its move). If it is a
    Tracked unit carrying riders, each rider is pinned too and "immediately dismounted" (9.5): the
    Riding Tanks marker goes with no MP paid (the troops jump off). Returns the units pinned."""
    from .ruleset import RIDING
    unit = pos.unit(unit_id)
    hit = [unit, *riders(rs, pos, unit)]
    for u in hit:
        u.status.add("pinned")
        if u is not unit:
            u.status.discard(RIDING)
    pos.touch()
    return [u.id for u in hit]


def entry_hex(rs, pos, unit_ids, entry) -> object | None:
    """4.0: where reinforcements scheduled for entry hex ``entry`` come on: the entry hex, or,
    if an enemy unit (or a pinned friendly stack) holds it, the closest map-edge hex on the same
    side of the map that they may legally enter; None when there is none (they wait a turn)."""
    units = pos.units_of(unit_ids)
    side = units[0].side
    grid = pos.map.grid

    def open_(hex) -> bool:
        there = [u for u in pos.at(hex) if not u.counter.is_marker]
        if any(u.side != side for u in there) or any("pinned" in u.status for u in there):
            return False
        cell = pos.map.terrain_types.get(pos.map.terrain(hex))
        on_line = any(hex in ln.hexes for ln in pos.map.lines)
        return on_line or cell is None or all(
            cell.move.lookup(rs.unit_class(pos, u), pos.current_weather or "*")[1] is not None for u in units)

    if open_(entry):
        return entry
    edges = [e for e in ("north", "south", "east", "west") if entry in grid.edge_hexes(e)]
    candidates = [h for e in edges for h in grid.edge_hexes(e) if h != entry and open_(h)]
    return min(candidates, key=lambda h: (grid.distance(entry, h), h), default=None)


def mount(rs, pos, leg_id: str, carrier_id: str, spent=0, carrier_spent=0) -> Reason | None:
    """9.5: a Leg unit mounts a friendly Tracked unit in its hex; "the Leg unit and the Tracked
    unit ... must each expend +1 MP to mount up". ``spent`` and ``carrier_spent`` are the MP each
    has spent in this activation before (the referee keeps no tally across moves). Returns why
    not, or None: the rider gets the ``riding_tanks`` status and both the ``mounted`` status,
    which takes the 1 MP off their allowance for the rest of the activation."""
    from .ruleset import PAID, RIDING, TRACKED
    leg, host = pos.unit(leg_id), pos.unit(carrier_id)
    ids = (leg_id, carrier_id)
    if RIDING in leg.status or rs.unit_class(pos, leg) != "leg":
        return Reason(Code.CUSTOM, "9.5", f"only a Leg unit not already riding mounts; {leg_id} is "
                      f"{'riding' if RIDING in leg.status else rs.unit_class(pos, leg)}", leg.hex, ids)
    if host.counter.unit_class != TRACKED or host.side != leg.side or RIDING in host.status:
        return Reason(Code.CUSTOM, "9.5", f"{leg_id} may ride only a friendly Tracked unit; {carrier_id} is not one",
                      leg.hex, ids)
    if leg.hex is None or host.hex != leg.hex:
        return Reason(Code.NOT_ADJACENT, "9.5", f"{leg_id} and {carrier_id} must be in the same hex to mount",
                      leg.hex, ids)
    for unit in (leg, host):
        if "pinned" in unit.status:
            return Reason(Code.CANNOT_MOVE, "9.5", f"{unit.id} is pinned", unit.hex, ids)
    refusal = _riding_refusal(rs, pos, ((leg, spent), (host, carrier_spent)), PAID[0], "mount", ids)
    if refusal is not None:
        return refusal
    leg.status.add(RIDING)
    for unit in (leg, host):
        unit.status.add(PAID[0])
    pos.touch()
    return None


def dismount(rs, pos, leg_id: str, spent=0, carrier_spent=0) -> Reason | None:
    """9.5: a riding Leg unit dismounts at any time during movement; the Leg unit and its Tracked
    carrier "must each expend +1 MP to dismount". ``spent``/``carrier_spent`` as for
    :func:`mount` (the rider's MP are the carrier's while it rides). Returns why not, or None:
    the ``riding_tanks`` status goes and both get ``dismounted`` (1 MP off their allowance)."""
    from .ruleset import PAID, RIDING
    leg = pos.unit(leg_id)
    host = rs.carrier(pos, leg) if RIDING in leg.status else None
    if host is None:
        return Reason(Code.CUSTOM, "9.5", f"{leg_id} is not riding a Tracked unit", leg.hex, (leg_id,))
    ids = (leg_id, host.id)
    refusal = _riding_refusal(rs, pos, ((leg, spent), (host, carrier_spent)), PAID[1], "dismount", ids)
    if refusal is not None:
        return refusal
    leg.status.discard(RIDING)
    for unit in (leg, host):
        unit.status.add(PAID[1])
    pos.touch()
    return None


def _riding_refusal(rs, pos, pairs, paid: str, verb: str, ids) -> Reason | None:
    """9.5: the rider and its carrier (each with the MP it has ``used``) each pay +1 MP to
    ``verb``, once an activation (the ``paid`` status)."""
    for unit, used in pairs:
        if paid in unit.status:
            return Reason(Code.CUSTOM, "9.5", f"{unit.id} has already paid a {verb} in this activation",
                          unit.hex, ids)
        left = rs.movement_allowance(pos, unit, rs.mode(None)) - Fraction(used)
        if left < 1:
            return Reason(Code.NOT_ENOUGH_MP, "9.5", f"{unit.id} has {max(left, 0)} MP left; {verb}ing costs it "
                          f"+1 MP", unit.hex, ids)
    return None
