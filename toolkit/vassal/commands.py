"""VASSAL's command stream as data, and the pieces it builds (docs/vassal-logs.md).

A saved game (.vsav) and a log (.vlog) hold the same obfuscated stream in the zip entry
``savedGame``: ``GameModule.encode`` of a command tree, commands joined by ESC, a compound
command followed by its sub-commands (so nested commands carry escaped ESCs). A save is the
restore command ``begin_save`` ... ``end_save``; a log is that restore command followed by one
``LOG<TAB>`` command per player action. :func:`read_stream` reads the zip with the guards of
:mod:`.safety`; :func:`parse` splits the stream into actions of leaf :class:`Command` s, and
refuses commands VASSAL 3.7 never writes. :class:`Table` replays AddPiece, RemovePiece,
ChangePiece and MovePiece on plain data: every piece's traits and where it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import DataError, UnsafeInputError
from .encoding import ESC, TAB, Trait, decode, encode, parse_add_piece
from .reader import DecodeBudget
from .safety import SafeZip, parse_xml
from .savegame import deobfuscate

__all__ = ["Command", "Stream", "Table", "VPiece", "read_stream", "parse", "MAX_COMMANDS"]

MAX_COMMANDS = 1_000_000
MAX_STREAM_CHARS = 256 * 1024 * 1024
_MAX_DEPTH = 50
#: Commands VASSAL 3.7 may write that carry nothing the referee reads (prefixes, from the
#: encoders of BasicCommandEncoder, GameState, PlayerRoster, TurnTracker, properties...).
_IGNORED = ("MutableProperty\t", "GlobalProperty\t", "GlobalTranslatable\t", "SETUP_STACK\t", "UNMASK\t",
            "Events", "DECKREPOS", "AUDIO\t", "SPP\t", "LOCKSPOTAB", "FLARE", "LOS\t", "NOTES\t", "PNOTES\t",
            "SHOW_RESULTS\t", "PYREMOVE\t", "CLOCK", "EXT\t")
_BOARD = re.compile(r"^[^\t]*BoardPicker\t")


@dataclass(frozen=True)
class Command:
    """One leaf command: its kind and its decoded fields.

    kinds: ``add`` (id, type, state), ``remove`` (id), ``change`` (id, new state, old state),
    ``move`` (id, new map, x, y, under, old map, x, y, under, player), ``chat`` (text),
    ``turn`` (tracker id, state), ``player`` (player id, name, side), ``undo`` ("true"/"false"),
    ``begin``/``end`` (of the restore command), ``board`` and ``other`` (known, ignored).
    """

    kind: str
    fields: tuple = ()
    text: str = ""


@dataclass
class Stream:
    """A parsed stream: the restore commands and the logged actions after them."""

    setup: list[Command]
    actions: list[list[Command]]
    metadata: dict = field(default_factory=dict)


def read_stream(path: str | Path, data: bytes | None = None) -> tuple[str, dict]:
    """The plain command stream of a .vsav/.vlog and its ``savedata`` (module name, versions)."""
    where = str(path)
    archive = SafeZip(data if data is not None else Path(path), where=where)
    with archive:
        if "buildFile.xml" in archive or "buildFile" in archive:
            raise DataError("this is a VASSAL module, not a saved game or log", path=where)
        if "savedGame" not in archive:
            raise DataError("not a VASSAL saved game or log: the zip has no savedGame entry", path=where)
        raw = archive.read("savedGame", limit=MAX_STREAM_CHARS)
        meta = {}
        if "savedata" in archive:
            # VASSAL 3.7's SaveMetaData: version (the module's), VassalVersion, dateSaved, description;
            # the module's name and version are in a copy of its ``moduledata`` beside it (older
            # saves, and hexforge's own setups, carry a <module> block instead)
            root = parse_xml(archive.read("savedata", limit=1024 * 1024), f"{where}!savedata")
            meta = {"VassalVersion": root.findtext("VassalVersion") or "",
                    "version": root.findtext("version") or "",
                    "module": root.findtext("module/name"),
                    "module_version": root.findtext("module/version") or root.findtext("version"),
                    "description": root.findtext("description") or ""}
            if "moduledata" in archive:
                module = parse_xml(archive.read("moduledata", limit=1024 * 1024), f"{where}!moduledata")
                meta["module"] = module.findtext("name")
                meta["module_version"] = module.findtext("version") or meta["module_version"]
    try:
        text = deobfuscate(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"savedGame: bad obfuscation or encoding (expected '!VCSK', a hex key and hex bytes, "
                        f"or plain UTF-8): {exc}", path=where) from None
    return text, meta


def _flatten(text: str, depth: int, out: list[str], where: str) -> None:
    """``GameModule.decode``: a compound is its first command then its sub-commands, recursively."""
    if depth > _MAX_DEPTH:
        raise UnsafeInputError(f"commands nest more than {_MAX_DEPTH} deep", path=where)
    tokens = decode(text, ESC) if ESC in text else [text]
    if len(tokens) == 1:
        out.append(tokens[0])
    else:
        for token in tokens:
            _flatten(token, depth + 1, out, where)
    if len(out) > MAX_COMMANDS:
        raise UnsafeInputError(f"more than {MAX_COMMANDS} commands", path=where)


def _leaf(text: str, where: str, n: int) -> Command:
    """One leaf command, decoded; unknown commands are refused (VASSAL would drop them silently)."""
    try:
        if text.startswith("+/"):
            return Command("add", parse_add_piece(text), text)
        if text.startswith("-/"):
            return Command("remove", (text[2:],), text)
        if text.startswith("D/"):
            parts = decode(text[2:], "/")
            if len(parts) < 2:
                raise ValueError("ChangePiece needs an id and a state")
            return Command("change", (parts[0], parts[1], parts[2] if len(parts) > 2 else None), text)
        if text.startswith("M/"):
            parts = decode(text[2:], "/") + [""] * 10
            fields = [None if p == "null" else p for p in parts[:10]]
            for i in (2, 3, 6, 7):
                fields[i] = int(parts[i])
            return Command("move", tuple(fields), text)
    except ValueError as exc:
        raise DataError(f"command {n} ({text[:40]!r}...) does not decode: {exc}", path=where) from None
    if text.startswith("CHAT"):
        return Command("chat", (text[4:],), text)
    if text.startswith("TURN"):
        parts = decode(text, TAB)
        return Command("turn", (parts[0][4:], parts[1] if len(parts) > 1 else ""), text)
    if text.startswith("PLAYER\t"):
        parts = decode(text, TAB)[1:] + ["", "", ""]
        return Command("player", tuple(parts[:3]), text)
    if text.startswith("UNDO\t"):
        return Command("undo", (text[5:],), text)
    if text == "begin_save":
        return Command("begin")
    if text == "end_save":
        return Command("end")
    if text == "":
        return Command("other")
    if _BOARD.match(text):
        return Command("board", tuple(decode(text, TAB)), text)
    if text.startswith(_IGNORED):
        return Command("other", (), text)
    shown = text[:40].replace(ESC, "<ESC>").replace(TAB, "<TAB>")
    raise DataError(f"command {n} is unknown: {shown!r} is not a command VASSAL 3.7 writes for a hexforge "
                    f"module (moves M/, changes D/, pieces +/ -/, chat, turn, players, undo)", path=where)


def parse(text: str, where: str) -> Stream:
    """Split a stream into the restore commands and the logged actions (each a list of leaves)."""
    if len(text) > MAX_STREAM_CHARS:
        raise UnsafeInputError(f"the command stream is {len(text)} characters (limit {MAX_STREAM_CHARS})", path=where)
    top = decode(text, ESC)
    setup: list[Command] = []
    actions: list[list[Command]] = []
    count = 0
    for token in top:
        leaves: list[str] = []
        _flatten(token, 0, leaves, where)
        count += len(leaves)
        if count > MAX_COMMANDS:
            raise UnsafeInputError(f"more than {MAX_COMMANDS} commands", path=where)
        if leaves and leaves[0].startswith("LOG\t"):
            action = []
            for leaf in leaves:
                if not leaf.startswith("LOG\t"):
                    raise DataError(f"a logged action mixes LOG and plain commands ({leaf[:30]!r})", path=where)
                inner: list[str] = []
                _flatten(leaf[4:], 1, inner, where)
                action += [_leaf(t, where, count) for t in inner]
            actions.append(action)
        elif actions:
            raise DataError(f"a plain command {leaves[0][:30]!r} follows the logged actions", path=where)
        else:
            setup += [_leaf(t, where, count) for t in leaves]
    if not setup or setup[0].kind != "begin":
        raise DataError("the stream does not start with begin_save: not a VASSAL saved game or log", path=where)
    if not any(c.kind == "end" for c in setup):
        raise DataError("the stream has no end_save: VASSAL would cancel loading it", path=where)
    return Stream(setup, actions)


@dataclass
class VPiece:
    """A piece on the table: its traits (outermost first) and where it is."""

    id: str
    traits: list[Trait]
    map: str | None
    x: int
    y: int
    stack: str | None = None


class Table:
    """The pieces and stacks of a game, changed command by command as VASSAL would."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.pieces: dict[str, VPiece] = {}
        self.stacks: dict[str, list[str]] = {}
        self.decks: dict[str, str] = {}      # deck id -> its name (a deck holds pieces like a stack)
        self.problems: list[str] = []
        #: what readers derive from a piece's traits, keyed by the traits (a log re-reads the table
        #: after every action; only pieces that changed are decoded again)
        self.cache: dict[tuple, object] = {}
        self._budget = DecodeBudget(where)   # crafted pieces of thousands of traits cost too much to decode

    def apply(self, command: Command) -> None:
        kind = command.kind
        if kind == "add":
            self._add(*command.fields)
        elif kind == "remove":
            self._remove(command.fields[0])
        elif kind == "change":
            self._change(command.fields[0], command.fields[1])
        elif kind == "move":
            self._move(*command.fields[:5])

    def _add(self, piece_id: str, type_text: str, state: str) -> None:
        if type_text == "stack":
            fields = decode(state, ";")
            try:
                map_name, x, y = fields[0], int(fields[1]), int(fields[2])
            except (IndexError, ValueError):
                raise DataError(f"stack {piece_id}: bad state {state[:40]!r}", path=self.where) from None
            self._set_stack(piece_id, map_name, x, y, [f for f in fields[3:] if not f.startswith("@@")])
            return
        if type_text.startswith("deck;"):
            fields = decode(type_text[len("deck;"):], ";")
            self.decks[piece_id] = fields[12] if len(fields) > 12 else piece_id
            self._deck(piece_id, state)
            return
        try:
            traits = self._budget.chain(type_text, state)
        except ValueError as exc:
            if isinstance(exc, DataError):
                raise
            raise DataError(f"piece {piece_id} does not decode: {exc}", path=self.where) from None
        map_name, x, y = _basic_position(traits[-1], piece_id, self.where)
        self.pieces[piece_id] = VPiece(piece_id, traits, map_name, x, y)

    def _deck(self, deck_id: str, state: str) -> None:
        """``Deck.getState``: ``map;x;y;faceDown;id1,id2,...``."""
        fields = decode(state, ";")
        try:
            x, y = int(fields[1]), int(fields[2])
        except (IndexError, ValueError):
            raise DataError(f"deck {deck_id}: bad state {state[:40]!r}", path=self.where) from None
        ids = [i for i in decode(fields[4], ",") if i] if len(fields) > 4 else []
        self._set_stack(deck_id, fields[0], x, y, ids)

    def _set_stack(self, stack_id: str, map_name: str, x: int, y: int, ids: list[str]) -> None:
        for old in self.stacks.get(stack_id, []):
            if old in self.pieces and self.pieces[old].stack == stack_id:
                self.pieces[old].stack = None
        members = []
        for pid in ids:
            piece = self.pieces.get(pid)
            if piece is None:
                self.problems.append(f"stack {stack_id} holds piece {pid} that does not exist")
                continue
            self._leave_stack(piece)
            piece.stack = stack_id
            _place(piece, None if map_name == "null" else map_name, x, y)
            members.append(pid)
        self.stacks[stack_id] = members

    def _leave_stack(self, piece: VPiece) -> None:
        if piece.stack is not None and piece.id in self.stacks.get(piece.stack, []):
            self.stacks[piece.stack].remove(piece.id)
        piece.stack = None

    def _remove(self, piece_id: str) -> None:
        piece = self.pieces.pop(piece_id, None)
        if piece is not None:
            self._leave_stack(piece)
        elif piece_id in self.stacks:
            for pid in self.stacks.pop(piece_id):
                if pid in self.pieces:
                    self.pieces[pid].stack = None

    def _change(self, piece_id: str, state: str) -> None:
        piece = self.pieces.get(piece_id)
        if piece is not None:
            try:
                states = self._budget.chain(state, "")   # the state chain nests like a type chain
            except ValueError as exc:
                if isinstance(exc, DataError):
                    raise
                raise DataError(f"ChangePiece of {piece_id} does not decode: {exc}", path=self.where) from None
            if len(states) != len(piece.traits):
                raise DataError(f"ChangePiece of {piece_id} has {len(states)} trait states for a piece of "
                                f"{len(piece.traits)} traits", path=self.where)
            piece.traits = [Trait(t.type, s.type) for t, s in zip(piece.traits, states)]
            if piece.stack is None:
                piece.map, piece.x, piece.y = _basic_position(piece.traits[-1], piece_id, self.where)
        elif piece_id in self.decks:
            self._deck(piece_id, state)
        elif piece_id in self.stacks:
            fields = decode(state, ";")
            try:
                self._set_stack(piece_id, fields[0], int(fields[1]), int(fields[2]),
                                [f for f in fields[3:] if not f.startswith("@@")])
            except (IndexError, ValueError):
                raise DataError(f"stack {piece_id}: bad state {state[:40]!r}", path=self.where) from None

    def _move(self, piece_id: str, map_name: str | None, x: int, y: int, under: str | None) -> None:
        members = [piece_id] if piece_id in self.pieces else list(self.stacks.get(piece_id, []))
        for pid in members:
            piece = self.pieces[pid]
            if piece_id in self.pieces:
                self._leave_stack(piece)
            _place(piece, map_name, x, y)
        if piece_id in self.stacks:
            return
        target = self.pieces.get(under) if under else None
        if target is not None and target.stack is not None and target.map == map_name and \
                (target.x, target.y) == (x, y):
            self.stacks[target.stack].append(piece_id)
            self.pieces[piece_id].stack = target.stack


def _place(piece: VPiece, map_name: str | None, x: int, y: int) -> None:
    """Put a piece somewhere; its BasicPiece state follows (``BasicPiece.getState`` reports
    where the piece is, so a later ChangePiece carries the new place)."""
    piece.map, piece.x, piece.y = map_name, x, y
    basic = piece.traits[-1]
    state = decode(basic.state, ";")
    state[0:3] = [map_name or "null", str(x), str(y)]
    piece.traits[-1] = Trait(basic.type, encode(state, ";"))


def _basic_position(basic: Trait, piece_id: str, where: str) -> tuple[str | None, int, int]:
    if basic.id != "piece;":
        raise DataError(f"piece {piece_id}: the innermost trait is not a BasicPiece", path=where)
    state = decode(basic.state, ";")
    try:
        x, y = int(state[1]), int(state[2])
    except (IndexError, ValueError):
        x, y = 0, 0
    map_name = state[0] if state and state[0] not in ("", "null") else None
    return map_name, x, y
