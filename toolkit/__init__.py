"""hexforge: one game definition in, printable counters, maps, VASSAL modules and a referee out.

The public API is re-exported here; subpackages hold the layers
(``game`` model, ``io`` formats, ``render``, ``vassal``, ``referee``).
"""

from .errors import (BuildError, DataError, HexError, HexforgeError, IllegalMoveError, RulesError,
                     UnsafeInputError)
from .game import (Box, Counter, CounterStyle, Game, HexTerrain, Line, Map, Placement, Reinforcement,
                   Scenario, Side, Source, TerrainType)
from .hexes import Grid, Hex, Hexside, Layout, Numbering
from .io import (dump_counters, dump_game, dump_map, dump_scenario, load_counters, load_game,
                 load_map, load_scenario)
from .validate import Finding, Report, validate_game, validate_map

__version__ = "0.1.0"

__all__ = [
    "Box", "BuildError", "Counter", "CounterStyle", "DataError", "Finding", "Game", "Grid", "Hex",
    "HexError", "HexTerrain", "Hexside", "HexforgeError", "IllegalMoveError", "Layout", "Line", "Map",
    "Numbering", "Placement", "Reinforcement", "Report", "RulesError", "Scenario", "Side", "Source",
    "TerrainType", "UnsafeInputError", "dump_counters", "dump_game", "dump_map", "dump_scenario",
    "load_counters", "load_game", "load_map", "load_scenario", "validate_game", "validate_map",
]
