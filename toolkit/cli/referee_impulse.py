"""``hexforge referee impulse``: the impulse budget of a game that has one (White Death, Rule 5):
MP left per side, whose impulse comes next, and ``--declare N`` / ``--pass`` to declare the next
impulse into a new position file (``--out``). ``hexforge referee analysis KIND``: a ruleset's
analysis screens (isolation per side, the artillery supply trace) as text, JSON or a PNG overlay.

Exit codes: 0 answered, 2 bad input (unknown ruleset feature, illegal declaration).
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import RulesError
from ..referee import dump_position
from .referee import _common, _draw, _header, _position


def _needs(rs, what):
    if not hasattr(rs, what):
        raise RulesError(f"ruleset {rs.name} has no {'impulse budget' if what == 'budget' else 'analysis screens'}")


@click.command("impulse")
@click.option("--declare", "declare", type=int, metavar="MP", help="Declare the next impulse with MP movement points.")
@click.option("--pass", "passing", is_flag=True, help="Pass the initiative (costs what the ruleset's option says).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the position after the declaration here.")
@_common
def impulse_command(declare, passing, out, game_name, scenario, turn, position, side, weather, ruleset, as_json,
                    png, dpi):
    """The impulse budget: MP left per side this turn and whose impulse is next."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    _needs(rs, "budget")
    if declare is not None or passing:
        if not out:
            raise click.UsageError("--declare and --pass need --out FILE for the new position")
        rs.declare(pos, declare, passing=passing)
        dump_position(pos, out)
        click.echo(f"wrote {out}", err=True)
    budget = rs.budget(pos)
    nxt = budget.next_side()
    cur = budget.current
    assault = {s: (budget.may_assault(s) is None) for s in budget.left} if cur else {}
    if as_json:
        click.echo(json.dumps({**_header("impulse", pos), "left": budget.left,
                               "impulses": [list(i) for i in budget.impulses], "next": nxt,
                               "current": list(cur) if cur else None, "may_assault": assault}, indent=2))
    else:
        click.echo("MP left this turn: " + ", ".join(f"{s} {n}" for s, n in budget.left.items()))
        click.echo("impulses: " + (", ".join(f"{s} {mp}" for s, mp in budget.impulses) or "none yet"))
        if cur:
            click.echo(f"in progress: {cur[0]} {cur[1]} MP"
                       f"{'' if assault.get(cur[0]) else ' (no assaults: Rule 5)'}")
        click.echo(f"next: {nxt} impulse" if nxt else "next: TURN (both sides have spent their MP)")
    sys.exit(0)


@click.command("analysis")
@click.argument("kind")
@_common
def analysis_command(kind, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """A ruleset's analysis screen KIND (White Death: isolation, artillery) for a side."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    _needs(rs, "analysis")
    side = side or pos.side or pos.sides()[0]
    result = rs.analysis(pos, kind, side)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**_header("analysis", pos), "kind": kind, "supply": result.to_dict(fmt)}, indent=2))
    else:
        click.echo(f"{kind} of {side}: {len(result.supplied)} units traced, {len(result.unsupplied)} not")
        for uid in sorted(result.unsupplied):
            click.echo(f"  {uid:12s} {fmt(pos.units[uid].hex)}  {result.status[uid].replace('_', ' ')}")
    if png:
        if kind == "artillery":
            # the program's SUPPLY screen: the road hexes running unbroken to a friendly edge
            shade = {h: (200, 30, 30, 120) for h in result.road}
            legend = f"{side} artillery supply: roads to a friendly edge (red); {len(result.unsupplied)} out"
        else:
            # the program's ISOLATION screen: red where a unit would trace; blank = isolated areas
            shade = {h: (200, 30, 30, 90) for h in pos.map.hexes if h in result.reached}
            legend = f"{side} isolation: red hexes trace to a friendly edge; {len(result.unsupplied)} isolated"
        marks = {pos.units[u].hex: f"{u} {'ISO' if kind == 'isolation' else 'OOS'}" for u in result.unsupplied}
        _draw(pos, png, dpi, shade=shade, marks=marks, legend=legend)
    sys.exit(0)


@click.command("rail")
@click.argument("unit")
@_common
def rail_command(unit, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi):
    """Hexes UNIT may reach by rail this impulse (games whose ruleset has rail movement)."""
    pos, rs = _position(game_name, scenario, turn, position, side, weather, ruleset)
    rail = getattr(rs, "rail_moves", None)
    if rail is None:
        raise RulesError(f"ruleset {rs.name} has no rail movement question")
    ans = rail(pos, unit)
    fmt = pos.map.format
    if as_json:
        click.echo(json.dumps({**_header("rail", pos), "unit": unit, "hexes": [fmt(h) for h in ans.hexes],
                               "capacity_left": ans.capacity_left,
                               "refused": ans.refused.to_dict(fmt) if ans.refused else None}, indent=2))
    elif ans.refused:
        click.echo(f"{unit} cannot move by rail: {ans.refused}")
    else:
        click.echo(f"{unit} by rail ({ans.capacity_left} rail SP left this turn): {len(ans.hexes)} hexes")
        click.echo("  " + " ".join(fmt(h) for h in ans.hexes))
    if png:
        _draw(pos, png, dpi, shade={h: (60, 60, 200, 110) for h in ans.hexes},
              legend=f"{unit}: {len(ans.hexes)} hexes by rail" if not ans.refused else f"{unit}: {ans.refused.text}")
    sys.exit(1 if ans.refused else 0)
