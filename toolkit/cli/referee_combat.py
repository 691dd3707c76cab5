"""``hexforge referee combat`` and ``hexforge referee retreat``: combat questions on a position.

``combat`` assesses an attack (refusals, strengths, every shift and DRM with its rule, the
exact distribution of results and the expected steps lost) and, with ``--seed`` or ``--roll``,
rolls it and prints an auditable log line. ``retreat`` lists where retreating units may go.
Exit codes: 0 legal, 1 illegal (refused attack, no retreat), 2 bad input.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

import click

from ..errors import HexforgeError, RulesError
from ..referee import Support, assess_combat, check_combat_context, roll_combat
from . import referee_combat_apply as applying
from ._referee_options import common_options, draw, header, position_of, units_arg
from . import referee_combat_games as games
from .referee_combat_apply import apply_options


def _hex(pos, text):
    try:
        h = pos.map.grid.parse(text)
    except HexforgeError as exc:
        raise RulesError(f"bad hex {text!r}: {exc}") from None
    if h not in pos.map.grid:
        raise RulesError(f"hex {text} is not on the map")
    return h


def _supports(specs, side):
    """``KIND``, ``KIND:N`` (points) or ``KIND:UNIT`` (a support unit), each optionally ``@HQ``."""
    out = []
    for spec in specs:
        text, _, via = spec.partition("@")
        kind, _, arg = text.partition(":")
        if not kind:
            raise RulesError(f"bad support {spec!r}: expected KIND, KIND:POINTS or KIND:UNIT, optionally @HQ")
        if arg.isdigit():
            out.append(Support(kind, side, points=int(arg), via=via or None))
        else:
            out.append(Support(kind, side, unit=arg or None, via=via or None))
    return out


def _rolls(texts):
    out = {}
    for text in texts:
        name, eq, value = text.rpartition("=")
        if not eq or not value.strip().lstrip("-").isdigit():
            raise RulesError(f"bad --rolls {text!r}: expected NAME=N, e.g. 'attacker quality=3'")
        out[name.strip()] = int(value)
    return out


def _targets(texts) -> dict:
    """``UNIT`` or ``UNIT=POINTS`` (a whole number or a fraction such as 15/2), in order."""
    out = {}
    for text in texts:
        uid, eq, points = text.partition("=")
        try:
            out[uid.strip()] = Fraction(points.strip()) if eq else None
        except (ValueError, ZeroDivisionError):
            raise RulesError(f"bad --target {text!r}: expected UNIT or UNIT=POINTS") from None
        if not uid.strip() or (eq and out[uid.strip()] < 0):
            raise RulesError(f"bad --target {text!r}: expected UNIT or UNIT=POINTS (0 or more)")
    return out


def _context(texts) -> dict:
    """``--context KEY=VALUE``: true/false, a whole number, a comma list, or text."""
    out = {}
    for text in texts:
        key, eq, value = text.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise RulesError(f"bad --context {text!r}: expected KEY=VALUE, e.g. stuka=attack or fixed=art")
        if key in out:
            raise RulesError(f"--context {key} is given twice")
        if value.lower() in ("true", "yes", "false", "no"):
            out[key] = value.lower() in ("true", "yes")
        elif value.lstrip("-").isdigit():
            out[key] = int(value)
        elif "," in value:
            out[key] = [v.strip() for v in value.split(",") if v.strip()]
        else:
            out[key] = value
    return out


_RETREAT_SHADE = (240, 140, 20, 120)


def _pct(p) -> str:
    return f"{float(p) * 100:5.1f}%"


def _text(pos, a) -> str:
    fmt = pos.map.format
    lines = [f"{','.join(a.attackers)} attack {'+'.join(fmt(h) for h in a.defender_hexes)} "
             f"({','.join(a.defenders) or 'empty'}): "
             f"{a.ratio} -> {a.odds or '-'}"]
    for m in a.modifiers:
        lines.append(f"  {m.kind:8s} {str(m)}")
    if not a.legal:
        lines.append("not allowed:")
        lines += [f"  {r}" for r in a.refusals]
        return "\n".join(lines)
    lines.append(f"column {a.column} (net shift {a.shift:+d}), {a.dice or a.chart.dice_for(a.side)}, DRM {a.drm:+d}"
                 f"{' (the CRT is estimated: game.yaml charts.' + a.chart.name + ')' if a.chart.estimated else ''}")
    if len(a.column_distribution) > 1:
        lines.append("  columns after the random shifts: " +
                     ", ".join(f"{c} {p}" for c, p in a.column_distribution.items()))
    for text, p in sorted(a.distribution.items(), key=lambda kv: -kv[1]):
        r = a.results[text]
        lines.append(f"  {text:8s} {str(p):>7s} {_pct(p)}  attacker: {r.attacker.describe()}; "
                     f"defender: {r.defender.describe()}")
    detail = getattr(a, "detail_lines", None)      # games that aim fire at units (White Death)
    if detail is not None:
        lines += ["per target:", *detail(fmt)]
    e = a.expected_steps
    lines.append(f"expected steps lost: attacker {e['attacker']} ({float(e['attacker']):.2f}), "
                 f"defender {e['defender']} ({float(e['defender']):.2f})")
    return "\n".join(lines)


@click.command("combat")
@click.argument("attackers")
@click.argument("defender_hex")
@common_options
@click.option("--support", "support", multiple=True, metavar="KIND[:N|:UNIT][@HQ]",
              help="attacker's support (artillery points, an artillery unit, an air mission); repeatable")
@click.option("--defence-support", "defence_support", multiple=True, metavar="KIND[:N|:UNIT][@HQ]",
              help="defender's support; repeatable")
@click.option("--shift", "declared_shift", type=int, default=0, help="declared column shift (event chits...)")
@click.option("--drm", "declared_drm", type=int, default=0, help="declared die-roll modifier (event chits...)")
@click.option("--context", "context", multiple=True, metavar="KEY=VALUE",
              help="a situational fact not on the map that the game's combat hooks read, checked against "
                   "the keys it declares (stuka=attack, minsk=true, fixed=art, activating_hq=UNIT, "
                   "nullified=bunker: docs/games/); repeatable")
@click.option("--seed", type=int, help="roll the combat with this seed (logged)")
@click.option("--roll", "roll", type=int, help="roll the combat with this CRT roll")
@click.option("--rolls", "rolls", multiple=True, metavar="NAME=N",
              help="the roll of a random shift ('attacker quality=3'); repeatable")
@click.option("--fire", "fire", type=click.Choice(["assault", "defensive", "barrage"]),
              help="games with aimed fire (White Death): which fire to judge (default assault)")
@click.option("--target", "targets", multiple=True, metavar="UNIT[=POINTS]",
              help="games with aimed fire: a unit fired at, with the fire points given it (default: a share); "
                   "repeatable, resolved in this order")
@games.game_options
@apply_options
def combat_command(attackers, defender_hex, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi,
           support, defence_support, declared_shift, declared_drm, context, seed, roll, rolls, fire, targets,
           barrage_split, barrage_sp, place, air, weapons_fire, apply,
           loss, retreat, advance, choice, no_retreat, zoc_retreat, before_combat, out):
    """Assess (and with --seed/--roll, resolve) an attack by ATTACKERS on DEFENDER_HEX (several
    hexes joined by commas where the game allows attacks on more than one hex)."""
    applying.check_usage(apply, loss, retreat, advance, out, choice, no_retreat, zoc_retreat, before_combat)
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    target = [_hex(pos, h) for h in defender_hex.replace("+", ",").split(",") if h.strip()]
    target = target[0] if len(target) == 1 else target
    supports = _supports(support, "attacker") + _supports(defence_support, "defender")
    declared = []
    if declared_shift:
        declared.append({"kind": "shift", "value": declared_shift, "text": f"declared shift {declared_shift:+d}"})
    if declared_drm:
        declared.append({"kind": "drm", "value": declared_drm, "text": f"declared DRM {declared_drm:+d}"})
    facts = {**_context(context), **games.barrage(rs, barrage_split, barrage_sp)}
    check_combat_context(rs, facts)
    ctx = {**facts, "modifiers": declared}
    if (fire or targets or weapons_fire) and getattr(rs, "combat_model", None) is None:
        raise RulesError(f"--fire, --target and --weapons-fire are for games whose fire is aimed at units "
                         f"(White Death); {rs.name} resolves one attack on the hex")
    if weapons_fire:
        ctx["weapons_fire"] = games.weapons_fire(pos, weapons_fire)
    if fire:
        ctx["fire"] = fire
    if targets:
        ctx["targets"] = _targets(targets)
    a = assess_combat(pos, rs, units_arg(attackers), target, supports=supports, context=ctx)
    rolled = None
    outcome = None
    draws = None
    placed = games.places(pos, rs, place)
    sky = games.air_question(pos, rs, air, a, declared_drm, lambda c: assess_combat(
        pos, rs, units_arg(attackers), target, supports=supports, context={**ctx, "modifiers": c}), declared)
    if a.legal and (seed is not None or roll is not None or rolls or apply):
        if seed is None and (sky or getattr(rs, "roll_with_draws", None)):
            seed = games.fresh_seed()          # the AA dice and the draws come from it: logged, replayable
        used = a
        if sky is not None:
            sky["rolled"] = rs.roll_air_defence(pos, air, a.defender_hex, seed)
            used = a if sky["rolled"]["stands"] else sky["without"]
        draws = games.roll_with_draws(pos, rs, used, ctx if used is a else sky["context"], seed, roll, placed)
        if draws is None:
            rolled = roll_combat(pos, rs, used, seed=seed, roll=roll, rolls=_rolls(rolls))
        else:                                     # the drawn units join the attack: later steps use theirs
            rolled = draws["roll"]
        if apply:
            at, used = (pos, used) if draws is None else (draws["position"], draws["assessment"])
            outcome = applying.run(at, rs, used, rolled, loss, retreat, advance, out, choice, no_retreat, zoc_retreat,
                                   before_combat)
    if as_json:
        doc = {**header("combat", pos), "combat": a.to_dict(pos.map.format)}
        if sky is not None:
            doc["air"] = games.air_json(sky)
        if draws is not None:
            final = draws["assessment"]
            doc["draws"] = {"drawn": list(draws["drawn"]), "log": draws["log"][:-1], "ratio": final.ratio,
                            "column": final.column, "attackers": list(final.attackers)}
        if rolled:
            doc["roll"] = rolled.to_dict()
        if outcome:
            doc["outcome"] = {**outcome.to_dict(pos.map.format), "out": out}
        click.echo(json.dumps(doc, indent=2))
    else:
        click.echo(_text(pos, a))
        if sky is not None:
            click.echo("\n".join(games.air_text(sky)))
        if draws is not None and draws["log"][:-1]:
            click.echo("\n".join(draws["log"][:-1]))
        if rolled:
            click.echo(rolled.log)
        if outcome:
            click.echo("\n".join(applying.text(outcome, out)))
    if png:
        _draw_combat(pos, rs, a, png, dpi)
    sys.exit(0 if a.legal else 1)


def _draw_combat(pos, rs, a, png, dpi):
    """Attackers, defender, the hexes the shifts come from, and the defenders' retreat hexes."""
    labels, marks = {}, {}
    for uid in a.attackers:
        h = pos.unit(uid).hex
        if h is not None:
            marks[h] = "ATT " + ",".join(u for u in a.attackers if pos.unit(u).hex == h)[:18]
    for h in a.defender_hexes:
        marks[h] = f"DEF {a.column or a.odds or ''}"
    for m in a.modifiers:
        if m.hex is None or m.kind not in ("shift", "drm", "attack", "defence") or not m.value:
            continue
        text = f"{int(m.value):+d}{'' if m.kind == 'shift' else ' ' + m.kind[:3]}" + (f" ({m.rule})" if m.rule else "")
        if m.hex in marks:                   # an attacker's or the defender's hex: on its badge
            marks[m.hex] = f"{marks[m.hex]} {text}"
        else:
            labels[m.hex] = f"{labels[m.hex]} {text}" if m.hex in labels else text
    shade = {}
    own = getattr(a, "retreat_hexes", None)       # a game with its own retreats (White Death)
    try:
        if own is not None:
            raise LookupError
        from ..referee import retreat_options
        for d in a.defender_hexes:
            here = [u for u in a.defenders if pos.unit(u).hex == d]
            lengths = [r.defender.retreat[0] for r in a.results.values() if r.defender.retreat] or [1]
            if here:
                answer = retreat_options(pos, rs, here, max(lengths), from_hex=d)
                # orange, not blue: the maps draw lakes and swamps in blues
                shade.update({h: _RETREAT_SHADE for h in answer.hexes()})
    except (ImportError, HexforgeError):
        shade = {}
    except LookupError:
        shade = {h: (90, 160, 230, 110) for h in own(pos, rs)}
    best = max(a.distribution.items(), key=lambda kv: kv[1])[0] if a.distribution else None
    legend = (f"{','.join(a.attackers)} -> {'+'.join(pos.map.format(h) for h in a.defender_hexes)}: {a.ratio} = "
              f"{a.odds}, column "
              f"{a.column}" + (f", most likely {best}" if best else "") +
              (f"; orange: {getattr(a, 'fired_at', 'defender')}'s retreat hexes" if shade else "") if a.legal else
              f"attack refused: {a.refusals[0].text}")
    if getattr(a, "fire", None):                  # aimed fire (White Death): which fire it is
        legend = f"{a.fire} fire: {legend}"
    draw(pos, png, dpi, shade=shade, labels=labels, marks=marks, legend=legend)


@click.command("retreat")
@click.argument("units")
@common_options
@click.option("--length", "length", default="1", show_default=True, metavar="N[,M]",
              help="hexes to retreat (several lengths: the owner's choice)")
@click.option("--from", "from_hex", metavar="HEX", help="the hex to retreat away from (default: the units' hex)")
@click.option("--advance", "advance", metavar="UNITS",
              help="also list where these attacking units may advance into the vacated hex")
def retreat_command(units, game_name, scenario, turn, position, side, weather, ruleset, as_json, png, dpi, length,
            from_hex, advance):
    """Where UNITS (one id, or ids joined by commas retreating together) may end a retreat."""
    from ..referee import advance_options, retreat_options
    pos, rs = position_of(game_name, scenario, turn, position, side, weather, ruleset)
    try:
        lengths = tuple(int(x) for x in length.replace(",", " ").split())
    except ValueError:
        raise RulesError(f"bad --length {length!r}: expected N or N,M") from None
    ids = units_arg(units)
    origin = _hex(pos, from_hex) if from_hex else None
    answer = retreat_options(pos, rs, ids, lengths, from_hex=origin)
    fmt = pos.map.format
    adv = []
    if advance:
        start = pos.unit(ids[0]).hex
        best = min(answer.paths.values(), key=len) if answer.paths else [start]
        gone = pos.copy()
        for uid in ids:
            gone.place(uid)                  # the retreating units have left the hex
        adv = advance_options(gone, rs, units_arg(advance), start, path=[start, *best[1:]], hexes=len(best) - 1 or 1)
    if as_json:
        out = {**header("retreat", pos), "retreat": answer.to_dict(fmt)}
        if advance:
            out["advance"] = {"units": units_arg(advance), "hexes": [fmt(h) for h in adv]}
        click.echo(json.dumps(out, indent=2))
    else:
        if answer.eliminated:
            click.echo(f"{units} cannot retreat: {answer.reason}")
        else:
            boxes = f" and {len(answer.boxes)} Map Box(es)" if answer.boxes else ""
            click.echo(f"{units} from {fmt(answer.start)}: {len(answer.paths)} hex(es){boxes} to end a retreat of "
                       f"{' or '.join(map(str, answer.lengths))}")
            overruns = getattr(answer, "overruns", {})
            for h in answer.hexes():
                loss = answer.losses[h]
                click.echo(f"  {fmt(h)}  via {' '.join(fmt(p) for p in answer.paths[h][1:])}"
                           f"{f'  (loses {loss} step(s) in enemy ZOC)' if loss else ''}"
                           f"{'  (overruns ' + ', '.join(overruns[h]) + ')' if overruns.get(h) else ''}")
            rule = rs.retreat.box_rule or rs.retreat.rule
            for b in answer.boxes:
                box = pos.map.box(b)
                click.echo(f"  box:{b}  into the {box.name if box else b} box, straight from {fmt(answer.start)}, crossing no hex"
                           + (f" (rule {rule})" if rule else ""))
        if advance:
            click.echo(f"{advance} may advance into: {' '.join(fmt(h) for h in adv) or 'nowhere'}")
    if png:
        shade = {h: _RETREAT_SHADE for h in answer.hexes()}
        labels = {h: str(answer.losses[h]) for h in answer.hexes() if answer.losses[h]}
        draw(pos, png, dpi, shade=shade, labels=labels, paths=[answer.paths[h] for h in answer.hexes()],
              legend=(f"{units}: retreat ends in blue" + (f"; or into {', '.join(answer.boxes)} (box)" if answer.boxes else "")
                      if not answer.eliminated else f"{units}: no retreat"))
    sys.exit(1 if answer.eliminated else 0)
