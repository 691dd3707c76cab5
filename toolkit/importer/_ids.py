"""Ids and printed values of imported data (the importer's and the deck import's shared helpers)."""

from __future__ import annotations

import re

from ..io.counters import COLUMNS
from ..vassal.pieces import unique_name

__all__ = ["slug", "unique", "printed_values", "side_property", "side_in_name"]

#: Properties hexforge's own modules carry, read back into counter fields rather than values.
FIELDS = {"UnitId", "Side", "SideName", "Kind", "Type", "Size", "Formation", "UnitClass", "Steps", "BackKind",
          "Layer", "CadreId"}


def slug(text: str, fallback: str = "x") -> str:
    """An id from free text: lower case, runs of other characters as one ``-``, at most 60."""
    text = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return text[:60] or fallback


def unique(name: str, used: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... if taken; the result joins ``used``."""
    return unique_name(name, used, "{name}-{n}")


def printed_values(props: dict[str, str]) -> tuple[dict, dict]:
    """A piece's static properties as a counter's printed values (front, back): hexforge's own
    fields and empty values left out, ``back_*`` on the back."""
    front, back = {}, {}
    for key, value in props.items():
        if key in FIELDS or value == "" or not re.fullmatch(r"[A-Za-z0-9_]+", key):
            continue
        if key.startswith("cadre_") and props.get("CadreId"):
            continue  # hexforge's copy of the cadre counter's values; the cadre is its own counter
        if key.startswith("back_"):
            back[key[5:]] = _value(value)   # written as back.KEY: no column clash
        else:
            front[_column(key)] = _value(value)
    return front, back


def _column(key: str) -> str:
    """A front value's column: a property named like a counters.csv column (``size``, ``id`` in
    Ragnarok) gets ``_value`` after its name, or the file would have the column twice."""
    return f"{key}_value" if key in COLUMNS else key


def _value(text: str):
    return int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else text


#: Properties that name a piece's side, first the usual names, then any name whose last word is
#: one of _SIDE_WORDS (``Unit Side``, ``PlayerSide``, ``unit_faction``).
_SIDE_KEYS = ("Side", "side", "Nationality", "Faction", "Army", "Player", "Country")
_SIDE_WORDS = {"side", "faction", "nationality", "nation", "country"}
_NOT_SIDE = {"back", "flip", "front", "reverse", "other", "enemy", "opposing", "opponent", "off"}


def _words(key: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+", key)]


def side_property(props: dict[str, str]) -> str | None:
    """The value of the property that names the piece's side, if one does."""
    for key in _SIDE_KEYS:
        if props.get(key):
            return props[key]
    for key, value in props.items():
        words = _words(key)
        if value and words and words[-1] in _SIDE_WORDS and len(words) <= 3 and not _NOT_SIDE & set(words):
            return value
    return None


def side_in_name(name: str, sides: list[str]) -> str | None:
    """The one side id of ``sides`` whose words appear in ``name``, singular or plural (a palette
    folder "Moslem Units", "German OOB" for the side "Germans"); None if none or several do."""
    words = [_singular(w) for w in slug(name, "").split("-")]
    found = set()
    for sid in sides:
        side = [_singular(w) for w in sid.split("-")]
        if any(words[i:i + len(side)] == side for i in range(len(words) - len(side) + 1)):
            found.add(sid)
    return found.pop() if len(found) == 1 else None


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word
