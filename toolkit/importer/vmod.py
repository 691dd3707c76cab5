"""``import_vmod``: a hexforge game folder from a VASSAL 3.x module.

What maps: every board with a HexGrid becomes a map (its image kept, the grid converted so
every hex keeps VASSAL's name), zones become off-map boxes, the piece palette becomes
counters (names, sides, Layer faces, static properties with values, the piece images as the
counters' art), and every predefined setup (and the at-start stacks) a scenario with each
piece on its hex or in its box. Everything else is listed in the report, never dropped
silently. The module is untrusted: it is read with the guards of ``vassal inspect``.
"""

from __future__ import annotations

import io
import re
import shutil
import tempfile
from collections import Counter as Tally
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError
from ..game import Box, Counter, Game, Map, Side, Source
from ..io import dump_game, load_game
from ..io.counters import BACK_KINDS, KINDS
from ..vassal.pieces import expand
from ..vassal.reader import BUILD, BUILT_IN_IMAGES, image_kind, image_size, read_module
from ._ids import printed_values, side_in_name, side_property, slug, unique
from .decks import import_decks, layer_images
from .grid import BoardGrid, convert_grid
from .setups import SetupPlacing, _Board

__all__ = ["import_vmod", "ImportResult"]

_B = BUILD
_MAPPED = {  # buildFile elements whose content the import carries over
    "GameModule", "module.Map", "module.map.BoardPicker", "module.map.boardPicker.Board",
    "module.map.boardPicker.board.HexGrid", "module.map.boardPicker.board.mapgrid.HexGridNumbering",
    "module.map.boardPicker.board.ZonedGrid", "module.map.boardPicker.board.mapgrid.Zone",
    "module.PrototypesContainer", "module.PrototypeDefinition", "module.PieceWindow", "widget.TabWidget",
    "widget.PanelWidget", "widget.ListWidget", "widget.BoxWidget", "widget.PieceSlot", "module.PredefinedSetup",
    "module.PlayerRoster", "module.map.SetupStack", "module.map.DrawPile", "widget.CardSlot",
    "widget.WidgetMap", "widget.MapWidget", "module.PrivateMap", "module.PlayerHand",
}
#: The largest counter or card picture kept as art (a card scanned at 600 dpi is about 2,000).
_MAX_ART_SIDE = 8192
#: Folders only group what they hold (VASSAL 3.7's editor): never reported themselves.
_FOLDERS = "module.folder."


@dataclass
class ImportResult:
    """The written game folder, the game, and the report of what did not map."""

    folder: Path
    game: Game
    report: list[str] = field(default_factory=list)
    counts: dict = field(default_factory=dict)


class _Importer(SetupPlacing):
    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self.module = read_module(path)
        self.report: list[str] = []
        self.game: Game | None = None
        self.images: dict[str, str] = {}  # images/ name -> file in the game folder
        self._placements: dict[str, tuple[Tally, dict]] = {}   # scenario id -> unit counts, placement index
        self._by_name: dict[str, str] = {}
        self.sides: dict[str, Side] = {}
        self.used_boxes: set[str] = set()
        self._art_checked: dict[str, bool] = {}   # image -> usable as a counter's art

    # -- maps ------------------------------------------------------------------------------

    def maps(self, game: Game) -> list[_Board]:
        boards: list[_Board] = []
        used_maps: set[str] = set()
        hex_maps: list[Map] = []
        for vmap in self.module.maps:
            for board in vmap["boards"]:
                where = f"{self.where}: map {vmap['name']!r}, board {board['name']!r}"
                grid, grid_zone = board.get("grid"), None
                zone_grids = [z for z in board["zones"] if z["grid"] is not None]
                if grid is None and zone_grids:   # the hex map as a zone of the board (tracks in others)
                    grid_zone = zone_grids.pop(0)
                    grid = grid_zone["grid"]
                    if grid_zone["format"] != "$gridLocation$":
                        self.report.append(f"board {board['name']!r}: zone {grid_zone['name']!r} names its hexes "
                                           f"{grid_zone['format']!r}; the imported hexes are named by the grid alone")
                self.report += [f"board {board['name']!r}: the hex grid of zone {z['name']!r} not imported (one hex "
                                "grid a board; its zone becomes a box)" for z in zone_grids]
                converted = None
                refused = ""
                if grid is not None and board["image"] and board["image_error"] != "is not in images/" and \
                        board["image"] not in BUILT_IN_IMAGES:
                    broken = board["image_error"] or _unreadable(self.module.archive, "images/" + board["image"])
                    if broken:   # present but not a picture hexforge reads: the board's size is unknown
                        refused = f"image {board['image']!r} {broken}"
                        self.report.append(f"board {board['name']!r} not imported: {refused}")
                        grid = None
                if grid is not None:
                    try:
                        converted = (convert_grid(grid["_grid"], where, board=(board["width"], board["height"]),
                                                  zone=grid_zone["path"]) if grid_zone
                                     else convert_grid(grid["_grid"], where))
                    except DataError as exc:
                        refused = exc.problem
                        self.report.append(f"board {board['name']!r} not imported: {exc.problem}")
                map_id = None
                if converted is not None:
                    map_id = unique(slug(board["name"] or vmap["name"], "map"), used_maps)
                    m = Map(id=map_id, name=board["name"] or vmap["name"], grid=converted.grid,
                            hex_size_inches=min(5.0, max(0.1, round(converted.size / 150, 4))))
                    if board["image"] and not board["image_error"] and board["image"] not in BUILT_IN_IMAGES:
                        m.image = _image_ref(converted, f"{map_id}-{_file_name(board['image'])}")
                        self.images["board:" + map_id] = board["image"]
                    elif board["image"]:
                        why = board["image_error"] or "is one of VASSAL's own images"
                        self.report.append(f"board {board['name']!r}: image {board['image']!r} {why}: the map has no "
                                           f"picture and its grid covers {board['width']}x{board['height']} pixels "
                                           "(the buildFile's width and height, else VASSAL's default)")
                    game.maps[map_id] = m
                    hex_maps.append(m)
                    if converted.dropped:
                        self.report.append(f"board {board['name']!r}: {len(converted.dropped)} partial hexes "
                                           f"with negative numbers left out ({', '.join(converted.dropped[:5])}"
                                           + (", ..." if len(converted.dropped) > 5 else "") + ")")
                    if converted.off_board:
                        self.report.append(f"board {board['name']!r}: {converted.off_board} hexes of the "
                                           "rectangular grid have their centre off the board image"
                                           + (f" or outside zone {grid_zone['name']!r}" if grid_zone else ""))
                elif board["other_grids"] and grid is None:
                    self.report.append(f"board {board['name']!r} of map {vmap['name']!r} has a "
                                       f"{' and a '.join(sorted(set(board['other_grids'])))}, which hexforge does not "
                                       "import (only hex grids): its image is not kept"
                                       + (", its zones become boxes" if board["zones"] else ""))
                elif not board["zones"] and grid is None:
                    self.report.append(f"board {board['name']!r} of map {vmap['name']!r} has no hex grid and "
                                       "no zones: not imported (its image is not kept)")
                zones = []
                for zone in board["zones"]:
                    if zone is grid_zone and converted is not None:
                        continue   # the hex map itself, not a box
                    box_id = unique(slug(zone["name"], "box"), self.used_boxes)
                    zones.append((zone["name"], zone["path"], box_id))
                boards.append(_Board(vmap["name"], board, converted, map_id, zones, refused,
                                     grid_zone["path"] if grid_zone and converted is not None else None))
        if not hex_maps:
            raise DataError("the module has no board with a hex grid hexforge can use (" + _boards_summary(boards)
                            + ")", path=self.where)
        for b in boards:  # zones become boxes of the first hex map (hexforge keeps boxes on a map)
            target = game.maps[b.map_id] if b.map_id else hex_maps[0]
            for name, _, box_id in b.zones:
                target.boxes.append(Box(id=box_id, name=name or box_id,
                                        source=Source(estimated=f"zone {name!r} of board {b.board['name']!r}")))
        return boards

    # -- counters --------------------------------------------------------------------------

    def counters(self, game: Game) -> dict[str, str]:
        """Counters from the palette; returns gpid -> counter id."""
        root = self.module.root
        sides = self.sides
        for name in self.module.sides:
            sides.setdefault(slug(name, "side"), Side(id=slug(name, "side"), name=name))
        by_gpid: dict[str, str] = {}
        used: set[str] = set()
        palette, at_start = [], []
        for element in root.iter(_B + "widget.PieceSlot"):
            ancestors = {a.tag for a in element.iterancestors()}
            if _B + "module.map.DrawPile" in ancestors:
                continue   # a card of a deck (import_decks)
            (at_start if _B + "module.map.SetupStack" in ancestors else palette).append(element)
        names = set()
        for in_stack, element in [(False, e) for e in palette] + [(True, e) for e in at_start]:
            entry = element.get("entryName", "")
            if in_stack and entry in names:
                continue  # an at-start copy of a palette piece
            names.add(entry)
            try:
                traits = self.module.piece(element)
            except ValueError as exc:
                self.report.append(f"piece slot {entry!r} not imported: it does not decode ({exc})")
                continue
            piece = self.module.describe(traits)
            if not piece.get("name") and not piece.get("image") and "piece;" not in piece["traits"]:
                self.report.append(f"piece slot {entry!r} not imported: no BasicPiece")
                continue
            props = piece["properties"]
            name = piece.get("name") or entry or "piece"
            counter_id = props.get("UnitId") or slug(entry or name, "piece")
            if props.get("UnitId") and counter_id in game.counters:  # the same unit in another palette tab
                by_gpid[element.get("gpid", "")] = counter_id
                continue
            if counter_id in used:
                counter_id = unique(counter_id, used)
                self.report.append(f"piece slot {entry!r}: id taken, imported as {counter_id!r}")
            used.add(counter_id)
            counter = self.make_counter(counter_id, entry, element, traits, piece)
            game.counters[counter_id] = counter
            by_gpid[element.get("gpid", "")] = counter_id
        return by_gpid

    def make_counter(self, counter_id: str, entry: str, element, traits, piece: dict, *,
                     card_back: str | None = None) -> Counter:
        """The counter of a decoded palette piece (or of a card, whose Mask gives ``card_back``)."""
        props = piece["properties"]
        name = piece.get("name") or entry or "piece"
        faces = layer_images(expand(traits, self.module.prototypes))
        front = faces[0] if faces else piece.get("image")
        back = faces[1] if len(faces) > 1 else card_back
        if len(faces) > 2:
            self.report.append(f"piece slot {entry!r}: {len(faces)} Layer images; the counter keeps the "
                               "first two as front and back")
        card = card_back is not None or element.tag == _B + "widget.CardSlot"
        kind = props.get("Kind") if props.get("Kind") in KINDS else "chit" if card else "unit"
        back_kind = props.get("BackKind") if props.get("BackKind") in BACK_KINDS else (
            "blank" if card and back else "reduced" if back else "none")
        try:
            steps = max(1, min(20, int(props.get("Steps", ""))))
        except ValueError:
            steps = 2 if back and not card else 1
        front_values, back_values = printed_values(props)
        return Counter(
            id=counter_id, side=self._side(props, element, self.sides), name=name, kind=kind,
            type=props.get("Type") or ("card" if card else "infantry"),
            size=props.get("Size") or None, formation=props.get("Formation") or None,
            unit_class=props.get("UnitClass") or None, front=front_values, back=back_values,
            back_kind=back_kind, steps=steps, count=1,
            source=Source(estimated=f"imported from {self.path.name}, {'card' if card else 'piece slot'} {entry!r}"),
            image=self._art(front), back_image=self._art(back))

    def _side(self, props: dict, element, sides: dict[str, Side]) -> str | None:
        value = side_property(props)
        if value:
            sid = slug(value, "side")
            sides.setdefault(sid, Side(id=sid, name=props.get("SideName") or value))
            return sid
        for ancestor in element.iterancestors():  # the nearest palette folder named after a side
            sid = side_in_name(ancestor.get("entryName", ""), list(sides))
            if sid:
                return sid
        return None

    def _art(self, image: str | None) -> str | None:
        if not image:
            return None
        if image in self.module.drawn_images and "images/" + image not in self.module.archive:
            self.report.append(f"image {image!r} is drawn by VASSAL from a Game Piece Image layout: the counter is "
                               "drawn by hexforge instead")
            return None
        if image not in self.module.images - BUILT_IN_IMAGES:
            self.report.append(f"image {image!r} is not in the module's images/: the counter is drawn instead")
            return None
        if image not in self._art_checked:   # a picture hexforge can paste, of a counter's size
            name = "images/" + image
            size = image_size(self.module.archive, name)
            what = (("is an SVG drawing, which hexforge cannot paste" if image_kind(self.module.archive, name) == "svg"
                     else "is not an image (PNG, GIF, JPEG, BMP or WebP expected)") if size is None
                    else f"is {size[0]}x{size[1]} pixels (at most {_MAX_ART_SIDE} a side expected)"
                    if max(size) > _MAX_ART_SIDE else _unreadable(self.module.archive, name))
            self._art_checked[image] = not what
            if what:
                self.report.append(f"image {image!r} {what}: the counter is drawn instead")
        if not self._art_checked[image]:
            return None
        target = f"art/{_file_name(image)}"
        self.images[target] = image
        return target

    # -- the rest ---------------------------------------------------------------------------

    def unmapped(self) -> None:
        tally = Tally()
        for element in self.module.root.iter():
            if not isinstance(element.tag, str) or not element.tag.startswith(_B):
                continue
            short = element.tag[len(_B):]
            if short not in _MAPPED and not short.startswith(_FOLDERS):
                tally[short] += 1
        for short, n in sorted(tally.items()):
            self.report.append(f"not imported: {n} x {short}")
        unknown = Tally()
        for traits in self.module.prototypes.values():
            for trait in traits:
                unknown[trait.id] += 1
        behaviour = sorted(t for t in unknown if t not in ("mark;", "piece;", "prototype;", "emb2;"))
        if behaviour:
            self.report.append("piece behaviour not imported (traits of the prototypes): " + " ".join(behaviour))


def _unreadable(archive, name: str) -> str:
    """Why an image of the archive cannot be used ("" if it can): its data checked whole by PIL
    (chunks and checksums, not decoded), so a truncated or corrupt picture is not copied."""
    from PIL import Image
    try:
        with Image.open(io.BytesIO(archive.read(name))) as image:
            image.verify()
    except DataError:
        raise
    except Exception as exc:   # PIL raises many kinds on corrupt data
        return f"is corrupt ({type(exc).__name__}: {str(exc)[:80]})"
    return ""


def _boards_summary(boards: list[_Board]) -> str:
    """What the boards of a module without a usable hex grid have instead, for its error."""
    kinds = Tally()
    for b in boards:
        board = b.board
        kind = (f"a hex grid hexforge cannot import ({b.refused})" if board["grid"] is not None
                else ", ".join(sorted(set(board["other_grids"]))) if board["other_grids"]
                else "zones only" if board["zones"] else "no grid")
        kinds[kind] += 1
    return "; ".join(f"{n} board{'s' if n > 1 else ''}: {kind}" for kind, n in kinds.most_common()) or "no boards"


def _file_name(image: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", image.replace("/", "_")) or "image"


def _image_ref(converted: BoardGrid, file: str):
    from ..game.map import BoardImage
    return BoardImage(file=file, origin=converted.origin, size=converted.size, spacing=converted.spacing)


def import_vmod(module: str | Path, out_dir: str | Path | None = None) -> ImportResult:
    """Import ``module`` into a new game folder ``out_dir`` (default: ./<game id>); all or nothing."""
    path = Path(module)
    importer = _Importer(path)
    try:
        info = importer.module.info
        game_id = slug(info.get("name") or path.stem, "game")
        game = Game(id=game_id, name=info.get("name") or path.stem, ruleset=None)
        boards = importer.maps(game)
        by_gpid = importer.counters(game)
        cards = import_decks(importer, game, boards)
        game.sides = list(importer.sides.values())
        importer.scenarios(game, boards, by_gpid, cards)
        importer.unmapped()
        folder = Path(out_dir) if out_dir is not None else Path(game_id)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise DataError("the output folder exists and is not empty; choose another with -o", path=str(folder))
        _write(importer, game, folder)
    finally:
        importer.module.archive.close()
    counts = {"maps": len(game.maps), "hexes": sum(len(m.grid) for m in game.maps.values()),
              "counters": len(game.counters), "scenarios": len(game.scenarios),
              "boxes": sum(len(m.boxes) for m in game.maps.values())}
    return ImportResult(folder=folder, game=game, report=importer.report, counts=counts)


def _write(importer: _Importer, game: Game, folder: Path) -> None:
    """Write into a temporary sibling folder, then move it into place: nothing half-written."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".import-", dir=folder.parent))
    try:
        for scenario in game.scenarios.values():
            if not scenario.turns:
                from ..game import Turn
                scenario.turns = [Turn(1, source=Source(estimated="the module gives no turn count"))]
        dump_game(game, str(tmp))
        archive = importer.module.archive
        for target, image in importer.images.items():
            if target.startswith("board:"):
                m = game.maps[target[len("board:"):]]
                out = tmp / "maps" / m.image.file
            else:
                out = tmp / target
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(archive.read("images/" + image))
        try:   # what was written must read back, or nothing is kept
            load_game(str(tmp))
        except DataError as exc:
            raise DataError(f"the imported game does not read back ({exc}); please report this module",
                            path=importer.where) from None
        (tmp / "import-report.txt").write_text(
            f"imported from {importer.path.name}\n" + "".join(f"- {line}\n" for line in importer.report)
            or "everything mapped\n", encoding="utf-8")
        if folder.exists():
            folder.rmdir()
        tmp.rename(folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
