"""How a game's pieces, hexes and boxes sit in the VASSAL module hexforge built for it.

:class:`ModuleBinding` reads a .vmod (with the guards of :mod:`.safety`) and links it to the
game: each VASSAL map to the game map it was drawn from (the names the module writer gives),
every hex to its centre through the module's own grid (the port in :mod:`.grid`, so a point
gets the hex VASSAL itself names), every zone of the boxes board to a turn box or a game box,
and every piece back to its counter by the ``UnitId`` the writer puts in its Marker (falling
back to its name). Nothing here guesses: a point off every grid or zone, or a piece no counter
matches, is answered with ``None`` and the callers report it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, HexforgeError
from ..game import Counter, Game
from ..hexes import Hex
from .boards import dead_pile_zone, turn_zone
from .encoding import Trait, decode
from .grid import VassalHexGrid
from .pieces import plain_text, step_faces, unique_name
from .reader import BUILD, Module, inside_shape
from .safety import SafeZip

__all__ = ["ModuleBinding", "Place", "BOXES_MAP", "steps_of_level", "level_of_steps", "layer_level"]

BOXES_MAP = "Turn track and boxes"   # the module writer's name (module.BOXES_MAP)
_TURN_ZONE = re.compile(r"^Turn (\d+)$")


@dataclass(frozen=True)
class Place:
    """Where a point of a VASSAL map is for the game.

    ``kind`` is "hex" (``map_id`` and ``hex``), "box" (``box``, a game box id), "turn"
    (``turn``: the turn track, where reinforcements wait), "dead" (the module's own dead pile
    when the game has no box for it), "deck" (in the deck ``label``), "off" (on a known map
    but off its grid and zones; ``label`` says what VASSAL calls it) or "nomap" (a map the
    module does not have).
    """

    kind: str
    map_id: str | None = None
    hex: Hex | None = None
    box: str | None = None
    turn: int | None = None
    label: str = ""

    def describe(self, game: Game) -> str:
        if self.kind == "hex":
            return game.maps[self.map_id].format(self.hex)
        if self.kind == "box":
            return f"box {self.box}"
        if self.kind == "turn":
            return f"turn {self.turn} box"
        if self.kind == "dead":
            return "dead pile"
        if self.kind == "deck":
            return f"deck {self.label}"
        return self.label or self.kind


@dataclass
class _HexMap:
    name: str
    map_id: str
    grid: VassalHexGrid
    centres: dict[Hex, tuple[int, int]] = field(default_factory=dict)


@dataclass
class _Zone:
    name: str
    path: list[tuple[int, int]]
    place: Place

    @property
    def centre(self) -> tuple[int, int]:
        xs = [p[0] for p in self.path]
        ys = [p[1] for p in self.path]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        return x0 + (x1 - x0) // 2, y0 + (y1 - y0) // 2


def steps_of_level(counter: Counter, level: int) -> int:
    """Steps left of a counter whose step Layer shows ``level`` (1 = full strength)."""
    faces = step_faces(counter)
    face = faces[min(max(level, 1), len(faces)) - 1]
    if face == "front":
        return counter.steps
    if face == "cadre":
        return 1
    return max(1, counter.steps - 1)


def level_of_steps(counter: Counter, steps: int) -> int | None:
    """The step Layer level that shows ``steps`` (None: the counter has one face)."""
    faces = step_faces(counter)
    if len(faces) < 2:
        return None
    if steps >= counter.steps:
        return 1
    if "cadre" in faces and steps <= 1:
        return faces.index("cadre") + 1
    return 2


class ModuleBinding:
    """A game and the .vmod built from it, linked (see the module docstring)."""

    def __init__(self, game: Game, module_path: str | Path) -> None:
        self.game = game
        self.where = str(module_path)
        with SafeZip(Path(module_path), where=self.where) as archive:
            module = Module(archive, self.where)
            #: the module's metadata entry, copied into the saves hexforge writes (as VASSAL does)
            self.moduledata = archive.read("moduledata", limit=1024 * 1024) if "moduledata" in archive else None
        self.info = module.info
        self.prototypes: dict[str, list[Trait]] = module.prototypes
        if self.info.get("name") != game.name:
            raise DataError(f"the module is {self.info.get('name')!r}, not the module of game {game.id} "
                            f"({game.name!r})", path=self.where)
        self.maps: dict[str, _HexMap] = {}
        self.map_names: dict[str, str] = {}   # game map id -> VASSAL map name
        used = {BOXES_MAP}
        vassal_maps = {m["name"]: m for m in module.maps}
        for map_id, game_map in game.maps.items():
            name = unique_name(plain_text(game_map.name or map_id), used)
            entry = vassal_maps.get(name)
            if entry is None or not entry["boards"] or entry["boards"][0]["grid"] is None:
                raise DataError(f"the module has no hex map {name!r} for map {map_id} of game {game.id} "
                                f"(was it built from another version of the game?)", path=self.where)
            grid = entry["boards"][0]["grid"]["_grid"]
            self.maps[name] = _HexMap(name, map_id, grid, _centres(grid, game_map))
            self.map_names[map_id] = name
        self.zones: list[_Zone] = []
        boxes = vassal_maps.get(BOXES_MAP)
        if boxes is not None and boxes["boards"]:
            self.zones = _zones(game, boxes["boards"][0]["zones"], self.where)
        self.has_turn_tracker = next(module.root.iter(BUILD + "module.turn.TurnTracker"), None) is not None
        self._slots: dict[str, tuple[str, list[Trait]]] = {}
        for element in module.root.iter(BUILD + "widget.PieceSlot"):
            try:
                traits = module.piece(element)
            except ValueError:
                continue   # reported by ``vassal inspect``; not a counter hexforge can place
            uid = module.describe(traits)["properties"].get("UnitId")
            if uid and uid not in self._slots:
                self._slots[uid] = (element.get("gpid", ""), traits)
        self._by_uid = {c.id: c for c in game.counters.values()}
        names: dict[str, list[Counter]] = {}
        for c in game.counters.values():
            names.setdefault(plain_text(c.name), []).append(c)
        self._by_name = {n: cs[0] for n, cs in names.items() if len(cs) == 1}

    # -- places ------------------------------------------------------------------------------

    def locate(self, map_name: str | None, x: int, y: int) -> Place:
        """The :class:`Place` of point ``(x, y)`` of VASSAL map ``map_name``."""
        if map_name == BOXES_MAP:
            for zone in self.zones:
                if inside_shape(zone.path, x, y):
                    return zone.place
            return Place("off", label=f"{BOXES_MAP} ({x},{y}), outside every box")
        hex_map = self.maps.get(map_name or "")
        if hex_map is None:
            return Place("nomap", label=f"map {map_name!r}")
        label = hex_map.grid.snapped_label(x, y)
        game_map = self.game.maps[hex_map.map_id]
        try:
            hex = game_map.grid.parse(label)
        except HexforgeError:  # a label of VASSAL's grid beyond our numbering (negative, too many digits)
            hex = None
        if hex is None or hex not in game_map.grid or game_map.format(hex) != label:
            return Place("off", label=f"{map_name} {label} ({x},{y}), off the hex grid")
        return Place("hex", map_id=hex_map.map_id, hex=hex)

    def point(self, place: Place) -> tuple[str, int, int]:
        """``(VASSAL map name, x, y)`` where a piece at ``place`` goes (a hex centre, a box centre)."""
        if place.kind == "hex":
            name = self.map_names[place.map_id]
            centre = self.maps[name].centres.get(place.hex)
            if centre is None:
                raise DataError(f"hex {self.game.maps[place.map_id].format(place.hex)} has no centre on the "
                                f"module's grid", path=self.where)
            return (name, *centre)
        for zone in self.zones:
            if zone.place == place:
                return (BOXES_MAP, *zone.centre)
        raise DataError(f"the module's boxes board has no zone for {place.describe(self.game)}", path=self.where)

    def box_place(self, box: str) -> Place:
        for zone in self.zones:
            if zone.place.kind == "box" and zone.place.box == box:
                return zone.place
        raise DataError(f"the module's boxes board has no zone for box {box!r}", path=self.where)

    # -- pieces ------------------------------------------------------------------------------

    def slot(self, counter_id: str) -> tuple[str, list[Trait]]:
        """``(gpid, traits)`` of the counter's palette piece (its first PieceSlot)."""
        found = self._slots.get(counter_id)
        if found is None:
            raise DataError(f"the module has no palette piece for counter {counter_id!r}", path=self.where)
        return found

    def counter_of(self, properties: dict[str, str], name: str) -> tuple[Counter | None, str]:
        """The counter of a piece, by its ``UnitId`` or else its (unique) name, and how it was found."""
        uid = properties.get("UnitId")
        if uid:
            counter = self._by_uid.get(uid)
            return counter, "UnitId" if counter else ""
        base = re.sub(r" \((reduced|cadre|[^()]*)\)$", "", name)
        counter = self._by_name.get(name) or self._by_name.get(base)
        return counter, "name" if counter else ""


def _centres(grid: VassalHexGrid, game_map) -> dict[Hex, tuple[int, int]]:
    """Every game hex's centre, from VASSAL's own labels of its grid's centres."""
    span = max(grid.board_width, grid.board_height)
    cols = int(span / grid.dx) + 3
    rows = int(span / grid.dy) + 3
    wanted = {game_map.format(h): h for h in game_map.grid}
    out: dict[Hex, tuple[int, int]] = {}
    for col in range(-2, cols):
        for row in range(-2, rows):
            x, y = grid.centre(col, row)
            hex = wanted.get(grid.label(x, y))
            if hex is not None and hex not in out:
                out[hex] = (x, y)
    return out


def _zones(game: Game, zones: list[dict], where: str) -> list[_Zone]:
    """The boxes board's zones as places: turn boxes first, then the game's boxes in order."""
    boxes = [(b.name, b.id) for m in game.maps.values() for b in m.boxes]
    dead_name, dead_id = dead_pile_zone(game)
    if dead_id is None:
        boxes.append((dead_name, None))
    turns = len(zones) - len(boxes)
    if turns < 0 or any(z["name"] != turn_zone(i + 1) for i, z in enumerate(zones[:turns])):
        raise DataError(f"the boxes board has zones {[z['name'] for z in zones][:8]}..., not the turn track and "
                        f"the {len(boxes)} boxes of game {game.id}", path=where)
    used = {turn_zone(i + 1) for i in range(turns)}
    out = [_Zone(z["name"], z["path"], Place("turn", turn=i + 1)) for i, z in enumerate(zones[:turns])]
    for zone, (name, box_id) in zip(zones[turns:], boxes):
        expected = unique_name(plain_text(name), used)
        if zone["name"] != expected:
            raise DataError(f"box zone {zone['name']!r} should be {expected!r} for game {game.id}", path=where)
        out.append(_Zone(zone["name"], zone["path"], Place("box", box=box_id) if box_id else Place("dead")))
    return out


def layer_level(traits: list[Trait]) -> int | None:
    """The level of the step Layer (``emb2`` named "Step") of a piece, if it has one."""
    for trait in traits:
        if trait.id == "emb2;":
            fields = decode(trait.type[len("emb2;"):], ";")
            if len(fields) > 18 and fields[18] != "Step":
                continue
            try:
                return abs(int(trait.state.split(";")[0] or "1"))
            except ValueError:
                return None
    return None
