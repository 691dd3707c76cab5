"""``hexforge referee moves|path|stacking|supply|check``: rules questions on a position.

The position is a scenario's set-up (``--game``, ``--scenario``, ``--turn``) or a position file
(``--position``). Output is human text, or JSON with ``--json`` (schema in docs/referee.md).
``--png FILE`` draws the answer on the map with the map renderer's overlay.
Exit codes: 0 legal, 1 illegal (refused path, stacking violation, unsupplied units for
``check``), 2 bad input.
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import HexforgeError, RulesError
from ..io import default_game, load_game
from ..referee import (check_path, check_stacking, end_stacking, get_ruleset, load_position,
                       position_from_scenario, reachable, ruleset_for, supply_status)
from ..referee.registry import plugin_game_dir

SCHEMA = 1


def _game(name):
    """A bundled game, a game folder, or the game an installed referee plugin carries."""
    try:
        return load_game(name)
    except HexforgeError:
        folder = plugin_game_dir(name)
        if folder is None:
            raise
        return load_game(str(folder))


def _position(game_name, scenario, turn, position, side, weather, ruleset):
    if position:
        pos = load_position(position, _game(game_name) if game_name else None)
    else:
        pos = position_from_scenario(_game(game_name or default_game()), scenario, turn=turn)
    if side:
        if side not in pos.sides():
            raise RulesError(f"unknown side {side!r}; the game has {', '.join(pos.sides())}")
        pos.side = side
    if weather:
        if weather not in pos.map.weathers:
            raise RulesError(f"unknown weather {weather!r}; the map has {', '.join(pos.map.weathers)}")
        pos.weather = weather
        pos.touch()
    rs = get_ruleset(ruleset) if ruleset else ruleset_for(pos.game)
    return pos, rs


def _common(func):
    options = [
        click.option("-g", "--game", "game_name", help="Bundled game id or folder (default: the bundled game)."),
        click.option("-s", "--scenario", help="Scenario id (default: the first)."),
        click.option("-t", "--turn", type=int, help="Turn of the scenario (default: the first)."),
        click.option("-p", "--position", type=click.Path(dir_okay=False), help="A position file instead."),
        click.option("--side", help="The side to ask about (default: the side to move)."),
        click.option("--weather", help="Override the weather."),
        click.option("--ruleset", help="Ruleset name (default: the game's)."),
        click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/referee.md)."),
        click.option("--png", type=click.Path(dir_okay=False), help="Draw the answer on the map into this PNG."),
        click.option("--dpi", type=int, default=100, show_default=True, help="Resolution of --png."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _header(command, pos):
    return {"schema": SCHEMA, "command": command, "game": pos.game.id,
            "position": {"map": pos.map_id, "turn": pos.turn, "side": pos.side, "phase": pos.phase,
                         "weather": pos.current_weather, "scenario": pos.scenario}}


def _units_arg(text):
    return [u for u in text.replace(",", " ").split() if u]


def _unit_marks(pos, marks, labels):
    """A badge with the unit ids on every occupied hex without a label, under the answer's
    own marks."""
    out = {}
    for hex, units in pos.occupancy().items():
        if hex in labels:
            continue
        ids = [u.id for u in units if not u.counter.is_marker]
        if ids:
            out[hex] = ",".join(ids[:2]) + ("+" if len(ids) > 2 else "")
    out.update(marks or {})
    return out


def _draw(pos, png, dpi, shade=None, labels=None, paths=None, marks=None, legend=None):
    marks = _unit_marks(pos, marks, labels or {})
    try:
        from .. import render
        map_image = render.render_map(pos.map, dpi=dpi, game=pos.game)
        image = render.overlay(map_image, shade=shade or {}, labels=labels or {}, paths=paths or [],
                               marks=marks or {}, legend=legend)
    except (ImportError, AttributeError) as exc:
        raise RulesError(f"--png needs the map overlay renderer (toolkit.render.overlay): {exc}") from None
    image.save(png)
    click.echo(f"wrote {png}", err=True)


def _mp_colour(left, ma):
    """Yellow for no MP left through to deep green for a full allowance."""
    share = min(1.0, float(left / ma)) if ma else 0.0
    return (int(250 - 210 * share), int(220 - 60 * share), int(60 + 20 * share), 120)


@click.group("referee")
def command() -> None:
    """Rules questions: reachable hexes, path legality, stacking and supply."""


@command.command("moves")
@click.argument("units")
@click.option("--mode", help="Movement mode (strategic, exploitation, ...).")
@_common
def moves(units, mode, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Hexes UNITS (one id, or ids joined by commas moving as a stack) can reach."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    ids = _units_arg(units)
    reach = reachable(pos, rs, ids, mode=mode)
    movers = [pos.unit(u) for u in ids]
    full = {h for h in reach.hexes() if end_stacking(pos, rs, movers, h, mode) is not None}
    fmt = pos.map.format
    if as_json:
        data = reach.to_dict()
        for entry, h in zip(data["hexes"], reach.hexes()):
            entry["can_end"] = h not in full
        click.echo(json.dumps({**_header("moves", pos), "reach": data}, indent=2))
    else:
        if reach.refused:
            click.echo(f"{units} cannot move: {reach.refused}")
        else:
            click.echo(f"{units} at {fmt(reach.start)}, {reach.ma} MP: {len(reach)} hexes reachable")
            for h in reach.hexes():
                stop = "  (the move ends here)" if reach.board.index[h] in reach.stopped else ""
                stop += "  (may pass, not stop: stacking)" if h in full else ""
                click.echo(f"  {fmt(h)}  {str(reach.mp_left(h)):>5} MP left  via "
                           f"{' '.join(fmt(p) for p in reach.path(h)[1:-1]) or '-'}{stop}")
    if png:
        shade = {h: _mp_colour(reach.mp_left(h), reach.ma) for h in reach.hexes()}
        labels = {h: str(reach.mp_left(h)) for h in reach.hexes()}
        marks = {}
        _draw(pos, png, dpi, shade=shade, labels=labels, marks=marks,
              legend=f"{units}: {len(reach)} hexes reachable, labelled with MP left"
              if not reach.refused else f"{units} cannot move: {reach.refused.text}")
    sys.exit(0 if not reach.refused else 1)


@command.command("path")
@click.argument("units")
@click.argument("hexes", nargs=-1, required=True)
@click.option("--mode", help="Movement mode (strategic, exploitation, ...).")
@_common
def path(units, hexes, mode, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Check that UNITS may move along HEXES (printed ids, in order)."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    grid = pos.map.grid
    try:
        route = [grid.parse(h) for h in " ".join(hexes).replace(",", " ").split()]
    except HexforgeError as exc:
        raise RulesError(f"bad hex in the path: {exc}") from None
    result = check_path(pos, rs, _units_arg(units), route, mode=mode)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**_header("path", pos), "check": result.to_dict(fmt)}, indent=2))
    else:
        for s in result.steps:
            click.echo(f"  {fmt(s['hex'])}  cost {s['cost']}, spent {s['spent']}, {s['mp_left']} MP left")
        if result.ok:
            click.echo(f"legal: {units} along {' '.join(fmt(h) for h in result.path)}")
        else:
            click.echo(f"illegal at step {result.failed_step}: {result.reason}")
    if png:
        marks = {result.reason.hex: "cross"} if result.reason and result.reason.hex else {}
        good = result.path[:len(result.steps) + 1]
        legend = "legal" if result.ok else f"illegal at step {result.failed_step}: {result.reason.text}"
        _draw(pos, png, dpi, paths=[good] if len(good) > 1 else [], marks=marks, legend=f"{units}: {legend}")
    sys.exit(0 if result.ok else 1)


@command.command("stacking")
@click.argument("hex", required=False)
@_common
def stacking(hex, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Check stacking on HEX, or on every hex of the map."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    where = pos.map.grid.parse(hex) if hex else None
    if where is not None and where not in pos.map.grid:
        raise RulesError(f"hex {hex} is not on the map")
    found = check_stacking(pos, rs, where)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**_header("stacking", pos), "violations": [r.to_dict(fmt) for r in found]}, indent=2))
    else:
        click.echo("\n".join(str(r) for r in found) if found else "stacking is legal")
    if png:
        _draw(pos, png, dpi, marks={r.hex: "x" for r in found if r.hex},
              legend=f"{len(found)} stacking violation(s)" if found else "stacking is legal")
    sys.exit(1 if found else 0)


_TAGS = {"supplied": "", "out_of_supply": "OOS", "isolated": "ISO", "unsupplied": "UNS"}


def _supply_marks(pos, results):
    """A badge on each hex with an unsupplied unit: its ids and the status it gets."""
    marks = {}
    for result in results:
        for uid in sorted(result.unsupplied):
            hex = pos.units[uid].hex
            status = result.status[uid]
            tag = _TAGS.get(status, status[:3].upper())
            ids = [u for u in sorted(result.unsupplied) if pos.units[u].hex == hex]
            marks[hex] = f"{','.join(ids[:2])}{'+' if len(ids) > 2 else ''} {tag}"
    return marks


def _supply_text(pos, result):
    fmt = pos.map.format
    lines = [f"{result.side}: {len(result.supplied)} supplied, {len(result.unsupplied)} not"]
    for uid in sorted(result.status):
        u = pos.units[uid]
        if uid in result.supplied and len(result.paths[uid]) == 1:
            lines.append(f"  {uid:10s} {fmt(u.hex)}  supplied (it stands on its source)")
        elif uid in result.supplied:
            lines.append(f"  {uid:10s} {fmt(u.hex)}  supplied via {' '.join(fmt(h) for h in result.paths[uid][1:4])}"
                         f"{' ...' if len(result.paths[uid]) > 4 else ''}")
        else:
            lines.append(f"  {uid:10s} {fmt(u.hex)}  NOT supplied -> {result.status[uid].replace('_', ' ')}")
    return "\n".join(lines)


@command.command("supply")
@_common
@click.option("--defending", default="", metavar="UNIT[,UNIT...]",
              help="units defending in the combat being judged (sources that serve only defenders, "
                   "e.g. a constructed airfield)")
def supply(game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi, defending):
    """Supply status of every unit of a side (default: the side to move)."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    units = [u.strip() for u in defending.split(",") if u.strip()]
    for uid in units:
        pos.unit(uid)   # an unknown id is bad input (exit 2), not a silent no-op
    result = supply_status(pos, rs, side or pos.side, {"defending": frozenset(units)})
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**_header("supply", pos), "supply": result.to_dict(fmt)}, indent=2))
    else:
        click.echo(_supply_text(pos, result))
    if png:
        paths = [p for p in result.paths.values() if len(p) > 1]
        marks = _supply_marks(pos, [result])
        _draw(pos, png, dpi, paths=paths, marks=marks,
              legend=f"{result.side}: {len(result.supplied)} supplied (lines to the source), "
                     f"{len(result.unsupplied)} not")
    sys.exit(0)


@command.command("check")
@_common
def check(game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Stacking on the whole map and supply of every side."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    found = check_stacking(pos, rs)
    sides = [side] if side else pos.sides()
    results = {s: supply_status(pos, rs, s) for s in sides}
    fmt = pos.map.format
    ok = not found and not any(r.unsupplied for r in results.values())
    if as_json:
        click.echo(json.dumps({**_header("check", pos), "ok": ok, "stacking": [r.to_dict(fmt) for r in found],
                               "supply": {s: r.to_dict(fmt) for s, r in results.items()}}, indent=2))
    else:
        click.echo("stacking: " + ("legal" if not found else ""))
        for r in found:
            click.echo(f"  {r}")
        for r in results.values():
            click.echo(_supply_text(pos, r))
    if png:
        marks = _supply_marks(pos, results.values())
        marks.update({r.hex: "x" for r in found if r.hex})
        summary = "; ".join(f"{s}: {len(r.supplied)} of {len(r.status)} supplied" for s, r in results.items())
        _draw(pos, png, dpi, paths=[p for r in results.values() for p in r.paths.values() if len(p) > 1], marks=marks,
              legend=f"stacking {'legal' if not found else 'broken on ' + str(len(found)) + ' hex(es)'}; {summary}")
    sys.exit(0 if ok else 1)


command.add_command(__import__(f"{__package__}.referee_setup", fromlist=["command"]).command)  # `referee setup`
command.add_command(__import__(f"{__package__}.referee_chits", fromlist=["x"]).chit_command)  # `referee chit`
command.add_command(__import__(f"{__package__}.referee_chits", fromlist=["x"]).oos_command)   # `referee oos`
command.add_command(__import__(f"{__package__}.referee_impulse", fromlist=["x"]).impulse_command)  # `impulse`
command.add_command(__import__(f"{__package__}.referee_impulse", fromlist=["x"]).analysis_command)  # `analysis`
command.add_command(__import__(f"{__package__}.referee_impulse", fromlist=["x"]).rail_command)  # `rail`
from . import referee_combat  # noqa: E402,F401  (registers `combat` and `retreat`; it imports this module)
command.add_command(__import__(f"{__package__}.referee_turn", fromlist=["command"]).command)  # `referee turn`
