"""VASSAL's SequenceEncoder and the decorator chain of a piece (vassal-format.md §4.1, §4.2).

Every nested VASSAL string is made by ``SequenceEncoder(delim)``: tokens joined by ``delim``,
each ``delim`` inside a token escaped with one backslash (backslashes themselves are not
escaped), and a token that starts with a backslash, or starts and ends with a quote, wrapped
in single quotes. Nesting re-escapes, so a TAB at depth *n* carries *n-1* backslashes.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

TAB = "\t"
ESC = "\x1b"

__all__ = ["TAB", "ESC", "encode", "decode", "Trait", "chain_type", "chain_state", "split_chain",
           "split_states", "add_piece", "parse_add_piece", "key"]


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
    Linear: a plain split, then the pieces an escaped delimiter separated joined again.
    """
    tokens = text.split(delim)
    if len(tokens) > 1 and "\\" + delim in text:
        joined: list[str] = []
        parts = [tokens[0]]
        for token in tokens[1:]:
            if parts[-1].endswith("\\"):   # an escaped delimiter: the token goes on
                parts[-1] = parts[-1][:-1]
                parts += (delim, token)
            else:
                joined.append("".join(parts))
                parts = [token]
        joined.append("".join(parts))
        tokens = joined
    if "'" not in text:
        return tokens
    return [t[1:-1] if len(t) > 1 and t[0] == "'" and t[-1] == "'" else t for t in tokens]


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

    @cached_property   # asked for every trait of every piece, many times
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


def _unescaped(text: str, times: int) -> str:
    """``text`` with the TAB escaping of ``times`` nesting levels undone (one backslash fewer
    before every TAB per level, never below none), as ``times`` rounds of VASSAL's decoder."""
    if "\\\t" not in text:
        return text
    return _TAB_RUN.sub(lambda m: "\\" * max(0, len(m[0]) - 1 - times) + TAB, text)


def _unquoted(value: str) -> str:
    return value[1:-1] if len(value) > 1 and value[0] == "'" and value[-1] == "'" else value


_TAB_RUN = re.compile(r"\\*\t")
_SEPARATOR = re.compile(r"(\\*)\t")
_RUNS = ["\\" * k for k in range(64)]   # the k-th separator's backslashes in the usual chain


def _split_levels(text: str, limit: int) -> list[str]:
    """The decorators' own parts of a nested chain (a type or a state), outermost first.

    Decoding level by level (split at the first TAB no backslash precedes, unescape the rest
    once, repeat) copies the rest at every level: quadratic in the piece's size, cubic with
    its escaping. This walks the text once instead: after ``k`` levels a TAB preceded by ``n``
    backslashes is unescaped exactly when ``n <= k`` (VASSAL never escapes a backslash, so
    each level removes one backslash before each TAB), and a level's enclosing quotes are its
    first and last characters. Each TAB is looked at once, each own part copied once.
    """
    if not text.endswith("'"):
        # the usual chain: its only TABs are the separators, the k-th after k backslashes
        pieces = _SEPARATOR.split(text)
        runs = pieces[1::2]
        while len(runs) > len(_RUNS):
            _RUNS.append("\\" * len(_RUNS))
        if runs == _RUNS[:len(runs)]:
            owns = pieces[0:2 * limit:2]
            return [_unquoted(own) for own in owns] if "'" in text else owns
    out: list[str] = []
    start, end, level = 0, len(text), 0
    for match in _TAB_RUN.finditer(text):
        tab = match.end() - 1
        if tab >= end:
            break
        if tab < start:
            continue
        run = tab - max(match.start(), start)   # backslashes before this TAB, within this level
        if run > level:
            continue   # escaped at this level: part of the outer decorator's own text
        out.append(_unquoted(_unescaped(text[start:tab - run], level + 1)))
        if len(out) >= limit:
            return out
        start, level = tab + 1, level + 1
        if end - start > 1 and text[start] == "'" and text[end - 1] == "'":
            start, end = start + 1, end - 1
    out.append(_unquoted(_unescaped(text[start:end], level + 1)))
    return out


def split_chain(type_text: str, state_text: str) -> list[Trait]:
    """The traits of a piece, outermost first, from its type and state strings.

    The reverse of :func:`chain_type`/:func:`chain_state`, in time linear in the strings'
    length; a state shorter than the type (an old or hand-written piece) leaves the missing
    states empty. Types repeat across the pieces of a save (every copy of a counter), so they
    are split once.
    """
    types = _split_types(type_text)
    return [Trait(t, st) for t, st in zip(types, split_states(state_text, len(types)))]


def split_states(state_text: str, count: int) -> list[str]:
    """The states of a chain of ``count`` traits (outermost first, missing ones empty), as
    :func:`split_chain` gives them, without building the traits."""
    states = _split_levels(state_text, count) if state_text else [""]
    return states + [""] * (count - len(states))


@lru_cache(maxsize=4096)
def _split_types(type_text: str) -> tuple[str, ...]:
    types = _split_levels(type_text, MAX_TRAITS + 1)
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
