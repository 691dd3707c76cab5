"""Terrain types, hexside features and line features: the Terrain Effects Chart as data."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Union

from .provenance import UNSOURCED, Source

#: A movement cost: MP as an exact fraction, or None for "prohibited".
Cost = Union[Fraction, None]

#: The key used for "any unit class" or "any weather" in a cost table.
ANY = "*"


@dataclass(frozen=True)
class CostTable:
    """Movement cost by unit class and weather, with ``*`` as the fallback on either axis.

    ``costs[(unit_class, weather)]`` is a :data:`Cost`; a missing entry means the chart
    says nothing (a TEC gap, which the validator reports).
    """

    costs: dict[tuple[str, str], Cost] = field(default_factory=dict)

    def lookup(self, unit_class: str, weather: str) -> tuple[bool, Cost]:
        """``(found, cost)`` for a class in a weather, trying exact, then ``*`` fallbacks."""
        for key in ((unit_class, weather), (unit_class, ANY), (ANY, weather), (ANY, ANY)):
            if key in self.costs:
                return True, self.costs[key]
        return False, None

    def __bool__(self) -> bool:
        return bool(self.costs)


@dataclass(frozen=True)
class TerrainType:
    """A kind of hex terrain (or an overlay feature such as a town), one line of the TEC.

    ``move_ma`` keeps the chart's "H"/"ALL" cells (half / all of the printed MA).
    ``overlay`` types sit on top of a hex's base terrain (``features`` of a hex). ``combat``
    holds the chart's combat effects as written (e.g. ``{"defence": "x2", "shift": -1}``).
    """

    code: str
    name: str
    move: CostTable = field(default_factory=CostTable)
    combat: dict = field(default_factory=dict)
    overlay: bool = False
    blocks_los: bool = False
    colour: str | None = None
    source: Source = UNSOURCED
    #: TEC cells that are a share of the unit's printed MA, cost key -> "H" (half) or "ALL";
    #: ``move`` holds 0 for them and the game's ruleset adds the share.
    move_ma: dict = field(default_factory=dict)


@dataclass(frozen=True)
class HexsideType:
    """A feature on a hexside: river, stream, lake side, slope, bridge, ...

    ``move`` is the extra MP to cross (or None: prohibited); ``blocks_supply`` stops supply
    lines unless a line feature with ``bridges`` crosses it.
    """

    code: str
    name: str
    move: CostTable = field(default_factory=CostTable)
    combat: dict = field(default_factory=dict)
    blocks_supply: bool = False
    bridge: bool = False
    width: str = "minor"
    source: Source = UNSOURCED


@dataclass(frozen=True)
class LineType:
    """A line feature that runs from hex centre to hex centre: road, track, railway.

    ``move`` is the MP per hex when moving along it; ``bridges`` says the line carries its
    own bridges over hexside features it crosses (a road crossing a river has a bridge).
    """

    code: str
    name: str
    move: CostTable = field(default_factory=CostTable)
    bridges: bool = True
    rail: bool = False
    source: Source = UNSOURCED
