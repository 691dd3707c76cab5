"""Combat: from a proposed attack to the exact distribution of its results, and a seeded roll.

:func:`assess_combat` checks who may attack (:class:`Reason` refusals), adds up both sides'
strengths with the TEC's effects and statuses, finds the odds (or difference) column rounded
in the defender's favour, applies every column shift and die-roll modifier (each a
:class:`Modifier` citing its rule: terrain, hexsides, statuses, weather, supports, the game's
``combat_modifiers`` hook, chits passed in the context), and sums the CRT exactly over the
dice, random column shifts included (VV quality rolls): every result's probability is a
:class:`~fractions.Fraction` and they add up to 1. :func:`roll_combat` rolls the dice (from a
seed, or a given roll) and writes one log line that lets a play-by-e-mail opponent check it.
"""

from __future__ import annotations

import random
import re
import secrets
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import RulesError
from ..hexes import Hex
from .combat_chart import _bounds, CombatChart, CombatResult, chart_of, dice_distribution, parse_dice, shift_distribution
from .combat_strength import (Combat, Modifier, Support, crossings, shift_text, status_weather_modifiers, strengths,
                              terrain_modifiers)
from .position import Position
from .reasons import Code, Reason

__all__ = ["CombatAssessment", "CombatRoll", "Modifier", "Support", "assess_combat", "roll_combat"]

ROLES = ("attacker", "defender")


@dataclass
class CombatAssessment:
    """The referee's view of one proposed attack (see :func:`assess_combat`).

    ``odds`` is the column of the bare strengths, ``column`` the column after the fixed shifts
    (random shifts, if the game has them, spread it: ``column_distribution``); ``shift`` is the
    net fixed shift; ``drm`` the die-roll modifier. ``distribution`` maps each result text to
    its exact probability; ``results`` reads each text; ``expected_steps`` is the mean number of
    steps each side's result calls for (a requirement a player may fill by retreating counts
    as a step; an elimination counts the side's steps; ZOC losses on a retreat are not in it).
    """

    attackers: tuple[str, ...]
    defender_hex: Hex
    defenders: tuple[str, ...]
    legal: bool
    refusals: list[Reason]
    attack: Fraction
    defence: Fraction
    ratio: str
    odds: str | None
    column: str | None
    shift: int
    modifiers: list[Modifier]
    drm: int
    distribution: dict[str, Fraction]
    results: dict[str, CombatResult]
    expected_steps: dict[str, Fraction]
    column_distribution: dict[str, Fraction]
    random: list[dict]
    supports: tuple[Support, ...]
    chart: CombatChart
    rule: str | None = None
    #: internal: (start column index, fixed shift, drm) for roll_combat
    _plan: tuple = field(default=(None, 0, 0), repr=False)
    _random_parts: list = field(default_factory=list, repr=False)

    def to_dict(self, fmt=None) -> dict:
        """JSON-ready form (fractions and strengths as strings; docs/referee.md)."""
        fmt = fmt or (lambda h: f"{h[0]},{h[1]}")
        return {
            "attackers": list(self.attackers), "defender_hex": fmt(self.defender_hex),
            "defenders": list(self.defenders), "legal": self.legal,
            "refusals": [r.to_dict(fmt) for r in self.refusals],
            "attack": _s(self.attack), "defence": _s(self.defence), "ratio": self.ratio, "odds": self.odds,
            "shift": self.shift, "column": self.column, "drm": self.drm,
            "modifiers": [m.to_dict(fmt) for m in self.modifiers],
            "random": self.random, "supports": [s.to_dict() for s in self.supports],
            "crt": {"name": self.chart.name, "rule": self.chart.rule, "dice": self.chart.dice, "kind": self.chart.kind,
                    "estimated": self.chart.estimated},
            "column_distribution": {k: _s(v) for k, v in self.column_distribution.items()},
            "distribution": {k: _s(v) for k, v in self.distribution.items()},
            "results": {k: {"attacker": r.attacker.describe(), "defender": r.defender.describe(), **r.to_dict()}
                        for k, r in self.results.items()},
            "expected_steps": {k: _s(v) for k, v in self.expected_steps.items()},
        }


@dataclass
class CombatRoll:
    """One resolved combat: the ``dice`` rolled (name -> value), the CRT ``roll`` and its
    modified value, the ``column`` read, the ``result``, the ``seed`` and the ``log`` line."""

    dice: dict
    roll: int
    modified: int
    column: str
    result: CombatResult
    seed: int | None
    log: str

    def to_dict(self) -> dict:
        return {"dice": self.dice, "roll": self.roll, "modified": self.modified, "column": self.column,
                "result": {"attacker": self.result.attacker.describe(), "defender": self.result.defender.describe(),
                           **self.result.to_dict()},
                "seed": self.seed, "log": self.log}


def _s(x) -> str:
    return str(Fraction(x))


def _defenders(pos: Position, side: str | None, hex: Hex) -> list:
    return [u for u in pos.at(hex) if u.side not in (side, None) and not u.counter.is_marker]


def _legality(combat: Combat) -> list[Reason]:
    pos, rs = combat.pos, combat.rs
    cr = rs.combat
    grid = pos.map.grid
    out: list[Reason] = []
    fmt = pos.map.format
    sides = {u.side for u in combat.attackers}
    if len(sides) > 1:
        out.append(Reason(Code.CANNOT_ATTACK, cr.rule, "units of different sides cannot attack together", None,
                          tuple(u.id for u in combat.attackers)))
    if not combat.defenders:
        out.append(Reason(Code.NO_DEFENDER, cr.rule, f"{fmt(combat.defender_hex)} holds no enemy unit to attack",
                          combat.defender_hex))
    from .board import NO, board_of
    board = board_of(pos.map)
    for u in combat.attackers:
        ids = (u.id,)
        if u.hex is None:
            out.append(Reason(Code.NOT_ON_MAP, cr.rule, f"{u.id} is not on the map", None, ids))
            continue
        if u.counter.is_marker:
            out.append(Reason(Code.CANNOT_ATTACK, cr.rule, f"{u.id} is a marker, not a unit", u.hex, ids))
            continue
        if cr.adjacent and not grid.adjacent(u.hex, combat.defender_hex):
            out.append(Reason(Code.NOT_ADJACENT, cr.rule, f"{u.id} in {fmt(u.hex)} is not next to "
                              f"{fmt(combat.defender_hex)}", u.hex, ids))
            continue
        statuses = combat.statuses(u, "attacker")
        for status in cr.no_attack_status:
            if status in statuses:
                out.append(Reason(Code.CANNOT_ATTACK, cr.status_rule,
                                  f"{u.id} is {status.replace('_', ' ')} and cannot attack", u.hex, ids))
        value = u.value(cr.attack_value, 0)
        if not isinstance(value, (int, Fraction)) or isinstance(value, bool) or value <= 0:
            out.append(Reason(Code.CANNOT_ATTACK, cr.rule, f"{u.id} has no attack strength", u.hex, ids))
        if not cr.across_prohibited and grid.adjacent(u.hex, combat.defender_hex):
            k = board.k_of(u.hex, combat.defender_hex)
            costs = board.side_costs(rs.unit_class(pos, u), pos.current_weather, rs.movement.bridges_ignore_hexsides)
            if k is not None and costs.get(k) == NO:
                out.append(Reason(Code.PROHIBITED_HEXSIDE, cr.rule, f"{u.id} may not attack across a hexside it "
                                  "may not cross", u.hex, ids))
    out.extend(rs.attack_refusals(pos, combat))
    return out


def _points_table(game, name: str) -> dict:
    data = game.charts.get(name)
    points = data.get("points") if isinstance(data, dict) else None
    if not isinstance(points, dict):
        raise RulesError(f"game {game.id} has no support chart charts.{name} with points -> columns")
    return points


def _chart_columns(table: dict, points: int) -> int:
    if points <= 0:
        return 0
    best = 0
    for label, cols in table.items():
        m = re.fullmatch(r"\s*(\d+)\s*(\+)?\s*", str(label))
        if m and (points == int(m[1]) or (m[2] and points >= int(m[1]))):
            best = int(cols)
    return best


def _supports(combat: Combat) -> tuple[list[Modifier], list[Reason]]:
    pos, rs = combat.pos, combat.rs
    cr = rs.combat
    grid = pos.map.grid
    mods: list[Modifier] = []
    refusals: list[Reason] = []
    totals: dict[tuple[str, str], int] = {}
    by_chart: dict[str, dict[str, int]] = {}
    where: dict[tuple[str, str], list] = {}
    for s in combat.supports:
        rules = cr.supports.get(s.kind)
        if rules is None:
            known = ", ".join(cr.supports) or "none"
            raise RulesError(f"unknown support {s.kind!r}; this game's supports: {known}")
        if s.side not in ROLES:
            raise RulesError(f"support side must be attacker or defender, not {s.side!r}")
        if s.side not in rules.sides:
            refusals.append(Reason(Code.SUPPORT_REFUSED, rules.rule, f"{s.kind} may not support the {s.side}"))
            continue
        points, hex = s.points, None
        if rules.unit_types:
            if not s.unit:
                raise RulesError(f"{s.kind} support comes from a unit: name it ({s.kind}:UNIT)")
            unit = pos.unit(s.unit)
            hex = unit.hex
            own = combat.attacker_side if s.side == "attacker" else next(
                (d.side for d in combat.defenders), None)
            why = None
            if unit.type not in rules.unit_types:
                why = f"{unit.id} ({unit.type}) is not a {s.kind} unit"
            elif unit.side != own:
                why = f"{unit.id} is not on the {s.side}'s side"
            elif unit.hex is None:
                why = f"{unit.id} is not on the map"
            elif rules.spent_status and rules.spent_status in unit.status:
                why = f"{unit.id} is {rules.spent_status.replace('_', ' ')}"
            elif rules.range_value:
                rng = unit.value(rules.range_value)
                if isinstance(rng, int) and grid.distance(unit.hex, combat.defender_hex) > rng:
                    why = f"{unit.id} (range {rng}) is out of range of {pos.map.format(combat.defender_hex)}"
            if why:
                refusals.append(Reason(Code.SUPPORT_REFUSED, rules.rule, why, unit.hex, (unit.id,)))
                continue
            if rules.points_value:
                value = unit.value(rules.points_value)
                points = int(value) if isinstance(value, int) else 1
        elif points < 1:
            raise RulesError(f"{s.kind} support needs at least 1 point, not {points}")
        why = rs.check_support(pos, combat, s)
        if why is not None:
            refusals.append(why)
            continue
        key = (s.kind, s.side)
        totals[key] = totals.get(key, 0) + points
        where.setdefault(key, []).append((s, hex))
    for (kind, side), points in totals.items():
        rules = cr.supports[kind]
        if rules.max_points is not None and points > rules.max_points:
            refusals.append(Reason(Code.SUPPORT_REFUSED, rules.rule,
                                   f"the {side} commits {points} {kind} point(s); at most {rules.max_points} per combat"))
            continue
        units = tuple(s.unit for s, _ in where[(kind, side)] if s.unit)
        hex = next((h for _, h in where[(kind, side)] if h is not None), None)
        if rules.chart:
            by_chart.setdefault(rules.chart, {}).setdefault(side, 0)
            by_chart[rules.chart][side] += points
            mods.append(Modifier("note", 0, rules.rule, f"{side} {kind}: {points} point(s) on the "
                                 f"{rules.chart.replace('_', ' ')}", hex, units, side))
            continue
        value = points * rules.shift * (1 if side == "attacker" else -1)
        mods.append(Modifier("shift", value, rules.rule,
                             f"{side} {kind} ({points} point{'s' if points > 1 else ''}"
                             f"{': ' + ', '.join(units) if units else ''}): {shift_text('shift', value)}",
                             hex, units, side))
    for chart, sides in by_chart.items():
        table = _points_table(combat.pos.game, chart)
        a = _chart_columns(table, sides.get("attacker", 0))
        d = _chart_columns(table, sides.get("defender", 0))
        rule = (combat.pos.game.charts.get(chart) or {}).get("rule")
        if a - d:
            mods.append(Modifier("shift", a - d, rule,
                                 f"support: attacker {sides.get('attacker', 0)} point(s) = {a} column(s), defender "
                                 f"{sides.get('defender', 0)} = {d}: {shift_text('shift', a - d)}",
                                 None, (), "attacker" if a > d else "defender"))
    return mods, refusals


def _signed_int(value) -> int:
    text = str(value).strip().replace("−", "-").replace("–", "-")
    if text in ("", "-", "0", "none"):
        return 0
    return int(text)


def _random_parts(combat: Combat) -> tuple[list, list[dict]]:
    """Per random shift and side: ``{shift (attacker's favour): probability}`` and a JSON note."""
    pos, cr = combat.pos, combat.rs.combat
    parts, notes = [], []
    for rsh in cr.random_shifts:
        data = pos.game.charts.get(rsh.chart)
        if not isinstance(data, dict) or "columns" not in data or "rows" not in data:
            raise RulesError(f"game {pos.game.id} has no chart charts.{rsh.chart} for {rsh.name}")
        columns = [str(c) for c in data["columns"]]
        for role in rsh.sides:
            units = combat.attackers if role == "attacker" else combat.defenders
            values = [str(u.value(rsh.value)) for u in units if str(u.value(rsh.value)) in columns]
            if not values:
                continue
            col = min(columns.index(v) for v in values)
            sign = 1 if role == "attacker" else -1
            by_roll = {}
            dist: dict[int, Fraction] = {}
            for roll, p in dice_distribution(rsh.dice).items():
                row = data["rows"].get(roll, data["rows"].get(str(roll)))
                if row is None:
                    raise RulesError(f"charts.{rsh.chart} has no row {roll}")
                shift = _signed_int(row[col])
                by_roll[roll] = shift
                dist[sign * shift] = dist.get(sign * shift, Fraction(0)) + p
            parts.append(dist)
            notes.append({"name": rsh.name, "side": role, "rule": rsh.rule, "column": columns[col], "dice": rsh.dice,
                          "shifts": {str(r): s for r, s in by_roll.items()}})
    return parts, notes


def _place(chart: CombatChart, cr, start: int, shift: int) -> tuple[int, int]:
    """``(column index, extra DRM)`` of the start column moved ``shift`` columns."""
    i = start + shift
    if i < 0:
        return 0, (cr.below_drm or 0)
    return min(i, len(chart.columns) - 1), 0


def _steps(res: CombatResult, role: str, totals: dict[str, int]) -> int:
    side = res.side(role)
    if side.eliminated:
        return totals[role]
    n = side.steps + side.requirements
    if side.exchange:
        other = "defender" if role == "attacker" else "attacker"
        o = res.side(other)
        n += totals[other] if o.eliminated else o.steps + o.requirements
    return min(n, totals[role]) if totals[role] else n


def assess_combat(pos: Position, rs, attacker_ids, defender_hex: Hex, *, supports=(), context=None) -> CombatAssessment:
    """Assess an attack by ``attacker_ids`` (one id or several) on ``defender_hex``.

    ``supports`` are :class:`Support` entries (or ``(kind, side, points)`` tuples);
    ``context`` goes to the ruleset's hooks; its ``"modifiers"`` entries (dicts with ``kind``
    "shift" or "drm", ``value``, ``rule``, ``text``) add declared shifts such as event chits.
    Unknown units or kinds of support raise :class:`RulesError`; a rule that forbids the attack
    gives ``legal=False`` with the refusals (the distribution is then empty).
    """
    attackers = pos.units_of(attacker_ids)
    if not attackers:
        raise RulesError("no attacking unit given")
    if defender_hex not in pos.map.grid:
        raise RulesError(f"hex {defender_hex} is not on map {pos.map_id}")
    sup = tuple(s if isinstance(s, Support) else Support(*s) for s in supports)
    chart = chart_of(pos.game, rs.combat.crt)
    cr = rs.combat
    side = attackers[0].side
    defenders = _defenders(pos, side, defender_hex)
    combat = Combat(pos, rs, attackers, defenders, defender_hex, sup, dict(context or {}))
    combat.crossing = crossings(pos, attackers, defender_hex)
    refusals = _legality(combat)
    attack, defence, mods, more = strengths(combat)
    refusals += more
    mods += terrain_modifiers(combat) + status_weather_modifiers(combat)
    support_mods, support_refusals = _supports(combat)
    mods += support_mods
    refusals += support_refusals
    mods += list(rs.combat_modifiers(pos, combat))
    for extra in combat.context.get("modifiers", ()):
        mods.append(Modifier(str(extra.get("kind", "shift")), int(extra.get("value", 0)), extra.get("rule"),
                             str(extra.get("text", "declared modifier")), None, (), extra.get("side")))
    if attack <= 0 and not any(r.code == Code.CANNOT_ATTACK for r in refusals) and defenders:
        refusals.append(Reason(Code.CANNOT_ATTACK, cr.strength_rule or cr.rule, "the attack strength is 0",
                               defender_hex, tuple(u.id for u in attackers)))
    start = chart.column_of(attack, defence) if defenders else None
    odds = chart.columns[start] if start is not None else None
    if defenders and cr.minimum_odds is not None:
        minimum = _bounds([cr.minimum_odds], chart.kind)[0]
        value = (attack / defence if defence else None) if chart.kind == "odds" else attack - defence
        if value is not None and value < minimum:
            refusals.append(Reason(Code.ODDS_TOO_LOW, cr.minimum_rule or cr.odds_rule,
                                   f"initial odds {chart.ratio_text(attack, defence)} are worse than {cr.minimum_odds}",
                                   defender_hex, tuple(u.id for u in attackers)))
    if start is None and defenders:
        if cr.below_table == "refuse":
            refusals.append(Reason(Code.ODDS_TOO_LOW, cr.odds_rule,
                                   f"{chart.ratio_text(attack, defence)} is below the first column "
                                   f"({chart.columns[0]})", defender_hex, tuple(u.id for u in attackers)))
        start = 0
        mods.insert(0, Modifier("note", 0, cr.odds_rule, f"{chart.ratio_text(attack, defence)} is below the "
                                f"first column: read at {chart.columns[0]}"))
    shift = sum(int(m.value) for m in mods if m.kind == "shift")
    if cr.max_shift is not None and abs(shift) > cr.max_shift:
        capped = cr.max_shift if shift > 0 else -cr.max_shift
        mods.append(Modifier("note", 0, cr.shift_rule, f"net shift {shift:+d} capped at {capped:+d}"))
        shift = capped
    drm = sum(int(m.value) for m in mods if m.kind == "drm")
    parts, notes = _random_parts(combat) if defenders else ([], [])
    for note in notes:
        mods.append(Modifier("random", 0, note["rule"], f"{note['side']} rolls {note['dice']} on the {note['name']} "
                             f"table, column {note['column']}", None, (), note["side"]))
    distribution: dict[str, Fraction] = {}
    results: dict[str, CombatResult] = {}
    columns: dict[str, Fraction] = {}
    expected = {"attacker": Fraction(0), "defender": Fraction(0)}
    column = None
    legal = not refusals
    if start is not None:
        col, _ = _place(chart, cr, start, shift)
        column = chart.columns[col]
    if legal and start is not None:
        totals = {"attacker": sum(u.steps for u in attackers), "defender": sum(u.steps for u in defenders)}
        crt_dice = dice_distribution(chart.dice)
        for r, p in sorted(shift_distribution(parts).items()):
            col, extra = _place(chart, cr, start, shift + r)
            columns[chart.columns[col]] = columns.get(chart.columns[col], Fraction(0)) + p
            for roll, q in crt_dice.items():
                res = chart.result(roll + drm + extra, col)
                results.setdefault(res.text, res)
                distribution[res.text] = distribution.get(res.text, Fraction(0)) + p * q
        for text, p in distribution.items():
            for role in ROLES:
                expected[role] += p * _steps(results[text], role, totals)
    return CombatAssessment(
        attackers=tuple(u.id for u in attackers), defender_hex=defender_hex, defenders=tuple(u.id for u in defenders),
        legal=legal, refusals=refusals, attack=attack, defence=defence, ratio=chart.ratio_text(attack, defence),
        odds=odds, column=column, shift=shift, modifiers=mods, drm=drm, distribution=distribution, results=results,
        expected_steps=expected, column_distribution=columns, random=notes, supports=sup, chart=chart, rule=cr.rule,
        _plan=(start, shift, drm), _random_parts=notes)


def roll_combat(pos: Position, rs, assessment: CombatAssessment, *, seed: int | None = None,
                roll: int | None = None, rolls: dict | None = None) -> CombatRoll:
    """Roll one legal combat: the CRT dice (``roll`` if given, else from ``seed``) and each
    random shift's dice (``rolls`` by ``"<side> <name>"``, else from the seed). Without a seed a
    fresh one is drawn and logged, so the roll can be replayed and audited."""
    if not assessment.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in assessment.refusals))
    chart = assessment.chart
    start, shift, drm = assessment._plan
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    rng = random.Random(seed)
    n, sides = parse_dice(chart.dice)
    rolled = [rng.randint(1, sides) for _ in range(n)]
    if roll is not None:
        if not n <= roll <= n * sides:
            raise RulesError(f"a roll of {chart.dice} is {n} to {n * sides}, not {roll}")
        rolled = [roll]
    dice: dict = {"crt": sum(rolled)}
    given = dict(rolls or {})
    extra_shift = 0
    for note in assessment._random_parts:
        name = f"{note['side']} {note['name']}"
        k, s = parse_dice(note["dice"])
        value = given.pop(name, None)
        value = sum(rng.randint(1, s) for _ in range(k)) if value is None else int(value)
        if str(value) not in note["shifts"]:
            raise RulesError(f"a roll of {note['dice']} for {name} is {k} to {k * s}, not {value}")
        dice[name] = value
        shift_value = note["shifts"][str(value)]
        extra_shift += shift_value if note["side"] == "attacker" else -shift_value
    if given:
        raise RulesError(f"no such roll in this combat: {', '.join(given)}")
    col, extra = _place(chart, rs.combat, start, shift + extra_shift)
    total = sum(rolled)
    modified = total + drm + extra
    result = chart.result(modified, col)
    fmt = pos.map.format
    extras = "".join(f", {k} {v}" for k, v in dice.items() if k != "crt")
    log = (f"combat {','.join(assessment.attackers)} -> {fmt(assessment.defender_hex)} "
           f"({','.join(assessment.defenders)}): {assessment.ratio} = {assessment.odds}, shift {shift:+d}"
           f"{extras}, column {chart.columns[col]}, {chart.dice} {total}"
           f"{f' {drm + extra:+d} = {modified}' if drm + extra else ''}: {result.text} [seed {seed}]")
    return CombatRoll(dice, total, modified, chart.columns[col], result, seed, log)
