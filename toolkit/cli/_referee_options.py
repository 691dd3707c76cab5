"""What every ``hexforge referee`` sub-command shares: the position options (a scenario's
set-up or a position file), the JSON header and the ``--png`` overlay."""

from __future__ import annotations

import click

from ..errors import HexforgeError, RulesError
from ..io import default_game, load_game
from ..referee import get_ruleset, load_position, position_from_scenario, ruleset_for
from ..referee.registry import plugin_game_dir

SCHEMA = 1


def game_of(name):
    """A bundled game, a game folder, or the game an installed referee plugin carries."""
    try:
        return load_game(name)
    except HexforgeError:
        folder = plugin_game_dir(name)
        if folder is None:
            raise
        return load_game(str(folder))


def position_of(game_name, scenario, turn, position, side, weather, ruleset):
    if position:
        pos = load_position(position, game_of(game_name) if game_name else None)
    else:
        pos = position_from_scenario(game_of(game_name or default_game()), scenario, turn=turn)
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


def stacked(options: list):
    """A decorator applying click ``options`` in the order listed (as ``--help`` shows them)."""
    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func
    return decorate


def common_options(func):
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
    return stacked(options)(func)


def header(command, pos):
    return {"schema": SCHEMA, "command": command, "game": pos.game.id,
            "position": {"map": pos.map_id, "turn": pos.turn, "side": pos.side, "phase": pos.phase,
                         "weather": pos.current_weather, "scenario": pos.scenario}}


def units_arg(text):
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


def draw(pos, png, dpi, shade=None, labels=None, paths=None, marks=None, legend=None):
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
