"""Position files (YAML): ``load_position`` / ``dump_position``. The format is in docs/referee.md."""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import DataError, HexforgeError
from ..game import Game
from ..io import bundled_games, load_game
from ..io._atomic import write_text
from ..io._source import Fields, dump_yaml, inside, load_yaml
from .position import Position, Unit, counter_of, position_from_scenario

_UNIT_KEYS = ["hex", "box", "counter", "steps", "status", "moved", "supply", "mode", "side"]


def load_position(path: str | os.PathLike, game: Game | None = None) -> Position:
    """Read a position file; ``game`` is loaded from the file's ``game:`` when not given."""
    path = os.fspath(path)
    return position_from_dict(load_yaml(path), game, path)


def position_from_dict(data, game: Game | None = None, path: str = "<position>") -> Position:
    """A position from its file form (a mapping, as :func:`position_to_dict` gives); errors
    name ``path`` and the field. ``game`` is loaded from ``game:`` when not given."""
    f = Fields(data, path, "")
    if game is None:
        name = f.str("game", required=True)
        candidate = Path(path).parent / name
        try:
            beside = (candidate / "game.yaml").is_file()
        except (OSError, ValueError):   # a name no folder can have (too long, NUL...)
            beside = False
        if beside:
            # a game folder beside the position file, never one elsewhere
            inside(Path(path).parent, name, [Path(path).parent], path=path, line=f.line_of("game"), field="game")
            game = load_game(str(candidate))
        elif name in bundled_games():
            game = load_game(name)
        else:
            raise f.error("game", f"no game {name!r}: not a bundled game and no game folder beside this file")
    else:
        f.str("game")
    scenario = f.str("scenario")
    turn = f.int("turn") if f.has("turn") else None
    try:
        if scenario:
            pos = position_from_scenario(game, scenario, turn=turn)
        else:
            map_id = f.str("map", next(iter(game.maps)))
            if map_id not in game.maps:
                raise f.error("map", f"unknown map {map_id!r}; the game has {', '.join(game.maps)}")
            pos = Position(game=game, map_id=map_id, turn=turn)
    except HexforgeError as exc:
        if isinstance(exc, DataError):
            raise
        raise f.error("scenario", str(exc)) from None
    if scenario and f.has("map") and f.str("map") != pos.map_id:
        raise f.error("map", f"the scenario is on map {pos.map_id}")
    pos.side = f.str("side", pos.side)
    pos.phase = f.str("phase", pos.phase)
    pos.weather = f.str("weather", pos.weather)
    if pos.weather and pos.weather not in pos.map.weathers:
        raise f.error("weather", f"unknown weather {pos.weather!r}; the map has {', '.join(pos.map.weathers)}")
    if pos.side and pos.side not in pos.sides():
        raise f.error("side", f"unknown side {pos.side!r}; the game has {', '.join(pos.sides())}")
    for uid in f.words("remove"):
        if uid not in pos.units:
            raise f.error("remove", f"no unit {uid!r} to remove")
        del pos.units[uid]
    units = f.sub("units")
    if units is not None:
        for uid in list(units.data):
            _unit(pos, game, Fields(units.data[uid], path, f"units.{uid}", units.line_of(uid)), str(uid))
            units.raw(uid)
        units.done()
    pos.state = _plain(f.mapping("state"))
    pos.expect = dict(f.mapping("expect"))
    f.done(["notes"])
    pos.touch()
    return pos


def _unit(pos: Position, game: Game, u: Fields, uid: str) -> None:
    grid = pos.map.grid
    counter_id = u.str("counter")
    counter = game.counters.get(counter_id) if counter_id else counter_of(game, uid)
    if counter is None:
        raise u.error("counter", f"no counter {counter_id or uid!r} in game {game.id}")
    unit = pos.units.get(uid) or Unit(id=uid, counter=counter, side=counter.side)
    unit.counter = counter
    unit.side = u.str("side", unit.side)
    if u.has("hex"):
        text = str(u.raw("hex"))
        try:
            hex = grid.parse(text)
        except HexforgeError as exc:
            raise u.error("hex", str(exc)) from None
        if hex not in grid:
            raise u.error("hex", f"hex {text} is outside map {pos.map_id}")
        unit.hex, unit.box = hex, None
    elif u.has("box"):
        box = u.str("box")
        if pos.map.box(box) is None:
            raise u.error("box", f"unknown box {box!r}")
        unit.hex, unit.box = None, box
    elif uid not in pos.units:
        raise u.error("hex", "a unit needs a hex or a box")
    if u.has("steps"):
        steps = u.int("steps")
        if not 1 <= steps <= counter.steps:
            raise u.error("steps", f"{uid} has 1 to {counter.steps} steps, not {steps}")
        unit.steps = steps
    if u.has("status"):
        unit.status = set(u.words("status"))
    if u.has("moved"):
        unit.moved = u.bool("moved")
    if u.has("supply"):
        unit.supply = u.int("supply")
    unit.mode = u.str("mode", unit.mode)
    u.done(_UNIT_KEYS)
    pos.units[uid] = unit


def position_to_dict(pos: Position) -> dict:
    """The file form of a position (every unit listed; no scenario reference)."""
    fmt = pos.map.format
    units = {}
    for uid, u in sorted(pos.units.items()):
        entry: dict = {}
        if u.counter.id != uid and counter_of(pos.game, uid) is not u.counter:
            entry["counter"] = u.counter.id
        if u.hex is not None:
            entry["hex"] = fmt(u.hex)
        elif u.box:
            entry["box"] = u.box
        else:
            continue
        if u.steps != u.counter.steps:
            entry["steps"] = u.steps
        if u.status:
            entry["status"] = sorted(u.status)
        if u.moved:
            entry["moved"] = True
        if u.supply:
            entry["supply"] = u.supply
        if u.mode:
            entry["mode"] = u.mode
        if u.side != u.counter.side:
            entry["side"] = u.side
        units[uid] = entry
    out = {"game": pos.game.id, "map": pos.map_id}
    for key in ("turn", "side", "phase", "weather"):
        value = getattr(pos, key)
        if value is not None:
            out[key] = value
    out["units"] = units
    if pos.state:
        out["state"] = pos.state
    if pos.expect:
        out["expect"] = pos.expect
    return out


def _plain(value):
    """YAML mappings and lists as plain dicts and lists (the ruleset's state is plain data)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def dump_position(pos: Position, path: str | os.PathLike) -> None:
    """Write a position file that :func:`load_position` reads back to an equal position."""
    write_text(os.fspath(path), dump_yaml(position_to_dict(pos)))
