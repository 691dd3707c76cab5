"""Combat (10-13): the odds, column shifts and support conditions the worked examples of
11-13 and 17.0 check."""

from __future__ import annotations

from fractions import Fraction

from ...hexes import Hex
from ...referee import Reason
from ...referee.reasons import Code
from .features import active_strongpoint_owner
from .supply import supply
from .zoc import in_enemy_zoc

#: CRT columns left to right: the columns the text names (1-3, 1-2, 3-2, 2-1, 5-2, 3-1, 5-1, 6-1,
#: 8-1) plus 1-1, 4-1 and 7-1, which the rounding and shift examples need (estimated).
COLUMNS = ("1-3", "1-2", "1-1", "3-2", "2-1", "5-2", "3-1", "4-1", "5-1", "6-1", "7-1", "8-1")
_RATIO = {c: Fraction(int(c.split("-")[0]), int(c.split("-")[1])) for c in COLUMNS}


def initial_odds(attack: int, defence: int) -> str | None:
    """The CRT column of ``attack`` : ``defence`` rounded in the defender's favour (11.52);
    odds above 8-1 use 8-1; None when worse than 1-3 (no column)."""
    if defence <= 0:
        return COLUMNS[-1]
    ratio = Fraction(attack, defence)
    best = None
    for c in COLUMNS:
        if _RATIO[c] <= ratio:
            best = c
    return best


def attack_allowed(attack: int, defence: int, rs=None) -> Reason | None:
    """None if the initial odds may be declared (11.17, 11.31; option ``minimum_odds``)."""
    if rs is None:
        from .ruleset import RULESET as rs
    floor_ = Fraction(1, 4) if rs.options["minimum_odds"] == "1-4" else Fraction(1, 3)
    if defence and Fraction(attack, defence) < floor_:
        return Reason(Code.CUSTOM, "11.31" if floor_ == Fraction(1, 3) else "12.12",
                      f"initial odds {attack}:{defence} are worse than {rs.options['minimum_odds']}")
    return None


def support_shifts(points: int) -> int:
    """Columns a side's artillery + CAS support points give on the Combat Support Chart (13.23):
    1 point one column and 3 points two (13.2 example, 17.0); 2 points one column (estimated)."""
    return 0 if points <= 0 else 1 if points <= 2 else 2


def final_column(attack: int, defence: int, shifts: int) -> tuple[str, int]:
    """``(column, die roll modifier)`` after ``shifts`` (right positive), net shift capped at
    three columns (11.52); above 8-1 starts at 8-1 (11.52 note); below 1-3 is the 1-3 column
    with +1 on the die (12.12, a flat +1 however far below)."""
    start = initial_odds(attack, defence)
    i = COLUMNS.index(start) if start else -1
    i += max(-3, min(3, shifts))
    if i < 0:
        return COLUMNS[0], 1
    return COLUMNS[min(i, len(COLUMNS) - 1)], 0


def halved_attack(supplied: list[int], halved: list[int]) -> int:
    """Attack strength with the halved units' total halved, fraction dropped (3.51c, 6.42)."""
    return sum(supplied) + sum(halved) // 2


def bomber_may_support(pos, defender_hexes: list[Hex]) -> bool:
    """Bombers give CAS only where a Defender hex gives a terrain left shift or holds an
    airfield, town or village (13.25); an active Strongpoint is such terrain (17.0)."""
    types = pos.map.terrain_types
    for h in defender_hexes:
        codes = [pos.map.terrain(h), *pos.map.features(h)]
        if any(c in ("airfield", "town", "village") for c in codes):
            return True
        if any((types[c].combat.get("shift") or 0) < 0 for c in codes if c in types):
            return True
        if active_strongpoint_owner(pos, h):
            return True
    return False


def artillery_may_fire(pos, rs, unit_id: str, defender_hexes: list[Hex],
                       attacking: bool = True) -> Reason | None:
    """None if the artillery unit may give Fire Support to this combat (10.13, 10.18, 10.32)."""
    unit = pos.unit(unit_id)
    grid = pos.map.grid
    ids = (unit.id,)
    rng = unit.counter.front.get("range") or 0
    if min(grid.distance(unit.hex, h) for h in defender_hexes) > rng:
        return Reason(Code.CUSTOM, "10.13a", f"{unit.id} (range {rng}) is out of range of the Defender hex",
                      unit.hex, ids)
    if "fired" in unit.status:
        return Reason(Code.CUSTOM, "10.13b", f"{unit.id} is Fired until the Recovery Segment", unit.hex, ids)
    if unit.id not in supply(pos, unit.side, rs).supplied:
        return Reason(Code.CUSTOM, "10.13c", f"{unit.id} is out of supply", unit.hex, ids)
    if in_enemy_zoc(pos, rs, unit.side, unit.hex):
        adjacent = all(grid.distance(unit.hex, h) == 1 for h in defender_hexes)
        if not (attacking and adjacent and rs.options["artillery_in_zoc_supports_adjacent"]):
            return Reason(Code.CUSTOM, "10.13e", f"{unit.id} is in an enemy ZOC", unit.hex, ids)
    return None


def major_river_benefit(pos, attackers: dict[Hex, list[str]], defender_hexes: list[Hex]) -> bool:
    """True if the defender gets the major-river hexside benefit (11.22b): one Defender hex faces
    only non-artillery attackers coming across a major river."""
    grid, m = pos.map.grid, pos.map
    for d in defender_hexes:
        facing = [a for a, ids in attackers.items() if grid.adjacent(a, d)
                  and any(pos.unit(u).type not in ("artillery", "rocket artillery") for u in ids)]
        if facing and all("major_river" in m.hexside_codes(grid.hexside(a, d)) for a in facing):
            return True
    return False



def defender_must_retreat(result_has_retreat: bool, attackers_left: int) -> bool:
    """12.38: no defender retreat when no attacking unit is left that could occupy the hex."""
    return result_has_retreat and attackers_left > 0

