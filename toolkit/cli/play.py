"""``hexforge play``: a refereed game in the browser (a local server on 127.0.0.1)."""

from __future__ import annotations

import threading
import webbrowser

import click

from ..errors import DataError
from ..io import default_game, load_game
from ..referee import load_position, ruleset_for


@click.command("play")
@click.argument("game", required=False)
@click.option("-s", "--scenario", help="Scenario id (default: the first).")
@click.option("--load", "load", type=click.Path(dir_okay=False, exists=True),
              help="A saved game (.json, replayed and checked), a position file (.yaml) or a VASSAL "
                   "saved game (.vsav) to start from.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True, help="Port (0: a free one).")
@click.option("--no-browser", is_flag=True, help="Do not open the default browser.")
@click.option("--module", type=click.Path(dir_okay=False, exists=True),
              help="The game's VASSAL module, for .vsav export and import (default: built from the game's data "
                   "when first needed).")
@click.option("--seed", type=click.IntRange(0, 2 ** 31 - 1), help="Seed of the dice (default: random, saved with the game).")
def command(game, scenario, load, port, no_browser, module, seed):
    """Play GAME in the browser with the referee checking every move."""
    from ..play import Session, Table, bind, load_session, serve
    if scenario and load:
        raise DataError("give --scenario or --load, not both")
    if load and load.lower().endswith((".vsav", ".vlog")):
        from pathlib import Path

        from ..play.vassal import Modules, position_from_vsav
        loaded = load_game(game or default_game())
        pos, warnings = position_from_vsav(loaded, Modules(module), Path(load).read_bytes(), load)
        for line in warnings:
            click.echo(f"{load}: {line}", err=True)
        session = Session.from_position(pos, ruleset_for(loaded), seed=seed, game_name=game)
    elif load and load.lower().endswith(".json"):
        session = load_session(load, game=load_game(game) if game else None)
    elif load:
        pos = load_position(load, load_game(game) if game else None)
        session = Session.from_position(pos, ruleset_for(pos.game), seed=seed, game_name=game)
    else:
        name = game or default_game()
        loaded = load_game(name)
        session = Session.new(loaded, ruleset_for(loaded), scenario=scenario, seed=seed, game_name=name)
    sock = bind(port)
    table = Table(session, module)
    click.echo(f"hexforge play: drawing the map of {session.game.name}...", err=True)
    table.art  # draw before the first page asks for it
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/"

    def ready():
        click.echo(f"hexforge play: {session.game.name} at {url} (Ctrl+C to stop)")
        if not no_browser:
            threading.Timer(0.3, webbrowser.open, [url]).start()

    serve(table, sock, on_ready=ready)
