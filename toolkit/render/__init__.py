"""Drawing with pillow and shapely: maps, counters, sheets and referee overlays.

Public names are loaded lazily from their modules so that importing one renderer does not
import the others. Map names come from ``mapimage`` and ``overlay``; counter names from
``counters`` and ``sheets``.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    # map rendering (issue: map rendering)
    "render_map": "mapimage",
    "MapImage": "mapimage",
    "build_map": "mapimage",
    "Theme": "theme",
    "overlay": "overlay",
    # what a reader of a map looks for (the drafter): the small signs of airfields and forts
    "sign_split": "_mapsymbols",
    "sign_tile": "_mapsymbols",
    # counters and sheets (issue: counters)
    "render_counter": "counters",
    "build_counters": "sheets",
    # fonts
    "font": "fonts",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
