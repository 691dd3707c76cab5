"""Set-up areas: where a scenario lets a unit set up, in the rulebook's own terms.

An area is one *reference* (listed hexes, a hex, any hex of a named place, any hex of a
terrain, or the hex a unit sets up on), optionally widened to every hex ``within`` N hexes of
it, and optionally cut to the hexes on one side of a named hexside line ("north of the Pena
River"). :func:`area_hexes` turns an area into the set of hexes of one map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..hexes import Hex, Layout
from .map import Map
from .provenance import UNSOURCED, Source

#: The sides of a line an area may name, as compass words.
SIDES = ("north", "south", "east", "west")


@dataclass(frozen=True)
class SetupArea:
    """Where a set-up entry may be placed.

    Exactly one reference (``hexes``, ``hex``, ``place``, ``terrain``, ``unit``) unless the
    area is only a side of a line. ``within`` (0 = the reference itself) widens the
    reference; ``side_of`` = ``(compass side, line name)`` keeps the hexes on that side of
    the hexsides named so on the map.
    """

    hexes: tuple[Hex, ...] = ()
    hex: Hex | None = None
    place: str | None = None
    terrain: str | None = None
    unit: str | None = None
    within: int = 0
    side_of: tuple[str, str] | None = None
    source: Source = UNSOURCED

    @property
    def reference(self) -> str | None:
        """Which reference key the area uses (None: only a side of a line)."""
        for key in ("hexes", "hex", "place", "terrain", "unit"):
            if getattr(self, key):
                return key
        return None

    def describe(self, fmt=str) -> str:
        """The area in words, e.g. ``within 3 hexes of hex 2743``; ``fmt`` formats hex ids."""
        ref = {"hexes": lambda: "hexes " + " ".join(fmt(h) for h in self.hexes),
               "hex": lambda: f"hex {fmt(self.hex)}",
               "place": lambda: f"{'any hex of ' if not self.within else ''}{self.place}",
               "terrain": lambda: f"any {self.terrain} hex",
               "unit": lambda: f"unit {self.unit}"}
        key = self.reference
        text = ref[key]() if key else "any hex"
        if self.within:
            text = f"within {self.within} hex{'es' if self.within != 1 else ''} of {text}"
        if self.side_of:
            text += f" {self.side_of[0]} of {self.side_of[1]}"
        return text


class AreaError(ValueError):
    """An area names something the map or the set-up does not have."""


def area_hexes(area: SetupArea, m: Map, unit_hexes: Mapping[str, Hex] | None = None) -> frozenset[Hex]:
    """The hexes of ``m`` inside ``area``.

    ``unit_hexes`` gives the hex of each unit an area may be measured from (the hexes the
    scenario sets them up on, or a position's). Raises :class:`AreaError` when the area names
    a place, terrain, line or unit that is not there.
    """
    grid = m.grid
    key = area.reference
    if key is None:
        base = frozenset(grid)
    else:
        base = frozenset(h for h in _reference(area, key, m, unit_hexes or {}) if h in grid)
        if area.within:
            base = frozenset(g for h in base for g in grid.within(h, area.within))
    if area.side_of:
        side, name = area.side_of
        segments = _segments(m, name)
        base = frozenset(h for h in base if _ray_parity(m, segments, h, side))
    return base


def _reference(area: SetupArea, key: str, m: Map, unit_hexes: Mapping[str, Hex]) -> list[Hex]:
    if key == "hexes":
        return list(area.hexes)
    if key == "hex":
        return [area.hex]
    if key == "place":
        found = place_hexes(m, area.place)
        if not found:
            names = sorted({p.name for p in m.places})
            raise AreaError(f"no place named {area.place!r} on map {m.id}; it has {', '.join(names) or 'none'}")
        return found
    if key == "terrain":
        if area.terrain not in m.terrain_types:
            raise AreaError(f"no terrain {area.terrain!r} on map {m.id}; it has {', '.join(m.terrain_types)}")
        return [h for h, cell in m.hexes.items() if cell.terrain == area.terrain or area.terrain in cell.features]
    hex = unit_hexes.get(area.unit)
    if hex is None:
        raise AreaError(f"unit {area.unit!r} is not set up on a hex of map {m.id}")
    return [hex]


def place_hexes(m: Map, name: str) -> list[Hex]:
    """Every hex of the place ``name`` (a place of several hexes is listed once per hex)."""
    return [p.hex for p in m.places if p.name == name]


def line_sides(m: Map, name: str):
    """The hexsides of the hexside line ``name`` (a river given a name on the map)."""
    return [side for side, features in m.hexsides.items() if any(f.name == name for f in features)]


def on_side(m: Map, hex: Hex, side: str, name: str) -> bool:
    """Whether ``hex`` lies on the ``side`` (north, south, east, west) of the hexside line ``name``.

    A ray from the hex centre goes the other way (south for "north of") to the map's edge; the
    hex is on that side when the ray crosses the line's hexsides an odd number of times, so
    a river that bends back on itself still splits the map correctly. Compass sides follow the
    map's ``north``.
    """
    return _ray_parity(m, _segments(m, name), hex, side)


def _ray_parity(m: Map, segments, hex: Hex, side: str) -> bool:
    cx, cy = _layout(m).center(hex)
    # The ray heads away from ``side``: on screen "south" is +y when north is up.
    screen = {"up": {"north": (0, 1), "south": (0, -1), "east": (-1, 0), "west": (1, 0)},
              "down": {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)},
              "left": {"north": (1, 0), "south": (-1, 0), "east": (0, 1), "west": (0, -1)},
              "right": {"north": (-1, 0), "south": (1, 0), "east": (0, -1), "west": (0, 1)}}
    dx, dy = screen[m.north][side]
    # Nudge the ray off the centre line so it never passes exactly through a hex corner.
    cx, cy = cx + 1e-7 * (dy != 0), cy + 1e-7 * (dx != 0)
    crossings = 0
    for (x1, y1), (x2, y2) in segments:
        if dx == 0:
            if (x1 > cx) != (x2 > cx):
                y = y1 + (y2 - y1) * (cx - x1) / (x2 - x1)
                crossings += (y - cy) * dy > 0
        elif (y1 > cy) != (y2 > cy):
            x = x1 + (x2 - x1) * (cy - y1) / (y2 - y1)
            crossings += (x - cx) * dx > 0
    return crossings % 2 == 1


def _layout(m: Map) -> Layout:
    return Layout(m.grid, 1.0)


def _segments(m: Map, name: str):
    sides = line_sides(m, name)
    if not sides:
        raise AreaError(f"no hexside line named {name!r} on map {m.id}; name its hexsides with 'name:'")
    layout = _layout(m)
    return [layout.hexside_segment(s) for s in sides]
