"""Blown bridges (12.0) and pontoon bridges (12.1) as position state, and what they do to a step.

Both are markers in the position, placed like a fortification chit: a marker of type
``blown bridge`` or ``pontoon bridge`` in a hex, with a status ``facing:DIR`` (compass names of
the grid) for each hexside of that hex it lies across; with no facing it lies across the hex
itself (a bridge over a major river hex, or a pontoon in one, 12.1). A pontoon with the status
``under_construction`` is the marker's back (hammer and wrench) and does nothing yet.

* A blown bridge is no bridge: the water of the hexside applies again, so Tracked and Wheeled
  units may not cross a river (9.1) and Leg units pay its MP; no road carries a unit over it
  (the road's own bridge is the one blown); no unit crosses a river into an enemy ZOC over it
  (8.0); no ZOC crosses it where the water is NA to Wheeled units (8.0). A blown bridge over
  a major river hex makes that hex impassable again (9.1).
* A completed pontoon "functions like a normal bridge" (12.1) for movement: the water of the
  hexside it spans is nullified (9.1; option ``pontoon="na_only"``: it only lifts the NA, as
  12.1's last sentence may be read, and Leg units still pay the river) and a unit may cross it
  into an enemy ZOC (8.0); in a
  major river hex it lets units enter the hex at the cost of clear terrain (a bridge is "the
  same type of other surrounding terrain", 9.1; estimated). It never changes a combat DRM
  (12.1, combat's business). It cannot add a ZOC across the river: the shared ZOC rules only
  let a ruleset take ZOC away (documented limit).
"""

from __future__ import annotations

from fractions import Fraction

from ...hexes import Hex, Hexside

BLOWN = "blown bridge"
PONTOON = "pontoon bridge"
UNDER_CONSTRUCTION = "under_construction"
#: Hexside water a bridge spans (9.1, 9.7, 10.8).
WATER_SIDES = ("river", "canal", "stream", "ford")
MAJOR_RIVER = "major_river"


def crossings(pos) -> dict:
    """``{"blown": {sides}, "pontoon": {sides}, "blown_hexes": {hexes}, "pontoon_hexes": {hexes}}``
    from the markers of the position (built once per change of the position)."""
    got = pos._cache.get("gd-crossings")
    if got is not None:
        return got
    got = {"blown": set(), "pontoon": set(), "blown_hexes": set(), "pontoon_hexes": set()}
    grid = pos.map.grid
    for unit in pos.units.values():
        if unit.hex is None or not unit.counter.is_marker or unit.type not in (BLOWN, PONTOON):
            continue
        if unit.type == PONTOON and UNDER_CONSTRUCTION in unit.status:
            continue
        kind = "blown" if unit.type == BLOWN else "pontoon"
        facings = [s.split(":", 1)[1] for s in unit.status if s.startswith("facing:")]
        if not facings:
            got[f"{kind}_hexes"].add(unit.hex)
        for direction in facings:
            got[kind].add(Hexside.of(unit.hex, grid.neighbour(unit.hex, direction)))
    pos._cache["gd-crossings"] = got
    return got


def is_blown(pos, a: Hex, b: Hex) -> bool:
    return Hexside.of(a, b) in crossings(pos)["blown"]


def has_pontoon(pos, a: Hex, b: Hex) -> bool:
    return Hexside.of(a, b) in crossings(pos)["pontoon"]


def water_codes(pos, a: Hex, b: Hex) -> list[str]:
    return [c for c in pos.map.hexside_codes(Hexside.of(a, b)) if c in WATER_SIDES]


def bridged(pos, a: Hex, b: Hex) -> bool:
    """Whether a bridge that is not blown spans the hexside a/b: a bridge feature, a road with
    its own bridge, or a completed pontoon (8.0, 9.1, 12.0, 12.1)."""
    if has_pontoon(pos, a, b):
        return True
    if is_blown(pos, a, b):
        return False
    m = pos.map
    side = Hexside.of(a, b)
    if any(m.hexside_types[c].bridge for c in m.hexside_codes(side) if c in m.hexside_types):
        return True
    return any(code in m.line_types and m.line_types[code].bridges for code in m.line_links().get(side, ()))


def supply_hexsides(pos, cls: str) -> dict:
    """For a supply line traced as class ``cls``: each blown bridge's hexside blocked when its
    water is NA to ``cls``, each completed pontoon's opened (12.0, 12.1)."""
    got = crossings(pos)
    out = {}
    for side in got["blown"]:
        if side_cost(pos, cls, water_codes(pos, side.a, side.b)) is None:
            out[side] = True
    for side in got["pontoon"]:
        out[side] = False
    return out


def enter_cost(pos, cls: str, hex: Hex, terrain: str | None = None) -> Fraction | None:
    """What the hex's own terrain (or ``terrain`` instead) costs class ``cls`` (None: NA);
    "H"/"ALL" cells count 0 here (the H/ALL rule adds them later)."""
    m = pos.map
    cell = m.terrain_types.get(terrain or m.terrain(hex))
    if cell is None:
        return Fraction(0)
    found, cost = cell.move.lookup(cls, pos.current_weather or "*")
    if not found:
        return Fraction(0)
    return None if cost is None else Fraction(cost)


def side_cost(pos, cls: str, codes) -> Fraction | None:
    """The MP the hexside features ``codes`` add for class ``cls`` (None: NA)."""
    total = Fraction(0)
    for code in codes:
        kind = pos.map.hexside_types.get(code)
        if kind is None:
            continue
        found, cost = kind.move.lookup(cls, pos.current_weather or "*")
        if found and cost is None:
            return None
        total += Fraction(cost or 0)
    return total


def crossing_rule(rs, pos, units, step):
    """12.0, 12.1: the step re-priced when it crosses a blown bridge or a completed pontoon, or
    enters a major river hex whose bridge is blown or that holds a pontoon; a Reason when that
    makes it illegal; None when neither applies (the step stands as the shared parts priced it)."""
    import dataclasses

    from ...referee import Reason
    from ...referee.reasons import Code
    c = crossings(pos)
    if not any(c.values()):
        return None
    a, b = step.a, step.b
    fmt = pos.map.format
    ids = tuple(u.id for u in units)
    if b in c["blown_hexes"] and b not in c["pontoon_hexes"]:
        return Reason(Code.PROHIBITED_TERRAIN, "12.0", f"the bridge over {fmt(b)} is blown: no unit may cross a "
                      f"major river hex without a bridge (9.1)", b, ids)
    water = water_codes(pos, a, b)
    pontoon_side = bool(water) and has_pontoon(pos, a, b)
    blown_side = bool(water) and is_blown(pos, a, b) and not pontoon_side
    pontoon_hex = b in c["pontoon_hexes"]
    if not (pontoon_side or blown_side or pontoon_hex):
        return None
    if step.used_line and step.prohibited is None and not blown_side:
        return None                                   # the road already carries the unit over
    zoc = step.cost - (0 if step.prohibited is not None else (step.line if step.used_line else step.terrain or 0))
    total = Fraction(0)
    for unit in units:
        cls = rs.unit_class(pos, unit)
        here = enter_cost(pos, cls, b)
        if pontoon_hex and pos.map.terrain(b) == MAJOR_RIVER:
            here = enter_cost(pos, cls, b, "clear")    # estimated: the bridge is as the banks' clear
        if here is None:
            return Reason(Code.PROHIBITED_TERRAIN, "12.0" if blown_side else "9.1",
                          f"{unit.id} may not enter the {pos.map.terrain(b)} at {fmt(b)}", b, ids)
        if pontoon_side and rs.option(pos, "pontoon") == "na_only":
            extra = side_cost(pos, cls, water)        # 12.1 read narrowly: it only lifts the NA
            here += extra or 0
        if blown_side:
            extra = side_cost(pos, cls, water)
            if extra is None:
                return Reason(Code.PROHIBITED_HEXSIDE, "12.0", f"the bridge across {fmt(a)}/{fmt(b)} is blown: "
                              f"{unit.id} ({cls}) may not cross the {'/'.join(water)} (9.1)", b, ids)
            here += extra
        total = max(total, here)
    return dataclasses.replace(step, cost=total + zoc, terrain=total, line=None, used_line=False, prohibited=None)


def zoc_crosses(pos, unit, hex) -> bool:
    """8.0: no ZOC across a blown bridge where the water is NA to Wheeled units, nor into a
    major river hex whose bridge is blown."""
    c = crossings(pos)
    if not (c["blown"] or c["blown_hexes"]) or unit.hex is None:
        return True
    if hex in c["blown_hexes"] and hex not in c["pontoon_hexes"]:
        return False
    if is_blown(pos, unit.hex, hex) and not has_pontoon(pos, unit.hex, hex):
        return side_cost(pos, "wheeled", water_codes(pos, unit.hex, hex)) is not None
    return True
