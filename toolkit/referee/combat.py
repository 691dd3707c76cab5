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
import secrets
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import RulesError
from ..hexes import Hex
from .combat_chart import CombatChart, CombatResult, SideResult, _bounds, chart_of, parse_dice, shift_distribution
from .combat_strength import Combat, Modifier, Support, crossings, status_weather_modifiers, strengths, terrain_modifiers
from .combat_support import random_parts, support_modifiers
from .position import Position
from .reasons import Code, Reason

__all__ = ["CombatAssessment", "CombatRoll", "Modifier", "Support", "assess_combat", "check_combat_context",
           "roll_combat"]

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
    side: str | None = None
    defender_hexes: tuple = ()
    #: the dice rolled on the CRT when the ruleset's ``combat_dice`` replaces the chart's (None: the chart's)
    dice: str | None = None
    #: the ``context`` the attack was assessed with (a ruleset's ``after_combat`` reads it: chits, segments)
    context: dict = field(default_factory=dict, repr=False)
    #: internal: (start column index, fixed shift, drm) for roll_combat
    _plan: tuple = field(default=(None, 0, 0), repr=False)
    _random_parts: list = field(default_factory=list, repr=False)

    def to_dict(self, fmt=None) -> dict:
        """JSON-ready form (fractions and strengths as strings; docs/referee.md)."""
        fmt = fmt or (lambda h: f"{h[0]},{h[1]}")
        return {
            "attackers": list(self.attackers), "defender_hex": fmt(self.defender_hex),
            "defender_hexes": [fmt(h) for h in (self.defender_hexes or (self.defender_hex,))],
            "defenders": list(self.defenders), "legal": self.legal,
            "refusals": [r.to_dict(fmt) for r in self.refusals],
            "attack": _s(self.attack), "defence": _s(self.defence), "ratio": self.ratio, "odds": self.odds,
            "shift": self.shift, "column": self.column, "drm": self.drm,
            "modifiers": [m.to_dict(fmt) for m in self.modifiers],
            "random": self.random, "supports": [s.to_dict() for s in self.supports],
            "crt": {"name": self.chart.name, "rule": self.chart.rule, "dice": self.dice or self.chart.dice_for(self.side),
                    "reroll": [] if self.dice else list(self.chart.rerolls_for(self.side)), "kind": self.chart.kind,
                    "estimated": self.chart.estimated},
            "column_distribution": {k: _s(v) for k, v in self.column_distribution.items()},
            "distribution": {k: _s(v) for k, v in self.distribution.items()},
            "results": {k: r.to_dict() for k, r in self.results.items()},
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
                "result": self.result.to_dict(),
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
    hexes = combat.defender_hexes
    for d in hexes:
        if not any(u.hex == d for u in combat.defenders):
            out.append(Reason(Code.NO_DEFENDER, cr.rule, f"{fmt(d)} holds no enemy unit to attack", d))
    if len(hexes) > 1:
        if cr.multi_hex is None:
            out.append(Reason(Code.CANNOT_ATTACK, cr.multi_hex_rule or cr.rule,
                              "an attack is against one hex in this game", hexes[1]))
        elif pos.current_weather in cr.multi_hex_not_weathers:
            out.append(Reason(Code.CANNOT_ATTACK, cr.multi_hex_rule or cr.rule,
                              f"no attack on several hexes in {pos.current_weather} weather", hexes[1]))
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
        if u.type in cr.ranged_types:
            rng = u.value(cr.range_value)
            if not isinstance(rng, int) or min(grid.distance(u.hex, d) for d in hexes) > rng:
                out.append(Reason(Code.NOT_ADJACENT, cr.rule, f"{u.id} in {fmt(u.hex)} (range {rng}) is out of range "
                                  f"of {'+'.join(fmt(d) for d in hexes)}", u.hex, ids))
                continue
        elif cr.adjacent:
            near = [d for d in hexes if grid.adjacent(u.hex, d)]
            need_all = len(hexes) > 1 and cr.multi_hex == "all-adjacent"
            if not near or (need_all and len(near) < len(hexes)):
                far = [d for d in hexes if d not in near]
                out.append(Reason(Code.NOT_ADJACENT, cr.multi_hex_rule if need_all and near else cr.rule,
                                  f"{u.id} in {fmt(u.hex)} is not next to {'+'.join(fmt(d) for d in far)}",
                                  u.hex, ids))
                continue
        statuses = combat.statuses(u, "attacker")
        for status in cr.no_attack_status:
            if status in statuses:
                out.append(Reason(Code.CANNOT_ATTACK, cr.status_rule,
                                  f"{u.id} is {status.replace('_', ' ')} and cannot attack", u.hex, ids))
        value = cr.strength(u, "attack")
        if not isinstance(value, (int, Fraction)) or isinstance(value, bool) or value <= 0:
            out.append(Reason(Code.CANNOT_ATTACK, cr.rule, f"{u.id} has no attack strength", u.hex, ids))
        for d in hexes:
            if cr.across_prohibited or not grid.adjacent(u.hex, d):
                continue
            k = board.k_of(u.hex, d)
            costs = board.side_costs(rs.unit_class(pos, u), pos.current_weather, rs.movement.bridges_ignore_hexsides)
            if k is not None and costs.get(k) == NO:
                out.append(Reason(Code.PROHIBITED_HEXSIDE, cr.rule, f"{u.id} may not attack across a hexside it "
                                  "may not cross", u.hex, ids))
    out.extend(rs.attack_refusals(pos, combat))
    return out


def _place(chart: CombatChart, cr, start: int, shift: int) -> tuple[int, int]:
    """``(column index, extra DRM)`` of the start column moved ``shift`` columns."""
    i = start + shift
    if i < 0:
        return 0, (cr.below_drm or 0)
    return min(i, len(chart.columns) - 1), 0


def _steps(res: CombatResult, role: str, steps: dict[str, list[int]]) -> int:
    """Steps a result takes from ``role``, whose units have ``steps`` (ascending): units lost
    by the owner's choice count the smallest units."""
    side = res.side(role)
    mine = steps[role]
    total = sum(mine)
    if side.eliminated:
        return total
    n = side.steps + side.requirements
    n += sum(mine[:side.units]) + (sum(mine[:len(mine) // 2]) if side.half_units else 0)
    if side.exchange:
        other = "defender" if role == "attacker" else "attacker"
        n += _steps(CombatResult(res.text, res.side(other), SideResult()), "attacker", {"attacker": steps[other]})
    return min(n, total) if total else n


def distribution_of(chart: CombatChart, cr, start: int, shift: int, drm: int, parts: list, totals: dict,
                    side: str | None = None, dice: str | None = None):
    """``(distribution, results, column distribution, expected steps)`` of a combat read from
    column ``start`` moved ``shift`` columns, with ``drm`` and the random shifts ``parts``
    (each value -> probability), the CRT dice being those of the attacker's ``side``: the
    random shifts are convolved first, so each column is summed over the CRT dice once per net
    random shift."""
    distribution: dict[str, Fraction] = {}
    results: dict[str, CombatResult] = {}
    columns: dict[str, Fraction] = {}
    expected = {"attacker": Fraction(0), "defender": Fraction(0)}
    ways, whole = chart.ways(side, dice)
    for r, p in sorted(shift_distribution(parts).items()):
        col, extra = _place(chart, cr, start, shift + r)
        columns[chart.columns[col]] = columns.get(chart.columns[col], Fraction(0)) + p
        counts: dict[str, int] = {}
        for roll, w in ways.items():
            res = chart.result(roll + drm + extra, col)
            results.setdefault(res.text, res)
            counts[res.text] = counts.get(res.text, 0) + w
        for text, w in counts.items():      # exact: whole ways over the dice, once per result
            distribution[text] = distribution.get(text, Fraction(0)) + p * Fraction(w, whole)
    for text, p in distribution.items():
        for role in ROLES:
            expected[role] += p * _steps(results[text], role, totals)
    return distribution, results, columns, expected


def check_combat_context(rs, context: dict) -> None:
    """Refuse (:class:`RulesError`) a ``context`` key the ruleset's ``CombatRules.context_keys``
    does not declare, or a value outside the ones it allows, naming the key and the choices.
    ``modifiers`` (declared shifts and DRMs) is always allowed; a ruleset that declares nothing
    (``context_keys`` None) is not checked."""
    keys = rs.combat.context_keys
    if keys is None:
        return
    for key, value in context.items():
        if key == "modifiers":
            continue
        if key not in keys:
            known = ", ".join(sorted(keys)) or "none"
            raise RulesError(f"unknown combat context {key!r} for {rs.name}; it knows: {known}")
        allowed = tuple(keys[key] or ())
        if allowed and (isinstance(value, list) or value not in allowed):
            raise RulesError(f"combat context {key} is one of {', '.join(str(v).lower() for v in allowed)}, "
                             f"not {str(value).lower()!r}")


def assess_combat(pos: Position, rs, attacker_ids, defender_hex, *, supports=(), context=None) -> CombatAssessment:
    """Assess an attack by ``attacker_ids`` (one id or several) on ``defender_hex`` (a hex, or
    several hexes attacked together where ``CombatRules.multi_hex`` allows it).

    ``supports`` are :class:`Support` entries (or ``(kind, side, points)`` tuples);
    ``context`` goes to the ruleset's hooks; its ``"modifiers"`` entries (dicts with ``kind``
    "shift" or "drm", ``value``, ``rule``, ``text``) add declared shifts such as event chits.
    Unknown units or kinds of support raise :class:`RulesError`; a rule that forbids the attack
    gives ``legal=False`` with the refusals (the distribution is then empty). ``context["fixed"]``
    names an attack on a fixed column that the ruleset's ``fixed_attack(pos, attacker_ids,
    defender_hex, context)`` method assesses instead (A Victory Denied 13.2: artillery, rockets,
    the bomber).
    """
    model = getattr(rs, "combat_model", None)
    if model is not None:         # a game whose fire is not one odds-and-shift attack (Ruleset.combat_model)
        return model.assess(pos, rs, attacker_ids, defender_hex, supports=supports, context=context)
    if (context or {}).get("fixed") is not None:
        custom = getattr(rs, "fixed_attack", None)
        if custom is None:
            raise RulesError(f"{rs.name} has no fixed-column attacks (context fixed={context['fixed']!r})")
        return custom(pos, attacker_ids, defender_hex, dict(context))
    attackers = pos.units_of(attacker_ids)
    if not attackers:
        raise RulesError("no attacking unit given")
    hexes = tuple(dict.fromkeys(defender_hex if isinstance(defender_hex, (list, tuple)) and
                                not isinstance(defender_hex, Hex) else (defender_hex,)))
    if not hexes:
        raise RulesError("no defender hex given")
    for h in hexes:
        if h not in pos.map.grid:
            raise RulesError(f"hex {h} is not on map {pos.map_id}")
    defender_hex = hexes[0]
    sup = tuple(s if isinstance(s, Support) else Support(*s) for s in supports)
    chart = chart_of(pos.game, rs.combat.crt)
    cr = rs.combat
    side = attackers[0].side
    defenders = [u for h in hexes for u in _defenders(pos, side, h)]
    combat = Combat(pos, rs, attackers, defenders, defender_hex, sup, dict(context or {}), defender_hexes=hexes)
    combat.crossing, combat.crossing_by_hex = crossings(pos, attackers, hexes)
    refusals = _legality(combat)
    attack, defence, mods, more = strengths(combat)
    refusals += more
    mods += terrain_modifiers(combat) + status_weather_modifiers(combat)
    support_mods, support_refusals = support_modifiers(combat)
    mods += support_mods
    refusals += support_refusals
    for m in support_mods:                    # SupportRules.adds="strength": points added to a side's total
        if m.kind == "attack":
            attack += m.value
        elif m.kind == "defence":
            defence += m.value
    mods += list(rs.combat_modifiers(pos, combat))
    for extra in combat.context.get("modifiers", ()):
        mods.append(Modifier(str(extra.get("kind", "shift")), int(extra.get("value", 0)), extra.get("rule"),
                             str(extra.get("text", "declared modifier")), None, (), extra.get("side")))
    if attack <= 0 and not any(r.code == Code.CANNOT_ATTACK for r in refusals) and defenders:
        refusals.append(Reason(Code.CANNOT_ATTACK, cr.strength_rule or cr.rule, "the attack strength is 0",
                               defender_hex, tuple(u.id for u in attackers)))
    start = chart.column_of(attack, defence) if defenders else None
    odds = chart.columns[start] if start is not None else None
    if odds is None and defenders:
        odds = f"<{chart.columns[0]}"
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
        start = -1 if cr.below_table == "below" else 0
        mods.insert(0, Modifier("note", 0, cr.odds_rule, f"{chart.ratio_text(attack, defence)} is below the "
                                f"first column" + (f": read at {chart.columns[0]}" if start == 0 else
                                                   ": shifts count from one column left of it")))
    shift = sum(int(m.value) for m in mods if m.kind == "shift")
    if cr.max_shift is not None and abs(shift) > cr.max_shift:
        capped = cr.max_shift if shift > 0 else -cr.max_shift
        mods.append(Modifier("note", 0, cr.shift_rule, f"net shift {shift:+d} capped at {capped:+d}"))
        shift = capped
    drm = sum(int(m.value) for m in mods if m.kind == "drm")
    parts, notes = random_parts(combat) if defenders else ([], [])
    dice = rs.combat_dice(pos, combat) if defenders else None
    if dice is not None:
        parse_dice(dice)
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
        totals = {"attacker": sorted(u.steps for u in attackers), "defender": sorted(u.steps for u in defenders)}
        distribution, results, columns, expected = distribution_of(chart, cr, start, shift, drm, parts, totals, side,
                                                                   dice)
    return CombatAssessment(
        attackers=tuple(u.id for u in attackers), defender_hex=defender_hex, defenders=tuple(u.id for u in defenders),
        legal=legal, refusals=refusals, attack=attack, defence=defence, ratio=chart.ratio_text(attack, defence),
        odds=odds, column=column, shift=shift, modifiers=mods, drm=drm, distribution=distribution, results=results,
        expected_steps=expected, column_distribution=columns, random=notes, supports=sup, chart=chart, rule=cr.rule,
        side=side, defender_hexes=hexes,
        _plan=(start, shift, drm), _random_parts=notes, dice=dice, context=combat.context)


def roll_combat(pos: Position, rs, assessment: CombatAssessment, *, seed: int | None = None,
                roll: int | None = None, rolls: dict | None = None) -> CombatRoll:
    """Roll one legal combat: the CRT dice (``roll`` if given, else from ``seed``) and each
    random shift's dice (``rolls`` by ``"<side> <name>"``, else from the seed). Without a seed a
    fresh one is drawn and logged, so the roll can be replayed and audited."""
    model = getattr(rs, "combat_model", None)
    if model is not None:
        return model.roll(pos, rs, assessment, seed=seed, roll=roll, rolls=rolls)
    if not assessment.legal:
        raise RulesError("the attack is not legal: " + "; ".join(str(r) for r in assessment.refusals))
    chart = assessment.chart
    start, shift, drm = assessment._plan
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    rng = random.Random(seed)
    text = assessment.dice or chart.dice_for(assessment.side)
    again = set() if assessment.dice else set(chart.rerolls_for(assessment.side))
    n, sides = parse_dice(text)
    rerolled = []
    rolled = [rng.randint(1, sides) for _ in range(n)]
    while sum(rolled) in again and len(rerolled) < 1000:
        rerolled.append(sum(rolled))
        rolled = [rng.randint(1, sides) for _ in range(n)]
    if roll is not None:
        if not n <= roll <= n * sides or roll in again:
            raise RulesError(f"a roll of {text} is {n} to {n * sides}"
                             f"{' (not ' + ', '.join(map(str, sorted(again))) + ': rolled again)' if again else ''}, "
                             f"not {roll}")
        rolled, rerolled = [roll], []
    dice: dict = {"crt": sum(rolled)}
    if rerolled:
        dice["rerolled"] = rerolled
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
    extras = "".join(f", {k} {v}" for k, v in dice.items() if k not in ("crt", "rerolled"))
    again_text = f" (after {', '.join(map(str, rerolled))}, rolled again)" if rerolled else ""
    where = "+".join(fmt(h) for h in (assessment.defender_hexes or (assessment.defender_hex,)))
    log = (f"combat {','.join(assessment.attackers)} -> {where} "
           f"({','.join(assessment.defenders)}): {assessment.ratio} = {assessment.odds}, shift {shift:+d}"
           f"{extras}, column {chart.columns[col]}, {text} {total}{again_text}"
           f"{f' {drm + extra:+d} = {modified}' if drm + extra else ''}: {result.text} [seed {seed}]")
    return CombatRoll(dice, total, modified, chart.columns[col], result, seed, log)
