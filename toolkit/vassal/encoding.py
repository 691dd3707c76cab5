"""VASSAL's SequenceEncoder and the decorator chain of a piece (vassal-format.md §4.1, §4.2).

Every nested VASSAL string is made by ``SequenceEncoder(delim)``: tokens joined by ``delim``,
each ``delim`` inside a token escaped with one backslash (backslashes themselves are not
escaped), and a token that starts with a backslash, or starts and ends with a quote, wrapped
in single quotes. Nesting re-escapes, so a TAB at depth *n* carries *n-1* backslashes.
"""

from __future__ import annotations

from functools import lru_cache

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

TAB = "\t"
ESC = "\x1b"

__all__ = ["TAB", "ESC", "encode", "decode", "Trait", "chain_type", "chain_state", "split_chain",
           "add_piece", "parse_add_piece", "key"]


def _escape(token: str, delim: str) -> str:
    escaped = token.replace(delim, "\\" + delim)
    if token.startswith("\\") or (token.startswith("'") and token.endswith("'")):
        return f"'{escaped}'"
    return escaped


def encode(tokens: Iterable[object], delim: str) -> str:
    """``SequenceEncoder(delim)`` with every token appended (None adds an empty token)."""
    parts = []
    for token in tokens:
        if token is None or token == "":
            parts.append("")
        elif isinstance(token, bool):
            parts.append("true" if token else "false")
        else:
            parts.append(_escape(str(token), delim))
    return delim.join(parts)


def decode(text: str, delim: str) -> list[str]:
    """``SequenceEncoder.Decoder``: split on unescaped ``delim``, drop one backslash, unquote.

    An empty string decodes as one empty token, like VASSAL's decoder. A delimiter preceded
    by a backslash is escaped whatever precedes the backslash (backslashes are not escaped).
    """
    if "\\" + delim in text:
        pattern = _SPLITTERS.get(delim)
        if pattern is None:
            pattern = _SPLITTERS.setdefault(delim, re.compile(r"(?<!\\)" + re.escape(delim)))
        escaped = "\\" + delim
        tokens = [t.replace(escaped, delim) for t in pattern.split(text)]
    else:
        tokens = text.split(delim)
    return [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in tokens]


_SPLITTERS: dict[str, re.Pattern[str]] = {}


def key(code: int | str, modifiers: int = 0, name: str | None = None) -> str:
    """A key stroke as VASSAL writes it: ``70,130`` (Ctrl+F) or ``57344,0,Name``."""
    if isinstance(code, str):
        code = ord(code.upper())
    return f"{code},{modifiers}" + (f",{name}" if name else "")


CTRL = 130
#: Limits for decoding untrusted pieces (real pieces have tens of traits and a few KB).
MAX_TRAITS = 2_000
MAX_PIECE_CHARS = 2_000_000


@dataclass(frozen=True)
class Trait:
    """One decorator of a piece: its type string (``emb2;...``) and its state string."""

    type: str
    state: str = ""

    @property
    def id(self) -> str:
        """The factory prefix, up to and including the first ``;`` (``stack`` has none)."""
        head, sep, _ = self.type.partition(";")
        return head + sep


def _nest(parts: Sequence[str]) -> str:
    """``Decorator``'s nesting: each part TAB-joined with the (escaped) encoding of the rest."""
    value = parts[-1]
    for part in reversed(parts[:-1]):
        value = encode([part, value], TAB)
    return value


def chain_type(traits: Sequence[Trait]) -> str:
    """``Decorator.getType()`` of a chain listed outermost first, BasicPiece last."""
    return _nest([t.type for t in traits])


def chain_state(traits: Sequence[Trait]) -> str:
    """``Decorator.getState()`` of a chain listed outermost first."""
    return _nest([t.state for t in traits])


def _split_once(text: str) -> tuple[str, str | None]:
    """Split at the first unescaped TAB: the decorator's own part and the inner chain.

    VASSAL never escapes a backslash, so a TAB is escaped exactly when a backslash precedes it.
    """
    i = text.find(TAB)
    while i > 0 and text[i - 1] == "\\":
        i = text.find(TAB, i + 1)
    if i < 0:
        return _unescape(text, TAB), None
    return _unescape(text[:i], TAB), _unescape(text[i + 1:], TAB)


def _unescape(text: str, delim: str) -> str:
    value = text.replace("\\" + delim, delim)
    if len(value) > 1 and value[0] == "'" and value[-1] == "'":
        value = value[1:-1]
    return value


def split_chain(type_text: str, state_text: str) -> list[Trait]:
    """The traits of a piece, outermost first, from its type and state strings.

    The reverse of :func:`chain_type`/:func:`chain_state`; a state shorter than the type
    (an old or hand-written piece) leaves the missing states empty. Types repeat across the
    pieces of a save (every copy of a counter), so they are split once.
    """
    types = _split_types(type_text)
    states: list[str] = []
    state_rest: str | None = state_text
    while state_rest is not None and len(states) < len(types):
        own_state, state_rest = _split_once(state_rest)
        states.append(own_state)
    states += [""] * (len(types) - len(states))
    return [Trait(t, st) for t, st in zip(types, states)]


@lru_cache(maxsize=4096)
def _split_types(type_text: str) -> tuple[str, ...]:
    types = []
    type_rest: str | None = type_text
    while type_rest is not None:
        own_type, type_rest = _split_once(type_rest)
        types.append(own_type)
        if len(types) > MAX_TRAITS:
            raise ValueError(f"piece has more than {MAX_TRAITS} traits")
    return tuple(types)


def add_piece(piece_id: str | None, traits: Sequence[Trait]) -> str:
    """The AddPiece command ``+/id/type/state`` (also the text of a PieceSlot)."""
    return "+/" + encode([piece_id or "null", chain_type(traits), chain_state(traits)], "/")


def parse_add_piece(text: str) -> tuple[str, str, str]:
    """``(id, type, state)`` of an AddPiece command; ValueError if it is not one."""
    if not text.startswith("+/"):
        raise ValueError("not an AddPiece command (it must start with '+/')")
    if len(text) > MAX_PIECE_CHARS:
        raise ValueError(f"piece definition is {len(text)} characters long (limit {MAX_PIECE_CHARS})")
    parts = decode(text[2:], "/")
    if len(parts) < 2:
        raise ValueError("AddPiece command has no piece type")
    piece_id, type_text = parts[0], parts[1]
    state = parts[2] if len(parts) > 2 else ""
    return piece_id, type_text, state
