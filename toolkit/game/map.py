"""The map: grid, terrain per hex, hexsides, lines, places, sources, boxes."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..hexes import Grid, Hex, Hexside, ImageLayout
from .provenance import UNSOURCED, Source
from .terrain import HexsideType, LineType, TerrainType


@dataclass
class HexTerrain:
    """What one hex holds: its base terrain code, overlay features, and where that comes from."""

    terrain: str
    features: tuple[str, ...] = ()
    source: Source = UNSOURCED


@dataclass(frozen=True)
class HexsideFeature:
    """One feature on one hexside; ``name`` ties the sides of one river or line together."""

    side: Hexside
    code: str
    source: Source = UNSOURCED
    name: str | None = None


@dataclass(frozen=True)
class Line:
    """A road, track or railway as the hexes it runs through, in order."""

    code: str
    hexes: tuple[Hex, ...]
    name: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class Place:
    """A named location: city, town, village, landmark."""

    name: str
    hex: Hex
    kind: str = "town"
    source: Source = UNSOURCED


@dataclass(frozen=True)
class VictoryHex:
    """A hex worth victory points (``points`` may be None where the rules give none)."""

    hex: Hex
    points: int | None = None
    side: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class SupplySource:
    """A supply source of a side: listed hexes, or every hex of a map edge.

    ``turns`` limits when it counts (inclusive first and last turn, either may be None).
    ``kind`` is a free word the ruleset may read ("edge", "airfield", "city").
    """

    side: str
    hexes: tuple[Hex, ...] = ()
    edge: str | None = None
    kind: str = "hex"
    turns: tuple[int | None, int | None] = (None, None)
    note: str | None = None
    source: Source = UNSOURCED

    def active(self, turn: int | None) -> bool:
        first, last = self.turns
        if turn is None:
            return True
        return (first is None or turn >= first) and (last is None or turn <= last)


@dataclass(frozen=True)
class MapEdge:
    """A named map edge and the side for which it is friendly, if any."""

    edge: str
    side: str | None = None
    hexes: tuple[Hex, ...] = ()
    note: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class Box:
    """An off-map box (holding box, reinforcements, eliminated units, map boxes)."""

    id: str
    name: str
    side: str | None = None
    entry: tuple[Hex, ...] = ()
    note: str | None = None
    source: Source = UNSOURCED


@dataclass(frozen=True)
class BoardImage:
    """A picture of the map (a scan, a VASSAL board) and where the grid lies on it.

    ``file`` is relative to the map file. ``origin`` is the pixel centre of the hex at line
    coordinates (0, 0); ``size`` the pixel distance between neighbours along a line and
    ``spacing`` between lines (``size * sqrt(3) / 2`` for regular hexes; VASSAL's dy and dx).
    """

    file: str
    origin: tuple[float, float]
    size: float
    spacing: float

    def layout(self, grid: Grid) -> ImageLayout:
        """Where ``grid``'s hexes lie on the picture."""
        return ImageLayout(grid, self.size, self.origin, self.spacing)


@dataclass
class Map:
    """A game map: pure data, no drawing, no files.

    ``hexes`` maps every hex with known terrain to its :class:`HexTerrain`; ``hexsides`` maps a
    hexside to its features. The same hexside may carry several features (a river and a
    lake side), each once.
    """

    id: str
    name: str
    grid: Grid
    terrain_types: dict[str, TerrainType] = field(default_factory=dict)
    hexside_types: dict[str, HexsideType] = field(default_factory=dict)
    line_types: dict[str, LineType] = field(default_factory=dict)
    hexes: dict[Hex, HexTerrain] = field(default_factory=dict)
    hexsides: dict[Hexside, list[HexsideFeature]] = field(default_factory=dict)
    lines: list[Line] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    victory: list[VictoryHex] = field(default_factory=list)
    supply: list[SupplySource] = field(default_factory=list)
    edges: list[MapEdge] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    weathers: tuple[str, ...] = ("clear",)
    unit_classes: tuple[str, ...] = ("foot",)
    hex_size_inches: float = 0.625
    scale: str | None = None
    north: str = "up"
    hex_ids: str = "top"
    image: BoardImage | None = None
    #: Where each datum was read from, ``key -> (file, line)``, for messages; not part of equality.
    locations: dict = field(default_factory=dict, compare=False, repr=False)

    def terrain(self, hex: Hex) -> str | None:
        """The base terrain code of ``hex`` (None where none is given)."""
        cell = self.hexes.get(hex)
        return cell.terrain if cell else None

    def features(self, hex: Hex) -> tuple[str, ...]:
        cell = self.hexes.get(hex)
        return cell.features if cell else ()

    def hexside_codes(self, side: Hexside) -> list[str]:
        return [f.code for f in self.hexsides.get(side, ())]

    def place_at(self, hex: Hex) -> Place | None:
        for place in self.places:
            if place.hex == hex:
                return place
        return None

    def box(self, box_id: str) -> Box | None:
        for box in self.boxes:
            if box.id == box_id:
                return box
        return None

    def line_links(self) -> dict[Hexside, list[str]]:
        """For each hexside a line crosses, the codes of the lines crossing it."""
        links: dict[Hexside, list[str]] = {}
        for line in self.lines:
            for a, b in zip(line.hexes, line.hexes[1:]):
                links.setdefault(Hexside.of(a, b), []).append(line.code)
        return links

    def format(self, hex: Hex) -> str:
        return self.grid.format(hex)
