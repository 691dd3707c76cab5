"""Bridges to VASSAL: the current position as a saved game (.vsav) of the game's module, and a
position read from a .vsav.

Both go through :class:`toolkit.vassal.ModuleBinding`, which links a built module to its game
(piece definitions, grid, boxes). The module is the one given to ``hexforge play --module``,
else one built from the game's data the first time it is needed (the build is deterministic,
so it is the module ``hexforge vassal GAME`` writes).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..errors import DataError
from ..game import Game
from ..referee import Position
from ..vassal import ModuleBinding, build_module, read_game
from ..vassal.positions import position_commands
from ..vassal.savegame import vsav_bytes

__all__ = ["Modules", "position_vsav", "position_from_vsav"]


class Modules:
    """Where each game's module is: given, or built once into a folder kept for the server's life."""

    def __init__(self, given: str | None = None) -> None:
        self.given = given
        self._built: dict[str, Path] = {}
        self._folder: tempfile.TemporaryDirectory | None = None

    def path(self, game: Game) -> Path:
        if self.given:
            return Path(self.given)
        if game.id not in self._built:
            if self._folder is None:
                self._folder = tempfile.TemporaryDirectory(prefix="hexforge-play-")
            files = build_module(game, Path(self._folder.name) / game.id)
            self._built[game.id] = Path(files[0])
        return self._built[game.id]

    def binding(self, game: Game) -> ModuleBinding:
        return ModuleBinding(game, self.path(game))


def position_vsav(pos: Position, modules: Modules, description: str | None = None) -> bytes:
    """The .vsav bytes of ``pos`` for the game's module."""
    binding = modules.binding(pos.game)
    commands = position_commands(binding, pos)
    return vsav_bytes(commands, description=description or f"{pos.game.name}: turn {pos.turn}, {pos.phase}",
                      module_name=binding.info.get("name", ""), module_version=binding.info.get("version", ""))


def position_from_vsav(game: Game, modules: Modules, data: bytes, name: str) -> tuple[Position, list[str]]:
    """The position a .vsav (or the end of a .vlog) shows, and the reader's warnings."""
    record = read_game(modules.binding(game), name, data=data)
    pos = record.end.position
    if not pos.units:
        raise DataError("the saved game holds no unit of this game", path=name)
    return pos, list(record.warnings) + [f"{p['name']}: {p['why']}" for p in record.end.unknown + record.end.off]

