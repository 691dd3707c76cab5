"""Set-ups of an imported module as scenarios: each piece of a predefined setup or an at-start
stack placed on its hex (on whichever board of the map it lies), in its zone's box, or in the
box standing for a board with neither grid nor zones; what cannot be placed is reported.
"""

from __future__ import annotations

from collections import Counter as Tally
from dataclasses import dataclass, replace

from ..game import Box, Game, Placement, Scenario, Source
from ..vassal.reader import BUILD, inside_shape, owning_map, read_save
from ..vassal.safety import MAX_NESTED_BYTES
from ._ids import slug, unique
from .decks import with_count
from .grid import BoardGrid

__all__ = ["SetupPlacing"]

_B = BUILD


@dataclass
class _Board:
    """A board of the module as the import sees it: its converted hex grid and map, its zones' boxes."""

    map_name: str
    board: dict
    converted: BoardGrid | None
    map_id: str | None
    zones: list[tuple[str, list, str]]  # (zone name, path, box id)
    refused: str = ""                    # why its hex grid was not imported
    grid_zone: list | None = None        # the polygon of the zone holding its hex grid, if a zone does
    box: str | None = None               # the box standing for it (no grid, no zones) once a piece lies on it


class SetupPlacing:
    """The set-up half of the importer (mixed into it: it uses its ``module``, ``path``,
    ``report``, ``used_boxes`` and placement indexes)."""

    def scenarios(self, game: Game, boards: list[_Board], by_gpid: dict[str, str], cards: dict[str, str]) -> None:
        """Every predefined setup as a scenario; the cards of its decks stay in the decks (a deck
        holds every copy of its cards), a card out of its deck is reported."""
        used: set[str] = set()
        root = self.module.root
        archive = self.module.archive
        for element in root.iter(_B + "module.PredefinedSetup"):
            name = element.get("name", "") or element.get("file", "")
            if element.get("isMenu", "false") == "true":
                continue
            if element.get("useFile", "true") != "true" or not element.get("file"):
                self.report.append(f"setup {name!r} opens a new game with no file: nothing to import")
                continue
            file = element.get("file", "")
            if file not in archive:
                self.report.append(f"setup {name!r}: file {file!r} is not in the module")
                continue
            save = read_save(archive.read(file, limit=MAX_NESTED_BYTES), f"{self.where}!{file}", self.module,
                             locate=False)   # placed below, on whichever board of the layout they lie
            scenario = Scenario(id=unique(slug(name, "setup"), used), name=name, map=next(iter(game.maps)),
                                source=Source(estimated=f"predefined setup {name!r} of {self.path.name}"))
            layout = {b["map"]: b.get("positions", []) for b in save["boards"]}
            in_decks = {i for deck in save["decks"] for i in deck["pieces"]}
            held = 0
            for piece in save["pieces"]:
                if piece.get("id") in in_decks:
                    held += 1
                elif str(piece.get("gpid", "")) in cards:
                    self.report.append(f"setup {name!r}: card {piece.get('name', '')!r} lies out of its deck: "
                                       "not placed (the deck holds every copy of its cards)")
                else:
                    self._place(scenario, piece, boards, layout, by_gpid, game, f"setup {name!r}")
            if held:
                self.report.append(f"setup {name!r}: {held} cards in {len(save['decks'])} decks, kept as the "
                                   "decks' contents (the module's decks, not the setup's order)")
            game.scenarios[scenario.id] = _played_on(scenario)
        stacks = list(root.iter(_B + "module.map.SetupStack"))
        if stacks:
            self._setup_stacks(game, stacks, boards, by_gpid, used)

    def _setup_stacks(self, game, stacks, boards, by_gpid, used) -> None:
        scenario = Scenario(id=unique("at-start", used), name="At-start stacks", map=next(iter(game.maps)),
                            source=Source(estimated=f"at-start stacks of {self.path.name}"))
        for stack in stacks:
            owner = owning_map(stack)   # through any MapSubFolder between them
            map_name = owner.get("mapName", "") if owner is not None else ""
            board_name = stack.get("owningBoard", "")
            target = next((b for b in boards if b.map_name == map_name
                           and (b.board["name"] == board_name or not board_name)), None)
            for slot in stack.iter(_B + "widget.PieceSlot"):
                counter_id = by_gpid.get(slot.get("gpid", ""))
                if counter_id is None:
                    try:
                        traits = self.module.piece(slot)
                        piece = self.module.describe(traits)
                    except ValueError:
                        piece = {}
                    counter_id = self._counter_by_name(game, piece, slot.get("entryName", ""))
                where = f"at-start stack {stack.get('name', '')!r}"
                if counter_id is None or target is None:
                    self.report.append(f"{where}: piece {slot.get('entryName', '')!r} not placed")
                    continue
                if stack.get("useGridLocation", "false") == "true" and target.converted is not None:
                    try:
                        hex = target.converted.grid.parse(stack.get("location", ""))
                    except Exception:
                        self.report.append(f"{where}: location {stack.get('location')!r} is not a hex")
                        continue
                    self._add(scenario, counter_id, hex=hex, map_id=target.map_id, game=game)
                else:
                    try:
                        x, y = int(stack.get("x", "0")), int(stack.get("y", "0"))
                    except ValueError:
                        self.report.append(f"{where}: position is not a number")
                        continue
                    self._locate(scenario, counter_id, target, x, y, game,
                                 f"{where}: piece {slot.get('entryName', '')!r}")
        if scenario.setup:
            game.scenarios[scenario.id] = _played_on(scenario)

    def _place(self, scenario, piece, boards, layout, by_gpid, game, where) -> None:
        counter_id = by_gpid.get(str(piece.get("gpid", ""))) or self._counter_by_name(game, piece, "")
        label = f"{where}: piece {piece.get('name', '')!r}"
        if counter_id is None:
            self.report.append(f"{label} matches no palette piece: not placed")
            return
        if piece.get("map") is None or "x" not in piece:
            self.report.append(f"{label} is not on a map: not placed")
            return
        found = self._board_at(piece["map"], piece["x"], piece["y"], boards, layout)
        if found is None:
            self.report.append(f"{label} lies on no board of map {piece['map']!r}: not placed")
            return
        board, lx, ly = found
        level = piece.get("layer")
        state = None
        if level and level > 1:  # a Layer past its first level: the counter's back (or later) face
            counter = game.counters[counter_id]
            state = counter.back_kind if counter.back_kind != "none" else "back"
            if level > 2 and counter.steps >= 3:
                state = "cadre"
        self._locate(scenario, counter_id, board, lx, ly, game, label, state)

    def _locate(self, scenario, counter_id, board: _Board, x: int, y: int, game, label, state=None) -> None:
        for name, path, box_id in board.zones:
            if inside_shape(path, x, y):
                self._add(scenario, counter_id, box=box_id, game=game, state=state)
                return
        width, height = board.board["width"], board.board["height"]
        if not (0 <= x < width and 0 <= y < height):   # in the map's margin: VASSAL shows it off every board
            self.report.append(f"{label} lies at {x},{y}, outside board {board.board['name']!r} ({width}x{height}): "
                               "not placed")
            return
        if board.grid_zone is not None and not inside_shape(board.grid_zone, x, y):
            self.report.append(f"{label} lies on board {board.board['name']!r} outside every zone: not placed")
            return
        if board.converted is not None:
            v = board.converted.vassal
            name = v.label(*v.snap(x, y))
            try:
                hex = board.converted.grid.parse(name)
            except Exception:
                hex = None
            if hex is not None and hex in board.converted.grid:
                self._add(scenario, counter_id, hex=hex, map_id=board.map_id, game=game, state=state)
                return
            self.report.append(f"{label} at {name!r} is off the imported grid: not placed")
            return
        if not board.zones:   # a holding area (a deployment or dead pile board): the board is the box
            self._add(scenario, counter_id, box=self._board_box(board, game), game=game, state=state)
            return
        self.report.append(f"{label} lies on board {board.board['name']!r} outside every zone: not placed")

    def _board_box(self, board: _Board, game) -> str:
        """The box standing for a board with neither hex grid nor zones, made when a piece lies on it."""
        if board.box is None:
            board.box = unique(slug(board.board["name"] or board.map_name, "box"), self.used_boxes)
            next(iter(game.maps.values())).boxes.append(Box(id=board.box, name=board.board["name"] or board.box,
                source=Source(estimated=f"board {board.board['name']!r} of map {board.map_name!r}, which has no "
                                        "grid or zones")))
            self.report.append(f"board {board.board['name']!r} of map {board.map_name!r} has no grid or zones: "
                               f"the pieces set up on it are in box {board.box!r}")
        return board.box

    def _board_at(self, map_name, x, y, boards, layout):
        found = self.module.board_at(map_name, x, y, layout.get(map_name))
        if found is None:
            return None
        board, lx, ly = found
        target = next((b for b in boards if b.board is board), None)
        return (target, lx, ly) if target is not None else None

    def _add(self, scenario: Scenario, counter_id: str, *, hex=None, box=None, map_id=None, game,
             state=None) -> None:
        """Put a unit in the scenario, joining the placement of the same place and state (each
        scenario's placements are indexed, so a set-up of thousands of pieces costs no more)."""
        counts, index = self._placements.setdefault(scenario.id, (Tally(), {}))
        counts[counter_id] += 1
        counter = game.counters[counter_id]
        if counts[counter_id] > counter.count:
            game.counters[counter_id] = with_count(counter, counts[counter_id])
        first_map = next(iter(game.maps))
        map_ref = map_id if map_id and map_id != first_map else None
        key = (hex, box, map_ref, state)
        i = index.get(key)
        if i is not None:
            p = scenario.setup[i]
            scenario.setup[i] = Placement(units=p.units + (counter_id,), hex=hex, box=box, map=map_ref,
                                          state=state, source=p.source)
            return
        index[key] = len(scenario.setup)
        scenario.setup.append(Placement(units=(counter_id,), hex=hex, box=box, map=map_ref, state=state,
                                        source=scenario.source))

    def _counter_by_name(self, game, piece, entry) -> str | None:
        unit = (piece or {}).get("properties", {}).get("UnitId")
        if unit in game.counters:
            return unit
        if len(self._by_name) != len(game.counters):   # counters were added since: index them again
            self._by_name = {}
            for counter in game.counters.values():
                self._by_name.setdefault(counter.name, counter.id)
        return self._by_name.get((piece or {}).get("name") or entry)


def _played_on(scenario: Scenario) -> Scenario:
    """The scenario on the map most of its hex placements are on (placements were made relative
    to the first map); a placement on another map names it."""
    on = Tally(p.map or scenario.map for p in scenario.setup if p.hex is not None)
    main = on.most_common(1)[0][0] if on else scenario.map
    if main != scenario.map:
        scenario.setup = [replace(p, map=None if (p.map or scenario.map) == main else (p.map or scenario.map))
                          if p.hex is not None else p for p in scenario.setup]
        scenario.map = main
    return scenario
