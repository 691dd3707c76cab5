"""VASSAL 3.7 modules: write a game's .vmod, and read modules and saved games back.

``build_module(game, out_dir, progress)`` is the build step; ``inspect(path)`` reads a
.vmod or .vsav (untrusted input: guarded against traversal, bombs and entity expansion).
"""

from .module import build_module
from .reader import inspect

__all__ = ["build_module", "inspect"]
