"""What the Demyansk Shield rules look up on the board: unit categories, Strongpoints,
airfields, roads and the scenario's play area."""

from __future__ import annotations

from ...hexes import Hex

HEAVY_TYPES = ("armor", "artillery", "rocket artillery", "recon")   # 8.35
BOX_OF_COLOUR = {"red": "nwf", "yellow": "valday", "green": "swf"}   # 9.32-9.33
WET = ("dry", "mud")                                                 # 8.34, 8.35: not Frozen
SP_FEATURE = {"axis": "strongpoint", "soviet": "soviet_strongpoint"}  # printed, by owner (14.11)
SP_MARKER = "m-sp"                                                   # built Axis Strongpoint (14.32)
AIRFIELD_MARKER = "m-airfield"                                       # constructed airfield (14.5)
NON_ACTIVE = ("non_active", "destroyed", "under_construction")       # marker statuses (14.32)


def enemy_of(side: str | None) -> str:
    """The other side."""
    return "soviet" if side == "axis" else "axis"


def is_heavy(unit) -> bool:
    """Armor, artillery and recon: the heavy units of 8.35."""
    return unit.type in HEAVY_TYPES


def markers_at(pos, hex: Hex, counter_id: str) -> list:
    return [u for u in pos.at(hex) if u.counter.id == counter_id or u.id.split("#")[0] == counter_id]


def active_strongpoint_owner(pos, hex: Hex) -> str | None:
    """The side owning an active Strongpoint on ``hex`` (printed or built), else None (14.1)."""
    markers = markers_at(pos, hex, SP_MARKER)
    if any(not (set(m.status) & set(NON_ACTIVE)) for m in markers):
        return "axis"   # only the Axis builds Strongpoints (14.31)
    destroyed = any(set(m.status) & set(NON_ACTIVE) for m in markers)
    feats = pos.map.features(hex)
    for side, code in SP_FEATURE.items():
        if code in feats and not destroyed:
            return side
    return None


def printed_strongpoint_owner(pos, hex: Hex) -> str | None:
    """The owner of a non-destroyed Strongpoint printed on ``hex`` (6.34), else None."""
    if any(set(m.status) & set(NON_ACTIVE) for m in markers_at(pos, hex, SP_MARKER)):
        return None
    feats = pos.map.features(hex)
    for side, code in SP_FEATURE.items():
        if code in feats:
            return side
    return None


def no_zoc_band(unit) -> bool:
    return "no-zoc" in unit.counter.marks or bool(unit.counter.band)



def road_hex(pos, hex: Hex) -> bool:
    """True if a road runs through ``hex``."""
    return any(hex in ln.hexes for ln in pos.map.lines if ln.code == "road")


def adjacent_enemy(pos, unit) -> bool:
    """True if an enemy combat unit (not air) is next to ``unit`` (9.11)."""
    for n in pos.map.grid.neighbours(unit.hex):
        if any(o.side not in (None, unit.side) and o.counter.kind == "unit" and o.type != "air" for o in pos.at(n)):
            return True
    return False


def enemy_combat_unit_at(pos, side: str | None, hex: Hex) -> bool:
    """True if an enemy combat unit (of ``side``'s enemy) stands on ``hex``."""
    return any(o.side not in (None, side) and o.counter.kind == "unit" for o in pos.at(hex))


def play_rows(pos) -> tuple[int, int]:
    """The rows in play: Scenario 2 uses only the map west of the line 1117-3917 (19.22)."""
    scen = pos.game.scenarios.get(pos.scenario) if pos.scenario else None
    area = (scen.options.get("play_area") or {}) if scen else {}
    rows = area.get("rows") if isinstance(area, dict) else None
    return (rows[0], rows[1]) if rows else (pos.map.grid.first_row, pos.map.grid.last_row)



def in_play_area(pos, hex: Hex) -> bool:
    """True if ``hex`` is inside the scenario's map area (19.22)."""
    rows = play_rows(pos)
    return rows[0] <= hex.row <= rows[1]


def airfields(pos) -> list[tuple[Hex, str]]:
    """Every airfield on the map: ``(hex, "printed" | "constructed")`` (6.33, 14.5); a
    constructed one counts once its marker is active."""
    out = [(h, "printed") for h, c in pos.map.hexes.items() if "airfield" in c.features]
    for m in pos.units.values():
        if m.hex is not None and m.id.split("#")[0] == AIRFIELD_MARKER and not set(m.status) & set(NON_ACTIVE):
            out.append((m.hex, "constructed"))
    return out
