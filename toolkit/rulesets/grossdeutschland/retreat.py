"""Retreat and advance after combat (10.5, 10.6) on the shared retreat search.

10.5: AR and DR retreat exactly two hexes (the CRT's ``retreat: 2``), each hex entered closer
to (never equidistant to or farther from) the unit's own battalion HQ, or the Division HQ when
the battalion's HQ is not on the map (option ``retreat_toward``: "either" accepts a hex closer
to either); with neither on the map there is no such constraint (the opposing player picks the
path among the legal ones). Never into enemy ZOC, friendly units or not (8.0, 10.5), within
stacking at the end and the movement restrictions of 9.1 (the shared
:class:`~toolkit.referee.RetreatRules` and the movement board). A stack may split: ask per unit.

10.6: the attackers may enter the vacated hex, enemy ZOC ignored; Tracked and Wheeled units may
go one more hex in any direction, never into or across what is NA to them except over a bridge
or along a road (the movement board's rules, as for movement).
"""

from __future__ import annotations

import dataclasses

from ...referee.combat_retreat import enemy_at, may_retreat_across, retreating_units, plain_advance_options
from .ruleset import DIVISION_HQ, HQ_TYPES, TRACKED, WHEELED


def retreat_hqs(pos, rs, unit) -> list:
    """The HQs a retreating ``unit`` must come closer to (10.5): its battalion's HQ, else the
    Division HQ (``retreat_toward="either"``: both); empty when none is on the map. An HQ in the
    hex the unit retreats from is not one (it retreats with the stack: a ruling, the text is
    silent)."""
    on_map = [u for u in pos.on_map(unit.side) if u.type in HQ_TYPES and u.hex != unit.hex]
    own = [u for u in on_map if u.type != DIVISION_HQ and u.counter.formation == unit.counter.formation]
    division = [u for u in on_map if u.type == DIVISION_HQ]
    if rs.option(pos, "retreat_toward") == "either":
        return own + division
    return own or division


def may_retreat_into(rs, pos, units, a, b) -> bool | None:
    """False when a retreating unit's step from ``a`` to ``b`` is not closer to its HQ (10.5);
    None otherwise (the movement board decides the terrain). An advance asks with
    ``rs.advancing`` set: no HQ constraint."""
    if rs.advancing:
        return None
    grid = pos.map.grid
    for unit in units:
        hqs = retreat_hqs(pos, rs, unit)
        if hqs and not any(grid.distance(b, hq.hex) < grid.distance(a, hq.hex) for hq in hqs):
            return False
    return None


def advance_search(rs, pos, unit_ids, vacated_hex, path=None, hexes=None) -> list:
    """10.6: the vacated hex, then for Tracked and Wheeled units one more hex next to it, open
    to their movement and free of enemy units (enemy ZOC ignored)."""
    rs = dataclasses.replace(rs, advancing=True)
    first = plain_advance_options(pos, rs, unit_ids, vacated_hex, hexes=1)
    units = retreating_units(pos, unit_ids)
    if not first or not all(rs.unit_class(pos, u) in (TRACKED, WHEELED) for u in units):
        return first
    grid = pos.map.grid
    side = units[0].side
    more = [n for n in grid.neighbours(vacated_hex) if n in grid and n != units[0].hex
            and not enemy_at(pos, rs, side, n) and may_retreat_across(pos, rs, units, vacated_hex, n)]
    return first + sorted(more)


def after_combat(rs, before, outcome, assessment, choices) -> None:
    """10.4: "An HQ unit in a stack cannot be chosen as a casualty unless that HQ is the only
    defending unit": a step or a unit taken from an HQ while another unit of its side in the
    combat came out with steps left is refused (apply_combat's hook)."""
    from ...errors import IllegalMoveError
    from ...referee import Reason
    from ...referee.reasons import Code
    for ids in (assessment.attackers, assessment.defenders):
        hqs = [u for u in ids if before.unit(u).type in HQ_TYPES and u in outcome.losses]
        spared = [u for u in ids if before.unit(u).type not in HQ_TYPES
                  and outcome.position.unit(u).hex is not None and u not in outcome.losses]
        if hqs and spared:
            reason = Reason(Code.COMBAT_CHOICE, "10.4", f"{', '.join(hqs)}: an HQ in a stack is not chosen as a "
                            f"casualty while {', '.join(spared)} can be", before.unit(hqs[0]).hex, tuple(hqs))
            raise IllegalMoveError(str(reason), [reason])


def _riders(rs, pos, ids) -> dict:
    """Rider id -> its carrier's id, for the riders (9.5: ``riding_tanks``) among ``ids``."""
    from .ruleset import RIDING
    out = {}
    for uid in ids:
        unit = pos.unit(uid)
        if RIDING in unit.status and (host := rs.carrier(pos, unit)) is not None:
            out[uid] = host.id
    return out


def convert_result(rs, pos, assessment, result):
    """9.5: a Leg unit riding a Tracked unit "is considered to be the same unit": the result is
    applied to the carrier and the others, the rider left out (``staying``) and given its
    carrier's fate by :func:`rider_follows` (apply_combat's ``convert_result`` hook)."""
    riders = _riders(rs, pos, (*assessment.attackers, *assessment.defenders))
    if not riders:
        return result, (), None
    return result, tuple(riders), (f"{', '.join(f'{r} rides {c}' for r, c in riders.items())}: the result is its "
                                   "carrier's, and the rider takes it equally (9.5)")


def rider_follows(rs, before, outcome, assessment) -> None:
    """9.5: "any combat result affecting that Tracked unit also affects that riding Leg unit
    equally" (a DC: the carrier's depletion and one more for the rider): the rider loses as
    many steps as its carrier lost (eliminated with it when it has no more), retreats along its
    carrier's path and advances with it."""
    pos = outcome.position
    fmt = pos.map.format
    for rider, host in _riders(rs, before, (*assessment.attackers, *assessment.defenders)).items():
        unit = pos.unit(rider)
        lost = outcome.losses.get(host, 0)
        if lost:
            if lost >= unit.steps:
                outcome.losses[rider] = unit.steps
                outcome.eliminated.append(rider)
                unit.hex = None
                unit.box = "eliminated" if pos.map.box("eliminated") is not None else None
                unit.status.discard("riding_tanks")
                outcome.log.append(f"{rider} eliminated with {host}, the Tracked unit it rides (9.5)")
                continue
            unit.steps -= lost
            outcome.losses[rider] = lost
            outcome.log.append(f"{rider} loses {lost} step(s) as {host}, the Tracked unit it rides (9.5)")
        if host in outcome.retreats and pos.unit(host).hex is not None:
            outcome.retreats[rider] = list(outcome.retreats[host])
            unit.hex = pos.unit(host).hex
            outcome.log.append(f"{rider} retreats with {host} to {fmt(unit.hex)} (9.5)")
        elif host in outcome.advances and rider not in outcome.advances:
            unit.hex = outcome.advances[host]
            outcome.advances[rider] = unit.hex
            outcome.log.append(f"{rider} advances with {host} to {fmt(unit.hex)} (9.5)")
    pos.touch()
