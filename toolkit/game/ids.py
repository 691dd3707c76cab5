"""The one pattern every id of a game follows (game, maps, sides, counters, scenarios).

Ids become file and folder names (``build/<game>/``, ``<map>.png``, module entries), so they
are plain: a letter or digit, then letters, digits, ``-`` and ``_``, at most 64 characters.
No ``/``, ``\\``, ``..``, spaces, ``;`` or control characters can reach a file name.
"""

from __future__ import annotations

import re

ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
ID_RULE = "a letter or digit, then letters, digits, '-' or '_' (at most 64 characters)"


def id_problem(value: object) -> str | None:
    """Why ``value`` is not a valid id (None if it is)."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:40] + "..."
        return f"id {shown} is not {ID_RULE}"
    return None
