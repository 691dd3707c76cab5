"""Combat supports and random shifts: artillery points, air missions and supporting units
(:class:`~toolkit.referee.parts.SupportRules`, each checked and turned into column shifts,
directly or netted on a points chart), and the die rolls that shift the column before the CRT
(:class:`~toolkit.referee.parts.RandomShift`, VV quality) as exact distributions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..errors import RulesError
from .combat_chart import dice_distribution
from .combat_strength import Combat, Modifier, shift_text
from .reasons import Code, Reason, refusal

ROLES = ("attacker", "defender")


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


def support_modifiers(combat: Combat) -> tuple[list[Modifier], list[Reason]]:
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
            elif unit.hex is None and rules.range_value:
                why = f"{unit.id} is not on the map"
            elif rules.spent_status and rules.spent_status in unit.status:
                why = f"{unit.id} is {rules.spent_status.replace('_', ' ')}"
            elif rules.range_value and unit.hex is not None:
                rng = unit.value(rules.range_value)
                if isinstance(rng, int) and min(grid.distance(unit.hex, d) for d in combat.defender_hexes) > rng:
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
        if hex is None and s.via:
            hex = pos.unit(s.via).hex         # the HQ allocating it
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
        if rules.adds == "strength":          # the points join the side's total (assess_combat adds them)
            role = "attack" if side == "attacker" else "defence"
            mods.append(Modifier(role, points, rules.rule, f"{side} {kind} ({', '.join(units) or points}): "
                                 f"+{points} {role}", hex, units, side))
            continue
        if rules.chart:
            by_chart.setdefault(rules.chart, {}).setdefault(side, 0)
            by_chart[rules.chart][side] += points
            title = (combat.pos.game.charts.get(rules.chart) or {}).get("title") or rules.chart.replace("_", " ")
            mods.append(Modifier("note", 0, rules.rule, f"{side} {kind}: {points} point(s) on the {title}",
                                 hex, units, side))
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


def random_parts(combat: Combat) -> tuple[list, list[dict]]:
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


@dataclass(frozen=True)
class SpecialOption:
    """One effect a special result (``*``) may take: every participating support unit of
    ``kind`` takes ``status``, named as the rules name it (Demyansk 12.23a: "All participating
    artillery units are turned to Fired [10.41]")."""

    kind: str
    units: tuple[str, ...]
    status: str
    rule: str | None = None

    @property
    def text(self) -> str:
        return f"all participating {self.kind} units are turned to {self.status.replace('_', ' ').title()}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "units": list(self.units), "status": self.status, "rule": self.rule,
                "text": self.text}


def _special_kinds(rs, assessment) -> dict[str, dict[str, list[str]]]:
    """Per role and support kind with a spent status: the units that gave it."""
    by_role: dict[str, dict[str, list[str]]] = {}
    for s in assessment.supports:
        rules = rs.combat.supports.get(s.kind)
        if s.unit and rules is not None and rules.spent_status:
            by_role.setdefault(s.side, {}).setdefault(s.kind, []).append(s.unit)
    return by_role


def special_choices(rs, assessment, result) -> dict[str, tuple[SpecialOption, ...]]:
    """The choices ``result`` leaves to an owner: per role whose special result (``*``) falls on
    several kinds of participating support units (``spent_on="special"``), the options, one of
    which the owner names (``spend_supports``'s ``special``; Demyansk 12.23a). Roles with one
    kind or none (12.23b, c) are not asked."""
    cr = rs.combat
    out = {}
    for role, kinds in _special_kinds(rs, assessment).items():
        optional = [k for k in kinds if cr.supports[k].spent_on == "special"]
        if result.side(role).special and len(optional) > 1:
            out[role] = tuple(SpecialOption(k, tuple(kinds[k]), cr.supports[k].spent_status,
                                            cr.supports[k].spent_rule) for k in optional)
    return out


def spend_supports(pos, rs, assessment, result, special=None) -> list[str]:
    """Mark the support units of ``assessment`` spent in ``pos`` (their kind's ``spent_status``)
    after ``result``; the log lines. Kinds with ``spent_on="use"`` are spent by every combat
    they give; kinds with ``spent_on="special"`` only by a special result (``*``) of their side,
    and when several such kinds took part, only the one the owner names in ``special`` (role
    -> kind; Demyansk 12.23a), a kind alone is spent without asking (12.23b) and none taking
    part means no effect (12.23c). A choice that is missing or does not fit is refused."""
    cr = rs.combat
    if special is not None and not isinstance(special, dict):
        raise RulesError(f"a special result choice is role -> kind (special:attacker=artillery), not {special!r}")
    special = dict(special or {})
    wrong = set(special) - set(ROLES)
    if wrong:
        raise RulesError(f"a special result is the attacker's or the defender's, not {', '.join(sorted(wrong))}")
    by_role = _special_kinds(rs, assessment)
    log = []
    for role in ROLES:
        kinds = by_role.get(role, {})
        spend = [k for k in kinds if cr.supports[k].spent_on != "special"]
        optional = [k for k in kinds if cr.supports[k].spent_on == "special"]
        starred = result.side(role).special
        chosen = special.get(role)
        if chosen is not None and not (starred and len(optional) > 1):
            why = (f"the result {result.text} gives the {role} no special result" if not starred else
                   f"the {role}'s special result falls on {optional[0]} without a choice" if optional else
                   f"none of the {role}'s support units took part: the special result has no effect")
            raise refusal(Code.COMBAT_CHOICE, cr.special_rule, f"special result choice {chosen!r}: {why}", None,
                          tuple(u for k in optional for u in kinds[k]))
        if starred and len(optional) > 1:
            if chosen not in optional:
                raise refusal(Code.COMBAT_CHOICE, cr.special_rule,
                              f"the {role} must choose which support units the special result of {result.text} "
                              f"spends: {' or '.join(f'{k} (' + ', '.join(kinds[k]) + ')' for k in optional)}"
                              + (f", not {chosen!r}" if chosen is not None else ""),
                              None, tuple(u for k in optional for u in kinds[k]))
            spend.append(chosen)
        elif starred and optional:
            spend.append(optional[0])
        elif starred and cr.special_rule and any(cr.supports[k].spent_on == "special" for k in cr.supports):
            log.append(f"the {role}'s special result has no effect: no support unit took part "
                       f"(rule {cr.special_rule})")
        for kind in spend:
            status = cr.supports[kind].spent_status
            for uid in kinds[kind]:
                if status not in pos.unit(uid).status:
                    pos.unit(uid).status.add(status)
                    how = f"special result, rule {cr.special_rule}" if kind in optional else "support"
                    log.append(f"{uid} is {status.replace('_', ' ')} ({kind} {how})")
    pos.touch()
    return log
