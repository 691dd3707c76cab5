"""``hexforge play``: a game played in the browser with the referee watching.

The session (:mod:`.session`) is plain data: a start position and the events since, each
checked by the referee; :mod:`.savefile` writes and reads it as JSON; :mod:`.views` turns
referee answers into what the page shows; :mod:`.server` is the HTTP layer (Starlette) and
:mod:`.images` the map and counter pictures. The page itself is ``static/`` (plain JavaScript
modules and SVG, no build step, nothing from the network). See docs/play.md.
"""

from __future__ import annotations

import importlib

from .savefile import dump_session, load_session, session_from_dict, session_to_dict
from .sequence import Stage, next_stage, stages
from .session import Refusal, Session

_LAZY = {"Table": "server", "create_app": "server", "bind": "server", "serve": "server"}

__all__ = sorted(["Refusal", "Session", "Stage", "dump_session", "load_session", "next_stage",
                  "session_from_dict", "session_to_dict", "stages", *_LAZY])


def __getattr__(name: str):
    # the HTTP layer (Starlette) loads only when asked for, so the session works without it
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
