"""``hexforge referee turn BEFORE [AFTER]``: judge a turn played in VASSAL (two saves, or a log).

The game and its module are found from the save's module name (a bundled game, its module in
build/GAME/GAME.vmod) unless ``--game`` / ``--module`` say. Output is text, or JSON with
``--json`` (docs/referee.md); ``--png`` draws every move as an arrow, green when legal, red
when not, on the map. Exit codes: 0 every move and stack legal, 1 something illegal, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import DataError, RulesError
from ..io import bundled_games, load_game
from ..referee import get_ruleset, ruleset_for
from ._referee_options import SCHEMA, game_of, header

_GREEN, _RED = "#138a36", "#d01c1c"


def _game_named(name: str | None, where: str):
    for game_id in bundled_games():
        game = load_game(game_id)
        if game.name == name:
            return game
    raise DataError(f"no bundled game is called {name!r}; give --game and --module", path=where)


def _resolve(before: str, game_name: str | None, module: str | None):
    """The game and module binding a save belongs to."""
    from ..vassal.binding import ModuleBinding
    from ..vassal.commands import read_stream

    if game_name:
        game = game_of(game_name)
    elif module:
        from ..vassal.reader import Module
        from ..vassal.safety import SafeZip
        with SafeZip(Path(module), where=module) as archive:
            game = _game_named(Module(archive, module).info.get("name"), module)
    else:
        _, meta = read_stream(before)
        game = _game_named(meta.get("module"), before)
    return game, ModuleBinding(game, module or default_module(game, before))


def default_module(game, where: str) -> str:
    """build/GAME/GAME.vmod, which ``hexforge build`` writes; a clear error when it is missing."""
    module = str(Path("build") / game.id / f"{game.id}.vmod")
    if not Path(module).is_file():
        raise DataError(f"no module at {module}: build it (hexforge build {game.id} --only vassal) or give "
                        f"--module", path=where)
    return module


def _where(report, verdict) -> str:
    game = report.after.game
    stops = "".join(f" -> {report.after.map.format(h)}" for h in verdict.stops)
    return f"{verdict.start.describe(game)}{stops} -> {verdict.end.describe(game)}"


def _text(report) -> str:
    pos = report.after
    fmt = pos.map.format
    head = f"{pos.game.name}: turn {pos.turn if pos.turn is not None else '?'}"
    head += f", {report.phase}" if report.phase else ""
    head += f", side {report.side}" if report.side else ""
    lines = [f"{head} ({' -> '.join(report.files)})"]
    if not report.moves:
        lines.append("no unit moved")
    for m in report.moves:
        who = ",".join(m.units) or "-"
        actions = f" [action {', '.join(map(str, m.actions))}]" if m.actions else ""
        if m.legal is None:
            lines.append(f"move {m.n}: {who} {_where(report, m)}: not judged ({m.note}){actions}")
            continue
        if m.legal:
            verdict = f"legal, path {' '.join(fmt(h) for h in m.route)}, cost {m.cost} of {m.check.ma} MP"
        else:
            verdict = f"ILLEGAL at step {m.check.failed_step}: {m.reason}"
            if len(m.route) > 1:
                verdict += f" (tried {' '.join(fmt(h) for h in m.route)})"
        note = f"; {m.note}" if m.note else ""
        lines.append(f"move {m.n}: {who} {_where(report, m)}: {verdict}{note}{actions}")
    for f in report.flips:
        lines.append(f"flip: {f['unit']} steps {f.get('steps', f.get('levels'))}")
    lines.append("stacking at the end: " + ("legal" if not report.stacking else
                                            f"{len(report.stacking)} violation(s)"))
    lines += [f"  {r}" for r in report.stacking]
    for side, result in report.supply.items():
        lines.append(f"supply of {side}: {len(result.supplied)} supplied, {len(result.unsupplied)} not")
        for uid in sorted(result.unsupplied):
            u = pos.units[uid]
            lines.append(f"  {uid} {fmt(u.hex)}: NOT supplied -> {result.status[uid].replace('_', ' ')}")
    for a in report.appeared:
        lines.append(f"appeared: {a['unit']} at {a['where']} ({a['how']})")
    for v in report.vanished:
        lines.append(f"vanished: {v['unit']} ({v['how']})")
    for e in report.events:
        if e.kind == "dice":
            lines.append(f"dice [action {e.action}]: {e.die} = {', '.join(map(str, e.dice))} ({e.player})")
        elif e.kind == "undo":
            lines.append(f"undo [action {e.action}]: {', '.join(e.units) or 'an earlier action'} taken back")
    for p in report.pieces:
        lines.append(f"not read: piece {p['piece']} {p['name']!r} in {p['file']} at {p['where']}: {p['why']}")
    lines += [f"warning: {w}" for w in report.warnings]
    lines.append("the turn is " + ("legal" if report.legal else "NOT legal"))
    return "\n".join(lines)


def _draw(report, png: str, dpi: int) -> None:
    pos = report.after
    paths, colours, marks, labels = [], [], {}, {}
    for m in report.moves:
        if m.legal is False and m.reason is not None and m.reason.hex is not None:
            marks[m.reason.hex] = "cross"
        if m.legal is None or len(m.route) < 2:
            continue
        route = m.route if m.legal else m.route[:]
        if not m.legal and m.end.hex is not None and route[-1] != m.end.hex:
            route = route + pos.map.grid.line(route[-1], m.end.hex)[1:]
        paths.append(route)
        colours.append(_GREEN if m.legal else _RED)
        labels.setdefault(route[-1], str(m.n))
    for r in report.stacking:
        if r.hex is not None:
            marks[r.hex] = "x"
    unsupplied = sorted(u for result in report.supply.values() for u in result.unsupplied)
    for uid in unsupplied:
        hex = pos.units[uid].hex
        if hex is not None and hex not in labels:   # a badge would hide the move's number
            marks.setdefault(hex, "ring")
    bad = sum(1 for m in report.moves if m.legal is False)
    good = sum(1 for m in report.moves if m.legal)
    legend = (f"{pos.game.name} turn {pos.turn or '?'}{', ' + report.phase if report.phase else ''}: "
              f"{good} legal move(s) (green), {bad} illegal (red, x where it fails)"
              f"{'; stacking broken (x)' if report.stacking else ''}"
              f"{'; out of supply: ' + ', '.join(unsupplied) if unsupplied else ''}")
    try:
        from .. import render
        image = render.overlay(render.render_map(pos.map, dpi=dpi, game=pos.game), paths=paths, marks=marks,
                               labels=labels, legend=legend, path_colours=colours or (_GREEN,))
    except (ImportError, AttributeError) as exc:
        raise RulesError(f"--png needs the map overlay renderer (toolkit.render.overlay): {exc}") from None
    image.save(png)
    click.echo(f"wrote {png}", err=True)


@click.command("turn")
@click.argument("before", type=click.Path(dir_okay=False))
@click.argument("after", required=False, type=click.Path(dir_okay=False))
@click.option("-m", "--module", type=click.Path(dir_okay=False),
              help="The game's .vmod (default: build/GAME/GAME.vmod).")
@click.option("-g", "--game", "game_name", help="Bundled game id or folder (default: the save's module's game).")
@click.option("--side", help="The side whose turn it is (default: from the phase, else the side that moved).")
@click.option("--phase", help="The phase (default: the turn tracker's).")
@click.option("--ruleset", help="Ruleset name (default: the game's).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (docs/referee.md).")
@click.option("--png", type=click.Path(dir_okay=False), help="Draw the moves on the map into this PNG.")
@click.option("--dpi", type=int, default=100, show_default=True, help="Resolution of --png.")
def command(before, after, module, game_name, side, phase, ruleset, as_json, png, dpi):
    """Judge the moves from save BEFORE to save AFTER, or every move of the log BEFORE."""
    from ..vassal.turn import judge_log, judge_saves
    from ..vassal.vlog import read_game

    game, binding = _resolve(before, game_name, module)
    rs = get_ruleset(ruleset) if ruleset else ruleset_for(game)
    first = read_game(binding, before)
    if after is None:
        if not first.is_log:
            raise RulesError(f"{before} holds no logged moves: give two saves (BEFORE AFTER) or a .vlog")
        report = judge_log(first, rs, side=side, phase=phase)
    else:
        report = judge_saves(first, read_game(binding, after), rs, side=side, phase=phase)
    if as_json:
        click.echo(json.dumps({**header("turn", report.after), "schema": SCHEMA, "turn": report.to_dict()},
                              indent=2))
    else:
        click.echo(_text(report))
    if png:
        _draw(report, png, dpi)
    sys.exit(0 if report.legal else 1)
