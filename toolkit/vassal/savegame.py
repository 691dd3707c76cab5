"""Saved games (.vsav): the command stream, its obfuscation and the zip (vassal-format.md §6).

A setup is ``begin_save``, the pieces (AddPiece), the stacks that hold them, one board
selection per map and ``end_save`` (which is what starts the game), joined with ESC.

A setup that gives the decks' contents (``Setup.decks``) also writes every deck as VASSAL's own
saves do (docs/vassal-decks.md): the cards (AddPiece), then each deck as an AddPiece of type
``deck;...`` (``Deck.getType``) and state ``map;x;y;faceDown;id,id,...`` (``Deck.getState``),
then ``SETUP_STACK<TAB>`` (``NewGameIndicator``'s MarkGameNotNew), which tells every DrawPile
and at-start stack not to fill itself from its slots when the game starts.
"""

from __future__ import annotations

import hashlib
import itertools
import io
import time
import zipfile
from dataclasses import dataclass, field
from typing import Sequence

from lxml import etree

from .encoding import ESC, TAB, Trait, add_piece, encode

__all__ = ["Stack", "Setup", "DeckState", "SETUP_STACK", "setup_commands", "obfuscate", "deobfuscate", "vsav_bytes", "VASSAL_VERSION",
           "metadata_xml"]

VASSAL_VERSION = "3.7.26"
_MAGIC = b"!VCSK"


@dataclass
class Stack:
    """Pieces (trait chains, already placed) stacked at one point of a map."""

    map_name: str
    x: int
    y: int
    layer: int = 0
    pieces: list[list[Trait]] = field(default_factory=list)


@dataclass
class DeckState:
    """A deck as a saved game holds it: its Deck type (``Deck.getType``), where it is, whether its
    cards are face down, and its cards (trait chains placed at the deck), bottom first."""

    type: str
    map_name: str
    x: int
    y: int
    face_down: bool
    cards: list[list[Trait]] = field(default_factory=list)


#: ``SetupStack.COMMAND_PREFIX``: the game is not new, at-start stacks and DrawPiles stay as saved.
SETUP_STACK = "SETUP_STACK" + TAB


@dataclass
class Setup:
    """Everything one predefined setup puts on the maps; with ``decks`` (not None) the save
    holds every deck of the module itself, and VASSAL fills none from its slots."""

    stacks: list[Stack]
    boards: list[tuple[str, str]]  # (map name, board name)
    decks: list[DeckState] | None = None


def setup_commands(setup: Setup, prefix: str = "hf") -> list[str]:
    """The commands of the setup, in VASSAL's order: pieces before the stacks and decks holding them."""
    commands = ["begin_save"]
    count = itertools.count(1)

    def add(pieces: list[list[Trait]]) -> list[str]:
        ids = [f"{prefix}{next(count)}" for _ in pieces]
        commands.extend(add_piece(piece_id, traits) for piece_id, traits in zip(ids, pieces))
        return ids

    stack_commands = []
    for s_index, stack in enumerate(setup.stacks):
        ids = add(stack.pieces)
        state = encode([stack.map_name, stack.x, stack.y, *ids, f"@@{stack.layer}"], ";")
        stack_commands.append("+/" + encode([f"{prefix}s{s_index + 1}", "stack", state], "/"))
    commands += stack_commands
    for d_index, deck in enumerate(setup.decks or ()):
        ids = add(deck.cards)
        state = encode([deck.map_name, deck.x, deck.y, deck.face_down] + ([encode(ids, ",")] if ids else []), ";")
        commands.append("+/" + encode([f"{prefix}d{d_index + 1}", deck.type, state], "/"))
    if setup.decks is not None:
        commands.append(SETUP_STACK)
    for map_name, board in setup.boards:
        commands.append(encode([map_name + "BoardPicker", board, 0, 0], TAB))
    commands.append("end_save")
    return commands


def obfuscate(text: str, key: int | None = None) -> bytes:
    """``ObfuscatingOutputStream``: ``!VCSK``, the key and every UTF-8 byte XOR key, in hex."""
    data = text.encode("utf-8")
    if key is None:  # deterministic, so that the same game builds the same module
        key = hashlib.sha256(data).digest()[0]
    return _MAGIC + f"{key:02x}".encode() + bytes(data_byte ^ key for data_byte in data).hex().encode()


def deobfuscate(data: bytes) -> str:
    """The plain command stream; plain (unobfuscated) input is accepted, as VASSAL does."""
    if not data.startswith(_MAGIC):
        return data.decode("utf-8")
    try:
        key = int(data[5:7], 16)
        body = bytes.fromhex(data[7:].decode("ascii").strip())
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"obfuscated save is corrupt: {exc}") from None
    return body.translate(bytes(i ^ key for i in range(256))).decode("utf-8")  # XOR at C speed


def metadata_xml(*, root_children: Sequence[tuple[str, str]], module: Sequence[tuple[str, str]] | None = None) -> bytes:
    """``<data version="1">`` with the given children (moduledata and savedata share it)."""
    root = etree.Element("data", version="1")
    for tag, text in root_children:
        child = etree.SubElement(root, tag)
        child.text = text or None
    if module is not None:
        mod = etree.SubElement(root, "module")
        for tag, text in module:
            etree.SubElement(mod, tag).text = text or None
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def vsav_bytes(commands: Sequence[str], *, description: str, module_name: str, module_version: str,
               saved_at_ms: int | None = None, moduledata: bytes | None = None) -> bytes:
    """A .vsav zip: ``savedGame`` (obfuscated stream) and ``savedata``.

    ``moduledata`` (the module's own entry) is copied in as VASSAL 3.7 does
    (``AbstractMetaData.copyModuleMetadata``): File > Open reads the module's name from it.
    """
    stamp = str(saved_at_ms if saved_at_ms is not None else int(time.time() * 1000))
    savedata = metadata_xml(
        root_children=[("version", module_version), ("VassalVersion", VASSAL_VERSION), ("dateSaved", stamp),
                       ("description", description)],
        module=[("name", module_name), ("version", module_version), ("VassalVersion", VASSAL_VERSION),
                ("description", ""), ("dateSaved", stamp)],
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("savedGame", obfuscate(encode(commands, ESC)))
        zf.writestr("savedata", savedata)
        if moduledata is not None:
            zf.writestr("moduledata", moduledata)
    return buffer.getvalue()
