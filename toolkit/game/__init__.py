"""The domain model: plain data, no I/O, no drawing."""

from .counters import Counter, Side
from .game import CounterStyle, Game
from .map import (BoardImage, Box, HexsideFeature, HexTerrain, Line, Map, MapEdge, Place, SupplySource,
                  VictoryHex)
from .provenance import UNSOURCED, Source
from .scenario import Placement, Reinforcement, Scenario, Turn
from .terrain import ANY, Cost, CostTable, HexsideType, LineType, TerrainType

__all__ = [
    "ANY", "Box", "Cost", "CostTable", "Counter", "CounterStyle", "Game", "HexsideFeature",
    "BoardImage", "HexsideType", "HexTerrain", "Line", "LineType", "Map", "MapEdge", "Placement", "Place",
    "Reinforcement", "Scenario", "Side", "Source", "SupplySource", "TerrainType", "Turn",
    "UNSOURCED", "VictoryHex",
]
