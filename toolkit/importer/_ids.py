"""Ids and printed values of imported data (the importer's and the deck import's shared helpers)."""

from __future__ import annotations

import re

from ..vassal.pieces import unique_name

__all__ = ["slug", "unique", "printed_values"]

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
            back[key[5:]] = _value(value)
        else:
            front[key] = _value(value)
    return front, back


def _value(text: str):
    return int(text) if re.fullmatch(r"-?[0-9]{1,9}", text) else text
