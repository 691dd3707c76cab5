"""VASSAL 3.7 modules: write a game's .vmod, and read modules, saved games and logs back.

``build_module(game, out_dir, progress)`` is the build step; ``inspect(path)`` reads a
.vmod or .vsav (untrusted input: guarded against traversal, bombs and entity expansion).
``ModuleBinding(game, vmod)`` links a built module to its game; ``read_game`` reads a .vsav
or .vlog into referee positions and events, ``write_position`` writes a position as a .vsav,
and ``judge_log`` / ``judge_saves`` judge a turn with the referee (``hexforge referee turn``).
"""

from .binding import ModuleBinding
from .module import build_module
from .positions import write_position
from .reader import Module, inspect, read_module
from .turn import judge_log, judge_saves
from .vlog import read_game

__all__ = ["build_module", "inspect", "read_module", "Module", "ModuleBinding", "read_game", "write_position", "judge_log", "judge_saves"]
