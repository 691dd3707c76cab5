"""``hexforge vassal save`` and ``hexforge vassal position``: referee positions to and from VASSAL.

``save`` writes a position (a position file, or a scenario's set-up) as a .vsav of the game's
module, to go back into play; ``position`` reads a .vsav (or the end of a .vlog) into a
position file every ``hexforge referee`` command takes with ``--position``.
"""

from __future__ import annotations

import click

from ..referee import dump_position, load_position, position_from_scenario
from ._referee_options import game_of
from .referee_turn import _resolve, default_module


@click.command("save")
@click.option("-p", "--position", type=click.Path(dir_okay=False), help="A position file (docs/referee.md).")
@click.option("-g", "--game", "game_name", help="Bundled game id or folder (with --scenario, or for --position).")
@click.option("-s", "--scenario", help="A scenario's set-up instead of a position file.")
@click.option("-t", "--turn", type=int, help="Turn of the scenario (default: the first).")
@click.option("-m", "--module", type=click.Path(dir_okay=False),
              help="The game's .vmod (default: build/GAME/GAME.vmod).")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False), help="The .vsav to write.")
def save(position, game_name, scenario, turn, module, out):
    """Write a position as a .vsav VASSAL 3.7 loads with the game's module."""
    from ..vassal import ModuleBinding, write_position

    if position:
        pos = load_position(position, game_of(game_name) if game_name else None)
    else:
        if not game_name:
            raise click.UsageError("give --position FILE, or --game (and --scenario)")
        pos = position_from_scenario(game_of(game_name), scenario, turn=turn)
    binding = ModuleBinding(pos.game, module or default_module(pos.game, position or game_name))
    path = write_position(pos, binding, out)
    click.echo(f"wrote {path} ({len(pos.units)} units)")


@click.command("position")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-m", "--module", type=click.Path(dir_okay=False),
              help="The game's .vmod (default: build/GAME/GAME.vmod).")
@click.option("-g", "--game", "game_name", help="Bundled game id or folder (default: the save's module's game).")
@click.option("-o", "--out", required=True, type=click.Path(dir_okay=False), help="The position file to write.")
def position(file, module, game_name, out):
    """Read a .vsav (or the end of a .vlog) into a position file; list what was not read."""
    from ..vassal import read_game

    _, binding = _resolve(file, game_name, module)
    record = read_game(binding, file)
    dump_position(record.end.position, out)
    click.echo(f"wrote {out} ({len(record.end.position.units)} units)")
    for entry in record.end.unknown + record.end.off:
        click.echo(f"not read: piece {entry['piece']} {entry['name']!r} at {entry['where']}: {entry['why']}", err=True)
    for uid, turn in sorted(record.end.waiting.items()):
        click.echo(f"waiting: {uid} on the turn {turn} box", err=True)
