"""``inspect``: read a VASSAL module or saved game back (maps, grids, pieces, setups).

The result is plain data (JSON-ready). Every piece is decoded trait by trait, prototypes are
expanded from the module, and positions are named with the port of VASSAL's grid, so a
piece's ``location`` is what VASSAL shows (our hex id on a hex map, the zone on the boxes
board). ``problems`` lists what VASSAL would warn about or silently get wrong: undecodable
pieces, missing prototypes and images, duplicate gpids, setups that do not start a game.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import DataError
from .describe import KNOWN_TRAITS, DecodeBudget, decode_piece, describe_piece, describe_text
from .encoding import ESC, Trait, decode, parse_add_piece
from .grid import VassalHexGrid, inside_shape
from .images import BUILT_IN_IMAGES, MAX_BOARD_PIXELS, MAX_BOARD_SIDE, image_kind, image_size
from .pieces import expand
from .safety import MAX_NESTED_BYTES, SafeZip, parse_xml
from .savegame import deobfuscate

__all__ = ["inspect", "read_module", "Module", "describe_piece", "decode_piece", "read_save", "element_text",
           "image_size", "image_kind", "inside_shape", "owning_map", "DecodeBudget", "BUILD", "KNOWN_TRAITS", "BUILT_IN_IMAGES",
           "MAP_TAGS"]

#: What can be a piece's innermost member (BasicCommandEncoder.createBasic): a BasicPiece, a
#: Stack or a Deck; cards are BasicPieces (with a Mask) since VASSAL 3.2.
INNERMOST = ("piece;", "deck;", "stack")

#: The package of every buildFile element's tag.
BUILD = "VASSAL.build."
_B = BUILD

#: The buildFile elements that are maps (VASSAL's Map and its subclasses: a WidgetMap is a map
#: shown inside a chart window or a tab of the palette).
MAP_TAGS = tuple(_B + t for t in ("module.Map", "module.PrivateMap", "module.PlayerHand", "widget.WidgetMap"))
_MAX_COMMANDS = 1_000_000
_MAX_DEPTH = 50


class Module:
    """The parts of a buildFile the reader needs (see :func:`read_module`)."""

    def __init__(self, archive: SafeZip, where: str) -> None:
        self.where = where
        self.archive = archive
        self.problems: list[str] = []
        self.budget = DecodeBudget(where)
        name = "buildFile.xml" if "buildFile.xml" in archive else "buildFile" if "buildFile" in archive else None
        if name is None:
            raise DataError("not a VASSAL module: no buildFile.xml or buildFile", path=where)
        data = archive.read(name)
        root = parse_xml(data, f"{where}!{name}")
        if b"<![CDATA[" in data:
            self.problems.append("the buildFile uses CDATA sections, which VASSAL ignores (pieces would not build)")
        if "moduledata" in archive:
            parse_xml(archive.read("moduledata"), f"{where}!moduledata")
        else:
            self.problems.append("no moduledata: the Module Manager shows no name or version")
        self.root = root
        self.info = {k: root.get(k, "") for k in ("name", "version", "VassalVersion", "description",
                                                   "nextPieceSlotId")}
        #: Images VASSAL draws from a Game Piece Image layout: a piece names them like a file.
        self.drawn_images = {e.get("name", "") for e in root.iter(_B + "module.gamepieceimage.GamePieceImage")}
        self.images = ({n[len("images/"):] for n in archive.names() if n.startswith("images/")} | BUILT_IN_IMAGES
                       | self.drawn_images)
        self.sides = [element_text(e) for roster in root.iter(_B + "module.PlayerRoster") for e in roster.iter("entry")]
        self.prototypes: dict[str, list[Trait]] = {}
        self.designs: dict = {}   # describe_piece's cache for these prototypes
        for element in root.iter(_B + "module.PrototypeDefinition"):
            text = element_text(element)
            try:
                self.prototypes[element.get("name", "")] = decode_piece(text, self.budget)[1]
            except ValueError as exc:
                self.problems.append(f"prototype {element.get('name')!r} does not decode: {exc}")
        for chart in root.iter(_B + "widget.Chart"):
            image = chart.get("fileName", "")
            if image not in self.images:
                self.problems.append(f"chart {chart.get('chartName')!r}: image {image!r} is not in images/")
        self.maps = [self._map(m) for m in root.iter(*MAP_TAGS)]

    def _map(self, element) -> dict:
        boards = []
        for board in element.iter(_B + "module.map.boardPicker.Board"):
            image = board.get("image", "")
            size, image_error = None, ""
            if image:
                if "images/" + image in self.archive:
                    size = image_size(self.archive, "images/" + image)
                    if size is None and image_kind(self.archive, "images/" + image) == "svg":
                        image_error = ("is an SVG drawing (VASSAL draws it; hexforge reads PNG, GIF, JPEG, BMP, WebP: "
                                       "save it as PNG and import again)")
                    elif size is None:
                        image_error = "is not an image (PNG, GIF, JPEG, BMP, WebP or SVG expected)"
                        self.problems.append(f"board {board.get('name')!r}: image {image!r} {image_error}")
                elif image not in BUILT_IN_IMAGES:
                    image_error = "is not in images/"
                    self.problems.append(f"board {board.get('name')!r}: image {image!r} is not in images/")
            if size is None:
                try:
                    size = (int(board.get("width", "500") or 500), int(board.get("height", "500") or 500))
                except ValueError:
                    raise DataError(f"board {board.get('name', '')[:40]!r}: width/height are not whole numbers",
                                    path=self.where) from None
            size = (max(1, size[0]), max(1, size[1]))   # no size: kept positive for the grid arithmetic
            if size[0] * size[1] > MAX_BOARD_PIXELS or max(size) > MAX_BOARD_SIDE:
                claim = f"image {image!r}" if image_error == "" and image else "width/height"
                raise DataError(f"board {board.get('name', '')[:40]!r}: {claim} gives {size[0]}x{size[1]} pixels; "
                                f"expected at most {MAX_BOARD_SIDE} a side and {MAX_BOARD_PIXELS:,} in all",
                                path=self.where)
            entry = {"name": board.get("name", ""), "image": image, "width": size[0], "height": size[1],
                     "image_error": image_error, "grid": None, "zones": [], "other_grids": []}
            ns = _B + "module.map.boardPicker.board."
            for child in board:
                if child.tag == ns + "HexGrid":
                    entry["grid"] = self._grid(child, size)
                elif child.tag == ns + "ZonedGrid":
                    for zone in child.iter(ns + "mapgrid.Zone"):
                        path = _path(zone.get("path", ""))
                        z = {"name": zone.get("name", ""), "path": path, "_bounds": _bounds(path), "grid": None,
                             "format": zone.get("locationFormat", "$gridLocation$")}
                        own = zone.find(ns + "HexGrid")   # a zone's own grid, numbered within its bounds
                        if own is not None and path:
                            x0, y0, x1, y1 = z["_bounds"]
                            z["grid"] = self._grid(own, (max(1, x1 - x0), max(1, y1 - y0)))
                        entry["zones"].append(z)
                    for grid in child.findall(ns + "HexGrid"):
                        entry["grid"] = self._grid(grid, size)
                    entry["other_grids"] += [_GRID_KINDS[g.tag] for g in child if g.tag in _GRID_KINDS]
                elif child.tag in _GRID_KINDS:
                    entry["other_grids"].append(_GRID_KINDS[child.tag])
            boards.append(entry)
        decks = [{"name": pile.get("name", ""), "board": pile.get("owningBoard", ""),
                  "x": pile.get("x", "0"), "y": pile.get("y", "0"), "face_down": pile.get("faceDown", "Always"),
                  "shuffle": pile.get("shuffle", "Always"), "draw_face_up": pile.get("drawFaceUp", "false") == "true",
                  "send_to": pile.get("reshuffleTarget", "") if pile.get("reshufflable") == "true" else "",
                  "_element": pile}
                 for pile in element.iter(_B + "module.map.DrawPile")]  # also inside folders
        return {"name": element.get("mapName", ""), "boards": boards, "decks": decks,
                "edge": (_int_attr(element, "edgeWidth"), _int_attr(element, "edgeHeight"))}

    def _grid(self, element, size) -> dict:
        numbering = element.find(_B + "module.map.boardPicker.board.mapgrid.HexGridNumbering")
        attrs = dict(element.attrib)
        num_attrs = dict(numbering.attrib) if numbering is not None else {}
        try:
            grid = VassalHexGrid.from_attributes(attrs, num_attrs, *size)
        except ValueError as exc:
            raise DataError(f"HexGrid attributes are malformed: {exc}", path=self.where) from None
        return {"attributes": attrs, "numbering": num_attrs, "_grid": grid}

    def piece(self, element) -> list[Trait]:
        """The traits of a PieceSlot or CardSlot element, charged to this module's decoding
        budget; ValueError if it does not decode."""
        return decode_piece(element_text(element), self.budget)[1]

    def describe(self, traits: list[Trait]) -> dict:
        """:func:`describe_piece` against this module's prototypes (each design decoded once)."""
        return describe_piece(traits, self.prototypes, self.designs)

    def board_at(self, map_name: str, x: int, y: int, layout: list | None = None) -> tuple[dict, int, int] | None:
        """The board of map ``map_name`` under point ``(x, y)`` and the point on that board.

        ``layout`` is a save's BoardPicker positions (``[[board, column, row], ...]``); without
        one the map's first board is alone at its origin. Boards of a row sit side by side, rows
        one below the other, all inside the map's edge margins (as VASSAL lays them out).
        """
        m = next((m for m in self.maps if m["name"] == map_name), None)
        if m is None or not m["boards"]:
            return None
        by_name = {b["name"]: b for b in m["boards"]}
        placed = [(by_name[n], c, r) for n, c, r in (layout or [[m["boards"][0]["name"], 0, 0]]) if n in by_name]
        edge = m["edge"]
        for board, col, row in placed:
            left = edge[0] + sum(b["width"] for b, c, r in placed if r == row and c < col)
            top = edge[1] + sum(max((b["height"] for b, c2, r2 in placed if r2 == rr), default=0)
                                for rr in {r for _, _, r in placed} if rr < row)
            if left <= x < left + board["width"] and top <= y < top + board["height"]:
                return board, x - left, y - top
        return None

    def locate(self, map_name: str, x: int, y: int, layout: list | None = None) -> tuple[str, str] | None:
        """``("zone", name)`` or ``("hex", label)`` of a point, ``("", "")`` if neither (off every
        board too); None: no such map. ``layout`` as for :meth:`board_at`."""
        if not any(m["name"] == map_name for m in self.maps):
            return None
        found = self.board_at(map_name, x, y, layout)
        if found is None:
            return "", ""
        return self.locate_on_board(*found)

    @staticmethod
    def locate_on_board(board: dict, x: int, y: int) -> tuple[str, str]:
        """``("zone", name)`` or ``("hex", label)`` of a point of ``board`` (in its own
        coordinates), ``("", "")`` if neither."""
        for zone in board["zones"]:
            x0, y0, x1, y1 = zone["_bounds"]
            if x0 <= x <= x1 and y0 <= y <= y1 and inside_shape(zone["path"], x, y):
                if zone["grid"] is not None:   # Zone.locationName: its format around its grid's name
                    label = zone["grid"]["_grid"].label(x, y)
                    name = zone["format"].replace("$gridLocation$", label).replace("$name$", zone["name"])
                    return ("hex", label) if name == label else ("zone", name)
                return "zone", zone["name"]
        if board["grid"] is not None:
            return "hex", board["grid"]["_grid"].label(x, y)
        return "", ""


#: Grids of a board other than a hex grid (what a board that is not imported holds).
_GRID_KINDS = {_B + "module.map.boardPicker.board." + k: v
               for k, v in (("SquareGrid", "square grid"), ("RegionGrid", "region grid"))}


def _int_attr(element, name: str) -> int:
    try:
        return max(0, int(element.get(name, "0") or 0))
    except ValueError:
        return 0


def _bounds(path: list[tuple[int, int]]) -> tuple[int, int, int, int]:
    """A zone's bounding box: a point outside it is outside the zone (most zones, most points)."""
    if not path:
        return (1, 1, 0, 0)   # empty: holds nothing
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    return min(xs), min(ys), max(xs), max(ys)


def _path(text: str) -> list[tuple[int, int]]:
    points = []
    for pair in text.split(";"):
        if pair.strip():
            xs, _, ys = pair.partition(",")
            try:
                points.append((int(xs), int(ys)))
            except ValueError:
                raise DataError(f"zone path {text[:60]!r} is malformed") from None
    return points


def owning_map(element):
    """The map element an at-start stack, deck or board belongs to, through any folders
    (``MapSubFolder``) between them; None if it is on no map."""
    for ancestor in element.iterancestors(*MAP_TAGS):
        return ancestor
    return None


def element_text(element) -> str:
    """An element's text as VASSAL's Builder.getText reads it: text and entity children only
    (CDATA is ignored by VASSAL), trimmed."""
    return "".join([element.text or ""] + [child.tail or "" for child in element]).strip()


def _commands(text: str, depth: int = 0) -> list[str]:
    """GameModule.decode: ESC-separated commands, later ones possibly compound (nested)."""
    if depth > _MAX_DEPTH:
        raise DataError("saved game commands nest too deeply")
    tokens = decode(text, ESC)
    out = [tokens[0]]
    for token in tokens[1:]:
        out.extend(_commands(token, depth + 1) if ESC in token else [token])
        if len(out) > _MAX_COMMANDS:
            raise DataError(f"saved game has more than {_MAX_COMMANDS} commands")
    return out


def read_save(data: bytes, where: str, module: Module | None, *, locate: bool = True) -> dict:
    """Pieces (with locations when the module is known and ``locate``), stacks and boards of a .vsav."""
    archive = SafeZip(data, where=where, max_total=MAX_NESTED_BYTES * 4)
    if "savedGame" not in archive:
        raise DataError("not a VASSAL saved game: no savedGame entry", path=where)
    try:
        text = deobfuscate(archive.read("savedGame"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"savedGame is corrupt: {exc}", path=where) from None
    commands = _commands(text)
    budget = module.budget if module is not None else DecodeBudget(where)
    designs: dict = {}
    pieces: dict[str, dict] = {}
    stacks, boards, decks, problems = [], [], [], []
    for command in commands:
        if command.startswith("+/"):
            try:
                piece_id, type_text, state = parse_add_piece(command)
            except ValueError as exc:
                problems.append(f"command does not decode: {exc}")
                continue
            if type_text.startswith("deck;"):  # a Deck holds cards added before it, like a stack
                fields, kind = decode(state, ";"), decode(type_text[len("deck;"):], ";")
                ids = [i for i in decode(fields[4], ",") if i] if len(fields) > 4 else []
                problems += [f"deck {piece_id} holds piece {i} that was not added before it" for i in ids
                             if i not in pieces]
                decks.append({"id": piece_id, "name": kind[12] if len(kind) > 12 else None,
                              "map": fields[0] if fields else None, "face_down": fields[3:4] == ["true"],
                              "pieces": ids})
                continue
            if type_text == "stack":
                fields = decode(state, ";")
                ids = [f for f in fields[3:] if not f.startswith("@@")]
                missing = [i for i in ids if i not in pieces]
                problems += [f"stack {piece_id} holds piece {i} that was not added before it" for i in missing]
                stacks.append({"id": piece_id, "map": fields[0], "pieces": ids})
                continue
            try:
                piece = describe_text(type_text, state, module.prototypes if module is not None else None,
                                       module.designs if module is not None else designs, budget)
            except ValueError as exc:
                problems.append(f"piece {piece_id} does not decode: {exc}")
                continue
            piece["id"] = piece_id
            problems += [f"piece {piece_id} ({piece.get('name')}): {p}" for p in piece["problems"]]
            if module is not None:
                problems += [f"piece {piece_id}: image {i!r} is not in images/" for i in piece.get("images", [])
                             if i not in module.images]
            pieces[piece_id] = piece
        elif "BoardPicker\t" in command:
            parts = decode(command, "\t")
            boards.append({"map": parts[0][: -len("BoardPicker")], "boards": parts[1::3],
                           "positions": [[name, _num(col), _num(row)]
                                         for name, col, row in zip(parts[1::3], parts[2::3], parts[3::3])]})
    unknown: dict[str, list[str]] = {}   # map name -> pieces on it, when the module has no such map
    if module is not None and locate:   # after the BoardPicker commands, which say where each board lies
        layout = {b["map"]: b["positions"] for b in boards}
        for piece_id, piece in pieces.items():
            if piece.get("map") is not None and "x" in piece:
                location = module.locate(piece["map"], piece["x"], piece["y"], layout.get(piece["map"]))
                if location is None:
                    unknown.setdefault(piece["map"], []).append(piece_id)
                    piece["location"] = None
                else:
                    piece["location"] = location[1]
                    if location[0]:
                        piece[location[0]] = location[1]
    for name, ids in unknown.items():   # one problem a map (a save of an older module: hundreds of pieces)
        problems.append(f"{len(ids)} pieces are on map {name!r}, which the module does not have (VASSAL "
                        f"leaves them off every map; first: piece {ids[0]})")
    return {"pieces": list(pieces.values()), "stacks": stacks, "decks": decks, "boards": boards,
            "begins": "begin_save" in commands, "starts": "end_save" in commands,
            "decks_as_saved": "SETUP_STACK\t" in commands, "problems": problems}


_FACE_DOWN = {"Always", "Never", "Via right-click Menu", "MenuDefaultUp"}
_SHUFFLE = {"Always", "Never", "Via right-click Menu"}


def _decks(mod: Module, problems: list[str]) -> list[dict]:
    """Every DrawPile: where it sits, how it draws and its cards; problems VASSAL would hit."""
    out = []
    names = [d["name"] for m in mod.maps for d in m["decks"]]
    for m in mod.maps:
        boards = {b["name"] for b in m["boards"]}
        for deck in m["decks"]:
            pile = deck.pop("_element")
            label = f"deck {deck['name']!r}"
            if names.count(deck["name"]) > 1:
                problems.append(f"{label}: two decks have this name (Return to Deck finds decks by name)")
            if deck["board"] and deck["board"] not in boards:   # none: placed on the map (DrawPile.getPosition)
                problems.append(f"{label}: owning board {deck['board']!r} is not a board of map {m['name']!r}")
            try:
                x, y = int(deck["x"]), int(deck["y"])
            except ValueError:
                problems.append(f"{label}: position {deck['x']!r},{deck['y']!r} is not a number")
                x = y = None
            deck["x"], deck["y"] = x, y
            if x is not None:   # DrawPile.getPosition: on its board, else past the map's edge margins
                owner = next((b for b in m["boards"] if deck["board"] and b["name"] == deck["board"]), None)
                where = (mod.locate_on_board(owner, x, y) if owner is not None
                         else mod.locate(m["name"], x + m["edge"][0], y + m["edge"][1]))
                deck["location"] = where[1] if where else None
            if deck["face_down"] not in _FACE_DOWN:
                problems.append(f"{label}: faceDown {deck['face_down']!r} is not one of {sorted(_FACE_DOWN)}")
            if deck["shuffle"] not in _SHUFFLE:
                problems.append(f"{label}: shuffle {deck['shuffle']!r} is not one of {sorted(_SHUFFLE)}")
            if deck["send_to"] and deck["send_to"] not in names:
                problems.append(f"{label}: sends its cards to deck {deck['send_to']!r}, which does not exist")
            cards, unmasked = [], []
            for slot in pile.iter(_B + "widget.CardSlot", _B + "widget.PieceSlot"):   # deck folders too
                try:
                    _, traits = decode_piece(element_text(slot), mod.budget)
                except ValueError:
                    continue  # reported with the other slots
                try:
                    full = expand(traits, mod.prototypes)
                except ValueError as exc:        # prototypes that nest without end
                    problems.append(f"{label}: a card does not expand: {exc}")
                    continue
                piece = mod.describe(traits)
                cards.append(piece["name"])
                if deck["face_down"] != "Never" and not any(t.id == "obs;" for t in full):
                    unmasked.append(piece["name"])
                for t in full:
                    if t.id == "return;":
                        fields = decode(t.type[len("return;"):], ";")
                        fields += [""] * (8 - len(fields))
                        # version 2 names the deck in an expression and may prompt instead; older ones by id
                        select, target = ((fields[6] == "true", fields[7]) if fields[5] == "2"
                                          else (not fields[2], fields[2]))
                        target = _literal_name(target)
                        if not select and target and target not in names:
                            problems.append(f"{label}: card {piece['name']!r} returns to deck {target!r}, "
                                            f"which does not exist")
            if len(unmasked) == 1:
                problems.append(f"{label}: card {unmasked[0]!r} has no Mask trait, so it shows its face "
                                f"in a face-down deck")
            elif unmasked:   # one problem a deck: a deck of tokens has a hundred
                problems.append(f"{label}: {len(unmasked)} cards have no Mask trait "
                                f"({_first(list(dict.fromkeys(unmasked)))}), so they show their face in a face-down deck")
            deck["cards"] = cards
            out.append({"map": m["name"], **deck})
    for m in mod.maps:  # reported once, in the module's "decks"
        m.pop("decks", None)
    return out


_STRING_EXPRESSION = re.compile(r'\{\s*"([^"\\]*)"\s*\}')


def _first(names: list[str], n: int = 3) -> str:
    """The first ``n`` names, quoted, for a problem shared by many."""
    return ", ".join(repr(x) for x in names[:n]) + (", ..." if len(names) > n else "")


def _literal_name(target: str) -> str:
    """The deck a Return to Deck names, if its expression is a constant (``Discard``,
    ``{"Discard"}``); "" if only the game can tell (``$side$ Discard``, ``{Side + " Discard"}``)."""
    match = _STRING_EXPRESSION.fullmatch(target.strip())
    if match:
        return match[1]
    return "" if "$" in target or target.strip().startswith("{") else target


def _num(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def read_module(path: str | Path) -> Module:
    """The parsed module: ``root`` (the buildFile), ``info``, ``prototypes``, ``maps`` (boards
    with their ``_grid`` port), ``images``, ``sides`` and the open ``archive`` (the caller
    closes it)."""
    archive = SafeZip(Path(path), where=str(path))
    try:
        return Module(archive, str(path))
    except Exception:
        archive.close()
        raise


def _strip(value):
    if isinstance(value, dict):
        return {k: _strip(v) for k, v in value.items() if not k.startswith("_")}
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


def inspect(path: str | Path, module: str | Path | None = None) -> dict:
    """Read a .vmod (maps, grids, prototypes, palette pieces, every setup) or a .vsav.

    For a .vsav, pass the ``module`` it belongs to so pieces get their hex or box and
    prototypes are checked. Raises :class:`DataError` (or :class:`UnsafeInputError`) with a
    clear message for malformed or hostile files.
    """
    try:
        return _inspect(Path(path), module)
    except DataError as exc:
        if exc.path:
            raise
        # a problem found deep inside (a piece, a zone) names the file it came from
        raise type(exc)(exc.problem, path=str(path), line=exc.line, field=exc.field) from None


def _inspect(path: Path, module: str | Path | None) -> dict:
    where = str(path)
    with SafeZip(path, where=where) as archive:
        if "savedGame" in archive and "buildFile.xml" not in archive and "buildFile" not in archive:
            mod = None
            if module is not None:
                mod_archive = SafeZip(Path(module), where=str(module))
                mod = Module(mod_archive, str(module))
            save = read_save(path.read_bytes(), where, mod)
            return {"kind": "save", "file": where, **save}
        mod = Module(archive, where)
        problems = list(mod.problems)
        slots, gpids, no_gpid = [], {}, []
        slot_problems: dict[str, list[str]] = {}   # problem -> the slots that have it
        for element in mod.root.iter(_B + "widget.PieceSlot", _B + "widget.CardSlot"):
            gpid = element.get("gpid", "")
            entry = element.get("entryName", "")
            if not gpid:   # not a duplicate: VASSAL's GpIdChecker reports it as not generated yet
                no_gpid.append(entry)
            elif gpid in gpids:
                problems.append(f"gpid {gpid} is used by {gpids[gpid]!r} and {entry!r}")
            else:
                gpids[gpid] = entry
            try:
                _, traits = decode_piece(element_text(element), mod.budget)
            except ValueError as exc:
                problems.append(f"piece slot {entry!r} does not decode: {exc}")
                continue
            piece = mod.describe(traits)
            piece["images"] = sorted(set(piece["images"]))   # a Layer may show one image on several levels
            for p in piece["problems"] + [f"image {i!r} is not in images/" for i in piece["images"]
                                          if i not in mod.images]:
                slot_problems.setdefault(p, []).append(entry)
            slots.append({**{k: v for k, v in piece.items() if k not in ("problems", "gpid")},
                          "entry": entry, "gpid": gpid})
        try:
            next_id = int(mod.info.get("nextPieceSlotId") or 0)
        except ValueError:
            next_id = 0
        for p, entries in slot_problems.items():   # a prototype's problem once, not on each of its pieces
            problems.append(f"piece slot {entries[0]!r}: {p}" if len(entries) == 1
                            else f"{len(entries)} piece slots ({_first(entries)}): {p}")
        if no_gpid:
            problems.append(f"{len(no_gpid)} piece slots have no gpid (first {no_gpid[0]!r}): pieces of saved games "
                            "cannot be refreshed from them until the editor gives them one")
        numeric = [int(g) for g in gpids if g.isdigit()]
        if numeric and next_id <= max(numeric):
            problems.append(f"nextPieceSlotId {next_id} is not above the largest gpid {max(numeric)}")
        decks = _decks(mod, problems)
        setups = []
        for element in mod.root.iter(_B + "module.PredefinedSetup"):
            entry = {"name": element.get("name", ""), "file": element.get("file", "")}
            # no file attribute: VASSAL starts a new game (PredefinedSetup.launch, fileName null)
            if (element.get("useFile", "true") == "true" and element.get("isMenu", "false") != "true"
                    and element.get("file") is not None):
                file = entry["file"]
                if file not in archive:
                    problems.append(f"setup {entry['name']!r}: file {file!r} is not in the module")
                else:
                    save = read_save(archive.read(file, limit=MAX_NESTED_BYTES), f"{where}!{file}", mod)
                    problems += [f"setup {entry['name']!r}: {p}" for p in save["problems"]]
                    if not save["starts"]:
                        problems.append(f"setup {entry['name']!r} has no end_save: VASSAL cancels the load")
                    entry.update(save)
            setups.append(entry)
        return {
            "kind": "module", "file": where, **{k: v for k, v in mod.info.items()},
            "maps": _strip(mod.maps),   # the grid ports; pieces and setups hold no private keys
            "prototypes": sorted(mod.prototypes), "pieces": slots, "decks": decks,
            "setups": setups,
            "problems": problems,
        }
