"""Attacks on a fixed column (13.2, 13.3): Soviet artillery on 3-1 and the once-a-game rocket
attack on 7-1 (ART chit), the German bomber on 8-1 (Air Power chit). Each rolls a d6 on the CRT
(13.2: "a 6-sided die is rolled ... not a 10-sided die"), the column moved by the defender's
terrain shifts (and a defensive Stuka, notes 14.4.16); results to the attacker are ignored, and
the bomber's retreats too (only step losses apply). Assessed through
``assess_combat(..., context={"fixed": "art" | "rocket" | "bomber"})`` (the ruleset's
``fixed_attack``), so ``roll_combat`` and ``apply_combat`` take them as any combat: their chart
is the game's CRT with the ignored parts taken out.

Who may fire: artillery and rockets at a hex next to a Soviet combat unit or HQ, or two hexes
from a Soviet unit in a hill hex (the ``attacker_ids`` are those spotters), never on turn 1 (13.1:
no ART chit); the bomber at any hex (its ids are not checked). The limits (the ART chit's
number of attacks, one artillery or rocket attack a hex a turn, the rocket and the bomber once a
game) are :mod:`.limits`.
"""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

from ...errors import RulesError
from ...referee import CombatAssessment, Modifier, Reason, chart_of
from ...referee.combat import distribution_of
from ...referee.combat_chart import CombatResult, SideResult
from ...referee.combat_strength import Combat, terrain_modifiers
from ...referee.reasons import Code

#: kind -> (column, side firing, rule, whether retreats count)
FIXED = {"art": ("3-1", "soviet", "13.2", True), "rocket": ("7-1", "soviet", "13.2", True),
         "bomber": ("8-1", "german", "13.3", False)}
HILL = "hill"


def _keep(result: CombatResult, retreats: bool) -> CombatResult:
    """The defender's part of a CRT cell (13.2), without its retreat for the bomber (13.3)."""
    defender = result.defender if retreats else dataclasses.replace(result.defender, retreat=())
    if defender.empty:
        return CombatResult("-")
    text = re.sub(r"^A[^D]*", "", result.text)          # "A1" and the like: the attacker's part
    if not retreats:
        text = re.sub(r"R\d*$", "", text)
    return CombatResult(text or "-", SideResult(), defender)


def fixed_chart(game, kind: str):
    """The game's CRT as a fixed-column attack of ``kind`` reads it."""
    retreats = FIXED[kind][3]
    chart = chart_of(game, "combat_results")
    rows = [(lo, hi, [_keep(r, retreats) for r in results]) for lo, hi, results in chart.rows]
    return dataclasses.replace(chart, rows=rows, dice="1d6", dice_by_side={}, reroll={})


def _spotted(pos, side: str, hex, spotters) -> list[Reason]:
    grid = pos.map.grid
    out = []
    for u in spotters:
        if u.side != side or u.hex is None or u.counter.kind not in ("unit", "hq"):
            out.append(Reason(Code.CANNOT_ATTACK, "13.2", f"{u.id} is not a {side} combat unit or HQ on the map",
                              u.hex, (u.id,)))
            continue
        d = grid.distance(u.hex, hex)
        hill = pos.map.terrain(u.hex) == HILL and u.counter.kind == "unit"
        if d != 1 and not (d == 2 and hill):
            out.append(Reason(Code.NOT_ADJACENT, "13.2", f"{u.id} in {pos.map.format(u.hex)} is {d} hexes from "
                              f"{pos.map.format(hex)}: artillery fires next to a Soviet unit, or two hexes from one "
                              "on a hill", u.hex, (u.id,)))
    return out


def fixed_attack(rs, pos, attacker_ids, defender_hex, context) -> CombatAssessment:
    """The assessment of a fixed-column attack ``context["fixed"]`` (module docstring)."""
    kind = context.get("fixed")
    if kind not in FIXED:
        raise RulesError(f"fixed is one of {', '.join(FIXED)}, not {kind!r}")
    if isinstance(defender_hex, (list, tuple)) and not hasattr(defender_hex, "col"):
        raise RulesError("a fixed-column attack is on one hex")
    if defender_hex not in pos.map.grid:
        raise RulesError(f"hex {defender_hex} is not on map {pos.map_id}")
    column, side, rule, _ = FIXED[kind]
    spotters = pos.units_of(attacker_ids) if attacker_ids else []
    chart = fixed_chart(pos.game, kind)
    defenders = [u for u in pos.at(defender_hex) if u.side not in (side, None) and not u.counter.is_marker]
    combat = Combat(pos, rs, spotters, defenders, defender_hex, (), context)
    refusals: list[Reason] = []
    if not any(u.counter.kind == "unit" for u in defenders):
        refusals.append(Reason(Code.NO_DEFENDER, rule, f"{pos.map.format(defender_hex)} holds no enemy combat unit "
                               "(a lone HQ is never attacked, 12.1)", defender_hex))
    if kind != "bomber":
        if pos.turn == 1:
            refusals.append(Reason(Code.CANNOT_ATTACK, "13.1", "no ART chit on turn 1", defender_hex))
        if not spotters:
            refusals.append(Reason(Code.CANNOT_ATTACK, rule, "name the Soviet unit next to the hex (or two hexes "
                                   "from it on a hill) that the artillery fires by", defender_hex))
        refusals += _spotted(pos, side, defender_hex, spotters)
    from .limits import fixed_refusals, stuka_refusals
    refusals += fixed_refusals(pos, kind, context, defender_hex)
    refusals += stuka_refusals(pos, side, context, defender_hex)
    mods = [Modifier("note", 0, rule, f"{kind} attack on the {column} column, a d6, "
                     + ("attacker results ignored" if FIXED[kind][3] else "attacker results and retreats ignored"))]
    mods += [m for m in terrain_modifiers(combat) if m.kind == "shift"]
    if context.get("stuka") == "defence" and side == "soviet":
        mods.append(Modifier("shift", -2, "9.3.4", "Stuka with the German defence: 2 left (notes 14.4.16)", None, (),
                             "defender"))
    shift = sum(int(m.value) for m in mods if m.kind == "shift")
    start = chart.columns.index(column)
    col = min(max(start + shift, 0), len(chart.columns) - 1)
    distribution, results, columns, expected = {}, {}, {}, {"attacker": Fraction(0), "defender": Fraction(0)}
    legal = not refusals
    if legal:
        totals = {"attacker": sorted(u.steps for u in spotters), "defender": sorted(u.steps for u in defenders)}
        distribution, results, columns, expected = distribution_of(chart, rs.combat, start, col - start, 0, [],
                                                                   totals, side, "1d6")
    return CombatAssessment(
        attackers=tuple(u.id for u in spotters), defender_hex=defender_hex, defenders=tuple(u.id for u in defenders),
        legal=legal, refusals=refusals, attack=Fraction(0), defence=Fraction(0), ratio=f"{kind} {column}",
        odds=column, column=chart.columns[col], shift=col - start, modifiers=mods, drm=0, distribution=distribution,
        results=results, expected_steps=expected, column_distribution=columns, random=[], supports=(), chart=chart,
        rule=rule, side=side, defender_hexes=(defender_hex,), dice="1d6", _plan=(start, col - start, 0),
        context=dict(context))
