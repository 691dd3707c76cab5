"""``hexforge referee chit CHIT`` and ``hexforge referee oos COUNT``: the questions of games
with command chits and a player-chosen Out of Supply (A Victory Denied), asked of any ruleset
that answers them (``activation``, ``out_of_supply_question``).

Exit codes: 0 answered, 1 the chit activates nothing, 2 bad input or a ruleset without the question.
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import RulesError
from ._referee_options import common_options, draw, header, position_of


def _needs(rs, method: str, what: str):
    if not hasattr(rs, method):
        raise RulesError(f"ruleset {rs.name} has no {what}")
    return getattr(rs, method)


@click.command("chit")
@click.argument("chit")
@click.option("--hq", help="The HQ a 9th Army chit activates (the German player's pick).")
@click.option("--seed", "seeds", multiple=True, metavar="CORPS=UNIT",
              help="A Panzer Corps' first unit (repeat per corps; a corps not named stays inactive).")
@common_options
def chit_command(chit, hq, seeds, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """The HQs and units the command chit CHIT activates."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    pairs = {}
    for text in seeds:
        corps, sep, unit = text.partition("=")
        if not sep or not corps or not unit:
            raise click.BadParameter(f"{text!r}: expected CORPS=UNIT, e.g. XXXIX=g-19pz", param_hint="--seed")
        pairs[corps] = unit
    act = _needs(rs, "activation", "command chits")(pos, chit, hq, pairs)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**header("chit", pos), **act.to_dict(fmt)}, indent=2))
    elif act.refused:
        click.echo(f"{chit}: {act.refused}")
    else:
        click.echo(f"{chit} activates HQs {', '.join(act.hqs) or '-'} and {len(act.units)} units:")
        click.echo("  " + " ".join(act.units))
        for note in act.notes:
            click.echo(f"  ({note})")
    if png:
        marks = {pos.units[u].hex: "o" for u in (*act.hqs, *act.units) if pos.units[u].hex is not None}
        draw(pos, png, dpi, marks=marks, legend=f"{chit}: {len(act.units)} units activated")
    sys.exit(1 if act.refused else 0)


@click.command("oos")
@click.argument("count", type=click.IntRange(0, 1000))
@common_options
def oos_command(count, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """The German units the Soviet player may mark Out of Supply, COUNT of them (10.1.2)."""
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    question = _needs(rs, "out_of_supply_question", "player-chosen Out of Supply")(pos, count)
    if as_json:
        click.echo(json.dumps({**header("oos", pos), **question}, indent=2))
    else:
        click.echo(f"{question['question']} [rule {question['rule']}]")
        click.echo("  " + " ".join(question["candidates"]))
    if png:
        marks = {pos.units[u].hex: "o" for u in question["candidates"]}
        draw(pos, png, dpi, marks=marks, legend=f"choose {question['choose']} of {len(marks)} German units")
    sys.exit(0)
