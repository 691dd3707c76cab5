"""``hexforge referee moves|path|stacking|supply|check``: rules questions on a position.

The position is a scenario's set-up (``--game``, ``--scenario``, ``--turn``) or a position file
(``--position``). Output is human text, or JSON with ``--json`` (schema in docs/referee.md).
``--png FILE`` draws the answer on the map with the map renderer's overlay.
Exit codes: 0 legal, 1 illegal (refused path, stacking violation, unsupplied units for
``check``), 2 bad input.
"""

from __future__ import annotations

import importlib
import json
import sys

import click

from ..errors import HexforgeError, RulesError
from ..referee import check_path, check_stacking, end_stacking, reachable, supply_status
from ._referee_options import common_options, draw, header, position_of, units_arg

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
@common_options
def moves(units, mode, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Hexes UNITS (one id, or ids joined by commas moving as a stack) can reach."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    ids = units_arg(units)
    reach = reachable(pos, rs, ids, mode=mode)
    movers = [pos.unit(u) for u in ids]
    full = {h for h in reach.hexes() if end_stacking(pos, rs, movers, h, mode) is not None}
    fmt = pos.map.format
    if as_json:
        data = reach.to_dict()
        for entry, h in zip(data["hexes"], reach.hexes()):
            entry["can_end"] = h not in full
        click.echo(json.dumps({**header("moves", pos), "reach": data}, indent=2))
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
        draw(pos, png, dpi, shade=shade, labels=labels, marks=marks,
              legend=f"{units}: {len(reach)} hexes reachable, labelled with MP left"
              if not reach.refused else f"{units} cannot move: {reach.refused.text}")
    sys.exit(0 if not reach.refused else 1)


@command.command("path")
@click.argument("units")
@click.argument("hexes", nargs=-1, required=True)
@click.option("--mode", help="Movement mode (strategic, exploitation, ...).")
@common_options
def path(units, hexes, mode, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Check that UNITS may move along HEXES (printed ids, in order)."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    grid = pos.map.grid
    try:
        route = [grid.parse(h) for h in " ".join(hexes).replace(",", " ").split()]
    except HexforgeError as exc:
        raise RulesError(f"bad hex in the path: {exc}") from None
    result = check_path(pos, rs, units_arg(units), route, mode=mode)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**header("path", pos), "check": result.to_dict(fmt)}, indent=2))
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
        draw(pos, png, dpi, paths=[good] if len(good) > 1 else [], marks=marks, legend=f"{units}: {legend}")
    sys.exit(0 if result.ok else 1)


@command.command("stacking")
@click.argument("hex", required=False)
@common_options
def stacking(hex, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Check stacking on HEX, or on every hex of the map."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    where = pos.map.grid.parse(hex) if hex else None
    if where is not None and where not in pos.map.grid:
        raise RulesError(f"hex {hex} is not on the map")
    found = check_stacking(pos, rs, where)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**header("stacking", pos), "violations": [r.to_dict(fmt) for r in found]}, indent=2))
    else:
        click.echo("\n".join(str(r) for r in found) if found else "stacking is legal")
    if png:
        draw(pos, png, dpi, marks={r.hex: "x" for r in found if r.hex},
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
@common_options
@click.option("--defending", default="", metavar="UNIT[,UNIT...]",
              help="units defending in the combat being judged (sources that serve only defenders, "
                   "e.g. a constructed airfield)")
def supply(game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi, defending):
    """Supply status of every unit of a side (default: the side to move)."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    units = [u.strip() for u in defending.split(",") if u.strip()]
    for uid in units:
        pos.unit(uid)   # an unknown id is bad input (exit 2), not a silent no-op
    result = supply_status(pos, rs, side or pos.side, {"defending": frozenset(units)})
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**header("supply", pos), "supply": result.to_dict(fmt)}, indent=2))
    else:
        click.echo(_supply_text(pos, result))
    if png:
        paths = [p for p in result.paths.values() if len(p) > 1]
        marks = _supply_marks(pos, [result])
        draw(pos, png, dpi, paths=paths, marks=marks,
              legend=f"{result.side}: {len(result.supplied)} supplied (lines to the source), "
                     f"{len(result.unsupplied)} not")
    sys.exit(0)


@command.command("check")
@common_options
def check(game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Stacking on the whole map and supply of every side."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    found = check_stacking(pos, rs)
    sides = [side] if side else pos.sides()
    results = {s: supply_status(pos, rs, s) for s in sides}
    fmt = pos.map.format
    ok = not found and not any(r.unsupplied for r in results.values())
    if as_json:
        click.echo(json.dumps({**header("check", pos), "ok": ok, "stacking": [r.to_dict(fmt) for r in found],
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
        draw(pos, png, dpi, paths=[p for r in results.values() for p in r.paths.values() if len(p) > 1], marks=marks,
              legend=f"stacking {'legal' if not found else 'broken on ' + str(len(found)) + ' hex(es)'}; {summary}")
    sys.exit(0 if ok else 1)


#: sub-commands in modules of their own: module -> the click commands it defines
SUBCOMMANDS = {
    "referee_setup": ("command",),
    "referee_chits": ("chit_command", "oos_command"),
    "referee_impulse": ("impulse_command", "analysis_command", "rail_command"),
    "referee_combat": ("combat_command", "retreat_command"),
    "referee_turn": ("command",),
    "referee_opfire": ("command",),
}
for _module, _names in SUBCOMMANDS.items():
    _defined = importlib.import_module(f"{__package__}.{_module}")
    for _name in _names:
        command.add_command(getattr(_defined, _name))
