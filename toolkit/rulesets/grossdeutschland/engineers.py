"""Engineers (12.0, 12.1, 16.1): demolishing a bridge, laying a pontoon, completing it at the
end of the turn or losing it when an enemy unit comes next to it, clearing fortification
chits. Each action checks the rule and changes the position's markers (:mod:`.bridges` says
what bridge markers do to movement, :mod:`.movement` what fortification chits do).

"Adjacent to" a hexside is being in either of its hexes or in a hex next to both (as for the
rafts of 9.7); adjacent to a hex is being in it or next to it. An Eng unit is one with the
``eng`` mark (16.0: Eng and Pioneer units).
"""

from __future__ import annotations

from ...hexes import Hex, Hexside
from ...referee import Reason, board_of, enemy_zoc
from ...referee.position import Unit
from ...referee.reasons import Code
from .bridges import BLOWN, MAJOR_RIVER, PONTOON, UNDER_CONSTRUCTION, bridged, crossings, water_codes

#: 12.1: no pontoon in these weathers (14.1).
NO_PONTOON_WEATHER = ("stormy", "snowy")
#: 12.1: the hexsides a pontoon may span.
PONTOON_SIDES = ("river", "canal")
_OWNER = "placed_by:"


def demolish(rs, pos, eng_id: str, a: Hex, b: Hex | None, die: int) -> Reason | bool:
    """12.0: an Eng unit, not pinned and not in an enemy ZOC, rolls one die (``die``) to blow
    the bridge across hexside ``a``/``b`` (or over the major river hex ``a`` when ``b`` is None)
    next to it: 1 no effect, 2-6 blown (a Blown Bridge marker; a pontoon is removed instead).
    Returns why not, else whether it was blown. The roll is once per activation: the caller
    asks once."""
    eng = pos.unit(eng_id)
    why = _engineer(rs, pos, eng, "12.0", "demolish a bridge")
    if why is not None:
        return why
    if not 1 <= die <= 6:
        return Reason(Code.CUSTOM, "12.0", f"a die roll is 1 to 6, not {die}", eng.hex, (eng_id,))
    fmt = pos.map.format
    c = crossings(pos)
    if b is None:
        standing = a in c["pontoon_hexes"] or (pos.map.terrain(a) == MAJOR_RIVER and _road_through(pos, a)
                                                and a not in c["blown_hexes"])
        if not standing:
            return Reason(Code.CUSTOM, "12.0", f"no standing bridge over {fmt(a)}", a, (eng_id,))
        if not _next_to_hex(pos, eng.hex, a):
            return Reason(Code.NOT_ADJACENT, "12.0", f"{eng_id} is not next to the bridge over {fmt(a)}", a, (eng_id,))
    else:
        if not water_codes(pos, a, b) or not bridged(pos, a, b):
            return Reason(Code.CUSTOM, "12.0", f"no standing bridge across {fmt(a)}/{fmt(b)}", a, (eng_id,))
        if not _next_to_side(pos, eng.hex, a, b):
            return Reason(Code.NOT_ADJACENT, "12.0", f"{eng_id} is not next to the bridge across {fmt(a)}/{fmt(b)}",
                          a, (eng_id,))
    if die == 1:
        return False
    pontoons = [u for u in _markers(pos, PONTOON) if _spans(pos, u, a, b)]
    if pontoons:                                  # "a pontoon bridge can be demolished exactly like" one
        for u in pontoons:
            del pos.units[u.id]
    else:
        _add_marker(pos, BLOWN, a, b, set())
    pos.touch()
    return True


def place_pontoon(rs, pos, eng_id: str, a: Hex, b: Hex | None = None, activation=None) -> Reason | None:
    """12.1: an activated Eng unit (in ``activation``'s units, when given), not pinned and not in
    an enemy ZOC, not in storm or snow, lays a pontoon (under construction) across the river or
    canal hexside ``a``/``b`` next to it, or in the major river hex ``a`` next to it or next to
    a completed pontoon. Returns why not, or None (the marker is placed)."""
    eng = pos.unit(eng_id)
    ids = (eng_id,)
    fmt = pos.map.format
    why = _engineer(rs, pos, eng, "12.1", "lay a pontoon")
    if why is not None:
        return why
    if activation is not None and eng_id not in activation.units:
        return Reason(Code.CUSTOM, "12.1", f"{eng_id} has not been activated", eng.hex, ids)
    if pos.current_weather in NO_PONTOON_WEATHER:
        return Reason(Code.CUSTOM, "12.1", f"no pontoon bridge may be placed in {pos.current_weather} weather",
                      eng.hex, ids)
    if b is None:
        if pos.map.terrain(a) != MAJOR_RIVER:
            return Reason(Code.CUSTOM, "12.1", f"{fmt(a)} is not a major river hex", a, ids)
        done = crossings(pos)["pontoon_hexes"]
        if not _next_to_hex(pos, eng.hex, a) and not any(n in done for n in pos.map.grid.neighbours(a)):
            return Reason(Code.NOT_ADJACENT, "12.1", f"{fmt(a)} is next to neither {eng_id} nor a completed "
                          f"pontoon", a, ids)
    else:
        if not any(code in PONTOON_SIDES for code in water_codes(pos, a, b)):
            return Reason(Code.CUSTOM, "12.1", f"{fmt(a)}/{fmt(b)} is not a river or canal hexside", a, ids)
        if not _next_to_side(pos, eng.hex, a, b):
            return Reason(Code.NOT_ADJACENT, "12.1", f"{eng_id} is not next to the hexside {fmt(a)}/{fmt(b)}", a, ids)
    if any(_spans(pos, u, a, b) for u in _markers(pos, PONTOON)):
        return Reason(Code.CUSTOM, "12.1", "a pontoon is already there", a, ids)
    _add_marker(pos, PONTOON, a, b, {UNDER_CONSTRUCTION, _OWNER + str(eng.side)})
    pos.touch()
    return None


def complete_pontoons(pos) -> list[str]:
    """End of turn (3.5, 12.1): every pontoon under construction is flipped to its completed
    side. Returns the markers flipped."""
    done = [u for u in _markers(pos, PONTOON) if UNDER_CONSTRUCTION in u.status]
    for u in done:
        u.status.discard(UNDER_CONSTRUCTION)
    pos.touch()
    return [u.id for u in done]


def enemy_moved_next_to(pos, unit_id: str) -> list[str]:
    """12.1: "A pontoon bridge cannot be completed if, at any time, any enemy unit moves adjacent
    to the hexside or the hex where it had been placed": call when ``unit_id`` has entered its
    hex; the other side's pontoons under construction next to it are removed (returned)."""
    unit = pos.unit(unit_id)
    gone = []
    for marker in _markers(pos, PONTOON):
        owner = next((s[len(_OWNER):] for s in marker.status if s.startswith(_OWNER)), None)
        if UNDER_CONSTRUCTION not in marker.status or owner in (None, unit.side) or unit.hex is None:
            continue
        sides = _sides_of(pos, marker)
        near = any(_next_to_side(pos, unit.hex, s.a, s.b) for s in sides) if sides else \
            _next_to_hex(pos, unit.hex, marker.hex)
        if near:
            del pos.units[marker.id]
            gone.append(marker.id)
    if gone:
        pos.touch()
    return gone


def clear_fortifications(rs, pos, eng_id: str, hex: Hex, spent, fought: bool = False,
                         activation=None) -> Reason | list[str]:
    """16.1: an activated Eng unit (in ``activation``'s units, when given) in or next to ``hex``
    that has spent at least half its printed MA there (``spent``: the MP it spent in or next
    to the hex) removes every fortification chit in it, automatically; not if it is pinned or
    ``fought`` this turn, nor when an enemy unit holds the hex or the hex is in an enemy ZOC.
    Map-printed fortifications (a dragon's-teeth hexside) are terrain, never cleared. Returns
    why not, or the chits removed."""
    from fractions import Fraction

    from .sight import FORTIFICATIONS
    eng = pos.unit(eng_id)
    ids = (eng_id,)
    fmt = pos.map.format
    if "eng" not in eng.counter.marks or eng.hex is None:
        return Reason(Code.CUSTOM, "16.1", f"only an Eng unit on the map clears fortifications; {eng_id} is not one",
                      eng.hex, ids)
    if activation is not None and eng_id not in activation.units:
        return Reason(Code.CUSTOM, "16.1", f"{eng_id} has not been activated", eng.hex, ids)
    if "pinned" in eng.status or fought:
        return Reason(Code.CUSTOM, "16.1", f"{eng_id} {'is pinned' if not fought else 'fought this turn'} and may "
                      f"not clear a fortification", eng.hex, ids)
    if not _next_to_hex(pos, eng.hex, hex):
        return Reason(Code.NOT_ADJACENT, "16.1", f"{eng_id} is neither in nor next to {fmt(hex)}", hex, ids)
    half = Fraction(rs.printed_ma(pos, eng)) / 2
    if Fraction(spent) < half:
        return Reason(Code.NOT_ENOUGH_MP, "16.1", f"{eng_id} has spent {spent} MP in or next to {fmt(hex)}; clearing "
                      f"takes at least half its printed MA ({half})", hex, ids)
    if any(u.side not in (eng.side, None) and not u.counter.is_marker for u in pos.at(hex)) or \
            enemy_zoc(pos, rs, eng.side)[board_of(pos.map).index[hex]]:
        return Reason(Code.CUSTOM, "16.1", f"{fmt(hex)} holds an enemy unit or lies in an enemy ZOC", hex, ids)
    chits = [u.id for u in pos.at(hex) if u.counter.is_marker and u.type in FORTIFICATIONS]
    if not chits:
        return Reason(Code.CUSTOM, "16.1", f"no fortification chit in {fmt(hex)}", hex, ids)
    for chit in chits:
        del pos.units[chit]
    pos.touch()
    return chits


def _engineer(rs, pos, eng, rule: str, verb: str) -> Reason | None:
    ids = (eng.id,)
    if "eng" not in eng.counter.marks or eng.hex is None:
        return Reason(Code.CUSTOM, rule, f"only an Eng unit on the map may {verb}; {eng.id} is not one", eng.hex, ids)
    if "pinned" in eng.status:
        return Reason(Code.CANNOT_MOVE, rule, f"{eng.id} is pinned and may not {verb}", eng.hex, ids)
    if enemy_zoc(pos, rs, eng.side)[board_of(pos.map).index[eng.hex]]:
        return Reason(Code.CUSTOM, rule, f"{eng.id} is in an enemy ZOC and may not {verb}", eng.hex, ids)
    return None


def _next_to_side(pos, hex: Hex, a: Hex, b: Hex) -> bool:
    grid = pos.map.grid
    return hex in (a, b) or (grid.adjacent(hex, a) and grid.adjacent(hex, b))


def _next_to_hex(pos, hex: Hex, target: Hex) -> bool:
    return hex == target or pos.map.grid.adjacent(hex, target)


def _road_through(pos, hex: Hex) -> bool:
    return any(hex in line.hexes and pos.map.line_types[line.code].bridges for line in pos.map.lines
               if line.code in pos.map.line_types)


def _markers(pos, kind: str) -> list[Unit]:
    return [u for u in pos.units.values() if u.counter.is_marker and u.type == kind and u.hex is not None]


def _sides_of(pos, marker) -> list[Hexside]:
    grid = pos.map.grid
    return [Hexside.of(marker.hex, grid.neighbour(marker.hex, s.split(":", 1)[1]))
            for s in marker.status if s.startswith("facing:")]


def _spans(pos, marker, a: Hex, b: Hex | None) -> bool:
    sides = _sides_of(pos, marker)
    return Hexside.of(a, b) in sides if b is not None else (not sides and marker.hex == a)


def _add_marker(pos, kind: str, a: Hex, b: Hex | None, status: set) -> None:
    counter = next(c for c in pos.game.counters.values() if c.is_marker and c.type == kind)
    n = 1
    while f"{counter.id}#{n}" in pos.units:
        n += 1
    if b is not None:
        status = status | {f"facing:{pos.map.grid.direction(a, b)}"}
    pos.units[f"{counter.id}#{n}"] = Unit(id=f"{counter.id}#{n}", counter=counter, side=None, hex=a, status=status)
