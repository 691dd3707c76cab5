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

from ..errors import BuildError, DataError
from ..game import Game
from ..referee import Position

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
            from ..vassal import build_module
            if self._folder is None:
                self._folder = tempfile.TemporaryDirectory(prefix="hexforge-play-")
            files = build_module(game, Path(self._folder.name) / game.id)
            self._built[game.id] = Path(files[0])
        return self._built[game.id]

    def binding(self, game: Game):
        try:
            from ..vassal import ModuleBinding
        except ImportError:
            raise BuildError("this hexforge cannot bind a position to a VASSAL module yet "
                             "(toolkit.vassal.ModuleBinding is missing)") from None
        return ModuleBinding(game, self.path(game))


def position_vsav(pos: Position, modules: Modules, description: str | None = None) -> bytes:
    """The .vsav bytes of ``pos`` for the game's module."""
    try:
        from ..vassal import ModuleBinding  # noqa: F401
    except ImportError:
        return _vsav_from_a_setup(pos, description)
    binding = modules.binding(pos.game)
    from ..vassal.positions import position_commands
    from ..vassal.savegame import vsav_bytes
    commands = position_commands(binding, pos)
    return vsav_bytes(commands, description=description or f"{pos.game.name}: turn {pos.turn}, {pos.phase}",
                      module_name=binding.info.get("name", ""), module_version=binding.info.get("version", ""))


def position_from_vsav(game: Game, modules: Modules, data: bytes, name: str) -> tuple[Position, list[str]]:
    """The position a .vsav (or the end of a .vlog) shows, and the reader's warnings."""
    binding = modules.binding(game)
    from ..vassal import read_game
    record = read_game(binding, name, data=data)
    pos = record.end.position
    if not pos.units:
        raise DataError("the saved game holds no unit of this game", path=name)
    return pos, list(record.warnings) + [f"{p['name']}: {p['why']}" for p in record.end.unknown + record.end.off]


_SETUP_ID = "hexforge-play-position"


def _vsav_from_a_setup(pos: Position, description: str | None) -> bytes:
    """Without a module binding: the module writer's own set-up of a scenario that places the
    position's units (on their hexes and in their boxes, each on the face of its steps left),
    taken from a module built with that scenario added last (the other scenarios first, so
    every palette piece keeps its id)."""
    import dataclasses
    import zipfile

    from ..game import Placement, Scenario
    from ..vassal import build_module
    from ..vassal.pieces import step_faces

    game = pos.game
    placements = []
    for unit in pos.units.values():
        if unit.hex is None and unit.box is None:
            continue
        faces = step_faces(unit.counter)
        lost = unit.counter.steps - unit.steps
        state = faces[min(lost, len(faces) - 1)] if lost and len(faces) > 1 else None
        placements.append(Placement(units=(unit.counter.id,), hex=unit.hex, box=None if unit.hex else unit.box,
                                    map=pos.map_id, state=state))
    here = game.scenarios.get(pos.scenario) if pos.scenario else None
    name = description or f"{game.name}: turn {pos.turn}, {pos.phase}"
    scenario = Scenario(id=_SETUP_ID, name=name, turns=list(here.turns) if here else [],
                        first_side=here.first_side if here else pos.side, map=pos.map_id, setup=placements)
    copy = dataclasses.replace(game, scenarios={**game.scenarios, _SETUP_ID: scenario})
    with tempfile.TemporaryDirectory(prefix="hexforge-play-") as folder:
        module = build_module(copy, Path(folder))[0]
        with zipfile.ZipFile(module) as zf:
            return zf.read(f"setup_{_SETUP_ID}.vsav")
