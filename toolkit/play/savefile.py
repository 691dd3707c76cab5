"""Saved games (JSON): the start position, the seed and the events, for play by file exchange.

::

    {"format": "hexforge-play", "version": 1, "game": "tutorial", "ruleset": "tutorial",
     "scenario": "crossing", "seed": 1234,
     "start": {...a position file's mapping (docs/referee.md)...},
     "events": [{"n": 1, "type": "move", "units": ["r-10"], "path": ["1005", "0905"], ...}, ...]}

Loading replays every event through the referee (a file edited to cheat is refused, naming
the event), or keeps them pending for a step-by-step replay.
"""

from __future__ import annotations

import json
import os

from ..errors import DataError, HexforgeError
from ..game import Game
from ..io import load_game
from ..io._atomic import write_text
from ..io._source import read_text
from ..referee import Ruleset, get_ruleset, position_from_dict, position_to_dict, ruleset_for
from .session import Session

__all__ = ["FORMAT", "VERSION", "session_to_dict", "session_from_dict", "dump_session", "load_session"]

FORMAT = "hexforge-play"
VERSION = 1
_KEYS = {"format", "version", "game", "ruleset", "scenario", "seed", "start", "events", "notes"}
_EVENT_TYPES = {"move", "phase", "loss", "combat", "retreat", "advance"}


def session_to_dict(session: Session) -> dict:
    """The saved form of a session (events still pending in a replay are kept)."""
    start = position_to_dict(session.start)
    start.pop("expect", None)
    return {"format": FORMAT, "version": VERSION, "game": session.game_name, "ruleset": session.rs.name,
            "scenario": session.start.scenario, "seed": session.seed, "start": start,
            "events": [*session.events, *session.pending]}


def session_from_dict(data, source: str = "<saved game>", *, game: Game | None = None,
                      rs: Ruleset | None = None, replay: bool = False) -> Session:
    """A session from its saved form. With ``replay`` the events are left pending (see
    :meth:`Session.step`); otherwise each is replayed now. Errors name ``source`` and the field."""
    def bad(problem: str, field: str | None = None) -> DataError:
        return DataError(problem, path=source, field=field)

    if not isinstance(data, dict):
        raise bad(f"expected a JSON object, found {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise bad(f"not a hexforge saved game (format {data.get('format')!r}, expected {FORMAT!r})", "format")
    if data.get("version") != VERSION:
        raise bad(f"unsupported version {data.get('version')!r}; this hexforge reads version {VERSION}", "version")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise bad(f"unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(_KEYS))}")
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
        raise bad(f"expected a whole number from 0, found {seed!r}", "seed")
    events = data.get("events")
    if not isinstance(events, list):
        raise bad(f"expected a list of events, found {type(events).__name__}", "events")
    for i, event in enumerate(events):
        if not isinstance(event, dict) or event.get("type") not in _EVENT_TYPES:
            raise bad(f"expected an event with a type among {', '.join(sorted(_EVENT_TYPES))}", f"events[{i}]")
    name = data.get("game")
    if game is None:
        if not isinstance(name, str) or not name:
            raise bad("expected the game's id", "game")
        try:
            game = load_game(name)
        except HexforgeError as exc:
            raise bad(str(exc), "game") from None
    elif name != game.id and isinstance(name, str) and os.path.basename(name.rstrip("/")) != game.id:
        raise bad(f"the file is a game of {name!r}, not {game.id!r}", "game")
    if rs is None:
        try:
            rs = get_ruleset(data["ruleset"]) if isinstance(data.get("ruleset"), str) else ruleset_for(game)
        except HexforgeError as exc:
            raise bad(str(exc), "ruleset") from None
    start = position_from_dict(data.get("start"), game, f"{source}: start")
    scenario = data.get("scenario")
    if scenario is not None:
        if scenario not in game.scenarios:
            raise bad(f"game {game.id} has no scenario {scenario!r}", "scenario")
        start.scenario = scenario
    session = Session.from_position(start, rs, seed=seed, game_name=name if isinstance(name, str) else game.id)
    session.pending = [dict(e) for e in events]
    if not replay:
        replay_all(session, source)
    return session


def replay_all(session: Session, source: str = "<saved game>") -> None:
    """Replay every pending event; a refused one is a :class:`DataError` naming the event."""
    while session.pending:
        n = len(session.events)
        try:
            session.step()
        except HexforgeError as exc:
            raise DataError(f"event {n + 1} ({session.pending[0].get('type')}) is refused: {exc}",
                            path=source, field=f"events[{n}]") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"event {n + 1} is malformed: {exc!r}", path=source, field=f"events[{n}]") from None


def dump_session(session: Session, path: str | os.PathLike) -> None:
    """Write the saved game to ``path`` (atomically)."""
    write_text(os.fspath(path), json.dumps(session_to_dict(session), indent=1) + "\n")


def load_session(path: str | os.PathLike, *, game: Game | None = None, replay: bool = False) -> Session:
    """Read a saved game written by :func:`dump_session` (see :func:`session_from_dict`)."""
    path = os.fspath(path)
    text = read_text(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON: {exc.msg}", path=path, line=exc.lineno) from None
    return session_from_dict(data, path, game=game, replay=replay)
