"""``hexforge referee opfire UNITS HEX``: who may opportunity-fire at UNITS as they enter HEX,
asked of any ruleset that answers it (``opportunity_fire``; Grossdeutschland 11.4).

Exit codes: 0 someone may fire, 1 nobody may, 2 bad input or a ruleset without the question.
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import HexforgeError, RulesError
from ._referee_options import common_options, draw, header, position_of, units_arg

HOW = ("move", "debark", "dismount", "advance", "retreat", "stay")


@click.command("opfire")
@click.argument("units")
@click.argument("hex")
@click.option("--how", type=click.Choice(HOW), default="move", show_default=True,
              help="How UNITS enter HEX: a move, a debark (counts as movement), a dismount, an advance after "
                   "combat, a retreat, or staying put.")
@common_options
def command(units, hex, how, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """The enemy units that may opportunity-fire at UNITS (ids joined by commas) entering HEX, and which of them they may target."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    ask = getattr(rs, "opportunity_fire", None)
    if ask is None:
        raise RulesError(f"ruleset {rs.name} has no opportunity fire question")
    try:
        where = pos.map.grid.parse(hex)
    except HexforgeError as exc:
        raise RulesError(f"bad hex {hex!r}: {exc}") from None
    movers = units_arg(units)
    firers, why, targets = ask(pos, movers, where, how)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**header("opfire", pos), "units": movers, "hex": fmt(where), "how": how,
                               "firers": [{"unit": u, "range": r, "hex": fmt(pos.units[u].hex)} for u, r in firers],
                               "targets": targets, "why_none": why}, indent=2))
    elif firers:
        click.echo(f"{len(firers)} unit(s) may fire at {', '.join(movers)} entering {fmt(where)}; "
                   f"target: {' or '.join(targets) or 'none'}")
        for u, r in firers:
            click.echo(f"  {u:16s} {fmt(pos.units[u].hex)}  range {r}")
    else:
        click.echo(f"nobody may fire at {', '.join(movers)} entering {fmt(where)}" + (f": {why}" if why else ""))
    if png:
        by_hex: dict = {}
        for u, r in firers:                           # one badge a hex: its firers and their range
            by_hex.setdefault(pos.units[u].hex, ([], r))[0].append(u)
        draw(pos, png, dpi, marks={at: f"{','.join(ids)} r{r}" for at, (ids, r) in by_hex.items()},
             shade={where: (200, 30, 30, 110)},
             legend=f"opportunity fire at {fmt(where)}: {len(firers)} firer(s)")
    sys.exit(0 if firers else 1)
