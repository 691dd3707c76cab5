"""Reading and writing game data files, with errors that name file, line and field."""

from ._atomic import atomic_path, write_bytes, write_text
from .counters import dump_counters, load_counters
from .games import bundled_games, clear_game_cache, data_root, default_game, dump_game, game_path, load_game
from .maps import dump_map, load_map, map_to_dict
from .scenarios import dump_scenario, load_scenario, scenario_to_dict

__all__ = [
    "atomic_path", "bundled_games", "clear_game_cache", "data_root", "default_game", "dump_counters", "dump_game",
    "dump_map", "dump_scenario", "game_path", "load_counters", "load_game", "load_map",
    "load_scenario", "map_to_dict", "scenario_to_dict", "write_bytes", "write_text",
]
