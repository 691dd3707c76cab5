"""Retreats (12.3, 12.4): where a normal retreat may end, retreat through an enemy ZOC, and
the No Retreat option."""

from __future__ import annotations

from ...hexes import Hex
from ...referee import Reason, Source, retreat_options, supply_trace
from ...referee.combat_retreat import plain_retreat_options
from ...referee.reasons import Code
from .features import WET, active_strongpoint_owner, enemy_combat_unit_at, is_heavy, printed_strongpoint_owner, road_hex
from .supply import sources as supply_sources
from .supply import supply

def retreat_destinations(pos, rs, unit_ids, defender_hex: Hex | None = None,
                         hexes: tuple[int, ...] = (1, 2), source: Hex | None = None) -> dict[Hex, list[Hex]]:
    """Where a normal retreat of ``unit_ids`` (as a stack) may end: hex -> path (12.3), from the
    referee's shared retreat search (``RetreatRules``: away from the Defender hex, never
    through a vacant enemy-ZOC hex, a friendly-occupied one allowed (12.35), the end within
    the stacking limit (12.33)).

    Map-printed units and heavy units stuck in swamp cannot retreat (12.33, 8.35a). With
    ``source`` (the Supply Source the units traced to for this combat), ends farther from it
    are dropped unless no other end exists (12.37).
    """
    units = pos.units_of(unit_ids)
    start = units[0].hex
    if cannot_retreat(pos, units):
        return {}
    out = retreat_options(pos, rs, [u.id for u in units], tuple(hexes), from_hex=defender_hex or start).paths
    if source is not None and out:
        grid = pos.map.grid
        before = grid.distance(start, source)
        closer = {h: p for h, p in out.items() if grid.distance(h, source) <= before}
        if closer:
            out = closer
    return dict(out)


def cannot_retreat(pos, units) -> bool:
    """True for units that never retreat: printed on the map (12.33) or heavy units stuck on
    swamp in Dry or Mud (8.35a): a retreat result eliminates them."""
    start = units[0].hex
    if any(u.value("movement", 0) == 0 for u in units):
        return True
    return any(is_heavy(u) for u in units) and pos.current_weather in WET and pos.map.terrain(start) == "swamp" \
        and not road_hex(pos, start)


def may_retreat_into(pos, units, a, b) -> bool | None:
    """The ``may_retreat_into`` hook: no hex for units that cannot retreat at all (12.33, 8.35a);
    None otherwise (the movement board decides)."""
    return False if cannot_retreat(pos, units) else None


def zoc_retreat_possible(pos, rs, unit_ids, defender_hex: Hex | None = None) -> Reason | None:
    """None if units with no normal retreat may try a retreat through an enemy ZOC (12.43):
    all units eligible (not artillery or rocket artillery, not map-printed) and a vacant enemy
    ZOC hex to enter first."""
    units = pos.units_of(unit_ids)
    ids = tuple(u.id for u in units)
    if retreat_destinations(pos, rs, unit_ids, defender_hex):
        return Reason(Code.CUSTOM, "12.43a", "a normal retreat exists", units[0].hex, ids)
    bad = [u.id for u in units if u.type in ("artillery", "rocket artillery") or u.value("movement", 0) == 0]
    if bad:
        return Reason(Code.CUSTOM, "12.43b", f"{', '.join(bad)} may not retreat through an enemy ZOC: eliminated",
                      units[0].hex, ids)
    side = units[0].side
    origin = defender_hex or units[0].hex
    grid = pos.map.grid
    for n in grid.neighbours(units[0].hex):
        if (n in grid and grid.distance(origin, n) > grid.distance(origin, units[0].hex)
                and not enemy_combat_unit_at(pos, side, n)):
            return None
    return Reason(Code.CUSTOM, "12.32", "no hex to retreat into", units[0].hex, ids)


def zoc_retreat_drm(pos, unit_ids, storm: bool = False) -> int:
    """DRM on the Retreat Options Table for a retreat through an enemy ZOC (12.44b)."""
    units = pos.units_of(unit_ids)
    return (1 if all(u.counter.front.get("em") for u in units) else 0) + (1 if storm else 0)


def no_retreat_drm(pos, unit_ids) -> int | None:
    """DRM for No Retreat (12.42), or None if the units are not eligible: eligible on a
    Strongpoint, town, airfield, hill or friendly Entry hex; Axis +1 if all are on an active
    printed Strongpoint, +1 if an SS unit is in the force (artillery support disregarded)."""
    units = pos.units_of(unit_ids)
    m = pos.map
    side = units[0].side

    def eligible(u):
        codes = [m.terrain(u.hex), *m.features(u.hex)]
        if active_strongpoint_owner(pos, u.hex) == side or any(c in ("town", "airfield", "hill") for c in codes):
            return True
        return any(u.hex in b.entry and b.side == side for b in m.boxes)

    if not any(eligible(u) for u in units):
        return None
    return len(_no_retreat_drms(pos, units))


def _no_retreat_drms(pos, units) -> list[str]:
    """The +1 DRMs of 12.42c that apply, in words."""
    out = []
    if units[0].side == "axis" and all(printed_strongpoint_owner(pos, u.hex) == "axis" for u in units):
        out.append("+1 all on a printed Strongpoint")
    if units[0].side == "axis" and any(u.counter.colour == "#262626" for u in units if u.type not in ("artillery",)):
        out.append("+1 an SS unit in the force")
    return out


def no_retreat(pos, role, units):
    """The ``no_retreat`` hook: ``(drm, why)`` from :func:`no_retreat_drm`, or the 12.42b
    refusal when no unit of the force stands where No Retreat may be tried."""
    ids = [u.id for u in units]
    drm = no_retreat_drm(pos, ids)
    if drm is None:
        return Reason(Code.COMBAT_CHOICE, "12.42b", f"{', '.join(ids)}: No Retreat needs a unit on a Strongpoint, "
                      "town, airfield, hill or friendly Entry hex", units[0].hex if units else None, tuple(ids))
    return drm, ", ".join(_no_retreat_drms(pos, units)) + " (12.42c)" if drm else ""


def zoc_retreat(pos, role, units):
    """The ``zoc_retreat`` hook: ``(drm, why)`` for units that may try a retreat through an
    enemy ZOC (12.43b: not artillery or rocket artillery; 12.44b: +1 when all have an
    Exploitation Movement box, +1 in Storm), else the 12.43b refusal."""
    ids = [u.id for u in units]
    bad = [u.id for u in units if u.type in ("artillery", "rocket artillery")]
    if bad:
        return Reason(Code.COMBAT_CHOICE, "12.43b", f"{', '.join(bad)} may not retreat through an enemy ZOC",
                      units[0].hex, tuple(ids))
    storm = "storm" in (pos.current_weather or "")
    why = [w for w, on in (("+1 all have an Exploitation Movement box", all(u.counter.front.get("em") for u in units)),
                           ("+1 Storm", storm)) if on]
    return zoc_retreat_drm(pos, ids, storm=storm), ", ".join(why) + " (12.44b)" if why else ""



def retreat_search(pos, rs, unit_ids, length, from_hex=None):
    """The ``retreat_search`` hook: the shared retreat search, then 12.37 (:func:`toward_supply`)."""
    return toward_supply(pos, rs, plain_retreat_options(pos, rs, unit_ids, length, from_hex=from_hex))


def toward_supply(pos, rs, answer):
    """``answer`` with the ends 12.37 forbids dropped (into ``answer.dropped`` with the reason).

    A retreat may not increase the distance (in hexes) to the Supply Source the units traced
    to for this combat, nor end where they trace no Supply Route, unless no other end exists:
    each end counts its breaches (farther; out of supply) and only the ends with the fewest
    stay. The source is the one the referee's supply search traced for this combat (option
    ``retreat_source`` "traced"), or any source the units can trace to ("any": an end is not
    farther if it is not farther from one of them). Units tracing to no source (out of
    supply) are not held to 12.37. The units defend (the constructed airfield serves them,
    6.35) unless they are of the side to move."""
    if answer.eliminated or len(answer.paths) < 2:
        return answer
    side = pos.unit(answer.units[0]).side
    defending = frozenset(answer.units) if side != pos.side else frozenset()
    traced = supply(pos, side, rs, defending).paths if rs.options["retreat_source"] == "traced" else None
    per_unit = []
    for uid in answer.units:
        reach, own = _traceable(pos, rs, pos.unit(uid), answer.start, defending)
        if traced is not None and uid in traced:
            near = [traced[uid][-1]]
        else:
            near = [h for h, _ in reach]
        if not near:
            return answer                           # out of supply now: 12.37 gives no direction
        per_unit.append((near, reach, own))
    grid = pos.map.grid
    fmt = pos.map.format

    def breaches(end) -> list[str]:
        out = []
        for near, _, _ in per_unit:
            if all(grid.distance(end, h) > grid.distance(answer.start, h) for h in near):
                src = min(near, key=lambda h: grid.distance(answer.start, h))
                out.append(f"farther from the Supply Source {fmt(src)} ({grid.distance(answer.start, src)} "
                           f"-> {grid.distance(end, src)} hexes)")
                break
        for _, reach, own in per_unit:
            if end not in own and not any(trace.reaches(end) for _, trace in reach):
                out.append("out of supply")
                break
        return out

    counts = {end: breaches(end) for end in answer.paths}
    best = min(len(b) for b in counts.values())
    for end, why in counts.items():
        if len(why) > best:
            answer.dropped[end] = Reason(Code.RETREAT_ILLEGAL, "12.37", f"a retreat ending in {fmt(end)} is "
                                         f"{' and '.join(why)} while a retreat "
                                         f"{'breaking 12.37 less' if best else 'toward supply'} exists",
                                         end, answer.units)
            del answer.paths[end]
            answer.losses.pop(end, None)
            answer.overstacked.pop(end, None)
    return answer


def _traceable(pos, rs, unit, start, defending) -> tuple[list, set]:
    """``(source hex, its trace)`` for every Supply Source ``unit`` in ``start`` traces to now
    (6.2, 6.3), each source hex searched on its own (cached per position), and the hexes of
    the sources serving it without a route (printed Strongpoints, 6.34)."""
    out, own = [], set()
    for group in supply_sources(rs, pos, unit.side, {"defending": defending}):
        if not isinstance(group, Source):
            group = Source((group,))
        if group.serves is not None and not group.serves(unit):
            continue
        if not group.trace:
            own.update(group.hexes)
            continue
        for h in group.hexes:
            trace = pos.cached("ds-source-trace", rs, (unit.side, h),
                               lambda h=h: supply_trace(pos, rs, unit.side, [h]))
            if trace.reaches(start):
                out.append((h, trace))
    return out, own


def retreat_before_combat(pos, units):
    """The ``retreat_before_combat`` hook (11.42): ``(0, "")`` when every defending unit has an
    Exploitation Movement box (11.42a) and no ski unit tries it in Mud or Dry (11.42e); else the
    refusal. The rules give the roll no DRM."""
    ids = tuple(u.id for u in units)
    where = units[0].hex if units else None
    lacking = [u.id for u in units if not u.counter.front.get("em")]
    if lacking:
        return Reason(Code.COMBAT_CHOICE, "11.42", f"{', '.join(lacking)} {'has' if len(lacking) == 1 else 'have'} "
                      "no Exploitation Movement box: every unit in the Defender hex needs one", where, ids)
    ski = [u.id for u in units if u.type == "ski"]
    if ski and pos.current_weather in WET:
        return Reason(Code.COMBAT_CHOICE, "11.42", f"ski unit {', '.join(ski)} may not Retreat Before Combat in "
                      f"{pos.current_weather.title()} weather", where, ids)
    return 0, ""


def retreat_boxes(pos, units) -> list[str]:
    """The ``retreat_boxes`` hook (12.32): a stack on a Map Box Entry hex may retreat straight
    into that friendly Map Box, crossing no hex: the box whose Entry hexes hold the stack, of
    its side (9.31) and the box every unit of it enters from (9.32, 9.33: a Soviet unit's colour);
    never units that cannot retreat (12.33, 8.35a) or 2GRC units (5.34: they leave only by the
    2GRC exit)."""
    from .boxes import entry_box
    if not units or cannot_retreat(pos, units) or any(u.counter.formation == "2GRC" for u in units):
        return []
    start, side = units[0].hex, units[0].side
    return [b.id for b in pos.map.boxes if b.side == side and start in b.entry
            and all(entry_box(u) == b.id for u in units)]
