"""The domain model: plain data, no I/O, no drawing."""

from .areas import AreaError, SetupArea, area_hexes, on_side, place_hexes
from .counters import Counter, Side
from .deck import SHUFFLES, Deck
from .game import CounterStyle, FogOfWar, Game
from .ids import ID_PATTERN, id_problem
from .map import (BoardImage, Box, HexsideFeature, HexTerrain, Line, Map, MapEdge, Place, SupplySource,
                  VictoryHex)
from .provenance import UNSOURCED, Source
from .scenario import DeckStart, Placement, Reinforcement, Scenario, Turn
from .terrain import ANY, Cost, CostTable, HexsideType, LineType, TerrainType

__all__ = [
    "ANY", "AreaError", "BoardImage", "Box", "Cost", "CostTable", "Counter", "CounterStyle", "Deck", "DeckStart",
    "FogOfWar",
    "Game",
    "HexsideFeature", "HexsideType", "HexTerrain", "ID_PATTERN", "Line", "LineType", "Map", "MapEdge",
    "Placement", "Place", "Reinforcement", "Scenario", "SetupArea", "SHUFFLES", "Side", "Source",
    "SupplySource", "TerrainType", "Turn", "UNSOURCED", "VictoryHex", "area_hexes", "id_problem",
    "on_side", "place_hexes",
]
