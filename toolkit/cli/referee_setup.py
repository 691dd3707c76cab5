"""``hexforge referee setup [UNIT]``: the legal set-up hexes of UNIT, or the whole set-up checked
against the scenario's set-up areas (a scenario's own set-up, or a position file of one).

Exit codes: 0 legal, 1 units outside their areas, 2 bad input.
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import RulesError
from ..referee.setup import check_setup, legal_setup_hexes
from .referee import _common, _draw, _header, _position


@click.command("setup")
@click.argument("unit", required=False)
@_common
def command(unit, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Hexes UNIT may set up on; without UNIT, check every unit's set-up hex against its area."""
    pos, _ = _position(game_name, scenario, turn, position, side, weather, ruleset)
    if position and not pos.scenario:
        raise RulesError(f"{position}: scenario: a set-up check needs a position of a scenario; the file "
                         f"names none")
    fmt = pos.map.format
    if unit:
        entry, legal = legal_setup_hexes(pos, unit)
        area = entry.placement.area
        where = area.describe(fmt) if area is not None else "its listed hexes"
        hexes = sorted(legal)
        if as_json:
            click.echo(json.dumps({**_header("setup", pos), "unit": unit, "area": where, "rule": entry.rule,
                                   "hexes": [fmt(h) for h in hexes]}, indent=2))
        else:
            click.echo(f"{unit} sets up {where}"
                       f"{' [rule ' + entry.rule + ']' if entry.rule else ''}: {len(hexes)} hexes")
            click.echo("  " + " ".join(fmt(h) for h in hexes))
        if png:
            _draw(pos, png, dpi, shade={h: (90, 170, 230, 110) for h in hexes},
                  legend=f"{unit}: set up {where} ({len(hexes)} hexes)")
        sys.exit(0)
    found = check_setup(pos)
    if as_json:
        click.echo(json.dumps({**_header("setup", pos), "ok": not found,
                               "violations": [r.to_dict(fmt) for r in found]}, indent=2))
    else:
        click.echo("\n".join(str(r) for r in found) if found else "every unit sets up inside its area")
    if png:
        _draw(pos, png, dpi, marks={r.hex: "x" for r in found if r.hex},
              legend=f"{len(found)} unit(s) outside their set-up areas" if found else "set-up is legal")
    sys.exit(1 if found else 0)
